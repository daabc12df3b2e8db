//! Checks the numbers a saved Anarchy or SR 2097 event claims against its own dice and the
//! save's rules: what a roll came to is worked out again from its dice, a spend costs what the
//! menu says, a test's pool is one the typed command would take, an injury is the one its
//! damage makes.

use crate::encounter::State;
use crate::encounter::system::anarchy::{AnarchyEvent, PoolInput, TestInput};
use crate::encounter::system::sr2097::Sr2097Event;
use crate::rules::HouseRules;
use crate::rules::anarchy::test::{self, Pool};
use crate::rules::anarchy::{SpendCost, plot};
use crate::rules::sr2097::{DamageRoll, Sr2097Rules, check, damage};

/// The pool as the command line would have typed it.
fn typed(pool: Pool) -> PoolInput {
    match pool {
        Pool::Dice(n) => PoolInput::Dice(i32::from(n)),
        Pool::Skill {
            skill,
            attribute,
            modifier,
        } => PoolInput::Skill {
            skill: i32::from(skill),
            attribute: i32::from(attribute),
            modifier: i32::from(modifier),
        },
        Pool::Untrained {
            attribute,
            modifier,
        } => PoolInput::Untrained {
            attribute: i32::from(attribute),
            modifier: i32::from(modifier),
        },
        Pool::Attributes {
            first,
            second,
            modifier,
        } => PoolInput::Attributes {
            first: i32::from(first),
            second: i32::from(second),
            modifier: i32::from(modifier),
        },
    }
}

/// The Plot Points a spend named `what` costs under the save's rules: `points` must be its
/// price, or a Montage in its range.
fn spend_cost(what: &str, points: u8, rules: &HouseRules) -> Result<(), String> {
    let a = &rules.anarchy;
    let Some(def) = a.spend(what) else {
        return Err(format!(
            "no Plot Point spend called \"{what}\" in the save's rules"
        ));
    };
    match def.cost {
        SpendCost::Points(p) if p != points => Err(format!(
            "{what} costs {p} Plot Points under the save's rules, not {points}"
        )),
        SpendCost::Chosen if !a.limits.montage.contains(i32::from(points)) => Err(format!(
            "{what} of {points} Plot Points: the save's rules allow {} to {}",
            a.limits.montage.min, a.limits.montage.max
        )),
        SpendCost::Points(_) | SpendCost::Chosen => Ok(()),
    }
}

/// Whether the numbers of an Anarchy event agree with its dice and the save's rules.
pub fn anarchy(state: &State, event: &AnarchyEvent, rules: &HouseRules) -> Result<(), String> {
    let a = &rules.anarchy;
    let who = |id| state.name(id).to_string();
    match event {
        AnarchyEvent::Spent {
            who: id,
            what,
            points,
            gm_gained,
            ..
        } => {
            spend_cost(what, *points, rules)?;
            let gain = plot::gm_gain(*points, &a.plot_points);
            if *gm_gained != gain {
                return Err(format!(
                    "{} spends {points} Plot Points and the GM gains {gm_gained}: the save's rules give {gain}",
                    who(*id)
                ));
            }
        }
        AnarchyEvent::GmSpent { what, points, .. } => spend_cost(what, *points, rules)?,
        AnarchyEvent::OrderChosen { points, .. } if *points != a.plot_points.gm_order_change => {
            return Err(format!(
                "the GM pays {points} Plot Points for the turn's order: the save's rules say {}",
                a.plot_points.gm_order_change
            ));
        }
        AnarchyEvent::TurnBegan { turn, .. } => {
            let next = state.narration().map_or(1, |n| n.turn.saturating_add(1));
            if *turn != next {
                return Err(format!("turn {turn} begins where turn {next} is next"));
            }
        }
        AnarchyEvent::GearDamaged {
            who: id, boxes: 0, ..
        }
        | AnarchyEvent::GearRepaired {
            who: id, boxes: 0, ..
        } => {
            return Err(format!(
                "{}'s gear takes or gets back 0 boxes: damage and repair are of 1 box or more",
                who(*id)
            ));
        }
        AnarchyEvent::Tested {
            who: id,
            spec,
            roll,
            outcome,
            ..
        } => {
            // The test as the command line would state it: its numbers within the limits.
            let input = TestInput {
                pool: typed(spec.pool),
                opposing: typed(spec.opposing),
                teamwork: i32::from(spec.teamwork),
                edge: spec.edge,
                glitch_die: spec.glitch_die,
            };
            if input.spec(a).map_err(|e| e.to_string())? != *spec {
                return Err(format!(
                    "{}'s test is not one a command could state",
                    who(*id)
                ));
            }
            let counts = (
                roll.dice.len(),
                roll.opposing.len(),
                roll.glitch_die.is_some(),
            );
            let want = (
                usize::from(spec.dice(&a.test)),
                usize::from(spec.opposing.dice()),
                spec.glitch_die,
            );
            if counts != want {
                return Err(format!(
                    "{}'s test rolls {} dice against {}, but its pools give {} against {}",
                    who(*id),
                    counts.0,
                    counts.1,
                    want.0,
                    want.1
                ));
            }
            if test::outcome(spec, roll, &a.test, &a.glitch_die) != *outcome {
                return Err(format!(
                    "{}'s test records {} hits against {}, which its dice do not show",
                    who(*id),
                    outcome.hits,
                    outcome.opposing_hits
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// A damage roll's dice: as many as its parts say, each part one the save's rules can give.
fn damage_roll(roll: &DamageRoll, edge: bool, rules: &Sr2097Rules) -> Result<(), String> {
    let d = &rules.damage;
    if roll.dice.len() != usize::from(roll.count()) {
        return Err(format!(
            "a damage roll of {} dice for {} + {} + {}",
            roll.dice.len(),
            roll.base,
            roll.mos_dice,
            roll.edge_dice
        ));
    }
    let mos_steps = rules.check.mos_damage_dice.iter().map(|s| s.dice);
    if roll.mos_dice != 0 && !mos_steps.clone().any(|n| n == roll.mos_dice) {
        return Err(format!(
            "a damage roll with {} dice for the MoS, which no step of the save's rules gives",
            roll.mos_dice
        ));
    }
    let edge_dice = if edge { rules.edge.damage_dice } else { 0 };
    if roll.edge_dice != 0 && roll.edge_dice != edge_dice {
        return Err(format!(
            "a damage roll with {} dice for Edge: the save's rules give {edge_dice}",
            roll.edge_dice
        ));
    }
    if !d.dice.contains(i32::from(roll.base)) || !d.st.contains(i32::from(roll.st)) {
        return Err(format!(
            "a damage roll of {}d{} + {}: dice {} to {}, ST {} to {}",
            roll.base, d.die, roll.st, d.dice.min, d.dice.max, d.st.min, d.st.max
        ));
    }
    Ok(())
}

/// Whether the numbers of an SR 2097 event agree with its dice and the save's rules.
pub fn sr2097(state: &State, event: &Sr2097Event, rules: &Sr2097Rules) -> Result<(), String> {
    match event {
        Sr2097Event::Checked {
            roll,
            outcome,
            attack_dice,
            ..
        } => {
            let c = &rules.check;
            if !c.tn.contains(roll.check.tn) || !c.bonus.contains(roll.check.bonus) {
                return Err(format!(
                    "a check of TN {} with a bonus of {}: TN {} to {}, bonus {} to {}",
                    roll.check.tn, roll.check.bonus, c.tn.min, c.tn.max, c.bonus.min, c.bonus.max
                ));
            }
            let want = check::dice_count(roll.check.tilt, rules);
            let dropped_ok = match roll.dropped {
                None => roll.check.tilt == check::Tilt::Even,
                Some(i) => roll.check.tilt != check::Tilt::Even && i < roll.dice.len(),
            };
            if roll.dice.len() != want || !dropped_ok {
                return Err(format!(
                    "a check of {} dice where its Advantage or Disadvantage gives {want}, one set aside if more than {}",
                    roll.dice.len(),
                    c.dice
                ));
            }
            let read = roll.outcome(rules);
            if read != *outcome {
                return Err(format!(
                    "a check's dice [{}] + {} make {}, not the {} it records",
                    roll.dice
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                    roll.check.bonus,
                    read.total,
                    outcome.total
                ));
            }
            let dice = if read.verdict.is_success() {
                damage::mos_dice(read.mos, rules)
            } else {
                0
            };
            if *attack_dice != dice {
                return Err(format!(
                    "a check of MoS {} adds {attack_dice} damage dice: the save's rules give {dice}",
                    read.mos
                ));
            }
        }
        Sr2097Event::DamageRolled {
            target,
            roll,
            armor,
            through,
            injury,
            ..
        }
        | Sr2097Event::Harmed {
            target,
            roll,
            armor,
            through,
            injury,
        } => {
            let edge = matches!(event, Sr2097Event::DamageRolled { .. });
            damage_roll(roll, edge, rules)?;
            let worn = state.sr2097.as_ref().and_then(|s| s.sheet(*target).armor);
            if *armor != worn {
                return Err(format!(
                    "{}'s armor in the damage roll is not the armor on the sheet",
                    state.name(*target)
                ));
            }
            let total = roll.total();
            if damage::through(total, *armor, rules) != *through {
                return Err(format!(
                    "{total} damage goes through armor other than the save's rules say"
                ));
            }
            let left = through.left(total);
            let made = damage::severity(left, rules).map(|s| (left, s));
            if injury.map(|i| (i.damage, i.severity)) != made {
                let said = injury.map_or("no injury".into(), |i| {
                    format!("a {} injury of {}", i.severity.word(), i.damage)
                });
                let due = made.map_or("none".into(), |(_, s)| {
                    format!("a {} injury of {left}", s.word())
                });
                return Err(format!(
                    "{said} where {left} damage got through armor: the save's rules make {due}"
                ));
            }
        }
        _ => {}
    }
    Ok(())
}
