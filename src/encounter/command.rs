//! What the GM asks for. Each command is checked by `Encounter::decide`.

use serde::{Deserialize, Serialize};

use super::model::{CombatantId, GroupId, Relative, Side, Track};
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddCombatant {
    pub name: String,
    pub side: Side,
    pub sheet: SheetInput,
    /// `Some(n)`: a group of n identical NPCs named "Name 1".."Name n".
    pub count: Option<i32>,
    /// A group shares one initiative roll.
    pub shared_roll: bool,
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
    /// The same damage, healing or status for several characters: one entry, one undo step,
    /// refused as a whole if any one of them would be.
    ForEach {
        who: Vec<CombatantId>,
        each: Each,
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
