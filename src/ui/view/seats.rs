//! The Anarchy table: who sits where, who narrates, Plot Points of five, Edge. Shown in place
//! of the initiative order when the encounter plays in narrations.

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::{cut, focus_title, pane_block};
use crate::encounter::Side;
use crate::ui::app::App;
use crate::ui::mode::tracker::Pane;

/// Plot Points as pips: `●●●○○`, so the count of five reads at a glance.
pub fn pips(have: u8, cap: u8) -> String {
    let have = have.min(cap);
    "●".repeat(usize::from(have)) + &"○".repeat(usize::from(cap - have))
}

pub fn render<'a>(app: &'a App, area: Rect, d: &mut Drawing<'a>) {
    let t = app.theme;
    let s = app.state();
    let rules = &app.enc.rules().anarchy;
    let focused = app.tracker.focus == Pane::Order;
    let block = pane_block(&focus_title("Table", focused), focused, t);
    let inner = d.block(block, area);
    let width = inner.width as usize;
    let table = s.narration();
    let ended = app.table_at_end();
    let narrator = table.and_then(|n| n.narrator()).map(|x| x.who);
    let cap = rules.plot_points.player_cap;
    // The selection and mark columns (`›●`), as the order pane has them, then the row.
    let name_w = width.saturating_sub(25).clamp(4, 24);
    let h = inner.height as usize;
    let roster = app.roster();
    let selected = roster
        .iter()
        .position(|id| Some(*id) == app.selected_id())
        .unwrap_or(0);
    let skip = selected.saturating_sub(h.saturating_sub(1));
    let mut lines: Vec<Line> = Vec::with_capacity(h);
    for (i, id) in roster.iter().enumerate().skip(skip).take(h) {
        let Some(c) = s.get(*id) else { continue };
        let seat = table
            .and_then(|n| n.seating.iter().position(|x| x == id))
            .map_or("  ".to_string(), |p| format!("{:>2}", p + 1));
        let done = table.is_some_and(|n| n.has_narrated(*id));
        let mark = if narrator == Some(*id) {
            "▶"
        } else if c.is_downed() {
            "✗"
        } else if done {
            "✓"
        } else {
            " "
        };
        // Once the encounter has ended, what each player held at the end.
        let player = table
            .or(ended.as_ref().as_ref())
            .and_then(|n| n.player(*id));
        let points = match (c.side, player) {
            (Side::Pc, Some(p)) => format!("{} {}/{cap}", pips(p.plot_points, cap), p.plot_points),
            (Side::Pc, None) => format!("PP {}/{cap}", rules.plot_points.player_start),
            (Side::Npc, _) => "NPC".to_string(),
        };
        let name = if c.is_hidden() {
            format!(
                "{} {}",
                super::order::HIDDEN_MARK,
                super::cut_name(&c.name, name_w.saturating_sub(2))
            )
        } else {
            super::cut_name(&c.name, name_w)
        };
        let text = format!(
            "{mark}{seat} {} {points:<11} E {}/{}",
            crate::text::pad(&name, name_w),
            c.edge_left,
            c.sheet.edge
        );
        let mut style = if narrator == Some(*id) {
            t.current()
        } else if c.is_downed() {
            t.downed()
        } else if done {
            t.acted()
        } else {
            Style::default()
        };
        if i == selected {
            style = style.patch(t.selected());
        }
        lines.push(Line::from(vec![
            Span::styled(if i == selected { "›" } else { " " }, style),
            Span::styled(
                if app.tracker.marks.contains(id) {
                    "●"
                } else {
                    " "
                },
                style.patch(t.marked()),
            ),
            Span::styled(cut(&text, width.saturating_sub(2)), style),
        ]));
    }
    if lines.is_empty() {
        lines.push(Line::styled("nobody at the table yet: a to add", t.dim()));
    }
    d.lines(lines, inner);
}
