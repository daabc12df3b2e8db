//! The initiative order: position, name, score, IP, turn markers, delays inline.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::{cut, pane_block};
use crate::encounter::{PassMark, Reserve};
use crate::ui::app::App;
use crate::ui::mode::tracker::Pane;

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
            PassMark::Deferred => "»",
        }
    }
}

/// How many lines the order wants: one per character and one per reserve shown inline.
pub fn line_count(app: &App) -> usize {
    let s = app.state();
    let reserves: usize = s
        .present()
        .map(|c| match &c.reserve {
            Some(Reserve::Ready { triggers, .. }) => triggers.len(),
            Some(Reserve::Delay { .. }) => 1,
            None => 0,
        })
        .sum();
    app.roster().len() + reserves
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = app.theme;
    let s = app.state();
    let block = pane_block("Initiative order", app.tracker.focus == Pane::Order, t);
    let inner = block.inner(area);
    block.render(area, buf);
    let width = inner.width as usize;
    // A 2097 row also shows Edge, current/max.
    let edge_w = if s.sr2097.is_some() { 7 } else { 0 };
    let name_w = width.saturating_sub(18 + edge_w).clamp(4, 24);
    let actor = app.actor();
    let roster = app.roster();
    // Delays by trigger, found once (not once per row).
    let mut delays: Vec<Vec<(usize, u8)>> = vec![Vec::new(); s.combatants.len()];
    for d in s.present() {
        if let Some((ip, Some(trig))) = d.delay()
            && let Some(v) = delays.get_mut(trig.index())
        {
            v.push((d.id.index(), ip));
        }
    }
    let extra = |c: &crate::encounter::Combatant| {
        let own = match &c.reserve {
            Some(Reserve::Ready { triggers, .. }) => triggers.len(),
            Some(Reserve::Delay { trigger: None, .. }) => 1,
            _ => 0,
        };
        own + delays[c.id.index()].len()
    };
    // Only the rows on screen are formatted: find the first one that keeps the selection seen.
    let h = inner.height as usize;
    let mut first = 0;
    let mut lines_to_selected = 0;
    for (i, id) in roster.iter().enumerate().take(app.tracker.selected + 1) {
        let n = s.get(*id).map_or(1, |c| 1 + extra(c));
        lines_to_selected += if i == app.tracker.selected { 1 } else { n };
    }
    let mut used = lines_to_selected;
    while used > h && first < app.tracker.selected {
        used -= roster
            .get(first)
            .and_then(|id| s.get(*id))
            .map_or(1, |c| 1 + extra(c));
        first += 1;
    }
    let in_order = s.ordered().count();
    let mut lines: Vec<Line> = Vec::with_capacity(h);
    for (i, id) in roster.iter().enumerate().skip(first) {
        if lines.len() >= h {
            break;
        }
        let Some(c) = s.get(*id) else { continue };
        let acting = actor == Some(*id);
        let score = c.initiative.as_ref().map_or_else(
            || "  —".to_string(),
            |r| {
                format!(
                    "{:>3}{}",
                    r.score(),
                    if r.glitch.is_glitch() { "!" } else { " " }
                )
            },
        );
        let pos = if i >= in_order {
            "  ".to_string()
        } else {
            format!("{:>2}", i + 1)
        };
        let mut text = format!(
            "{} {pos} {:<name_w$} {score} IP{:>3}",
            marker(c.mark, c.is_downed(), acting),
            cut(&c.name, name_w),
            c.ip,
        );
        if edge_w > 0 {
            let edge = crate::report::sr2097::edge_text(s, c);
            text.push_str(&format!(" E{:>5}", edge.trim_start_matches("Edge ")));
        }
        let mut style = if acting {
            t.current()
        } else if c.is_downed() {
            t.downed()
        } else if c.mark.done() {
            t.acted()
        } else {
            Style::default()
        };
        if i == app.tracker.selected {
            style = style.patch(t.selected());
        }
        lines.push(Line::styled(text, style));
        // Reserves are shown after the character they wait on.
        if let Some(Reserve::Ready { ip, triggers, .. }) = &c.reserve {
            for tr in triggers {
                lines.push(Line::from(Span::styled(
                    cut(&format!("    ⏸ ready {ip} IP: when {}", tr.text), width),
                    t.reserve(),
                )));
            }
        }
        if let Some((ip, None)) = c.delay() {
            lines.push(Line::from(Span::styled(
                cut(&format!("    ↳ holding {ip} IP, trigger not named"), width),
                t.reserve(),
            )));
        }
        for (d, ip) in &delays[c.id.index()] {
            lines.push(Line::from(Span::styled(
                cut(
                    &format!("    ↳ {}, {ip} IP, after {}", s.combatants[*d].name, c.name),
                    width,
                ),
                t.reserve(),
            )));
        }
    }
    if lines.is_empty() {
        lines.push(Line::styled("no combatants yet: a to add", t.dim()));
    }
    super::draw_lines(&lines, inner, buf);
}
