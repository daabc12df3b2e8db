//! The journal beside a save: what changed since its snapshot was written, one RON line per
//! command, appended and synced instead of rewriting the whole file after every command.
//!
//! ```text
//! Journal(generation: 1234)              the snapshot it continues (`SaveFile::generation`)
//! Record(Entry(text: "next", events: […]))
//! Move(41)                                undo or redo to 41 entries applied
//! ```
//!
//! A journal applies only to the snapshot whose generation its first line names: a snapshot is
//! written (atomically, the one it replaces kept as `.bak`) before the journal that continues
//! it, so a journal left from before a fold names the generation of the `.bak` and is ignored.
//! A journal with changes for any other snapshot (copied from another save, or the save put
//! back from elsewhere) is an error: ignored, its changes would be lost at the next write. A
//! last line without its line end is one a kill cut short; it is dropped (the command it held
//! was not acknowledged as saved).

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};
use serde::{Deserialize, Serialize};

use super::layout::one_line;
use crate::encounter::Entry;

/// The first line: which snapshot the journal continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal {
    pub generation: u64,
}

/// One change to the history, as a command made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// A new entry at the cursor: the entries after the cursor (undone ones) are dropped.
    Record(Entry),
    /// Undo or redo: this many entries are applied now.
    Move(usize),
}

impl Op {
    /// Applies the change to a history and its cursor; a move past the end is refused.
    pub fn apply(self, history: &mut Vec<Entry>, cursor: &mut usize) -> Result<(), String> {
        match self {
            Op::Record(entry) => {
                history.truncate(*cursor);
                history.push(entry);
                *cursor = history.len();
            }
            Op::Move(to) => {
                if to > history.len() {
                    return Err(format!(
                        "moves to entry {to}, past the end of the history ({} entries)",
                        history.len()
                    ));
                }
                *cursor = to;
            }
        }
        Ok(())
    }
}

/// `NAME.ron.journal` beside the save.
pub fn path_of(save: &Path) -> PathBuf {
    let mut name = save.file_name().unwrap_or_default().to_os_string();
    name.push(".journal");
    save.with_file_name(name)
}

/// What a journal holds for one snapshot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Read {
    pub ops: Vec<Op>,
    /// The journal continues the snapshot: its whole lines end here (appending goes on from
    /// there, past a line a kill cut short). `None`: no journal of this snapshot.
    pub whole: Option<u64>,
}

/// The changes a journal holds for the snapshot of `generation`: none when there is no journal
/// or it continues the snapshot this one replaced. `Err` says which line is wrong (not a
/// cut-short last one), or that the journal's changes are another snapshot's.
pub fn read(path: &Path, generation: u64) -> Result<Read, String> {
    if generation == 0 {
        return Ok(Read::default());
    }
    let bytes = match super::read::read(path, super::file::MAX_BYTES) {
        Ok(b) => b,
        Err(super::read::Unread::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Read::default());
        }
        Err(e) => {
            return Err(format!(
                "the journal: {}",
                e.message("a journal file", |size| format!(
                    "the file is {size}, more than the {} MiB a journal may have",
                    super::file::MAX_BYTES / (1024 * 1024)
                ))
            ));
        }
    };
    parse(&bytes, generation, || backup_generation(path))
}

/// The generation of the snapshot kept as `.bak` beside the save of this journal, if any.
fn backup_generation(journal: &Path) -> Option<u64> {
    let name = journal.file_name()?.to_str()?.strip_suffix(".journal")?;
    let bak = journal.with_file_name(format!("{name}.bak"));
    let (head, _) = super::layout::Reader::open(&bak).ok()??;
    head.lines()
        .find_map(|l| l.strip_prefix("  generation: "))
        .and_then(|n| n.trim_end_matches(',').parse().ok())
}

/// As [`read`], for a journal's bytes; `folded` gives the generation of the snapshot the save's
/// replaced (asked only for a journal of another generation).
pub fn parse(
    bytes: &[u8],
    generation: u64,
    folded: impl FnOnce() -> Option<u64>,
) -> Result<Read, String> {
    // Only whole lines count: what follows the last line end was cut short by a kill.
    let Some(end) = bytes.iter().rposition(|b| *b == b'\n') else {
        return Ok(Read::default());
    };
    let mut lines = bytes[..end].split(|b| *b == b'\n');
    let first = lines.next().unwrap_or_default();
    // A byte-order mark an editor wrote first is read past, as in the snapshot.
    let head: Journal = std::str::from_utf8(first)
        .ok()
        .and_then(|t| ron::from_str(crate::text::without_bom(t)).ok())
        .ok_or("the journal's first line is not `Journal(generation: N)`")?;
    if head.generation != generation {
        let changes = lines.count();
        if changes == 0 || folded() == Some(head.generation) {
            return Ok(Read::default());
        }
        return Err(format!(
            "the journal continues another snapshot than this save's, so its {} cannot be applied (nor are they overwritten): was it copied from another save? Move it away to open the save without it",
            crate::text::counted(changes, "change", "changes")
        ));
    }
    let ops = lines
        .enumerate()
        .map(|(i, line)| {
            std::str::from_utf8(line)
                .ok()
                .and_then(|t| ron::from_str::<Op>(t).ok())
                .ok_or_else(|| {
                    format!(
                        "the journal's line {} is not a change srtrack wrote (was it edited?)",
                        i + 2
                    )
                })
        })
        .collect::<Result<_, _>>()?;
    Ok(Read {
        ops,
        whole: Some(end as u64 + 1),
    })
}

/// A change's line in the journal, with its line end.
pub fn line_of(op: &Op) -> String {
    one_line(op) + "\n"
}

/// Why a journal that is a symbolic link is not written (see `atomic::refuse_beside`).
fn a_link() -> io::Error {
    io::Error::other("the journal is a symbolic link, which srtrack never makes")
}

/// A journal open for appending, its header written and synced.
#[derive(Debug)]
pub struct Writer {
    file: File,
    /// Bytes written and not yet synced.
    unsynced: bool,
}

impl Writer {
    /// Starts the journal of the snapshot `generation`: replaces whatever journal is there
    /// (atomically, so a crash leaves the old one, which names an older snapshot, or this one).
    /// It gets the save's mode: it holds the same fight.
    pub fn start(path: &Path, generation: u64, save: &Path) -> io::Result<Self> {
        // `replace` writes through a link; a journal is never written through one.
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(a_link());
        }
        let head = one_line(&Journal { generation }) + "\n";
        super::atomic::replace(path, head.as_bytes(), false)?;
        let writer = Self::open(path)?;
        if let Ok(meta) = std::fs::metadata(save) {
            use std::os::unix::fs::PermissionsExt as _;
            writer
                .file
                .set_permissions(std::fs::Permissions::from_mode(
                    meta.permissions().mode() & 0o7777,
                ))?;
        }
        Ok(writer)
    }

    /// Goes on with the journal [`read`] found, from the end of its whole lines (a line cut
    /// short is cut off, so the next one starts on a line of its own).
    pub fn resume(path: &Path, whole: u64) -> io::Result<Self> {
        let mut writer = Self::open(path)?;
        if writer.file.metadata()?.len() != whole {
            writer.file.set_len(whole)?;
            writer.unsynced = true;
        }
        Ok(writer)
    }

    fn open(path: &Path) -> io::Result<Self> {
        let fd = rustix::fs::open(
            path,
            OFlags::WRONLY | OFlags::APPEND | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
            Mode::empty(),
        )
        .map_err(|e| match e {
            rustix::io::Errno::LOOP => a_link(),
            e => e.into(),
        })?;
        let file = File::from(fd);
        super::atomic::refuse_to_replace(&file.metadata()?)?;
        Ok(Self {
            file,
            unsynced: false,
        })
    }

    /// Appends one change (not yet synced: see [`Writer::sync`]).
    pub fn append(&mut self, op: &Op) -> io::Result<()> {
        self.append_line(&line_of(op))
    }

    /// Appends a line [`line_of`] wrote.
    pub fn append_line(&mut self, line: &str) -> io::Result<()> {
        // One write: a kill leaves the line whole or cut short, never interleaved.
        self.file.write_all(line.as_bytes())?;
        self.unsynced = true;
        Ok(())
    }

    /// Puts what was appended on disk.
    pub fn sync(&mut self) -> io::Result<()> {
        if self.unsynced {
            self.file.sync_data()?;
            self.unsynced = false;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(text: &str) -> Entry {
        Entry {
            text: text.into(),
            events: Vec::new(),
            joined: false,
        }
    }

    fn text(ops: &[Op], generation: u64) -> Vec<u8> {
        let mut out = one_line(&Journal { generation }) + "\n";
        for op in ops {
            out += &(one_line(op) + "\n");
        }
        out.into_bytes()
    }

    #[test]
    fn reads_back_what_it_wrote() {
        let ops = vec![
            Op::Record(entry("a \"quoted\"\nline")),
            Op::Move(0),
            Op::Move(1),
        ];
        assert_eq!(parse(&text(&ops, 7), 7, || None).map(|r| r.ops), Ok(ops));
    }

    /// A journal opened and saved again in an editor that writes a byte-order mark (Notepad)
    /// reads as before, as its snapshot does.
    #[test]
    fn a_byte_order_mark_first_is_read_past() {
        let ops = vec![Op::Record(entry("one")), Op::Move(0)];
        let mut marked = "\u{feff}".as_bytes().to_vec();
        marked.extend(text(&ops, 7));
        assert_eq!(parse(&marked, 7, || None).map(|r| r.ops), Ok(ops));
    }

    #[test]
    fn the_journal_of_the_snapshot_replaced_is_ignored_and_another_ones_refused() {
        let ops = vec![Op::Move(0)];
        assert_eq!(parse(&text(&ops, 7), 8, || Some(7)), Ok(Read::default()));
        assert_eq!(parse(&text(&[], 7), 8, || None), Ok(Read::default()));
        for folded in [None, Some(6)] {
            let err = parse(&text(&ops, 7), 8, || folded).unwrap_err();
            assert!(err.contains("its 1 change cannot be applied"), "{err}");
        }
    }

    #[test]
    fn a_torn_last_line_is_dropped() {
        let ops = vec![Op::Record(entry("one")), Op::Record(entry("two"))];
        let whole = text(&ops, 7);
        // Every cut inside the last line gives the first change only.
        let last = whole[..whole.len() - 1]
            .iter()
            .rposition(|b| *b == b'\n')
            .unwrap();
        for cut in last + 1..whole.len() {
            assert_eq!(
                parse(&whole[..cut], 7, || None),
                Ok(Read {
                    ops: ops[..1].to_vec(),
                    whole: Some(last as u64 + 1)
                }),
                "cut at {cut}"
            );
        }
        assert_eq!(parse(&whole, 7, || None).map(|r| r.ops), Ok(ops));
    }

    #[test]
    fn a_bad_line_before_the_last_is_an_error() {
        let mut bytes = text(&[Op::Move(0)], 7);
        bytes.extend_from_slice(b"Nonsense\nMove(0)\n");
        assert!(parse(&bytes, 7, || None).unwrap_err().contains("line 3"));
    }

    #[test]
    fn applying_a_record_drops_the_undone_entries() {
        let (mut history, mut cursor) = (vec![entry("a"), entry("b")], 1);
        Op::Record(entry("c"))
            .apply(&mut history, &mut cursor)
            .unwrap();
        assert_eq!((history, cursor), (vec![entry("a"), entry("c")], 2));
        let (mut history, mut cursor) = (vec![entry("a")], 1);
        assert!(Op::Move(2).apply(&mut history, &mut cursor).is_err());
    }
}
