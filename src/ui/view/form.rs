//! A form popup: one-line inputs, validation shown in the field, Tab between fields.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::{centered, input_spans, pane_block};
use crate::ui::app::{App, FormState};

pub fn render(app: &App, f: &FormState, area: Rect, buf: &mut Buffer) {
    let t = app.theme;
    let h = f.fields.len() as u16 + 3;
    let r = centered(area, 76, h);
    Clear.render(r, buf);
    let block = pane_block(&f.title, true, t);
    let inner = block.inner(r);
    block.render(r, buf);
    let input_w = (inner.width as usize).saturating_sub(14).min(24);
    let mut lines = Vec::new();
    for (i, fl) in f.fields.iter().enumerate() {
        let focused = i == f.focus;
        let mut spans = vec![Span::styled(
            format!("{}{:<11} ", if focused { "▶" } else { " " }, fl.label),
            if focused { t.title() } else { t.base() },
        )];
        if focused {
            spans.extend(input_spans(&fl.input, input_w, t));
        } else {
            spans.push(Span::raw(fl.input.value().to_string()));
        }
        let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
        spans.push(Span::raw(" ".repeat((13 + input_w).saturating_sub(used))));
        match &fl.error {
            Some(e) => spans.push(Span::styled(format!(" ✗ {e}"), t.error())),
            None => spans.push(Span::styled(format!(" {}", fl.hint), t.dim())),
        }
        lines.push(Line::from(spans));
    }
    match &f.error {
        Some(e) => lines.push(Line::styled(format!("✗ {e}"), t.error())),
        None => lines.push(Line::styled(
            "Enter: submit  Tab: next field  Esc: cancel",
            t.dim(),
        )),
    }
    Paragraph::new(lines).render(inner, buf);
}
