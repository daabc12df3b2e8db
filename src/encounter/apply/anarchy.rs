//! Folding Shadowrun: Anarchy's events into the table. Never fails: `decide` checked them.

use std::sync::Arc;

use crate::encounter::model::{Phase, State, StatusEnd};
use crate::encounter::system::anarchy::{
    Amp, AnarchyEvent, Boxes, Closed, ClosedTest, Gear, GmSpend, Narration, NarrationTurn,
    Narrator, OpenTest, Player, Slot, Stage,
};
use crate::rules::anarchy::narration::{Movements, TurnOrder};
use crate::rules::anarchy::test::Edge;

impl State {
    fn table_mut(&mut self) -> Option<&mut Narration> {
        match &mut self.phase {
            Phase::Narration(n) => Some(n),
            _ => None,
        }
    }

    pub(super) fn apply_anarchy(&mut self, event: &AnarchyEvent) {
        if let AnarchyEvent::SessionBegan { gm_points } = event {
            self.phase = Phase::Narration(Narration::new(*gm_points));
            return;
        }
        if let AnarchyEvent::Tested {
            who, edge_spent, ..
        } = event
            && let Some(c) = self.combatants.get_mut(who.index()).map(Arc::make_mut)
        {
            c.edge_left = c.edge_left.saturating_sub(*edge_spent);
        }
        if let AnarchyEvent::EdgeRegained { who, edge } | AnarchyEvent::EdgeGiven { who, edge } =
            event
            && let Some(c) = self.combatants.get_mut(who.index()).map(Arc::make_mut)
        {
            c.edge_left = c.edge_left.saturating_add(*edge).min(c.sheet.edge);
        }
        if let AnarchyEvent::NarrationStarted { who, .. } = event {
            let serial = self.table_mut().map_or(0, |n| n.narrations + 1);
            // Statuses "until the end of their next turn" end with this narration.
            if let Some(c) = self.combatants.get_mut(who.index()).map(Arc::make_mut) {
                for s in &mut c.statuses {
                    if s.end == StatusEnd::EndOfNextTurn {
                        s.end = StatusEnd::EndOfTurn { serial };
                    }
                }
            }
        }
        let is_player = |state: &State, who| {
            state
                .get(who)
                .is_some_and(|c| c.side == crate::encounter::Side::Pc)
        };
        let on_player = match event {
            AnarchyEvent::GmSpent { on: Some(who), .. } if is_player(self, *who) => Some(*who),
            _ => None,
        };
        let Some(n) = self.table_mut() else { return };
        n.fold(event, on_player);
    }
}

impl Narration {
    fn player_mut(&mut self, who: crate::encounter::CombatantId) -> Option<&mut Player> {
        self.players.iter_mut().find(|p| p.who == who)
    }

    fn turn_mut(&mut self) -> Option<&mut NarrationTurn> {
        match &mut self.stage {
            Stage::Turn(t) => Some(t),
            Stage::Between { .. } => None,
        }
    }

    fn fold(&mut self, event: &AnarchyEvent, gm_on_player: Option<crate::encounter::CombatantId>) {
        match event {
            AnarchyEvent::SessionBegan { .. }
            | AnarchyEvent::EdgeRegained { .. }
            | AnarchyEvent::EdgeGiven { .. } => {}
            AnarchyEvent::Seated { who, plot_points } => {
                self.players.push(Player {
                    who: *who,
                    plot_points: *plot_points,
                    cues: Vec::new(),
                });
                if !self.seating.contains(who) {
                    self.seating.push(*who);
                }
            }
            AnarchyEvent::SeatingSet { seating } => self.seating.clone_from(seating),
            AnarchyEvent::JoinedTurn { who } => {
                if let Some(t) = self.turn_mut()
                    && !t.order.contains(who)
                {
                    t.order.push(*who);
                }
            }
            AnarchyEvent::SheetSet {
                who,
                armor,
                matrix,
                amp,
            } => {
                let gear = match self.gear.iter_mut().find(|g| g.who == *who) {
                    Some(g) => g,
                    None => {
                        self.gear.push(Gear {
                            who: *who,
                            armor: Boxes::default(),
                            matrix: Boxes::default(),
                            amp: Amp::default(),
                        });
                        let last = self.gear.len() - 1;
                        &mut self.gear[last]
                    }
                };
                gear.armor.size = *armor;
                gear.armor.damage = gear.armor.damage.min(*armor);
                gear.matrix.size = *matrix;
                gear.matrix.damage = gear.matrix.damage.min(*matrix);
                gear.amp = *amp;
            }
            AnarchyEvent::TurnBegan { turn, order, how } => {
                self.turn = *turn;
                self.stage = Stage::Turn(NarrationTurn {
                    order: order.clone(),
                    how: *how,
                    done: Vec::new(),
                    narrator: None,
                });
            }
            AnarchyEvent::NarrationStarted { who, slot } => {
                // The dice of the narration before are picked up.
                self.open_tests.clear();
                self.closed_tests.clear();
                self.revenged.clear();
                self.narrations += 1;
                let serial = self.narrations;
                if let Some(t) = self.turn_mut() {
                    t.narrator = Some(Narrator {
                        who: *who,
                        serial,
                        slot: *slot,
                        movements: Movements::Usual,
                        tested: false,
                    });
                }
            }
            AnarchyEvent::NarrationSkipped { who } => {
                if let Some(t) = self.turn_mut() {
                    t.done.push(*who);
                }
            }
            AnarchyEvent::NarrationEnded { who } => {
                self.open_tests.clear();
                self.closed_tests.clear();
                self.revenged.clear();
                if let Some(t) = self.turn_mut() {
                    t.narrator = None;
                    t.done.push(*who);
                }
            }
            AnarchyEvent::TurnEnded { .. } => {
                self.stage = Stage::Between {
                    next: TurnOrder::Seating,
                };
                self.gm_spends.clear();
            }
            AnarchyEvent::OrderChosen { how, points } => {
                self.gm_points = self.gm_points.saturating_sub(u32::from(*points));
                self.gm_spends.push(GmSpend {
                    points: *points,
                    on_player: None,
                });
                self.stage = Stage::Between { next: *how };
            }
            AnarchyEvent::Awarded {
                who,
                points,
                reason,
            } => {
                if let Some(p) = self.player_mut(*who) {
                    p.plot_points = p.plot_points.saturating_add(*points);
                    if let crate::encounter::system::anarchy::AwardReason::Cue(cue) = reason {
                        p.cues.push(cue.clone());
                    }
                }
            }
            AnarchyEvent::Spent {
                who,
                points,
                gm_gained,
                ..
            } => {
                if let Some(p) = self.player_mut(*who) {
                    p.plot_points = p.plot_points.saturating_sub(*points);
                }
                self.gm_points = self.gm_points.saturating_add(*gm_gained);
            }
            AnarchyEvent::GmSpent { points, .. } => {
                self.gm_points = self.gm_points.saturating_sub(u32::from(*points));
                self.gm_spends.push(GmSpend {
                    points: *points,
                    on_player: gm_on_player,
                });
            }
            AnarchyEvent::GlitchDieReady { who } => self.glitch_dice.push(*who),
            AnarchyEvent::DoubleTime { who } => {
                if let Some(n) = self.turn_mut().and_then(|t| t.narrator.as_mut())
                    && n.who == *who
                {
                    n.movements = Movements::DoubleTime;
                }
            }
            AnarchyEvent::Revenged { who } => self.revenged.push(*who),
            AnarchyEvent::FlashbackNarrated { who } => {
                if let Some(n) = self.turn_mut().and_then(|t| t.narrator.as_mut())
                    && n.who == *who
                {
                    n.slot = Slot::Flashback;
                }
            }
            AnarchyEvent::Tested {
                who,
                spec,
                roll,
                edge_spent,
                rerolled,
                ..
            } => {
                if spec.glitch_die && !rerolled {
                    self.glitch_dice.retain(|x| x != who);
                }
                // Its last test replaces what Edge could take up of an earlier one; a test
                // Edge was spent on (or declared on, with nothing to roll again) is closed, and
                // why is kept for the refusal (one Edge a test).
                self.open_tests.retain(|t| t.who != *who);
                self.closed_tests.retain(|t| t.who != *who);
                let closed = match spec.edge {
                    _ if *rerolled => Some(Closed::Rerolled),
                    Edge::None => None,
                    Edge::Before => Some(Closed::EdgeBefore),
                    Edge::After if *edge_spent == 0 => Some(Closed::AllHit),
                    Edge::After => Some(Closed::Rerolled),
                };
                match closed {
                    Some(why) => self.closed_tests.push(ClosedTest { who: *who, why }),
                    None => self.open_tests.push(OpenTest {
                        who: *who,
                        spec: *spec,
                        roll: roll.clone(),
                    }),
                }
                // The narrator's own test: too late for its narration to be a Flashback.
                if let Some(n) = self.turn_mut().and_then(|t| t.narrator.as_mut())
                    && n.who == *who
                {
                    n.tested = true;
                }
            }
            AnarchyEvent::GearDamaged { who, track, boxes } => {
                if let Some(g) = self.gear.iter_mut().find(|g| g.who == *who) {
                    let b = g.track_mut(*track);
                    b.damage = b.damage.saturating_add(*boxes).min(b.size);
                }
            }
            AnarchyEvent::GearRepaired { who, track, boxes } => {
                if let Some(g) = self.gear.iter_mut().find(|g| g.who == *who) {
                    let b = g.track_mut(*track);
                    b.damage = b.damage.saturating_sub(*boxes);
                }
            }
        }
    }
}
