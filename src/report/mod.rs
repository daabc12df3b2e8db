//! Plain-text views of an encounter: log lines and the `show` page. No terminal code.

pub mod recap;
pub mod sr2097;
pub mod sr5;

use std::fmt::Write as _;

use crate::catalogue::{Catalogue, Effect};

pub mod anarchy;
use crate::encounter::system::System;
use crate::encounter::{
    Combatant, CombatantId, Encounter, Entry, Event, PaidFrom, PassMark, Phase, Release, Reserve,
    Skipped, State, StatusEnd, StatusEnded, TurnKind,
};
use crate::encounter::{Unit, Visibility};
use crate::rules::initiative::{InitiativeRoll, RollOff, Scoring};
use crate::rules::{Glitch, HouseRules};

fn hits(n: u8) -> String {
    if n == 1 {
        "1 hit".into()
    } else {
        format!("{n} hits")
    }
}

fn dice_text(roll: &InitiativeRoll) -> String {
    noted_dice_text(roll, "")
}

/// An initiative roll's words with a note after its pool (`5 dice (7, wounds -2) [...]`).
fn noted_dice_text(roll: &InitiativeRoll, note: &str) -> String {
    if let Scoring::Sum { bonus, total, from } = roll.scoring {
        let faces: Vec<String> = roll.dice.iter().flatten().map(u8::to_string).collect();
        let typed = match from {
            crate::rules::sr2097::DiceFrom::Rolled => "",
            crate::rules::sr2097::DiceFrom::Typed => " typed in",
        };
        return format!(
            "{}d6 [{}]{typed} + {bonus} = {total}",
            roll.pool,
            faces.join(" ")
        );
    }
    let glitch = match roll.glitch {
        Glitch::None => "",
        Glitch::Glitch => ", glitch",
        Glitch::Critical => ", critical glitch",
    };
    match &roll.dice {
        Some(d) => {
            let faces: Vec<String> = d.iter().map(u8::to_string).collect();
            format!(
                "{} dice{note} [{}] → {}{glitch}",
                roll.pool,
                faces.join(" "),
                hits(roll.hits)
            )
        }
        None => format!(
            "typed in: {} on {} dice{note}{glitch}",
            hits(roll.hits),
            roll.pool
        ),
    }
}

/// When a status ends, in words.
pub fn status_end_text(name: &str, end: StatusEnd, state: &State, catalogue: &Catalogue) -> String {
    // At an Anarchy table a narration is what a turn is elsewhere, and a turn what a round is:
    // after the end too, when the table is gone.
    if !state.system.plays_in_passes() {
        match end {
            StatusEnd::EndOfTurn { serial } => {
                let narrator = state.narration().and_then(|n| n.narrator());
                return match narrator.filter(|x| x.serial == serial) {
                    Some(x) => format!("until the end of {}'s narration", state.name(x.who)),
                    None => "until the end of this narration".into(),
                };
            }
            StatusEnd::EndOfNextTurn => return "until the end of their next narration".into(),
            StatusEnd::EndOfRound => return "until the end of the turn".into(),
            StatusEnd::OtherAction | StatusEnd::UntilCleared => {}
        }
    }
    match end {
        StatusEnd::EndOfTurn { serial } => match state.turn() {
            Some(t) if t.serial == serial => {
                format!("until the end of {}'s turn", state.name(t.who))
            }
            _ => "until the end of this turn".into(),
        },
        StatusEnd::EndOfNextTurn => "until the end of their next turn".into(),
        StatusEnd::EndOfRound => "until the end of the round".into(),
        StatusEnd::OtherAction => "until another action".into(),
        StatusEnd::UntilCleared => until_ended(name, catalogue),
    }
}

/// How a status that lasts until it is ended ends, in words: by the catalogue's action that
/// ends it (`until Stand Up`), else when the GM clears it. The log, the status pane and `show`
/// all say it so.
pub fn until_ended(name: &str, catalogue: &Catalogue) -> String {
    catalogue
        .ender_of(name)
        .map_or_else(|| "until cleared".into(), |a| format!("until {}", a.name))
}

/// What the wound modifier took from a rolled initiative pool, as a test's pool says it
/// (` (7, wounds -2)`), from the roller's sheet and damage just before: a roll of the whole pool
/// (unhurt, typed in, or from a save before wounds counted there) has no note.
fn wound_note(
    before: &State,
    who: &[CombatantId],
    roll: &InitiativeRoll,
    rules: &HouseRules,
) -> String {
    let Some(c) = who.first().and_then(|id| before.get(*id)) else {
        return String::new();
    };
    let base = c.sheet.pool();
    let wound = rules.wound_modifier(c.damage.physical, c.damage.stun);
    // A roll typed in before the table's hits took wounds off has the sheet's pool: no note.
    if !roll.scoring.is_hits() || wound == 0 || roll.pool >= base {
        return String::new();
    }
    format!(" ({base}, wounds {wound})")
}

/// ` Body B Willpower W`, each when the sheet has it: the attributes that size the monitors.
fn push_monitor_attributes(out: &mut String, sheet: &crate::encounter::Sheet) {
    if let Some(b) = sheet.body {
        let _ = write!(out, " Body {b}");
    }
    if let Some(w) = sheet.willpower {
        let _ = write!(out, " Willpower {w}");
    }
}

/// The log line of one event, given the state just before it; `None` for bookkeeping events.
/// Texts from input in it (statuses, triggers, reasons) are escaped.
pub fn log_line(
    before: &State,
    event: &Event,
    rules: &HouseRules,
    catalogue: &Catalogue,
) -> Option<String> {
    line_of(before, event, rules, catalogue).map(|l| crate::text::escaped(&l).into_owned())
}

fn line_of(
    before: &State,
    event: &Event,
    rules: &HouseRules,
    catalogue: &Catalogue,
) -> Option<String> {
    let n = |id| before.name(id).to_string();
    Some(match event {
        Event::GroupFormed {
            name, shared_roll, ..
        } => {
            if *shared_roll {
                format!("Group {name} forms (one shared initiative roll)")
            } else {
                format!("Group {name} forms")
            }
        }
        Event::CombatantAdded {
            name, side, sheet, ..
        } => {
            // Each system says what of the sheet it plays with.
            let plays = match before.system {
                System::Sr5 => sr5::sheet_joins_text(sheet),
                System::Sr2097 => sr2097::sheet_joins_text(sheet, &rules.sr2097),
                System::Anarchy => anarchy::sheet_joins_text(sheet),
            };
            format!("{name} joins ({}, {plays})", side.label())
        }
        Event::CombatantEdited { id, name, .. } => {
            if *name == before.name(*id) {
                format!("{name}'s sheet is edited")
            } else {
                format!("{} is now {name}", n(*id))
            }
        }
        Event::CombatantRemoved { id, reason } => match reason {
            Some(r) => format!("{} leaves the fight ({r})", n(*id)),
            None => format!("{} leaves the fight", n(*id)),
        },
        Event::InitiativeRolled { who, roll } => {
            let names: Vec<String> = who.iter().map(|id| n(*id)).collect();
            format!(
                "{} initiative: {}",
                names.join(", "),
                noted_dice_text(roll, &wound_note(before, who, roll, rules))
            )
        }
        Event::FightStarted { order, rolloffs } => {
            let names: Vec<String> = order.iter().map(|id| n(*id)).collect();
            let mut line = format!("The fight starts. Order: {}", names.join(", "));
            rolloff_text(&mut line, before, rolloffs);
            line
        }
        Event::Slotted {
            who,
            at,
            rolloffs,
            slot_passed,
        } => {
            let names: Vec<String> = who.iter().map(|id| n(*id)).collect();
            let place = match before.order.get(*at) {
                Some(id) => format!("before {}", n(*id)),
                None => "at the end of the order".into(),
            };
            // A group sharing a roll takes its places together.
            let (takes, acts) = if names.len() > 1 {
                ("take their places", "act")
            } else {
                ("takes a place", "acts")
            };
            let when = if *slot_passed {
                "from the next pass"
            } else {
                "in this pass"
            };
            let mut line = format!("{} {takes} {place}, {acts} {when}", names.join(", "));
            rolloff_text(&mut line, before, rolloffs);
            line
        }
        Event::RoundStarted { round } => format!("── Round {round} ── IP reset to starting pools"),
        Event::PassStarted { pass } => format!("── Pass {pass} ──"),
        Event::TurnStarted { who, ip_gained } => {
            let ip = before
                .get(*who)
                .map_or(0, |c| c.ip)
                .saturating_add(*ip_gained);
            format!("{}'s turn: +{ip_gained} IP, {ip} IP", n(*who))
        }
        Event::TurnResumed { who } => {
            format!("{} takes the skipped turn at the new place", n(*who))
        }
        Event::TurnSkipped { who } => match before.get(*who) {
            Some(c) if !c.is_present() => format!("{}'s slot passes (removed)", c.name),
            _ => format!("{} is Downed: turn skipped", n(*who)),
        },
        Event::TurnEnded { .. } => return None,
        Event::DelayTurnStarted { who, trigger } => {
            let ip = before
                .get(*who)
                .and_then(Combatant::delay)
                .map_or(0, |d| d.0);
            format!(
                "{} acts on the delay after {} ({ip} IP)",
                n(*who),
                n(*trigger)
            )
        }
        Event::ActionSpent {
            who,
            action,
            paid_from,
            ..
        } => {
            let out_of_turn = before.turn().is_none_or(|t| t.who != *who);
            let how = match (action.interrupt, out_of_turn, paid_from) {
                (true, true, _) => " interrupts with",
                (_, _, PaidFrom::Reserve) => " (reserve):",
                _ => ":",
            };
            format!("{}{how} {}", n(*who), action.label())
        }
        Event::EdgeSpent {
            who,
            ip_gained,
            edge_spent,
        } => format!("{} spends {edge_spent} Edge for +{ip_gained} IP", n(*who)),
        Event::DelayDeclared { who, ip, trigger } => match trigger {
            Some(t) => format!("{} delays {ip} IP until after {}", n(*who), n(*t)),
            None => format!("{} delays {ip} IP (trigger to be named)", n(*who)),
        },
        Event::DelayTriggerNamed { who, trigger } => {
            format!("{}'s delay now waits on {}", n(*who), n(*trigger))
        }
        Event::ReadyDeclared { who, ip, trigger } => {
            let actions: Vec<String> = trigger
                .actions
                .iter()
                .map(crate::encounter::ActionUse::label)
                .collect();
            format!(
                "{} readies ({ip} IP): when {} → {}",
                n(*who),
                trigger.text,
                actions.join(", ")
            )
        }
        Event::ReadyFired {
            who,
            trigger,
            timing,
        } => format!(
            "{}'s ready fires (when {}), resolved {} the trigger",
            n(*who),
            trigger.text,
            timing.word()
        ),
        Event::ReserveReleased { who, returned, why } => {
            // Which reserve lapses the event does not say: the one held just before it does.
            let held = match before.get(*who).and_then(|c| c.reserve.as_ref()) {
                Some(Reserve::Delay { .. }) => "delay",
                Some(Reserve::Ready { .. }) => "ready",
                None => "delay or ready",
            };
            let who = n(*who);
            match why {
                Release::NextTurn => format!("{who}'s ready lapses: {returned} IP back"),
                Release::SubTurnEnded | Release::Fired if *returned == 0 => return None,
                Release::SubTurnEnded => format!("{who}'s unspent delay: {returned} IP back"),
                Release::Fired => format!("{who}'s ready leaves {returned} IP: back to the pool"),
                Release::PassEnded => {
                    format!("{who}'s delay lapses with the pass: {returned} IP back")
                }
                Release::RoundEnded => format!("{who}'s reserved IP are lost with the round"),
                Release::NextTurnNewRound => {
                    format!("{who}'s ready lapses: its IP were lost with the last round's pool")
                }
                Release::Downed => {
                    format!("{who}'s {held} lapses (Downed): {returned} IP back")
                }
                Release::Removed => format!("{who}'s {held} lapses (removed)"),
                Release::FiredNewRound => format!(
                    "{who}'s ready leaves the rest of its IP: lost with the last round's pool"
                ),
                Release::DownedNewRound => format!(
                    "{who}'s ready lapses (Downed): its IP were lost with the last round's pool"
                ),
            }
        }
        Event::InitiativeChanged {
            who,
            relative,
            target,
            skipped,
        } => {
            let what = match skipped {
                Skipped::Deferred => "takes the skipped turn there",
                Skipped::Lost => "the turn is lost for this pass",
            };
            format!(
                "{} changes initiative to {} {}: {what}",
                n(*who),
                relative.word(),
                n(*target)
            )
        }
        Event::TurnDeferred {
            who,
            relative,
            target,
        } => {
            let when = if before.joined_this_pass(*target) {
                format!("at the pass's end ({} joined this pass)", n(*target))
            } else {
                format!(
                    "when {}'s turn {}",
                    n(*target),
                    match relative {
                        crate::encounter::Relative::Before => "starts",
                        crate::encounter::Relative::After => "ends",
                    }
                )
            };
            format!(
                "{} changes initiative to {} {}: skips the turn, taken {when}",
                n(*who),
                relative.word(),
                n(*target),
            )
        }
        Event::PlaceChanged {
            who,
            relative,
            target,
        } => match before.get(*who) {
            Some(c) if !c.is_present() => format!(
                "{}'s slot moves {} {} (removed)",
                c.name,
                relative.word(),
                n(*target)
            ),
            _ => format!(
                "{} moves {} {} in the order",
                n(*who),
                relative.word(),
                n(*target)
            ),
        },
        Event::Downed { who, cause } => format!("{} is Downed ({})", n(*who), cause.label()),
        Event::Revived { who } => format!("{} is back up", n(*who)),
        Event::VisibilityChanged { who, visibility } => match visibility {
            Visibility::Hidden => format!("{} is hidden from the players", n(*who)),
            Visibility::Shown => format!("{} is shown to the players", n(*who)),
        },
        Event::Damaged { who, track, boxes } => {
            format!("{} takes {boxes} {} damage", n(*who), track.label())
        }
        Event::Healed { who, track, boxes } => {
            format!("{} heals {boxes} {} damage", n(*who), track.label())
        }
        Event::StatusStarted { who, status } => format!(
            "{}: {} ({})",
            n(*who),
            status.name,
            status_end_text(&status.name, status.end, before, catalogue)
        ),
        Event::StatusStacked { who, name, stacks } => format!("{}: {name} ×{stacks}", n(*who)),
        Event::StatusEnded { who, name, why } => {
            let narrating = before.narration().is_some();
            let why = match why {
                StatusEnded::TurnEnded if narrating => "the narration ended",
                StatusEnded::RoundEnded if narrating => "the turn ended",
                StatusEnded::TurnEnded => "the turn ended",
                StatusEnded::RoundEnded => "the round ended",
                StatusEnded::OtherAction => "another action",
                // A 2097 check's owed Disadvantage ends as the check takes it.
                StatusEnded::Action
                    if before.sr2097.is_some()
                        && [
                            &rules.sr2097.check.any_disadvantage,
                            &rules.sr2097.check.related_disadvantage,
                        ]
                        .contains(&name) =>
                {
                    "used up by this check"
                }
                StatusEnded::Action => "an action ended it",
                StatusEnded::Gm => "cleared",
            };
            format!("{}: {name} ends ({why})", n(*who))
        }
        Event::EncounterEnded => "The encounter ends".into(),
        Event::Sr2097(e) => sr2097::log_line(before, e),
        Event::Anarchy(e) => return anarchy::log_line(before, e),
        Event::Sr5(e) => sr5::log_line(before, e),
    })
}

/// Appends every roll-off die: "; roll-off: Ana 5, Bob 2".
fn rolloff_text(line: &mut String, state: &State, rolloffs: &[RollOff<Unit>]) {
    for r in rolloffs {
        for round in &r.rounds {
            let dice: Vec<String> = round
                .iter()
                .map(|(u, d)| format!("{} {d}", unit_name(state, *u)))
                .collect();
            let _ = write!(line, "; roll-off: {}", dice.join(", "));
        }
    }
}

fn unit_name(state: &State, unit: Unit) -> String {
    match unit {
        Unit::One(id) => state.name(id).to_string(),
        Unit::Group(g) => state
            .groups
            .get(g.0 as usize)
            .map_or_else(|| "?".into(), |g| g.name.clone()),
    }
}

/// Every log line of the applied history, oldest first, with the number of its entry.
pub fn log_lines(enc: &Encounter) -> Vec<(usize, String)> {
    let mut state = enc.empty_state();
    let mut out = Vec::new();
    for (i, entry) in enc.applied().iter().enumerate() {
        let (lines, after) = entry_lines(state, entry, enc.rules(), enc.catalogue());
        state = after;
        out.extend(lines.into_iter().map(|l| (i, l)));
    }
    out
}

/// Whether `events[i]` ends a stacked status (Take Aim) because the action right after it is
/// the one the status was built up for (an attack): then the action takes the bonus, and the
/// status is not "lost".
fn status_used(events: &[Event], i: usize) -> bool {
    let Some(Event::StatusEnded {
        who,
        name,
        why: StatusEnded::OtherAction,
    }) = events.get(i)
    else {
        return false;
    };
    events[i + 1..]
        .iter()
        .find(|e| {
            !matches!(
                e,
                Event::StatusEnded {
                    why: StatusEnded::OtherAction,
                    ..
                }
            )
        })
        .is_some_and(|e| {
            matches!(e, Event::ActionSpent { who: w, action, .. } if w == who
                && matches!(&action.effect, Some(Effect::Uses(s)) if s.eq_ignore_ascii_case(name)))
        })
}

/// What a stacked status the action uses adds to it: "with Take Aim +2".
fn bonus_text(state: &State, who: crate::encounter::CombatantId, name: &str) -> String {
    let stacks = state
        .get(who)
        .and_then(|c| c.status(name))
        .map_or(1, |s| s.stacks);
    format!("with {name} +{stacks}")
}

/// An action's line, with the bonus of the stacked status it used ("Fire Gun with Take Aim +2
/// (Simple, 2 IP)").
fn action_line(
    state: &State,
    event: &Event,
    used: Option<&str>,
    rules: &HouseRules,
    catalogue: &Catalogue,
) -> Option<String> {
    let line = log_line(state, event, rules, catalogue)?;
    let (Some(name), Event::ActionSpent { who, action, .. }) = (used, event) else {
        return Some(line);
    };
    let label = action.label();
    let bonus = bonus_text(state, *who, name);
    let with = match &action.name {
        Some(n) => label.replacen(n.as_str(), &format!("{n} {bonus}"), 1),
        None => format!("{label} {bonus}"),
    };
    Some(line.replacen(&label, &with, 1))
}

/// The log lines of one entry, folding its events over the state before it; returns the state after.
pub fn entry_lines(
    mut state: State,
    entry: &Entry,
    rules: &HouseRules,
    catalogue: &Catalogue,
) -> (Vec<String>, State) {
    let mut lines = Vec::new();
    // The stacked status the next action uses, and the state it was held in.
    let mut used: Option<(String, State)> = None;
    for (i, ev) in entry.events.iter().enumerate() {
        if status_used(&entry.events, i) {
            if let Event::StatusEnded { name, .. } = ev {
                used = Some((name.clone(), state.clone()));
            }
        } else if matches!(ev, Event::ActionSpent { .. }) {
            let line = match used.take() {
                Some((name, held)) => action_line(&held, ev, Some(&name), rules, catalogue),
                None => action_line(&state, ev, None, rules, catalogue),
            };
            lines.extend(line);
        } else if let Some(l) = log_line(&state, ev, rules, catalogue) {
            lines.push(l);
        }
        let round_from = matches!(ev, Event::RoundStarted { .. }).then(|| state.clone());
        state.apply(ev, rules);
        if let Some(before) = round_from {
            lines.extend(sr5::lapsed_defense_adds(&before, &state));
        }
    }
    (lines, state)
}

/// What an entry did, in one line for the status line: the actions with what they cost and
/// what is left, statuses lost on the way, and the other events as the log says them.
pub fn news(mut state: State, entry: &Entry, rules: &HouseRules, catalogue: &Catalogue) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut lost: Vec<String> = Vec::new();
    let mut used: Option<(String, State)> = None;
    for (i, ev) in entry.events.iter().enumerate() {
        match ev {
            Event::StatusEnded { name, .. } if status_used(&entry.events, i) => {
                used = Some((name.clone(), state.clone()));
            }
            Event::StatusEnded {
                who,
                name,
                why: StatusEnded::OtherAction,
            } => {
                let stacks = state
                    .get(*who)
                    .and_then(|c| c.status(name))
                    .map_or(1, |s| s.stacks);
                lost.push(if stacks > 1 {
                    format!("{name} ×{stacks} lost")
                } else {
                    format!("{name} lost")
                });
            }
            Event::ActionSpent {
                who,
                action,
                paid_from,
                ..
            } => {
                let bonus = used
                    .take()
                    .map(|(name, held)| format!(" {}", bonus_text(&held, *who, &name)))
                    .unwrap_or_default();
                let name = state.name(*who).to_string();
                let what = action
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("{} action", action.kind));
                let mut after = state.clone();
                after.apply(ev, rules);
                let left = after.get(*who).map_or(0, |c| match paid_from {
                    PaidFrom::Pool => c.ip,
                    PaidFrom::Reserve => c.reserve.as_ref().map_or(0, Reserve::ip),
                });
                let from = match paid_from {
                    PaidFrom::Pool => "",
                    PaidFrom::Reserve => " from the reserve",
                };
                // Out of one's own turn an action can only be an interrupt.
                let own = state.turn().is_some_and(|t| t.who == *who);
                let head = if action.interrupt && !own {
                    format!("{name} interrupts with {what}{bonus}")
                } else {
                    format!("{name}: {what}{bonus}")
                };
                parts.push(format!("{head}: {} IP{from}, {left} left", action.cost));
                parts.append(&mut lost);
            }
            _ => parts.extend(log_line(&state, ev, rules, catalogue)),
        }
        state.apply(ev, rules);
    }
    parts.append(&mut lost);
    if parts.is_empty() {
        entry.text.clone()
    } else {
        parts.join("; ")
    }
}

/// One line per test an entry rolled or took typed in, for a script's reader (`srtrack exec`
/// prints them to standard output). Each rule system's tests join [`is_test_result`].
pub fn result_lines(
    mut state: State,
    entry: &Entry,
    rules: &HouseRules,
    catalogue: &Catalogue,
) -> Vec<String> {
    // What a new attack (or a removal) drops is said first: no test, but a hit the GM counted
    // on may go with it.
    let mut lines: Vec<String> = entry
        .events
        .iter()
        .filter(|e| matches!(e, Event::Sr5(s) if s.is_drop()))
        .filter_map(|e| log_line(&state, e, rules, catalogue))
        .collect();
    if let Some(area) = sr5::area_lines(&state, &entry.events, rules, catalogue) {
        lines.extend(area);
        return lines;
    }
    for ev in &entry.events {
        if is_test_result(ev)
            && let Some(l) = log_line(&state, ev, rules, catalogue)
        {
            lines.push(l);
        }
        state.apply(ev, rules);
    }
    // An SR5 attack that stops for a player's dice says so, as an area attack's line does.
    lines.extend(sr5::waiting_line(&state, &entry.events));
    lines
}

/// Whether an event is the outcome of a test (dice rolled or typed in), not bookkeeping.
fn is_test_result(event: &Event) -> bool {
    match event {
        Event::InitiativeRolled { .. } => true,
        Event::Sr2097(e) => e.is_test_result(),
        Event::Anarchy(e) => anarchy::is_test_result(e),
        // A Close Call changes a test's glitch: said with the tests it follows.
        Event::Sr5(e) => e.is_test() || e.is_close_call(),
        _ => false,
    }
}

/// Where a character stands in this pass, in words; a skipped turn still waiting says where it
/// will be taken (`moved, turn to come after Rook`), the name escaped.
fn mark_text(c: &Combatant, state: &State) -> String {
    match state.pass_mark(c) {
        PassMark::Waiting => String::new(),
        PassMark::Acting => "acting".into(),
        PassMark::Acted => "acted".into(),
        PassMark::Skipped => "skipped".into(),
        PassMark::Deferred { .. } => match c.waits {
            // One who joined this pass has no turn left in it: the turn comes at its end.
            Some(w) if state.joined_this_pass(w.target) => {
                "moved, turn to come at the pass's end".into()
            }
            Some(w) => format!(
                "moved, turn to come {} {}",
                w.relative.word(),
                crate::text::escaped(state.name(w.target))
            ),
            None => "moved, turn to come".into(),
        },
        PassMark::Lost => "moved, turn lost".into(),
        PassMark::Joined => "joined, acts next pass".into(),
    }
}

fn score_text(c: &Combatant) -> String {
    match &c.initiative {
        Some(r) => {
            let g = match r.glitch {
                Glitch::None => "",
                Glitch::Glitch => " (glitch)",
                Glitch::Critical => " (crit. glitch)",
            };
            format!("{}{g}", r.score())
        }
        None => "—".into(),
    }
}

/// One line per condition monitor the combatant has, and the wound modifier they give.
pub fn monitors_text(c: &Combatant, rules: &HouseRules) -> String {
    with_wounds(
        boxes_text(c, rules),
        rules.wound_modifier(c.damage.physical, c.damage.stun),
    )
}

/// "Physical 3/10, wounds -1": the boxes, and a wound modifier other than 0.
fn with_wounds(boxes: String, wound: i32) -> String {
    match (boxes.is_empty(), wound) {
        (_, 0) => boxes,
        (true, w) => format!("wounds {w}"),
        (false, w) => format!("{boxes}, wounds {w}"),
    }
}

/// The condition monitors as the encounter's system reads them: the boxes, and the wound
/// modifier where [`State::wounds_shown`] shows one.
pub fn condition_text(c: &Combatant, state: &State, rules: &HouseRules) -> String {
    with_wounds(boxes_text(c, rules), state.wounds_shown(c, rules))
}

/// The Physical and Stun monitors' boxes, without any modifier.
pub fn boxes_text(c: &Combatant, rules: &HouseRules) -> String {
    let mut parts = Vec::new();
    if let Some(b) = c.sheet.body {
        parts.push(format!(
            "Physical {}/{}",
            c.damage.physical,
            rules.monitor_boxes(b)
        ));
    }
    if let Some(w) = c.sheet.willpower {
        parts.push(format!("Stun {}/{}", c.damage.stun, rules.monitor_boxes(w)));
    }
    parts.join(", ")
}

/// The zero-width joiner and the presentation selectors, which names and command lines have
/// been kept without since entry dropped them (`text::unjoined`); a save from before keeps
/// them as typed. Skin tones stay: two names that differ only by theirs are two combatants.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200d}' | '\u{fe0e}' | '\u{fe0f}')
}

fn without_joiners(text: &mut String) {
    if text.contains(is_joiner) {
        text.retain(|c| !is_joiner(c));
    }
}

/// The encounter as a save made today would hold it: its names and its entries' command lines
/// without emoji joiners, so that `show`, the recap and the log print a combatant of an older
/// save as they print one typed now, and as the command line finds it. Names stay apart: two
/// that differ only in joiners are one name (`same_name`), never two combatants.
pub fn as_kept_now(enc: &Encounter) -> std::borrow::Cow<'_, Encounter> {
    use std::borrow::Cow;
    let joined = |e: &Entry| {
        e.text.contains(is_joiner)
            || e.events.iter().any(|ev| match ev {
                Event::GroupFormed { name, .. }
                | Event::CombatantAdded { name, .. }
                | Event::CombatantEdited { name, .. } => name.contains(is_joiner),
                _ => false,
            })
    };
    // An encounter opened from its tail has entries on disk this cannot rewrite.
    if enc.base() > 0 || !enc.history().iter().any(joined) {
        return Cow::Borrowed(enc);
    }
    let mut history = enc.history().to_vec();
    for entry in &mut history {
        without_joiners(&mut entry.text);
        for event in &mut entry.events {
            if let Event::GroupFormed { name, .. }
            | Event::CombatantAdded { name, .. }
            | Event::CombatantEdited { name, .. } = event
            {
                without_joiners(name);
            }
        }
    }
    let (rules, catalogue) = enc.shared();
    Cow::Owned(Encounter::from_history(
        enc.system(),
        std::sync::Arc::clone(rules),
        std::sync::Arc::clone(catalogue),
        history,
        enc.cursor(),
    ))
}

/// The encounter as a plain-text page: where the fight stands and the last `log` lines.
pub fn show(enc: &Encounter, log: usize) -> String {
    let state = enc.state();
    let rules = enc.rules();
    let mut out = format!("System: {}\n", enc.system());
    let passes = enc.system().plays_in_passes();
    let ended = enc.table_at_end();
    match &state.phase {
        Phase::Setup if passes => {
            out.push_str("Setting up: add combatants, roll initiative, then start.\n");
        }
        Phase::Setup => out.push_str(
            "Setting up: add characters (pc for the players), then `narrate` begins the first turn.\n",
        ),
        Phase::Ended { round } => {
            let what = if passes { "in round" } else { "after turn" };
            let _ = writeln!(out, "The encounter has ended ({what} {round}).");
            // An Anarchy table: what each held at the end, as the screen shows it.
            if let Some(n) = &ended {
                out.push_str(&anarchy::table_rows(enc, n, false));
            }
        }
        Phase::Narration(n) => out.push_str(&anarchy::show_table(enc, n)),
        Phase::Fight(f) => {
            let _ = write!(
                out,
                "Round {}, pass {} of {}",
                f.round, f.pass, rules.passes_per_round
            );
            match f.turn {
                Some(t) => {
                    let c = state.get(t.who);
                    let (pool, edge) =
                        c.map_or((0, false), |c| (c.ip, c.edge_ip_used_up(rules)));
                    let (kind, ip) = match t.kind {
                        TurnKind::Own => (String::new(), format!("{pool} IP")),
                        TurnKind::Resumed => {
                            (" (skipped turn, resumed)".into(), format!("{pool} IP"))
                        }
                        // A delay's turn spends only the IP held; the pool waits for later passes.
                        TurnKind::Delayed { trigger } => (
                            format!(" (delay after {})", state.name(trigger)),
                            format!(
                                "{} IP held ({pool} in the pool)",
                                c.and_then(Combatant::delay).map_or(0, |d| d.0)
                            ),
                        ),
                    };
                    let _ = writeln!(
                        out,
                        ": {}'s turn{kind}, {ip}, spent {}/{} this turn, Edge IP {}",
                        state.name(t.who),
                        state.spent_in_turn(t.who),
                        rules.turn_spend_cap,
                        if edge { "used" } else { "unused" }
                    );
                }
                None => out.push_str(": nobody can act\n"),
            }
        }
    }
    if passes {
        order_text(&mut out, state, rules);
    }
    let listed = state.narration().is_some() || ended.is_some();
    let mut notes = Vec::new();
    for c in state.present() {
        let mut bits = Vec::new();
        if c.is_hidden() {
            bits.push("hidden from the players".to_string());
        }
        bits.extend(sr2097::sheet_notes(state, c));
        bits.extend(sr2097::injuries_text(state, c));
        bits.extend(sr2097::boost_text(state, c));
        let m = condition_text(c, state, rules);
        // The Anarchy table lists the monitors already.
        if !m.is_empty() && !listed {
            bits.push(m);
        }
        if let Some(k) = state.sr5.kit(c.id) {
            bits.extend(sr5::kit_text(k));
            bits.extend(sr5::defense_adds_text(k));
        }
        for s in &c.statuses {
            let stacks = if s.stacks > 1 {
                format!(" ×{}", s.stacks)
            } else {
                String::new()
            };
            bits.push(format!(
                "{}{stacks} ({})",
                s.name,
                status_end_text(&s.name, s.end, state, enc.catalogue())
            ));
        }
        match state.held(c) {
            Some(Reserve::Delay { ip, trigger: None }) => {
                bits.push(format!("delay {ip} IP, trigger not yet named"));
            }
            Some(Reserve::Ready { ip, triggers, .. }) => {
                for (i, t) in triggers.iter().enumerate() {
                    let actions: Vec<String> = t
                        .actions
                        .iter()
                        .map(crate::encounter::ActionUse::label)
                        .collect();
                    bits.push(format!(
                        "ready {} ({ip} IP): when {} → {}",
                        i + 1,
                        t.text,
                        actions.join(", ")
                    ));
                }
            }
            _ => {}
        }
        if let Some((_, ip)) = state.spent_by_others().iter().find(|(who, _)| *who == c.id)
            && let Some(holder) = state.turn_holder()
        {
            bits.push(format!("spent {ip} IP in {}'s turn", state.name(holder)));
        }
        if !bits.is_empty() {
            let note = format!("  {}: {}", c.name, bits.join("; "));
            notes.push(crate::text::escaped(&note).into_owned());
        }
    }
    notes.extend(
        sr5::pending_text(state)
            .into_iter()
            .map(|p| format!("  {p}")),
    );
    if !notes.is_empty() {
        out.push_str("\nStatus:\n");
        for n in notes {
            out.push_str(&n);
            out.push('\n');
        }
    }
    let lines = log_lines(enc);
    if log > 0 && !lines.is_empty() {
        out.push_str("\nLog:\n");
        for (_, l) in lines.iter().skip(lines.len().saturating_sub(log)) {
            let _ = writeln!(out, "  {l}");
        }
    }
    out
}

/// The injury (from 1) a Shadowrun 2097 character is dying of: the one Edge Burn would save.
/// None elsewhere.
pub fn dying_of(state: &State, c: &Combatant, rules: &HouseRules) -> Option<usize> {
    let sheet = state.sr2097.as_ref()?.sheet(c.id);
    sheet.dying_of(rules.sr2097.edge.burn_at).map(|at| at + 1)
}

/// Why a Downed character is down, as `show` and the Status pane say it. One dying of an
/// injury says so, naming it: only Edge saves it, where a merely Downed one waits for first aid.
pub fn down_text(state: &State, c: &Combatant, rules: &HouseRules) -> Option<String> {
    let cause = c.downed?;
    Some(match (dying_of(state, c, rules), cause) {
        (Some(n), crate::encounter::DownCause::Injury) => format!("dying of injury {n}"),
        (Some(n), cause) => format!("{}, dying of injury {n}", cause.label()),
        (None, cause) => cause.label().to_string(),
    })
}

/// The cells of a column of names in `show`: 24, or as wide as the widest name (wide characters
/// take two cells), so that the column after it starts in one place on every row.
pub(crate) fn name_column<'a>(names: impl Iterator<Item = &'a str>) -> usize {
    names.map(crate::text::shown_len).max().unwrap_or(0).max(24)
}

/// The initiative order, with delays under their triggers and who still has to roll.
fn order_text(out: &mut String, state: &State, rules: &HouseRules) {
    out.push_str("\nOrder:\n");
    let current = state.turn().map(|t| t.who);
    let width = name_column(state.present().map(|c| c.name.as_str()));
    let mut row = 0;
    for c in state.ordered() {
        row += 1;
        let pointer = if Some(c.id) == current { "▶" } else { " " };
        let reserve = match state.held(c) {
            Some(r) => format!(", {} IP held", r.ip()),
            None => String::new(),
        };
        let down = down_text(state, c, rules)
            .map(|d| format!(", DOWNED ({d})"))
            .unwrap_or_default();
        let edge = if c.sheet.edge > 0 {
            format!(", Edge {}/{}", c.edge_left, state.edge_max(c))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{row:>3} {pointer} {} score {:<16} IP {:>2}{edge}{reserve}{down}{}",
            crate::text::pad(&c.name, width),
            score_text(c),
            c.ip,
            match mark_text(c, state) {
                m if m.is_empty() => String::new(),
                m => format!("  [{m}]"),
            }
        );
        for d in state.ordered() {
            if let Some((ip, Some(t))) = state.delay_held(d)
                && t == c.id
            {
                let _ = writeln!(out, "        ↳ {}, {ip} IP, after {}", d.name, c.name);
            }
        }
    }
    let waiting: Vec<&str> = state
        .present()
        .filter(|c| state.position(c.id).is_none())
        .map(|c| c.name.as_str())
        .collect();
    if matches!(state.phase, Phase::Setup) && !waiting.is_empty() {
        // The order as the rolls so far stand; ties on every step are rolled off at `start`.
        // (`State::roster`, the order the screens list before `start`.)
        let provisional = state.roster().into_iter().filter_map(|id| state.get(id));
        out.push_str("  (as rolled so far; exact ties are rolled off at `start`)\n");
        for (i, c) in provisional.enumerate() {
            let _ = writeln!(
                out,
                "{:>3}   {} score {}",
                i + 1,
                crate::text::pad(&c.name, width),
                score_text(c)
            );
        }
    } else if !waiting.is_empty() {
        let _ = writeln!(out, "Waiting to roll initiative: {}", waiting.join(", "));
    }
}
