//! What the GM asks for. Each command is checked by `Encounter::decide`.

use serde::{Deserialize, Serialize};

use super::model::{CombatantId, GroupId, Relative, Sheet, Side, Track, Visibility};
use super::system::anarchy::AnarchyCommand;
use super::system::sr2097::Sr2097Command;
use super::system::{Family, System};
use crate::rules::ActionType;

/// A combatant's sheet as the GM typed it, before validation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetInput {
    pub intuition: i32,
    pub reaction: i32,
    pub edge: i32,
    pub dice_modifier: i32,
    pub ip_bonus: i32,
    pub body: Option<i32>,
    pub willpower: Option<i32>,
}

impl Default for SheetInput {
    fn default() -> Self {
        Self {
            intuition: 3,
            reaction: 3,
            edge: 0,
            dice_modifier: 0,
            ip_bonus: 0,
            body: None,
            willpower: None,
        }
    }
}

/// A sheet as the GM would type it again.
impl From<Sheet> for SheetInput {
    fn from(s: Sheet) -> Self {
        Self {
            intuition: i32::from(s.intuition),
            reaction: i32::from(s.reaction),
            edge: i32::from(s.edge),
            dice_modifier: i32::from(s.dice_modifier),
            ip_bonus: i32::from(s.ip_bonus),
            body: s.body.map(i32::from),
            willpower: s.willpower.map(i32::from),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddCombatant {
    pub name: String,
    pub side: Side,
    pub sheet: SheetInput,
    /// `Some(n)`: a group of n identical NPCs named "Name 1".."Name n".
    pub count: Option<i32>,
    /// A group shares one initiative roll.
    pub shared_roll: bool,
    /// Left out of the players' view from the moment it comes in (an ambush): hidden in the
    /// same entry, so a players' view never shows it in between.
    #[serde(default)]
    pub hidden: bool,
}

/// Who an initiative roll is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RollTarget {
    /// Everyone (in a fight: everyone who has no initiative yet).
    All,
    /// The NPCs only.
    Npcs,
    One(CombatantId),
    Group(GroupId),
}

/// An action to spend: a bare type, or a catalogue action by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionChoice {
    Type(ActionType),
    Named {
        name: String,
        /// For Variable and Special actions: the type it takes this time.
        as_type: Option<ActionType>,
        /// For a firing action with fire modes (Fire Gun): the mode it fires in (`BF`); none:
        /// its first mode. Saves and journals from before it have none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Timing {
    /// The ready actions resolve before the trigger.
    Before,
    After,
}

impl Timing {
    pub fn word(self) -> &'static str {
        match self {
            Timing::Before => "before",
            Timing::After => "after",
        }
    }
}

/// When a GM's free-text status ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StatusUntil {
    ThisTurn,
    NextTurn,
    Round,
    Never,
}

/// What a command aimed at several characters at once does to each of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Each {
    Damage {
        track: Track,
        boxes: i32,
    },
    Heal {
        track: Track,
        boxes: i32,
    },
    AddStatus {
        text: String,
        until: Option<StatusUntil>,
    },
    ClearStatus {
        name: String,
    },
}

impl Each {
    /// The verb of the language for it, as for one character.
    pub fn verb(&self) -> &'static str {
        match self {
            Each::Damage { .. } => "damage",
            Each::Heal { .. } => "heal",
            Each::AddStatus { .. } => "status",
            Each::ClearStatus { .. } => "clear",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    Add(AddCombatant),
    Edit {
        who: CombatantId,
        name: Option<String>,
        side: Option<Side>,
        sheet: SheetInput,
    },
    Remove {
        who: CombatantId,
        reason: Option<String>,
    },
    Roll {
        target: RollTarget,
        /// The table's roll typed in: hits, and whether it glitched.
        typed: Option<(i32, bool)>,
    },
    Start,
    Next,
    SpendAction {
        who: CombatantId,
        action: ActionChoice,
    },
    UseEdge {
        who: CombatantId,
    },
    Delay {
        who: CombatantId,
        ip: i32,
        trigger: Option<CombatantId>,
    },
    NameDelayTrigger {
        who: CombatantId,
        trigger: CombatantId,
    },
    Ready {
        who: CombatantId,
        ip: Option<i32>,
        trigger: String,
        actions: Vec<ActionChoice>,
    },
    FireReady {
        who: CombatantId,
        /// Which trigger, from 0.
        trigger: usize,
        timing: Timing,
    },
    ChangeInitiative {
        who: CombatantId,
        relative: Relative,
        target: CombatantId,
    },
    SetDowned {
        who: CombatantId,
        downed: bool,
    },
    Damage {
        who: CombatantId,
        track: Track,
        boxes: i32,
    },
    Heal {
        who: CombatantId,
        track: Track,
        boxes: i32,
    },
    AddStatus {
        who: CombatantId,
        text: String,
        until: Option<StatusUntil>,
    },
    ClearStatus {
        who: CombatantId,
        name: String,
    },
    End,
    /// Shadowrun 2097's own commands: checks, damage, armor, weapons, Edge.
    Sr2097(Sr2097Command),
    /// Shadowrun: Anarchy's commands: narrations, Plot Points, Anarchy tests.
    Anarchy(AnarchyCommand),
    /// SR5's own commands: tests, teamwork, Edge on tests, odds, attacks, weapons and armor.
    Sr5(super::system::sr5::Sr5Command),
    /// The same damage, healing or status for several characters: one entry, one undo step,
    /// refused as a whole if any one of them would be.
    ForEach {
        who: Vec<CombatantId>,
        each: Each,
    },
    /// Hides characters from the players' view, or shows them again: one entry, refused as a
    /// whole if any one of them already is so.
    SetVisibility {
        who: Vec<CombatantId>,
        visibility: Visibility,
    },
}

impl Command {
    /// The command doing `each` to these characters: the one-character command for one of
    /// them (so its entry reads as before), `ForEach` for several.
    pub fn aimed(who: Vec<CombatantId>, each: Each) -> Command {
        let [one] = who[..] else {
            return Command::ForEach { who, each };
        };
        match each {
            Each::Damage { track, boxes } => Command::Damage {
                who: one,
                track,
                boxes,
            },
            Each::Heal { track, boxes } => Command::Heal {
                who: one,
                track,
                boxes,
            },
            Each::AddStatus { text, until } => Command::AddStatus {
                who: one,
                text,
                until,
            },
            Each::ClearStatus { name } => Command::ClearStatus { who: one, name },
        }
    }
}

impl Command {
    /// The systems this command belongs to (see `System::accepts`). A system's own variants,
    /// when they come, answer `Family::Own(that system)`.
    pub fn family(&self) -> Family {
        match self {
            Command::Add(_)
            | Command::Edit { .. }
            | Command::Remove { .. }
            | Command::SetDowned { .. }
            | Command::Damage { .. }
            | Command::Heal { .. }
            | Command::AddStatus { .. }
            | Command::ClearStatus { .. }
            | Command::ForEach { .. }
            | Command::SetVisibility { .. }
            | Command::End => Family::Shared,
            Command::Roll { .. }
            | Command::Start
            | Command::Next
            | Command::SpendAction { .. }
            | Command::UseEdge { .. }
            | Command::Delay { .. }
            | Command::NameDelayTrigger { .. }
            | Command::Ready { .. }
            | Command::FireReady { .. }
            | Command::ChangeInitiative { .. } => Family::Passes,
            Command::Sr2097(_) => Family::Own(System::Sr2097),
            Command::Anarchy(_) => Family::Own(System::Anarchy),
            Command::Sr5(_) => Family::Own(super::system::System::Sr5),
        }
    }

    /// The fire mode the command names for an action (`act … mode BF`, a ready's action).
    pub fn fire_mode(&self) -> Option<&str> {
        fn mode(a: &ActionChoice) -> Option<&str> {
            match a {
                ActionChoice::Named { mode, .. } => mode.as_deref(),
                ActionChoice::Type(_) => None,
            }
        }
        match self {
            Command::SpendAction { action, .. } => mode(action),
            Command::Ready { actions, .. } => actions.iter().find_map(mode),
            _ => None,
        }
    }

    /// The verb the command language gives this command, for messages that name it.
    pub fn verb(&self) -> &'static str {
        match self {
            Command::Add(_) => "add",
            Command::Edit { .. } => "edit",
            Command::Remove { .. } => "remove",
            Command::Roll { .. } => "roll",
            Command::Start => "start",
            Command::Next => "next",
            Command::SpendAction { .. } => "act",
            Command::UseEdge { .. } => "edge",
            Command::Delay { .. } | Command::NameDelayTrigger { .. } => "delay",
            Command::Ready { .. } => "ready",
            Command::FireReady { .. } => "fire",
            Command::ChangeInitiative { .. } => "move",
            Command::SetDowned { downed: true, .. } => "down",
            Command::SetDowned { downed: false, .. } => "up",
            Command::Damage { .. } => "damage",
            Command::Heal { .. } => "heal",
            Command::AddStatus { .. } => "status",
            Command::ClearStatus { .. } => "clear",
            Command::ForEach { each, .. } => each.verb(),
            Command::SetVisibility { visibility, .. } => visibility.verb(),
            Command::End => "end",
            Command::Sr2097(c) => c.verb(),
            Command::Anarchy(c) => c.verb(),
            Command::Sr5(c) => c.verb(),
        }
    }
}
