//! SR5's events in saves: the second sample fight is what its script gives and loads with every
//! event checked; a fight with tests, attacks and Edge comes back from its save as it was.

use std::sync::Arc;

use srtrack::catalogue::Catalogue;
use srtrack::encounter::Encounter;
use srtrack::encounter::system::sr5::Sr5Event;
use srtrack::encounter::{Event, System};
use srtrack::lang::{self, Line};
use srtrack::rules::{HouseRules, RandomDice};
use srtrack::save::{SaveFile, file};

fn run(enc: &mut Encounter, script: &str, seed: u64) {
    let mut dice = RandomDice::seeded(seed);
    for line in script.lines() {
        match lang::parse(line, enc.state(), enc.catalogue()).unwrap_or_else(|e| panic!("{e}")) {
            Line::Command(c) => {
                lang::execute(enc, c, &mut dice).unwrap_or_else(|e| panic!("{line}: {e}"));
            }
            Line::Undo(n) => {
                enc.undo(n);
            }
            Line::Redo(n) => {
                enc.redo(n);
            }
            Line::Why(..)
            | Line::Odds(_)
            | Line::AnarchyOdds(_)
            | Line::Odds2097(_)
            | Line::Nothing => {}
            Line::FromRoster(r) => panic!("{line}: no roster here ({r:?})"),
        }
    }
}

fn embedded() -> (Arc<HouseRules>, Arc<Catalogue>) {
    let rules = HouseRules::embedded();
    let cat = Catalogue::embedded(&rules).expect("the built-in catalogue");
    (Arc::new(rules), Arc::new(cat))
}

/// `saves/sr5-docks.ron` is what `saves/sr5-docks.script` gives with seed 2075: weapons,
/// attacks (rolled and typed), a teamwork test, and an attack waiting for a player's dice.
#[test]
fn the_sr5_sample_fight_matches_its_script() {
    let root = env!("CARGO_MANIFEST_DIR");
    let script = std::fs::read_to_string(format!("{root}/saves/sr5-docks.script")).expect("script");
    let (rules, cat) = embedded();
    let mut enc = Encounter::new(rules, Arc::clone(&cat));
    run(&mut enc, &script, 2075);
    let path = std::path::PathBuf::from(format!("{root}/saves/sr5-docks.ron"));
    let (header, saved) = file::load(&path, cat).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(header.system, System::Sr5);
    assert_eq!(
        saved.history(),
        enc.history(),
        "regenerate saves/sr5-docks.ron from its script"
    );
    let events: Vec<&Event> = saved.applied().iter().flat_map(|e| &e.events).collect();
    let has = |f: fn(&Sr5Event) -> bool| events.iter().any(|e| matches!(e, Event::Sr5(s) if f(s)));
    assert!(has(|e| matches!(e, Sr5Event::WeaponAdded { .. })));
    assert!(has(|e| matches!(e, Sr5Event::Attacked { .. })));
    assert!(has(
        |e| matches!(e, Sr5Event::Soaked { boxes, .. } if *boxes > 0)
    ));
    assert!(has(|e| matches!(e, Sr5Event::Assisted { .. })));
    assert!(has(|e| matches!(e, Sr5Event::CloseCall { .. })));
    assert_eq!(saved.state().sr5.pending.len(), 1, "an attack waits");
}

#[test]
fn a_fight_with_sr5_events_comes_back_from_its_save() {
    let (rules, cat) = embedded();
    let mut enc = Encounter::new(rules, Arc::clone(&cat));
    run(
        &mut enc,
        "add Ana pc int 4 rea 5 edge 3 body 4 will 5
add Bob int 3 rea 3 edge 1 body 3 will 3
weapon Ana add Ares Predator dv 8P ap -1 acc 5 ammo 15
armor Bob 6
weapon Bob add Club dv 5 ap 0 acc 4
roll all
start
act Ana Fire Gun
attack Ana Bob pool 9
test Ana 6 limit 2 push
teamwork Ana 5 with Bob 4
test Bob 3 hits 0 critical
closecall Bob
act Bob Intercept
attack Bob Ana pool 4 hits 1
undo",
        9,
    );
    let text = SaveFile::of(&enc, "t", "2026-01-01T00:00:00Z").to_ron();
    let back = file::parse(text.as_bytes(), "t.ron")
        .and_then(|s| s.into_encounter("t.ron", cat))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.state(), enc.state());
    assert_eq!(back.history(), enc.history());
}
