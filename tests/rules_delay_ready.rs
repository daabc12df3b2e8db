//! Given/when/then for delays, ready actions and changing initiative
//! (initiative-passes-and-ip.txt, "Delaying Actions", "Changing Initiative"; DESIGN.md rulings).

mod common;
use common::Table;
use srtrack::encounter::{Event, PaidFrom, PassMark, Release, RuleError, TurnKind};

fn kind(t: &Table) -> TurnKind {
    t.state().turn().unwrap().kind
}

#[test]
fn a_delay_reserves_ip_and_spends_them_at_the_end_of_the_trigger_characters_turn() {
    let mut t = Table::three();
    t.run("delay Ana 3 after Cy");
    assert_eq!(
        (t.ip("Ana"), t.c("Ana").delay()),
        (2, Some((3, Some(t.c("Cy").id))))
    );
    assert!(
        matches!(
            t.refuse("act Ana complex"),
            RuleError::NotEnoughIp { have: 2, .. }
        ),
        "reserved IP cannot be spent in the turn"
    );
    t.run("next");
    t.run("next");
    assert_eq!(t.turn(), "Cy");
    t.run("act Cy simple");
    t.run("next");
    assert_eq!(t.turn(), "Ana");
    assert_eq!(
        kind(&t),
        TurnKind::Delayed {
            trigger: t.c("Cy").id
        }
    );
    t.run("act Ana simple");
    assert_eq!(t.c("Ana").delay().map(|d| d.0), Some(1));
    // The pool holds 2 IP, but a delayed turn spends only what is left of the delay: said so.
    let err = t.refuse("act Ana simple");
    assert!(
        matches!(
            err,
            RuleError::NotEnoughHeld {
                have: 1,
                need: 2,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("Ana has 1 IP left of the delay, and this needs 2: a delayed turn spends only the IP held back"),
        "{err}"
    );
    let events = t.run("next");
    assert!(events.contains(&Event::ReserveReleased {
        who: t.c("Ana").id,
        returned: 1,
        why: Release::SubTurnEnded
    }));
    assert_eq!(
        t.ip("Ana"),
        3 + 1,
        "the unspent reserve is back, then +1 for Ana's pass-2 turn"
    );
    assert_eq!((t.round_pass(), t.turn()), ((1, 2), "Ana".to_string()));
}

/// In a delay's turn only the IP held are spent: `show` says those, not the pool.
#[test]
fn show_gives_the_ip_held_in_a_delay_turn() {
    let mut t = Table::three();
    t.run("delay Ana 3 after Cy");
    t.run("next");
    t.run("next");
    t.run("next");
    assert_eq!(t.turn(), "Ana");
    let shown = srtrack::report::show(&t.enc, 0);
    assert!(
        shown.contains(": Ana's turn (delay after Cy), 3 IP held (2 in the pool), spent 0/"),
        "{shown}"
    );
    t.run("act Ana simple");
    let shown = srtrack::report::show(&t.enc, 0);
    assert!(
        shown.contains(": Ana's turn (delay after Cy), 1 IP held (2 in the pool), spent 2/"),
        "{shown}"
    );
}

/// Standard Delay: the held IP pay for any action the character can afford with them, and an
/// interrupt is an action: in the sub-turn Dodge is paid from the delay, as a Simple action is.
#[test]
fn an_interrupt_in_the_delay_sub_turn_is_paid_from_the_held_ip() {
    // Given Ana holds 4 IP after Cy, 1 left in her pool, and her sub-turn has come
    let mut t = Table::three();
    t.run("delay Ana 4 after Cy");
    t.run("next");
    t.run("next");
    t.run("next");
    assert_eq!((t.turn(), t.ip("Ana")), ("Ana".to_string(), 1));
    // When she dodges
    let events = t.run("act Ana Dodge");
    // Then the delay pays its 2 IP, the pool keeps its 1, and the log says the reserve paid
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::ActionSpent {
                paid_from: PaidFrom::Reserve,
                ..
            }
        )),
        "{events:?}"
    );
    assert_eq!((t.c("Ana").delay().map(|d| d.0), t.ip("Ana")), (Some(2), 1));
    assert_eq!(t.last_lines(), ["Ana (reserve): Dodge (Interrupt, 2 IP)"]);
    // And Full Defense (4 IP), which neither the 2 held nor the pool's 1 cover, says both
    let err = t.refuse("act Ana Full Defense");
    assert_eq!(
        err.to_string(),
        "Ana has 2 IP left of the delay and 1 in the pool, and this interrupt needs 4: one or the other pays it, not both together"
    );
}

/// An interrupt may still come out of the pool in the sub-turn when the held IP fall short.
#[test]
fn an_interrupt_the_held_ip_cannot_pay_comes_out_of_the_pool_in_the_sub_turn() {
    let mut t = Table::three();
    t.run("delay Ana 1 after Cy");
    t.run("next");
    t.run("next");
    t.run("next");
    t.run("act Ana Dodge");
    assert_eq!((t.c("Ana").delay().map(|d| d.0), t.ip("Ana")), (Some(1), 2));
}

#[test]
fn a_delay_is_capped_by_the_ip_at_hand_and_the_per_turn_cap() {
    let mut t = Table::three();
    t.run("edge Ana");
    assert_eq!(
        t.refuse("delay Ana 6 after Cy"),
        RuleError::DelayTooLarge { ip: 6, cap: 5 }
    );
    assert_eq!(t.refuse("delay Ana 0 after Cy"), RuleError::ReserveTooSmall);
    t.run("act Ana complex");
    t.run("delay Ana 5 after Cy"); // 9 - 4 = 5 left: all of it may be held back
    assert_eq!(t.ip("Ana"), 0);
    t.run("undo");
    t.run("next");
    assert!(matches!(
        t.refuse("delay Ana 1 after Cy"),
        RuleError::NotOwnTurn { .. }
    ));
}

#[test]
fn the_trigger_must_still_have_its_turn_in_this_pass() {
    let mut t = Table::three();
    t.run("next");
    assert!(matches!(
        t.refuse("delay Bob 2 after Ana"),
        RuleError::TriggerGone { .. }
    ));
    assert!(matches!(
        t.refuse("delay Bob 2 after Bob"),
        RuleError::TriggerIsSelf { .. }
    ));
    t.run("delay Bob 2 after Cy");
}

#[test]
fn a_trigger_named_later_before_its_turn_ends() {
    let mut t = Table::three();
    t.run("delay Ana 2");
    assert_eq!(t.c("Ana").delay(), Some((2, None)));
    t.run("next");
    t.run("next");
    t.run("delay Ana after Cy"); // Cy is acting now: its turn has not ended
    t.run("next");
    assert_eq!(
        (t.turn(), kind(&t)),
        (
            "Ana".to_string(),
            TurnKind::Delayed {
                trigger: t.c("Cy").id
            }
        )
    );
}

#[test]
fn a_delay_never_triggered_lapses_with_the_pass_and_the_ip_come_back() {
    let mut t = Table::three();
    t.run("delay Ana 2");
    t.run("next");
    t.run("next");
    let events = t.run("next");
    assert!(events.contains(&Event::ReserveReleased {
        who: t.c("Ana").id,
        returned: 2,
        why: Release::PassEnded
    }));
    assert_eq!(t.ip("Ana"), 3 + 2 + 1);
}

#[test]
fn a_delay_whose_trigger_is_downed_comes_where_its_turn_would_have_ended() {
    let mut t = Table::three();
    t.run("delay Ana 2 after Bob");
    t.run("down Bob");
    t.run("next");
    assert_eq!(t.turn(), "Ana");
    assert_eq!(
        kind(&t),
        TurnKind::Delayed {
            trigger: t.c("Bob").id
        }
    );
    t.run("next");
    assert_eq!(t.turn(), "Cy");
}

#[test]
fn a_delay_whose_trigger_is_removed_comes_at_its_slot() {
    let mut t = Table::three();
    t.run("delay Ana 2 after Bob");
    t.run("remove Bob");
    t.run("next");
    let bob = t.state().all().find(|c| c.name == "Bob").unwrap().id;
    assert_eq!(
        (t.turn(), kind(&t)),
        ("Ana".to_string(), TurnKind::Delayed { trigger: bob })
    );
    t.run("next");
    assert_eq!(t.turn(), "Cy");
}

#[test]
fn a_downed_delayer_loses_the_delay_and_gets_the_ip_back() {
    let mut t = Table::three();
    t.run("delay Ana 2 after Cy");
    let events = t.run("down Ana");
    assert!(events.contains(&Event::ReserveReleased {
        who: t.c("Ana").id,
        returned: 2,
        why: Release::Downed
    }));
    assert_eq!(t.c("Ana").reserve, None);
    assert_eq!(t.turn(), "Bob", "Downed in her turn, Ana's turn ended");
    t.run("next");
    assert_eq!(t.turn(), "Cy");
    t.run("next");
    assert_eq!(
        (t.round_pass(), t.turn()),
        ((1, 2), "Bob".to_string()),
        "no sub-turn after Cy; Ana skipped"
    );
}

/// The log names the reserve that lapsed when its holder goes down or leaves: a delay or a ready.
#[test]
fn the_lapse_of_a_downed_or_removed_holder_says_whether_a_delay_or_a_ready_lapsed() {
    for (holds, then, said) in [
        (
            "delay Ana 2 after Cy",
            "down Ana",
            "Ana's delay lapses (Downed): 2 IP back",
        ),
        (
            "ready Ana 3 when the door opens do free",
            "down Ana",
            "Ana's ready lapses (Downed): 3 IP back",
        ),
        (
            "ready Ana 3 when the door opens do free",
            "remove Ana",
            "Ana's ready lapses (removed)",
        ),
    ] {
        // Given Ana holds a delay or a ready
        let mut t = Table::three();
        t.run(holds);
        // When she goes down or leaves
        t.run(then);
        // Then the log says which of the two lapsed
        let lines = t.last_lines();
        assert!(lines.contains(&said.to_string()), "{holds}: {lines:?}");
    }
}

#[test]
fn a_ready_reserves_up_to_three_ip_for_several_triggers_and_one_fires() {
    let mut t = Table::three();
    assert_eq!(
        t.refuse("ready Ana 4 when the door opens do simple"),
        RuleError::ReadyReserve { ip: 4, cap: 3 }
    );
    t.run("ready Ana 3 when the door opens do Fire Gun");
    t.run("ready Ana when a guard shouts do free, simple");
    assert!(matches!(
        t.refuse("ready Ana when x do complex"),
        RuleError::ReadyTooCostly {
            cost: 4,
            reserve: 3
        }
    ));
    assert_eq!(t.ip("Ana"), 2);
    t.run("next");
    let events = t.run("fire Ana 2 before");
    assert!(events.iter().any(
        |e| matches!(e, Event::ReadyFired { trigger, .. } if trigger.text == "a guard shouts")
    ));
    assert_eq!(t.c("Ana").reserve, None, "the other trigger lapses");
    assert_eq!(t.ip("Ana"), 2, "3 reserved, 3 spent");
    assert!(matches!(t.refuse("fire Ana 1"), RuleError::NoReady { .. }));
}

#[test]
fn firing_a_trigger_past_those_held_names_the_range_and_never_a_number_nobody_typed() {
    // Given Ana holding two ready triggers
    let mut t = Table::three();
    t.run("ready Ana 3 when the door opens do Fire Gun");
    t.run("ready Ana when a guard shouts do free, simple");
    // When the GM fires a third, or one past every number srtrack keeps
    // Then one sentence gives the triggers there are, the huge one told as typed
    assert_eq!(
        t.refuse("fire Ana 3").to_string(),
        "Ana has no ready trigger 3: allowed 1 to 2"
    );
    assert_eq!(
        t.refuse("fire Ana 18446744073709551615").to_string(),
        "Ana has no ready trigger 2147483647 or more: allowed 1 to 2"
    );
}

/// Every view writes `when` before the trigger: one the GM types with its own `when` is kept
/// without it, so nothing shows "when when".
#[test]
fn a_trigger_typed_with_its_when_is_kept_without_it() {
    let mut t = Table::three();
    let events = t.run("ready Ana 3 when When the door opens do free");
    assert!(events.iter().any(
        |e| matches!(e, Event::ReadyDeclared { trigger, .. } if trigger.text == "the door opens")
    ));
    let log = t.last_lines().join("\n");
    assert!(log.contains("when the door opens"), "{log}");
    assert!(!log.to_lowercase().contains("when when"), "{log}");
    let entry = &t.enc.history()[t.enc.history().len() - 1].text;
    assert!(
        entry.starts_with("ready Ana 3 when the door opens do "),
        "{entry}"
    );
    // Only the whole word: "whenever" is the trigger's own.
    let mut t = Table::three();
    let events = t.run("ready Ana 3 when whenever a guard shouts do free");
    assert!(events.iter().any(
        |e| matches!(e, Event::ReadyDeclared { trigger, .. } if trigger.text == "whenever a guard shouts")
    ));
}

#[test]
fn a_fired_ready_returns_what_its_actions_did_not_cost() {
    let mut t = Table::three();
    t.run("ready Ana 3 when the door opens do free");
    t.run("next");
    t.run("fire Ana");
    assert_eq!(t.ip("Ana"), 2 + 2);
}

#[test]
fn an_unfired_ready_lapses_at_the_start_of_the_next_own_turn_with_the_ip_back() {
    let mut t = Table::three();
    t.run("ready Ana 3 when the door opens do simple");
    t.run("next");
    t.run("next");
    let events = t.run("next");
    assert!(events.contains(&Event::ReserveReleased {
        who: t.c("Ana").id,
        returned: 3,
        why: Release::NextTurn
    }));
    assert_eq!(t.ip("Ana"), 2 + 3 + 1);
}

#[test]
fn changing_initiative_to_before_a_character_who_already_acted_loses_the_turn() {
    let mut t = Table::three();
    t.run("next"); // Bob
    let events = t.run("move Bob before Ana");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::InitiativeChanged {
            skipped: srtrack::encounter::Skipped::Lost,
            ..
        }
    )));
    assert_eq!(t.order(), ["Bob", "Ana", "Cy"]);
    assert_eq!(t.c("Bob").mark, PassMark::Lost);
    assert_eq!(t.turn(), "Cy");
    t.run("next");
    assert_eq!(
        (t.round_pass(), t.turn()),
        ((1, 2), "Bob".to_string()),
        "acts from its new place next pass"
    );
    assert_eq!(t.ip("Bob"), 6, "the lost turn's IP was gained and kept");
    for _ in 0..13 {
        t.run("next");
    }
    assert_eq!(t.round_pass(), (2, 1));
    assert_eq!(
        t.order(),
        ["Bob", "Ana", "Cy"],
        "the new place holds for the encounter"
    );
    let why = t.state().explain_order(t.c("Ana").id, t.c("Bob").id);
    assert!(
        why.starts_with(
            "Bob stands before Ana: Bob changed initiative to before Ana in round 1, pass 1"
        ),
        "{why}"
    );
}

#[test]
fn changing_initiative_to_after_a_character_still_to_act_takes_the_turn_there_without_more_ip() {
    let mut t = Table::three();
    let ip = t.ip("Ana");
    t.run("move Ana after Cy");
    assert_eq!(t.turn(), "Bob");
    t.run("next");
    t.run("next");
    assert_eq!((t.turn(), kind(&t)), ("Ana".to_string(), TurnKind::Resumed));
    assert_eq!(
        t.order(),
        ["Bob", "Cy", "Ana"],
        "the place changes when the turn is taken"
    );
    assert_eq!(t.ip("Ana"), ip, "no second IP for the skipped turn");
    t.run("act Ana complex");
    t.run("next");
    assert_eq!((t.round_pass(), t.turn()), ((1, 2), "Bob".to_string()));
}

#[test]
fn changing_initiative_to_before_a_character_still_to_act() {
    let mut t = Table::three();
    t.run("move Ana before Cy");
    assert_eq!(t.turn(), "Bob");
    t.run("next");
    assert_eq!((t.turn(), kind(&t)), ("Ana".to_string(), TurnKind::Resumed));
    assert_eq!(
        t.order(),
        ["Bob", "Ana", "Cy"],
        "the place changes when the turn is taken"
    );
    t.run("next");
    assert_eq!(t.turn(), "Cy");
}

#[test]
fn changing_initiative_only_at_the_start_of_the_own_turn_and_not_when_downed() {
    let mut t = Table::three();
    t.run("act Ana free");
    assert!(matches!(
        t.refuse("move Ana after Cy"),
        RuleError::ChangeNotAtStart { .. }
    ));
    assert!(matches!(
        t.refuse("move Bob after Cy"),
        RuleError::ChangeNotAtStart { .. }
    ));
    t.run("next");
    t.run("down Bob");
    assert_eq!(
        t.refuse("move Bob after Cy"),
        RuleError::Downed { who: "Bob".into() }
    );
}

#[test]
fn a_delay_waiting_on_a_character_who_moves_comes_when_its_turn_ends() {
    let mut t = Table::three();
    t.run("delay Ana 2 after Bob");
    t.run("next");
    t.run("move Bob after Cy"); // Bob's turn is deferred, the delay waits for it
    assert_eq!(t.turn(), "Cy");
    t.run("next");
    assert_eq!(t.turn(), "Bob");
    t.run("next");
    assert_eq!(
        (t.turn(), kind(&t)),
        (
            "Ana".to_string(),
            TurnKind::Delayed {
                trigger: t.c("Bob").id
            }
        )
    );
}

/// Cy, last in the order, holds a ready declared in the round's last pass.
fn ready_in_pass_five() -> Table {
    ready_in_pass_five_as("ready Cy 2 when a door opens do simple")
}

/// Cy readies with `line` in round 1, pass 5; round 2 begins with Ana's turn.
fn ready_in_pass_five_as(line: &str) -> Table {
    let mut t = Table::three();
    for _ in 0..14 {
        t.run("next");
    }
    assert_eq!((t.round_pass(), t.turn()), ((1, 5), "Cy".to_string()));
    t.run(line);
    t.run("next");
    assert_eq!((t.round_pass(), t.turn()), ((2, 1), "Ana".to_string()));
    t
}

// A ready's declared actions are taken when its trigger comes before the holder's next turn, and
// a trigger that never comes costs none of the reserved IP.

#[test]
fn a_ready_declared_in_the_last_pass_survives_the_rounds_reset_and_fires_in_the_next() {
    let mut t = ready_in_pass_five();
    assert_eq!(
        t.c("Cy")
            .reserve
            .as_ref()
            .map(srtrack::encounter::Reserve::ip),
        Some(2)
    );
    assert_eq!(
        t.ip("Cy"),
        4,
        "the pool is reset; the reserve is kept apart"
    );
    t.run("fire Cy");
    assert_eq!(t.ip("Cy"), 4, "paid from the reserve");
    assert!(t.c("Cy").reserve.is_none());
}

#[test]
fn a_ready_unfired_until_the_next_turn_of_a_new_round_is_lost_with_the_old_rounds_ip() {
    let mut t = ready_in_pass_five();
    t.run("next");
    let events = t.run("next"); // Cy's turn in round 2
    assert!(events.contains(&Event::ReserveReleased {
        who: t.c("Cy").id,
        returned: 0,
        why: Release::NextTurnNewRound
    }));
    assert_eq!(t.ip("Cy"), 4 + 1);
}

// Each new Combat Round puts the available IP back to the starting pool, and what the old round
// left unspent is gone: a ready from the old round
// brings none of them into the new pool, whether it lapses, fires or its holder goes down.

/// Cy's ready of 3 IP for a free action (1 IP), declared in round 1, pass 5.
fn ready_of_three_in_pass_five() -> Table {
    ready_in_pass_five_as("ready Cy 3 when a door opens do free")
}

#[test]
fn a_ready_from_the_old_round_that_fires_gives_back_none_of_its_ip() {
    let mut t = ready_of_three_in_pass_five();
    let pool = t.ip("Cy");
    let events = t.run("fire Cy");
    assert!(events.contains(&Event::ReserveReleased {
        who: t.c("Cy").id,
        returned: 0,
        why: Release::FiredNewRound
    }));
    assert_eq!(t.ip("Cy"), pool, "the 2 IP left over were round 1's");
    assert!(t.c("Cy").reserve.is_none());
}

#[test]
fn a_ready_from_the_old_round_that_costs_all_it_held_tells_of_no_rest_lost() {
    // Given Cy's ready of 2 IP for a simple action (2 IP), declared in round 1, pass 5
    let mut t = ready_in_pass_five();
    // When it fires in round 2
    t.run("fire Cy");
    // Then nothing was left over to lose, and the log says nothing of a rest
    let lines = t.last_lines().join("\n");
    assert!(!lines.contains("rest of its IP"), "{lines}");
    assert!(t.c("Cy").reserve.is_none());
}

#[test]
fn a_ready_from_the_old_round_whose_holder_goes_down_gives_back_none_of_its_ip() {
    let mut t = ready_of_three_in_pass_five();
    let pool = t.ip("Cy");
    let events = t.run("down Cy");
    assert!(events.contains(&Event::ReserveReleased {
        who: t.c("Cy").id,
        returned: 0,
        why: Release::DownedNewRound
    }));
    assert_eq!(t.ip("Cy"), pool);
}

#[test]
fn a_ready_fired_in_the_round_it_was_declared_gives_back_what_its_actions_did_not_cost() {
    let mut t = Table::three();
    t.run("ready Ana 3 when a door opens do free");
    let pool = t.ip("Ana");
    let events = t.run("fire Ana");
    assert!(events.contains(&Event::ReserveReleased {
        who: t.c("Ana").id,
        returned: 2,
        why: Release::Fired
    }));
    assert_eq!(t.ip("Ana"), pool + 2);
}

// Changing initiative: the skipped turn comes when the chosen character's turn begins or ends,
// as chosen, and the one who skipped keeps that new place in the order.

/// A, B, C, D in that order, fight started.
fn four() -> Table {
    let mut t = Table::new();
    for (name, hits) in [("A", 4), ("B", 3), ("C", 2), ("D", 1)] {
        t.run(&format!("add {name} pc int 4 rea 4 edge 1 body 4 will 4"));
        t.run(&format!("roll {name} hits {hits}"));
    }
    t.run("start");
    t
}

/// The turns of the rest of the pass, by name.
fn rest_of_pass(t: &mut Table) -> Vec<String> {
    let pass = t.round_pass();
    let mut turns = vec![t.turn()];
    loop {
        t.run("next");
        if t.round_pass() != pass {
            return turns;
        }
        turns.push(t.turn());
    }
}

#[test]
fn a_skipped_turn_waits_for_the_chosen_characters_real_turn_when_it_moves_too() {
    let mut t = four();
    t.run("move A after B");
    assert_eq!(t.turn(), "B");
    t.run("move B after C");
    let (a, b) = (t.c("A").id, t.c("B").id);
    assert!(
        t.state()
            .explain_order(a, b)
            .contains("A skipped its turn to take it after B's, and moves there then"),
        "{}",
        t.state().explain_order(a, b)
    );
    assert_eq!(rest_of_pass(&mut t), ["C", "B", "A", "D"]);
    assert_eq!(t.order(), ["C", "B", "A", "D"], "A follows B");
    assert!(
        t.state()
            .explain_order(a, b)
            .starts_with("B stands before A: B changed initiative to after C"),
        "{}",
        t.state().explain_order(a, b)
    );
    assert_eq!(rest_of_pass(&mut t), ["C", "B", "A", "D"]);
}

#[test]
fn the_same_holds_when_the_chosen_character_moves_before_another() {
    let mut t = four();
    t.run("move A after B");
    t.run("move B before D");
    assert_eq!(rest_of_pass(&mut t), ["C", "B", "A", "D"]);
    assert_eq!(t.order(), ["C", "B", "A", "D"]);
}

#[test]
fn and_for_longer_chains() {
    let mut t = four();
    t.run("move A after B");
    t.run("move B after C");
    t.run("move C after D");
    assert_eq!(rest_of_pass(&mut t), ["D", "C", "B", "A"]);
    assert_eq!(t.order(), ["D", "C", "B", "A"]);
}

#[test]
fn a_downed_link_of_the_chain_gives_the_turn_at_its_slot() {
    let mut t = four();
    t.run("move A after B");
    t.run("down C");
    t.run("move B after C");
    assert_eq!(rest_of_pass(&mut t), ["B", "A", "D"]);
    assert_eq!(t.order(), ["C", "B", "A", "D"]);
}

/// README: "A Downed or removed chosen character gives the turn at its slot", so too when its
/// own skipped turn still waits: it leaves, and its slot still comes where it would have.
#[test]
fn a_removed_link_of_the_chain_gives_the_turn_at_its_slot() {
    // Given A waits for B's turn, and B, in its turn, moved after C
    let mut t = four();
    t.run("move A after B");
    t.run("move B after C");
    assert_eq!(t.turn(), "C");
    // When B leaves the fight during C's turn
    t.run("remove B");
    // Then A's turn comes where B's would have, right after C's, as if B had been Downed
    assert_eq!(rest_of_pass(&mut t), ["C", "A", "D"]);
    assert_eq!(t.order(), ["C", "A", "D"], "A follows B's slot, after C");
    assert_eq!(rest_of_pass(&mut t), ["C", "A", "D"]);
    // And `why` says A chose a place after one who has since left
    let (a, c) = (t.c("A").id, t.c("C").id);
    let why = t.state().explain_order(a, c);
    assert!(
        why.starts_with("C stands before A: A changed initiative to after B (who has since left the fight) in round 1, pass 1"),
        "{why}"
    );
}

#[test]
fn a_delay_on_a_removed_link_of_the_chain_comes_at_its_slot() {
    // Given A delays after B, and B, in its turn, moved after C
    let mut t = four();
    t.run("delay A 2 after B");
    t.run("next");
    t.run("move B after C");
    // When B leaves the fight during C's turn, and C's turn ends
    t.run("remove B");
    t.run("next");
    // Then A's sub-turn comes at B's slot, after C's turn, and the log says the slot passed
    let b = t.state().all().find(|c| c.name == "B").unwrap().id;
    assert_eq!(
        (t.turn(), kind(&t)),
        ("A".to_string(), TurnKind::Delayed { trigger: b })
    );
    let lines = t.last_lines();
    assert!(
        lines.contains(&"B's slot moves after C (removed)".to_string())
            && lines.contains(&"B's slot passes (removed)".to_string()),
        "{lines:?}"
    );
    t.run("next");
    assert_eq!(t.turn(), "D");
}

/// README, "Lasting effects": a turn moved after or before another is the same turn taken
/// later: what ends with it ends then.
#[test]
fn a_status_until_the_end_of_a_moved_turn_ends_when_that_turn_is_taken() {
    // Given, in Ana's turn, Cy pinned until the end of this turn
    let mut t = Table::three();
    t.run("status Cy pinned until turn");
    // When Ana moves after Bob
    t.run("move Ana after Bob");
    // Then Cy is still pinned through Bob's turn, and it ends when Ana's turn taken later ends
    assert_eq!(t.turn(), "Bob");
    assert!(t.c("Cy").status("pinned").is_some());
    t.run("next");
    assert_eq!((t.turn(), kind(&t)), ("Ana".to_string(), TurnKind::Resumed));
    assert!(t.c("Cy").status("pinned").is_some());
    t.run("next");
    assert!(t.c("Cy").status("pinned").is_none());
    assert!(
        t.last_lines()
            .contains(&"Cy: pinned ends (the turn ended)".to_string()),
        "{:?}",
        t.last_lines()
    );
}

#[test]
fn a_status_until_the_next_turn_set_in_a_turn_then_moved_lasts_to_the_turn_after_it() {
    // Given, in Ana's turn, Ana dazed until the end of her next turn
    let mut t = Table::three();
    t.run("status Ana dazed until next");
    // When Ana moves after Bob and takes her turn there
    t.run("move Ana after Bob");
    t.run("next");
    assert_eq!((t.turn(), kind(&t)), ("Ana".to_string(), TurnKind::Resumed));
    t.run("next");
    // Then that was the same turn, taken later: she is dazed until her turn of pass 2 ends
    assert!(t.c("Ana").status("dazed").is_some());
    while t.round_pass() == (1, 1) || t.turn() != "Ana" {
        t.run("next");
    }
    assert_eq!(t.round_pass(), (1, 2));
    assert!(t.c("Ana").status("dazed").is_some());
    t.run("next");
    assert!(t.c("Ana").status("dazed").is_none());
}

/// A moved turn that is never taken (its holder Downed before it comes) ends what ends with it
/// at its slot.
#[test]
fn a_status_until_the_end_of_a_moved_turn_ends_at_its_slot_when_its_holder_is_downed() {
    let mut t = Table::three();
    t.run("status Cy pinned until turn");
    t.run("move Ana after Bob");
    t.run("down Ana");
    assert!(t.c("Cy").status("pinned").is_some());
    t.run("next");
    assert_eq!(t.turn(), "Cy");
    assert!(t.c("Cy").status("pinned").is_none());
}

/// Ana, Bob and Cy; in Bob's turn Dee joins with 5 hits, before Ana: her slot has gone by.
fn dee_joined_in_bobs_turn() -> Table {
    let mut t = Table::three();
    t.run("next");
    t.run("add Dee int 3 rea 3");
    t.run("roll Dee hits 5");
    assert_eq!(t.c("Dee").mark, PassMark::Joined);
    t
}

/// README ruling: a skipped turn whose chosen character has no turn left in the pass is taken
/// at the pass's end; a newcomer who joined with its slot gone by has none.
#[test]
fn changing_initiative_to_after_a_newcomer_of_this_pass_takes_the_turn_at_the_passs_end() {
    // Given Dee joined in Bob's turn with a slot gone by (before Ana): she acts from pass 2
    let mut t = dee_joined_in_bobs_turn();
    // When Bob moves after Dee
    t.run("move Bob after Dee");
    assert!(
        t.last_lines().contains(
            &"Bob changes initiative to after Dee: skips the turn, taken at the pass's end (Dee joined this pass)"
                .to_string()
        ),
        "{:?}",
        t.last_lines()
    );
    // Then Cy acts, and Bob takes the skipped turn at the pass's end, at his new place
    assert_eq!(t.turn(), "Cy");
    t.run("next");
    assert_eq!((t.turn(), kind(&t)), ("Bob".to_string(), TurnKind::Resumed));
    assert_eq!(t.order(), ["Dee", "Bob", "Ana", "Cy"]);
    t.run("next");
    assert_eq!((t.round_pass(), t.turn()), ((1, 2), "Dee".to_string()));
}

#[test]
fn a_newcomer_of_this_pass_is_refused_as_a_delays_trigger_saying_it_acts_from_the_next() {
    // Given Dee joined in Bob's turn with a slot gone by
    let mut t = dee_joined_in_bobs_turn();
    // When Bob delays after Dee, then it is refused for the true reason
    assert_eq!(
        t.refuse("delay Bob 2 after Dee").to_string(),
        "Dee joined this pass and acts from the next: name a character still to act, or acting now"
    );
}

#[test]
fn two_characters_cannot_each_wait_for_the_other() {
    let mut t = four();
    t.run("move A after B");
    assert_eq!(
        t.refuse("move B after A").to_string(),
        "B cannot move relative to A: A's skipped turn waits for B's turn, so neither would come"
    );
}

// One trigger answered at most between two of the holder's turns: a ready that fired
// in the turn it was declared was that response; another ready waits for the next turn.

#[test]
fn a_ready_that_fired_in_its_own_turn_bars_a_second_ready_until_the_next_turn() {
    let mut t = Table::three();
    t.run("ready Ana 2 when the door opens do simple");
    t.run("fire Ana");
    let before = t.ip("Ana");
    assert!(matches!(
        t.refuse("ready Ana 2 when a guard shouts do simple"),
        RuleError::ReadyAnswered { .. }
    ));
    assert_eq!(t.ip("Ana"), before, "nothing held back");
    assert!(t.c("Ana").reserve.is_none());
    t.run("next");
    t.run("next");
    t.run("next");
    assert_eq!(t.turn(), "Ana");
    t.run("ready Ana 2 when a guard shouts do simple");
    assert!(t.c("Ana").reserve.is_some(), "a new turn, a new ready");
}

#[test]
fn more_triggers_before_any_fires_are_still_one_ready() {
    let mut t = Table::three();
    t.run("ready Ana 2 when the door opens do simple");
    t.run("ready Ana when a guard shouts do simple");
    t.run("fire Ana 2");
    assert!(
        t.c("Ana").reserve.is_none(),
        "one trigger answered, the others go"
    );
}

#[test]
fn a_status_until_the_next_turn_lasts_through_that_turn_taken_later_after_a_move() {
    // Given Ana stunned until her next turn, and her turn of pass 2 come
    let mut t = Table::new();
    for line in [
        "add Ana pc int 4 rea 4 edge 2",
        "add Bob npc int 3 rea 3 edge 1",
        "add Cy npc int 3 rea 2 edge 1",
        "roll Ana hits 4",
        "roll Bob hits 3",
        "roll Cy hits 1",
        "start",
        "status Ana Stunned until next",
        "next",
        "next",
        "next",
    ] {
        t.run(line);
    }
    assert_eq!(t.turn(), "Ana");
    // When she moves after Cy, then she is still Stunned until that turn ends
    t.run("move Ana after Cy");
    assert!(t.c("Ana").status("Stunned").is_some());
    while t.turn() != "Ana" {
        t.run("next");
    }
    assert!(t.c("Ana").status("Stunned").is_some());
    t.run("next");
    assert!(t.c("Ana").status("Stunned").is_none());
}

/// Given a delay, a ready and a turn under way, when the GM ends the encounter, then nothing is
/// held and no one acts or waits in a pass any more: `show`, the grid's cells and the players'
/// view say the last round as it stood (the fold keeps the marks and reserves, for undo).
#[test]
fn after_the_end_nothing_is_held_and_no_pass_marks_remain() {
    let mut t = Table::three();
    t.run("delay Ana 2 after Cy");
    t.run("next");
    t.run("ready Bob 2 when the door opens do Fire Gun");
    t.run("next");
    assert_eq!(t.turn(), "Cy");
    t.run("end");
    let s = t.state();
    for name in ["Ana", "Bob", "Cy"] {
        let c = t.c(name);
        assert_eq!(s.held(c), None, "{name}");
        assert_eq!(s.pass_mark(c), PassMark::Waiting, "{name}");
    }
    let rules = t.enc.rules().clone();
    assert!(
        s.pass_cells(t.c("Bob").id, &rules)
            .iter()
            .all(|c| matches!(c, srtrack::encounter::query::PassCell::Seen { .. })),
        "every pass of the last round has gone by"
    );
    let shown = srtrack::report::show(&t.enc, 0);
    for gone in ["[acting]", "[acted]", "IP held", "ready 1", "↳ Ana"] {
        assert!(!shown.contains(gone), "{gone} in:\n{shown}");
    }
    // Undo finds the fight as it stood.
    t.run("undo");
    let shown = srtrack::report::show(&t.enc, 0);
    assert!(shown.contains("↳ Ana, 2 IP, after Cy"), "{shown}");
    assert!(shown.contains("[acting]"), "{shown}");
}
