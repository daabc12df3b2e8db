//! The recap players want (`srtrack export`): the fight told section by section (rounds and
//! passes, or narration turns), who did what, and a short summary. Read from the events, never
//! from the log's text; Markdown, with every text from input escaped. Each rule system tells its
//! own events and summary lines from its module in `report/`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::encounter::System;
use crate::encounter::{
    ActionUse, Combatant, CombatantId, Encounter, Event, Phase, Release, Skipped, State,
};
use crate::rules::Glitch;
use crate::text::markdown as md;

/// A name from the save, bold and escaped.
fn bold(state: &State, id: CombatantId) -> String {
    format!("**{}**", md(state.name(id)))
}

/// What one event adds to the recap.
pub(super) enum Told {
    /// Something a character did (or that happened in its turn): joined with the character's
    /// other deeds of the same run on one line.
    Deed { by: CombatantId, what: String },
    /// A line of its own.
    Line(String),
    /// A turn (or a narration) begins: deeds before it and in it are told on separate lines.
    Turn,
    /// A part of a section begins (a pass): its deeds are listed under it.
    Part(String),
    /// A section begins (a round, a narration turn), perhaps on its first part.
    Section {
        heading: String,
        part: Option<String>,
    },
}

/// One round or narration turn (or the set-up before the first), as lines under part headings.
#[derive(Default)]
struct Section {
    heading: Option<String>,
    lines: Vec<String>,
}

/// Everything the recap gathers while folding the history. Each system's module tells its own
/// events into it and reads its tallies back for the summary.
#[derive(Default)]
pub(super) struct Recap {
    sections: Vec<Section>,
    /// The run of deeds being gathered: whose, and what.
    run: Option<(CombatantId, Vec<String>)>,
    /// The part heading still to print: printed only if the part holds anything.
    pending_part: Option<String>,
    pub(super) downs: Vec<String>,
    pub(super) edge: BTreeMap<CombatantId, u32>,
    /// Boxes taken, by character and track (its label).
    pub(super) damage: BTreeMap<(CombatantId, &'static str), u32>,
    pub(super) fired: u32,
    pub(super) delays_taken: u32,
    /// Shadowrun: Anarchy's Plot Points and narrations.
    pub(super) anarchy: super::anarchy::Tally,
    /// Those hidden from the players (`hide`) when the recap is made, and their names as the
    /// recap writes them: left out of it altogether.
    hidden: Vec<(CombatantId, String)>,
    /// The names of those the players see, as the recap writes them: a hidden "Dog" is not
    /// named by a line about a seen "Hell Dog".
    seen_names: Vec<String>,
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
        if let Some(part) = self.pending_part.take() {
            self.section().lines.push(format!("\n*{part}*\n"));
        }
        self.section().lines.push(line);
    }

    fn flush(&mut self, state: &State) {
        if let Some((who, deeds)) = self.run.take() {
            self.push_line(format!("- {}: {}", bold(state, who), deeds.join("; ")));
        }
    }

    /// The names of those the players see among `ids`, as `name` writes them; `None` if none.
    pub(super) fn seen(
        &self,
        ids: &[CombatantId],
        name: impl Fn(CombatantId) -> String,
    ) -> Option<Vec<String>> {
        let names: Vec<String> = ids
            .iter()
            .filter(|id| !self.hides(**id))
            .map(|id| name(*id))
            .collect();
        (!names.is_empty()).then_some(names)
    }

    /// Whether the recap leaves this character out: hidden from the players.
    pub(super) fn hides(&self, id: CombatantId) -> bool {
        self.hidden.iter().any(|(h, _)| *h == id)
    }

    /// Whether a text of the recap names a hidden character (a test against it, a delay
    /// waiting on it): such a line or deed is left out whole.
    fn names_hidden(&self, text: &str) -> bool {
        self.hidden
            .iter()
            .any(|(_, name)| names(text, name, &self.seen_names))
    }

    pub(super) fn tell(&mut self, told: Told, state: &State) {
        match told {
            Told::Deed { by, what } if self.hides(by) || self.names_hidden(&what) => {}
            Told::Line(line) if self.names_hidden(&line) => {}
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
            Told::Part(part) => {
                self.flush(state);
                self.pending_part = Some(part);
            }
            Told::Section { heading, part } => {
                self.flush(state);
                self.pending_part = part;
                self.sections.push(Section {
                    heading: Some(heading),
                    lines: Vec::new(),
                });
            }
        }
    }
}

/// Whether `text` holds `name` whole: not inside a longer word or number ("Ganger 1" is not
/// in "Ganger 12"), nor inside one of the `others` names held whole ("Dog" is not in "Hell
/// Dog").
fn names(text: &str, name: &str, others: &[String]) -> bool {
    let within_another = |at: usize| {
        others.iter().any(|other| {
            other.len() > name.len()
                && whole_at(text, other).any(|o| o <= at && at + name.len() <= o + other.len())
        })
    };
    whole_at(text, name).any(|i| !within_another(i))
}

/// Where `text` holds `name` whole, as byte offsets.
fn whole_at<'a>(text: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(name).filter_map(move |(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        (!before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric))
            .then_some(i)
    })
}

/// Who the deeds with no doer of their own belong to now: the character whose turn it is, or
/// who narrates.
fn doer(state: &State) -> Option<CombatantId> {
    state
        .turn()
        .map(|t| t.who)
        .or_else(|| state.narration().and_then(|n| n.narrator()).map(|n| n.who))
}

/// A deed with no doer of its own (damage, healing), told in the turn it happened in:
/// "Ana: Fire Gun; Ganger 1 takes 6 Physical".
/// A deed of the character whose run of deeds is being told stays in that run ("Bob: spends a
/// Plot Point: First Aid; recovers 1 Armor").
pub(super) fn in_turn_of(rec: &Recap, before: &State, who: CombatantId, what: &str) -> Told {
    let own_run = rec.run.as_ref().is_some_and(|(r, _)| *r == who);
    // In a hidden character's turn the deed is told as the damaged one's own.
    let by = if own_run {
        who
    } else {
        doer(before).filter(|d| !rec.hides(*d)).unwrap_or(who)
    };
    let what = if by == who {
        what.to_string()
    } else {
        format!("{} {what}", md(before.name(who)))
    };
    Told::Deed { by, what }
}

/// A line told as the log tells it, escaped.
pub(super) fn as_logged(line: &str) -> Told {
    Told::Line(format!("- {}", md(line)))
}

/// Where the fight stood when something happened: " (round 2, pass 3)", " (turn 2)".
fn when(state: &State) -> String {
    if let Some(f) = state.fight() {
        format!(" (round {}, pass {})", f.round, f.pass)
    } else if let Some(n) = state.narration().filter(|n| n.turn > 0) {
        format!(" (turn {})", n.turn)
    } else {
        String::new()
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
    let under_way = before.fight().is_some() || before.narration().is_some_and(|n| n.turn > 0);
    Some(match event {
        Event::CombatantAdded { id, .. } if under_way => Told::Deed {
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
            let names = rec.seen(who, b)?;
            Told::Line(format!(
                "- Initiative: {} {}",
                names.join(", "),
                md(&super::dice_text(roll))
            ))
        }
        Event::InitiativeRolled { who, roll } => {
            let names = rec.seen(who, b)?;
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
            let names = rec.seen(order, name)?;
            Told::Line(format!("- The fight starts. Order: {}", names.join(", ")))
        }
        Event::Slotted { who, at, .. } => {
            let names = rec.seen(who, b)?;
            // The place before the first the players see.
            let next = before.order.iter().skip(*at).find(|id| !rec.hides(**id));
            let place = match next {
                Some(id) => format!("before {}", name(*id)),
                None => "at the end".into(),
            };
            Told::Line(format!(
                "- {} take{} a place in the order {place}",
                names.join(", "),
                if names.len() == 1 { "s" } else { "" }
            ))
        }
        Event::RoundStarted { round } => Told::Section {
            heading: format!("Round {round}"),
            // A round opens on its first pass without a pass event of its own.
            part: Some("Pass 1".into()),
        },
        Event::PassStarted { pass } => Told::Part(format!("Pass {pass}")),
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
        // Down already, for another cause now (a monitor filled): it did not go down again.
        Event::Downed { who, cause } if before.get(*who).is_some_and(Combatant::is_downed) => {
            Told::Line(format!("- {} stays down ({})", b(*who), cause.label()))
        }
        Event::Downed { who, cause } => {
            if !rec.hides(*who) {
                rec.downs.push(format!("{}{}", b(*who), when(before)));
            }
            Told::Line(format!(
                "- **{} goes down** ({})",
                name(*who),
                cause.label()
            ))
        }
        Event::Revived { who } => Told::Line(format!("- {} is back up", b(*who))),
        Event::Damaged { who, track, boxes } => {
            *rec.damage.entry((*who, track.label())).or_default() += u32::from(*boxes);
            in_turn_of(
                rec,
                before,
                *who,
                &format!("takes {boxes} {}", track.label()),
            )
        }
        Event::Healed { who, track, boxes } => in_turn_of(
            rec,
            before,
            *who,
            &format!("heals {boxes} {}", track.label()),
        ),
        Event::StatusStarted { who, status } if !by_action => Told::Deed {
            by: *who,
            what: format!("now {}", md(&status.name)),
        },
        Event::EncounterEnded => Told::Line("- The encounter ends.".into()),
        // Each system tells its own events: the one gate.
        Event::Sr5(e) => return super::sr5::recap_told(before, e, rec),
        Event::Sr2097(e) => return super::sr2097::recap_told(before, e, rec),
        Event::Anarchy(e) => return super::anarchy::recap_told(before, e, rec),
        _ => return None,
    })
}

/// The recap of an encounter as Markdown, titled with the save's name and creation time.
pub fn markdown(enc: &Encounter, title: &str, created: &str) -> String {
    let mut rec = Recap {
        hidden: enc
            .state()
            .all()
            .filter(|c| c.is_hidden())
            .map(|c| (c.id, md(&c.name)))
            .collect(),
        seen_names: enc
            .state()
            .all()
            .filter(|c| !c.is_hidden())
            .map(|c| md(&c.name))
            .collect(),
        ..Recap::default()
    };
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
    let mut out = cast(enc, title, created, |c| !rec.hides(c.id));
    for s in &rec.sections {
        if s.lines.is_empty() {
            continue;
        }
        match &s.heading {
            Some(h) => {
                let _ = writeln!(out, "## {h}");
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
    summary(&mut out, &rec, &state, enc.system());
    out
}

/// The title, the system and start, and the cast: how a recap and a log begin.
pub fn heading(enc: &Encounter, title: &str, created: &str) -> String {
    cast(enc, title, created, |_| true)
}

/// The heading with the cast `shown` lets in.
fn cast(enc: &Encounter, title: &str, created: &str, shown: impl Fn(&Combatant) -> bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", md(title));
    let _ = writeln!(out, "*{} · started {}*\n", enc.system(), md(created));
    let state = enc.state();
    if state.combatants.is_empty() {
        return out;
    }
    out.push_str("## Cast\n\n");
    // An Anarchy table: what each player holds, or held when the encounter ended.
    let table = enc.table_kept();
    for c in state.all().filter(|c| shown(c)) {
        let mut notes = vec![c.side.label().to_string()];
        if let Some(points) = table
            .as_deref()
            .and_then(|n| super::anarchy::cast_points(n, c, &enc.rules().anarchy))
        {
            notes.push(points);
        }
        let monitors = super::condition_text(c, state, enc.rules());
        if !monitors.is_empty() {
            notes.push(monitors);
        }
        if let Some(n) = table.as_deref() {
            notes.extend(super::anarchy::cast_tracks(n, c));
        }
        if c.downed.is_some() {
            notes.push(match super::dying_of(state, c, enc.rules()) {
                Some(n) => format!("Downed, dying of injury {n}"),
                None => "Downed".into(),
            });
        }
        if !c.is_present() {
            notes.push("left the fight".into());
        }
        let _ = writeln!(out, "- **{}** ({})", md(&c.name), notes.join(", "));
    }
    out.push('\n');
    out
}

/// The summary lists: "nobody" when empty.
pub(super) fn list(items: &[String]) -> String {
    if items.is_empty() {
        "nobody".to_string()
    } else {
        items.join(", ")
    }
}

/// "Ana 2, Bob 1": a count for each character.
pub(super) fn counts(state: &State, counts: &BTreeMap<CombatantId, u32>) -> Vec<String> {
    counts
        .iter()
        .filter(|(id, _)| !state.get(**id).is_some_and(Combatant::is_hidden))
        .map(|(id, n)| format!("{} {n}", md(state.name(*id))))
        .collect()
}

/// The summary line of the initiative-pass machine (SR5 and Shadowrun 2097).
pub(super) fn passes_line(rec: &Recap) -> String {
    format!(
        "- Delays acted on: {}; readies fired: {}.",
        rec.delays_taken, rec.fired
    )
}

/// Who went down, the Edge and damage each took or spent, where the fight stands, and the
/// rule system's own lines.
fn summary(out: &mut String, rec: &Recap, state: &State, system: System) {
    out.push_str("## In short\n\n");
    let where_ = match &state.phase {
        Phase::Setup => "not started yet".to_string(),
        Phase::Fight(f) => format!("under way: round {}, pass {}", f.round, f.pass),
        Phase::Narration(n) if n.turn == 0 => "not started yet".to_string(),
        Phase::Narration(n) => format!("under way: narration turn {}", n.turn),
        Phase::Ended { round } => format!("ended in {} {round}", system.round_word()),
    };
    let _ = writeln!(out, "- The fight is {where_}.");
    let _ = writeln!(out, "- Went down: {}.", list(&rec.downs));
    let _ = writeln!(out, "- Edge spent: {}.", list(&counts(state, &rec.edge)));
    let damage: Vec<String> = rec
        .damage
        .iter()
        .filter(|((id, _), _)| !rec.hides(*id))
        .map(|((id, track), n)| format!("{} {n} {track}", md(state.name(*id))))
        .collect();
    let _ = writeln!(out, "- Damage taken: {}.", list(&damage));
    // Each system's own lines: the one place the recap names a system.
    let own = match system {
        System::Sr5 => super::sr5::in_short(rec),
        System::Sr2097 => super::sr2097::in_short(rec),
        System::Anarchy => super::anarchy::in_short(rec, state),
    };
    for line in own {
        let _ = writeln!(out, "{line}");
    }
}
