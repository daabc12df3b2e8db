//! What opening trusts, checked after the first frame: the states a snapshot keeps are what its
//! history gives (`srtrack check`'s test), so that a file edited by hand is never written over.
//!
//! Opening starts from the state the snapshot keeps at its tail (issue 14: the first frame does
//! not wait for the whole history). The screen starts an [`Audit`] once that frame is out, and
//! waits for its verdict before it writes anything.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, TryRecvError};

use crate::catalogue::Catalogue;
use crate::encounter::Encounter;

/// Why a save opened is not to be written: `check`'s sentence, and the encounter its whole
/// history gives (with its journal), when that loads.
pub struct Distrust {
    pub message: String,
    pub history: Option<Box<Encounter>>,
}

type Verdict = Result<(), Distrust>;

enum Stage {
    Waiting(Box<dyn FnOnce() -> Verdict + Send>),
    Running(Receiver<Verdict>),
    Done(Option<Verdict>),
}

/// The check of one opened save: started on a thread of its own, or run where it is first waited for.
pub struct Audit(Stage);

impl Audit {
    /// The check of the save at `path`, not started yet.
    pub fn of(path: PathBuf, catalogue: Arc<Catalogue>) -> Self {
        Self::with(move || check(&path, catalogue))
    }

    /// A check that gives what `verdict` gives (for tests).
    pub fn with(verdict: impl FnOnce() -> Verdict + Send + 'static) -> Self {
        Self(Stage::Waiting(Box::new(verdict)))
    }

    /// Runs the check on a thread of its own (here, if none can be started).
    pub fn start(&mut self) {
        if let Stage::Waiting(_) = self.0 {
            let Stage::Waiting(verdict) = std::mem::replace(&mut self.0, Stage::Done(None)) else {
                return;
            };
            let (tx, rx) = mpsc::channel();
            let spawned = std::thread::Builder::new()
                .name("audit".into())
                .spawn(move || {
                    let _ = tx.send(verdict());
                });
            self.0 = match spawned {
                Ok(_) => Stage::Running(rx),
                // The closure went into the failed spawn: what it checks cannot be told, so
                // nothing is trusted.
                Err(e) => Stage::Done(Some(Err(Distrust {
                    message: format!("the save could not be checked: {e}"),
                    history: None,
                }))),
            };
        }
    }

    /// Whether the check is running and has not answered.
    pub fn running(&self) -> bool {
        matches!(self.0, Stage::Running(_))
    }

    /// The verdict if it is in, once.
    pub fn poll(&mut self) -> Option<Verdict> {
        match &mut self.0 {
            Stage::Running(rx) => match rx.try_recv() {
                Ok(v) => {
                    self.0 = Stage::Done(None);
                    Some(v)
                }
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => {
                    self.0 = Stage::Done(None);
                    Some(Err(lost()))
                }
            },
            Stage::Done(v) => v.take(),
            Stage::Waiting(_) => None,
        }
    }

    /// Waits for the verdict (runs the check here if it was not started); once.
    pub fn wait(&mut self) -> Option<Verdict> {
        match std::mem::replace(&mut self.0, Stage::Done(None)) {
            Stage::Waiting(verdict) => Some(verdict()),
            Stage::Running(rx) => Some(rx.recv().unwrap_or_else(|_| Err(lost()))),
            Stage::Done(v) => v,
        }
    }
}

fn lost() -> Distrust {
    Distrust {
        message: "the save's check stopped before it answered".into(),
        history: None,
    }
}

/// `srtrack check`'s test of the snapshot; on failure, the encounter the history gives.
fn check(path: &std::path::Path, catalogue: Arc<Catalogue>) -> Verdict {
    super::file::verify_snapshot(path, Arc::clone(&catalogue)).map_err(|e| Distrust {
        message: e.to_string(),
        history: super::file::load(path, catalogue)
            .ok()
            .map(|(_, enc)| Box::new(enc)),
    })
}
