//! The recap players want (`srtrack export`): per round and pass, who did what, who went down,
//! Edge spent, delays and readies fired, and the tests with their results. Read from the events,
//! never from the log's text; Markdown, with every text from input escaped.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::encounter::system::sr2097::Sr2097Event;
use crate::encounter::{ActionUse, CombatantId, Encounter, Event, Phase, Release, Skipped, State};
use crate::rules::Glitch;
use crate::text::markdown as md;

/// A name from the save, bold and escaped.
fn bold(state: &State, id: CombatantId) -> String {
    format!("**{}**", md(state.name(id)))
}

/// What one event adds to the recap.
enum Told {
    /// Something a character did (or that happened in its turn): joined with the character's
    /// other deeds of the same run on one line.
    Deed {
        by: CombatantId,
        what: String,
    },
    /// A line of its own.
    Line(String),
    /// A turn begins: deeds before it and in it are told on separate lines.
    Turn,
    /// A pass begins: its deeds are listed under it.
    Pass(u8),
    Round(u32),
}

/// One round (or the set-up before the first), as lines under pass headings.
#[derive(Default)]
struct Section {
    round: Option<u32>,
    lines: Vec<String>,
}

/// Everything the recap gathers while folding the history.
#[derive(Default)]
struct Recap {
    sections: Vec<Section>,
    /// The run of deeds being gathered: whose, and what.
    run: Option<(CombatantId, Vec<String>)>,
    /// The pass heading still to print: printed only if the pass holds anything.
    pending_pass: Option<u8>,
    downs: Vec<String>,
    edge: BTreeMap<CombatantId, u32>,
    /// Boxes taken, by character and track (its label).
    damage: BTreeMap<(CombatantId, &'static str), u32>,
    fired: u32,
    delays_taken: u32,
}

impl Recap {
    fn section(&mut self) -> &mut Section {
        if self.sections.is_empty() {
            self.sections.push(Section::default());
        }
        let last = self.sections.len() - 1;
        &mut self.sections[last]
    }

    fn push_line(&mut self, line: String) {
        if let Some(pass) = self.pending_pass.take() {
            self.section().lines.push(format!("\n*Pass {pass}*\n"));
        }
        self.section().lines.push(line);
    }

    fn flush(&mut self, state: &State) {
        if let Some((who, deeds)) = self.run.take() {
            self.push_line(format!("- {}: {}", bold(state, who), deeds.join("; ")));
        }
    }

    fn tell(&mut self, told: Told, state: &State) {
        match told {
            Told::Deed { by, what } => match &mut self.run {
                Some((who, deeds)) if *who == by => deeds.push(what),
                _ => {
                    self.flush(state);
                    self.run = Some((by, vec![what]));
                }
            },
            Told::Line(line) => {
                self.flush(state);
                self.push_line(line);
            }
            Told::Turn => self.flush(state),
            Told::Pass(pass) => {
                self.flush(state);
                self.pending_pass = Some(pass);
            }
            Told::Round(round) => {
                self.flush(state);
                // A round opens on its first pass without a pass event of its own.
                self.pending_pass = Some(1);
                self.sections.push(Section {
                    round: Some(round),
                    lines: Vec::new(),
                });
            }
        }
    }
}

/// An action as players name it: its catalogue name, or "a Simple action".
fn action_name(a: &ActionUse) -> String {
    match &a.name {
        Some(n) => md(n),
        None => format!("a {} action", md(&a.kind)),
    }
}

fn roll_result(hits: u8, glitch: Glitch) -> String {
    let hits = if hits == 1 {
        "1 hit".to_string()
    } else {
        format!("{hits} hits")
    };
    match glitch {
        Glitch::None => hits,
        Glitch::Glitch => format!("{hits}, glitch"),
        Glitch::Critical => format!("{hits}, critical glitch"),
    }
}

/// What the recap says of one event, given the state before it and whether the entry it
/// belongs to spent an action (a status an action started is told by the action).
fn told(before: &State, event: &Event, by_action: bool, rec: &mut Recap) -> Option<Told> {
    let b = |id| bold(before, id);
    let name = |id| md(before.name(id));
    let fighting = before.fight().is_some();
    // Deeds with no doer of their own (damage, healing) belong to the turn they happened in:
    // "Ana: Fire Gun; Ganger 1 takes 6 Physical".
    let in_turn_of = |who: CombatantId, what: &str| {
        let by = before.turn().map_or(who, |t| t.who);
        let what = if by == who {
            what.to_string()
        } else {
            format!("{} {what}", name(who))
        };
        Told::Deed { by, what }
    };
    Some(match event {
        Event::CombatantAdded { id, .. } if fighting => Told::Deed {
            by: *id,
            what: "joins the fight".into(),
        },
        Event::CombatantEdited { id, name: new, .. } if before.name(*id) != new => {
            Told::Line(format!("- {} is now **{}**", b(*id), md(new)))
        }
        Event::CombatantRemoved { id, reason } => Told::Deed {
            by: *id,
            what: match reason {
                Some(r) => format!("leaves the fight ({})", md(r)),
                None => "leaves the fight".into(),
            },
        },
        // A 2097 score is a sum of dice, told as the log tells it.
        Event::InitiativeRolled { who, roll } if !roll.scoring.is_hits() => {
            let names: Vec<String> = who.iter().map(|id| b(*id)).collect();
            Told::Line(format!(
                "- Initiative: {} {}",
                names.join(", "),
                md(&super::dice_text(roll))
            ))
        }
        Event::InitiativeRolled { who, roll } => {
            let names: Vec<String> = who.iter().map(|id| b(*id)).collect();
            let typed = if roll.dice.is_none() {
                ", typed in"
            } else {
                ""
            };
            Told::Line(format!(
                "- Initiative: {} {}{typed}",
                names.join(", "),
                roll_result(roll.hits, roll.glitch)
            ))
        }
        Event::FightStarted { order, .. } => {
            let names: Vec<String> = order.iter().map(|id| name(*id)).collect();
            Told::Line(format!("- The fight starts. Order: {}", names.join(", ")))
        }
        Event::Slotted { who, at, .. } => {
            let names: Vec<String> = who.iter().map(|id| b(*id)).collect();
            let place = match before.order.get(*at) {
                Some(id) => format!("before {}", name(*id)),
                None => "at the end".into(),
            };
            Told::Line(format!(
                "- {} take{} a place in the order {place}",
                names.join(", "),
                if names.len() == 1 { "s" } else { "" }
            ))
        }
        Event::RoundStarted { round } => Told::Round(*round),
        Event::PassStarted { pass } => Told::Pass(*pass),
        Event::TurnStarted { .. } | Event::TurnResumed { .. } => Told::Turn,
        Event::DelayTurnStarted { who, trigger } => {
            rec.delays_taken += 1;
            rec.tell(Told::Turn, before);
            Told::Deed {
                by: *who,
                what: format!("acts on the delay after {}", name(*trigger)),
            }
        }
        Event::ActionSpent { who, action, .. } => {
            let out_of_turn = before.turn().is_none_or(|t| t.who != *who);
            Told::Deed {
                by: *who,
                what: if action.interrupt && out_of_turn {
                    format!("interrupts with {}", action_name(action))
                } else {
                    action_name(action)
                },
            }
        }
        Event::EdgeSpent {
            who,
            ip_gained,
            edge_spent,
        } => {
            *rec.edge.entry(*who).or_default() += u32::from(*edge_spent);
            Told::Deed {
                by: *who,
                what: format!("spends {edge_spent} Edge for +{ip_gained} IP"),
            }
        }
        Event::DelayDeclared { who, ip, trigger } => Told::Deed {
            by: *who,
            what: match trigger {
                Some(t) => format!("holds {ip} IP until after {}", name(*t)),
                None => format!("holds {ip} IP"),
            },
        },
        Event::DelayTriggerNamed { who, trigger } => Told::Deed {
            by: *who,
            what: format!("will act after {}", name(*trigger)),
        },
        Event::ReadyDeclared { who, trigger, .. } => {
            let actions: Vec<String> = trigger.actions.iter().map(action_name).collect();
            Told::Deed {
                by: *who,
                what: format!(
                    "readies {} for when {}",
                    actions.join(", "),
                    md(&trigger.text)
                ),
            }
        }
        Event::ReadyFired { who, trigger, .. } => {
            rec.fired += 1;
            Told::Deed {
                by: *who,
                what: format!("the ready fires ({})", md(&trigger.text)),
            }
        }
        Event::ReserveReleased {
            who,
            why: Release::NextTurn | Release::NextTurnNewRound,
            ..
        } => Told::Deed {
            by: *who,
            what: "the ready lapses".into(),
        },
        Event::InitiativeChanged {
            who,
            relative,
            target,
            skipped,
        } => Told::Deed {
            by: *who,
            what: format!(
                "moves {} {} in the order{}",
                relative.word(),
                name(*target),
                if *skipped == Skipped::Lost {
                    " (turn lost this pass)"
                } else {
                    ""
                }
            ),
        },
        Event::TurnDeferred {
            who,
            relative,
            target,
        } => Told::Deed {
            by: *who,
            what: format!("waits to act {} {}", relative.word(), name(*target)),
        },
        Event::Downed { who, cause } => {
            let when = match before.fight() {
                Some(f) => format!(" (round {}, pass {})", f.round, f.pass),
                None => String::new(),
            };
            rec.downs.push(format!("{}{when}", b(*who)));
            Told::Line(format!(
                "- **{} goes down** ({})",
                name(*who),
                cause.label()
            ))
        }
        Event::Revived { who } => Told::Line(format!("- {} is back up", b(*who))),
        Event::Damaged { who, track, boxes } => {
            *rec.damage.entry((*who, track.label())).or_default() += u32::from(*boxes);
            in_turn_of(*who, &format!("takes {boxes} {}", track.label()))
        }
        Event::Healed { who, track, boxes } => {
            in_turn_of(*who, &format!("heals {boxes} {}", track.label()))
        }
        Event::StatusStarted { who, status } if !by_action => Told::Deed {
            by: *who,
            what: format!("now {}", md(&status.name)),
        },
        Event::EncounterEnded => Told::Line("- The encounter ends.".into()),
        // Shadowrun 2097: Edge spent or burned counts with the rest; an injury is damage taken
        // (its points, on its track); Edge's other uses are told as the log tells them.
        Event::Sr2097(e) => {
            match e {
                Sr2097Event::EdgeSpent { who, edge, .. }
                | Sr2097Event::EdgeBurned { who, edge, .. } => {
                    *rec.edge.entry(*who).or_default() += u32::from(*edge);
                }
                Sr2097Event::DamageRolled {
                    target,
                    injury: Some(i),
                    ..
                } => {
                    *rec.damage.entry((*target, i.track.label())).or_default() +=
                        u32::from(i.damage);
                }
                _ => {}
            }
            match e {
                Sr2097Event::EdgeSpent { .. }
                | Sr2097Event::EdgeBurned { .. }
                | Sr2097Event::InjuryLessened { .. }
                | Sr2097Event::EdgeRecovered { .. }
                | Sr2097Event::Checked { .. }
                | Sr2097Event::DamageRolled { .. }
                | Sr2097Event::InitiativeBoosted { .. } => Told::Line(format!(
                    "- {}",
                    md(&super::line_of(before, event).unwrap_or_default())
                )),
                _ => return None,
            }
        }
        // Each system's tests (and whatever else a test is) tell their result as in the log.
        other if super::is_test_result(other) => Told::Line(format!(
            "- {}",
            md(&super::line_of(before, other).unwrap_or_default())
        )),
        _ => return None,
    })
}

/// The recap of an encounter as Markdown, titled with the save's name and creation time.
pub fn markdown(enc: &Encounter, title: &str, created: &str) -> String {
    let mut rec = Recap::default();
    let mut state = enc.empty_state();
    for entry in enc.applied() {
        let by_action = entry
            .events
            .iter()
            .any(|e| matches!(e, Event::ActionSpent { .. }));
        for event in &entry.events {
            if let Some(t) = told(&state, event, by_action, &mut rec) {
                rec.tell(t, &state);
            }
            state.apply(event, enc.rules());
        }
    }
    rec.flush(&state);
    let mut out = heading(enc, title, created);
    for s in &rec.sections {
        if s.lines.is_empty() {
            continue;
        }
        match s.round {
            Some(r) => {
                let _ = writeln!(out, "## Round {r}");
            }
            None => out.push_str("## Before the fight\n"),
        }
        let first_is_pass = s.lines.first().is_some_and(|l| l.starts_with('\n'));
        if !first_is_pass {
            out.push('\n');
        }
        for l in &s.lines {
            let _ = writeln!(out, "{l}");
        }
        out.push('\n');
    }
    summary(&mut out, &rec, &state);
    out
}

/// The title, the system and start, and the cast: how a recap and a log begin.
pub fn heading(enc: &Encounter, title: &str, created: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", md(title));
    let _ = writeln!(out, "*{} · started {}*\n", enc.system(), md(created));
    let state = enc.state();
    if state.combatants.is_empty() {
        return out;
    }
    out.push_str("## Cast\n\n");
    for c in state.all() {
        let mut notes = vec![c.side.label().to_string()];
        let monitors = super::monitors_text(c, enc.rules());
        if !monitors.is_empty() {
            notes.push(monitors);
        }
        if c.downed.is_some() {
            notes.push("Downed".into());
        }
        if !c.is_present() {
            notes.push("left the fight".into());
        }
        let _ = writeln!(out, "- **{}** ({})", md(&c.name), notes.join(", "));
    }
    out.push('\n');
    out
}

/// Who went down, the Edge and damage each took or spent, and where the fight stands.
fn summary(out: &mut String, rec: &Recap, state: &State) {
    out.push_str("## In short\n\n");
    let where_ = match &state.phase {
        Phase::Setup => "not started yet".to_string(),
        Phase::Fight(f) => format!("under way: round {}, pass {}", f.round, f.pass),
        Phase::Narration(n) => format!("under way: narration turn {}", n.turn),
        Phase::Ended { round } => format!("ended in round {round}"),
    };
    let _ = writeln!(out, "- The fight is {where_}.");
    let list = |items: Vec<String>| {
        if items.is_empty() {
            "nobody".to_string()
        } else {
            items.join(", ")
        }
    };
    let _ = writeln!(out, "- Went down: {}.", list(rec.downs.clone()));
    let edge: Vec<String> = rec
        .edge
        .iter()
        .map(|(id, n)| format!("{} {n}", md(state.name(*id))))
        .collect();
    let _ = writeln!(out, "- Edge spent: {}.", list(edge));
    let damage: Vec<String> = rec
        .damage
        .iter()
        .map(|((id, track), n)| format!("{} {n} {track}", md(state.name(*id))))
        .collect();
    let _ = writeln!(out, "- Damage taken: {}.", list(damage));
    let _ = writeln!(
        out,
        "- Delays acted on: {}; readies fired: {}.",
        rec.delays_taken, rec.fired
    );
}
