//! Given/when/then for rounds, passes, turns and IP (initiative-passes-and-ip.txt, "Rounds and
//! Initiative Passes" and "Initiative Points"; DESIGN.md "Round", "IP", "Interrupt actions").

mod common;
use common::Table;
use srtrack::encounter::{Event, RuleError, StatusEnd};

#[test]
fn a_round_is_five_passes_of_one_turn_each_in_order() {
    let mut t = Table::three();
    let mut seen = Vec::new();
    for _ in 0..15 {
        let (round, pass) = t.round_pass();
        seen.push(format!("{round}.{pass} {}", t.turn()));
        t.run("next");
    }
    assert_eq!(
        seen[..6],
        [
            "1.1 Ana", "1.1 Bob", "1.1 Cy", "1.2 Ana", "1.2 Bob", "1.2 Cy"
        ]
    );
    assert_eq!(seen[12..], ["1.5 Ana", "1.5 Bob", "1.5 Cy"]);
    assert_eq!(t.round_pass(), (2, 1));
    assert_eq!(t.turn(), "Ana");
}

#[test]
fn ip_reset_at_round_start_and_one_more_at_each_own_turn() {
    let mut t = Table::three();
    assert_eq!(t.ip("Ana"), 5, "4 starting + 1 for the turn");
    assert_eq!(t.ip("Bob"), 4, "Bob's turn has not started");
    for _ in 0..3 {
        t.run("next");
    }
    assert_eq!(t.ip("Ana"), 6);
    t.run("act Ana complex");
    assert_eq!(t.ip("Ana"), 2);
    for _ in 0..12 {
        t.run("next");
    }
    // Round 2, Ana's first turn: unspent IP were lost, pool back to 4, +1.
    assert_eq!(t.round_pass(), (2, 1));
    assert_eq!(t.ip("Ana"), 5);
}

#[test]
fn free_simple_complex_cost_one_two_four() {
    let mut t = Table::three();
    t.run("act Ana free");
    assert_eq!(t.ip("Ana"), 4);
    t.run("act Ana simple");
    assert_eq!(t.ip("Ana"), 2);
    t.run("next");
    t.run("act Bob complex");
    assert_eq!(t.ip("Bob"), 1);
}

#[test]
fn at_most_five_ip_in_one_turn() {
    let mut t = Table::three();
    t.run("edge Ana"); // 9 IP
    t.run("act Ana complex");
    let err = t.refuse("act Ana simple");
    assert_eq!(
        err,
        RuleError::OverTurnCap {
            who: "Ana".into(),
            turn: "their own".into(),
            spent: 4,
            cost: 2,
            total: 6,
            cap: 5
        }
    );
    t.run("act Ana free");
    assert!(matches!(
        t.refuse("act Ana free"),
        RuleError::OverTurnCap { .. }
    ));
    t.run("next");
    t.run("next");
    t.run("next");
    t.run("act Ana complex");
    assert_eq!(
        t.ip("Ana"),
        1,
        "the cap is per turn: a new turn may spend again"
    );
}

#[test]
fn not_enough_ip_says_have_and_need() {
    let mut t = Table::three();
    t.run("act Ana complex");
    assert_eq!(
        t.refuse("act Ana simple"),
        RuleError::NotEnoughIp {
            who: "Ana".into(),
            have: 1,
            need: 2
        }
    );
    assert_eq!(
        t.refuse("act Ana simple").to_string(),
        "Ana has not enough IP: has 1, needs 2"
    );
}

#[test]
fn only_the_current_actor_takes_non_interrupt_actions() {
    let mut t = Table::three();
    let err = t.refuse("act Bob simple");
    assert_eq!(
        err.to_string(),
        "it is not Bob's turn (it is Ana's turn); only Interrupt actions can be taken out of turn"
    );
}

#[test]
fn the_starting_pool_is_capped_at_ten_and_edge_goes_beyond() {
    let mut t = Table::new();
    t.run("add Sam int 5 rea 5 ip 8 edge 2");
    t.run("roll Sam hits 2");
    t.run("start");
    assert_eq!(t.ip("Sam"), 11, "4 + 8 capped at 10, then +1 for the turn");
    t.run("edge Sam");
    assert_eq!(
        t.ip("Sam"),
        15,
        "Edge IP do not count against the starting cap"
    );
    assert_eq!(t.c("Sam").edge_left, 1);
}

#[test]
fn edge_for_ip_once_a_round_and_only_with_edge_left() {
    let mut t = Table::three();
    t.run("edge Ana");
    assert_eq!(t.ip("Ana"), 9);
    assert_eq!(
        t.refuse("edge Ana"),
        RuleError::EdgeUsedThisRound {
            who: "Ana".into(),
            per_round: 1
        }
    );
    t.run("edge Bob"); // out of turn: Edge is gained "instantly"
    for _ in 0..15 {
        t.run("next");
    }
    assert_eq!(t.round_pass(), (2, 1));
    assert!(
        t.try_run("edge Bob", &[]).is_err(),
        "Bob's only Edge point is spent"
    );
    assert_eq!(
        t.refuse("edge Bob"),
        RuleError::NoEdgeLeft {
            who: "Bob".into(),
            have: 0,
            need: 1
        }
    );
    t.run("edge Ana");
    assert_eq!(t.c("Ana").edge_left, 1);
}

#[test]
fn a_fifth_pass_with_one_ip_left_affords_only_a_free_action() {
    let mut t = Table::new();
    t.run("add Solo int 3 rea 3");
    t.run("roll Solo hits 1");
    t.run("start");
    // Pass 1: 5 IP, spend 5. Each later pass: +1, spend it, until pass 5.
    t.run("act Solo complex");
    t.run("act Solo free");
    for _ in 0..3 {
        t.run("next");
        t.run("act Solo free");
    }
    t.run("next");
    assert_eq!(t.round_pass(), (1, 5));
    assert_eq!(t.ip("Solo"), 1);
    assert_eq!(
        t.refuse("act Solo simple"),
        RuleError::NotEnoughIp {
            who: "Solo".into(),
            have: 1,
            need: 2
        }
    );
    t.run("act Solo free");
    assert_eq!(t.ip("Solo"), 0);
    assert_eq!(
        t.refuse("act Solo free"),
        RuleError::NotEnoughIp {
            who: "Solo".into(),
            have: 0,
            need: 1
        }
    );
}

#[test]
fn interrupts_are_paid_from_the_pool_out_of_turn() {
    let mut t = Table::three();
    t.run("act Bob Dodge");
    assert_eq!(t.ip("Bob"), 2, "-5 Initiative costs 2 IP");
    t.run("act Cy Full Defense");
    assert_eq!(t.ip("Cy"), 0, "-10 Initiative costs 4 IP");
    assert_eq!(
        t.refuse("act Cy Dodge"),
        RuleError::NotEnoughIp {
            who: "Cy".into(),
            have: 0,
            need: 2
        }
    );
    t.run("down Bob");
    assert_eq!(
        t.refuse("act Bob Dodge"),
        RuleError::Downed { who: "Bob".into() }
    );
}

#[test]
fn one_who_joined_without_an_initiative_roll_takes_no_interrupt() {
    // Given a fight under way and Dee joining it without rolling initiative
    let mut t = Table::three();
    t.run("add Dee pc int 4 rea 5 edge 2");
    // When Dee dodges or goes on Full Defense
    // Then it is refused, naming the roll that is missing, and nothing changes
    for line in ["act Dee Dodge", "act Dee Full Defense"] {
        assert_eq!(
            t.refuse(line),
            RuleError::MissingInitiative {
                names: vec!["Dee".into()]
            }
        );
    }
    // and once rolled into the order, Dee may
    t.run("roll Dee hits 2");
    t.run("act Dee Dodge");
}

#[test]
fn one_who_joined_without_an_initiative_roll_buys_no_ip_with_edge() {
    // Given a fight under way and Dee joining it without rolling initiative
    let mut t = Table::three();
    t.run("add Dee pc int 4 rea 5 edge 2");
    // When Dee spends Edge for IP
    // Then it is refused, naming the roll that is missing, and Dee keeps the Edge
    assert_eq!(
        t.refuse("edge Dee"),
        RuleError::MissingInitiative {
            names: vec!["Dee".into()]
        }
    );
    assert_eq!(t.c("Dee").edge_left, 2);
    // and once rolled into the order, Dee may
    t.run("roll Dee hits 2");
    t.run("edge Dee");
    assert_eq!(t.c("Dee").edge_left, 1);
}

#[test]
fn an_interrupt_in_the_own_turn_counts_against_the_cap() {
    let mut t = Table::three();
    t.run("act Ana complex");
    t.run("edge Ana");
    assert!(matches!(
        t.refuse("act Ana Dodge"),
        RuleError::OverTurnCap { .. }
    ));
    t.run("next");
    t.run("act Ana Dodge"); // in Bob's turn: a new character turn, a new cap
    assert_eq!(t.ip("Ana"), 3);
}

#[test]
fn full_defense_lasts_until_the_end_of_the_round() {
    let mut t = Table::three();
    let events = t.run("act Bob Full Defense");
    assert!(events.iter().any(|e| matches!(e, Event::StatusStarted { status, .. } if status.name == "Full Defense" && status.end == StatusEnd::EndOfRound)));
    for _ in 0..14 {
        t.run("next");
        assert!(t.c("Bob").status("Full Defense").is_some());
    }
    t.run("next");
    assert_eq!(t.round_pass(), (2, 1));
    assert!(t.c("Bob").status("Full Defense").is_none());
}

#[test]
fn downed_characters_are_skipped_and_spend_nothing() {
    let mut t = Table::three();
    t.run("down Bob");
    t.run("next");
    assert_eq!(t.turn(), "Cy", "Bob's turn is skipped");
    assert_eq!(
        t.refuse("act Bob free"),
        RuleError::Downed { who: "Bob".into() }
    );
    assert_eq!(
        t.refuse("edge Bob"),
        RuleError::Downed { who: "Bob".into() }
    );
    t.run("up Bob");
    t.run("next");
    t.run("next");
    assert_eq!(t.turn(), "Bob");
}

#[test]
fn when_nobody_can_act_next_is_refused() {
    let mut t = Table::three();
    t.run("down Bob");
    t.run("down Cy");
    t.run("down Ana");
    assert_eq!(t.refuse("next"), RuleError::NoOneCanAct);
    t.run("up Cy");
    t.run("next");
    assert_eq!(t.turn(), "Cy");
}

#[test]
fn the_encounter_ends_and_refuses_more_until_undone() {
    let mut t = Table::three();
    t.run("end");
    assert_eq!(t.refuse("next"), RuleError::Ended);
    t.run("undo");
    t.run("next");
    assert_eq!(t.turn(), "Bob");
}

#[test]
fn a_because_with_no_reason_after_it_is_refused_and_nobody_leaves() {
    let mut t = Table::three();
    for line in [
        "remove Ana because",
        "remove Ana because  ",
        "remove Ana because \"\"",
    ] {
        let err = t.unread(line);
        assert!(
            err.ends_with(
                "expected the reason after `because` (a few words, or no `because` for none)"
            ),
            "{line}: {err}"
        );
    }
    assert_eq!(t.order(), ["Ana", "Bob", "Cy"]);
    // With no `because`, or a reason, she leaves
    t.run("remove Ana");
    assert_eq!(t.order(), ["Bob", "Cy"]);
}

#[test]
fn a_removed_combatant_leaves_the_order_but_not_the_log() {
    let mut t = Table::three();
    t.run("remove Ana because fled");
    assert_eq!(t.order(), ["Bob", "Cy"]);
    assert_eq!(t.turn(), "Bob", "removing the actor ends its turn");
    let log = srtrack::report::log_lines(&t.enc);
    assert!(log.iter().any(|(_, l)| l == "Ana leaves the fight (fled)"));
    assert!(log.iter().any(|(_, l)| l.starts_with("Ana initiative")));
    for _ in 0..2 {
        t.run("next");
    }
    assert_eq!((t.round_pass(), t.turn()), ((1, 2), "Bob".to_string()));
}

// The IP cap of a character turn (initiative-passes-and-ip.txt): no more than 5 spent in one.
// DESIGN.md: the cap "counts everything a character spends within one character turn, whoever's
// turn it is: its own actions, its interrupts, a fired ready, and its delay sub-turn".

#[test]
fn out_of_turn_interrupts_count_against_the_cap_of_the_turn_they_are_taken_in() {
    let mut t = Table::three();
    t.run("next"); // Bob's turn
    t.run("edge Ana"); // 5 + 4 IP
    t.run("act Ana Intercept");
    t.run("act Ana Intercept");
    let err = t.refuse("act Ana Intercept");
    assert_eq!(
        err.to_string(),
        "Ana would spend 6 IP in Bob's turn, over the cap of 5 IP a character turn (already spent 4 IP in it, this costs 2)"
    );
    assert_eq!(t.state().spent_in_turn(t.c("Ana").id), 4);
    t.run("next"); // Cy's turn: a new character turn
    t.run("act Ana Intercept");
    assert_eq!(t.state().spent_in_turn(t.c("Ana").id), 2);
}

#[test]
fn a_ready_fired_in_the_holders_own_turn_counts_against_that_turns_cap() {
    let mut t = Table::three();
    t.run("ready Ana 3 when the door opens do simple"); // 2 IP left in the pool
    t.run("edge Ana"); // 6
    t.run("act Ana complex"); // 4 spent in Ana's turn
    assert!(matches!(
        t.refuse("fire Ana"),
        RuleError::OverTurnCap {
            spent: 4,
            cost: 2,
            total: 6,
            ..
        }
    ));
}

#[test]
fn an_interrupt_in_a_delay_sub_turn_counts_with_what_the_sub_turn_spent() {
    // A delay sub-turn stays under the cap of 5 IP a character turn, and what it spends
    // belongs to the trigger character's turn.
    let mut t = Table::three();
    t.run("delay Ana 5 after Cy");
    t.run("next");
    t.run("next");
    t.run("next"); // Cy's turn ends: Ana's sub-turn
    t.run("act Ana complex");
    t.run("act Ana free"); // 5 IP spent in Cy's turn
    t.run("edge Ana");
    let err = t.refuse("act Ana Dodge");
    assert!(
        matches!(
            &err,
            RuleError::OverTurnCap { turn, spent: 5, total: 7, .. } if turn == "Cy's"
        ),
        "{err}"
    );
}

#[test]
fn an_interrupt_in_the_triggers_turn_and_the_delay_sub_turn_after_it_share_one_cap() {
    let mut t = Table::three();
    t.run("edge Ana"); // 9 IP
    t.run("delay Ana 4 after Bob"); // 5 in the pool
    t.run("next"); // Bob's turn
    t.run("act Ana Dodge"); // 2 IP in Bob's turn, out of turn
    t.run("next"); // Bob's turn ends: Ana's sub-turn, part of Bob's turn
    let err = t.refuse("act Ana complex");
    assert_eq!(
        err.to_string(),
        "Ana would spend 6 IP in Bob's turn, over the cap of 5 IP a character turn (already spent 2 IP in it, this costs 4)"
    );
    t.run("act Ana simple");
    t.run("act Ana free");
}

#[test]
fn show_tells_what_the_actor_and_others_spent_in_the_turn_under_way() {
    let mut t = Table::three();
    t.run("next"); // Bob's turn
    t.run("act Bob simple");
    t.run("act Ana Dodge");
    let page = srtrack::report::show(&t.enc, 5);
    assert!(page.contains("spent 2/5 this turn"), "{page}");
    assert!(
        page.lines()
            .any(|l| l.starts_with("  Ana:") && l.ends_with("; spent 2 IP in Bob's turn")),
        "{page}"
    );
}

#[test]
fn an_edit_of_the_ip_bonus_before_the_fight_shows_the_pool_it_starts_with() {
    // Given Ana with no IP bonus, before the fight: the starting pool of 4
    let mut t = Table::new();
    t.run("add Ana pc int 4 rea 5");
    t.run("add Bob pc int 3 rea 3");
    assert_eq!(t.ip("Ana"), 4);
    // When the GM edits her IP bonus to 2, then the pool shown is the one she starts with
    t.run("edit Ana ip 2");
    assert_eq!(t.ip("Ana"), 6);
    // and an edit of something else keeps it
    t.run("edit Ana edge 2");
    assert_eq!(t.ip("Ana"), 6);
    // and the fight starts her from it (+1 at her first turn)
    t.run("roll Ana hits 3");
    t.run("roll Bob hits 1");
    t.run("start");
    assert_eq!(t.ip("Ana"), 7);
    // When the bonus is edited in the fight, then the pool of this round stays
    t.run("edit Ana ip 0");
    assert_eq!(t.ip("Ana"), 7);
}
