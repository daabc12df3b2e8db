//! The snapshot's text as srtrack writes it: the head in pretty RON, then the states and each
//! history entry on a line of its own, so that the head and the last entries can be read without
//! parsing the rest, and a new snapshot can copy the entries it keeps line by line.
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

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};

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

/// How much the fast readers take from the file at a time.
const CHUNK: usize = 64 * 1024;

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

/// Writes a whole snapshot: the head, the entries `earlier` writes (lines copied from the one
/// before), the entries given, the closing lines.
pub fn write_snapshot(
    out: &mut dyn Write,
    head: &Head<'_>,
    earlier: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
    entries: &[Entry],
) -> io::Result<()> {
    out.write_all(head_text(head).as_bytes())?;
    earlier(out)?;
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
    let _ = write_snapshot(&mut out, &head, &mut |_| Ok(()), &save.history);
    String::from_utf8(out).expect("RON is UTF-8")
}

/// The head of a snapshot laid out by srtrack: its bytes up to the history (closed so that it
/// parses as a save with an empty history), and where the first entry line starts. `None` when
/// the file is not laid out so (an older version, or edited by hand).
pub fn read_head(file: &mut File, limit: u64) -> io::Result<Option<(String, u64)>> {
    file.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::with_capacity(CHUNK, file);
    let mut head = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 || head.len() as u64 > limit {
            return Ok(None);
        }
        if line.strip_suffix(b"\n") == Some(HISTORY_OPEN.as_bytes()) {
            let at = (head.len() + n) as u64;
            let Ok(mut text) = String::from_utf8(head) else {
                return Ok(None);
            };
            text.push_str("  history: [],\n)\n");
            return Ok(Some((text, at)));
        }
        head.extend_from_slice(&line);
    }
}

/// The last `count` entry lines of a snapshot laid out by srtrack (without their indent and
/// comma), read from the end. `history_at` is where its first entry line starts; `whole` says
/// the tail is the whole history, so the line before it must be the one that opens it (else
/// another entry). `None` when the file does not end as srtrack writes it.
pub fn read_tail(
    file: &mut File,
    history_at: u64,
    count: usize,
    whole: bool,
) -> io::Result<Option<Vec<String>>> {
    let len = file.metadata()?.len();
    // Where the line that opens the history starts: reading never goes before it.
    let floor = history_at.saturating_sub(HISTORY_OPEN.len() as u64 + 1);
    // Line ends wanted: the closing lines', the entries', the line before them and the one
    // before that (so that the line before the tail is read whole).
    let need = CLOSING.len() + count + 2;
    let mut buf: Vec<u8> = Vec::new();
    let (mut pos, mut ends) = (len, 0usize);
    while pos > floor && ends < need {
        let start = pos.saturating_sub(CHUNK as u64).max(floor);
        let mut chunk = vec![0u8; usize::try_from(pos - start).unwrap_or(0)];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut chunk)?;
        ends += chunk.iter().filter(|b| **b == b'\n').count();
        chunk.extend_from_slice(&buf);
        buf = chunk;
        pos = start;
    }
    let mut pieces = buf.split(|b| *b == b'\n').rev();
    // The piece after the file's last line end is empty.
    if pieces.next().is_none_or(|l| !l.is_empty()) {
        return Ok(None);
    }
    for close in CLOSING.iter().rev() {
        if pieces.next() != Some(close.as_bytes()) {
            return Ok(None);
        }
    }
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        let Some(body) = pieces.next().and_then(|l| {
            l.strip_prefix(ENTRY_INDENT.as_bytes())
                .and_then(|b| b.strip_suffix(b","))
        }) else {
            return Ok(None);
        };
        let Ok(text) = std::str::from_utf8(body) else {
            return Ok(None);
        };
        entries.push(text.to_string());
    }
    let before = pieces.next().unwrap_or_default();
    let fits = if whole {
        before == HISTORY_OPEN.as_bytes()
    } else {
        before.starts_with(ENTRY_INDENT.as_bytes())
    };
    if !fits {
        return Ok(None);
    }
    entries.reverse();
    Ok(Some(entries))
}

/// Copies the first `count` entry lines of a snapshot laid out by srtrack to `out`, as they
/// are; fails if the file has fewer or is not laid out so.
pub fn copy_entries(file: &mut File, count: usize, out: &mut dyn Write) -> io::Result<()> {
    if count == 0 {
        return Ok(());
    }
    let Some((_, at)) = read_head(file, super::file::MAX_BYTES)? else {
        return Err(io::Error::other(
            "the save on disk is not laid out as srtrack writes it",
        ));
    };
    file.seek(SeekFrom::Start(at))?;
    let mut reader = BufReader::with_capacity(CHUNK, file);
    let mut line = Vec::new();
    for _ in 0..count {
        line.clear();
        reader.read_until(b'\n', &mut line)?;
        if !line.starts_with(ENTRY_INDENT.as_bytes()) || !line.ends_with(b",\n") {
            return Err(io::Error::other(
                "the save on disk holds fewer entries than it should",
            ));
        }
        out.write_all(&line)?;
    }
    Ok(())
}

/// The first `count` entry lines, without their indent and comma.
pub fn read_entries(file: &mut File, count: usize) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    copy_entries(file, count, &mut out)?;
    let text = String::from_utf8(out).map_err(|_| io::Error::other("the save is not UTF-8"))?;
    Ok(text
        .lines()
        .map(|l| {
            l.trim_start_matches(' ')
                .strip_suffix(',')
                .unwrap_or(l)
                .to_string()
        })
        .collect())
}
