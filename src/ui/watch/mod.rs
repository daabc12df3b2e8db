//! `srtrack watch`: the players' view, full screen and read-only, following the GM's save.

pub mod view;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use notify::Watcher as _;
use ratatui::crossterm::event::{self as term, Event as TermEvent, KeyEvent, KeyEventKind};

use self::view::Watch;
use super::action::Action;
use super::keymap::{self, ModeKind};
use crate::catalogue::Catalogue;
use crate::encounter::players;
use crate::save::follow::{Follower, Look, Waiting};

/// How long after a change of the save's files the view reads them: a command writes its
/// journal line in one write, a fold a few files in a row; a few ms gather them into one read.
const DEBOUNCE: Duration = Duration::from_millis(5);

/// How often the files are looked at when nothing is heard from the file system (a network
/// file system sends no events): two `stat`s, so cheap enough to do often.
const FALLBACK: Duration = Duration::from_millis(100);

/// How soon a load that met a rewrite is tried again.
const RETRY: Duration = Duration::from_millis(10);

/// What wakes the watcher.
enum Wake {
    /// One of the save's files changed.
    File,
    Key(KeyEvent),
    Resize(u16, u16),
    /// The terminal cannot be read any more.
    Gone,
}

/// What the watcher does with what it has seen of the save.
fn take(watch: &mut Watch, look: Look, rewrites: &mut u32) {
    match look {
        Look::Same => {}
        Look::Loaded(enc) => {
            watch.shown = Some(players::view(enc.state(), enc.system(), enc.rules()));
            watch.waiting = None;
            *rewrites = 0;
        }
        // A rewrite takes a few ms: said only when it lasts.
        Look::Waiting(Waiting::Rewriting) => {
            *rewrites += 1;
            if *rewrites > 3 {
                watch.waiting = Some(Waiting::Rewriting);
            }
        }
        Look::Waiting(why) => {
            watch.waiting = Some(why);
            *rewrites = 0;
        }
    }
}

/// Watches the directory of the save (not its subdirectories) for changes to the save's files.
fn watch_files(
    follower: &Follower,
    tx: mpsc::Sender<Wake>,
) -> notify::Result<notify::RecommendedWatcher> {
    let names = follower.names();
    let concerns = move |p: &Path| p.file_name().is_some_and(|n| names.iter().any(|x| x == n));
    let dir = follower
        .path()
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(ev) = res
            && ev.paths.iter().any(|p| concerns(p))
        {
            let _ = tx.send(Wake::File);
        }
    })?;
    watcher.watch(&dir, notify::RecursiveMode::NonRecursive)?;
    Ok(watcher)
}

/// Runs the players' view until `q`, Esc or Ctrl-C (or a signal from outside: `stop`).
pub fn run(
    save: PathBuf,
    title: String,
    catalogue: Arc<Catalogue>,
    no_color: bool,
    stop: &Arc<AtomicBool>,
) -> color_eyre::Result<()> {
    let mono = no_color || std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let mut watch = Watch::new(title, mono);
    let mut follower = Follower::new(save, catalogue);
    let mut rewrites = 0;
    take(&mut watch, follower.look(), &mut rewrites);
    let (tx, rx) = mpsc::channel();
    // Without events the fallback look still follows the save, only less promptly.
    let _files = watch_files(&follower, tx.clone()).ok();
    let keys = tx;
    std::thread::spawn(move || {
        loop {
            let wake = match term::read() {
                Ok(TermEvent::Key(k)) if k.kind != KeyEventKind::Release => Wake::Key(k),
                Ok(TermEvent::Resize(w, h)) => Wake::Resize(w, h),
                Ok(_) => continue,
                Err(_) => Wake::Gone,
            };
            let gone = matches!(wake, Wake::Gone);
            if keys.send(wake).is_err() || gone {
                return;
            }
        }
    });
    let mut terminal = super::init_terminal()?;
    let result = (|| -> color_eyre::Result<()> {
        let mut due: Option<Instant> = None;
        let mut last_look = Instant::now();
        loop {
            terminal.draw(&watch)?;
            let wait = due.map_or(FALLBACK, |d| d.saturating_duration_since(Instant::now()));
            let wake = rx.recv_timeout(wait.min(FALLBACK));
            match wake {
                Ok(Wake::File) => {
                    due.get_or_insert_with(|| Instant::now() + DEBOUNCE);
                    continue;
                }
                Ok(Wake::Key(k)) => {
                    if keymap::lookup(ModeKind::Watch, watch_system(&watch), &k)
                        == Some(Action::Quit)
                    {
                        return Ok(());
                    }
                }
                Ok(Wake::Resize(w, h)) => terminal.resize(w, h),
                Ok(Wake::Gone) | Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if stop.load(Ordering::Relaxed) || super::terminal_gone() {
                return Ok(());
            }
            let now = Instant::now();
            if due.is_some_and(|d| d <= now) || now.duration_since(last_look) >= FALLBACK {
                due = None;
                last_look = now;
                let look = follower.look();
                if matches!(look, Look::Waiting(Waiting::Rewriting)) {
                    due = Some(now + RETRY);
                }
                take(&mut watch, look, &mut rewrites);
            }
        }
    })();
    super::restore_terminal();
    result
}

/// The system of the save shown, for the keymap (every system quits alike).
fn watch_system(watch: &Watch) -> crate::encounter::System {
    watch.shown.as_ref().map(|v| v.system).unwrap_or_default()
}

#[cfg(test)]
mod tests;
