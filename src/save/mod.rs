//! Saving encounters. The app calls an [`Autosave`] after every command.

pub mod atomic;
mod check_sr5;
pub mod file;
pub mod journal;
pub mod layout;
pub mod lock;
pub mod store;
pub mod validate;

use std::path::{Path, PathBuf};

use crate::encounter::Encounter;
pub use file::{LoadError, SaveFile};
pub use lock::{Lock, LockError};

/// Where the app writes the encounter after every change.
pub trait Autosave {
    /// Writes the whole encounter (history and undo position). The message says what failed.
    fn save(&mut self, encounter: &Encounter) -> Result<(), String>;

    /// The last save of a session: everything on disk, in the form it opens fastest.
    fn close(&mut self, encounter: &Encounter) -> Result<(), String> {
        self.save(encounter)
    }
}

/// Keeps nothing: for tests, demos and read-only sessions.
pub struct NoSave;

impl Autosave for NoSave {
    fn save(&mut self, _encounter: &Encounter) -> Result<(), String> {
        Ok(())
    }
}

/// An I/O error in words, without the Rust debug noise.
pub(crate) fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "it is a directory, not a save file".into(),
        _ => e.to_string(),
    }
}

/// The backup beside a save: `NAME.ron.bak`.
pub fn backup_path(save: &Path) -> PathBuf {
    let mut name = save.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    save.with_file_name(name)
}

/// Writes `text` to `path` atomically (see [`atomic::replace`]), keeping the version it
/// replaces as `.bak`.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    atomic::replace(path, text.as_bytes(), true)
}

/// How many changes a journal takes before the next command folds it into a new snapshot.
/// Opening reads and checks the journal line by line, so this bounds what a crash leaves for the
/// next open; a fold rewrites the whole file, so it should be rare: at 50 commands an hour of
/// play, about once a session.
pub const FOLD_EVERY: usize = 256;

/// When appended changes are synced to disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// After every command: the screen.
    EachCommand,
    /// After this many commands or this much time, and at the end: `exec`'s group commit.
    Grouped {
        lines: usize,
        every: std::time::Duration,
    },
}

/// How the encounter differs from what is on disk.
enum Change {
    None,
    /// What one command does.
    One(journal::Op),
    /// Anything else (nothing written yet, or several commands since): a new snapshot.
    Other,
}

/// What is on disk, as far as this session wrote or read it.
#[derive(Debug)]
struct OnDisk {
    /// The snapshot's; 0 when the file is not one this srtrack wrote (or not there yet): the
    /// next change writes a snapshot before any journal.
    generation: u64,
    journal: Option<journal::Writer>,
    /// Changes in the journal.
    ops: usize,
    /// Entries and cursor of the history on disk (snapshot and journal).
    len: usize,
    cursor: usize,
    /// The entry on disk after the cursor, which a redo applies again.
    next: Option<crate::encounter::Entry>,
}

/// A save on disk, held under its lock: the app's [`Autosave`]. Each command's change is
/// appended to the journal; the snapshot is rewritten every [`FOLD_EVERY`] changes and on close.
#[derive(Debug)]
pub struct FileSave {
    pub path: PathBuf,
    pub name: String,
    pub created: String,
    journal_path: PathBuf,
    disk: OnDisk,
    durability: Durability,
    /// Changes this session appended: a session that changed nothing leaves the file be.
    appended: usize,
    unsynced: usize,
    synced_at: std::time::Instant,
    _lock: Lock,
}

impl FileSave {
    /// Wraps a save the caller has locked, and removes what killed writers of it left behind.
    /// Nothing is known on disk: the first save writes a snapshot.
    pub fn new(path: PathBuf, name: String, created: String, lock: Lock) -> Self {
        atomic::remove_stale(&path);
        let journal_path = journal::path_of(&path);
        atomic::remove_stale(&journal_path);
        Self {
            path,
            name,
            created,
            journal_path,
            disk: OnDisk {
                generation: 0,
                journal: None,
                ops: 0,
                len: usize::MAX,
                cursor: usize::MAX,
                next: None,
            },
            durability: Durability::EachCommand,
            appended: 0,
            unsynced: 0,
            synced_at: std::time::Instant::now(),
            _lock: lock,
        }
    }

    /// Notes that the file holds `encounter` as it is now (just loaded with `header`): saving
    /// it unchanged writes nothing, and changes go on in its journal.
    #[must_use]
    pub fn on_disk(mut self, encounter: &Encounter, header: &SaveFile) -> Self {
        let (journal, ops) = match header.journal {
            Some((whole, ops)) if header.generation != 0 => {
                // A journal that cannot be reopened is started anew by the next fold.
                (journal::Writer::resume(&self.journal_path, whole).ok(), ops)
            }
            _ => (None, 0),
        };
        let generation = if journal.is_some() || header.journal.is_none() {
            header.generation
        } else {
            0
        };
        self.disk = OnDisk {
            generation,
            journal,
            ops,
            len: encounter.history().len(),
            cursor: encounter.cursor(),
            next: encounter.history().get(encounter.cursor()).cloned(),
        };
        self
    }

    /// Syncs appended changes in groups (see [`Durability`]); [`Autosave::close`] syncs the rest.
    #[must_use]
    pub fn durability(mut self, durability: Durability) -> Self {
        self.durability = durability;
        self
    }

    /// The change one command made to the history on disk.
    fn change(&self, encounter: &Encounter) -> Change {
        let (len, cursor) = (encounter.history().len(), encounter.cursor());
        let d = &self.disk;
        if (len, cursor) == (d.len, d.cursor) {
            return Change::None;
        }
        // A redo and a new command that recorded the same entry leave the same history.
        let redo_again = len == d.len && d.next.as_ref() == encounter.history().get(d.cursor);
        if d.cursor.checked_add(1) == Some(len) && cursor == len && !redo_again {
            return Change::One(journal::Op::Record(encounter.history()[d.cursor].clone()));
        }
        if len == d.len {
            Change::One(journal::Op::Move(cursor))
        } else {
            Change::Other
        }
    }

    /// Writes the whole encounter as a new snapshot, then starts its journal.
    fn fold(&mut self, encounter: &Encounter) -> Result<(), String> {
        let save = SaveFile::of(encounter, &self.name, &self.created);
        write_atomic(&self.path, &save.to_ron()).map_err(|e| self.failed(&e))?;
        self.disk = OnDisk {
            generation: save.generation,
            // The snapshot holds everything: without a journal the next change folds again.
            journal: journal::Writer::start(&self.journal_path, save.generation, &self.path).ok(),
            ops: 0,
            len: encounter.history().len(),
            cursor: encounter.cursor(),
            next: encounter.history().get(encounter.cursor()).cloned(),
        };
        self.unsynced = 0;
        self.synced_at = std::time::Instant::now();
        Ok(())
    }

    fn failed(&self, e: &std::io::Error) -> String {
        format!("cannot save {}: {}", self.path.display(), io_message(e))
    }

    fn sync(&mut self) -> Result<(), String> {
        if let Some(j) = &mut self.disk.journal {
            j.sync().map_err(|e| {
                format!(
                    "cannot save {}: {}",
                    self.journal_path.display(),
                    io_message(&e)
                )
            })?;
        }
        self.unsynced = 0;
        self.synced_at = std::time::Instant::now();
        Ok(())
    }
}

impl Autosave for FileSave {
    fn save(&mut self, encounter: &Encounter) -> Result<(), String> {
        let op = match self.change(encounter) {
            Change::None => return Ok(()),
            Change::One(op) if self.disk.ops < FOLD_EVERY => op,
            // Not one command's change (or the journal is full): the whole encounter.
            _ => return self.fold(encounter),
        };
        if self.disk.journal.is_none() && self.disk.generation != 0 {
            // The snapshot's journal was never started (a kill right after the fold).
            self.disk.journal =
                journal::Writer::start(&self.journal_path, self.disk.generation, &self.path).ok();
        }
        let Some(writer) = self.disk.journal.as_mut() else {
            return self.fold(encounter);
        };
        if writer.append(&op).is_err() {
            // It may hold part of a line now: a fold starts a new snapshot and journal.
            self.disk.journal = None;
            self.disk.generation = 0;
            return self.fold(encounter);
        }
        self.disk.ops += 1;
        self.appended += 1;
        self.disk.len = encounter.history().len();
        self.disk.cursor = encounter.cursor();
        self.disk.next = encounter.history().get(self.disk.cursor).cloned();
        self.unsynced += 1;
        let due = match self.durability {
            Durability::EachCommand => true,
            Durability::Grouped { lines, every } => {
                self.unsynced >= lines || self.synced_at.elapsed() >= every
            }
        };
        if due { self.sync() } else { Ok(()) }
    }

    fn close(&mut self, encounter: &Encounter) -> Result<(), String> {
        self.save(encounter)?;
        self.sync()?;
        if self.appended > 0 && self.disk.ops > 0 {
            self.fold(encounter)?;
        }
        Ok(())
    }
}

impl FileSave {
    /// Puts every change saved so far on disk, without a fold (`exec`'s end).
    pub fn flush(&mut self) -> Result<(), String> {
        self.sync()
    }
}
