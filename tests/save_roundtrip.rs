//! Saves round-trip: any reachable encounter saves and loads to an equal one, undo position
//! included; the fixtures of every format version load; the demo matches its script.

use std::sync::Arc;

use proptest::prelude::*;
use srtrack::catalogue::Catalogue;
use srtrack::encounter::system::anarchy::Slot;
use srtrack::encounter::system::sr2097::Fate;
use srtrack::encounter::{DownCause, Encounter, System};
use srtrack::lang::{self, Line};
use srtrack::rules::{HouseRules, RandomDice};
use srtrack::save::{SaveFile, file};

const LINES: &[&str] = &[
    "add Ann pc int 4 rea 5 edge 2 body 4 will 3",
    "add Bo pc int 3 rea 3 edge 1 body 3 will 5",
    "add Gang x2 npc int 3 rea 3 edge 1",
    "roll all",
    "start",
    "next",
    "next",
    "act Ann simple",
    "act Bo complex",
    "act Gang 1 free",
    "delay Ann 1",
    "delay Bo 2 after Gang 2",
    "ready Bo 2 when they move do simple",
    "fire Bo",
    "edge Ann",
    "damage Bo 3 physical",
    "damage Gang 2 12 stun",
    "heal Bo 1",
    "down Ann",
    "up Ann",
    "move Gang 1 before Ann",
    "status Ann Prone",
    "clear Ann Prone",
    "remove Gang 2 because fled",
    "end",
    "undo",
    "undo 3",
    "redo",
    "redo 2",
];

/// Plays lines through the parser and engine as `srtrack exec` would, skipping refusals.
fn play(lines: &[usize], seed: u64) -> Encounter {
    let cat = Arc::new(Catalogue::default());
    let mut enc = Encounter::new(Arc::new(HouseRules::embedded()), cat);
    let mut dice = RandomDice::seeded(seed);
    for &i in lines {
        match lang::parse(LINES[i], enc.state(), enc.catalogue()) {
            Ok(Line::Command(c)) => {
                let _ = lang::execute(&mut enc, c, &mut dice);
            }
            Ok(Line::Undo(n)) => {
                enc.undo(n);
            }
            Ok(Line::Redo(n)) => {
                enc.redo(n);
            }
            _ => {}
        }
    }
    enc
}

fn round_trip(enc: &Encounter) -> Encounter {
    let text = SaveFile::of(enc, "t", "2026-01-01T00:00:00Z").to_ron();
    let save = file::parse(text.as_bytes(), "t.ron").expect("parses");
    save.into_encounter("t.ron", Arc::new(Catalogue::default()))
        .expect("validates")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_reachable_encounter_saves_and_loads_equal(
        // The setup lines first so most runs reach a fight.
        tail in prop::collection::vec(0..LINES.len(), 0..120),
        seed in any::<u64>(),
    ) {
        let mut lines = vec![0, 1, 2, 3, 4];
        lines.extend(tail);
        let enc = play(&lines, seed);
        let back = round_trip(&enc);
        prop_assert_eq!(back.history(), enc.history());
        prop_assert_eq!(back.cursor(), enc.cursor());
        prop_assert_eq!(back.state(), enc.state());
        // Undo still works after a resume: both step back to the same state.
        let (mut a, mut b) = (enc.clone(), back);
        a.undo(1);
        b.undo(1);
        prop_assert_eq!(a.state(), b.state());
    }
}

/// The catalogue srtrack ships: a fixture may name its actions.
fn catalogue() -> Arc<Catalogue> {
    Arc::new(Catalogue::embedded(&HouseRules::embedded()).unwrap_or_else(|e| panic!("{e:?}")))
}

#[test]
fn every_fixture_version_loads() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let mut seen = 0;
    for v in 1..=file::VERSION {
        let path = std::path::PathBuf::from(format!("{dir}/v{v}.ron"));
        let (header, enc) = file::load(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(header.version, v);
        assert!(!enc.history().is_empty());
        seen += 1;
    }
    assert_eq!(seen, file::VERSION as usize);
}

/// A version 1 save was written before rule systems: it runs SR5. The version 2 fixture runs
/// Shadowrun 2097, and keeps it when written back.
#[test]
fn fixtures_keep_their_rule_system() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let load = |v: u32| {
        let path = std::path::PathBuf::from(format!("{dir}/v{v}.ron"));
        file::load(&path, Arc::new(Catalogue::default())).unwrap_or_else(|e| panic!("{e}"))
    };
    let (old, enc) = load(1);
    assert_eq!((old.system, enc.system()), (System::Sr5, System::Sr5));
    let (header, enc) = load(2);
    assert_eq!(
        (header.system, enc.system()),
        (System::Sr2097, System::Sr2097)
    );
    let text = SaveFile::of(&enc, "t", "2026-01-01T00:00:00Z").to_ron();
    assert!(text.contains("\n  system: sr2097,\n"), "{text}");
    let back = file::parse(text.as_bytes(), "t.ron").unwrap();
    assert_eq!((back.version, back.system), (file::VERSION, System::Sr2097));
}

/// The encounter `saves/NAME.script` gives under `system` with the seed its header names.
fn run_sample_script(name: &str, system: System, seed: u64) -> (Arc<Catalogue>, Encounter) {
    let root = env!("CARGO_MANIFEST_DIR");
    let script = std::fs::read_to_string(format!("{root}/saves/{name}.script")).unwrap();
    let cat = Arc::new(Catalogue::embedded(&HouseRules::embedded()).unwrap());
    let mut enc = Encounter::for_system(system, Arc::new(HouseRules::embedded()), Arc::clone(&cat));
    let mut dice = RandomDice::seeded(seed);
    for line in script.lines() {
        if let Line::Command(c) = lang::parse(line, enc.state(), enc.catalogue()).unwrap() {
            lang::execute(&mut enc, c, &mut dice).unwrap();
        }
    }
    (cat, enc)
}

/// `saves/demo.ron` is what `saves/demo.script` gives with seed 2070, and is mid-fight.
#[test]
fn demo_save_matches_its_script() {
    let root = env!("CARGO_MANIFEST_DIR");
    let (cat, enc) = run_sample_script("demo", System::Sr5, 2070);
    let path = std::path::PathBuf::from(format!("{root}/saves/demo.ron"));
    let (_, demo) = file::load(&path, cat).unwrap();
    assert_eq!(
        demo.history(),
        enc.history(),
        "regenerate saves/demo.ron from its script"
    );
    let s = demo.state();
    assert_eq!(s.fight().map(|f| f.round), Some(2));
    assert!(
        s.combatants.iter().any(|c| c.delay().is_some()),
        "a delay is pending"
    );
    assert!(
        s.combatants
            .iter()
            .any(|c| matches!(c.reserve, Some(srtrack::encounter::Reserve::Ready { .. }))),
        "a ready is pending"
    );
}

/// `saves/anarchy.ron` is what `saves/anarchy.script` gives with seed 2080, in turn 2.
#[test]
fn anarchy_sample_matches_its_script() {
    let root = env!("CARGO_MANIFEST_DIR");
    let (cat, enc) = run_sample_script("anarchy", System::Anarchy, 2080);
    let path = std::path::PathBuf::from(format!("{root}/saves/anarchy.ron"));
    let (header, sample) = file::load(&path, cat).unwrap();
    assert_eq!(header.system, System::Anarchy);
    assert_eq!(
        sample.history(),
        enc.history(),
        "regenerate saves/anarchy.ron from its script"
    );
    assert_eq!(sample.state().narration().map(|n| n.turn), Some(2));
}

/// Found by the round-trip property: a removed trigger's slot still passes (`TurnSkipped` for a
/// removed combatant), and the save must accept it.
#[test]
fn a_delay_waiting_on_a_removed_trigger_saves_and_loads() {
    let cat = Arc::new(Catalogue::default());
    let mut enc = Encounter::new(Arc::new(HouseRules::embedded()), cat);
    let mut dice = RandomDice::seeded(1);
    for line in [
        "add Ana int 4 rea 4",
        "add Bob int 3 rea 3",
        "add Cy int 2 rea 2",
        "roll Ana hits 3",
        "roll Bob hits 2",
        "roll Cy hits 1",
        "start",
        "delay Ana 2 after Bob",
        "remove Bob",
        "next",
    ] {
        let Ok(Line::Command(c)) = lang::parse(line, enc.state(), enc.catalogue()) else {
            panic!("{line}")
        };
        lang::execute(&mut enc, c, &mut dice).unwrap();
    }
    let back = round_trip(&enc);
    assert_eq!(back.state(), enc.state());
}

/// A save from before the place changed when a skipped turn is taken holds a change of initiative
/// that moved at once (`InitiativeChanged`, `Deferred`): it replays as written, and the turn is
/// then taken at the new place as it was.
#[test]
fn an_old_change_of_initiative_replays_and_plays_on() {
    use srtrack::encounter::{Entry, Event, Relative, Skipped, TurnKind};
    let cat = Arc::new(Catalogue::default());
    let rules = Arc::new(HouseRules::embedded());
    let mut enc = Encounter::new(Arc::clone(&rules), Arc::clone(&cat));
    let mut dice = RandomDice::seeded(1);
    let run = |enc: &mut Encounter, line: &str, dice: &mut RandomDice| {
        let Ok(Line::Command(c)) = lang::parse(line, enc.state(), enc.catalogue()) else {
            panic!("{line}")
        };
        lang::execute(enc, c, dice).unwrap();
    };
    for line in [
        "add Ana int 4 rea 4",
        "add Bob int 3 rea 3",
        "add Cy int 2 rea 2",
        "roll Ana hits 3",
        "roll Bob hits 2",
        "roll Cy hits 1",
        "start",
    ] {
        run(&mut enc, line, &mut dice);
    }
    let id = |enc: &Encounter, name: &str| enc.state().find(name).unwrap().id;
    let (ana, bob) = (id(&enc, "Ana"), id(&enc, "Bob"));
    let mut history = enc.history().to_vec();
    history.push(Entry {
        text: "move Ana after Bob".into(),
        events: vec![
            Event::InitiativeChanged {
                who: ana,
                relative: Relative::After,
                target: bob,
                skipped: Skipped::Deferred,
            },
            Event::TurnStarted {
                who: bob,
                ip_gained: 1,
            },
        ],
        joined: false,
    });
    srtrack::save::validate::check_history(&history, System::Sr5, &rules, &cat).unwrap();
    let len = history.len();
    let mut old = Encounter::from_history(System::Sr5, rules, cat, history, len);
    let names = |enc: &Encounter| -> Vec<String> {
        enc.state().ordered().map(|c| c.name.clone()).collect()
    };
    assert_eq!(
        names(&old),
        ["Bob", "Ana", "Cy"],
        "moved at once, as written"
    );
    run(&mut old, "next", &mut dice);
    let turn = old.state().turn().copied().unwrap();
    assert_eq!((turn.who, turn.kind), (ana, TurnKind::Resumed));
    run(&mut old, "next", &mut dice);
    assert_eq!(old.state().turn().map(|t| t.who), Some(id(&old, "Cy")));
}

/// `text` without its first field from `start` to the first `end` after it (a field a fixture has
/// that an older version did not write).
fn cut(text: &str, start: &str, end: &str) -> String {
    let at = text
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in the fixture"));
    let to = at + text[at..].find(end).unwrap() + end.len();
    format!("{}{}", &text[..at], &text[to..])
}

/// `older` (the fixture `name` as an older version wrote it) written and opened: `check` finds
/// its snapshot sound, and the state opened is the one the fixture's history gives.
fn opened_as_older(name: &str, older: &str) -> Encounter {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("older.ron");
    std::fs::write(&path, older).unwrap();
    file::verify_snapshot(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    let (_, opened) = file::open(&path, catalogue).unwrap_or_else(|e| panic!("{e}"));
    let fixture = std::path::PathBuf::from(format!("{dir}/{name}.ron"));
    let (_, fixture) = file::load(&fixture, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        opened.state(),
        fixture.state(),
        "the state the history gives"
    );
    opened
}

/// A version 3 file keeps a state of the model it was written by, without what later versions
/// derive from the history (a fired ready, the actions of the turn): opening and `check` rebuild
/// it from the history instead of taking it for an edited file or trusting it.
#[test]
fn an_older_versions_snapshot_is_rebuilt_from_its_history() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let v4 = std::fs::read_to_string(format!("{dir}/v4.ron")).unwrap();
    let older = cut(&v4, ", taken: [", "]")
        .replacen("version: 4,", "version: 3,", 1)
        .replacen(", ready_fired: Some(1)", "", 1);
    assert!(!older.contains("ready_fired") && !older.contains("taken:"));
    let opened = opened_as_older("v4", &older);
    let kane = opened
        .state()
        .combatants
        .iter()
        .find(|c| c.name == "Kane")
        .unwrap();
    assert_eq!(kane.ready_fired, Some(1));
}

/// A version 4 file keeps no SR5 attack action waiting for its attack (`unfired`): one that
/// waited when it was written is rebuilt from the history, not taken for an edited file, and its
/// attack still takes the action's rounds.
#[test]
fn a_version_4_snapshot_gets_the_attack_action_that_waits_from_its_history() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let v5 = std::fs::read_to_string(format!("{dir}/v5.ron")).unwrap();
    let older = cut(&v5, ", unfired: [", ")]").replacen("version: 5,", "version: 4,", 1);
    assert!(!older.contains("unfired"));
    let mut opened = opened_as_older("v5", &older);
    let jinx = opened.state().find("Jinx").unwrap().id;
    assert!(opened.state().sr5.unfired(jinx).is_some());
    let mut dice = RandomDice::seeded(1);
    let line = "attack Jinx Bo pool 8 hits 3";
    let Ok(Line::Command(c)) = lang::parse(line, opened.state(), opened.catalogue()) else {
        panic!("{line} does not parse");
    };
    lang::execute(&mut opened, c, &mut dice).unwrap_or_else(|e| panic!("{e}"));
    let left = opened.state().sr5.kit(jinx).and_then(|k| k.weapons[0].ammo);
    assert_eq!(left.map(|a| a.left), Some(12), "Fire Gun BF's 3 rounds");
}

/// The samples are written in the current format, so they open from their snapshot as the
/// README says; an older sample would open by replaying its history.
#[test]
fn the_samples_are_in_the_current_save_format() {
    let root = env!("CARGO_MANIFEST_DIR");
    for name in ["demo", "sr5-docks", "sr2097", "anarchy"] {
        let text = std::fs::read_to_string(format!("{root}/saves/{name}.ron")).expect("sample");
        let want = format!("  version: {},\n", file::VERSION);
        assert!(
            text.contains(&want),
            "saves/{name}.ron is not version {}: regenerate it from its script",
            file::VERSION
        );
    }
}

/// A version 5 file kept one SR5 firing action waiting for its attack a character, the latest:
/// one written while two waited is rebuilt from its history, not taken for an edited file, and
/// each of the two attacks rolled after it takes its own action's rounds, oldest first.
#[test]
fn a_version_5_snapshot_gets_every_firing_action_that_waits_from_its_history() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let v6 = std::fs::read_to_string(format!("{dir}/v6.ron")).unwrap();
    let first = "(CombatantId(0), ActionUse(name: Some(\"Fire Gun\"), kind: \"Simple\", cost: 2, \
                 interrupt: false, effect: Some(Uses(\"Take Aim\")), mode: Some(\"BF\"))), ";
    assert!(
        v6.contains(&format!("unfired: [{first}")),
        "the fixture waits for two"
    );
    let older = v6
        .replacen(first, "", 1)
        .replacen("version: 6,", "version: 5,", 1);
    let mut opened = opened_as_older("v6", &older);
    let jinx = opened.state().find("Jinx").unwrap().id;
    let mut dice = RandomDice::seeded(1);
    let line = "attack Jinx Bo pool 8 hits 3";
    for left in [12, 6] {
        let Ok(Line::Command(c)) = lang::parse(line, opened.state(), opened.catalogue()) else {
            panic!("{line} does not parse");
        };
        lang::execute(&mut opened, c, &mut dice).unwrap_or_else(|e| panic!("{e}"));
        let ammo = opened.state().sr5.kit(jinx).and_then(|k| k.weapons[0].ammo);
        assert_eq!(
            ammo.map(|a| a.left),
            Some(left),
            "Fire Gun BF's 3, then Full-Auto's 6"
        );
    }
}

/// Jinx's Ares Predator V in `enc`: the rounds left in it, and whether its clip is out.
fn jinx_ares(enc: &Encounter) -> (u8, bool) {
    let jinx = enc.state().find("Jinx").unwrap().id;
    let ammo = enc.state().sr5.kit(jinx).and_then(|k| k.weapons[0].ammo);
    ammo.map(|a| (a.left, a.clip_out)).unwrap()
}

/// Before format 7 Insert Clip refilled a firearm with its clip still in. A save of then whose
/// history did (the fixture, as srtrack wrote it: `Reloaded` after a shot) opens, and `check`
/// finds it sound, in the state it kept: its history is replayed, not decided again, so the
/// clip rule of today does not undo what it did.
#[test]
fn a_version_6_save_whose_insert_clip_refilled_with_the_clip_in_opens_in_the_state_it_kept() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let path = std::path::PathBuf::from(format!("{dir}/v6-insert-clip.ron"));
    let old = std::fs::read_to_string(&path).unwrap();
    assert!(
        old.contains("  version: 6,\n") && old.contains("Entry(text: \"act Jinx Insert Clip\"")
    );
    // The state it kept, read as if it were of this format (an older one's is dropped on load).
    let kept = file::parse(
        old.replacen("version: 6,", &format!("version: {},", file::VERSION), 1)
            .as_bytes(),
        "kept.ron",
    )
    .unwrap()
    .state
    .unwrap();
    file::verify_snapshot(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    let (header, opened) = file::open(&path, catalogue).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(header.version, 6);
    assert_eq!(opened.state(), &kept);
    assert_eq!(jinx_ares(&opened), (15, false), "refilled, its clip in");
}

/// The version 7 fixture's history takes a clip out: it opens with the clip out and the Ares
/// empty, from its snapshot as from its history.
#[test]
fn the_version_7_fixture_keeps_a_clip_taken_out() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let path = std::path::PathBuf::from(format!("{dir}/v7.ron"));
    file::verify_snapshot(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    let (_, opened) = file::open(&path, catalogue).unwrap_or_else(|e| panic!("{e}"));
    let (_, loaded) = file::load(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(opened.state(), loaded.state());
    assert_eq!(jinx_ares(&opened), (0, true));
}

/// The version 8 fixture (Anarchy) ends with Bo's test, its dice still open to Edge after Ana's
/// was rolled again: it opens so from its snapshot as from its history, and Bo's Edge may yet
/// take up his misses.
#[test]
fn the_version_8_fixture_keeps_a_test_open_to_edge() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let path = std::path::PathBuf::from(format!("{dir}/v8.ron"));
    file::verify_snapshot(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    let (_, opened) = file::open(&path, catalogue).unwrap_or_else(|e| panic!("{e}"));
    let (_, loaded) = file::load(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(opened.state(), loaded.state());
    let bo = opened.state().find("Bo").unwrap().id;
    let table = opened.state().narration().unwrap();
    assert_eq!(
        table.open_test(bo).map(|t| t.roll.dice.clone()),
        Some(vec![1, 2, 5, 6, 4])
    );
    assert_eq!(table.open_tests.len(), 1, "Ana's was rolled again: closed");
}

/// The version 9 fixture (2097) keeps a tended injury: Bo came back up by first aid from a
/// critical one, which no longer holds him; Ana's untended critical one holds her Downed once
/// her monitor, filled after it, was healed.
#[test]
fn the_version_9_fixture_keeps_an_injury_tended_apart_from_one_that_holds() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let path = std::path::PathBuf::from(format!("{dir}/v9.ron"));
    file::verify_snapshot(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    let (_, opened) = file::open(&path, catalogue).unwrap_or_else(|e| panic!("{e}"));
    let (_, loaded) = file::load(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(opened.state(), loaded.state());
    let state = opened.state();
    let fates = |name: &str| -> Vec<Fate> {
        let id = state.find(name).unwrap().id;
        let sheet = state.sr2097.as_ref().unwrap().sheet(id);
        sheet.injuries.iter().map(|i| i.fate).collect()
    };
    assert_eq!(fates("Bo"), vec![Fate::Tended]);
    assert_eq!(fates("Ana"), vec![Fate::Open]);
    assert_eq!(state.find("Ana").unwrap().downed, Some(DownCause::Injury));
}

/// A snapshot of an older srtrack left every injury open, a tended one too: it is rebuilt from
/// its history, and the injury first aid tended is tended.
#[test]
fn an_older_snapshot_with_an_injury_first_aid_tended_is_rebuilt_tended() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let v9 = std::fs::read_to_string(format!("{dir}/v9.ron")).unwrap();
    let older = v9
        .replace("fate: Tended", "fate: Open")
        .replacen("version: 9,", "version: 8,", 1);
    assert!(!older.contains("Tended"));
    let opened = opened_as_older("v9", &older);
    let bo = opened.state().find("Bo").unwrap().id;
    let sheet = opened.state().sr2097.as_ref().unwrap().sheet(bo);
    assert_eq!(sheet.injuries[0].fate, Fate::Tended);
}

/// The version 10 fixture (Anarchy) holds a Flashback taken by the narrator herself: the event
/// an older srtrack cannot read, which leaves Ana's narration the Flashback's.
#[test]
fn the_version_10_fixture_keeps_a_narration_that_is_the_flashback() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let path = std::path::PathBuf::from(format!("{dir}/v10.ron"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("FlashbackNarrated("),
        "the fixture holds the new event"
    );
    file::verify_snapshot(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    let (_, opened) = file::open(&path, catalogue).unwrap_or_else(|e| panic!("{e}"));
    let (_, loaded) = file::load(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(opened.state(), loaded.state());
    let state = opened.state();
    let narrator = state.narration().and_then(|n| n.narrator()).unwrap();
    assert_eq!(
        (narrator.who, narrator.slot),
        (state.find("Ana").unwrap().id, Slot::Flashback)
    );
}

/// A version 9 save written with the Flashback event (srtrack wrote them before the format
/// was bumped) is trusted no further than its history: it opens rebuilt, as the version 10 one.
#[test]
fn a_version_9_save_holding_a_flashback_narrated_opens_from_its_history() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let v10 = std::fs::read_to_string(format!("{dir}/v10.ron")).unwrap();
    let older = v10.replacen("version: 10,", "version: 9,", 1);
    let opened = opened_as_older("v10", &older);
    let narrator = opened
        .state()
        .narration()
        .and_then(|n| n.narrator())
        .unwrap();
    assert_eq!(narrator.slot, Slot::Flashback);
}

/// The version 11 fixture (SR5) stops while Ana's turn, moved after Bob's, waits: her mark
/// keeps the turn's serial, and what ends with that turn (Cy pinned) waits for it.
#[test]
fn the_version_11_fixture_keeps_the_serial_of_a_moved_turn() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let path = std::path::PathBuf::from(format!("{dir}/v11.ron"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("mark: Deferred(turn: 1)"),
        "the fixture holds the new mark"
    );
    file::verify_snapshot(&path, catalogue()).unwrap_or_else(|e| panic!("{e}"));
    let (_, opened) = file::open(&path, catalogue).unwrap_or_else(|e| panic!("{e}"));
    let state = opened.state();
    let cy = state.find("Cy").unwrap();
    assert!(
        cy.status("pinned").is_some(),
        "Ana's turn is still to be taken"
    );
}

/// A version 10 save whose snapshot holds a skipped turn's mark of the older shape (no serial)
/// opens from its history, as every older version's does, rather than failing to read.
#[test]
fn a_version_10_save_with_a_skipped_turn_waiting_opens_from_its_history() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let v11 = std::fs::read_to_string(format!("{dir}/v11.ron")).unwrap();
    let older = v11
        .replacen("version: 11,", "version: 10,", 1)
        .replace("mark: Deferred(turn: 1)", "mark: Deferred");
    assert!(older.contains("mark: Deferred,"));
    let opened = opened_as_older("v11", &older);
    assert!(
        opened
            .state()
            .find("Cy")
            .unwrap()
            .status("pinned")
            .is_some()
    );
}

/// A save of an older srtrack has no `open_tests` in its states, though its history leaves a
/// test's dice on the table: it is not taken for an edited file, and opens with them open.
#[test]
fn an_older_snapshot_taken_with_a_tests_dice_on_the_table_is_trusted() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let v8 = std::fs::read_to_string(format!("{dir}/v8.ron")).unwrap();
    let older = cut(&v8, ", open_tests: [", ")]").replacen("version: 8,", "version: 7,", 1);
    assert!(!older.contains("open_tests"));
    let opened = opened_as_older("v8", &older);
    let bo = opened.state().find("Bo").unwrap().id;
    assert!(opened.state().narration().unwrap().open_test(bo).is_some());
}
