//! Spending IP: actions from the catalogue or bare types, interrupts, the effects they start, Edge.

use super::phase::Then;
use super::{Draft, Outcome};
use crate::catalogue::{ActionKind, Effect, Restriction};
use crate::encounter::command::ActionChoice;
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, PaidFrom, StatusEnded};
use crate::encounter::model::{
    ActionUse, ActiveStatus, Combatant, CombatantId, Reserve, StatusEnd, TurnKind,
};
use crate::rules::Dice;
use crate::rules::sr5::test::Given;

/// How an action is paid for: out of the pool or a reserve, what that holds, and what may
/// still follow it in its Action Phase.
pub(super) struct Taking<'a> {
    pub(super) from: PaidFrom,
    pub(super) have: u8,
    /// The pool's IP when it could have paid instead (an interrupt in a delay sub-turn), so a
    /// refusal names both.
    pub(super) or_pool: Option<u8>,
    pub(super) then: Then<'a>,
}

impl Draft<'_> {
    /// What an action is and costs, from the rules and the catalogue.
    pub(super) fn resolve(
        &self,
        choice: &ActionChoice,
    ) -> Result<(ActionUse, Vec<Restriction>), RuleError> {
        match choice {
            ActionChoice::Type(t) => Ok((
                ActionUse {
                    name: None,
                    kind: t.label().to_string(),
                    cost: self.rules.cost_of(*t),
                    interrupt: false,
                    effect: None,
                    mode: None,
                    ammo: None,
                },
                Vec::new(),
            )),
            ActionChoice::Named {
                name,
                as_type,
                mode,
            } => {
                let def = self
                    .catalogue
                    .get(name)
                    .ok_or_else(|| RuleError::UnknownAction { name: name.clone() })?;
                let mode = self.fire_mode(&def.name, mode.as_deref())?;
                let (kind, cost, interrupt) = match (def.kind, as_type) {
                    (ActionKind::Interrupt { initiative }, None) => (
                        "Interrupt".to_string(),
                        self.rules.interrupt_ip(initiative).ok_or(
                            RuleError::UnmappedInterrupt {
                                action: def.name.clone(),
                                initiative,
                            },
                        )?,
                        true,
                    ),
                    (ActionKind::Variable | ActionKind::Special, Some(t)) => {
                        (t.label().to_string(), self.rules.cost_of(*t), false)
                    }
                    (ActionKind::Variable | ActionKind::Special, None) => {
                        return Err(RuleError::NeedsType {
                            action: def.name.clone(),
                            kind: def.kind.label(),
                        });
                    }
                    (k, t) => match (k.fixed_type(), t) {
                        (Some(fixed), None) => {
                            (fixed.label().to_string(), self.rules.cost_of(fixed), false)
                        }
                        (Some(fixed), Some(t)) if fixed == *t => {
                            (fixed.label().to_string(), self.rules.cost_of(fixed), false)
                        }
                        (_, asked) => {
                            return Err(RuleError::TypeNotAsked {
                                action: def.name.clone(),
                                kind: def.kind.a_label(),
                                asked: asked.map_or("another type", |t| t.label()),
                            });
                        }
                    },
                };
                Ok((
                    ActionUse {
                        name: Some(def.name.clone()),
                        kind,
                        cost,
                        interrupt,
                        effect: def.effect.clone(),
                        mode,
                        ammo: def.ammo,
                    },
                    def.restrictions.clone(),
                ))
            }
        }
    }

    pub(super) fn check_restrictions(
        &self,
        c: &Combatant,
        action: &ActionUse,
        restrictions: &[Restriction],
    ) -> Outcome {
        let label = action.name.clone().unwrap_or_else(|| action.kind.clone());
        for r in restrictions {
            match r {
                Restriction::NotWhile(s) if c.status(s).is_some() => {
                    return Err(RuleError::BarredWhile {
                        who: c.name.clone(),
                        action: label,
                        status: s.clone(),
                    });
                }
                Restriction::OnlyWhile(s) if c.status(s).is_none() => {
                    return Err(RuleError::NeedsStatus {
                        who: c.name.clone(),
                        action: label,
                        status: s.clone(),
                    });
                }
                _ => {}
            }
        }
        // A lasting effect already on (Full Defense, Prone) is not bought a second time.
        if let Some(Effect::Start(s)) = &action.effect
            && let Some(held) = c.status(s)
        {
            return Err(RuleError::AlreadyInEffect {
                who: c.name.clone(),
                action: label,
                status: held.name.clone(),
            });
        }
        if let Some(Effect::Stack(s)) = &action.effect
            && let Some(cap) = self.rules.take_aim_cap(c.sheet.willpower)
            && c.status(s).is_some_and(|st| st.stacks >= cap)
        {
            return Err(RuleError::TakeAimCapped {
                who: c.name.clone(),
                cap,
            });
        }
        Ok(())
    }

    /// Starts a status an action names, under the name and end the house rules give it. One the
    /// encounter's rules do not list (a save from before the status, as Evasive Driving's) starts
    /// nothing: the action does what it did when the save was made.
    fn start_status(&mut self, who: CombatantId, name: &str) {
        let end = self.status_end(name);
        let Some(name) = self.rules.status(name).map(|d| d.name.clone()) else {
            return;
        };
        self.emit(Event::StatusStarted {
            who,
            status: ActiveStatus {
                name,
                end,
                stacks: 1,
            },
        });
    }

    /// Whether `action` must be combined with an action that uses the status `name` (Call a
    /// Shot goes with Fire Gun, which takes the Take Aim).
    fn goes_with_a_user_of(&self, action: &ActionUse, name: &str) -> bool {
        let Some(def) = action.name.as_deref().and_then(|n| self.catalogue.get(n)) else {
            return false;
        };
        def.restrictions.iter().any(|r| match r {
            Restriction::CombineWith(with) => {
                with.iter().filter_map(|w| self.catalogue.get(w)).any(
                    |w| matches!(&w.effect, Some(Effect::Uses(u)) if u.eq_ignore_ascii_case(name)),
                )
            }
            _ => false,
        })
    }

    /// The events of spending one action, with the effects it starts and ends.
    pub(super) fn spend_events(
        &mut self,
        c: &Combatant,
        action: ActionUse,
        paid_from: PaidFrom,
        in_turn: bool,
        test: Option<(Event, bool)>,
    ) {
        let stacked = match &action.effect {
            Some(Effect::Stack(s)) => Some(s.clone()),
            _ => None,
        };
        // Take Aim and its like end when the character does anything else; not on an action
        // that goes with the one using it (Call a Shot with the shot): that is part of it.
        for s in &c.statuses {
            if s.end == StatusEnd::OtherAction
                && !stacked
                    .as_ref()
                    .is_some_and(|n| n.eq_ignore_ascii_case(&s.name))
                && !self.goes_with_a_user_of(&action, &s.name)
            {
                self.emit(Event::StatusEnded {
                    who: c.id,
                    name: s.name.clone(),
                    why: StatusEnded::OtherAction,
                });
            }
        }
        let effect = action.effect.clone();
        self.emit(Event::ActionSpent {
            who: c.id,
            action,
            paid_from,
            in_turn,
        });
        // A wounded character's test for the action (Stand Up): failed, the status stays.
        let passed = test.as_ref().is_none_or(|(_, passed)| *passed);
        if let Some((e, _)) = test {
            self.emit(e);
        }
        match effect {
            Some(Effect::Start(name)) if c.status(&name).is_none() => {
                self.start_status(c.id, &name);
            }
            Some(Effect::End(name)) if passed && c.status(&name).is_some() => {
                self.emit(Event::StatusEnded {
                    who: c.id,
                    name,
                    why: StatusEnded::Action,
                });
            }
            Some(Effect::Stack(name)) => match c.status(&name) {
                Some(s) => self.emit(Event::StatusStacked {
                    who: c.id,
                    name: s.name.clone(),
                    stacks: s.stacks.saturating_add(1),
                }),
                None => self.start_status(c.id, &name),
            },
            _ => {}
        }
    }

    /// Spends an action; `given`: the table's dice for the test it takes, if it takes one.
    pub(super) fn spend(
        &mut self,
        who: CombatantId,
        choice: &ActionChoice,
        given: &Given,
        dice: &mut dyn Dice,
    ) -> Outcome {
        self.fight()?;
        let c = self.able(who)?;
        let (action, restrictions) = self.resolve(choice)?;
        let own = self.now().turn().copied().filter(|t| t.who == who);
        let (paid_from, have) = match (action.interrupt, own) {
            // One who joined and has not rolled has no score yet for an interrupt to lower.
            (true, _) if self.now().position(who).is_none() => {
                return Err(RuleError::MissingInitiative {
                    names: vec![c.name],
                });
            }
            // In its own delay sub-turn the held IP pay for any action the character can
            // afford with them, an interrupt too; the pool, which pays an interrupt at any
            // moment, still does when the held IP fall short (what is left of them goes back to
            // it at the sub-turn's end, so either way the character ends with the same IP).
            (true, Some(t)) if matches!(t.kind, TurnKind::Delayed { .. }) => {
                let held = c.reserve.as_ref().map_or(0, Reserve::ip);
                if held < action.cost && c.ip >= action.cost {
                    (PaidFrom::Pool, c.ip)
                } else {
                    (PaidFrom::Reserve, held)
                }
            }
            // Interrupts come out of the pool at any moment.
            (true, _) => (PaidFrom::Pool, c.ip),
            (false, Some(t)) => match t.kind {
                TurnKind::Delayed { .. } => {
                    (PaidFrom::Reserve, c.reserve.as_ref().map_or(0, Reserve::ip))
                }
                TurnKind::Own | TurnKind::Resumed => (PaidFrom::Pool, c.ip),
            },
            (false, None) => {
                let current = self.current_name();
                return Err(RuleError::NotTheirTurn {
                    who: c.name,
                    current,
                });
            }
        };
        let how = Taking {
            from: paid_from,
            have,
            or_pool: (action.interrupt && paid_from == PaidFrom::Reserve).then_some(c.ip),
            then: Then::Any { have },
        };
        self.take_action(&c, action, &restrictions, &how, given, dice)
    }

    /// Takes one action now, checked against the state as it stands (the Action Phase under
    /// way, what is on, what waits), then its events: what `act` does once a turn allows it,
    /// and a fired ready for each of its actions in turn.
    pub(super) fn take_action(
        &mut self,
        c: &Combatant,
        action: ActionUse,
        restrictions: &[Restriction],
        how: &Taking<'_>,
        given: &Given,
        dice: &mut dyn Dice,
    ) -> Outcome {
        // What the action cannot do now comes before what it would cost.
        self.check_restrictions(c, &action, restrictions)?;
        let taken = self.taken(c);
        self.one_attack(c, &action, &taken)?;
        self.defense_add_unused(c, &action)?;
        self.defense_add_counts(c, &action)?;
        // The firearm's rounds and clip are what it can do now, too.
        let ammunition = self.ammunition(c, &action)?;
        if how.from == PaidFrom::Reserve && action.cost > how.have {
            return Err(match how.or_pool {
                Some(pool) => RuleError::NotEnoughHeldOrPool {
                    who: c.name.clone(),
                    held: how.have,
                    pool,
                    need: action.cost,
                },
                None => RuleError::NotEnoughHeld {
                    who: c.name.clone(),
                    have: how.have,
                    need: action.cost,
                },
            });
        }
        Self::afford(&c.name, how.have, action.cost)?;
        let in_turn = self.turn_cap(c, action.cost)?;
        self.goes_with(c, &action, restrictions, &taken, how.then)?;
        let test = self.wounded_test(c, &action, given, dice)?;
        self.spend_events(c, action, how.from, in_turn, test);
        if let Some(e) = ammunition {
            self.emit(e);
        }
        Ok(())
    }

    pub(super) fn edge(&mut self, who: CombatantId) -> Outcome {
        self.fight()?;
        let c = self.able(who)?;
        // As for an interrupt: IP bought before the roll would sit in a pool with no turn.
        if self.now().position(who).is_none() {
            return Err(RuleError::MissingInitiative {
                names: vec![c.name],
            });
        }
        let e = self.rules.edge;
        if c.edge_ip_used_up(self.rules) {
            return Err(RuleError::EdgeUsedThisRound {
                who: c.name,
                per_round: e.uses_per_round,
            });
        }
        if c.edge_left < e.edge_cost {
            return Err(RuleError::NoEdgeLeft {
                who: c.name,
                have: c.edge_left,
                need: e.edge_cost,
            });
        }
        self.emit(Event::EdgeSpent {
            who,
            ip_gained: e.ip_gained,
            edge_spent: e.edge_cost,
        });
        Ok(())
    }
}
