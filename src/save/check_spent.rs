//! What a saved event spends and starts, held to the save's own house rules as the engine holds
//! a command: an action's IP by its type (never by today's catalogue, which may have changed
//! since), a ready's actions within its reserve, a status started once and stacked by one.

use crate::encounter::{ActionUse, Combatant, Event, Reserve, RuleError, State};
use crate::rules::{ActionType, HouseRules};

/// Whether `event` spends and starts what the engine would have; `fired`: the entry fires a
/// ready (see the Take Aim cap below).
pub fn check(state: &State, event: &Event, rules: &HouseRules, fired: bool) -> Result<(), String> {
    let who = |id| state.get(id).map_or("someone", |c: &Combatant| &c.name);
    match event {
        Event::ActionSpent { action, .. } => action_cost(action, rules),
        Event::ReadyDeclared {
            who: id,
            ip,
            trigger,
        } => {
            for a in &trigger.actions {
                action_cost(a, rules)?;
            }
            ready(state.get(*id), *ip, &trigger.actions, rules)
        }
        Event::ReadyFired { trigger, .. } => trigger
            .actions
            .iter()
            .try_for_each(|a| action_cost(a, rules)),
        Event::StatusStarted { who: id, status } => {
            if let Some(held) = state.get(*id).and_then(|c| c.status(&status.name)) {
                return Err(RuleError::StatusHeld {
                    who: who(*id).to_string(),
                    name: held.name.clone(),
                }
                .to_string());
            }
            if status.stacks != 1 {
                return Err(format!(
                    "{}'s status \"{}\" starts at {} stacks: a status starts at 1",
                    who(*id),
                    crate::text::excerpt(&status.name),
                    status.stacks
                ));
            }
            Ok(())
        }
        Event::StatusStacked {
            who: id,
            name,
            stacks,
        } => {
            let Some(c) = state.get(*id) else {
                return Ok(());
            };
            let Some(held) = c.status(name) else {
                return Err(format!(
                    "{} stacks the status \"{}\", which they do not have",
                    c.name,
                    crate::text::excerpt(name)
                ));
            };
            if u16::from(*stacks) != u16::from(held.stacks) + 1 {
                return Err(format!(
                    "{}'s status \"{}\" goes from {} to {stacks} stacks: it stacks by 1",
                    c.name,
                    crate::text::excerpt(&held.name),
                    held.stacks
                ));
            }
            // Before 2026-12-02 a fired ready checked the cap once, before its first action:
            // two Take Aims in one ready could pass it, and those saves still open.
            if let Some(cap) = rules.take_aim_cap(c.sheet.willpower)
                && *stacks > cap
                && !fired
            {
                return Err(format!(
                    "{}'s \"{}\" stacks to {stacks}, over the cap of {cap} (half Willpower, rounded up)",
                    c.name,
                    crate::text::excerpt(&held.name)
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The IP an action records are what the save's house rules give its type: an interrupt's one
/// of `interrupt_costs` (which one, the catalogue of the day said), the others their type's.
pub fn action_cost(action: &ActionUse, rules: &HouseRules) -> Result<(), String> {
    let name = crate::text::excerpt(action.name.as_deref().unwrap_or(&action.kind));
    if action.kind == "Interrupt" {
        if !action.interrupt {
            return Err(format!(
                "{name} is taken as an Interrupt but not marked an interrupt"
            ));
        }
        if !rules.interrupt_costs.iter().any(|c| c.ip == action.cost) {
            let costs: Vec<String> = rules
                .interrupt_costs
                .iter()
                .map(|c| c.ip.to_string())
                .collect();
            return Err(format!(
                "{name} costs {} IP as an Interrupt: the save's house rules give an interrupt {} IP (interrupt_costs)",
                action.cost,
                costs.join(" or ")
            ));
        }
        return Ok(());
    }
    let Some(kind) = ActionType::ALL
        .into_iter()
        .find(|t| t.label() == action.kind)
    else {
        return Err(format!(
            "{name} is taken as \"{}\", which is not an action type (Free, Simple, Complex or Interrupt)",
            crate::text::excerpt(&action.kind)
        ));
    };
    if action.interrupt {
        return Err(format!(
            "{name} is marked an interrupt but taken as a {kind} action"
        ));
    }
    let cost = rules.cost_of(kind);
    if action.cost != cost {
        return Err(format!(
            "{name} costs {} IP as a {kind} action: the save's house rules give a {kind} action {cost} IP",
            action.cost
        ));
    }
    Ok(())
}

/// A ready's reserve is one `ready` takes (1 IP to the cap, or the one already held when a
/// trigger is added), and its actions cost no more than it holds.
fn ready(
    c: Option<&Combatant>,
    ip: u8,
    actions: &[ActionUse],
    rules: &HouseRules,
) -> Result<(), String> {
    let held = c.and_then(|c| match &c.reserve {
        Some(Reserve::Ready { ip, .. }) => Some(*ip),
        _ => None,
    });
    let reserve = match held {
        Some(held) if held != ip => {
            return Err(format!(
                "a trigger added to a ready of {held} IP records a reserve of {ip}"
            ));
        }
        Some(held) => held,
        None => {
            let cap = rules.ready_reserve_cap;
            if ip == 0 || ip > cap {
                return Err(RuleError::ReadyReserve {
                    ip: i32::from(ip),
                    cap,
                }
                .to_string());
            }
            ip
        }
    };
    // Summed wide: a forged list may add past what a u8 holds.
    let cost: u32 = actions.iter().map(|a| u32::from(a.cost)).sum();
    if cost > u32::from(reserve) {
        return Err(format!(
            "the ready actions cost {cost} IP, more than the {reserve} IP reserved"
        ));
    }
    Ok(())
}
