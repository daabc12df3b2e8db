//! `srtrack export`: the fight's log as a Markdown recap for the group chat.

use std::fmt::Write;

use crate::encounter::{Encounter, Event};
use crate::report;
use crate::save::SaveFile;
use crate::text::escaped;

pub fn markdown(header: &SaveFile, enc: &Encounter) -> String {
    let mut md = String::new();
    // The header and the entries' texts come from the file as it is: escaped.
    let _ = writeln!(md, "# {}\n", escaped(&header.name));
    let _ = writeln!(md, "*Started {}*\n", escaped(&header.created));
    let state = enc.state();
    if !state.combatants.is_empty() {
        md.push_str("## Cast\n\n");
        for c in &state.combatants {
            let mut notes = vec![c.side.label().to_string()];
            if c.downed.is_some() {
                notes.push("Downed".into());
            }
            if !c.is_present() {
                notes.push("left the fight".into());
            }
            let _ = writeln!(md, "- **{}** ({})", escaped(&c.name), notes.join(", "));
        }
        md.push('\n');
    }
    md.push_str("## Log\n\n");
    let mut before = enc.empty_state();
    for entry in enc.applied() {
        // A new round heads the command that started it.
        for event in &entry.events {
            if let Event::RoundStarted { round } = event {
                let _ = writeln!(md, "\n### Round {round}\n");
            }
        }
        let _ = writeln!(md, "- `{}`", escaped(&entry.text));
        for event in &entry.events {
            if let Some(line) = report::log_line(&before, event) {
                let _ = writeln!(md, "  - {line}");
            }
            before.apply(event, enc.rules());
        }
    }
    md
}
