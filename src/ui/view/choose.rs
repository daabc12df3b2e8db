//! A choice list popup (who interrupts, the delay's trigger, where to move, which ready fires).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::{centered, cut, pane_block};
use crate::ui::app::{App, ChooseState};

pub fn render(app: &App, c: &ChooseState, area: Rect, buf: &mut Buffer) {
    let t = app.theme;
    let h = (c.items.len() as u16 + 2).min(area.height);
    let r = centered(area, 70, h.max(3));
    Clear.render(r, buf);
    let block = pane_block(&c.title, true, t);
    let inner = block.inner(r);
    block.render(r, buf);
    let rows = inner.height as usize;
    let w = inner.width as usize;
    let skip = (c.selected + 1).saturating_sub(rows);
    let lines: Vec<Line> = c
        .items
        .iter()
        .enumerate()
        .skip(skip)
        .take(rows)
        .map(|(i, it)| {
            let mark = if i == c.selected { "▶ " } else { "  " };
            let (text, mut style) = match &it.refusal {
                Some(why) => (format!("{mark}⊘ {} — {why}", it.label), t.dim()),
                None => (format!("{mark}{}", it.label), t.base()),
            };
            if i == c.selected {
                style = style.patch(t.current());
            }
            Line::styled(cut(&text, w), style)
        })
        .collect();
    Paragraph::new(lines).render(inner, buf);
}
