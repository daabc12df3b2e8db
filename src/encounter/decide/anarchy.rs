//! Shadowrun: Anarchy's rules of the table: narrations in seating order, Shake It Up, the GM's
//! order changes, Plot Points for players and the GM with their limits, the menu of spends and
//! what each leaves behind, Anarchy tests, Cooldowns and gear tracks.

use super::{Draft, Outcome};
use crate::encounter::error::RuleError;
use crate::encounter::event::{Event, StatusEnded};
use crate::encounter::model::{ActiveStatus, Combatant, CombatantId, Side, StatusEnd};
use crate::encounter::system::anarchy::{
    self as table, AnarchyCommand, AnarchyEvent, AnarchyRefusal, AwardReason, Closed, Condition,
    Gear, GearTrack, Narration, OrderChange, Slot, SpendInput, Stage, TestInput, TypedDice,
};
use crate::rules::Dice;
use crate::rules::anarchy::narration::{self, Movements, TurnOrder};
use crate::rules::anarchy::test::{self, Edge};
use crate::rules::anarchy::{GmUse, SpendCost, SpendDef, SpendEffect, Switch, plot};

/// How a Cooldown's status begins: "Cooldown: Ares Predator".
const COOLDOWN: &str = "Cooldown: ";

/// Who pays for a narration out of turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Paid {
    /// `narrate NAME`: Shake It Up, paid by the player (or the GM for an NPC) unless the seat
    /// comes next anyway.
    ByNarrate,
    /// A Shake It Up already paid for (by the player or the GM): it must be out of turn.
    Spent,
    /// A Flashback, already paid: the player's narration, at the seat if it comes next.
    Flashback,
}

/// A spend resolved against the menu: what it is, what it costs, the words that follow it.
struct Resolved {
    def: SpendDef,
    points: u8,
    /// The words after the spend's name (and Montage's number), then those after `on NAME`:
    /// the spend's argument (a track, a thing, a twist's words).
    text: String,
    /// The words after the colon.
    note: String,
}

impl Draft<'_> {
    fn said(&mut self, event: AnarchyEvent) {
        self.emit(Event::Anarchy(event));
    }

    pub(super) fn anarchy(&mut self, command: AnarchyCommand, dice: &mut dyn Dice) -> Outcome {
        self.open_table();
        match command {
            AnarchyCommand::Narrate { who: None } => self.next_narration(),
            AnarchyCommand::Narrate { who: Some(who) } => self.out_of_turn(who, Paid::ByNarrate),
            AnarchyCommand::Seat { seating } => self.seat(&seating),
            AnarchyCommand::Sheet {
                who,
                armor,
                matrix,
                amp,
            } => self.gear_sheet(who, armor, matrix, amp),
            AnarchyCommand::Award { who, reason } => self.award(who, reason),
            AnarchyCommand::Spend { who, spend } => self.player_spend(who, &spend),
            AnarchyCommand::GmSpend { spend } => self.gm_spend(&spend),
            AnarchyCommand::GmOrder { change } => self.gm_order(change, dice),
            AnarchyCommand::Test {
                who,
                test,
                dice: typed,
            } => self.anarchy_test(who, &test, typed.as_ref(), dice),
            AnarchyCommand::Cooldown { things } => {
                // Each in turn, on the state the ones before left: the same thing twice is
                // refused, and a refusal of any one changes nothing.
                for (who, thing) in things {
                    self.present(who)?;
                    let thing = table::text("the thing on Cooldown", &thing, &self.rules.anarchy)?;
                    self.cooldown(who, &thing)?;
                }
                Ok(())
            }
            AnarchyCommand::Damage { who, track, boxes } => self.gear_damage(who, track, boxes),
            AnarchyCommand::Repair { who, track, boxes } => self.gear_repair(who, track, boxes),
            AnarchyCommand::RegainEdge { who, edge } => self.regain_edge(who, edge),
            AnarchyCommand::EdgeAfter { who, dice: typed } => {
                self.edge_after(who, typed.as_deref(), dice)
            }
        }
    }

    // ----- the table ---------------------------------------------------------------------------

    /// The first Anarchy command opens the table: the GM's pool starts, the players sit down.
    fn open_table(&mut self) {
        if matches!(self.now().phase, crate::encounter::Phase::Setup) {
            let gm_points = u32::from(self.rules.anarchy.plot_points.gm_start);
            self.said(AnarchyEvent::SessionBegan { gm_points });
            self.seat_players();
        }
    }

    fn table(&mut self) -> Narration {
        self.now()
            .narration()
            .cloned()
            .unwrap_or_else(|| Narration::new(0))
    }

    /// Player characters not yet at the table take a seat with their starting Plot Points
    /// (after `add` and `edit`; nothing happens outside a narration game).
    pub(super) fn seat_players(&mut self) {
        let start = self.rules.anarchy.plot_points.player_start;
        let state = self.now();
        let Some(n) = state.narration() else { return };
        let newcomers: Vec<CombatantId> = state
            .present()
            .filter(|c| c.side == Side::Pc && n.player(c.id).is_none())
            .map(|c| c.id)
            .collect();
        // Every player gets to narrate its character's actions in each turn: one
        // seated while a turn is under way narrates in it, at its end.
        let mid_turn = n.turn_state().is_some();
        for who in newcomers {
            self.said(AnarchyEvent::Seated {
                who,
                plot_points: start,
            });
            if mid_turn {
                self.said(AnarchyEvent::JoinedTurn { who });
            }
        }
    }

    /// A narrator who leaves the encounter or goes Downed ends the narration (its statuses
    /// "until turn" too); the next `narrate` gives the next seat its narration.
    pub(super) fn narration_leaves(&mut self, who: CombatantId) {
        let narrator = self.now().narration().and_then(|n| n.narrator().copied());
        if narrator.is_some_and(|n| n.who == who) {
            self.end_narration();
        }
    }

    fn is_player(&mut self, who: CombatantId) -> bool {
        self.now()
            .get(who)
            .is_some_and(|c| c.is_present() && c.side == Side::Pc)
    }

    /// The players at the table now: what the GM's turn limit counts.
    fn players_present(&mut self) -> u32 {
        let state = self.now();
        let n = state.narration();
        let count = state
            .present()
            .filter(|c| c.side == Side::Pc && n.is_some_and(|n| n.player(c.id).is_some()))
            .count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    fn seat(&mut self, seating: &[CombatantId]) -> Outcome {
        let mut seen = Vec::new();
        for id in seating {
            let c = self.present(*id)?;
            if seen.contains(id) {
                return Err(AnarchyRefusal::SeatedTwice { who: c.name }.into());
            }
            seen.push(*id);
        }
        let missing: Vec<String> = self
            .now()
            .present()
            .filter(|c| c.side == Side::Pc && !seen.contains(&c.id))
            .map(|c| c.name.clone())
            .collect();
        if !missing.is_empty() {
            return Err(AnarchyRefusal::SeatingMissing {
                missing: missing.join(", "),
            }
            .into());
        }
        self.said(AnarchyEvent::SeatingSet { seating: seen });
        Ok(())
    }

    /// The GM gives Edge back, 1 to what the sheet's Edge leaves room for: the text's only
    /// other way back is "Interesting Times", and a twist is not always a complication.
    fn regain_edge(&mut self, who: CombatantId, edge: i32) -> Outcome {
        let c = self.present(who)?;
        let room = c.sheet.edge.saturating_sub(c.edge_left);
        if room == 0 {
            return Err(AnarchyRefusal::EdgeFull {
                who: c.name,
                max: c.sheet.edge,
            }
            .into());
        }
        let range = crate::rules::house::Range {
            min: 1,
            max: i32::from(room),
        };
        let edge = table::counted("Edge regained", edge, "", range)?;
        self.said(AnarchyEvent::EdgeGiven { who, edge });
        Ok(())
    }

    fn gear_sheet(
        &mut self,
        who: CombatantId,
        armor: Option<i32>,
        matrix: Option<i32>,
        amp: Option<table::Amp>,
    ) -> Outcome {
        let c = self.present(who)?;
        // A Shadow Amp's bonus is a Plot Point, and Plot Points are the players'.
        if amp == Some(table::Amp::BonusPlotPoint) && c.side != Side::Pc {
            return Err(AnarchyRefusal::NotAPlayer { who: c.name }.into());
        }
        let rules = &self.rules.anarchy;
        let armor = armor
            .map(|a| table::boxes("Armor boxes", a, rules))
            .transpose()?;
        let matrix = matrix
            .map(|m| table::boxes("Matrix boxes", m, rules))
            .transpose()?;
        let n = self.table();
        let was = n.gear_of(who).copied();
        // The Amp's point is due when combat starts (the first turn): switched on later,
        // it would give nothing, so it is refused rather than shown as if it would pay.
        let had = was.is_some_and(|g| g.amp == table::Amp::BonusPlotPoint);
        if amp == Some(table::Amp::BonusPlotPoint) && !had && n.turn > 0 {
            return Err(AnarchyRefusal::AmpTooLate { who: c.name }.into());
        }
        // Switching off what is not there, and nothing else, would be an undo step that
        // changed nothing.
        if amp == Some(table::Amp::None) && !had && armor.is_none() && matrix.is_none() {
            return Err(AnarchyRefusal::NoAmp { who: c.name }.into());
        }
        self.said(AnarchyEvent::SheetSet {
            who,
            armor: armor.or(was.map(|g| g.armor.size)).unwrap_or(0),
            matrix: matrix.or(was.map(|g| g.matrix.size)).unwrap_or(0),
            amp: amp.or(was.map(|g| g.amp)).unwrap_or_default(),
        });
        Ok(())
    }

    // ----- narrations ------------------------------------------------------------------------

    /// The seating, without those who left the encounter.
    fn seated(&mut self, n: &Narration) -> Vec<CombatantId> {
        let state = self.now();
        n.seating
            .iter()
            .copied()
            .filter(|id| state.get(*id).is_some_and(Combatant::is_present))
            .collect()
    }

    /// Begins the next turn if none is under way: its order from the seating as the GM chose.
    fn open_turn(&mut self) -> Outcome {
        let n = self.table();
        let Stage::Between { next } = n.stage else {
            return Ok(());
        };
        let seated = self.seated(&n);
        if seated.is_empty() {
            return Err(AnarchyRefusal::NobodySeated.into());
        }
        let state = self.now();
        if seated
            .iter()
            .all(|id| state.get(*id).is_some_and(Combatant::is_downed))
        {
            return Err(AnarchyRefusal::NobodyCanNarrate.into());
        }
        let turn = n.turn + 1;
        self.said(AnarchyEvent::TurnBegan {
            turn,
            order: narration::order(&seated, next),
            how: next,
        });
        if turn == 1 {
            self.amp_bonuses(&n);
        }
        Ok(())
    }

    /// Shadow Amps' bonus Plot Points, due when combat starts: the first turn.
    fn amp_bonuses(&mut self, n: &Narration) {
        let rules = self.rules.anarchy.plot_points;
        for p in &n.players {
            let amp = n.gear_of(p.who).map(|g| g.amp);
            if amp == Some(table::Amp::BonusPlotPoint) {
                // At the cap the point is lost: an award of none says so in the log.
                let points = plot::amp_bonus(p.plot_points, &rules);
                self.said(AnarchyEvent::Awarded {
                    who: p.who,
                    points,
                    reason: AwardReason::ShadowAmp,
                });
            }
        }
    }

    /// Ends the narration under way, if any, with the statuses that last until its end.
    fn end_narration(&mut self) {
        let Some(narrator) = self.table().narrator().copied() else {
            return;
        };
        self.expire_turn_statuses(narrator.serial);
        self.said(AnarchyEvent::NarrationEnded { who: narrator.who });
    }

    /// Who narrates next at their seat: Downed ones on the way are skipped. `None`: nobody is left.
    fn next_seat(&mut self) -> Option<CombatantId> {
        let n = self.table();
        let t = n.turn_state()?;
        let state = self.now();
        t.order.iter().copied().find(|id| {
            !t.done.contains(id)
                && t.narrator.is_none_or(|x| x.who != *id)
                && state
                    .get(*id)
                    .is_some_and(|c| c.is_present() && !c.is_downed())
        })
    }

    /// Skips the Downed seats before `upto` that have not narrated.
    fn skip_downed_before(&mut self, upto: Option<CombatantId>) {
        let n = self.table();
        let Some(t) = n.turn_state() else { return };
        let state = self.now();
        let mut skipped = Vec::new();
        for id in &t.order {
            if Some(*id) == upto {
                break;
            }
            let downed = state
                .get(*id)
                .is_some_and(|c| c.is_present() && c.is_downed());
            if downed && !t.done.contains(id) {
                skipped.push(*id);
            }
        }
        for who in skipped {
            self.said(AnarchyEvent::NarrationSkipped { who });
        }
    }

    /// `narrate`: the narration under way ends and the next seat narrates; after the last, the
    /// turn ends (Cooldowns and statuses "until round" with it); the next `narrate` begins a turn.
    fn next_narration(&mut self) -> Outcome {
        self.next_narration_as(Slot::Seat)
    }

    fn next_narration_as(&mut self, slot: Slot) -> Outcome {
        let n = self.table();
        let under_way = matches!(n.stage, Stage::Turn(_));
        if !under_way {
            self.open_turn()?;
        }
        self.end_narration();
        let next = self.next_seat();
        self.skip_downed_before(next);
        match next {
            Some(who) => self.said(AnarchyEvent::NarrationStarted { who, slot }),
            None => self.end_narration_turn(),
        }
        Ok(())
    }

    fn end_narration_turn(&mut self) {
        let turn = self.table().turn;
        // An Anarchy turn is what a round is to the initiative machine.
        self.expire_statuses(StatusEnd::EndOfRound, StatusEnded::RoundEnded);
        self.said(AnarchyEvent::TurnEnded { turn });
    }

    /// `who` narrates now, out of the seating order (Shake It Up).
    fn out_of_turn(&mut self, who: CombatantId, paid: Paid) -> Outcome {
        let c = self.able(who)?;
        self.open_turn()?;
        let n = self.table();
        if n.narrator().is_some_and(|x| x.who == who) {
            return Err(AnarchyRefusal::NarratingNow { who: c.name }.into());
        }
        if n.has_narrated(who) {
            return Err(AnarchyRefusal::AlreadyNarrated { who: c.name }.into());
        }
        // The seat that comes next anyway is no Shake It Up.
        if self.next_seat() == Some(who) {
            if paid == Paid::Spent {
                return Err(AnarchyRefusal::NextAnyway { who: c.name }.into());
            }
            // A Flashback's narration is paid already: it is no free seat taken by name.
            let slot = if paid == Paid::Flashback {
                Slot::Flashback
            } else {
                Slot::NextAnyway
            };
            return self.next_narration_as(slot);
        }
        if paid == Paid::ByNarrate {
            let def = self.menu_item(SpendEffect::ShakeItUp)?;
            let points = Self::fixed_cost(&def);
            if c.side == Side::Pc {
                self.pay_player(&c, &def, points, None, None)?;
            } else {
                self.pay_gm(&def, points, Some(who), None)?;
            }
        }
        self.end_narration();
        let slot = if paid == Paid::Flashback {
            Slot::Flashback
        } else {
            Slot::OutOfTurn
        };
        self.said(AnarchyEvent::NarrationStarted { who, slot });
        Ok(())
    }

    // ----- Plot Points -----------------------------------------------------------------------

    fn player(&mut self, who: CombatantId) -> Result<(Combatant, u8), RuleError> {
        let c = self.present(who)?;
        if c.side != Side::Pc {
            return Err(AnarchyRefusal::NotAPlayer { who: c.name }.into());
        }
        let points = self.table().player(who).map_or(0, |p| p.plot_points);
        Ok((c, points))
    }

    fn award(&mut self, who: CombatantId, reason: AwardReason) -> Outcome {
        let (c, have) = self.player(who)?;
        let rules = &self.rules.anarchy;
        let reason = match reason {
            AwardReason::Cue(cue) => {
                let cue = table::text("the Cue", &cue, rules)?;
                // The same Cue, whatever its case or the sentence's end typed after it.
                let bare = |s: &str| s.trim_end_matches(['.', '!', '?', '…', ' ']).to_lowercase();
                let seen = self
                    .table()
                    .player(who)
                    .is_some_and(|p| p.cues.iter().any(|x| bare(x) == bare(&cue)));
                if seen {
                    return Err(AnarchyRefusal::CueRepeated { who: c.name, cue }.into());
                }
                AwardReason::Cue(cue)
            }
            AwardReason::Disposition(d) => {
                AwardReason::Disposition(table::text("the Disposition", &d, rules)?)
            }
            // A bare number is a count typed where the reason goes (`pp Ana award 2`): awards
            // come one at a time, so it would give one point "for 2".
            AwardReason::Other(o) if crate::text::int_word(o.trim()).is_some() => {
                return Err(AnarchyRefusal::AwardCount {
                    who: c.name,
                    count: o.trim().to_string(),
                }
                .into());
            }
            AwardReason::Other(o) => AwardReason::Other(table::text("the reason", &o, rules)?),
            r @ (AwardReason::Unsaid | AwardReason::ShadowAmp) => r,
        };
        let now = plot::award(have, &rules.plot_points)
            .map_err(|l| AnarchyRefusal::of_limit(l, &c.name, "an award"))?;
        self.said(AnarchyEvent::Awarded {
            who,
            points: now - have,
            reason,
        });
        Ok(())
    }

    fn menu_item(&self, effect: SpendEffect) -> Result<SpendDef, RuleError> {
        self.rules
            .anarchy
            .spends
            .iter()
            .find(|s| s.effect == effect)
            .cloned()
            .ok_or_else(|| {
                AnarchyRefusal::UnknownSpend {
                    word: format!("{effect:?}"),
                    menu: self.menu_names(),
                }
                .into()
            })
    }

    fn menu_names(&self) -> String {
        let names: Vec<&str> = self
            .rules
            .anarchy
            .spends
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        names.join(", ")
    }

    fn fixed_cost(def: &SpendDef) -> u8 {
        match def.cost {
            SpendCost::Points(p) => p,
            SpendCost::Chosen => 1,
        }
    }

    /// The spend the first words name (the longest name wins), and how many words name it.
    fn find_spend(&self, spend: &SpendInput) -> Result<(SpendDef, usize), RuleError> {
        let words: Vec<&str> = spend.words.split_whitespace().collect();
        let found = (1..=words.len()).rev().find_map(|k| {
            self.rules
                .anarchy
                .spend(&words[..k].join(" "))
                .map(|d| (d.clone(), k))
        });
        found.ok_or_else(|| {
            AnarchyRefusal::UnknownSpend {
                word: spend.words.trim().to_string(),
                menu: self.menu_names(),
            }
            .into()
        })
    }

    /// The least a spend can cost: its price, or the smallest Montage.
    fn least_cost(&self, def: &SpendDef) -> u8 {
        match def.cost {
            SpendCost::Points(p) => p,
            SpendCost::Chosen => u8::try_from(self.rules.anarchy.limits.montage.min).unwrap_or(1),
        }
    }

    /// A spend found by [`Self::find_spend`], with its cost and the words that follow its name.
    fn resolve_spend(
        &self,
        spend: &SpendInput,
        def: SpendDef,
        k: usize,
    ) -> Result<Resolved, RuleError> {
        let words: Vec<&str> = spend.words.split_whitespace().collect();
        let mut rest = &words[k.min(words.len())..];
        let points = match def.cost {
            SpendCost::Points(p) => p,
            SpendCost::Chosen => {
                let Some(x) = rest.first().and_then(|w| crate::text::int_word(w)) else {
                    return Err(AnarchyRefusal::SpendNeeds {
                        what: def.name.clone(),
                        need: "the Plot Points it costs",
                        example: format!("pp NAME spend {} 3", def.name.to_lowercase()),
                    }
                    .into());
                };
                rest = &rest[1..];
                let range = self.rules.anarchy.limits.montage;
                table::counted("a Montage of", x, " Plot Points", range)?
            }
        };
        let mut text = rest.join(" ");
        if !spend.rest.trim().is_empty() {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(spend.rest.trim());
        }
        Ok(Resolved {
            def,
            points,
            text,
            note: spend.note.trim().to_string(),
        })
    }

    /// The note of a spend that takes no argument: words before the colon are refused (they
    /// would be taken for a note silently, `live dangerously live dangerously`).
    fn only_note(&self, r: &Resolved) -> Result<Option<String>, RuleError> {
        if !r.text.trim().is_empty() {
            return Err(AnarchyRefusal::SpendExtra {
                what: r.def.name.clone(),
                extra: r.text.trim().to_string(),
            }
            .into());
        }
        self.note(&r.note)
    }

    /// The note a spend carries, checked; `None` when no words were given.
    fn note(&self, text: &str) -> Result<Option<String>, RuleError> {
        if text.trim().is_empty() {
            return Ok(None);
        }
        Ok(Some(table::text("the note", text, &self.rules.anarchy)?))
    }

    /// A player pays: Plot Points out, the GM's pool in, Edge back for a complication.
    fn pay_player(
        &mut self,
        c: &Combatant,
        def: &SpendDef,
        points: u8,
        on: Option<CombatantId>,
        note: Option<String>,
    ) -> Outcome {
        let have = self.table().player(c.id).map_or(0, |p| p.plot_points);
        plot::afford(u32::from(have), u32::from(points))
            .map_err(|l| AnarchyRefusal::of_limit(l, &c.name, &def.name))?;
        let rules = self.rules.anarchy.clone();
        self.said(AnarchyEvent::Spent {
            who: c.id,
            what: def.name.clone(),
            points,
            on,
            note,
            gm_gained: plot::gm_gain(points, &rules.plot_points),
        });
        let it = rules.interesting_times;
        if def.complication && it.switch == Switch::On {
            let target = on.unwrap_or(c.id);
            // A complication made for another player in "their" Narration: "their" read
            // either way, the spender's narration or the target's; in a third one's (or
            // between turns), none.
            let narrator = self.table().narrator().map(|x| x.who);
            let in_time = target == c.id || narrator == Some(c.id) || narrator == Some(target);
            if in_time && self.is_player(target) {
                let t = self.present(target)?;
                let room = t.sheet.edge.saturating_sub(t.edge_left);
                self.said(AnarchyEvent::EdgeRegained {
                    who: target,
                    edge: it.edge.min(room),
                });
            }
        }
        Ok(())
    }

    /// The GM pays, within the limits of a turn and of what the GM may aim at a player.
    fn pay_gm(
        &mut self,
        def: &SpendDef,
        points: u8,
        on: Option<CombatantId>,
        note: Option<String>,
    ) -> Outcome {
        self.gm_may(def, points, on)?;
        self.said(AnarchyEvent::GmSpent {
            what: def.name.clone(),
            points,
            on,
            note,
        });
        Ok(())
    }

    /// Whether the GM may spend `points` on `def` aimed at `on`: players only for the glitch die
    /// and twists, one point per player a turn, two on one player, and what the pool holds.
    fn gm_may(&mut self, def: &SpendDef, points: u8, on: Option<CombatantId>) -> Outcome {
        if def.gm == GmUse::Never {
            return Err(AnarchyRefusal::PlayersOnly {
                what: def.name.clone(),
            }
            .into());
        }
        let on_player = on.filter(|id| self.is_player(*id));
        let name = on_player.map_or_else(String::new, |id| self.now().name(id).to_string());
        if on_player.is_some() && def.gm == GmUse::Npc {
            return Err(AnarchyRefusal::GmOnPlayer {
                what: def.name.clone(),
                who: name,
            }
            .into());
        }
        let n = self.table();
        let players = self.players_present();
        let rules = self.rules.anarchy.plot_points;
        plot::gm_may_spend(
            n.gm_spent(None),
            on_player.map(|p| n.gm_spent(Some(p))),
            u32::from(points),
            players,
            &rules,
        )
        .map_err(|l| AnarchyRefusal::of_limit(l, &name, &def.name))?;
        plot::afford(n.gm_points, u32::from(points))
            .map_err(|l| AnarchyRefusal::of_limit(l, "the GM", &def.name))?;
        Ok(())
    }

    fn player_spend(&mut self, who: CombatantId, spend: &SpendInput) -> Outcome {
        let (c, have) = self.player(who)?;
        let (def, k) = self.find_spend(spend)?;
        // Whether the player can pay at all comes before what the spend needs; the refusal
        // names what this spend costs when its words say, else the least a spend of it costs.
        let least = self.least_cost(&def);
        if have < least {
            return Err(match self.resolve_spend(spend, def.clone(), k) {
                Ok(r) => AnarchyRefusal::of_limit(
                    plot::Limit::NotEnough {
                        have: u32::from(have),
                        need: u32::from(r.points),
                    },
                    &c.name,
                    &def.name,
                ),
                Err(_) => AnarchyRefusal::NotEnoughForAny {
                    who: c.name.clone(),
                    have: u32::from(have),
                    least: u32::from(least),
                    what: def.name.clone(),
                },
            }
            .into());
        }
        let r = self.resolve_spend(spend, def, k)?;
        if let Some(on) = spend.on {
            let target = self.present(on)?;
            // Get Revenge hits back at an NPC who has just attacked the spender: never a player.
            if r.def.effect == SpendEffect::Revenge && target.side == Side::Pc {
                return Err(AnarchyRefusal::RevengeOnPlayer { who: target.name }.into());
            }
            // Take the Hit defends a close ally (a player or an allied NPC): never oneself.
            if r.def.effect == SpendEffect::TakeTheHit && on == who {
                return Err(AnarchyRefusal::TakeTheHitForOneself {
                    what: r.def.name.clone(),
                    who: target.name,
                }
                .into());
            }
        }
        match r.def.effect {
            SpendEffect::ShakeItUp => {
                self.no_target(&r, spend.on, who)?;
                let note = self.only_note(&r)?;
                self.pay_player(&c, &r.def, r.points, None, note)?;
                self.out_of_turn(who, Paid::Spent)
            }
            SpendEffect::Flashback => {
                self.no_target(&r, spend.on, who)?;
                let note = self.only_note(&r)?;
                self.flashback(&c, &r, note)
            }
            SpendEffect::DoubleTime => {
                self.no_target(&r, spend.on, who)?;
                let note = self.only_note(&r)?;
                self.double_time(who, &r.def)?;
                self.pay_player(&c, &r.def, r.points, None, note)?;
                self.said(AnarchyEvent::DoubleTime { who });
                Ok(())
            }
            _ => {
                let on = spend.on;
                self.revenge_once(&r, Some(who))?;
                let effect = self.effect(&r, on.or(Some(who)), "pp NAME spend")?;
                self.pay_player(&c, &r.def, r.points, on, effect.note())?;
                self.carry_out(effect)?;
                self.revenge_had(&r, Some(who));
                Ok(())
            }
        }
    }

    fn gm_spend(&mut self, spend: &SpendInput) -> Outcome {
        let (def, k) = self.find_spend(spend)?;
        let on = spend.on;
        if let Some(id) = on {
            self.present(id)?;
        }
        // Whether the GM may spend at all comes before what the spend needs.
        self.gm_may(&def, self.least_cost(&def), on)?;
        let r = self.resolve_spend(spend, def, k)?;
        match r.def.effect {
            SpendEffect::ShakeItUp => {
                let who = Self::needs_target(&r, on, "gm spend shake it up on NAME")?;
                let note = self.only_note(&r)?;
                self.pay_gm(&r.def, r.points, Some(who), note)?;
                self.out_of_turn(who, Paid::Spent)
            }
            SpendEffect::DoubleTime => {
                let who = Self::needs_target(&r, on, "gm spend double-time it on NAME")?;
                let note = self.only_note(&r)?;
                self.double_time(who, &r.def)?;
                self.pay_gm(&r.def, r.points, Some(who), note)?;
                self.said(AnarchyEvent::DoubleTime { who });
                Ok(())
            }
            SpendEffect::GlitchDie | SpendEffect::Recover | SpendEffect::Cooldown => {
                let example = match r.def.effect {
                    SpendEffect::GlitchDie => "gm spend glitch die on NAME",
                    SpendEffect::Recover => "gm spend first aid on NAME physical",
                    _ => "gm spend frag it on NAME THING",
                };
                let who = Self::needs_target(&r, on, example)?;
                let effect = self.effect(&r, Some(who), "gm spend")?;
                self.pay_gm(&r.def, r.points, on, effect.note())?;
                self.carry_out(effect)
            }
            SpendEffect::Flashback
            | SpendEffect::Note
            | SpendEffect::Text
            | SpendEffect::Revenge
            | SpendEffect::TakeTheHit
            | SpendEffect::IgnoreCooldown => {
                // The GM's Get Revenge is the NPC's named `on`.
                self.revenge_once(&r, on)?;
                let effect = self.effect(&r, on, "gm spend")?;
                self.pay_gm(&r.def, r.points, on, effect.note())?;
                self.carry_out(effect)?;
                self.revenge_had(&r, on);
                Ok(())
            }
        }
    }

    /// Get Revenge strikes back "just once": one for `who` in a narration, the one the attack
    /// it answers was made in (between turns, until the next narration begins).
    fn revenge_once(&mut self, r: &Resolved, who: Option<CombatantId>) -> Outcome {
        let Some(who) = who.filter(|_| r.def.effect == SpendEffect::Revenge) else {
            return Ok(());
        };
        if self.table().revenged.contains(&who) {
            let who = self.now().name(who).to_string();
            return Err(AnarchyRefusal::RevengeTaken { who }.into());
        }
        Ok(())
    }

    fn revenge_had(&mut self, r: &Resolved, who: Option<CombatantId>) {
        if let Some(who) = who.filter(|_| r.def.effect == SpendEffect::Revenge) {
            self.said(AnarchyEvent::Revenged { who });
        }
    }

    /// A spend only for the spender's own narration (Shake It Up, Double-Time It, Flashback):
    /// `on` another is refused saying so; `on` the spender itself is taken.
    fn no_target(&mut self, r: &Resolved, on: Option<CombatantId>, who: CombatantId) -> Outcome {
        match on {
            Some(x) if x != who => Err(AnarchyRefusal::ForOneself {
                what: r.def.name.clone(),
                who: self.now().name(who).to_string(),
                other: self.now().name(x).to_string(),
            }
            .into()),
            _ => Ok(()),
        }
    }

    fn needs_target(
        r: &Resolved,
        on: Option<CombatantId>,
        example: &str,
    ) -> Result<CombatantId, RuleError> {
        on.ok_or_else(|| {
            AnarchyRefusal::SpendNeeds {
                what: r.def.name.clone(),
                need: "the one it is for",
                example: example.to_string(),
            }
            .into()
        })
    }

    fn double_time(&mut self, who: CombatantId, def: &SpendDef) -> Outcome {
        self.own_narration(who, &def.name)?;
        let n = self.table();
        if n.narrator()
            .is_some_and(|x| x.movements == Movements::DoubleTime)
        {
            return Err(AnarchyRefusal::AlreadyDoubleTime {
                who: self.now().name(who).to_string(),
                movements: Movements::DoubleTime.count(&self.rules.anarchy.movements),
            }
            .into());
        }
        Ok(())
    }

    /// Refuses `what` unless `who` is the one narrating now.
    fn own_narration(&mut self, who: CombatantId, what: &str) -> Outcome {
        let narrator = self.table().narrator().map(|x| x.who);
        if narrator == Some(who) {
            return Ok(());
        }
        let name = self.now().name(who).to_string();
        let now = match narrator {
            Some(x) => format!("{} is narrating, not {name}", self.now().name(x)),
            None => "nobody is narrating".to_string(),
        };
        Err(AnarchyRefusal::NotNarrating {
            what: what.to_string(),
            now,
        }
        .into())
    }

    /// Flashback: the player narrates now (its own narration, taken out of turn if need be)
    /// and its next test has a glitch die.
    fn flashback(&mut self, c: &Combatant, r: &Resolved, note: Option<String>) -> Outcome {
        let n = self.table();
        if n.has_glitch_die(c.id) {
            return Err(AnarchyRefusal::GlitchDieWaiting {
                who: c.name.clone(),
            }
            .into());
        }
        let narrating = n.narrator().filter(|x| x.who == c.id);
        if narrating.is_some_and(|x| x.slot == Slot::Flashback) {
            return Err(AnarchyRefusal::FlashbackTaken {
                who: c.name.clone(),
            }
            .into());
        }
        // The narration is the Flashback from its start: a test made in it was narrated now.
        if narrating.is_some_and(|x| x.tested) {
            return Err(AnarchyRefusal::FlashbackAfterTest {
                who: c.name.clone(),
            }
            .into());
        }
        let narrating = narrating.is_some();
        if !narrating && n.has_narrated(c.id) {
            return Err(AnarchyRefusal::AlreadyNarrated {
                who: c.name.clone(),
            }
            .into());
        }
        self.pay_player(c, &r.def, r.points, None, note)?;
        if narrating {
            self.said(AnarchyEvent::FlashbackNarrated { who: c.id });
        } else {
            self.out_of_turn(c.id, Paid::Flashback)?;
        }
        self.said(AnarchyEvent::GlitchDieReady { who: c.id });
        Ok(())
    }

    /// What a spend leaves behind, checked before anything is paid.
    fn effect(
        &mut self,
        r: &Resolved,
        target: Option<CombatantId>,
        how: &str,
    ) -> Result<Effect, RuleError> {
        let what = r.def.name.clone();
        let name = |s: &mut Self| target.map_or_else(String::new, |t| s.now().name(t).to_string());
        Ok(match r.def.effect {
            SpendEffect::GlitchDie => {
                let who = target.unwrap_or(CombatantId(0));
                // Spent "before a roll is made": a Downed character rolls none.
                if self.present(who)?.is_downed() {
                    return Err(AnarchyRefusal::GlitchDieForDowned { who: name(self) }.into());
                }
                if self.table().has_glitch_die(who) {
                    return Err(AnarchyRefusal::GlitchDieWaiting { who: name(self) }.into());
                }
                Effect::GlitchDie {
                    who,
                    note: self.only_note(r)?,
                }
            }
            SpendEffect::Recover => {
                let mut words = r.text.split_whitespace();
                let track = words.next().and_then(Condition::from_word);
                let Some(track) = track else {
                    return Err(AnarchyRefusal::SpendNeeds {
                        what,
                        need: "the track: armor, matrix, stun or physical",
                        example: format!("{how} first aid physical"),
                    }
                    .into());
                };
                let extra: Vec<&str> = words.collect();
                if !extra.is_empty() {
                    return Err(AnarchyRefusal::SpendExtra {
                        what,
                        extra: extra.join(" "),
                    }
                    .into());
                }
                let who = target.unwrap_or(CombatantId(0));
                if let Condition::Gear(g) = track {
                    self.gear_damage_on(who, g)?;
                }
                Effect::Recover {
                    who,
                    track,
                    note: self.note(&r.note)?,
                }
            }
            SpendEffect::Cooldown => {
                let Some(who) = target.filter(|_| !r.text.trim().is_empty()) else {
                    return Err(AnarchyRefusal::SpendNeeds {
                        what,
                        need: "whose thing goes on Cooldown, and the thing",
                        example: format!("{how} frag it on NAME Ares Predator"),
                    }
                    .into());
                };
                let thing = table::text("the thing on Cooldown", &r.text, &self.rules.anarchy)?;
                let status = Self::cooldown_name(&thing);
                let c = self.present(who)?;
                if c.status(&status).is_some() {
                    return Err(RuleError::StatusHeld {
                        who: c.name,
                        name: status,
                    });
                }
                Effect::Cooldown {
                    who,
                    thing,
                    note: self.note(&r.note)?,
                }
            }
            SpendEffect::Text => {
                // A twist's words may stand before the colon or after it.
                let words = match (r.text.trim(), r.note.as_str()) {
                    (t, "") | ("", t) => t.to_string(),
                    (t, n) => format!("{t}: {n}"),
                };
                if words.is_empty() {
                    return Err(AnarchyRefusal::SpendNeeds {
                        what,
                        need: "a few words saying what it does",
                        example: format!("{how} other the bouncer owes me a favour"),
                    }
                    .into());
                }
                Effect::Note(self.note(&words)?)
            }
            SpendEffect::IgnoreCooldown => {
                if let Some(c) = target.and_then(|t| self.now().get(t).cloned())
                    && !c.statuses.iter().any(|s| s.name.starts_with(COOLDOWN))
                {
                    return Err(AnarchyRefusal::NothingOnCooldown { who: c.name, what }.into());
                }
                Effect::Note(self.only_note(r)?)
            }
            SpendEffect::Note
            | SpendEffect::Revenge
            | SpendEffect::TakeTheHit
            | SpendEffect::ShakeItUp
            | SpendEffect::DoubleTime
            | SpendEffect::Flashback => Effect::Note(self.only_note(r)?),
        })
    }

    fn carry_out(&mut self, effect: Effect) -> Outcome {
        match effect {
            Effect::Note(_) => Ok(()),
            Effect::GlitchDie { who, .. } => {
                self.said(AnarchyEvent::GlitchDieReady { who });
                Ok(())
            }
            Effect::Recover {
                who,
                track: Condition::Monitor(t),
                ..
            } => self.heal(who, t, 1),
            Effect::Recover {
                who,
                track: Condition::Gear(g),
                ..
            } => {
                self.said(AnarchyEvent::GearRepaired {
                    who,
                    track: g,
                    boxes: 1,
                });
                Ok(())
            }
            Effect::Cooldown { who, thing, .. } => self.cooldown(who, &thing),
        }
    }

    fn gm_order(&mut self, change: OrderChange, dice: &mut dyn Dice) -> Outcome {
        let n = self.table();
        let Stage::Between { next } = n.stage else {
            return Err(AnarchyRefusal::OrderMidTurn.into());
        };
        match next {
            TurnOrder::Seating => {}
            TurnOrder::Reversed => {
                return Err(AnarchyRefusal::OrderChanged { how: "reversed" }.into());
            }
            TurnOrder::From { .. } => {
                return Err(AnarchyRefusal::OrderChanged {
                    how: "a rolled start",
                }
                .into());
            }
        }
        let points = self.rules.anarchy.plot_points.gm_order_change;
        let players = self.players_present();
        plot::gm_may_spend(
            n.gm_spent(None),
            None,
            u32::from(points),
            players,
            &self.rules.anarchy.plot_points,
        )
        .map_err(|l| AnarchyRefusal::of_limit(l, "", "a new turn order"))?;
        plot::afford(n.gm_points, u32::from(points))
            .map_err(|l| AnarchyRefusal::of_limit(l, "the GM", "a new turn order"))?;
        let how = match change {
            OrderChange::Reverse => TurnOrder::Reversed,
            OrderChange::Random => {
                // A random order: a die picks which player starts the round; NPC seats are not
                // on the die.
                let seated = self.seated(&n);
                let players: Vec<CombatantId> = seated
                    .into_iter()
                    .filter(|id| self.is_player(*id))
                    .collect();
                narration::roll_start(&players, dice).ok_or(AnarchyRefusal::NobodySeated)?
            }
        };
        self.said(AnarchyEvent::OrderChosen { how, points });
        Ok(())
    }

    // ----- tests, Cooldowns, gear --------------------------------------------------------------

    fn anarchy_test(
        &mut self,
        who: CombatantId,
        input: &TestInput,
        typed: Option<&TypedDice>,
        dice: &mut dyn Dice,
    ) -> Outcome {
        let c = self.able(who)?;
        let rules = self.rules.anarchy.clone();
        let spec = input.spec(&rules)?;
        if spec.teamwork > 0 {
            // Teamwork Tests: the leader rolls in its own Narration, helpers at any time.
            self.own_narration(who, "a teamwork test (the leader's roll)")?;
        }
        let waiting = self.table().has_glitch_die(who);
        if spec.glitch_die && !waiting {
            return Err(AnarchyRefusal::NoGlitchDie { who: c.name }.into());
        }
        if waiting && !spec.glitch_die {
            return Err(AnarchyRefusal::GlitchDieUnused { who: c.name }.into());
        }
        let edge_spent = match spec.edge {
            Edge::None => 0,
            Edge::Before | Edge::After => {
                let need = rules.test.edge_cost;
                Self::edge_for(&c, need)?;
                need
            }
        };
        let roll = match typed {
            None => test::roll(&spec, &rules.test, dice),
            Some(t) => test::typed(&spec, &rules.test, &t.actor, t.opposing.as_deref(), dice)
                .map_err(AnarchyRefusal::from)?,
        };
        // Edge after the roll is spent on seeing it: with every die a hit, nobody would (dice
        // typed in are as they lie after the re-roll: what they were before is not known).
        let edge_spent = if spec.edge == Edge::After && typed.is_none() && roll.first.is_none() {
            0
        } else {
            edge_spent
        };
        self.tested(who, spec, roll, edge_spent, false);
        Ok(())
    }

    /// A test's event, with what its dice come to under the rules in force.
    fn tested(
        &mut self,
        who: CombatantId,
        spec: test::Spec,
        roll: test::Roll,
        edge_spent: u8,
        rerolled: bool,
    ) {
        let rules = &self.rules.anarchy;
        let outcome = test::outcome(&spec, &roll, &rules.test, &rules.glitch_die);
        self.said(AnarchyEvent::Tested {
            who,
            spec,
            roll,
            outcome,
            edge_spent,
            rerolled,
        });
    }

    /// Edge on seeing the roll: the misses of `who`'s last test of this narration rolled again,
    /// once, on a test no Edge was spent on.
    fn edge_after(
        &mut self,
        who: CombatantId,
        typed: Option<&[u8]>,
        dice: &mut dyn Dice,
    ) -> Outcome {
        let c = self.able(who)?;
        let rules = self.rules.anarchy.clone();
        let need = rules.test.edge_cost;
        let Some(open) = self.table().open_test(who).cloned() else {
            // Out of Edge (as after the Edge re-roll that closed the last test) is the reason
            // that holds whatever test there was: told before the test's.
            Self::edge_for(&c, need)?;
            let who = c.name;
            return Err(match self.table().closed_test(c.id) {
                Some(Closed::Rerolled) => AnarchyRefusal::Rerolled { who },
                Some(Closed::EdgeBefore) => AnarchyRefusal::EdgedBefore { who },
                Some(Closed::AllHit) => AnarchyRefusal::NoMiss { who },
                None => AnarchyRefusal::NoOpenTest { who },
            }
            .into());
        };
        if test::misses(&open.roll, &rules.test) == 0 {
            return Err(AnarchyRefusal::NoMiss { who: c.name }.into());
        }
        Self::edge_for(&c, need)?;
        let roll =
            test::again(&open.roll, &rules.test, typed, dice).map_err(AnarchyRefusal::from)?;
        let spec = test::Spec {
            edge: Edge::After,
            ..open.spec
        };
        self.tested(who, spec, roll, need, true);
        Ok(())
    }

    fn cooldown_name(thing: &str) -> String {
        format!("{COOLDOWN}{thing}")
    }

    /// A thing of `who`'s goes on Cooldown until the end of the turn.
    fn cooldown(&mut self, who: CombatantId, thing: &str) -> Outcome {
        let c = self.present(who)?;
        let name = Self::cooldown_name(thing);
        if c.status(&name).is_some() {
            return Err(RuleError::StatusHeld { who: c.name, name });
        }
        self.emit(Event::StatusStarted {
            who,
            status: ActiveStatus {
                name,
                end: StatusEnd::EndOfRound,
                stacks: 1,
            },
        });
        Ok(())
    }

    fn gear(
        &mut self,
        who: CombatantId,
        track: GearTrack,
    ) -> Result<(String, table::Boxes), RuleError> {
        let c = self.present(who)?;
        let boxes = self
            .table()
            .gear_of(who)
            .map(|g: &Gear| g.track(track))
            .unwrap_or_default();
        if boxes.size == 0 {
            return Err(AnarchyRefusal::NoGearTrack {
                who: c.name,
                track: track.label(),
                word: match track {
                    GearTrack::Armor => "armor",
                    GearTrack::Matrix => "matrix",
                },
            }
            .into());
        }
        Ok((c.name, boxes))
    }

    /// The damage on a gear track, refused when there is none to recover.
    fn gear_damage_on(&mut self, who: CombatantId, track: GearTrack) -> Result<u8, RuleError> {
        let (name, boxes) = self.gear(who, track)?;
        if boxes.damage == 0 {
            return Err(AnarchyRefusal::NothingToRecover {
                who: name,
                track: track.label(),
            }
            .into());
        }
        Ok(boxes.damage)
    }

    fn gear_damage(&mut self, who: CombatantId, track: GearTrack, boxes: i32) -> Outcome {
        let n = Self::check_range("damage", boxes, self.rules.limits.damage_boxes)?;
        let (_, b) = self.gear(who, track)?;
        let applied = u8::try_from(n)
            .unwrap_or(u8::MAX)
            .min(b.size.saturating_sub(b.damage));
        self.said(AnarchyEvent::GearDamaged {
            who,
            track,
            boxes: applied,
        });
        Ok(())
    }

    fn gear_repair(&mut self, who: CombatantId, track: GearTrack, boxes: i32) -> Outcome {
        let n = Self::check_range("healing", boxes, self.rules.limits.damage_boxes)?;
        let damage = self.gear_damage_on(who, track)?;
        self.said(AnarchyEvent::GearRepaired {
            who,
            track,
            boxes: u8::try_from(n).unwrap_or(u8::MAX).min(damage),
        });
        Ok(())
    }
}

/// What a spend does once paid.
enum Effect {
    Note(Option<String>),
    GlitchDie {
        who: CombatantId,
        note: Option<String>,
    },
    Recover {
        who: CombatantId,
        track: Condition,
        note: Option<String>,
    },
    Cooldown {
        who: CombatantId,
        thing: String,
        note: Option<String>,
    },
}

impl Effect {
    fn note(&self) -> Option<String> {
        match self {
            Effect::Note(n)
            | Effect::GlitchDie { note: n, .. }
            | Effect::Recover { note: n, .. }
            | Effect::Cooldown { note: n, .. } => n.clone(),
        }
    }
}
