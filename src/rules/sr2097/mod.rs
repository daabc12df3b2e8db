//! Shadowrun 2097's pure rules: success checks, damage against armor, Edge. Every number comes
//! from the `sr2097` section of `assets/rules.ron` ([`Sr2097Rules`]).

pub mod check;
pub mod damage;
pub mod edge;

use serde::{Deserialize, Serialize};

use super::house::Range;
pub use check::{Band, Check, CheckRoll, EdgeOnCheck, Odds, Tilt, Verdict};
pub use damage::{Armor, DamageRoll, Severity, Through};
pub use edge::{EdgePool, EdgeUse};

/// SR 2097's numbers, and those of our rulings where the text is silent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sr2097Rules {
    pub check: CheckRules,
    pub damage: DamageRules,
    pub edge: EdgeRules,
    pub initiative: InitiativeRules,
}

/// Success checks: the dice, the difficulty words, the MoS bands, doubles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRules {
    /// Faces of a check die (the d10).
    pub die: u8,
    /// Dice kept and added (2).
    pub dice: u8,
    pub difficulties: Vec<Difficulty>,
    pub tn: Range,
    pub bonus: Range,
    /// The MoS from which a success is significant, and complete.
    pub success: Bands,
    /// The MoS at or below which a failure is significant, and complete.
    pub failure: Bands,
    /// Added to the MoS of a success with a double (and of any check with Edge spent on it),
    /// taken from a failure's.
    pub double_bonus: i32,
    /// Damage dice an attack's MoS adds: the highest step reached counts.
    pub mos_damage_dice: Vec<MosDice>,
    /// The status a significant failure leaves: Disadvantage on the next related check.
    pub related_disadvantage: String,
    /// The status a complete failure leaves: Disadvantage on the next check.
    pub any_disadvantage: String,
}

/// A difficulty word and its target number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difficulty {
    pub word: String,
    pub tn: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bands {
    pub significant: i32,
    pub complete: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MosDice {
    pub mos: i32,
    pub dice: u8,
}

/// Damage: the die, the ranges a roll and an armor may hold, rounding, injury severity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageRules {
    pub die: u8,
    pub dice: Range,
    pub st: Range,
    pub strength: Range,
    pub pt: Range,
    pub dr: Range,
    /// How the part DR takes is rounded.
    pub reduction: Rounding,
    /// Injury severity by the damage that got through: the last step reached counts.
    pub severity: Vec<SeverityStep>,
    /// An injury this severe or worse Downs the character.
    pub downed_at: Severity,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rounding {
    Down,
    Nearest,
    Up,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeverityStep {
    pub from: u16,
    pub severity: Severity,
}

/// Edge: what each use costs and gives, recovery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeRules {
    pub check: u8,
    pub boost: u8,
    pub boost_dice: u8,
    pub damage: u8,
    pub damage_dice: u8,
    pub lessen: u8,
    pub lessen_steps: u8,
    /// Current Edge an Edge Burn costs, and maximum Edge it takes for good.
    pub burn: u8,
    pub burn_max: u8,
    /// Edge Burn is for an injury this severe (the one that would kill).
    pub burn_at: Severity,
    /// Edge a long rest gives back.
    pub rest: u8,
    pub award: Range,
}

/// Our ruling on a 2097 initiative: the sum of d6s plus Intuition and Reaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeRules {
    pub die: u8,
    /// Initiative dice before the sheet's dice modifier.
    pub dice: u8,
    /// The fewest dice whatever the modifier.
    pub min_dice: u8,
}

impl CheckRules {
    /// The best MoS a check can make: the highest faces kept, the highest bonus, the lowest
    /// TN and a double's bonus (2d10 of 20 + 99 - 1 + 5 = 123).
    pub fn best_mos(&self) -> i32 {
        i32::from(self.dice) * i32::from(self.die) + self.bonus.max - self.tn.min
            + self.double_bonus
    }
}

impl Sr2097Rules {
    /// The target number a difficulty word stands for (`moderate`, `very difficult`, …).
    pub fn tn_of(&self, word: &str) -> Option<i32> {
        let word = word.split_whitespace().collect::<Vec<_>>().join(" ");
        self.check
            .difficulties
            .iter()
            .find(|d| d.word.eq_ignore_ascii_case(&word))
            .map(|d| d.tn)
    }

    /// The difficulty words, for messages: "very easy 10, easy 15, …".
    pub fn difficulty_words(&self) -> String {
        let words: Vec<String> = self
            .check
            .difficulties
            .iter()
            .map(|d| format!("{} {}", d.word, d.tn))
            .collect();
        words.join(", ")
    }

    /// How many initiative d6s a sheet's dice modifier gives.
    pub fn initiative_dice(&self, modifier: i8) -> u8 {
        let n = i16::from(self.initiative.dice) + i16::from(modifier);
        u8::try_from(n.max(i16::from(self.initiative.min_dice))).unwrap_or(u8::MAX)
    }

    /// Checks the numbers hang together (called by `HouseRules::validate`).
    pub fn validate(&self) -> Result<(), String> {
        let c = &self.check;
        if c.die < 2 {
            return Err("sr2097.check.die must have at least 2 faces".into());
        }
        // Doubles need two kept dice; more would make the odds' enumeration needlessly large.
        if !(2..=3).contains(&c.dice) {
            return Err("sr2097.check.dice must be 2 or 3".into());
        }
        if c.success.significant > c.success.complete || c.success.significant < 0 {
            return Err("sr2097.check.success: 0 <= significant <= complete".into());
        }
        if c.failure.significant < c.failure.complete || c.failure.significant >= 0 {
            return Err("sr2097.check.failure: complete <= significant < 0".into());
        }
        let mut seen = std::collections::HashSet::new();
        for d in &c.difficulties {
            if d.word.trim().is_empty() || !seen.insert(d.word.to_lowercase()) {
                return Err(format!(
                    "sr2097.check.difficulties: \"{}\" is empty or given twice",
                    d.word
                ));
            }
        }
        let d = &self.damage;
        if d.die < 2 {
            return Err("sr2097.damage.die must have at least 2 faces".into());
        }
        if d.severity.is_empty()
            // The first step is the lightest injury: any damage that gets through is one.
            || d.severity.first().is_some_and(|s| s.from != 1)
            || d.severity.windows(2).any(|w| w[0].from >= w[1].from)
        {
            return Err(
                "sr2097.damage.severity: steps from 1 upwards, each above the one before".into(),
            );
        }
        if d.dr.max > 100 || d.dr.min < 0 {
            return Err("sr2097.damage.dr is a percentage: 0 to 100".into());
        }
        let i = &self.initiative;
        if i.die < 2 || i.min_dice == 0 {
            return Err("sr2097.initiative: die of 2 faces or more, min_dice at least 1".into());
        }
        Ok(())
    }
}

/// Where dice came from: srtrack rolled them, or the table's dice were typed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DiceFrom {
    Rolled,
    Typed,
}

/// What Edge can still do for a character dying of an injury: burn (its maximum above 0),
/// lessen the injury (Edge left to pay), both, or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WayOut {
    pub burn: bool,
    pub lessen: bool,
}

impl WayOut {
    /// Why first aid is refused, pointing only to the ways out there are.
    fn told(self, who: &str, number: usize, severity: &str) -> String {
        let kills = format!("{who}'s injury {number} is {severity} and kills");
        let no_up = format!("first aid (`up`) cannot bring {who} back");
        match (self.burn, self.lessen) {
            (true, true) => {
                format!(
                    "{kills} without Edge Burn (`edge {who} burn`) or Lessen Injury (`edge {who} lessen {number}`): {no_up}"
                )
            }
            (true, false) => format!("{kills} without Edge Burn (`edge {who} burn`): {no_up}"),
            (false, true) => {
                format!("{kills} without Lessen Injury (`edge {who} lessen {number}`): {no_up}")
            }
            (false, false) => format!(
                "{kills}, and {who} has no Edge left to burn or to lessen it: {who} dies of it; {no_up}"
            ),
        }
    }
}

/// Why a 2097 command is refused; each message says what was wrong and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Sr2097Error {
    #[error("\"{word}\" is not a difficulty: give a number or one of {words}")]
    UnknownDifficulty { word: String, words: String },
    #[error("a d{die} has faces 1 to {die}, not {face}")]
    NoSuchFace { die: u8, face: i32 },
    #[error(
        "this {what} rolls {}: type {}, not {got}",
        crate::text::counted(*need, "die", "dice"),
        crate::text::counted(*need, "face", "faces")
    )]
    DiceCount {
        what: String,
        need: usize,
        got: usize,
    },
    #[error("`drop {face}`: none of the dice shows {face}")]
    DropNotRolled { face: i32 },
    #[error(
        "`drop` chooses the die removed with Advantage or Disadvantage; this check rolls neither"
    )]
    DropWithoutTilt,
    #[error(
        "{who} already has Advantage: Edge gains Advantage or removes Disadvantage, and there is neither to do"
    )]
    EdgeWithAdvantage { who: String },
    #[error("Shadowrun 2097 damage dice are d{die}: write {dice}d{die}, not {dice}d{sides}")]
    DamageDie { die: u8, dice: i32, sides: i32 },
    #[error("{who} carries no weapon \"{weapon}\" ({has})")]
    UnknownWeapon {
        who: String,
        weapon: String,
        has: String,
    },
    #[error("{who} already carries a weapon called \"{weapon}\": remove it first")]
    WeaponTaken { who: String, weapon: String },
    #[error("the weapon needs a name")]
    NoWeaponName,
    #[error(
        "{weapon} is a melee weapon and {who} has no Strength on the sheet: `strength {who} N`"
    )]
    NoStrength { who: String, weapon: String },
    #[error("a failed attack (MoS {mos}) deals no damage: give the MoS of a success, 0 or more")]
    FailedAttack { mos: i32 },
    #[error(
        "{who}'s check failed (MoS {mos}): a missed attack deals no damage; a new attack needs a new check"
    )]
    MissedAttack { who: String, mos: i32 },
    #[error("{who} and {target} are one and the same: name the target of the attack")]
    SelfAttack { who: String, target: String },
    #[error("{}", no_such_injury(who, *number, *count))]
    NoSuchInjury {
        who: String,
        number: usize,
        count: usize,
    },
    #[error("{who} has no injury to lessen")]
    NoInjury { who: String },
    #[error("{who}'s injury {number} is a {severity}, the lightest: it cannot be lessened")]
    LightestInjury {
        who: String,
        number: usize,
        severity: &'static str,
    },
    #[error(
        "Edge Burn only keeps a character from dying: {who} has no {severity} injury left to survive"
    )]
    NothingToBurnFor { who: String, severity: &'static str },
    /// A Stun injury of the band Edge Burn is for: it kills no one (our ruling).
    #[error(
        "Edge Burn only keeps a character from dying, and {who}'s {severity} injury {number} is Stun, which kills no one: there is nothing to burn Edge for"
    )]
    StunKillsNoOne {
        who: String,
        number: usize,
        severity: &'static str,
    },
    /// `edge NAME burn N` of an injury that does not kill.
    #[error(
        "Edge Burn only keeps a character from dying, and {who} is not dying of injury {number}: {why}"
    )]
    NotDyingOf {
        who: String,
        number: usize,
        why: String,
    },
    #[error("{who}'s maximum Edge is {max}: there is no Edge left to burn")]
    NoEdgeToBurn { who: String, max: u8 },
    #[error("{}", way_out.told(who, *number, severity))]
    Dying {
        who: String,
        number: usize,
        severity: &'static str,
        way_out: WayOut,
    },
    #[error(
        "{who} survived injury {number} by Edge Burn and needs medical attention: out of the fight, first aid (`up`) cannot bring {who} back"
    )]
    NeedsMedicalAttention { who: String, number: usize },
    #[error(
        "{who}'s injury {number} was survived by Edge Burn: it stays {severity} until medical attention, and Edge cannot lessen it"
    )]
    SurvivedStands {
        who: String,
        number: usize,
        severity: &'static str,
    },
    #[error("{who} has {current} of {max} Edge: {gain} more would be above the maximum")]
    AboveMax {
        who: String,
        current: u8,
        max: u8,
        gain: i32,
    },
    #[error("{who}'s initiative is already boosted for round {round}, pass {pass}")]
    AlreadyBoosted { who: String, round: u32, pass: u8 },
    #[error(
        "a Shadowrun 2097 initiative is d{die}s plus a bonus, not hits: type the dice with `roll NAME dice A B`"
    )]
    HitsIn2097 { die: u8 },
    #[error(
        "`drop` goes with the table's dice (`dice A B C drop A`): srtrack's own rolls drop by the default"
    )]
    DropNeedsDice,
    #[error("{who}'s Edge is full ({max} of {max}): there is nothing to regain")]
    EdgeFull { who: String, max: u8 },
}

/// A number past a character's injuries, told with the numbers there are (none: no number).
fn no_such_injury(who: &str, number: usize, count: usize) -> String {
    match count {
        0 => format!("{who} has no injury"),
        1 => format!("{who} has no injury {number}: only injury 1"),
        _ => format!("{who} has no injury {number}: injuries 1 to {count}"),
    }
}
