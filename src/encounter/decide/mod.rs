//! Every rule of the fight: a command is checked against the state and becomes events.
//!
//! Here: the `Draft` that collects the events, its look-ups, helpers several rule families use,
//! and the one dispatch. Each family is an `impl Draft` in a file of its own; what a family
//! offers the others (walking the order, spending an action) is `pub(super)` there.

use super::command::Command;
use super::error::RuleError;
use super::event::{Event, Release, StatusEnded};
use super::model::{
    Combatant, CombatantId, Fight, Phase, Reserve, State, StatusEnd, Turn, TurnKind,
};
use super::query::Attack;
use super::system::System;
use crate::catalogue::Catalogue;
use crate::rules::house::Range;
use crate::rules::sr5::test::Given;
use crate::rules::{Dice, HouseRules, StatusEnds};

mod actions;
mod anarchy;
mod condition;
mod initiative;
mod order;
mod phase;
mod reserve;
mod roster;
mod sr2097;
mod sr5;
mod statuses;
mod targets;
mod turns;
mod visibility;

/// Builds the events of one command, applying them to a scratch copy as it goes when a later
/// step must see an earlier one (the copy is made only then).
pub(super) struct Draft<'a> {
    /// The rule system: asked once, by the gate at the top of `command`.
    system: System,
    base: &'a State,
    rules: &'a HouseRules,
    catalogue: &'a Catalogue,
    scratch: Option<State>,
    events: Vec<Event>,
    /// The entries that made `base`, where the rule needs what the state does not keep (the
    /// attack actions still waiting for their attack); `None` on a trial copy.
    applied: Option<&'a [super::history::Entry]>,
}

type Outcome = Result<(), RuleError>;

impl<'a> Draft<'a> {
    pub(super) fn new(
        system: System,
        base: &'a State,
        rules: &'a HouseRules,
        catalogue: &'a Catalogue,
    ) -> Self {
        Self {
            system,
            base,
            rules,
            catalogue,
            scratch: None,
            events: Vec::new(),
            applied: None,
        }
    }

    /// The draft of a command on the state these entries made.
    pub(super) fn with_history(self, applied: &'a [super::history::Entry]) -> Self {
        Self {
            applied: Some(applied),
            ..self
        }
    }

    pub(super) fn finish(self) -> Vec<Event> {
        self.events
    }

    fn emit(&mut self, event: Event) {
        if let Some(s) = &mut self.scratch {
            s.apply(&event, self.rules);
        }
        self.events.push(event);
    }

    /// The state with every event emitted so far applied.
    fn now(&mut self) -> &State {
        if self.scratch.is_none() && !self.events.is_empty() {
            let mut s = self.base.clone();
            for e in &self.events {
                s.apply(e, self.rules);
            }
            self.scratch = Some(s);
        }
        self.scratch.as_ref().unwrap_or(self.base)
    }

    pub(super) fn command(&mut self, command: Command, dice: &mut dyn Dice) -> Outcome {
        self.system.accepts(&command)?;
        if matches!(self.base.phase, Phase::Ended { .. }) {
            return Err(RuleError::Ended);
        }
        match command {
            Command::Add(add) => self.add(&add),
            Command::Edit {
                who,
                name,
                side,
                sheet,
            } => self.edit(who, name, side, &sheet),
            Command::Remove { who, reason } => self.remove(who, reason.as_deref()),
            Command::Roll { target, typed } => self.roll(target, typed, dice),
            Command::Start => self.start(dice),
            Command::Next => self.next(),
            Command::SpendAction { who, action } => self.spend(who, &action, &Given::Roll, dice),
            Command::UseEdge { who } => self.edge(who),
            Command::Delay { who, ip, trigger } => self.delay(who, ip, trigger),
            Command::NameDelayTrigger { who, trigger } => self.name_trigger(who, trigger),
            Command::Ready {
                who,
                ip,
                trigger,
                actions,
            } => self.ready(who, ip, &trigger, &actions),
            Command::FireReady {
                who,
                trigger,
                timing,
            } => self.fire(who, trigger, timing, dice),
            Command::ChangeInitiative {
                who,
                relative,
                target,
            } => self.change_initiative(who, relative, target),
            Command::SetDowned { who, downed } => self.set_downed(who, downed),
            Command::Damage { who, track, boxes } => self.damage(who, track, boxes),
            Command::Heal { who, track, boxes } => self.heal(who, track, boxes),
            Command::AddStatus { who, text, until } => self.add_status(who, &text, until),
            Command::ClearStatus { who, name } => self.clear_status(who, &name),
            Command::ForEach { who, each } => self.for_each(&who, &each),
            Command::SetVisibility { who, visibility } => self.set_visibility(&who, visibility),
            Command::End => {
                self.emit(Event::EncounterEnded);
                Ok(())
            }
            Command::Sr2097(c) => self.sr2097(c, dice),
            Command::Anarchy(c) => self.anarchy(c, dice),
            Command::Sr5(c) => self.sr5(c, dice),
        }
    }

    // ----- look-ups -------------------------------------------------------------------------

    fn present(&mut self, id: CombatantId) -> Result<Combatant, RuleError> {
        let c = self
            .now()
            .get(id)
            .ok_or(RuleError::UnknownCombatant(id.0))?;
        if !c.is_present() {
            return Err(RuleError::Removed {
                who: c.name.clone(),
            });
        }
        Ok(c.clone())
    }

    /// Refuses a use of Edge `c` has not `need` left for (every system's Edge).
    fn edge_for(c: &Combatant, need: u8) -> Result<(), RuleError> {
        if c.edge_left < need {
            return Err(RuleError::NoEdgeLeft {
                who: c.name.clone(),
                have: c.edge_left,
                need,
            });
        }
        Ok(())
    }

    pub(super) fn able(&mut self, id: CombatantId) -> Result<Combatant, RuleError> {
        let c = self.present(id)?;
        if c.is_downed() {
            return Err(RuleError::Downed { who: c.name });
        }
        Ok(c)
    }

    /// The attacker of `attack`, checked as every attack checks it before its dice: present,
    /// not Downed, in a fight with an attack action waiting for its attack, and armed for that
    /// action when the attack takes its weapon from the kit. The forms ask the
    /// same through [`Encounter::may_attack`](crate::encounter::Encounter::may_attack).
    pub(super) fn attacker(
        &mut self,
        who: CombatantId,
        attack: Attack<'_>,
    ) -> Result<Combatant, RuleError> {
        let c = self.able(who)?;
        match attack {
            Attack::Armed(weapon) => {
                let action = self.owed_attack(&c)?;
                self.attack_weapon(&c, weapon, action.as_ref())?;
            }
            Attack::Damage => {}
        }
        Ok(c)
    }

    fn fight(&mut self) -> Result<Fight, RuleError> {
        match &self.now().phase {
            Phase::Fight(f) => Ok(f.clone()),
            Phase::Setup | Phase::Narration(_) => Err(RuleError::NotStarted),
            Phase::Ended { .. } => Err(RuleError::Ended),
        }
    }

    fn current_name(&mut self) -> Option<String> {
        let turn = self.now().turn().copied()?;
        Some(self.now().name(turn.who).to_string())
    }

    /// The turn in progress if it is `who`'s own (not a delay's sub-turn).
    fn own_turn(&mut self, c: &Combatant, what: &'static str) -> Result<Turn, RuleError> {
        self.fight()?;
        match self.now().turn() {
            Some(t) if t.who == c.id && matches!(t.kind, TurnKind::Own | TurnKind::Resumed) => {
                Ok(*t)
            }
            _ => Err(RuleError::NotOwnTurn {
                who: c.name.clone(),
                what,
            }),
        }
    }

    // ----- shared by several families ------------------------------------------------------

    fn check_range(field: &'static str, value: i32, range: Range) -> Result<i32, RuleError> {
        RuleError::in_range(field, value, range)
    }

    /// Pending delays and readies lapse; the IP go back to the pool, unless they are a ready's
    /// from an earlier round (lost with that round's pool).
    fn release(&mut self, c: &Combatant, why: Release) {
        if let Some(r) = &c.reserve {
            let (returned, why) = match (self.of_an_earlier_round(r), why) {
                (true, Release::Downed) => (0, Release::DownedNewRound),
                _ => (r.ip(), why),
            };
            self.emit(Event::ReserveReleased {
                who: c.id,
                returned,
                why,
            });
        }
    }

    /// A ready outlives the round's reset, but not the old round's IP: what it holds cannot
    /// come back into a later round's pool.
    fn of_an_earlier_round(&mut self, reserve: &Reserve) -> bool {
        reserve.of_an_earlier_round(self.now().fight().map_or(0, |f| f.round))
    }

    fn expire_turn_statuses(&mut self, serial: u64) {
        self.expire_statuses(StatusEnd::EndOfTurn { serial }, StatusEnded::TurnEnded);
    }

    /// Every status of the present that ends at `end` ends, for `why`.
    fn expire_statuses(&mut self, end: StatusEnd, why: StatusEnded) {
        let ended: Vec<(CombatantId, String)> = self
            .now()
            .present()
            .flat_map(|c| {
                c.statuses
                    .iter()
                    .filter(|s| s.end == end)
                    .map(|s| (c.id, s.name.clone()))
            })
            .collect();
        for (who, name) in ended {
            self.emit(Event::StatusEnded { who, name, why });
        }
    }

    fn status_end(&self, name: &str) -> StatusEnd {
        match self.rules.status(name).map(|d| d.ends) {
            Some(StatusEnds::EndOfRound) => StatusEnd::EndOfRound,
            Some(StatusEnds::OtherAction) => StatusEnd::OtherAction,
            Some(StatusEnds::UntilEnded) | None => StatusEnd::UntilCleared,
        }
    }

    /// Whether `c` may spend `cost` more IP in the character turn under way, whoever's it is
    /// (the 5 IP cap); `Ok(true)` when a turn is under way and the spending counts in it.
    fn turn_cap(&mut self, c: &Combatant, cost: u8) -> Result<bool, RuleError> {
        let cap = self.rules.turn_spend_cap;
        let state = self.now();
        let Some(holder) = state.turn_holder() else {
            return Ok(false);
        };
        let spent = state.spent_in_turn(c.id);
        let total = spent.saturating_add(cost);
        if total > cap {
            let turn = if holder == c.id {
                "their own".to_string()
            } else {
                format!("{}'s", state.name(holder))
            };
            return Err(RuleError::OverTurnCap {
                who: c.name.clone(),
                turn,
                spent,
                cost,
                total,
                cap,
            });
        }
        Ok(true)
    }

    /// Spending or holding back `need` IP out of `have`.
    fn afford(who: &str, have: u8, need: u8) -> Outcome {
        if need > have {
            return Err(RuleError::NotEnoughIp {
                who: who.to_string(),
                have,
                need,
            });
        }
        Ok(())
    }
}
