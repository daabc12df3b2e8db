//! The log: the fight so far, newest at the bottom, scrollable; a line too long for the pane
//! wraps under itself.

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::{focus_title, pane_block, text_line, wrap};
use crate::ui::app::{App, LogItem};
use crate::ui::mode::tracker::Pane;

/// A log item's rows at a width: its head's, then each of its lines' indented under it.
pub struct ItemRows {
    /// How many of the rows are the head's.
    head: usize,
    rows: Vec<String>,
}

impl ItemRows {
    fn of(item: &LogItem, width: usize) -> Self {
        let mut rows = if item.entry.is_some() {
            wrap(&format!("› {}", item.head), width, 2)
        } else {
            wrap(&item.head, width, 2)
        };
        let head = rows.len();
        for l in &item.lines {
            rows.extend(wrap(&format!("  {l}"), width, 4));
        }
        Self { head, rows }
    }
}

/// The furthest the log pane in `area` scrolls back: its oldest line at the pane's top. Counts
/// back from the newest only as far as the scroll asked for (a long log is not wrapped whole).
pub fn max_scroll(app: &App, area: Rect) -> usize {
    let w = usize::from(area.width.saturating_sub(2));
    let h = usize::from(area.height.saturating_sub(2));
    let wanted = app.tracker.log_scroll.saturating_add(h);
    let mut rows = 0usize;
    for item in app.log.iter().rev() {
        rows += item.rows.get(w as u64, || ItemRows::of(item, w)).rows.len();
        if rows > wanted {
            return usize::MAX;
        }
    }
    rows.saturating_sub(h)
}

pub fn render<'a>(app: &'a App, area: Rect, d: &mut Drawing<'a>) {
    let t = app.theme;
    let focused = app.tracker.focus == Pane::Log;
    let title = if app.tracker.log_scroll > 0 {
        format!("Log (↑{} lines)", app.tracker.log_scroll)
    } else {
        "Log".to_string()
    };
    let block = pane_block(&focus_title(&title, focused), focused, t);
    let inner = d.block(block, area);
    let h = inner.height as usize;
    let w = inner.width as usize;
    // Walk back from the newest entry: only the lines on screen are built, each item's rows
    // wrapped once for the pane's width.
    let mut rev: Vec<Line> = Vec::new();
    let mut skip = app.tracker.log_scroll;
    'items: for item in app.log.iter().rev() {
        let made = item.rows.get(w as u64, || ItemRows::of(item, w));
        let head = if item.entry.is_some() {
            t.title()
        } else {
            t.reserve()
        };
        for (i, row) in made.rows.iter().enumerate().rev() {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let style = if i < made.head { head } else { t.base() };
            rev.push(text_line(row.clone(), style));
            if rev.len() >= h {
                break 'items;
            }
        }
    }
    if app.log.is_empty() {
        rev.push(Line::styled("nothing yet", t.dim()));
    }
    rev.reverse();
    d.lines(rev, inner);
}
