//! Plain-text views of an encounter: log lines and the `show` page.
//! Placeholder on the `ui` branch; the lead's version replaces it at merge.

use crate::encounter::{Event, State};

/// One log line for an event, given the state before it.
pub fn log_line(state_before: &State, event: &Event) -> Option<String> {
    let n = |id: crate::encounter::CombatantId| state_before.name(id).to_string();
    Some(match event {
        Event::InitiativeRolled { who, roll } => {
            let names: Vec<String> = who.iter().map(|w| n(*w)).collect();
            format!(
                "{} rolled {} hits {:?}",
                names.join(", "),
                roll.hits,
                roll.dice.clone().unwrap_or_default()
            )
        }
        Event::TurnStarted { who, ip_gained } => format!("{}'s turn (+{ip_gained} IP)", n(*who)),
        Event::ActionSpent { who, action, .. } => format!("{}: {}", n(*who), action.label()),
        Event::RoundStarted { round } => format!("round {round}"),
        Event::PassStarted { pass } => format!("pass {pass}"),
        Event::TurnEnded { .. } | Event::GroupFormed { .. } => return None,
        other => format!("{other:?}").chars().take(100).collect(),
    })
}
