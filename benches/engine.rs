//! Engine benchmarks: 200 combatants and a 10,000-event history.
//! Targets (issue 2): apply one command ≤ 20 µs, undo ≤ 1 ms, full replay ≤ 20 ms.

use std::sync::Arc;

use srtrack::catalogue::Catalogue;
use srtrack::encounter::{Command, Encounter};
use srtrack::lang::{self, Line};
use srtrack::rules::{HouseRules, RandomDice};

fn main() {
    divan::main();
}

fn run(enc: &mut Encounter, line: &str, dice: &mut RandomDice) -> bool {
    match lang::parse(line, enc.state(), enc.catalogue()) {
        Ok(Line::Command(c)) => lang::execute(enc, c, dice).is_ok(),
        _ => false,
    }
}

/// 200 combatants in a fight with at least 10,000 events behind it.
fn big() -> Encounter {
    let mut enc = Encounter::new(
        Arc::new(HouseRules::embedded()),
        Arc::new(Catalogue::default()),
    );
    let mut dice = RandomDice::seeded(42);
    for g in 0..20 {
        run(
            &mut enc,
            &format!("add Squad{g} x10 int 4 rea 4 edge 2"),
            &mut dice,
        );
    }
    run(&mut enc, "roll all", &mut dice);
    run(&mut enc, "start", &mut dice);
    let events = |e: &Encounter| e.applied().iter().map(|x| x.events.len()).sum::<usize>();
    let mut i = 0u32;
    while events(&enc) < 10_000 {
        let who = enc
            .state()
            .turn()
            .map(|t| enc.state().name(t.who).to_string())
            .unwrap_or_default();
        if i.is_multiple_of(3) {
            run(&mut enc, &format!("act \"{who}\" simple"), &mut dice);
        }
        run(&mut enc, "next", &mut dice);
        i += 1;
    }
    enc
}

/// One GM command (spend, or next turn) on a long-running encounter, as the app does it.
#[divan::bench(sample_count = 500)]
fn apply_one_command(bencher: divan::Bencher) {
    let mut enc = big();
    let mut dice = RandomDice::seeded(1);
    let mut spend = false;
    bencher.bench_local(move || {
        spend = !spend;
        let command = match enc.state().turn() {
            Some(t) if spend => Command::SpendAction {
                who: t.who,
                action: srtrack::encounter::ActionChoice::Type(srtrack::rules::ActionType::Free),
            },
            _ => Command::Next,
        };
        lang::execute(&mut enc, command, &mut dice).is_ok()
    });
}

#[divan::bench(sample_count = 100)]
fn undo_one(bencher: divan::Bencher) {
    let enc = big();
    bencher
        .with_inputs(|| enc.clone())
        .bench_local_values(|mut e| {
            e.undo(1);
            e
        });
}

#[divan::bench(sample_count = 20)]
fn full_replay(bencher: divan::Bencher) {
    let enc = big();
    bencher.bench_local(|| enc.replayed());
}
