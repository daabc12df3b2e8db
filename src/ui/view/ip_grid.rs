//! IP per pass: one column per pass of the round, on the rows of the order (beside it on a
//! narrow screen, in the same table on a wide one).

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::order::{self, Row};
use super::pane_block;
use crate::encounter::CombatantId;
use crate::encounter::query::PassCell;
use crate::text::push_number;
use crate::ui::app::App;

/// Writes a cell in words: `5/2` (start, spent), `2+4/4` (Edge IP bought), `5/2⏸2` (IP held
/// back), `—` (no turn in a pass gone by, nothing spent), `→6` (a pass to come), nothing for a Downed character's passes to come, `roll` where
/// a character with no initiative yet has its turns once rolled.
fn write_cell(t: &mut String, cell: PassCell) {
    match cell {
        // No turn in the pass and nothing spent in it (Downed before it came): the dash alone.
        PassCell::Seen {
            start: None,
            spent: 0,
            edge: 0,
            reserved: 0,
        } => t.push('—'),
        PassCell::Seen {
            start,
            spent,
            edge,
            reserved,
        } => {
            match start {
                Some(v) => push_number(t, v.into()),
                None => t.push('—'),
            }
            if edge > 0 {
                t.push('+');
                push_number(t, edge.into());
            }
            t.push('/');
            push_number(t, spent.into());
            if reserved > 0 {
                t.push('⏸');
                push_number(t, reserved.into());
            }
        }
        PassCell::Ahead { projected } => {
            t.push('→');
            push_number(t, projected.into());
        }
        PassCell::Unrolled { first: true } => t.push_str("roll"),
        PassCell::Downed | PassCell::Unrolled { first: false } => {}
    }
}

/// The columns [`write_cell`] takes for `cell` (each of its characters is one column), counted
/// without writing it: the grid's columns are measured over every cell of the roster at each
/// change.
fn cell_width(cell: PassCell) -> usize {
    let digits = |n: u8| match n {
        0..=9 => 1,
        10..=99 => 2,
        _ => 3,
    };
    let marked = |n: u8| if n > 0 { 1 + digits(n) } else { 0 };
    match cell {
        PassCell::Seen {
            start: None,
            spent: 0,
            edge: 0,
            reserved: 0,
        } => 1,
        PassCell::Seen {
            start,
            spent,
            edge,
            reserved,
        } => start.map_or(1, digits) + marked(edge) + 1 + digits(spent) + marked(reserved),
        PassCell::Ahead { projected } => 1 + digits(projected),
        PassCell::Unrolled { first: true } => 4,
        PassCell::Downed | PassCell::Unrolled { first: false } => 0,
    }
}

/// A cell in words, centred in `width` as `format!("{:^width$}")` centres it.
fn centred(cell: PassCell, width: usize) -> String {
    centred_by(cell_width(cell), width, |out| write_cell(out, cell))
}

/// `text` centred in `width`, as `format!("{:^width$}")` centres it.
fn centre(text: &str, width: usize) -> String {
    centred_by(text.chars().count(), width, |out| out.push_str(text))
}

/// What `write` writes, `columns` wide, centred in `width` (left of centre when the spaces
/// do not halve), in one string.
fn centred_by(columns: usize, width: usize, write: impl FnOnce(&mut String)) -> String {
    let pad = width.saturating_sub(columns);
    let left = pad / 2;
    // Room for the multi-byte marks (`—`, `⏸`, `→`, `▸`) of the widest cell or label.
    let mut out = String::with_capacity(width + 8);
    out.extend(std::iter::repeat_n(' ', left));
    write(&mut out);
    out.extend(std::iter::repeat_n(' ', pad - left));
    out
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
    for &id in app.roster().iter() {
        for (w, cell) in widths.iter_mut().zip(s.pass_cells(id, rules)) {
            *w = (*w).max(cell_width(cell));
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
    let w = total_width(&order::measures(app).grid).max("IP per pass".len() + 2) + 2;
    u16::try_from(w).unwrap_or(u16::MAX)
}

/// Appends the passes' headers to `out`, the pass under way marked.
pub fn header_spans(out: &mut Vec<Span<'static>>, app: &App, widths: &[usize]) {
    let t = app.theme;
    let now = current(app);
    let mut label = String::new();
    for (i, w) in widths.iter().enumerate() {
        let p = i + 1;
        if i > 0 {
            out.push(Span::raw(" "));
        }
        label.clear();
        if p == now {
            label.push('▸');
        }
        label.push('P');
        push_number(&mut label, u16::try_from(p).unwrap_or(u16::MAX));
        let style = if p == now { t.current() } else { t.title() };
        out.push(Span::styled(centre(&label, *w), style));
    }
}

/// Appends one character's cells to `out`: the pass under way stands out, the actor's cell in
/// it most.
pub fn row_spans(
    out: &mut Vec<Span<'static>>,
    app: &App,
    id: CombatantId,
    widths: &[usize],
    selected: bool,
) {
    let t = app.theme;
    let s = app.state();
    let now = current(app);
    let actor = app.actor();
    let downed = s
        .get(id)
        .is_some_and(crate::encounter::Combatant::is_downed);
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
            PassCell::Unrolled { .. } => t.key(),
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
        out.push(Span::styled(centred(cell, *w), style));
    }
}

/// The IP grid as a pane of its own, beside the order and on the same rows.
pub fn render<'a>(app: &'a App, area: Rect, d: &mut Drawing<'a>) {
    let t = app.theme;
    let block = pane_block("IP per pass", false, t);
    let inner = d.block(block, area);
    let measures = order::measures(app);
    let (widths, rows) = (&measures.grid, &measures.rows);
    // The order pane has the same height: the same rows show on both.
    let win = order::window(
        rows,
        app.selected_id(),
        usize::from(inner.height).saturating_sub(1),
    );
    let mut head = Vec::with_capacity(2 * widths.len());
    header_spans(&mut head, app, widths);
    let mut lines = vec![Line::from(head)];
    let selected = app.selected_id();
    for row in rows.iter().skip(win.first).take(win.shown) {
        lines.push(match *row {
            Row::Character(id) => {
                let mut spans = Vec::with_capacity(2 * widths.len());
                row_spans(&mut spans, app, id, widths, selected == Some(id));
                Line::from(spans)
            }
            _ => Line::from(""),
        });
    }
    d.lines(lines, inner);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cells() -> impl Strategy<Value = PassCell> {
        let n = prop_oneof![0..=12u8, Just(99), Just(100), Just(u8::MAX)];
        prop_oneof![
            (
                proptest::option::of(n.clone()),
                n.clone(),
                n.clone(),
                n.clone()
            )
                .prop_map(|(start, spent, edge, reserved)| PassCell::Seen {
                    start,
                    spent,
                    edge,
                    reserved,
                }),
            n.prop_map(|projected| PassCell::Ahead { projected }),
            Just(PassCell::Downed),
            any::<bool>().prop_map(|first| PassCell::Unrolled { first }),
        ]
    }

    proptest! {
        #[test]
        fn a_cells_width_is_the_columns_its_words_take(cell in cells()) {
            let mut words = String::new();
            write_cell(&mut words, cell);
            prop_assert_eq!(cell_width(cell), crate::text::shown_len(&words), "{}", words);
        }
    }

    #[test]
    fn a_cell_is_centred_as_format_centres_it() {
        let cells = [
            PassCell::Seen {
                start: Some(5),
                spent: 2,
                edge: 0,
                reserved: 0,
            },
            PassCell::Seen {
                start: None,
                spent: 10,
                edge: 4,
                reserved: 2,
            },
            PassCell::Ahead { projected: 12 },
            PassCell::Downed,
            PassCell::Unrolled { first: true },
            PassCell::Unrolled { first: false },
            // No turn in a pass gone by (Downed before it came), nothing spent: a bare dash.
            PassCell::Seen {
                start: None,
                spent: 0,
                edge: 0,
                reserved: 0,
            },
        ];
        let words = ["5/2", "—+4/10⏸2", "→12", "", "roll", "", "—"];
        for (cell, text) in cells.into_iter().zip(words) {
            for w in 0..12 {
                assert_eq!(centred(cell, w), format!("{text:^w$}"), "{cell:?} in {w}");
            }
        }
    }
}
