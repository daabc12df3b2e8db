//! Shadowrun 2097's rooms on the screen: the check form and its live odds, the damage form
//! through the armor, the Edge menu, and Edge on each row of the order.

use std::sync::Arc;

use ratatui::crossterm::event::KeyCode;
use tui_input::InputRequest;

use super::{app_for, last_events, press, reason_read_whole, screen, select, tab_clears, typ};
use crate::encounter::system::sr2097::Sr2097Event;
use crate::encounter::{Encounter, Event, System};
use crate::rules::HouseRules;
use crate::rules::sr2097::{Through, Tilt};
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::demo;
use crate::ui::mode::Mode;

fn fight() -> App {
    setup(&[
        "add Ana pc int 4 rea 5 edge 2",
        "add Bo npc int 3 rea 3 edge 1",
        "armor Bo pt 15 dr 30",
        "weapon Ana add Pistol 2d6+4",
        "roll Ana dice 6 6",
        "roll Bo dice 1 1",
        "start",
    ])
}

/// Fire modes are SR5's: at a 2097 table Fire Gun picked is spent at once, no mode asked.
#[test]
fn fire_gun_in_the_picker_asks_no_fire_mode() {
    let rules = HouseRules::embedded();
    let catalogue = crate::catalogue::Catalogue::embedded(&rules).expect("the built-in catalogue");
    let mut enc = Encounter::for_system(System::Sr2097, Arc::new(rules), Arc::new(catalogue));
    let lines = [
        "add Ana pc int 4 rea 5 edge 2",
        "roll Ana dice 6 6",
        "start",
    ];
    assert_eq!(demo::script(&mut enc, &lines, 1), Ok(()));
    let mut app = app_for(enc);
    press(&mut app, KeyCode::Enter);
    typ(&mut app, "fire gun");
    press(&mut app, KeyCode::Enter);
    assert!(
        !matches!(app.mode(), Mode::Choose(_)),
        "a mode list opened: {:?}",
        app.mode().kind()
    );
    assert!(
        last_events(&app).iter().any(|e| matches!(
            e,
            Event::ActionSpent { action, .. } if action.name.as_deref() == Some("Fire Gun") && action.mode.is_none()
        )),
        "{:?} {:?}",
        app.mode().kind(),
        last_events(&app)
    );
}

#[test]
fn the_check_form_shows_the_odds_as_it_is_typed_and_rolls_the_check() {
    let mut app = fight();
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('c'));
    let Mode::CheckForm(f) = app.mode() else {
        panic!("not the check form: {:?}", app.mode().kind());
    };
    assert!(f.odds.is_err(), "no odds before the bonus");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "15");
    let Mode::CheckForm(f) = app.mode() else {
        panic!("the form closed");
    };
    // TN 20 (moderate), +15: 2d10 ≥ 5 is 94 of 100 rolls (the text: about 94%).
    let odds = f.odds.clone().expect("odds");
    assert!(odds[0].contains("94.0%"), "{odds:?}");
    let shown = screen(&mut app, 100, 30);
    assert!(shown.contains("Success check: Ana"), "{shown}");
    assert!(shown.contains("94.0%"), "{shown}");
    // The table's dice: a double on a success.
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "4 4");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    let checked = last_events(&app).into_iter().find_map(|e| match e {
        Event::Sr2097(Sr2097Event::Checked { outcome, .. }) => Some(outcome),
        _ => None,
    });
    assert_eq!(checked.map(|o| o.mos), Some(3 + 5));
}

/// The check the form rolls when the GM reads it top-down: `c`, what is typed in the TN (if
/// anything), Tab, the bonus, Enter. Its TN, bonus and Advantage or Disadvantage.
fn top_down_check(app: &mut App, tn: &str, bonus: &str) -> Option<(i32, i32, Tilt)> {
    press(app, KeyCode::Char('c'));
    typ(app, tn);
    press(app, KeyCode::Tab);
    typ(app, bonus);
    press(app, KeyCode::Enter);
    assert!(
        matches!(app.mode(), Mode::Tracker),
        "{:?}",
        app.mode().kind()
    );
    last_events(app).into_iter().find_map(|e| match e {
        Event::Sr2097(Sr2097Event::Checked { roll, .. }) => {
            Some((roll.check.tn, roll.check.bonus, roll.check.tilt))
        }
        _ => None,
    })
}

#[test]
fn the_check_form_opens_on_its_first_field_the_tn_moderate_until_typed_over() {
    // Given Ana selected in a 2097 fight
    let mut app = fight();
    select(&mut app, "Ana");
    // When the GM opens the check form, it is on its first field, the TN
    press(&mut app, KeyCode::Char('c'));
    let Mode::CheckForm(f) = app.mode() else {
        panic!("not the check form: {:?}", app.mode().kind());
    };
    assert_eq!((f.focus, f.fields[0].label), (0, "TN"));
    press(&mut app, KeyCode::Esc);
    // Then TN 30, Tab, bonus 12 is TN 30 with bonus 12, neither Advantage nor Disadvantage
    assert_eq!(
        top_down_check(&mut app, "30", "12"),
        Some((30, 12, Tilt::Even))
    );
    // And a TN left as given is moderate (20)
    assert_eq!(
        top_down_check(&mut app, "", "12"),
        Some((20, 12, Tilt::Even))
    );
}

#[test]
fn a_key_that_starts_no_adv_dis_word_changes_nothing_and_the_form_says_the_choices() {
    // Given the check form on its Adv/Dis toggle, set to adv
    let mut app = fight();
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "13");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "a");
    // When the GM types what starts none of its words (a bonus, meant for the field before)
    typ(&mut app, "12");
    // Then it stays adv, and the form's last line names the field and its choices
    let Mode::CheckForm(f) = app.mode() else {
        panic!("the form closed: {:?}", app.mode().kind());
    };
    assert_eq!(f.fields[2].get(), "adv");
    let why =
        "Adv/Dis is a choice: none, adv, dis, both (Space or ←/→ to change, or its first letter)";
    assert_eq!(f.error.as_deref(), Some(why));
    // Wrapped under the form, none of it cut.
    let shown = screen(&mut app, 100, 30);
    assert!(
        shown.contains("✗ Adv/Dis is a choice: none, adv, dis, both (Space or ←/→ to change")
            && shown.contains("│  first letter)"),
        "{shown}"
    );
    // And a key that changes it takes the line back
    typ(&mut app, "d");
    let Mode::CheckForm(f) = app.mode() else {
        panic!("the form closed");
    };
    assert_eq!(
        (f.fields[2].get().as_str(), f.error.as_deref()),
        ("dis", None)
    );
}

/// The check form's odds as they stand.
fn form_odds(app: &App) -> String {
    let Mode::CheckForm(f) = app.mode() else {
        panic!("not the check form: {:?}", app.mode().kind());
    };
    f.odds.clone().expect("odds")[0].clone()
}

#[test]
fn the_check_form_counts_an_owed_disadvantage_whatever_the_toggle_says() {
    // Given Ana's complete failure (3 vs TN 20): "Disadvantage: next check".
    let mut app = fight();
    select(&mut app, "Ana");
    roll_check(&mut app, "0", "1 2");
    // When the GM opens her next check, bonus 13 against TN 20.
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "13");
    press(&mut app, KeyCode::Tab);
    // Then the odds are those of the check the engine rolls: Disadvantage (3d10, the highest
    // removed) with `dis` or `none`, neither (2d10) with `adv`, as the text's "BOTH … neither".
    let dis = form_odds(&app);
    assert!(dis.contains("67.3%"), "{dis}");
    typ(&mut app, "n");
    assert_eq!(
        form_odds(&app),
        dis,
        "none: the owed Disadvantage still counts"
    );
    typ(&mut app, "a");
    let even = form_odds(&app);
    assert!(
        even.contains("85.0%"),
        "adv cancels the owed Disadvantage: {even}"
    );
}

#[test]
fn the_check_form_reminds_of_a_significant_failures_disadvantage_on_a_related_check() {
    // Given Ana's significant failure (11 vs TN 20): "Disadvantage: next related check".
    let mut app = fight();
    select(&mut app, "Ana");
    roll_check(&mut app, "0", "5 6");
    // When the GM opens her next check
    press(&mut app, KeyCode::Char('c'));
    let Mode::CheckForm(f) = app.mode() else {
        panic!("not the check form: {:?}", app.mode().kind());
    };
    // Then the Adv/Dis line says it is owed on a related check, and leaves the choice at none
    assert_eq!(
        (f.fields[2].hint.as_str(), f.fields[2].get().as_str()),
        (
            "a significant failure owes Disadvantage on a related check: pick dis if this is one",
            "none"
        )
    );
}

#[test]
fn a_refused_check_keeps_the_form_open_with_the_reason() {
    let mut app = fight();
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "15");
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "11 3");
    let before = app.encounter().applied().len();
    press(&mut app, KeyCode::Enter);
    let Mode::CheckForm(f) = app.mode() else {
        panic!("the form closed");
    };
    assert!(
        f.error.as_deref().is_some_and(|e| e.contains("not 11")),
        "{:?}",
        f.error
    );
    assert_eq!(app.encounter().applied().len(), before);
}

#[test]
fn a_bonus_too_big_for_any_number_is_told_the_range_not_that_it_is_no_number() {
    let mut app = fight();
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "99999999999999999999999");
    let Mode::CheckForm(f) = app.mode() else {
        panic!("the form closed");
    };
    let why = f.odds.clone().expect_err("no odds for it");
    assert!(!why.contains("not a whole number"), "{why}");
    assert!(why.contains("-30") && why.contains("99"), "{why}");
}

/// Characters as given, past the terminal's key filter (which refuses control characters
/// before they reach a room): what a room does with text no key could type.
fn given(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Action::Input(InputRequest::InsertChar(c)));
    }
}

/// The command line's refusal of `sc Ana tn TN bonus 5`; nothing is checked.
fn sc_refusal(tn: &str) -> String {
    let mut app = fight();
    let before = app.encounter().applied().len();
    typ(&mut app, ":");
    given(&mut app, &format!("sc Ana tn {tn} bonus 5"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.encounter().applied().len(), before, "tn {tn:?}");
    let (why, refused) = app.message().expect("a message");
    assert!(refused, "tn {tn:?}: {why}");
    why.to_string()
}

/// The check form's refusal of the same TN with bonus 5, the field's or the engine's; nothing
/// is checked and the form stays open.
fn check_form_refusal(tn: &str) -> String {
    let mut app = fight();
    select(&mut app, "Ana");
    let before = app.encounter().applied().len();
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "5");
    press(&mut app, KeyCode::BackTab);
    press(&mut app, KeyCode::Backspace);
    given(&mut app, tn);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.encounter().applied().len(), before, "tn {tn:?}");
    let Mode::CheckForm(f) = app.mode() else {
        panic!("tn {tn:?}: the form closed");
    };
    let why = f.fields[0].error.clone().or_else(|| f.error.clone());
    why.unwrap_or_else(|| panic!("tn {tn:?}: no refusal"))
}

#[test]
fn a_hostile_tn_is_refused_alike_by_the_command_and_the_check_form() {
    for tn in ["99999999999", "-5", "hard", "Very  Hard", "mod\u{7}erate"] {
        assert_eq!(sc_refusal(tn), check_form_refusal(tn), "tn {tn:?}");
    }
    // The biggest number is told as typed over, not as a difficulty nobody knows.
    assert!(
        check_form_refusal("99999999999").contains("or more"),
        "{}",
        check_form_refusal("99999999999")
    );
    // No TN at all: the command says where in the line, the form in the TN field; the
    // sentence is the same.
    let (line, form) = (sc_refusal(""), check_form_refusal(""));
    assert!(line.ends_with(&form), "{line} / {form}");
}

#[test]
fn a_tn_of_a_number_and_more_words_is_refused_alike_by_the_command_and_the_check_form() {
    for (tn, after) in [("20 5", "5"), ("20 easy", "easy"), ("15  10 5", "10")] {
        // Given a TN that is a number with more words after it
        // When the GM types it on the command line and in the check form's TN field
        let (line, form) = (sc_refusal(tn), check_form_refusal(tn));
        // Then the command refuses at the word after the number, the form in its TN field, in
        // the same words: a TN is one number
        assert_eq!(
            line,
            format!("word 5 \"{after}\": expected {form}"),
            "tn {tn:?}"
        );
        assert!(form.contains("one number"), "tn {tn:?}: {form}");
    }
}

#[test]
fn the_damage_form_says_what_the_armor_makes_of_it_and_applies_it_in_one_go() {
    let mut app = fight();
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('w'));
    assert!(matches!(app.mode(), Mode::DamageForm(_)));
    typ(&mut app, "Bo");
    let shown = screen(&mut app, 100, 30);
    assert!(shown.contains("PT 15"), "{shown}");
    // Weapon (the pistol, filled in), MoS, Edge, then the table's dice: 6 6 + 4 = 16 → 12.
    for _ in 0..4 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "6 6");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker));
    let hit = last_events(&app).into_iter().find_map(|e| match e {
        Event::Sr2097(Sr2097Event::DamageRolled {
            through, injury, ..
        }) => Some((through, injury.map(|i| i.damage))),
        _ => None,
    });
    assert_eq!(hit, Some((Through::Reduced { reduced: 4 }, Some(12))));
}

#[test]
fn tab_and_shift_tab_clear_the_2097_forms_last_line_message_as_any_key_that_acts() {
    // The check form's Adv/Dis toggle and the damage form's Edge toggle, each given a letter
    // that starts none of their words
    for (key, tabs, why) in [
        ('c', 2, "Adv/Dis is a choice"),
        ('w', 3, "Edge is a choice"),
    ] {
        let open = || {
            let mut app = fight();
            select(&mut app, "Ana");
            press(&mut app, KeyCode::Char(key));
            for _ in 0..tabs {
                press(&mut app, KeyCode::Tab);
            }
            typ(&mut app, "z");
            app
        };
        tab_clears(open, why);
    }
}

#[test]
fn the_check_forms_tab_wraps_both_ways_and_the_field_wrapped_to_keeps_its_value() {
    // Given the check form with TN 25 and the table's dice 4 5 typed in its last field
    let mut app = fight();
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('c'));
    typ(&mut app, "25");
    for _ in 0..4 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "4 5");
    // When the GM tabs past the last field to the TN and types, then Shift-Tabs back past the
    // first to the dice and types
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "0");
    press(&mut app, KeyCode::BackTab);
    typ(&mut app, " 6");
    // Then both are typed on, not over
    let Mode::CheckForm(f) = app.mode() else {
        panic!("the check form")
    };
    assert_eq!(
        (f.fields[0].get(), f.fields[4].get()),
        ("250".to_string(), "4 5 6".to_string())
    );
}

/// The refusal under the damage or the check form.
fn form_error(app: &App) -> Option<String> {
    match app.mode() {
        Mode::DamageForm(f) => f.error.clone(),
        Mode::CheckForm(f) => f.error.clone(),
        other => panic!("not a 2097 form: {:?}", other.kind()),
    }
}

#[test]
fn the_damage_and_check_forms_of_a_downed_character_say_so_as_they_open() {
    for (key, typed) in [('w', "Bo"), ('c', "2")] {
        // Given Ana Downed
        let mut app = fight();
        assert_eq!(demo::script(&mut app.enc, &["down Ana"], 1), Ok(()));
        select(&mut app, "Ana");
        // When the GM opens her damage form (or check form)
        press(&mut app, KeyCode::Char(key));
        // Then it says she cannot act before anything is typed, and still while typing
        let downed = Some("Ana is Downed and cannot act".to_string());
        assert_eq!(form_error(&app), downed, "{key}");
        typ(&mut app, typed);
        assert_eq!(form_error(&app), downed, "{key}");
    }
}

#[test]
fn the_damage_form_refuses_a_downed_attacker_in_the_words_of_the_typed_damage_roll() {
    // Given Ana Downed
    let mut app = fight();
    assert_eq!(demo::script(&mut app.enc, &["down Ana"], 1), Ok(()));
    // When the GM types her damage roll on the command line
    typ(&mut app, ":");
    given(&mut app, "dmg Ana Bo with Pistol");
    press(&mut app, KeyCode::Enter);
    let (typed, refused) = app.message().expect("a message");
    assert!(refused, "{typed}");
    let typed = typed.to_string();
    press(&mut app, KeyCode::Esc);
    // Then her damage form refuses her in the very same sentence
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('w'));
    let Mode::DamageForm(f) = app.mode() else {
        panic!("the damage form")
    };
    assert_eq!(f.error, Some(typed));
}

/// A check by the selected character at the form's TN (moderate, 20), with the table's dice.
fn roll_check(app: &mut App, bonus: &str, dice: &str) {
    press(app, KeyCode::Char('c'));
    press(app, KeyCode::Tab);
    typ(app, bonus);
    for _ in 0..3 {
        press(app, KeyCode::Tab);
    }
    typ(app, dice);
    press(app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Tracker), "the check was refused");
}

/// The MoS field as the damage form opens for the selected character.
fn damage_form_mos(app: &mut App) -> (String, String) {
    press(app, KeyCode::Char('w'));
    let Mode::DamageForm(f) = app.mode() else {
        panic!("not the damage form: {:?}", app.mode().kind());
    };
    let mos = (f.fields[2].get(), f.fields[2].hint.clone());
    press(app, KeyCode::Esc);
    mos
}

#[test]
fn the_damage_form_takes_the_mos_of_the_attackers_check_until_its_damage_is_rolled() {
    let mut app = fight();
    select(&mut app, "Ana");
    assert_eq!(damage_form_mos(&mut app).0, "0", "no check yet");
    // TN 20, +15, the table's 4 and 4: 23, a double on a success: MoS 3 + 5.
    roll_check(&mut app, "15", "4 4");
    // Bo's check does not stand for Ana's.
    select(&mut app, "Bo");
    assert_eq!(damage_form_mos(&mut app).0, "0");
    select(&mut app, "Ana");
    let (mos, hint) = damage_form_mos(&mut app);
    assert_eq!(mos, "8");
    assert!(hint.contains("Ana's check"), "{hint}");
    // Rolled with it: 6 6 + 4, MoS 8 adds 1d6 (the table's 1): 17 through PT 15, 30% off.
    press(&mut app, KeyCode::Char('w'));
    typ(&mut app, "Bo");
    for _ in 0..4 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "6 6 1");
    press(&mut app, KeyCode::Enter);
    let rolled = last_events(&app).into_iter().find_map(|e| match e {
        Event::Sr2097(Sr2097Event::DamageRolled { roll, .. }) => Some(roll.mos_dice),
        _ => None,
    });
    assert_eq!(rolled, Some(1));
    // That check is spent: the next damage roll starts from 0.
    assert_eq!(damage_form_mos(&mut app).0, "0");
}

#[test]
fn a_failed_check_says_it_missed_and_its_damage_roll_is_refused() {
    let mut app = fight();
    select(&mut app, "Ana");
    // 3 + 5 + 2 = 10 against TN 20: MoS -10.
    roll_check(&mut app, "2", "3 5");
    let (mos, hint) = damage_form_mos(&mut app);
    assert_eq!(mos, "");
    assert!(hint.contains("failed (MoS -10)"), "{hint}");
    // Rolled anyway, with an MoS of 0 typed in: refused under the form, and Bo is not hurt.
    press(&mut app, KeyCode::Char('w'));
    typ(&mut app, "Bo");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "0");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "6 6");
    press(&mut app, KeyCode::Enter);
    let Mode::DamageForm(f) = app.mode() else {
        panic!("the form closed: {:?}", app.mode().kind());
    };
    let why = f.error.clone().unwrap_or_default();
    assert!(why.contains("a missed attack deals no damage"), "{why}");
    assert!(f.preview.as_ref().is_err_and(|p| p.contains("missed")));
    let bo = app.state().find("Bo").map(|c| c.id).unwrap();
    let injuries = app
        .state()
        .sr2097
        .as_ref()
        .map(|s| s.sheet(bo).injuries.len());
    assert_eq!(injuries, Some(0));
}

#[test]
fn the_edge_menu_boosts_initiative_and_rows_show_edge() {
    let mut app = fight();
    let shown = screen(&mut app, 100, 30);
    assert!(shown.contains("2/2"), "Ana's Edge on her row: {shown}");
    select(&mut app, "Bo");
    press(&mut app, KeyCode::Char('G'));
    super::choose(&mut app, "boost initiative");
    let boosted = last_events(&app)
        .iter()
        .any(|e| matches!(e, Event::Sr2097(Sr2097Event::InitiativeBoosted { .. })));
    assert!(boosted, "{:?}", last_events(&app));
    let shown = screen(&mut app, 100, 30);
    assert!(shown.contains("0/1"), "Bo's Edge spent: {shown}");
}

#[test]
fn the_2097_keys_do_nothing_in_an_sr5_fight() {
    let mut app = app_for(demo::encounter());
    press(&mut app, KeyCode::Char('c'));
    assert!(matches!(app.mode(), Mode::Tracker));
}

#[test]
fn the_status_line_tells_edge_once() {
    let mut app = fight();
    select(&mut app, "Ana");
    let shown = screen(&mut app, 160, 48);
    let line = shown
        .lines()
        .find(|l| l.contains("› Ana:"))
        .unwrap_or_else(|| panic!("no status line: {shown}"));
    let status = &line[line.find("› Ana:").unwrap_or(0)..];
    assert_eq!(status.matches("Edge").count(), 1, "{status}");
    assert!(line.contains("Edge 2/2 left"), "{line}");
}

#[test]
fn the_edge_menu_opens_on_the_latest_injury() {
    let mut app = fight();
    let lines = [
        "dmg - Bo 2d6+4 dice 6 6",
        "dmg - Bo 2d6+4 dice 6 6",
        "dmg - Bo 2d6+4 dice 6 6",
    ];
    for line in lines {
        typ(&mut app, ":");
        typ(&mut app, line);
        press(&mut app, KeyCode::Enter);
    }
    select(&mut app, "Bo");
    press(&mut app, KeyCode::Char('G'));
    let Mode::Choose(c) = app.mode() else {
        panic!("not the Edge menu: {:?}", app.mode().kind());
    };
    let label = &c.items[c.selected].label;
    assert!(label.starts_with("lessen injury 3:"), "{label}");
}

/// The damage form's preview for Ana on Bo with `with` in the With field.
fn damage_preview_with(with: &str) -> Result<String, String> {
    damage_preview_after(&[], with)
}

/// The same, after the lines `first` (Bo's armor changed, …).
fn damage_preview_after(first: &[&str], with: &str) -> Result<String, String> {
    let mut app = fight();
    assert_eq!(demo::script(&mut app.enc, first, 1), Ok(()));
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('w'));
    typ(&mut app, "Bo");
    press(&mut app, KeyCode::Tab);
    // The pistol is filled in: the first character typed replaces it.
    typ(&mut app, with);
    let Mode::DamageForm(f) = app.mode() else {
        panic!("not the damage form: {:?}", app.mode().kind());
    };
    f.preview.clone()
}

#[test]
fn the_damage_form_reads_dice_with_spaces_as_the_dmg_command_does() {
    for with in ["3d6+5", "3d6 + 5", "3d6 +5", "3d6+ 5", " 3d6 "] {
        let preview = damage_preview_with(with);
        assert!(preview.is_ok(), "{with}: {preview:?}");
    }
    let mut app = fight();
    for line in ["dmg Ana Bo 3d6 + 5 dice 1 1 1", "dmg - Bo 2d6 +3 dice 1 1"] {
        typ(&mut app, ":");
        typ(&mut app, line);
        press(&mut app, KeyCode::Enter);
        assert!(matches!(app.mode(), Mode::Tracker), "{line} refused");
    }
}

/// Against Bo's armor a roll that can still be stopped never reads 100.0%, nor one that can still
/// get through 0.0%; certainty alone reads so.
#[test]
fn the_damage_forms_odds_read_certain_only_when_they_are() {
    for (pt, with, odds) in [
        (15, "6d6+7", ">99.9%"),  // stopped only by 6d6 of 7 or less: 7 in 46,656
        (30, "5d6+0", "<0.1%"),   // through only on five 6s: 1 in 7,776
        (15, "3d6+12", "100.0%"), // 15 at the least
        (15, "1d6+0", "0.0%"),    // 6 at the most
        (15, "4d6+7", "97.3%"),
    ] {
        let armor = format!("armor Bo pt {pt} dr 30");
        let preview = damage_preview_after(&[armor.as_str()], with).expect(with);
        assert!(preview.ends_with(&format!(": {odds}")), "{with}: {preview}");
    }
    // Against DR 100 every roll past the PT is reduced to nothing: no roll injures.
    let preview = damage_preview_after(&["armor Bo pt 0 dr 100"], "2d6+4").expect("2d6+4");
    assert_eq!(preview, "Bo: PT 0/DR 100; 2d6+4 injures: 0.0%");
}

#[test]
fn dice_out_of_range_say_what_is_allowed() {
    for with in ["0d6", "99d6", "0d6 + 2", "99999999999d6"] {
        let why = damage_preview_with(with).expect_err(with);
        assert!(why.contains("1 to 30"), "{with}: {why}");
        assert!(!why.contains("weapon"), "{with}: {why}");
    }
}

/// The Edge menu is as tall as what it shows: its lines, and the selected line's whole reason
/// only when the list cuts it; no blank rows kept for another line's reason.
#[test]
fn the_edge_menu_keeps_no_blank_rows_for_a_reason_it_does_not_show() {
    // Given the Edge menu of Ana at 80×24, its first line (not refused) selected
    let mut app = fight();
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('G'));
    let Mode::Choose(c) = app.mode() else {
        panic!("not the Edge menu: {:?}", app.mode().kind());
    };
    assert!(c.items[c.selected].refusal.is_none());
    let lines = c.items.len();
    let at = c.area(crate::ui::mode::choose::body((80, 24)));
    // Then the box holds its lines and borders, nothing under them
    assert_eq!(
        usize::from(at.height),
        lines + 2,
        "{}",
        screen(&mut app, 80, 24)
    );
    // When the selection moves to a refused line whose reason the list cuts
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    let Mode::Choose(c) = app.mode() else {
        panic!("not the Edge menu: {:?}", app.mode().kind());
    };
    let at = c.area(crate::ui::mode::choose::body((80, 24)));
    // Then the box grows by the rows its reason takes, read whole under the list
    let shown = screen(&mut app, 80, 24);
    assert_eq!(usize::from(at.height), lines + 2 + 2, "{shown}");
}

/// At 80 columns the list cuts a refused line's reason; under the list the selected line's
/// reason reads whole, wrapped to the menu's width.
#[test]
fn the_edge_menu_shows_the_selected_lines_whole_reason() {
    let mut app = fight();
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('G'));
    // Past the boost and lessening (no injury to lessen): burning.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    let Mode::Choose(c) = app.mode() else {
        panic!("not the Edge menu: {:?}", app.mode().kind());
    };
    let item = &c.items[c.selected];
    assert!(item.label.starts_with("burn Edge"), "{}", item.label);
    let why = item
        .refusal
        .clone()
        .expect("burning is refused without an injury");
    let at = c.area(crate::ui::mode::choose::body((80, 24)));
    let shown = reason_read_whole(&mut app, "burn Edge", &why, at);
    insta::with_settings!({ snapshot_path => "../snapshots" }, {
        insta::assert_snapshot!("sr2097_edge_menu_refused_80x24", shown);
    });
}

#[test]
fn the_edge_menus_title_cuts_a_long_name_not_the_edge() {
    // Given a character whose name is 40 wide characters (80 cells)
    let mut enc = Encounter::for_system(
        System::Sr2097,
        Arc::new(HouseRules::embedded()),
        Arc::new(demo::catalogue()),
    );
    let add = format!("add {} pc int 4 rea 5 edge 2", "龍".repeat(40));
    assert_eq!(demo::script(&mut enc, &[add.as_str()], 1), Ok(()));
    let mut app = app_for(enc);
    // When the GM opens the Edge menu at 80×24
    press(&mut app, KeyCode::Char('G'));
    // Then its title says the Edge left, the name cut with …
    let s = screen(&mut app, 80, 24);
    let title = s
        .lines()
        .find(|l| l.contains("Edge of"))
        .unwrap_or_default();
    assert!(title.contains("Edge 2/2"), "{title}\n{s}");
    assert!(title.contains('…'), "{title}");
}

#[test]
fn the_damage_forms_target_takes_a_name_in_short_as_the_dmg_command_does() {
    // Given `dmg` takes Bo in short
    let mut typed = fight();
    typ(&mut typed, ":");
    typ(&mut typed, "dmg Ana b with Pistol dice 6 6");
    press(&mut typed, KeyCode::Enter);
    assert!(
        matches!(typed.mode(), Mode::Tracker),
        "{:?}",
        typed.message()
    );
    // When the GM types the same short name in Ana's damage form
    let mut app = fight();
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('w'));
    typ(&mut app, "b");
    for _ in 0..4 {
        press(&mut app, KeyCode::Tab);
    }
    typ(&mut app, "6 6");
    press(&mut app, KeyCode::Enter);
    // Then the form rolls the very damage the line did
    assert!(
        matches!(app.mode(), Mode::Tracker),
        "{:?}",
        app.mode().kind()
    );
    assert_eq!(last_events(&app), last_events(&typed));
}

#[test]
fn the_edge_menu_shows_lessen_injury_dimmed_with_the_engines_reason_when_there_is_no_injury() {
    // Given Ana has no injury, and `edge Ana lessen` is refused
    let mut typed = fight();
    typ(&mut typed, ":edge Ana lessen");
    press(&mut typed, KeyCode::Enter);
    let why = typed
        .message()
        .map(|(m, _)| m.to_string())
        .unwrap_or_default();
    assert!(!why.is_empty());
    // When the GM opens her Edge menu
    let mut app = fight();
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('G'));
    // Then "lessen injury" is there, refused with the engine's sentence
    let Mode::Choose(c) = app.mode() else {
        panic!("not the Edge menu: {:?}", app.mode().kind());
    };
    let item = c
        .items
        .iter()
        .find(|i| i.label.starts_with("lessen injury"));
    assert_eq!(
        item.and_then(|i| i.refusal.clone()),
        Some(why.clone()),
        "{:?}",
        c.items
    );
    // and Enter on it says so on the status line and changes nothing
    let before = app.enc.history().len();
    super::choose(&mut app, "lessen injury");
    assert_eq!(app.message().map(|(m, _)| m.to_string()), Some(why));
    assert_eq!(app.enc.history().len(), before);
}

/// However many lines the Edge menu has, at 80×24 it leaves the log's last line in sight: it
/// moves up over the order, then scrolls its list.
#[test]
fn the_edge_menu_at_80x24_leaves_the_logs_last_line_in_sight() {
    for injuries in [2, 9, 14] {
        // Given Bo with many injuries, each a line of the Edge menu
        let mut app = fight();
        for _ in 0..injuries {
            typ(&mut app, ":");
            typ(&mut app, "dmg - Bo 2d6+4 dice 6 6");
            press(&mut app, KeyCode::Enter);
        }
        select(&mut app, "Bo");
        let before = screen(&mut app, 80, 24);
        let last = |s: &str| {
            s.lines()
                .nth(20)
                .map(|l| l.chars().skip(40).collect::<String>())
        };
        // When the GM opens the Edge menu on its last line
        press(&mut app, KeyCode::Char('G'));
        press(&mut app, KeyCode::End);
        let shown = screen(&mut app, 80, 24);
        // Then the log's last line still shows, and so does the line selected
        assert!(
            last(&before).is_some_and(|l| l.contains("serious injury")),
            "{before}"
        );
        assert_eq!(last(&shown), last(&before), "{injuries}\n{shown}");
        assert!(
            shown.contains("▶ ⊘ between scenarios"),
            "{injuries}\n{shown}"
        );
        if injuries == 9 {
            insta::with_settings!({ snapshot_path => "../snapshots" }, {
                insta::assert_snapshot!("sr2097_edge_menu_many_injuries_80x24", shown);
            });
        }
    }
}

#[test]
fn the_damage_form_names_a_target_it_does_not_know_by_the_word_typed_and_says_its_keys() {
    let mut app = fight();
    select(&mut app, "Ana");
    // Given the damage form, its keys said on its last line (Edge is a choice)
    press(&mut app, KeyCode::Char('w'));
    let shown = screen(&mut app, 120, 40);
    assert!(shown.contains("Space, ←/→: change a choice"), "{shown}");
    // When the target typed is no one here
    typ(&mut app, "Zed");
    press(&mut app, KeyCode::Enter);
    // Then the form says so of the word, not of a word number in a line never typed
    let shown = screen(&mut app, 120, 40);
    assert!(
        shown.contains("\"Zed\": expected a combatant name"),
        "{shown}"
    );
    assert!(!shown.contains("word 1"), "{shown}");
}

#[test]
fn the_check_form_says_the_engine_s_refusal_where_the_odds_would_be() {
    let mut app = fight();
    assert_eq!(
        demo::script(&mut app.enc, &["add Zo pc int 3 rea 3 edge 0"], 1),
        Ok(())
    );
    select(&mut app, "Zo");
    // Given Zo's check form, odds shown for TN 20 and bonus 12
    press(&mut app, KeyCode::Char('c'));
    typ(&mut app, "20");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "12");
    let Mode::CheckForm(f) = app.mode() else {
        panic!("the check form")
    };
    assert!(f.odds.is_ok(), "{:?}", f.odds);
    // When Edge is chosen, which Zo has none of
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "y");
    // Then no odds are shown, but the engine's reason, before Enter
    let Mode::CheckForm(f) = app.mode() else {
        panic!("the check form")
    };
    let why = f
        .odds
        .clone()
        .expect_err("no odds for a check the engine refuses");
    assert!(why.contains("Zo has no Edge left"), "{why}");
    let shown = screen(&mut app, 120, 40);
    assert!(shown.contains("Zo has no Edge left"), "{shown}");
}

#[test]
fn a_difficulty_the_rules_do_not_know_is_pointed_at_in_its_field() {
    let mut app = fight();
    select(&mut app, "Ana");
    // Given a check form with a TN word that is no difficulty, and a bonus
    press(&mut app, KeyCode::Char('c'));
    typ(&mut app, "hard");
    press(&mut app, KeyCode::Tab);
    typ(&mut app, "10");
    // When the GM presses Enter
    press(&mut app, KeyCode::Enter);
    // Then the form stays, on the TN, which says why; the engine was not asked
    let Mode::CheckForm(f) = app.mode() else {
        panic!("the form stays: {:?}", app.mode().kind());
    };
    assert_eq!(f.focus, 0);
    assert!(
        f.fields[0]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("\"hard\" is not a difficulty")),
        "{:?}",
        f.fields[0].error
    );
    assert_eq!(f.error, None);
}

/// A 2097 table after `lines`.
fn setup(lines: &[&str]) -> App {
    let mut enc = Encounter::for_system(
        System::Sr2097,
        Arc::new(HouseRules::embedded()),
        Arc::new(demo::catalogue()),
    );
    assert_eq!(demo::script(&mut enc, lines, 1), Ok(()));
    app_for(enc)
}

fn key_bar(app: &mut App) -> String {
    let shown = screen(app, 80, 24);
    shown.lines().last().unwrap_or_default().to_string()
}

/// Given a 2097 table at 80 columns before the fight, the key bar offers starting it ahead of
/// the checks, damage rolls and Edge; the rolling keys only while someone has no roll (`R` only
/// for an NPC), and with nobody there none of the keys that want someone.
#[test]
fn the_2097_key_bar_before_the_fight_offers_start_and_only_the_rolls_still_to_make() {
    let mut app = setup(&[]);
    let bar = key_bar(&mut app);
    assert!(bar.starts_with("a add"), "{bar}");
    for gone in [
        "c success",
        "w damage",
        "G Edge",
        "r roll",
        "R roll",
        "s start",
    ] {
        assert!(!bar.contains(gone), "{gone}: {bar}");
    }
    let mut app = setup(&[
        "add Bo pc int 4 rea 4 edge 2",
        "add Ganger npc int 3 rea 3 edge 1",
    ]);
    let bar = key_bar(&mut app);
    assert!(
        bar.contains("r roll unrolled") && bar.contains("R roll NPCs"),
        "{bar}"
    );
    assert!(bar.contains("s start"), "{bar}");
    let mut app = setup(&[
        "add Bo pc int 4 rea 4 edge 2",
        "add Ganger npc int 3 rea 3 edge 1",
        "roll Ganger dice 3 3",
    ]);
    let bar = key_bar(&mut app);
    assert!(
        bar.contains("r roll unrolled") && !bar.contains("R roll"),
        "{bar}"
    );
    let mut app = setup(&[
        "add Bo pc int 4 rea 4 edge 2",
        "add Ganger npc int 3 rea 3 edge 1",
        "roll Bo dice 6 6",
        "roll Ganger dice 3 3",
    ]);
    let bar = key_bar(&mut app);
    assert!(
        bar.contains("t initiative s start c success check"),
        "{bar}"
    );
    assert!(!bar.contains("r roll") && !bar.contains("R roll"), "{bar}");
}

/// Given a form of one number and no choice (2097's initiative dice), its last line does not
/// say how to change a choice.
#[test]
fn a_form_without_a_choice_names_no_way_to_change_one() {
    let mut app = setup(&["add Bo pc int 4 rea 4 edge 2"]);
    typ(&mut app, "t");
    assert!(matches!(app.mode(), Mode::Form(_)));
    let shown = screen(&mut app, 120, 40);
    assert!(
        shown.contains("Enter: submit  Tab: next field  Esc: cancel"),
        "{shown}"
    );
    assert!(!shown.contains("change a choice"), "{shown}");
}

/// A character dying of an injury says so in the Status pane: only Edge saves it, where one
/// merely Downed waits for first aid.
#[test]
fn the_status_pane_tells_a_dying_character_from_a_downed_one() {
    let mut app = fight();
    let dying = ["dmg - Bo 6d6+10 dice 6 6 6 6 6 6"];
    assert_eq!(demo::script(&mut app.enc, &dying, 1), Ok(()));
    let shown = screen(&mut app, 100, 30);
    assert!(shown.contains("✗ Bo Downed: dying of injury 1"), "{shown}");
    // The selected one's line says the same, not a mere "Downed (injury)".
    select(&mut app, "Bo");
    let shown = screen(&mut app, 160, 48);
    assert!(shown.contains("Downed (dying of injury 1)"), "{shown}");
    assert!(!shown.contains("Downed (injury)"), "{shown}");
}

/// `h` (damage to a monitor) at a table whose damage is its own roll: the refusal for want of
/// Body points to that roll too, with the key and the typed form.
#[test]
fn damage_to_a_monitor_without_body_points_to_the_tables_damage_roll() {
    // Given Bo, with no Body on the sheet
    let mut app = fight();
    select(&mut app, "Bo");
    // When the GM presses `h`
    press(&mut app, KeyCode::Char('h'));
    // Then it is refused at the key (no form to fill first), saying how this table deals
    // damage, and nothing changes
    assert!(
        matches!(app.mode(), Mode::Tracker),
        "{:?}",
        app.mode().kind()
    );
    let (why, refused) = app.message().expect("a message");
    assert!(refused, "{why}");
    assert_eq!(
        why,
        "Bo has no Body on their sheet, so no Physical monitor: `edit` to set Body; this \
         table's damage is a damage roll through armor: `w`, or `dmg - Bo NdM+ST`"
    );
}

/// A boost that counts in this pass is in the order pane, where the GM looks for who goes next:
/// `⇡20` in Status, the boosted score, until the boosted turn begins.
#[test]
fn a_boost_counting_in_this_pass_shows_its_score_in_the_order_until_the_turn() {
    // Given Bo (score 8) boosted by 12 while Ana (21) acts
    let mut app = setup(&[
        "add Ana pc int 4 rea 5 edge 2",
        "add Bo npc int 3 rea 3 edge 1",
        "roll Ana dice 6 6",
        "roll Bo dice 1 1",
        "start",
        "edge Bo boost dice 6 6",
    ]);
    let row = |app: &mut App, name: &str| {
        screen(app, 160, 48)
            .lines()
            .filter_map(|l| l.split("││").next())
            .find(|l| l.contains(name) && l.contains("PC"))
            .map(str::to_string)
            .unwrap_or_default()
    };
    // Then Bo's row shows the boosted score, Ana's none
    assert!(
        row(&mut app, "Bo ").contains("⇡20"),
        "{}",
        row(&mut app, "Bo ")
    );
    assert!(!row(&mut app, "Ana").contains('⇡'));
    // When Bo's turn begins, the mark is gone (the boost has counted)
    typ(&mut app, ":next");
    press(&mut app, KeyCode::Enter);
    assert!(
        !row(&mut app, "Bo ").contains('⇡'),
        "{}",
        row(&mut app, "Bo ")
    );
}

/// Given Ana burned a point of Edge, when the GM opens her edit form, then its Edge field shows
/// the rating with the point burned said beside it (a GM typing the Edge left would lose one).
#[test]
fn the_edit_form_says_the_edge_burned_beside_the_rating() {
    let mut app = setup(&[
        "add Ana pc int 4 rea 5 edge 2",
        "roll Ana dice 6 6",
        "start",
        "dmg - Ana 6d6+10 dice 6 6 6 6 6 6",
        "edge Ana burn",
    ]);
    select(&mut app, "Ana");
    press(&mut app, KeyCode::Char('e'));
    let shown = screen(&mut app, 160, 48);
    let row = shown
        .lines()
        .find(|l| l.contains("Edge") && l.contains("burned"))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(row.contains("1 burned for good, so 1 at least"), "{row}");
    assert!(row.contains('2'), "{row}");
}
