//! `srtrack export --log`: every command of the fight and its log lines, as Markdown.

use std::fmt::Write;

use crate::encounter::{Encounter, Event};
use crate::report;
use crate::save::SaveFile;
use crate::text::markdown as md;

pub fn markdown(header: &SaveFile, enc: &Encounter) -> String {
    let mut out = report::recap::heading(enc, &header.name, &header.created);
    out.push_str("## Log\n\n");
    let mut before = enc.empty_state();
    for entry in enc.applied() {
        // A new round heads the command that started it.
        for event in &entry.events {
            if let Event::RoundStarted { round } = event {
                let _ = writeln!(out, "\n### Round {round}\n");
            }
        }
        let _ = writeln!(out, "- {}", md(&entry.text));
        for event in &entry.events {
            if let Some(line) = report::log_line(&before, event, enc.rules(), enc.catalogue()) {
                let _ = writeln!(out, "  - {}", md(&line));
            }
            before.apply(event, enc.rules());
        }
    }
    out
}
