//! SR5 on the screen, in scripted key sessions: the test form (`T`) with its live odds, and the
//! attack chain offered after an attack action, step by step to the boxes.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::App;
use super::demo;
use super::mode::Mode;
use super::mode::test_form::{self, Purpose};
use super::tests::{app_for, screen, tab_clears};
use crate::encounter::system::sr5::Sr5Event;
use std::sync::Arc;

use crate::encounter::{Encounter, Event, System, Track};

fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn typ(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// An encounter with the whole catalogue (the demo's is a handful of actions).
fn encounter(system: System) -> Encounter {
    let rules = crate::rules::HouseRules::embedded();
    let catalogue = crate::catalogue::Catalogue::embedded(&rules).expect("the built-in catalogue");
    Encounter::for_system(system, Arc::new(rules), Arc::new(catalogue))
}

fn app_with(lines: &[&str]) -> App {
    let mut enc = encounter(System::Sr5);
    demo::script(&mut enc, lines, 5).unwrap_or_else(|e| panic!("{e}"));
    app_for(enc)
}

/// The open test form; a test that expects one fails with the mode it found instead.
fn test_form(app: &App) -> &test_form::State {
    let Mode::TestForm(f) = app.mode() else {
        panic!("not in the test form: {:?}", app.mode().kind());
    };
    f
}

/// `A` pressed: the attack action whose attack the test form it opens rolls.
fn brought_back(app: &mut App) -> String {
    press(app, KeyCode::Char('A'));
    match &test_form(app).purpose {
        Purpose::Attack { action, .. } => action.clone(),
        other => panic!("not an attack's form: {other:?}"),
    }
}

fn odds(app: &App) -> Result<String, String> {
    test_form(app).odds.clone()
}

fn news(app: &App) -> String {
    app.message()
        .map(|(m, _)| m.to_string())
        .unwrap_or_default()
}

fn last_sr5(app: &App) -> Vec<Sr5Event> {
    let enc = &app.enc;
    enc.applied()
        .last()
        .map(|e| {
            e.events
                .iter()
                .filter_map(|e| match e {
                    Event::Sr5(s) => Some(s.clone()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The characters the last command attacked, in the order it named them.
fn attacked(app: &App) -> Option<Vec<crate::encounter::CombatantId>> {
    last_sr5(app).into_iter().find_map(|e| match e {
        Sr5Event::Attacked { target, also, .. } => Some([vec![target], also].concat()),
        _ => None,
    })
}

#[test]
fn the_test_form_does_not_offer_again_a_test_the_action_rolled() {
    // Wounded, Ana's Stand Up rolls its Body + Willpower (2) with the action: done.
    let mut app = app_with(&[
        "add Ana pc int 5 rea 3 edge 2 body 2 will 3",
        "roll Ana hits 3",
        "start",
        "damage Ana 1 stun",
        "status Ana Prone",
        "act Ana Stand Up hits 2",
    ]);
    press(&mut app, KeyCode::Char('T'));
    let f = test_form(&app);
    assert!(!f.title.contains("Stand Up"), "{}", f.title);
}

/// Ana, Prone, has stood up: the catalogue's test of Stand Up is Body + Willpower (2), and
/// Ana's sheet has them.
fn ana_stands_up() -> App {
    app_with(&[
        "add Ana pc int 5 rea 3 edge 2 body 2 will 3",
        "roll Ana hits 3",
        "start",
        "status Ana Prone",
        "act Ana Stand Up",
    ])
}

/// A wounded character's odds say what the wounds took from the pool typed, as the log
/// will say it of the roll: the GM types 5, reads 4 dice and sees why.
#[test]
fn the_test_forms_odds_name_the_wound_modifier_in_the_pool() {
    // Ana, after `then`, types a pool of 5 in the test form: its odds.
    let odds_of_5 = |then: &str| {
        let mut app = app_with(&[
            "add Ana pc int 5 rea 3 edge 2 body 2 will 3",
            "roll Ana hits 3",
            "start",
            then,
        ]);
        press(&mut app, KeyCode::Char('T'));
        typ(&mut app, "5");
        odds(&app)
    };
    let hurt = odds_of_5("damage Ana 3 physical");
    assert!(
        hurt.as_ref()
            .is_ok_and(|o| o.starts_with("odds 4 dice (5, wounds -1): hits 1.33, ")),
        "{hurt:?}"
    );
    // Two boxes, short of the first modifier: the pool is the number typed, and says no more.
    let light = odds_of_5("damage Ana 2 physical");
    assert!(
        light
            .as_ref()
            .is_ok_and(|o| o.starts_with("odds 5 dice: hits 1.67, ")),
        "{light:?}"
    );
}

#[test]
fn the_test_form_takes_the_last_actions_test_and_shows_the_odds_as_the_gm_types() {
    let mut app = ana_stands_up();
    press(&mut app, KeyCode::Char('T'));
    let f = test_form(&app);
    assert_eq!(f.purpose, Purpose::Test(app.selected_id().expect("Ana")));
    assert!(f.title.contains("Stand Up"), "{}", f.title);
    assert_eq!(f.fields[0].get(), "5");
    assert_eq!(f.fields[2].get(), "2");
    assert!(
        odds(&app).is_ok_and(|o| o.starts_with("odds 5 dice, threshold 2: P(success) ")),
        "{:?}",
        odds(&app)
    );
    // A limit typed: the odds follow at once.
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "1");
    assert!(
        odds(&app)
            .is_ok_and(|o| o.starts_with("odds 5 dice, limit 1, threshold 2: P(success) 0.0000"))
    );
    // A bad value says why instead of odds, and Enter keeps it in its field.
    typ(&mut app, "x");
    assert!(odds(&app).is_err());
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::TestForm(_)));
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Backspace);
    // The table's dice, typed in the last field.
    for _ in 0..6 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "6 5 1 2 3");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert!(
        news(&app).starts_with("test Ana: 5 dice [6 5 1 2 3]") && news(&app).contains("success"),
        "{}",
        news(&app)
    );
}

/// An open test from the form: the odds give the hits to expect, and the result on the status
/// line is the hits with the glitch, no verdict.
#[test]
fn an_open_test_from_the_form_is_answered_by_its_hits_and_glitch() {
    // Given Ana's test form with a pool of 5, no threshold, no opponent
    let mut app = app_with(&["add Ana pc int 5 rea 3 edge 2 body 3 will 5"]);
    press(&mut app, KeyCode::Char('T'));
    typ(&mut app, "5");
    assert!(
        odds(&app).is_ok_and(|o| o.starts_with("odds 5 dice: hits 1.67, P(glitch) ")),
        "{:?}",
        odds(&app)
    );
    // When the table's dice are typed with three 1s and the test is rolled
    for _ in 0..7 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "6 5 1 1 1");
    press(&mut app, KeyCode::Enter);
    // Then the screen gives the hits and the glitch as the answer
    assert!(matches!(app.mode(), Mode::Tracker));
    assert_eq!(news(&app), "test Ana: 5 dice [6 5 1 1 1], 2 hits, glitch");
}

#[test]
fn the_test_form_refuses_what_it_would_otherwise_leave_out() {
    let mut app = app_with(&["add Ana pc int 5 rea 3 edge 2 body 3 will 5"]);
    let cursor = app.encounter().cursor();
    press(&mut app, KeyCode::Char('T'));
    typ(&mut app, "8");
    // Given a pool for an opponent, and no opponent named
    for _ in 0..4 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "5");
    // When the GM presses Enter, then the form stays with the reason at Vs pool
    press(&mut app, KeyCode::Enter);
    let f = test_form(&app);
    assert!(
        f.fields[4]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("no opponent named")),
        "{:?}",
        f.fields[4].error
    );
    // And nothing was rolled
    assert_eq!(app.encounter().cursor(), cursor);
}

/// An opposed test against a player: both sides' dice come from the table.
#[test]
fn an_opposed_test_takes_the_opponents_dice_from_the_table_too() {
    // Given Ana's test form against Bo, a player, with both pools
    let mut app = app_with(&[
        "add Ana pc int 5 rea 3 edge 2 body 3 will 5",
        "add Bo pc int 3 rea 3 body 3 will 3",
    ]);
    press(&mut app, KeyCode::Char('T'));
    typ(&mut app, "4");
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "Bo");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "3");
    // When Bo's dice and Ana's are typed in
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "6 6 5");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "6 5 2 1");
    press(&mut app, KeyCode::Enter);
    // Then the test is rolled with those dice: Bo's 3 hits beat Ana's 2
    assert!(matches!(app.mode(), Mode::Tracker));
    let news = news(&app);
    assert!(news.contains("4 dice [6 5 2 1]"), "{news}");
    assert!(news.contains("[6 6 5]"), "{news}");
    // And Bo's dice with no opponent named are refused at their field
    press(&mut app, KeyCode::Char('T'));
    typ(&mut app, "4");
    for _ in 0..5 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "6 6 5");
    let cursor = app.encounter().cursor();
    press(&mut app, KeyCode::Enter);
    let f = test_form(&app);
    assert!(
        f.fields[5]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("no opponent named")),
        "{:?}",
        f.fields[5].error
    );
    assert_eq!(app.encounter().cursor(), cursor);
}

#[test]
fn a_key_that_starts_no_push_word_changes_nothing_and_the_form_says_the_choices() {
    // Given the test form on its Push toggle
    let mut app = app_with(&["add Ana pc int 5 rea 3 edge 2 body 3 will 5"]);
    press(&mut app, KeyCode::Char('T'));
    for _ in 0..6 {
        press(&mut app, KeyCode::Tab);
    }
    assert_eq!(test_form(&app).fields[6].label, "Push");
    // When the GM types what starts neither word
    typ(&mut app, "x");
    // Then Push stays no, and the form's last line says what the field takes
    let f = test_form(&app);
    assert_eq!(f.fields[6].get(), "no");
    assert_eq!(
        f.error.as_deref(),
        Some("Push is a choice: no, yes (Space or ←/→ to change, or its first letter)")
    );
}

#[test]
fn tab_and_shift_tab_clear_the_test_forms_last_line_message_as_any_key_that_acts() {
    // The test form saying what its Push toggle takes
    let open = || {
        let mut app = app_with(&["add Ana pc int 5 rea 3 edge 2 body 3 will 5"]);
        press(&mut app, KeyCode::Char('T'));
        for _ in 0..6 {
            press(&mut app, KeyCode::Tab);
        }
        typ(&mut app, "x");
        app
    };
    tab_clears(open, "Push is a choice");
}

/// Push the Limit is a yes/no toggle as the other forms' are: Space or ←/→ flip it, and a
/// typed `y` or `n` still picks its word.
#[test]
fn the_test_forms_push_is_a_toggle() {
    let mut app = app_with(&["add Ana pc int 5 rea 3 edge 2 body 3 will 5"]);
    press(&mut app, KeyCode::Char('T'));
    typ(&mut app, "8");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "3");
    for _ in 0..5 {
        press(&mut app, KeyCode::Tab);
    }
    // Given the Push field, it shows both words, the chosen one in brackets, and the last line
    // says how to change it
    let shown = screen(&mut app, 120, 40);
    assert!(shown.contains("▶Push        [no] yes"));
    assert!(shown.contains("Space, ←/→: change a choice"), "{shown}");
    // When the GM presses Space, then it is yes; → and ← flip it again
    press(&mut app, KeyCode::Char(' '));
    assert_eq!(test_form(&app).fields[6].get(), "yes");
    assert!(screen(&mut app, 120, 40).contains("▶Push         no [yes]"));
    press(&mut app, KeyCode::Right);
    assert_eq!(test_form(&app).fields[6].get(), "no");
    press(&mut app, KeyCode::Left);
    assert_eq!(test_form(&app).fields[6].get(), "yes");
    // And a typed n or y still picks its word; any other key leaves it
    typ(&mut app, "n");
    assert_eq!(test_form(&app).fields[6].get(), "no");
    typ(&mut app, "6");
    assert_eq!(test_form(&app).fields[6].get(), "no");
    typ(&mut app, "y");
    assert_eq!(test_form(&app).fields[6].get(), "yes");
    // And the odds count the pushed test: its limit is gone
    assert!(
        odds(&app).is_ok_and(|o| o.starts_with("odds 8 dice: hits 2.67, P(glitch) ")),
        "{:?}",
        odds(&app)
    );
    typ(&mut app, "n");
    assert!(
        odds(&app).is_ok_and(|o| o.starts_with("odds 8 dice, limit 3: ")),
        "{:?}",
        odds(&app)
    );
}

#[test]
fn a_gestures_test_is_offered_to_its_onlookers_not_to_the_one_who_gestures() {
    // Given Ana gestures (the catalogue: onlookers roll Intuition (2))
    let mut app = app_with(&[
        "add Ana pc int 5 rea 3 edge 2 body 3 will 5",
        "add Bob npc int 4 rea 3 body 3 will 3",
        "roll Ana hits 3",
        "roll Bob hits 1",
        "start",
        "act Ana Gesture",
    ]);
    // When the GM opens Ana's test form, it offers no Gesture test
    press(&mut app, KeyCode::Char('T'));
    let f = test_form(&app);
    assert!(!f.title.contains("Gesture"), "{}", f.title);
    assert_eq!(f.fields[0].get(), "");
    press(&mut app, KeyCode::Esc);
    // Then Bob's, an onlooker's, does: his Intuition, threshold 2
    super::tests::select(&mut app, "Bob");
    press(&mut app, KeyCode::Char('T'));
    let f = test_form(&app);
    assert!(f.title.contains("Ana's Gesture"), "{}", f.title);
    assert_eq!(f.fields[0].get(), "4");
    assert_eq!(f.fields[2].get(), "2");
}

#[test]
fn the_test_form_is_sr5_only() {
    let mut enc = encounter(System::Sr2097);
    demo::script(&mut enc, &["add Ana pc int 5 rea 3"], 1).unwrap_or_else(|e| panic!("{e}"));
    let mut app = app_for(enc);
    press(&mut app, KeyCode::Char('T'));
    assert!(matches!(app.mode(), Mode::Tracker));
}

/// Guard 1 fires at Jinx, a player character: the screen offers the attack, then waits for the
/// player's defense and soak dice, each typed in a form of its own, down to the boxes.
#[test]
fn an_attack_action_offers_the_chain_step_by_step_down_to_the_boxes() {
    let mut app = app_with(&[
        "add Jinx pc int 4 rea 5 edge 3 body 4 will 3",
        "add Guard npc int 3 rea 4 edge 1 body 4 will 3",
        "weapon Guard add Ingram Smartgun X dv 8 p ap 0 acc 6 ammo 32",
        "armor Jinx 12",
        "roll Jinx hits 1",
        "roll Guard hits 4",
        "start",
    ]);
    // The order pane's selection is the target the offer fills in.
    let jinx = app
        .roster()
        .iter()
        .position(|id| app.state().name(*id) == "Jinx")
        .expect("Jinx");
    for _ in 0..jinx {
        press(&mut app, KeyCode::Char('j'));
    }
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire gun");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter); // SS, the first fire mode
    let f = test_form(&app);
    assert!(matches!(f.purpose, Purpose::Attack { .. }));
    assert_eq!(f.fields[0].get(), "Jinx");
    // A player's defense is typed later: no odds against it yet.
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "9");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "6 6 6 1 2 3 4 2 2");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(last_sr5(&app)[..], [Sr5Event::Attacked { .. }]));
    // Jinx's defense: Reaction 5 + Intuition 4 from the sheet, against the attack's 3 hits.
    assert!(
        odds(&app).is_ok_and(|o| o.starts_with(
            "the defense holds on 3+ hits: odds 9 dice (Reaction 5 + Intuition 4), threshold 3"
        )),
        "{:?}",
        odds(&app)
    );
    let before = screen(&mut app, 120, 36);
    assert!(before.contains("Jinx's defense"), "{before}");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "2 2 2 2 3 3 4 4 6");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(last_sr5(&app)[..], [Sr5Event::Defended { .. }]));
    // Hit, net 2: DV 10 against Body 4 + armor 12 (DV 10 does not exceed armor 12: Stun).
    assert!(
        odds(&app).is_ok_and(|o| o
            .starts_with("no damage on 10+ hits: odds 16 dice (Body 4 + armor 12), threshold 10")),
        "{:?}",
        odds(&app)
    );
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "hits 3");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    let jinx_id = app.state().find("Jinx").expect("Jinx").id;
    assert_eq!(app.state().get(jinx_id).map(|c| c.damage.stun), Some(7));
    assert!(news(&app).contains("7 Stun"), "{}", news(&app));
    let last = app.enc.applied().last().expect("the soak");
    assert!(last.events.iter().any(|e| matches!(
        e,
        Event::Damaged {
            track: Track::Stun,
            boxes: 7,
            ..
        }
    )));
    // The status pane holds the weapon's rounds left and the armor (below the selected
    // character's lines: the pane scrolls to them when focused).
    let status: Vec<String> = crate::ui::view::status::wrapped(&app, 200)
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    let status = status.join("\n");
    assert!(status.contains("Ingram Smartgun X 31/32"), "{status}");
    assert!(status.contains("armor 12"), "{status}");
}

/// The Guard's turn, Jinx's after it; the Guard's Ingram holds `rounds`.
fn guard_with_rounds(rounds: u8) -> App {
    let weapon = format!("weapon Guard add Ingram Smartgun X dv 8 p ap 0 acc 6 ammo {rounds}");
    app_with(&[
        "add Jinx pc int 4 rea 5 edge 3 body 4 will 3",
        "add Guard npc int 3 rea 4 edge 1 body 4 will 3",
        &weapon,
        "roll Jinx hits 1",
        "roll Guard hits 4",
        "start",
    ])
}

/// The Guard's turn, with this many rounds in his Ingram, and Fire Gun picked in the picker.
fn guard_picks_fire_gun(rounds: u8) -> App {
    let mut app = guard_with_rounds(rounds);
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire gun");
    press(&mut app, KeyCode::Enter);
    app
}

/// Typing in the fire-mode list jumps to the mode of that name, as typing jumps in the other
/// lists: `b` or `BF` finds burst fire.
#[test]
fn typing_a_fire_modes_name_selects_it() {
    for typed in ["b", "BF"] {
        let mut app = guard_picks_fire_gun(32);
        let Mode::Choose(_) = app.mode() else {
            panic!("the fire-mode list: {:?}", app.mode().kind());
        };
        typ(&mut app, typed);
        assert!(
            app.message().is_none_or(|(_, err)| !err),
            "{:?}",
            app.message()
        );
        let Mode::Choose(c) = app.mode() else {
            panic!("still the fire-mode list");
        };
        assert!(
            c.items[c.selected].label.starts_with("BF"),
            "{typed}: {:?}",
            c.items[c.selected]
        );
    }
}

#[test]
fn the_fire_mode_list_says_typing_a_mode_jumps_and_fire_bows_arrows_are_not_counted() {
    // Given the fire-mode list of the Guard's Fire Gun
    let mut app = guard_picks_fire_gun(32);
    // Then its footer speaks of modes, not names
    let s = screen(&mut app, 120, 36);
    assert!(
        s.contains("type a mode to jump") && !s.contains("type a name"),
        "{s}"
    );
    // When the GM looks up Fire Bow in the picker instead
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire bow");
    // Then its panel says its arrow is not counted, as the gun's rounds are
    let s = screen(&mut app, 120, 36);
    assert!(s.contains("Ammunition: 1 (not counted)"), "{s}");
}

/// T on a Downed character is refused at the key with the engine's sentence: no form to fill
/// first.
#[test]
fn t_on_a_downed_character_is_refused_at_the_key() {
    let mut app = guard_picks_fire_gun(32);
    // Esc leaves the mode list for the picker, Esc again the picker.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    super::tests::select(&mut app, "Jinx");
    typ(&mut app, "z");
    assert!(
        app.state()
            .get(app.selected_id().expect("selected"))
            .is_some_and(crate::encounter::model::Combatant::is_downed)
    );
    typ(&mut app, "T");
    assert!(
        matches!(app.mode(), Mode::Tracker),
        "{:?}",
        app.mode().kind()
    );
    assert_eq!(app.message(), Some(("Jinx is Downed and cannot act", true)));
}

#[test]
fn esc_skips_the_attack_chain_and_the_action_stays_spent() {
    let mut app = guard_picks_fire_gun(32);
    // Fire Gun asks its fire mode first; Enter takes the first (SS).
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::TestForm(_)));
    // The title and the footer say the same of Esc.
    let s = screen(&mut app, 120, 36);
    assert!(
        s.contains("Esc: later") && !s.contains("Esc: cancel"),
        "{s}"
    );
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert!(matches!(
        last_sr5(&app)[..],
        [Sr5Event::RoundsFired { rounds: 1, .. }]
    ));
    // The attack was not rolled: A brings it back, for the Guard's Fire Gun.
    assert_eq!(brought_back(&mut app), "Fire Gun");
    // Rolled, the attack is not brought back again: A is the step it waits for.
    typ(&mut app, "Jinx");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "9");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "hits 2");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('A'));
    assert!(matches!(test_form(&app).purpose, Purpose::Step(_)));
    // Once it is settled, nothing waits.
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "hits 5");
    press(&mut app, KeyCode::Enter);
    assert!(
        matches!(app.mode(), Mode::Tracker),
        "{:?}",
        app.mode().kind()
    );
    press(&mut app, KeyCode::Char('A'));
    assert!(matches!(app.mode(), Mode::Tracker));
    assert!(news(&app).starts_with("no attack waits"), "{}", news(&app));
}

/// The Guard, on his turn, before the group Ganger (Ganger 1 to 3), those named `downed`
/// Downed; the GM has picked Fire Gun (SS), typed the group's name as the target and the
/// pool 9.
fn guard_fires_at_the_gang(downed: &[&str]) -> App {
    let weapon = "weapon Guard add Ingram Smartgun X dv 8 p ap 0 acc 6 ammo 32";
    let mut lines = vec![
        "add Guard npc int 3 rea 4 edge 1 body 4 will 3",
        "add Ganger x3 npc int 2 rea 3 edge 1 body 5 will 2",
        weapon,
        "roll Guard hits 4",
        "roll Ganger 1 hits 1",
        "roll Ganger 2 hits 1",
        "roll Ganger 3 hits 1",
        "start",
    ];
    let downs: Vec<String> = downed.iter().map(|n| format!("down {n}")).collect();
    lines.extend(downs.iter().map(String::as_str));
    let mut app = app_with(&lines);
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire gun");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "Ganger");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "9");
    app
}

#[test]
fn a_groups_name_in_the_attack_forms_targets_stands_for_its_members_still_standing() {
    // Given the group Ganger, Ganger 2 Downed, and the Guard's form at the group
    let mut app = guard_fires_at_the_gang(&["Ganger 2"]);
    let ids: Vec<_> = ["Ganger 1", "Ganger 3"]
        .iter()
        .map(|n| app.state().find(n).expect(n).id)
        .collect();
    // When the GM types the hits and rolls
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "hits 3");
    assert!(odds(&app).is_ok(), "{:?}", odds(&app));
    press(&mut app, KeyCode::Enter);
    // Then it is one attack on the members standing, as `attack Guard Ganger` is
    let attacked = attacked(&app);
    assert_eq!(attacked, Some(ids), "{:?}", app.message());
}

#[test]
fn a_group_all_downed_in_the_attack_forms_targets_is_refused_for_the_group() {
    // Given the group Ganger, every member Downed
    // When the GM types the group's name as the Guard's target
    let app = guard_fires_at_the_gang(&["Ganger 1", "Ganger 2", "Ganger 3"]);
    // Then the form says it of the group, as `attack Guard Ganger` does
    let said = odds(&app).expect_err("an attack on a gang all Downed");
    assert!(
        said.ends_with("every member of Ganger is Downed: attack someone still standing"),
        "{said}"
    );
}

/// Jinx, on her turn, with no weapon on the sheet, and the Guard.
fn unarmed_jinx() -> App {
    app_with(&[
        "add Jinx pc int 4 rea 5 edge 3 body 4 will 3",
        "add Guard npc int 3 rea 4 edge 1 body 4 will 3",
        "roll Jinx hits 4",
        "roll Guard hits 1",
        "start",
    ])
}

#[test]
fn an_attack_action_with_no_weapon_says_so_up_front_and_a_brings_it_back_once_armed_and_fires_it() {
    // Given Jinx, on her turn, has no weapon on the sheet
    let mut app = unarmed_jinx();
    // When the GM picks Fire Gun (SS) for her
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire gun");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    // Then the attack form says at once that she has none, and how to give her one
    let f = test_form(&app);
    let why = f.error.clone().unwrap_or_default();
    assert!(
        why.contains("Jinx has no weapon") && why.contains("`weapon Jinx add"),
        "{why}"
    );
    let s = screen(&mut app, 120, 36);
    assert!(s.contains("Jinx has no weapon"), "{s}");
    assert!(s.contains("`A` brings this attack back"), "{s}");
    // and once the GM has given her one, A brings the attack back and it rolls.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char(':'));
    typ(
        &mut app,
        "weapon Jinx add Ares Predator V dv 8 p ap -1 acc 5 ammo 15",
    );
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('A'));
    let f = test_form(&app);
    assert!(f.error.is_none(), "{:?}", f.error);
    typ(&mut app, "Guard");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "9");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "hits 0");
    press(&mut app, KeyCode::Enter);
    // The roll takes the round Fire Gun (SS) fires: none went as she spent it empty-handed.
    let attack = last_sr5(&app);
    assert!(
        matches!(
            attack[..],
            [
                Sr5Event::RoundsFired { rounds: 1, .. },
                Sr5Event::Attacked { .. },
                ..
            ]
        ),
        "{attack:?} {}",
        news(&app)
    );
    let s = screen(&mut app, 120, 36);
    assert!(s.contains("Ares Predator V 14/15"), "{s}");
}

/// The sentence the `:` line refuses `line` with (a line it runs fails the test).
fn typed_says(app: &mut App, line: &str) -> String {
    press(app, KeyCode::Char(':'));
    typ(app, line);
    press(app, KeyCode::Enter);
    let (why, refused) = app
        .message()
        .map(|(m, r)| (m.to_string(), r))
        .unwrap_or_default();
    assert!(refused, "`{line}` was not refused: {why}");
    press(app, KeyCode::Esc);
    why
}

#[test]
fn the_attack_form_refuses_an_unarmed_attacker_in_the_words_of_the_typed_attack() {
    // Given Jinx, on her turn, with no weapon on the sheet, has taken Fire Gun (SS)
    let mut app = unarmed_jinx();
    demo::script(&mut app.enc, &["act Jinx Fire Gun mode SS"], 1).unwrap_or_else(|e| panic!("{e}"));
    // When the GM brings her attack up with `A`
    press(&mut app, KeyCode::Char('A'));
    let form = test_form(&app).error.clone();
    press(&mut app, KeyCode::Esc);
    // Then the form refuses her in the very sentence the typed attack prints
    let typed = typed_says(&mut app, "attack Jinx Guard pool 9");
    assert_eq!(form, Some(typed));
    // and still says how to come back to the attack
    press(&mut app, KeyCode::Char('A'));
    let s = screen(&mut app, 120, 36);
    assert!(s.contains("`A` brings this attack back"), "{s}");
}

#[test]
fn fire_gun_in_the_picker_asks_its_fire_mode_and_greys_out_those_too_few_rounds_allow() {
    // Given the Guard, on his turn, has 4 rounds left in his Ingram
    // When the GM picks Fire Gun
    let mut app = guard_picks_fire_gun(4);
    // Then the modes are offered with their rounds, FA's 6 greyed out with the engine's reason
    let Mode::Choose(c) = app.mode() else {
        panic!("no mode list: {:?}", app.mode().kind());
    };
    assert_eq!(c.title, "Fire Gun: which fire mode?");
    let labels: Vec<&str> = c.items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(
        labels,
        ["SS: 1 round", "SA: 1 round", "BF: 3 rounds", "FA: 6 rounds"]
    );
    assert_eq!(
        c.items[3].refusal.as_deref(),
        Some(
            "Guard's Ingram Smartgun X has 4 rounds left, Fire Gun FA takes 6: reload first (`reload Guard`)"
        )
    );
    assert!(c.items[2].refusal.is_none());
    // and BF, chosen, fires 3 rounds and goes on to the attack chain.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::TestForm(_)));
    assert!(matches!(
        last_sr5(&app)[..],
        [Sr5Event::RoundsFired { rounds: 3, .. }]
    ));
}

#[test]
fn a_waiting_attack_step_skipped_with_esc_comes_back_with_a() {
    let mut app = guard_and_jinx(&[
        "act Guard Fire Gun",
        "attack Guard Jinx pool 9 dice 6 6 6 1 2 3 4 2 2",
    ]);
    press(&mut app, KeyCode::Char('A'));
    let f = test_form(&app);
    assert!(f.title.contains("Jinx's defense"), "{}", f.title);
    let s = screen(&mut app, 120, 36);
    assert!(
        s.contains("Esc: later") && !s.contains("Esc: cancel"),
        "{s}"
    );
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert!(app.state().sr5.pending.len() == 1);
}

#[test]
fn against_an_attack_of_no_hit_the_defense_forms_odds_say_it_holds_whatever_it_rolls() {
    // Given the Guard's attack on Jinx scored no hit and waits for her defense
    let mut app = guard_and_jinx(&["act Guard Fire Gun", "attack Guard Jinx pool 3 dice 2 2 3"]);
    // When the GM opens her defense form
    press(&mut app, KeyCode::Char('A'));
    // Then its odds say the defense holds for certain: a tie goes to the defender
    assert_eq!(
        odds(&app),
        Ok("the attack scored no hit, so the defense holds whatever it rolls: odds 9 dice (Reaction 5 + Intuition 4), threshold 0: P(success) 1.0000, P(glitch) 0.0090, P(critical) 0.0013, net 3.00".to_string())
    );
}

#[test]
fn marked_characters_are_one_area_attack_and_the_players_defend_one_by_one() {
    let mut app = app_with(&[
        "add Guard npc int 3 rea 4 edge 1 body 4 will 3",
        "add Jinx pc int 4 rea 5 edge 3 body 4 will 3",
        "add Ana pc int 3 rea 3 edge 2 body 3 will 3",
        "add Thug npc int 2 rea 3 edge 1 body 5 will 2",
        "weapon Guard add Ingram Smartgun X dv 8 p ap 0 acc 6 ammo 32",
        "roll Guard hits 4",
        "roll Jinx hits 3",
        "roll Ana hits 2",
        "roll Thug hits 1",
        "start",
    ]);
    // The Guard acts; Jinx, Ana and the Thug are marked, in that order.
    for _ in 0..3 {
        press(&mut app, KeyCode::Char('j'));
        press(&mut app, KeyCode::Char('v'));
    }
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire gun");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter); // SS, the first fire mode
    let f = test_form(&app);
    assert_eq!(f.fields[0].get(), "Jinx, Ana, Thug");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "9");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "hits 3");
    // The odds are against the first target srtrack rolls for, named.
    assert!(
        odds(&app).is_ok_and(|o| o.starts_with("the attack hits Thug: odds 9 dice, limit 6")),
        "{:?}",
        odds(&app)
    );
    press(&mut app, KeyCode::Enter);
    // One roll for all three; the Thug, an NPC, defends at once; the players wait in order.
    let thug = app.state().find("Thug").expect("Thug").id;
    let events = last_sr5(&app);
    assert!(matches!(events[0], Sr5Event::Attacked { ref also, .. } if also.len() == 2));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Sr5Event::Defended { target, .. } if *target == thug))
    );
    let f = test_form(&app);
    assert!(
        f.title.contains("Jinx's defense (1 more waiting)"),
        "{}",
        f.title
    );
    let status: Vec<String> = crate::ui::view::status::wrapped(&app, 200)
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    let status = status.join("\n");
    assert!(
        status.contains("attack on Jinx (Ingram Smartgun X) waits for Jinx's defense"),
        "{status}"
    );
    assert!(
        status.contains("attack on Ana (Ingram Smartgun X) waits for Ana's defense"),
        "{status}"
    );
    insta::assert_snapshot!(
        "sr5_area_attack_waits_for_jinx_120x36",
        screen(&mut app, 120, 36)
    );
    // Jinx: Reaction 5 + Intuition 4, nine sixes: the attack misses her.
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "6 6 6 6 6 6 6 6 6");
    press(&mut app, KeyCode::Enter);
    let f = test_form(&app);
    assert!(f.title.contains("Ana's defense"), "{}", f.title);
    assert!(!f.title.contains("more waiting"), "{}", f.title);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "hits 4");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    assert!(app.state().sr5.pending.is_empty());
    // The area attack and each player's step are entries of their own: undo takes back Ana's.
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(app.state().sr5.pending.len(), 1);
}

/// The Guard's turn, Jinx's after it; the Guard carries his Ingram.
fn guard_and_jinx(extra: &[&str]) -> App {
    let mut lines = vec![
        "add Jinx pc int 4 rea 5 edge 3 body 4 will 3",
        "add Guard npc int 3 rea 4 edge 1 body 4 will 3",
        "weapon Guard add Ingram Smartgun X dv 8 p ap 0 acc 6 ammo 32",
        "roll Jinx hits 1",
        "roll Guard hits 4",
        "start",
    ];
    lines.extend_from_slice(extra);
    app_with(&lines)
}

/// The fire mode of the Guard's ready's actions, as declared.
fn ready_modes(app: &App) -> Vec<Option<String>> {
    let guard = app.state().find("Guard").expect("Guard").id;
    match app.state().get(guard).and_then(|c| c.reserve.clone()) {
        Some(crate::encounter::Reserve::Ready { triggers, .. }) => triggers
            .iter()
            .flat_map(|t| t.actions.iter().map(|a| a.mode.clone()))
            .collect(),
        other => panic!("no ready: {other:?}"),
    }
}

#[test]
fn a_ready_that_fires_fire_gun_opens_the_attack_form() {
    // Given the Guard readied a burst for when Jinx moves, and Jinx's turn has come
    let mut app = guard_and_jinx(&["ready Guard when Jinx moves do Fire Gun mode BF", "next"]);
    // When the GM fires it, before the trigger
    press(&mut app, KeyCode::Char('f'));
    press(&mut app, KeyCode::Enter);
    // Then the burst's attack is offered, as for a Fire Gun taken directly
    let f = test_form(&app);
    assert!(
        matches!(&f.purpose, Purpose::Attack { action, .. } if action == "Fire Gun"),
        "{:?}",
        f.purpose
    );
    // The ready's burst took its 3 rounds as it fired.
    assert!(matches!(
        last_sr5(&app)[..],
        [Sr5Event::RoundsFired { rounds: 3, .. }]
    ));
}

#[test]
fn the_attack_form_of_a_fired_ready_says_enter_drops_the_attack_waiting() {
    // Given Jinx readied Fire Gun for when the Guard shoots, and the Guard's shot waits for
    // her defense
    let mut app = app_with(&[
        "add Jinx pc int 4 rea 5 edge 3 body 4 will 3",
        "add Guard npc int 3 rea 4 edge 1 body 4 will 3",
        "weapon Jinx add Ares dv 8 p ap -1 acc 5 ammo 15",
        "weapon Guard add Ingram Smartgun X dv 8 p ap 0 acc 6 ammo 32",
        "roll Jinx hits 4",
        "roll Guard hits 1",
        "start",
        "ready Jinx when Guard shoots do Fire Gun",
        "next",
        "act Guard Fire Gun",
        "attack Guard Jinx pool 9 dice 6 6 6 1 2 3 4 2 2",
    ]);
    // When the GM fires the ready, its attack form open
    press(&mut app, KeyCode::Char('f'));
    press(&mut app, KeyCode::Enter);
    let f = test_form(&app);
    assert!(
        matches!(f.purpose, Purpose::Attack { .. }),
        "{:?}",
        f.purpose
    );
    // Then it says before Enter what Enter drops
    let s = screen(&mut app, 160, 48);
    assert!(
        s.contains("Enter drops Guard's attack on Jinx, waiting for Jinx's defense"),
        "{s}"
    );
}

/// The actor sets up a ready for when Jinx moves and picks Fire Gun in the picker with `choose`.
fn readies_fire_gun(app: &mut App, choose: impl Fn(&mut App)) {
    press(app, KeyCode::Char('y'));
    typ(app, "Jinx moves");
    press(app, KeyCode::Enter);
    assert!(
        matches!(app.mode(), Mode::Picker(_)),
        "{:?}",
        app.mode().kind()
    );
    typ(app, "fire gun");
    choose(app);
}

/// The Guard readies Fire Gun in the picker with `choose` (Enter or Ctrl-N), is asked its fire
/// mode as a Fire Gun taken directly is, and takes BF.
fn guard_readies_a_burst(choose: impl Fn(&mut App)) -> App {
    let mut app = guard_and_jinx(&[]);
    readies_fire_gun(&mut app, choose);
    let Mode::Choose(c) = app.mode() else {
        panic!("no mode list: {:?}", app.mode().kind());
    };
    assert_eq!(c.title, "Fire Gun: which fire mode?");
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    app
}

#[test]
fn the_ready_pickers_fire_modes_grey_out_those_too_few_rounds_allow() {
    // Given the Guard's turn, his Ingram holding 4 rounds, and a ready being set up
    let mut app = guard_with_rounds(4);
    // When Fire Gun is chosen
    readies_fire_gun(&mut app, |app| press(app, KeyCode::Enter));
    // Then its fire-mode list greys FA with the sentence `act` would say, as the act picker does
    let Mode::Choose(c) = app.mode() else {
        panic!("no mode list: {:?}", app.mode().kind());
    };
    assert_eq!(
        c.items[3].refusal.as_deref(),
        Some(
            "Guard's Ingram Smartgun X has 4 rounds left, Fire Gun FA takes 6: reload first (`reload Guard`)"
        )
    );
    assert!(c.items[2].refusal.is_none());
}

#[test]
fn the_ready_picker_asks_fire_guns_fire_mode() {
    // Given the Guard's turn and a ready being set up in the picker
    // When Fire Gun is chosen with Enter, its fire mode is asked, and BF declares the ready
    let app = guard_readies_a_burst(|app| press(app, KeyCode::Enter));
    // Then the ready holds the burst.
    assert!(
        matches!(app.mode(), Mode::Tracker),
        "{:?}",
        app.mode().kind()
    );
    assert_eq!(ready_modes(&app), [Some("BF".to_string())]);
}

#[test]
fn the_ready_pickers_ctrl_n_asks_fire_guns_fire_mode_and_goes_on_choosing() {
    let mut app = guard_readies_a_burst(|app| super::tests::ctrl(app, 'n'));
    // Back in the picker, the burst chosen; Ctrl-D declares it.
    let Mode::Picker(p) = app.mode() else {
        panic!("not back in the picker: {:?}", app.mode().kind());
    };
    assert!(
        matches!(&p.purpose, super::mode::picker::Purpose::Ready { chosen, .. } if chosen.len() == 1)
    );
    super::tests::ctrl(&mut app, 'd');
    assert!(
        matches!(app.mode(), Mode::Tracker),
        "{:?}",
        app.mode().kind()
    );
    assert_eq!(ready_modes(&app), [Some("BF".to_string())]);
}

#[test]
fn esc_in_a_pickers_fire_mode_list_goes_back_to_the_picker_with_what_was_chosen() {
    // Given a ready being set up: its trigger typed, Call a Shot chosen with Ctrl-N, and the
    // fire mode list of Fire Gun open
    let mut app = guard_and_jinx(&[]);
    press(&mut app, KeyCode::Char('y'));
    typ(&mut app, "Jinx moves");
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "call a");
    super::tests::ctrl(&mut app, 'n');
    typ(&mut app, "fire gun");
    press(&mut app, KeyCode::Enter);
    assert!(
        matches!(app.mode(), Mode::Choose(_)),
        "{:?}",
        app.mode().kind()
    );
    // When the GM presses Esc
    press(&mut app, KeyCode::Esc);
    // Then the ready picker is back, its trigger and Call a Shot kept, the filter as typed
    let Mode::Picker(p) = app.mode() else {
        panic!("not back in the picker: {:?}", app.mode().kind());
    };
    assert!(
        matches!(&p.purpose, super::mode::picker::Purpose::Ready { trigger, chosen, .. }
            if trigger == "Jinx moves" && chosen.len() == 1),
        "{:?}",
        p.purpose
    );
    assert_eq!(p.query.value(), "fire gun");
    // and a spend's mode list goes back to its picker likewise.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire gun");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Esc);
    let Mode::Picker(p) = app.mode() else {
        panic!("not back in the picker: {:?}", app.mode().kind());
    };
    assert_eq!(p.purpose, super::mode::picker::Purpose::Spend);
}

/// `A` brings back an attack action's unrolled attack only within the character turn the engine
/// counts: Bo's Fire Gun is offered in his turn, and no longer once Jinx resumes the turn she
/// put off (a resumed turn is a new character turn, as for the rounds the engine owes).
#[test]
fn an_unrolled_attack_of_the_last_turn_is_not_brought_back_in_a_resumed_turn() {
    // Given Jinx put her turn off until before Cy's, and Bo fired with no attack rolled
    let lines = [
        "add Jinx pc int 5 rea 5",
        "add Bo pc int 3 rea 3",
        "add Cy npc int 3 rea 2",
        "roll Jinx hits 4",
        "roll Bo hits 2",
        "roll Cy hits 1",
        "start",
        "move Jinx before Cy",
        "act Bo Fire Gun",
    ];
    let mut app = app_with(&lines);
    assert_eq!(brought_back(&mut app), "Fire Gun");
    // When Jinx's turn resumes
    let mut app = app_with(&[&lines[..], &["next"]].concat());
    let turn = app.enc.state().turn().copied();
    assert_eq!(
        turn.map(|t| (app.enc.state().name(t.who).to_string(), t.kind)),
        Some(("Jinx".to_string(), crate::encounter::TurnKind::Resumed))
    );
    // Then A offers nothing to roll
    press(&mut app, KeyCode::Char('A'));
    assert!(matches!(app.mode(), Mode::Tracker));
    assert!(news(&app).starts_with("no attack waits"), "{}", news(&app));
}

#[test]
fn the_attack_forms_target_takes_a_name_in_short_as_the_command_line_does() {
    // Given the Guard's attack form at the group Ganger
    let mut app = guard_fires_at_the_gang(&[]);
    let line = "attack Guard G 1, gang 3 pool 9 hits 3";
    let typed = match crate::lang::parse(line, app.state(), app.enc.catalogue()) {
        Ok(crate::lang::Line::Command(crate::encounter::Command::Sr5(
            crate::encounter::system::sr5::Sr5Command::Attack(a),
        ))) => a.targets,
        other => panic!("{line}: {other:?}"),
    };
    // When the GM types the targets in short, as the command line takes them, and rolls
    press(&mut app, KeyCode::BackTab);
    press(&mut app, KeyCode::BackTab);
    for _ in 0.."Ganger".len() {
        press(&mut app, KeyCode::Backspace);
    }
    typ(&mut app, "G 1, gang 3");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "hits 3");
    assert!(odds(&app).is_ok(), "{:?}", odds(&app));
    press(&mut app, KeyCode::Enter);
    // Then it is the attack the line reads: on Ganger 1 and Ganger 3
    let attacked = attacked(&app);
    assert_eq!(attacked, Some(typed), "{:?}", app.message());
}

#[test]
fn the_test_forms_last_line_fits_at_80x24_and_160x48() {
    let mut app = ana_stands_up();
    press(&mut app, KeyCode::Char('T'));
    for (w, h) in [(80, 24), (160, 48)] {
        let s = screen(&mut app, w, h);
        assert!(s.contains("Esc: cancel"), "{w}x{h}:\n{s}");
    }
}

/// The Guard, on his turn, having spent all he may of his IP on Simple actions (2 IP each), and
/// the IP he has left then (1).
fn guard_spent() -> (App, u8) {
    let mut app = app_with(&[
        "add Jinx pc int 4 rea 5 edge 3 body 4 will 3",
        "add Guard npc int 3 rea 4 edge 1 body 4 will 3",
        "weapon Guard add Ingram Smartgun X dv 8 p ap 0 acc 6 ammo 32",
        "roll Jinx hits 1",
        "roll Guard hits 4",
        "start",
    ]);
    while demo::script(&mut app.enc, &["act Guard Activate Focus"], 1).is_ok() {}
    let ip = app.state().find("Guard").map_or(0, |c| c.ip);
    (app, ip)
}

fn guard_out_of_ip() -> App {
    guard_spent().0
}

/// The line `name` finds in the open action picker, and its refusal.
fn picked_refusal(app: &mut App, name: &str) -> Option<String> {
    typ(app, name);
    let Mode::Picker(p) = app.mode() else {
        panic!("not in the picker: {:?}", app.mode().kind());
    };
    p.items[p.selected].refusal.clone()
}

#[test]
fn block_and_parry_are_dimmed_while_the_attack_waiting_on_jinx_is_a_guns() {
    // Given the Guard's Ingram attack waits for Jinx's defense
    let mut app = guard_and_jinx(&[
        "act Guard Fire Gun",
        "attack Guard Jinx pool 9 dice 6 6 6 1 2 3 4 2 2",
    ]);
    let why = |action: &str| {
        format!(
            "{action} counts only against melee attacks, and the attack waiting for Jinx's defense is Guard's Ingram Smartgun X, not a melee weapon"
        )
    };
    // When the GM opens Jinx's interrupt picker and looks up each defense interrupt
    let interrupt = |app: &mut App, name: &str| {
        press(app, KeyCode::Char('i'));
        typ(app, "J");
        press(app, KeyCode::Enter);
        let said = picked_refusal(app, name);
        press(app, KeyCode::Esc);
        said
    };
    // Then Block and Parry are dimmed with the engine's sentence, Dodge is not
    assert_eq!(interrupt(&mut app, "block"), Some(why("Block")));
    assert_eq!(interrupt(&mut app, "parry"), Some(why("Parry")));
    assert_eq!(interrupt(&mut app, "dodge"), None);
    // And in Jinx's own turn the act picker says the same
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Enter);
    assert_eq!(picked_refusal(&mut app, "block"), Some(why("Block")));
}

#[test]
fn enter_on_a_refused_picker_line_says_why_and_stays_in_the_picker() {
    // Given the Guard, out of IP, has Fire Gun selected in the picker (marked ⊘)
    let mut app = guard_out_of_ip();
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire gun");
    let Mode::Picker(p) = app.mode() else {
        panic!("not in the picker: {:?}", app.mode().kind());
    };
    let why = p.items[p.selected]
        .refusal
        .clone()
        .expect("Fire Gun refused");
    let before = app.enc.applied().len();
    // When the GM presses Enter on it
    press(&mut app, KeyCode::Enter);
    // Then the picker stays open, nothing opens and nothing changes
    assert!(
        matches!(app.mode(), Mode::Picker(_)),
        "{:?}",
        app.mode().kind()
    );
    assert_eq!(app.enc.applied().len(), before);
    // and the status line says why, in the engine's one sentence
    assert_eq!(app.message(), Some((why.as_str(), true)));
}

#[test]
fn enter_on_a_refused_line_of_a_choice_list_says_why_and_stays() {
    // Given the Guard, with too little IP to interrupt, selected in the list of who interrupts
    let (mut app, _) = guard_spent();
    press(&mut app, KeyCode::Char('i'));
    let Mode::Choose(c) = app.mode() else {
        panic!("no list of who interrupts: {:?}", app.mode().kind());
    };
    let guard = c
        .items
        .iter()
        .position(|i| i.label == "Guard")
        .expect("the Guard listed");
    let at = c.selected;
    let why = c.items[guard].refusal.clone().expect("the Guard refused");
    let key = if at > guard {
        KeyCode::Up
    } else {
        KeyCode::Down
    };
    for _ in 0..at.abs_diff(guard) {
        press(&mut app, key);
    }
    let before = app.enc.applied().len();
    // When the GM presses Enter on his line
    press(&mut app, KeyCode::Enter);
    // Then no interrupt picker opens: the list stays, nothing changed, and the status line says why
    assert!(
        matches!(app.mode(), Mode::Choose(_)),
        "{:?}",
        app.mode().kind()
    );
    assert_eq!(app.enc.applied().len(), before);
    assert_eq!(app.message(), Some((why.as_str(), true)));
}

#[test]
fn a_variable_action_one_of_whose_types_can_still_be_taken_is_not_marked_refused() {
    // Given the Guard can take a Free action (1 IP) and no Simple one (2)
    let (mut app, ip) = guard_spent();
    assert_eq!(ip, 1);
    // When the GM looks up Control Device (Variable) in the picker
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "control device");
    let Mode::Picker(p) = app.mode() else {
        panic!("not in the picker: {:?}", app.mode().kind());
    };
    // Then its line is not marked ⊘
    assert_eq!(p.items[p.selected].refusal, None);
    // and Enter opens its type list, Free not greyed out
    press(&mut app, KeyCode::Enter);
    let Mode::Choose(c) = app.mode() else {
        panic!("no type list: {:?}", app.mode().kind());
    };
    assert!(c.items[c.selected].refusal.is_none(), "{:?}", c.items);
}

/// Given Ana's ready being chosen in the picker, when Call a Shot is alone in it, then its line
/// is marked refused (Enter would declare it alone) yet Ctrl-N adds it, and the shot after it
/// is then offered and declares the pair.
#[test]
fn the_ready_picker_marks_call_a_shot_alone_refused_but_lets_ctrl_n_add_it() {
    use super::action::Action;
    use super::mode::picker::{self, Purpose as Pick};
    use super::mode::{Ctx, Outcome, tracker};
    use crate::encounter::Command;
    let mut enc = encounter(System::Sr5);
    let lines = [
        "add Ana pc int 4 rea 4 edge 2",
        "add Bob npc int 3 rea 3 edge 1",
        "roll Ana hits 4",
        "roll Bob hits 3",
        "start",
    ];
    demo::script(&mut enc, &lines, 5).unwrap_or_else(|e| panic!("{e}"));
    let ana = enc.state().find("Ana").expect("Ana").id;
    let tracker = tracker::State::default();
    let ctx = Ctx::new(&enc, &tracker);
    let purpose = Pick::Ready {
        trigger: "Bob aims".into(),
        ip: None,
        chosen: Vec::new(),
    };
    let mut p = picker::State::open(ana, purpose, &ctx);
    let line = |p: &picker::State, name: &str| {
        p.items
            .iter()
            .position(|it| enc.catalogue().actions()[it.index].name == name)
            .expect("listed")
    };
    p.selected = line(&p, "Call a Shot");
    assert!(p.items[p.selected].refusal.is_some(), "Call a Shot alone");
    assert!(matches!(
        p.clone().update(Action::Confirm, &ctx),
        Outcome::Fail(_)
    ));
    assert!(matches!(p.update(Action::AddMore, &ctx), Outcome::Stay));
    p.selected = line(&p, "Fire Gun");
    assert_eq!(p.items[p.selected].refusal, None);
    // Fire Gun asks its fire mode; each mode declares the pair.
    let Outcome::Open(Mode::Choose(modes)) = p.update(Action::Confirm, &ctx) else {
        panic!("Fire Gun asks its fire mode");
    };
    for item in &modes.items {
        assert_eq!(item.refusal, None, "{}", item.label);
        let super::mode::choose::Choice::Run(Command::Ready { actions, .. }) = &item.choice else {
            panic!("not a ready: {item:?}");
        };
        assert_eq!(actions.len(), 2);
    }
}

#[test]
fn the_interrupt_who_list_gives_too_few_ip_when_that_bars_every_interrupt() {
    // Given Jinx has spent all but 1 IP on Take Aim and Ana's shot waits for her defense
    let mut app = app_with(&[
        "add Jinx pc int 4 rea 5 edge 3 body 4 will 3",
        "add Ana pc int 5 rea 3 edge 2 body 3 will 5",
        "weapon Ana add Defiance dv 10P ap -1 acc 4 ammo 5",
        "roll Jinx hits 4",
        "roll Ana hits 3",
        "start",
        "act Jinx Take Aim",
        "act Jinx Take Aim",
        "next",
        "act Ana Fire Gun",
        "attack Ana Jinx pool 9 dice 6 6 5 1 2 3 4 4 2",
    ]);
    // When the GM asks who interrupts
    press(&mut app, KeyCode::Char('i'));
    let Mode::Choose(c) = app.mode() else {
        panic!("no who list: {:?}", app.mode().kind());
    };
    // Then Jinx's line says her IP bar every interrupt, not Block's own refusal of a firearm
    let jinx = c
        .items
        .iter()
        .find(|i| i.label == "Jinx")
        .expect("Jinx listed");
    assert_eq!(
        jinx.refusal.as_deref(),
        Some("Jinx has not enough IP: has 1, needs 2")
    );
}

/// Given an attack whose defense waits and the GM gone back to the tracker at 80 columns, the
/// key bar's first key is `A`: the fight waits on it, and the bar is too short for every key.
#[test]
fn a_waiting_attack_step_puts_a_first_on_the_key_bar_at_80_columns() {
    let mut app = guard_and_jinx(&[]);
    let before = screen(&mut app, 80, 24);
    let bar = before.lines().last().unwrap_or_default().to_string();
    assert!(!bar.starts_with("A attack"), "{bar}");
    app = guard_and_jinx(&[
        "act Guard Fire Gun",
        "attack Guard Jinx pool 9 dice 6 6 6 1 2 3 4 2 2",
    ]);
    assert_eq!(app.state().sr5.pending.len(), 1);
    let shown = screen(&mut app, 80, 24);
    let bar = shown.lines().last().unwrap_or_default().to_string();
    assert!(bar.starts_with("A attack: next step"), "{bar}");
}
