//! What the players may see of an encounter (`srtrack watch`): the GM's secrets taken out.
//!
//! One pure function decides it, so no screen can show more by mistake: characters the GM hid
//! are left out altogether (not even as "hidden"), and an NPC keeps its IP, condition monitors,
//! wounds and Edge to the GM. Everyone seen shows where it stands, Downed and its statuses; a
//! PC shows its IP, Edge, monitors (Anarchy's Armor and Matrix tracks, 2097's injuries) and Plot
//! Points too.

use super::model::{CombatantId, PassMark, Phase, Side, State};
use super::system::System;
use super::system::anarchy::Boxes;
use super::system::sr2097::Injury;
use crate::rules::HouseRules;

/// The encounter as the players see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayersView {
    pub system: System,
    pub stage: Stage,
    /// Who acts (or narrates) now, if the players may see them.
    pub acting: Option<String>,
    /// In roster order (initiative order, or the Anarchy seating), hidden characters left out.
    pub rows: Vec<Row>,
}

/// Where the encounter stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Setup,
    Fight {
        round: u32,
        pass: u8,
        passes: u8,
    },
    /// An Anarchy table: its narration turn.
    Narration {
        turn: u32,
    },
    Ended {
        round: u32,
    },
}

/// One character the players see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub id: CombatantId,
    pub name: String,
    pub side: Side,
    /// Place in the initiative order, or seat at an Anarchy table (from 0), among the
    /// characters seen.
    pub place: Option<usize>,
    pub stands: Stands,
    pub downed: bool,
    /// Lasting statuses and their stacks (Prone, Take Aim ×2).
    pub statuses: Vec<(String, u8)>,
    /// `None` for an NPC: the GM keeps it.
    pub pc: Option<PcFacts>,
}

/// Where a character stands in the pass (or the narration turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stands {
    Acting,
    ToCome,
    Done,
    /// No turn of its own in this pass (skipped while Downed, or lost to a change of
    /// initiative).
    Skipped,
    /// Joined the fight after its place in this pass went by: it lost nothing and acts from the
    /// next pass (the GM's order leaves its mark blank).
    Joined,
    /// Its turn skipped for a change of initiative: taken later in the pass.
    Deferred,
}

/// What a player sees of a player character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PcFacts {
    /// `None` where the system plays without passes (Anarchy).
    pub ip: Option<PcIp>,
    pub edge_left: u8,
    pub edge: u8,
    /// Physical and Stun as (boxes marked, boxes), when the sheet has the attribute.
    pub physical: Option<(u8, u8)>,
    pub stun: Option<(u8, u8)>,
    pub wounds: i32,
    /// Anarchy: Plot Points held, and the most a player may hold.
    pub plot_points: Option<(u8, u8)>,
    /// Anarchy: the Armor and Matrix tracks as (boxes marked, boxes), when the sheet has them.
    pub armor: Option<(u8, u8)>,
    pub matrix: Option<(u8, u8)>,
    /// Shadowrun 2097: the injuries taken, in the order taken (as the GM's Status pane lists
    /// them).
    pub injuries: Vec<Injury>,
}

/// A player character's IP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PcIp {
    /// In the pool now.
    pub left: u8,
    /// Spent in the pass under way, in and out of its turns.
    pub spent: u8,
    /// Held back for a delay or a ready.
    pub held: u8,
}

/// The players' view of `state`: the one place that decides what is kept from them.
pub fn view(state: &State, system: System, rules: &HouseRules) -> PlayersView {
    let at = match &state.phase {
        Phase::Setup => Stage::Setup,
        Phase::Fight(f) => Stage::Fight {
            round: f.round,
            pass: f.pass,
            passes: rules.passes_per_round,
        },
        Phase::Narration(n) => Stage::Narration { turn: n.turn },
        Phase::Ended { round } => Stage::Ended { round: *round },
    };
    let seen = |id: CombatantId| state.get(id).filter(|c| !c.is_hidden());
    let acting = state.acting().and_then(seen).map(|c| c.name.clone());
    let table = state.narration();
    let mut rows: Vec<Row> = state
        .roster()
        .into_iter()
        .filter_map(seen)
        .map(|c| {
            let place = match table {
                Some(n) => n.seating.iter().position(|x| *x == c.id),
                None => state.position(c.id).filter(|_| c.initiative.is_some()),
            };
            let stands = stands(state, c.id, state.pass_mark(c));
            let gear = table.and_then(|n| n.gear_of(c.id));
            let pc = (c.side == Side::Pc).then(|| PcFacts {
                ip: system.plays_in_passes().then(|| PcIp {
                    left: c.ip,
                    spent: state.spent_this_pass(c.id),
                    held: state.held(c).map_or(0, super::Reserve::ip),
                }),
                edge_left: c.edge_left,
                edge: state.edge_max(c),
                physical: c
                    .sheet
                    .body
                    .map(|b| (c.damage.physical, rules.monitor_boxes(b))),
                stun: c
                    .sheet
                    .willpower
                    .map(|w| (c.damage.stun, rules.monitor_boxes(w))),
                wounds: state.wounds_shown(c, rules),
                plot_points: table
                    .and_then(|n| n.player(c.id))
                    .map(|p| (p.plot_points, rules.anarchy.plot_points.player_cap)),
                armor: gear.map(|g| g.armor).and_then(track),
                matrix: gear.map(|g| g.matrix).and_then(track),
                injuries: state
                    .sr2097
                    .as_ref()
                    .map_or_else(Vec::new, |s| s.sheet(c.id).injuries.clone()),
            });
            Row {
                id: c.id,
                name: c.name.clone(),
                side: c.side,
                place,
                stands,
                downed: c.is_downed(),
                statuses: c
                    .statuses
                    .iter()
                    .map(|st| (st.name.clone(), st.stacks))
                    .collect(),
                pc,
            }
        })
        .collect();
    // Places count the characters seen only: a gap would tell of a hidden one.
    for (n, r) in rows.iter_mut().filter(|r| r.place.is_some()).enumerate() {
        r.place = Some(n);
    }
    PlayersView {
        system,
        stage: at,
        acting,
        rows,
    }
}

/// An Armor or Matrix track as (boxes marked, boxes), if the sheet has one.
fn track(b: Boxes) -> Option<(u8, u8)> {
    (b.size > 0).then_some((b.damage, b.size))
}

fn stands(state: &State, id: CombatantId, mark: PassMark) -> Stands {
    if let Some(n) = state.narration() {
        return if n.narrator().is_some_and(|x| x.who == id) {
            Stands::Acting
        } else if n.has_narrated(id) {
            Stands::Done
        } else {
            Stands::ToCome
        };
    }
    match state.turn() {
        // Its own turn, a skipped one taken later or a delay's sub-turn: acting, as the GM's
        // order marks it.
        Some(t) if t.who == id => Stands::Acting,
        _ => match mark {
            PassMark::Waiting => Stands::ToCome,
            PassMark::Acting => Stands::Acting,
            PassMark::Acted => Stands::Done,
            PassMark::Deferred { .. } => Stands::Deferred,
            PassMark::Skipped | PassMark::Lost => Stands::Skipped,
            PassMark::Joined => Stands::Joined,
        },
    }
}
