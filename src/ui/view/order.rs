//! The initiative order: one row a character (where it stands, who it is, what it has left,
//! what holds it), its delays and readies under it; from `ONE_TABLE` columns on, its IP per
//! pass on the same row.

use std::rc::Rc;

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::{focus_title, ip_grid, more_hints, pane_block, push_padded};
use crate::encounter::{Combatant, CombatantId, PassMark, Reserve};
use crate::text::{push_int, push_number};
use crate::ui::app::App;
use crate::ui::mode::tracker::Pane;

/// One line of the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    Character(CombatantId),
    /// A ready trigger, under its holder.
    Ready {
        holder: CombatantId,
        trigger: usize,
    },
    /// A delay whose trigger is not named yet, under its holder.
    Holding(CombatantId),
    /// A delay waiting on this character's turn, under it.
    Waits {
        delayer: CombatantId,
        trigger: CombatantId,
    },
    /// A skipped turn of a change of initiative (`»`), taken before or after this character's
    /// turn: under it, as a delay is (under the one who moved if that one is gone).
    Moved {
        who: CombatantId,
        target: CombatantId,
    },
}

/// The lines of the order: the roster, each character followed by what waits on it.
pub fn rows(app: &App) -> Vec<Row> {
    let s = app.state();
    let roster = app.roster();
    let mut waits: Vec<Vec<CombatantId>> = vec![Vec::new(); s.combatants.len()];
    for d in s.present() {
        if let Some((_, Some(t))) = s.delay_held(d)
            && let Some(v) = waits.get_mut(t.index())
        {
            v.push(d.id);
        }
    }
    let mut moved: Vec<Vec<CombatantId>> = vec![Vec::new(); s.combatants.len()];
    // A skipped turn still to take is the pass's: none once the encounter has ended.
    for c in s.present().filter(|_| !s.has_ended()) {
        if let Some(w) = c.waits {
            // Under the one it waits for; under itself if that one has left the roster.
            let under = if roster.contains(&w.target) {
                w.target
            } else {
                c.id
            };
            if let Some(v) = moved.get_mut(under.index()) {
                v.push(c.id);
            }
        }
    }
    let mut out = Vec::with_capacity(roster.len());
    for &id in roster.iter() {
        out.push(Row::Character(id));
        let Some(c) = s.get(id) else { continue };
        match s.held(c) {
            Some(Reserve::Ready { triggers, .. }) => {
                out.extend((0..triggers.len()).map(|trigger| Row::Ready {
                    holder: id,
                    trigger,
                }));
            }
            Some(Reserve::Delay { trigger: None, .. }) => out.push(Row::Holding(id)),
            _ => {}
        }
        for delayer in &waits[id.index()] {
            out.push(Row::Waits {
                delayer: *delayer,
                trigger: id,
            });
        }
        for who in &moved[id.index()] {
            if let Some(target) = s.get(*who).and_then(|c| c.waits).map(|w| w.target) {
                out.push(Row::Moved { who: *who, target });
            }
        }
    }
    out
}

/// Which rows are on screen: the first and how many, and how many are out of sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub first: usize,
    pub shown: usize,
    pub above: usize,
    pub below: usize,
}

/// The rows a pane of `height` lines shows: as few scrolled as keep the selected character and
/// what waits on it in sight.
pub fn window(rows: &[Row], selected: Option<CombatantId>, height: usize) -> Window {
    let at = rows
        .iter()
        .position(|r| Some(*r) == selected.map(Row::Character))
        .unwrap_or(0);
    let end = rows[at + 1.min(rows.len())..]
        .iter()
        .position(|r| matches!(r, Row::Character(_)))
        .map_or(rows.len(), |n| at + 1 + n);
    let first = end.saturating_sub(height).min(at);
    let shown = height.min(rows.len() - first.min(rows.len()));
    Window {
        first,
        shown,
        above: first,
        below: rows.len().saturating_sub(first + shown),
    }
}

/// The marker of where a character stands in this pass; symbols, so colour is never needed.
fn marker(mark: PassMark, downed: bool, acting: bool) -> &'static str {
    if acting {
        "▶"
    } else if downed {
        "✗"
    } else {
        match mark {
            PassMark::Waiting | PassMark::Joined => " ",
            PassMark::Acting => "▶",
            PassMark::Acted => "✓",
            PassMark::Skipped | PassMark::Lost => "–",
            PassMark::Deferred { .. } => "»",
        }
    }
}

/// A status as a short mark: initials of several words (FD), two letters of one (Pr), and the
/// stacks after it (TA2).
pub fn short_mark(name: &str, stacks: u8) -> String {
    let mut mark = String::new();
    write_short_mark(&mut mark, name, stacks);
    mark
}

/// Writes [`short_mark`]'s mark.
fn write_short_mark(out: &mut String, name: &str, stacks: u8) {
    let mut words = name.split_whitespace();
    if let (Some(_), Some(_)) = (words.next(), words.next()) {
        out.extend(
            name.split_whitespace()
                .filter_map(|w| w.chars().next())
                .flat_map(char::to_uppercase),
        );
    } else {
        out.extend(name.chars().take(2));
    }
    if stacks > 1 {
        push_number(out, stacks.into());
    }
}

/// What hides a character from the players' view, on the GM's screen.
pub const HIDDEN_MARK: &str = "◌";
/// Before a boosted score in Status (Shadowrun 2097): `⇡25`.
pub const BOOST_MARK: &str = "⇡";

/// The columns of the order a table may leave out.
#[derive(Debug, Clone, Copy)]
enum Optional {
    /// The character's group.
    Group,
    /// Edge left and the most it can be (SR 2097's Edge Burn lowers that for good).
    Edge,
    /// The wound modifier, when there is one.
    Wounds,
    /// The hidden mark and the statuses, each as a short mark.
    Status,
}

/// Writes a character's value in an optional column (nothing where it has none): written in
/// place, as the order measures and writes every row every frame it changes.
fn write_value(out: &mut String, app: &App, c: &Combatant, column: Optional) {
    match column {
        Optional::Group => {
            if let Some(g) = c.group.and_then(|g| app.state().groups.get(g.0 as usize)) {
                out.push_str(&g.name);
            }
        }
        Optional::Edge => {
            if c.sheet.edge != 0 {
                push_int(out, c.edge_left.into(), 0);
                out.push('/');
                push_int(out, app.state().edge_max(c).into(), 0);
            }
        }
        Optional::Wounds => {
            let w = app.state().wounds_shown(c, app.enc.rules());
            if w != 0 {
                push_int(out, w.into(), 0);
            }
        }
        Optional::Status => {
            let mut first = true;
            if c.is_hidden() {
                out.push_str(HIDDEN_MARK);
                first = false;
            }
            // A 2097 boost that counts in this pass: the score it may go first with.
            if let Some(score) = crate::encounter::system::sr2097::boosted_score(app.state(), c) {
                if !first {
                    out.push(' ');
                }
                first = false;
                out.push_str(BOOST_MARK);
                push_int(out, score.into(), 0);
            }
            for status in &c.statuses {
                if !first {
                    out.push(' ');
                }
                first = false;
                write_short_mark(out, &status.name, status.stacks);
            }
        }
    }
}

/// The width of a character's value in an optional column, measured in `scratch`.
fn value_width(scratch: &mut String, app: &App, c: &Combatant, column: Optional) -> usize {
    scratch.clear();
    write_value(scratch, app, c, column);
    crate::text::shown_len(scratch)
}

/// The widths of the order's columns; 0 is a column not shown.
#[derive(Debug, Clone, Copy)]
struct Columns {
    name: usize,
    group: usize,
    edge: usize,
    wounds: usize,
    status: usize,
}

/// Gutter, mark, marker, place and a space.
const FIXED: usize = 6;
/// Side, initiative score and IP, with their spaces.
const TAIL: usize = 5 + 4 + 2;

impl Columns {
    fn total(&self) -> usize {
        let opt = |w: usize| if w > 0 { w + 1 } else { 0 };
        FIXED
            + self.name
            + 1
            + opt(self.group)
            + opt(self.edge)
            + opt(self.wounds)
            + opt(self.status)
            + TAIL
    }

    /// Every column at the width its widest value needs (0 for a column no one has a value
    /// in), and at least its header's.
    fn widest(app: &App) -> Self {
        let s = app.state();
        let mut c = Columns {
            name: 4,
            group: 0,
            edge: 0,
            wounds: 0,
            status: 0,
        };
        let mut scratch = String::new();
        for &id in app.roster().iter() {
            let Some(x) = s.get(id) else { continue };
            let mut width = |column| value_width(&mut scratch, app, x, column);
            c.name = c.name.max(crate::text::shown_len(&x.name));
            c.group = c.group.max(width(Optional::Group));
            c.edge = c.edge.max(width(Optional::Edge));
            c.wounds = c.wounds.max(width(Optional::Wounds));
            c.status = c.status.max(width(Optional::Status));
        }
        let header = |w: usize, label: usize| if w > 0 { w.max(label) } else { 0 };
        c.group = header(c.group, 5);
        c.edge = header(c.edge, 4);
        c.wounds = header(c.wounds, 2);
        c.status = header(c.status, 6);
        c
    }

    /// The widest columns given up in this order until the row fits `width`: the group (the
    /// names say it), long names, the status marks (the status pane lists the selected
    /// character's whole), shorter names, wounds, Edge.
    fn fit(self, width: usize) -> Self {
        let mut c = self;
        if c.total() > width {
            c.group = 0;
        }
        if c.total() > width {
            // Long names keep what the row leaves them, at least 12 columns for now.
            let room = width.saturating_sub(c.total() - c.name);
            c.name = room.max(c.name.min(12)).min(c.name);
        }
        if c.total() > width {
            let over = c.total() - width;
            c.status = if c.status > over + 6 {
                c.status - over
            } else {
                0
            };
        }
        while c.total() > width && c.name > 6 {
            c.name -= 1;
        }
        if c.total() > width {
            c.wounds = 0;
        }
        if c.total() > width {
            c.edge = 0;
        }
        // What the later steps freed goes back to the names.
        let spare = width.saturating_sub(c.total());
        c.name += spare.min(self.name - c.name);
        c
    }
}

/// What the order measures of the encounter, for the layout and the pane alike: its rows,
/// every column at its widest, the widest delay or ready line, the IP per pass's columns.
/// It reads the encounter alone, and is made once for its revision ([`measures`]).
pub struct Measures {
    pub rows: Vec<Row>,
    widest: Columns,
    /// The widest line of a delay or a ready, gutter included.
    reserves: usize,
    /// The width of each pass's column.
    pub grid: Vec<usize>,
}

/// The order's [`Measures`] for the encounter as it is.
pub fn measures(app: &App) -> Rc<Measures> {
    app.order_measures.get(app.enc.revision(), || {
        let rows = rows(app);
        // A delay's or a ready's line under a character wants its words too.
        let reserves = rows
            .iter()
            .filter(|r| !matches!(r, Row::Character(_)))
            .map(|r| crate::text::shown_len(&reserve_text(app, *r)) + FIXED)
            .max()
            .unwrap_or(0);
        Measures {
            rows,
            widest: Columns::widest(app),
            reserves,
            grid: ip_grid::columns(app),
        }
    })
}

/// The width the order needs for every column at its widest (with the IP per pass when
/// `with_grid`), borders included.
pub fn natural_width(app: &App, with_grid: bool) -> usize {
    let m = measures(app);
    let grid = if with_grid {
        ip_grid::total_width(&m.grid) + 3
    } else {
        0
    };
    m.widest.total().max(m.reserves) + grid + 2
}

fn pad(text: &str, w: usize) -> String {
    let mut out = String::with_capacity(w);
    push_padded(&mut out, text, w);
    out
}

/// The header row of the order's columns.
fn header(c: &Columns) -> String {
    let mut out = format!("{:>5} {} Side ", "#", pad("Name", c.name));
    for (w, label) in [
        (c.group, "Group"),
        (c.edge, "Edge"),
        (c.wounds, "Wd"),
        (c.status, "Status"),
    ] {
        if w > 0 {
            out.push_str(&pad(label, w));
            out.push(' ');
        }
    }
    out.push_str("Ini IP");
    out
}

/// One character's row, from the name on (the gutter, mark and marker are spans of their
/// own), padded to `width`: one string written in place, as the order is written every frame.
fn row_text(
    app: &App,
    c: &Combatant,
    place: Option<usize>,
    cols: &Columns,
    width: usize,
) -> String {
    let mut out = String::with_capacity(width + 8);
    match place {
        Some(p) => push_int(&mut out, i64::try_from(p + 1).unwrap_or(i64::MAX), 2),
        None => out.push_str("  "),
    }
    out.push(' ');
    super::push_padded_name(&mut out, &c.name, cols.name);
    out.push(' ');
    push_padded(&mut out, c.side.label(), 4);
    out.push(' ');
    let mut value = String::new();
    for (w, column) in [
        (cols.group, Optional::Group),
        (cols.edge, Optional::Edge),
        (cols.wounds, Optional::Wounds),
        (cols.status, Optional::Status),
    ] {
        if w > 0 {
            value.clear();
            write_value(&mut value, app, c, column);
            push_padded(&mut out, &value, w);
            out.push(' ');
        }
    }
    match &c.initiative {
        Some(r) => {
            push_int(&mut out, r.score().into(), 2);
            out.push(if r.glitch.is_glitch() { '!' } else { ' ' });
        }
        None => out.push_str(" — "),
    }
    out.push(' ');
    push_int(&mut out, c.ip.into(), 2);
    let written = crate::text::shown_len(&out);
    if written > width {
        let kept = std::mem::take(&mut out);
        push_padded(&mut out, &kept, width);
    } else {
        out.extend(std::iter::repeat_n(' ', width - written));
    }
    out
}

/// The text of a reserve's line under a character.
fn reserve_text(app: &App, row: Row) -> String {
    let s = app.state();
    match row {
        Row::Ready { holder, trigger } => match s.get(holder).and_then(|c| c.reserve.as_ref()) {
            Some(Reserve::Ready { ip, triggers, .. }) => format!(
                "⏸ ready {ip} IP: when {}",
                triggers.get(trigger).map_or("", |t| t.text.as_str())
            ),
            _ => String::new(),
        },
        Row::Holding(id) => {
            let ip = s.get(id).and_then(Combatant::delay).map_or(0, |d| d.0);
            format!("↳ holding {ip} IP, trigger not named")
        }
        Row::Waits { delayer, trigger } => {
            let ip = s.get(delayer).and_then(Combatant::delay).map_or(0, |d| d.0);
            format!("↳ {}, {ip} IP, after {}", s.name(delayer), s.name(trigger))
        }
        Row::Moved { who, target } => {
            let relative = s
                .get(who)
                .and_then(|c| c.waits)
                .map_or("after", |w| w.relative.word());
            format!(
                "» {}, moved: turn {relative} {}",
                s.name(who),
                s.name(target)
            )
        }
        Row::Character(_) => String::new(),
    }
}

/// The order pane: with the IP per pass on the same rows when `with_grid` (a wide screen).
pub fn render<'a>(app: &'a App, area: Rect, with_grid: bool, d: &mut Drawing<'a>) {
    let t = app.theme;
    let s = app.state();
    let focused = app.tracker.focus == Pane::Order;
    let title = if with_grid {
        "Initiative order · IP per pass"
    } else {
        "Initiative order"
    };
    let measures = measures(app);
    let rows = &measures.rows;
    let inner_h = usize::from(area.height.saturating_sub(3));
    let selected = app.selected_id();
    let win = window(rows, selected, inner_h);
    let block = more_hints(
        pane_block(&focus_title(title, focused), focused, t),
        win.above,
        win.below,
        t,
    );
    let inner = d.block(block, area);
    let grid = with_grid.then_some(&measures.grid);
    let grid_w = grid.as_ref().map_or(0, |g| ip_grid::total_width(g) + 3);
    let room = usize::from(inner.width).saturating_sub(grid_w);
    let cols = measures.widest.fit(room);
    // In one table the grid follows the order's last column; alone, the order fills its pane.
    let width = if grid.is_some() {
        natural_width(app, false).saturating_sub(2).min(room)
    } else {
        room
    };
    // A row's spans: gutter, mark, marker and text, then the grid's separator and cells.
    let spans_of_row = 5 + grid.map_or(0, |g| 2 * g.len());
    let mut head = Vec::with_capacity(spans_of_row);
    head.push(Span::styled(pad(&header(&cols), width), t.title()));
    if let Some(g) = &grid {
        head.push(Span::styled(" │ ", t.dim()));
        ip_grid::header_spans(&mut head, app, g);
    }
    let mut lines: Vec<Line> = Vec::with_capacity(win.shown + 2);
    lines.push(Line::from(head));
    let actor = app.actor();
    let in_order = s.ordered().count();
    let roster = app.roster();
    let marks = &app.tracker.marks;
    // Each one's place in the roster, by id (looked up on every row).
    let mut places = vec![None; s.combatants.len()];
    for (p, id) in roster.iter().enumerate() {
        if let Some(place) = places.get_mut(id.index()) {
            *place = Some(p);
        }
    }
    for row in rows.iter().skip(win.first).take(win.shown) {
        let Row::Character(id) = *row else {
            let mut spans = vec![Span::styled(
                pad(&format!("      {}", reserve_text(app, *row)), width),
                t.reserve(),
            )];
            if grid.is_some() {
                spans.push(Span::styled(" │ ", t.dim()));
            }
            lines.push(Line::from(spans));
            continue;
        };
        let Some(c) = s.get(id) else { continue };
        let acting = actor == Some(id);
        let mut style = if acting {
            t.current()
        } else if c.is_downed() {
            t.downed()
        } else if s.pass_mark(c).done() {
            t.acted()
        } else {
            Style::default()
        };
        let is_selected = selected == Some(id);
        if is_selected {
            style = style.patch(t.selected());
        }
        let place = places
            .get(id.index())
            .copied()
            .flatten()
            .filter(|p| *p < in_order);
        let marked = marks.contains(&id);
        let mut spans = Vec::with_capacity(spans_of_row);
        spans.extend([
            Span::styled(if is_selected { "›" } else { " " }, style),
            Span::styled(if marked { "●" } else { " " }, style.patch(t.marked())),
            Span::styled(marker(s.pass_mark(c), c.is_downed(), acting), style),
            Span::styled(
                row_text(app, c, place, &cols, width.saturating_sub(3)),
                style,
            ),
        ]);
        if let Some(g) = &grid {
            spans.push(Span::styled(" │ ", t.dim()));
            ip_grid::row_spans(&mut spans, app, id, g, is_selected);
        }
        lines.push(Line::from(spans));
    }
    if roster.is_empty() {
        lines.push(Line::styled("no combatants yet: a to add", t.dim()));
    }
    d.lines(lines, inner);
}

#[cfg(test)]
mod tests {
    use super::{Columns, short_mark};

    #[test]
    fn one_very_long_name_cuts_only_as_much_of_the_others_as_the_row_needs() {
        // Given names up to 80 columns wide (one of 40 wide characters), a group and statuses
        let widest = Columns {
            name: 80,
            group: 6,
            edge: 4,
            wounds: 2,
            status: 8,
        };
        // When the row has 90 columns: then the names keep all the row leaves them
        let c = widest.fit(90);
        assert_eq!(c.total(), 90, "{c:?}");
        assert!(c.name > 23, "a 23-column name fits whole: {c:?}");
        // And a row too narrow for even 12 columns of name still fits, names cut further
        let c = widest.fit(40);
        assert!(c.total() <= 40, "{c:?}");
        // And a row wide enough keeps every column whole
        let c = Columns { name: 30, ..widest }.fit(80);
        assert_eq!((c.name, c.group), (30, 6), "{c:?}");
    }

    #[test]
    fn a_status_is_marked_by_initials_or_two_letters_and_its_stacks() {
        assert_eq!(short_mark("Full Defense", 1), "FD");
        assert_eq!(short_mark("  full   matrix defense ", 1), "FMD");
        assert_eq!(short_mark("Prone", 1), "Pr");
        assert_eq!(short_mark("Take Aim", 3), "TA3");
        assert_eq!(short_mark("X", 2), "X2");
        assert_eq!(short_mark("", 1), "");
        assert_eq!(short_mark("élan vital", 1), "ÉV");
    }
}
