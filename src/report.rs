//! Plain-text views of an encounter: log lines and the `show` page.
// Placeholder on the `saves` branch: replaced by the lead's report.rs at merge.

use crate::encounter::{Encounter, Event, State};

/// One log line for an event, given the state before it.
pub fn log_line(_state_before: &State, _event: &Event) -> Option<String> {
    None
}

/// The plain-text page of an encounter.
pub fn show(enc: &Encounter, last_log_lines: usize) -> String {
    let mut out = String::new();
    for c in enc.state().ordered() {
        out.push_str(&c.name);
        out.push('\n');
    }
    let start = enc.cursor().saturating_sub(last_log_lines);
    for e in &enc.applied()[start..] {
        out.push_str(&e.text);
        out.push('\n');
    }
    out
}
