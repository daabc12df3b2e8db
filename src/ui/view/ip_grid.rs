//! IP pools per pass: one row per character, one column per pass of the round.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::{cut, pane_block};
use crate::encounter::query::PassCell;
use crate::ui::app::App;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = app.theme;
    let s = app.state();
    let rules = app.enc.rules();
    let block = pane_block("IP per pass (start/spent, →ahead)", false, t);
    let inner = block.inner(area);
    block.render(area, buf);
    let passes = usize::from(rules.passes_per_round);
    // Narrow panes get narrower cells, so names keep some room ("10/3" and "→10" fit in 5).
    let cw: usize = if inner.width >= 60 { 6 } else { 5 };
    let current = s.fight().map_or(0, |f| usize::from(f.pass));
    let name_w = (inner.width as usize)
        .saturating_sub(passes * cw + 1)
        .clamp(3, 18);
    let mut head = vec![Span::raw(format!("{:<name_w$} ", ""))];
    for p in 1..=passes {
        let label = format!(
            "{:^cw$}",
            if p == current {
                format!("▸P{p}")
            } else {
                format!("P{p}")
            }
        );
        head.push(if p == current {
            Span::styled(label, t.current())
        } else {
            Span::styled(label, t.title())
        });
    }
    let mut lines = vec![Line::from(head)];
    let actor = app.actor();
    let roster = app.roster();
    // Only the rows on screen are computed, keeping the selected character in view.
    let h = inner.height as usize;
    let skip = app.tracker.selected.saturating_sub(h.saturating_sub(2));
    for id in roster.iter().skip(skip).take(h.saturating_sub(1)) {
        let Some(c) = s.get(*id) else { continue };
        let style = if c.is_downed() { t.downed() } else { t.base() };
        let mut spans = vec![Span::styled(
            format!("{:<name_w$} ", cut(&c.name, name_w)),
            style,
        )];
        for (i, cell) in s.pass_cells(*id, rules).iter().enumerate().take(passes) {
            let p = i + 1;
            let (text, st) = match cell {
                PassCell::Seen { start, spent } => (
                    format!(
                        "{}/{}",
                        start.map_or("—".to_string(), |v| v.to_string()),
                        spent
                    ),
                    style,
                ),
                PassCell::Ahead { projected } => (format!("→{projected}"), t.dim()),
            };
            let st = if p == current && actor == Some(*id) {
                t.current()
            } else if p == current {
                st.patch(t.selected())
            } else {
                st
            };
            spans.push(Span::styled(format!("{text:^cw$}"), st));
        }
        lines.push(Line::from(spans));
    }
    if roster.is_empty() {
        lines.push(Line::styled("no combatants", t.dim()));
    }
    super::draw_lines(&lines, inner, buf);
}
