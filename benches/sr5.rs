//! SR5 benchmarks. Targets (issue 10): the exact odds of a pool of 50 with a limit and a
//! threshold ≤ 50 µs; one attack chain (attack, defense, soak, boxes) decided and applied
//! ≤ 50 µs.

use std::sync::Arc;

use srtrack::catalogue::Catalogue;
use srtrack::encounter::Encounter;
use srtrack::lang::{self, Line};
use srtrack::rules::sr5::odds::{Setup, odds};
use srtrack::rules::sr5::test::Goal;
use srtrack::rules::{HouseRules, RandomDice};

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 500)]
fn odds_pool_50_limit_threshold() -> f64 {
    let rules = HouseRules::embedded();
    let setup = Setup {
        pool: divan::black_box(50),
        limit: Some(20),
        goal: Goal::Threshold(12),
        opposing: 0,
    };
    divan::black_box(odds(&setup, &rules.dice)).success
}

fn run(enc: &mut Encounter, line: &str, dice: &mut RandomDice) {
    let ok = match lang::parse(line, enc.state(), enc.catalogue()) {
        Ok(Line::Command(c)) => lang::execute(enc, c, dice).is_ok(),
        _ => false,
    };
    assert!(ok, "bench set-up refused: {line}");
}

/// Two NPCs with weapons and armor, in a fight, the attacker's turn.
fn fight() -> Encounter {
    let rules = HouseRules::embedded();
    let catalogue = Catalogue::embedded(&rules).expect("the built-in catalogue");
    let mut enc = Encounter::new(Arc::new(rules), Arc::new(catalogue));
    let mut dice = RandomDice::seeded(7);
    for line in [
        "add Shooter npc int 4 rea 5 body 4 will 3",
        "add Target npc int 3 rea 4 body 5 will 3",
        "weapon Shooter add Ares Predator V dv 8 p ap -1 acc 5 ammo 15",
        "armor Target 9",
        "roll Shooter hits 4",
        "roll Target hits 1",
        "start",
    ] {
        run(&mut enc, line, &mut dice);
    }
    enc
}

/// `attack Shooter Target pool 12`: srtrack rolls the attack, the defense from the sheet and the
/// soak with Body + armor, and puts the boxes on the monitor.
#[divan::bench(sample_count = 500)]
fn attack_chain_applied(bencher: divan::Bencher) {
    let enc = fight();
    let mut dice = RandomDice::seeded(1);
    let line = "attack Shooter Target pool 12";
    bencher
        .with_inputs(|| {
            let e = enc.clone();
            let cmd = match lang::parse(line, e.state(), e.catalogue()) {
                Ok(Line::Command(c)) => Some(c),
                _ => None,
            };
            (e, cmd)
        })
        .bench_local_values(|(mut e, cmd)| {
            if let Some(c) = cmd {
                let _ = lang::execute(&mut e, c, &mut dice);
            }
            e
        });
}
