//! Rendering: a pure function of the app state. The layout and one file per pane here; each
//! popup is drawn by its room (`ui/mode/`).

// t, s, r, h, w: theme, state, rectangle, height, width — the same in every pane.
#![allow(clippy::many_single_char_names)]

pub mod header;
pub mod ip_grid;
pub mod keybar;
pub mod log;
pub mod message;
pub mod order;
pub mod status;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};
use tui_input::Input;

use super::app::{App, MIN_HEIGHT, MIN_WIDTH};
use super::mode::Mode;
use super::theme::Theme;

/// A rectangle of at most `w`×`h`, centred in `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

pub fn pane_block(title: &str, focused: bool, theme: Theme) -> Block<'_> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(Line::styled(format!(" {title} "), theme.title()))
}

/// Draws lines, cut at the right edge, like an unwrapped `Paragraph` but without its
/// per-character grapheme segmentation for plain text: the frame budget is mostly text drawing.
pub fn draw_lines(lines: &[Line], area: Rect, buf: &mut Buffer) {
    let right = area.x + area.width;
    for (line, y) in lines.iter().zip(area.y..area.y + area.height) {
        if line.style != ratatui::style::Style::default() {
            buf.set_style(Rect::new(area.x, y, area.width, 1), line.style);
        }
        let mut x = area.x;
        for span in &line.spans {
            let style = line.style.patch(span.style);
            for (i, ch) in span.content.char_indices() {
                if x >= right {
                    break;
                }
                // One-cell characters are written directly; anything else (wide or combining)
                // goes through ratatui's width-aware path for the rest of the span.
                if ch.is_ascii_graphic() || ch == ' ' || ONE_CELL.contains(ch) {
                    buf[(x, y)].set_char(ch).set_style(style);
                    x += 1;
                } else {
                    let (nx, _) =
                        buf.set_stringn(x, y, &span.content[i..], usize::from(right - x), style);
                    x = nx;
                    break;
                }
            }
        }
    }
}

/// The symbols the screen uses, all one cell wide.
const ONE_CELL: &str = "▶▸✓✗↳⏸♥◆→—–»…⊘★↶↷│─┌┐└┘×·";

/// An input with its cursor drawn as a reversed cell (render stays a pure function).
pub fn input_spans(input: &Input, width: usize, theme: Theme) -> Vec<Span<'static>> {
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

/// Escapes the control characters of every span (texts that did not go through [`cut`]).
pub fn escape_lines(lines: &mut [Line]) {
    for line in lines {
        for span in &mut line.spans {
            if crate::text::holds_control(&span.content) {
                span.content = crate::text::escaped(&span.content).into_owned().into();
            }
        }
    }
}

/// Cuts a string to at most `n` characters (the terminal cells of our texts are one each),
/// `…` where cut; control characters are escaped first, so that what is drawn is what was
/// measured.
pub fn cut(s: &str, n: usize) -> String {
    let s = crate::text::escaped(s);
    if s.chars().count() <= n {
        s.to_string()
    } else if n == 0 {
        String::new()
    } else {
        let mut out: String = s.chars().take(n - 1).collect();
        out.push('…');
        out
    }
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            let msg = format!(
                "terminal too small (need {MIN_WIDTH}×{MIN_HEIGHT}, now {}×{})",
                area.width, area.height
            );
            let lines = vec![Line::from(msg).centered(), Line::from("q: quit").centered()];
            let r = centered(area, area.width, 2);
            Paragraph::new(lines).style(theme.error()).render(r, buf);
            return;
        }
        let [head, body, status_line, keys] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Min(0),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        header::render(self, head, buf);
        match &self.mode {
            Mode::Command(c) => c.render(self, status_line, buf),
            _ => message::render(self, status_line, buf),
        }
        keybar::render(self, keys, buf);
        // The picker takes the whole body: the panes under it would be drawn for nothing.
        if let Mode::Picker(p) = &self.mode {
            p.render(self, body, buf);
            return;
        }
        let rows = order::line_count(self) as u16 + 3;
        let top_h = rows.clamp(6, (body.height * 11 / 20).max(6));
        let [top, bottom] =
            Layout::vertical([Constraint::Length(top_h), Constraint::Min(0)]).areas(body);
        let [order_area, grid_area] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(top);
        order::render(self, order_area, buf);
        ip_grid::render(self, grid_area, buf);
        let [status_area, log_area] =
            Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)])
                .areas(bottom);
        status::render(self, status_area, buf);
        log::render(self, log_area, buf);
        match &self.mode {
            Mode::Tracker | Mode::Command(_) | Mode::Picker(_) => {}
            Mode::Form(f) => f.render(self, body, buf),
            Mode::CheckForm(f) => f.render(self, body, buf),
            Mode::DamageForm(f) => f.render(self, body, buf),
            Mode::TestForm(f) => f.render(self, body, buf),
            Mode::Choose(c) => c.render(self, body, buf),
            Mode::Help(h) => h.render(self, body, buf),
        }
    }
}
