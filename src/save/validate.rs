//! Checks a saved history before it is trusted: each event must fit the state before it.
//! `State::apply` never fails, so without this a hand-edited save could fold to nonsense.

use crate::catalogue::Catalogue;
use crate::encounter::system::sr2097::Sr2097Event;
use crate::encounter::{ActionUse, CombatantId, Entry, Event, PaidFrom, Phase, Reserve, State};
use crate::rules::HouseRules;
use crate::rules::initiative::Scoring;
use crate::rules::sr2097::Sr2097Rules;

/// Whether `event` may follow `state`; the message says what is wrong with it.
pub fn check_event(state: &State, event: &Event, rules: &HouseRules) -> Result<(), String> {
    let exists = |id: CombatantId| {
        state
            .get(id)
            .map(|_| ())
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
        | Event::Damaged { who: id, .. }
        | Event::Healed { who: id, .. }
        | Event::StatusStarted { who: id, .. }
        | Event::StatusStacked { who: id, .. }
        | Event::StatusEnded { who: id, .. } => {
            present(*id)?;
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
        Event::TurnStarted { who, .. } | Event::TurnResumed { who } => {
            in_fight("a turn")?;
            present(*who)?;
        }
        // A removed combatant's slot still passes when a delay waits on it.
        Event::TurnSkipped { who } => {
            in_fight("a turn")?;
            exists(*who)?;
        }
        Event::TurnEnded { who } => {
            in_fight("a turn ended")?;
            exists(*who)?;
        }
        Event::DelayTurnStarted { who, trigger } => {
            in_fight("a delayed turn")?;
            let c = present(*who)?;
            exists(*trigger)?;
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
            who, edge_spent, ..
        } => {
            in_fight("Edge spent")?;
            let c = present(*who)?;
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
        Event::ReserveReleased { who, .. } => {
            let c = state
                .get(*who)
                .ok_or_else(|| format!("no combatant with id {}", who.0))?;
            if c.reserve.is_none() {
                return Err(format!("{} releases a reserve with none held", c.name));
            }
        }
        Event::InitiativeChanged { who, target, .. } => {
            in_fight("a change of initiative")?;
            present(*who)?;
            exists(*target)?;
        }
        Event::EncounterEnded => not_ended("the encounter ended")?,
        Event::Sr2097(e) => {
            not_ended("a Shadowrun 2097 event")?;
            present(e.who())?;
            check_sr2097(state, e, &rules.sr2097)?;
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
        Sr2097Event::InitiativeBoosted { dice, .. } => {
            if state.fight().is_none() {
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

/// Catalogue names an event spends: each must be in the catalogue.
fn action_names(event: &Event) -> Vec<&ActionUse> {
    match event {
        Event::ActionSpent { action, .. } => vec![action],
        Event::ReadyDeclared { trigger, .. } | Event::ReadyFired { trigger, .. } => {
            trigger.actions.iter().collect()
        }
        _ => Vec::new(),
    }
}

/// Replays the whole history (redo part included) checking every event.
/// The message reads "entry N (`text`): reason", N counting from 1.
pub fn check_history(
    start: State,
    history: &[Entry],
    rules: &HouseRules,
    catalogue: &Catalogue,
) -> Result<(), String> {
    let mut state = start;
    for (i, entry) in history.iter().enumerate() {
        let fail = |reason: String| format!("entry {} (`{}`): {reason}", i + 1, entry.text);
        for event in &entry.events {
            for a in action_names(event) {
                if let Some(name) = &a.name
                    && catalogue.get(name).is_none()
                {
                    return Err(fail(format!("unknown action \"{name}\"")));
                }
            }
            check_event(&state, event, rules).map_err(fail)?;
            state.apply(event, rules);
        }
    }
    Ok(())
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
}
