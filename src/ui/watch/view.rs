//! Drawing the players' view: a pure function of what the watcher last saw. It draws only what
//! `encounter::players::view` lets through, with the GM screen's blocks, symbols and pips.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::encounter::players::{PcFacts, PlayersView, Row, Stage, Stands};
use crate::encounter::system::sr2097::{Fate, Injury};
use crate::encounter::{Side, Track};
use crate::save::follow::Waiting;
use crate::ui::theme::Theme;
use crate::ui::view::{cut, draw_lines, header, pane_block, seats::pips, wrap};

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
        // The bottom line wraps onto the rows its reason needs, up to half the screen.
        let foot_lines = footer_lines(self, usize::from(area.width), usize::from(area.height / 2));
        let [head, body, foot] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Min(0),
            Constraint::Length(u16::try_from(foot_lines.len()).unwrap_or(1)),
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
        // Each character's lines: its row, and what did not fit the row under it.
        let rows: Vec<Vec<Line>> = match &self.shown {
            Some(v) if v.rows.is_empty() => {
                vec![vec![Line::styled("nobody yet", self.theme.dim())]]
            }
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
                    .map(|r| row_lines(r, name_w, width, self.theme))
                    .collect()
            }
            None => Vec::new(),
        };
        let height = usize::from(inner.height);
        let mut lines: Vec<Line> = rows.iter().flatten().cloned().collect();
        if lines.len() > height {
            // Whole characters, always the one whose turn it is, and lines to say how many
            // are left out above and below.
            let acting = self.shown.as_ref().and_then(|v| {
                v.rows
                    .iter()
                    .position(|r| matches!(r.stands, Stands::Acting))
            });
            lines = window(&rows, acting.unwrap_or(0), height, width, self.theme);
        }
        draw_lines(&lines, inner, buf);
        draw_lines(&foot_lines, foot, buf);
    }
}

/// The characters' lines that fit `height` lines: from the top if the one at `keep` fits
/// there, else from it, with a line counting those above; a line counts those below. A character
/// taller than the room shows its first lines; two lines or fewer show that character alone.
fn window<'a>(
    rows: &[Vec<Line<'a>>],
    keep: usize,
    height: usize,
    width: usize,
    theme: Theme,
) -> Vec<Line<'a>> {
    let fit = |start: usize, room: usize| {
        let mut used = 0;
        rows.iter()
            .skip(start)
            .take_while(|r| {
                used += r.len();
                used <= room
            })
            .count()
    };
    let start = if keep < fit(0, height.saturating_sub(1)) {
        0
    } else {
        keep.min(rows.len().saturating_sub(1))
    };
    // Too short for a count line beside a character: the character.
    if height < 3 {
        return rows
            .get(start)
            .into_iter()
            .flatten()
            .take(height)
            .cloned()
            .collect();
    }
    let above = usize::from(start > 0);
    let room = height.saturating_sub(above);
    // The rest may fit without a line below.
    let all = fit(start, room) == rows.len() - start;
    let room = if all { room } else { room.saturating_sub(1) };
    let mut out = Vec::new();
    if start > 0 {
        out.push(Line::styled(format!("▲ {start} more"), theme.dim()));
    }
    let shown = fit(start, room);
    if shown == 0 {
        out.extend(rows.get(start).into_iter().flatten().take(room).cloned());
    } else {
        out.extend(rows[start..start + shown].iter().flatten().cloned());
    }
    let below = rows.len() - start - shown.max(1);
    if below > 0 {
        let more = format!("▼ {below} more");
        let why = " (a taller terminal shows them)";
        let said = if more.chars().count() + why.len() <= width {
            format!("{more}{why}")
        } else {
            more
        };
        out.push(Line::styled(said, theme.dim()));
    }
    out
}

fn header(w: &Watch, area: Rect, buf: &mut Buffer) {
    let t = w.theme;
    let width = usize::from(area.width);
    // Where the encounter stands is what the players look up for: it always stays. The rest
    // gives way first, in this order: "players' view", the system, then the title is cut.
    let mut extras = vec![Span::raw("  players' view")];
    let mut stage = Vec::new();
    let mut second = vec![Span::raw(" ")];
    if let Some(v) = &w.shown {
        extras.push(Span::raw(format!("  {}", v.system)));
        match v.stage {
            Stage::Setup => stage.push(Span::raw("  setting up")),
            Stage::Fight {
                round,
                pass,
                passes,
            } => stage.extend(header::round_and_passes(round, pass, passes, t)),
            Stage::Narration { turn } => stage.push(Span::raw(format!("  Turn {turn}"))),
            Stage::Ended { .. } => stage.push(Span::raw("  the encounter has ended")),
        }
        if let Some(who) = &v.acting {
            let verb = if matches!(v.stage, Stage::Narration { .. }) {
                "Narrates: "
            } else {
                "Turn: "
            };
            // The name takes the room the line leaves it.
            let room = width.saturating_sub(1 + verb.len() + 2).min(NAME_AT_MOST);
            second.push(Span::raw(verb));
            second.push(Span::styled(format!("▶ {}", cut(who, room)), t.current()));
        }
    }
    let cells = |spans: &[Span]| spans.iter().map(Span::width).sum::<usize>();
    let title = crate::text::shown_len(&crate::text::escaped(&w.title));
    // The title's two spaces around it, and a few of its cells at least.
    let title_least = 2 + title.min(TITLE_AT_LEAST);
    while !extras.is_empty() && title_least + cells(&extras) + cells(&stage) > width {
        extras.remove(0);
    }
    let room = width
        .saturating_sub(2 + cells(&extras) + cells(&stage))
        .min(NAME_AT_MOST);
    let mut first = vec![Span::styled(
        format!(" {} ", cut(&w.title, room)),
        t.title(),
    )];
    first.extend(extras);
    first.extend(stage);
    let lines = [Line::from(first), Line::from(second)];
    draw_lines(&lines, area, buf);
}

/// The most cells a title or a name takes in the header.
const NAME_AT_MOST: usize = 40;

/// The cells a title keeps before the header gives up its other words.
const TITLE_AT_LEAST: usize = 8;

/// The bottom line: read-only and how to quit, or why the view waits, wrapped onto as many rows
/// as the reason needs (at most `most`, the last cut then, `q quits` kept at its end).
fn footer_lines(w: &Watch, width: usize, most: usize) -> Vec<Line<'static>> {
    let t = w.theme;
    let Some(why) = &w.waiting else {
        let long = " read-only, follows the GM's save · q quits";
        let fits = crate::text::shown_len(long) <= width;
        return vec![Line::styled(
            if fits { long } else { " read-only · q quits" },
            t.dim(),
        )];
    };
    let why = match why {
        Waiting::Missing => "the save is not there (the GM may have quit)".to_string(),
        Waiting::Broken(e) => format!("the save does not load ({e})"),
        Waiting::Rewriting => "the save is being rewritten".to_string(),
    };
    let kept = if w.shown.is_some() {
        "; the last view stays until it is back"
    } else {
        ""
    };
    let quits = " · q quits";
    // The loader's message may quote the file: `wrap` and `cut` escape it.
    let mut lines = wrap(&format!(" waiting: {why}{kept}{quits}"), width, 1);
    let most = most.max(1);
    if lines.len() > most {
        let rest = lines[most - 1..].join(" ");
        let rest = rest.trim_start().strip_suffix(quits).unwrap_or(&rest);
        let room = width.saturating_sub(crate::text::shown_len(quits) + 1);
        lines.truncate(most - 1);
        lines.push(format!(" {}{quits}", cut(rest.trim_start(), room)));
    }
    lines
        .into_iter()
        .map(|l| Line::styled(l, t.error()))
        .collect()
}

/// One character: where it stands, its place, name and side, then what the players may know.
/// What does not fit the row goes on lines of its own under it, a fact never split.
fn row_lines(r: &Row, name_w: usize, width: usize, t: Theme) -> Vec<Line<'static>> {
    let marker = if r.downed && r.stands != Stands::Acting {
        "✗"
    } else {
        match r.stands {
            Stands::Acting => "▶",
            Stands::Deferred => "»",
            Stands::Done => "✓",
            Stands::Skipped => "–",
            // Blank, greyed, as on the GM's order: it lost no turn.
            Stands::ToCome | Stands::Joined => " ",
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
    let style = match r.stands {
        Stands::Acting => t.current(),
        _ if r.downed => t.downed(),
        Stands::Done | Stands::Skipped | Stands::Joined => t.acted(),
        Stands::ToCome | Stands::Deferred => t.base(),
    };
    let head = format!(
        "{marker} {place} {} {side} ",
        crate::ui::view::padded_name(&r.name, name_w),
    );
    // Lines under the row begin under its name.
    let indent = " ".repeat(5);
    let mut texts = vec![head];
    let mut fresh = true;
    for bit in bits {
        let Some(last) = texts.last_mut() else { break };
        let gap = if fresh { " " } else { "  " };
        let shown = crate::text::shown_len(last) + gap.len() + crate::text::shown_len(&bit);
        if shown <= width {
            last.push_str(gap);
            last.push_str(&bit);
        } else {
            texts.push(format!("{indent}{bit}"));
        }
        fresh = false;
    }
    texts
        .iter()
        .map(|text| Line::styled(cut(text, width), style))
        .collect()
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
    // Anarchy's gear tracks, each a fact of its own (a narrow row puts it on a line of its own).
    for (label, track) in [("Armor", pc.armor), ("Matrix", pc.matrix)] {
        if let Some((marked, boxes)) = track {
            bits.push(format!("{label} {marked}/{boxes}"));
        }
    }
    if !pc.injuries.is_empty() {
        bits.push(format!("injuries: {}", injuries_text(&pc.injuries)));
    }
    bits
}

/// Shadowrun 2097's injuries in short, worded as the GM's Status pane words them:
/// "critical (17), graze stun (3, survived)".
fn injuries_text(injuries: &[Injury]) -> String {
    let each: Vec<String> = injuries
        .iter()
        .map(|i| {
            let stun = if i.track == Track::Stun { " stun" } else { "" };
            let fate = match i.fate {
                Fate::Open => "",
                Fate::Survived => ", survived",
                Fate::Tended => ", tended",
            };
            format!("{}{stun} ({}{fate})", i.severity.word(), i.damage)
        })
        .collect();
    each.join(", ")
}
