//! Saving encounters. The app calls an [`Autosave`] after every command.

pub mod atomic;
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

/// A save on disk, held under its lock: the app's [`Autosave`].
#[derive(Debug)]
pub struct FileSave {
    pub path: PathBuf,
    pub name: String,
    pub created: String,
    cache: file::CachedText,
    /// The text on disk, when known: saving it again would only turn `.bak` into a copy of it.
    written: Option<String>,
    _lock: Lock,
}

impl FileSave {
    /// Wraps a save the caller has locked, and removes what killed writers of it left behind.
    pub fn new(path: PathBuf, name: String, created: String, lock: Lock) -> Self {
        atomic::remove_stale(&path);
        Self {
            path,
            name,
            created,
            cache: file::CachedText::default(),
            written: None,
            _lock: lock,
        }
    }

    /// Notes that the file holds `encounter` as it is now (just loaded): saving it unchanged
    /// writes nothing.
    #[must_use]
    pub fn on_disk(mut self, encounter: &Encounter) -> Self {
        self.written = Some(self.text(encounter));
        self
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
        if self.written.as_ref() == Some(&text) {
            return Ok(());
        }
        write_atomic(&self.path, &text)
            .map_err(|e| format!("cannot save {}: {}", self.path.display(), io_message(&e)))?;
        self.written = Some(text);
        Ok(())
    }
}
