//! SR5's decisions: tests (pool, limit, threshold or opponent, Edge), teamwork, Close Call, the
//! attack chain from the roll to the boxes, and what the sheet holds (weapons, ammunition, armor).

use super::{Draft, Outcome};
use crate::catalogue::Effect;
use crate::encounter::error::RuleError;
use crate::encounter::event::Event;
use crate::encounter::model::{ActionUse, Combatant, CombatantId, Phase, Side, Track};
use crate::encounter::query::Attack;
use crate::encounter::system::sr5::{
    Against, Ammo, AttackInput, Defense, Opponent, Part, Pool, PoolFrom, PoolInput, Sr5Command,
    Sr5Error, Sr5Event, Stage, StepInput, TeamworkInput, TestInput, TestKind, Weapon, WeaponInput,
    attack_limit,
};
use crate::rules::sr5::Attribute;
use crate::rules::sr5::combat::{self, DamageType};
use crate::rules::sr5::test::{self, Given, Goal, Roll, TestError, Verdict};
use crate::rules::{Dice, Glitch};

fn byte(v: i32) -> u8 {
    u8::try_from(v).unwrap_or(u8::MAX)
}

/// An attack step srtrack may not roll by itself: why it waits for the GM.
enum Step {
    Go(Pool, Given),
    Wait,
}

impl Draft<'_> {
    pub(super) fn sr5(&mut self, command: Sr5Command, dice: &mut dyn Dice) -> Outcome {
        match command {
            Sr5Command::Test(t) => self.sr5_test(&t, dice),
            Sr5Command::Teamwork(t) => self.teamwork(&t, dice),
            Sr5Command::CloseCall { who } => self.close_call(who),
            Sr5Command::CloseCallInitiative { who } => {
                let c = self.present(who)?;
                self.close_call_initiative(&c)
            }
            Sr5Command::Odds(q) => self.odds_question(q.pool, q.limit, q.against),
            Sr5Command::Attack(a) => self.attack(&a, dice),
            Sr5Command::AddWeapon { who, weapon } => self.add_weapon(who, &weapon),
            Sr5Command::RemoveWeapon { who, name } => {
                let c = self.present(who)?;
                let weapon = self.weapon_for(&c, Some(&name))?;
                self.emit_sr5(Sr5Event::WeaponRemoved { who, weapon });
                Ok(())
            }
            Sr5Command::Reload { who, weapon } => self.reload(who, weapon.as_deref()),
            Sr5Command::Armor { who, rating } => self.armor(who, rating),
            Sr5Command::Act { who, action, given } => self.spend(who, &action, &given, dice),
        }
    }

    fn emit_sr5(&mut self, event: Sr5Event) {
        self.emit(Event::Sr5(event));
    }

    // ----- pools and rolls --------------------------------------------------------------------

    /// A pool the GM typed, with the wound modifier the character carries.
    fn typed_pool(&self, c: &Combatant, pool: i32) -> Result<Pool, RuleError> {
        let base = byte(Self::check_range("pool", pool, self.rules.sr5.pool)?);
        Ok(self.wounded(c, base, PoolFrom::Typed))
    }

    fn wounded(&self, c: &Combatant, base: u8, from: PoolFrom) -> Pool {
        let wound = self.rules.wound_modifier(c.damage.physical, c.damage.stun);
        Pool {
            base,
            wound: i8::try_from(wound).unwrap_or(i8::MIN),
            from,
        }
    }

    /// The roll of a pool. One the wound modifier leaves empty rolls no die: 0 hits and no
    /// glitch (no die shows a 1), so a badly hurt character still defends, soaks and opposes.
    fn take(&self, pool: &Pool, given: &Given, dice: &mut dyn Dice) -> Result<Roll, RuleError> {
        Roll::take(pool.dice(), given, &self.rules.dice, dice).map_err(|e| match e {
            // The GM counted the dice before wounds: the refusal says what they took away.
            TestError::Count { typed, .. } if pool.wound < 0 => Sr5Error::WoundedCount {
                pool: pool.dice(),
                base: pool.base,
                wound: pool.wound,
                typed,
            }
            .into(),
            e => RuleError::Sr5(Sr5Error::Roll(e)),
        })
    }

    fn limit(&self, limit: Option<i32>) -> Result<Option<u8>, RuleError> {
        limit
            .map(|l| Self::check_range("limit", l, self.rules.sr5.limit).map(byte))
            .transpose()
    }

    fn threshold(&self, threshold: i32) -> Result<u8, RuleError> {
        Self::check_range("threshold", threshold, self.rules.sr5.threshold).map(byte)
    }

    /// Push the Limit: the limit it removes and the Edge it costs, or why it cannot.
    fn push(&self, c: &Combatant, limit: Option<u8>) -> Result<(u8, u8), RuleError> {
        let Some(limit) = limit else {
            return Err(Sr5Error::NothingToPush {
                who: c.name.clone(),
            }
            .into());
        };
        let need = self.rules.sr5.push_the_limit_edge;
        Self::edge_for(c, need)?;
        Ok((limit, need))
    }

    // ----- tests ------------------------------------------------------------------------------

    fn sr5_test(&mut self, t: &TestInput, dice: &mut dyn Dice) -> Outcome {
        let c = self.able(t.who)?;
        let pool = self.typed_pool(&c, t.pool.pool)?;
        let limit = self.limit(t.limit)?;
        let (goal, opposed) = match &t.against {
            Against::Open => (Goal::Open, None),
            Against::Threshold(n) => (Goal::Threshold(self.threshold(*n)?), None),
            Against::Opponent { who, pool: p } => {
                if *who == t.who {
                    return Err(Sr5Error::SelfOpposed { who: c.name }.into());
                }
                let o = self.able(*who)?;
                let op = self.typed_pool(&o, p.pool)?;
                (Goal::Opposed, Some((o.id, op, &p.given)))
            }
        };
        let pushed = if t.push {
            Some(self.push(&c, limit)?)
        } else {
            None
        };
        let roll = self.take(&pool, &t.pool.given, dice)?;
        let opponent = match opposed {
            Some((who, pool, given)) => Some(Opponent {
                who,
                roll: self.take(&pool, given, dice)?,
                pool,
            }),
            None => None,
        };
        self.emit_sr5(Sr5Event::Tested {
            who: t.who,
            pool,
            limit: limit.filter(|_| pushed.is_none()),
            pushed,
            goal,
            opponent,
            roll,
            teamwork: None,
        });
        Ok(())
    }

    fn teamwork(&mut self, t: &TeamworkInput, dice: &mut dyn Dice) -> Outcome {
        let leader = self.able(t.leader)?;
        let base = self
            .typed_pool(&leader, t.pool.pool)
            .map_err(|e| whose(e, &leader.name, "pool"))?;
        let limit = self.limit(t.limit)?;
        let goal = match t.threshold {
            Some(n) => Goal::Threshold(self.threshold(n)?),
            None => Goal::Open,
        };
        let cap = match t.skill {
            // A rating up to a pool's largest, or 0: an untrained leader, who takes no dice
            // but still the limit each assistant with a hit gives.
            Some(s) => byte(
                Self::check_range(
                    "skill",
                    s,
                    crate::rules::house::Range {
                        min: 0,
                        ..self.rules.sr5.pool
                    },
                )
                .map_err(|e| whose(e, &leader.name, "skill rating"))?,
            ),
            // Ruling: without the skill rating the leader's pool (which holds it) bounds the dice.
            None => base.base,
        };
        if t.assistants.is_empty() {
            return Err(Sr5Error::NoAssistants.into());
        }
        let mut helpers: Vec<(Combatant, Pool, &PoolInput)> = Vec::new();
        for (who, p) in &t.assistants {
            if *who == t.leader {
                return Err(Sr5Error::SelfAssist { who: leader.name }.into());
            }
            let a = self.able(*who)?;
            if helpers.iter().any(|(h, ..)| h.id == a.id) {
                return Err(Sr5Error::AssistsTwice { who: a.name }.into());
            }
            let pool = self
                .typed_pool(&a, p.pool)
                .map_err(|e| whose(e, &a.name, "pool"))?;
            if t.close_calls.contains(who) {
                Self::edge_for(&a, self.rules.sr5.close_call_edge)?;
            }
            helpers.push((a, pool, p));
        }
        // The table's dice for the leader were rolled knowing the assistants' hits: dice
        // srtrack would roll for an assistant now could not agree with them.
        if !matches!(t.pool.given, Given::Roll)
            && let Some((a, pool, _)) = helpers
                .iter()
                .find(|(.., p)| matches!(p.given, Given::Roll))
        {
            return Err(Sr5Error::LeaderTypedAlone {
                leader: leader.name.clone(),
                who: a.name.clone(),
                pool: pool.base,
            }
            .into());
        }
        let pushed = if t.push {
            Some(self.push(&leader, limit)?)
        } else {
            None
        };
        let mut rolls = Vec::with_capacity(helpers.len());
        // What the assistants' rolls count as for the bonus, Close Call taken.
        let mut counted = Vec::with_capacity(helpers.len());
        let mut close_calls = Vec::new();
        for (a, pool, p) in &helpers {
            let roll = self.take(pool, &p.given, dice)?;
            let mut counts = roll.clone();
            if t.close_calls.contains(&a.id) {
                match test::close_call(roll.glitch) {
                    Some(after) => {
                        counts.glitch = after;
                        close_calls.push((a.id, roll.glitch, after));
                    }
                    // Dice srtrack rolls are not known when Close Call is called for: it is
                    // spent only if they glitch. Typed ones that do not are a mistake.
                    None if matches!(p.given, Given::Roll) => {}
                    None => {
                        return Err(Sr5Error::AssistNoGlitch {
                            who: a.name.clone(),
                        }
                        .into());
                    }
                }
            }
            rolls.push(roll);
            counted.push(counts);
        }
        let bonus = test::teamwork(&counted, cap, &self.rules.sr5);
        let (more_dice, more_limit) = match bonus {
            test::Bonus::Added { dice, limit, .. } => (dice, limit),
            test::Bonus::Spoiled { .. } => (0, 0),
        };
        let pool = Pool {
            base: base.base.saturating_add(more_dice),
            ..base
        };
        let roll = self.take(&pool, &t.pool.given, dice).map_err(|e| match e {
            RuleError::Sr5(Sr5Error::Roll(TestError::Count { typed, .. })) if more_dice > 0 => {
                Sr5Error::TeamworkCount {
                    leader: leader.name.clone(),
                    pool: pool.dice(),
                    bonus: more_dice,
                    typed,
                }
                .into()
            }
            e => e,
        })?;
        let edge = self.rules.sr5.close_call_edge;
        for ((a, pool, _), roll) in helpers.into_iter().zip(rolls) {
            self.emit_sr5(Sr5Event::Assisted {
                who: a.id,
                leader: t.leader,
                pool,
                roll,
            });
            if let Some(&(who, before, after)) = close_calls.iter().find(|(w, ..)| *w == a.id) {
                self.emit_sr5(Sr5Event::CloseCall {
                    who,
                    before,
                    after,
                    edge,
                });
            }
        }
        self.emit_sr5(Sr5Event::Tested {
            who: t.leader,
            pool,
            limit: limit
                .map(|l| l.saturating_add(more_limit))
                .filter(|_| pushed.is_none()),
            pushed: pushed.map(|(l, edge)| (l.saturating_add(more_limit), edge)),
            goal,
            opponent: None,
            roll,
            teamwork: Some(bonus),
        });
        Ok(())
    }

    fn close_call(&mut self, who: CombatantId) -> Outcome {
        let c = self.present(who)?;
        let Some(last) = self.now().sr5.kit(who).and_then(|k| k.last_test) else {
            return self.close_call_initiative(&c);
        };
        let what = last.kind.label();
        if last.kind == TestKind::Assist && last.glitch == Glitch::Critical && !last.close_called {
            return Err(Sr5Error::AssistSpoiled { who: c.name }.into());
        }
        if last.close_called {
            return Err(Sr5Error::AlreadyCloseCalled { who: c.name, what }.into());
        }
        if let Some(used) = last.edge.filter(|_| self.rules.sr5.one_edge_use_per_test) {
            return Err(Sr5Error::EdgeUsed {
                who: c.name,
                what,
                used: used.label(),
            }
            .into());
        }
        let Some(after) = test::close_call(last.glitch) else {
            return Err(Sr5Error::NoGlitch { who: c.name, what }.into());
        };
        let edge = self.rules.sr5.close_call_edge;
        Self::edge_for(&c, edge)?;
        self.emit_sr5(Sr5Event::CloseCall {
            who,
            before: last.glitch,
            after,
            edge,
        });
        Ok(())
    }

    /// Close Call on the initiative test: a glitch there puts the character last among equal
    /// scores, so it must come before the order is set.
    fn close_call_initiative(&mut self, c: &Combatant) -> Outcome {
        let Some(roll) = c.initiative.clone() else {
            return Err(Sr5Error::NoTest {
                who: c.name.clone(),
            }
            .into());
        };
        if !matches!(self.now().phase, Phase::Setup) {
            return Err(Sr5Error::OrderSet {
                who: c.name.clone(),
            }
            .into());
        }
        let what = "initiative test";
        if roll.close_called {
            return Err(Sr5Error::AlreadyCloseCalled {
                who: c.name.clone(),
                what,
            }
            .into());
        }
        let Some(after) = test::close_call(roll.glitch) else {
            return Err(Sr5Error::NoGlitch {
                who: c.name.clone(),
                what,
            }
            .into());
        };
        let edge = self.rules.sr5.close_call_edge;
        Self::edge_for(c, edge)?;
        let state = self.now();
        let mut who = vec![c.id];
        who.extend(
            Self::members(state, state.unit_of(c))
                .into_iter()
                .filter(|id| *id != c.id),
        );
        self.emit_sr5(Sr5Event::InitiativeCloseCall {
            who,
            before: roll.glitch,
            after,
            edge,
        });
        Ok(())
    }

    /// An odds question changes nothing: its numbers are checked like a test's.
    fn odds_question(
        &self,
        pool: i32,
        limit: Option<i32>,
        against: crate::encounter::system::sr5::OddsAgainst,
    ) -> Outcome {
        use crate::encounter::system::sr5::OddsAgainst;
        Self::check_range("pool", pool, self.rules.sr5.pool)?;
        self.limit(limit)?;
        match against {
            OddsAgainst::Open => {}
            OddsAgainst::Threshold(n) => {
                self.threshold(n)?;
            }
            OddsAgainst::Pool(n) => {
                Self::check_range("opposing pool", n, self.rules.sr5.pool)?;
            }
        }
        Ok(())
    }

    // ----- the attack chain -------------------------------------------------------------------

    /// One attack roll for every target; then each target, in the order named, defends and soaks
    /// on its own, or waits for the table's dice. One refusal refuses them all.
    fn attack(&mut self, a: &AttackInput, dice: &mut dyn Dice) -> Outcome {
        let attacker = self.present(a.attacker)?;
        if a.attack.is_some() {
            // The attacker's check before any target's, as the attack form asks it before a
            // target is named: its refusal is the form's. (A chain under way goes on without.)
            self.attacker(attacker.id, Attack::Armed(a.weapon.as_deref()))?;
        }
        let targets = self.attack_targets(&attacker, &a.targets, a.attack.is_some())?;
        if targets.len() > 1 {
            for (step, word) in [(&a.defense, "defense"), (&a.soak, "soak")] {
                if step
                    .as_ref()
                    .is_some_and(|s| !matches!(s.given, Given::Roll))
                {
                    return Err(Sr5Error::SharedDice { word }.into());
                }
            }
        }
        let mut chains = Vec::with_capacity(targets.len());
        if let Some(step) = &a.attack {
            let (weapon, stage) = self.attack_roll(&attacker, &targets, a, step, dice)?;
            chains.resize(targets.len(), (weapon, stage));
        } else {
            if a.weapon.is_some() {
                return Err(Sr5Error::WeaponMidChain.into());
            }
            if a.push || a.aim.is_some() {
                return Err(Sr5Error::AimMidChain.into());
            }
            for target in &targets {
                let waits = self
                    .now()
                    .sr5
                    .pending
                    .iter()
                    .find(|p| p.attacker == a.attacker && p.target == target.id)
                    .map(|p| (p.weapon.clone(), p.stage));
                chains.push(waits.ok_or_else(|| Sr5Error::NoAttack {
                    attacker: attacker.name.clone(),
                    target: target.name.clone(),
                })?);
            }
        }
        let mut first_wait = None;
        for (target, (weapon, stage)) in targets.iter().zip(chains) {
            if let Some(wait) = self.chain(&attacker, target, &weapon, stage, a, dice)? {
                first_wait.get_or_insert((target, wait));
            }
        }
        match first_wait {
            // A chain that stops for the GM is fine after a step, refused when nothing happened.
            Some((target, (step, word))) if self.events.is_empty() => Err(Sr5Error::Waiting {
                attacker: attacker.name,
                target: target.name.clone(),
                step,
                word,
            }
            .into()),
            _ => Ok(()),
        }
    }

    /// The targets named, each present, not the attacker, and named once; standing too when
    /// `new` (an attack roll). A chain under way goes on on a target Downed since its roll: the
    /// hit landed while it stood (README, Rulings of our own).
    fn attack_targets(
        &mut self,
        attacker: &Combatant,
        ids: &[CombatantId],
        new: bool,
    ) -> Result<Vec<Combatant>, RuleError> {
        if ids.is_empty() {
            return Err(RuleError::NoTargets);
        }
        let mut targets: Vec<Combatant> = Vec::with_capacity(ids.len());
        for &id in ids {
            let target = self.present(id)?;
            if id == attacker.id {
                return Err(Sr5Error::SelfAttack {
                    who: attacker.name.clone(),
                }
                .into());
            }
            if new && target.is_downed() {
                return Err(Sr5Error::TargetDowned { who: target.name }.into());
            }
            if targets.iter().any(|t| t.id == id) {
                return Err(RuleError::TargetTwice { who: target.name });
            }
            targets.push(target);
        }
        Ok(targets)
    }

    /// One target's steps from where its chain stands: `Some((step, word))` when it stops to
    /// wait for the GM. A step the command gives that this target cannot take is refused when
    /// the target is the only one named; with several, each takes what applies to it.
    fn chain(
        &mut self,
        attacker: &Combatant,
        target: &Combatant,
        weapon: &Weapon,
        mut stage: Stage,
        a: &AttackInput,
        dice: &mut dyn Dice,
    ) -> Result<Option<(&'static str, &'static str)>, RuleError> {
        let alone = a.targets.len() == 1;
        if let Stage::Defense { hits } = stage {
            match self.defense_step(target, weapon, a.defense.as_ref())? {
                Step::Wait if a.soak.is_some() && alone => {
                    return Err(Sr5Error::StepOrder {
                        what: "the damage resistance",
                        step: "defense",
                    }
                    .into());
                }
                Step::Wait => return Ok(Some(("defense", "defense"))),
                Step::Go(pool, given) => {
                    let roll = self.take(&pool, &given, dice)?;
                    let result = match test::verdict(Goal::Opposed, hits, roll.hits) {
                        Some(Verdict::Success { net }) => Defense::Hit {
                            net,
                            dv: combat::modified_dv(weapon.dv, net, &self.rules.sr5),
                        },
                        Some(Verdict::Failure) | None => Defense::Miss,
                    };
                    let used = self.used_interrupts(target, weapon);
                    self.emit_sr5(Sr5Event::Defended {
                        target: target.id,
                        attacker: attacker.id,
                        pool,
                        used,
                        roll,
                        attack_hits: hits,
                        result,
                    });
                    match result {
                        Defense::Hit { dv, .. } => stage = Stage::Soak { dv },
                        // A soak asked with it is not needed: the attack and the defense stand.
                        Defense::Miss => return Ok(None),
                    }
                }
            }
        } else if a.defense.is_some() {
            return Err(Sr5Error::StepDone {
                attacker: attacker.name.clone(),
                target: target.name.clone(),
                step: "defense",
            }
            .into());
        }
        if let Stage::Soak { dv } = stage {
            let worn = self
                .now()
                .sr5
                .kit(target.id)
                .and_then(|k| k.armor)
                .unwrap_or(0);
            let armor = combat::armor_after_ap(worn, weapon.ap, &self.rules.sr5);
            let armor_part = Part {
                label: if worn == armor {
                    "armor".into()
                } else {
                    format!("armor {worn} with AP {}:", weapon.ap)
                },
                dice: armor,
            };
            let Step::Go(pool, given) = self.soak_step(target, armor_part, a.soak.as_ref())? else {
                return Ok(Some(("damage resistance", "soak")));
            };
            let roll = self.take(&pool, &given, dice)?;
            let damage = combat::damage_type(weapon.damage, dv, armor);
            let boxes = combat::boxes(dv, roll.hits, &self.rules.sr5);
            self.emit_sr5(Sr5Event::Soaked {
                target: target.id,
                pool,
                roll,
                dv,
                armor,
                damage,
                boxes,
            });
            if boxes > 0 {
                let track = match damage {
                    DamageType::Physical => Track::Physical,
                    DamageType::Stun => Track::Stun,
                };
                // Boxes past the monitor's last are not tracked: the monitor only fills up.
                let most = self.rules.limits.damage_boxes.max;
                self.damage(target.id, track, i32::from(boxes).min(most))?;
            }
        }
        Ok(None)
    }

    /// The attack roll that starts a chain (one for all its targets), dropping every target an
    /// attack left waiting.
    fn attack_roll(
        &mut self,
        attacker: &Combatant,
        targets: &[Combatant],
        a: &AttackInput,
        step: &StepInput,
        dice: &mut dyn Dice,
    ) -> Result<(Weapon, Stage), RuleError> {
        let action = self.owed_attack(attacker)?;
        let weapon = self.attack_weapon(attacker, a.weapon.as_deref(), action.as_ref())?;
        let Some(n) = step.pool else {
            return Err(Sr5Error::AttackPool.into());
        };
        let pool = self.typed_pool(attacker, n)?;
        let aim = match a.aim {
            None => 0,
            Some(_) if a.push => return Err(Sr5Error::AimPushed.into()),
            Some(aim) => {
                // Willpower unknown: no cap, as for the Take Aim action itself.
                let cap = self
                    .rules
                    .take_aim_cap(attacker.sheet.willpower)
                    .unwrap_or(self.rules.sr5.accuracy.max.try_into().unwrap_or(u8::MAX));
                if aim < 1 || aim > i32::from(cap) {
                    return Err(Sr5Error::AimCapped {
                        who: attacker.name.clone(),
                        aim,
                        cap,
                    }
                    .into());
                }
                byte(aim)
            }
        };
        let pushed = if a.push {
            let need = self.rules.sr5.push_the_limit_edge;
            Self::edge_for(attacker, need)?;
            Some(need)
        } else {
            None
        };
        let rounds = self.owed_rounds(attacker, &weapon)?;
        let roll = self.take(&pool, &step.given, dice)?;
        let hits = test::counted(roll.hits, attack_limit(&weapon, aim, pushed));
        for p in self.now().sr5.pending.clone() {
            self.emit_sr5(Sr5Event::AttackDropped {
                attacker: p.attacker,
                target: p.target,
            });
        }
        let (first, also) = targets.split_first().ok_or(RuleError::NoTargets)?;
        if let Some(e) = rounds {
            self.emit(e);
        }
        self.emit_sr5(Sr5Event::Attacked {
            attacker: attacker.id,
            target: first.id,
            also: also.iter().map(|t| t.id).collect(),
            weapon: weapon.clone(),
            pool,
            roll,
            aim,
            pushed,
        });
        Ok((weapon, Stage::Defense { hits }))
    }

    /// Drops every attack step waiting on `who` as attacker or target: with either end gone
    /// from the fight it could never be rolled, and it would stand before every new attack.
    /// Logged as a new attack's drop is.
    pub(super) fn drop_attacks_of(&mut self, who: CombatantId) {
        for p in self.now().sr5.pending.clone() {
            if p.attacker == who || p.target == who {
                self.emit_sr5(Sr5Event::AttackDropped {
                    attacker: p.attacker,
                    target: p.target,
                });
            }
        }
    }

    /// The attack action of the character turn under way `c`'s attack roll is for (the oldest
    /// still waiting, as for the rounds it owes); `None` outside a fight (no Action Phases, so
    /// the GM's attack needs none) or on a trial copy. In a fight, refused when none waits.
    pub(super) fn owed_attack(&mut self, c: &Combatant) -> Result<Option<ActionUse>, RuleError> {
        let Some(applied) = self.applied else {
            return Ok(None);
        };
        if !matches!(self.now().phase, Phase::Fight(_)) {
            return Ok(None);
        }
        let waiting = crate::encounter::query::waiting_attacks(applied, &self.rules.sr5);
        match waiting.into_iter().find(|(w, _)| *w == c.id) {
            Some((_, action)) => Ok(Some(action.clone())),
            None => Err(Sr5Error::NoAttackAction {
                who: c.name.clone(),
            }
            .into()),
        }
    }

    /// The weapon of an attack roll for `action`: a melee attack's is a melee weapon (the one
    /// named, else the sheet's first), a firing action's one with ammunition (the one named,
    /// else the firearm in hand, else the sheet's first firearm); any other's [`weapon_for`].
    ///
    /// [`weapon_for`]: Self::weapon_for
    pub(super) fn attack_weapon(
        &mut self,
        c: &Combatant,
        name: Option<&str>,
        action: Option<&ActionUse>,
    ) -> Result<Weapon, RuleError> {
        let Some(action) = action else {
            return self.weapon_for(c, name);
        };
        let title = action.title();
        let melee = action
            .name
            .as_deref()
            .is_some_and(|n| self.rules.sr5.is_melee_attack(n));
        let firing = !melee && self.rounds_of(action).is_some();
        if !melee && !firing {
            return self.weapon_for(c, name);
        }
        let kit = self.now().sr5.kit(c.id);
        let fits = |w: &Weapon| w.is_melee() == melee;
        let has: Vec<String> = kit
            .map(|k| {
                k.weapons
                    .iter()
                    .filter(|w| fits(w))
                    .map(|w| w.name.clone())
                    .collect()
            })
            .unwrap_or_default();
        let weapon = match name {
            Some(_) => self.weapon_for(c, name)?,
            None => {
                let kit = self.now().sr5.kit(c.id);
                let found = kit.and_then(|k| {
                    k.firearm_in_hand()
                        .filter(|w| !melee && fits(w))
                        .or_else(|| k.weapons.iter().find(|w| fits(w)))
                });
                match found {
                    Some(w) => w.clone(),
                    // No weapon of the kind: the sheet's own refusal when it has none at all.
                    None if kit.is_none_or(|k| k.weapons.is_empty()) => {
                        return self.weapon_for(c, None);
                    }
                    None => {
                        return Err(Sr5Error::NoWeaponFor {
                            who: c.name.clone(),
                            action: title,
                            kind: kind_of(melee),
                        }
                        .into());
                    }
                }
            }
        };
        if fits(&weapon) {
            return Ok(weapon);
        }
        Err(Sr5Error::WrongWeapon {
            who: c.name.clone(),
            action: title,
            weapon: weapon.name,
            kind: kind_of(melee),
            has,
        }
        .into())
    }

    /// The weapon named, or the firearm in hand, or the first weapon on the sheet.
    pub(super) fn weapon_for(
        &mut self,
        c: &Combatant,
        name: Option<&str>,
    ) -> Result<Weapon, RuleError> {
        let kit = self.now().sr5.kit(c.id);
        let found = match name {
            Some(n) => kit.and_then(|k| k.weapon(n)).map(|(_, w)| w),
            None => kit.and_then(|k| k.firearm_in_hand().or(k.weapons.first())),
        };
        match (found, name) {
            (Some(w), _) => Ok(w.clone()),
            (None, Some(n)) => Err(Sr5Error::UnknownWeapon {
                who: c.name.clone(),
                name: n.to_string(),
                has: kit
                    .map(|k| k.weapons.iter().map(|w| w.name.clone()).collect())
                    .unwrap_or_default(),
            }
            .into()),
            (None, None) => Err(Sr5Error::NoWeapon {
                who: c.name.clone(),
            }
            .into()),
        }
    }

    /// Pending one-time defense interrupts that count against this weapon.
    fn used_interrupts(&mut self, target: &Combatant, weapon: &Weapon) -> Vec<String> {
        let rules = &self.rules.sr5;
        let adds = self
            .now()
            .sr5
            .kit(target.id)
            .map(|k| k.defense_adds.clone())
            .unwrap_or_default();
        adds.into_iter()
            .filter(|name| {
                rules
                    .defense_interrupt(name)
                    .is_some_and(|d| !d.melee_only || weapon.is_melee())
            })
            .collect()
    }

    /// A pool added up from the sheet, or the first attribute it lacks.
    fn sheet_pool(c: &Combatant, parts: &[(String, Attribute)]) -> Result<Vec<Part>, Attribute> {
        parts
            .iter()
            .map(|(label, attr)| {
                crate::encounter::system::sr5::attribute(&c.sheet, *attr)
                    .map(|dice| Part {
                        label: label.clone(),
                        dice,
                    })
                    .ok_or(*attr)
            })
            .collect()
    }

    /// Whether the table rolls this character's dice (players roll their own; the GM the
    /// NPCs', when the house rules say so).
    fn table_rolls(&self, c: &Combatant) -> bool {
        let r = &self.rules.sr5;
        match c.side {
            Side::Pc => r.players_roll_their_own,
            Side::Npc => r.npcs_roll_at_the_table,
        }
    }

    /// The defense: typed, worked out from the sheet, or waiting for the GM.
    fn defense_step(
        &mut self,
        target: &Combatant,
        weapon: &Weapon,
        step: Option<&StepInput>,
    ) -> Result<Step, RuleError> {
        if let Some(StepInput {
            pool: Some(n),
            given,
        }) = step
        {
            return Ok(Step::Go(self.typed_pool(target, *n)?, given.clone()));
        }
        let used = self.used_interrupts(target, weapon);
        let rules = &self.rules.sr5;
        let mut parts: Vec<(String, Attribute)> = rules
            .defense
            .iter()
            .map(|a| (a.label().to_string(), *a))
            .collect();
        for s in &rules.defense_statuses {
            if target.status(&s.status).is_some() {
                parts.push((format!("{} ({})", s.adds.label(), s.status), s.adds));
            }
        }
        let sheet = Self::sheet_pool(target, &parts);
        match (step, sheet) {
            (None, _) if self.table_rolls(target) || !used.is_empty() => Ok(Step::Wait),
            (None, Err(_)) => Ok(Step::Wait),
            (Some(_), _) if !used.is_empty() => Err(Sr5Error::NeedsDefensePool {
                who: target.name.clone(),
                adds: used
                    .iter()
                    .filter_map(|u| rules.defense_interrupt(u))
                    .map(|d| format!("{} ({})", d.adds, d.action))
                    .collect::<Vec<_>>()
                    .join(", "),
            }
            .into()),
            (Some(_), Err(attr)) => Err(Sr5Error::NoAttribute {
                who: target.name.clone(),
                attribute: attr.label(),
                step: "defense",
            }
            .into()),
            (_, Ok(parts)) => {
                let given = step.map(|s| s.given.clone()).unwrap_or_default();
                let base = parts.iter().map(|p| p.dice).fold(0u8, u8::saturating_add);
                Ok(Step::Go(
                    self.wounded(target, base, PoolFrom::Sheet(parts)),
                    given,
                ))
            }
        }
    }

    /// The damage resistance test: typed, Body + armor after AP, or waiting for the GM. Wound
    /// modifiers do not apply to it.
    fn soak_step(
        &self,
        target: &Combatant,
        armor: Part,
        step: Option<&StepInput>,
    ) -> Result<Step, RuleError> {
        let unhurt = |base, from| Pool {
            base,
            wound: 0,
            from,
        };
        if let Some(StepInput {
            pool: Some(n),
            given,
        }) = step
        {
            let base = byte(Self::check_range("pool", *n, self.rules.sr5.pool)?);
            return Ok(Step::Go(unhurt(base, PoolFrom::Typed), given.clone()));
        }
        let parts: Vec<(String, Attribute)> = self
            .rules
            .sr5
            .soak
            .iter()
            .map(|a| (a.label().to_string(), *a))
            .collect();
        match (step, Self::sheet_pool(target, &parts)) {
            (None, _) if self.table_rolls(target) => Ok(Step::Wait),
            (None, Err(_)) => Ok(Step::Wait),
            (Some(_), Err(attr)) => Err(Sr5Error::NoAttribute {
                who: target.name.clone(),
                attribute: attr.label(),
                step: "soak",
            }
            .into()),
            (_, Ok(mut parts)) => {
                parts.push(armor);
                let base = parts.iter().map(|p| p.dice).fold(0u8, u8::saturating_add);
                let given = step.map(|s| s.given.clone()).unwrap_or_default();
                Ok(Step::Go(unhurt(base, PoolFrom::Sheet(parts)), given))
            }
        }
    }

    // ----- a wounded character's action test (Stand Up) ---------------------------------------

    /// The test a wounded character must pass for an action to end its status (Stand Up's Body
    /// and Willpower against 2, wound modifiers applying): its event and whether it passed.
    /// `None` when none is due: unwounded (typed dice then refused), the status not on, another
    /// action, a Shadowrun 2097 fight.
    pub(super) fn wounded_test(
        &mut self,
        c: &Combatant,
        action: &ActionUse,
        given: &Given,
        dice: &mut dyn Dice,
    ) -> Result<Option<(Event, bool)>, RuleError> {
        let label = || action.name.clone().unwrap_or_else(|| action.kind.clone());
        let no_test = |given: &Given| match given {
            Given::Roll => Ok(None),
            _ => Err(RuleError::from(Sr5Error::NoTestDue {
                who: c.name.clone(),
                action: label(),
            })),
        };
        let s = &self.rules.sr5;
        let Some(Effect::End(status)) = &action.effect else {
            return no_test(given);
        };
        let Some(t) = action.name.as_deref().and_then(|n| s.wounded_test(n)) else {
            return no_test(given);
        };
        if c.status(status).is_none() || !s.is_wounded(c.damage.physical, c.damage.stun) {
            return no_test(given);
        }
        let (pool, threshold) = (t.pool.clone(), t.threshold);
        if self.now().sr2097.is_some() {
            return no_test(given);
        }
        let parts: Vec<(String, Attribute)> =
            pool.iter().map(|a| (a.label().to_string(), *a)).collect();
        let parts = Self::sheet_pool(c, &parts).map_err(|attr| Sr5Error::NoTestAttribute {
            who: c.name.clone(),
            attribute: attr.label(),
            action: label(),
        })?;
        let base = parts.iter().map(|p| p.dice).fold(0u8, u8::saturating_add);
        let pool = self.wounded(c, base, PoolFrom::Sheet(parts));
        let roll = self.take(&pool, given, dice)?;
        let goal = Goal::Threshold(threshold);
        let passed = matches!(
            test::verdict(goal, roll.hits, 0),
            Some(Verdict::Success { .. })
        );
        let event = Event::Sr5(Sr5Event::Tested {
            who: c.id,
            pool,
            limit: None,
            pushed: None,
            goal,
            opponent: None,
            roll,
            teamwork: None,
        });
        Ok(Some((event, passed)))
    }

    // ----- the sheet: weapons, ammunition, armor ----------------------------------------------

    fn add_weapon(&mut self, who: CombatantId, w: &WeaponInput) -> Outcome {
        let c = self.present(who)?;
        let s = &self.rules.sr5;
        let name = w.name.trim().to_string();
        let name = RuleError::check_text("weapon name", &name, s.weapon_name_chars)?;
        if self
            .now()
            .sr5
            .kit(who)
            .is_some_and(|k| k.weapon(&name).is_some())
        {
            return Err(Sr5Error::WeaponTaken { who: c.name, name }.into());
        }
        let weapon = Weapon {
            name,
            dv: byte(Self::check_range("DV", w.dv, s.weapon_dv)?),
            damage: w.damage,
            ap: i8::try_from(Self::check_range("AP", w.ap, s.weapon_ap)?).unwrap_or(0),
            accuracy: byte(Self::check_range("accuracy", w.accuracy, s.accuracy)?),
            ammo: w
                .ammo
                .map(|n| Self::check_range("ammo", n, s.ammo).map(byte))
                .transpose()?
                .map(|capacity| Ammo {
                    capacity,
                    left: capacity,
                    clip_out: false,
                }),
        };
        self.emit_sr5(Sr5Event::WeaponAdded { who, weapon });
        Ok(())
    }

    fn reload(&mut self, who: CombatantId, name: Option<&str>) -> Outcome {
        let c = self.present(who)?;
        let weapon = match name {
            Some(_) => self.weapon_for(&c, name)?,
            None => self
                .now()
                .sr5
                .kit(who)
                .and_then(|k| k.firearm_in_hand())
                .cloned()
                .ok_or_else(|| Sr5Error::NothingToReload {
                    who: c.name.clone(),
                })?,
        };
        let Some(ammo) = weapon.ammo else {
            return Err(Sr5Error::NoAmmo {
                who: c.name,
                weapon: weapon.name,
            }
            .into());
        };
        self.emit_sr5(Sr5Event::Reloaded {
            who,
            weapon: weapon.name,
            rounds: ammo.capacity,
        });
        Ok(())
    }

    fn armor(&mut self, who: CombatantId, rating: i32) -> Outcome {
        self.present(who)?;
        let rating = byte(Self::check_range("armor", rating, self.rules.sr5.armor)?);
        self.emit_sr5(Sr5Event::ArmorSet { who, rating });
        Ok(())
    }

    /// Refuses a one-time defense interrupt (Dodge) taken again while the first still waits for
    /// the defense test it adds to.
    pub(super) fn defense_add_unused(&mut self, c: &Combatant, action: &ActionUse) -> Outcome {
        let Some(name) = action.name.as_deref() else {
            return Ok(());
        };
        let waiting = self
            .now()
            .sr5
            .kit(c.id)
            .is_some_and(|k| k.defense_adds.iter().any(|a| a.eq_ignore_ascii_case(name)));
        if waiting {
            return Err(Sr5Error::DefenseAddWaiting {
                who: c.name.clone(),
                action: name.to_string(),
            }
            .into());
        }
        Ok(())
    }

    /// Refuses a defense interrupt that cannot count: one only against melee attacks while the
    /// attack waiting for `c`'s defense is not a melee weapon's, or one taken with a melee weapon
    /// by a character whose sheet carries weapons and none of them melee. With no attack waiting
    /// and no weapons on the sheet it is taken: the GM may not keep them in srtrack.
    pub(super) fn defense_add_counts(&mut self, c: &Combatant, action: &ActionUse) -> Outcome {
        let Some(name) = action.name.as_deref() else {
            return Ok(());
        };
        let Some(interrupt) = self.rules.sr5.defense_interrupt(name).cloned() else {
            return Ok(());
        };
        let now = self.now();
        let waiting = now
            .sr5
            .waiting(c.id)
            .filter(|p| matches!(p.stage, Stage::Defense { .. }))
            .map(|p| (now.name(p.attacker).to_string(), p.weapon.clone()));
        let weapons = now.sr5.kit(c.id).map(|k| k.weapons.clone());
        let weapons = weapons.unwrap_or_default();
        if let Some((attacker, weapon)) =
            waiting.filter(|(_, w)| interrupt.melee_only && !w.is_melee())
        {
            return Err(Sr5Error::DefenseAddNotMelee {
                who: c.name.clone(),
                action: interrupt.action,
                attacker,
                weapon: weapon.name,
            }
            .into());
        }
        if interrupt.needs_melee_weapon
            && !weapons.is_empty()
            && !weapons.iter().any(Weapon::is_melee)
        {
            return Err(Sr5Error::NoMeleeWeapon {
                who: c.name.clone(),
                action: interrupt.action,
                has: weapons.into_iter().map(|w| w.name).collect(),
            }
            .into());
        }
        Ok(())
    }

    /// The fire mode named for an action, as the rules spell it; refused when the action has no
    /// such mode, or no modes at all.
    pub(super) fn fire_mode(
        &self,
        action: &str,
        mode: Option<&str>,
    ) -> Result<Option<String>, RuleError> {
        let Some(mode) = mode else {
            return Ok(None);
        };
        let a = self
            .rules
            .sr5
            .attack_action(action)
            .filter(|a| !a.modes.is_empty())
            .ok_or_else(|| Sr5Error::NoFireModes {
                action: action.to_string(),
                mode: mode.to_string(),
            })?;
        match a.mode(mode) {
            Some(m) => Ok(Some(m.mode.clone())),
            None => Err(Sr5Error::NoSuchFireMode {
                action: action.to_string(),
                mode: mode.to_string(),
                modes: a.mode_list(),
            }
            .into()),
        }
    }

    /// What spending `action` does to the firearm in hand: a firing action takes its rounds (the
    /// catalogue's `ammo`, else the rules'), refused with too few left; a reload action fills
    /// it; a clip action takes its clip out, or puts one in once it is out (else refused).
    /// Nothing for an attack that fires none (a bow, a mounted weapon: srtrack cannot tell
    /// which weapon of the sheet that is), nor for a character with no firearm in hand: its
    /// attack takes them, rolled with one (`owed_rounds`).
    pub(super) fn ammunition(
        &mut self,
        c: &Combatant,
        action: &ActionUse,
    ) -> Result<Option<Event>, RuleError> {
        let Some(name) = action.name.as_deref() else {
            return Ok(None);
        };
        let Some(gun) = self
            .now()
            .sr5
            .kit(c.id)
            .and_then(|k| k.firearm_in_hand())
            .cloned()
        else {
            return Ok(None);
        };
        let Some(ammo) = gun.ammo else {
            return Ok(None);
        };
        let sr5 = &self.rules.sr5;
        if sr5.is_remove_clip(name) {
            if let (true, Some(insert)) = (ammo.clip_out, sr5.insert_clip_actions.first()) {
                return Err(Sr5Error::ClipOut {
                    who: c.name.clone(),
                    weapon: gun.name,
                    insert: insert.clone(),
                }
                .into());
            }
            return Ok(Some(Event::Sr5(Sr5Event::ClipRemoved {
                who: c.id,
                weapon: gun.name,
                rounds: ammo.left,
            })));
        }
        if sr5.is_insert_clip(name)
            && let (false, Some(remove)) = (ammo.clip_out, sr5.remove_clip_actions.first())
        {
            return Err(Sr5Error::ClipIn {
                who: c.name.clone(),
                weapon: gun.name,
                remove: remove.clone(),
            }
            .into());
        }
        if sr5.is_insert_clip(name) || sr5.is_reload(name) {
            return Ok(Some(Event::Sr5(Sr5Event::Reloaded {
                who: c.id,
                weapon: gun.name,
                rounds: ammo.capacity,
            })));
        }
        self.rounds_fired(c, gun, action)
    }

    /// What rolling an attack with `weapon` does to it: the rounds of the attack action it is
    /// rolled for, when none went as that action was spent (no firearm in hand then), refused
    /// with too few left. Nothing for a weapon that holds no rounds, nor with no such action.
    fn owed_rounds(&mut self, c: &Combatant, weapon: &Weapon) -> Result<Option<Event>, RuleError> {
        let Some(action) = self.now().sr5.unfired(c.id).cloned() else {
            return Ok(None);
        };
        if weapon.ammo.is_none() {
            return Ok(None);
        }
        self.rounds_fired(c, weapon.clone(), &action)
    }

    /// The rounds firing `action` takes from `gun`, or the refusal when too few are left.
    fn rounds_fired(
        &mut self,
        c: &Combatant,
        gun: Weapon,
        action: &ActionUse,
    ) -> Result<Option<Event>, RuleError> {
        let (Some(ammo), Some(rounds)) = (gun.ammo, self.rounds_of(action)) else {
            return Ok(None);
        };
        if ammo.left < rounds {
            let in_hand = self
                .now()
                .sr5
                .kit(c.id)
                .and_then(|k| k.firearm_in_hand())
                .is_some_and(|w| w.name == gun.name);
            // Insert Clip fills the firearm in hand only.
            let insert = (ammo.clip_out && in_hand)
                .then(|| self.rules.sr5.insert_clip_actions.first().cloned())
                .flatten();
            return Err(Sr5Error::TooFewRounds {
                who: c.name.clone(),
                weapon: gun.name,
                left: ammo.left,
                need: rounds,
                action: action.title(),
                in_hand,
                insert,
            }
            .into());
        }
        Ok(Some(Event::Sr5(Sr5Event::RoundsFired {
            who: c.id,
            weapon: gun.name,
            rounds,
        })))
    }

    /// The rounds a firing action takes: its mode's; without one the catalogue's ammo, the rules'
    /// rounds, the first mode's. None for an action that fires none or no firearm (a bow).
    fn rounds_of(&self, action: &ActionUse) -> Option<u8> {
        let name = action.name.as_deref()?;
        let attack = self.rules.sr5.attack_action(name);
        if attack.is_some_and(|a| !a.firearm) {
            return None;
        }
        match action.mode.as_deref() {
            Some(m) => attack.and_then(|a| a.mode(m)).map(|m| m.rounds),
            None => self
                .catalogue
                .get(name)
                .and_then(|d| d.ammo)
                .or_else(|| attack.and_then(|a| a.rounds))
                .or_else(|| attack.and_then(|a| a.modes.first()).map(|m| m.rounds)),
        }
    }
}

/// What an attack action's weapon must be, as its refusals say it.
fn kind_of(melee: bool) -> &'static str {
    if melee { "a melee weapon" } else { "a firearm" }
}

/// A number out of range in a teamwork test, said of the one it belongs to: there the leader's
/// and each assistant's pools (and the leader's skill) stand side by side.
fn whose(e: RuleError, who: &str, what: &'static str) -> RuleError {
    match e {
        RuleError::OutOfRange {
            value, min, max, ..
        } => Sr5Error::TeamworkRange {
            who: who.to_string(),
            what,
            value,
            min,
            max,
        }
        .into(),
        other => other,
    }
}
