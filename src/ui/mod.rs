//! The GM's screen: a ratatui app over the engine. The only module that knows of terminals.

pub mod action;
pub mod app;
pub mod demo;
pub mod frame;
pub mod held;
pub mod keymap;
pub mod memo;
pub mod mode;
pub mod pane_box;
pub mod theme;
pub mod view;
pub mod watch;
pub mod wire;

pub use action::Action;
pub use app::{App, HeldPoll};
pub use mode::Mode;
pub use mode::tracker::Pane;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::save::Autosave;

use std::io::{BufWriter, Stdout};

use ratatui::crossterm::event::{self as term, Event as TermEvent, KeyEventKind};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::enable_raw_mode;

/// How often the loop looks whether the writer thread has put a change on disk: an fsync of a
/// journal line takes a few milliseconds.
const SAVE_CHECK: Duration = Duration::from_millis(2);

/// How often the watchdog looks at the stop flag (a signal from outside) and the terminal.
const STOP_CHECK: Duration = Duration::from_millis(200);

type Tui = frame::Screen<BufWriter<Stdout>>;

/// The terminal in raw mode on the alternate screen, its cursor hidden, a paste sent as one
/// text (bracketed paste) rather than as keys, restored on panic.
///
/// Like `ratatui::init`, but frames go through [`frame::Screen`]: sent in one write (the first
/// with the switch to the alternate screen), only where they differ from what the terminal
/// shows, and resized on resize events instead of asking the terminal every frame.
pub(crate) fn init_terminal() -> std::io::Result<Tui> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        hook(info);
    }));
    enable_raw_mode()?;
    let (width, height) = ratatui::crossterm::terminal::size()?;
    Ok(frame::Screen::opening(
        BufWriter::new(std::io::stdout()),
        width,
        height,
    ))
}

/// Gives the terminal back as it was: raw mode off, bracketed paste off, the main screen, the
/// cursor shown.
/// (`ratatui::restore` leaves the cursor hidden when the process exits without dropping the
/// `Terminal`, as a shutdown from outside does.)
pub fn restore_terminal() {
    let _ = execute!(
        std::io::stdout(),
        ratatui::crossterm::event::DisableBracketedPaste
    );
    ratatui::restore();
    let _ = execute!(std::io::stdout(), ratatui::crossterm::cursor::Show);
}

/// A store whose saves a shutdown from outside waits for, so it never cuts one in half.
struct Guarded {
    inner: Box<dyn Autosave>,
    busy: Arc<Mutex<()>>,
}

impl Autosave for Guarded {
    fn save(&mut self, encounter: &crate::encounter::Encounter) -> Result<(), String> {
        let _saving = self
            .busy
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.inner.save(encounter)
    }

    fn close(
        &mut self,
        encounter: &crate::encounter::Encounter,
    ) -> Result<crate::save::Closed, String> {
        let _saving = self
            .busy
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.inner.close(encounter)
    }

    fn earlier(
        &mut self,
        encounter: &crate::encounter::Encounter,
    ) -> Result<Vec<crate::encounter::Entry>, String> {
        self.inner.earlier(encounter)
    }

    fn written(&mut self) -> crate::save::Written {
        self.inner.written()
    }
}

/// Whether the terminal has hung up (its window closed, the SSH link dropped).
pub(crate) fn terminal_gone() -> bool {
    use rustix::event::{PollFd, PollFlags, poll};
    use std::os::fd::AsFd as _;
    let stdin = std::io::stdin();
    let fd = stdin.as_fd();
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    let zero = rustix::event::Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    poll(&mut fds, Some(&zero)).is_ok_and(|_| {
        fds[0]
            .revents()
            .intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL)
    })
}

/// Runs the app until the GM quits. The terminal is restored on exit, error and panic
/// (`ratatui::init` installs a panic hook; call `color_eyre::install` first).
///
/// `stop` is set by SIGTERM, SIGHUP, SIGINT and SIGQUIT. crossterm cannot be woken from a read,
/// and spins on a terminal that hung up, so a watchdog thread ends the process then: every
/// command is already saved (atomically), and it waits for a save in progress.
/// Draws the app's frame on `screen`, sending what changed since the last.
///
/// # Errors
/// When the terminal cannot be written.
pub fn show<W: std::io::Write>(screen: &mut frame::Screen<W>, app: &App) -> std::io::Result<()> {
    let area = screen.area();
    screen.show(view::compose(app, area)).map(drop)
}

pub fn run(mut app: App, no_color: bool, stop: &Arc<AtomicBool>) -> color_eyre::Result<()> {
    let mono = no_color || std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    app.set_monochrome(mono);
    let busy = Arc::new(Mutex::new(()));
    let guarded = {
        let busy = Arc::clone(&busy);
        move |inner| -> Box<dyn Autosave> {
            Box::new(Guarded {
                inner,
                busy: Arc::clone(&busy),
            })
        }
    };
    app.wrap_store(&guarded);
    app.defer_saves();
    // Set while the loop waits for a key: everything is drawn and saved then.
    let idle = Arc::new(AtomicBool::new(false));
    let watch_idle = Arc::clone(&idle);
    let watch_stop = Arc::clone(stop);
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(STOP_CHECK);
            let asked = watch_stop.load(Ordering::Relaxed) || terminal_gone();
            if asked && watch_idle.load(Ordering::SeqCst) {
                let _saving = busy
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                restore_terminal();
                std::process::exit(0);
            }
        }
    });
    let mut terminal = init_terminal()?;
    let result = (|| -> color_eyre::Result<()> {
        let area = terminal.area();
        app.resize(area.width, area.height);
        show(&mut terminal, &app)?;
        // The first frame is out: the log lines of a long history can wait until now, and the
        // help's lines and the memory a popup keeps what lies under it in are made ready
        // before the first `?`.
        app.complete_log();
        // What opening trusted of the save is checked now, beside the first keys; nothing is
        // written before it answers.
        app.start_audit();
        mode::help::prepare(&app);
        terminal.prepare_popups();
        loop {
            show(&mut terminal, &app)?;
            // When the save lands only its mark changes: the diff sends the header's cells.
            if app.flush_save() {
                show(&mut terminal, &app)?;
            }
            if app.should_quit() {
                return Ok(());
            }
            // While the check of the save runs, look now and then for its verdict, so that it
            // shows without a key; a change made meanwhile is written once it is in.
            while app.auditing() && !term::poll(SAVE_CHECK)? {
                if app.poll_audit() {
                    show(&mut terminal, &app)?;
                }
            }
            if app.flush_save() {
                show(&mut terminal, &app)?;
            }
            // While the writer thread writes, look now and then for the save mark to change
            // (not idle: a shutdown from outside waits for it); then a blocking read: we redraw
            // only after an event, in the same loop turn.
            while app.saving() && !term::poll(SAVE_CHECK)? {
                if app.poll_save() {
                    show(&mut terminal, &app)?;
                }
            }
            // Not idle while a change waits for the check's verdict: a shutdown from outside
            // would lose it (a key is waiting then, so the read below returns at once).
            idle.store(!app.save_pending(), Ordering::SeqCst);
            // A save another srtrack holds: looked at now and then until a key comes.
            let mut taken = false;
            while !taken && app.held() && !term::poll(held::HELD_CHECK)? {
                idle.store(false, Ordering::SeqCst);
                match app.poll_held() {
                    HeldPoll::Nothing => {}
                    HeldPoll::Followed => show(&mut terminal, &app)?,
                    HeldPoll::Taken => {
                        app.wrap_store(&guarded);
                        app.start_audit();
                        taken = true;
                    }
                }
                idle.store(true, Ordering::SeqCst);
            }
            if taken {
                idle.store(false, Ordering::SeqCst);
                // Drawn, and the new check waited for, at the loop's top.
                continue;
            }
            let event = term::read();
            idle.store(false, Ordering::SeqCst);
            match event? {
                TermEvent::Key(k) if k.kind != KeyEventKind::Release => app.handle_key(k),
                TermEvent::Paste(text) => app.paste(&text),
                TermEvent::Resize(width, height) => {
                    terminal.resize(width, height);
                    app.resize(width, height);
                }
                _ => {}
            }
            if app.should_quit() {
                return Ok(());
            }
        }
    })();
    restore_terminal();
    let saved = app.save_on_exit();
    result?;
    match saved {
        Ok(crate::save::Closed::Whole) => Ok(()),
        // Nothing lost: said so, not as a failure (the GM would think the last change gone).
        Ok(crate::save::Closed::InJournal(why)) => {
            eprintln!("srtrack: {}", crate::text::escaped(&in_journal(&why)));
            Ok(())
        }
        Err(e) => Err(color_eyre::eyre::eyre!("the last save failed: {e}")),
    }
}

/// What the quit says of a snapshot it could not rewrite, every change being in the journal.
pub fn in_journal(why: &str) -> String {
    format!(
        "every change is saved in the save's journal, but its snapshot could not be rewritten ({why}): the save opens as it is, and the next quit tries again"
    )
}

#[cfg(test)]
mod anarchy_tests;
#[cfg(test)]
mod held_tests;
#[cfg(test)]
mod roster_tests;
#[cfg(test)]
mod tests;

#[cfg(test)]
mod at_table;
#[cfg(test)]
mod tests_sr5;
