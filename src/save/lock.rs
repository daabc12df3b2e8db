//! One writer per save: `NAME.ron.lock` holds the writer's PID under an OS advisory lock
//! (flock). The kernel drops the lock when the process dies, so a crash never blocks the next
//! start; the PID is only there to tell the second srtrack who holds it.

use std::fs::{File, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::fs::{Mode, OFlags};

/// How long a refused srtrack waits for the holder to write its PID: a holder writes it right
/// after taking the lock, so only a holder another PID namespace hides takes this long.
const WAIT_FOR_PID: Duration = Duration::from_millis(500);

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
    /// The lock file is a symbolic link or not a regular file: srtrack writes no such thing.
    NotAFile {
        path: PathBuf,
        link: bool,
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
            LockError::NotAFile { path, link } => write!(
                f,
                "its lock file {} is {}, which srtrack never makes: remove it and try again",
                path.display(),
                if *link {
                    "a symbolic link"
                } else {
                    "not a regular file"
                }
            ),
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

/// The PID a lock file holds, if it holds one yet.
fn holder(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

impl Lock {
    /// Takes the save's lock without waiting. The lock file is opened without following a
    /// symbolic link; the caller checks first that `save` is a save (or is not there yet).
    pub fn acquire(save: &Path) -> Result<Self, LockError> {
        Self::taking(save, WAIT_FOR_PID)
    }

    /// Takes the save's lock if it is free this moment: a held lock is `InUse` at once, its
    /// holder's PID read as it is (a screen looking now and then whether the holder let go).
    pub fn try_acquire(save: &Path) -> Result<Self, LockError> {
        Self::taking(save, Duration::ZERO)
    }

    fn taking(save: &Path, wait_for_pid: Duration) -> Result<Self, LockError> {
        let path = lock_path(save);
        let fd = rustix::fs::open(
            &path,
            // NONBLOCK: a FIFO put in its place must not hang the open.
            OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
            Mode::from_raw_mode(0o644),
        )
        .map_err(|e| match e {
            rustix::io::Errno::LOOP => LockError::NotAFile {
                path: path.clone(),
                link: true,
            },
            // A directory cannot be opened to write: its lock file, not the save, is at fault.
            rustix::io::Errno::ISDIR => LockError::NotAFile {
                path: path.clone(),
                link: false,
            },
            e => LockError::Io(e.into()),
        })?;
        let mut file = File::from(fd);
        if !file.metadata().map_err(LockError::Io)?.is_file() {
            return Err(LockError::NotAFile { path, link: false });
        }
        let since = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) => {
                    // A new holder may not have written its PID yet, or a dead one's may still
                    // be there: wait for the live holder's.
                    let pid = holder(&mut file);
                    if pid.is_some_and(super::atomic::alive) || since.elapsed() >= wait_for_pid {
                        return Err(LockError::InUse { pid });
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(TryLockError::Error(e)) => return Err(LockError::Io(e)),
            }
        }
        // A PID left by a crashed holder is written over in place, and the file cut only when
        // that was longer: truncating a file that has a block costs ext4 ~0.4 ms, on the way to
        // the first frame.
        let pid = std::process::id().to_string();
        file.seek(SeekFrom::Start(0)).map_err(LockError::Io)?;
        file.write_all(pid.as_bytes()).map_err(LockError::Io)?;
        let len = pid.len() as u64;
        if file.metadata().map_err(LockError::Io)?.len() > len {
            file.set_len(len).map_err(LockError::Io)?;
        }
        Ok(Self { _file: file, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}
