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
    t.run("dmg Ana Bo 2d6+4 edge dice 6 6 6 6");
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
