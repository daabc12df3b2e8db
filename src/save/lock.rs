//! One writer per save: `NAME.ron.lock` holds the writer's PID under an OS advisory lock
//! (flock). The kernel drops the lock when the process dies, so a crash never blocks the next
//! start; the PID is only there to tell the second srtrack who holds it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A held lock on one save; released when dropped (or when the process dies).
#[derive(Debug)]
pub struct Lock {
    _file: File,
    path: PathBuf,
}

/// Why a save could not be locked.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds it; its PID if the lock file says.
    InUse {
        pid: Option<u32>,
    },
    Io(std::io::Error),
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockError::InUse { pid: Some(pid) } => {
                write!(f, "the save is in use by another srtrack (process {pid})")
            }
            LockError::InUse { pid: None } => write!(f, "the save is in use by another srtrack"),
            LockError::Io(e) => write!(f, "cannot lock the save: {}", super::io_message(e)),
        }
    }
}

impl std::error::Error for LockError {}

/// The lock file beside a save.
pub fn lock_path(save: &Path) -> PathBuf {
    let mut name = save.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    save.with_file_name(name)
}

impl Lock {
    /// Takes the save's lock without waiting.
    pub fn acquire(save: &Path) -> Result<Self, LockError> {
        let path = lock_path(save);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(LockError::Io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(LockError::InUse {
                    pid: text.trim().parse().ok(),
                });
            }
            Err(TryLockError::Error(e)) => return Err(LockError::Io(e)),
        }
        // A PID left by a crashed holder is simply overwritten.
        file.set_len(0).map_err(LockError::Io)?;
        file.seek(SeekFrom::Start(0)).map_err(LockError::Io)?;
        write!(file, "{}", std::process::id()).map_err(LockError::Io)?;
        file.flush().map_err(LockError::Io)?;
        Ok(Self { _file: file, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}
