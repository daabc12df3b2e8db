//! The log: the fight so far, newest at the bottom, scrollable; a line too long for the pane
//! wraps under itself.

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::{focus_title, pane_block, wrap};
use crate::ui::app::App;
use crate::ui::mode::tracker::Pane;

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
    // Walk back from the newest entry: only the lines on screen are built.
    let mut rev: Vec<Line> = Vec::new();
    let mut skip = app.tracker.log_scroll;
    let mut take = |text: &str, style, indent: usize, rev: &mut Vec<Line<'static>>| -> bool {
        for l in wrap(text, w, indent).into_iter().rev() {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            rev.push(Line::styled(l, style));
            if rev.len() >= h {
                return true;
            }
        }
        false
    };
    'items: for item in app.log.iter().rev() {
        for l in item.lines.iter().rev() {
            if take(&format!("  {l}"), t.base(), 4, &mut rev) {
                break 'items;
            }
        }
        let (head, style) = if item.entry.is_some() {
            (format!("› {}", item.head), t.title())
        } else {
            (item.head.clone(), t.reserve())
        };
        if take(&head, style, 2, &mut rev) {
            break;
        }
    }
    if app.log.is_empty() {
        rev.push(Line::styled("nothing yet", t.dim()));
    }
    rev.reverse();
    d.lines(rev, inner);
}
