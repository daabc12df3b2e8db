//! What happened. Every event carries its dice, so replay and redo never roll.

use serde::{Deserialize, Serialize};

use super::command::Timing;
use super::model::{
    ActionUse, ActiveStatus, CombatantId, DownCause, GroupId, ReadyTrigger, Relative, Sheet, Side,
    Track, Unit, Visibility,
};
use super::system::anarchy::AnarchyEvent;
use super::system::sr2097::Sr2097Event;
use crate::rules::initiative::{InitiativeRoll, RollOff};

/// Why reserved IP left the reserve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Release {
    /// A ready lapsed at the start of the character's next turn.
    NextTurn,
    /// The delay's sub-turn ended; what it did not spend goes back.
    SubTurnEnded,
    /// A ready fired; what its actions did not cost goes back.
    Fired,
    /// No trigger was named before the pass ended.
    PassEnded,
    /// The round ended: reserved IP are lost with the pool. (Saves from before readies outlived
    /// the round; no longer decided.)
    RoundEnded,
    /// A ready lapsed at the start of the character's next turn in a later round than it was
    /// declared in: its IP are lost with that round's pool.
    NextTurnNewRound,
    Downed,
    Removed,
    /// A ready declared in an earlier round fired: what its actions did not cost was lost with
    /// that round's pool.
    FiredNewRound,
    /// The holder of a ready declared in an earlier round went down: its IP were lost with that
    /// round's pool.
    DownedNewRound,
}

/// Where an action's IP came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PaidFrom {
    Pool,
    Reserve,
}

/// Why a status ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StatusEnded {
    TurnEnded,
    RoundEnded,
    OtherAction,
    /// An action ended it (Stand Up ends Prone).
    Action,
    Gm,
}

/// Whether a change of initiative keeps the skipped turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Skipped {
    /// Taken at the new place, which it moved to at once. (Saves from before the place changed
    /// when the turn is taken; now `Event::TurnDeferred` and `Event::PlaceChanged`.)
    Deferred,
    /// The chosen character already acted in this pass: the turn is lost.
    Lost,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    GroupFormed {
        id: GroupId,
        name: String,
        shared_roll: bool,
    },
    CombatantAdded {
        id: CombatantId,
        name: String,
        side: Side,
        sheet: Sheet,
        group: Option<GroupId>,
    },
    CombatantEdited {
        id: CombatantId,
        name: String,
        side: Side,
        sheet: Sheet,
        /// The IP pool the new sheet starts with, when the edit came before the fight (the
        /// pool `start` would give): what the order and the IP grid show until then. Saves
        /// from before it have none, and replay as they did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ip: Option<u8>,
    },
    CombatantRemoved {
        id: CombatantId,
        reason: Option<String>,
    },
    InitiativeRolled {
        who: Vec<CombatantId>,
        roll: InitiativeRoll,
    },
    FightStarted {
        order: Vec<CombatantId>,
        rolloffs: Vec<RollOff<Unit>>,
    },
    /// Combatants who joined mid-fight take their place in the order.
    Slotted {
        who: Vec<CombatantId>,
        at: usize,
        rolloffs: Vec<RollOff<Unit>>,
        /// Their slot in this pass has already gone by: they act from the next pass.
        slot_passed: bool,
    },
    RoundStarted {
        round: u32,
    },
    PassStarted {
        pass: u8,
    },
    TurnStarted {
        who: CombatantId,
        ip_gained: u8,
    },
    /// A turn skipped by a change of initiative is taken at the new place.
    TurnResumed {
        who: CombatantId,
    },
    TurnSkipped {
        who: CombatantId,
    },
    TurnEnded {
        who: CombatantId,
    },
    DelayTurnStarted {
        who: CombatantId,
        trigger: CombatantId,
    },
    ActionSpent {
        who: CombatantId,
        action: ActionUse,
        paid_from: PaidFrom,
        /// Counted against the spender's cap in the character turn under way, whoever's turn it
        /// is. (Saves from before counted only the turn holder's own spending.)
        in_turn: bool,
    },
    EdgeSpent {
        who: CombatantId,
        ip_gained: u8,
        edge_spent: u8,
    },
    DelayDeclared {
        who: CombatantId,
        ip: u8,
        trigger: Option<CombatantId>,
    },
    DelayTriggerNamed {
        who: CombatantId,
        trigger: CombatantId,
    },
    ReadyDeclared {
        who: CombatantId,
        ip: u8,
        trigger: ReadyTrigger,
    },
    ReadyFired {
        who: CombatantId,
        trigger: ReadyTrigger,
        timing: Timing,
    },
    ReserveReleased {
        who: CombatantId,
        /// IP back to the pool (0 when lost).
        returned: u8,
        why: Release,
    },
    InitiativeChanged {
        who: CombatantId,
        relative: Relative,
        target: CombatantId,
        skipped: Skipped,
    },
    /// A change of initiative to a place still to come: the turn is skipped, and taken when
    /// the chosen character's real turn starts (before) or ends (after).
    TurnDeferred {
        who: CombatantId,
        relative: Relative,
        target: CombatantId,
    },
    /// The skipped turn's time has come: its holder moves before or after the character it
    /// chose, for the rest of the encounter, and takes the turn there next.
    PlaceChanged {
        who: CombatantId,
        relative: Relative,
        target: CombatantId,
    },
    Downed {
        who: CombatantId,
        cause: DownCause,
    },
    Revived {
        who: CombatantId,
    },
    /// The GM hid a character from the players' view, or showed it again.
    VisibilityChanged {
        who: CombatantId,
        visibility: Visibility,
    },
    Damaged {
        who: CombatantId,
        track: Track,
        boxes: u8,
    },
    Healed {
        who: CombatantId,
        track: Track,
        boxes: u8,
    },
    StatusStarted {
        who: CombatantId,
        status: ActiveStatus,
    },
    StatusStacked {
        who: CombatantId,
        name: String,
        stacks: u8,
    },
    StatusEnded {
        who: CombatantId,
        name: String,
        why: StatusEnded,
    },
    EncounterEnded,
    /// Shadowrun 2097's own events.
    Sr2097(Sr2097Event),
    /// What happened at a Shadowrun: Anarchy table.
    Anarchy(AnarchyEvent),
    /// SR5's own events: tests, Edge on tests, attacks, weapons and armor.
    Sr5(super::system::sr5::Sr5Event),
}

impl Event {
    /// Whether this event begins a new character turn: its own turn, one it resumes, or one
    /// skipped (the slot passing is that character's turn). A delay's sub-turn belongs to its
    /// trigger's turn and begins none. What is counted per character turn (the IP spent and
    /// actions taken in it, the attacks owed to its attack actions) starts over here.
    pub fn begins_character_turn(&self) -> bool {
        matches!(
            self,
            Event::TurnStarted { .. } | Event::TurnResumed { .. } | Event::TurnSkipped { .. }
        )
    }
}
