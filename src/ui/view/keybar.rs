//! The key bar: the keys of the current mode, from the keymap table.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::ui::app::App;
use crate::ui::keymap;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = app.theme;
    let mut spans = Vec::new();
    let mut used = 0usize;
    let width = area.width as usize;
    for (k, label) in keymap::bindings(app.mode_kind(), app.encounter().system()) {
        let len = k.chars().count() + label.chars().count() + 2;
        if used + len > width {
            break;
        }
        used += len;
        spans.push(Span::styled(k, t.key()));
        spans.push(Span::raw(format!(" {label} ")));
    }
    super::draw_lines(&[Line::from(spans)], area, buf);
}
