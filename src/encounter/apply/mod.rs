//! Folding events into the state. Applying never fails: `decide` checked everything first.

use super::event::{Event, PaidFrom, Skipped};
use super::model::{
    ActiveStatus, Combatant, CombatantId, Damage, Fight, Group, Moved, PassIp, PassMark, Phase,
    Presence, Relative, Reserve, State, StatusEnd, Turn, TurnKind, Visibility, Waiting,
};
use std::sync::Arc;

use crate::rules::HouseRules;

mod anarchy;
mod sr2097;
mod sr5;

impl State {
    fn at_mut(&mut self, id: CombatantId) -> Option<&mut Combatant> {
        self.combatants.get_mut(id.index()).map(Arc::make_mut)
    }

    fn fight_mut(&mut self) -> Option<&mut Fight> {
        match &mut self.phase {
            Phase::Fight(f) => Some(f),
            _ => None,
        }
    }

    fn pass_index(&self) -> usize {
        self.fight()
            .map_or(0, |f| usize::from(f.pass.saturating_sub(1)))
    }

    fn ledger_mut(&mut self, id: CombatantId) -> Option<&mut PassIp> {
        let pass = self.pass_index();
        self.at_mut(id).and_then(|c| c.ledger.get_mut(pass))
    }

    fn begin_turn(&mut self, who: CombatantId, kind: TurnKind) {
        // A resumed turn is the skipped one taken later: it keeps that turn's serial, so what
        // ends with it (`until turn`, whoever holds it) ends when it is taken.
        let skipped = match self.get(who).map(|c| c.mark) {
            Some(PassMark::Deferred { turn }) if kind == TurnKind::Resumed => Some(turn),
            _ => None,
        };
        let Some(fight) = self.fight_mut() else {
            return;
        };
        let serial = skipped.unwrap_or_else(|| {
            fight.turns_started += 1;
            fight.turns_started
        });
        fight.turn = Some(Turn {
            who,
            kind,
            serial,
            acted: false,
        });
        if let Some(c) = self.at_mut(who) {
            if matches!(kind, TurnKind::Own | TurnKind::Resumed) {
                c.mark = PassMark::Acting;
            }
            // `until next` ends with the next turn the character begins; a resumed turn began
            // before, when it was skipped.
            if kind == TurnKind::Own {
                for s in &mut c.statuses {
                    if s.end == StatusEnd::EndOfNextTurn {
                        s.end = StatusEnd::EndOfTurn { serial };
                    }
                }
            }
        }
    }

    /// A new character turn, a new count (`Event::begins_character_turn`): a skipped slot is
    /// that character's turn, so delays on it belong to it.
    fn character_turn_began(&mut self) {
        if let Some(f) = self.fight_mut() {
            f.spent.clear();
            f.taken.clear();
        }
        self.sr5_turn_started();
    }

    /// Moves `who` before or after `target` in the order, and notes it to explain the order.
    fn move_in_order(&mut self, who: CombatantId, relative: Relative, target: CombatantId) {
        let (round, pass) = self.fight().map_or((0, 0), |f| (f.round, f.pass));
        self.order.retain(|id| *id != who);
        let at = self
            .position(target)
            .map_or(self.order.len(), |p| match relative {
                Relative::Before => p,
                Relative::After => p + 1,
            });
        self.order.insert(at.min(self.order.len()), who);
        if let Some(c) = self.at_mut(who) {
            c.moved = Some(Moved {
                relative,
                target,
                round,
                pass,
            });
        }
    }

    fn mark_turn_acted(&mut self) {
        if let Some(t) = self.fight_mut().and_then(|f| f.turn.as_mut()) {
            t.acted = true;
        }
    }

    /// Applies one event. Never fails: an event naming no known combatant changes nothing.
    pub fn apply(&mut self, event: &Event, rules: &HouseRules) {
        let passes = usize::from(rules.passes_per_round);
        if event.begins_character_turn() {
            self.character_turn_began();
        }
        match event {
            Event::GroupFormed {
                id,
                name,
                shared_roll,
            } => self.groups.push(Group {
                id: *id,
                name: name.clone(),
                shared_roll: *shared_roll,
                members: Vec::new(),
            }),
            Event::CombatantAdded {
                id,
                name,
                side,
                sheet,
                group,
            } => {
                if let Some(g) = group.and_then(|g| self.groups.get_mut(g.0 as usize)) {
                    g.members.push(*id);
                }
                self.combatants.push(Arc::new(Combatant {
                    id: *id,
                    name: name.clone(),
                    side: *side,
                    sheet: *sheet,
                    group: *group,
                    initiative: None,
                    ip: rules.starting_pool(sheet.ip_bonus),
                    reserve: None,
                    edge_left: sheet.edge,
                    edge_uses_this_round: 0,
                    downed: None,
                    damage: Damage::default(),
                    statuses: Vec::new(),
                    mark: PassMark::Waiting,
                    ledger: vec![PassIp::default(); passes],
                    moved: None,
                    waits: None,
                    presence: Presence::Present,
                    visibility: Visibility::Shown,
                    ready_fired: None,
                }));
            }
            Event::CombatantEdited {
                id,
                name,
                side,
                sheet,
                ip,
            } => {
                if let Some(c) = self.at_mut(*id) {
                    if let Some(ip) = ip {
                        c.ip = *ip;
                    }
                    // Edge already spent stays spent when the rating changes.
                    let spent = c.sheet.edge.saturating_sub(c.edge_left);
                    c.name.clone_from(name);
                    c.side = *side;
                    c.sheet = *sheet;
                    c.edge_left = sheet.edge.saturating_sub(spent);
                }
            }
            Event::CombatantRemoved { id, reason } => {
                if let Some(c) = self.at_mut(*id) {
                    c.presence = Presence::Removed {
                        reason: reason.clone(),
                    };
                }
                if let Some(f) = self.fight_mut()
                    && f.turn.is_some_and(|t| t.who == *id)
                {
                    f.turn = None;
                }
            }
            Event::InitiativeRolled { who, roll } => {
                for id in who {
                    if let Some(c) = self.at_mut(*id) {
                        c.initiative = Some(roll.clone());
                    }
                }
            }
            Event::FightStarted { order, rolloffs } => {
                self.order.clone_from(order);
                self.rolloffs.clone_from(rolloffs);
                self.phase = Phase::Fight(Fight {
                    round: 0,
                    pass: 0,
                    turn: None,
                    turns_started: 0,
                    spent: Vec::new(),
                    taken: Vec::new(),
                });
            }
            Event::Slotted {
                who,
                at,
                rolloffs,
                slot_passed,
            } => {
                let at = (*at).min(self.order.len());
                self.order.splice(at..at, who.iter().copied());
                self.rolloffs.extend(rolloffs.iter().cloned());
                for id in who {
                    if let Some(c) = self.at_mut(*id) {
                        c.ip = rules.starting_pool(c.sheet.ip_bonus);
                        c.mark = if *slot_passed {
                            PassMark::Joined
                        } else {
                            PassMark::Waiting
                        };
                        c.ledger = vec![PassIp::default(); passes];
                    }
                }
            }
            Event::RoundStarted { round } => {
                if let Some(f) = self.fight_mut() {
                    f.round = *round;
                    f.pass = 1;
                    f.turn = None;
                }
                for c in self.combatants.iter_mut().map(Arc::make_mut) {
                    c.ip = rules.starting_pool(c.sheet.ip_bonus);
                    c.edge_uses_this_round = 0;
                    c.mark = PassMark::Waiting;
                    c.ledger = vec![PassIp::default(); passes];
                }
                self.sr2097_round_started();
                self.sr5_round_started();
            }
            Event::PassStarted { pass } => {
                if let Some(f) = self.fight_mut() {
                    f.pass = *pass;
                    f.turn = None;
                }
                for c in &mut self.combatants {
                    // Only touch those that change, so unchanged combatants stay shared.
                    if c.mark != PassMark::Waiting {
                        Arc::make_mut(c).mark = PassMark::Waiting;
                    }
                }
            }
            Event::TurnStarted { who, ip_gained } => {
                if let Some(c) = self.at_mut(*who) {
                    c.ip = c.ip.saturating_add(*ip_gained);
                    let ip = c.ip;
                    // The pass's IP as the grid reads them (`start+edge/spent`): what was spent
                    // earlier in the pass (an interrupt) back in, what Edge bought apart.
                    if let Some(l) = self.ledger_mut(*who) {
                        l.start = Some(ip.saturating_add(l.spent).saturating_sub(l.edge));
                    }
                }
                self.begin_turn(*who, TurnKind::Own);
                self.sr2097_turn_started(*who);
            }
            Event::TurnResumed { who } => {
                if let Some(l) = self.ledger_mut(*who) {
                    l.start = l.start.or(Some(0));
                }
                self.begin_turn(*who, TurnKind::Resumed);
            }
            Event::TurnSkipped { who } => {
                if let Some(c) = self.at_mut(*who) {
                    c.mark = PassMark::Skipped;
                }
            }
            Event::TurnEnded { who } => {
                if let Some(f) = self.fight_mut()
                    && let Some(turn) = f.turn.take()
                    && matches!(turn.kind, TurnKind::Own | TurnKind::Resumed)
                    && let Some(c) = self.at_mut(*who)
                {
                    c.mark = PassMark::Acted;
                }
            }
            Event::DelayTurnStarted { who, trigger } => {
                self.begin_turn(*who, TurnKind::Delayed { trigger: *trigger });
            }
            Event::ActionSpent {
                who,
                action,
                paid_from,
                in_turn,
            } => {
                if let Some(c) = self.at_mut(*who) {
                    match paid_from {
                        PaidFrom::Pool => c.ip = c.ip.saturating_sub(action.cost),
                        PaidFrom::Reserve => {
                            if let Some(r) = c.reserve.as_mut() {
                                let ip = r.ip_mut();
                                *ip = ip.saturating_sub(action.cost);
                            }
                        }
                    }
                }
                if let Some(l) = self.ledger_mut(*who) {
                    l.spent = l.spent.saturating_add(action.cost);
                }
                if *in_turn && let Some(f) = self.fight_mut() {
                    match f.spent.iter_mut().find(|(id, _)| id == who) {
                        Some((_, ip)) => *ip = ip.saturating_add(action.cost),
                        None => f.spent.push((*who, action.cost)),
                    }
                    if let Some(t) = f.turn.as_mut().filter(|t| t.who == *who) {
                        t.acted = true;
                    }
                    if let Some(name) = &action.name {
                        f.taken.push((*who, name.clone()));
                    }
                }
                self.sr5_action_spent(*who, action, rules);
            }
            Event::EdgeSpent {
                who,
                ip_gained,
                edge_spent,
            } => {
                if let Some(c) = self.at_mut(*who) {
                    c.ip = c.ip.saturating_add(*ip_gained);
                    c.edge_left = c.edge_left.saturating_sub(*edge_spent);
                    c.edge_uses_this_round = c.edge_uses_this_round.saturating_add(1);
                }
                if let Some(l) = self.ledger_mut(*who) {
                    l.edge = l.edge.saturating_add(*ip_gained);
                }
            }
            Event::DelayDeclared { who, ip, trigger } => {
                if let Some(c) = self.at_mut(*who) {
                    c.ip = c.ip.saturating_sub(*ip);
                    c.reserve = Some(Reserve::Delay {
                        ip: *ip,
                        trigger: *trigger,
                    });
                }
                if let Some(l) = self.ledger_mut(*who) {
                    l.reserved = l.reserved.saturating_add(*ip);
                }
                self.mark_turn_acted();
            }
            Event::DelayTriggerNamed { who, trigger } => {
                if let Some(Reserve::Delay { trigger: t, .. }) =
                    self.at_mut(*who).and_then(|c| c.reserve.as_mut())
                {
                    *t = Some(*trigger);
                }
            }
            Event::ReadyDeclared { who, ip, trigger } => {
                let serial = self.turn().map_or(0, |t| t.serial);
                let mut set_aside = false;
                let round = self.fight().map_or(0, |f| f.round);
                if let Some(c) = self.at_mut(*who) {
                    match c.reserve.as_mut() {
                        Some(Reserve::Ready { triggers, .. }) => triggers.push(trigger.clone()),
                        _ => {
                            c.ip = c.ip.saturating_sub(*ip);
                            c.reserve = Some(Reserve::Ready {
                                ip: *ip,
                                triggers: vec![trigger.clone()],
                                turn_serial: serial,
                                round,
                            });
                            set_aside = true;
                        }
                    }
                }
                if set_aside && let Some(l) = self.ledger_mut(*who) {
                    l.reserved = l.reserved.saturating_add(*ip);
                }
                self.mark_turn_acted();
            }
            Event::ReadyFired { who, .. } => {
                if let Some(c) = self.at_mut(*who)
                    && let Some(Reserve::Ready { turn_serial, .. }) = c.reserve
                {
                    c.ready_fired = Some(turn_serial);
                }
            }
            Event::ReserveReleased { who, returned, .. } => {
                if let Some(c) = self.at_mut(*who) {
                    c.reserve = None;
                    c.ip = c.ip.saturating_add(*returned);
                }
            }
            Event::InitiativeChanged {
                who,
                relative,
                target,
                skipped,
            } => {
                let turn = self.turn().map_or(0, |t| t.serial);
                self.move_in_order(*who, *relative, *target);
                if let Some(c) = self.at_mut(*who) {
                    c.mark = match skipped {
                        Skipped::Deferred => PassMark::Deferred { turn },
                        Skipped::Lost => PassMark::Lost,
                    };
                }
                if let Some(f) = self.fight_mut() {
                    f.turn = None;
                }
            }
            Event::TurnDeferred {
                who,
                relative,
                target,
            } => {
                let since = self.turn().map_or(0, |t| t.serial);
                if let Some(c) = self.at_mut(*who) {
                    c.mark = PassMark::Deferred { turn: since };
                    c.waits = Some(Waiting {
                        relative: *relative,
                        target: *target,
                        since,
                    });
                }
                if let Some(f) = self.fight_mut() {
                    f.turn = None;
                }
            }
            Event::PlaceChanged {
                who,
                relative,
                target,
            } => {
                self.move_in_order(*who, *relative, *target);
                if let Some(c) = self.at_mut(*who) {
                    c.waits = None;
                }
            }
            Event::Downed { who, cause } => {
                if let Some(c) = self.at_mut(*who) {
                    c.downed = Some(*cause);
                }
            }
            Event::Revived { who } => {
                if let Some(c) = self.at_mut(*who) {
                    c.downed = None;
                }
                self.sr2097_revived(*who);
            }
            Event::VisibilityChanged { who, visibility } => {
                if let Some(c) = self.at_mut(*who) {
                    c.visibility = *visibility;
                }
            }
            Event::Damaged { who, track, boxes } => {
                if let Some(c) = self.at_mut(*who) {
                    let d = c.damage.on_mut(*track);
                    *d = d.saturating_add(*boxes);
                }
            }
            Event::Healed { who, track, boxes } => {
                if let Some(c) = self.at_mut(*who) {
                    let d = c.damage.on_mut(*track);
                    *d = d.saturating_sub(*boxes);
                }
            }
            Event::StatusStarted { who, status } => {
                if let Some(c) = self.at_mut(*who) {
                    c.statuses.push(ActiveStatus {
                        name: status.name.clone(),
                        end: status.end,
                        stacks: status.stacks,
                    });
                }
            }
            Event::StatusStacked { who, name, stacks } => {
                if let Some(s) = self.at_mut(*who).and_then(|c| {
                    c.statuses
                        .iter_mut()
                        .find(|s| s.name.eq_ignore_ascii_case(name))
                }) {
                    s.stacks = *stacks;
                }
            }
            Event::StatusEnded { who, name, .. } => {
                if let Some(c) = self.at_mut(*who) {
                    c.statuses.retain(|s| !s.name.eq_ignore_ascii_case(name));
                }
            }
            Event::EncounterEnded => {
                // An Anarchy table ends after its turns, the initiative machine after rounds.
                let round = self
                    .fight()
                    .map(|f| f.round)
                    .or_else(|| self.narration().map(|n| n.turn))
                    .unwrap_or(0);
                self.phase = Phase::Ended { round };
            }
            Event::Sr2097(e) => self.apply_sr2097(e),
            Event::Anarchy(e) => self.apply_anarchy(e),
            Event::Sr5(e) => self.apply_sr5(e),
        }
    }
}
