//! The initiative test and the initiative order: score high to low, then the four tie steps.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::dice::{Dice, Glitch, PoolRoll};
use super::house::DiceRules;

/// How a combatant's initiative came about: rolled here, or typed in from the table's dice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeRoll {
    /// The dice rolled: Intuition + Reaction + modifier at the time of the roll (SR5), or the
    /// initiative d6s (SR 2097). The tie steps' "bigger pool" compares it.
    pub pool: u8,
    /// SR5's score: hits on the pool (0 for a sum).
    pub hits: u8,
    /// Never a glitch for a sum: the tie steps' "glitched goes last" then passes over it.
    pub glitch: Glitch,
    /// The dice when srtrack rolled them (or, for a sum, typed them in); `None` when SR5's
    /// hits were typed in.
    pub dice: Option<Vec<u8>>,
    /// What the score counts. Saves from before SR 2097 have no field here: hits.
    #[serde(default, skip_serializing_if = "Scoring::is_hits")]
    pub scoring: Scoring,
    /// SR5's Close Call was used on it (once per test): `glitch` is what it left.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub close_called: bool,
}

/// What an initiative score counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Scoring {
    /// Hits on the pool (SR5).
    #[default]
    Hits,
    /// The dice's sum plus a bonus (SR 2097, our ruling: Intuition + Reaction).
    Sum {
        bonus: u8,
        total: u8,
        from: super::sr2097::DiceFrom,
    },
}

impl Scoring {
    pub fn is_hits(&self) -> bool {
        *self == Scoring::Hits
    }
}

impl InitiativeRoll {
    pub fn rolled(pool: u8, rules: &DiceRules, dice: &mut dyn Dice) -> Self {
        let r = PoolRoll::roll(pool, rules, dice);
        Self {
            pool,
            hits: r.hits,
            glitch: r.glitch,
            dice: Some(r.dice),
            scoring: Scoring::Hits,
            close_called: false,
        }
    }

    pub fn typed(pool: u8, hits: u8, glitched: bool) -> Self {
        Self {
            pool,
            hits,
            glitch: Glitch::from_parts(glitched, hits),
            dice: None,
            scoring: Scoring::Hits,
            close_called: false,
        }
    }

    /// A score that is the dice's sum plus `bonus`, from dice rolled or typed in.
    pub fn summed(dice: Vec<u8>, bonus: u8, from: super::sr2097::DiceFrom) -> Self {
        let total = dice.iter().fold(bonus, |t, d| t.saturating_add(*d));
        Self {
            pool: u8::try_from(dice.len()).unwrap_or(u8::MAX),
            hits: 0,
            glitch: Glitch::None,
            dice: Some(dice),
            scoring: Scoring::Sum { bonus, total, from },
            close_called: false,
        }
    }

    pub fn score(&self) -> u8 {
        match self.scoring {
            Scoring::Hits => self.hits,
            Scoring::Sum { total, .. } => total,
        }
    }
}

/// Everything the tie steps look at, for one entrant in the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderKey {
    pub score: u8,
    pub glitched: bool,
    pub pool: u8,
    pub edge: u8,
}

/// Which step decided between two entrants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decider {
    Score,
    /// Step 1: a glitched roll goes last among equal scores.
    Glitch,
    /// Step 2: the bigger initiative pool first.
    Pool,
    /// Step 3: the higher Edge first.
    Edge,
    /// Nothing on the sheet decides: step 4, the d6 roll-off.
    RollOff,
}

impl OrderKey {
    /// `Less` when `self` acts first. Returns the step that decided.
    pub fn compare(&self, other: &OrderKey) -> (Ordering, Decider) {
        let steps = [
            (other.score.cmp(&self.score), Decider::Score),
            (self.glitched.cmp(&other.glitched), Decider::Glitch),
            (other.pool.cmp(&self.pool), Decider::Pool),
            (other.edge.cmp(&self.edge), Decider::Edge),
        ];
        steps
            .into_iter()
            .find(|(o, _)| o.is_ne())
            .unwrap_or((Ordering::Equal, Decider::RollOff))
    }
}

/// One d6 roll-off among entrants tied on every step: each round lists the dice of those still tied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOff<Id> {
    pub rounds: Vec<Vec<(Id, u8)>>,
}

impl<Id: Copy + Eq> RollOff<Id> {
    /// The dice `id` rolled, round by round.
    pub fn dice_of(&self, id: Id) -> Vec<u8> {
        self.rounds
            .iter()
            .filter_map(|round| round.iter().find(|(i, _)| *i == id).map(|(_, d)| *d))
            .collect()
    }

    pub fn involves(&self, id: Id) -> bool {
        self.rounds
            .first()
            .is_some_and(|r| r.iter().any(|(i, _)| *i == id))
    }

    /// `Less` when `a` won against `b`, with the round (from 0) that parted them.
    pub fn compare(&self, a: Id, b: Id) -> Option<(Ordering, usize)> {
        let (da, db) = (self.dice_of(a), self.dice_of(b));
        da.iter()
            .zip(&db)
            .enumerate()
            .find(|(_, (x, y))| x != y)
            .map(|(round, (x, y))| (y.cmp(x), round))
    }
}

/// Rolls off among `tied` until every one is apart; returns them best first, with the dice.
pub fn roll_off<Id: Copy + Eq>(
    tied: &[Id],
    sides: u8,
    dice: &mut dyn Dice,
) -> (Vec<Id>, RollOff<Id>) {
    let mut rounds: Vec<Vec<(Id, u8)>> = Vec::new();
    // Each still-tied cluster is a list of ids that have rolled the same so far.
    let mut clusters: Vec<Vec<Id>> = vec![tied.to_vec()];
    while clusters.iter().any(|c| c.len() > 1) {
        let mut round = Vec::new();
        let mut next = Vec::new();
        for cluster in clusters {
            if cluster.len() == 1 {
                next.push(cluster);
                continue;
            }
            let mut rolled: Vec<(Id, u8)> =
                cluster.iter().map(|&id| (id, dice.roll(sides))).collect();
            round.extend(rolled.iter().copied());
            // Highest first; a stable sort keeps the cluster's own order among equal dice.
            rolled.sort_by_key(|r| std::cmp::Reverse(r.1));
            let mut start = 0;
            while start < rolled.len() {
                let face = rolled[start].1;
                let end = rolled[start..]
                    .iter()
                    .position(|(_, d)| *d != face)
                    .map_or(rolled.len(), |p| start + p);
                next.push(rolled[start..end].iter().map(|(id, _)| *id).collect());
                start = end;
            }
        }
        rounds.push(round);
        clusters = next;
    }
    let order = clusters.into_iter().flatten().collect();
    (order, RollOff { rounds })
}

/// Orders entrants by the rules' steps, rolling off where every step ties.
pub fn order<Id: Copy + Eq>(
    entrants: &[(Id, OrderKey)],
    sides: u8,
    dice: &mut dyn Dice,
) -> (Vec<Id>, Vec<RollOff<Id>>) {
    let mut sorted = entrants.to_vec();
    sorted.sort_by(|a, b| a.1.compare(&b.1).0);
    let mut out = Vec::with_capacity(sorted.len());
    let mut rolloffs = Vec::new();
    let mut start = 0;
    while start < sorted.len() {
        let key = sorted[start].1;
        let end = sorted[start..]
            .iter()
            .position(|(_, k)| *k != key)
            .map_or(sorted.len(), |p| start + p);
        let ids: Vec<Id> = sorted[start..end].iter().map(|(id, _)| *id).collect();
        if ids.len() > 1 {
            let (ordered, rolloff) = roll_off(&ids, sides, dice);
            out.extend(ordered);
            rolloffs.push(rolloff);
        } else {
            out.extend(ids);
        }
        start = end;
    }
    (out, rolloffs)
}

/// Where a newcomer goes in an order already held: before the first entrant it beats by the same
/// steps, rolling off one to one against each entrant it ties with, from the top down.
pub fn slot<Id: Copy + Eq>(
    key: OrderKey,
    newcomer: Id,
    existing: &[(Id, OrderKey)],
    sides: u8,
    dice: &mut dyn Dice,
) -> (usize, Vec<RollOff<Id>>) {
    let mut rolloffs = Vec::new();
    for (index, (id, other)) in existing.iter().enumerate() {
        match key.compare(other).0 {
            Ordering::Less => return (index, rolloffs),
            Ordering::Greater => {}
            Ordering::Equal => {
                let (winner, rolloff) = roll_off(&[newcomer, *id], sides, dice);
                rolloffs.push(rolloff);
                if winner.first() == Some(&newcomer) {
                    return (index, rolloffs);
                }
            }
        }
    }
    (existing.len(), rolloffs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    fn key(score: u8, glitched: bool, pool: u8, edge: u8) -> OrderKey {
        OrderKey {
            score,
            glitched,
            pool,
            edge,
        }
    }

    #[test]
    fn the_four_steps_in_order() {
        let a = key(3, false, 7, 1);
        assert_eq!(
            a.compare(&key(2, false, 9, 5)),
            (Ordering::Less, Decider::Score)
        );
        assert_eq!(
            a.compare(&key(3, true, 9, 5)),
            (Ordering::Less, Decider::Glitch)
        );
        assert_eq!(
            a.compare(&key(3, false, 9, 0)),
            (Ordering::Greater, Decider::Pool)
        );
        assert_eq!(
            a.compare(&key(3, false, 7, 2)),
            (Ordering::Greater, Decider::Edge)
        );
        assert_eq!(a.compare(&a), (Ordering::Equal, Decider::RollOff));
    }

    #[test]
    fn a_four_way_tie_rolls_off_and_rerolls_only_those_still_tied() {
        let k = key(2, false, 6, 1);
        // Round 1: a 4, b 6, c 4, d 1. Still tied: a and c. Round 2: a 3, c 3. Round 3: a 2, c 5.
        let mut dice = ScriptedDice::new([4, 6, 4, 1, 3, 3, 2, 5]);
        let (ids, rolloffs) = order(&[('a', k), ('b', k), ('c', k), ('d', k)], 6, &mut dice);
        assert_eq!(ids, vec!['b', 'c', 'a', 'd']);
        assert_eq!(rolloffs.len(), 1);
        assert_eq!(rolloffs[0].rounds.len(), 3);
        assert_eq!(rolloffs[0].dice_of('c'), vec![4, 3, 5]);
        assert_eq!(rolloffs[0].compare('c', 'a'), Some((Ordering::Less, 2)));
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn a_newcomer_slots_before_the_first_it_beats() {
        let existing = [('a', key(4, false, 8, 1)), ('b', key(2, false, 8, 1))];
        let mut dice = ScriptedDice::new([]);
        assert_eq!(slot(key(3, false, 1, 0), 'n', &existing, 6, &mut dice).0, 1);
        assert_eq!(slot(key(0, true, 1, 0), 'n', &existing, 6, &mut dice).0, 2);
    }

    #[test]
    fn a_newcomer_tied_with_one_rolls_off_against_it() {
        let existing = [('a', key(4, false, 8, 1)), ('b', key(2, false, 8, 1))];
        let mut dice = ScriptedDice::new([2, 5]);
        let (at, rolloffs) = slot(key(4, false, 8, 1), 'n', &existing, 6, &mut dice);
        assert_eq!(at, 1);
        assert_eq!(rolloffs[0].rounds, vec![vec![('n', 2), ('a', 5)]]);
    }
}
