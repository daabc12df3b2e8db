//! Checks a saved SR5 event against the state before it: the people it names are there, every
//! die is a face of the die and adds up to what the event says, Edge and rounds spent were held,
//! and an attack's steps come in order.

use crate::encounter::system::sr5::{Pool, Sr5Event, Stage};
use crate::encounter::{CombatantId, State};
use crate::rules::HouseRules;
use crate::rules::dice::PoolRoll;
use crate::rules::sr5::test::{Faces, Roll};

fn present(state: &State, id: CombatantId) -> Result<&crate::encounter::Combatant, String> {
    match state.get(id) {
        Some(c) if c.is_present() => Ok(c),
        Some(c) => Err(format!("{} has been removed", c.name)),
        None => Err(format!("no combatant with id {}", id.0)),
    }
}

/// The target's step of the attack under way is the one that comes next.
fn next_step(
    state: &State,
    target: CombatantId,
    step: fn(&Stage) -> bool,
    otherwise: &str,
) -> Result<(), String> {
    let waits = state.sr5.waiting(target).is_some_and(|p| step(&p.stage));
    if waits { Ok(()) } else { Err(otherwise.into()) }
}

/// The roll is `pool`'s, and its faces (if any) show the hits and glitch it claims.
fn roll(pool: Option<&Pool>, roll: &Roll, rules: &HouseRules) -> Result<(), String> {
    if let Some(p) = pool
        && p.dice() != roll.pool
    {
        return Err(format!(
            "a roll of {} dice for a pool of {}",
            roll.pool,
            p.dice()
        ));
    }
    match &roll.faces {
        Faces::Rolled(d) | Faces::Typed(d) => {
            if d.iter().any(|f| *f == 0 || *f > rules.dice.sides) {
                return Err(format!(
                    "a die shows a face a d{} does not have",
                    rules.dice.sides
                ));
            }
            let read = PoolRoll::from_dice(d.clone(), &rules.dice);
            if d.len() != usize::from(roll.pool)
                || read.hits != roll.hits
                || read.glitch != roll.glitch
            {
                return Err("a roll's dice do not show the hits and glitch it records".into());
            }
        }
        Faces::Untold if roll.hits > roll.pool => {
            return Err(format!(
                "{} hits on a pool of {} dice",
                roll.hits, roll.pool
            ));
        }
        Faces::Untold => {}
    }
    Ok(())
}

fn edge(state: &State, who: CombatantId, spent: u8) -> Result<(), String> {
    let c = present(state, who)?;
    if spent > c.edge_left {
        return Err(format!(
            "{} spends {spent} Edge but has {} left",
            c.name, c.edge_left
        ));
    }
    Ok(())
}

/// Whether `event` may follow `state`.
pub fn check(state: &State, event: &Sr5Event, rules: &HouseRules) -> Result<(), String> {
    let weapon = |who: CombatantId, name: &str| {
        state
            .sr5
            .kit(who)
            .and_then(|k| k.weapon(name))
            .map(|(_, w)| w.clone())
            .ok_or_else(|| format!("{} has no weapon \"{name}\"", state.name(who)))
    };
    match event {
        Sr5Event::WeaponAdded { who, .. } | Sr5Event::ArmorSet { who, .. } => {
            present(state, *who)?;
        }
        // The weapon goes off as the sheet holds it, rounds and clip: undo brings it back so.
        Sr5Event::WeaponRemoved { who, weapon: w } => {
            present(state, *who)?;
            if weapon(*who, &w.name)? != *w {
                return Err(format!(
                    "{} is removed other than {} holds it",
                    w.name,
                    state.name(*who)
                ));
            }
        }
        Sr5Event::ClipRemoved {
            who,
            weapon: w,
            rounds,
        } => {
            present(state, *who)?;
            let Some(ammo) = weapon(*who, w)?.ammo else {
                return Err(format!("{w} takes no ammunition but its clip is removed"));
            };
            if *rounds != ammo.left {
                return Err(format!(
                    "{w}'s clip is removed with {rounds} rounds in it, but it holds {}",
                    ammo.left
                ));
            }
        }
        Sr5Event::Reloaded { who, weapon: w, .. } => {
            present(state, *who)?;
            if weapon(*who, w)?.ammo.is_none() {
                return Err(format!("{w} takes no ammunition but is reloaded"));
            }
        }
        Sr5Event::RoundsFired {
            who,
            weapon: w,
            rounds,
        } => {
            present(state, *who)?;
            let left = weapon(*who, w)?.ammo.map_or(0, |a| a.left);
            if *rounds > left {
                return Err(format!("{w} fires {rounds} rounds with {left} left"));
            }
        }
        Sr5Event::Tested {
            who,
            pool,
            pushed,
            opponent,
            roll: r,
            ..
        } => {
            present(state, *who)?;
            roll(Some(pool), r, rules)?;
            if let Some((_, spent)) = pushed {
                edge(state, *who, *spent)?;
            }
            if let Some(o) = opponent {
                present(state, o.who)?;
                roll(Some(&o.pool), &o.roll, rules)?;
            }
        }
        Sr5Event::Assisted {
            who,
            leader,
            pool,
            roll: r,
        } => {
            present(state, *who)?;
            present(state, *leader)?;
            roll(Some(pool), r, rules)?;
        }
        Sr5Event::CloseCall {
            who,
            before,
            edge: spent,
            ..
        } => {
            edge(state, *who, *spent)?;
            let last = state.sr5.kit(*who).and_then(|k| k.last_test);
            if last.is_none_or(|t| t.glitch != *before || t.close_called) {
                return Err(format!(
                    "{} uses Close Call on a test that did not glitch that way",
                    state.name(*who)
                ));
            }
        }
        Sr5Event::InitiativeCloseCall {
            who,
            before,
            edge: spent,
            ..
        } => {
            let spender = who
                .first()
                .ok_or("a Close Call on initiative names no one")?;
            edge(state, *spender, *spent)?;
            for id in who {
                let roll = present(state, *id)?.initiative.as_ref();
                if roll.is_none_or(|r| r.glitch != *before || r.close_called) {
                    return Err(format!(
                        "{} uses Close Call on an initiative test that did not glitch that way",
                        state.name(*id)
                    ));
                }
            }
        }
        Sr5Event::AttackDropped { attacker, target } => {
            if !state
                .sr5
                .pending
                .iter()
                .any(|p| p.attacker == *attacker && p.target == *target)
            {
                return Err("an attack is dropped that was not under way".into());
            }
        }
        Sr5Event::Attacked {
            attacker,
            target,
            also,
            weapon: w,
            pool,
            roll: r,
            pushed,
            ..
        } => {
            if let Some(spent) = pushed {
                edge(state, *attacker, *spent)?;
            }
            present(state, *attacker)?;
            let all: Vec<CombatantId> = std::iter::once(*target).chain(also.clone()).collect();
            for (i, t) in all.iter().enumerate() {
                present(state, *t)?;
                if t == attacker || all[..i].contains(t) {
                    return Err(format!(
                        "{} is a target twice, or the attacker's own",
                        state.name(*t)
                    ));
                }
            }
            if !state.sr5.pending.is_empty() {
                return Err("an attack starts while another still waits undropped".into());
            }
            weapon(*attacker, &w.name)?;
            roll(Some(pool), r, rules)?;
        }
        Sr5Event::Defended {
            target,
            pool,
            roll: r,
            ..
        } => {
            present(state, *target)?;
            roll(Some(pool), r, rules)?;
            next_step(
                state,
                *target,
                |s| matches!(s, Stage::Defense { .. }),
                "a defense with no attack waiting for it",
            )?;
        }
        Sr5Event::Soaked {
            target,
            pool,
            roll: r,
            ..
        } => {
            present(state, *target)?;
            roll(Some(pool), r, rules)?;
            next_step(
                state,
                *target,
                |s| matches!(s, Stage::Soak { .. }),
                "damage resisted with no hit waiting for it",
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encounter::system::sr5::{Defense, PoolFrom};
    use crate::encounter::{Event, Sheet, Side};
    use crate::rules::Glitch;
    use crate::rules::sr5::test::Goal;

    fn one() -> (State, HouseRules) {
        let rules = HouseRules::embedded();
        let mut state = State::default();
        state.apply(
            &Event::CombatantAdded {
                id: CombatantId(0),
                name: "Ana".into(),
                side: Side::Pc,
                sheet: Sheet {
                    intuition: 3,
                    reaction: 3,
                    edge: 1,
                    dice_modifier: 0,
                    ip_bonus: 0,
                    body: Some(3),
                    willpower: None,
                },
                group: None,
            },
            &rules,
        );
        (state, rules)
    }

    fn typed(pool: u8) -> Pool {
        Pool {
            base: pool,
            wound: 0,
            from: PoolFrom::Typed,
        }
    }

    fn tested(faces: Vec<u8>, hits: u8, glitch: Glitch) -> Sr5Event {
        Sr5Event::Tested {
            who: CombatantId(0),
            pool: typed(faces.len() as u8),
            limit: None,
            pushed: None,
            goal: Goal::Open,
            opponent: None,
            roll: Roll {
                pool: faces.len() as u8,
                faces: Faces::Rolled(faces),
                hits,
                glitch,
            },
            teamwork: None,
        }
    }

    #[test]
    fn dice_must_be_faces_and_show_what_the_event_says() {
        let (state, rules) = one();
        assert!(check(&state, &tested(vec![6, 5, 1], 2, Glitch::None), &rules).is_ok());
        assert!(
            check(&state, &tested(vec![6, 7, 1], 1, Glitch::None), &rules)
                .unwrap_err()
                .contains("a d6 does not have")
        );
        assert!(
            check(&state, &tested(vec![6, 5, 1], 3, Glitch::None), &rules)
                .unwrap_err()
                .contains("do not show")
        );
    }

    #[test]
    fn edge_spent_must_be_held_and_steps_must_wait_their_turn() {
        let (state, rules) = one();
        let close = Sr5Event::CloseCall {
            who: CombatantId(0),
            before: Glitch::Glitch,
            after: Glitch::None,
            edge: 2,
        };
        assert!(check(&state, &close, &rules).unwrap_err().contains("Edge"));
        let defended = Sr5Event::Defended {
            target: CombatantId(0),
            attacker: CombatantId(0),
            pool: typed(1),
            used: Vec::new(),
            roll: Roll {
                pool: 1,
                faces: Faces::Untold,
                hits: 0,
                glitch: Glitch::None,
            },
            attack_hits: 1,
            result: Defense::Miss,
        };
        assert!(
            check(&state, &defended, &rules)
                .unwrap_err()
                .contains("no attack waiting")
        );
    }

    #[test]
    fn an_area_attack_names_each_target_once_and_not_the_attacker() {
        let (mut state, rules) = one();
        state.apply(
            &Event::CombatantAdded {
                id: CombatantId(1),
                name: "Bo".into(),
                side: Side::Npc,
                sheet: state.get(CombatantId(0)).expect("Ana").sheet,
                group: None,
            },
            &rules,
        );
        state.apply(
            &Event::Sr5(Sr5Event::WeaponAdded {
                who: CombatantId(0),
                weapon: crate::encounter::system::sr5::Weapon {
                    name: "Club".into(),
                    dv: 5,
                    damage: crate::rules::sr5::combat::DamageType::Physical,
                    ap: 0,
                    accuracy: 4,
                    ammo: None,
                },
            }),
            &rules,
        );
        let attacked = |target: u32, also: Vec<CombatantId>| Sr5Event::Attacked {
            attacker: CombatantId(0),
            target: CombatantId(target),
            also,
            weapon: state.sr5.kit(CombatantId(0)).expect("a kit").weapons[0].clone(),
            pool: typed(1),
            roll: Roll {
                pool: 1,
                faces: Faces::Untold,
                hits: 1,
                glitch: Glitch::None,
            },
            aim: 0,
            pushed: None,
        };
        assert!(
            check(&state, &attacked(0, Vec::new()), &rules)
                .unwrap_err()
                .contains("the attacker's own")
        );
        assert!(
            check(&state, &attacked(1, vec![CombatantId(1)]), &rules)
                .unwrap_err()
                .contains("Bo is a target twice")
        );
        assert!(check(&state, &attacked(1, Vec::new()), &rules).is_ok());
    }
}
