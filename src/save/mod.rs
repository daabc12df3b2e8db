//! Saving encounters. The app calls an [`Autosave`] after every command.

mod check_sr5;
pub mod file;
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
        _ => e.to_string(),
    }
}

/// The backup beside a save: `NAME.ron.bak`.
pub fn backup_path(save: &Path) -> PathBuf {
    let mut name = save.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    save.with_file_name(name)
}

/// Writes `text` to `path` atomically: temporary file, fsync, rename over, fsync the directory.
/// The version it replaces is kept as `.bak` (a hard link, so nothing is copied).
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    if path.exists() {
        let bak = backup_path(path);
        let mut tmp_name = bak.file_name().unwrap_or_default().to_os_string();
        tmp_name.push(".tmp");
        let tmp = bak.with_file_name(tmp_name);
        let _ = std::fs::remove_file(&tmp);
        // Link then rename, so the old .bak is replaced in one step and the save never vanishes.
        if std::fs::hard_link(path, &tmp).is_ok() {
            std::fs::rename(&tmp, &bak)?;
        } else {
            std::fs::copy(path, &bak)?;
        }
    }
    let mut file = atomic_write_file::AtomicWriteFile::open(path)?;
    file.write_all(text.as_bytes())?;
    // commit() fsyncs the file, renames it over the save and fsyncs the directory.
    file.commit()
}

/// A save on disk, held under its lock: the app's [`Autosave`].
#[derive(Debug)]
pub struct FileSave {
    pub path: PathBuf,
    pub name: String,
    pub created: String,
    cache: file::CachedText,
    _lock: Lock,
}

impl FileSave {
    /// Wraps a save the caller has locked.
    pub fn new(path: PathBuf, name: String, created: String, lock: Lock) -> Self {
        Self {
            path,
            name,
            created,
            cache: file::CachedText::default(),
            _lock: lock,
        }
    }

    /// The save's text; entries serialized by an earlier call are reused.
    pub fn text(&mut self, encounter: &Encounter) -> String {
        self.cache.text(
            &self.name,
            &self.created,
            encounter.system(),
            encounter.rules(),
            encounter.cursor(),
            encounter.history(),
        )
    }
}

impl Autosave for FileSave {
    fn save(&mut self, encounter: &Encounter) -> Result<(), String> {
        let text = self.text(encounter);
        write_atomic(&self.path, &text)
            .map_err(|e| format!("cannot save {}: {}", self.path.display(), io_message(&e)))
    }
}
