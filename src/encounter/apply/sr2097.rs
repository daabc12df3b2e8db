//! Folding Shadowrun 2097's events into the state: Edge, injuries, boosts, armor and weapons.
//! Never fails: an event naming no known combatant changes nothing.

use crate::encounter::model::State;
use crate::encounter::system::sr2097::{Boost, Fate, Sr2097Event};

impl State {
    pub(super) fn apply_sr2097(&mut self, event: &Sr2097Event) {
        let who = event.who();
        if self.get(who).is_none() {
            return;
        }
        match event {
            Sr2097Event::EdgeSpent { edge, .. } => {
                if let Some(c) = self.at_mut(who) {
                    c.edge_left = c.edge_left.saturating_sub(*edge);
                }
            }
            Sr2097Event::EdgeRecovered { gained, .. } => {
                if let Some(c) = self.at_mut(who) {
                    c.edge_left = c.edge_left.saturating_add(*gained);
                }
            }
            Sr2097Event::EdgeBurned {
                injury, edge, max, ..
            } => {
                if let Some(c) = self.at_mut(who) {
                    c.edge_left = c.edge_left.saturating_sub(*edge);
                }
                let sheet = self.sr2097_sheet_mut(who);
                if let Some(s) = sheet {
                    s.burned = s.burned.saturating_add(*max);
                    if let Some(i) = s.injuries.get_mut(*injury) {
                        i.fate = Fate::Survived;
                    }
                }
            }
            Sr2097Event::Checked { outcome, .. } => {
                if let Some(s) = self.sr2097_sheet_mut(who) {
                    s.to_follow = Some(outcome.mos);
                }
            }
            Sr2097Event::DamageRolled { by, injury, .. } => {
                if let (Some(injury), Some(s)) = (injury, self.sr2097_sheet_mut(who)) {
                    s.injuries.push(*injury);
                }
                // The check it followed is rolled for.
                if self.get(*by).is_some()
                    && let Some(s) = self.sr2097_sheet_mut(*by)
                {
                    s.to_follow = None;
                }
            }
            Sr2097Event::Harmed { injury, .. } => {
                if let (Some(injury), Some(s)) = (injury, self.sr2097_sheet_mut(who)) {
                    s.injuries.push(*injury);
                }
            }
            Sr2097Event::InjuryLessened { injury, to, .. } => {
                if let Some(i) = self
                    .sr2097_sheet_mut(who)
                    .and_then(|s| s.injuries.get_mut(*injury))
                {
                    i.severity = *to;
                }
            }
            Sr2097Event::InitiativeBoosted {
                dice, round, pass, ..
            } => {
                if let Some(s) = self.sr2097_sheet_mut(who) {
                    s.boost = Some(Boost {
                        dice: dice.clone(),
                        round: *round,
                        pass: *pass,
                    });
                }
            }
            Sr2097Event::ArmorSet { armor, .. } => {
                if let Some(s) = self.sr2097_sheet_mut(who) {
                    s.armor = Some(*armor);
                }
            }
            Sr2097Event::StrengthSet { strength, .. } => {
                if let Some(s) = self.sr2097_sheet_mut(who) {
                    s.strength = Some(*strength);
                }
            }
            Sr2097Event::WeaponAdded { weapon, .. } => {
                if let Some(s) = self.sr2097_sheet_mut(who) {
                    s.weapons.push(weapon.clone());
                }
            }
            Sr2097Event::WeaponRemoved { name, .. } => {
                if let Some(s) = self.sr2097_sheet_mut(who) {
                    s.weapons.retain(|w| !w.name.eq_ignore_ascii_case(name));
                }
            }
            // A tie told, not a change: the boost already counts in this pass.
            Sr2097Event::BoostTieWon { .. } => {}
        }
    }

    /// A new turn of `who`'s own, a new attack: its earlier check is no longer followed.
    pub(super) fn sr2097_turn_started(&mut self, who: crate::encounter::CombatantId) {
        if let Some(s) = self.sr2097.as_mut()
            && s.sheet(who).to_follow.is_some()
        {
            s.sheet_mut(who).to_follow = None;
        }
    }

    /// Back up: every injury the character came back from is tended, and downs it no more.
    pub(super) fn sr2097_revived(&mut self, who: crate::encounter::CombatantId) {
        if let Some(s) = self.sr2097.as_mut()
            && s.sheet(who).injuries.iter().any(|i| i.fate == Fate::Open)
        {
            for i in &mut s.sheet_mut(who).injuries {
                if i.fate == Fate::Open {
                    i.fate = Fate::Tended;
                }
            }
        }
    }

    /// A new round: no check made before it is followed.
    pub(super) fn sr2097_round_started(&mut self) {
        let ids: Vec<_> = self.all().map(|c| c.id).collect();
        for id in ids {
            self.sr2097_turn_started(id);
        }
    }

    fn sr2097_sheet_mut(
        &mut self,
        id: crate::encounter::CombatantId,
    ) -> Option<&mut crate::encounter::system::sr2097::Sr2097Sheet> {
        self.sr2097.as_mut().map(|s| s.sheet_mut(id))
    }
}
