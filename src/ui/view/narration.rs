//! The narration turn: its order and how it was made, the narrator and their Movements, the
//! GM's pool with this turn's spends per player, glitch dice waiting, condition boxes. Chosen
//! by the phase in place of the IP grid.

use crate::ui::frame::Drawing;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::{cut, focus_title, more_hints, pane_block};
use crate::encounter::Side;
use crate::encounter::system::anarchy::{Narration, Stage};
use crate::report::anarchy::{gm_players, gm_pool_text, order_how};
use crate::ui::app::App;
use crate::ui::mode::tracker::Pane;

/// The header's words for a narration game.
pub fn header(
    app: &App,
    n: &Narration,
    width: u16,
    first: &mut Vec<Span>,
    second: &mut Vec<Span<'static>>,
) {
    let t = app.theme;
    let s = app.state();
    let rules = &app.enc.rules().anarchy;
    match &n.stage {
        Stage::Between { next } => {
            first.push(Span::raw(if n.turn == 0 {
                "  before the first turn".to_string()
            } else {
                format!("  Turn {} over", n.turn)
            }));
            second.push(Span::raw(format!(
                " narrate (n) begins turn {} (order {})",
                n.turn + 1,
                order_how(*next, s)
            )));
        }
        Stage::Turn(turn) => {
            first.push(Span::raw(format!("  Turn {}", n.turn)));
            match &turn.narrator {
                Some(x) => {
                    // The narrator's name gives way (down to a few cells) so the Movements and
                    // the GM's pool after it show; what still does not fit is cut, `…`.
                    let moves = x.movements.count(&rules.movements);
                    let glitch = n.has_glitch_die(x.who);
                    let pool = gm_pool_text(n, s, rules);
                    // In full, or in short where the full words would cut the GM's limit.
                    let said = |short: bool| {
                        let glitch = match (glitch, short) {
                            (false, _) => "",
                            (true, false) => "  glitch die waiting",
                            (true, true) => "  glitch die",
                        };
                        let pool = if short {
                            pool.trim_end_matches(" this turn")
                        } else {
                            &pool
                        };
                        Line::from(vec![
                            Span::raw(format!("  Movements {moves}{glitch}")),
                            Span::raw(format!("  {pool}")),
                        ])
                    };
                    let name = s.name(x.who);
                    let len = crate::text::shown_len(name);
                    let fits = |rest: &Line| {
                        crate::text::shown_len(" Narrating: ▶ ")
                            + len.min(NAME_AT_LEAST)
                            + rest.width()
                            <= usize::from(width)
                    };
                    let rest = Some(said(false)).filter(fits).unwrap_or_else(|| said(true));
                    let over = (crate::text::shown_len(" Narrating: ▶ ") + len + rest.width())
                        .saturating_sub(usize::from(width));
                    let name =
                        super::cut_name(name, len.saturating_sub(over).max(NAME_AT_LEAST.min(len)));
                    let mut line = vec![
                        Span::raw(" Narrating: "),
                        Span::styled(format!("▶ {name}"), t.current()),
                    ];
                    line.extend(rest.spans);
                    second.extend(super::cut_spans(Line::from(line), usize::from(width)).spans);
                    return;
                }
                None => second.push(Span::raw(" nobody narrates: narrate (n) for the next")),
            }
        }
    }
    second.push(Span::raw(format!("  {}", gm_pool_text(n, s, rules))));
}

/// How far the pane may scroll: its lines less those it shows.
pub fn max_scroll(app: &App, area: Rect) -> usize {
    let w = usize::from(area.width.saturating_sub(2));
    let h = usize::from(area.height.saturating_sub(2));
    lines(app, w).len().saturating_sub(h)
}

/// The cells a name keeps, at least, before a line is cut at its end instead.
const NAME_AT_LEAST: usize = 10;

/// Items laid out in lines of `w` cells, `gap` between, each cut to `w` (`…`): what does not
/// fit one line goes on the next.
fn wrapped(items: Vec<Span<'static>>, gap: &'static str, w: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut line: Vec<Span> = Vec::new();
    let mut used = 0;
    for item in items {
        let item = Span::styled(cut(&item.content, w), item.style);
        let iw = item.width();
        let gw = crate::text::shown_len(gap);
        if used > 0 && used + gw + iw > w {
            lines.push(Line::from(std::mem::take(&mut line)));
            used = 0;
        }
        if used > 0 {
            line.push(Span::raw(gap));
            used += gw;
        }
        used += iw;
        line.push(item);
    }
    if !line.is_empty() {
        lines.push(Line::from(line));
    }
    lines
}

pub fn render<'a>(app: &'a App, area: Rect, d: &mut Drawing<'a>) {
    let t = app.theme;
    let focused = app.tracker.focus == Pane::Narration;
    let w = usize::from(area.width.saturating_sub(2));
    let h = usize::from(area.height.saturating_sub(2));
    let mut lines = lines(app, w);
    // Rows out of sight are counted on its border, as the other panes do.
    let first = app
        .tracker
        .narration_scroll
        .min(lines.len().saturating_sub(h));
    let below = lines.len().saturating_sub(first + h);
    lines.drain(..first);
    lines.truncate(h);
    let inner = d.block(
        more_hints(
            pane_block(&focus_title("Narration", focused), focused, t),
            first,
            below,
            t,
        ),
        area,
    );
    d.lines(lines, inner);
}

/// Every line of the pane, `w` cells wide.
fn lines(app: &App, w: usize) -> Vec<Line<'_>> {
    let t = app.theme;
    let s = app.state();
    let rules = &app.enc.rules().anarchy;
    let mut lines: Vec<Line> = Vec::new();
    // A name in the order and the GM's spends is cut (`…`, a member's number kept) so those
    // after it show: more so in a narrow pane.
    let name_cells = if w >= 50 {
        super::MENU_NAME_CELLS
    } else {
        NAME_AT_LEAST
    };
    let Some(n) = s.narration() else {
        if matches!(s.phase, crate::encounter::Phase::Ended { .. }) {
            lines.push(Line::styled(crate::ui::mode::tracker::ENDED, t.dim()));
            return lines;
        }
        lines.push(Line::styled("narrate (n) begins turn 1", t.dim()));
        lines.push(Line::styled(
            format!(
                "players start with {} PP of {}, GM {}",
                rules.plot_points.player_start,
                rules.plot_points.player_cap,
                rules.plot_points.gm_start
            ),
            t.dim(),
        ));
        return lines;
    };
    match &n.stage {
        Stage::Turn(turn) => {
            lines.push(Line::styled(
                format!("Turn {} · order {}", n.turn, order_how(turn.how, s)),
                t.title(),
            ));
            let mut order = Vec::new();
            for id in &turn.order {
                let name = super::cut_name(s.name(*id), name_cells);
                let span = if turn.narrator.is_some_and(|x| x.who == *id) {
                    Span::styled(format!("▶{name}"), t.current())
                } else if turn.done.contains(id) {
                    Span::styled(format!("✓{name}"), t.dim())
                } else {
                    Span::raw(name)
                };
                order.push(span);
            }
            lines.extend(wrapped(order, " ", w));
            if let Some(x) = turn.narrator.filter(|x| !turn.order.contains(&x.who)) {
                lines.push(Line::styled(
                    format!("▶{} narrates out of turn", s.name(x.who)),
                    t.current(),
                ));
            }
        }
        Stage::Between { next } => lines.push(Line::styled(
            format!("Turn {} next · order {}", n.turn + 1, order_how(*next, s)),
            t.title(),
        )),
    }
    lines.push(Line::from(cut(&gm_pool_text(n, s, rules), w)));
    // Each player's spends, names cut so the numbers show, on as many lines as they take.
    let per = gm_players(n, s, rules, |name| super::cut_name(name, name_cells));
    if !per.is_empty() {
        let mut items: Vec<Span> = per.into_iter().map(Span::raw).collect();
        if let Some(first) = items.first_mut() {
            *first = Span::raw(format!("GM on: {}", first.content));
        }
        lines.extend(wrapped(items, " · ", w));
    }
    if !n.glitch_dice.is_empty() {
        // Each name cut as the pane cuts names (`…`), the line wrapped where they do not fit.
        let mut items: Vec<Span> = n
            .glitch_dice
            .iter()
            .map(|id| Span::styled(super::cut_name(s.name(*id), name_cells), t.reserve()))
            .collect();
        if let Some(first) = items.first_mut() {
            *first = Span::styled(
                format!("glitch die waiting: {}", first.content),
                t.reserve(),
            );
        }
        lines.extend(wrapped(items, ", ", w));
    }
    lines.push(Line::styled("Condition boxes (damage/size)", t.title()));
    let core = app.enc.rules();
    // Narrow panes give the name less room, so the four tracks fit.
    let name_w = if w >= 50 { 14 } else { 8 };
    for c in s.present() {
        let mut bits = Vec::new();
        if let Some(b) = c.sheet.body {
            bits.push(format!("P {}/{}", c.damage.physical, core.monitor_boxes(b)));
        }
        if let Some(wp) = c.sheet.willpower {
            bits.push(format!("S {}/{}", c.damage.stun, core.monitor_boxes(wp)));
        }
        if let Some(g) = n.gear_of(c.id) {
            if g.armor.size > 0 {
                bits.push(format!("A {}/{}", g.armor.damage, g.armor.size));
            }
            if g.matrix.size > 0 {
                bits.push(format!("M {}/{}", g.matrix.damage, g.matrix.size));
            }
        }
        if bits.is_empty() {
            continue;
        }
        let style = if c.is_downed() {
            t.downed()
        } else if c.side == Side::Npc {
            t.dim()
        } else {
            t.base()
        };
        lines.push(Line::styled(
            cut(
                &format!("{} {}", super::padded_name(&c.name, name_w), bits.join(" ")),
                w,
            ),
            style,
        ));
    }
    lines
}
