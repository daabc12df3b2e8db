//! Replacing a file whole: a crash leaves the old version or the new one, never a mix, and no
//! temporary file outlives a failed write. A symbolic link is written through (its target is
//! replaced, the link stays); a file made read-only is refused; a new file keeps the mode of the
//! one it replaces (0644 less the umask for a new one).

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};

/// The mode of a file srtrack creates; the umask takes its bits off.
const NEW_FILE_MODE: u32 = 0o644;

fn other(message: String) -> io::Error {
    io::Error::other(message)
}

/// The file `path` names, through any symbolic links.
pub fn real_path(path: &Path) -> io::Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            fs::canonicalize(path).map_err(|e| through_link(path, e))
        }
        _ => Ok(path.to_path_buf()),
    }
}

/// `e`, met following `path`, in the words every command uses when `path` is a symbolic link
/// that leads nowhere: one to a file that does not exist, or one in a loop of links (whose
/// OS words, "Too many levels of symbolic links", say nothing to a GM).
pub fn through_link(path: &Path, e: io::Error) -> io::Error {
    if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
        return other("it is a symbolic link in a loop of links that never reaches a file".into());
    }
    let link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if link && e.kind() == io::ErrorKind::NotFound {
        // Still not found, for readers that name the link's target themselves.
        io::Error::new(
            io::ErrorKind::NotFound,
            "it is a symbolic link to a file that does not exist",
        )
    } else {
        e
    }
}

/// Why srtrack will not replace a file that is there: it is not a regular file, or its owner
/// made it read-only.
pub fn refuse_to_replace(meta: &fs::Metadata) -> io::Result<()> {
    if meta.is_dir() {
        return Err(other("it is a directory, not a save file".into()));
    }
    if !meta.is_file() {
        return Err(other("it is not a regular file".into()));
    }
    if meta.permissions().readonly() {
        return Err(other(
            "the file is read-only, so srtrack leaves it as it is (`chmod u+w` it to allow changes)"
                .into(),
        ));
    }
    Ok(())
}

/// Why srtrack will not write the save at `path` (its real path): a file there it will not
/// replace ([`refuse_to_replace`]), a journal or backup beside it it will not write
/// ([`refuse_beside`]), or a folder it cannot write in (its owner made it read-only, or it is
/// on a read-only file system), where its lock, journal and new snapshots would go.
pub fn refuse_to_write(path: &Path) -> io::Result<()> {
    match fs::metadata(path) {
        Ok(m) => refuse_to_replace(&m)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    refuse_beside(path)?;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let read_only = || {
        other(format!(
            "its folder {} is read-only, so srtrack leaves the save as it is",
            dir.display()
        ))
    };
    if fs::metadata(dir)?.permissions().readonly() {
        return Err(read_only());
    }
    match rustix::fs::access(dir, rustix::fs::Access::WRITE_OK) {
        Err(rustix::io::Errno::ACCESS | rustix::io::Errno::ROFS | rustix::io::Errno::PERM) => {
            Err(read_only())
        }
        _ => Ok(()),
    }
}

/// Why srtrack will not write the journal or the backup beside the save at `path`, looked at
/// before anything is written so that a save cannot be left half written (a new snapshot and
/// no journal to go on from it, a fold without the `.bak` that tells a folded journal):
/// a journal that is a symbolic link (srtrack never makes one, and appending through it would
/// write elsewhere), not a regular file or made read-only by its owner; a backup that is a
/// directory (a hard link cannot be renamed over it).
pub fn refuse_beside(path: &Path) -> io::Result<()> {
    let journal = super::journal::path_of(path);
    if let Ok(m) = fs::symlink_metadata(&journal) {
        let why = if m.file_type().is_symlink() {
            "is a symbolic link, which srtrack never makes: put the file itself there"
        } else if !m.is_file() {
            "is not a regular file, which srtrack never makes: move it away"
        } else if m.permissions().readonly() {
            "is read-only, so srtrack leaves the save as it is (`chmod u+w` it to allow changes)"
        } else {
            ""
        };
        if !why.is_empty() {
            return Err(other(format!("its journal {} {why}", journal.display())));
        }
    }
    match backup_is_a_directory(&super::backup_path(path)) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Why a backup cannot go at `bak`: a directory is there.
fn backup_is_a_directory(bak: &Path) -> Option<io::Error> {
    fs::symlink_metadata(bak)
        .is_ok_and(|m| m.is_dir())
        .then(|| {
            other(format!(
                "its backup {} is a directory, which srtrack never makes: move it away",
                bak.display()
            ))
        })
}

/// `.NAME.PID.tmp` beside `target`: whose it is stays readable, so leftovers of dead
/// processes can be told from a live writer's.
fn temp_path(target: &Path) -> PathBuf {
    let mut name = OsString::from(".");
    name.push(target.file_name().unwrap_or_default());
    name.push(format!(".{}.tmp", std::process::id()));
    target.with_file_name(name)
}

/// Removes the temporary file it names when dropped, unless it was put in place.
struct Temp {
    path: PathBuf,
    placed: bool,
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.placed {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Creates `path` anew: never through a link, never over a file that is there.
fn create_new(path: &Path) -> io::Result<File> {
    let open = || {
        rustix::fs::open(
            path,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(NEW_FILE_MODE),
        )
    };
    let fd = match open() {
        // Ours from an earlier run under the same process id: a leftover.
        Err(rustix::io::Errno::EXIST) => {
            fs::remove_file(path)?;
            open()?
        }
        r => r?,
    };
    Ok(File::from(fd))
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Writes `bytes` to `path` atomically: a temporary file is written and fsynced, renamed over
/// the file, and the directory fsynced. With `keep_backup`, the version replaced is kept as
/// `NAME.bak` (a hard link, so nothing is copied).
pub fn replace(path: &Path, bytes: &[u8], keep_backup: bool) -> io::Result<()> {
    let target = real_path(path)?;
    let old = match fs::symlink_metadata(&target) {
        Ok(m) => {
            refuse_to_replace(&m)?;
            Some(m)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut temp = Temp {
        path: temp_path(&target),
        placed: false,
    };
    let mut file = create_new(&temp.path)?;
    if let Some(m) = &old {
        file.set_permissions(fs::Permissions::from_mode(m.mode() & 0o7777))?;
        if (m.uid(), m.gid())
            != (
                rustix::process::getuid().as_raw(),
                rustix::process::getgid().as_raw(),
            )
        {
            // Root saving a user's file gives it back to the user; others cannot, and need not.
            let _ = std::os::unix::fs::fchown(&file, Some(m.uid()), Some(m.gid()));
        }
    }
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    if keep_backup && old.is_some() {
        keep_as_backup(&target)?;
    }
    fs::rename(&temp.path, &target)?;
    temp.placed = true;
    sync_dir(&dir)
}

/// `target` becomes `target.bak` too: linked to a temporary name, then renamed over the old
/// backup, so there is a backup at every moment.
fn keep_as_backup(target: &Path) -> io::Result<()> {
    let bak = super::backup_path(target);
    let mut temp = Temp {
        path: temp_path(&bak),
        placed: false,
    };
    // Named in what fails: the save itself could have been written.
    let named = |e: io::Error| {
        backup_is_a_directory(&bak).unwrap_or_else(|| {
            other(format!(
                "its backup {} cannot be written: {}",
                bak.display(),
                super::io_message(&e)
            ))
        })
    };
    let _ = fs::remove_file(&temp.path);
    if fs::hard_link(target, &temp.path).is_err() {
        // A file system without hard links: copy.
        fs::copy(target, &temp.path).map_err(named)?;
    }
    fs::rename(&temp.path, &bak).map_err(named)?;
    temp.placed = true;
    Ok(())
}

/// Whether a process with this id is running (one we may not signal is running too).
pub fn alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

/// Removes what killed writers of this save left: `.NAME.PID.tmp` files of dead processes
/// (for the save and its backup), and from earlier srtrack builds `NAME.bak.tmp` and
/// `.NAME.XXXXXX` files (six letters or digits) that hold a save or nothing. Call it holding
/// the save's lock: no one else writes them then.
pub fn remove_stale(save: &Path) {
    let Ok(target) = real_path(save) else { return };
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = fs::read_dir(&dir) else {
        return;
    };
    let bak = format!("{name}.bak");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        let path = dir.join(file);
        let stale = [name, bak.as_str()].iter().any(|base| {
            let Some(rest) = file.strip_prefix(&format!(".{base}.")) else {
                return false;
            };
            match rest.strip_suffix(".tmp").map(str::parse::<u32>) {
                Some(Ok(pid)) => pid != std::process::id() && !alive(pid),
                _ => {
                    rest.len() == 6
                        && rest.chars().all(|c| c.is_ascii_alphanumeric())
                        && holds_a_save_or_nothing(&path)
                }
            }
        }) || file == format!("{bak}.tmp");
        if stale {
            let _ = fs::remove_file(&path);
        }
    }
}

/// A file someone else may have named alike is left alone: only what srtrack writes goes.
fn holds_a_save_or_nothing(path: &Path) -> bool {
    use std::io::Read as _;
    let mut head = [0u8; 9];
    let Ok((mut f, _)) = super::read::open(path) else {
        return false;
    };
    let n = f.read(&mut head).unwrap_or(0);
    n == 0 || head[..n] == b"SaveFile("[..n]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Given a file whose `.bak` is a directory, when it is replaced keeping a backup, then the
    /// error names the backup (the file itself could be written), and the file is as it was.
    #[test]
    fn a_backup_that_cannot_be_made_is_named_and_the_file_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f.ron");
        fs::write(&file, "before").unwrap();
        fs::create_dir(dir.path().join("f.ron.bak")).unwrap();
        let e = replace(&file, b"after", true).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "its backup {}.bak is a directory, which srtrack never makes: move it away",
                file.display()
            )
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), "before");
        assert!(refuse_to_write(&file).is_err_and(|r| r.to_string() == e));
    }
}
