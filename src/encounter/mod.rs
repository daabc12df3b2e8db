//! The encounter state machine: commands become events; the state is a fold of events.
//! Nothing here knows of terminals.

mod apply;
pub mod command;
mod decide;
pub mod error;
pub mod event;
pub mod history;
pub mod model;
pub mod players;
pub mod query;
pub mod system;

pub use command::{
    ActionChoice, AddCombatant, Command, Each, RollTarget, SheetInput, StatusUntil, Timing,
};
pub use error::RuleError;
pub use event::{Event, PaidFrom, Release, Skipped, StatusEnded};
pub use history::{Encounter, Entry};
pub use model::{
    ActionUse, ActiveStatus, Combatant, CombatantId, DownCause, Fight, Group, GroupId, PassIp,
    PassMark, Phase, Presence, ReadyTrigger, Relative, Reserve, Sheet, Side, State, StatusEnd,
    Track, Turn, TurnKind, Unit, Visibility, Waiting, same_name, same_written_name,
};
pub use system::System;

/// The name the add gives the `n`th member (from 1) of the group `group`: `Ganger 2`. The add
/// form names the members it asks initiative of by it too.
pub fn member_name(group: &str, n: impl std::fmt::Display) -> String {
    format!("{group} {n}")
}
