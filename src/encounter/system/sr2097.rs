//! Shadowrun 2097's vocabulary: the commands the GM gives, the events they become, and the
//! state slice they fold into (armor, weapons, Strength, injuries, Edge burned, boosts).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::super::command::RollTarget;
use super::super::error::RuleError;
use super::super::model::{CombatantId, Track};
use crate::rules::sr2097::check::Outcome as CheckOutcome;
use crate::rules::sr2097::{
    Armor, CheckRoll, DamageRoll, DiceFrom, EdgePool, EdgeUse, Severity, Through,
};
use crate::rules::sr2097::{DamageRules, Sr2097Error, Sr2097Rules};

/// A target number as the GM gave it: a number or a difficulty word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tn {
    Number(i32),
    Word(String),
}

impl Tn {
    /// The number it stands for under `rules`, within their range: a check and its odds ask
    /// the same.
    pub fn value(&self, rules: &Sr2097Rules) -> Result<i32, RuleError> {
        let tn = match self {
            Tn::Number(n) => *n,
            Tn::Word(w) => rules
                .tn_of(w)
                .ok_or_else(|| Sr2097Error::UnknownDifficulty {
                    word: crate::text::excerpt(w),
                    words: rules.difficulty_words(),
                })?,
        };
        RuleError::in_range("TN", tn, rules.check.tn)
    }
}

/// A check's skill bonus within the rules' range.
pub fn bonus_value(bonus: i32, rules: &Sr2097Rules) -> Result<i32, RuleError> {
    RuleError::in_range("skill bonus", bonus, rules.check.bonus)
}

/// What a damage roll rolls: a weapon on the attacker's sheet, or dice typed as NdM+ST.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DamageSource {
    Weapon(String),
    Dice {
        dice: i32,
        sides: i32,
        st: i32,
        track: Track,
    },
}

/// How a weapon adds its ST.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Reach {
    /// Melee: the wielder's Strength.
    Melee,
    /// Ranged: the weapon's own ST.
    Ranged { st: u16 },
}

/// A weapon on a 2097 sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub name: String,
    pub dice: u8,
    pub reach: Reach,
    pub track: Track,
}

/// A weapon as the GM typed it, before it is checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeaponInput {
    pub name: String,
    pub dice: i32,
    pub sides: i32,
    /// `None`: a melee weapon (the wielder's Strength).
    pub st: Option<i32>,
    pub track: Track,
}

/// What the GM does with a character's Edge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum EdgeCommand {
    /// +2d6 initiative for one turn; the dice may be typed in.
    Boost { dice: Option<Vec<i32>> },
    /// An injury one step less severe: injury N (from 1), else the latest.
    Lessen { injury: Option<usize> },
    /// Only to avoid death: current and maximum Edge both lower. Injury N (from 1), else the
    /// latest the character is dying of.
    Burn { injury: Option<usize> },
    /// The GM awards N Edge.
    Award(i32),
    /// A long rest.
    Rest,
    /// Between scenarios: all of it back.
    Scenario,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sr2097Command {
    /// A success check.
    Check {
        who: CombatantId,
        tn: Tn,
        bonus: i32,
        advantage: bool,
        disadvantage: bool,
        edge: bool,
        /// The table's d10s, typed in.
        dice: Option<Vec<i32>>,
        /// The face removed with Advantage or Disadvantage, if not the default's choice.
        drop: Option<i32>,
    },
    /// A damage roll against a target, through its armor.
    Damage {
        by: CombatantId,
        target: CombatantId,
        with: DamageSource,
        mos: Option<i32>,
        edge: bool,
        dice: Option<Vec<i32>>,
    },
    /// Damage with no attacker (a fall, fire, a spell cast off-screen): dice typed as NdM+ST,
    /// through the target's armor (`dmg - TARGET NdM+ST`).
    Harm {
        target: CombatantId,
        with: DamageSource,
        mos: Option<i32>,
        dice: Option<Vec<i32>>,
    },
    Armor {
        who: CombatantId,
        pt: i32,
        dr: i32,
    },
    Strength {
        who: CombatantId,
        strength: i32,
    },
    AddWeapon {
        who: CombatantId,
        weapon: WeaponInput,
    },
    RemoveWeapon {
        who: CombatantId,
        name: String,
    },
    Edge {
        who: CombatantId,
        edge: EdgeCommand,
    },
    /// The table's initiative d6s, typed in.
    Initiative {
        target: RollTarget,
        dice: Vec<i32>,
    },
}

impl Sr2097Command {
    /// The verb as the command language writes it, for messages that name it (another system
    /// has `edge`, `roll` and `armor` with other words after them).
    pub fn verb(&self) -> &'static str {
        match self {
            Sr2097Command::Check { .. } => "sc",
            Sr2097Command::Damage { .. } => "dmg NAME TARGET",
            Sr2097Command::Harm { .. } => "dmg - TARGET",
            Sr2097Command::Armor { .. } => "armor NAME pt N dr N",
            Sr2097Command::Strength { .. } => "strength",
            Sr2097Command::AddWeapon { .. } => "weapon NAME add WEAPON NdM+ST",
            Sr2097Command::RemoveWeapon { .. } => "weapon NAME remove",
            Sr2097Command::Edge { edge, .. } => match edge {
                EdgeCommand::Boost { .. } => "edge NAME boost",
                EdgeCommand::Lessen { .. } => "edge NAME lessen",
                EdgeCommand::Burn { .. } => "edge NAME burn",
                EdgeCommand::Award(_) => "edge NAME award",
                EdgeCommand::Rest => "edge NAME rest",
                EdgeCommand::Scenario => "edge NAME scenario",
            },
            Sr2097Command::Initiative { .. } => "roll NAME dice",
        }
    }
}

/// Why Edge came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Recovery {
    Award,
    Rest,
    Scenario,
}

/// What happened. Every roll carries its dice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sr2097Event {
    EdgeSpent {
        who: CombatantId,
        on: EdgeUse,
        edge: u8,
    },
    /// A success check, with its dice and what they made of it under the encounter's rules.
    Checked {
        who: CombatantId,
        roll: CheckRoll,
        outcome: CheckOutcome,
        /// Damage dice the MoS adds if the check was an attack.
        attack_dice: u8,
        /// Advantage and Disadvantage (given, or owed by an earlier failure) cancelled to
        /// neither. Saves from before it was kept say nothing of it.
        #[serde(default)]
        cancelled: bool,
    },
    /// A damage roll and what the target's armor made of it; an injury if any got through.
    DamageRolled {
        by: CombatantId,
        target: CombatantId,
        weapon: Option<String>,
        roll: DamageRoll,
        armor: Option<Armor>,
        through: Through,
        injury: Option<Injury>,
    },
    InjuryLessened {
        who: CombatantId,
        /// Index into the character's injuries.
        injury: usize,
        to: Severity,
    },
    InitiativeBoosted {
        who: CombatantId,
        dice: Vec<u8>,
        from: DiceFrom,
        /// The turn it is for: the character's turn in this pass of this round.
        round: u32,
        pass: u8,
    },
    EdgeBurned {
        who: CombatantId,
        /// The injury survived (index into the character's injuries).
        injury: usize,
        edge: u8,
        max: u8,
    },
    EdgeRecovered {
        who: CombatantId,
        gained: u8,
        why: Recovery,
    },
    ArmorSet {
        who: CombatantId,
        armor: Armor,
    },
    StrengthSet {
        who: CombatantId,
        strength: u8,
    },
    WeaponAdded {
        who: CombatantId,
        weapon: Weapon,
    },
    WeaponRemoved {
        who: CombatantId,
        name: String,
    },
    /// Damage with no attacker, and what the target's armor made of it.
    Harmed {
        target: CombatantId,
        roll: DamageRoll,
        armor: Option<Armor>,
        through: Through,
        injury: Option<Injury>,
    },
    /// A boosted turn went first on a tie of scores with `over` (who would have gone), won by
    /// more dice or higher Edge (our ruling). It changes nothing: the log says it.
    BoostTieWon {
        who: CombatantId,
        over: CombatantId,
        score: u8,
        by: TieBreak,
    },
}

/// What won a tie of initiative scores for a boosted turn: the winner's number, the other's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieBreak {
    /// More dice.
    Dice { won: u8, lost: u8 },
    /// The same number of dice (`dice` each), then the higher Edge.
    Edge { dice: u8, won: u8, lost: u8 },
}

impl Sr2097Event {
    /// Whether the event is the outcome of a roll the table reads (`srtrack exec` prints them).
    pub fn is_test_result(&self) -> bool {
        matches!(
            self,
            Sr2097Event::Checked { .. }
                | Sr2097Event::DamageRolled { .. }
                | Sr2097Event::Harmed { .. }
                | Sr2097Event::InitiativeBoosted { .. }
        )
    }

    /// The command that would set what a sheet event set (armor, Strength, a weapon), so a
    /// loaded save can be refused what the command would refuse today. `die`: the damage die.
    pub fn sheet_command(&self, die: u8) -> Option<Sr2097Command> {
        Some(match self {
            Sr2097Event::ArmorSet { who, armor } => Sr2097Command::Armor {
                who: *who,
                pt: i32::from(armor.pt),
                dr: i32::from(armor.dr),
            },
            Sr2097Event::StrengthSet { who, strength } => Sr2097Command::Strength {
                who: *who,
                strength: i32::from(*strength),
            },
            Sr2097Event::WeaponAdded { who, weapon } => Sr2097Command::AddWeapon {
                who: *who,
                weapon: WeaponInput {
                    name: weapon.name.clone(),
                    dice: i32::from(weapon.dice),
                    sides: i32::from(die),
                    st: match weapon.reach {
                        Reach::Melee => None,
                        Reach::Ranged { st } => Some(i32::from(st)),
                    },
                    track: weapon.track,
                },
            },
            _ => return None,
        })
    }

    /// The combatant the event is about.
    pub fn who(&self) -> CombatantId {
        match self {
            Sr2097Event::EdgeSpent { who, .. }
            | Sr2097Event::Checked { who, .. }
            | Sr2097Event::InjuryLessened { who, .. }
            | Sr2097Event::InitiativeBoosted { who, .. }
            | Sr2097Event::EdgeBurned { who, .. }
            | Sr2097Event::EdgeRecovered { who, .. }
            | Sr2097Event::ArmorSet { who, .. }
            | Sr2097Event::StrengthSet { who, .. }
            | Sr2097Event::WeaponAdded { who, .. }
            | Sr2097Event::WeaponRemoved { who, .. }
            | Sr2097Event::BoostTieWon { who, .. } => *who,
            Sr2097Event::DamageRolled { target, .. } | Sr2097Event::Harmed { target, .. } => {
                *target
            }
        }
    }
}

/// Whether a life-threatening injury was survived by burning Edge, or tended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fate {
    Open,
    /// Edge was burned: the character lives, and needs medical attention.
    Survived,
    /// The character came back up past it (first aid, or healing with nothing else holding it
    /// down): it no longer keeps the character Downed (our ruling).
    Tended,
}

/// One hit that got through (our ruling: each is kept with its damage and severity).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Injury {
    pub damage: u16,
    pub severity: Severity,
    pub track: Track,
    pub fate: Fate,
}

/// When a boost of initiative counts: the character's turn in this pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Boost {
    pub dice: Vec<u8>,
    pub round: u32,
    pub pass: u8,
}

impl Boost {
    pub fn sum(&self) -> u8 {
        self.dice.iter().sum()
    }
}

/// What a 2097 sheet holds beyond the shared one.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Sr2097Sheet {
    pub strength: Option<u8>,
    pub armor: Option<Armor>,
    pub weapons: Vec<Weapon>,
    pub injuries: Vec<Injury>,
    /// Maximum Edge lost to Edge Burn.
    pub burned: u8,
    pub boost: Option<Boost>,
    /// The MoS of the latest success check the character made that a damage roll would follow:
    /// made since its turn began (or the round), with no damage roll of its own after it. A
    /// negative MoS is a failed check: a miss. Saves from before it was kept have none.
    #[serde(default)]
    pub to_follow: Option<i32>,
}

/// The dice and ST of a damage roll, before the MoS's and Edge's dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageDice {
    pub dice: u8,
    pub st: u16,
    pub weapon: Option<String>,
    pub track: Track,
}

/// The sheet of a combatant nothing has been written on yet.
static EMPTY_SHEET: Sr2097Sheet = Sr2097Sheet {
    strength: None,
    armor: None,
    weapons: Vec::new(),
    injuries: Vec::new(),
    burned: 0,
    boost: None,
    to_follow: None,
};

impl Sr2097Sheet {
    /// A weapon by name, or a sentence naming the ones `who` carries.
    pub fn weapon_named(&self, who: &str, name: &str) -> Result<&Weapon, Sr2097Error> {
        self.weapon(name).ok_or_else(|| {
            let names: Vec<&str> = self.weapons.iter().map(|w| w.name.as_str()).collect();
            Sr2097Error::UnknownWeapon {
                who: who.to_string(),
                weapon: crate::text::excerpt(name.trim()),
                has: if names.is_empty() {
                    format!("none yet: `weapon {who} add NAME 2d6+4`")
                } else {
                    format!("has {}", names.join(", "))
                },
            }
        })
    }

    /// What a damage source rolls for this sheet's owner (`who` in refusals): a weapon's dice
    /// and ST (a melee weapon's is the owner's Strength), or the dice typed as NdM+ST.
    pub fn damage_of(
        &self,
        who: &str,
        source: &DamageSource,
        rules: &DamageRules,
    ) -> Result<DamageDice, RuleError> {
        match source {
            DamageSource::Weapon(name) => {
                let w = self.weapon_named(who, name)?;
                let st = match w.reach {
                    Reach::Ranged { st } => st,
                    Reach::Melee => {
                        u16::from(self.strength.ok_or_else(|| Sr2097Error::NoStrength {
                            who: who.to_string(),
                            weapon: w.name.clone(),
                        })?)
                    }
                };
                Ok(DamageDice {
                    dice: w.dice,
                    st,
                    weapon: Some(w.name.clone()),
                    track: w.track,
                })
            }
            DamageSource::Dice {
                dice,
                sides,
                st,
                track,
            } => {
                if *sides != i32::from(rules.die) {
                    return Err(Sr2097Error::DamageDie {
                        die: rules.die,
                        dice: *dice,
                        sides: *sides,
                    }
                    .into());
                }
                let dice = RuleError::in_range("damage dice", *dice, rules.dice)?;
                let st = RuleError::in_range("ST", *st, rules.st)?;
                Ok(DamageDice {
                    dice: u8::try_from(dice).unwrap_or(u8::MAX),
                    st: u16::try_from(st).unwrap_or(u16::MAX),
                    weapon: None,
                    track: *track,
                })
            }
        }
    }

    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        let name = name.trim();
        self.weapons
            .iter()
            .find(|w| w.name.eq_ignore_ascii_case(name))
    }

    /// The character's Edge: current from the shared sheet, maximum lowered by burns.
    pub fn edge(&self, rating: u8, left: u8) -> EdgePool {
        EdgePool {
            current: left,
            max: rating.saturating_sub(self.burned),
        }
    }

    /// The injury (an index) the character is dying of: the latest physical one at `burn_at` or
    /// worse that is neither survived nor tended, the one Edge Burn and Lessen Injury go to.
    pub fn dying_of(&self, burn_at: Severity) -> Option<usize> {
        self.injuries.iter().rposition(|i| {
            i.track == Track::Physical && i.severity >= burn_at && i.fate == Fate::Open
        })
    }

    /// The boost that counts in this round and pass, if any.
    pub fn boost_in(&self, round: u32, pass: u8) -> Option<&Boost> {
        self.boost
            .as_ref()
            .filter(|b| b.round == round && b.pass == pass)
    }
}

/// The score `c` goes with in this pass of the fight by a boost of initiative, while it waits
/// for its turn (our ruling: a boosted score that beats the next turn's goes first). The engine
/// orders turns by it; the order pane shows it.
pub fn boosted_score(
    state: &super::super::model::State,
    c: &super::super::model::Combatant,
) -> Option<u8> {
    let f = state.fight()?;
    let b = state
        .sr2097
        .as_ref()?
        .sheet(c.id)
        .boost_in(f.round, f.pass)?;
    if c.mark != super::super::model::PassMark::Waiting || c.is_downed() {
        return None;
    }
    state.order_key(c).map(|k| k.score.saturating_add(b.sum()))
}

/// The 2097 slice of an encounter's state: one sheet per combatant, by id.
///
/// Sheets are shared between copies of the state (`Arc`), like the combatants.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Sr2097State {
    sheets: Vec<Arc<Sr2097Sheet>>,
}

impl Sr2097State {
    /// A combatant's 2097 sheet (empty until something is written on it).
    pub fn sheet(&self, id: CombatantId) -> &Sr2097Sheet {
        self.sheets
            .get(id.index())
            .map_or(&EMPTY_SHEET, AsRef::as_ref)
    }

    pub(crate) fn sheet_mut(&mut self, id: CombatantId) -> &mut Sr2097Sheet {
        if self.sheets.len() <= id.index() {
            self.sheets
                .resize_with(id.index() + 1, || Arc::new(Sr2097Sheet::default()));
        }
        Arc::make_mut(&mut self.sheets[id.index()])
    }
}
