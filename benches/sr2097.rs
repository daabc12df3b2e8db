//! Shadowrun 2097 benchmarks. Target (issue 11): a check and its exact odds ≤ 20 µs, the odds
//! being the slow part with Advantage or Disadvantage (3d10: 1,000 rolls counted).

use std::sync::Arc;

use srtrack::catalogue::Catalogue;
use srtrack::encounter::{Encounter, System};
use srtrack::lang::{self, Line};
use srtrack::rules::sr2097::check::{self, Check, EdgeOnCheck, Tilt};
use srtrack::rules::{HouseRules, RandomDice};

fn main() {
    divan::main();
}

const TILTS: [(Tilt, EdgeOnCheck); 3] = [
    (Tilt::Even, EdgeOnCheck::None),
    (Tilt::Advantage, EdgeOnCheck::GainedAdvantage),
    (Tilt::Disadvantage, EdgeOnCheck::None),
];

/// The pure rules: the exact odds of a check, then the check rolled.
#[divan::bench(args = TILTS, sample_count = 200)]
fn check_and_its_odds(bencher: divan::Bencher, (tilt, edge): (Tilt, EdgeOnCheck)) {
    let rules = HouseRules::embedded().sr2097;
    let mut dice = RandomDice::seeded(2097);
    let c = Check {
        tn: 20,
        bonus: 12,
        tilt,
        edge,
    };
    bencher.bench_local(|| {
        let odds = check::odds(divan::black_box(&c), &rules);
        let roll = check::roll(c, &rules, &mut dice);
        (odds.successes(), roll.outcome(&rules).mos)
    });
}

/// `sc` as the app runs it: parsed, decided against the encounter, recorded.
#[divan::bench(sample_count = 200)]
fn sc_through_the_engine(bencher: divan::Bencher) {
    let mut enc = Encounter::for_system(
        System::Sr2097,
        Arc::new(HouseRules::embedded()),
        Arc::new(Catalogue::default()),
    );
    let mut dice = RandomDice::seeded(7);
    for line in ["add Ana pc int 4 rea 5 edge 3", "add Bo npc int 3 rea 3"] {
        if let Ok(Line::Command(c)) = lang::parse(line, enc.state(), enc.catalogue()) {
            let _ = lang::execute(&mut enc, c, &mut dice);
        }
    }
    bencher.bench_local(|| {
        if let Ok(Line::Command(c)) = lang::parse(
            "sc Ana tn moderate bonus 12 adv",
            enc.state(),
            enc.catalogue(),
        ) {
            let _ = lang::execute(&mut enc, c, &mut dice);
        }
        // Keep the history short: the bench measures one check, not a growing log.
        enc.undo(1);
    });
}
