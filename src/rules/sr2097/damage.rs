//! SR 2097 damage: N d6 + ST, the MoS's and Edge's extra dice, armor's Penetration Threshold and
//! Damage Reduction, and the severity of the injury left (our ruling).

use serde::{Deserialize, Serialize};

use super::{DiceFrom, Rounding, Sr2097Rules};
use crate::rules::Dice;

/// How bad an injury is, lightest first (the text names the steps; the bands are ours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    Graze,
    Moderate,
    Serious,
    Critical,
    LifeThreatening,
}

impl Severity {
    pub const ALL: [Severity; 5] = [
        Severity::Graze,
        Severity::Moderate,
        Severity::Serious,
        Severity::Critical,
        Severity::LifeThreatening,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Severity::Graze => "graze",
            Severity::Moderate => "moderate",
            Severity::Serious => "serious",
            Severity::Critical => "critical",
            Severity::LifeThreatening => "life-threatening",
        }
    }

    /// `steps` lighter, or `None` if that is below a graze.
    pub fn lighter(self, steps: u8) -> Option<Severity> {
        let at = Self::ALL.iter().position(|s| *s == self)?;
        at.checked_sub(usize::from(steps))
            .and_then(|i| Self::ALL.get(i).copied())
    }
}

/// Armor: damage below PT is stopped; damage at or above it loses DR per cent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Armor {
    pub pt: u16,
    pub dr: u8,
}

/// One damage roll: its dice (weapon, MoS, Edge, in that order) and the ST added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageRoll {
    pub dice: Vec<u8>,
    /// Dice of the weapon (or of the typed NdM).
    pub base: u8,
    /// Dice the attack's MoS added.
    pub mos_dice: u8,
    /// Dice Edge added.
    pub edge_dice: u8,
    pub st: u16,
    pub from: DiceFrom,
}

impl DamageRoll {
    pub fn total(&self) -> u16 {
        self.dice.iter().map(|d| u16::from(*d)).sum::<u16>() + self.st
    }

    /// How many dice in all.
    pub fn count(&self) -> u8 {
        self.base + self.mos_dice + self.edge_dice
    }
}

/// The damage dice an attack's MoS adds: the highest step it reached.
pub fn mos_dice(mos: i32, rules: &Sr2097Rules) -> u8 {
    rules
        .check
        .mos_damage_dice
        .iter()
        .filter(|s| mos >= s.mos)
        .map(|s| s.dice)
        .max()
        .unwrap_or(0)
}

/// Rolls `count` damage dice.
pub fn roll_dice(count: u8, rules: &Sr2097Rules, dice: &mut dyn Dice) -> Vec<u8> {
    (0..count).map(|_| dice.roll(rules.damage.die)).collect()
}

/// What armor did to the damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Through {
    /// No armor on the sheet: all of it gets through.
    Unarmored,
    /// Below the Penetration Threshold: none of it gets through.
    Stopped,
    /// At or above it: the Damage Reduction takes `reduced`.
    Reduced { reduced: u16 },
}

impl Through {
    /// What gets through of `total`.
    pub fn left(self, total: u16) -> u16 {
        match self {
            Through::Unarmored => total,
            Through::Stopped => 0,
            Through::Reduced { reduced } => total.saturating_sub(reduced),
        }
    }
}

/// Puts damage through armor. The text's example: 16 against PT 15/DR 30 penetrates, the armor
/// soaks 30 % of 16 rounded down, 4, and 12 gets through.
pub fn through(total: u16, armor: Option<Armor>, rules: &Sr2097Rules) -> Through {
    let Some(a) = armor else {
        return Through::Unarmored;
    };
    if total < a.pt {
        return Through::Stopped;
    }
    let share = u32::from(total) * u32::from(a.dr);
    let reduced = match rules.damage.reduction {
        Rounding::Down => share / 100,
        Rounding::Up => share.div_ceil(100),
        Rounding::Nearest => (share + 50) / 100,
    };
    Through::Reduced {
        reduced: u16::try_from(reduced).unwrap_or(u16::MAX).min(total),
    }
}

/// The severity of an injury of `damage` points; `None` when nothing got through.
pub fn severity(damage: u16, rules: &Sr2097Rules) -> Option<Severity> {
    rules
        .damage
        .severity
        .iter()
        .rev()
        .find(|s| damage >= s.from)
        .map(|s| s.severity)
}

/// The chance of each sum of `n` dice of `die` faces (index = sum), worked out die by die (the
/// counts of 30d6 would not fit in an integer).
pub fn sums(n: u8, die: u8) -> Vec<f64> {
    let mut chance = vec![1.0];
    let each = 1.0 / f64::from(die.max(1));
    for _ in 0..n {
        let mut next = vec![0.0; chance.len() + usize::from(die)];
        for (s, p) in chance.iter().enumerate() {
            for f in 1..=usize::from(die) {
                next[s + f] += p * each;
            }
        }
        chance = next;
    }
    chance
}

/// The exact chance, in per cent, that `n` dice plus `st` reach `at_least`.
pub fn chance_at_least(n: u8, st: u16, at_least: u16, rules: &Sr2097Rules) -> f64 {
    let need = usize::from(at_least.saturating_sub(st));
    // Folded from +0.0: none left to sum gives 0, not the -0.0 an empty float sum is.
    sums(n, rules.damage.die)
        .iter()
        .skip(need)
        .fold(0.0, |sum, p| sum + p)
        * 100.0
}

/// The chance that a damage roll injures through armor, exactly: in per cent, and whether no
/// roll can or every roll does (a per cent rounded to 0.0 or 100.0 is not certainty).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InjuryChance {
    pub percent: f64,
    pub never: bool,
    pub always: bool,
}

/// The chance that `n` dice plus `st` leave an injury through `armor`: the total reaches the PT
/// and what the DR leaves is of a severity (at DR 100 nothing is left, whatever the dice).
pub fn injury_chance(n: u8, st: u16, armor: Armor, rules: &Sr2097Rules) -> InjuryChance {
    let mut out = InjuryChance {
        percent: 0.0,
        never: true,
        always: true,
    };
    for (sum, p) in sums(n, rules.damage.die).into_iter().enumerate() {
        // Sums below `n` cannot be rolled: they say nothing of never or always.
        if sum < usize::from(n) {
            continue;
        }
        let total = u16::try_from(sum).unwrap_or(u16::MAX).saturating_add(st);
        let left = through(total, Some(armor), rules).left(total);
        if severity(left, rules).is_some() {
            out.percent += p * 100.0;
            out.never = false;
        } else {
            out.always = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::HouseRules;

    /// Given armor of DR 100, when any roll meets it, then no roll injures: the chance is
    /// never, not the chance of reaching the PT.
    #[test]
    fn a_dr_of_100_leaves_no_roll_an_injury() {
        let r = HouseRules::embedded().sr2097;
        let c = injury_chance(2, 4, Armor { pt: 0, dr: 100 }, &r);
        assert!(c.never && !c.always, "{c:?}");
        assert!(c.percent.abs() < f64::EPSILON, "{c:?}");
        // And against PT 15/DR 30 it is the chance of reaching 15 (what 30% leaves injures).
        let c = injury_chance(4, 7, Armor { pt: 15, dr: 30 }, &r);
        let reach = chance_at_least(4, 7, 15, &r);
        assert!((c.percent - reach).abs() < 1e-9, "{c:?} {reach}");
    }

    /// Given a total the dice cannot reach, when its chance is written, then it reads 0, not
    /// `-0.0` (an empty float sum is -0.0).
    #[test]
    fn an_unreachable_total_has_a_plain_zero_chance() {
        let r = HouseRules::embedded().sr2097;
        let p = chance_at_least(1, 0, 7, &r);
        assert_eq!(format!("{p:.1}"), "0.0");
    }

    #[test]
    fn sums_of_two_d6_peak_at_seven() {
        let w = sums(2, 6);
        assert!((w[7] * 36.0 - 6.0).abs() < 1e-9);
        assert!((w[2] * 36.0 - 1.0).abs() < 1e-9);
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn severity_steps_down_one_at_a_time_and_stop_at_a_graze() {
        assert_eq!(Severity::Serious.lighter(1), Some(Severity::Moderate));
        assert_eq!(Severity::Graze.lighter(1), None);
        let r = HouseRules::embedded().sr2097;
        assert_eq!(severity(0, &r), None);
    }
}
