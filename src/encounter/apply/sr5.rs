//! Folding SR5's events: the sheet's weapons, ammunition and armor, each character's last test,
//! Edge spent on tests, and where the attack chain stands.

use crate::encounter::model::{ActionUse, CombatantId, State};
use crate::encounter::system::sr5::{
    Ammo, Defense, EdgeUse, LastTest, PendingAttack, Sr5Event, Stage, TestKind, attack_limit,
    is_attack_action,
};
use crate::rules::sr5::test::counted;
use crate::rules::{Glitch, HouseRules};

impl State {
    fn tested(&mut self, who: CombatantId, kind: TestKind, glitch: Glitch) {
        self.edged(who, kind, glitch, None);
    }

    /// A test, with the Edge used on it as it was rolled (Push the Limit).
    fn edged(&mut self, who: CombatantId, kind: TestKind, glitch: Glitch, edge: Option<EdgeUse>) {
        self.sr5.kit_mut(who).last_test = Some(LastTest {
            kind,
            glitch,
            close_called: false,
            edge,
        });
    }

    fn spend_edge(&mut self, who: CombatantId, edge: u8) {
        if let Some(c) = self.at_mut(who) {
            c.edge_left = c.edge_left.saturating_sub(edge);
        }
    }

    /// The named weapon's ammunition, the weapon taken in hand.
    fn ammo_mut(&mut self, who: CombatantId, weapon: &str) -> Option<&mut Ammo> {
        let i = self.in_hand(who, weapon)?;
        self.sr5.kit_mut(who).weapons[i].ammo.as_mut()
    }

    /// Takes the named weapon in hand if it holds ammunition; returns its index.
    fn in_hand(&mut self, who: CombatantId, weapon: &str) -> Option<usize> {
        let kit = self.sr5.kit_mut(who);
        let (i, w) = kit.weapon(weapon)?;
        if w.ammo.is_some() {
            kit.in_hand = Some(i);
        }
        Some(i)
    }

    pub(super) fn apply_sr5(&mut self, event: &Sr5Event) {
        match event {
            Sr5Event::WeaponAdded { who, weapon } => {
                let kit = self.sr5.kit_mut(*who);
                kit.weapons.push(weapon.clone());
                if weapon.ammo.is_some() {
                    kit.in_hand = Some(kit.weapons.len() - 1);
                }
            }
            Sr5Event::WeaponRemoved { who, weapon } => {
                let kit = self.sr5.kit_mut(*who);
                if let Some((i, _)) = kit.weapon(&weapon.name) {
                    kit.weapons.remove(i);
                    // The hand held it (it holds nothing now) or a weapon after it (one place up).
                    kit.in_hand = match kit.in_hand {
                        Some(h) if h == i => None,
                        Some(h) if h > i => Some(h - 1),
                        h => h,
                    };
                }
            }
            Sr5Event::ArmorSet { who, rating } => self.sr5.kit_mut(*who).armor = Some(*rating),
            Sr5Event::Reloaded {
                who,
                weapon,
                rounds,
            } => {
                if let Some(a) = self.ammo_mut(*who, weapon) {
                    a.left = *rounds;
                    a.clip_out = false;
                }
            }
            Sr5Event::RoundsFired {
                who,
                weapon,
                rounds,
            } => {
                if let Some(a) = self.ammo_mut(*who, weapon) {
                    a.left = a.left.saturating_sub(*rounds);
                }
            }
            Sr5Event::ClipRemoved { who, weapon, .. } => {
                if let Some(a) = self.ammo_mut(*who, weapon) {
                    a.left = 0;
                    a.clip_out = true;
                }
            }
            Sr5Event::Tested {
                who,
                pushed,
                opponent,
                roll,
                ..
            } => {
                let used = pushed.map(|_| EdgeUse::PushTheLimit);
                self.edged(*who, TestKind::Test, roll.glitch, used);
                if let Some((_, edge)) = pushed {
                    self.spend_edge(*who, *edge);
                }
                if let Some(o) = opponent {
                    self.tested(o.who, TestKind::Test, o.roll.glitch);
                }
            }
            Sr5Event::Assisted { who, roll, .. } => {
                self.tested(*who, TestKind::Assist, roll.glitch);
            }
            Sr5Event::CloseCall {
                who, after, edge, ..
            } => {
                if let Some(last) = self.sr5.kit_mut(*who).last_test.as_mut() {
                    last.glitch = *after;
                    last.close_called = true;
                    last.edge = Some(EdgeUse::CloseCall);
                }
                self.spend_edge(*who, *edge);
            }
            Sr5Event::InitiativeCloseCall {
                who, after, edge, ..
            } => {
                for id in who {
                    if let Some(roll) = self.at_mut(*id).and_then(|c| c.initiative.as_mut()) {
                        roll.glitch = *after;
                        roll.close_called = true;
                    }
                }
                if let Some(spender) = who.first() {
                    self.spend_edge(*spender, *edge);
                }
            }
            Sr5Event::AttackDropped { attacker, target } => self
                .sr5
                .pending
                .retain(|p| !(p.attacker == *attacker && p.target == *target)),
            Sr5Event::Attacked {
                attacker,
                target,
                also,
                weapon,
                roll,
                aim,
                pushed,
                ..
            } => {
                let used = pushed.map(|_| EdgeUse::PushTheLimit);
                self.edged(*attacker, TestKind::Attack, roll.glitch, used);
                if let Some(edge) = pushed {
                    self.spend_edge(*attacker, *edge);
                }
                self.in_hand(*attacker, &weapon.name);
                // The attack of the oldest action still waiting: nothing more goes with that one.
                if let Some(i) = self.sr5.unfired.iter().position(|(w, _)| w == attacker) {
                    self.sr5.unfired.remove(i);
                }
                let hits = counted(roll.hits, attack_limit(weapon, *aim, *pushed));
                let targets: Vec<CombatantId> = std::iter::once(*target)
                    .chain(also.iter().copied())
                    .collect();
                // One attack waits at a time: what still waited was dropped before this.
                self.sr5.pending.retain(|p| !targets.contains(&p.target));
                self.sr5
                    .pending
                    .extend(targets.into_iter().map(|target| PendingAttack {
                        attacker: *attacker,
                        target,
                        weapon: weapon.clone(),
                        stage: Stage::Defense { hits },
                    }));
            }
            Sr5Event::Defended {
                target,
                attacker,
                used,
                roll,
                result,
                ..
            } => {
                self.tested(*target, TestKind::Defense, roll.glitch);
                self.sr5
                    .kit_mut(*target)
                    .defense_adds
                    .retain(|a| !used.iter().any(|u| u.eq_ignore_ascii_case(a)));
                let at = self
                    .sr5
                    .pending
                    .iter()
                    .position(|p| p.target == *target && p.attacker == *attacker);
                match (result, at) {
                    (Defense::Hit { dv, .. }, Some(i)) => {
                        self.sr5.pending[i].stage = Stage::Soak { dv: *dv };
                    }
                    (_, Some(i)) => {
                        self.sr5.pending.remove(i);
                    }
                    (_, None) => {}
                }
            }
            Sr5Event::Soaked { target, roll, .. } => {
                self.tested(*target, TestKind::Soak, roll.glitch);
                self.sr5.pending.retain(|p| p.target != *target);
            }
        }
    }

    /// A new round: a Dodge, Block or Parry no defense test used lapses (our ruling: it is
    /// bought against an attack coming now, not kept for a later round), unless an attack on
    /// the character still waits for its defense.
    pub(super) fn sr5_round_started(&mut self) {
        let waiting: Vec<CombatantId> = self.sr5.pending.iter().map(|p| p.target).collect();
        let lapsing: Vec<CombatantId> = self
            .all()
            .map(|c| c.id)
            .filter(|id| !waiting.contains(id))
            .filter(|id| {
                self.sr5
                    .kit(*id)
                    .is_some_and(|k| !k.defense_adds.is_empty())
            })
            .collect();
        for id in lapsing {
            self.sr5.kit_mut(id).defense_adds.clear();
        }
    }

    /// A one-time defense interrupt (Dodge, Block, Parry) waits for the character's next
    /// defense test, and an attack action for its attack. A Shadowrun 2097 fight has no defense
    /// test (its damage roll follows the attacker's check alone): there the interrupt is paid for
    /// and told, and nothing waits.
    pub(super) fn sr5_action_spent(
        &mut self,
        who: CombatantId,
        action: &ActionUse,
        rules: &HouseRules,
    ) {
        if self.sr2097.is_some() {
            return;
        }
        let Some(name) = action.name.as_deref() else {
            return;
        };
        if let Some(d) = rules.sr5.defense_interrupt(name) {
            let name = d.action.clone();
            self.sr5.kit_mut(who).defense_adds.push(name);
        }
        // Each attack action waits for an attack of its own, in the order they were spent. One
        // spent with a firearm in hand owes nothing: its rounds went as it was spent (a
        // `RoundsFired` after it), or it fires none; and that gun stays in hand, so every action
        // after it is paid as it is spent too.
        let armed = self
            .sr5
            .kit(who)
            .and_then(|k| k.firearm_in_hand())
            .is_some_and(|g| g.ammo.is_some());
        if is_attack_action(&rules.sr5, action) && !armed {
            self.sr5.unfired.push((who, action.clone()));
        }
    }

    /// A new character turn: the attack actions of the last one wait for no attack any more.
    pub(super) fn sr5_turn_started(&mut self) {
        self.sr5.unfired.clear();
    }
}
