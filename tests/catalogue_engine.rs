//! The embedded catalogue wired into the engine: spending by name, effects, and the picker's
//! "can it take this now, and if not why" query.

use std::sync::Arc;

use srtrack::catalogue::{AttackRole, Catalogue};
use srtrack::encounter::{ActionChoice, Command, Encounter, RuleError};
use srtrack::lang::{self, Line};
use srtrack::rules::{ActionType, HouseRules, ScriptedDice};

fn table() -> Encounter {
    let rules = HouseRules::embedded();
    let catalogue = Catalogue::embedded(&rules).expect("the embedded catalogue is valid");
    let mut enc = Encounter::new(Arc::new(rules), Arc::new(catalogue));
    for line in [
        "add Ana pc int 4 rea 5 edge 2 body 4 will 5",
        "add Bob pc int 3 rea 3 body 3 will 3",
        "roll Ana hits 3",
        "roll Bob hits 1",
        "start",
    ] {
        run(&mut enc, line).unwrap();
    }
    enc
}

fn run(enc: &mut Encounter, line: &str) -> Result<(), RuleError> {
    let Line::Command(c) = lang::parse(line, enc.state(), enc.catalogue()).unwrap() else {
        panic!("{line}")
    };
    lang::execute(enc, c, &mut ScriptedDice::new([])).map(|_| ())
}

fn can(enc: &Encounter, who: &str, action: &str) -> Result<(), RuleError> {
    let who = enc.state().find(who).unwrap().id;
    enc.check(Command::SpendAction {
        who,
        action: ActionChoice::Named {
            name: action.into(),
            as_type: None,
            mode: None,
        },
    })
}

#[test]
fn spending_a_catalogue_action_costs_its_type_and_logs_its_name() {
    let mut enc = table();
    run(&mut enc, "act Ana Fire Gun").unwrap();
    assert_eq!(enc.state().find("Ana").unwrap().ip, 3);
    assert_eq!(enc.applied().last().unwrap().text, "act Ana Fire Gun");
    let log = srtrack::report::log_lines(&enc);
    assert_eq!(log.last().unwrap().1, "Ana: Fire Gun (Simple, 2 IP)");
    run(&mut enc, "act Bob full defense").unwrap();
    assert_eq!(enc.state().find("Bob").unwrap().ip, 0);
    assert!(
        enc.state()
            .find("Bob")
            .unwrap()
            .status("Full Defense")
            .is_some()
    );
}

#[test]
fn the_affordability_query_gives_each_refusal_reason() {
    let mut enc = table();
    let who = enc.state().find("Ana").unwrap().id;
    assert!(matches!(
        enc.check(Command::SpendAction {
            who,
            action: ActionChoice::Named {
                name: "Control Device".into(),
                as_type: None,
                mode: None,
            }
        }),
        Err(RuleError::NeedsType { .. })
    ));
    assert!(
        enc.check(Command::SpendAction {
            who,
            action: ActionChoice::Named {
                name: "Control Device".into(),
                as_type: Some(ActionType::Free),
                mode: None,
            }
        })
        .is_ok()
    );
    assert_eq!(can(&enc, "Ana", "Sprint"), Ok(()));
    assert!(matches!(
        can(&enc, "Bob", "Fire Gun"),
        Err(RuleError::NotTheirTurn { .. })
    ));
    assert_eq!(can(&enc, "Bob", "Dodge"), Ok(()), "interrupts need no turn");
    run(&mut enc, "act Ana Drop Prone").unwrap();
    assert!(matches!(
        can(&enc, "Ana", "Sprint"),
        Err(RuleError::BarredWhile { .. })
    ));
    run(&mut enc, "act Ana Melee Attack").unwrap();
    assert!(matches!(
        can(&enc, "Ana", "Take Aim"),
        Err(RuleError::NotEnoughIp {
            have: 0,
            need: 2,
            ..
        })
    ));
    run(&mut enc, "edge Ana").unwrap();
    assert!(matches!(
        can(&enc, "Ana", "Take Aim"),
        Err(RuleError::OverTurnCap { .. })
    ));
    run(&mut enc, "down Bob").unwrap();
    assert!(matches!(
        can(&enc, "Bob", "Dodge"),
        Err(RuleError::Downed { .. })
    ));
}

#[test]
fn evasive_driving_is_an_interrupt_of_four_ip() {
    let mut enc = table();
    run(&mut enc, "act Bob Evasive Driving").unwrap();
    assert_eq!(enc.state().find("Bob").unwrap().ip, 0);
}

#[test]
fn an_unknown_action_name_is_a_parse_error_with_suggestions() {
    let enc = table();
    let err = lang::parse("act Ana Fire Gn", enc.state(), enc.catalogue()).unwrap_err();
    assert_eq!(err.word, 3);
    assert!(
        err.to_string()
            .starts_with("word 3 \"Fire\": expected free, simple, complex or an action"),
        "{err}"
    );
}

#[test]
fn an_action_of_a_fixed_type_taken_as_another_says_its_own_type() {
    let mut enc = table();
    assert_eq!(
        run(&mut enc, "act Ana Fire Gun as complex")
            .unwrap_err()
            .to_string(),
        "Fire Gun is a Simple action and cannot be taken as complex: only Variable and Special actions take a chosen type (leave out `as complex`)"
    );
    assert_eq!(
        run(&mut enc, "act Ana Dodge as free")
            .unwrap_err()
            .to_string(),
        "Dodge is an Interrupt action and cannot be taken as free: only Variable and Special actions take a chosen type (leave out `as free`)"
    );
    // Every action of a fixed type, asked as each other type, names its own type and the one asked.
    let who = enc.state().find("Ana").unwrap().id;
    for def in enc.catalogue().actions() {
        for t in ActionType::ALL {
            if def.kind.asks_type() || def.kind.fixed_type() == Some(t) {
                continue;
            }
            let err = enc
                .check(Command::SpendAction {
                    who,
                    action: ActionChoice::Named {
                        name: def.name.clone(),
                        as_type: Some(t),
                        mode: None,
                    },
                })
                .unwrap_err()
                .to_string();
            let label = def.kind.label();
            let article = if label.starts_with('I') { "an" } else { "a" };
            let own = format!("{} is {article} {label} action", def.name);
            let asked = format!("taken as {}", t.label().to_lowercase());
            assert!(err.starts_with(&own) && err.contains(&asked), "{err}");
        }
    }
}

/// Every attack action of the catalogue, by its data.
fn attack_actions(enc: &Encounter) -> Vec<String> {
    enc.catalogue()
        .actions()
        .iter()
        .filter(|a| a.attack == Some(AttackRole::Attack))
        .map(|a| a.name.clone())
        .collect()
}

#[test]
fn one_attack_action_per_action_phase_unless_multiple_attacks_is_taken_in_it() {
    // Given Ana, who fired her gun in her turn (5 IP)
    let mut enc = table();
    let attacks = attack_actions(&enc);
    assert_eq!(
        attacks.len(),
        9,
        "every Fire… action, Throw Weapon, Melee Attack"
    );
    run(&mut enc, "act Ana Fire Gun").unwrap();
    // When she takes another attack action in the same turn, whichever: refused, in one sentence
    assert_eq!(
        run(&mut enc, "act Ana Fire Gun").unwrap_err().to_string(),
        "Ana has already attacked in this Action Phase (Fire Gun): a second attack action needs Multiple Attacks taken in it"
    );
    for a in &attacks {
        assert!(
            matches!(can(&enc, "Ana", a), Err(RuleError::AttackTaken { .. })),
            "{a}: {:?}",
            can(&enc, "Ana", a)
        );
    }
    // Not an attack: still allowed
    assert_eq!(can(&enc, "Ana", "Take Aim"), Ok(()));
    // Then with Multiple Attacks in the phase a second one goes (one weapon in each hand)
    run(&mut enc, "act Ana Multiple Attacks").unwrap();
    run(&mut enc, "act Ana Fire Gun").unwrap();
    assert_eq!(enc.state().find("Ana").unwrap().ip, 0);
    // And the next Action Phase starts afresh
    run(&mut enc, "next").unwrap();
    run(&mut enc, "next").unwrap();
    run(&mut enc, "edge Ana").unwrap();
    assert_eq!(can(&enc, "Ana", "Throw Weapon"), Ok(()));
}

#[test]
fn an_attack_in_a_delay_sub_turn_is_its_own_action_phase_within_the_trigger_turn() {
    // Given Ana, who attacked in her turn and held 2 IP for the end of Bob's
    let mut enc = table();
    run(&mut enc, "act Ana Throw Weapon").unwrap();
    assert!(matches!(
        can(&enc, "Ana", "Fire Gun"),
        Err(RuleError::AttackTaken { .. })
    ));
    run(&mut enc, "delay Ana 2 after Bob").unwrap();
    run(&mut enc, "next").unwrap();
    run(&mut enc, "next").unwrap();
    // When her sub-turn comes, she may attack again: it is another Action Phase
    assert_eq!(can(&enc, "Ana", "Fire Gun"), Ok(()));
}

#[test]
fn call_a_shot_and_multiple_attacks_go_with_an_attack_in_the_same_action_phase() {
    // Given Ana at the start of her turn (5 IP)
    let mut enc = table();
    // A Call a Shot with an attack still to come in the turn is taken; a second one waits too
    run(&mut enc, "act Ana Call a Shot").unwrap();
    assert!(matches!(
        run(&mut enc, "act Ana Call a Shot"),
        Err(RuleError::CombineWaiting { .. })
    ));
    run(&mut enc, "act Ana Fire Gun").unwrap();
    // The attack has its called shot: another needs another attack, which needs Multiple Attacks
    let err = run(&mut enc, "act Ana Call a Shot")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("Ana can take Call a Shot only with one of Fire Bow, ")
            && err.ends_with("(another attack action needs Multiple Attacks first)"),
        "{err}"
    );
    // Multiple Attacks after the attack goes with it
    run(&mut enc, "act Ana Multiple Attacks").unwrap();

    // Given Ana, whose turn is spent but 1 IP: no room for an attack after it
    let mut enc = table();
    run(&mut enc, "act Ana complex").unwrap();
    assert_eq!(
        run(&mut enc, "act Ana Call a Shot")
            .unwrap_err()
            .to_string(),
        "Ana can take Call a Shot only with one of Fire Bow, Fire Full-Auto Weapon (6 Bullets), Fire Gun, Fire Full-Auto Weapon (10 Bullets), Fire Long Burst or Semi-Auto Burst, Fire Mounted or Vehicle Weapon, Load and Fire Bow, Throw Weapon, Melee Attack: none was taken in this Action Phase for it to go with, and Ana could not take one after it (0 IP would be left, the cheapest costs 2)"
    );
    // And the turn's cap counts too: after a Complex action with Edge IP at hand
    run(&mut enc, "edge Ana").unwrap();
    assert!(matches!(
        run(&mut enc, "act Ana Multiple Attacks"),
        Err(RuleError::NothingToCombine { why, .. }) if why == "5 of the 5 IP a turn allows would be spent, the cheapest costs 2"
    ));
    // Multiple Attacks goes with a spell too
    let mut enc = table();
    run(&mut enc, "act Ana Multiple Attacks").unwrap();
    run(&mut enc, "act Ana Cast Spell").unwrap();
}

#[test]
fn a_bow_or_a_mounted_weapon_takes_no_round_from_the_gun_in_hand() {
    // Given Ana with a pistol in hand and a bow (no rounds counted) on her sheet
    let mut enc = table();
    run(&mut enc, "weapon Ana add Pistol dv 8 p ap -1 acc 5 ammo 15").unwrap();
    run(&mut enc, "weapon Ana add Bow dv 4 p acc 5").unwrap();
    // When she looses an arrow, loads and looses another, and fires a mounted weapon
    for action in [
        "Fire Bow",
        "Load and Fire Bow",
        "Fire Mounted or Vehicle Weapon",
    ] {
        run(&mut enc, "edge Ana").ok();
        run(&mut enc, &format!("act Ana {action}")).unwrap();
        // Then no weapon of the sheet fires a round: the action is the command's only line
        let lines = srtrack::report::log_lines(&enc);
        let last = lines.last().unwrap().0;
        assert_eq!(
            lines.iter().filter(|(i, _)| *i == last).count(),
            1,
            "{action}"
        );
        run(&mut enc, "next").unwrap();
        run(&mut enc, "next").unwrap();
    }
}

#[test]
fn an_action_that_goes_with_the_shot_keeps_the_aim_in_either_order() {
    // Call a Shot must be combined with the attack: it is part of the shot, not "another kind
    // of action before attacking", so the aim holds whichever the GM types first.
    for lines in [
        ["act Ana Call a Shot", "act Ana Fire Gun"],
        ["act Ana Fire Gun", "act Ana Call a Shot"],
    ] {
        let mut enc = table();
        run(&mut enc, "act Ana Take Aim").unwrap();
        for line in lines {
            run(&mut enc, line).unwrap();
        }
        let log = srtrack::report::log_lines(&enc);
        let said: Vec<&str> = log.iter().map(|(_, l)| l.as_str()).collect();
        assert!(
            said.iter().any(|l| l.contains("Fire Gun with Take Aim +1")),
            "{lines:?}: {said:?}"
        );
        assert!(
            !said.iter().any(|l| l.contains("Take Aim ends")),
            "{lines:?}: {said:?}"
        );
    }
    // Any other Free Action before the shot still loses it.
    let mut enc = table();
    run(&mut enc, "act Ana Take Aim").unwrap();
    run(&mut enc, "act Ana Drop Prone").unwrap();
    run(&mut enc, "act Ana Fire Gun").unwrap();
    let log = srtrack::report::log_lines(&enc);
    assert!(
        log.iter().all(|(_, l)| !l.contains("with Take Aim")),
        "{log:?}"
    );
}

#[test]
fn hit_the_dirt_leaves_prone_until_stand_up_in_the_log_and_the_status_alike() {
    let mut enc = table();
    run(&mut enc, "act Bob Hit the Dirt").unwrap();
    let log: Vec<String> = srtrack::report::log_lines(&enc)
        .into_iter()
        .map(|(_, l)| l)
        .collect();
    let log = log.join("\n");
    assert!(log.contains("Bob: Prone (until Stand Up)"), "{log}");
    let shown = srtrack::report::show(&enc, 20);
    assert!(shown.contains("Prone (until Stand Up)"), "{shown}");
    assert!(!shown.contains("until cleared"), "{shown}");
}

#[test]
fn hit_the_dirt_is_refused_while_surprised_as_drop_prone_is() {
    // Given Ana surprised
    let mut enc = table();
    run(&mut enc, "status Ana Surprised").unwrap();
    // When he drops prone either way, then both are refused and Ana stays up
    for action in ["Drop Prone", "Hit the Dirt"] {
        let err = run(&mut enc, &format!("act Ana {action}")).unwrap_err();
        assert!(
            matches!(&err, RuleError::BarredWhile { status, .. } if status == "Surprised"),
            "{action}: {err}"
        );
    }
    assert!(enc.state().find("Ana").unwrap().status("Prone").is_none());
}

// A fired ready's actions are checked as `act` checks them, one after another, in the Action
// Phase under way; a refused fire changes nothing.

fn refused_fire_changes_nothing(enc: &mut Encounter) -> RuleError {
    let before = enc.state().clone();
    let err = run(enc, "fire Ana").unwrap_err();
    assert_eq!(enc.state(), &before, "a refused fire changed the state");
    err
}

#[test]
fn a_fired_ready_is_a_second_attack_in_the_action_phase_refused_as_act_refuses_it() {
    // Given Ana fired her gun in her turn and readied another shot
    let mut enc = table();
    run(&mut enc, "act Ana Fire Gun").unwrap();
    run(&mut enc, "ready Ana 2 when Bob moves do Fire Gun").unwrap();
    // When it fires in the same turn, then it is refused as `act Ana Fire Gun` is
    let err = refused_fire_changes_nothing(&mut enc);
    assert!(matches!(err, RuleError::AttackTaken { .. }), "{err}");
    assert!(matches!(
        run(&mut enc, "act Ana Fire Gun").unwrap_err(),
        RuleError::AttackTaken { .. }
    ));
}

#[test]
fn a_ready_with_call_a_shot_and_nothing_after_it_to_go_with_is_refused_when_declared() {
    // Given Ana in her turn
    let mut enc = table();
    // When she readies Call a Shot alone, then it is refused and nothing is held
    let err = run(&mut enc, "ready Ana 1 when Bob aims do Call a Shot").unwrap_err();
    assert!(matches!(err, RuleError::ReadyLacksPartner { .. }), "{err}");
    assert!(enc.state().find("Ana").unwrap().reserve.is_none());
    // Nor two attacks with nothing that allows the second
    let err = run(&mut enc, "ready Ana 4 when Bob aims do Fire Gun, Fire Gun").unwrap_err();
    assert!(matches!(err, RuleError::AttackTaken { .. }), "{err}");
    // When the shot follows it, then it is declared and fires, both spent
    run(
        &mut enc,
        "ready Ana 3 when Bob aims do Call a Shot, Fire Gun",
    )
    .unwrap();
    run(&mut enc, "next").unwrap();
    run(&mut enc, "fire Ana").unwrap();
    let taken: Vec<&str> = enc
        .state()
        .taken_in_turn(enc.state().find("Ana").unwrap().id)
        .collect();
    assert_eq!(taken, ["Call a Shot", "Fire Gun"]);
}

#[test]
fn a_fired_dodge_while_one_still_waits_for_the_defense_is_refused() {
    // Given Ana dodged and readied a Dodge
    let mut enc = table();
    run(&mut enc, "act Ana Dodge").unwrap();
    run(&mut enc, "ready Ana 2 when Bob shoots do Dodge").unwrap();
    run(&mut enc, "next").unwrap();
    // When the ready fires, then it is refused: the first still waits
    let err = refused_fire_changes_nothing(&mut enc);
    assert!(err.to_string().contains("already waits"), "{err}");
}

#[test]
fn a_fired_ready_checks_each_action_against_what_the_earlier_ones_left() {
    // Given Ana readied Drop Prone twice
    let mut enc = table();
    run(
        &mut enc,
        "ready Ana 2 when Bob shoots do Drop Prone, Drop Prone",
    )
    .unwrap();
    run(&mut enc, "next").unwrap();
    // When it fires, then the second is refused: the first left her Prone
    let err = refused_fire_changes_nothing(&mut enc);
    assert!(matches!(err, RuleError::AlreadyInEffect { .. }), "{err}");
    assert!(enc.state().find("Ana").unwrap().status("Prone").is_none());
}

#[test]
fn a_fired_stand_up_ends_prone_before_the_drop_prone_after_it_is_checked() {
    // Given Ana prone, with Stand Up and Drop Prone readied
    let mut enc = table();
    run(&mut enc, "act Ana Drop Prone").unwrap();
    run(
        &mut enc,
        "ready Ana 3 when Bob shoots do Stand Up, Drop Prone",
    )
    .unwrap();
    run(&mut enc, "next").unwrap();
    // When it fires, then both are spent and she is Prone again
    run(&mut enc, "fire Ana").unwrap();
    let ana = enc.state().find("Ana").unwrap();
    assert!(ana.status("Prone").is_some());
    assert!(ana.reserve.is_none());
}
