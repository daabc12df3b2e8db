//! Shadowrun: Anarchy's rules as numbers and pure functions: the narration turn's order, the
//! Plot Point economy, the glitch die and Anarchy tests with their exact odds. No state here:
//! the encounter keeps the table (`encounter::system::anarchy`).

pub mod glitch;
pub mod narration;
pub mod plot;
pub mod test;

use serde::{Deserialize, Serialize};

use super::house::Range;

/// Anarchy's section of `assets/rules.ron`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnarchyRules {
    pub plot_points: PlotPointRules,
    /// The menu of Plot Point spends, in the order the menu shows them.
    pub spends: Vec<SpendDef>,
    pub movements: MovementRules,
    pub test: TestRules,
    pub glitch_die: GlitchDieRules,
    pub interesting_times: InterestingTimes,
    pub limits: AnarchyLimits,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlotPointRules {
    pub player_start: u8,
    pub player_cap: u8,
    pub award: u8,
    pub shadow_amp_bonus: u8,
    pub gm_start: u8,
    pub gm_per_player_point: u8,
    pub gm_turn_points_per_player: u8,
    pub gm_on_one_player_per_turn: u8,
    pub gm_order_change: u8,
}

/// What a spend costs: a fixed number of Plot Points, or as many as the spender says (Montage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpendCost {
    Points(u8),
    Chosen,
}

/// What srtrack does about a spend besides moving the Plot Points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpendEffect {
    /// A glitch die waits for the next test of the one it is for.
    GlitchDie,
    /// The spender narrates now, out of the seating order.
    ShakeItUp,
    /// The narration under way gets the Double-Time It movements.
    DoubleTime,
    /// One box of a condition track comes back.
    Recover,
    /// A named thing goes on Cooldown until the turn ends.
    Cooldown,
    /// Shake It Up and a glitch die in one: the spender narrates a flashback, tested.
    Flashback,
    /// Logged, nothing more to track (an optional note says what happened).
    Note,
    /// Logged with the words given, which are required.
    Text,
    /// Get Revenge: logged; the one struck back at (`on NAME`), if named, is an NPC.
    Revenge,
    /// Take the Hit: logged; the close ally defended (`on NAME`), if named, is not the
    /// spender.
    TakeTheHit,
    /// Ignore Cooldown: logged; the one it is for (`on NAME`, the spender by default) has
    /// something on Cooldown.
    IgnoreCooldown,
}

/// What the GM may do with a spend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GmUse {
    /// On anyone, players included (the glitch die).
    Anyone,
    /// A plot twist: in general, or in a player's narration (counted on that player).
    Twist,
    /// Only to aid an NPC; never on a player.
    Npc,
    /// A player's spend only.
    Never,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpendDef {
    pub name: String,
    /// Other words that name it on the command line.
    pub aliases: Vec<String>,
    pub cost: SpendCost,
    pub effect: SpendEffect,
    pub gm: GmUse,
    /// A complication for the one it is aimed at ("Interesting Times").
    pub complication: bool,
    /// Our own short wording, for the menu.
    pub summary: String,
}

impl SpendDef {
    /// Whether `word` names this spend (its name or an alias, ignoring case).
    pub fn is_called(&self, word: &str) -> bool {
        let word = word.trim();
        self.name.eq_ignore_ascii_case(word)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(word))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovementRules {
    pub per_narration: u8,
    pub double_time: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestRules {
    pub sides: u8,
    pub hit_at_least: u8,
    pub edge_before_dice: u8,
    pub edge_before_hit_at_least: u8,
    pub edge_cost: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GlitchDieRules {
    pub glitch_faces: Vec<u8>,
    pub exploit_faces: Vec<u8>,
    pub counts_for_hits: bool,
}

/// A house rule that can be switched off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Switch {
    On,
    Off,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterestingTimes {
    pub switch: Switch,
    pub edge: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnarchyLimits {
    /// Skill, attribute and pool numbers of a test.
    pub pool: Range,
    pub modifier: Range,
    pub teamwork_hits: Range,
    /// The size of an Armor or Matrix track.
    pub boxes: Range,
    pub montage: Range,
    pub text_chars: Range,
}

impl AnarchyRules {
    /// The spend a word names.
    pub fn spend(&self, word: &str) -> Option<&SpendDef> {
        self.spends.iter().find(|s| s.is_called(word))
    }

    /// Checks the numbers hang together.
    pub fn validate(&self) -> Result<(), String> {
        let p = &self.plot_points;
        if p.player_start > p.player_cap {
            return Err(format!(
                "anarchy: player_start ({}) is above player_cap ({})",
                p.player_start, p.player_cap
            ));
        }
        if p.award == 0 {
            return Err("anarchy: award must be at least 1".into());
        }
        let t = &self.test;
        // The field that is wrong is named first: a d0 or d1 makes every face check fail too.
        if t.sides < 2 {
            return Err(format!(
                "anarchy test: sides is {}, out of range: allowed 2 to {} (a die with a face that hits and one that misses)",
                t.sides,
                u8::MAX
            ));
        }
        let face = |f: u8| (1..=t.sides).contains(&f);
        if !face(t.hit_at_least) || !face(t.edge_before_hit_at_least) {
            return Err(format!(
                "anarchy test: hit_at_least and edge_before_hit_at_least must be faces of a d{}",
                t.sides
            ));
        }
        let g = &self.glitch_die;
        if !g
            .glitch_faces
            .iter()
            .chain(&g.exploit_faces)
            .all(|f| face(*f))
        {
            return Err(format!(
                "anarchy glitch_die: every face must be a face of a d{}",
                t.sides
            ));
        }
        if g.glitch_faces.iter().any(|f| g.exploit_faces.contains(f)) {
            return Err("anarchy glitch_die: a face cannot be both a glitch and an exploit".into());
        }
        if self.movements.per_narration > self.movements.double_time {
            return Err("anarchy movements: double_time must be at least per_narration".into());
        }
        let mut seen = std::collections::HashSet::new();
        for s in &self.spends {
            for word in std::iter::once(&s.name).chain(&s.aliases) {
                if !seen.insert(word.to_lowercase()) {
                    return Err(format!("anarchy spends: \"{word}\" names two spends"));
                }
            }
            if s.cost == SpendCost::Points(0) {
                return Err(format!("anarchy spends: {} costs nothing", s.name));
            }
        }
        Ok(())
    }
}
