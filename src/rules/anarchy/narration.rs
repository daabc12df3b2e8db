//! The order of a narration turn: the seating, reversed, or from a seat a die chose; and the
//! Movements a narration has.

use serde::{Deserialize, Serialize};

use super::MovementRules;
use crate::rules::Dice;

/// How a turn's order is made from the seating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnOrder<T> {
    /// Around the table, as seated.
    Seating,
    /// The other way round: the last seat first (the player to the GM's right).
    Reversed,
    /// As seated, starting at the seat a die chose; `die` is the face it showed.
    From { seat: T, die: u8 },
}

/// The turn's order for a seating and a way of ordering it. A `From` seat no longer seated
/// leaves the seating as it is.
pub fn order<T: Copy + PartialEq>(seating: &[T], how: TurnOrder<T>) -> Vec<T> {
    match how {
        TurnOrder::Seating => seating.to_vec(),
        TurnOrder::Reversed => seating.iter().rev().copied().collect(),
        TurnOrder::From { seat, .. } => match seating.iter().position(|s| *s == seat) {
            Some(i) => seating[i..].iter().chain(&seating[..i]).copied().collect(),
            None => seating.to_vec(),
        },
    }
}

/// A die with one face per seat picks the starting seat: face k is the k-th seat. `None`
/// when nobody is seated.
pub fn roll_start<T: Copy>(seating: &[T], dice: &mut dyn Dice) -> Option<TurnOrder<T>> {
    let seats = u8::try_from(seating.len()).unwrap_or(u8::MAX);
    if seats == 0 {
        return None;
    }
    let face = dice.roll(seats);
    let seat = *seating.get(usize::from(face.max(1)) - 1)?;
    Some(TurnOrder::From { seat, die: face })
}

/// The Movements of a narration: the usual ones, or Double-Time It's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Movements {
    Usual,
    DoubleTime,
}

impl Movements {
    pub fn count(self, rules: &MovementRules) -> u8 {
        match self {
            Movements::Usual => rules.per_narration,
            Movements::DoubleTime => rules.double_time,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ScriptedDice;

    #[test]
    fn reversed_starts_with_the_last_seat() {
        assert_eq!(order(&[1, 2, 3, 4], TurnOrder::Reversed), vec![4, 3, 2, 1]);
    }

    #[test]
    fn a_rolled_start_goes_round_the_table_from_that_seat() {
        let mut d = ScriptedDice::new([3]);
        let how = roll_start(&['a', 'b', 'c', 'd'], &mut d).unwrap();
        assert_eq!(how, TurnOrder::From { seat: 'c', die: 3 });
        assert_eq!(order(&['a', 'b', 'c', 'd'], how), vec!['c', 'd', 'a', 'b']);
    }

    #[test]
    fn nobody_seated_rolls_nothing() {
        let mut d = ScriptedDice::new([]);
        assert_eq!(roll_start::<u8>(&[], &mut d), None);
    }
}
