//! Drawing the players' view: a pure function of what the watcher last saw. It draws only what
//! `encounter::players::view` lets through, with the GM screen's blocks, symbols and pips.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::follow::Waiting;
use crate::encounter::Side;
use crate::encounter::players::{PcFacts, PlayersView, Row, Stage, Stands};
use crate::ui::theme::Theme;
use crate::ui::view::{cut, draw_lines, header, pane_block, seats::pips};

/// What the watcher shows: the last view it could load, and why it waits, if it does.
#[derive(Debug, Clone)]
pub struct Watch {
    /// The save's name.
    pub title: String,
    pub theme: Theme,
    pub shown: Option<PlayersView>,
    pub waiting: Option<Waiting>,
}

impl Watch {
    pub fn new(title: String, mono: bool) -> Self {
        Self {
            title,
            theme: Theme { mono },
            shown: None,
            waiting: None,
        }
    }
}

impl Widget for &Watch {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let [head, body, foot] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Min(0),
            Constraint::Length(1),
        ])
        .areas(area);
        header(self, head, buf);
        let narration = self
            .shown
            .as_ref()
            .is_some_and(|v| matches!(v.stage, Stage::Narration { .. }));
        let block = pane_block(if narration { "Table" } else { "Order" }, false, self.theme);
        let inner = block.inner(body);
        block.render(body, buf);
        let width = usize::from(inner.width);
        let mut lines: Vec<Line> = match &self.shown {
            Some(v) if v.rows.is_empty() => vec![Line::styled("nobody yet", self.theme.dim())],
            Some(v) => {
                // Names at their widest, leaving half the row to what follows them.
                let widest = v
                    .rows
                    .iter()
                    .map(|r| crate::text::shown_len(&r.name))
                    .max()
                    .unwrap_or(0);
                let name_w = widest.min(width.saturating_sub(8) / 2).max(4);
                v.rows
                    .iter()
                    .map(|r| row_line(r, name_w, width, self.theme))
                    .collect()
            }
            None => Vec::new(),
        };
        let hidden = lines.len().saturating_sub(usize::from(inner.height));
        if hidden > 0 {
            lines.truncate(usize::from(inner.height).saturating_sub(1));
            lines.push(Line::styled(
                format!("▼ {} more (a taller terminal shows them)", hidden + 1),
                self.theme.dim(),
            ));
        }
        draw_lines(&lines, inner, buf);
        footer(self, foot, buf);
    }
}

fn header(w: &Watch, area: Rect, buf: &mut Buffer) {
    let t = w.theme;
    let mut first = vec![
        Span::styled(format!(" {} ", cut(&w.title, 40)), t.title()),
        Span::raw("  players' view"),
    ];
    let mut second = vec![Span::raw(" ")];
    if let Some(v) = &w.shown {
        first.push(Span::raw(format!("  {}", v.system)));
        match v.stage {
            Stage::Setup => first.push(Span::raw("  setting up")),
            Stage::Fight {
                round,
                pass,
                passes,
            } => first.extend(header::round_and_passes(round, pass, passes, t)),
            Stage::Narration { turn } => first.push(Span::raw(format!("  Turn {turn}"))),
            Stage::Ended { .. } => first.push(Span::raw("  the encounter has ended")),
        }
        if let Some(who) = &v.acting {
            let verb = if matches!(v.stage, Stage::Narration { .. }) {
                "Narrates: "
            } else {
                "Turn: "
            };
            second.push(Span::raw(verb));
            second.push(Span::styled(format!("▶ {}", cut(who, 40)), t.current()));
        }
    }
    let lines = [Line::from(first), Line::from(second)];
    draw_lines(&lines, area, buf);
}

fn footer(w: &Watch, area: Rect, buf: &mut Buffer) {
    let t = w.theme;
    let line = match (&w.waiting, &w.shown) {
        (None, _) => Line::styled(" read-only, follows the GM's save · q quits", t.dim()),
        (Some(why), shown) => {
            let why = match why {
                Waiting::Missing => "the save is not there (the GM may have quit)".to_string(),
                Waiting::Broken(e) => format!("the save does not load ({e})"),
                Waiting::Rewriting => "the save is being rewritten".to_string(),
            };
            let kept = if shown.is_some() {
                "; the last view stays until it is back"
            } else {
                ""
            };
            Line::styled(format!(" waiting: {why}{kept} · q quits"), t.error())
        }
    };
    // The loader's message may quote the file: `cut` escapes it.
    let line = Line::from(
        line.spans
            .iter()
            .map(|s| Span::styled(cut(&s.content, usize::from(area.width)), s.style))
            .collect::<Vec<_>>(),
    )
    .style(line.style);
    draw_lines(&[line], area, buf);
}

/// One character: where it stands, its place, name and side, then what the players may know.
fn row_line(r: &Row, name_w: usize, width: usize, t: Theme) -> Line<'static> {
    let marker = if r.downed && r.stands != Stands::Acting {
        "✗"
    } else {
        match r.stands {
            Stands::Acting => "▶",
            Stands::Deferred => "»",
            Stands::Done => "✓",
            Stands::Skipped => "–",
            Stands::ToCome => " ",
        }
    };
    let place = r
        .place
        .map_or_else(|| "  ".to_string(), |p| format!("{:>2}", p + 1));
    let side = match r.side {
        Side::Pc => "PC ",
        Side::Npc => "NPC",
    };
    let mut bits: Vec<String> = Vec::new();
    if r.downed {
        bits.push("Downed".into());
    }
    if let Some(pc) = &r.pc {
        bits.extend(pc_bits(pc));
    }
    // In full: the players do not have the GM's legend of short marks.
    let statuses: Vec<String> = r
        .statuses
        .iter()
        .map(|(name, stacks)| match stacks {
            0 | 1 => name.clone(),
            n => format!("{name} ×{n}"),
        })
        .collect();
    if !statuses.is_empty() {
        bits.push(statuses.join(", "));
    }
    let text = format!(
        "{marker} {place} {} {side}  {}",
        crate::ui::view::padded_name(&r.name, name_w),
        bits.join("  ")
    );
    let style = match r.stands {
        Stands::Acting => t.current(),
        _ if r.downed => t.downed(),
        Stands::Done | Stands::Skipped => t.acted(),
        Stands::ToCome | Stands::Deferred => t.base(),
    };
    Line::styled(cut(&text, width), style)
}

/// A player character's IP, Edge, monitors and Plot Points, as short words.
fn pc_bits(pc: &PcFacts) -> Vec<String> {
    let mut bits = Vec::new();
    if let Some(ip) = pc.ip {
        let held = if ip.held > 0 {
            format!(" ⏸{}", ip.held)
        } else {
            String::new()
        };
        bits.push(format!("IP {} left {} spent{held}", ip.left, ip.spent));
    }
    if let Some((have, cap)) = pc.plot_points {
        bits.push(format!("PP {} {have}/{cap}", pips(have, cap)));
    }
    if pc.edge > 0 {
        bits.push(format!("Edge {}/{}", pc.edge_left, pc.edge));
    }
    let mut monitors = Vec::new();
    if let Some((marked, boxes)) = pc.physical {
        monitors.push(format!("P {marked}/{boxes}"));
    }
    if let Some((marked, boxes)) = pc.stun {
        monitors.push(format!("S {marked}/{boxes}"));
    }
    if pc.wounds != 0 {
        monitors.push(format!("Wd {}", pc.wounds));
    }
    if !monitors.is_empty() {
        bits.push(monitors.join(" "));
    }
    bits
}
