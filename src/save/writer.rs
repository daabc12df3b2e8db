//! The writing half of a save: the files, and what is done to them (a journal line appended and
//! synced, a new snapshot). `FileSave` decides what to write; this writes it, on the caller's
//! thread (`exec`) or on a thread of its own (the screen), so that a key never waits for the disk.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;

use super::{file, io_message, journal};

/// One thing to write.
#[derive(Debug)]
pub(crate) enum Job {
    /// A journal line (with its line end) of the snapshot `generation`; the journal is started
    /// first if it is not open. Synced when `sync`.
    Append {
        generation: u64,
        line: String,
        sync: bool,
    },
    /// Syncs what was appended.
    Sync,
    /// A new snapshot: `head`, the first `earlier` entry lines of the snapshot it replaces (the
    /// history not loaded), `body`; then its journal is started. The snapshot replaced is kept
    /// as `.bak` when `backup`.
    Fold {
        generation: u64,
        head: String,
        earlier: usize,
        body: String,
        backup: bool,
    },
}

/// The save's files.
#[derive(Debug)]
pub(crate) struct Disk {
    pub path: PathBuf,
    pub journal_path: PathBuf,
    journal: Journal,
    /// Whether what killed writers left beside the save has been removed.
    swept: bool,
}

/// The journal as this writer knows it.
#[derive(Debug)]
enum Journal {
    /// None open: the next line starts the journal of its snapshot.
    Closed,
    /// Open for appending, continuing the snapshot of this generation.
    Open(u64, journal::Writer),
    /// A write failed: it may end in part of a line, and starting it anew would lose the lines
    /// it holds. Only a new snapshot (`Fold`) writes again.
    Broken,
}

impl Disk {
    pub fn new(path: PathBuf, journal_path: PathBuf) -> Self {
        Self {
            path,
            journal_path,
            journal: Journal::Closed,
            swept: false,
        }
    }

    /// Removes what killed writers of the save left (see [`super::atomic::remove_stale`]),
    /// once: before the first write, or first thing on the writer thread, so that opening the
    /// screen does not wait for two directory listings.
    pub fn sweep(&mut self) {
        if !self.swept {
            super::atomic::remove_stale(&self.path);
            super::atomic::remove_stale(&self.journal_path);
            self.swept = true;
        }
    }

    /// Goes on with the journal of `generation` that opening found (its whole lines end at
    /// `whole`): false if it cannot be reopened.
    pub fn resume(&mut self, generation: u64, whole: u64) -> bool {
        match journal::Writer::resume(&self.journal_path, whole) {
            Ok(w) => {
                self.journal = Journal::Open(generation, w);
                true
            }
            Err(_) => false,
        }
    }

    /// Does one job. After an error the journal is closed: what it holds may end in part of a
    /// line, so the next change must be a new snapshot.
    pub fn run(&mut self, job: Job) -> Result<(), String> {
        self.sweep();
        let done = self.try_run(job);
        if done.is_err() {
            self.journal = Journal::Broken;
        }
        done
    }

    fn try_run(&mut self, job: Job) -> Result<(), String> {
        let failed = |path: &PathBuf, e: &std::io::Error| {
            format!("cannot save {}: {}", path.display(), io_message(e))
        };
        match job {
            Job::Append {
                generation,
                line,
                sync,
            } => {
                if let Journal::Closed = self.journal {
                    let w = journal::Writer::start(&self.journal_path, generation, &self.path)
                        .map_err(|e| failed(&self.journal_path, &e))?;
                    self.journal = Journal::Open(generation, w);
                }
                let w = match &mut self.journal {
                    Journal::Open(g, w) if *g == generation => w,
                    _ => {
                        return Err(format!(
                            "cannot save {}: an earlier write to it failed",
                            self.journal_path.display()
                        ));
                    }
                };
                w.append_line(&line)
                    .and_then(|()| if sync { w.sync() } else { Ok(()) })
                    .map_err(|e| failed(&self.journal_path, &e))
            }
            Job::Sync => match &mut self.journal {
                Journal::Open(_, w) => w.sync().map_err(|e| failed(&self.journal_path, &e)),
                Journal::Closed | Journal::Broken => Ok(()),
            },
            Job::Fold {
                generation,
                head,
                earlier,
                body,
                backup,
            } => {
                // The entries not loaded are copied as the snapshot on disk has them.
                let earlier = match earlier {
                    0 => Vec::new(),
                    n => file::earlier_lines(&self.path, n).map_err(|e| failed(&self.path, &e))?,
                };
                let mut text = head.into_bytes();
                text.extend_from_slice(&earlier);
                drop(earlier);
                text.extend_from_slice(body.as_bytes());
                let text = String::from_utf8(text)
                    .map_err(|_| format!("cannot save {}: not text", self.path.display()))?;
                super::atomic::replace(&self.path, text.as_bytes(), backup)
                    .map_err(|e| failed(&self.path, &e))?;
                // Without a journal the next change starts one (`Append`).
                self.journal =
                    match journal::Writer::start(&self.journal_path, generation, &self.path) {
                        Ok(w) => Journal::Open(generation, w),
                        Err(_) => Journal::Closed,
                    };
                Ok(())
            }
        }
    }
}

/// How far the writer thread has got.
#[derive(Debug, Default)]
struct Progress {
    queued: u64,
    done: u64,
    /// The first error not yet reported.
    failed: Option<String>,
}

/// What the writer thread and its owner share.
#[derive(Debug, Default)]
struct Shared {
    progress: Mutex<Progress>,
    idle: Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until everything queued is written.
    fn wait_idle(&self) {
        let guard = self.lock();
        let _idle = self
            .idle
            .wait_while(guard, |p| p.done < p.queued)
            .unwrap_or_else(PoisonError::into_inner);
    }
}

/// Where a save stands on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// Everything given to it is on disk.
    Yes,
    /// Still being written.
    Writing,
    /// A write failed: this says what (reported once).
    Failed(String),
}

/// The writer thread: jobs go in order, one at a time.
#[derive(Debug)]
pub(crate) struct Background {
    jobs: Option<Sender<Job>>,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Background {
    pub fn spawn(disk: Disk) -> std::io::Result<Self> {
        let (jobs, rx) = mpsc::channel();
        let shared = Arc::new(Shared::default());
        let theirs = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("srtrack-save".into())
            .spawn(move || work(disk, &rx, &theirs))?;
        Ok(Self {
            jobs: Some(jobs),
            shared,
            thread: Some(thread),
        })
    }

    pub fn queue(&mut self, job: Job) -> Result<(), String> {
        self.shared.lock().queued += 1;
        let sent = self.jobs.as_ref().is_some_and(|tx| tx.send(job).is_ok());
        if sent {
            Ok(())
        } else {
            self.shared.lock().queued -= 1;
            Err("cannot save: the writer has stopped".into())
        }
    }

    pub fn written(&self) -> Written {
        let mut p = self.shared.lock();
        if let Some(e) = p.failed.take() {
            Written::Failed(e)
        } else if p.done < p.queued {
            Written::Writing
        } else {
            Written::Yes
        }
    }

    /// Waits until everything queued is written.
    pub fn wait_idle(&self) {
        self.shared.wait_idle();
    }
}

impl Drop for Background {
    /// Writes what is queued before the save (and its lock) goes.
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn work(mut disk: Disk, rx: &Receiver<Job>, shared: &Shared) {
    disk.sweep();
    for job in rx {
        let result = disk.run(job);
        let mut p = shared.lock();
        if let Err(e) = result {
            p.failed.get_or_insert(e);
        }
        p.done += 1;
        if p.done == p.queued {
            shared.idle.notify_all();
        }
    }
}
