//! The status line, which becomes the `:` command line in command mode.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::{cut, input_spans};
use crate::ui::app::App;
use crate::ui::mode::Mode;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = app.theme;
    let line = if let Mode::Command(input) = &app.mode {
        let mut spans = vec![Span::styled(":", t.title())];
        spans.extend(input_spans(
            input,
            (area.width as usize).saturating_sub(1),
            t,
        ));
        Line::from(spans)
    } else {
        match app.message() {
            Some((m, true)) => Line::styled(cut(&format!("✗ {m}"), area.width as usize), t.error()),
            Some((m, false)) => Line::styled(cut(m, area.width as usize), t.ok()),
            None => Line::styled("? for every key, : for the command line", t.dim()),
        }
    };
    super::draw_lines(&[line], area, buf);
}
