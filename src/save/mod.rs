//! Saving encounters. The app calls an [`Autosave`] after every command.

pub mod atomic;
pub mod audit;
mod check_numbers;
mod check_spent;
mod check_sr5;
mod check_texts;
pub mod file;
pub mod follow;
pub mod journal;
pub mod layout;
pub mod lock;
pub mod read;
pub mod store;
mod streamed;
pub mod validate;
pub mod writer;

use std::path::{Path, PathBuf};

use crate::encounter::Encounter;
pub use file::{LoadError, SaveFile};
pub use lock::{Lock, LockError};
pub use writer::Written;

/// Where the app writes the encounter after every change.
pub trait Autosave {
    /// Writes the whole encounter (history and undo position). The message says what failed.
    fn save(&mut self, encounter: &Encounter) -> Result<(), String>;

    /// The last save of a session: everything on disk, in the form it opens fastest. An error
    /// means a change may be lost; a snapshot not rewritten, with every change in the journal,
    /// is [`Closed::InJournal`].
    fn close(&mut self, encounter: &Encounter) -> Result<Closed, String> {
        self.save(encounter).map(|()| Closed::Whole)
    }

    /// Whether what `save` was given is on disk yet (a save that writes on another thread).
    fn written(&mut self) -> Written {
        Written::Yes
    }

    /// The entries an encounter opened from its end left on disk ([`Encounter::base`]),
    /// checked: for undo and the log to reach them.
    fn earlier(&mut self, encounter: &Encounter) -> Result<Vec<crate::encounter::Entry>, String> {
        if encounter.base() == 0 {
            Ok(Vec::new())
        } else {
            Err("the start of the history is not on disk".into())
        }
    }
}

/// How a session's last save went, when nothing was lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Closed {
    /// Everything on disk, folded into the snapshot.
    Whole,
    /// Every change is in the journal (synced), but the snapshot could not be rewritten: why.
    /// The save opens as it is; the next session folds it.
    InJournal(String),
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
        // Worded already (a link to nothing, `atomic::through_link`).
        std::io::ErrorKind::NotFound if e.get_ref().is_some() => e.to_string(),
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "it is a directory, not a save file".into(),
        std::io::ErrorKind::NotADirectory => "a part of its path is a file, not a folder".into(),
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

/// What is on disk, as far as this session wrote (or queued for writing) or read it.
#[derive(Debug)]
struct OnDisk {
    /// The snapshot's; 0 when the file is not one this srtrack wrote (or not there yet, or a
    /// write failed): the next change writes a snapshot before any journal.
    generation: u64,
    /// Changes in the journal.
    ops: usize,
    /// Entries and cursor of the history on disk (snapshot and journal), counted over the
    /// whole history (see `Encounter::base`).
    len: usize,
    cursor: usize,
    /// The entry on disk after the cursor, which a redo applies again.
    next: Option<crate::encounter::Entry>,
}

/// Who writes the files.
#[derive(Debug)]
enum Io {
    /// This thread, as each change is saved (`exec`, tests).
    Inline(writer::Disk),
    /// The writer thread ([`FileSave::in_background`]).
    Background(writer::Background),
}

/// A save on disk, held under its lock: the app's [`Autosave`]. Each command's change is
/// appended to the journal; the snapshot is rewritten every [`FOLD_EVERY`] changes and on close.
#[derive(Debug)]
pub struct FileSave {
    pub path: PathBuf,
    pub name: String,
    pub created: String,
    disk: OnDisk,
    io: Io,
    durability: Durability,
    /// Changes this session appended: a session that changed nothing leaves the file be.
    appended: usize,
    /// Whether a rewrite keeps the snapshot it replaces as `.bak` (see [`FileSave::without_backup`]).
    backup: bool,
    unsynced: usize,
    synced_at: std::time::Instant,
    _lock: Lock,
}

impl FileSave {
    /// Wraps a save the caller has locked. What killed writers of it left behind is removed
    /// before the first write (or when the writer thread starts, [`FileSave::in_background`]).
    /// Nothing is known on disk: the first save writes a snapshot.
    pub fn new(path: PathBuf, name: String, created: String, lock: Lock) -> Self {
        let journal_path = journal::path_of(&path);
        Self {
            io: Io::Inline(writer::Disk::new(path.clone(), journal_path)),
            path,
            name,
            created,
            disk: OnDisk {
                generation: 0,
                ops: 0,
                len: usize::MAX,
                cursor: usize::MAX,
                next: None,
            },
            durability: Durability::EachCommand,
            appended: 0,
            backup: true,
            unsynced: 0,
            synced_at: std::time::Instant::now(),
            _lock: lock,
        }
    }

    /// Notes that the file holds `encounter` as it is now (just loaded with `header`, by
    /// `file::load` or `file::open`): saving it unchanged writes nothing, and changes go on in
    /// its journal.
    #[must_use]
    pub fn on_disk(mut self, encounter: &Encounter, header: &SaveFile) -> Self {
        let (resumed, ops) = match (&mut self.io, header.journal) {
            (Io::Inline(disk), Some((whole, ops))) if header.generation != 0 => {
                // A journal that cannot be reopened is started anew by the next fold.
                (disk.resume(header.generation, whole), ops)
            }
            _ => (false, 0),
        };
        let generation = if resumed || header.journal.is_none() {
            header.generation
        } else {
            0
        };
        self.disk = OnDisk {
            generation,
            ops,
            len: encounter.base() + encounter.history().len(),
            cursor: encounter.base() + encounter.cursor(),
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

    /// Rewrites without keeping a `.bak`: for a save made where a backup of an earlier one
    /// (removed since) is left, which is not this save's to replace.
    #[must_use]
    pub fn without_backup(mut self) -> Self {
        self.backup = false;
        self
    }

    /// Writes on a thread of its own from now on: [`Autosave::save`] returns at once and
    /// [`Autosave::written`] says when the change is on disk. Stays on this thread if no
    /// thread can be started.
    #[must_use]
    pub fn in_background(mut self) -> Self {
        let placeholder = writer::Disk::new(PathBuf::new(), PathBuf::new());
        if let Io::Inline(disk) = std::mem::replace(&mut self.io, Io::Inline(placeholder)) {
            let (path, journal_path) = (disk.path.clone(), disk.journal_path.clone());
            self.io = match writer::Background::spawn(disk) {
                Ok(b) => Io::Background(b),
                // The disk went into the failed spawn: a fresh one reopens the journal.
                Err(_) => Io::Inline(writer::Disk::new(path, journal_path)),
            };
            if matches!(self.io, Io::Inline(_)) {
                self.disk.generation = 0;
            }
        }
        self
    }

    /// The change one command made to the history on disk.
    fn change(&self, encounter: &Encounter) -> Change {
        // Counted over the whole history, loaded or not (see `Encounter::base`).
        let base = encounter.base();
        let (len, cursor) = (base + encounter.history().len(), base + encounter.cursor());
        let at = |n: usize| n.checked_sub(base).and_then(|i| encounter.history().get(i));
        let d = &self.disk;
        if (len, cursor) == (d.len, d.cursor) {
            return Change::None;
        }
        // A redo and a new command that recorded the same entry leave the same history.
        let redo_again = len == d.len && d.next.as_ref() == at(d.cursor);
        if d.cursor.checked_add(1) == Some(len)
            && cursor == len
            && !redo_again
            && let Some(entry) = at(d.cursor)
        {
            return Change::One(journal::Op::Record(entry.clone()));
        }
        if len == d.len {
            Change::One(journal::Op::Move(cursor))
        } else {
            Change::Other
        }
    }

    /// Hands a job to whoever writes.
    fn run(&mut self, job: writer::Job) -> Result<(), String> {
        match &mut self.io {
            Io::Inline(disk) => disk.run(job),
            Io::Background(b) => b.queue(job),
        }
    }

    /// Notes what the encounter is on disk once what was handed over is written.
    fn note(&mut self, encounter: &Encounter) {
        self.disk.len = encounter.base() + encounter.history().len();
        self.disk.cursor = encounter.base() + encounter.cursor();
        self.disk.next = encounter.history().get(encounter.cursor()).cloned();
    }

    /// Writes the whole encounter as a new snapshot, then starts its journal.
    fn fold(&mut self, encounter: &Encounter) -> Result<(), String> {
        let (generation, head, body) = file::snapshot_parts(encounter, &self.name, &self.created);
        let job = writer::Job::Fold {
            generation,
            head,
            earlier: encounter.base(),
            body,
            backup: self.backup,
        };
        if let Err(e) = self.run(job) {
            self.disk.generation = 0;
            return Err(e);
        }
        self.disk.generation = generation;
        self.disk.ops = 0;
        self.note(encounter);
        self.unsynced = 0;
        self.synced_at = std::time::Instant::now();
        Ok(())
    }

    fn sync(&mut self) -> Result<(), String> {
        self.run(writer::Job::Sync)?;
        self.unsynced = 0;
        self.synced_at = std::time::Instant::now();
        Ok(())
    }

    /// After a write on the writer thread failed: nothing on disk is known any more, so the
    /// next change writes the whole encounter.
    fn forget(&mut self) {
        self.disk.generation = 0;
        self.disk.len = usize::MAX;
        self.disk.cursor = usize::MAX;
    }

    /// Waits for the writer thread to write everything handed to it: its error, if one failed.
    fn drain(&mut self) -> Result<(), String> {
        if let Io::Background(b) = &self.io {
            b.wait_idle();
            if let writer::Written::Failed(e) = b.written() {
                self.forget();
                return Err(e);
            }
        }
        Ok(())
    }
}

impl Autosave for FileSave {
    fn save(&mut self, encounter: &Encounter) -> Result<(), String> {
        let op = match self.change(encounter) {
            Change::None => return Ok(()),
            Change::One(op) if self.disk.ops < FOLD_EVERY && self.disk.generation != 0 => op,
            // Not one command's change (or the journal is full, or none continues the
            // snapshot): the whole encounter.
            _ => return self.fold(encounter),
        };
        self.unsynced += 1;
        let sync = match self.durability {
            Durability::EachCommand => true,
            Durability::Grouped { lines, every } => {
                self.unsynced >= lines || self.synced_at.elapsed() >= every
            }
        };
        let job = writer::Job::Append {
            generation: self.disk.generation,
            line: journal::line_of(&op),
            sync,
        };
        if self.run(job).is_err() {
            // The journal may hold part of a line now: a new snapshot and journal instead.
            self.disk.generation = 0;
            return self.fold(encounter);
        }
        if sync {
            self.unsynced = 0;
            self.synced_at = std::time::Instant::now();
        }
        self.disk.ops += 1;
        self.appended += 1;
        self.note(encounter);
        Ok(())
    }

    fn close(&mut self, encounter: &Encounter) -> Result<Closed, String> {
        if self.drain().is_err() {
            // Written again in full below: what failed is not lost.
            self.appended += 1;
        }
        self.save(encounter)?;
        self.sync()?;
        // Whether the journal holds every change, known before the fold is tried: a fold that
        // fails then loses nothing (the new snapshot is put in place whole or not at all).
        let journal = self.drain();
        let fold = journal.is_err() || (self.appended > 0 && self.disk.ops > 0);
        if fold && let Err(e) = self.fold(encounter).and_then(|()| self.drain()) {
            return match journal {
                Ok(()) => Ok(Closed::InJournal(e)),
                Err(_) => Err(e),
            };
        }
        Ok(Closed::Whole)
    }

    fn earlier(&mut self, encounter: &Encounter) -> Result<Vec<crate::encounter::Entry>, String> {
        file::earlier(&self.path, encounter)
    }

    fn written(&mut self) -> writer::Written {
        match &self.io {
            Io::Inline(_) => writer::Written::Yes,
            Io::Background(b) => {
                let w = b.written();
                if matches!(w, writer::Written::Failed(_)) {
                    self.forget();
                }
                w
            }
        }
    }
}

impl FileSave {
    /// Puts every change saved so far on disk, without a fold (`exec`'s end).
    pub fn flush(&mut self) -> Result<(), String> {
        self.sync()?;
        self.drain()
    }
}
