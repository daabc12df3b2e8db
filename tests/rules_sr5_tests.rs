//! Given/when/then for SR5 tests (sr5-hits-glitches-limits-teamwork.txt): hits, limits,
//! thresholds, opposed tests, glitches, Edge (Push the Limit, Close Call) and teamwork.

mod common;
use common::Table;
use srtrack::encounter::system::sr5::{Sr5Error, Sr5Event};
use srtrack::encounter::{Event, RuleError, System};
use srtrack::rules::Glitch;
use srtrack::rules::sr5::test::{Bonus, TestError};

/// Ana (Edge 3, Body 4, Willpower 5), Bob (Edge 1) and Cy (Edge 2) around a table, no fight yet.
fn table() -> Table {
    let mut t = Table::new();
    t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
    t.run("add Bob pc int 3 rea 3 edge 1 body 3 will 3");
    t.run("add Cy int 3 rea 2 edge 2 body 4 will 2");
    t
}

/// The last log line: the test as `srtrack exec` prints it.
fn last_line(t: &Table) -> String {
    srtrack::report::log_lines(&t.enc)
        .last()
        .map(|(_, l)| l.clone())
        .unwrap_or_default()
}

fn tested(events: &[Event]) -> &Sr5Event {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Sr5(t @ Sr5Event::Tested { .. }) => Some(t),
            _ => None,
        })
        .expect("a test")
}

fn glitch_of(events: &[Event]) -> Glitch {
    match tested(events) {
        Sr5Event::Tested { roll, .. } => roll.glitch,
        _ => unreachable!(),
    }
}

#[test]
fn the_issue_example_comes_out_in_its_form() {
    let mut t = table();
    t.roll("test Ana 8 limit 3 threshold 2", &[6, 6, 5, 5, 1, 1, 1, 2]);
    assert_eq!(
        last_line(&t),
        "test Ana: 8 dice [6 6 5 5 1 1 1 2], limit 3, 3 hits (4 rolled), threshold 2: success, net 1"
    );
    // Typed in, the faces read the same.
    t.run("test Ana 8 limit 3 threshold 2 dice 6 6 5 5 1 1 1 2");
    assert_eq!(
        last_line(&t),
        "test Ana: 8 dice [6 6 5 5 1 1 1 2], limit 3, 3 hits (4 rolled), threshold 2: success, net 1"
    );
}

#[test]
fn fives_and_sixes_are_hits_and_hits_meeting_the_threshold_succeed() {
    let mut t = table();
    t.roll("test Bob 4 threshold 2", &[5, 6, 4, 3]);
    assert!(last_line(&t).ends_with("2 hits, threshold 2: success, net 0"));
    t.roll("test Bob 4 threshold 3", &[5, 6, 4, 3]);
    assert!(last_line(&t).ends_with("2 hits, threshold 3: failure"));
}

#[test]
fn glitch_at_exactly_half_is_not_a_glitch_more_than_half_is() {
    let mut t = table();
    let half = t.roll("test Ana 4", &[1, 1, 5, 3]);
    assert_eq!(glitch_of(&half), Glitch::None);
    let more = t.roll("test Ana 4", &[1, 1, 1, 5]);
    assert_eq!(glitch_of(&more), Glitch::Glitch);
    assert_eq!(last_line(&t), "test Ana: 4 dice [1 1 1 5], 1 hit, glitch");
}

#[test]
fn a_glitch_with_no_hit_is_critical() {
    let mut t = table();
    let ev = t.roll("test Ana 4 threshold 1", &[1, 1, 1, 2]);
    assert_eq!(glitch_of(&ev), Glitch::Critical);
    assert_eq!(
        last_line(&t),
        "test Ana: 4 dice [1 1 1 2], 0 hits, critical glitch, threshold 1: failure"
    );
}

#[test]
fn a_glitch_does_not_cancel_a_success() {
    let mut t = table();
    t.roll("test Ana 5 threshold 1", &[6, 1, 1, 1, 2]);
    assert_eq!(
        last_line(&t),
        "test Ana: 5 dice [6 1 1 1 2], 1 hit, glitch, threshold 1: success, net 0"
    );
}

#[test]
fn the_limit_caps_hits_but_not_the_glitch_count() {
    let mut t = table();
    let ev = t.roll("test Ana 7 limit 1 threshold 1", &[6, 6, 1, 1, 1, 1, 3]);
    assert_eq!(glitch_of(&ev), Glitch::Glitch);
    assert_eq!(
        last_line(&t),
        "test Ana: 7 dice [6 6 1 1 1 1 3], limit 1, 1 hit (2 rolled), glitch, threshold 1: success, net 0"
    );
}

#[test]
fn an_opposed_test_needs_more_hits_and_a_tie_goes_to_the_defender() {
    let mut t = table();
    t.roll("test Ana 3 vs Bob 3", &[6, 5, 2, 6, 5, 1]);
    assert_eq!(
        last_line(&t),
        "test Ana: 3 dice [6 5 2], 2 hits vs Bob: 3 dice [6 5 1], 2 hits: failure (a tie goes to Bob)"
    );
    t.roll("test Ana 3 vs Bob 3", &[6, 5, 5, 6, 1, 2]);
    assert!(
        last_line(&t).ends_with("1 hit: success, net 2"),
        "{}",
        last_line(&t)
    );
    // The opponent's dice may be typed too, right after its pool.
    t.run("test Ana 2 dice 6 6 vs Bob 2 dice 5 1");
    assert!(last_line(&t).ends_with("1 hit: success, net 1"));
}

#[test]
fn a_refused_typed_in_glitch_says_hit_for_one_hit() {
    let mut t = table();
    assert_eq!(
        t.refuse("test Ana 2 hits 1 glitch").to_string(),
        "a glitch needs more than half the dice on 1, so 1 hit on 2 dice cannot glitch"
    );
    assert_eq!(
        t.refuse("test Ana 3 hits 1 critical").to_string(),
        "a critical glitch has no hit, so it cannot come with 1 hit"
    );
}

#[test]
fn dice_typed_after_the_opponents_pool_alone_are_refused_not_given_to_the_wrong_side() {
    // Given an opposed test where the GM types only dice at the end of the line
    let t = table();
    // When srtrack would read them as Bob's (after his pool) while the GM meant Ana's
    for line in [
        "test Ana 3 vs Bob 4 dice 6 6 6 6",
        "test Ana 3 vs Bob 3 hits 1 glitch",
    ] {
        let err = srtrack::lang::parse(line, t.state(), t.enc.catalogue())
            .expect_err("ambiguous dice")
            .to_string();
        // Then it is refused with the order that says whose dice are whose
        assert!(
            err.contains("Ana's dice after Ana's pool first: the dice after Bob's pool are Bob's"),
            "{line}: {err}"
        );
    }
    // And Ana's dice before `vs` leave Bob's to srtrack, or to the table after his pool
    let mut t = table();
    t.roll("test Ana 3 dice 6 6 6 vs Bob 4", &[1, 2, 3, 4]);
    assert!(
        last_line(&t).starts_with("test Ana: 3 dice [6 6 6], 3 hits vs Bob: 4 dice [1 2 3 4]"),
        "{}",
        last_line(&t)
    );
}

#[test]
fn the_wound_modifier_comes_off_the_pool_by_itself() {
    let mut t = table();
    // Ana: 4 Physical and 2 Stun: −1 for the Physical monitor, 0 for the Stun.
    t.run("damage Ana 4 physical");
    t.run("damage Ana 2 stun");
    t.roll("test Ana 4 threshold 1", &[6, 2, 3]);
    assert_eq!(
        last_line(&t),
        "test Ana: 3 dice (4, wounds -1) [6 2 3], 1 hit, threshold 1: success, net 0"
    );
    // Faces typed for the pool before wounds: the refusal says what the wounds took.
    let err = t.refuse("test Ana 4 dice 6 2 3 4");
    assert_eq!(
        err.to_string(),
        "the pool has 3 dice (4 less 1 for wounds) but 4 faces were typed: type one face per die"
    );
    let err = t.refuse("test Bob 2 dice 6");
    assert_eq!(
        err.to_string(),
        "the pool has 2 dice but 1 face was typed: type one face per die"
    );
    t.run("damage Ana 5 physical");
    let err = t.refuse("test Ana 3 dice 6");
    assert_eq!(
        err.to_string(),
        "the pool has 0 dice (3 less 3 for wounds) but 1 face was typed: type one face per die"
    );
}

#[test]
fn a_pool_the_wounds_take_to_nothing_rolls_no_die_scores_no_hit_and_cannot_glitch() {
    let mut t = table();
    // Ana: 9 Physical, −3 dice.
    t.run("damage Ana 9 physical");
    let ev = t.run("test Ana 3 threshold 1");
    assert_eq!(glitch_of(&ev), Glitch::None);
    assert_eq!(
        last_line(&t),
        "test Ana: 0 dice (3, wounds -3), 0 hits, threshold 1: failure"
    );
    // Fewer dice than the wounds take: still no die, not a refusal.
    t.run("test Ana 2");
    assert_eq!(last_line(&t), "test Ana: 0 dice (2, wounds -3), 0 hits");
    // No die can show a 1, so no glitch can be typed and Close Call has nothing to save.
    assert_eq!(
        t.refuse("test Ana 3 hits 0 glitch").to_string(),
        "a pool of no dice rolls no 1s, so it cannot glitch"
    );
    assert_eq!(
        t.refuse("test Ana 3 hits 0 critical").to_string(),
        "a pool of no dice rolls no 1s, so it cannot glitch"
    );
    // Nor a hit
    assert_eq!(
        t.refuse("test Ana 3 hits 1").to_string(),
        "a pool of no dice rolls no hit: type 0 hits"
    );
    t.run("test Ana 3 hits 0");
    assert!(matches!(
        t.refuse("closecall Ana"),
        RuleError::Sr5(Sr5Error::NoGlitch { .. })
    ));
    // As an opponent Ana rolls nothing too, and Bob needs a single hit.
    t.roll("test Bob 2 vs Ana 3", &[5, 2]);
    assert_eq!(
        last_line(&t),
        "test Bob: 2 dice [5 2], 1 hit vs Ana: 0 dice (3, wounds -3), 0 hits: success, net 1"
    );
    // An assistant with no die adds nothing, and spoils nothing.
    let ev = t.roll("teamwork Bob 2 with Ana 3, Cy 2", &[5, 2, 6, 5, 1]);
    assert!(matches!(
        tested(&ev),
        Sr5Event::Tested {
            teamwork: Some(Bonus::Added {
                dice: 1,
                limit: 1,
                ..
            }),
            ..
        }
    ));
}

#[test]
fn hits_can_be_typed_in_with_a_glitch_or_a_critical_glitch() {
    let mut t = table();
    t.run("test Bob 6 threshold 2 hits 2 glitch");
    assert_eq!(
        last_line(&t),
        "test Bob: 6 dice typed in, 2 hits, glitch, threshold 2: success, net 0"
    );
    t.run("test Bob 6 hits 0 critical");
    assert!(last_line(&t).ends_with("0 hits, critical glitch"));
    assert_eq!(
        t.refuse("test Bob 6 hits 4 glitch").to_string(),
        "a glitch needs more than half the dice on 1, so 4 hits on 6 dice cannot glitch"
    );
    assert_eq!(
        t.refuse("test Bob 6 hits 7").to_string(),
        "7 hits are impossible on a pool of 6 dice: type 0 to 6"
    );
    // A count too big for any number is not told back as one nobody typed
    assert_eq!(
        t.refuse("test Bob 6 hits 99999999999999999999").to_string(),
        "2147483647 or more hits are impossible on a pool of 6 dice: type 0 to 6"
    );
}

#[test]
fn what_a_gm_types_wrong_gets_one_sentence_and_changes_nothing() {
    let mut t = table();
    assert_eq!(
        t.refuse("test Ana 0").to_string(),
        "pool 0 is out of range: allowed 1 to 60"
    );
    assert_eq!(
        t.refuse("test Ana 200").to_string(),
        "pool 200 is out of range: allowed 1 to 60"
    );
    assert_eq!(
        t.refuse("test Ana 6 limit -1").to_string(),
        "limit -1 is out of range: allowed 1 to 60"
    );
    assert_eq!(
        t.refuse("test Ana 3 dice 6 7 1").to_string(),
        "a die shows 1 to 6, not 7"
    );
    assert!(matches!(
        t.refuse("test Ana 3 vs Ana 3"),
        RuleError::Sr5(Sr5Error::SelfOpposed { .. })
    ));
    t.run("down Bob");
    assert_eq!(
        t.refuse("test Bob 3").to_string(),
        "Bob is Downed and cannot act"
    );
}

#[test]
fn push_the_limit_removes_the_limit_for_one_edge() {
    let mut t = table();
    t.roll("test Ana 6 limit 2 threshold 2 push", &[6, 6, 5, 5, 2, 3]);
    assert_eq!(
        last_line(&t),
        "test Ana: 6 dice [6 6 5 5 2 3], limit 2 pushed (1 Edge), 4 hits, threshold 2: success, net 2"
    );
    assert_eq!(t.c("Ana").edge_left, 2);
    assert!(matches!(
        t.refuse("test Ana 6 push"),
        RuleError::Sr5(Sr5Error::NothingToPush { .. })
    ));
}

#[test]
fn push_the_limit_and_close_call_are_refused_with_no_edge_left() {
    let mut t = table();
    t.roll("test Bob 3 limit 1 push", &[6, 6, 2]);
    assert_eq!(t.c("Bob").edge_left, 0);
    assert_eq!(
        t.refuse("test Bob 3 limit 1 push").to_string(),
        "Bob has no Edge left (needs 1, has 0)"
    );
    t.roll("test Bob 3", &[1, 1, 5]);
    assert_eq!(
        t.refuse("closecall Bob").to_string(),
        "Bob has no Edge left (needs 1, has 0)"
    );
}

#[test]
fn close_call_negates_a_glitch_on_the_last_test_once() {
    let mut t = table();
    t.roll("test Ana 3 threshold 1", &[1, 1, 5]);
    let ev = t.run("closecall Ana");
    assert!(matches!(
        ev.as_slice(),
        [Event::Sr5(Sr5Event::CloseCall {
            before: Glitch::Glitch,
            after: Glitch::None,
            edge: 1,
            ..
        })]
    ));
    assert_eq!(
        last_line(&t),
        "Ana uses Close Call (1 Edge) on the test: the glitch is negated"
    );
    assert_eq!(t.c("Ana").edge_left, 2);
    assert_eq!(
        t.refuse("closecall Ana").to_string(),
        "Ana already used Close Call on the last test: once per test"
    );
}

#[test]
fn close_call_turns_a_critical_glitch_into_a_glitch() {
    let mut t = table();
    t.roll("test Cy 3", &[1, 1, 2]);
    t.run("closecall Cy");
    assert_eq!(
        last_line(&t),
        "Cy uses Close Call (1 Edge) on the test: the critical glitch becomes a glitch"
    );
    let kit = t.state().sr5.kit(t.c("Cy").id).expect("Cy's kit");
    assert_eq!(kit.last_test.map(|l| l.glitch), Some(Glitch::Glitch));
}

#[test]
fn close_call_needs_a_glitch_on_the_last_test() {
    let mut t = table();
    assert_eq!(
        t.refuse("closecall Ana").to_string(),
        "Ana has taken no test yet: Close Call works on the character's last test"
    );
    t.roll("test Ana 3", &[1, 1, 2]);
    // A newer test without a glitch is the last one now.
    t.roll("test Ana 3", &[6, 1, 2]);
    assert_eq!(
        t.refuse("closecall Ana").to_string(),
        "Ana's last test did not glitch: Close Call has nothing to save"
    );
}

#[test]
fn close_call_on_a_glitched_initiative_test_lifts_the_character_out_of_last_among_ties() {
    let mut t = table();
    // Given Ana (9 dice) and Bob (6 dice) tie on 2 hits and Ana glitched: she would go after Bob.
    t.run("roll Ana hits 2 glitch");
    t.run("roll Bob hits 2");
    t.run("roll Cy hits 0");
    // When she uses Close Call before the fight starts,
    let ev = t.run("closecall Ana");
    assert!(matches!(
        ev.as_slice(),
        [Event::Sr5(Sr5Event::InitiativeCloseCall {
            before: Glitch::Glitch,
            after: Glitch::None,
            edge: 1,
            ..
        })]
    ));
    assert_eq!(
        last_line(&t),
        "Ana uses Close Call (1 Edge) on the initiative test: the glitch is negated (no longer last among equal scores)"
    );
    // then the glitch is gone: the bigger pool decides the tie, and it costs her 1 Edge.
    assert_eq!(t.c("Ana").edge_left, 2);
    t.run("start");
    assert_eq!(t.order(), ["Ana", "Bob", "Cy"]);
    // Once the order is set, Close Call on initiative is refused.
    assert_eq!(
        t.refuse("closecall Bob initiative").to_string(),
        "Bob already has a place in the initiative order: Close Call on an initiative test comes before `start` sets the order"
    );
}

#[test]
fn close_call_on_a_critically_glitched_initiative_test_leaves_a_glitch_once() {
    let mut t = table();
    t.run("roll Cy hits 0 glitch");
    t.run("closecall Cy");
    assert_eq!(
        last_line(&t),
        "Cy uses Close Call (1 Edge) on the initiative test: the critical glitch becomes a glitch (still last among equal scores)"
    );
    assert_eq!(
        t.c("Cy").initiative.as_ref().map(|r| r.glitch),
        Some(Glitch::Glitch)
    );
    assert_eq!(
        t.refuse("closecall Cy initiative").to_string(),
        "Cy already used Close Call on the last test (initiative test): once per test"
    );
    // A test taken since is the last one: `initiative` names the initiative test still.
    t.roll("test Ana 3", &[6, 5, 2]);
    t.run("roll Ana hits 1 glitch");
    assert_eq!(
        t.refuse("closecall Ana").to_string(),
        "Ana's last test did not glitch: Close Call has nothing to save"
    );
    t.run("closecall Ana initiative");
    assert_eq!(
        t.c("Ana").initiative.as_ref().map(|r| r.glitch),
        Some(Glitch::None)
    );
}

#[test]
fn teamwork_assistant_hits_add_dice_and_each_helping_assistant_raises_the_limit() {
    let mut t = table();
    // Bob: 2 hits, Cy: 1 hit → +3 dice, limit +2. Ana rolls 4 + 3 = 7 dice with limit 2 + 2.
    let ev = t.roll(
        "teamwork Ana 4 limit 2 threshold 3 with Bob 3, Cy 2",
        &[6, 5, 1, 5, 2, 6, 6, 5, 5, 6, 2, 3],
    );
    assert!(matches!(
        tested(&ev),
        Sr5Event::Tested {
            teamwork: Some(Bonus::Added {
                dice: 3,
                limit: 2,
                cap: 4
            }),
            limit: Some(4),
            ..
        }
    ));
    let log = srtrack::report::log_lines(&t.enc);
    let lines: Vec<&str> = log.iter().rev().take(3).map(|(_, l)| l.as_str()).collect();
    assert_eq!(
        lines,
        [
            "test Ana (teamwork: +3 dice, limit +2): 7 dice [6 6 5 5 6 2 3], limit 4, 4 hits (5 rolled), threshold 3: success, net 1",
            "assist Cy for Ana: 2 dice [5 2], 1 hit",
            "assist Bob for Ana: 3 dice [6 5 1], 2 hits",
        ]
    );
}

#[test]
fn teamwork_dice_stop_at_the_leaders_skill() {
    let mut t = table();
    let ev = t.roll("teamwork Ana 3 skill 1 with Bob 3", &[6, 6, 5, 2, 2, 2, 2]);
    assert!(matches!(
        tested(&ev),
        Sr5Event::Tested {
            teamwork: Some(Bonus::Added {
                dice: 1,
                limit: 1,
                cap: 1
            }),
            ..
        }
    ));
}

// The dice added are at most the leader's skill rating: an untrained leader (skill 0) takes none,
// while each assistant with a hit still raises the limit (the text's two bonuses stand apart).
#[test]
fn an_untrained_leader_takes_no_teamwork_dice_but_the_limit_still_rises() {
    let mut t = table();
    // Bob: 2 hits, Cy: 1 hit → no dice (skill 0), limit 2 + 2. Ana rolls her 3 dice.
    let ev = t.roll(
        "teamwork Ana 3 limit 2 skill 0 with Bob 3, Cy 2",
        &[6, 5, 1, 5, 2, 6, 6, 5],
    );
    assert!(matches!(
        tested(&ev),
        Sr5Event::Tested {
            teamwork: Some(Bonus::Added {
                dice: 0,
                limit: 2,
                cap: 0
            }),
            limit: Some(4),
            ..
        }
    ));
    let log = srtrack::report::log_lines(&t.enc);
    assert_eq!(
        log.last().map(|(_, l)| l.as_str()),
        Some("test Ana (teamwork: +0 dice, at most 0, limit +2): 3 dice [6 6 5], limit 4, 3 hits")
    );
    // And a skill below 0 is still refused
    assert_eq!(
        t.refuse("teamwork Ana 6 skill -1 with Bob 4").to_string(),
        "Ana's skill rating -1 is out of range: allowed 0 to 60"
    );
}

#[test]
fn a_teamwork_number_out_of_range_names_whose_it_is() {
    // Given a teamwork test's leader and assistants side by side on one line:
    let mut t = table();
    // When the leader's skill, the leader's pool or an assistant's pool is out of range,
    // Then the sentence says whose it is.
    assert_eq!(
        t.refuse("teamwork Ana 6 skill 61 with Bob 4").to_string(),
        "Ana's skill rating 61 is out of range: allowed 0 to 60"
    );
    assert_eq!(
        t.refuse("teamwork Ana 0 with Bob 4").to_string(),
        "Ana's pool 0 is out of range: allowed 1 to 60"
    );
    assert_eq!(
        t.refuse("teamwork Ana 5 with Bob 3, Cy 0").to_string(),
        "Cy's pool 0 is out of range: allowed 1 to 60"
    );
}

#[test]
fn teamwork_with_a_critically_glitching_assistant_gives_no_bonus_at_all() {
    let mut t = table();
    // Bob glitches critically; Cy's 2 hits count for nothing.
    let ev = t.roll(
        "teamwork Ana 4 limit 2 with Bob 3, Cy 2",
        &[1, 1, 2, 6, 6, 5, 2, 3, 4],
    );
    assert!(matches!(
        tested(&ev),
        Sr5Event::Tested {
            teamwork: Some(Bonus::Spoiled { by: 0 }),
            limit: Some(2),
            ..
        }
    ));
    assert!(last_line(&t).starts_with(
        "test Ana (teamwork: no bonus, an assistant critically glitched): 4 dice [5 2 3 4], limit 2, 1 hit"
    ));
}

#[test]
fn close_call_on_an_assistants_critical_glitch_keeps_the_leaders_bonus() {
    let mut t = table();
    // Given Bob's assist glitches critically (no hit, two 1s of 3) and Cy's scores 2 hits,
    // when Bob uses Close Call on it in the teamwork line,
    let ev = t.roll(
        "teamwork Ana 4 limit 2 with Bob 3 closecall, Cy 2",
        &[1, 1, 2, 6, 6, 5, 2, 3, 4, 6, 5],
    );
    // then his critical glitch is a glitch, which spoils nothing: +2 dice (Cy's hits) and the
    // limit +1 (Cy alone scored a hit), and the Edge is Bob's.
    assert!(matches!(
        ev.as_slice(),
        [
            Event::Sr5(Sr5Event::Assisted { .. }),
            Event::Sr5(Sr5Event::CloseCall {
                before: Glitch::Critical,
                after: Glitch::Glitch,
                edge: 1,
                ..
            }),
            Event::Sr5(Sr5Event::Assisted { .. }),
            Event::Sr5(Sr5Event::Tested {
                teamwork: Some(Bonus::Added {
                    dice: 2,
                    limit: 1,
                    cap: 4
                }),
                limit: Some(3),
                ..
            }),
        ]
    ));
    assert_eq!(t.c("Bob").edge_left, 0);
    assert_eq!(t.c("Ana").edge_left, 3);
    let log = srtrack::report::log_lines(&t.enc);
    let lines: Vec<&str> = log.iter().rev().take(4).map(|(_, l)| l.as_str()).collect();
    assert_eq!(
        lines,
        [
            "test Ana (teamwork: +2 dice, limit +1): 6 dice [5 2 3 4 6 5], limit 3, 3 hits",
            "assist Cy for Ana: 2 dice [6 6], 2 hits",
            "Bob uses Close Call (1 Edge) on the teamwork assist: the critical glitch becomes a glitch",
            "assist Bob for Ana: 3 dice [1 1 2], 0 hits, critical glitch",
        ]
    );
    // The entry reads back as typed, so the history says who used Close Call.
    assert_eq!(
        t.enc.applied().last().map(|e| e.text.as_str()),
        Some("teamwork Ana 4 limit 2 with Bob 3 closecall, Cy 2")
    );
}

#[test]
fn close_call_in_the_teamwork_line_costs_nothing_when_the_dice_srtrack_rolls_do_not_glitch() {
    let mut t = table();
    let ev = t.roll(
        "teamwork Ana 2 with Bob 3 closecall",
        &[6, 5, 2, 3, 4, 2, 2],
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Sr5(Sr5Event::CloseCall { .. })))
    );
    assert_eq!(t.c("Bob").edge_left, 1);
}

#[test]
fn close_call_on_a_teamwork_assist_is_refused_where_it_cannot_save_the_bonus() {
    let mut t = table();
    // Typed dice that do not glitch: nothing to save.
    assert_eq!(
        t.refuse("teamwork Ana 4 with Bob 3 dice 6 1 2 closecall")
            .to_string(),
        "Bob's teamwork assist did not glitch: Close Call has nothing to save (leave out `closecall`)"
    );
    // No Edge left, before any die is rolled.
    t.roll("test Bob 3 limit 1 push", &[6, 6, 2]);
    assert_eq!(
        t.refuse("teamwork Ana 4 with Bob 3 closecall dice 1 1 2")
            .to_string(),
        "Bob has no Edge left (needs 1, has 0)"
    );
    // After the leader rolled, a Close Call could not give back the dice the leader lost.
    t.roll("teamwork Ana 4 with Cy 2 dice 1 1", &[5, 2, 3, 4]);
    assert_eq!(
        t.refuse("closecall Cy").to_string(),
        "Cy's critical glitch on the teamwork assist cost the leader the bonus, and the leader has rolled: undo the teamwork test and give it again with `closecall` after Cy's pool"
    );
}

#[test]
fn a_leaders_typed_dice_need_the_assistants_dice_typed_too() {
    let mut t = table();
    // Given Ana's dice read off the table and Bob's left to srtrack
    // Then the test is refused before anything rolls: Bob's hits decide how many dice Ana rolls
    let said = "Ana's dice are typed but Bob's are left to srtrack: the assistants' hits decide how many dice Ana rolls, so type theirs too (`with Bob 3 dice …`), or let srtrack roll Ana's";
    assert_eq!(
        t.refuse("teamwork Ana 6 dice 6 5 4 3 2 1 with Bob 3")
            .to_string(),
        said
    );
    // And so are typed hits
    assert_eq!(
        t.refuse("teamwork Ana 6 hits 2 with Bob 3").to_string(),
        said
    );
    // And the first assistant left to srtrack is named, wherever it stands
    assert!(
        t.refuse("teamwork Ana 6 hits 2 with Bob 3 hits 1, Cy 2")
            .to_string()
            .starts_with("Ana's dice are typed but Cy's")
    );
    // When every assistant's dice are typed but the leader's count only the leader's own pool
    // Then the refusal counts the teamwork dice in
    assert_eq!(
        t.refuse("teamwork Ana 6 dice 6 5 4 3 2 1 with Bob 3 dice 5 5 1")
            .to_string(),
        "Ana's pool is 8 dice with the teamwork bonus (2 of them from the assistants' hits) but 6 faces were typed: type one face per die"
    );
    // And typed whole, it is taken as typed
    t.roll(
        "teamwork Ana 6 dice 6 5 4 3 2 1 5 5 with Bob 3 dice 5 5 1",
        &[],
    );
    assert_eq!(
        last_line(&t),
        "test Ana (teamwork: +2 dice): 8 dice [6 5 4 3 2 1 5 5], 4 hits"
    );
}

#[test]
fn teamwork_needs_assistants_other_than_the_leader() {
    let mut t = table();
    assert!(matches!(
        t.refuse("teamwork Ana 4 with Ana 3"),
        RuleError::Sr5(Sr5Error::SelfAssist { .. })
    ));
    assert!(matches!(
        t.refuse("teamwork Ana 4 with Bob 3, Bob 2"),
        RuleError::Sr5(Sr5Error::AssistsTwice { .. })
    ));
}

#[test]
fn undo_and_redo_never_roll_a_test_again() {
    let mut t = table();
    let first = t.roll("test Ana 5 threshold 2", &[6, 5, 1, 2, 3]);
    t.run("undo");
    t.run("redo");
    assert_eq!(
        t.enc.applied().last().map(|e| e.events.clone()),
        Some(first)
    );
}

/// An `odds` line of the command language, parsed.
fn question(t: &Table, line: &str) -> srtrack::encounter::system::sr5::OddsInput {
    match srtrack::lang::parse(line, t.state(), t.enc.catalogue()) {
        Ok(srtrack::lang::Line::Odds(q)) => q,
        other => panic!("not an odds question: {other:?}"),
    }
}

#[test]
fn odds_are_exact_and_worded_as_the_issue_asks() {
    let mut t = table();
    let q = question(&t, "odds 10 limit 4 threshold 3");
    assert_eq!(
        srtrack::report::sr5::odds_answer(&t.enc, &q).unwrap(),
        "odds 10 dice, limit 4, threshold 3: P(success) 0.7009, P(glitch) 0.0024, P(critical) 0.0003, net 0.44"
    );
    // A question is never recorded.
    let len = t.enc.history().len();
    t.run("odds 6 vs 4");
    assert_eq!(t.enc.history().len(), len);
}

/// An open test (no threshold, no opponent) has no success or failure: its hits are the answer,
/// glitch and critical glitch as on any test; its odds give the hits to expect, not P(success).
#[test]
fn an_open_test_is_answered_by_its_hits_and_its_glitch() {
    // Given Ana at the table
    let mut t = table();
    // When she rolls an open test of 5 dice, 3 of them 1s
    t.roll("test Ana 5", &[6, 5, 1, 1, 1]);
    // Then the line gives the hits and the glitch, and no verdict
    assert_eq!(
        last_line(&t),
        "test Ana: 5 dice [6 5 1 1 1], 2 hits, glitch"
    );
    // And no hit with the 1s is a critical glitch, still no verdict
    t.roll("test Ana 4", &[1, 1, 1, 2]);
    assert_eq!(
        last_line(&t),
        "test Ana: 4 dice [1 1 1 2], 0 hits, critical glitch"
    );
    // And a limit caps the hits it answers with
    t.roll("test Ana 4 limit 1", &[6, 6, 2, 3]);
    assert_eq!(
        last_line(&t),
        "test Ana: 4 dice [6 6 2 3], limit 1, 1 hit (2 rolled)"
    );
    // And the odds of an open test give the hits to expect, the glitches, and no P(success)
    let q = question(&t, "odds 9 limit 2");
    let said = srtrack::report::sr5::odds_answer(&t.enc, &q).unwrap();
    assert!(
        said.starts_with("odds 9 dice, limit 2: hits 1.") && !said.contains("success"),
        "{said}"
    );
    assert!(
        said.contains(", P(glitch) 0.") && said.contains(", P(critical) 0."),
        "{said}"
    );
}

#[test]
fn odds_refuse_a_pool_out_of_range() {
    let t = table();
    let q = question(&t, "odds 0");
    assert_eq!(
        srtrack::report::sr5::odds_answer(&t.enc, &q)
            .unwrap_err()
            .to_string(),
        "pool 0 is out of range: allowed 1 to 60"
    );
}

#[test]
fn sr5_tests_are_sr5_s_own_commands() {
    for system in [System::Sr2097, System::Anarchy] {
        let mut t = Table::under(system);
        t.run(&common::sheet_line(system, "add Ana pc int 4 rea 5 edge 3"));
        let err = t.refuse("test Ana 4");
        assert!(
            matches!(err, RuleError::OtherSystem { verb: "test", .. }),
            "{system}: {err}"
        );
    }
}

#[test]
fn a_typed_roll_names_what_was_wrong() {
    let mut t = table();
    assert!(matches!(
        t.refuse("test Ana 3 hits 1 critical"),
        RuleError::Sr5(Sr5Error::Roll(TestError::CriticalWithHits { hits: 1 }))
    ));
}

#[test]
fn push_given_twice_is_refused_like_a_repeated_limit() {
    let t = table();
    for line in [
        "test Ana 6 push push limit 2",
        "teamwork Ana 4 limit 2 push push with Bob 3",
        "attack Ana Bob pool 6 push push",
    ] {
        let Err(err) = srtrack::lang::parse(line, t.state(), t.enc.catalogue()) else {
            panic!("`{line}` should be refused");
        };
        assert!(err.to_string().contains("`push` once only"), "{err}");
    }
}

/// Given a test rolled with Push the Limit that glitched (`dice 1 1 5`), when its roller asks for
/// Close Call on it, then it is refused, naming the Edge already used, and nothing changes; the
/// same test without Push the Limit takes Close Call. Every test that can be pushed: a test, the
/// leader's teamwork test, an attack.
#[test]
fn one_use_of_edge_per_test_push_the_limit_bars_close_call() {
    let setup = ["weapon Ana add Pistol dv 8 ap -1 acc 5 ammo 15"];
    // (the line with Push the Limit, its dice, what the test is called)
    let cases: [(&str, &[u8], &str); 3] = [
        ("test Ana 3 limit 1 push", &[1, 1, 5], "test"),
        // Bob's assist first (no hit, no glitch), then Ana's pool.
        (
            "teamwork Ana 3 limit 1 push with Bob 2",
            &[2, 3, 1, 1, 5],
            "test",
        ),
        ("attack Ana Bob pool 3 push", &[1, 1, 5], "attack"),
    ];
    for (pushed, dice, what) in cases {
        let mut t = table();
        for line in setup {
            t.run(line);
        }
        t.roll(pushed, dice);
        assert_eq!(t.c("Ana").edge_left, 2, "{pushed}");
        assert_eq!(
            t.refuse("closecall Ana").to_string(),
            match what {
                "test" =>
                    "Ana already used Edge on this test: Push the Limit; one use of Edge per test"
                        .to_string(),
                what => format!(
                    "Ana already used Edge on this test ({what}): Push the Limit; one use of Edge per test"
                ),
            },
            "{pushed}"
        );
        assert_eq!(t.c("Ana").edge_left, 2, "{pushed}");
        // Without Push the Limit the same roll takes Close Call.
        let plain = pushed.replace(" push", "");
        t.roll(&plain, dice);
        t.run("closecall Ana");
        assert_eq!(t.c("Ana").edge_left, 1, "{plain}");
    }
}

/// Given Ana pushed an opposed test, when Bob (who opposed it and used no Edge) glitched, then
/// Bob's Close Call is his own use of Edge on his own roll, and it goes through.
#[test]
fn the_opponent_of_a_pushed_test_keeps_its_own_edge_use() {
    let mut t = table();
    t.roll("test Ana 3 limit 1 push vs Bob 3", &[6, 6, 2, 1, 1, 5]);
    t.run("closecall Bob");
    assert_eq!(t.c("Bob").edge_left, 0);
}

/// Every pair of Edge uses on one test (Push the Limit, then Close Call; Close Call twice) on
/// every test that takes them: the second is refused and changes nothing. Push the Limit twice
/// never parses (`push` once only), and Push the Limit after Close Call cannot be asked for: it
/// is given with the roll, Close Call after it. A newer test is a new test.
#[test]
fn every_pair_of_edge_uses_on_one_test_is_refused() {
    // (the first use with its test, the second use, what the refusal says)
    let pairs: [(&str, &[u8], &str, &str); 5] = [
        (
            "test Ana 3 limit 1 push dice 1 1 5",
            &[],
            "closecall Ana",
            "Ana already used Edge on this test: Push the Limit; one use of Edge per test",
        ),
        (
            "attack Ana Bob pool 3 dice 1 1 5 push",
            &[],
            "closecall Ana",
            "Ana already used Edge on this test (attack): Push the Limit; one use of Edge per test",
        ),
        (
            "test Ana 3 limit 1 dice 1 1 5",
            &[],
            "closecall Ana",
            "Ana already used Close Call on the last test: once per test",
        ),
        (
            // Bob's hit adds a die to Ana's 3.
            "teamwork Ana 3 with Bob 3 dice 1 1 5 closecall",
            &[6, 2, 3, 4],
            "closecall Bob",
            "Bob already used Close Call on the last test (teamwork assist): once per test",
        ),
        (
            "roll Ana hits 1 glitch",
            &[],
            "closecall Ana initiative",
            "Ana already used Close Call on the last test (initiative test): once per test",
        ),
    ];
    for (first, dice, second, says) in pairs {
        let mut t = table();
        t.run("weapon Ana add Pistol dv 8 ap -1 acc 5 ammo 15");
        t.roll(first, dice);
        if !first.contains(" push") && !first.contains(" closecall") {
            // The first use is a Close Call, asked for after the roll.
            t.run(second);
        }
        assert_eq!(t.refuse(second).to_string(), says, "{first}; {second}");
    }
    let mut t = table();
    t.run("test Ana 3 limit 1 push dice 1 1 5");
    t.run("test Ana 3 limit 1 dice 1 1 5");
    t.run("closecall Ana");
    assert_eq!(t.c("Ana").edge_left, 1);
}

/// Given house rules that allow two uses of Edge on one test, when a pushed test glitches, then
/// Close Call goes on it (the ruling is a switch in `rules.ron`).
#[test]
fn a_table_that_allows_two_edge_uses_on_a_test_may_push_and_close_call() {
    let mut t = Table::with_rules(|r| r.sr5.one_edge_use_per_test = false);
    t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
    t.roll("test Ana 3 limit 1 push", &[1, 1, 5]);
    t.run("closecall Ana");
    assert_eq!(t.c("Ana").edge_left, 1);
}
