//! The status line, which becomes the `:` command line in command mode.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::cut;
use crate::ui::app::{App, InputState, Mode};
use crate::ui::theme::Theme;

/// An input with its cursor drawn as a reversed cell (render stays a pure function).
pub fn input_spans(input: &InputState, width: usize, theme: Theme) -> Vec<Span<'static>> {
    let scroll = input.visual_scroll(width.saturating_sub(1));
    let chars: Vec<char> = input.value().chars().skip(scroll).collect();
    let cur = input.visual_cursor().saturating_sub(scroll);
    let before: String = chars.iter().take(cur).collect();
    let at: String = chars.get(cur).map_or(" ".to_string(), char::to_string);
    let after: String = chars.iter().skip(cur + 1).collect();
    let _ = theme;
    vec![
        Span::raw(before),
        Span::styled(
            at,
            ratatui::style::Style::new().add_modifier(ratatui::style::Modifier::REVERSED),
        ),
        Span::raw(after),
    ]
}

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
