//! Every rule of the fight: a command is checked against the state and becomes events.

use super::command::{
    ActionChoice, AddCombatant, Command, RollTarget, SheetInput, StatusUntil, Timing,
};
use super::error::RuleError;
use super::event::{Event, PaidFrom, Release, Skipped, StatusEnded};
use super::model::{
    ActionUse, ActiveStatus, Combatant, CombatantId, DownCause, Fight, GroupId, Phase, Relative,
    Reserve, Sheet, Side, State, StatusEnd, Track, Turn, TurnKind, Unit,
};
use crate::catalogue::{ActionKind, Catalogue, Effect, Restriction};
use crate::rules::house::Range;
use crate::rules::initiative::{self, InitiativeRoll, OrderKey};
use crate::rules::{Dice, HouseRules, StatusEnds};

/// Builds the events of one command, applying them to a scratch copy as it goes when a later
/// step must see an earlier one (the copy is made only then).
pub(super) struct Draft<'a> {
    base: &'a State,
    rules: &'a HouseRules,
    catalogue: &'a Catalogue,
    scratch: Option<State>,
    events: Vec<Event>,
}

type Outcome = Result<(), RuleError>;

impl<'a> Draft<'a> {
    pub(super) fn new(base: &'a State, rules: &'a HouseRules, catalogue: &'a Catalogue) -> Self {
        Self {
            base,
            rules,
            catalogue,
            scratch: None,
            events: Vec::new(),
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
            Command::Remove { who, reason } => self.remove(who, reason),
            Command::Roll { target, typed } => self.roll(target, typed, dice),
            Command::Start => self.start(dice),
            Command::Next => self.next(),
            Command::SpendAction { who, action } => self.spend(who, &action),
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
            } => self.fire(who, trigger, timing),
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
            Command::End => {
                self.emit(Event::EncounterEnded);
                Ok(())
            }
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

    fn able(&mut self, id: CombatantId) -> Result<Combatant, RuleError> {
        let c = self.present(id)?;
        if c.is_downed() {
            return Err(RuleError::Downed { who: c.name });
        }
        Ok(c)
    }

    fn fight(&mut self) -> Result<Fight, RuleError> {
        match &self.now().phase {
            Phase::Fight(f) => Ok(f.clone()),
            Phase::Setup => Err(RuleError::NotStarted),
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

    // ----- combatants -----------------------------------------------------------------------

    fn check_range(field: &'static str, value: i32, range: Range) -> Result<i32, RuleError> {
        if range.contains(value) {
            Ok(value)
        } else {
            Err(RuleError::OutOfRange {
                field,
                value,
                min: range.min,
                max: range.max,
            })
        }
    }

    fn sheet(&self, input: &SheetInput) -> Result<Sheet, RuleError> {
        let l = &self.rules.limits;
        let byte = |v: i32| u8::try_from(v).unwrap_or(u8::MAX);
        let body = input
            .body
            .map(|b| Self::check_range("Body", b, l.body).map(byte))
            .transpose()?;
        let willpower = input
            .willpower
            .map(|w| Self::check_range("Willpower", w, l.willpower).map(byte))
            .transpose()?;
        Ok(Sheet {
            intuition: byte(Self::check_range(
                "Intuition",
                input.intuition,
                l.intuition,
            )?),
            reaction: byte(Self::check_range("Reaction", input.reaction, l.reaction)?),
            edge: byte(Self::check_range("Edge", input.edge, l.edge)?),
            dice_modifier: i8::try_from(Self::check_range(
                "initiative dice modifier",
                input.dice_modifier,
                l.dice_modifier,
            )?)
            .unwrap_or(0),
            ip_bonus: byte(Self::check_range(
                "starting IP bonus",
                input.ip_bonus,
                l.ip_bonus,
            )?),
            body,
            willpower,
        })
    }

    fn check_name(&mut self, name: &str, except: Option<CombatantId>) -> Result<String, RuleError> {
        let name = name.trim().to_string();
        if crate::text::holds_control(&name) {
            return Err(RuleError::ControlCharacter { field: "name" });
        }
        let len = name.chars().count();
        let range = self.rules.limits.name_chars;
        if !range.contains(i32::try_from(len).unwrap_or(i32::MAX)) {
            return Err(RuleError::NameLength {
                name,
                len,
                min: range.min,
                max: range.max,
            });
        }
        let state = self.now();
        let taken = state
            .present()
            .any(|c| Some(c.id) != except && c.name.eq_ignore_ascii_case(&name))
            || state.find_group(&name).is_some();
        if taken {
            return Err(RuleError::NameTaken { name });
        }
        Ok(name)
    }

    fn add(&mut self, add: &AddCombatant) -> Outcome {
        let sheet = self.sheet(&add.sheet)?;
        let base = add.name.trim().to_string();
        let first_id = self.now().combatants.len();
        match add.count {
            None => {
                let name = self.check_name(&base, None)?;
                self.emit(Event::CombatantAdded {
                    id: CombatantId(first_id as u32),
                    name,
                    side: add.side,
                    sheet,
                    group: None,
                });
            }
            Some(count) => {
                let count = Self::check_range("group size", count, self.rules.limits.group_size)?;
                // The group's own name must be free too: `roll Ganger` names the group.
                let group_name = self.check_name(&base, None)?;
                let mut names = Vec::new();
                for n in 1..=count {
                    names.push(self.check_name(&format!("{group_name} {n}"), None)?);
                }
                let group = GroupId(self.now().groups.len() as u32);
                self.emit(Event::GroupFormed {
                    id: group,
                    name: group_name,
                    shared_roll: add.shared_roll,
                });
                for (i, name) in names.into_iter().enumerate() {
                    self.emit(Event::CombatantAdded {
                        id: CombatantId((first_id + i) as u32),
                        name,
                        side: add.side,
                        sheet,
                        group: Some(group),
                    });
                }
            }
        }
        Ok(())
    }

    fn edit(
        &mut self,
        who: CombatantId,
        name: Option<String>,
        side: Option<Side>,
        input: &SheetInput,
    ) -> Outcome {
        let c = self.present(who)?;
        let sheet = self.sheet(input)?;
        let name = match name {
            Some(n) => self.check_name(&n, Some(who))?,
            None => c.name.clone(),
        };
        self.emit(Event::CombatantEdited {
            id: who,
            name,
            side: side.unwrap_or(c.side),
            sheet,
        });
        Ok(())
    }

    fn remove(&mut self, who: CombatantId, reason: Option<String>) -> Outcome {
        let c = self.present(who)?;
        if let Some(r) = reason.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
            RuleError::check_text("reason", r, self.rules.limits.text_chars)?;
        }
        self.release(&c, Release::Removed);
        let turn = self.now().turn().copied();
        self.emit(Event::CombatantRemoved {
            id: who,
            reason: reason
                .map(|r| r.trim().to_string())
                .filter(|r| !r.is_empty()),
        });
        if let Some(t) = turn.filter(|t| t.who == who) {
            // Its turn ends with it: any delay waiting on that turn comes now.
            let anchor = match t.kind {
                TurnKind::Delayed { trigger } => trigger,
                TurnKind::Own | TurnKind::Resumed => who,
            };
            self.expire_turn_statuses(t.serial);
            self.advance(Some(anchor));
        }
        Ok(())
    }

    /// Pending delays and readies lapse; the IP go back to the pool.
    fn release(&mut self, c: &Combatant, why: Release) {
        if let Some(r) = &c.reserve {
            self.emit(Event::ReserveReleased {
                who: c.id,
                returned: r.ip(),
                why,
            });
        }
    }

    // ----- initiative -----------------------------------------------------------------------

    /// The units a roll target covers: groups sharing a roll are one unit.
    fn roll_units(&mut self, target: RollTarget, in_fight: bool) -> Result<Vec<Unit>, RuleError> {
        let state = self.now();
        let unit_of = |c: &Combatant| match c.group.and_then(|g| state.groups.get(g.0 as usize)) {
            Some(g) if g.shared_roll => Unit::Group(g.id),
            _ => Unit::One(c.id),
        };
        let mut units: Vec<Unit> = Vec::new();
        let pick = |c: &Combatant| !in_fight || c.initiative.is_none();
        match target {
            RollTarget::All | RollTarget::Npcs => {
                for c in state.present() {
                    if (target == RollTarget::All || c.side == Side::Npc) && pick(c) {
                        let u = unit_of(c);
                        if !units.contains(&u) {
                            units.push(u);
                        }
                    }
                }
                if units.is_empty() {
                    return Err(RuleError::NothingToRoll(if in_fight {
                        "everyone has initiative already; it holds for the whole fight"
                    } else if target == RollTarget::Npcs {
                        "there are no NPCs"
                    } else {
                        "add combatants first"
                    }));
                }
            }
            RollTarget::One(id) => {
                let c = state.get(id).ok_or(RuleError::UnknownCombatant(id.0))?;
                if !c.is_present() {
                    return Err(RuleError::Removed {
                        who: c.name.clone(),
                    });
                }
                if let Unit::Group(g) = unit_of(c) {
                    return Err(RuleError::SharesGroupRoll {
                        who: c.name.clone(),
                        group: state.groups[g.0 as usize].name.clone(),
                    });
                }
                if !pick(c) {
                    return Err(RuleError::AlreadyRolled {
                        names: vec![c.name.clone()],
                    });
                }
                units.push(Unit::One(id));
            }
            RollTarget::Group(g) => {
                let group = state
                    .groups
                    .get(g.0 as usize)
                    .ok_or(RuleError::UnknownCombatant(g.0))?;
                let members: Vec<&Combatant> = group
                    .members
                    .iter()
                    .filter_map(|id| state.get(*id))
                    .filter(|c| c.is_present())
                    .collect();
                let rolled: Vec<String> = members
                    .iter()
                    .filter(|c| !pick(c))
                    .map(|c| c.name.clone())
                    .collect();
                if !rolled.is_empty() {
                    return Err(RuleError::AlreadyRolled { names: rolled });
                }
                if members.is_empty() {
                    return Err(RuleError::NothingToRoll(
                        "every member of the group is gone",
                    ));
                }
                if group.shared_roll {
                    units.push(Unit::Group(g));
                } else {
                    units.extend(members.iter().map(|c| Unit::One(c.id)));
                }
            }
        }
        Ok(units)
    }

    fn members(state: &State, unit: Unit) -> Vec<CombatantId> {
        match unit {
            Unit::One(id) => vec![id],
            Unit::Group(g) => state
                .groups
                .get(g.0 as usize)
                .map(|g| {
                    g.members
                        .iter()
                        .copied()
                        .filter(|id| state.get(*id).is_some_and(Combatant::is_present))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    fn roll(
        &mut self,
        target: RollTarget,
        typed: Option<(i32, bool)>,
        dice: &mut dyn Dice,
    ) -> Outcome {
        let in_fight = match &self.now().phase {
            Phase::Setup => false,
            Phase::Fight(_) => true,
            Phase::Ended { .. } => return Err(RuleError::Ended),
        };
        let units = self.roll_units(target, in_fight)?;
        if typed.is_some() && units.len() != 1 {
            return Err(RuleError::TypedNeedsOne);
        }
        for unit in units {
            let members = Self::members(self.now(), unit);
            let Some(first) = members.first().and_then(|id| self.now().get(*id)) else {
                continue;
            };
            let pool = first.sheet.pool();
            let roll = match typed {
                Some((hits, glitched)) => self.typed_roll(pool, hits, glitched)?,
                None => InitiativeRoll::rolled(pool, &self.rules.dice, dice),
            };
            self.emit(Event::InitiativeRolled {
                who: members.clone(),
                roll,
            });
            if in_fight {
                self.slot(unit, &members, dice);
            }
        }
        Ok(())
    }

    fn typed_roll(&self, pool: u8, hits: i32, glitched: bool) -> Result<InitiativeRoll, RuleError> {
        if hits < 0 || hits > i32::from(pool) {
            return Err(RuleError::HitsAbovePool { hits, pool });
        }
        if glitched {
            // The fewest ones that glitch: more than num/den of the dice.
            let d = &self.rules.dice;
            let min_ones = usize::from(pool) * usize::from(d.glitch_more_than_num)
                / usize::from(d.glitch_more_than_den)
                + 1;
            if pool == 0 || hits as usize + min_ones > usize::from(pool) {
                return Err(RuleError::GlitchImpossible { hits, pool });
            }
        }
        Ok(InitiativeRoll::typed(pool, hits as u8, glitched))
    }

    /// A combatant who joins mid-fight takes its place by the same rules.
    fn slot(&mut self, unit: Unit, members: &[CombatantId], dice: &mut dyn Dice) {
        let sides = self.rules.dice.sides;
        let state = self.now();
        let Some(key) = members
            .first()
            .and_then(|id| state.get(*id))
            .and_then(Combatant::order_key)
        else {
            return;
        };
        let existing: Vec<(Unit, OrderKey)> = state
            .ordered()
            .filter_map(|c| c.order_key().map(|k| (Unit::One(c.id), k)))
            .collect();
        let (index, rolloffs) = initiative::slot(key, unit, &existing, sides, dice);
        let at = match existing.get(index) {
            Some((Unit::One(id), _)) => state.position(*id).unwrap_or(state.order.len()),
            _ => state.order.len(),
        };
        // The slot has gone by if anyone after it has had, or is having, its turn this pass.
        let slot_passed = state.order[at..]
            .iter()
            .filter_map(|id| state.get(*id))
            .any(|c| !c.mark.still_to_act());
        self.emit(Event::Slotted {
            who: members.to_vec(),
            at,
            rolloffs,
            slot_passed,
        });
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Outcome {
        if !matches!(self.now().phase, Phase::Setup) {
            return Err(RuleError::AlreadyStarted);
        }
        let sides = self.rules.dice.sides;
        let state = self.now();
        if state.present().next().is_none() {
            return Err(RuleError::NoCombatants);
        }
        let missing: Vec<String> = state
            .present()
            .filter(|c| c.initiative.is_none())
            .map(|c| c.name.clone())
            .collect();
        if !missing.is_empty() {
            return Err(RuleError::MissingInitiative { names: missing });
        }
        if state.present().all(Combatant::is_downed) {
            return Err(RuleError::NoOneCanAct);
        }
        let mut entrants: Vec<(Unit, OrderKey)> = Vec::new();
        for c in state.present() {
            let unit = match c.group.and_then(|g| state.groups.get(g.0 as usize)) {
                Some(g) if g.shared_roll => Unit::Group(g.id),
                _ => Unit::One(c.id),
            };
            if let Some(key) = c.order_key()
                && !entrants.iter().any(|(u, _)| *u == unit)
            {
                entrants.push((unit, key));
            }
        }
        let (units, rolloffs) = initiative::order(&entrants, sides, dice);
        let order = units
            .into_iter()
            .flat_map(|u| Self::members(state, u))
            .collect();
        self.emit(Event::FightStarted { order, rolloffs });
        self.emit(Event::RoundStarted { round: 1 });
        self.advance(None);
        Ok(())
    }

    // ----- walking the order ----------------------------------------------------------------

    fn next(&mut self) -> Outcome {
        let fight = self.fight()?;
        if !self.now().anyone_can_act() {
            return Err(RuleError::NoOneCanAct);
        }
        let anchor = fight.turn.map(|t| self.end_turn(t));
        self.advance(anchor);
        Ok(())
    }

    fn expire_turn_statuses(&mut self, serial: u64) {
        let ended: Vec<(CombatantId, String)> = self
            .now()
            .present()
            .flat_map(|c| {
                c.statuses
                    .iter()
                    .filter(|s| s.end == StatusEnd::EndOfTurn { serial })
                    .map(|s| (c.id, s.name.clone()))
            })
            .collect();
        for (who, name) in ended {
            self.emit(Event::StatusEnded {
                who,
                name,
                why: StatusEnded::TurnEnded,
            });
        }
    }

    /// Ends the turn in progress; returns whose turn's end may trigger delays.
    fn end_turn(&mut self, turn: Turn) -> CombatantId {
        self.expire_turn_statuses(turn.serial);
        self.emit(Event::TurnEnded { who: turn.who });
        match turn.kind {
            TurnKind::Delayed { trigger } => {
                if let Some(c) = self.now().get(turn.who).cloned() {
                    self.release(&c, Release::SubTurnEnded);
                }
                trigger
            }
            TurnKind::Own | TurnKind::Resumed => turn.who,
        }
    }

    /// Walks to the next turn: delays triggered by `anchor`'s turn end, then the next in the
    /// order, through pass and round ends. Stops with no turn if nobody can act.
    fn advance(&mut self, mut anchor: Option<CombatantId>) {
        loop {
            if let Some(a) = anchor {
                let state = self.now();
                let delayer = state.ordered().find(|c| {
                    !c.is_downed() && matches!(c.reserve, Some(Reserve::Delay { trigger: Some(t), .. }) if t == a)
                });
                if let Some(d) = delayer.map(|c| c.id) {
                    self.emit(Event::DelayTurnStarted { who: d, trigger: a });
                    return;
                }
                anchor = None;
            }
            if !self.now().anyone_can_act() {
                return;
            }
            let state = self.now();
            let awaited = |id: CombatantId| {
                state.present().any(|c| {
                    matches!(c.reserve, Some(Reserve::Delay { trigger: Some(t), .. }) if t == id)
                })
            };
            let next = state
                .order
                .iter()
                .filter_map(|id| state.get(*id))
                .find(|c| c.mark.still_to_act() && (c.is_present() || awaited(c.id)))
                .cloned();
            match next {
                Some(c) if !c.is_present() || c.is_downed() => {
                    self.emit(Event::TurnSkipped { who: c.id });
                    anchor = Some(c.id);
                }
                Some(c) if c.mark == super::model::PassMark::Deferred => {
                    self.emit(Event::TurnResumed { who: c.id });
                    return;
                }
                Some(c) => {
                    if matches!(c.reserve, Some(Reserve::Ready { .. })) {
                        self.release(&c, Release::NextTurn);
                    }
                    self.emit(Event::TurnStarted {
                        who: c.id,
                        ip_gained: self.rules.ip_per_turn,
                    });
                    return;
                }
                None => self.end_pass(),
            }
        }
    }

    fn end_pass(&mut self) {
        let Ok(fight) = self.fight() else { return };
        // A delay whose trigger never came lapses with the pass.
        let lapsed: Vec<Combatant> = self
            .now()
            .present()
            .filter(|c| matches!(c.reserve, Some(Reserve::Delay { .. })))
            .cloned()
            .collect();
        for c in &lapsed {
            self.release(c, Release::PassEnded);
        }
        if fight.pass < self.rules.passes_per_round {
            self.emit(Event::PassStarted {
                pass: fight.pass + 1,
            });
            return;
        }
        let state = self.now();
        let mut ended = Vec::new();
        let mut reserved = Vec::new();
        for c in state.present() {
            for s in c.statuses.iter().filter(|s| s.end == StatusEnd::EndOfRound) {
                ended.push((c.id, s.name.clone()));
            }
            if c.reserve.is_some() {
                reserved.push(c.id);
            }
        }
        for (who, name) in ended {
            self.emit(Event::StatusEnded {
                who,
                name,
                why: StatusEnded::RoundEnded,
            });
        }
        // Reserved IP are lost with the pool when the round ends.
        for who in reserved {
            self.emit(Event::ReserveReleased {
                who,
                returned: 0,
                why: Release::RoundEnded,
            });
        }
        self.emit(Event::RoundStarted {
            round: fight.round + 1,
        });
    }

    // ----- actions --------------------------------------------------------------------------

    /// What an action is and costs, from the rules and the catalogue.
    fn resolve(&self, choice: &ActionChoice) -> Result<(ActionUse, Vec<Restriction>), RuleError> {
        match choice {
            ActionChoice::Type(t) => Ok((
                ActionUse {
                    name: None,
                    kind: t.label().to_string(),
                    cost: self.rules.cost_of(*t),
                    interrupt: false,
                    effect: None,
                },
                Vec::new(),
            )),
            ActionChoice::Named { name, as_type } => {
                let def = self
                    .catalogue
                    .get(name)
                    .ok_or_else(|| RuleError::UnknownAction { name: name.clone() })?;
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
                        _ => {
                            return Err(RuleError::TypeNotAsked {
                                action: def.name.clone(),
                                kind: def.kind.label(),
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
                    },
                    def.restrictions.clone(),
                ))
            }
        }
    }

    fn check_restrictions(
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

    fn status_end(&self, name: &str) -> StatusEnd {
        match self.rules.status(name).map(|d| d.ends) {
            Some(StatusEnds::EndOfRound) => StatusEnd::EndOfRound,
            Some(StatusEnds::OtherAction) => StatusEnd::OtherAction,
            Some(StatusEnds::UntilEnded) | None => StatusEnd::UntilCleared,
        }
    }

    /// Starts a status an action names, under the name and end the house rules give it.
    fn start_status(&mut self, who: CombatantId, name: String) {
        let end = self.status_end(&name);
        let name = self.rules.status(&name).map_or(name, |d| d.name.clone());
        self.emit(Event::StatusStarted {
            who,
            status: ActiveStatus {
                name,
                end,
                stacks: 1,
            },
        });
    }

    /// The events of spending one action, with the effects it starts and ends.
    fn spend_events(
        &mut self,
        c: &Combatant,
        action: ActionUse,
        paid_from: PaidFrom,
        in_turn: bool,
    ) {
        let stacked = match &action.effect {
            Some(Effect::Stack(s)) => Some(s.clone()),
            _ => None,
        };
        // Take Aim and its like end when the character does anything else.
        for s in &c.statuses {
            if s.end == StatusEnd::OtherAction
                && !stacked
                    .as_ref()
                    .is_some_and(|n| n.eq_ignore_ascii_case(&s.name))
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
        match effect {
            Some(Effect::Start(name)) if c.status(&name).is_none() => self.start_status(c.id, name),
            Some(Effect::End(name)) if c.status(&name).is_some() => self.emit(Event::StatusEnded {
                who: c.id,
                name,
                why: StatusEnded::Action,
            }),
            Some(Effect::Stack(name)) => match c.status(&name) {
                Some(s) => self.emit(Event::StatusStacked {
                    who: c.id,
                    name: s.name.clone(),
                    stacks: s.stacks.saturating_add(1),
                }),
                None => self.start_status(c.id, name),
            },
            _ => {}
        }
    }

    fn spend(&mut self, who: CombatantId, choice: &ActionChoice) -> Outcome {
        self.fight()?;
        let c = self.able(who)?;
        let (action, restrictions) = self.resolve(choice)?;
        let turn = self.now().turn().copied();
        let own = turn.filter(|t| t.who == who);
        let cap = self.rules.turn_spend_cap;
        let (paid_from, have, in_turn) = match (action.interrupt, own) {
            // Interrupts come out of the pool at any moment; in the character's own turn they count.
            (true, Some(t)) => (
                PaidFrom::Pool,
                c.ip,
                !matches!(t.kind, TurnKind::Delayed { .. }),
            ),
            (true, None) => (PaidFrom::Pool, c.ip, false),
            (false, Some(t)) => match t.kind {
                TurnKind::Delayed { .. } => (
                    PaidFrom::Reserve,
                    c.reserve.as_ref().map_or(0, Reserve::ip),
                    true,
                ),
                TurnKind::Own | TurnKind::Resumed => (PaidFrom::Pool, c.ip, true),
            },
            (false, None) => {
                let current = self.current_name();
                return Err(RuleError::NotTheirTurn {
                    who: c.name,
                    current,
                });
            }
        };
        Self::afford(&c.name, have, action.cost)?;
        if in_turn && let Some(t) = own {
            let total = t.spent.saturating_add(action.cost);
            if total > cap {
                return Err(RuleError::OverTurnCap {
                    who: c.name,
                    spent: t.spent,
                    cost: action.cost,
                    total,
                    cap,
                });
            }
        }
        self.check_restrictions(&c, &action, &restrictions)?;
        self.spend_events(&c, action, paid_from, in_turn);
        Ok(())
    }

    fn edge(&mut self, who: CombatantId) -> Outcome {
        self.fight()?;
        let c = self.able(who)?;
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

    // ----- delay and ready ------------------------------------------------------------------

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
        if !(t.mark.still_to_act() || acting) {
            return Err(RuleError::TriggerGone { trigger: t.name });
        }
        Ok(())
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

    fn no_reserve(c: &Combatant) -> Outcome {
        match &c.reserve {
            None => Ok(()),
            Some(r) => Err(RuleError::AlreadyReserving {
                who: c.name.clone(),
                what: match r {
                    Reserve::Delay { .. } => "a delay",
                    Reserve::Ready { .. } => "a ready action",
                },
            }),
        }
    }

    fn delay(&mut self, who: CombatantId, ip: i32, trigger: Option<CombatantId>) -> Outcome {
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

    fn name_trigger(&mut self, who: CombatantId, trigger: CombatantId) -> Outcome {
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

    fn ready(
        &mut self,
        who: CombatantId,
        ip: Option<i32>,
        text: &str,
        choices: &[ActionChoice],
    ) -> Outcome {
        let c = self.able(who)?;
        let turn = self.own_turn(&c, "a ready action")?;
        let cap = self.rules.ready_reserve_cap;
        let reserve = match &c.reserve {
            Some(Reserve::Ready {
                ip: held,
                turn_serial,
                ..
            }) if *turn_serial == turn.serial => {
                if ip.is_some_and(|ip| ip != i32::from(*held)) {
                    return Err(RuleError::ReadyReserveMismatch {
                        who: c.name,
                        reserve: *held,
                    });
                }
                *held
            }
            Some(_) => {
                Self::no_reserve(&c)?;
                0
            }
            None => {
                let ip = ip.ok_or(RuleError::ReserveTooSmall)?;
                if ip < 1 || ip > i32::from(cap) {
                    return Err(RuleError::ReadyReserve { ip, cap });
                }
                let ip = ip as u8;
                Self::afford(&c.name, c.ip, ip)?;
                ip
            }
        };
        let text = text.trim();
        if text.is_empty() {
            return Err(RuleError::EmptyTrigger);
        }
        RuleError::check_text("ready trigger", text, self.rules.limits.text_chars)?;
        if choices.is_empty() {
            return Err(RuleError::NoReadyActions);
        }
        let mut actions = Vec::new();
        for choice in choices {
            actions.push(self.resolve(choice)?.0);
        }
        let trigger = super::model::ReadyTrigger {
            text: text.to_string(),
            actions,
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

    fn fire(&mut self, who: CombatantId, index: usize, timing: Timing) -> Outcome {
        self.fight()?;
        let c = self.able(who)?;
        let Some(Reserve::Ready { ip, triggers, .. }) = &c.reserve else {
            return Err(RuleError::NoReady { who: c.name });
        };
        let Some(trigger) = triggers.get(index).cloned() else {
            return Err(RuleError::NoSuchTrigger {
                who: c.name.clone(),
                number: index + 1,
                count: triggers.len(),
            });
        };
        let reserve = *ip;
        for action in &trigger.actions {
            let restrictions = action
                .name
                .as_deref()
                .and_then(|n| self.catalogue.get(n))
                .map(|d| d.restrictions.clone())
                .unwrap_or_default();
            self.check_restrictions(&c, action, &restrictions)?;
        }
        self.emit(Event::ReadyFired {
            who,
            trigger: trigger.clone(),
            timing,
        });
        for action in trigger.actions.iter().cloned() {
            let now = self.now().get(who).cloned().unwrap_or_else(|| c.clone());
            self.spend_events(&now, action, PaidFrom::Reserve, false);
        }
        self.emit(Event::ReserveReleased {
            who,
            returned: reserve.saturating_sub(trigger.cost()),
            why: Release::Fired,
        });
        Ok(())
    }

    // ----- changing initiative --------------------------------------------------------------

    fn change_initiative(
        &mut self,
        who: CombatantId,
        relative: Relative,
        target: CombatantId,
    ) -> Outcome {
        self.fight()?;
        let c = self.able(who)?;
        let turn = self.now().turn().copied();
        let Some(turn) = turn.filter(|t| t.who == who && t.kind == TurnKind::Own && !t.acted)
        else {
            return Err(RuleError::ChangeNotAtStart { who: c.name });
        };
        if target == who {
            return Err(RuleError::TargetIsSelf { who: c.name });
        }
        let t = self.present(target)?;
        if self.now().position(target).is_none() {
            return Err(RuleError::NotInOrder { who: t.name });
        }
        let skipped = if t.mark.still_to_act() {
            Skipped::Deferred
        } else {
            Skipped::Lost
        };
        self.expire_turn_statuses(turn.serial);
        self.emit(Event::InitiativeChanged {
            who,
            relative,
            target,
            skipped,
        });
        // A lost turn ends here, so delays waiting on it come now; a deferred one ends later.
        self.advance((skipped == Skipped::Lost).then_some(who));
        Ok(())
    }

    // ----- Downed and damage ----------------------------------------------------------------

    fn down(&mut self, c: &Combatant, cause: DownCause) {
        self.emit(Event::Downed { who: c.id, cause });
        self.release(c, Release::Downed);
    }

    fn set_downed(&mut self, who: CombatantId, downed: bool) -> Outcome {
        let c = self.present(who)?;
        match (downed, c.downed) {
            (true, Some(cause)) => Err(RuleError::AlreadyDowned {
                who: c.name,
                cause: cause.label(),
            }),
            (true, None) => {
                self.down(&c, DownCause::Gm);
                Ok(())
            }
            (false, None) => Err(RuleError::NotDowned { who: c.name }),
            (false, Some(DownCause::PhysicalFull)) => Err(RuleError::DownedByMonitor {
                who: c.name,
                track: "Physical",
            }),
            (false, Some(DownCause::StunFull)) => Err(RuleError::DownedByMonitor {
                who: c.name,
                track: "Stun",
            }),
            (false, Some(DownCause::Gm)) => {
                self.emit(Event::Revived { who });
                Ok(())
            }
        }
    }

    fn monitor(&self, c: &Combatant, track: Track) -> Result<u8, RuleError> {
        let (attribute, name) = match track {
            Track::Physical => (c.sheet.body, "Body"),
            Track::Stun => (c.sheet.willpower, "Willpower"),
        };
        attribute
            .map(|a| self.rules.monitor_boxes(a))
            .ok_or(RuleError::NoMonitor {
                who: c.name.clone(),
                track: track.label(),
                attribute: name,
            })
    }

    fn full_cause(track: Track) -> DownCause {
        match track {
            Track::Physical => DownCause::PhysicalFull,
            Track::Stun => DownCause::StunFull,
        }
    }

    fn damage(&mut self, who: CombatantId, track: Track, boxes: i32) -> Outcome {
        let c = self.present(who)?;
        let boxes = Self::check_range("damage", boxes, self.rules.limits.damage_boxes)?;
        let max = self.monitor(&c, track)?;
        let taken = c.damage.on(track);
        let applied = (boxes as u8).min(max.saturating_sub(taken));
        self.emit(Event::Damaged {
            who,
            track,
            boxes: applied,
        });
        if taken.saturating_add(applied) >= max && c.downed.is_none() {
            self.down(&c, Self::full_cause(track));
        }
        Ok(())
    }

    fn heal(&mut self, who: CombatantId, track: Track, boxes: i32) -> Outcome {
        let c = self.present(who)?;
        let boxes = Self::check_range("healing", boxes, self.rules.limits.damage_boxes)?;
        let max = self.monitor(&c, track)?;
        let taken = c.damage.on(track);
        if taken == 0 {
            return Err(RuleError::NothingToHeal {
                who: c.name,
                track: track.label(),
            });
        }
        let healed = (boxes as u8).min(taken);
        self.emit(Event::Healed {
            who,
            track,
            boxes: healed,
        });
        if c.downed == Some(Self::full_cause(track)) && taken - healed < max {
            let other = match track {
                Track::Physical => Track::Stun,
                Track::Stun => Track::Physical,
            };
            let other_full = self
                .monitor(&c, other)
                .is_ok_and(|m| c.damage.on(other) >= m);
            if other_full {
                self.emit(Event::Downed {
                    who,
                    cause: Self::full_cause(other),
                });
            } else {
                self.emit(Event::Revived { who });
            }
        }
        Ok(())
    }

    // ----- statuses -------------------------------------------------------------------------

    fn add_status(&mut self, who: CombatantId, text: &str, until: Option<StatusUntil>) -> Outcome {
        let c = self.present(who)?;
        let text = text.trim();
        if text.is_empty() {
            return Err(RuleError::EmptyStatus);
        }
        RuleError::check_text("status text", text, self.rules.limits.text_chars)?;
        let name = self
            .rules
            .status(text)
            .map_or_else(|| text.to_string(), |d| d.name.clone());
        if c.status(&name).is_some() {
            return Err(RuleError::StatusHeld { who: c.name, name });
        }
        let end = match until {
            Some(StatusUntil::ThisTurn) => {
                let serial = self.now().turn().ok_or(RuleError::NoTurnNow)?.serial;
                StatusEnd::EndOfTurn { serial }
            }
            Some(StatusUntil::NextTurn) => StatusEnd::EndOfNextTurn,
            Some(StatusUntil::Round) => StatusEnd::EndOfRound,
            Some(StatusUntil::Never) => StatusEnd::UntilCleared,
            None => self.status_end(&name),
        };
        self.emit(Event::StatusStarted {
            who,
            status: ActiveStatus {
                name,
                end,
                stacks: 1,
            },
        });
        Ok(())
    }

    fn clear_status(&mut self, who: CombatantId, name: &str) -> Outcome {
        let c = self.present(who)?;
        let Some(status) = c.status(name.trim()) else {
            return Err(RuleError::NoSuchStatus {
                who: c.name,
                name: name.trim().to_string(),
            });
        };
        self.emit(Event::StatusEnded {
            who,
            name: status.name.clone(),
            why: StatusEnded::Gm,
        });
        Ok(())
    }
}
