//! The recap players want (`srtrack export`): per round, who did what, who went down, Edge
//! spent, delays and readies fired, tests and their results; read from the events.

mod common;

use common::Table;
use srtrack::report::recap;

const CREATED: &str = "2026-01-01T00:00:00Z";

/// A round with every kind of deed, then a quiet round.
fn fight() -> Table {
    let mut t = Table::three();
    t.run("act Ana Fire Gun");
    t.run("damage Cy 4 physical");
    t.run("delay Ana 2 after Cy");
    t.run("next");
    t.run("edge Bob");
    t.run("ready Bob 2 when Cy moves do Fire Gun");
    t.run("next");
    t.run("fire Bob 1 before");
    t.run("act Cy Sprint");
    t.run("act Bob Dodge");
    t.run("next");
    t.run("act Ana Fire Gun");
    t.run("status Cy Bleeding until never");
    t.run("damage Cy 6 physical");
    t
}

#[test]
fn a_round_tells_who_did_what_who_went_down_and_the_edge_spent() {
    let t = fight();
    let md = recap::markdown(&t.enc, "rooftop", CREATED);
    insta::assert_snapshot!(md);
}

#[test]
fn the_recap_is_short_where_the_log_is_long() {
    let mut t = fight();
    for _ in 0..30 {
        t.run("next");
    }
    let md = recap::markdown(&t.enc, "rooftop", CREATED);
    // Thirty turns passing with nothing done add no line.
    assert!(!md.contains("## Round 3"), "{md}");
    assert!(
        md.lines().count() < 45,
        "{} lines:\n{md}",
        md.lines().count()
    );
    assert!(md.contains("- The fight is under way: round"), "{md}");
}

#[test]
fn names_and_texts_from_input_print_as_typed_not_as_markdown() {
    let mut t = Table::new();
    t.run("add \"[pay](http://x) **Jinx**\" pc int 3 rea 3");
    t.run("roll all hits 2");
    t.run("start");
    t.run("status \"[pay](http://x) **Jinx**\" \"<b>Shielded</b>\" until round");
    let md = recap::markdown(&t.enc, "# heist", CREATED);
    assert!(md.starts_with("# \\# heist\n"), "{md}");
    assert!(
        md.contains("**\\[pay\\](http://x) \\*\\*Jinx\\*\\***: now \\<b\\>Shielded\\</b\\>"),
        "{md}"
    );
    assert!(!md.contains("[pay]("), "{md}");
}

#[test]
fn a_typed_in_glitch_and_a_mid_fight_joiner_are_told() {
    let mut t = Table::three();
    t.run("add Dex int 2 rea 2");
    t.run("roll Dex hits 1 glitch");
    let md = recap::markdown(&t.enc, "f", CREATED);
    assert!(md.contains("- **Dex**: joins the fight"), "{md}");
    assert!(
        md.contains("- Initiative: **Dex** 1 hit, glitch, typed in"),
        "{md}"
    );
}

#[test]
fn a_2097_fight_tells_its_checks_damage_and_edge() {
    let mut t = Table::under(srtrack::encounter::System::Sr2097);
    t.run("add Ana pc int 4 rea 5 edge 3");
    t.run("add Bo int 3 rea 3 edge 1");
    t.run("armor Bo pt 15 dr 30");
    t.run("roll Ana dice 6 6");
    t.run("roll Bo dice 4 4");
    t.run("start");
    t.run("sc Ana tn 20 bonus 12 edge dice 7 7 3");
    t.run("dmg Ana Bo 2d6+4 mos 0 edge dice 6 6 6 6");
    t.run("edge Bo lessen");
    let md = recap::markdown(&t.enc, "f", CREATED);
    assert!(
        md.contains("- Initiative: **Ana** 2d6 \\[6 6\\] typed in + 9 = 21"),
        "{md}"
    );
    assert!(md.contains("sc Ana: 3d10"), "{md}");
    assert!(md.contains("dmg Ana → Bo"), "{md}");
    assert!(md.contains("- Edge spent: Ana 2, Bo 1."), "{md}");
    assert!(md.contains("- Damage taken: Bo "), "{md}");
}

#[test]
fn an_sr5_recap_counts_edge_spent_on_push_the_limit_and_close_call_and_tells_the_close_call() {
    // Given a fight in which Ana pushes the limit and Bob saves a glitch with Close Call
    let mut t = Table::three();
    t.roll("test Ana 6 limit 2 push", &[6, 6, 5, 5, 2, 3]);
    t.roll("test Bob 4", &[1, 1, 1, 5]);
    t.run("closecall Bob");
    // When the recap is written
    let md = recap::markdown(&t.enc, "f", CREATED);
    // Then both count as Edge spent, and the Close Call is told after the glitch it negated
    assert!(md.contains("- Edge spent: Ana 1, Bob 1."), "{md}");
    let glitch = md.find("glitch").expect("the glitch is told");
    let close_call = md.find("Close Call").expect("the Close Call is told");
    assert!(glitch < close_call, "{md}");
    assert!(
        md.contains("- Delays acted on: 0; readies fired: 0."),
        "{md}"
    );
}

/// An Anarchy table of two players and a ganger, in its second narration turn.
fn anarchy_session() -> Table {
    let mut t = Table::under(srtrack::encounter::System::Anarchy);
    t.run("add A pc edge 3 body 3 will 4");
    t.run("add B pc edge 3 body 3 will 4");
    t.run("add G npc edge 1 body 4 will 3");
    t.run("sheet A armor 3");
    t.run("seating A, B, G");
    t.run("narrate");
    t.run("atest A 2 vs 1 edge before dice 1 1 1 vs 1");
    t.run("pp A spend surprise threat: a drone spots the van");
    t.run("pp A award good narration");
    t.run("narrate");
    t.run("damage A 2 armor");
    t.run("pp B spend live dangerously");
    t.run("atest B 3 vs 2 glitchdie dice 5 5 1 6 vs 1 1");
    t.run("narrate");
    t.run("gm spend surprise threat: the lights die");
    t.run("narrate");
    t.run("narrate");
    t
}

#[test]
fn an_anarchy_recap_tells_each_narration_turn_and_its_narrations() {
    // Given two narration turns at an Anarchy table
    let t = anarchy_session();
    // When the recap is written
    let md = recap::markdown(&t.enc, "f", CREATED);
    // Then each turn has its section, and each narration its narrator's deeds
    assert!(md.contains("## Turn 1\n"), "{md}");
    assert!(md.contains("## Turn 2\n"), "{md}");
    let turn1 = &md[md.find("## Turn 1").unwrap_or(0)..md.find("## Turn 2").unwrap_or(0)];
    assert!(turn1.contains("- **A**: narrates; tests 2 vs 1, Edge before the roll, typed in: 0 hits vs 0, failure; spends 1 Plot Point: Surprise Threat! (a drone spots the van); regains 1 Edge (Interesting Times); gains 1 Plot Point for good narration"), "{md}");
    assert!(turn1.contains("- **B**: narrates; A takes 2 Armor; spends 1 Plot Point: Live Dangerously; tests 3 vs 2, typed in: 3 hits vs 0, success, glitch die: exploit"), "{md}");
    assert!(
        turn1.contains("- The GM spends 1 Plot Point: Surprise Threat! (the lights die)"),
        "{md}"
    );
    assert!(
        !md.contains("## Before the fight\n\n- **A**: narrates"),
        "{md}"
    );
}

#[test]
fn an_anarchy_recap_sums_up_edge_gear_damage_and_plot_points_not_delays() {
    // Given a session where A spent Edge on a test and took Armor damage
    let t = anarchy_session();
    // When the recap is written
    let md = recap::markdown(&t.enc, "f", CREATED);
    // Then its summary counts them, with the Plot Points, and no initiative-pass line
    assert!(md.contains("- Edge spent: A 1."), "{md}");
    assert!(md.contains("- Damage taken: A 2 Armor."), "{md}");
    assert!(md.contains("- Narrations: A 2, B 1, G 1."), "{md}");
    assert!(
        md.contains("- Plot Points spent: A 1, B 1, the GM 1."),
        "{md}"
    );
    assert!(md.contains("- Plot Points awarded: A 1."), "{md}");
    assert!(!md.contains("Delays acted on"), "{md}");
    assert!(!md.contains("readies"), "{md}");
}

#[test]
fn an_anarchy_recap_tells_edge_spent_on_seeing_a_roll_and_counts_it() {
    // Given B's test in the second turn, its misses rolled again with Edge
    let mut t = anarchy_session();
    t.run("atest B 3 vs 2 dice 5 1 2 vs 5 6");
    t.run("edge B after dice 6 1");
    // When the recap is written
    let md = recap::markdown(&t.enc, "f", CREATED);
    // Then B's deeds tell the test, then the Edge and what the dice came to
    assert!(
        md.contains(
            "tests 3 vs 2, typed in: 1 hit vs 2, failure; spends Edge to roll the misses again: 2 hits vs 2, success"
        ),
        "{md}"
    );
    assert!(md.contains("- Edge spent: A 1, B 1."), "{md}");
}

#[test]
fn an_anarchy_recap_says_no_edge_for_a_re_roll_declared_where_every_die_hit() {
    // Given B declares Edge after the roll, and srtrack's dice all hit
    let mut t = anarchy_session();
    t.roll("atest B 2 vs 0 edge after", &[5, 6]);
    // When the recap is written
    let md = recap::markdown(&t.enc, "f", CREATED);
    // Then the test is told without Edge: none was spent
    assert!(md.contains("tests 2 vs 0: 2 hits vs 0, success"), "{md}");
    assert!(!md.contains("Edge to re-roll"), "{md}");
    assert!(md.contains("- Edge spent: A 1."), "{md}");
}

/// A 2097 fight where the GM keeps condition monitors beside the injury track.
fn fight_2097_with_monitors() -> Table {
    let mut t = Table::under(srtrack::encounter::System::Sr2097);
    t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 4");
    t.run("add Bo int 3 rea 3 edge 1");
    t.run("roll Ana dice 6 6");
    t.run("roll Bo dice 4 4");
    t.run("start");
    t
}

#[test]
fn a_2097_recap_keeps_injury_points_apart_from_monitor_boxes_and_one_down_once() {
    // Given Ana's Physical monitor filled (10 boxes), then a critical injury of 16 points
    let mut t = fight_2097_with_monitors();
    t.run("damage Ana 10");
    t.run("dmg - Ana 4d6 dice 4 4 4 4");
    // and the monitor healed, the injury holding her down still
    t.run("heal Ana 1");
    // When the recap is written
    let md = recap::markdown(&t.enc, "f", CREATED);
    // Then the two kinds of damage are told apart, and she went down once
    assert!(
        md.contains("- Damage taken: Ana 10 Physical, Ana 16 Physical in injuries."),
        "{md}"
    );
    assert!(
        md.contains("- Went down: **Ana** (round 1, pass 1)."),
        "{md}"
    );
    assert!(md.contains("- **Ana** stays down (injury)"), "{md}");
}

#[test]
fn a_2097_hit_from_a_hidden_attacker_is_told_as_the_hurt_ones_own() {
    // Given a hidden Sniper's rifle puts a critical injury into Ana
    let mut t = Table::under(srtrack::encounter::System::Sr2097);
    t.run("add Ana pc int 4 rea 5 edge 3");
    t.run("add Sniper npc int 3 rea 3 edge 2 hidden");
    t.run("weapon Sniper add Rifle 6d6+8");
    t.run("roll Ana dice 5 4");
    t.run("roll Sniper dice 6 6");
    t.run("start");
    t.run("next");
    t.run("dmg Sniper Ana with Rifle dice 1 1 1 1 1 1");
    // When the recap is written
    let md = recap::markdown(&t.enc, "f", CREATED);
    // Then the players read what hit Ana, not who
    assert!(
        md.contains("- **Ana**: takes a serious injury (14)"),
        "{md}"
    );
    assert!(!md.contains("Sniper"), "{md}");
}

#[test]
fn the_wound_modifier_is_shown_only_where_the_systems_tests_take_it_off() {
    // Given a character with 3 boxes of Physical damage (a wound modifier of −1 by the boxes),
    for (system, shown) in [
        (srtrack::encounter::System::Sr5, -1),
        (srtrack::encounter::System::Sr2097, -1),
        (srtrack::encounter::System::Anarchy, 0),
    ] {
        let mut t = Table::under(system);
        t.run(&common::sheet_line(
            system,
            "add Ana pc int 4 rea 5 edge 3 body 4 will 5",
        ));
        t.run("damage Ana 3");
        let rules = t.enc.rules();
        let ana = t.c("Ana");
        // then the one report function every pane asks says what the system shows,
        assert_eq!(t.state().wounds_shown(ana, rules), shown, "{system}");
        // and the monitors' text (the cast, the status pane's line) agrees with it.
        let text = srtrack::report::condition_text(ana, t.state(), rules);
        assert_eq!(text.contains("wounds -1"), shown != 0, "{system}: {text}");
        assert!(text.contains("Physical 3/10"), "{system}: {text}");
    }
}

#[test]
fn a_character_hidden_from_the_players_is_left_out_of_the_recap_until_revealed() {
    // Given a fight where Cy, an ambusher, is hidden from the players: Ana holds IP until after
    // it, it fires, Bob is hurt in its turn, and it goes down
    let mut t = Table::three();
    t.run("hide Cy");
    t.run("act Ana Fire Gun");
    t.run("delay Ana 2 after Cy");
    t.run("next");
    t.run("act Bob Fire Gun");
    t.run("next");
    t.run("act Cy Fire Gun");
    t.run("damage Bob 3");
    t.run("damage Cy 10");
    // When the GM exports the recap for the players
    let md = recap::markdown(&t.enc, "ambush", CREATED);
    // Then Cy is named nowhere: not in the cast, the initiative, the order, its deeds, a deed
    // that waits on it, who went down or the damage taken
    assert!(!md.contains("Cy"), "{md}");
    // and what the others did, and what was done to them in its turn, is still told
    assert!(md.contains("- **Ana**: Fire Gun\n"), "{md}");
    assert!(md.contains("- **Bob**: Fire Gun\n"), "{md}");
    assert!(md.contains("- **Bob**: takes 3 Physical"), "{md}");
    assert!(md.contains("- The fight starts. Order: Ana, Bob\n"), "{md}");
    assert!(md.contains("- Damage taken: Bob 3 Physical."), "{md}");
    assert!(md.contains("- Went down: nobody."), "{md}");

    // When the GM reveals Cy
    t.run("reveal Cy");
    let md = recap::markdown(&t.enc, "ambush", CREATED);
    // Then the recap tells all of it again, what it did while hidden included
    assert!(md.contains("- **Cy** (NPC"), "{md}");
    assert!(md.contains("Order: Ana, Bob, Cy"), "{md}");
    assert!(md.contains("holds 2 IP until after Cy"), "{md}");
    assert!(
        md.contains("- **Cy**: Fire Gun; Bob takes 3 Physical; takes 10 Physical"),
        "{md}"
    );
    assert!(md.contains("**Cy goes down**"), "{md}");
    assert!(md.contains("Cy 10 Physical"), "{md}");
}

#[test]
fn a_visible_character_whose_name_holds_a_hidden_ones_is_still_told() {
    // Given a hidden Dog and a visible Hell Dog, whose name holds the word "Dog"
    let mut t = Table::new();
    t.run("add Ana pc int 4 rea 5 body 4 will 5");
    t.run("add Hell Dog int 3 rea 3 body 4 will 2");
    t.run("add Dog int 3 rea 2 body 3 will 2");
    t.run("roll Ana hits 3");
    t.run("roll Hell Dog hits 2");
    t.run("roll Dog hits 1");
    t.run("start");
    t.run("hide Dog");
    t.run("act Ana Fire Gun");
    t.run("damage Hell Dog 3");
    t.run("next");
    t.run("act Hell Dog Sprint");
    t.run("next");
    t.run("act Dog Sprint");
    t.run("damage Ana 2");
    // When the GM exports the recap for the players
    let md = recap::markdown(&t.enc, "kennel", CREATED);
    // Then Hell Dog's deeds and the damage it took are told, and the hidden Dog's are not
    assert!(md.contains("- **Hell Dog**: Sprint"), "{md}");
    assert!(md.contains("Hell Dog takes 3 Physical"), "{md}");
    assert!(md.contains("Order: Ana, Hell Dog\n"), "{md}");
    assert!(
        md.contains("Damage taken: Ana 2 Physical, Hell Dog 3 Physical."),
        "{md}"
    );
    let without_hell_dog = md.replace("Hell Dog", "");
    assert!(!without_hell_dog.contains("Dog"), "{md}");
}
