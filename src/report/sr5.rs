//! SR5's lines: each test with every die (`test Ana: 8 dice [6 6 5 5 1 1 1 2], limit 3, 3 hits
//! (4 rolled), threshold 2: success, net 1`), the attack chain, Edge, weapons, and the odds.

use std::fmt::Write as _;

use super::hits;
use crate::encounter::system::sr5::{
    Defense, Kit, OddsAgainst, OddsInput, Opponent, Pool, PoolFrom, Sr5Command, Sr5Event, Stage,
    attack_limit, n_rounds,
};
use crate::encounter::{CombatantId, Command, Encounter, RuleError, Sheet, State};
use crate::rules::sr5::odds::{Setup, odds};
use crate::rules::sr5::test::{Bonus, Faces, Goal, Roll, Verdict, counted, dice, verdict};
use crate::rules::{Glitch, HouseRules};

/// `8 dice`, `7 dice (Reaction 4 + Intuition 3)`, `6 dice (8, wounds -2)`.
fn pool_text(pool: &Pool) -> String {
    let mut notes = Vec::new();
    match &pool.from {
        PoolFrom::Sheet(parts) => notes.push(
            parts
                .iter()
                .map(|p| format!("{} {}", p.label, p.dice))
                .collect::<Vec<_>>()
                .join(" + "),
        ),
        PoolFrom::Typed if pool.wound != 0 => notes.push(pool.base.to_string()),
        PoolFrom::Typed => {}
    }
    if pool.wound != 0 {
        notes.push(format!("wounds {}", pool.wound));
    }
    if notes.is_empty() {
        dice(pool.dice())
    } else {
        format!("{} ({})", dice(pool.dice()), notes.join(", "))
    }
}

/// ` [6 5 1]` whether srtrack rolled the dice or the GM typed them (the event tells which), or
/// ` typed in` for hits typed without their dice; nothing for a pool of no dice.
fn faces_text(roll: &Roll) -> String {
    match &roll.faces {
        Faces::Rolled(d) | Faces::Typed(d) if d.is_empty() => String::new(),
        Faces::Rolled(d) | Faces::Typed(d) => {
            let faces: Vec<String> = d.iter().map(u8::to_string).collect();
            format!(" [{}]", faces.join(" "))
        }
        Faces::Untold => " typed in".into(),
    }
}

fn glitch_text(glitch: Glitch) -> &'static str {
    match glitch {
        Glitch::None => "",
        Glitch::Glitch => ", glitch",
        Glitch::Critical => ", critical glitch",
    }
}

/// `3 hits (4 rolled), glitch`: the hits that count under the limit, and the glitch.
fn hits_text(roll: &Roll, limit: Option<u8>) -> String {
    let c = counted(roll.hits, limit);
    let rolled = if c < roll.hits {
        format!(" ({} rolled)", roll.hits)
    } else {
        String::new()
    };
    format!("{}{rolled}{}", hits(c), glitch_text(roll.glitch))
}

/// `8 dice [..], 3 hits`: a roll without its limit.
fn roll_text(pool: &Pool, roll: &Roll) -> String {
    format!(
        "{}{}, {}",
        pool_text(pool),
        faces_text(roll),
        hits_text(roll, None)
    )
}

fn verdict_text(v: Option<Verdict>) -> String {
    match v {
        Some(Verdict::Success { net }) => format!("success, net {net}"),
        Some(Verdict::Failure) | None => "failure".into(),
    }
}

#[allow(clippy::too_many_arguments)]
fn tested_line(
    state: &State,
    who: CombatantId,
    pool: &Pool,
    limit: Option<u8>,
    pushed: Option<(u8, u8)>,
    goal: Goal,
    opponent: Option<&Opponent>,
    roll: &Roll,
    teamwork: Option<Bonus>,
) -> String {
    let n = |id| state.name(id).to_string();
    let self_limit = limit;
    let team = match teamwork {
        None => String::new(),
        Some(Bonus::Added { dice, limit, cap }) => {
            let capped = if dice == cap {
                format!(", at most {cap}")
            } else {
                String::new()
            };
            // The limit it raised, where the test has one (none, or pushed away: nothing to say).
            let raised = if self_limit.is_some() && limit > 0 {
                format!(", limit +{limit}")
            } else {
                String::new()
            };
            format!(" (teamwork: +{}{capped}{raised})", self::dice(dice))
        }
        Some(Bonus::Spoiled { .. }) => {
            " (teamwork: no bonus, an assistant critically glitched)".into()
        }
    };
    let mut line = format!(
        "test {}{team}: {}{}",
        n(who),
        pool_text(pool),
        faces_text(roll)
    );
    match (limit, pushed) {
        (Some(l), _) => {
            let _ = write!(line, ", limit {l}");
        }
        (None, Some((l, edge))) => {
            let _ = write!(line, ", limit {l} pushed ({edge} Edge)");
        }
        (None, None) => {}
    }
    let _ = write!(line, ", {}", hits_text(roll, limit));
    let c = counted(roll.hits, limit);
    match (goal, opponent) {
        (Goal::Threshold(t), _) => {
            let _ = write!(
                line,
                ", threshold {t}: {}",
                verdict_text(verdict(goal, c, 0))
            );
        }
        (Goal::Opposed, Some(o)) => {
            let v = verdict(goal, c, o.roll.hits);
            let tie = if c == o.roll.hits {
                format!(" (a tie goes to {})", n(o.who))
            } else {
                String::new()
            };
            let _ = write!(
                line,
                " vs {}: {}: {}{tie}",
                n(o.who),
                roll_text(&o.pool, &o.roll),
                verdict_text(v)
            );
        }
        (Goal::Open | Goal::Opposed, _) => {}
    }
    line
}

/// What of a joining character's sheet SR5 plays with: its initiative pool.
pub fn sheet_joins_text(sheet: &Sheet) -> String {
    let mut out = format!(
        "Intuition {} Reaction {} Edge {}",
        sheet.intuition, sheet.reaction, sheet.edge
    );
    // Body and Willpower size the monitors: a log read later can check them.
    super::push_monitor_attributes(&mut out, sheet);
    let _ = write!(out, ", pool {}", sheet.pool());
    out
}

/// The log line of one SR5 event, given the state just before it.
pub fn log_line(state: &State, event: &Sr5Event) -> String {
    let n = |id| state.name(id).to_string();
    match event {
        Sr5Event::WeaponAdded { who, weapon } => {
            let ammo = weapon
                .ammo
                .map(|a| format!(", {}", n_rounds(a.capacity)))
                .unwrap_or_default();
            format!(
                "{} carries {} ({}{ammo})",
                n(*who),
                weapon.name,
                weapon.stats()
            )
        }
        Sr5Event::WeaponRemoved { who, weapon } => {
            format!("{} puts away {}", n(*who), weapon.name)
        }
        Sr5Event::ArmorSet { who, rating } => format!("{}'s armor: {rating}", n(*who)),
        Sr5Event::Reloaded {
            who,
            weapon,
            rounds,
        } => format!("{} reloads {weapon}: {}", n(*who), n_rounds(*rounds)),
        Sr5Event::ClipRemoved {
            who,
            weapon,
            rounds,
        } => format!(
            "{} removes the clip of {weapon}, {} in it: 0 left",
            n(*who),
            n_rounds(*rounds)
        ),
        Sr5Event::RoundsFired {
            who,
            weapon,
            rounds,
        } => {
            let left = state
                .sr5
                .kit(*who)
                .and_then(|k| k.weapon(weapon))
                .and_then(|(_, w)| w.ammo)
                .map_or(0, |a| a.left.saturating_sub(*rounds));
            format!(
                "{}'s {weapon} fires {}: {left} left",
                n(*who),
                n_rounds(*rounds)
            )
        }
        Sr5Event::Tested {
            who,
            pool,
            limit,
            pushed,
            goal,
            opponent,
            roll,
            teamwork,
        } => tested_line(
            state,
            *who,
            pool,
            *limit,
            *pushed,
            *goal,
            opponent.as_ref(),
            roll,
            *teamwork,
        ),
        Sr5Event::Assisted {
            who,
            leader,
            pool,
            roll,
        } => format!(
            "assist {} for {}: {}",
            n(*who),
            n(*leader),
            roll_text(pool, roll)
        ),
        Sr5Event::CloseCall {
            who,
            before,
            after,
            edge,
        } => {
            let what = state
                .sr5
                .kit(*who)
                .and_then(|k| k.last_test)
                .map_or("test", |t| t.kind.label());
            let change = match (before, after) {
                (Glitch::Critical, Glitch::Glitch) => "the critical glitch becomes a glitch",
                _ => "the glitch is negated",
            };
            format!(
                "{} uses Close Call ({edge} Edge) on the {what}: {change}",
                n(*who)
            )
        }
        Sr5Event::InitiativeCloseCall {
            who,
            before,
            after,
            edge,
        } => {
            let change = match (before, after) {
                (Glitch::Critical, Glitch::Glitch) => {
                    "the critical glitch becomes a glitch (still last among equal scores)"
                }
                _ => "the glitch is negated (no longer last among equal scores)",
            };
            format!(
                "{} uses Close Call ({edge} Edge) on the initiative test: {change}",
                who.first().map_or("?", |id| state.name(*id))
            )
        }
        Sr5Event::AttackDropped { attacker, target } => format!(
            "the attack of {} on {} is dropped, unfinished",
            n(*attacker),
            n(*target)
        ),
        Sr5Event::Attacked {
            attacker,
            target,
            also,
            weapon,
            pool,
            roll,
            aim,
            pushed,
        } => format!(
            "attack {} on {} with {} ({}): {}{}, {}, {}",
            n(*attacker),
            std::iter::once(target)
                .chain(also)
                .map(|t| n(*t))
                .collect::<Vec<_>>()
                .join(", "),
            weapon.name,
            weapon.stats(),
            pool_text(pool),
            faces_text(roll),
            match (pushed, aim) {
                (Some(edge), _) => format!("limit {} pushed ({edge} Edge)", weapon.accuracy),
                (None, 0) => format!("limit {}", weapon.accuracy),
                (None, aim) => format!(
                    "limit {} (accuracy {} + Take Aim {aim})",
                    weapon.accuracy.saturating_add(*aim),
                    weapon.accuracy
                ),
            },
            hits_text(roll, attack_limit(weapon, *aim, *pushed))
        ),
        Sr5Event::Defended {
            target,
            pool,
            used,
            roll,
            attack_hits,
            result,
            ..
        } => {
            let used = if used.is_empty() {
                String::new()
            } else {
                format!(" with {}", used.join(", "))
            };
            let outcome = match result {
                Defense::Hit { net, dv } => format!(
                    "the attack hits, net {net}, DV {dv}{}",
                    state.sr5.waiting(*target).map_or(String::new(), |p| p
                        .weapon
                        .damage
                        .letter()
                        .to_string())
                ),
                Defense::Miss if roll.hits == *attack_hits => {
                    "the attack misses (a tie goes to the defender)".into()
                }
                Defense::Miss => "the attack misses".into(),
            };
            format!(
                "defense {}{used}: {} vs {}: {outcome}",
                n(*target),
                roll_text(pool, roll),
                hits(*attack_hits)
            )
        }
        Sr5Event::Soaked {
            target,
            pool,
            roll,
            dv,
            armor,
            damage,
            boxes,
        } => {
            let what = if *boxes == 0 {
                "no damage".to_string()
            } else {
                let kind = match damage {
                    crate::rules::sr5::combat::DamageType::Physical => "Physical",
                    crate::rules::sr5::combat::DamageType::Stun => "Stun",
                };
                format!("{boxes} {kind}")
            };
            let converted = if *boxes > 0
                && *damage == crate::rules::sr5::combat::DamageType::Stun
                && state
                    .sr5
                    .waiting(*target)
                    .is_some_and(|p| p.weapon.damage != *damage)
            {
                format!(" (Physical becomes Stun: DV {dv} does not exceed armor {armor})")
            } else {
                String::new()
            };
            format!(
                "soak {}: {}: DV {dv} − {} = {what}{converted}",
                n(*target),
                roll_text(pool, roll),
                hits(roll.hits)
            )
        }
    }
}

/// A character's weapons (rounds left, the one in hand) and armor, for the screen and `show`.
pub fn kit_text(kit: &Kit) -> Option<String> {
    if kit.weapons.is_empty() && kit.armor.is_none() {
        return None;
    }
    let mut parts: Vec<String> = kit
        .weapons
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let ammo = w
                .ammo
                .map(|a| {
                    let out = if a.clip_out { ", clip out" } else { "" };
                    format!(" {}/{}{out}", a.left, a.capacity)
                })
                .unwrap_or_default();
            let hand = if kit.in_hand == Some(i) {
                " in hand"
            } else {
                ""
            };
            format!("{}{ammo}{hand}", w.name)
        })
        .collect();
    if let Some(a) = kit.armor {
        parts.push(format!("armor {a}"));
    }
    Some(parts.join(", "))
}

/// The Dodge, Block or Parry a new round took away unused, one line each, told from the kits
/// before and after it: no event says so, so saves fold as they did. Names escaped.
pub fn lapsed_defense_adds(before: &State, after: &State) -> Vec<String> {
    before
        .all()
        .filter_map(|c| {
            let was = before.sr5.kit(c.id)?;
            let gone = after
                .sr5
                .kit(c.id)
                .is_none_or(|k| k.defense_adds.is_empty());
            (!was.defense_adds.is_empty() && gone).then(|| {
                let line = format!(
                    "{}'s {} lapses unused with the round",
                    c.name,
                    was.defense_adds.join(", ")
                );
                crate::text::escaped(&line).into_owned()
            })
        })
        .collect()
}

/// Defense interrupts taken and waiting for the next defense test.
pub fn defense_adds_text(kit: &Kit) -> Option<String> {
    (!kit.defense_adds.is_empty())
        .then(|| format!("{} on the next defense", kit.defense_adds.join(", ")))
}

fn step_word(stage: Stage) -> &'static str {
    match stage {
        Stage::Defense { .. } => "defense",
        Stage::Soak { .. } => "damage resistance",
    }
}

/// The attack chain waiting for the GM, in words: one line per waiting target.
pub fn pending_text(state: &State) -> Vec<String> {
    state
        .sr5
        .pending
        .iter()
        .map(|p| {
            format!(
                "{}'s attack on {} ({}) waits for {}'s {}",
                state.name(p.attacker),
                state.name(p.target),
                p.weapon.name,
                state.name(p.target),
                step_word(p.stage)
            )
        })
        .collect()
}

/// An area attack's lines for `srtrack exec`: the attack's, then one per target (its defense
/// and soak joined, or what it waits for). `None` for any other entry.
pub fn area_lines(
    before: &State,
    events: &[crate::encounter::Event],
    rules: &HouseRules,
    catalogue: &crate::catalogue::Catalogue,
) -> Option<Vec<String>> {
    use crate::encounter::Event;
    let targets: Vec<CombatantId> = events.iter().find_map(|e| match e {
        Event::Sr5(Sr5Event::Attacked { target, also, .. }) if !also.is_empty() => Some(
            std::iter::once(*target)
                .chain(also.iter().copied())
                .collect(),
        ),
        _ => None,
    })?;
    let mut state = before.clone();
    let mut lines = Vec::new();
    let mut per_target: Vec<Vec<String>> = vec![Vec::new(); targets.len()];
    for ev in events {
        let target = match ev {
            Event::Sr5(Sr5Event::Defended { target, .. } | Sr5Event::Soaked { target, .. }) => {
                targets.iter().position(|t| t == target)
            }
            Event::Sr5(e) if e.is_test() => None,
            _ => {
                state.apply(ev, rules);
                continue;
            }
        };
        if let Some(line) = super::log_line(&state, ev, rules, catalogue) {
            match target {
                Some(i) => per_target[i].push(line),
                None => lines.push(line),
            }
        }
        state.apply(ev, rules);
    }
    for (id, mut parts) in targets.into_iter().zip(per_target) {
        if let Some(p) = state.sr5.waiting(id) {
            parts.push(format!(
                "{} waits for the {}",
                state.name(id),
                step_word(p.stage)
            ));
        }
        lines.push(parts.join("; "));
    }
    Some(lines)
}

/// `Bo waits for the defense`: the target of a one-target attack the entry began, or took a
/// step further, whose next step waits for the table's dice (`state` is after the entry).
pub fn waiting_line(state: &State, events: &[crate::encounter::Event]) -> Option<String> {
    use crate::encounter::Event;
    events.iter().rev().find_map(|e| match e {
        Event::Sr5(
            Sr5Event::Attacked { target, .. }
            | Sr5Event::Defended { target, .. }
            | Sr5Event::Soaked { target, .. },
        ) => state.sr5.waiting(*target).map(|p| {
            format!(
                "{} waits for the {}",
                state.name(*target),
                step_word(p.stage)
            )
        }),
        _ => None,
    })
}

/// `odds 10 dice, limit 4, threshold 3: P(success) 0.7009, P(glitch) 0.0024, P(critical)
/// 0.0003, net 0.44` (an open test, which the hits answer: `odds 5 dice: hits 1.67, P(glitch)
/// 0.0355, P(critical) 0.0136`), once the engine has taken the question (its system, its numbers).
pub fn odds_answer(enc: &Encounter, q: &OddsInput) -> Result<String, RuleError> {
    enc.check(Command::Sr5(Sr5Command::Odds(*q)))?;
    Ok(odds_line(q, enc.rules()))
}

/// The odds line of a question already checked.
pub fn odds_line(q: &OddsInput, rules: &HouseRules) -> String {
    told_odds(q, rules, None)
}

/// [`odds_line`] of a question whose pools the engine made (a form's dry run): each pool said
/// as the log says it, with what it holds (`6 dice (8, wounds -2)`), so that the odds show the
/// wound modifier and the sheet's pools they count. `pool` and `opposing` hold the question's
/// dice.
pub fn pools_odds_line(
    q: &OddsInput,
    rules: &HouseRules,
    pool: &Pool,
    opposing: Option<&Pool>,
) -> String {
    told_odds(q, rules, Some((pool, opposing)))
}

fn told_odds(q: &OddsInput, rules: &HouseRules, pools: Option<(&Pool, Option<&Pool>)>) -> String {
    let byte = |v: i32| u8::try_from(v).unwrap_or(u8::MAX);
    let opposing_text = |p: u8| match pools.and_then(|(_, o)| o) {
        Some(o) => pool_text(o),
        None => dice(p),
    };
    let (goal, opposing, against) = match q.against {
        OddsAgainst::Open => (Goal::Open, 0, String::new()),
        OddsAgainst::Threshold(t) => (Goal::Threshold(byte(t)), 0, format!(", threshold {t}")),
        OddsAgainst::Pool(p) => (
            Goal::Opposed,
            byte(p),
            format!(", vs {}", opposing_text(byte(p))),
        ),
    };
    let o = odds(
        &Setup {
            pool: byte(q.pool),
            limit: q.limit.map(byte),
            goal,
            opposing,
        },
        &rules.dice,
    );
    let limit = q.limit.map(|l| format!(", limit {l}")).unwrap_or_default();
    let glitches = format!("P(glitch) {:.4}, P(critical) {:.4}", o.glitch, o.critical);
    let pool = pools.map_or_else(|| dice(byte(q.pool)), |(p, _)| pool_text(p));
    match goal {
        Goal::Open => format!("odds {pool}{limit}: hits {:.2}, {glitches}", o.hits),
        Goal::Threshold(_) | Goal::Opposed => format!(
            "odds {pool}{limit}{against}: P(success) {:.4}, {glitches}, net {:.2}",
            o.success, o.net
        ),
    }
}

/// What the recap says of an SR5 event: Edge spent on Push the Limit and Close Call counts with
/// the rest; tests, and a Close Call that changes one, are told as the log tells them.
pub(super) fn recap_told(
    before: &State,
    e: &Sr5Event,
    rec: &mut super::recap::Recap,
) -> Option<super::recap::Told> {
    let edge = match e {
        Sr5Event::Tested {
            who,
            pushed: Some((_, edge)),
            ..
        }
        | Sr5Event::CloseCall { who, edge, .. } => Some((*who, *edge)),
        Sr5Event::InitiativeCloseCall { who, edge, .. } => who.first().map(|w| (*w, *edge)),
        _ => None,
    };
    if let Some((who, edge)) = edge {
        *rec.edge.entry(who).or_default() += u32::from(edge);
    }
    (e.is_test() || e.is_close_call()).then(|| super::recap::as_logged(&log_line(before, e)))
}

/// The recap's own summary lines for an SR5 fight: the initiative-pass machine's.
pub(super) fn in_short(rec: &super::recap::Recap) -> Vec<String> {
    vec![super::recap::passes_line(rec)]
}
