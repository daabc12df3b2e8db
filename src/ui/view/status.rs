//! Status: the selected character whole, the marked ones, who is Downed and why, condition
//! monitors, lasting effects, readies, delays, IP spent in another's turn, and SR5's kit (an
//! attack under way, weapons with rounds left, armor); scrolls when focused.

use std::rc::Rc;

use crate::ui::frame::{Drawing, hash_of};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

use super::{focus_title, more_hints, pane_block, text_line, wrap};
use crate::encounter::{Combatant, Reserve, StatusEnd};
use crate::report;
use crate::ui::app::App;
use crate::ui::mode::tracker::Pane;

fn end_label(app: &App, name: &str, end: StatusEnd) -> String {
    // At an Anarchy table a narration is what a turn is elsewhere, and a turn what a round is:
    // after the end too, when the table is gone.
    if !app.state().system.plays_in_passes() {
        match end {
            StatusEnd::EndOfTurn { .. } => return "ends with this narration".into(),
            StatusEnd::EndOfNextTurn => return "ends after their next narration".into(),
            StatusEnd::EndOfRound => return "ends with the turn".into(),
            StatusEnd::OtherAction | StatusEnd::UntilCleared => {}
        }
    }
    match end {
        StatusEnd::EndOfTurn { .. } => "ends with this turn".into(),
        StatusEnd::EndOfNextTurn => "ends after their next turn".into(),
        StatusEnd::EndOfRound => "ends with the round".into(),
        StatusEnd::OtherAction => "ends on another action".into(),
        StatusEnd::UntilCleared => report::until_ended(name, app.enc.catalogue()),
    }
}

/// The selected character in one sentence: everything its row says in short, in full.
fn whole(app: &App, c: &Combatant) -> String {
    let s = app.state();
    // At an Anarchy table there is no initiative and no IP: Plot Points, Edge and tracks instead,
    // from the first `add`, before the table opens.
    if s.narration().is_some() || !s.system.plays_in_passes() {
        let ended = app.table_at_end();
        let table = s.narration().or(ended.as_ref().as_ref());
        let mut parts = report::anarchy::character_bits(&app.enc, table, c);
        parts.extend(status_parts(app, c));
        return format!("› {}: {}", c.name, parts.join(", "));
    }
    let rules = app.enc.rules();
    let mut parts = vec![c.side.label().to_string()];
    if let Some(g) = c.group.and_then(|g| s.groups.get(g.0 as usize)) {
        parts.push(if g.shared_roll {
            format!("group {} (one shared roll)", g.name)
        } else {
            format!("group {}", g.name)
        });
    }
    parts.push(match &c.initiative {
        Some(r) => format!(
            "initiative {}{} on {} dice",
            r.score(),
            if r.glitch.is_glitch() {
                " (glitch)"
            } else {
                ""
            },
            r.pool
        ),
        None => "no initiative yet".into(),
    });
    parts.push(format!("IP {}", c.ip));
    if let Some(r) = s.held(c) {
        parts.push(format!("{} IP held back", r.ip()));
    }
    if c.sheet.edge > 0 {
        parts.push(format!("Edge {}/{} left", c.edge_left, s.edge_max(c)));
    }
    // SR 2097: strength, armor and weapons.
    parts.extend(report::sr2097::sheet_notes(s, c));
    let monitors = report::condition_text(c, s, rules);
    if !monitors.is_empty() {
        parts.push(monitors);
    }
    // As `show` says it: one dying of an injury is told from one merely Downed.
    if let Some(why) = report::down_text(s, c, rules) {
        parts.push(format!("Downed ({why})"));
    }
    parts.extend(status_parts(app, c));
    format!("› {}: {}", c.name, parts.join(", "))
}

/// The lasting statuses, each with when it ends.
fn status_parts(app: &App, c: &Combatant) -> Vec<String> {
    c.statuses
        .iter()
        .map(|st| {
            let stacks = if st.stacks > 1 {
                format!(" ×{}", st.stacks)
            } else {
                String::new()
            };
            format!("{}{stacks} ({})", st.name, end_label(app, &st.name, st.end))
        })
        .collect()
}

/// The pane's lines before wrapping, each with its style.
pub fn lines(app: &App) -> Vec<(String, Style)> {
    let t = app.theme;
    let s = app.state();
    let rules = app.enc.rules();
    let mut out: Vec<(String, Style)> = Vec::new();
    if let Some(c) = app.selected_id().and_then(|id| s.get(id)) {
        out.push((whole(app, c), t.title()));
    }
    let marked: Vec<&str> = app
        .tracker
        .marks
        .iter()
        .filter_map(|id| s.get(*id))
        .filter(|c| c.is_present())
        .map(|c| c.name.as_str())
        .collect();
    if !marked.is_empty() {
        out.push((
            format!(
                "● marked: {} (h, H, + and - act on each; V unmarks)",
                marked.join(", ")
            ),
            t.marked(),
        ));
    }
    for c in s.present() {
        if let Some(why) = crate::report::down_text(s, c, rules) {
            out.push((format!("✗ {} Downed: {why}", c.name), t.downed()));
        }
    }
    for c in s.present() {
        // Only the hurt: a monitor at zero says nothing at a glance.
        if c.damage.physical == 0 && c.damage.stun == 0 {
            continue;
        }
        let of = |v: u8, max: Option<u8>| max.map_or(v.to_string(), |m| format!("{v}/{m}"));
        let wounds = s.wounds_shown(c, rules);
        let wounds = if wounds == 0 {
            String::new()
        } else {
            format!("  wounds {wounds}")
        };
        out.push((
            format!(
                "♥ {}  P {}  S {}{wounds}",
                c.name,
                of(
                    c.damage.physical,
                    c.sheet.body.map(|b| rules.monitor_boxes(b))
                ),
                of(
                    c.damage.stun,
                    c.sheet.willpower.map(|w| rules.monitor_boxes(w))
                )
            ),
            t.base(),
        ));
    }
    // Shadowrun 2097: injuries and boosts of initiative.
    for c in s.present() {
        if let Some(inj) = report::sr2097::injuries_text(s, c) {
            out.push((format!("♥ {}  {inj}", c.name), t.base()));
        }
        if let Some(b) = report::sr2097::boost_text(s, c) {
            out.push((format!("▸ {}  {b}", c.name), t.base()));
        }
    }
    for c in s.present() {
        for st in &c.statuses {
            let stacks = if st.stacks > 1 {
                format!(" ×{}", st.stacks)
            } else {
                String::new()
            };
            out.push((
                format!(
                    "◆ {}: {}{stacks} ({})",
                    c.name,
                    st.name,
                    end_label(app, &st.name, st.end)
                ),
                t.base(),
            ));
        }
    }
    for c in s.present() {
        match s.held(c) {
            Some(Reserve::Ready { ip, triggers, .. }) => {
                for tr in triggers {
                    let acts: Vec<String> = tr
                        .actions
                        .iter()
                        .map(crate::encounter::ActionUse::label)
                        .collect();
                    out.push((
                        format!(
                            "⏸ {} ready {ip} IP: when {} → {}",
                            c.name,
                            tr.text,
                            acts.join(", ")
                        ),
                        t.reserve(),
                    ));
                }
            }
            Some(Reserve::Delay { ip, trigger }) => {
                let after = trigger.map_or("trigger not named".to_string(), |tr| {
                    format!("after {}", s.name(tr))
                });
                out.push((format!("↳ {} delays {ip} IP, {after}", c.name), t.reserve()));
            }
            None => {}
        }
    }
    if let Some(holder) = s.turn_holder() {
        for (who, ip) in s.spent_by_others() {
            out.push((
                format!(
                    "• {} spent {ip} IP in {}'s turn",
                    s.name(who),
                    s.name(holder)
                ),
                t.base(),
            ));
        }
    }
    // SR5: the attack waiting for the GM, defenses taken, weapons (rounds left) and armor.
    // Texts are escaped where the pane wraps them.
    for (i, p) in crate::report::sr5::pending_text(s).into_iter().enumerate() {
        out.insert(i, (format!("⚔ {p}"), t.reserve()));
    }
    for c in s.present() {
        let Some(kit) = s.sr5.kit(c.id) else { continue };
        for text in [
            crate::report::sr5::defense_adds_text(kit),
            crate::report::sr5::kit_text(kit),
        ]
        .into_iter()
        .flatten()
        {
            out.push((format!("⚙ {}: {text}", c.name), t.dim()));
        }
    }
    if out.is_empty() {
        out.push(("nobody Downed, hurt or waiting".into(), t.dim()));
    }
    out
}

/// The pane's lines, made once for what they read (the encounter, the tracker's selection and
/// marks, the theme): the layout measures them and the pane draws them in the same frame.
fn kept_lines(app: &App) -> Rc<Vec<(String, Style)>> {
    let key = hash_of(&(app.enc.revision(), &app.tracker, app.theme));
    app.status_lines.get(key, || lines(app))
}

/// The widest line, unwrapped: the pane takes this much if the screen has it.
pub fn width(app: &App) -> usize {
    kept_lines(app)
        .iter()
        .map(|(l, _)| crate::text::shown_len(l))
        .max()
        .unwrap_or(0)
}

/// The lines wrapped to the pane's inner width.
pub fn wrapped(app: &App, width: usize) -> Vec<(String, Style)> {
    kept_lines(app)
        .iter()
        .flat_map(|(text, style)| wrap(text, width, 2).into_iter().map(move |l| (l, *style)))
        .collect()
}

/// How far the pane may scroll: its wrapped lines less those it shows.
pub fn max_scroll(app: &App, area: Rect) -> usize {
    let inner_w = usize::from(area.width.saturating_sub(2));
    let inner_h = usize::from(area.height.saturating_sub(2));
    wrapped(app, inner_w).len().saturating_sub(inner_h)
}

pub fn render<'a>(app: &'a App, area: Rect, d: &mut Drawing<'a>) {
    let t = app.theme;
    let focused = app.tracker.focus == Pane::Status;
    let inner_w = usize::from(area.width.saturating_sub(2));
    let inner_h = usize::from(area.height.saturating_sub(2));
    let all = wrapped(app, inner_w);
    let first = app
        .tracker
        .status_scroll
        .min(all.len().saturating_sub(inner_h));
    let shown = inner_h.min(all.len() - first);
    let block = more_hints(
        pane_block(&focus_title("Status", focused), focused, t),
        first,
        all.len() - first - shown,
        t,
    );
    let inner = d.block(block, area);
    let lines: Vec<Line> = all
        .into_iter()
        .skip(first)
        .take(shown)
        .map(|(l, st)| text_line(l, st))
        .collect();
    d.lines(lines, inner);
}
