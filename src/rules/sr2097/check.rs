//! SR 2097 success checks: 2d10 + skill bonus against a target number, with Advantage and
//! Disadvantage, the Margin of Success and its bands, doubles, and the exact odds.

use serde::{Deserialize, Serialize};

use super::{DiceFrom, Sr2097Error, Sr2097Rules};
use crate::rules::Dice;

/// How a check with both Advantage and Disadvantage is described.
pub const CANCEL: &str = "Advantage and Disadvantage cancel";

/// Which way a check leans once its sources are combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tilt {
    Even,
    /// One die more; the roller removes one.
    Advantage,
    /// One die more; the GM removes one.
    Disadvantage,
}

impl Tilt {
    pub fn label(self) -> &'static str {
        match self {
            Tilt::Even => "no Advantage",
            Tilt::Advantage => "Advantage",
            Tilt::Disadvantage => "Disadvantage",
        }
    }
}

/// What a point of Edge did on a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EdgeOnCheck {
    None,
    GainedAdvantage,
    RemovedDisadvantage,
}

impl EdgeOnCheck {
    pub fn spent(self) -> bool {
        self != EdgeOnCheck::None
    }
}

/// A check to make: target number, skill bonus, and how it leans.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Check {
    pub tn: i32,
    pub bonus: i32,
    pub tilt: Tilt,
    pub edge: EdgeOnCheck,
}

impl Check {
    /// Its Advantage or Disadvantage, and what Edge did to it: what sets how many dice it rolls.
    /// `cancelled`: both were asked for (a check keeps neither, so only its maker knows).
    pub fn tilt_text(&self, cancelled: bool) -> &'static str {
        match (self.tilt, self.edge) {
            (Tilt::Even, EdgeOnCheck::None) if cancelled => CANCEL,
            (Tilt::Advantage, EdgeOnCheck::GainedAdvantage) => "Advantage, by Edge",
            (Tilt::Even, EdgeOnCheck::RemovedDisadvantage) => "Edge removes its Disadvantage",
            (Tilt::Advantage, EdgeOnCheck::RemovedDisadvantage) => {
                "Advantage: Edge removes its Disadvantage"
            }
            (tilt, _) => tilt.label(),
        }
    }
}

/// Combines the sources of a check: Advantage and Disadvantage do not stack, both at once
/// cancel to neither; Edge then gains Advantage or removes Disadvantage (with both sources, it
/// removes the Disadvantage and the Advantage stands). `None`: Edge has nothing to do, the check
/// has Advantage already.
pub fn tilt(advantage: bool, disadvantage: bool, edge: bool) -> Option<(Tilt, EdgeOnCheck)> {
    Some(match (advantage, disadvantage, edge) {
        (false, false, false) | (true, true, false) => (Tilt::Even, EdgeOnCheck::None),
        (true, false, false) => (Tilt::Advantage, EdgeOnCheck::None),
        (false, true, false) => (Tilt::Disadvantage, EdgeOnCheck::None),
        (false, false, true) => (Tilt::Advantage, EdgeOnCheck::GainedAdvantage),
        (false, true, true) => (Tilt::Even, EdgeOnCheck::RemovedDisadvantage),
        (true, true, true) => (Tilt::Advantage, EdgeOnCheck::RemovedDisadvantage),
        (true, false, true) => return None,
    })
}

/// How a success or failure ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Band {
    Marginal,
    Significant,
    Complete,
}

impl Band {
    pub fn word(self) -> &'static str {
        match self {
            Band::Marginal => "marginal",
            Band::Significant => "significant",
            Band::Complete => "complete",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    Success(Band),
    Failure(Band),
}

impl Verdict {
    /// Worst first: complete failure 0 … complete success 5.
    pub fn index(self) -> usize {
        match self {
            Verdict::Failure(Band::Complete) => 0,
            Verdict::Failure(Band::Significant) => 1,
            Verdict::Failure(Band::Marginal) => 2,
            Verdict::Success(Band::Marginal) => 3,
            Verdict::Success(Band::Significant) => 4,
            Verdict::Success(Band::Complete) => 5,
        }
    }

    pub const ALL: [Verdict; 6] = [
        Verdict::Failure(Band::Complete),
        Verdict::Failure(Band::Significant),
        Verdict::Failure(Band::Marginal),
        Verdict::Success(Band::Marginal),
        Verdict::Success(Band::Significant),
        Verdict::Success(Band::Complete),
    ];

    pub fn is_success(self) -> bool {
        matches!(self, Verdict::Success(_))
    }

    /// "complete", "significant failure", …
    pub fn words(self) -> String {
        match self {
            Verdict::Success(b) => b.word().to_string(),
            Verdict::Failure(b) => format!("{} failure", b.word()),
        }
    }
}

/// What a double did to the MoS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Double {
    None,
    /// A success with a double: the bonus is added.
    Success,
    /// A failure with a double: the bonus is taken away.
    Failure,
    /// Edge was spent on the check: the bonus is added, success or not.
    Edge,
}

/// A check's result from the dice kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// Dice kept plus the bonus.
    pub total: i32,
    /// Total minus TN, before any double.
    pub margin: i32,
    pub double: Double,
    /// What the double added (negative when it took away).
    pub double_bonus: i32,
    /// The Margin of Success: margin plus the double's bonus.
    pub mos: i32,
    pub verdict: Verdict,
}

/// Judges dice kept against a check.
pub fn judge(check: &Check, kept: &[u8], rules: &Sr2097Rules) -> Outcome {
    let sum: i32 = kept.iter().map(|d| i32::from(*d)).sum();
    let total = sum + check.bonus;
    let margin = total - check.tn;
    let pair = kept
        .iter()
        .enumerate()
        .any(|(i, a)| kept[i + 1..].contains(a));
    let bonus = rules.check.double_bonus;
    let (double, double_bonus) = match (pair, check.edge.spent(), margin >= 0) {
        (false, _, _) => (Double::None, 0),
        (true, true, _) => (Double::Edge, bonus),
        (true, false, true) => (Double::Success, bonus),
        (true, false, false) => (Double::Failure, -bonus),
    };
    let mos = margin + double_bonus;
    let (s, f) = (rules.check.success, rules.check.failure);
    let verdict = if mos >= 0 {
        Verdict::Success(if mos >= s.complete {
            Band::Complete
        } else if mos >= s.significant {
            Band::Significant
        } else {
            Band::Marginal
        })
    } else {
        Verdict::Failure(if mos <= f.complete {
            Band::Complete
        } else if mos <= f.significant {
            Band::Significant
        } else {
            Band::Marginal
        })
    };
    Outcome {
        total,
        margin,
        double,
        double_bonus,
        mos,
        verdict,
    }
}

/// How many dice a check rolls.
pub fn dice_count(tilt: Tilt, rules: &Sr2097Rules) -> usize {
    usize::from(rules.check.dice) + usize::from(tilt != Tilt::Even)
}

/// The dice left once the one at `drop` is removed (at most 4 dice: 3 kept and 1 extra).
fn without(dice: &[u8], drop: usize) -> ([u8; 4], usize) {
    let mut kept = [0u8; 4];
    let mut n = 0;
    for (i, d) in dice.iter().enumerate() {
        if i != drop && n < kept.len() {
            kept[n] = *d;
            n += 1;
        }
    }
    (kept, n)
}

/// The die the default choice removes: with Advantage the roller's best (usually the lowest,
/// unless keeping a double does better), with Disadvantage the GM's worst for the roller (usually
/// the highest, unless forcing a double does worse). Best and worst are by the final MoS; on a
/// tie the lowest (Advantage) or highest (Disadvantage) die goes.
pub fn default_drop(check: &Check, dice: &[u8], rules: &Sr2097Rules) -> usize {
    let mut best: Option<(usize, i32, u8)> = None;
    for (i, face) in dice.iter().copied().enumerate() {
        let (kept, n) = without(dice, i);
        let mos = judge(check, &kept[..n], rules).mos;
        let better = match best {
            None => true,
            Some((_, m, f)) => match check.tilt {
                Tilt::Disadvantage => mos < m || (mos == m && face > f),
                Tilt::Advantage | Tilt::Even => mos > m || (mos == m && face < f),
            },
        };
        if better {
            best = Some((i, mos, face));
        }
    }
    best.map_or(0, |b| b.0)
}

/// One check as it was made: the dice (rolled or typed in) and the one removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRoll {
    pub check: Check,
    pub dice: Vec<u8>,
    /// The index in `dice` of the die removed for Advantage or Disadvantage.
    pub dropped: Option<usize>,
    pub from: DiceFrom,
}

impl CheckRoll {
    pub fn kept(&self) -> Vec<u8> {
        self.dice
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != self.dropped)
            .map(|(_, d)| *d)
            .collect()
    }

    pub fn outcome(&self, rules: &Sr2097Rules) -> Outcome {
        judge(&self.check, &self.kept(), rules)
    }

    fn with_dice(check: Check, dice: Vec<u8>, from: DiceFrom, rules: &Sr2097Rules) -> Self {
        let dropped = (check.tilt != Tilt::Even).then(|| default_drop(&check, &dice, rules));
        Self {
            check,
            dice,
            dropped,
            from,
        }
    }
}

/// Rolls a check with srtrack's dice; the die removed is the default choice.
pub fn roll(check: Check, rules: &Sr2097Rules, dice: &mut dyn Dice) -> CheckRoll {
    let faces = (0..dice_count(check.tilt, rules))
        .map(|_| dice.roll(rules.check.die))
        .collect();
    CheckRoll::with_dice(check, faces, DiceFrom::Rolled, rules)
}

/// Faces typed in from the table's dice, checked against the die.
pub fn faces(typed: &[i32], die: u8) -> Result<Vec<u8>, Sr2097Error> {
    typed
        .iter()
        .map(|f| {
            u8::try_from(*f)
                .ok()
                .filter(|f| (1..=die).contains(f))
                .ok_or(Sr2097Error::NoSuchFace { die, face: *f })
        })
        .collect()
}

/// A check from the table's dice; `drop` is the face the GM (or the roller) chose to remove,
/// else the default choice removes one.
pub fn typed(
    check: Check,
    rules: &Sr2097Rules,
    typed: &[i32],
    drop: Option<i32>,
) -> Result<CheckRoll, Sr2097Error> {
    let need = dice_count(check.tilt, rules);
    if typed.len() != need {
        return Err(Sr2097Error::DiceCount {
            what: format!("check ({})", check.tilt_text(false)),
            need,
            got: typed.len(),
        });
    }
    let dice = faces(typed, rules.check.die)?;
    let Some(face) = drop else {
        return Ok(CheckRoll::with_dice(check, dice, DiceFrom::Typed, rules));
    };
    if check.tilt == Tilt::Even {
        return Err(Sr2097Error::DropWithoutTilt);
    }
    let at = dice
        .iter()
        .position(|d| i32::from(*d) == face)
        .ok_or(Sr2097Error::DropNotRolled { face })?;
    Ok(CheckRoll {
        check,
        dice,
        dropped: Some(at),
        from: DiceFrom::Typed,
    })
}

/// The exact odds of a check: how many of all equally likely rolls end in each verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Odds {
    /// Every roll of the dice counted (10^2 or 10^3 with the default dice).
    pub outcomes: u32,
    /// By [`Verdict::index`].
    pub counts: [u32; 6],
}

impl Odds {
    pub fn of(&self, verdict: Verdict) -> u32 {
        self.counts[verdict.index()]
    }

    pub fn successes(&self) -> u32 {
        self.counts[3..].iter().sum()
    }

    /// A count as a share of every roll, in per cent.
    pub fn percent(&self, count: u32) -> f64 {
        if self.outcomes == 0 {
            0.0
        } else {
            f64::from(count) * 100.0 / f64::from(self.outcomes)
        }
    }

    pub fn success_percent(&self) -> f64 {
        self.percent(self.successes())
    }
}

/// Counts every roll of the dice (no sampling). Rolls that differ only in the order of their
/// faces end alike (the default choice looks at the faces, not their order), so each sorted roll
/// is judged once and counted as often as its faces can be ordered.
pub fn odds(check: &Check, rules: &Sr2097Rules) -> Odds {
    let n = dice_count(check.tilt, rules);
    let sides = rules.check.die;
    let mut counts = [0u32; 6];
    let mut faces = [1u8; 4];
    let mut outcomes = 0u32;
    loop {
        let roll = &faces[..n];
        let verdict = if check.tilt == Tilt::Even {
            judge(check, roll, rules).verdict
        } else {
            let (kept, k) = without(roll, default_drop(check, roll, rules));
            judge(check, &kept[..k], rules).verdict
        };
        let ways = orderings(roll);
        counts[verdict.index()] += ways;
        outcomes += ways;
        // The next non-decreasing sequence of faces.
        let Some(i) = (0..n).rev().find(|&i| faces[i] < sides) else {
            break;
        };
        let next = faces[i] + 1;
        for f in &mut faces[i..n] {
            *f = next;
        }
    }
    Odds { outcomes, counts }
}

/// How many orders a sorted roll's faces can come in: n! over the factorial of each run.
fn orderings(sorted: &[u8]) -> u32 {
    let fact = |k: usize| (1..=k as u32).product::<u32>();
    let mut ways = fact(sorted.len());
    let mut run = 1;
    for i in 1..=sorted.len() {
        if i < sorted.len() && sorted[i] == sorted[i - 1] {
            run += 1;
        } else {
            ways /= fact(run);
            run = 1;
        }
    }
    ways
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::HouseRules;

    fn rules() -> Sr2097Rules {
        HouseRules::embedded().sr2097
    }

    fn check(tn: i32, bonus: i32, tilt: Tilt, edge: EdgeOnCheck) -> Check {
        Check {
            tn,
            bonus,
            tilt,
            edge,
        }
    }

    #[test]
    fn orderings_count_permutations_of_repeated_faces() {
        assert_eq!(orderings(&[1, 2, 3]), 6);
        assert_eq!(orderings(&[4, 4, 9]), 3);
        assert_eq!(orderings(&[7, 7, 7]), 1);
        assert_eq!(orderings(&[2, 5]), 2);
    }

    #[test]
    fn the_odds_count_every_roll() {
        let r = rules();
        let even = odds(&check(20, 10, Tilt::Even, EdgeOnCheck::None), &r);
        assert_eq!(even.outcomes, 100);
        let adv = odds(&check(20, 10, Tilt::Advantage, EdgeOnCheck::None), &r);
        assert_eq!(adv.outcomes, 1000);
        assert_eq!(adv.counts.iter().sum::<u32>(), 1000);
    }

    #[test]
    fn without_the_extra_die_the_default_keeps_what_is_best_for_whom_it_serves() {
        let r = rules();
        let adv = check(20, 10, Tilt::Advantage, EdgeOnCheck::None);
        // 9 7 7: dropping the 9 keeps a double, 14 + 10 = 24, MoS 4 + 5 = 9 beats 16 + 10 (MoS 6).
        assert_eq!(default_drop(&adv, &[9, 7, 7], &r), 0);
        let dis = check(20, 10, Tilt::Disadvantage, EdgeOnCheck::None);
        // 2 2 9: the GM drops the 9 (the highest) and forces a double on a failure.
        assert_eq!(default_drop(&dis, &[2, 2, 9], &r), 2);
    }
}
