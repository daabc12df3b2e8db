//! A save another srtrack holds (an `exec` script under way, a second screen): the screen shows
//! it read-only, follows it as the holder writes it, and takes it once the holder lets go.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::catalogue::Catalogue;
use crate::encounter::Encounter;
use crate::save::audit::Audit;
use crate::save::follow::{Follower, Look, Stamps, stamps_of};
use crate::save::{Autosave, FileSave, Lock, atomic, file};

/// How often a screen showing a held save looks whether it changed.
pub const HELD_CHECK: Duration = Duration::from_millis(250);
/// How often it tries the save's lock (a try reads the whole save when it succeeds).
const TAKE_EVERY: Duration = Duration::from_secs(1);

/// The save taken: as it is on disk once its lock is ours, the store that writes it from now
/// on, and the check of what that open trusted (`save::audit`).
pub struct Taken {
    pub enc: Encounter,
    pub store: Box<dyn Autosave>,
    pub audit: Audit,
}

/// What a look at the held save found.
pub enum Change {
    Nothing,
    /// The holder wrote: the save as it is now.
    Followed(Box<Encounter>),
    /// The holder let go, and the save is this screen's.
    Taken(Box<Taken>),
}

/// The followed save and the way to take it.
pub struct Held {
    follower: Follower,
    /// Takes the save's lock if it is free (`None`: still held, or not to be loaded now).
    take: Box<dyn FnMut() -> Option<Taken>>,
    tried: Option<Instant>,
}

impl Held {
    pub fn new(follower: Follower, take: impl FnMut() -> Option<Taken> + 'static) -> Self {
        Self {
            follower,
            take: Box::new(take),
            tried: None,
        }
    }

    /// The save at `path`, followed, and taken as `open` opens a save: its lock first, then
    /// the save as it is on disk (snapshot and journal). A save that does not load then lets
    /// its lock go and is tried again once its files change.
    pub fn of_save(path: &Path, catalogue: Arc<Catalogue>) -> Self {
        let follower = Follower::new(path.to_path_buf(), Arc::clone(&catalogue));
        let path: PathBuf = path.to_path_buf();
        // The files as they were when they last failed to load: not read again until they change.
        let mut broken: Option<Stamps> = None;
        let take = move || {
            let real = atomic::real_path(&path).ok()?;
            // Not waiting for a holder's PID to show (`acquire` does): a look must not stall
            // the screen, as it would for a holder on another machine.
            let lock = Lock::try_acquire(&real).ok()?;
            let looked = stamps_of(&path);
            if broken == Some(looked) {
                return None;
            }
            let Ok((header, enc)) = file::open(&path, || Arc::clone(&catalogue)) else {
                broken = Some(looked);
                return None;
            };
            let saver = FileSave::new(real, header.name.clone(), header.created.clone(), lock)
                .on_disk(&enc, &header)
                .in_background();
            Some(Taken {
                enc,
                store: Box::new(saver),
                audit: Audit::of(path.clone(), Arc::clone(&catalogue)),
            })
        };
        Self::new(follower, take)
    }

    pub fn look(&mut self) -> Change {
        if self.tried.is_none_or(|t| t.elapsed() >= TAKE_EVERY) {
            self.tried = Some(Instant::now());
            if let Some(taken) = (self.take)() {
                return Change::Taken(Box::new(taken));
            }
        }
        match self.follower.look() {
            Look::Loaded(enc) => Change::Followed(enc),
            // Missing, broken or being rewritten: the screen keeps what it shows.
            Look::Same | Look::Waiting(_) => Change::Nothing,
        }
    }
}
