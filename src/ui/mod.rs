//! The GM's screen: a ratatui app over the engine. The only module that knows of terminals.

pub mod action;
pub mod app;
pub mod demo;
pub mod keymap;
pub mod theme;
pub mod view;

pub use action::Action;
pub use app::{App, Mode, Pane};

use ratatui::crossterm::event::{self as term, Event as TermEvent, KeyEventKind};

/// Runs the app until the GM quits. The terminal is restored on exit, error and panic
/// (`ratatui::init` installs a panic hook; call `color_eyre::install` first).
pub fn run(mut app: App, no_color: bool) -> color_eyre::Result<()> {
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
            // Blocking read: we redraw only after an event, in the same loop turn.
            match term::read()? {
                TermEvent::Key(k) if k.kind != KeyEventKind::Release => app.handle_key(k),
                _ => {}
            }
            if app.should_quit() {
                return Ok(());
            }
        }
    })();
    ratatui::restore();
    result
}

#[cfg(test)]
mod tests;
