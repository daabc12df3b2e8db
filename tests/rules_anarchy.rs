//! Given/when/then for Shadowrun: Anarchy (anarchy-narration-plot-points-glitch-die.txt):
//! narration turns, Plot Points for players and the GM, the menu of spends, "Interesting Times",
//! Cooldowns and condition boxes, Anarchy tests and the glitch die.

mod common;
use std::sync::Arc;

use common::{Table, test_catalogue};
use srtrack::encounter::system::anarchy::{AnarchyEvent, AnarchyRefusal, Narration};
use srtrack::encounter::{Encounter, Event, RuleError, System};
use srtrack::rules::HouseRules;
use srtrack::rules::anarchy::Switch;

/// Ana, Bo and Cy (players, seated in that order) and a Ganger, before anything else.
fn table() -> Table {
    let mut t = Table::under(System::Anarchy);
    t.run("add Ana pc edge 3 body 4 will 5");
    t.run("add Bo pc edge 2 body 3 will 3");
    t.run("add Cy pc edge 1 body 4 will 2");
    t.run("add Ganger npc edge 1 body 4 will 2");
    t
}

fn n(t: &Table) -> &Narration {
    t.state().narration().expect("an Anarchy table")
}

fn pp(t: &Table, name: &str) -> u8 {
    let id = t.c(name).id;
    n(t).player(id).expect("a player").plot_points
}

fn gm(t: &Table) -> u32 {
    n(t).gm_points
}

fn narrator(t: &Table) -> String {
    n(t).narrator()
        .map(|x| t.state().name(x.who).to_string())
        .unwrap_or_default()
}

fn anarchy(err: RuleError) -> AnarchyRefusal {
    match err {
        RuleError::Anarchy(a) => a,
        other => panic!("not an Anarchy refusal: {other}"),
    }
}

fn events(evs: &[Event]) -> Vec<&AnarchyEvent> {
    evs.iter()
        .filter_map(|e| match e {
            Event::Anarchy(a) => Some(a),
            _ => None,
        })
        .collect()
}

// ----- Plot Points: players --------------------------------------------------------------------

#[test]
fn players_start_the_session_with_three_plot_points_and_the_gm_with_one() {
    let mut t = table();
    t.run("narrate");
    assert_eq!((pp(&t, "Ana"), pp(&t, "Bo"), pp(&t, "Cy")), (3, 3, 3));
    assert_eq!(gm(&t), 1);
    assert!(n(&t).player(t.c("Ganger").id).is_none(), "NPCs hold none");
}

#[test]
fn the_gm_awards_one_point_at_a_time_and_never_over_five() {
    let mut t = table();
    t.run("pp Ana award good narration");
    assert_eq!(pp(&t, "Ana"), 4);
    t.run("pp Ana award disposition loyal to the crew");
    assert_eq!(pp(&t, "Ana"), 5);
    let err = t.refuse("pp Ana award cue Quick Draw");
    assert_eq!(
        err.to_string(),
        "Ana already has 5 Plot Points, the most a player may hold"
    );
}

#[test]
fn a_bare_number_is_no_reason_for_an_award_points_come_one_at_a_time() {
    let mut t = table();
    t.run("narrate");
    for line in [
        "pp Ana award 2",
        "pp Ana award 1",
        "pp Ana award +3",
        "pp Ana award \"2\"",
    ] {
        // When the GM gives a count where the reason goes
        let err = anarchy(t.refuse(line));
        // Then it is refused in one sentence saying how to give several, nothing awarded
        assert!(
            matches!(err, AnarchyRefusal::AwardCount { .. }),
            "{line}: {err}"
        );
        assert_eq!(pp(&t, "Ana"), 3, "{line}");
    }
    assert_eq!(
        anarchy(t.refuse("pp Ana award 2")).to_string(),
        "Plot Points are awarded one at a time: `pp Ana award` once for each point (\"2\" would \
         be its reason)"
    );
    // While a reason holding a number, or a Cue that is one, is taken
    t.run("pp Ana award 2 good ideas");
    t.run("pp Ana award cue 2");
    assert_eq!(pp(&t, "Ana"), 5);
}

#[test]
fn a_cue_earns_a_plot_point_only_the_first_time_in_the_session() {
    let mut t = table();
    t.run("pp Bo award cue Never Alone");
    let err = t.refuse("pp Bo award cue never alone");
    assert!(matches!(anarchy(err), AnarchyRefusal::CueRepeated { .. }));
    // Nor with the sentence's end typed after it
    for again in [
        "pp Bo award cue Never Alone.",
        "pp Bo award cue Never Alone !",
    ] {
        let err = t.refuse(again);
        assert!(
            matches!(anarchy(err), AnarchyRefusal::CueRepeated { .. }),
            "{again}"
        );
    }
    assert_eq!(pp(&t, "Bo"), 4);
}

#[test]
fn plot_points_are_the_players_not_the_npcs() {
    let mut t = table();
    let err = t.refuse("pp Ganger award");
    assert_eq!(
        err.to_string(),
        "Plot Points are the players': Ganger is an NPC (the GM spends for NPCs with `gm spend`)"
    );
    assert!(matches!(
        anarchy(t.refuse("pp Ganger spend surprise threat")),
        AnarchyRefusal::NotAPlayer { .. }
    ));
}

#[test]
fn every_plot_point_a_player_spends_gives_the_gm_two() {
    let mut t = table();
    t.run("narrate");
    t.run("pp Ana spend surprise threat: a hellhound");
    assert_eq!((pp(&t, "Ana"), gm(&t)), (2, 3));
    t.run("pp Bo spend get a clue");
    assert_eq!((pp(&t, "Bo"), gm(&t)), (2, 5));
}

#[test]
fn a_player_cannot_spend_points_they_do_not_hold() {
    let mut t = table();
    t.run("narrate");
    for _ in 0..3 {
        t.run("pp Cy spend take the hit");
    }
    let err = t.refuse("pp Cy spend take the hit");
    assert_eq!(
        err.to_string(),
        "Cy has 0 Plot Points: Take the Hit costs 1"
    );
}

#[test]
fn a_montage_a_player_cannot_pay_for_says_what_it_would_cost() {
    // Given Cy with no Plot Points left
    let mut t = table();
    t.run("narrate");
    for _ in 0..3 {
        t.run("pp Cy spend take the hit");
    }
    // When Cy spends a Montage of 3, the refusal names its cost, 3, not the least one
    assert_eq!(
        t.refuse("pp Cy spend montage 3").to_string(),
        "Cy has 0 Plot Points: Montage costs 3"
    );
    // And a Montage with no cost named, or one out of range, costs at least the least one
    for line in ["pp Cy spend montage", "pp Cy spend montage 9"] {
        assert_eq!(
            t.refuse(line).to_string(),
            "Cy has 0 Plot Points: Montage costs at least 1",
            "{line}"
        );
    }
}

#[test]
fn the_menu_names_each_spend_and_refuses_an_unknown_one_listing_them() {
    let mut t = table();
    let err = t.refuse("pp Ana spend a bigger gun");
    let msg = err.to_string();
    assert!(
        msg.starts_with(
            "no Plot Point spend called \"a bigger gun\": Live Dangerously, Shake It Up"
        ),
        "{msg}"
    );
    assert!(msg.contains("Flashback") && msg.contains("Montage") && msg.contains("Other"));
}

#[test]
fn other_needs_words_and_logs_them() {
    let mut t = table();
    let err = t.refuse("pp Ana spend other");
    assert!(matches!(anarchy(err), AnarchyRefusal::SpendNeeds { .. }));
    let evs = t.run("pp Ana spend other the fixer owes me");
    assert!(events(&evs).iter().any(|e| matches!(e,
        AnarchyEvent::Spent { what, note: Some(note), points: 1, .. } if what == "Other" && note == "the fixer owes me")));
}

#[test]
fn a_montage_costs_the_points_the_player_names() {
    let mut t = table();
    t.run("pp Ana spend montage 2");
    assert_eq!((pp(&t, "Ana"), gm(&t)), (1, 5));
    let err = t.refuse("pp Bo spend montage");
    assert!(matches!(anarchy(err), AnarchyRefusal::SpendNeeds { .. }));
    assert!(matches!(
        anarchy(t.refuse("pp Bo spend montage 9")),
        AnarchyRefusal::OutOfRange { .. }
    ));
}

#[test]
fn a_shadow_amp_gives_a_point_at_the_start_of_combat_within_the_cap() {
    let mut t = table();
    t.run("sheet Ana amp on");
    t.run("sheet Bo amp on");
    t.run("pp Bo award");
    t.run("pp Bo award");
    t.run("narrate");
    assert_eq!((pp(&t, "Ana"), pp(&t, "Bo"), pp(&t, "Cy")), (4, 5, 3));
}

// ----- Plot Points: the GM ---------------------------------------------------------------------

/// The table in turn 1, Ana narrating, with a GM pool of 7 (Ana and Bo spent 3 points).
fn gm_table() -> Table {
    let mut t = table();
    t.run("narrate");
    t.run("pp Ana spend surprise threat");
    t.run("pp Ana spend never give up");
    t.run("pp Bo spend take the hit");
    assert_eq!(gm(&t), 7);
    t
}

#[test]
fn the_gm_spends_at_most_one_point_per_player_a_turn() {
    let mut t = gm_table();
    t.run("gm spend surprise threat: a drone swarm");
    t.run("gm spend take the hit on Ganger");
    t.run("gm spend glitch die on Ganger");
    let err = t.refuse("gm spend get revenge on Ganger");
    assert_eq!(
        err.to_string(),
        "the GM has spent 3 Plot Points this turn, the limit (one per player, 3 players)"
    );
    assert_eq!(gm(&t), 4);
}

#[test]
fn the_gm_spends_at_most_two_points_on_one_player_a_turn() {
    let mut t = gm_table();
    t.run("gm spend glitch die on Ana");
    t.run("gm spend surprise threat on Ana");
    let err = t.refuse("gm spend other on Ana the roof gives way");
    assert_eq!(
        err.to_string(),
        "the GM has spent 2 Plot Points on Ana this turn, the most on one player (2)"
    );
}

#[test]
fn the_gm_spends_on_a_player_only_the_glitch_die_or_a_twist() {
    let mut t = gm_table();
    let err = t.refuse("gm spend first aid on Ana stun");
    assert_eq!(
        err.to_string(),
        "the GM spends on a player only the glitch die or a plot twist: First Aid/Fix would aid or hinder Ana directly (spend it on an NPC)"
    );
    assert!(matches!(
        anarchy(t.refuse("gm spend flashback")),
        AnarchyRefusal::PlayersOnly { .. }
    ));
    t.run("gm spend glitch die on Ana");
    assert!(n(&t).has_glitch_die(t.c("Ana").id));
}

#[test]
fn the_gms_limits_start_again_each_turn() {
    let mut t = gm_table();
    for line in [
        "gm spend surprise threat",
        "gm spend surprise threat",
        "gm spend surprise threat",
    ] {
        t.run(line);
    }
    t.refuse("gm spend surprise threat");
    for _ in 0..3 {
        t.run("narrate");
    }
    assert_eq!(n(&t).turn, 1, "turn 1 has ended");
    assert_eq!(n(&t).gm_spent(None), 0);
    t.run("gm spend surprise threat");
}

#[test]
fn the_gm_pays_for_a_reversed_order_of_the_next_turn() {
    let mut t = gm_table();
    let err = t.refuse("gm order reverse");
    assert!(matches!(anarchy(err), AnarchyRefusal::OrderMidTurn));
    for _ in 0..3 {
        t.run("narrate");
    }
    assert!(narrator(&t).is_empty(), "turn 1 is over");
    t.run("gm order reverse");
    assert_eq!(gm(&t), 6);
    assert!(matches!(
        anarchy(t.refuse("gm order random")),
        AnarchyRefusal::OrderChanged { .. }
    ));
    t.run("narrate");
    assert_eq!(narrator(&t), "Cy");
    t.run("narrate");
    assert_eq!(narrator(&t), "Bo");
}

#[test]
fn the_gm_rolls_a_die_for_a_new_starting_player_and_the_die_is_logged() {
    let mut t = gm_table();
    for _ in 0..3 {
        t.run("narrate");
    }
    let evs = t.roll("gm order random", &[2]);
    assert!(events(&evs).iter().any(|e| matches!(
        e,
        AnarchyEvent::OrderChosen {
            how: srtrack::rules::anarchy::narration::TurnOrder::From { die: 2, .. },
            points: 1
        }
    )));
    t.run("narrate");
    assert_eq!(narrator(&t), "Bo");
    let log = srtrack::report::log_lines(&t.enc);
    assert!(
        log.iter().any(|(_, l)| l.contains("from Bo (die 2)")),
        "{log:?}"
    );
}

// ----- narration turns -------------------------------------------------------------------------

#[test]
fn each_player_narrates_once_a_turn_in_seating_order_then_the_turn_ends() {
    let mut t = table();
    t.run("narrate");
    assert_eq!((n(&t).turn, narrator(&t)), (1, "Ana".to_string()));
    t.run("narrate");
    assert_eq!(narrator(&t), "Bo");
    t.run("narrate");
    assert_eq!(narrator(&t), "Cy");
    let evs = t.run("narrate");
    assert!(
        events(&evs)
            .iter()
            .any(|e| matches!(e, AnarchyEvent::TurnEnded { turn: 1 }))
    );
    assert_eq!(narrator(&t), "");
    t.run("narrate");
    assert_eq!((n(&t).turn, narrator(&t)), (2, "Ana".to_string()));
}

#[test]
fn the_gm_sets_the_seating_and_puts_npc_narrations_where_wanted() {
    let mut t = table();
    t.run("seating Cy, Ganger, Ana, Bo");
    let mut seen = Vec::new();
    for _ in 0..4 {
        t.run("narrate");
        seen.push(narrator(&t));
    }
    assert_eq!(seen, ["Cy", "Ganger", "Ana", "Bo"]);
    let err = t.refuse("seating Ana, Bo");
    assert_eq!(
        err.to_string(),
        "the seating must name every player character: Cy is missing"
    );
    assert!(matches!(
        anarchy(t.refuse("seating Ana, Bo, Cy, Ana")),
        AnarchyRefusal::SeatedTwice { .. }
    ));
}

#[test]
fn shake_it_up_narrates_now_for_a_plot_point_and_not_again_at_the_seat() {
    let mut t = table();
    t.run("narrate");
    t.run("narrate Cy");
    assert_eq!(
        (narrator(&t), pp(&t, "Cy"), gm(&t)),
        ("Cy".to_string(), 2, 3)
    );
    t.run("narrate");
    assert_eq!(narrator(&t), "Bo");
    let evs = t.run("narrate");
    assert!(
        events(&evs)
            .iter()
            .any(|e| matches!(e, AnarchyEvent::TurnEnded { .. })),
        "Cy narrated already: the turn ends after Bo"
    );
    let err = {
        t.run("narrate");
        t.refuse("narrate Ana")
    };
    assert_eq!(err.to_string(), "Ana is narrating now");
}

#[test]
fn the_next_seat_narrates_for_free_and_a_second_narration_is_refused() {
    let mut t = table();
    t.run("narrate");
    t.run("narrate Bo");
    assert_eq!(pp(&t, "Bo"), 3, "Bo's seat came next: no Shake It Up");
    assert_eq!(
        t.last_lines(),
        ["Bo narrates: the next seat anyway, no Shake It Up and no Plot Point"]
    );
    assert!(matches!(
        anarchy(t.refuse("pp Cy spend shake it up")),
        AnarchyRefusal::NextAnyway { .. }
    ));
    assert_eq!(
        t.refuse("narrate Ana").to_string(),
        "Ana has narrated in this turn already: one narration a turn"
    );
}

#[test]
fn a_downed_character_is_skipped_and_cannot_narrate() {
    let mut t = table();
    t.run("down Bo");
    t.run("narrate");
    let evs = t.run("narrate");
    assert!(
        events(&evs)
            .iter()
            .any(|e| matches!(e, AnarchyEvent::NarrationSkipped { .. }))
    );
    assert_eq!(narrator(&t), "Cy");
    assert!(matches!(t.refuse("narrate Bo"), RuleError::Downed { .. }));
}

#[test]
fn one_movement_a_narration_two_with_double_time_it() {
    let mut t = table();
    t.run("narrate");
    let moves = |t: &Table| {
        n(t).narrator()
            .map(|x| x.movements.count(&t.enc.rules().anarchy.movements))
    };
    assert_eq!(moves(&t), Some(1));
    t.run("pp Ana spend double-time it");
    assert_eq!(moves(&t), Some(2));
    assert!(matches!(
        anarchy(t.refuse("pp Ana spend double time")),
        AnarchyRefusal::AlreadyDoubleTime { .. }
    ));
    assert_eq!(
        t.refuse("pp Bo spend double time").to_string(),
        "Double-Time It is for one's own narration: Ana is narrating, not Bo"
    );
}

#[test]
fn a_spend_for_the_spenders_own_narration_takes_no_one_else_after_on() {
    let mut t = table();
    t.run("narrate");
    // When Ana spends what is for her own narration on Bo
    for (line, what) in [
        ("pp Ana spend double time on Bo", "Double-Time It"),
        ("pp Ana spend shake it up on Bo", "Shake It Up"),
        ("pp Ana spend flashback on Ganger", "Flashback"),
    ] {
        let err = anarchy(t.refuse(line));
        // Then it is refused in one sentence naming the spend and the `on` not taken
        assert!(
            matches!(err, AnarchyRefusal::ForOneself { .. }),
            "{line}: {err}"
        );
        let on = line.split(" on ").nth(1).unwrap_or_default();
        assert_eq!(
            err.to_string(),
            format!("{what} is for the spender's own narration, Ana's: `on {on}` is not taken"),
            "{line}"
        );
    }
    assert_eq!(pp(&t, "Ana"), 3, "nothing paid");
    // While `on` the spender itself is taken
    t.run("pp Ana spend double time on Ana");
    assert_eq!(pp(&t, "Ana"), 2);
}

// ----- lasting effects -------------------------------------------------------------------------

#[test]
fn frag_it_puts_a_thing_on_cooldown_until_the_turn_ends() {
    let mut t = table();
    t.run("narrate");
    t.run("pp Ana spend frag it on Ganger Uzi IV");
    assert!(t.c("Ganger").status("Cooldown: Uzi IV").is_some());
    t.run("cooldown Bo cyberdeck");
    for _ in 0..3 {
        t.run("narrate");
    }
    assert!(t.c("Ganger").status("Cooldown: Uzi IV").is_none());
    assert!(t.c("Bo").status("Cooldown: cyberdeck").is_none());
}

#[test]
fn first_aid_recovers_one_box_of_stun_physical_armor_or_matrix() {
    let mut t = table();
    t.run("sheet Bo armor 6 matrix 4");
    t.run("damage Bo 2 stun");
    t.run("damage Bo 3 armor");
    t.run("pp Bo spend first aid stun");
    assert_eq!(t.c("Bo").damage.stun, 1);
    t.run("pp Ana spend fix on Bo armor");
    let gear = *n(&t).gear_of(t.c("Bo").id).unwrap();
    assert_eq!((gear.armor.damage, gear.armor.size), (2, 6));
    // A track with no damage is refused with one verb, gear or condition monitor alike.
    assert_eq!(
        t.refuse("pp Bo spend first aid matrix").to_string(),
        "Bo has no Matrix damage to heal"
    );
    assert_eq!(
        t.refuse("pp Bo spend first aid physical").to_string(),
        "Bo has no Physical damage to heal"
    );
    assert_eq!(
        t.refuse("pp Bo spend first aid on Cy armor").to_string(),
        "Cy has no Armor track: `sheet Cy armor N` gives one"
    );
    assert!(matches!(
        anarchy(t.refuse("pp Bo spend first aid")),
        AnarchyRefusal::SpendNeeds { .. }
    ));
}

#[test]
fn armor_and_matrix_tracks_fill_and_empty_within_their_size() {
    let mut t = table();
    t.run("sheet Ana armor 3");
    t.run("damage Ana 5 armor");
    let armor = |t: &Table| n(t).gear_of(t.c("Ana").id).unwrap().armor;
    assert_eq!(armor(&t).damage, 3);
    t.run("heal Ana 1 armor");
    assert_eq!(armor(&t).damage, 2);
}

// ----- "Interesting Times" ---------------------------------------------------------------------

#[test]
fn interesting_times_a_complication_for_oneself_gives_back_one_edge() {
    let mut t = table();
    t.run("narrate");
    t.run("atest Ana 2 vs 0 edge before dice 5 5 5");
    assert_eq!(t.c("Ana").edge_left, 2);
    t.run("pp Ana spend frag it on Ana commlink");
    assert_eq!(t.c("Ana").edge_left, 3);
}

#[test]
fn interesting_times_a_complication_for_another_player_gives_that_player_edge() {
    let mut t = table();
    t.run("narrate");
    t.run("atest Bo 2 vs 0 edge after dice 5 5");
    t.run("pp Ana spend surprise threat on Bo: lone star arrives");
    assert_eq!((t.c("Ana").edge_left, t.c("Bo").edge_left), (3, 2));
    let evs = t.run("pp Ana spend surprise threat on Ganger");
    assert!(
        !events(&evs)
            .iter()
            .any(|e| matches!(e, AnarchyEvent::EdgeRegained { .. })),
        "a complication for an NPC gives no Edge"
    );
}

#[test]
fn interesting_times_for_another_player_only_in_the_narration_of_the_spender_or_the_target() {
    let mut t = table();
    t.run("narrate");
    t.run("narrate");
    assert_eq!(narrator(&t), "Bo");
    t.run("atest Cy 2 vs 0 edge before dice 5 5 5");
    let regained = |evs: &[Event]| {
        events(evs)
            .iter()
            .any(|e| matches!(e, AnarchyEvent::EdgeRegained { .. }))
    };
    // Bo narrates: neither Ana's (the spender's) narration nor Cy's (the target's).
    let evs = t.run("pp Ana spend surprise threat on Cy: a drone");
    assert!(!regained(&evs), "a third player's narration gives no Edge");
    assert_eq!(t.c("Cy").edge_left, 0);
    // In the target's own narration it does.
    t.run("narrate");
    let evs = t.run("pp Ana spend surprise threat on Cy: a second drone");
    assert!(regained(&evs));
    assert_eq!(t.c("Cy").edge_left, 1);
}

#[test]
fn interesting_times_is_a_switch_in_the_rules() {
    let mut rules = HouseRules::embedded();
    rules.anarchy.interesting_times.switch = Switch::Off;
    let mut t = Table {
        enc: Encounter::for_system(System::Anarchy, Arc::new(rules), Arc::new(test_catalogue())),
    };
    t.run("add Ana pc edge 3");
    t.run("narrate");
    t.run("atest Ana 2 vs 0 edge before dice 5 5 5");
    let evs = t.run("pp Ana spend surprise threat");
    assert!(
        !events(&evs)
            .iter()
            .any(|e| matches!(e, AnarchyEvent::EdgeRegained { .. }))
    );
    assert_eq!(t.c("Ana").edge_left, 2);
}

// ----- Anarchy tests ---------------------------------------------------------------------------

fn tested(evs: &[Event]) -> srtrack::rules::anarchy::test::Outcome {
    events(evs)
        .iter()
        .find_map(|e| match e {
            AnarchyEvent::Tested { outcome, .. } => Some(*outcome),
            _ => None,
        })
        .expect("a test")
}

use srtrack::rules::anarchy::glitch::Fate;
use srtrack::rules::anarchy::test::Verdict;

#[test]
fn hits_are_fives_and_sixes_and_ties_succeed() {
    let mut t = table();
    let o = tested(&t.run("atest Ana 4+3 vs 3 dice 6 5 4 3 2 1 1 vs 5 6 1"));
    assert_eq!(
        (o.hits, o.opposing_hits, o.verdict),
        (2, 2, Verdict::Success)
    );
}

#[test]
fn zero_hits_always_fail_even_against_zero() {
    let mut t = table();
    let o = tested(&t.run("atest Ana 3 vs 2 dice 4 3 1 vs 2 1"));
    assert_eq!(
        (o.hits, o.opposing_hits, o.verdict),
        (0, 0, Verdict::Failure)
    );
    let o = tested(&t.run("atest Ana 2 vs 0 dice 1 2"));
    assert_eq!(o.verdict, Verdict::Failure);
}

#[test]
fn edge_before_adds_a_die_and_counts_fours() {
    let mut t = table();
    assert!(matches!(
        anarchy(t.refuse("atest Ana 2 vs 1 edge before dice 4 4")),
        AnarchyRefusal::Test(_)
    ));
    let o = tested(&t.run("atest Ana 2 vs 1 edge before dice 4 4 1 vs 5"));
    assert_eq!((o.hits, o.verdict), (2, Verdict::Success));
    assert_eq!(t.c("Ana").edge_left, 2, "one Edge spent");
}

#[test]
fn edge_after_rerolls_what_did_not_hit_and_only_fives_and_sixes_count() {
    let mut t = table();
    // Rolled by srtrack: 2 dice [5 2], opposing [5], then the 2 is rolled again: 4.
    let evs = t.roll("atest Ana 2 vs 1 edge after", &[5, 2, 5, 4]);
    let o = tested(&evs);
    assert_eq!(
        (o.hits, o.opposing_hits, o.verdict),
        (1, 1, Verdict::Success)
    );
    let roll = events(&evs)
        .iter()
        .find_map(|e| match e {
            AnarchyEvent::Tested { roll, .. } => Some(roll.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!((roll.first, roll.dice), (Some(vec![5, 2]), vec![5, 4]));
    assert_eq!(t.c("Ana").edge_left, 2);
}

/// The test event of `evs`: its roll, what it came to, the Edge it took, whether it re-rolled.
fn test_event(evs: &[Event]) -> (srtrack::rules::anarchy::test::Roll, u8, bool) {
    events(evs)
        .iter()
        .find_map(|e| match e {
            AnarchyEvent::Tested {
                roll,
                edge_spent,
                rerolled,
                ..
            } => Some((roll.clone(), *edge_spent, *rerolled)),
            _ => None,
        })
        .expect("a test")
}

#[test]
fn edge_after_with_every_die_a_hit_rolls_nothing_again_and_keeps_the_edge() {
    // Given Ana at the table, her test declared with Edge after the roll
    let mut t = table();
    t.run("narrate");
    // When srtrack rolls 2 dice [5 6] and the opposing [1]: no miss to roll again
    let evs = t.roll("atest Ana 2 vs 1 edge after", &[5, 6, 1]);
    // Then nobody would spend the Edge: none is, and the log says so
    let (roll, edge, _) = test_event(&evs);
    assert_eq!((roll.first, roll.dice, edge), (None, vec![5, 6], 0));
    assert_eq!(t.c("Ana").edge_left, 3);
    assert!(
        t.last_lines().iter().any(|l| l.contains("Edge kept")),
        "{:?}",
        t.last_lines()
    );
}

#[test]
fn edge_after_the_roll_is_decided_on_seeing_the_dice_and_rolls_only_the_misses() {
    // Given Ana's test in her narration: [5 2 1 6] against [5 6], a tie won
    let mut t = table();
    t.run("narrate");
    t.run("atest Ana 4 vs 2 dice 5 2 1 6 vs 5 6");
    // When she spends Edge on seeing it, and srtrack rolls the two misses: 6, 3
    let evs = t.roll("edge Ana after", &[6, 3]);
    // Then the hits stay, the misses lie as rolled again, and 5s and 6s count
    let (roll, edge, rerolled) = test_event(&evs);
    assert!(rerolled);
    assert_eq!(roll.first, Some(vec![5, 2, 1, 6]));
    assert_eq!((roll.dice, roll.opposing), (vec![5, 6, 3, 6], vec![5, 6]));
    let o = tested(&evs);
    assert_eq!(
        (o.hits, o.opposing_hits, o.verdict),
        (3, 2, Verdict::Success)
    );
    assert_eq!((edge, t.c("Ana").edge_left), (1, 2));
    // And one Edge a test: the same test is not rolled again twice
    let err = anarchy(t.refuse("edge Ana after"));
    assert!(matches!(err, AnarchyRefusal::Rerolled { .. }), "{err}");
    // And undo gives the Edge and the test's dice back
    t.run("undo");
    assert_eq!(t.c("Ana").edge_left, 3);
    let evs = t.run("edge Ana after dice 1 1");
    let o = tested(&evs);
    assert_eq!((o.hits, o.verdict), (2, Verdict::Success));
}

#[test]
fn edge_after_the_roll_takes_the_table_s_dice_for_the_misses_only() {
    let mut t = table();
    t.run("narrate");
    t.run("atest Ana 4 vs 2 dice 5 2 1 6 vs 5 6");
    // Two misses: two dice, each a face of a d6
    let err = t.refuse("edge Ana after dice 6");
    assert_eq!(
        err.to_string(),
        "the misses rolled again: type 2 dice, not 1"
    );
    let err = t.refuse("edge Ana after dice 6 7");
    assert_eq!(err.to_string(), "7 is not a face of a d6");
    assert_eq!(t.c("Ana").edge_left, 3, "nothing changed");
}

#[test]
fn edge_after_the_roll_needs_a_test_with_a_miss_no_edge_on_it_and_edge_left() {
    let mut t = table();
    t.run("narrate");
    // No test yet
    let err = anarchy(t.refuse("edge Ana after"));
    assert!(matches!(err, AnarchyRefusal::NoOpenTest { .. }), "{err}");
    // Every die hit: nothing to roll again
    t.run("atest Ana 2 vs 0 dice 5 6");
    let err = anarchy(t.refuse("edge Ana after"));
    assert!(matches!(err, AnarchyRefusal::NoMiss { .. }), "{err}");
    // Edge before the roll was this test's Edge
    t.run("atest Ana 2 vs 0 edge before dice 1 2 3");
    let err = anarchy(t.refuse("edge Ana after"));
    assert!(matches!(err, AnarchyRefusal::EdgedBefore { .. }), "{err}");
    // Cy's one Edge gone on an earlier test: none left for this one
    t.run("atest Cy 1 vs 0 edge before dice 6 6");
    t.run("atest Cy 2 vs 0 dice 1 2");
    let err = t.refuse("edge Cy after");
    assert_eq!(err.to_string(), "Cy has no Edge left (needs 1, has 0)");
}

#[test]
fn edge_after_a_test_already_rolled_again_says_the_re_roll_is_spent() {
    // Given Ana (Edge 3) has rolled the misses of her test again with Edge, 2 Edge left
    let mut t = table();
    t.run("narrate");
    t.run("atest Ana 4 vs 2 dice 5 2 1 6 vs 5 6");
    t.run("edge Ana after dice 1 1");
    // When she spends Edge on it again, Then the refusal says the test's re-roll is spent
    assert_eq!(
        t.refuse("edge Ana after").to_string(),
        "Ana's last test was rolled again with Edge already: Edge after the roll re-rolls a test's misses once (one Edge a test)"
    );
    // And so with the re-roll declared in the test
    t.run("atest Ana 2 vs 0 edge after dice 1 5");
    assert_eq!(
        t.refuse("edge Ana after").to_string(),
        "Ana's last test was rolled again with Edge already: Edge after the roll re-rolls a test's misses once (one Edge a test)"
    );
    // And with Edge before the roll, its own sentence (Bo, Edge 2, has 1 left)
    t.run("atest Bo 2 vs 0 edge before dice 1 2 3");
    assert_eq!(
        t.refuse("edge Bo after").to_string(),
        "Bo's last test was rolled with Edge before: one Edge a test, before the roll or after it, not both"
    );
    // And with no Edge left, that is what is said, whatever the test
    t.run("atest Ana 2 vs 0 edge before dice 1 2 3");
    assert_eq!(t.c("Ana").edge_left, 0);
    assert_eq!(
        t.refuse("edge Ana after").to_string(),
        "Ana has no Edge left (needs 1, has 0)"
    );
}

#[test]
fn the_dice_of_a_test_are_picked_up_when_the_narration_ends() {
    // Given Ana's test in her narration, with misses
    let mut t = table();
    t.run("narrate");
    t.run("atest Ana 2 vs 0 dice 1 2");
    // When the narration passes to Bo
    t.run("narrate");
    // Then Edge after Ana's roll comes too late
    let err = anarchy(t.refuse("edge Ana after"));
    assert!(matches!(err, AnarchyRefusal::NoOpenTest { .. }), "{err}");
    // And a character's last test is the one Edge may take up
    t.run("atest Bo 2 vs 0 dice 1 2");
    t.run("atest Bo 1 vs 0 dice 3");
    let evs = t.roll("edge Bo after", &[6]);
    let (roll, _, _) = test_event(&evs);
    assert_eq!((roll.first, roll.dice), (Some(vec![3]), vec![6]));
}

#[test]
fn edge_after_the_roll_leaves_the_glitch_die_as_it_lay() {
    let mut t = table();
    t.run("narrate");
    t.run("pp Ana spend live dangerously");
    // The glitch die is the last die typed: a 1, a Glitch
    t.run("atest Ana 2 vs 0 glitchdie dice 2 3 1");
    let evs = t.roll("edge Ana after", &[5, 6]);
    let (roll, _, _) = test_event(&evs);
    assert_eq!((roll.dice, roll.glitch_die), (vec![5, 6], Some(1)));
    assert_eq!(tested(&evs).fate, Some(Fate::Glitch));
}

#[test]
fn teamwork_on_an_untrained_leader_is_refused_as_it_could_add_no_die() {
    // Given Ana narrating
    let mut t = table();
    t.run("narrate");
    // When her untrained test takes teamwork, Then it is refused saying why, as a bare pool's is
    assert_eq!(
        t.refuse("atest Ana untrained 3 vs 2 team 2").to_string(),
        "an untrained leader takes no teamwork dice, so `team N` would add none: leave it out, or give the leader's skill (SKILL+ATTRIBUTE)"
    );
    // And without `team` the untrained test goes
    t.run("atest Ana untrained 3 vs 0 dice 1 1 1");
}

#[test]
fn a_pool_with_a_second_modifier_is_refused_not_summed() {
    // Given Ana narrating
    let mut t = table();
    t.run("narrate");
    // When a pool holds two modifiers, Then it is refused in one sentence
    for (line, pool) in [
        ("atest Ana 3+2+1+1 vs 2", "3+2+1+1"),
        ("atest Ana attr 3+2+1-1 vs 2", "3+2+1-1"),
        ("atest Ana untrained 3+1+1 vs 2", "3+1+1"),
        ("atest Ana 3+2 vs 2+1+1+1", "2+1+1+1"),
    ] {
        let err = t.unread(line);
        assert!(
            err.starts_with(&format!(
                "the pool {pool} has 2 modifiers, and a pool takes one ("
            )),
            "{line}: {err}"
        );
    }
    // And one modifier goes, echoed as typed
    t.run("atest Ana 3+2+1 vs 2 dice 1 1 1 1 1 1 vs 1 1");
    assert!(
        t.last_lines()[0].contains("3+2+1 vs 2"),
        "{:?}",
        t.last_lines()
    );
}

#[test]
fn a_die_of_fewer_than_two_sides_in_rules_ron_is_refused_naming_the_field() {
    // Given the house rules with Anarchy's die of 0 or 1 sides
    for sides in [0, 1] {
        let mut rules = HouseRules::embedded();
        rules.anarchy.test.sides = sides;
        // When they are checked, Then the sentence names `sides` and its range
        let err = rules.anarchy.validate().expect_err("refused");
        assert_eq!(
            err,
            format!(
                "anarchy test: sides is {sides}, out of range: allowed 2 to 255 (a die with a face that hits and one that misses)"
            )
        );
    }
}

#[test]
fn an_anarchy_name_may_hold_name_and_shared_unquoted() {
    // Given an Anarchy table
    let mut t = table();
    // When names hold `name` or `shared`, words Anarchy's `add` does not take
    t.run("add The Name pc");
    t.run("add Shared Joe pc");
    // Then they are the names
    assert_eq!(t.c("The Name").name, "The Name");
    assert_eq!(t.c("Shared Joe").name, "Shared Joe");
}

#[test]
fn edge_needs_edge_left() {
    let mut t = table();
    t.run("atest Cy 1 vs 0 edge before dice 6 6");
    let err = t.refuse("atest Cy 1 vs 0 edge after dice 6");
    assert_eq!(err.to_string(), "Cy has no Edge left (needs 1, has 0)");
}

#[test]
fn teamwork_adds_the_assistants_hits_up_to_the_leaders_skill() {
    let mut t = table();
    t.run("narrate");
    // Skill 2 + attribute 3, four hits from the helpers: only 2 count, 7 dice.
    let o = tested(&t.run("atest Ana 2+3 vs 0 team 4 dice 6 6 6 6 6 6 6"));
    assert_eq!(o.hits, 7);
    // Attribute-only: up to the higher attribute.
    t.run("atest Ana attr 2+4 vs 0 team 5 dice 1 1 1 1 1 1 1 1 1 1");
    assert!(matches!(
        anarchy(t.refuse("atest Ana 5 vs 0 team 2")),
        AnarchyRefusal::Test(_)
    ));
}

#[test]
fn the_glitch_die_must_be_bought_before_the_roll() {
    let mut t = table();
    let err = t.refuse("atest Ana 2 vs 1 glitchdie dice 5 5 1");
    assert_eq!(
        err.to_string(),
        "no glitch die was bought for Ana's test: `pp NAME spend live dangerously on Ana` or `gm spend glitch die on Ana` first"
    );
    t.run("pp Bo spend glitch die on Ana");
    assert_eq!(
        t.refuse("atest Ana 2 vs 1 dice 5 5").to_string(),
        "a glitch die was bought for Ana's next test: add `glitchdie` to the test"
    );
    assert!(matches!(
        anarchy(t.refuse("pp Ana spend live dangerously")),
        AnarchyRefusal::GlitchDieWaiting { .. }
    ));
    // A test takes one glitch die: a Flashback, whose test would take one, waits for it too.
    assert_eq!(
        t.refuse("pp Ana spend flashback").to_string(),
        "Ana's next test already has a glitch die, and a test takes only one: roll that test first (`atest Ana … glitchdie`)"
    );
    t.run("atest Ana 2 vs 1 glitchdie dice 5 5 3 vs 2");
    assert!(!n(&t).has_glitch_die(t.c("Ana").id), "used up by the test");
}

#[test]
fn get_revenge_is_had_once_in_a_narration() {
    // Given Ana has had Get Revenge on the Ganger in Bo's narration
    let mut t = table();
    t.run("narrate");
    t.run("narrate");
    t.run("pp Ana spend get revenge on Ganger");
    // When she spends it again in the same narration, Then it is refused and nothing is paid
    assert_eq!(
        t.refuse("pp Ana spend get revenge on Ganger").to_string(),
        "Ana has had Get Revenge in this narration already: it strikes back just once at the attack just made"
    );
    assert_eq!(pp(&t, "Ana"), 2);
    // And Bo's own, and Ana's in the next narration, are taken
    t.run("pp Bo spend get revenge on Ganger");
    t.run("narrate");
    t.run("pp Ana spend get revenge on Ganger");
    assert_eq!(pp(&t, "Ana"), 1);
}

#[test]
fn a_glitch_die_for_a_downed_character_is_refused() {
    // Given Bo Downed (Stun monitor full) in Ana's narration
    let mut t = table();
    t.run("narrate");
    t.run("damage Bo 20 stun");
    // When Ana spends Live Dangerously on Bo, or the GM a glitch die, Then each is refused and
    // nothing is paid
    for cmd in [
        "pp Ana spend live dangerously on Bo",
        "gm spend glitch die on Bo",
    ] {
        assert_eq!(
            t.refuse(cmd).to_string(),
            "Bo is Downed and makes no test: a glitch die is bought for a roll about to be made",
            "{cmd}"
        );
    }
    assert_eq!((pp(&t, "Ana"), gm(&t)), (3, 1));
}

#[test]
fn a_glitch_die_on_one_is_a_glitch_even_when_the_test_succeeds() {
    let mut t = table();
    t.run("pp Ana spend live dangerously");
    let o = tested(&t.run("atest Ana 3 vs 1 glitchdie dice 6 6 5 1 vs 2"));
    assert_eq!((o.verdict, o.fate), (Verdict::Success, Some(Fate::Glitch)));
}

#[test]
fn a_glitch_die_on_five_or_six_is_an_exploit_even_when_the_test_fails() {
    let mut t = table();
    t.run("pp Ana spend glitch die");
    let o = tested(&t.run("atest Ana 2 vs 3 glitchdie dice 1 2 6 vs 6 6 5"));
    assert_eq!(
        (o.hits, o.verdict, o.fate),
        (1, Verdict::Failure, Some(Fate::Exploit))
    );
}

#[test]
fn a_flashback_costs_two_narrates_now_and_tests_with_the_glitch_die() {
    let mut t = table();
    t.run("narrate");
    t.run("pp Cy spend flashback: bribed the guard last night");
    assert_eq!(
        (pp(&t, "Cy"), gm(&t), narrator(&t)),
        (1, 5, "Cy".to_string())
    );
    assert!(n(&t).has_glitch_die(t.c("Cy").id));
    let o = tested(&t.run("atest Cy 3+2 vs 2 glitchdie dice 5 1 1 1 1 5 vs 1 1"));
    assert_eq!((o.verdict, o.fate), (Verdict::Success, Some(Fate::Exploit)));
}

#[test]
fn a_flashback_at_the_seat_that_comes_next_is_logged_as_the_flashback_narration() {
    // Given Ana narrating, Bo's seat next
    let mut t = table();
    t.run("narrate");
    // When Bo takes a Flashback
    t.run("pp Bo spend flashback: bribed the guard");
    // Then the log says Bo narrates the Flashback, not a free seat with no Plot Point
    let lines = t.last_lines();
    assert!(
        lines.iter().any(|l| l == "Bo narrates the Flashback now"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("no Plot Point")),
        "{lines:?}"
    );
    assert_eq!((narrator(&t), pp(&t, "Bo")), ("Bo".to_string(), 1));
}

#[test]
fn a_second_flashback_in_the_same_narration_is_refused() {
    // Given Ana's narration is a Flashback, taken in it or out of turn, its test rolled
    for start in ["narrate", "narrate Bo"] {
        let mut t = table();
        t.run("pp Ana award good");
        t.run(start);
        t.run("pp Ana spend flashback: one");
        t.run("atest Ana 2+2 vs 1 glitchdie dice 5 5 5 5 5 vs 1");
        // When Ana spends a second Flashback, Then it is refused and nothing is paid
        assert_eq!(
            t.refuse("pp Ana spend flashback: two").to_string(),
            "Ana's narration is a Flashback already, and a Flashback uses up the narration: one Flashback a narration",
            "{start}"
        );
    }
}

#[test]
fn a_flashback_after_the_narrator_s_test_in_the_same_narration_is_refused() {
    // Given Ana narrating, her Live Dangerously test rolled in it
    let mut t = table();
    t.run("narrate");
    t.run("pp Ana spend live dangerously");
    t.run("atest Ana 2+2 vs 1 glitchdie dice 5 1 1 1 3 vs 1");
    // When she spends a Flashback in the same narration, Then it is refused and nothing is paid
    assert_eq!(
        t.refuse("pp Ana spend flashback: bribed the guard")
            .to_string(),
        "Ana has made a test in this narration already, and a Flashback uses up the whole narration: spend it before the narration's first test"
    );
    // And another's test in her narration (an assist) leaves Bo's own Flashback to him
    t.run("atest Bo 2 vs 0 dice 5 1");
    t.run("pp Bo spend flashback: bribed the guard");
    assert_eq!((narrator(&t), pp(&t, "Bo")), ("Bo".to_string(), 1));
}

#[test]
fn a_refused_command_changes_nothing_and_undo_gives_the_points_back() {
    let mut t = table();
    t.run("narrate");
    t.run("pp Ana spend surprise threat");
    t.run("undo");
    assert_eq!((pp(&t, "Ana"), gm(&t)), (3, 1));
    t.run("redo");
    assert_eq!((pp(&t, "Ana"), gm(&t)), (2, 3));
    // `refuse` checks the state and history are untouched.
    t.refuse("pp Ana spend montage 4");
}

#[test]
fn anarchy_commands_are_refused_in_the_initiative_pass_systems() {
    for system in [System::Sr5, System::Sr2097] {
        let mut t = Table::under(system);
        t.run("add Ana pc int 3 rea 3");
        let err = t.refuse("narrate");
        assert_eq!(
            err.to_string(),
            format!("`narrate` is a command of Shadowrun: Anarchy; this encounter runs {system}")
        );
    }
}

#[test]
fn texts_with_control_characters_or_bidi_overrides_are_refused_naming_the_field() {
    let mut t = table();
    t.run("narrate");
    for (line, field) in [
        ("cooldown Ana drone\u{202e}gpj", "the thing on Cooldown"),
        ("pp Ana award cue \u{1b}]0;owned", "the Cue"),
        ("pp Ana spend surprise threat: a\u{7}b", "the note"),
    ] {
        let err = anarchy(t.refuse(line));
        assert!(
            matches!(err, AnarchyRefusal::ControlText { what } if what == field),
            "{line}: {err}"
        );
        // Said as what it is, not as a length that is within the limit.
        assert!(
            err.to_string().contains("holds a control character"),
            "{err}"
        );
        assert!(!err.to_string().contains("characters: allowed"), "{err}");
    }
}

#[test]
fn texts_starting_with_a_combining_mark_are_refused_naming_the_field() {
    // Given Ana narrating
    let mut t = table();
    t.run("narrate");
    // When a text starts with a mark that would join what is drawn before it
    for (line, field) in [
        ("cooldown Ana \u{301}drone", "the thing on Cooldown"),
        ("pp Ana award cue \u{308}\u{308}", "the Cue"),
    ] {
        // Then it is refused naming the field and the mark
        let err = anarchy(t.refuse(line));
        assert!(
            matches!(err, AnarchyRefusal::LeadingMark { what, .. } if what == field),
            "{line}: {err}"
        );
        assert!(err.to_string().contains("combining mark (U+03"), "{err}");
    }
}

// ----- the leader's narration, newcomers, whom spends may name ---------------------------------

#[test]
fn a_teamwork_test_is_the_leaders_roll_in_the_leaders_own_narration() {
    // Given Ana narrating
    let mut t = table();
    // When Bo leads a teamwork test between turns, or in Ana's narration, it is refused
    let err = anarchy(t.refuse("atest Bo 2+3 vs 1 team 2"));
    assert!(matches!(err, AnarchyRefusal::NotNarrating { .. }), "{err}");
    assert!(err.to_string().contains("nobody is narrating"), "{err}");
    t.run("narrate");
    let err = t.refuse("atest Bo 2+3 vs 1 team 2").to_string();
    assert!(err.contains("Ana is narrating, not Bo"), "{err}");
    // Then the assist and the leader's own roll in the leader's narration are taken
    t.roll("atest Bo 2+3 vs 1", &[5, 5, 1, 1, 1, 1]);
    t.roll("atest Ana 2+3 vs 1 team 2", &[5, 5, 1, 1, 1, 1, 1, 1]);
}

#[test]
fn a_player_seated_mid_turn_narrates_in_that_turn_at_its_end() {
    // Given Ana and Bo seated, Ana narrating
    let mut t = Table::under(System::Anarchy);
    t.run("add Ana pc edge 3 body 4 will 5");
    t.run("add Bo pc edge 2 body 3 will 3");
    t.run("narrate");
    // When Dee joins mid-turn
    t.run("add Dee pc edge 2 body 3 will 3");
    // Then Dee narrates in this turn, after the seats still to come
    t.run("narrate");
    assert_eq!(narrator(&t), "Bo");
    t.run("narrate");
    assert_eq!(narrator(&t), "Dee");
    assert_eq!(n(&t).turn, 1);
    // And the next turn has Dee at her seat
    t.run("narrate");
    t.run("narrate");
    assert_eq!((n(&t).turn, narrator(&t)), (2, "Ana".to_string()));
}

#[test]
fn get_revenge_strikes_back_at_an_npc_not_a_player() {
    let mut t = table();
    t.run("narrate");
    // Given Bo, a player character, when Ana takes revenge on Bo, it is refused
    let err = anarchy(t.refuse("pp Ana spend revenge on Bo"));
    assert!(
        matches!(err, AnarchyRefusal::RevengeOnPlayer { .. }),
        "{err}"
    );
    assert!(
        err.to_string().contains("Bo is a player character"),
        "{err}"
    );
    // Then revenge on the NPC is taken
    t.run("pp Ana spend revenge on Ganger");
    assert_eq!(pp(&t, "Ana"), 2);
}

#[test]
fn take_the_hit_is_for_another_never_for_the_spender() {
    let mut t = table();
    t.run("narrate");
    // When Ana would take the hit in her own place, it is refused in one sentence
    let err = anarchy(t.refuse("pp Ana spend take the hit on Ana"));
    assert!(
        matches!(err, AnarchyRefusal::TakeTheHitForOneself { .. }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "Take the Hit is defending in a close ally's place: Ana cannot take a hit instead of \
         Ana (name the ally after `on`, or leave `on` out)"
    );
    assert_eq!(pp(&t, "Ana"), 3, "nothing paid");
    // Then for another player, or for an allied NPC, it is taken
    t.run("pp Ana spend take the hit on Bo");
    t.run("pp Ana spend take the hit on Ganger");
    // And with no one named it is logged as the spend alone, the ally left to the table
    let evs = t.run("pp Bo spend take the hit");
    assert!(
        events(&evs).iter().any(|e| matches!(e,
            AnarchyEvent::Spent { what, on: None, .. } if what == "Take the Hit")),
        "{evs:?}"
    );
    assert_eq!((pp(&t, "Ana"), pp(&t, "Bo")), (1, 2));
}

#[test]
fn ignore_cooldown_needs_something_on_cooldown() {
    let mut t = table();
    t.run("narrate");
    // Given nothing on Cooldown, Ignore Cooldown is refused for Ana and for Bo
    let err = anarchy(t.refuse("pp Ana spend ignore cooldown"));
    assert!(
        matches!(err, AnarchyRefusal::NothingOnCooldown { .. }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "Ana has nothing on Cooldown: Ignore Cooldown is for something on Cooldown (`cooldown Ana THING` puts it there)"
    );
    assert!(
        anarchy(t.refuse("pp Ana spend ignore cooldown on Bo"))
            .to_string()
            .contains("Bo has nothing on Cooldown")
    );
    // When Bo's gun goes on Cooldown, Bo may ignore it
    t.run("cooldown Bo Ares Predator");
    t.run("pp Bo spend ignore cooldown");
    assert_eq!(pp(&t, "Bo"), 2);
}

#[test]
fn a_rolled_start_picks_a_player_never_an_npc_seat() {
    // Given the Ganger seated first
    let mut t = table();
    t.run("seating Ganger, Ana, Bo, Cy");
    for _ in 0..5 {
        t.run("narrate");
    }
    // When the GM rolls a new start: the die has one face per player (3), face 1 is Ana
    let evs = t.roll("gm order random", &[1]);
    assert!(events(&evs).iter().any(|e| matches!(
        e,
        AnarchyEvent::OrderChosen {
            how: srtrack::rules::anarchy::narration::TurnOrder::From { die: 1, .. },
            ..
        }
    )));
    // Then the turn starts from Ana
    t.run("narrate");
    assert_eq!(narrator(&t), "Ana");
}

#[test]
fn a_shadow_amps_plot_point_is_a_players() {
    let mut t = table();
    let err = anarchy(t.refuse("sheet Ganger amp on"));
    assert!(matches!(err, AnarchyRefusal::NotAPlayer { .. }), "{err}");
    t.run("sheet Ganger armor 3");
}

#[test]
fn a_player_made_an_npc_shows_no_plot_points() {
    let mut t = table();
    t.run("narrate");
    t.run("edit Bo npc");
    let bits = srtrack::report::anarchy::character_bits(&t.enc, Some(n(&t)), t.c("Bo")).join(", ");
    assert!(bits.starts_with("NPC"), "{bits}");
    assert!(!bits.contains("Plot Points"), "{bits}");
}

#[test]
fn a_pools_dice_in_all_have_the_cap_of_a_plain_pool() {
    // Given the pool cap from the rules (30)
    let mut t = table();
    t.run("narrate");
    // When the parts or the teamwork dice add up past it, the test is refused
    for line in [
        "atest Ana 15+15+10 vs 1",
        "atest Ana 15+15 vs 1 team 15",
        "atest Ana 1 vs 15+15+1",
    ] {
        let err = anarchy(t.refuse(line));
        assert!(
            matches!(err, AnarchyRefusal::OutOfRange { max: 30, .. }),
            "{line}: {err}"
        );
    }
    // And the odds are refused alike
    let rules = HouseRules::embedded();
    let q = match srtrack::lang::parse("aodds 15+15+10 vs 1", t.state(), t.enc.catalogue()) {
        Ok(srtrack::lang::Line::AnarchyOdds(q)) => q,
        other => panic!("{other:?}"),
    };
    assert!(srtrack::report::anarchy::odds_line(&q, &rules.anarchy).is_err());
}

// ----- what the language refuses ---------------------------------------------------------------

fn parse_error(t: &Table, line: &str) -> String {
    match srtrack::lang::parse(line, t.state(), t.enc.catalogue()) {
        Err(e) => e.to_string(),
        Ok(l) => panic!("`{line}` parsed: {l:?}"),
    }
}

#[test]
fn a_tests_options_are_given_once() {
    let mut t = table();
    t.run("narrate");
    for (line, what) in [
        (
            "atest Bo 2 vs 2 edge before edge after",
            "`edge before` or `edge after` once only",
        ),
        ("atest Ana 2+3 vs 1 team 1 team 3", "`team` once only"),
        (
            "atest Ana 2 vs 1 glitchdie glitchdie",
            "`glitchdie` once only",
        ),
        (
            "aodds 2 vs 1 edge after edge after",
            "`edge before` or `edge after` once only",
        ),
    ] {
        let err = parse_error(&t, line);
        assert!(err.contains(what), "{line}: {err}");
    }
}

#[test]
fn armor_damage_takes_one_name_and_says_so() {
    let mut t = table();
    t.run("sheet Ana armor 3");
    let err = parse_error(&t, "damage Ana, Ganger 2 armor");
    assert!(
        err.contains("\"Ana , Ganger\": expected one name: Armor is one character's gear (`damage NAME N armor`)"),
        "{err}"
    );
}

#[test]
fn a_pool_of_no_dice_can_type_the_opposing_dice() {
    let mut t = table();
    t.run("narrate");
    let o = tested(&t.run("atest Bo 0 vs 2 dice vs 5 5"));
    assert_eq!((o.hits, o.opposing_hits), (0, 2));
}

#[test]
fn numbers_too_big_to_read_are_refused_with_the_range_allowed() {
    let mut t = table();
    t.run("narrate");
    for line in [
        "atest Ana 99999999999 vs 2",
        "atest Ana 3+99999999999+99999999999 vs 2",
        "pp Ana spend montage 99999999999",
    ] {
        let err = anarchy(t.refuse(line));
        assert!(
            matches!(err, AnarchyRefusal::OutOfRange { .. }),
            "{line}: {err}"
        );
        assert!(err.to_string().contains("allowed"), "{line}: {err}");
    }
}

#[test]
fn a_narrator_who_goes_down_ends_the_narration_and_may_not_spend_as_the_narrator() {
    for downing in ["down Ana", "damage Ana 20 physical"] {
        let mut t = table();
        t.run("narrate");
        assert_eq!(narrator(&t), "Ana");
        t.run(downing);
        assert_eq!(narrator(&t), "", "{downing}: nobody narrates");
        t.refuse("pp Ana spend double-time it");
        t.refuse("pp Ana spend flashback: the guard was bribed");
        // The next narration is the next seat's.
        t.run("narrate");
        assert_eq!(narrator(&t), "Bo", "{downing}");
    }
}

// ----- joining an Anarchy table ----------------------------------------------------------------

#[test]
fn a_character_joins_an_anarchy_table_without_initiative() {
    // Given an Anarchy table
    let mut t = Table::under(System::Anarchy);
    // When the GM adds a player with no Intuition or Reaction
    t.run("add Nix pc edge 3 body 3 will 4");
    // Then it joins, and the log says what Anarchy plays with: no initiative pool
    assert_eq!(t.c("Nix").sheet.edge, 3);
    assert_eq!(
        t.last_lines(),
        ["Nix joins (PC, Edge 3 Body 3 Willpower 4)"]
    );
    t.run("add Guard x2 npc");
    assert!(
        t.last_lines()
            .contains(&"Guard 1 joins (NPC, Edge 0)".to_string()),
        "{:?}",
        t.last_lines()
    );
}

#[test]
fn the_join_line_says_each_systems_initiative() {
    // Given an SR5 fight: `add` still needs Intuition and Reaction, and the pool is logged
    let mut t = Table::new();
    t.run("add Ana pc int 4 rea 5 edge 3 mod 1");
    assert_eq!(
        t.last_lines(),
        ["Ana joins (PC, Intuition 4 Reaction 5 Edge 3, pool 10)"]
    );
    // with Body and Willpower, which size the monitors, when the sheet has them
    t.run("add Bo pc int 3 rea 3 edge 1 body 4 will 5");
    assert_eq!(
        t.last_lines(),
        ["Bo joins (PC, Intuition 3 Reaction 3 Edge 1 Body 4 Willpower 5, pool 6)"]
    );
    // And a 2097 fight logs its own initiative: the d6s (the modifier's one more) + Int + Rea
    let mut t = Table::under(System::Sr2097);
    t.run("add Ana pc int 4 rea 5 edge 3 mod 1");
    let dice = t.enc.rules().sr2097.initiative_dice(1);
    assert_eq!(
        t.last_lines(),
        [format!(
            "Ana joins (PC, Intuition 4 Reaction 5 Edge 3, initiative {dice}d6 + 9)"
        )]
    );
    for system in [System::Sr5, System::Sr2097] {
        let t = Table::under(system);
        assert!(
            parse_error(&t, "add Bo pc edge 2").contains("`int N` (Intuition)"),
            "{system}"
        );
    }
}

// ----- what a spend takes -----------------------------------------------------------------------

#[test]
fn words_after_a_spend_that_takes_none_are_refused_not_kept_as_a_note() {
    let mut t = table();
    t.run("narrate");
    for (line, extra) in [
        (
            "pp Ana spend live dangerously live dangerously",
            "live dangerously",
        ),
        ("pp Ana spend montage 2 montage 1", "montage 1"),
        ("pp Ana spend surprise threat a drone", "a drone"),
        ("pp Ana spend take the hit on Bo for him", "for him"),
        ("gm spend glitch die on Ganger now", "now"),
    ] {
        // When a spend with no argument has words before the colon
        let err = t.refuse(line).to_string();
        // Then it is refused in one sentence that says where a note goes
        assert!(
            err.contains(&format!("takes no more words, but \"{extra}\" follows"))
                && err.contains("a note goes after a colon"),
            "{line}: {err}"
        );
    }
    // While after the colon the words are its note
    let evs = t.run("pp Ana spend live dangerously: for luck");
    assert!(
        events(&evs).iter().any(|e| matches!(e,
            AnarchyEvent::Spent { note: Some(n), .. } if n == "for luck")),
        "{evs:?}"
    );
    // And a twist's words may stand before the colon
    t.run("pp Bo spend other the fixer owes me");
}

#[test]
fn frag_its_note_after_the_colon_is_not_the_things_name() {
    let mut t = table();
    t.run("narrate");
    // When Ana frags her own radio with a note, and Bo the Ganger's gun with one
    let evs = t.run("pp Ana spend frag it radio: sparks");
    // Then the radio is on Cooldown, the note is the spend's
    assert!(t.c("Ana").status("Cooldown: radio").is_some());
    assert!(
        events(&evs).iter().any(|e| matches!(e,
            AnarchyEvent::Spent { note: Some(n), .. } if n == "sparks")),
        "{evs:?}"
    );
    t.run("pp Bo spend frag it on Ganger Uzi IV: jams");
    assert!(t.c("Ganger").status("Cooldown: Uzi IV").is_some());
    // And the history writes it back as typed
    let last = t.enc.history().last().map(|e| e.text.clone());
    assert_eq!(
        last.as_deref(),
        Some("pp Bo spend frag it on Ganger Uzi IV: jams")
    );
}

#[test]
fn cooldown_takes_a_list_each_of_its_character() {
    let mut t = table();
    t.run("narrate");
    // When the GM puts Ana's gun and Bo's radio on Cooldown in one line
    t.run("cooldown Ana gun, Bo radio");
    // Then each is on Cooldown, its own
    assert!(t.c("Ana").status("Cooldown: gun").is_some());
    assert!(t.c("Bo").status("Cooldown: radio").is_some());
    // And a thing already on Cooldown refuses the whole line
    let err = t.refuse("cooldown Cy deck, Bo radio");
    assert!(matches!(err, RuleError::StatusHeld { .. }), "{err}");
    assert!(t.c("Cy").status("Cooldown: deck").is_none());
    // And after a comma a name must come
    assert!(parse_error(&t, "cooldown Ana knife, sharp").contains("name"));
}

#[test]
fn the_glitch_die_shows_beside_the_pool_and_with_edge_before_a_four_is_a_hit_but_no_exploit() {
    let mut t = table();
    t.run("narrate");
    t.run("pp Ana spend live dangerously");
    // When Ana tests with Edge before and the glitch die shows a 4
    let o = tested(&t.run("atest Ana 2 vs 0 edge before glitchdie dice 1 1 1 4"));
    // Then the 4 is a hit (4s hit with Edge before), the test succeeds, but it is no Exploit
    assert_eq!(
        (o.hits, o.verdict, o.fate),
        (1, Verdict::Success, Some(Fate::Quiet))
    );
    // And the line shows the glitch die beside the pool whose hit it is
    let lines = t.last_lines();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("[1 1 1] + glitch 4 → 1 hit vs [] → 0 hits: success")),
        "{lines:?}"
    );
}

#[test]
fn a_shadow_amps_point_lost_at_the_cap_is_said_in_the_log() {
    // Given Ana with a Shadow Amp and 5 Plot Points, the most a player may hold
    let mut t = table();
    t.run("sheet Ana amp on");
    t.run("pp Ana award");
    t.run("pp Ana award");
    // When the first turn begins
    t.run("narrate");
    // Then she keeps 5, and the log says the Amp's point was lost, and why
    assert_eq!(pp(&t, "Ana"), 5);
    assert!(
        t.last_lines().contains(
            &"Ana's Shadow Amp gives no Plot Point: Ana holds 5 already, the most a player may"
                .to_string()
        ),
        "{:?}",
        t.last_lines()
    );
}

#[test]
fn a_shadow_amp_switched_on_after_the_first_turn_began_is_refused() {
    // Given the first turn under way
    let mut t = table();
    t.run("narrate");
    // When the GM gives Bo a Shadow Amp, it is refused: its point came at the start of combat
    let err = anarchy(t.refuse("sheet Bo armor 3 amp on"));
    assert!(matches!(err, AnarchyRefusal::AmpTooLate { .. }), "{err}");
    // While the rest of the sheet, and switching an Amp off, still go
    t.run("sheet Bo armor 3 amp off");
    t.run("narrate");
    t.run("narrate");
    t.run("narrate");
    assert!(
        anarchy(t.refuse("sheet Cy amp on"))
            .to_string()
            .contains("Cy's would give nothing")
    );
}

#[test]
fn amp_off_on_a_sheet_with_no_amp_is_refused_not_an_undo_step_of_nothing() {
    // Given Cy, whose sheet has no Shadow Amp
    let mut t = table();
    // When the GM switches Cy's Amp off, Then it is refused saying there is none
    assert_eq!(
        t.refuse("sheet Cy amp off").to_string(),
        "Cy's sheet has no Shadow Amp: `amp off` has nothing to switch off"
    );
    // And an Amp there switches off
    t.run("sheet Cy amp on");
    t.run("sheet Cy amp off");
}

// ----- messages --------------------------------------------------------------------------------

#[test]
fn a_number_out_of_range_is_said_as_typed_with_what_it_counts() {
    let mut t = table();
    t.run("narrate");
    for (line, said) in [
        (
            "pp Ana spend montage 0",
            "a Montage of 0 Plot Points is out of range: allowed 1 to 5",
        ),
        (
            "pp Ana spend montage 99999999999",
            "a Montage of 2147483647 or more Plot Points is out of range",
        ),
        (
            "atest Ana 20+11 vs 1",
            "a pool of 31 dice in all is out of range: allowed 0 to 30",
        ),
        (
            "atest Ana 1 vs 20+11",
            "an opposing pool of 31 dice in all is out of range",
        ),
        (
            "atest Ana 3+3+14 vs 1",
            "a modifier of 14 in all is out of range: allowed -10 to 10",
        ),
    ] {
        let err = t.refuse(line).to_string();
        assert!(err.contains(said), "{line}: {err}");
    }
}

#[test]
fn anarchys_free_texts_hold_what_the_shared_ones_do() {
    // Given the rules: Anarchy's free texts have the length of the shared free texts
    let mut t = table();
    let max = t.enc.rules().limits.text_chars.max;
    assert_eq!(t.enc.rules().anarchy.limits.text_chars.max, max);
    t.run("narrate");
    // When a note is that long it is taken, one more character is refused
    let long = "x".repeat(usize::try_from(max).unwrap());
    t.run(&format!("pp Ana spend surprise threat: {long}"));
    let err = t.refuse(&format!("pp Bo spend surprise threat: {long}x"));
    assert!(err.to_string().contains(&format!("1 to {max}")), "{err}");
}

#[test]
fn a_colon_with_no_note_after_it_is_refused_as_an_empty_text() {
    let mut t = table();
    t.run("narrate");
    for line in [
        "pp Ana spend threat :",
        "pp Ana spend surprise threat:",
        "pp Ana spend threat: \"\"",
        "pp Ana spend threat: \"  \"",
        "pp Ana spend take the hit on Bo :",
        "gm spend threat :",
        "gm spend glitch die on Ganger:",
    ] {
        // When a spend's colon has nothing after it
        let err = parse_error(&t, line);
        // Then it is refused in one sentence asking for the note, nothing spent
        assert!(
            err.ends_with("expected the note after `:` (a few words, or no `:` for none)"),
            "{line}: {err}"
        );
    }
    assert_eq!((pp(&t, "Ana"), gm(&t)), (3, 1));
    // While a spend with no colon, or with a note, is taken
    t.run("pp Ana spend threat");
    t.run("pp Ana spend threat: a drone");
    assert_eq!(pp(&t, "Ana"), 1);
}

#[test]
fn a_narrator_removed_and_added_again_is_in_the_turns_order_once() {
    // Given Ana narrating, removed from the encounter and added again
    let mut t = table();
    t.run("narrate");
    t.run("remove Ana");
    t.run("add Ana pc edge 3");
    // Then the page lists the turn's order with the new Ana once, after the seats to come
    let page = srtrack::report::show(&t.enc, 0);
    let line = page
        .lines()
        .find(|l| l.starts_with("Turn 1"))
        .unwrap_or_default();
    assert!(line.ends_with(": Bo, Cy, Ana"), "{page}");
}

#[test]
fn an_anarchy_table_shows_no_wound_modifier() {
    // Given Ana with 6 boxes of Physical damage (an SR5 wound modifier of -2)
    let mut t = table();
    t.run("damage Ana 6 physical");
    assert_ne!(t.enc.rules().wound_modifier(6, 0), 0);
    // Then neither the page before the first turn, the table, nor the recap shows it
    let before = srtrack::report::show(&t.enc, 0);
    assert!(
        before.contains("Physical 6/") && !before.contains("wounds"),
        "{before}"
    );
    t.run("narrate");
    let bits = srtrack::report::anarchy::character_bits(&t.enc, Some(n(&t)), t.c("Ana")).join(", ");
    assert!(
        bits.contains("Physical 6/") && !bits.contains("wounds"),
        "{bits}"
    );
    let recap = srtrack::report::recap::heading(&t.enc, "heist", "today");
    assert!(
        recap.contains("Physical 6/") && !recap.contains("wounds"),
        "{recap}"
    );
}

// ----- Edge back -------------------------------------------------------------------------------

#[test]
fn a_twist_for_oneself_gives_no_edge_and_the_gm_gives_edge_back_within_the_sheet() {
    // Given Ana (Edge 3) who spent 2 Edge on tests
    let mut t = table();
    t.run("narrate");
    t.run("atest Ana 2 vs 0 edge before dice 5 5 5");
    t.run("atest Ana 2 vs 0 edge after dice 5 5");
    assert_eq!(t.c("Ana").edge_left, 1);
    // When she buys a twist for herself, it is no complication: no Edge back
    let evs = t.run("pp Ana spend twist: my cyberarm seizes");
    assert!(
        !events(&evs)
            .iter()
            .any(|e| matches!(e, AnarchyEvent::EdgeRegained { .. })),
        "{evs:?}"
    );
    assert_eq!(t.c("Ana").edge_left, 1);
    // Then the GM gives one back, and the log says so
    t.run("edge Ana regain");
    assert_eq!(t.c("Ana").edge_left, 2);
    assert_eq!(t.last_lines(), ["Ana regains 1 Edge (2 of 3)"]);
    // And more than the sheet leaves room for, none, or a full Edge, is refused
    let err = anarchy(t.refuse("edge Ana regain 2"));
    assert!(err.to_string().contains("allowed 1 to 1"), "{err}");
    anarchy(t.refuse("edge Ana regain 0"));
    t.run("edge Ana regain 1");
    let err = anarchy(t.refuse("edge Ana regain"));
    assert!(
        matches!(err, AnarchyRefusal::EdgeFull { max: 3, .. }),
        "{err}"
    );
    // And undo takes it back
    t.run("undo");
    assert_eq!(t.c("Ana").edge_left, 2);
}

#[test]
fn regaining_edge_is_anarchys() {
    let mut t = Table::new();
    t.run("add Ana pc int 3 rea 3 edge 2");
    let err = t.refuse("edge Ana regain");
    assert!(err.to_string().contains("edge … regain"), "{err}");
}
