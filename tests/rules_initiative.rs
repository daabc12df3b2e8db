//! Given/when/then for the initiative test, the order and its ties
//! (initiative-passes-and-ip.txt, "Initiative Roll" and "Tied Initiative Scores"; DESIGN.md "Order").

mod common;
use common::Table;
use srtrack::encounter::{Event, PassMark, RuleError};
use srtrack::rules::Glitch;

#[test]
fn the_pool_is_intuition_plus_reaction_plus_modifier_and_fives_and_sixes_hit() {
    let mut t = Table::new();
    t.run("add Ana int 4 rea 3 mod 1");
    // 8 dice: two 5s, one 6 → 3 hits; three 1s of 8 is not more than half.
    let events = t.roll("roll Ana", &[5, 6, 5, 1, 1, 1, 2, 3]);
    let Event::InitiativeRolled { roll, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!((roll.pool, roll.hits, roll.glitch), (8, 3, Glitch::None));
    assert_eq!(roll.dice.as_deref(), Some(&[5, 6, 5, 1, 1, 1, 2, 3][..]));
}

#[test]
fn more_than_half_ones_glitch_and_without_a_hit_it_is_critical() {
    let mut t = Table::new();
    t.run("add Ana int 2 rea 2");
    t.roll("roll Ana", &[1, 1, 1, 5]);
    assert_eq!(
        t.c("Ana").initiative.as_ref().unwrap().glitch,
        Glitch::Glitch
    );
    t.run("undo");
    t.roll("roll Ana", &[1, 1, 1, 4]);
    assert_eq!(
        t.c("Ana").initiative.as_ref().unwrap().glitch,
        Glitch::Critical
    );
}

#[test]
fn a_typed_roll_is_checked_against_the_pool() {
    let mut t = Table::new();
    t.run("add Ana int 2 rea 2");
    assert_eq!(
        t.refuse("roll Ana hits 5"),
        RuleError::HitsAbovePool { hits: 5, pool: 4 }
    );
    // A glitch on 4 dice needs 3 ones, so at most 1 hit.
    assert!(matches!(
        t.refuse("roll Ana hits 2 glitch"),
        RuleError::GlitchImpossible { .. }
    ));
    t.run("roll Ana hits 1 glitch");
    assert_eq!(
        t.c("Ana").initiative.as_ref().unwrap().glitch,
        Glitch::Glitch
    );
}

#[test]
fn a_typed_in_critical_glitch_is_said_as_the_sr5_test_says_it() {
    // Given a character whose table roll showed no hit and more than half ones
    let mut t = Table::new();
    t.run("add Ana int 2 rea 2");
    // When the GM types it in as `critical`, as `test … hits 0 critical` takes it
    t.run("roll Ana hits 0 critical glitch");
    // Then it is the critical glitch
    assert_eq!(
        t.c("Ana").initiative.as_ref().unwrap().glitch,
        Glitch::Critical
    );
    t.run("roll Ana hits 0 critical");
    assert_eq!(
        t.c("Ana").initiative.as_ref().unwrap().glitch,
        Glitch::Critical
    );
    // And a critical glitch with hits is refused in one sentence
    let err = srtrack::lang::parse(
        "roll Ana hits 1 critical",
        t.state(),
        &common::test_catalogue(),
    )
    .expect_err("a critical glitch with a hit");
    assert!(
        err.to_string().contains("a critical glitch has no hit"),
        "{err}"
    );
}

#[test]
fn before_the_fight_the_rows_stand_as_the_rolls_will_order_them() {
    // Given four characters added in this order, three of them rolled
    let mut t = Table::new();
    t.run("add Low int 2 rea 2");
    t.run("add Unrolled int 3 rea 3");
    t.run("add High int 2 rea 2");
    t.run("add Glitchy int 5 rea 5");
    t.run("roll Low hits 1");
    t.run("roll High hits 3");
    t.run("roll Glitchy hits 1 glitch");
    // When the GM looks at the order before `start`
    let names: Vec<String> = t
        .state()
        .roster()
        .into_iter()
        .map(|id| t.state().name(id).to_string())
        .collect();
    // Then the highest score leads, a glitch goes last among its equals, the unrolled last
    assert_eq!(names, ["High", "Low", "Glitchy", "Unrolled"]);
    // And `show` lists its provisional order as those rows
    let page = srtrack::report::show(&t.enc, 0);
    let listed: Vec<&str> = page
        .lines()
        .skip_while(|l| !l.contains("as rolled so far"))
        .skip(1)
        .map_while(|l| l.split_whitespace().nth(1))
        .collect();
    assert_eq!(listed, names, "{page}");
    // And `start` keeps it
    t.run("roll Unrolled hits 0");
    t.run("start");
    assert_eq!(t.order(), ["High", "Low", "Glitchy", "Unrolled"]);
}

#[test]
fn the_order_runs_from_the_highest_score() {
    let mut t = Table::new();
    t.run("add Low int 9 rea 9");
    t.run("add High int 1 rea 1");
    t.run("roll Low hits 1");
    t.run("roll High hits 2");
    t.run("start");
    assert_eq!(t.order(), ["High", "Low"]);
    let why = t.state().explain_order(t.c("Low").id, t.c("High").id);
    assert_eq!(why, "High stands before Low: High scored 2, Low scored 1");
}

#[test]
fn tie_step_one_a_glitched_roll_goes_last() {
    let mut t = Table::new();
    t.run("add Glitchy int 5 rea 5 edge 5");
    t.run("add Clean int 2 rea 2");
    t.run("roll Glitchy hits 1 glitch");
    t.run("roll Clean hits 1");
    t.run("start");
    assert_eq!(t.order(), ["Clean", "Glitchy"]);
    let why = t.state().explain_order(t.c("Clean").id, t.c("Glitchy").id);
    assert!(
        why.ends_with("same score 1; Glitchy glitched, so goes last among them"),
        "{why}"
    );
}

#[test]
fn tie_step_two_the_bigger_pool_first() {
    let mut t = Table::new();
    t.run("add Bob int 3 rea 4 edge 6");
    t.run("add Ana int 4 rea 5");
    t.run("roll Bob hits 3");
    t.run("roll Ana hits 3");
    t.run("start");
    assert_eq!(t.order(), ["Ana", "Bob"]);
    let why = t.state().explain_order(t.c("Ana").id, t.c("Bob").id);
    assert_eq!(
        why,
        "Ana stands before Bob: same score 3; Ana has the bigger pool, 9 to 7"
    );
}

#[test]
fn tie_step_three_the_higher_edge_first() {
    let mut t = Table::new();
    t.run("add Bob int 3 rea 4 edge 1");
    t.run("add Ana int 4 rea 3 edge 3");
    t.run("roll Bob hits 2");
    t.run("roll Ana hits 2");
    t.run("start");
    assert_eq!(t.order(), ["Ana", "Bob"]);
    let why = t.state().explain_order(t.c("Bob").id, t.c("Ana").id);
    assert!(why.ends_with("Ana has the higher Edge, 3 to 1"), "{why}");
}

#[test]
fn tie_step_four_a_four_way_tie_rolls_off_and_rerolls_those_still_tied() {
    let mut t = Table::new();
    for name in ["A", "B", "C", "D"] {
        t.run(&format!("add {name} int 3 rea 3 edge 1"));
        t.run(&format!("roll {name} hits 2"));
    }
    // Round 1: A 4, B 6, C 4, D 1 → B first, D last; A and C still tied.
    // Round 2: A 3, C 3 → still tied. Round 3: A 2, C 5 → C before A.
    let events = t.roll("start", &[4, 6, 4, 1, 3, 3, 2, 5]);
    assert_eq!(t.order(), ["B", "C", "A", "D"]);
    let Event::FightStarted { rolloffs, .. } = &events[0] else {
        panic!()
    };
    assert_eq!(rolloffs.len(), 1);
    assert_eq!(
        rolloffs[0].rounds.len(),
        3,
        "every roll-off die is in the event"
    );
    let why = t.state().explain_order(t.c("A").id, t.c("C").id);
    assert!(
        why.ends_with("roll-off C 5, A 2 (after 2 tied rolls)"),
        "{why}"
    );
    assert_eq!(t.turn(), "B");
}

#[test]
fn the_fight_needs_everyone_rolled() {
    let mut t = Table::new();
    assert_eq!(t.refuse("start"), RuleError::NoCombatants);
    t.run("add Ana int 3 rea 3");
    t.run("add Bob int 3 rea 3");
    t.run("roll Ana hits 1");
    assert_eq!(
        t.refuse("start"),
        RuleError::MissingInitiative {
            names: vec!["Bob".into()]
        }
    );
    assert_eq!(
        t.refuse("start").to_string(),
        "Bob has not rolled initiative yet: `roll all`, or type in a roll"
    );
}

#[test]
fn a_group_of_identical_npcs_each_with_its_own_pool() {
    let mut t = Table::new();
    t.run("add Ganger x4 int 3 rea 4 edge 1");
    let names: Vec<_> = t.state().present().map(|c| c.name.clone()).collect();
    assert_eq!(names, ["Ganger 1", "Ganger 2", "Ganger 3", "Ganger 4"]);
    t.roll(
        "roll all",
        &[
            5, 1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1, 1, 5, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
        ],
    );
    t.run("start");
    t.run("act Ganger 3 complex");
    assert_eq!(t.ip("Ganger 3"), 1);
    assert_eq!(t.ip("Ganger 1"), 4, "each member has its own pool");
    t.run("down Ganger 2");
    assert!(t.c("Ganger 2").is_downed() && !t.c("Ganger 1").is_downed());
}

#[test]
fn a_group_may_share_one_roll_and_its_members_act_in_number_order() {
    let mut t = Table::new();
    t.run("add Ganger x3 int 3 rea 4 shared");
    t.run("add Ana pc int 4 rea 3");
    t.run("roll Ana hits 2");
    assert!(matches!(
        t.refuse("roll Ganger 2"),
        RuleError::SharesGroupRoll { .. }
    ));
    let events = t.roll("roll Ganger", &[5, 5, 1, 2, 3, 4, 4]);
    assert_eq!(events.len(), 1, "one roll for the whole group");
    // Ganger and Ana tie on score 2 and pool 7 and Edge 0: one roll-off die for the group.
    t.roll("start", &[2, 6]);
    assert_eq!(t.order(), ["Ana", "Ganger 1", "Ganger 2", "Ganger 3"]);
    let why = t
        .state()
        .explain_order(t.c("Ganger 2").id, t.c("Ganger 1").id);
    assert!(
        why.ends_with("share their group's roll, so they act in number order"),
        "{why}"
    );
}

#[test]
fn names_are_trimmed_unique_and_of_bounded_length() {
    let mut t = Table::new();
    t.run("add \"  Ana  \" int 3 rea 3");
    assert_eq!(t.c("Ana").name, "Ana");
    assert_eq!(
        t.refuse("add ana int 3 rea 3"),
        RuleError::NameTaken { name: "ana".into() }
    );
    let long = "x".repeat(41);
    assert!(matches!(
        t.refuse(&format!("add \"{long}\" int 3 rea 3")),
        RuleError::NameLength { len: 41, .. }
    ));
    assert_eq!(
        t.refuse("add Zed int 21 rea 3").to_string(),
        "Intuition 21 is out of range: allowed 1 to 20"
    );
    assert_eq!(
        t.refuse("add Zed int 3 rea 3 edge 11").to_string(),
        "Edge 11 is out of range: allowed 0 to 10"
    );
    assert!(matches!(
        t.refuse("add Zed int 3 rea 3 mod -11"),
        RuleError::OutOfRange {
            field: "initiative dice modifier",
            ..
        }
    ));
}

#[test]
fn a_combatant_joining_mid_pass_acts_from_its_slot_this_pass_when_still_to_come() {
    let mut t = Table::three();
    t.run("next"); // Bob's turn
    t.run("add Dee int 3 rea 3");
    assert_eq!(t.c("Dee").mark, PassMark::Waiting);
    // Dee scores 2 like Bob, bigger pool than Cy; ties with Bob on pool 6, Edge 0 < Bob's 1.
    t.run("roll Dee hits 1");
    // Score 1 ties with Cy (pool 5 < 6): Dee slots before Cy, after the current actor.
    assert_eq!(t.order(), ["Ana", "Bob", "Dee", "Cy"]);
    assert_eq!(t.ip("Dee"), 4, "starts with the starting IP");
    t.run("next");
    assert_eq!(t.turn(), "Dee");
    assert_eq!(t.ip("Dee"), 5);
}

#[test]
fn a_combatant_whose_slot_has_gone_by_acts_from_the_next_pass() {
    let mut t = Table::three();
    t.run("next");
    t.run("next"); // Cy's turn
    t.run("add Dee int 3 rea 3");
    t.run("roll Dee hits 4");
    assert_eq!(t.order(), ["Dee", "Ana", "Bob", "Cy"]);
    assert_eq!(t.c("Dee").mark, PassMark::Joined);
    t.run("next");
    assert_eq!(t.round_pass(), (1, 2));
    assert_eq!(t.turn(), "Dee");
}

#[test]
fn a_joiner_tied_with_everything_rolls_off_one_to_one() {
    let mut t = Table::three();
    t.run("add Dee int 3 rea 3 edge 1");
    // Ties Bob exactly (score 2, pool 6, Edge 1): Dee 2 vs Bob 5 → after Bob.
    let events = t.roll("roll Dee hits 2", &[2, 5]);
    assert!(matches!(&events[1], Event::Slotted { rolloffs, .. } if rolloffs.len() == 1));
    assert_eq!(t.order(), ["Ana", "Bob", "Dee", "Cy"]);
}

// DESIGN.md: "Names are unique after Unicode normalization (NFC), so two names that look the same
// are the same."
#[test]
fn names_that_look_the_same_are_the_same_name() {
    let mut t = Table::new();
    t.run("add Jos\u{e9} int 3 rea 3"); // é as one code point
    assert_eq!(
        t.refuse("add Jose\u{301} int 3 rea 3"), // e and a combining accent
        RuleError::NameTaken {
            name: "Jos\u{e9}".into()
        }
    );
    t.run("roll Jose\u{301} hits 2");
    assert!(t.c("Jos\u{e9}").initiative.is_some());
}

// Unquoted, `Big  Joe` reads as `Big Joe`: a name is kept with one space between its words, so
// two names apart only by their spacing (a no-break space too) are one name.
#[test]
fn names_apart_only_by_their_spacing_are_the_same_name() {
    // Given a name typed in quotes with two spaces and a no-break space in it
    let mut t = Table::new();
    t.run("add \"Big  Joe\u{a0}Two\" int 3 rea 3");
    // Then it is kept with single spaces
    assert_eq!(t.state().combatants[0].name, "Big Joe Two");
    // And the same name spaced once is taken
    assert_eq!(
        t.refuse("add \"Big Joe Two\" int 3 rea 3"),
        RuleError::NameTaken {
            name: "Big Joe Two".into()
        }
    );
    t.run("roll Big Joe Two hits 2");
    assert!(t.c("Big Joe Two").initiative.is_some());
}

#[test]
fn roll_all_hits_with_a_combatant_named_all_says_to_quote_the_name() {
    let mut t = Table::new();
    t.run("add all int 3 rea 3");
    t.run("add Bob int 3 rea 3");
    let err = srtrack::lang::parse("roll all hits 3", t.state(), t.enc.catalogue()).unwrap_err();
    assert!(
        err.to_string().contains(
            "`roll all` rolls for everyone; to type in the roll of the combatant called all, quote the name: roll \"all\" hits 3"
        ),
        "{err}"
    );
    t.run("roll \"all\" hits 3");
    assert!(t.c("all").initiative.is_some());
}

// DESIGN.md: "a character who joins mid-fight rolls and is slotted in by the same rules": score
// high to low. Who changed initiative stands where it chose, not by its score.
#[test]
fn a_joiner_is_not_slotted_above_a_higher_score_by_one_who_moved() {
    let mut t = Table::three(); // Ana 3, Bob 2, Cy 1
    t.run("next"); // Bob's turn
    t.run("move Bob before Ana"); // Ana has acted: Bob's turn is lost, the order is Bob, Ana, Cy
    assert_eq!(t.order(), ["Bob", "Ana", "Cy"]);
    t.run("add Dee int 3 rea 3");
    t.run("roll Dee hits 3"); // ties Ana on score; Ana's pool 9 is bigger
    assert_eq!(t.order(), ["Bob", "Ana", "Dee", "Cy"]);
}

#[test]
fn a_joiner_rolls_off_once_against_a_group_sharing_a_roll_and_never_splits_it() {
    let mut t = Table::new();
    t.run("add Ganger x2 int 3 rea 3 edge 1 shared");
    t.run("roll Ganger hits 2");
    t.run("start");
    t.run("add Dee int 3 rea 3 edge 1");
    // Dee 2 against the group's 5: after both members, one roll-off only.
    let events = t.roll("roll Dee hits 2", &[2, 5]);
    assert!(matches!(&events[1], Event::Slotted { rolloffs, .. } if rolloffs.len() == 1));
    assert_eq!(t.order(), ["Ganger 1", "Ganger 2", "Dee"]);
    let why = t.state().explain_order(t.c("Ganger 2").id, t.c("Dee").id);
    assert!(why.contains("roll-off"), "{why}");
}

#[test]
fn a_group_whose_members_names_would_pass_the_limit_says_how_long_its_name_may_be() {
    // Given a group name of 38 characters (the limit is 40), ten members: "… 10" takes 41
    let mut t = Table::new();
    let name = "N".repeat(38);
    // When the GM adds it
    let err = t.refuse(&format!("add {name} x10 int 3 rea 3"));
    // Then the refusal counts the member numbers and says the longest the name may be
    let said = err.to_string();
    assert!(said.contains("\" 10\""), "{said}");
    assert!(said.contains("at most 37"), "{said}");
    // And a name that leaves room for them is taken
    t.run(&format!("add {} x10 int 3 rea 3", "N".repeat(37)));
    assert!(
        t.enc
            .state()
            .find(&format!("{} 10", "N".repeat(37)))
            .is_some()
    );
}

#[test]
fn a_group_slotted_in_mid_fight_is_told_in_the_plural() {
    // Given a fight under way
    let mut t = Table::three();
    // When a group sharing a roll joins and rolls
    t.run("add Oni x2 int 3 rea 3 shared");
    t.run("roll Oni hits 2");
    // Then the log tells them taking their places, as it tells one taking its place
    let log = t.last_lines().join("\n");
    assert!(log.contains("Oni 1, Oni 2 take their places "), "{log}");
    assert!(
        log.contains("act in this pass") || log.contains("act from the next pass"),
        "{log}"
    );
    t.run("add Ko int 3 rea 3");
    t.run("roll Ko hits 0");
    let log = t.last_lines().join("\n");
    assert!(log.contains("Ko takes a place "), "{log}");
}

// `why` before `start`: the screen already lists the order the rolls will give (a roll-off
// waits for `start`), so `why` explains that order, from the same list the screen shows.
#[test]
fn why_before_start_explains_the_order_the_rolls_give() {
    // Given two rolls typed in, the fight not started
    let mut t = Table::new();
    t.run("add Low int 9 rea 9");
    t.run("add High int 1 rea 1");
    t.run("roll Low hits 1");
    t.run("roll High hits 2");
    // When the GM asks why
    let why = t.state().explain_order(t.c("Low").id, t.c("High").id);
    // Then the answer is the order the screen lists, worded as the one `start` will give
    assert_eq!(
        why,
        "High stands before Low in the order the rolls give at `start`: High scored 2, Low scored 1"
    );
    let roster = t.state().roster();
    assert_eq!(
        roster,
        [t.c("High").id, t.c("Low").id],
        "the screen's order"
    );
}

#[test]
fn why_before_start_says_an_exact_tie_waits_for_the_roll_off_at_start() {
    // Given two equals on every tie step, the fight not started
    let mut t = Table::new();
    t.run("add Ana int 3 rea 3 edge 1");
    t.run("add Bob int 3 rea 3 edge 1");
    t.run("roll Ana hits 2");
    t.run("roll Bob hits 2");
    // When the GM asks why
    let why = t.state().explain_order(t.c("Bob").id, t.c("Ana").id);
    // Then the roll-off is still to come, and till then they stand as they were added
    assert_eq!(
        why,
        "Ana stands before Bob in the order the rolls give at `start`: same score 2, pool 6 and \
         Edge 1; a roll-off at `start` decides (till then, the order they were added)"
    );
}

#[test]
fn why_names_how_to_give_an_initiative_to_one_that_has_none() {
    // Given Bob has no roll yet, before the fight
    let mut t = Table::new();
    t.run("add Ana int 3 rea 3");
    t.run("add Bob int 3 rea 3");
    t.run("roll Ana hits 2");
    // When the GM asks why, either way round
    let ana = t.c("Ana").id;
    let bob = t.c("Bob").id;
    let sentence = "Bob has no initiative yet: `roll Bob` rolls it, or `roll Bob hits N` types in the table's roll";
    // Then one sentence says so, and how to give one
    assert_eq!(t.state().explain_order(ana, bob), sentence);
    assert_eq!(t.state().explain_order(bob, ana), sentence);
    // And mid-fight, one who joined with its roll left for later gets the same sentence
    t.run("roll Bob hits 1");
    t.run("start");
    t.run("add Cy int 3 rea 3");
    let cy = t.c("Cy").id;
    assert_eq!(
        t.state().explain_order(ana, cy),
        "Cy has no initiative yet: `roll Cy` rolls it, or `roll Cy hits N` types in the table's roll"
    );
    t.run("roll Cy hits 0");
    assert!(
        t.state()
            .explain_order(ana, cy)
            .starts_with("Ana stands before Cy: "),
        "{}",
        t.state().explain_order(ana, cy)
    );
}

#[test]
fn shared_is_refused_for_one_character_added_alone() {
    // Given an encounter
    let mut t = Table::new();
    // When one character is added with `shared`, it is refused: it has nobody to share with
    assert_eq!(
        t.refuse("add Moth pc int 5 rea 4 shared").to_string(),
        "`shared` is for a group added with `xN` (its members roll once): Moth is one character, who rolls alone"
    );
    // while a group shares its roll as ever
    t.run("add Ganger x2 int 3 rea 3 shared");
}

/// Our ruling: wound modifiers come off every pool but the damage resistance test's, so off
/// the initiative test's Intuition + Reaction too; hits typed in are the table's own roll.
#[test]
fn a_wounded_characters_initiative_test_rolls_the_pool_less_the_wound_modifier() {
    // Given Zed (Intuition 3 + Reaction 4) carries 6 boxes: wounds -2
    let mut t = Table::new();
    t.run("add Zed npc int 3 rea 4 body 2 will 2");
    t.run("damage Zed 6");
    // When srtrack rolls his initiative
    let events = t.roll("roll Zed", &[5, 6, 5, 1, 2]);
    // Then 5 dice are rolled, and the log says what the wounds took, as a test's line does
    let Event::InitiativeRolled { roll, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!((roll.pool, roll.hits), (5, 3));
    assert_eq!(
        t.last_lines(),
        ["Zed initiative: 5 dice (7, wounds -2) [5 6 5 1 2] → 3 hits"]
    );
    // And hits typed in from the table were rolled on that pool too: 5 of 5 is allowed, and
    // the log says what the wounds took
    t.run("undo");
    t.run("roll Zed hits 5");
    assert_eq!(t.c("Zed").initiative.as_ref().unwrap().pool, 5);
    assert_eq!(
        t.last_lines(),
        ["Zed initiative: typed in: 5 hits on 5 dice (7, wounds -2)"]
    );
}

/// Our ruling: the tie steps' "bigger pool" is the one rolled, and the table rolls the
/// wounded pool as srtrack does: typed in or rolled, the order is the same.
#[test]
fn a_wounded_characters_typed_initiative_counts_the_pool_less_wounds_for_ties_and_hits() {
    // Given Ana (Intuition 3 + Reaction 3) carries 6 boxes, wounds -2, and Bo (3 + 2) none
    let mut t = Table::new();
    t.run("add Ana pc int 3 rea 3 body 4 will 4");
    t.run("add Bo pc int 3 rea 2 body 4 will 4");
    t.run("damage Ana 6");
    // When 6 hits are typed in for Ana, then they are refused, the pool said in words
    assert_eq!(
        t.refuse("roll Ana hits 6").to_string(),
        "6 hits are impossible: Ana's initiative pool has 4 dice (6 less 2 for wounds)"
    );
    // When both type in 2 hits
    t.run("roll Ana hits 2");
    t.run("roll Bo hits 2");
    assert_eq!(t.c("Ana").initiative.as_ref().unwrap().pool, 4);
    // Then Bo's 5 dice beat Ana's 4 at the second tie step
    t.run("start");
    assert_eq!(t.order(), ["Bo", "Ana"]);
    let why = t.state().explain_order(t.c("Ana").id, t.c("Bo").id);
    assert_eq!(
        why,
        "Bo stands before Ana: same score 2; Bo has the bigger pool, 5 to 4"
    );
}

/// README ruling: a newcomer tied on every step rolls off one to one from the top down and
/// goes before the first it beats; `why` says so of those it stands before through that win.
#[test]
fn why_a_newcomer_stands_before_those_below_the_one_it_beat_in_a_roll_off() {
    // Given Bob and Cy tied on every step, Bob first by a roll-off of 6 to 4
    let mut t = Table::new();
    t.run("add Ana pc int 3 rea 3");
    t.run("add Bob int 3 rea 3");
    t.run("add Cy int 3 rea 3");
    t.run("roll Ana hits 3");
    t.run("roll Bob hits 2");
    t.run("roll Cy hits 2");
    t.roll("start", &[6, 4]);
    assert_eq!(t.order(), ["Ana", "Bob", "Cy"]);
    // When Dee joins tied with them and beats Bob in a roll-off, 3 to 1
    t.run("add Dee int 3 rea 3");
    t.roll("roll Dee hits 2", &[3, 1]);
    assert_eq!(t.order(), ["Ana", "Dee", "Bob", "Cy"]);
    // Then `why` of Dee and Cy names the roll-off Dee won and who it put her before
    let (dee, bob, cy) = (t.c("Dee").id, t.c("Bob").id, t.c("Cy").id);
    assert_eq!(
        t.state().explain_order(cy, dee),
        "Dee stands before Cy: same score 2, pool 6 and Edge 0; Dee won a roll-off against Bob, 3 to 1, and Bob stands before Cy"
    );
    assert_eq!(
        t.state().explain_order(dee, bob),
        "Dee stands before Bob: same score 2, pool 6 and Edge 0; roll-off Dee 3, Bob 1"
    );
}
