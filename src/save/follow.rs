//! Following a save as the GM writes it: when its files change, read it again through the
//! save's own loader, never a state caught halfway through a rewrite. Reads only: no lock, no
//! file of its own.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use super::{atomic, file, journal};
use crate::catalogue::Catalogue;
use crate::encounter::Encounter;

/// What identifies one version of a file: a rename puts another inode in its place, a write
/// changes its length or time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    modified: Option<SystemTime>,
}

fn stamp(path: &Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt as _;
    let m = std::fs::metadata(path).ok()?;
    Some(Stamp {
        dev: m.dev(),
        ino: m.ino(),
        len: m.len(),
        modified: m.modified().ok(),
    })
}

/// The snapshot's and the journal's stamps.
pub type Stamps = (Option<Stamp>, Option<Stamp>);

/// The stamps of the save at `save` and of its journal, to tell whether either changed.
pub fn stamps_of(save: &Path) -> Stamps {
    let journal = journal::path_of(&atomic::real_path(save).unwrap_or_else(|_| save.to_path_buf()));
    (stamp(save), stamp(&journal))
}

/// Why the view waits instead of showing the save as it is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Waiting {
    /// No file there: the GM quit and it was moved, or it is not made yet.
    Missing,
    /// It does not load; the loader's reason.
    Broken(String),
    /// It changed while it was read (a fold rewrites it): read again in a moment.
    Rewriting,
}

/// What a look at the save found.
pub enum Look {
    /// Nothing changed since the last look that came to an answer: it still holds.
    Same,
    Loaded(Box<Encounter>),
    Waiting(Waiting),
}

/// The save one watcher follows.
pub struct Follower {
    save: PathBuf,
    journal: PathBuf,
    catalogue: Arc<Catalogue>,
    /// The files as they were at the last look that loaded them or found them missing or
    /// broken: a broken file is not parsed again until it changes.
    seen: Option<Stamps>,
}

impl Follower {
    pub fn new(save: PathBuf, catalogue: Arc<Catalogue>) -> Self {
        let journal = journal::path_of(&atomic::real_path(&save).unwrap_or_else(|_| save.clone()));
        Self {
            save,
            journal,
            catalogue,
            seen: None,
        }
    }

    /// The save's path as given.
    pub fn path(&self) -> &Path {
        &self.save
    }

    /// The names of the save's files in its directory: the snapshot and its journal.
    pub fn names(&self) -> Vec<std::ffi::OsString> {
        [&self.save, &self.journal]
            .iter()
            .filter_map(|p| p.file_name().map(std::ffi::OsStr::to_os_string))
            .collect()
    }

    fn stamps(&self) -> Stamps {
        (stamp(&self.save), stamp(&self.journal))
    }

    /// Loads the save if its files changed since the last look.
    ///
    /// A fold writes the new snapshot first and starts its journal after: a load that read the
    /// old snapshot and then the new journal would drop every change the old journal held. The
    /// loader ignores a journal without changes or of the snapshot replaced (and refuses
    /// another's), so such a load shows the old snapshot alone, an older state, or fails. It
    /// cannot pass here: the snapshot's stamp is taken before and
    /// after the load, and a rename in between (a new inode) makes it a `Rewriting`, read
    /// again. With the same snapshot before and after, its journal is its own or, in the moment
    /// before the new journal is started, an older one that the loader ignores, and the new
    /// snapshot holds everything then.
    pub fn look(&mut self) -> Look {
        let before = self.stamps();
        if self.seen == Some(before) {
            return Look::Same;
        }
        if before.0.is_none() {
            self.seen = Some(before);
            return Look::Waiting(Waiting::Missing);
        }
        // `open` reads the snapshot's tail, not its whole history: a long fight reloads fast.
        let result = file::open(&self.save, || Arc::clone(&self.catalogue));
        let after = self.stamps();
        if after.0 != before.0 {
            return Look::Waiting(Waiting::Rewriting);
        }
        match result {
            Ok((_, enc)) => {
                // `before`: a journal line that came during the load is read again next time.
                self.seen = Some(before);
                Look::Loaded(Box::new(enc))
            }
            Err(_) if after != before => Look::Waiting(Waiting::Rewriting),
            Err(e) => {
                self.seen = Some(before);
                Look::Waiting(Waiting::Broken(e.to_string()))
            }
        }
    }
}
