//! Property tests over random command sequences: the rules' invariants hold whatever the GM does.

mod common;
use std::collections::{HashMap, HashSet};

use common::Table;
use proptest::prelude::*;
use srtrack::encounter::{CombatantId, Event, PaidFrom, State};
use srtrack::rules::RandomDice;

const OPS: &[&str] = &[
    "next",
    "next",
    "next",
    "next",
    "act {a} free",
    "act {a} simple",
    "act {a} complex",
    "act {b} Dodge",
    "act {b} Full Defense",
    "edge {a}",
    "delay {a} 2 after {b}",
    "delay {a} 1",
    "ready {a} 3 when it moves do simple",
    "fire {b}",
    "move {a} after {b}",
    "move {a} before {b}",
    "down {b}",
    "up {b}",
    "damage {b} 4",
    "heal {b} 3",
    "act {a} Take Aim",
    "act {a} Drop Prone",
    "act {a} Stand Up",
    "status {b} dazed until next",
    "remove {b}",
    "add Extra{n} int 3 rea 3",
    "edit {a} edge 0 mod 0 ip 0",
    "edit {b} edge 1 mod -1 ip 1",
    "roll all",
    "undo",
    "redo",
];

/// Runs the ops; returns the table and every applied step's (state before, events).
fn play(seed: u64, ops: &[(usize, usize, usize)]) -> (Table, Vec<(State, Vec<Event>)>) {
    play_watching(seed, ops, |_| {})
}

/// [`play`], showing the table to `watch` after each op, refused ones too.
fn play_watching(
    seed: u64,
    ops: &[(usize, usize, usize)],
    mut watch: impl FnMut(&Table),
) -> (Table, Vec<(State, Vec<Event>)>) {
    let mut t = Table::new();
    t.run("add Ana pc int 4 rea 5 edge 2 body 4 will 4");
    t.run("add Bob pc int 3 rea 3 edge 1 body 3 will 3");
    t.run("add Ganger x3 int 3 rea 3 body 3 will 2");
    let mut dice = RandomDice::seeded(seed);
    let parse = |t: &Table, line: &str| srtrack::lang::parse(line, t.state(), t.enc.catalogue());
    if let Ok(srtrack::lang::Line::Command(c)) = parse(&t, "roll all") {
        srtrack::lang::execute(&mut t.enc, c, &mut dice).unwrap();
    }
    if let Ok(srtrack::lang::Line::Command(c)) = parse(&t, "start") {
        srtrack::lang::execute(&mut t.enc, c, &mut dice).unwrap();
    }
    let mut steps = Vec::new();
    for (n, &(op, a, b)) in ops.iter().enumerate() {
        let names: Vec<String> = t.state().present().map(|c| c.name.clone()).collect();
        if names.is_empty() {
            break;
        }
        let current = t.state().turn().map(|x| t.state().name(x.who).to_string());
        // Mostly act as the current actor, as a GM would.
        let a_name = if a % 3 != 0 {
            current
                .clone()
                .unwrap_or_else(|| names[a % names.len()].clone())
        } else {
            names[a % names.len()].clone()
        };
        let line = OPS[op % OPS.len()]
            .replace("{a}", &format!("\"{a_name}\""))
            .replace("{b}", &format!("\"{}\"", names[b % names.len()]))
            .replace("{n}", &n.to_string());
        match parse(&t, &line) {
            Ok(srtrack::lang::Line::Command(c)) => {
                let before = t.state().clone();
                if let Ok(entry) = srtrack::lang::execute(&mut t.enc, c, &mut dice) {
                    steps.push((before, entry.events.clone()));
                }
            }
            Ok(srtrack::lang::Line::Undo(k)) => {
                t.enc.undo(k);
            }
            Ok(srtrack::lang::Line::Redo(k)) => {
                t.enc.redo(k);
            }
            _ => {}
        }
        watch(&t);
    }
    (t, steps)
}

fn ops() -> impl Strategy<Value = Vec<(usize, usize, usize)>> {
    prop::collection::vec((0..OPS.len(), 0..8usize, 0..8usize), 1..120)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_spend_is_covered_and_no_turn_spends_over_the_cap(seed in any::<u64>(), ops in ops()) {
        let (t, steps) = play(seed, &ops);
        let cap = t.enc.rules().turn_spend_cap;
        for (before, events) in &steps {
            let mut state = before.clone();
            for e in events {
                if let Event::ActionSpent { who, action, paid_from, .. } = e {
                    let c = state.get(*who).unwrap();
                    let have = match paid_from {
                        PaidFrom::Pool => c.ip,
                        PaidFrom::Reserve => c.reserve.as_ref().map_or(0, srtrack::encounter::Reserve::ip),
                    };
                    prop_assert!(action.cost <= have, "{} spent {} with {have}", c.name, action.cost);
                }
                state.apply(e, t.enc.rules());
                // Nobody spends over the cap in any character turn, whoever's turn it is.
                for c in state.present() {
                    prop_assert!(state.spent_in_turn(c.id) <= cap, "{} over the cap", c.name);
                }
            }
        }
    }

    #[test]
    fn one_turn_per_pass_for_everyone_up_unless_they_moved(seed in any::<u64>(), ops in (prop::collection::vec((0..OPS.len() - 2, 0..8usize, 0..8usize), 1..200))) {
        // Everything but undo and redo, so the applied history is the whole story.
        let (t, _) = play(seed, &ops);
        let mut state = State::default();
        let mut turns: HashMap<CombatantId, u32> = HashMap::new();
        let mut excused: HashSet<CombatantId> = HashSet::new();
        let mut in_fight = false;
        for entry in t.enc.applied() {
            for e in &entry.events {
                match e {
                    // A resumed turn is the same turn, skipped and taken later: not a second one.
                    Event::TurnStarted { who, .. } => {
                        *turns.entry(*who).or_default() += 1;
                        prop_assert!(turns[who] <= 1, "two turns in one pass");
                    }
                    Event::Downed { who, .. } | Event::InitiativeChanged { who, .. } | Event::CombatantRemoved { id: who, .. } => {
                        excused.insert(*who);
                    }
                    Event::Slotted { who, .. } => excused.extend(who.iter().copied()),
                    Event::PassStarted { .. } | Event::RoundStarted { .. } => {
                        if in_fight {
                            for c in state.ordered() {
                                if !c.is_downed() && !excused.contains(&c.id) {
                                    prop_assert_eq!(turns.get(&c.id).copied().unwrap_or(0), 1, "{} missed a turn", c.name);
                                }
                            }
                        }
                        in_fight = true;
                        turns.clear();
                        excused = state.present().filter(|c| c.is_downed()).map(|c| c.id).collect();
                    }
                    _ => {}
                }
                state.apply(e, t.enc.rules());
            }
        }
    }

    #[test]
    fn undo_gives_back_the_exact_earlier_state_and_redo_the_later(seed in any::<u64>(), ops in ops(), k in 1..40usize) {
        let (mut t, _) = play(seed, &ops);
        let later = t.state().clone();
        let cursor = t.enc.cursor();
        let k = k.min(cursor);
        let mut expected = State::default();
        for entry in &t.enc.applied()[..cursor - k] {
            for e in &entry.events {
                expected.apply(e, t.enc.rules());
            }
        }
        t.enc.undo(k);
        prop_assert_eq!(t.state(), &expected);
        t.enc.redo(k);
        prop_assert_eq!(t.state(), &later);
    }

    /// What the screen relies on to keep a pane: the encounter's revision tells its moments
    /// apart. Two moments with one revision hold the same state and history; a command, an
    /// undo or a redo that changed anything gave a new one.
    #[test]
    fn one_revision_is_one_state_and_history(seed in any::<u64>(), ops in ops()) {
        let mut seen: HashMap<u64, (State, usize, usize)> = HashMap::new();
        let mut last: Option<(u64, State, usize, usize)> = None;
        let mut broken = None;
        play_watching(seed, &ops, |t| {
            let now = (t.state().clone(), t.enc.cursor(), t.enc.history().len());
            let revision = t.enc.revision();
            if let Some(was) = seen.get(&revision).filter(|was| **was != now) {
                broken.get_or_insert(format!("revision {revision} stands for two moments: {was:?} and {now:?}"));
            }
            if let Some((r, state, cursor, len)) = &last
                && (state, *cursor, *len) != (&now.0, now.1, now.2)
                && *r == revision
            {
                broken.get_or_insert(format!("a change kept revision {revision}"));
            }
            last = Some((revision, now.0.clone(), now.1, now.2));
            seen.insert(revision, now);
        });
        prop_assert!(broken.is_none(), "{}", broken.unwrap_or_default());
    }

    #[test]
    fn replaying_the_log_gives_the_same_state(seed in any::<u64>(), ops in ops()) {
        let (t, _) = play(seed, &ops);
        prop_assert_eq!(&t.enc.replayed(), t.state());
    }

    #[test]
    fn every_command_text_parses_back_to_what_it_did(seed in any::<u64>(), ops in ops()) {
        let (t, _) = play(seed, &ops);
        // Re-running the recorded texts with the recorded dice gives the same events.
        let mut again = Table::new();
        for entry in t.enc.applied() {
            let dice: Vec<u8> = entry.events.iter().flat_map(event_dice).collect();
            let events = again.try_run(&entry.text, &dice);
            prop_assert_eq!(events.as_ref(), Ok(&entry.events), "`{}`", entry.text);
        }
    }
}

/// The dice an event carries, in the order they were rolled.
fn event_dice(e: &Event) -> Vec<u8> {
    match e {
        Event::InitiativeRolled { roll, .. } => roll.dice.clone().unwrap_or_default(),
        Event::FightStarted { rolloffs, .. } | Event::Slotted { rolloffs, .. } => rolloffs
            .iter()
            .flat_map(|r| {
                r.rounds
                    .iter()
                    .flat_map(|round| round.iter().map(|(_, d)| *d))
            })
            .collect(),
        // A wounded character's Stand Up test.
        Event::Sr5(srtrack::encounter::system::sr5::Sr5Event::Tested { roll, .. }) => {
            roll.dice().map(<[u8]>::to_vec).unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Whatever the engine allows, a save of it passes the load-time check of every event.
    #[test]
    fn every_reachable_history_passes_the_save_check(seed in any::<u64>(), ops in ops()) {
        let (t, _) = play(seed, &ops);
        let text = srtrack::save::file::SaveFile::of(&t.enc, "t", "2026-01-01T00:00:00Z").to_ron();
        let save = srtrack::save::file::parse(text.as_bytes(), "t.ron").expect("parses");
        let back = save
            .into_encounter("t.ron", std::sync::Arc::new(common::test_catalogue()))
            .map_err(|e| e.to_string());
        match back {
            Ok(back) => prop_assert_eq!(back.state(), t.state()),
            Err(e) => prop_assert!(false, "{e}"),
        }
    }
}
