//! Holding IP back: a standard delay and its trigger, ready actions and firing them.

use super::actions::Taking;
use super::phase::Then;
use super::{Draft, Outcome};
use crate::encounter::command::{ActionChoice, Timing};
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, PaidFrom, Release};
use crate::encounter::model::{
    ActionUse, Combatant, CombatantId, PassMark, ReadyTrigger, Reserve, TurnKind,
};
use crate::rules::Dice;
use crate::rules::sr5::test::Given;

impl Draft<'_> {
    fn check_trigger(&mut self, c: &Combatant, trigger: CombatantId) -> Outcome {
        if trigger == c.id {
            return Err(RuleError::TriggerIsSelf {
                who: c.name.clone(),
            });
        }
        let t = self.present(trigger)?;
        let state = self.now();
        if state.position(trigger).is_none() {
            return Err(RuleError::NotInOrder { who: t.name });
        }
        let acting = state.turn().is_some_and(|turn| {
            turn.who == trigger && matches!(turn.kind, TurnKind::Own | TurnKind::Resumed)
        });
        if t.mark == PassMark::Joined {
            return Err(RuleError::TriggerJoined { trigger: t.name });
        }
        if !(t.mark.still_to_act() || acting) {
            return Err(RuleError::TriggerGone { trigger: t.name });
        }
        Ok(())
    }

    fn no_reserve(c: &Combatant) -> Outcome {
        match &c.reserve {
            None => Ok(()),
            Some(r) => Err(RuleError::AlreadyReserving {
                who: c.name.clone(),
                what: r.what(),
            }),
        }
    }

    pub(super) fn delay(
        &mut self,
        who: CombatantId,
        ip: i32,
        trigger: Option<CombatantId>,
    ) -> Outcome {
        let c = self.able(who)?;
        self.own_turn(&c, "a delay")?;
        Self::no_reserve(&c)?;
        let cap = self.rules.turn_spend_cap;
        if ip < 1 {
            return Err(RuleError::ReserveTooSmall);
        }
        if ip > i32::from(cap) {
            return Err(RuleError::DelayTooLarge { ip, cap });
        }
        let ip = ip as u8;
        Self::afford(&c.name, c.ip, ip)?;
        if let Some(t) = trigger {
            self.check_trigger(&c, t)?;
        }
        self.emit(Event::DelayDeclared { who, ip, trigger });
        Ok(())
    }

    pub(super) fn name_trigger(&mut self, who: CombatantId, trigger: CombatantId) -> Outcome {
        self.fight()?;
        let c = self.able(who)?;
        match c.delay() {
            None => return Err(RuleError::NoDelay { who: c.name }),
            Some((_, Some(t))) => {
                return Err(RuleError::DelayHasTrigger {
                    who: c.name,
                    trigger: self.now().name(t).to_string(),
                });
            }
            Some((_, None)) => {}
        }
        self.check_trigger(&c, trigger)?;
        self.emit(Event::DelayTriggerNamed { who, trigger });
        Ok(())
    }

    pub(super) fn ready(
        &mut self,
        who: CombatantId,
        ip: Option<i32>,
        text: &str,
        choices: &[ActionChoice],
    ) -> Outcome {
        let c = self.able(who)?;
        let turn = self.own_turn(&c, "a ready action")?;
        // One trigger is answered before the next turn: a ready fired in this turn was it.
        if c.ready_fired == Some(turn.serial) {
            return Err(RuleError::ReadyAnswered { who: c.name });
        }
        // What the character holds is checked before the words: a ready with no trigger yet
        // (the screen's `y`) is refused for a delay held, as the command is.
        let held = match &c.reserve {
            Some(Reserve::Ready {
                ip: held,
                turn_serial,
                ..
            }) if *turn_serial == turn.serial => Some(*held),
            Some(_) => {
                Self::no_reserve(&c)?;
                None
            }
            None => None,
        };
        let cap = self.rules.ready_reserve_cap;
        let text = ReadyTrigger::words(text);
        if text.is_empty() {
            return Err(RuleError::EmptyTrigger);
        }
        let text = RuleError::check_text("ready trigger", text, self.rules.limits.text_chars)?;
        if choices.is_empty() {
            return Err(RuleError::NoReadyActions);
        }
        let mut resolved = Vec::new();
        for choice in choices {
            resolved.push(self.resolve(choice)?);
        }
        let actions: Vec<ActionUse> = resolved.iter().map(|(a, _)| a.clone()).collect();
        // The list is checked as `act` would see it taken in one Action Phase: one attack
        // action, and what goes with another (Call a Shot) has it after it.
        for (i, (action, restrictions)) in resolved.iter().enumerate() {
            let taken: Vec<String> = actions
                .iter()
                .take(i)
                .filter_map(|a| a.name.clone())
                .collect();
            let then = Then::Only(actions.get(i + 1..).unwrap_or_default());
            self.one_attack(&c, action, &taken)?;
            self.goes_with(&c, action, restrictions, &taken, then)?;
        }
        self.ready_ammunition(&c, &actions)?;
        let trigger = ReadyTrigger { text, actions };
        let reserve = match held {
            Some(held) => {
                if ip.is_some_and(|ip| ip != i32::from(held)) {
                    return Err(RuleError::ReadyReserveMismatch {
                        who: c.name,
                        reserve: held,
                    });
                }
                held
            }
            None => {
                // No amount given: the first trigger's actions set the reserve.
                let ip = ip.unwrap_or_else(|| i32::from(trigger.cost()));
                if ip < 1 || ip > i32::from(cap) {
                    return Err(RuleError::ReadyReserve { ip, cap });
                }
                let ip = ip as u8;
                Self::afford(&c.name, c.ip, ip)?;
                ip
            }
        };
        if trigger.cost() > reserve {
            return Err(RuleError::ReadyTooCostly {
                cost: trigger.cost(),
                reserve,
            });
        }
        self.emit(Event::ReadyDeclared {
            who,
            ip: reserve,
            trigger,
        });
        Ok(())
    }

    /// The firearm's rounds and clip judged as `act` judges them, each action on the gun the
    /// ones before it leave (a reload, then a burst): a ready that cannot fire is told so as it
    /// is declared, not when its trigger comes. Tried on a copy, so nothing is emitted.
    fn ready_ammunition(&mut self, c: &Combatant, actions: &[ActionUse]) -> Outcome {
        let armed = self
            .now()
            .sr5
            .kit(c.id)
            .and_then(|k| k.firearm_in_hand())
            .is_some_and(|g| g.ammo.is_some());
        if !armed {
            return Ok(());
        }
        let state = self.now().clone();
        let mut trial = Draft::new(self.system, &state, self.rules, self.catalogue);
        for action in actions {
            if let Some(e) = trial.ammunition(c, action)? {
                trial.emit(e);
            }
        }
        Ok(())
    }

    pub(super) fn fire(
        &mut self,
        who: CombatantId,
        index: usize,
        timing: Timing,
        dice: &mut dyn Dice,
    ) -> Outcome {
        self.fight()?;
        let c = self.able(who)?;
        let Some(reserve @ Reserve::Ready { ip, triggers, .. }) = &c.reserve else {
            return Err(RuleError::NoReady { who: c.name });
        };
        let old_round = self.of_an_earlier_round(reserve);
        let Some(trigger) = triggers.get(index).cloned() else {
            return Err(RuleError::NoSuchTrigger {
                who: c.name.clone(),
                number: index + 1,
                count: triggers.len(),
            });
        };
        let reserve = *ip;
        self.emit(Event::ReadyFired {
            who,
            trigger: trigger.clone(),
            timing,
        });
        // Each action is taken as `act` takes it, in the Action Phase under way and against
        // what the ones before it left (Stand Up ends Prone before Drop Prone is checked).
        for (i, action) in trigger.actions.iter().enumerate() {
            let now = self.now().get(who).cloned().unwrap_or_else(|| c.clone());
            let restrictions = action
                .name
                .as_deref()
                .and_then(|n| self.catalogue.get(n))
                .map(|d| d.restrictions.clone())
                .unwrap_or_default();
            let how = Taking {
                from: PaidFrom::Reserve,
                have: now.reserve.as_ref().map_or(0, Reserve::ip),
                or_pool: None,
                then: Then::Only(trigger.actions.get(i + 1..).unwrap_or_default()),
            };
            // A fired ready gives no dice: srtrack rolls a wounded Stand Up's test.
            self.take_action(
                &now,
                action.clone(),
                &restrictions,
                &how,
                &Given::Roll,
                dice,
            )?;
        }
        let rest = reserve.saturating_sub(trigger.cost());
        // A rest from an earlier round was lost with that round's pool; no rest, nothing lost.
        let (returned, why) = if old_round && rest > 0 {
            (0, Release::FiredNewRound)
        } else if old_round {
            (0, Release::Fired)
        } else {
            (rest, Release::Fired)
        };
        self.emit(Event::ReserveReleased { who, returned, why });
        Ok(())
    }
}
