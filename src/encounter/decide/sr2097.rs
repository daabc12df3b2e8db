//! Shadowrun 2097's decisions: success checks, damage through armor into injuries, Edge, the
//! sheet's armor, Strength and weapons, and its initiative (a sum of d6s, boosted by Edge).

use std::cmp::Ordering;

use super::{Draft, Outcome};
use crate::encounter::command::RollTarget;
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, StatusEnded};
use crate::encounter::model::{
    ActiveStatus, Combatant, CombatantId, DownCause, Fight, Phase, Sheet, State, StatusEnd, Track,
};
use crate::encounter::query::Attack;
use crate::encounter::system::sr2097::{
    DamageDice, DamageSource, EdgeCommand, Fate, Injury, Reach, Recovery, Sr2097Command,
    Sr2097Event, Sr2097Sheet, TieBreak, Tn, Weapon, WeaponInput, bonus_value, boosted_score,
};
use crate::rules::Dice;
use crate::rules::initiative::{Decider, InitiativeRoll, OrderKey};
use crate::rules::sr2097::{
    Armor, Check, DamageRoll, DiceFrom, EdgePool, EdgeUse, Sr2097Error, Sr2097Rules, Through,
    WayOut, check, damage, edge,
};

/// A MoS the GM gives a damage roll: a success's, 0 up to the best a check can make.
fn given_mos(mos: i32, r: &Sr2097Rules) -> Result<i32, RuleError> {
    if mos < 0 {
        return Err(Sr2097Error::FailedAttack { mos }.into());
    }
    let best = crate::rules::house::Range {
        min: 0,
        max: r.check.best_mos(),
    };
    RuleError::in_range("MoS", mos, best)
}

/// What a damage roll did against the target's armor.
struct Hit {
    roll: DamageRoll,
    armor: Option<Armor>,
    through: Through,
    injury: Option<Injury>,
}

impl Draft<'_> {
    pub(super) fn sr2097(&mut self, command: Sr2097Command, dice: &mut dyn Dice) -> Outcome {
        match command {
            Sr2097Command::Check {
                who,
                tn,
                bonus,
                advantage,
                disadvantage,
                edge,
                dice: typed,
                drop,
            } => self.success_check(
                who,
                &tn,
                bonus,
                (advantage, disadvantage, edge),
                typed.as_deref(),
                drop,
                dice,
            ),
            Sr2097Command::Damage {
                by,
                target,
                with,
                mos,
                edge,
                dice: typed,
            } => self.damage_roll(by, target, &with, mos, edge, typed.as_deref(), dice),
            Sr2097Command::Harm {
                target,
                with,
                mos,
                dice: typed,
            } => self.harm(target, &with, mos, typed.as_deref(), dice),
            Sr2097Command::Armor { who, pt, dr } => {
                self.present(who)?;
                let r = &self.rules.sr2097.damage;
                let pt = Self::check_range("PT", pt, r.pt)?;
                let dr = Self::check_range("DR", dr, r.dr)?;
                let armor = Armor {
                    pt: u16::try_from(pt).unwrap_or(u16::MAX),
                    dr: u8::try_from(dr).unwrap_or(u8::MAX),
                };
                self.emit_2097(Sr2097Event::ArmorSet { who, armor });
                Ok(())
            }
            Sr2097Command::Strength { who, strength } => {
                self.present(who)?;
                let strength =
                    Self::check_range("Strength", strength, self.rules.sr2097.damage.strength)?;
                self.emit_2097(Sr2097Event::StrengthSet {
                    who,
                    strength: u8::try_from(strength).unwrap_or(u8::MAX),
                });
                Ok(())
            }
            Sr2097Command::AddWeapon { who, weapon } => self.add_weapon_2097(who, &weapon),
            Sr2097Command::RemoveWeapon { who, name } => {
                let c = self.present(who)?;
                let name = self
                    .sheet_2097(who)
                    .weapon_named(&c.name, &name)?
                    .name
                    .clone();
                self.emit_2097(Sr2097Event::WeaponRemoved { who, name });
                Ok(())
            }
            Sr2097Command::Edge { who, edge } => self.edge_2097(who, &edge, dice),
            Sr2097Command::Initiative {
                target,
                dice: typed,
            } => self.typed_initiative(target, &typed, dice),
        }
    }

    fn emit_2097(&mut self, event: Sr2097Event) {
        self.emit(Event::Sr2097(event));
    }

    /// A combatant's 2097 sheet as it stands now (empty outside a 2097 encounter).
    fn sheet_2097(&mut self, id: CombatantId) -> Sr2097Sheet {
        self.now()
            .sr2097
            .as_ref()
            .map(|s| s.sheet(id).clone())
            .unwrap_or_default()
    }

    fn edge_pool(&mut self, c: &Combatant) -> EdgePool {
        self.sheet_2097(c.id).edge(c.sheet.edge, c.edge_left)
    }

    /// Pays for one use of Edge, or says there is not enough.
    fn pay_edge(&mut self, c: &Combatant, on: EdgeUse) -> Outcome {
        let need = on.cost(&self.rules.sr2097.edge);
        let pool = self.edge_pool(c);
        if pool.spend(need).is_none() {
            return Err(RuleError::NoEdgeLeft {
                who: c.name.clone(),
                have: pool.current,
                need,
            });
        }
        self.emit_2097(Sr2097Event::EdgeSpent {
            who: c.id,
            on,
            edge: need,
        });
        Ok(())
    }

    /// Whether the character could pay for one use of Edge (checked before any die is rolled).
    fn can_pay_edge(&mut self, c: &Combatant, on: EdgeUse) -> Outcome {
        let need = on.cost(&self.rules.sr2097.edge);
        let pool = self.edge_pool(c);
        match pool.spend(need) {
            Some(_) => Ok(()),
            None => Err(RuleError::NoEdgeLeft {
                who: c.name.clone(),
                have: pool.current,
                need,
            }),
        }
    }

    // ----- success checks -------------------------------------------------------------------

    #[allow(clippy::too_many_arguments)]
    fn success_check(
        &mut self,
        who: CombatantId,
        tn: &Tn,
        bonus: i32,
        (advantage, disadvantage, edge): (bool, bool, bool),
        typed: Option<&[i32]>,
        drop: Option<i32>,
        dice: &mut dyn Dice,
    ) -> Outcome {
        let c = self.able(who)?;
        let r = self.rules.sr2097.clone();
        let tn = tn.value(&r)?;
        let bonus = bonus_value(bonus, &r)?;
        // A complete failure's Disadvantage weighs on the next check, whatever it is; a
        // significant failure's on the next related one, which only the GM can tell (`dis`).
        let any = c.status(&r.check.any_disadvantage).map(|s| s.name.clone());
        let related = c
            .status(&r.check.related_disadvantage)
            .map(|s| s.name.clone());
        let (tilt, edge_on) = check::tilt(advantage, disadvantage || any.is_some(), edge)
            .ok_or_else(|| Sr2097Error::EdgeWithAdvantage {
                who: c.name.clone(),
            })?;
        let check = Check {
            tn,
            bonus,
            tilt,
            edge: edge_on,
        };
        if edge {
            self.can_pay_edge(&c, EdgeUse::Check)?;
        }
        // Both at once cancel to neither (Edge would have removed the Disadvantage instead).
        let cancelled = advantage && (disadvantage || any.is_some()) && !edge;
        let roll = match typed {
            Some(faces) => check::typed(check, &r, faces, drop).map_err(|e| match e {
                Sr2097Error::DiceCount { need, got, .. } => Sr2097Error::DiceCount {
                    what: match &any {
                        // The Disadvantage a complete failure left is not in the command: say
                        // it counts.
                        Some(status) => format!(
                            "check ({}; that Disadvantage is {}'s status \"{status}\")",
                            check.tilt_text(cancelled),
                            c.name
                        ),
                        None => format!("check ({})", check.tilt_text(cancelled)),
                    },
                    need,
                    got,
                },
                e => e,
            })?,
            None if drop.is_some() => return Err(Sr2097Error::DropNeedsDice.into()),
            None => check::roll(check, &r, dice),
        };
        if edge {
            self.pay_edge(&c, EdgeUse::Check)?;
        }
        let outcome = roll.outcome(&r);
        let verdict = outcome.verdict;
        let attack_dice = if verdict.is_success() {
            damage::mos_dice(outcome.mos, &r)
        } else {
            0
        };
        self.emit_2097(Sr2097Event::Checked {
            who,
            roll,
            outcome,
            attack_dice,
            cancelled,
        });
        let mut used = Vec::new();
        used.extend(any);
        if disadvantage {
            used.extend(related.clone());
        }
        for name in &used {
            self.emit(Event::StatusEnded {
                who,
                name: name.clone(),
                why: StatusEnded::Action,
            });
        }
        let left = match verdict {
            check::Verdict::Failure(check::Band::Significant) => {
                Some(r.check.related_disadvantage.clone())
            }
            check::Verdict::Failure(check::Band::Complete) => {
                Some(r.check.any_disadvantage.clone())
            }
            check::Verdict::Failure(check::Band::Marginal) | check::Verdict::Success(_) => None,
        };
        if let Some(name) = left {
            let held =
                c.status(&name).is_some() && !used.iter().any(|u| u.eq_ignore_ascii_case(&name));
            if !held {
                self.emit(Event::StatusStarted {
                    who,
                    status: ActiveStatus {
                        name,
                        end: StatusEnd::UntilCleared,
                        stacks: 1,
                    },
                });
            }
        }
        Ok(())
    }

    // ----- damage ---------------------------------------------------------------------------

    fn damage_die(&self, sides: i32, count: i32) -> Outcome {
        let die = self.rules.sr2097.damage.die;
        if sides == i32::from(die) {
            Ok(())
        } else {
            Err(Sr2097Error::DamageDie {
                die,
                dice: count,
                sides,
            }
            .into())
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn damage_roll(
        &mut self,
        by: CombatantId,
        target: CombatantId,
        with: &DamageSource,
        mos: Option<i32>,
        edge: bool,
        typed: Option<&[i32]>,
        dice: &mut dyn Dice,
    ) -> Outcome {
        let attacker = self.attacker(by, Attack::Damage)?;
        let victim = self.present(target)?;
        if by == target {
            return Err(Sr2097Error::SelfAttack {
                who: attacker.name,
                target: victim.name,
            }
            .into());
        }
        let r = self.rules.sr2097.clone();
        let resolved = self
            .sheet_2097(by)
            .damage_of(&attacker.name, with, &r.damage)?;
        // The roll follows the attacker's check: a failed one is a miss, whatever MoS is given;
        // a success's MoS counts unless the GM gives another.
        let mos = match (self.sheet_2097(by).to_follow, mos) {
            (Some(check), _) if check < 0 => {
                return Err(Sr2097Error::MissedAttack {
                    who: attacker.name,
                    mos: check,
                }
                .into());
            }
            (_, Some(given)) => given_mos(given, &r)?,
            (check, None) => check.unwrap_or(0),
        };
        let mos_dice = damage::mos_dice(mos, &r);
        let edge_dice = if edge { r.edge.damage_dice } else { 0 };
        if edge {
            self.can_pay_edge(&attacker, EdgeUse::Damage)?;
        }
        let hit = self.through_armor(target, &resolved, mos_dice, edge_dice, typed, dice)?;
        if edge {
            self.pay_edge(&attacker, EdgeUse::Damage)?;
        }
        self.land(&victim, hit, Some((by, resolved.weapon)));
        Ok(())
    }

    /// Damage with no attacker (a fall, fire, a spell cast off-screen): damage from weapons,
    /// spells and the surroundings alike rolls d6 through armor (the text). No check to follow
    /// and no one's Edge to boost it; the GM may give the MoS of a spell's check.
    fn harm(
        &mut self,
        target: CombatantId,
        with: &DamageSource,
        mos: Option<i32>,
        typed: Option<&[i32]>,
        dice: &mut dyn Dice,
    ) -> Outcome {
        let victim = self.present(target)?;
        let r = self.rules.sr2097.clone();
        let resolved = Sr2097Sheet::default().damage_of(&victim.name, with, &r.damage)?;
        let mos = mos.map(|m| given_mos(m, &r)).transpose()?.unwrap_or(0);
        let mos_dice = damage::mos_dice(mos, &r);
        let hit = self.through_armor(target, &resolved, mos_dice, 0, typed, dice)?;
        self.land(&victim, hit, None);
        Ok(())
    }

    /// Rolls (or takes the typed) damage dice and puts their total through the target's armor.
    fn through_armor(
        &mut self,
        target: CombatantId,
        resolved: &DamageDice,
        mos_dice: u8,
        edge_dice: u8,
        typed: Option<&[i32]>,
        dice: &mut dyn Dice,
    ) -> Result<Hit, RuleError> {
        let r = self.rules.sr2097.clone();
        let (base, st) = (resolved.dice, resolved.st);
        let count = base + mos_dice + edge_dice;
        let (faces, from) = match typed {
            Some(t) => {
                if t.len() != usize::from(count) {
                    // Only the parts that roll, as the result line names them.
                    let d = r.damage.die;
                    let mut parts = vec![format!("{base}d{d}")];
                    for (n, what) in [(mos_dice, "the MoS"), (edge_dice, "Edge")] {
                        if n > 0 {
                            parts.push(format!("{n}d{d} for {what}"));
                        }
                    }
                    return Err(Sr2097Error::DiceCount {
                        what: format!("damage roll ({})", parts.join(" + ")),
                        need: usize::from(count),
                        got: t.len(),
                    }
                    .into());
                }
                (check::faces(t, r.damage.die)?, DiceFrom::Typed)
            }
            None => (damage::roll_dice(count, &r, dice), DiceFrom::Rolled),
        };
        let roll = DamageRoll {
            dice: faces,
            base,
            mos_dice,
            edge_dice,
            st,
            from,
        };
        let armor = self.sheet_2097(target).armor;
        let through = damage::through(roll.total(), armor, &r);
        let left = through.left(roll.total());
        let injury = damage::severity(left, &r).map(|severity| Injury {
            damage: left,
            severity,
            track: resolved.track,
            fate: Fate::Open,
        });
        Ok(Hit {
            roll,
            armor,
            through,
            injury,
        })
    }

    /// Records what a damage roll did to its victim, from an attacker (with the weapon it
    /// named, if any) or from none, and downs the victim if the injury is bad enough.
    fn land(&mut self, victim: &Combatant, hit: Hit, by: Option<(CombatantId, Option<String>)>) {
        let Hit {
            roll,
            armor,
            through,
            injury,
        } = hit;
        let target = victim.id;
        self.emit_2097(match by {
            Some((by, weapon)) => Sr2097Event::DamageRolled {
                by,
                target,
                weapon,
                roll,
                armor,
                through,
                injury,
            },
            None => Sr2097Event::Harmed {
                target,
                roll,
                armor,
                through,
                injury,
            },
        });
        self.downed_by(victim, injury);
    }

    /// An injury at `downed_at` or worse downs a character still up.
    fn downed_by(&mut self, victim: &Combatant, injury: Option<Injury>) {
        if injury.is_some_and(|i| i.severity >= self.rules.sr2097.damage.downed_at)
            && !victim.is_downed()
        {
            self.down(victim, DownCause::Injury);
        }
    }

    fn add_weapon_2097(&mut self, who: CombatantId, input: &WeaponInput) -> Outcome {
        let c = self.present(who)?;
        let r = self.rules.sr2097.damage.clone();
        let name = input.name.trim().to_string();
        if name.is_empty() {
            return Err(Sr2097Error::NoWeaponName.into());
        }
        // A weapon's name is shown like a combatant's: the same limits.
        let name = RuleError::check_text("weapon name", &name, self.rules.limits.name_chars)?;
        // Two weapons must not look the same: no character that shows as nothing.
        if let Some(ch) = name.chars().find(|&ch| crate::text::is_invisible(ch)) {
            return Err(RuleError::InvisibleCharacter {
                field: "weapon name",
                code: u32::from(ch),
            });
        }
        if self.sheet_2097(who).weapon(&name).is_some() {
            return Err(Sr2097Error::WeaponTaken {
                who: c.name,
                weapon: name,
            }
            .into());
        }
        self.damage_die(input.sides, input.dice)?;
        let dice = Self::check_range("damage dice", input.dice, r.dice)?;
        let reach = match input.st {
            None => Reach::Melee,
            Some(st) => Reach::Ranged {
                st: u16::try_from(Self::check_range("ST", st, r.st)?).unwrap_or(u16::MAX),
            },
        };
        self.emit_2097(Sr2097Event::WeaponAdded {
            who,
            weapon: Weapon {
                name,
                dice: u8::try_from(dice).unwrap_or(u8::MAX),
                reach,
                track: input.track,
            },
        });
        Ok(())
    }

    // ----- Edge -----------------------------------------------------------------------------

    fn edge_2097(
        &mut self,
        who: CombatantId,
        command: &EdgeCommand,
        dice: &mut dyn Dice,
    ) -> Outcome {
        let c = self.present(who)?;
        let r = self.rules.sr2097.clone();
        let pool = self.edge_pool(&c);
        let sheet = self.sheet_2097(who);
        match command {
            EdgeCommand::Boost { dice: typed } => self.boost(&c, &sheet, typed.as_deref(), dice),
            EdgeCommand::Lessen { injury } => {
                let count = sheet.injuries.len();
                if count == 0 {
                    return Err(Sr2097Error::NoInjury { who: c.name }.into());
                }
                let at = match injury {
                    Some(n) if (1..=count).contains(n) => n - 1,
                    Some(n) => {
                        return Err(Sr2097Error::NoSuchInjury {
                            who: c.name,
                            number: *n,
                            count,
                        }
                        .into());
                    }
                    // The injury that kills, as Edge Burn takes it; else the latest.
                    None => sheet.dying_of(r.edge.burn_at).unwrap_or(count - 1),
                };
                if sheet.injuries[at].fate == Fate::Survived {
                    return Err(Sr2097Error::SurvivedStands {
                        who: c.name,
                        number: at + 1,
                        severity: sheet.injuries[at].severity.word(),
                    }
                    .into());
                }
                let from = sheet.injuries[at].severity;
                let to = edge::lessen(from, &r.edge).ok_or(Sr2097Error::LightestInjury {
                    who: c.name.clone(),
                    number: at + 1,
                    severity: from.word(),
                })?;
                self.pay_edge(&c, EdgeUse::Lessen)?;
                self.emit_2097(Sr2097Event::InjuryLessened {
                    who,
                    injury: at,
                    to,
                });
                // Back up when nothing holds it down any more (another untended injury might).
                if c.downed == Some(DownCause::Injury) {
                    self.lift(who);
                }
                Ok(())
            }
            EdgeCommand::Burn { injury } => {
                let at = self.burned_for(&c, &sheet, *injury)?;
                let burned = pool.burn(&r.edge).ok_or(Sr2097Error::NoEdgeToBurn {
                    who: c.name.clone(),
                    max: pool.max,
                })?;
                self.emit_2097(Sr2097Event::EdgeBurned {
                    who,
                    injury: at,
                    edge: pool.current - burned.current,
                    max: pool.max - burned.max,
                });
                Ok(())
            }
            EdgeCommand::Award(n) => {
                let n = Self::check_range("Edge award", *n, r.edge.award)?;
                let gain = u8::try_from(n).unwrap_or(u8::MAX);
                self.recover(&c, pool, gain, Recovery::Award)
            }
            EdgeCommand::Rest => self.recover(&c, pool, r.edge.rest, Recovery::Rest),
            EdgeCommand::Scenario => {
                let gain = pool.refill().current - pool.current;
                self.recover(&c, pool, gain, Recovery::Scenario)
            }
        }
    }

    /// The injury (an index) an Edge Burn saves: number N if the character is dying of it, else
    /// the latest it is dying of (as Lessen Injury and the Edge menu go to the latest).
    fn burned_for(
        &mut self,
        c: &Combatant,
        sheet: &Sr2097Sheet,
        injury: Option<usize>,
    ) -> Result<usize, RuleError> {
        let burn_at = self.rules.sr2097.edge.burn_at;
        let deadly = |i: &Injury, track| i.track == track && i.severity >= burn_at;
        let count = sheet.injuries.len();
        if let Some(n) = injury {
            let Some(i) = n.checked_sub(1).and_then(|at| sheet.injuries.get(at)) else {
                return Err(Sr2097Error::NoSuchInjury {
                    who: c.name.clone(),
                    number: n,
                    count,
                }
                .into());
            };
            let why = match i.fate {
                _ if deadly(i, Track::Stun) => {
                    return Err(Sr2097Error::StunKillsNoOne {
                        who: c.name.clone(),
                        number: n,
                        severity: i.severity.word(),
                    }
                    .into());
                }
                _ if i.severity < burn_at => format!("it is {}", i.severity.word()),
                Fate::Open => return Ok(n - 1),
                Fate::Survived => "it was survived by Edge Burn".to_string(),
                Fate::Tended => "it was tended".to_string(),
            };
            return Err(Sr2097Error::NotDyingOf {
                who: c.name.clone(),
                number: n,
                why,
            }
            .into());
        }
        if let Some(at) = sheet.dying_of(burn_at) {
            return Ok(at);
        }
        // Injuries of that band that are all Stun kill no one (our ruling): said so, not that
        // none is left.
        let physical = sheet.injuries.iter().any(|i| deadly(i, Track::Physical));
        let stun = sheet.injuries.iter().rposition(|i| deadly(i, Track::Stun));
        Err(match stun.filter(|_| !physical) {
            Some(at) => Sr2097Error::StunKillsNoOne {
                who: c.name.clone(),
                number: at + 1,
                severity: sheet.injuries[at].severity.word(),
            },
            None => Sr2097Error::NothingToBurnFor {
                who: c.name.clone(),
                severity: burn_at.word(),
            },
        }
        .into())
    }

    /// Whether first aid (`up`) may bring `c` back (our ruling): not while a life-threatening
    /// physical injury kills (the text's "outright death"), nor once Edge Burn kept `c` alive:
    /// a medic is needed at once, so out until the ER. A dying injury is told before a survived
    /// one: it is the one to act on, the latest (the one `edge NAME burn` saves), with only the
    /// ways out `c`'s Edge still allows. Nothing outside 2097.
    pub(super) fn first_aid_2097(&mut self, c: &Combatant) -> Outcome {
        let r = self.rules.sr2097.clone();
        let sheet = self.sheet_2097(c.id);
        if let Some(at) = sheet.dying_of(r.edge.burn_at) {
            let pool = self.edge_pool(c);
            return Err(Sr2097Error::Dying {
                who: c.name.clone(),
                number: at + 1,
                severity: sheet.injuries[at].severity.word(),
                way_out: WayOut {
                    burn: pool.burn(&r.edge).is_some(),
                    lessen: pool.spend(EdgeUse::Lessen.cost(&r.edge)).is_some(),
                },
            }
            .into());
        }
        let survived = sheet.injuries.iter().position(|i| {
            i.track == Track::Physical && i.severity >= r.edge.burn_at && i.fate == Fate::Survived
        });
        match survived {
            None => Ok(()),
            Some(at) => Err(Sr2097Error::NeedsMedicalAttention {
                who: c.name.clone(),
                number: at + 1,
            }
            .into()),
        }
    }

    /// Whether 2097's injuries keep `c` Downed: one first aid cannot help, or one at the band
    /// that downs that no coming back up has tended. Nothing outside 2097.
    pub(super) fn injury_holds_2097(&mut self, c: &Combatant) -> bool {
        let downed_at = self.rules.sr2097.damage.downed_at;
        self.first_aid_2097(c).is_err()
            || self
                .sheet_2097(c.id)
                .injuries
                .iter()
                .any(|i| i.fate == Fate::Open && i.severity >= downed_at)
    }

    fn recover(&mut self, c: &Combatant, pool: EdgePool, gain: u8, why: Recovery) -> Outcome {
        if pool.current >= pool.max {
            return Err(Sr2097Error::EdgeFull {
                who: c.name.clone(),
                max: pool.max,
            }
            .into());
        }
        if pool.gain(gain).is_none() {
            return Err(Sr2097Error::AboveMax {
                who: c.name.clone(),
                current: pool.current,
                max: pool.max,
                gain: i32::from(gain),
            }
            .into());
        }
        self.emit_2097(Sr2097Event::EdgeRecovered {
            who: c.id,
            gained: gain,
            why,
        });
        Ok(())
    }

    /// Boost Initiative: +2d6 to the score for the character's next turn (this pass if it is
    /// still to come, else the next pass), where it may go ahead of those it now outscores.
    fn boost(
        &mut self,
        c: &Combatant,
        sheet: &Sr2097Sheet,
        typed: Option<&[i32]>,
        dice: &mut dyn Dice,
    ) -> Outcome {
        let c = self.able(c.id)?;
        // Before `start` (our ruling) a boost is for the first turn of the fight, which it may
        // win: once the fight is on, the first turn is already under way.
        let (round, pass) = if matches!(self.now().phase, Phase::Setup) {
            if c.initiative.is_none() {
                return Err(RuleError::MissingInitiative {
                    names: vec![c.name],
                });
            }
            Fight::FIRST_PASS
        } else {
            let fight = self.fight()?;
            if c.mark.still_to_act() {
                (fight.round, fight.pass)
            } else if fight.pass < self.rules.passes_per_round {
                (fight.round, fight.pass + 1)
            } else {
                (fight.round + 1, 1)
            }
        };
        if sheet.boost_in(round, pass).is_some() {
            return Err(Sr2097Error::AlreadyBoosted {
                who: c.name,
                round,
                pass,
            }
            .into());
        }
        self.can_pay_edge(&c, EdgeUse::Boost)?;
        let r = &self.rules.sr2097;
        let (sides, n) = (r.initiative.die, r.edge.boost_dice);
        let (faces, from) = match typed {
            Some(t) => {
                if t.len() != usize::from(n) {
                    return Err(Sr2097Error::DiceCount {
                        what: "boost".into(),
                        need: usize::from(n),
                        got: t.len(),
                    }
                    .into());
                }
                (check::faces(t, sides)?, DiceFrom::Typed)
            }
            None => ((0..n).map(|_| dice.roll(sides)).collect(), DiceFrom::Rolled),
        };
        self.pay_edge(&c, EdgeUse::Boost)?;
        self.emit_2097(Sr2097Event::InitiativeBoosted {
            who: c.id,
            dice: faces,
            from,
            round,
            pass,
        });
        Ok(())
    }

    // ----- initiative -----------------------------------------------------------------------

    /// Our ruling on a 2097 initiative: Intuition + Reaction is the bonus added to the d6s.
    fn initiative_bonus(sheet: &Sheet) -> u8 {
        sheet.intuition.saturating_add(sheet.reaction)
    }

    /// A 2097 initiative rolled by srtrack: (2 + dice modifier) d6 + Intuition + Reaction.
    pub(super) fn summed_roll(
        rules: &Sr2097Rules,
        sheet: &Sheet,
        dice: &mut dyn Dice,
    ) -> InitiativeRoll {
        let n = rules.initiative_dice(sheet.dice_modifier);
        let faces = (0..n).map(|_| dice.roll(rules.initiative.die)).collect();
        InitiativeRoll::summed(faces, Self::initiative_bonus(sheet), DiceFrom::Rolled)
    }

    fn typed_initiative(
        &mut self,
        target: RollTarget,
        typed: &[i32],
        dice: &mut dyn Dice,
    ) -> Outcome {
        let r = self.rules.sr2097.clone();
        self.roll_each(target, true, dice, |_, c, _| {
            let sheet = &c.sheet;
            let need = usize::from(r.initiative_dice(sheet.dice_modifier));
            if typed.len() != need {
                return Err(Sr2097Error::DiceCount {
                    what: "initiative".into(),
                    need,
                    got: typed.len(),
                }
                .into());
            }
            let faces = check::faces(typed, r.initiative.die)?;
            Ok(InitiativeRoll::summed(
                faces,
                Self::initiative_bonus(sheet),
                DiceFrom::Typed,
            ))
        })
    }

    /// Who takes the next turn when a boost of initiative counts in this pass (our ruling): a
    /// character still to act whose boosted score beats the score of `next` (the order's next)
    /// goes first; the best boosted score first, a tie going by more dice, then higher Edge, else
    /// the order. With it, the event that tells a tie so won over who would have gone instead.
    pub(super) fn boosted_ahead(
        state: &State,
        next: &Combatant,
    ) -> Option<(CombatantId, Option<Sr2097Event>)> {
        let s = state.sr2097.as_ref()?;
        let f = state.fight()?;
        let key = |c: &Combatant| {
            let mut k = state.order_key(c)?;
            if let Some(b) = s.sheet(c.id).boost_in(f.round, f.pass) {
                k.score = k.score.saturating_add(b.sum());
            }
            Some(k)
        };
        let to_beat = key(next)?;
        let mut ahead: Vec<(CombatantId, OrderKey)> = state
            .ordered()
            .filter(|c| c.id != next.id && boosted_score(state, c).is_some())
            .filter_map(|c| key(c).map(|k| (c.id, k)))
            .filter(|(_, k)| k.compare(&to_beat).0 == Ordering::Less)
            .collect();
        // A stable sort: those the keys cannot part keep their order.
        ahead.sort_by(|a, b| a.1.compare(&b.1).0);
        let &(who, won) = ahead.first()?;
        let (over, lost) = ahead.get(1).copied().unwrap_or((next.id, to_beat));
        let by = match won.compare(&lost) {
            (Ordering::Less, Decider::Pool) => Some(TieBreak::Dice {
                won: won.pool,
                lost: lost.pool,
            }),
            (Ordering::Less, Decider::Edge) => Some(TieBreak::Edge {
                dice: won.pool,
                won: won.edge,
                lost: lost.edge,
            }),
            _ => None,
        };
        let told = by.map(|by| Sr2097Event::BoostTieWon {
            who,
            over,
            score: won.score,
            by,
        });
        Some((who, told))
    }
}
