//! Checks a saved history before it is trusted: each event must fit the state before it, what
//! it records of sheets and names must be what `add` and `edit` accept, and each entry's text
//! must tell what its events did. `State::apply` never fails, so without this a hand-edited
//! save could fold to nonsense.

use std::sync::Arc;

use crate::catalogue::Catalogue;
use crate::encounter::Visibility;
use crate::encounter::system::anarchy::AnarchyEvent;
use crate::encounter::system::sr5::Sr5Event;
use crate::encounter::system::sr2097::Sr2097Event;
use crate::encounter::{
    ActionUse, AddCombatant, Combatant, CombatantId, Command, Encounter, Entry, Event, PaidFrom,
    PassMark, Phase, Reserve, RuleError, Sheet, SheetInput, State, System, Track, TurnKind,
    same_written_name,
};
use crate::rules::HouseRules;
use crate::rules::initiative::Scoring;
use crate::rules::sr2097::Sr2097Rules;

/// Whether `event` may follow `state`; the message says what is wrong with it.
pub fn check_event(state: &State, event: &Event, rules: &HouseRules) -> Result<(), String> {
    super::check_texts::check(event, rules)?;
    if let Event::CombatantEdited { ip: Some(ip), .. } = event
        && *ip > rules.starting_ip_cap
    {
        return Err(format!(
            "a starting pool of {ip} IP is over the cap of {}",
            rules.starting_ip_cap
        ));
    }
    let exists = |id: CombatantId| {
        state
            .get(id)
            .ok_or_else(|| format!("no combatant with id {}", id.0))
    };
    let present = |id: CombatantId| {
        let c = state
            .get(id)
            .ok_or_else(|| format!("no combatant with id {}", id.0))?;
        if c.is_present() {
            Ok(c)
        } else {
            Err(format!("{} has been removed", c.name))
        }
    };
    let in_fight = |what: &str| {
        state
            .fight()
            .map(|_| ())
            .ok_or_else(|| format!("{what} outside a fight"))
    };
    let in_setup = |what: &str| {
        if matches!(state.phase, Phase::Setup) {
            Ok(())
        } else {
            Err(format!("{what} after the fight started"))
        }
    };
    let not_ended = |what: &str| {
        if matches!(state.phase, Phase::Ended { .. }) {
            Err(format!("{what} after the encounter ended"))
        } else {
            Ok(())
        }
    };
    match event {
        Event::GroupFormed { id, .. } => {
            not_ended("a group formed")?;
            if id.0 as usize != state.groups.len() {
                return Err(format!(
                    "group id {} should be {}",
                    id.0,
                    state.groups.len()
                ));
            }
        }
        Event::CombatantAdded { id, group, .. } => {
            not_ended("a combatant added")?;
            if id.index() != state.combatants.len() {
                return Err(format!(
                    "combatant id {} should be {} (ids follow the order combatants were added)",
                    id.0,
                    state.combatants.len()
                ));
            }
            if let Some(g) = group
                && g.0 as usize >= state.groups.len()
            {
                return Err(format!("no group with id {}", g.0));
            }
        }
        Event::CombatantEdited { id, .. }
        | Event::CombatantRemoved { id, .. }
        | Event::Downed { who: id, .. }
        | Event::Revived { who: id }
        | Event::VisibilityChanged { who: id, .. }
        | Event::StatusStarted { who: id, .. }
        | Event::StatusStacked { who: id, .. }
        | Event::StatusEnded { who: id, .. } => {
            present(*id)?;
        }
        Event::Damaged { who, track, boxes } => {
            let c = present(*who)?;
            let taken = c.damage.on(*track);
            let Some(max) = monitor(c, *track, rules) else {
                return Err(format!(
                    "{} takes damage but has no {} monitor",
                    c.name,
                    track.label()
                ));
            };
            // `damage` takes 1 box or more, and puts 0 on a monitor already full.
            if *boxes == 0 && taken < max {
                no_boxes(c, *track, "takes", " with the monitor not full", rules)?;
            }
            if taken.saturating_add(*boxes) > max {
                return Err(format!(
                    "{} takes {boxes} boxes of {} damage but the monitor has {max} boxes, {taken} of them taken",
                    c.name,
                    track.label()
                ));
            }
        }
        Event::Healed { who, track, boxes } => {
            let c = present(*who)?;
            let taken = c.damage.on(*track);
            // `heal` takes 1 box or more, and refuses a monitor with none taken.
            if *boxes == 0 {
                no_boxes(c, *track, "heals", "", rules)?;
            }
            if *boxes > taken {
                return Err(format!(
                    "{} heals {boxes} boxes of {} damage but has {taken}",
                    c.name,
                    track.label()
                ));
            }
        }
        Event::InitiativeRolled { who, roll } => {
            not_ended("initiative rolled")?;
            for id in who {
                present(*id)?;
            }
            let sides = match roll.scoring {
                Scoring::Hits => rules.dice.sides,
                Scoring::Sum { .. } => rules.sr2097.initiative.die,
            };
            if let Some(dice) = &roll.dice
                && dice.iter().any(|d| *d == 0 || *d > sides)
            {
                return Err(format!("a die shows a face a d{sides} does not have"));
            }
        }
        Event::FightStarted { order, .. } => {
            in_setup("the fight started again")?;
            for id in order {
                exists(*id)?;
            }
        }
        Event::Slotted { who, .. } => {
            in_fight("combatants slotted into the order")?;
            for id in who {
                present(*id)?;
            }
        }
        Event::RoundStarted { .. } => in_fight("a round started")?,
        Event::PassStarted { pass } => {
            in_fight("a pass started")?;
            if *pass == 0 || *pass > rules.passes_per_round {
                return Err(format!(
                    "pass {pass} does not exist (a round has {} passes)",
                    rules.passes_per_round
                ));
            }
        }
        Event::TurnStarted { who, ip_gained } => {
            in_fight("a turn")?;
            let c = present(*who)?;
            no_turn_under_way(state, &c.name)?;
            if !c.mark.still_to_act() {
                return Err(format!(
                    "{}'s turn starts but {} has had its turn in this pass",
                    c.name, c.name
                ));
            }
            if *ip_gained != rules.ip_per_turn {
                return Err(format!(
                    "{}'s turn gives {ip_gained} IP: the rules give {}",
                    c.name, rules.ip_per_turn
                ));
            }
        }
        Event::TurnResumed { who } => {
            in_fight("a turn")?;
            let c = present(*who)?;
            no_turn_under_way(state, &c.name)?;
        }
        // A removed combatant's slot still passes when a delay waits on it.
        Event::TurnSkipped { who } => {
            in_fight("a turn")?;
            no_turn_under_way(state, &exists(*who)?.name)?;
        }
        Event::TurnEnded { who } => {
            in_fight("a turn ended")?;
            let c = exists(*who)?;
            match state.turn() {
                Some(t) if t.who == *who => {}
                Some(t) => {
                    return Err(format!(
                        "{}'s turn ends but the turn under way is {}'s",
                        c.name,
                        state.name(t.who)
                    ));
                }
                None => return Err(format!("{}'s turn ends but no turn is under way", c.name)),
            }
        }
        Event::DelayTurnStarted { who, trigger } => {
            in_fight("a delayed turn")?;
            let c = present(*who)?;
            exists(*trigger)?;
            no_turn_under_way(state, &c.name)?;
            if c.delay().is_none() {
                return Err(format!("{} starts a delayed turn with no delay", c.name));
            }
        }
        Event::ActionSpent {
            who,
            action,
            paid_from,
            ..
        } => {
            in_fight("an action spent")?;
            let c = present(*who)?;
            let (have, from) = match paid_from {
                PaidFrom::Pool => (c.ip, "pool"),
                PaidFrom::Reserve => (c.reserve.as_ref().map_or(0, Reserve::ip), "reserve"),
            };
            if action.cost > have {
                return Err(format!(
                    "{} spends {} IP on {} but has {have} IP in the {from}",
                    c.name,
                    action.cost,
                    action.label()
                ));
            }
        }
        Event::EdgeSpent {
            who,
            edge_spent,
            ip_gained,
        } => {
            in_fight("Edge spent")?;
            let c = present(*who)?;
            let e = rules.edge;
            if (*ip_gained, *edge_spent) != (e.ip_gained, e.edge_cost) {
                return Err(format!(
                    "{}'s Edge gives {ip_gained} IP for {edge_spent} Edge: the rules give {} for {}",
                    c.name, e.ip_gained, e.edge_cost
                ));
            }
            if c.edge_ip_used_up(rules) {
                return Err(format!(
                    "{} spends Edge for IP more than {} a round",
                    c.name,
                    times(e.uses_per_round)
                ));
            }
            if *edge_spent > c.edge_left {
                return Err(format!(
                    "{} spends {edge_spent} Edge but has {} left",
                    c.name, c.edge_left
                ));
            }
        }
        Event::DelayDeclared { who, ip, trigger } => {
            in_fight("a delay")?;
            let c = present(*who)?;
            if let Some(held) = &c.reserve {
                return Err(format!("{} delays while holding {}", c.name, held.what()));
            }
            if *ip == 0 || *ip > rules.turn_spend_cap {
                return Err(format!(
                    "{} delays {ip} IP: a delay holds 1 to {}",
                    c.name, rules.turn_spend_cap
                ));
            }
            if *ip > c.ip {
                return Err(format!("{} delays {ip} IP but has {} IP", c.name, c.ip));
            }
            if let Some(t) = trigger {
                exists(*t)?;
            }
        }
        Event::DelayTriggerNamed { who, trigger } => {
            in_fight("a delay trigger")?;
            let c = present(*who)?;
            exists(*trigger)?;
            if c.delay().is_none() {
                return Err(format!("{} names a delay trigger with no delay", c.name));
            }
        }
        Event::ReadyDeclared { who, ip, .. } => {
            in_fight("a ready")?;
            let c = present(*who)?;
            let adds_trigger = matches!(c.reserve, Some(Reserve::Ready { .. }));
            if !adds_trigger && *ip > c.ip {
                return Err(format!("{} readies {ip} IP but has {} IP", c.name, c.ip));
            }
        }
        Event::ReadyFired { who, .. } => {
            in_fight("a ready fired")?;
            let c = present(*who)?;
            if !matches!(c.reserve, Some(Reserve::Ready { .. })) {
                return Err(format!("{} fires a ready with none declared", c.name));
            }
        }
        Event::ReserveReleased { who, returned, .. } => {
            let c = state
                .get(*who)
                .ok_or_else(|| format!("no combatant with id {}", who.0))?;
            let Some(held) = &c.reserve else {
                return Err(format!("{} releases a reserve with none held", c.name));
            };
            if *returned > held.ip() {
                return Err(format!(
                    "{} gets {returned} IP back from a reserve of {}",
                    c.name,
                    held.ip()
                ));
            }
        }
        Event::InitiativeChanged { who, target, .. } | Event::TurnDeferred { who, target, .. } => {
            in_fight("a change of initiative")?;
            present(*who)?;
            exists(*target)?;
        }
        // One who left while its skipped turn waited still has its slot moved when others
        // wait on it: it passes there.
        Event::PlaceChanged { who, target, .. } => {
            in_fight("a change of initiative")?;
            exists(*who)?;
            exists(*target)?;
        }
        Event::EncounterEnded => not_ended("the encounter ended")?,
        Event::Sr2097(e) => {
            not_ended("a Shadowrun 2097 event")?;
            present(e.who())?;
            check_sr2097(state, e, &rules.sr2097)?;
            super::check_numbers::sr2097(state, e, &rules.sr2097)?;
        }
        Event::Anarchy(e) => {
            check_anarchy(state, e, rules)?;
            super::check_numbers::anarchy(state, e, rules)?;
        }
        Event::Sr5(e) => {
            not_ended("an SR5 event")?;
            super::check_sr5::check(state, e, rules)?;
        }
    }
    Ok(())
}

/// A turn starts, or a slot passes, only when none is under way: `next` ends the one before.
fn no_turn_under_way(state: &State, name: &str) -> Result<(), String> {
    match state.turn() {
        Some(t) => Err(format!(
            "{name}'s turn starts while {}'s is under way",
            state.name(t.who)
        )),
        None => Ok(()),
    }
}

/// The most IP a pool can hold: the starting cap, a turn's IP in every pass, and Edge for IP
/// as often as a round allows (each round starts the pool again).
fn pool_cap(rules: &HouseRules) -> u32 {
    u32::from(rules.starting_ip_cap)
        + u32::from(rules.passes_per_round) * u32::from(rules.ip_per_turn)
        + u32::from(rules.edge.uses_per_round) * u32::from(rules.edge.ip_gained)
}

/// After an entry, the fight is one the order can go on from: no pool above what a round can
/// give, at most one character shown acting and that one the holder of the turn under way, who
/// is there and able to act.
fn turns_settled(state: &State, rules: &HouseRules) -> Result<(), String> {
    let Some(fight) = state.fight() else {
        return Ok(());
    };
    let cap = pool_cap(rules);
    if let Some(c) = state.present().find(|c| u32::from(c.ip) > cap) {
        return Err(format!(
            "{} holds {} IP, more than the {cap} a round can give",
            c.name, c.ip
        ));
    }
    let own = fight
        .turn
        .filter(|t| matches!(t.kind, TurnKind::Own | TurnKind::Resumed))
        .map(|t| t.who);
    if let Some(c) = state
        .present()
        .find(|c| c.mark == PassMark::Acting && Some(c.id) != own)
    {
        return Err(format!(
            "{} is shown acting but the turn under way is not theirs",
            c.name
        ));
    }
    if let Some(c) = fight.turn.and_then(|t| state.get(t.who))
        && (!c.is_present() || c.is_downed())
    {
        return Err(format!(
            "the turn under way is {}'s, who cannot act",
            c.name
        ));
    }
    Ok(())
}

/// Damage or healing of 0 boxes, which `damage` and `heal` refuse unless the save's rules let
/// them take 0 (`damage_boxes`); `does`: "takes" or "heals".
fn no_boxes(
    c: &Combatant,
    track: Track,
    does: &str,
    when: &str,
    rules: &HouseRules,
) -> Result<(), String> {
    let range = rules.limits.damage_boxes;
    if range.contains(0) {
        return Ok(());
    }
    let what = if does == "heals" { "healing" } else { "damage" };
    Err(format!(
        "{} {does} 0 boxes of {} damage{when}: {what} is {} to {} boxes",
        c.name,
        track.label(),
        range.min,
        range.max
    ))
}

/// "1 time", "2 times".
fn times(n: u8) -> String {
    if n == 1 {
        "1 time".into()
    } else {
        format!("{n} times")
    }
}

/// The boxes of `c`'s condition monitor on `track`, if its sheet gives it one.
fn monitor(c: &Combatant, track: Track, rules: &HouseRules) -> Option<u8> {
    match track {
        Track::Physical => c.sheet.body,
        Track::Stun => c.sheet.willpower,
    }
    .map(|a| rules.monitor_boxes(a))
}

/// After an entry: a combatant it damaged, with a monitor full, is Downed (the engine has always
/// downed one whose monitor damage fills). Edits are not asked: before 2026-11-26 an edit of
/// Body or Willpower under the damage taken did not down, and those saves still open.
fn monitors_settled(entry: &Entry, state: &State, rules: &HouseRules) -> Result<(), String> {
    let changed = entry.events.iter().filter_map(|e| match e {
        Event::Damaged { who, .. } => Some(*who),
        _ => None,
    });
    for id in changed {
        let Some(c) = state
            .get(id)
            .filter(|c| c.is_present() && c.downed.is_none())
        else {
            continue;
        };
        if let Some(track) = [Track::Physical, Track::Stun]
            .into_iter()
            .find(|&t| monitor(c, t, rules).is_some_and(|m| c.damage.on(t) >= m))
        {
            return Err(format!(
                "{}'s {} monitor is full but {} is not Downed",
                c.name,
                track.label(),
                c.name
            ));
        }
    }
    Ok(())
}

/// Whether a Shadowrun 2097 event may follow `state` (its combatant is known to be present).
fn check_sr2097(state: &State, event: &Sr2097Event, rules: &Sr2097Rules) -> Result<(), String> {
    let Some(slice) = &state.sr2097 else {
        return Err("a Shadowrun 2097 event in an encounter of another rule system".into());
    };
    let who = event.who();
    let c = state
        .get(who)
        .ok_or_else(|| format!("no combatant with id {}", who.0))?;
    let sheet = slice.sheet(who);
    let faces = |dice: &[u8], die: u8| {
        if dice.iter().any(|d| *d == 0 || *d > die) {
            Err(format!("a die shows a face a d{die} does not have"))
        } else {
            Ok(())
        }
    };
    match event {
        Sr2097Event::EdgeSpent { edge, .. } | Sr2097Event::EdgeBurned { edge, .. }
            if *edge > c.edge_left =>
        {
            return Err(format!(
                "{} spends {edge} Edge but has {} left",
                c.name, c.edge_left
            ));
        }
        Sr2097Event::EdgeRecovered { gained, .. } => {
            let max = c.sheet.edge.saturating_sub(sheet.burned);
            if c.edge_left.saturating_add(*gained) > max {
                return Err(format!(
                    "{} regains {gained} Edge above the maximum of {max}",
                    c.name
                ));
            }
        }
        Sr2097Event::Checked { roll, .. } => faces(&roll.dice, rules.check.die)?,
        Sr2097Event::DamageRolled { by, roll, .. } => {
            if state.get(*by).is_none() {
                return Err(format!("no combatant with id {}", by.0));
            }
            faces(&roll.dice, rules.damage.die)?;
        }
        Sr2097Event::Harmed { roll, .. } => faces(&roll.dice, rules.damage.die)?,
        Sr2097Event::BoostTieWon { over, .. } if state.get(*over).is_none() => {
            return Err(format!("no combatant with id {}", over.0));
        }
        Sr2097Event::InitiativeBoosted { dice, .. } => {
            // Before `start` a boost is for the first turn of the fight.
            if state.fight().is_none() && !matches!(state.phase, Phase::Setup) {
                return Err("initiative boosted outside a fight".into());
            }
            faces(dice, rules.initiative.die)?;
        }
        _ => {}
    }
    match event {
        Sr2097Event::InjuryLessened { injury, .. } | Sr2097Event::EdgeBurned { injury, .. }
            if *injury >= sheet.injuries.len() =>
        {
            Err(format!("{} has no injury {}", c.name, injury + 1))
        }
        _ => Ok(()),
    }
}

/// Whether an Anarchy event may follow `state`: at an Anarchy table, about characters present,
/// paying with Plot Points held, its dice faces of the die.
fn check_anarchy(state: &State, event: &AnarchyEvent, rules: &HouseRules) -> Result<(), String> {
    let present = |id: CombatantId| match state.get(id) {
        Some(c) if c.is_present() => Ok(c),
        Some(c) => Err(format!("{} has been removed", c.name)),
        None => Err(format!("no combatant with id {}", id.0)),
    };
    if let AnarchyEvent::SessionBegan { .. } = event {
        return match state.phase {
            Phase::Setup => Ok(()),
            _ => Err("an Anarchy table opened twice, or after a fight started".into()),
        };
    }
    let Some(table) = state.narration() else {
        return Err("an Anarchy event before the Anarchy table opened".into());
    };
    let a = &rules.anarchy;
    match event {
        AnarchyEvent::SessionBegan { .. } | AnarchyEvent::TurnEnded { .. } => {}
        AnarchyEvent::SeatingSet { seating: ids } | AnarchyEvent::TurnBegan { order: ids, .. } => {
            for id in ids {
                present(*id)?;
            }
        }
        AnarchyEvent::Awarded { who, points, .. } => {
            let have = table.player(*who).map(|p| p.plot_points);
            let Some(have) = have else {
                return Err(format!(
                    "{} is awarded Plot Points but has no seat",
                    present(*who)?.name
                ));
            };
            if have.saturating_add(*points) > a.plot_points.player_cap {
                return Err(format!(
                    "{} would hold more than {} Plot Points",
                    present(*who)?.name,
                    a.plot_points.player_cap
                ));
            }
        }
        AnarchyEvent::Spent { who, points, .. } => {
            let have = table.player(*who).map_or(0, |p| p.plot_points);
            if *points > have {
                return Err(format!(
                    "{} spends {points} Plot Points but holds {have}",
                    present(*who)?.name
                ));
            }
        }
        AnarchyEvent::GmSpent { points, .. } | AnarchyEvent::OrderChosen { points, .. } => {
            if u32::from(*points) > table.gm_points {
                return Err(format!(
                    "the GM spends {points} Plot Points but holds {}",
                    table.gm_points
                ));
            }
        }
        AnarchyEvent::Tested {
            who,
            roll,
            edge_spent,
            rerolled,
            ..
        } => {
            let c = present(*who)?;
            if *edge_spent > c.edge_left {
                return Err(format!(
                    "{} spends {edge_spent} Edge but has {} left",
                    c.name, c.edge_left
                ));
            }
            // Edge on seeing a roll takes up the dice of a test still open to it, and rolls
            // only its misses again.
            if *rerolled {
                let hit = a.test.hit_at_least;
                let takes_up = table.open_test(*who).is_some_and(|o| {
                    roll.first.as_ref() == Some(&o.roll.dice)
                        && roll.opposing == o.roll.opposing
                        && roll.glitch_die == o.roll.glitch_die
                        && roll.dice.len() == o.roll.dice.len()
                        && roll
                            .dice
                            .iter()
                            .zip(&o.roll.dice)
                            .all(|(now, was)| *was < hit || now == was)
                });
                if !takes_up {
                    return Err(format!(
                        "{} rolls again the misses of a test whose dice are not on the table",
                        c.name
                    ));
                }
            }
            let sides = a.test.sides;
            let all = roll
                .dice
                .iter()
                .chain(&roll.opposing)
                .chain(roll.glitch_die.iter());
            if all
                .chain(roll.first.iter().flatten())
                .any(|d| *d == 0 || *d > sides)
            {
                return Err(format!("a die shows a face a d{sides} does not have"));
            }
        }
        AnarchyEvent::Seated { who, .. }
        | AnarchyEvent::SheetSet { who, .. }
        | AnarchyEvent::NarrationStarted { who, .. }
        | AnarchyEvent::NarrationSkipped { who }
        | AnarchyEvent::JoinedTurn { who }
        | AnarchyEvent::NarrationEnded { who }
        | AnarchyEvent::EdgeRegained { who, .. }
        | AnarchyEvent::EdgeGiven { who, .. }
        | AnarchyEvent::GlitchDieReady { who }
        | AnarchyEvent::FlashbackNarrated { who }
        | AnarchyEvent::Revenged { who }
        | AnarchyEvent::DoubleTime { who } => {
            present(*who)?;
        }
        AnarchyEvent::GearDamaged { who, track, boxes }
        | AnarchyEvent::GearRepaired { who, track, boxes } => {
            let c = present(*who)?;
            let b = table
                .gear_of(*who)
                .map(|g| g.track(*track))
                .unwrap_or_default();
            if b.size == 0 {
                return Err(format!("{} has no {} track", c.name, track.label()));
            }
            let repaired = matches!(event, AnarchyEvent::GearRepaired { .. });
            if repaired && *boxes > b.damage {
                return Err(format!(
                    "{}'s {} gets {boxes} boxes back but has {} taken",
                    c.name,
                    track.label(),
                    b.damage
                ));
            }
            if !repaired && b.damage.saturating_add(*boxes) > b.size {
                return Err(format!(
                    "{}'s {} takes {boxes} boxes but the track has {}, {} of them taken",
                    c.name,
                    track.label(),
                    b.size,
                    b.damage
                ));
            }
        }
    }
    Ok(())
}

/// Catalogue names an event spends (each vouched for: see [`unknown_action`]).
fn action_names(event: &Event) -> Vec<&ActionUse> {
    match event {
        Event::ActionSpent { action, .. } => vec![action],
        Event::ReadyDeclared { trigger, .. } | Event::ReadyFired { trigger, .. } => {
            trigger.actions.iter().collect()
        }
        _ => Vec::new(),
    }
}

/// An action the entry's events name that nothing vouches for. The events carry what an action
/// cost, so an action the GM has since renamed or removed from their catalogue stands as
/// recorded when the entry's text names it (`act Rook Dodge`), or, for a ready fired, when the
/// ready declared earlier holds it; a name neither the catalogue, the text nor a ready knows
/// was edited in.
fn unknown_action<'e>(entry: &'e Entry, before: &State, catalogue: &Catalogue) -> Option<&'e str> {
    // Lowered only for a name the catalogue lacks: most loads never need it.
    let text = std::cell::OnceCell::new();
    let text = || text.get_or_init(|| entry.text.to_lowercase());
    let readied: Vec<&str> = entry
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ReadyFired { who, .. } => before.get(*who),
            _ => None,
        })
        .filter_map(|c| match &c.reserve {
            Some(Reserve::Ready { triggers, .. }) => Some(triggers),
            _ => None,
        })
        .flatten()
        .flat_map(|t| &t.actions)
        .filter_map(|a| a.name.as_deref())
        .collect();
    entry
        .events
        .iter()
        .flat_map(action_names)
        .filter_map(|a| a.name.as_deref())
        .find(|name| {
            catalogue.get(name).is_none()
                && !text().contains(&name.to_lowercase())
                && !readied.contains(name)
        })
}

/// What `add` or `edit` would refuse of the sheet and name an event records (a 5,000-character
/// name, Intuition 99, a name taken): the engine is asked, as if the GM had typed it now.
fn recheck_sheet(enc: &Encounter, event: &Event) -> Result<(), String> {
    let input = |s: &Sheet| SheetInput::from(*s);
    let command = match event {
        Event::CombatantAdded {
            name, side, sheet, ..
        } => Command::Add(AddCombatant {
            name: name.clone(),
            side: *side,
            sheet: input(sheet),
            count: None,
            shared_roll: false,
            hidden: false,
        }),
        Event::CombatantEdited {
            id,
            name,
            side,
            sheet,
            ..
        } => Command::Edit {
            who: *id,
            name: Some(name.clone()),
            side: Some(*side),
            sheet: input(sheet),
        },
        Event::GroupFormed { name, .. } => {
            return match RuleError::check_text("group name", name, enc.rules().limits.name_chars) {
                // A name with a mark first or an invisible character got in before it was
                // refused: the file still loads.
                Ok(_)
                | Err(RuleError::LeadingMark { .. } | RuleError::InvisibleCharacter { .. }) => {
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            };
        }
        Event::Sr2097(e) => match e.sheet_command(enc.rules().sr2097.damage.die) {
            Some(c) => Command::Sr2097(c),
            None => return Ok(()),
        },
        _ => return Ok(()),
    };
    match enc.check(command) {
        // Names with an invisible character got in before it was refused: the file still
        // loads, unless the name was another's (checked after these by the engine).
        Err(RuleError::InvisibleCharacter { .. } | RuleError::LeadingMark { .. }) => match event {
            Event::CombatantAdded { name, .. } | Event::CombatantEdited { name, .. }
                if taken_as_written(enc.state(), event) =>
            {
                Err(RuleError::NameTaken { name: name.clone() }.to_string())
            }
            _ => Ok(()),
        },
        // So did names told apart only by a skin tone, before names were kept without one.
        Err(RuleError::NameTaken { .. }) if !taken_as_written(enc.state(), event) => Ok(()),
        r => r.map_err(|e| e.to_string()),
    }
}

/// Whether the name an `add` or `edit` event records is another's as written, skin tones
/// counted ([`same_written_name`]).
fn taken_as_written(state: &State, event: &Event) -> bool {
    let (name, except) = match event {
        Event::CombatantAdded { name, .. } => (name, None),
        Event::CombatantEdited { id, name, .. } => (name, Some(*id)),
        _ => return true,
    };
    state
        .present()
        .any(|c| Some(c.id) != except && same_written_name(&c.name, name))
        || state
            .groups
            .iter()
            .any(|g| same_written_name(&g.name, name))
}

/// The verbs whose commands may cause an event that only some commands cause; `None` for the
/// events many commands cause on the way (turns, passes, rounds, releases, ended statuses).
fn caused_only_by(event: &Event) -> Option<&'static [&'static str]> {
    Some(match event {
        Event::GroupFormed { .. } | Event::CombatantAdded { .. } => &["add"],
        Event::CombatantEdited { .. } => &["edit"],
        Event::CombatantRemoved { .. } => &["remove"],
        Event::InitiativeRolled { .. } | Event::Slotted { .. } => &["roll"],
        Event::FightStarted { .. } => &["start"],
        Event::ActionSpent { .. } => &["act", "fire"],
        // Edge for IP, and Anarchy's Edge on seeing a roll.
        Event::EdgeSpent { .. } | Event::Anarchy(AnarchyEvent::Tested { rerolled: true, .. }) => {
            &["edge"]
        }
        Event::DelayDeclared { .. } | Event::DelayTriggerNamed { .. } => &["delay"],
        Event::ReadyDeclared { .. } => &["ready"],
        Event::ReadyFired { .. } => &["fire"],
        Event::InitiativeChanged { .. } | Event::TurnDeferred { .. } => &["move"],
        // An SR5 attack puts its boxes on the monitor.
        Event::Damaged { .. } => &["damage", "attack"],
        // Anarchy's First Aid/Fix (`pp`, `gm spend`) heals, and its Cooldowns are statuses.
        Event::Healed { .. } => &["heal", "pp", "gm"],
        // SR 2097: an injury Downs (`dmg`), lessening it may bring one up (`edge`), a failed
        // check leaves a Disadvantage (`sc`). An edit of Body or Willpower fills or frees a monitor.
        Event::Downed { .. } => &["down", "damage", "heal", "attack", "dmg", "edit"],
        Event::Revived { .. } => &["up", "heal", "edge", "pp", "gm", "edit"],
        // `add … hidden` brings one in hidden.
        Event::VisibilityChanged {
            visibility: Visibility::Hidden,
            ..
        } => &["hide", "add"],
        Event::VisibilityChanged {
            visibility: Visibility::Shown,
            ..
        } => &["reveal"],
        Event::StatusStarted { .. } => &["status", "act", "fire", "cooldown", "pp", "gm", "sc"],
        Event::StatusStacked { .. } => &["status", "act", "fire", "cooldown", "pp", "gm"],
        Event::Sr2097(e) => match e {
            Sr2097Event::Checked { .. } => &["sc"],
            Sr2097Event::DamageRolled { .. } | Sr2097Event::Harmed { .. } => &["dmg"],
            Sr2097Event::EdgeSpent { .. } => &["sc", "dmg", "edge"],
            Sr2097Event::InjuryLessened { .. }
            | Sr2097Event::InitiativeBoosted { .. }
            | Sr2097Event::EdgeBurned { .. }
            | Sr2097Event::EdgeRecovered { .. } => &["edge"],
            Sr2097Event::ArmorSet { .. } => &["armor"],
            Sr2097Event::StrengthSet { .. } => &["strength"],
            Sr2097Event::WeaponAdded { .. } | Sr2097Event::WeaponRemoved { .. } => &["weapon"],
            // A tie told as a boosted turn starts: whatever ends the turn before it.
            Sr2097Event::BoostTieWon { .. } => return None,
        },
        Event::EncounterEnded => &["end"],
        _ => return None,
    })
}

/// Whether `event` is the one that shows a command with this verb was carried out.
fn shows(verb: &str, event: &Event) -> bool {
    match verb {
        "add" => matches!(event, Event::CombatantAdded { .. }),
        "edit" => matches!(event, Event::CombatantEdited { .. }),
        "remove" => matches!(event, Event::CombatantRemoved { .. }),
        "roll" => matches!(event, Event::InitiativeRolled { .. }),
        "start" => matches!(event, Event::FightStarted { .. }),
        "next" => matches!(
            event,
            Event::TurnEnded { .. }
                | Event::TurnStarted { .. }
                | Event::TurnSkipped { .. }
                | Event::TurnResumed { .. }
                | Event::DelayTurnStarted { .. }
                | Event::PassStarted { .. }
                | Event::RoundStarted { .. }
        ),
        "act" => matches!(event, Event::ActionSpent { .. }),
        "edge" => matches!(
            event,
            Event::EdgeSpent { .. }
                | Event::Sr2097(
                    Sr2097Event::EdgeSpent { .. }
                        | Sr2097Event::InjuryLessened { .. }
                        | Sr2097Event::InitiativeBoosted { .. }
                        | Sr2097Event::EdgeBurned { .. }
                        | Sr2097Event::EdgeRecovered { .. }
                )
                | Event::Anarchy(
                    AnarchyEvent::EdgeGiven { .. } | AnarchyEvent::Tested { rerolled: true, .. }
                )
        ),
        "sc" => matches!(event, Event::Sr2097(Sr2097Event::Checked { .. })),
        "dmg" => matches!(
            event,
            Event::Sr2097(Sr2097Event::DamageRolled { .. } | Sr2097Event::Harmed { .. })
        ),
        // `armor` and `weapon` are verbs of SR5 and SR 2097 both; the event says which.
        "armor" => matches!(
            event,
            Event::Sr2097(Sr2097Event::ArmorSet { .. }) | Event::Sr5(Sr5Event::ArmorSet { .. })
        ),
        "strength" => matches!(event, Event::Sr2097(Sr2097Event::StrengthSet { .. })),
        "weapon" => matches!(
            event,
            Event::Sr2097(Sr2097Event::WeaponAdded { .. } | Sr2097Event::WeaponRemoved { .. })
                | Event::Sr5(Sr5Event::WeaponAdded { .. } | Sr5Event::WeaponRemoved { .. })
        ),
        "delay" => matches!(
            event,
            Event::DelayDeclared { .. } | Event::DelayTriggerNamed { .. }
        ),
        "ready" => matches!(event, Event::ReadyDeclared { .. }),
        "fire" => matches!(event, Event::ReadyFired { .. }),
        "move" => matches!(
            event,
            Event::InitiativeChanged { .. } | Event::TurnDeferred { .. }
        ),
        "down" => matches!(event, Event::Downed { .. }),
        "up" => matches!(event, Event::Revived { .. }),
        "hide" => matches!(
            event,
            Event::VisibilityChanged {
                visibility: Visibility::Hidden,
                ..
            }
        ),
        "reveal" => matches!(
            event,
            Event::VisibilityChanged {
                visibility: Visibility::Shown,
                ..
            }
        ),
        "damage" => matches!(
            event,
            Event::Damaged { .. } | Event::Anarchy(AnarchyEvent::GearDamaged { .. })
        ),
        "heal" => matches!(
            event,
            Event::Healed { .. } | Event::Anarchy(AnarchyEvent::GearRepaired { .. })
        ),
        "status" => matches!(
            event,
            Event::StatusStarted { .. } | Event::StatusStacked { .. }
        ),
        "clear" => matches!(event, Event::StatusEnded { .. }),
        "end" => matches!(event, Event::EncounterEnded),
        // A verb of the language this check does not know yet (a rule system's own) is held
        // to the rule that no event is one only another verb causes.
        _ => true,
    }
}

/// Who an event is about, when it is about one combatant the text names first.
fn event_subject(event: &Event) -> Option<CombatantId> {
    match event {
        Event::CombatantEdited { id, .. } | Event::CombatantRemoved { id, .. } => Some(*id),
        Event::ActionSpent { who, .. }
        | Event::EdgeSpent { who, .. }
        | Event::DelayDeclared { who, .. }
        | Event::DelayTriggerNamed { who, .. }
        | Event::ReadyDeclared { who, .. }
        | Event::ReadyFired { who, .. }
        | Event::InitiativeChanged { who, .. }
        | Event::TurnDeferred { who, .. }
        | Event::Downed { who, .. }
        | Event::Revived { who }
        | Event::VisibilityChanged { who, .. }
        | Event::Damaged { who, .. }
        | Event::Healed { who, .. }
        | Event::StatusStarted { who, .. }
        | Event::StatusStacked { who, .. }
        | Event::StatusEnded { who, .. }
        | Event::Anarchy(
            AnarchyEvent::GearDamaged { who, .. }
            | AnarchyEvent::GearRepaired { who, .. }
            | AnarchyEvent::EdgeGiven { who, .. }
            | AnarchyEvent::Tested {
                who,
                rerolled: true,
                ..
            },
        ) => Some(*who),
        // A damage roll's text names the attacker first.
        Event::Sr2097(Sr2097Event::DamageRolled { by, .. }) => Some(*by),
        // Damage with no attacker names `-` first, not the target; a tie told as a turn starts
        // comes from whatever ended the turn before.
        Event::Sr2097(Sr2097Event::Harmed { .. } | Sr2097Event::BoostTieWon { .. }) => None,
        Event::Sr2097(e) => Some(e.who()),
        _ => None,
    }
}

/// `rest` without the name it starts with, bare or quoted as the language writes it (any case).
fn after_name<'t>(rest: &'t str, name: &str) -> Option<&'t str> {
    let quoted = crate::lang::quoted(name);
    [quoted.as_str(), name].into_iter().find_map(|form| {
        let head = rest.get(..form.len())?;
        let after = &rest[form.len()..];
        // A comma ends a name too: it separates the names of a list (`damage Ana, Bob 2`).
        let whole = after.is_empty()
            || after.starts_with(char::is_whitespace)
            || after.starts_with(',')
            || form.ends_with('"');
        (head.eq_ignore_ascii_case(form) && whole).then_some(after)
    })
}

/// Whether the text after the verb names the event's subject first (by its name before the
/// entry), and for an action spent, the action (or its type) next.
fn names_subject(rest: &str, event: &Event, before: &State) -> bool {
    let Some(who) = event_subject(event) else {
        return true;
    };
    let Some(after) = before.get(who).and_then(|c| after_name(rest, &c.name)) else {
        return false;
    };
    match event {
        Event::ActionSpent { action, .. } => {
            let said = action.name.as_deref().unwrap_or(&action.kind);
            after_name(after.trim_start(), said).is_some()
        }
        // `delay NAME IP`: the IP the text holds are the event's.
        Event::DelayDeclared { ip, .. } => after
            .split_whitespace()
            .next()
            .and_then(|n| n.parse::<u8>().ok())
            .is_some_and(|said| said == *ip),
        _ => true,
    }
}

/// Whether an entry's text and its events tell the same story: its verb's event is there,
/// about the combatant (and action) the text names, and no event is one only another verb
/// causes. Read against `before`, the state the text was written in.
fn text_agrees(entry: &Entry, before: &State) -> Result<(), String> {
    let mut words = entry.text.trim_start().splitn(2, char::is_whitespace);
    let verb = words.next().unwrap_or_default().to_lowercase();
    let rest = words.next().unwrap_or_default().trim_start();
    if !crate::lang::all_verbs().any(|(v, _)| *v == verb)
        || matches!(
            verb.as_str(),
            "undo" | "redo" | "why" | "odds" | "aodds" | "odds2097"
        )
    {
        return Err("the text is not a command that changes the fight".into());
    }
    if let Some(event) = entry
        .events
        .iter()
        .find(|e| caused_only_by(e).is_some_and(|verbs| !verbs.contains(&verb.as_str())))
    {
        return Err(format!(
            "the text says `{verb}` but an event is {}",
            event_kind(event)
        ));
    }
    if !entry
        .events
        .iter()
        .any(|e| shows(&verb, e) && names_subject(rest, e, before))
    {
        return Err(format!(
            "no event shows what the text says (`{verb}` for whom and what it names)"
        ));
    }
    Ok(())
}

/// An `edit` entry's text, read back as a command in the state before it, gives the name, side
/// and sheet its event records (`edit Ana name Bob` renames to Bob, not to Anna). Only `edit`
/// is read back: it rolls nothing and asks no catalogue, so what it gives has not changed since
/// the save was written. A text the language or the engine now refuses is left to the checks
/// above (older versions took words this one may not).
fn edit_agrees(entry: &Entry, enc: &Encounter) -> Result<(), String> {
    let edited = |e: &Event| match e {
        Event::CombatantEdited {
            id,
            name,
            side,
            sheet,
            ..
        } => Some((*id, name.clone(), *side, *sheet)),
        _ => None,
    };
    let is_edit = entry
        .text
        .split_whitespace()
        .next()
        .is_some_and(|v| v.eq_ignore_ascii_case("edit"));
    let Some(recorded) = entry.events.iter().find_map(edited).filter(|_| is_edit) else {
        return Ok(());
    };
    let Ok(crate::lang::Line::Command(command @ Command::Edit { .. })) =
        crate::lang::parse(&entry.text, enc.state(), enc.catalogue())
    else {
        return Ok(());
    };
    let Some(read) = enc
        .preview(command)
        .ok()
        .and_then(|events| events.iter().find_map(edited))
    else {
        return Ok(());
    };
    let was = enc.state().name(recorded.0);
    if read.0 != recorded.0 {
        return Err(format!(
            "the text edits {} but its event edits {was}",
            enc.state().name(read.0)
        ));
    }
    if read.1 != recorded.1 {
        return Err(format!(
            "the text names {was} \"{}\" but its event \"{}\"",
            crate::text::excerpt(&read.1),
            crate::text::excerpt(&recorded.1)
        ));
    }
    if (read.2, read.3) != (recorded.2, recorded.3) {
        return Err(format!(
            "the text gives {was} another side or sheet than its event records"
        ));
    }
    Ok(())
}

/// An event's kind in words, for messages.
fn event_kind(event: &Event) -> String {
    let debug = format!("{event:?}");
    let name = debug
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default();
    format!("`{name}`")
}

/// Replays the whole history (redo part included) checking every event, what `add` and
/// `edit` would refuse, and that each entry's text and events agree.
/// The message reads "entry N (`text`): reason", N counting from 1.
pub fn check_history(
    history: &[Entry],
    system: System,
    rules: &Arc<HouseRules>,
    catalogue: &Arc<Catalogue>,
) -> Result<(), String> {
    check_entries(history, 0, system.empty_state(), system, rules, catalogue)
        .map(|_| ())
        .map_err(|e| e.message)
}

/// What is wrong with an entry of a history: which one (from 0, in the whole history) and the
/// sentence, "entry N (`text`): reason".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryError {
    pub index: usize,
    pub message: String,
}

impl std::fmt::Display for EntryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(test)]
thread_local! {
    /// How many entries [`check_entries`] was given on this thread: a test's measure of the
    /// work a load does (`exec` checks each entry once).
    pub(crate) static ENTRIES_CHECKED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// As [`check_history`], for entries that follow the first `skipped` ones, which lead to
/// `start` (the end of a history a save opens from). Gives the state they lead to.
pub fn check_entries(
    history: &[Entry],
    skipped: usize,
    start: State,
    system: System,
    rules: &Arc<HouseRules>,
    catalogue: &Arc<Catalogue>,
) -> Result<State, EntryError> {
    #[cfg(test)]
    ENTRIES_CHECKED.with(|n| n.set(n.get() + history.len()));
    let mut enc = Encounter::from_tail(
        system,
        Arc::clone(rules),
        Arc::clone(catalogue),
        skipped,
        start,
        Vec::new(),
        0,
    );
    for (i, entry) in history.iter().enumerate() {
        let fail = |reason: String| EntryError {
            index: skipped + i,
            message: format!(
                "entry {} (`{}`): {reason}",
                skipped + i + 1,
                crate::text::excerpt(&entry.text)
            ),
        };
        // Commands are typed, and typing refuses these: such a text was edited in the file.
        if crate::text::holds_control(&entry.text) {
            return Err(fail(
                "its text holds a control character, which no typed command can".into(),
            ));
        }
        if let Some(name) = unknown_action(entry, enc.state(), catalogue) {
            return Err(fail(format!(
                "unknown action \"{name}\": not in the actions catalogue in force, nor named by the entry's text"
            )));
        }
        // The text was written in the state before the entry.
        text_agrees(entry, enc.state()).map_err(fail)?;
        edit_agrees(entry, &enc).map_err(fail)?;
        let fired = entry
            .events
            .iter()
            .any(|e| matches!(e, Event::ReadyFired { .. }));
        let mut sheets_ok = Ok(());
        for event in &entry.events {
            check_event(enc.state(), event, rules).map_err(fail)?;
            super::check_spent::check(enc.state(), event, rules, fired).map_err(fail)?;
            if sheets_ok.is_ok() {
                sheets_ok = recheck_sheet(&enc, event);
            }
            enc.apply(event);
        }
        sheets_ok.map_err(fail)?;
        monitors_settled(entry, enc.state(), rules).map_err(fail)?;
        turns_settled(enc.state(), rules).map_err(fail)?;
    }
    Ok(enc.state().clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encounter::{CombatantId, Release, Sheet, Side};

    fn one_added() -> (State, HouseRules) {
        let rules = HouseRules::embedded();
        let mut state = State::default();
        state.apply(&added(0), &rules);
        (state, rules)
    }

    fn added(id: u32) -> Event {
        Event::CombatantAdded {
            id: CombatantId(id),
            name: format!("C{id}"),
            side: Side::Pc,
            sheet: Sheet {
                intuition: 3,
                reaction: 3,
                edge: 1,
                dice_modifier: 0,
                ip_bonus: 0,
                body: None,
                willpower: None,
            },
            group: None,
        }
    }

    /// A save written before an edit downed a character whose monitor it filled (2026-11-26)
    /// holds such an edit with no Downed after it: it still opens. Damage that fills a monitor
    /// has always downed, so damage with no Downed after it is a forged file.
    #[test]
    fn a_full_monitor_without_downed_is_refused_after_damage_only() {
        let rules = HouseRules::embedded();
        let mut state = State::default();
        let mut add = added(0);
        if let Event::CombatantAdded { sheet, .. } = &mut add {
            sheet.body = Some(4);
        }
        state.apply(&add, &rules);
        let hurt = Event::Damaged {
            who: CombatantId(0),
            track: Track::Physical,
            boxes: 9,
        };
        state.apply(&hurt, &rules);
        let Some(c) = state.get(CombatantId(0)).cloned() else {
            panic!("added")
        };
        let mut sheet = c.sheet;
        sheet.body = Some(1);
        let edit = Entry {
            text: "edit C0 body 1".into(),
            events: vec![Event::CombatantEdited {
                id: CombatantId(0),
                name: c.name.clone(),
                side: c.side,
                sheet,
                ip: None,
            }],
            joined: false,
        };
        // Body 4 has 10 boxes, Body 1 has 9: the 9 taken fill it.
        let mut edited = state.clone();
        edited.apply(&edit.events[0], &rules);
        assert!(monitors_settled(&edit, &edited, &rules).is_ok());
        let full = Entry {
            text: "damage C0 1".into(),
            events: vec![Event::Damaged {
                who: CombatantId(0),
                track: Track::Physical,
                boxes: 1,
            }],
            joined: false,
        };
        let mut filled = state.clone();
        filled.apply(&full.events[0], &rules);
        let err = monitors_settled(&full, &filled, &rules).unwrap_err();
        assert!(
            err.contains("monitor is full but C0 is not Downed"),
            "{err}"
        );
    }

    #[test]
    fn ids_follow_the_order_of_adding() {
        let (state, rules) = one_added();
        assert!(check_event(&state, &added(1), &rules).is_ok());
        let err = check_event(&state, &added(5), &rules).unwrap_err();
        assert!(err.contains("should be 1"), "{err}");
    }

    #[test]
    fn turns_only_in_a_fight() {
        let (state, rules) = one_added();
        let ev = Event::TurnStarted {
            who: CombatantId(0),
            ip_gained: 1,
        };
        assert!(
            check_event(&state, &ev, &rules)
                .unwrap_err()
                .contains("outside a fight")
        );
        let ev = Event::TurnEnded {
            who: CombatantId(0),
        };
        assert!(check_event(&state, &ev, &rules).is_err());
    }

    /// C0 and C1 in a fight, C0's turn under way.
    fn fight_of_two() -> (State, HouseRules) {
        let rules = HouseRules::embedded();
        let mut state = State::default();
        let (c0, c1) = (CombatantId(0), CombatantId(1));
        for e in [
            added(0),
            added(1),
            Event::FightStarted {
                order: vec![c0, c1],
                rolloffs: Vec::new(),
            },
            Event::RoundStarted { round: 1 },
            Event::TurnStarted {
                who: c0,
                ip_gained: 1,
            },
        ] {
            assert!(check_event(&state, &e, &rules).is_ok(), "{e:?}");
            state.apply(&e, &rules);
        }
        (state, rules)
    }

    #[test]
    fn a_turn_ends_only_for_its_holder_and_starts_only_when_none_is_under_way() {
        let (mut state, rules) = fight_of_two();
        let (c0, c1) = (CombatantId(0), CombatantId(1));
        let starts = |who| Event::TurnStarted { who, ip_gained: 1 };
        let err = check_event(&state, &Event::TurnEnded { who: c1 }, &rules).unwrap_err();
        assert_eq!(err, "C1's turn ends but the turn under way is C0's");
        let err = check_event(&state, &starts(c1), &rules).unwrap_err();
        assert_eq!(err, "C1's turn starts while C0's is under way");
        state.apply(&Event::TurnEnded { who: c0 }, &rules);
        let err = check_event(&state, &Event::TurnEnded { who: c0 }, &rules).unwrap_err();
        assert_eq!(err, "C0's turn ends but no turn is under way");
        let err = check_event(&state, &starts(c0), &rules).unwrap_err();
        assert_eq!(err, "C0's turn starts but C0 has had its turn in this pass");
        assert!(check_event(&state, &starts(c1), &rules).is_ok());
    }

    #[test]
    fn a_reserve_gives_back_no_more_than_it_holds() {
        let (mut state, rules) = fight_of_two();
        let who = CombatantId(0);
        state.apply(
            &Event::DelayDeclared {
                who,
                ip: 2,
                trigger: None,
            },
            &rules,
        );
        let back = |returned| Event::ReserveReleased {
            who,
            returned,
            why: Release::PassEnded,
        };
        let err = check_event(&state, &back(3), &rules).unwrap_err();
        assert_eq!(err, "C0 gets 3 IP back from a reserve of 2");
        assert!(check_event(&state, &back(2), &rules).is_ok());
    }

    #[test]
    fn a_pool_over_what_a_round_gives_or_a_second_row_acting_is_refused() {
        let (state, rules) = fight_of_two();
        assert_eq!(turns_settled(&state, &rules), Ok(()));
        // 10 to start, 1 a pass for 5 passes, 4 for Edge once a round.
        assert_eq!(pool_cap(&rules), 19);
        let with = |change: fn(&mut Combatant)| {
            let mut s = state.clone();
            change(std::sync::Arc::make_mut(&mut s.combatants[1]));
            turns_settled(&s, &rules)
        };
        assert_eq!(
            with(|c| c.ip = 24),
            Err("C1 holds 24 IP, more than the 19 a round can give".into())
        );
        assert_eq!(
            with(|c| c.mark = PassMark::Acting),
            Err("C1 is shown acting but the turn under way is not theirs".into())
        );
    }

    #[test]
    fn no_release_without_a_reserve_and_no_unknown_ids() {
        let (state, rules) = one_added();
        let ev = Event::ReserveReleased {
            who: CombatantId(0),
            returned: 2,
            why: Release::PassEnded,
        };
        assert!(
            check_event(&state, &ev, &rules)
                .unwrap_err()
                .contains("releases a reserve")
        );
        let ev = Event::Damaged {
            who: CombatantId(9),
            track: crate::encounter::Track::Physical,
            boxes: 1,
        };
        assert!(
            check_event(&state, &ev, &rules)
                .unwrap_err()
                .contains("id 9")
        );
    }

    #[test]
    fn a_query_is_never_an_entry_of_the_history() {
        let (state, _) = one_added();
        for text in [
            "odds 12 limit 4",
            "aodds 3+4 vs 3",
            "odds2097 tn 20 bonus 5",
            "undo",
            "why C0",
        ] {
            let entry = Entry {
                text: text.into(),
                events: vec![added(1)],
                joined: false,
            };
            let err = text_agrees(&entry, &state).unwrap_err();
            assert!(err.contains("not a command that changes"), "{text}: {err}");
        }
    }
}
