//! Shadowrun 2097's lines: the log line of each of its events (a check or a damage roll with
//! every die), the odds of a check, and the notes of a character's 2097 sheet.

use crate::encounter::system::sr2097::{
    DamageSource, Fate, Reach, Recovery, Sr2097Event, Sr2097Sheet, TieBreak, Weapon, bonus_value,
};
use crate::encounter::{Combatant, CombatantId, RuleError, Sheet, State, Track};
use crate::lang::OddsQuery;
use crate::rules::sr2097::check::{self, Double, Outcome};
use crate::rules::sr2097::{
    CheckRoll, DamageRoll, DiceFrom, EdgeOnCheck, Sr2097Error, Sr2097Rules, Through, Tilt, damage,
};

fn faces(dice: &[u8]) -> String {
    let f: Vec<String> = dice.iter().map(u8::to_string).collect();
    format!("[{}]", f.join(" "))
}

/// "+ 12", "- 3".
fn signed(n: i32) -> String {
    if n < 0 {
        format!("- {}", -n)
    } else {
        format!("+ {n}")
    }
}

fn sheet(state: &State, id: CombatantId) -> Option<&Sr2097Sheet> {
    state.sr2097.as_ref().map(|s| s.sheet(id))
}

/// "Edge 2/3": what is left, and the most it can be.
pub fn edge_text(state: &State, c: &Combatant) -> String {
    format!("Edge {}/{}", c.edge_left, state.edge_max(c))
}

/// `sc Ana: 2d10 [7 7] + 12 = 26 vs TN 20: success, MoS 6 +5 double = 11 (complete)`.
pub fn check_line(
    name: &str,
    roll: &CheckRoll,
    outcome: &Outcome,
    attack_dice: u8,
    cancelled: bool,
) -> String {
    let c = &roll.check;
    // Typed-in dice read the same: the entry's command shows them.
    let mut line = format!("sc {name}: {}d10 {}", roll.dice.len(), faces(&roll.dice));
    let mut how = Vec::new();
    if let Some(at) = roll.dropped
        && let Some(face) = roll.dice.get(at)
    {
        line.push_str(&format!(" drop {face}"));
        how.push(c.tilt.label());
    }
    if cancelled {
        how.push(check::CANCEL);
    }
    match c.edge {
        EdgeOnCheck::None => {}
        EdgeOnCheck::GainedAdvantage => how.push("by Edge"),
        EdgeOnCheck::RemovedDisadvantage => how.push("Edge removed Disadvantage"),
    }
    if !how.is_empty() {
        line.push_str(&format!(" ({})", how.join(", ")));
    }
    let verdict = if outcome.verdict.is_success() {
        "success"
    } else {
        "failure"
    };
    line.push_str(&format!(
        " {} = {} vs TN {}: {verdict}, MoS {}",
        signed(c.bonus),
        outcome.total,
        c.tn,
        outcome.margin
    ));
    if outcome.double != Double::None {
        let edge = if outcome.double == Double::Edge {
            " (Edge)"
        } else {
            ""
        };
        let sign = if outcome.double_bonus < 0 { "-" } else { "+" };
        line.push_str(&format!(
            " {sign}{} double{edge} = {}",
            outcome.double_bonus.abs(),
            outcome.mos
        ));
    }
    line.push_str(&format!(" ({})", outcome.verdict.words()));
    if attack_dice > 0 {
        line.push_str(&format!("; an attack adds {attack_dice}d6 damage"));
    }
    line
}

/// `dmg Ana → Bo with Katana: 2d6 [6 6] + 4 = 16 vs PT 15/DR 30: 16 - 4 (30%) = 12, serious injury`.
pub fn damage_line(
    by: Option<&str>,
    target: &str,
    weapon: Option<&str>,
    roll: &DamageRoll,
    armor: Option<crate::rules::sr2097::Armor>,
    through: Through,
    injury: Option<&crate::encounter::system::sr2097::Injury>,
) -> String {
    // Damage with no attacker (a fall, fire) has no arrow: nobody dealt it.
    let mut line = match by {
        Some(by) => format!("dmg {by} → {target}"),
        None => format!("dmg {target}"),
    };
    if let Some(w) = weapon {
        line.push_str(&format!(" with {w}"));
    }
    let (base, rest) = roll
        .dice
        .split_at(usize::from(roll.base).min(roll.dice.len()));
    let (mos, edge) = rest.split_at(usize::from(roll.mos_dice).min(rest.len()));
    line.push_str(&format!(": {}d6 {}", roll.base, faces(base)));
    if !mos.is_empty() {
        line.push_str(&format!(" + {}d6 MoS {}", mos.len(), faces(mos)));
    }
    if !edge.is_empty() {
        line.push_str(&format!(" + {}d6 Edge {}", edge.len(), faces(edge)));
    }
    let total = roll.total();
    line.push_str(&format!(" + {} = {total}", roll.st));
    match (armor, through) {
        (Some(a), Through::Stopped) => {
            line.push_str(&format!(" vs PT {}/DR {}: below PT, stopped", a.pt, a.dr));
        }
        (Some(a), Through::Reduced { reduced }) => line.push_str(&format!(
            " vs PT {}/DR {}: {total} - {reduced} ({}%) = {}",
            a.pt,
            a.dr,
            a.dr,
            through.left(total)
        )),
        (None, _) | (_, Through::Unarmored) => line.push_str(", no armor"),
    }
    match injury {
        Some(i) => {
            let stun = if i.track == Track::Stun { " stun" } else { "" };
            line.push_str(&format!(", {}{stun} injury", i.severity.word()));
        }
        None => line.push_str(", no injury"),
    }
    line
}

fn weapon_text(w: &Weapon) -> String {
    let stun = if w.track == Track::Stun { ", stun" } else { "" };
    match w.reach {
        Reach::Melee => format!("{}: {}d6 + Strength (melee{stun})", w.name, w.dice),
        Reach::Ranged { st } => format!(
            "{}: {}d6+{st}{}",
            w.name,
            w.dice,
            if stun.is_empty() { "" } else { " (stun)" }
        ),
    }
}

/// The severity of a character's injury (by index), in a word.
fn injury_word(state: &State, who: CombatantId, injury: usize) -> &'static str {
    sheet(state, who)
        .and_then(|s| s.injuries.get(injury))
        .map_or("?", |i| i.severity.word())
}

/// What of a joining character's sheet 2097 plays with: its initiative, d6s (the sheet's
/// modifier changes their number) + Intuition + Reaction, and its Edge.
pub fn sheet_joins_text(sheet: &Sheet, rules: &Sr2097Rules) -> String {
    format!(
        "Intuition {} Reaction {} Edge {}, initiative {}d6 + {}",
        sheet.intuition,
        sheet.reaction,
        sheet.edge,
        rules.initiative_dice(sheet.dice_modifier),
        u16::from(sheet.intuition) + u16::from(sheet.reaction)
    )
}

/// The log line of a 2097 event, given the state just before it.
pub fn log_line(before: &State, event: &Sr2097Event) -> String {
    let n = |id| before.name(id).to_string();
    // Edge after the event: `spent` from what is left, `burned` from the maximum, `gained` back.
    let edge_after = |id: CombatantId, spent: u8, burned: u8, gained: u8| {
        before.get(id).map_or_else(String::new, |c| {
            let max = before.edge_max(c).saturating_sub(burned);
            let left = c.edge_left.saturating_sub(spent).saturating_add(gained);
            format!("Edge {left}/{max}")
        })
    };
    match event {
        Sr2097Event::EdgeSpent { who, on, edge } => format!(
            "{} spends {edge} Edge {} ({})",
            n(*who),
            on.label(),
            edge_after(*who, *edge, 0, 0)
        ),
        Sr2097Event::Checked {
            who,
            roll,
            outcome,
            attack_dice,
            cancelled,
        } => check_line(&n(*who), roll, outcome, *attack_dice, *cancelled),
        Sr2097Event::DamageRolled {
            by,
            target,
            weapon,
            roll,
            armor,
            through,
            injury,
        } => damage_line(
            Some(&n(*by)),
            &n(*target),
            weapon.as_deref(),
            roll,
            *armor,
            *through,
            injury.as_ref(),
        ),
        Sr2097Event::Harmed {
            target,
            roll,
            armor,
            through,
            injury,
        } => damage_line(
            None,
            &n(*target),
            None,
            roll,
            *armor,
            *through,
            injury.as_ref(),
        ),
        Sr2097Event::InjuryLessened { who, injury, to } => {
            let from = injury_word(before, *who, *injury);
            format!(
                "{}'s injury {} is lessened: {from} → {}",
                n(*who),
                injury + 1,
                to.word()
            )
        }
        Sr2097Event::InitiativeBoosted {
            who,
            dice,
            from,
            round,
            pass,
        } => {
            let sum: u8 = dice.iter().sum();
            let score = before
                .get(*who)
                .and_then(|c| c.initiative.as_ref())
                .map_or(0, crate::rules::initiative::InitiativeRoll::score);
            let typed = if *from == DiceFrom::Typed {
                " typed in"
            } else {
                ""
            };
            format!(
                "{} boosts initiative: {}d6 {}{typed} = +{sum}, score {} for the turn in round {round}, pass {pass}",
                n(*who),
                dice.len(),
                faces(dice),
                score.saturating_add(sum)
            )
        }
        Sr2097Event::EdgeBurned {
            who,
            injury,
            edge,
            max,
        } => {
            let what = injury_word(before, *who, *injury);
            format!(
                "{} burns Edge to survive the {what} injury {} ({}, the maximum lowered for good): alive, needs medical attention",
                n(*who),
                injury + 1,
                edge_after(*who, *edge, *max, 0)
            )
        }
        Sr2097Event::BoostTieWon {
            who,
            over,
            score,
            by,
        } => {
            let tie = match by {
                TieBreak::Dice { won, lost } => format!("more dice, {won} to {lost}"),
                TieBreak::Edge { dice, won, lost } => {
                    format!("more dice ({dice} each), then higher Edge, {won} to {lost}")
                }
            };
            format!(
                "{}, boosted to {score}, ties {}'s {score} and goes first: a tie goes by {tie}",
                n(*who),
                n(*over)
            )
        }
        Sr2097Event::EdgeRecovered { who, gained, why } => {
            let why = match why {
                Recovery::Award => "GM's award",
                Recovery::Rest => "long rest",
                Recovery::Scenario => "between scenarios",
            };
            format!(
                "{} regains {gained} Edge ({why}): {}",
                n(*who),
                edge_after(*who, 0, 0, *gained)
            )
        }
        Sr2097Event::ArmorSet { who, armor } => {
            format!("{}'s armor: PT {}/DR {}", n(*who), armor.pt, armor.dr)
        }
        Sr2097Event::StrengthSet { who, strength } => {
            format!("{}'s Strength: {strength}", n(*who))
        }
        Sr2097Event::WeaponAdded { who, weapon } => {
            format!("{} carries {}", n(*who), weapon_text(weapon))
        }
        Sr2097Event::WeaponRemoved { who, name } => format!("{} puts away {name}", n(*who)),
    }
}

/// What a character's 2097 sheet holds beyond Edge (which the order and the status line tell),
/// for the `show` page and the status pane.
pub fn sheet_notes(state: &State, c: &Combatant) -> Vec<String> {
    let Some(s) = sheet(state, c.id) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    if let Some(a) = s.armor {
        notes.push(format!("armor PT {}/DR {}", a.pt, a.dr));
    }
    if let Some(st) = s.strength {
        notes.push(format!("Strength {st}"));
    }
    for w in &s.weapons {
        notes.push(weapon_text(w));
    }
    notes
}

/// A character's injuries: "injuries: 1 serious (12), 2 graze (3), 3 critical (17, tended)".
pub fn injuries_text(state: &State, c: &Combatant) -> Option<String> {
    let s = sheet(state, c.id)?;
    if s.injuries.is_empty() {
        return None;
    }
    let list: Vec<String> = s
        .injuries
        .iter()
        .enumerate()
        .map(|(i, inj)| {
            let stun = if inj.track == Track::Stun {
                " stun"
            } else {
                ""
            };
            // First aid or healing tended it: it no longer holds the character down.
            let fate = match inj.fate {
                Fate::Open => "",
                Fate::Survived => ", survived by Edge Burn",
                Fate::Tended => ", tended",
            };
            format!(
                "{} {}{stun} ({}{fate})",
                i + 1,
                inj.severity.word(),
                inj.damage
            )
        })
        .collect();
    Some(format!("injuries: {}", list.join(", ")))
}

/// A boost of initiative still to count: "initiative boosted +9 this pass".
/// Before `start`, one bought for the fight's first turn.
pub fn boost_text(state: &State, c: &Combatant) -> Option<String> {
    let at = state.pass_now()?;
    let s = sheet(state, c.id)?;
    let b = s.boost.as_ref()?;
    let now = (b.round, b.pass) == at;
    let ahead = (b.round, b.pass) > at || (now && c.mark.still_to_act());
    ahead.then(|| {
        if now && state.fight().is_some() {
            format!("initiative boosted +{} this pass", b.sum())
        } else {
            format!(
                "initiative boosted +{} in round {}, pass {}",
                b.sum(),
                b.round,
                b.pass
            )
        }
    })
}

/// The check `odds2097` (or the check form) asks about, and its exact odds.
pub fn odds_of(
    q: &OddsQuery,
    rules: &Sr2097Rules,
) -> Result<(check::Check, check::Odds), RuleError> {
    let tn = q.tn.value(rules)?;
    let bonus = bonus_value(q.bonus, rules)?;
    let (tilt, edge) = check::tilt(q.advantage, q.disadvantage, q.edge).ok_or_else(|| {
        Sr2097Error::EdgeWithAdvantage {
            who: "the check".into(),
        }
    })?;
    let c = check::Check {
        tn,
        bonus,
        tilt,
        edge,
    };
    Ok((c, check::odds(&c, rules)))
}

/// The answer to `odds2097`, on one line.
pub fn odds_answer(q: &OddsQuery, rules: &Sr2097Rules) -> Result<String, RuleError> {
    let (c, odds) = odds_of(q, rules)?;
    let [head, wins, losses] = odds_lines(&odds);
    let mut how = Vec::new();
    if q.advantage && q.disadvantage && !q.edge {
        how.push(check::CANCEL);
    } else if c.tilt != Tilt::Even {
        how.push(c.tilt.label());
    }
    match c.edge {
        EdgeOnCheck::None => {}
        EdgeOnCheck::GainedAdvantage => how.push("Edge"),
        // Read alone, "Edge" would pass for Edge's Advantage: the dice are plain 2d10.
        EdgeOnCheck::RemovedDisadvantage => how.push("Edge removes Disadvantage"),
    }
    let how = if how.is_empty() {
        String::new()
    } else {
        format!(", {}", how.join(", "))
    };
    let bonus = if c.bonus < 0 {
        c.bonus.to_string()
    } else {
        format!("+{}", c.bonus)
    };
    Ok(format!(
        "TN {}, bonus {bonus}{how}: {head}; {wins}; {losses}",
        c.tn
    ))
}

/// A chance in per cent to one decimal: 100.0% and 0.0% only when certain or impossible, else
/// `>99.9%` and `<0.1%`, so that a roll that can still fail never reads as sure.
fn share(percent: f64, never: bool, always: bool) -> String {
    let shown = format!("{percent:.1}");
    match shown.as_str() {
        _ if always => "100.0%".to_string(),
        _ if never => "0.0%".to_string(),
        "100.0" => ">99.9%".to_string(),
        "0.0" => "<0.1%".to_string(),
        _ => format!("{shown}%"),
    }
}

/// The odds in three short lines: the chance of success, then each band of success and of
/// failure.
pub fn odds_lines(odds: &check::Odds) -> [String; 3] {
    let bands = |verdicts: &[check::Verdict]| {
        let parts: Vec<String> = verdicts
            .iter()
            .map(|v| {
                let band = match v {
                    check::Verdict::Success(b) | check::Verdict::Failure(b) => b.word(),
                };
                let count = odds.of(*v);
                format!(
                    "{band} {}",
                    share(odds.percent(count), count == 0, count == odds.outcomes)
                )
            })
            .collect();
        parts.join(", ")
    };
    let all = check::Verdict::ALL;
    let wins: Vec<check::Verdict> = all[3..].iter().rev().copied().collect();
    [
        format!(
            "success {} ({} of {} rolls)",
            share(
                odds.success_percent(),
                odds.successes() == 0,
                odds.successes() == odds.outcomes
            ),
            odds.successes(),
            odds.outcomes
        ),
        format!("success: {}", bands(&wins)),
        format!(
            "failure: {}",
            bands(&all[..3].iter().rev().copied().collect::<Vec<_>>())
        ),
    ]
}

/// What a damage roll would meet, for the damage form: the target's armor and the exact chance
/// that the roll gets through it.
pub fn damage_preview(
    state: &State,
    rules: &Sr2097Rules,
    by: CombatantId,
    target: CombatantId,
    source: &DamageSource,
    mos: i32,
    edge: bool,
) -> Result<String, String> {
    let slice = state
        .sr2097
        .as_ref()
        .ok_or("not a Shadowrun 2097 encounter")?;
    let d = slice
        .sheet(by)
        .damage_of(state.name(by), source, &rules.damage)
        .map_err(|e| e.to_string())?;
    let edge_dice = if edge { rules.edge.damage_dice } else { 0 };
    let n = d.dice + damage::mos_dice(mos, rules) + edge_dice;
    let roll = format!("{n}d{}+{}", rules.damage.die, d.st);
    let name = state.name(target);
    Ok(match slice.sheet(target).armor {
        None => format!("{name} has no armor: all of {roll} gets through"),
        Some(a) => {
            // An injury, not the PT alone: at DR 100 a roll past the PT leaves nothing.
            let c = damage::injury_chance(n, d.st, a, rules);
            let chance = share(c.percent, c.never, c.always);
            format!("{name}: PT {}/DR {}; {roll} injures: {chance}", a.pt, a.dr)
        }
    })
}

/// What the recap says of a 2097 event: Edge spent or burned counts with the rest; an injury is
/// damage taken (its points, on its track); checks, damage rolls and Edge's other uses are told
/// as the log tells them.
pub(super) fn recap_told(
    before: &State,
    e: &Sr2097Event,
    rec: &mut super::recap::Recap,
) -> Option<super::recap::Told> {
    match e {
        Sr2097Event::EdgeSpent { who, edge, .. } | Sr2097Event::EdgeBurned { who, edge, .. } => {
            *rec.edge.entry(*who).or_default() += u32::from(*edge);
        }
        Sr2097Event::DamageRolled {
            target,
            injury: Some(i),
            ..
        }
        | Sr2097Event::Harmed {
            target,
            injury: Some(i),
            ..
        } => {
            // Injury points are not a monitor's boxes: a GM who keeps both reads them apart.
            let label = match i.track {
                Track::Physical => "Physical in injuries",
                Track::Stun => "Stun in injuries",
            };
            *rec.damage.entry((*target, label)).or_default() += u32::from(i.damage);
        }
        _ => {}
    }
    // A hidden attacker's roll names it: the players read only what it did to the one it hit.
    if let Sr2097Event::DamageRolled {
        by,
        target,
        injury: Some(i),
        ..
    } = e
        && rec.hides(*by)
        && !rec.hides(*target)
    {
        return Some(super::recap::Told::Deed {
            by: *target,
            what: format!("takes a {} injury ({})", i.severity.word(), i.damage),
        });
    }
    match e {
        Sr2097Event::EdgeSpent { .. }
        | Sr2097Event::EdgeBurned { .. }
        | Sr2097Event::InjuryLessened { .. }
        | Sr2097Event::EdgeRecovered { .. }
        | Sr2097Event::Checked { .. }
        | Sr2097Event::DamageRolled { .. }
        | Sr2097Event::Harmed { .. }
        | Sr2097Event::InitiativeBoosted { .. } => {
            Some(super::recap::as_logged(&log_line(before, e)))
        }
        _ => None,
    }
}

/// The recap's own summary lines for a 2097 fight: the initiative-pass machine's.
pub(super) fn in_short(rec: &super::recap::Recap) -> Vec<String> {
    vec![super::recap::passes_line(rec)]
}
