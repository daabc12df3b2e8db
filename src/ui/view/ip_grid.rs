//! IP per pass: one column per pass of the round, on the rows of the order (beside it on a
//! narrow screen, in the same table on a wide one).

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::order::{self, Row};
use super::pane_block;
use crate::encounter::CombatantId;
use crate::encounter::query::PassCell;
use crate::ui::app::App;

/// A cell in words: `5/2` (start, spent), `2+4/4` (Edge IP bought), `5/2⏸2` (IP held back),
/// `→6` (a pass to come), blank for a Downed character's passes to come.
fn cell_text(cell: PassCell) -> String {
    match cell {
        PassCell::Seen {
            start,
            spent,
            edge,
            reserved,
        } => {
            let mut t = start.map_or("—".to_string(), |v| v.to_string());
            if edge > 0 {
                t.push_str(&format!("+{edge}"));
            }
            t.push_str(&format!("/{spent}"));
            if reserved > 0 {
                t.push_str(&format!("⏸{reserved}"));
            }
            t
        }
        PassCell::Ahead { projected } => format!("→{projected}"),
        PassCell::Downed => String::new(),
    }
}

fn passes(app: &App) -> usize {
    usize::from(app.enc.rules().passes_per_round)
}

fn current(app: &App) -> usize {
    app.state().fight().map_or(0, |f| usize::from(f.pass))
}

/// Each pass column's width: its widest cell, and room for the header.
pub fn columns(app: &App) -> Vec<usize> {
    let s = app.state();
    let rules = app.enc.rules();
    let mut widths = vec![3; passes(app)];
    for id in app.roster() {
        for (w, cell) in widths.iter_mut().zip(s.pass_cells(id, rules)) {
            *w = (*w).max(cell_text(cell).chars().count());
        }
    }
    widths
}

/// The columns with a space between each.
pub fn total_width(widths: &[usize]) -> usize {
    widths.iter().sum::<usize>() + widths.len().saturating_sub(1)
}

/// The IP grid pane's width beside the order: its columns and borders.
pub fn width(app: &App) -> u16 {
    let w = total_width(&columns(app)).max("IP per pass".len() + 2) + 2;
    u16::try_from(w).unwrap_or(u16::MAX)
}

pub fn header_spans(app: &App, widths: &[usize]) -> Vec<Span<'static>> {
    let t = app.theme;
    let now = current(app);
    let mut out = Vec::new();
    for (i, w) in widths.iter().enumerate() {
        let p = i + 1;
        if i > 0 {
            out.push(Span::raw(" "));
        }
        out.push(if p == now {
            Span::styled(format!("{:^w$}", format!("▸P{p}")), t.current())
        } else {
            Span::styled(format!("{:^w$}", format!("P{p}")), t.title())
        });
    }
    out
}

/// One character's cells: the pass under way stands out, the actor's cell in it most.
pub fn row_spans(
    app: &App,
    id: CombatantId,
    widths: &[usize],
    selected: bool,
) -> Vec<Span<'static>> {
    let t = app.theme;
    let s = app.state();
    let now = current(app);
    let actor = app.actor();
    let downed = s
        .get(id)
        .is_some_and(crate::encounter::Combatant::is_downed);
    let mut out = Vec::new();
    for (i, (cell, w)) in s
        .pass_cells(id, app.enc.rules())
        .into_iter()
        .zip(widths)
        .enumerate()
    {
        if i > 0 {
            out.push(Span::raw(" "));
        }
        let p = i + 1;
        let mut style = match cell {
            PassCell::Ahead { .. } => t.dim(),
            _ if downed => t.downed(),
            _ => t.base(),
        };
        if p == now {
            style = style.patch(t.current_pass());
        }
        if selected {
            style = style.patch(t.selected());
        }
        if p == now && actor == Some(id) {
            style = t.current();
        }
        out.push(Span::styled(format!("{:^w$}", cell_text(cell)), style));
    }
    out
}

/// The IP grid as a pane of its own, beside the order and on the same rows.
pub fn render<'a>(app: &'a App, area: Rect, d: &mut Drawing<'a>) {
    let t = app.theme;
    let block = pane_block("IP per pass", false, t);
    let inner = d.block(block, area);
    let widths = columns(app);
    let rows = order::rows(app);
    // The order pane has the same height: the same rows show on both.
    let win = order::window(
        &rows,
        app.selected_id(),
        usize::from(inner.height).saturating_sub(1),
    );
    let mut lines = vec![Line::from(header_spans(app, &widths))];
    let selected = app.selected_id();
    for row in rows.iter().skip(win.first).take(win.shown) {
        lines.push(match *row {
            Row::Character(id) => Line::from(row_spans(app, id, &widths, selected == Some(id))),
            _ => Line::from(""),
        });
    }
    d.lines(lines, inner);
}
