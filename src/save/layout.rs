//! The snapshot's text as srtrack writes it: the head in pretty RON, then the states and each
//! history entry on a line of its own (as the journal writes them), so that a person or a tool
//! can read the head and the last entries without parsing the rest.
//!
//! ```text
//! SaveFile(
//!   version: 7,
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

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

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
/// What the line of the state after the cursor starts with (a field of the snapshot itself:
/// the rules' fields, the only other pretty part of the head, are indented further).
const STATE_LINE: &str = "  state: ";

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
        out.push_str(&format!("{STATE_LINE}Some({}),\n", one_line(state)));
    }
    if let Some(tail) = head.tail {
        out.push_str(&format!("  tail: Some({}),\n", one_line(tail)));
    }
    out.push_str(HISTORY_OPEN);
    out.push('\n');
    out
}

/// What follows the head and the entry lines copied as they are: the entries, the closing lines.
pub fn body_text(entries: &[Entry]) -> String {
    let mut out = String::new();
    for entry in entries {
        out.push_str(ENTRY_INDENT);
        out.push_str(&entry_line(entry));
        out.push_str(",\n");
    }
    for l in CLOSING {
        out.push_str(l);
        out.push('\n');
    }
    out
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
    head_text(&head) + &body_text(&save.history)
}

/// The entry an entry line holds (`None`: not one written by [`write_snapshot`]).
fn parse_entry_line(line: &[u8]) -> Option<Entry> {
    let text = std::str::from_utf8(line).ok()?;
    let inner = text.strip_prefix(ENTRY_INDENT)?.strip_suffix(",\n")?;
    ron::Options::default()
        .with_recursion_limit(super::file::RECURSION_LIMIT)
        .from_str(inner)
        .ok()
}

/// A snapshot file in this layout read from its start, one line at a time, so that opening
/// reads the head and the entries it wants and keeps nothing of the rest.
pub struct Reader {
    file: BufReader<io::Take<File>>,
    line: Vec<u8>,
}

impl Reader {
    /// Reads the head, up to and with [`HISTORY_OPEN`]: `None` when the file has no such line
    /// (another version's layout, or edited), or its head is larger than a save may be.
    pub fn open(path: &Path) -> io::Result<Option<(String, Self)>> {
        // A regular file opened without blocking, never read past what a save may hold.
        let (file, _) = super::read::open(path).map_err(|e| match e {
            super::read::Unread::Io(e) => e,
            e => io::Error::other(e.message("a save file", ToString::to_string)),
        })?;
        let mut file = BufReader::new(io::Read::take(file, super::file::MAX_BYTES + 1));
        let mut head = Vec::new();
        let open = format!("{HISTORY_OPEN}\n");
        loop {
            let start = head.len();
            if file.read_until(b'\n', &mut head)? == 0 || head.len() as u64 > super::file::MAX_BYTES
            {
                return Ok(None);
            }
            if head[start..] == *open.as_bytes() {
                break;
            }
        }
        let Ok(head) = String::from_utf8(head) else {
            return Ok(None);
        };
        let reader = Self {
            file,
            line: Vec::new(),
        };
        Ok(Some((head, reader)))
    }

    /// Reads the next line into `self.line`: false at the end of the file.
    fn next_line(&mut self) -> io::Result<bool> {
        self.line.clear();
        Ok(self.file.read_until(b'\n', &mut self.line)? > 0)
    }

    /// Passes over `n` lines without keeping them: false if the file ends first.
    pub fn skip(&mut self, n: usize) -> io::Result<bool> {
        for _ in 0..n {
            if self.file.skip_until(b'\n')? == 0 {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The next `n` entry lines as they are written: `None` if one is not an entry line.
    pub fn raw(&mut self, n: usize) -> io::Result<Option<Vec<u8>>> {
        let mut out = Vec::new();
        for _ in 0..n {
            if !self.next_line()? || !self.line.starts_with(ENTRY_INDENT.as_bytes()) {
                return Ok(None);
            }
            out.extend_from_slice(&self.line);
        }
        Ok(Some(out))
    }

    /// The next `n` entries: `None` if a line is not one.
    pub fn entries(&mut self, n: usize) -> io::Result<Option<Vec<Entry>>> {
        self.entries_where(n, |_, _| true)
    }

    /// The next `n` entries, each on a line exactly as [`entry_line`] writes it: `None` if a
    /// line is not one. What nothing but srtrack wrote reads as the whole file's parse would
    /// read it (a comment in a line edited by hand could swallow the comma after it).
    pub fn written_entries(&mut self, n: usize) -> io::Result<Option<Vec<Entry>>> {
        self.entries_where(n, |line, entry| {
            let inner = &line[ENTRY_INDENT.len()..line.len() - ",\n".len()];
            entry_line(entry).as_bytes() == inner
        })
    }

    /// The next `n` entries whose lines `fits`: `None` if a line is not an entry or does not.
    fn entries_where(
        &mut self,
        n: usize,
        fits: impl Fn(&[u8], &Entry) -> bool,
    ) -> io::Result<Option<Vec<Entry>>> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            if !self.next_line()? {
                return Ok(None);
            }
            match parse_entry_line(&self.line) {
                Some(entry) if fits(&self.line, &entry) => out.push(entry),
                _ => return Ok(None),
            }
        }
        Ok(Some(out))
    }

    /// Whether the closing lines come next, and nothing after them.
    pub fn at_end(&mut self) -> io::Result<bool> {
        for l in CLOSING {
            if !self.next_line()? || self.line.strip_suffix(b"\n") != Some(l.as_bytes()) {
                return Ok(false);
            }
        }
        Ok(!self.next_line()?)
    }
}

/// The head's text parsed as a snapshot without entries, the states it keeps included.
pub fn head_with_states(head: &str) -> String {
    closed_head(head, |_| true)
}

/// The head's text as opening parses it: a snapshot without entries, and without the state
/// after the cursor. That state is derived data, and opening replays the tail to the cursor
/// anyway (from the tail's state, ~200 entries at most); parsing it too was a third of what a
/// 50-combatant save costs to open. `srtrack check` still holds it against the history. Its
/// line is left blank, so that the other lines stay where the file has them (errors point at
/// the right line).
pub fn head_alone(head: &str) -> String {
    closed_head(head, |line| !line.starts_with(STATE_LINE))
}

/// The head's lines that `keep` keeps (each other one left as an empty line, so that a parse
/// error names the line of the file), closed as a snapshot without entries.
fn closed_head(head: &str, keep: impl Fn(&str) -> bool) -> String {
    let head = head
        .strip_suffix(&format!("{HISTORY_OPEN}\n"))
        .unwrap_or(head);
    let mut out = String::with_capacity(head.len() + 32);
    for line in head.split_inclusive('\n') {
        out.push_str(if keep(line) { line } else { "\n" });
    }
    out.push_str("  history: [],\n)\n");
    out
}
