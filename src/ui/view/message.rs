//! The status line: the last message (an error marked ✗), or where to find the keys. A message
//! longer than the screen is wide wraps onto up to [`MAX_ROWS`] rows (a refusal is read whole),
//! cut on the last.

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::{cut, wrap};
use crate::ui::app::App;

/// The most rows a message takes from the panes above it.
pub const MAX_ROWS: usize = 3;

/// The message as drawn, with its mark, and whether it is an error.
fn text(app: &App) -> Option<(String, bool)> {
    app.message().map(|(m, error)| {
        if error {
            (format!("✗ {m}"), true)
        } else {
            (m.to_string(), false)
        }
    })
}

/// The message's lines at this width: up to [`MAX_ROWS`], the last cut if more would follow.
fn lines(app: &App, width: usize) -> Option<(Vec<String>, bool)> {
    let (text, error) = text(app)?;
    let mut lines = wrap(&text, width, 2);
    if lines.len() > MAX_ROWS {
        let rest = lines[MAX_ROWS - 1..].join(" ");
        lines.truncate(MAX_ROWS - 1);
        lines.push(cut(&format!("  {}", rest.trim_start()), width));
    }
    Some((lines, error))
}

/// How many rows the status line needs at this width.
pub fn rows(app: &App, width: u16) -> u16 {
    lines(app, usize::from(width)).map_or(1, |(l, _)| u16::try_from(l.len().max(1)).unwrap_or(1))
}

pub fn render<'a>(app: &'a App, area: Rect, d: &mut Drawing<'a>) {
    let t = app.theme;
    let out = match lines(app, area.width as usize) {
        Some((lines, error)) => {
            let style = if error { t.error() } else { t.ok() };
            lines.into_iter().map(|l| Line::styled(l, style)).collect()
        }
        None => vec![Line::styled(
            "? for every key, : for the command line",
            t.dim(),
        )],
    };
    d.lines(out, area);
}
