//! The players' view: snapshots for SR5 and Anarchy, its waiting states, the follower through
//! a fold's rewrite, that it writes nothing, and the GM's key that hides characters.

use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::view::Watch;
use crate::encounter::{Encounter, System, players};
use crate::save::follow::{Follower, Look, Waiting};
use crate::save::{Autosave, Lock, file};
use crate::ui::demo;
use crate::ui::tests::{app_for, screen, select, typ};

fn draw(watch: &Watch, w: u16, h: u16) -> String {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    watch.render(area, &mut buf);
    let mut out = String::new();
    for y in 0..h {
        let line: String = (0..w).map(|x| buf[(x, y)].symbol()).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn watching(enc: &Encounter, title: &str) -> Watch {
    let mut w = Watch::new(title.into(), true);
    w.shown = Some(players::view(enc.state(), enc.system(), enc.rules()));
    w
}

/// The fight of sixteen with Moth hidden and a few wounds on both sides.
fn sr5() -> Encounter {
    let mut enc = demo::table();
    let lines = [
        "hide Moth, \"Ganger 6\"",
        "damage Jinx 4",
        "damage \"Ganger 1\" 5",
        "status Jinx Shielded",
    ];
    assert_eq!(demo::script(&mut enc, &lines, 3), Ok(()));
    enc
}

fn anarchy() -> Encounter {
    let mut enc = Encounter::for_system(
        System::Anarchy,
        Arc::new(crate::rules::HouseRules::embedded()),
        Arc::new(demo::catalogue()),
    );
    let lines = [
        "add Nix pc edge 3 body 3 will 4",
        "add Brick pc edge 2 body 6 will 3",
        "add Ganger npc body 4 will 3",
        "add Lurker npc",
        "hide Lurker",
        "narrate",
    ];
    assert_eq!(demo::script(&mut enc, &lines, 5), Ok(()));
    enc
}

/// A 2097 fight: Bo, a PC, Downed by a critical injury; Cy, an NPC, hurt; Ana unhurt.
fn sr2097() -> Encounter {
    let mut enc = Encounter::for_system(
        System::Sr2097,
        Arc::new(crate::rules::HouseRules::embedded()),
        Arc::new(demo::catalogue()),
    );
    let lines = [
        "add Ana pc int 4 rea 5 edge 3",
        "add Bo pc int 3 rea 3 edge 2",
        "add Cy npc int 2 rea 2 edge 2",
        "roll Ana dice 6 6",
        "roll Bo dice 4 4",
        "roll Cy dice 1 1",
        "start",
        "dmg - Bo 2d6+5 dice 6 6",
        "dmg - Cy 1d6+1 stun dice 2",
    ];
    assert_eq!(demo::script(&mut enc, &lines, 5), Ok(()));
    enc
}

/// The Anarchy table with Nix's Armor and Matrix hit, and the Ganger's armor.
fn anarchy_geared() -> Encounter {
    let mut enc = anarchy();
    let lines = [
        "sheet Nix armor 6 matrix 3",
        "damage Nix 2 armor",
        "damage Nix 1 matrix",
        "sheet Ganger armor 3",
        "damage Ganger 1 armor",
    ];
    assert_eq!(demo::script(&mut enc, &lines, 5), Ok(()));
    enc
}

#[test]
fn a_pc_shows_its_condition_in_every_system_and_an_npc_none() {
    for w in [40, 80, 160] {
        // Given Bo, a 2097 PC, Downed by a critical injury of 17, and Cy, an NPC, hurt
        let s = draw(&watching(&sr2097(), "alley"), w, 24);
        // Then the players see Bo's injury, whatever the width, and nothing of Cy's
        assert!(s.contains("injuries: critical (17)"), "{w}:\n{s}");
        assert_eq!(s.matches("injuries").count(), 1, "{w}:\n{s}");
        // Given Nix, an Anarchy PC, with Armor and Matrix hit, and the Ganger's armor hit
        let s = draw(&watching(&anarchy_geared(), "heist"), w, 24);
        // Then the players see Nix's tracks, and nothing of the Ganger's
        assert!(
            s.contains("Armor 2/6") && s.contains("Matrix 1/3"),
            "{w}:\n{s}"
        );
        assert_eq!(s.matches("Armor").count(), 1, "{w}:\n{s}");
    }
}

#[test]
fn the_header_keeps_the_turn_and_round_at_40_columns() {
    let long = "the long night at the Renraku arcology";
    let cases = [
        (anarchy(), "Turn 1"),
        (sr5(), "Round 1  Pass ▸1"),
        (sr2097(), "Round 1  Pass ▸1"),
    ];
    for (enc, stage) in cases {
        for w in [40, 80, 160] {
            let s = draw(&watching(&enc, long), w, 24);
            let head = s.lines().next().unwrap_or_default();
            assert!(head.contains(stage), "{w}: {head}");
            assert!(
                head.starts_with(" the "),
                "the title still begins it: {head}"
            );
        }
        let s = draw(&watching(&enc, long), 160, 24);
        let head = s.lines().next().unwrap_or_default();
        assert!(
            head.contains("players' view") && head.contains(&enc.system().to_string()),
            "all of it where there is room: {head}"
        );
    }
}

#[test]
fn characters_left_out_of_a_short_screen_are_counted_whole() {
    // Given the fight of sixteen, Moth and Ganger 6 hidden, on a narrow short screen
    let enc = sr5();
    let seen = players::view(enc.state(), enc.system(), enc.rules()).rows;
    let s = draw(&watching(&enc, "rooftop"), 40, 12);
    // Then the rows drawn and the ones counted as left out are everyone seen
    let drawn = s
        .lines()
        .filter(|l| seen.iter().any(|r| l.contains(&format!(" {} ", r.name))))
        .count();
    let more = s
        .lines()
        .find_map(|l| l.split("▼ ").nth(1))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .expect("a count of the rest");
    assert_eq!(drawn + more, seen.len(), "{s}");
}

/// The count a `▲ N more` or `▼ N more` line of `s` says (0 without one).
fn counted(s: &str, mark: &str) -> usize {
    s.lines()
        .find_map(|l| l.split(mark).nth(1))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(0)
}

#[test]
fn the_character_whose_turn_it_is_is_always_on_a_short_screen() {
    // Given the fight of sixteen, and the GM going through the pass turn by turn
    let mut enc = sr5();
    for _ in 0..16 {
        assert_eq!(demo::script(&mut enc, &["next"], 3), Ok(()));
        let view = players::view(enc.state(), enc.system(), enc.rules());
        let Some(acting) = view.acting.clone() else {
            continue;
        };
        for (w, h) in [(40, 12), (120, 9), (40, 8), (40, 7)] {
            // When the players look on a screen too short for everyone
            let s = draw(&watching(&enc, "rooftop"), w, h);
            let body: Vec<&str> = s.lines().skip(3).collect();
            // Then the row of the one acting is drawn, below the header
            assert!(
                body.iter().any(|l| l.contains(&format!(" {acting} "))),
                "{acting} at {w}x{h}:\n{s}"
            );
            // And the rows drawn and those counted above and below are everyone seen (on a
            // pane of three lines or more: with two, the one acting alone)
            if h < 8 {
                continue;
            }
            let drawn = body
                .iter()
                .filter(|l| {
                    view.rows
                        .iter()
                        .any(|r| l.contains(&format!(" {} ", r.name)))
                })
                .count();
            assert_eq!(
                counted(&s, "▲ ") + drawn + counted(&s, "▼ "),
                view.rows.len(),
                "{w}x{h}:\n{s}"
            );
        }
    }
}

#[test]
fn snapshots_of_each_system_at_40_80_and_160_columns() {
    for w in [40, 80, 160] {
        let s = draw(&watching(&sr2097(), "alley"), w, 12);
        insta::assert_snapshot!(format!("watch_sr2097_{w}"), s);
        let s = draw(&watching(&anarchy_geared(), "heist"), w, 12);
        insta::assert_snapshot!(format!("watch_anarchy_gear_{w}"), s);
        let s = draw(&watching(&sr5(), "rooftop"), w, 12);
        insta::assert_snapshot!(format!("watch_sr5_{w}"), s);
    }
}

#[test]
fn snapshots_of_the_players_view() {
    for (w, h) in [(80, 24), (120, 40)] {
        let s = draw(&watching(&sr5(), "rooftop"), w, h);
        assert!(
            !s.contains("Moth") && !s.contains("Ganger 6"),
            "hidden:\n{s}"
        );
        insta::assert_snapshot!(format!("watch_sr5_{w}x{h}"), s);
        let s = draw(&watching(&anarchy(), "heist"), w, h);
        assert!(!s.contains("Lurker"), "hidden:\n{s}");
        insta::assert_snapshot!(format!("watch_anarchy_{w}x{h}"), s);
    }
}

#[test]
fn long_names_show_whole_where_the_row_has_room() {
    // Given two NPCs whose names differ only past their 16th column
    let mut enc = sr5();
    let lines = [
        "add \"Ganger Lieutenant Alpha\" npc int 3 rea 3",
        "add \"Ganger Lieutenant Bravo\" npc int 3 rea 3",
    ];
    assert_eq!(demo::script(&mut enc, &lines, 3), Ok(()));
    // Then at 80 columns the players tell them apart
    let s = draw(&watching(&enc, "rooftop"), 80, 40);
    assert!(s.contains("Ganger Lieutenant Alpha"), "{s}");
    assert!(s.contains("Ganger Lieutenant Bravo"), "{s}");
}

/// Given a fighter who joined after its place in the pass went by, then the players' row leaves
/// its mark blank, as the GM's order does: `–` would tell the table it lost a turn.
#[test]
fn a_joiner_whose_place_went_by_has_no_lost_turn_mark() {
    let mut enc = demo::table();
    let lines = ["add Guard int 6 rea 6", "roll Guard hits 6"];
    assert_eq!(demo::script(&mut enc, &lines, 3), Ok(()));
    let s = draw(&watching(&enc, "rooftop"), 120, 40);
    let row = s.lines().find(|l| l.contains("Guard")).unwrap_or_default();
    assert!(row.starts_with("│   1 Guard"), "{s}");
}

#[test]
fn an_npc_row_says_nothing_the_gm_keeps() {
    let enc = sr5();
    let s = draw(&watching(&enc, "rooftop"), 120, 40);
    let row = s
        .lines()
        .find(|l| l.contains("Ganger 1 "))
        .expect("Ganger 1 is seen");
    assert!(
        !row.contains("IP") && !row.contains("Edge") && !row.contains("P 5"),
        "{row}"
    );
    let jinx = s
        .lines()
        .find(|l| l.contains("Jinx"))
        .expect("Jinx is seen");
    assert!(jinx.contains("IP ") && jinx.contains("P 4/"), "{jinx}");
}

#[test]
fn waiting_keeps_the_last_view_and_says_why() {
    let mut w = watching(&sr5(), "rooftop");
    w.waiting = Some(Waiting::Missing);
    let s = draw(&w, 80, 24);
    assert!(s.contains("Jinx"), "the last view stays:\n{s}");
    assert!(
        s.contains("waiting: the save is not there (the GM may have quit)"),
        "{s}"
    );
    w.waiting = Some(Waiting::Broken(
        "x.ron:1:1: the \u{1b}[2Jfile is empty".into(),
    ));
    let s = draw(&w, 120, 24);
    assert!(
        s.contains("waiting: the save does not load") && !s.contains('\u{1b}'),
        "{s}"
    );
}

#[test]
fn text_from_the_save_is_escaped() {
    // The engine refuses control characters in names; a save edited by hand may hold them.
    let mut w = watching(&demo::table(), "bad\u{7}name");
    if let Some(v) = w.shown.as_mut() {
        v.rows[0].name = "Evil\u{1b}[31m".into();
        v.rows[0].statuses.push(("Odd\u{1b}]0;x\u{7}".into(), 1));
        v.acting = Some("Evil\u{1b}[31m".into());
    }
    let s = draw(&w, 80, 24);
    assert!(!s.contains('\u{1b}') && !s.contains('\u{7}'), "{s:?}");
}

// ---- the follower ----

// A save on disk written as the GM's screen writes it.
use crate::ui::held_tests::Holder as Gm;

fn loaded(look: Look) -> Encounter {
    match look {
        Look::Loaded(enc) => *enc,
        Look::Same => panic!("nothing new seen"),
        Look::Waiting(w) => panic!("waiting: {w:?}"),
    }
}

#[test]
fn the_follower_sees_each_command_and_nothing_twice() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.ron");
    let mut gm = Gm::new(&path);
    let mut f = Follower::new(path.clone(), Arc::new(demo::catalogue()));
    assert_eq!(loaded(f.look()).state(), gm.enc.state());
    assert!(matches!(f.look(), Look::Same));
    gm.run("hide Moth");
    let seen = loaded(f.look());
    assert!(
        seen.state()
            .find("Moth")
            .is_some_and(crate::encounter::Combatant::is_hidden)
    );
    gm.saver.close(&gm.enc).expect("folded");
    assert_eq!(loaded(f.look()).state(), gm.enc.state());
}

#[test]
fn a_new_snapshot_beside_the_old_journal_is_never_shown_older() {
    // The moment inside a fold: the snapshot is new, the journal still the old one's. The
    // loader gives the new snapshot alone, which holds every change.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.ron");
    let mut gm = Gm::new(&path);
    gm.run("hide Moth");
    gm.run("damage Jinx 2");
    let journal = crate::save::journal::path_of(&path);
    let old_journal = std::fs::read(&journal).expect("journal");
    gm.saver.close(&gm.enc).expect("folded");
    std::fs::write(&journal, &old_journal).expect("the old journal put back");
    let mut f = Follower::new(path.clone(), Arc::new(demo::catalogue()));
    assert_eq!(loaded(f.look()).state(), gm.enc.state());
}

#[test]
fn a_missing_or_broken_save_waits_and_picks_up_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.ron");
    let gm = Gm::new(&path);
    let mut f = Follower::new(path.clone(), Arc::new(demo::catalogue()));
    loaded(f.look());
    let aside = dir.path().join("aside");
    std::fs::rename(&path, &aside).expect("moved away");
    assert!(matches!(f.look(), Look::Waiting(Waiting::Missing)));
    assert!(
        matches!(f.look(), Look::Same),
        "no reload while nothing changes"
    );
    std::fs::write(&path, b"SaveFile(version: 3, name: ").expect("torn");
    assert!(matches!(f.look(), Look::Waiting(Waiting::Broken(_))));
    std::fs::rename(&aside, &path).expect("back");
    assert_eq!(loaded(f.look()).state(), gm.enc.state());
}

/// Every file in a directory: name, bytes, modification time.
fn listing(dir: &std::path::Path) -> Vec<(String, Vec<u8>, std::time::SystemTime)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| {
            let p = e.expect("entry").path();
            let m = std::fs::metadata(&p).expect("meta");
            (
                p.file_name().expect("name").to_string_lossy().into_owned(),
                std::fs::read(&p).expect("read"),
                m.modified().expect("mtime"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn watching_writes_locks_and_creates_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.ron");
    {
        let mut gm = Gm::new(&path);
        gm.run("hide Moth");
        // The GM's lock is dropped with it: a watcher must not take it either.
    }
    let before = listing(dir.path());
    let mut f = Follower::new(path.clone(), Arc::new(demo::catalogue()));
    loaded(f.look());
    let _ = f.look();
    assert_eq!(listing(dir.path()), before);
    // No lock taken: a GM opens the save while it is watched.
    assert!(Lock::acquire(&path).is_ok());
    assert!(file::load(&path, Arc::new(demo::catalogue())).is_ok());
}

// ---- the GM's key ----

#[test]
fn shift_w_hides_the_marked_characters_and_shows_them_again() {
    let mut app = app_for(demo::table());
    select(&mut app, "Ganger 1");
    typ(&mut app, "vjv");
    let marked: Vec<_> = app.tracker.marks.clone();
    assert_eq!(marked.len(), 2);
    let cursor = app.encounter().cursor();
    typ(&mut app, "W");
    assert_eq!(app.encounter().cursor(), cursor + 1, "one command");
    for id in &marked {
        assert!(
            app.state()
                .get(*id)
                .is_some_and(crate::encounter::Combatant::is_hidden)
        );
    }
    let s = screen(&mut app, 160, 48);
    let name = app.state().name(marked[0]).to_string();
    let row = s
        .lines()
        .filter_map(|l| l.split("││").next())
        .find(|l| l.contains(&format!(" {name} ")) && l.contains(" NPC "))
        .expect("the row");
    assert!(row.contains('◌'), "marked as hidden:\n{row}");
    typ(&mut app, "W");
    for id in &marked {
        assert!(
            !app.state()
                .get(*id)
                .is_some_and(crate::encounter::Combatant::is_hidden)
        );
    }
}

#[test]
fn q_esc_and_ctrl_c_quit_the_players_view_and_nothing_else_does() {
    use crate::ui::action::Action;
    use crate::ui::keymap::{ModeKind, lookup};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let key = |code, mods| KeyEvent::new(code, mods);
    for system in [System::Sr5, System::Anarchy] {
        for k in [
            key(KeyCode::Char('q'), KeyModifiers::NONE),
            key(KeyCode::Esc, KeyModifiers::NONE),
            key(KeyCode::Char('c'), KeyModifiers::CONTROL),
        ] {
            assert_eq!(lookup(ModeKind::Watch, system, &k), Some(Action::Quit));
        }
        for c in ['n', 'w', 'h', 'u', ':'] {
            let k = key(KeyCode::Char(c), KeyModifiers::NONE);
            assert_ne!(
                lookup(ModeKind::Watch, system, &k),
                Some(Action::Quit),
                "{c}"
            );
            assert!(
                matches!(
                    lookup(ModeKind::Watch, system, &k),
                    None | Some(Action::Help)
                ),
                "{c} does something in a read-only view"
            );
        }
    }
}

#[test]
fn a_long_waiting_reason_wraps_onto_the_lines_it_needs_with_q_quits_readable() {
    // Given the watcher keeps the last view while the save does not load, for a long reason
    let reason = "/home/gm/campaign/saves/demo.ron:1:8: the file ends before the encounter does \
                  (it may be being written): it is read again when it changes";
    let mut w = watching(&sr5(), "rooftop");
    w.waiting = Some(Waiting::Broken(reason.into()));
    for width in [80, 100] {
        // When the view is drawn at 80 and 100 columns
        let s = draw(&w, width, 24);
        // Then the bottom lines read the whole reason and `q quits`, nothing cut
        let lines: Vec<&str> = s.lines().collect();
        let foot = lines
            .iter()
            .position(|l| l.contains("waiting:"))
            .unwrap_or_else(|| panic!("no waiting line:\n{s}"));
        let said: Vec<&str> = lines[foot..].iter().map(|l| l.trim()).collect();
        let said = said.join(" ");
        assert!(said.contains(reason), "{width} columns:\n{s}");
        assert!(said.ends_with("· q quits"), "{width} columns:\n{s}");
        // and the last view stays above it
        assert!(s.contains("Jinx"), "{s}");
    }
}
