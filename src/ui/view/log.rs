//! The log: the fight so far, newest at the bottom, scrollable.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Widget;

use super::{cut, pane_block};
use crate::ui::app::App;
use crate::ui::mode::tracker::Pane;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = app.theme;
    let title = if app.tracker.log_scroll > 0 {
        format!("Log (↑{} lines)", app.tracker.log_scroll)
    } else {
        "Log".to_string()
    };
    let block = pane_block(&title, app.tracker.focus == Pane::Log, t);
    let inner = block.inner(area);
    block.render(area, buf);
    let h = inner.height as usize;
    let w = inner.width as usize;
    // Walk back from the newest entry: only the lines on screen are built.
    let mut rev: Vec<Line> = Vec::new();
    let mut skip = app.tracker.log_scroll;
    'items: for item in app.log.iter().rev() {
        for l in item.lines.iter().rev() {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            rev.push(Line::from(cut(&format!("  {l}"), w)));
            if rev.len() >= h {
                break 'items;
            }
        }
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let style = if item.entry.is_some() {
            t.title()
        } else {
            t.reserve()
        };
        let head = if item.entry.is_some() {
            format!("› {}", item.head)
        } else {
            item.head.clone()
        };
        rev.push(Line::styled(cut(&head, w), style));
        if rev.len() >= h {
            break;
        }
    }
    if app.log.is_empty() {
        rev.push(Line::styled("nothing yet", t.dim()));
    }
    rev.reverse();
    super::draw_lines(&rev, inner, buf);
}
