//! The GM's screen: a ratatui app over the engine. The only module that knows of terminals.

pub mod action;
pub mod app;
pub mod demo;
pub mod keymap;
pub mod theme;
pub mod view;

pub use action::Action;
pub use app::{App, Mode, Pane};

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ratatui::crossterm::event::{self as term, Event as TermEvent, KeyEventKind};

/// How often a wait for input looks at the stop flag (SIGTERM, SIGHUP).
const STOP_CHECK: Duration = Duration::from_millis(200);

/// Runs the app until the GM quits. The terminal is restored on exit, error and panic
/// (`ratatui::init` installs a panic hook; call `color_eyre::install` first).
///
/// `stop` is set by SIGTERM and SIGHUP: the app then saves and leaves like a quit. Input is
/// awaited in slices so the flag is seen; nothing is redrawn until an event comes.
pub fn run(mut app: App, no_color: bool, stop: &AtomicBool) -> color_eyre::Result<()> {
    let mono = no_color || std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    app.set_monochrome(mono);
    let mut terminal = ratatui::init();
    let result = (|| -> color_eyre::Result<()> {
        loop {
            let size = terminal.size()?;
            app.resize(size.width, size.height);
            terminal.draw(|f| f.render_widget(&app, f.area()))?;
            if app.should_quit() {
                return Ok(());
            }
            // Wait for input; we redraw only after an event, in the same loop turn.
            while !term::poll(STOP_CHECK)? {
                if stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
            }
            match term::read()? {
                TermEvent::Key(k) if k.kind != KeyEventKind::Release => app.handle_key(k),
                _ => {}
            }
            if app.should_quit() || stop.load(Ordering::Relaxed) {
                return Ok(());
            }
        }
    })();
    ratatui::restore();
    let saved = app.save_on_exit();
    result?;
    saved.map_err(|e| color_eyre::eyre::eyre!("the last save failed: {e}"))
}

#[cfg(test)]
mod tests;
