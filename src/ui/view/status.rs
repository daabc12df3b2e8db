//! Status: Downed and why, condition monitors, lasting effects, readies, delays, IP spent in
//! another's turn, and SR5's kit (an attack under way, weapons with rounds left, armor).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::text::escaped;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::pane_block;
use crate::encounter::{Reserve, StatusEnd};
use crate::ui::app::App;

fn end_label(app: &App, name: &str, end: StatusEnd) -> String {
    match end {
        StatusEnd::EndOfTurn { .. } => "ends with this turn".into(),
        StatusEnd::EndOfNextTurn => "ends after their next turn".into(),
        StatusEnd::EndOfRound => "ends with the round".into(),
        StatusEnd::OtherAction => "ends on another action".into(),
        StatusEnd::UntilCleared => app
            .enc
            .catalogue()
            .ender_of(name)
            .map_or_else(|| "until cleared".into(), |a| format!("until {}", a.name)),
    }
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = app.theme;
    let s = app.state();
    let rules = app.enc.rules();
    let block = pane_block("Status", false, t);
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines: Vec<Line> = Vec::new();
    for c in s.present() {
        if let Some(cause) = c.downed {
            lines.push(Line::styled(
                format!("✗ {} Downed: {}", c.name, cause.label()),
                t.downed(),
            ));
        }
    }
    for c in s.present() {
        let p = c.sheet.body.map(|b| rules.monitor_boxes(b));
        let st = c.sheet.willpower.map(|w| rules.monitor_boxes(w));
        // Only the hurt: a monitor at zero says nothing at a glance.
        if c.damage.physical == 0 && c.damage.stun == 0 {
            continue;
        }
        let of = |v: u8, max: Option<u8>| max.map_or(v.to_string(), |m| format!("{v}/{m}"));
        let wounds = rules.wound_modifier(c.damage.physical, c.damage.stun);
        let wounds = if wounds == 0 {
            String::new()
        } else {
            format!("  wounds {wounds}")
        };
        lines.push(Line::from(format!(
            "♥ {}  P {}  S {}{wounds}",
            c.name,
            of(c.damage.physical, p),
            of(c.damage.stun, st)
        )));
    }
    // Shadowrun 2097: injuries and boosts of initiative.
    for c in s.present() {
        if let Some(inj) = crate::report::sr2097::injuries_text(s, c) {
            lines.push(Line::from(
                escaped(&format!("♥ {}  {inj}", c.name)).into_owned(),
            ));
        }
        if let Some(b) = crate::report::sr2097::boost_text(s, c) {
            lines.push(Line::from(
                escaped(&format!("▸ {}  {b}", c.name)).into_owned(),
            ));
        }
    }
    for c in s.present() {
        for st in &c.statuses {
            let stacks = if st.stacks > 1 {
                format!(" ×{}", st.stacks)
            } else {
                String::new()
            };
            let line = format!(
                "◆ {}: {}{stacks} ({})",
                c.name,
                st.name,
                end_label(app, &st.name, st.end)
            );
            lines.push(Line::from(escaped(&line).into_owned()));
        }
    }
    for c in s.present() {
        match &c.reserve {
            Some(Reserve::Ready { ip, triggers, .. }) => {
                for tr in triggers {
                    let acts: Vec<String> = tr
                        .actions
                        .iter()
                        .map(crate::encounter::ActionUse::label)
                        .collect();
                    let line = format!(
                        "⏸ {} ready {ip} IP: when {} → {}",
                        c.name,
                        tr.text,
                        acts.join(", ")
                    );
                    lines.push(Line::from(Span::styled(
                        escaped(&line).into_owned(),
                        t.reserve(),
                    )));
                }
            }
            Some(Reserve::Delay { ip, trigger }) => {
                let after = trigger.map_or("trigger not named".to_string(), |tr| {
                    format!("after {}", s.name(tr))
                });
                lines.push(Line::from(Span::styled(
                    format!("↳ {} delays {ip} IP, {after}", c.name),
                    t.reserve(),
                )));
            }
            None => {}
        }
    }
    if let Some(holder) = s.turn_holder() {
        for (who, ip) in s.spent_by_others() {
            lines.push(Line::from(format!(
                "• {} spent {ip} IP in {}'s turn",
                s.name(who),
                s.name(holder)
            )));
        }
    }
    // SR5: the attack waiting for the GM, defenses taken, weapons (rounds left) and armor.
    if let Some(p) = crate::report::sr5::pending_text(s) {
        lines.insert(0, Line::styled(format!("⚔ {}", escaped(&p)), t.reserve()));
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
            let line = format!("⚙ {}: {text}", c.name);
            lines.push(Line::styled(escaped(&line).into_owned(), t.dim()));
        }
    }
    if lines.is_empty() {
        lines.push(Line::styled("nobody Downed, hurt or waiting", t.dim()));
    }
    lines.truncate(inner.height as usize);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}
