//! Dice and dice-pool tests: hits, glitches and critical glitches.

use rand::{Rng, SeedableRng, rngs::StdRng};
use serde::{Deserialize, Serialize};

use super::house::DiceRules;

/// A source of die results. The app rolls with [`RandomDice`]; tests script every die.
pub trait Dice {
    /// One die of `sides` faces, 1..=sides.
    fn roll(&mut self, sides: u8) -> u8;
}

/// Real dice, from an OS-seeded or fixed-seed generator.
pub struct RandomDice(StdRng);

impl RandomDice {
    pub fn new() -> Self {
        Self(StdRng::from_os_rng())
    }

    /// Reproducible dice, for scripted runs (`--seed`).
    pub fn seeded(seed: u64) -> Self {
        Self(StdRng::seed_from_u64(seed))
    }
}

impl Default for RandomDice {
    fn default() -> Self {
        Self::new()
    }
}

impl Dice for RandomDice {
    fn roll(&mut self, sides: u8) -> u8 {
        self.0.random_range(1..=sides.max(1))
    }
}

/// Dice that give back a fixed list of results, in order; for tests and replays.
#[derive(Debug, Clone, Default)]
pub struct ScriptedDice {
    results: std::collections::VecDeque<u8>,
}

impl ScriptedDice {
    pub fn new(results: impl IntoIterator<Item = u8>) -> Self {
        Self {
            results: results.into_iter().collect(),
        }
    }

    pub fn remaining(&self) -> usize {
        self.results.len()
    }
}

impl Dice for ScriptedDice {
    fn roll(&mut self, sides: u8) -> u8 {
        // Running out of scripted dice is a defect in the test that scripted them.
        let r = self
            .results
            .pop_front()
            .expect("the scripted dice ran out: script more results");
        assert!(
            (1..=sides).contains(&r),
            "scripted die {r} is not a face of a d{sides}"
        );
        r
    }
}

/// Whether a test glitched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Glitch {
    #[default]
    None,
    /// More than half the dice show 1.
    Glitch,
    /// A glitch with no hit.
    Critical,
}

impl Glitch {
    pub fn from_parts(glitched: bool, hits: u8) -> Self {
        match (glitched, hits) {
            (false, _) => Glitch::None,
            (true, 0) => Glitch::Critical,
            (true, _) => Glitch::Glitch,
        }
    }

    pub fn is_glitch(self) -> bool {
        self != Glitch::None
    }
}

/// The dice of one pool roll and what they add up to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolRoll {
    pub dice: Vec<u8>,
    pub hits: u8,
    pub glitch: Glitch,
}

impl PoolRoll {
    /// Reads hits and glitch off dice already rolled.
    pub fn from_dice(dice: Vec<u8>, rules: &DiceRules) -> Self {
        let hits = dice.iter().filter(|&&d| d >= rules.hit_at_least).count();
        let ones = dice.iter().filter(|&&d| d == rules.glitch_face).count();
        // More than num/den of the dice: ones * den > dice * num, in integers.
        let glitched = !dice.is_empty()
            && ones * usize::from(rules.glitch_more_than_den)
                > dice.len() * usize::from(rules.glitch_more_than_num);
        let hits = u8::try_from(hits).unwrap_or(u8::MAX);
        Self {
            dice,
            hits,
            glitch: Glitch::from_parts(glitched, hits),
        }
    }

    pub fn roll(pool: u8, rules: &DiceRules, dice: &mut dyn Dice) -> Self {
        let rolled = (0..pool).map(|_| dice.roll(rules.sides)).collect();
        Self::from_dice(rolled, rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::house::HouseRules;

    fn rules() -> DiceRules {
        HouseRules::embedded().dice
    }

    #[test]
    fn fives_and_sixes_are_hits() {
        let r = PoolRoll::from_dice(vec![5, 6, 4, 1, 3, 5], &rules());
        assert_eq!(r.hits, 3);
        assert_eq!(r.glitch, Glitch::None);
    }

    #[test]
    fn half_the_dice_on_one_is_not_a_glitch_more_than_half_is() {
        assert_eq!(
            PoolRoll::from_dice(vec![1, 1, 5, 3], &rules()).glitch,
            Glitch::None
        );
        assert_eq!(
            PoolRoll::from_dice(vec![1, 1, 1, 5], &rules()).glitch,
            Glitch::Glitch
        );
    }

    #[test]
    fn a_glitch_with_no_hit_is_critical() {
        assert_eq!(
            PoolRoll::from_dice(vec![1, 1, 1, 4], &rules()).glitch,
            Glitch::Critical
        );
        assert_eq!(
            PoolRoll::from_dice(vec![1], &rules()).glitch,
            Glitch::Critical
        );
    }

    #[test]
    fn an_empty_pool_neither_hits_nor_glitches() {
        let r = PoolRoll::from_dice(vec![], &rules());
        assert_eq!((r.hits, r.glitch), (0, Glitch::None));
    }

    #[test]
    fn a_seeded_roll_is_reproducible_and_on_the_die() {
        let a = PoolRoll::roll(20, &rules(), &mut RandomDice::seeded(7));
        let b = PoolRoll::roll(20, &rules(), &mut RandomDice::seeded(7));
        assert_eq!(a, b);
        assert!(a.dice.iter().all(|d| (1..=6).contains(d)));
    }
}
