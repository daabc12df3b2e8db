//! The snapshot's text as srtrack writes it: the head in pretty RON, then the states and each
//! history entry on a line of its own (as the journal writes them), so that a person or a tool
//! can read the head and the last entries without parsing the rest.
//!
//! ```text
//! SaveFile(
//!   version: 3,
//!   …                                     pretty, as before
//!   cursor: 66,
//!   state: Some(State(…)),                one line
//!   tail: Some(Tail(start: 0, entries: 66, state: State(…))),
//!   history: [
//!     Entry(text: "add Ana pc int 4 rea 5", events: […]),
//!     …                                   one line each
//!   ],
//! )
//! ```

use std::io::{self, Write};

use serde::Serialize;

use super::file::{SaveFile, Tail};
use crate::encounter::{Entry, State, System};
use crate::rules::HouseRules;

/// The line that opens the history; everything before it is the head.
pub const HISTORY_OPEN: &str = "  history: [";
/// What each entry line starts with.
pub const ENTRY_INDENT: &str = "    ";
/// The lines after the last entry.
const CLOSING: [&str; 2] = ["  ],", ")"];

/// A value on one line (strings are escaped, so a line holds no line break).
pub fn one_line<T: Serialize>(value: &T) -> String {
    let config = ron::ser::PrettyConfig::new()
        .struct_names(true)
        .new_line("")
        .indentor("")
        .separator(" ")
        .compact_arrays(true)
        .compact_structs(true);
    // Plain data serializes.
    let line = ron::ser::to_string_pretty(value, config).expect("plain data serializes");
    debug_assert!(!line.contains('\n'), "one line: {line}");
    line
}

/// An entry as the snapshot and the journal write it, without the line's end.
pub fn entry_line(entry: &Entry) -> String {
    one_line(entry)
}

/// What a snapshot says before its history.
pub struct Head<'a> {
    pub name: &'a str,
    pub created: &'a str,
    pub system: System,
    pub rules: &'a HouseRules,
    pub generation: u64,
    pub cursor: usize,
    pub state: Option<&'a State>,
    pub tail: Option<&'a Tail>,
}

/// The head's text, up to and with the line that opens the history.
pub fn head_text(head: &Head<'_>) -> String {
    #[derive(Serialize)]
    #[serde(rename = "SaveFile")]
    struct Pretty<'a> {
        version: u32,
        name: &'a str,
        created: &'a str,
        system: System,
        rules: &'a HouseRules,
        generation: u64,
        cursor: usize,
    }
    let config = ron::ser::PrettyConfig::new()
        .struct_names(true)
        .indentor("  ");
    let pretty = ron::ser::to_string_pretty(
        &Pretty {
            version: super::file::VERSION,
            name: head.name,
            created: head.created,
            system: head.system,
            rules: head.rules,
            generation: head.generation,
            cursor: head.cursor,
        },
        config,
    )
    .expect("plain data serializes");
    // The pretty struct ends with its last field's line and a lone `)`: the rest follows it.
    let mut out = pretty
        .strip_suffix(')')
        .unwrap_or(&pretty)
        .trim_end()
        .to_string();
    out.push('\n');
    if let Some(state) = head.state {
        out.push_str(&format!("  state: Some({}),\n", one_line(state)));
    }
    if let Some(tail) = head.tail {
        out.push_str(&format!("  tail: Some({}),\n", one_line(tail)));
    }
    out.push_str(HISTORY_OPEN);
    out.push('\n');
    out
}

/// Writes a whole snapshot: the head, the entries, the closing lines.
pub fn write_snapshot(out: &mut dyn Write, head: &Head<'_>, entries: &[Entry]) -> io::Result<()> {
    out.write_all(head_text(head).as_bytes())?;
    let mut line = String::new();
    for entry in entries {
        line.clear();
        line.push_str(ENTRY_INDENT);
        line.push_str(&entry_line(entry));
        line.push_str(",\n");
        out.write_all(line.as_bytes())?;
    }
    for l in CLOSING {
        out.write_all(l.as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// The text of a snapshot held whole in memory.
pub fn snapshot_text(save: &SaveFile) -> String {
    let head = Head {
        name: &save.name,
        created: &save.created,
        system: save.system,
        rules: &save.rules,
        generation: save.generation,
        cursor: save.cursor,
        state: save.state.as_ref(),
        tail: save.tail.as_ref(),
    };
    let mut out = Vec::new();
    // Writing to memory cannot fail.
    let _ = write_snapshot(&mut out, &head, &save.history);
    String::from_utf8(out).expect("RON is UTF-8")
}
