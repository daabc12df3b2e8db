//! SR5's numbers: what a test may hold, Edge, teamwork, weapons, armor and the combat facts.
//! Hits and glitches count on the shared `dice` section of the house rules.

pub mod combat;
pub mod odds;
pub mod test;

use serde::{Deserialize, Serialize};

use super::house::Range;

/// An attribute of the sheet that a pool srtrack works out itself may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Attribute {
    Body,
    Reaction,
    Intuition,
    Willpower,
}

impl Attribute {
    pub fn label(self) -> &'static str {
        match self {
            Attribute::Body => "Body",
            Attribute::Reaction => "Reaction",
            Attribute::Intuition => "Intuition",
            Attribute::Willpower => "Willpower",
        }
    }
}

/// The attributes a catalogue test adds up for the one who takes it (`Body + Willpower`), when it
/// names nothing else (a skill, a rating): only then can its pool come from the sheet. A limit in
/// brackets and an opposing side after `v.` are not the taker's pool.
pub fn attributes_of(test: &str) -> Option<Vec<Attribute>> {
    let own = test.split('[').next()?.split(" v.").next()?;
    own.split('+')
        .map(|term| {
            let term = term.trim();
            [
                Attribute::Body,
                Attribute::Reaction,
                Attribute::Intuition,
                Attribute::Willpower,
            ]
            .into_iter()
            .find(|a| a.label().eq_ignore_ascii_case(term))
        })
        .collect()
}

/// A status that adds an attribute to every defense test while it lasts (Full Defense).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefenseStatus {
    pub status: String,
    pub adds: Attribute,
}

/// An interrupt that adds a skill to one defense test (Dodge, Block, Parry). srtrack keeps no
/// skills, so after one of these the defense pool is typed by the GM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefenseInterrupt {
    pub action: String,
    /// The skill it adds, named for the GM.
    pub adds: String,
    /// Only against melee attacks (Block, Parry).
    pub melee_only: bool,
    /// Taken with a melee weapon (Parry): refused when the sheet carries weapons and none is
    /// one. Rules and saves from before it: none needs one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub needs_melee_weapon: bool,
}

/// A catalogue action that attacks: spent on the screen, it offers the attack chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackAction {
    pub action: String,
    /// Rounds it takes from the firearm in hand where the catalogue gives no `ammo` and no mode
    /// is named.
    #[serde(default)]
    pub rounds: Option<u8>,
    /// The fire modes it may be taken in, each with its rounds (Fire Gun: SS, SA, BF, FA); the
    /// first is the one taken when none is named and neither `ammo` nor `rounds` gives a count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<FireMode>,
    /// Whether it fires the firearm in hand; false for a bow's arrows or a mounted weapon, which
    /// srtrack does not count (rules files from before it: true).
    #[serde(default = "fires_the_firearm")]
    pub firearm: bool,
}

/// A fire mode of a firing action and the rounds it takes (Fire Gun's BF: 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireMode {
    pub mode: String,
    pub rounds: u8,
}

impl AttackAction {
    /// The mode of this name, as the rules spell it.
    pub fn mode(&self, name: &str) -> Option<&FireMode> {
        self.modes
            .iter()
            .find(|m| m.mode.eq_ignore_ascii_case(name))
    }

    /// The modes, as a sentence lists them: "SS, SA, BF or FA".
    pub fn mode_list(&self) -> String {
        let names: Vec<&str> = self.modes.iter().map(|m| m.mode.as_str()).collect();
        match names.split_last() {
            Some((last, [])) => (*last).to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// An attack action of a rules file from before `firearm`: it took its rounds from the gun in
/// hand, as every attack action did then (not a rule: how such a file was read, kept so its
/// saves replay as they were; the built-in file says `firearm: false` where it applies).
fn fires_the_firearm() -> bool {
    true
}

/// One use of Edge per test, for rules files from before it: the built-in file's.
fn one_edge_use() -> bool {
    crate::rules::HouseRules::from_embedded(|r| &r.sr5.one_edge_use_per_test)
}

/// A test a wounded character must pass for an action to end its status (Stand Up: Body +
/// Willpower (2), wound modifiers applying). A failed one spends the action and leaves the status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WoundedTest {
    pub action: String,
    pub pool: Vec<Attribute>,
    pub threshold: u8,
}

/// Stand Up's test, for rules files from before `wounded_tests`: the built-in file's.
fn stand_up_test() -> Vec<WoundedTest> {
    crate::rules::HouseRules::from_embedded(|r| &r.sr5.wounded_tests)
}

/// The clip actions, for rules files from before them: the built-in file's.
fn remove_clip() -> Vec<String> {
    crate::rules::HouseRules::from_embedded(|r| &r.sr5.remove_clip_actions)
}

fn melee() -> Vec<String> {
    crate::rules::HouseRules::from_embedded(|r| &r.sr5.melee_actions)
}

fn insert_clip() -> Vec<String> {
    crate::rules::HouseRules::from_embedded(|r| &r.sr5.insert_clip_actions)
}

/// Whether `name` is one of `actions`, in any case.
fn named(actions: &[String], name: &str) -> bool {
    actions.iter().any(|a| a.eq_ignore_ascii_case(name))
}

/// From how many boxes a character is wounded, for rules files from before it: the built-in's.
fn one_box() -> u8 {
    crate::rules::HouseRules::from_embedded(|r| &r.sr5.wounded_from_boxes)
}

/// SR5's section of `rules.ron`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sr5Rules {
    /// Dice a GM may put in a pool (before the wound modifier).
    pub pool: Range,
    pub limit: Range,
    pub threshold: Range,
    pub push_the_limit_edge: u8,
    pub close_call_edge: u8,
    /// One use of Edge per test: Close Call is refused on a test rolled with Push the Limit.
    /// Rules files from before it: on.
    #[serde(default = "one_edge_use")]
    pub one_edge_use_per_test: bool,
    /// Teamwork: the leader's limit rises this much per assistant with a hit.
    pub teamwork_limit_per_assistant: u8,
    /// Teamwork: dice added to the leader's pool per assistant hit.
    pub teamwork_dice_per_hit: u8,
    pub weapon_name_chars: Range,
    pub weapon_dv: Range,
    pub weapon_ap: Range,
    pub accuracy: Range,
    pub ammo: Range,
    pub armor: Range,
    /// Modified DV = weapon DV + this much per net hit of the attack.
    pub dv_per_net_hit: u8,
    /// Each hit of the damage resistance test takes this many boxes off.
    pub boxes_per_soak_hit: u8,
    /// The lowest armor rating AP can bring armor to.
    pub armor_floor: u8,
    /// The defense pool srtrack rolls when none is typed.
    pub defense: Vec<Attribute>,
    /// The damage resistance pool, besides the AP-modified armor.
    pub soak: Vec<Attribute>,
    pub defense_statuses: Vec<DefenseStatus>,
    pub defense_interrupts: Vec<DefenseInterrupt>,
    /// Players roll their own dice: an attack on a PC waits for its defense and soak to be
    /// typed (or asked for) instead of rolling them.
    pub players_roll_their_own: bool,
    /// The GM rolls the NPCs' dice at the table: an attack on an NPC waits for its defense and
    /// soak the same way. Saves and rules files from before it roll them from the sheet.
    #[serde(default)]
    pub npcs_roll_at_the_table: bool,
    pub attack_actions: Vec<AttackAction>,
    /// Actions that refill the firearm in hand.
    pub reload_actions: Vec<String>,
    /// Actions that take the clip out of the firearm in hand, and the rounds in it with it.
    /// Rules files from before them get the built-in file's.
    #[serde(default = "remove_clip")]
    pub remove_clip_actions: Vec<String>,
    /// Actions that put a fresh clip into the firearm in hand, only once its clip is out.
    #[serde(default = "insert_clip")]
    pub insert_clip_actions: Vec<String>,
    /// Attack actions made with a melee weapon (one without ammunition): their attack takes the
    /// sheet's melee weapon and refuses a firearm. Rules files from before them get the built-in
    /// file's.
    #[serde(default = "melee")]
    pub melee_actions: Vec<String>,
    /// Tests a wounded character must pass for an action to end its status (Stand Up).
    #[serde(default = "stand_up_test")]
    pub wounded_tests: Vec<WoundedTest>,
    /// Boxes of damage, Physical and Stun together, from which a character counts as wounded.
    #[serde(default = "one_box")]
    pub wounded_from_boxes: u8,
}

impl Sr5Rules {
    /// Checks the numbers hang together.
    pub fn validate(&self) -> Result<(), String> {
        for (name, r) in [
            ("pool", self.pool),
            ("limit", self.limit),
            ("threshold", self.threshold),
            ("accuracy", self.accuracy),
            ("weapon_name_chars", self.weapon_name_chars),
        ] {
            if r.min < 1 || r.min > r.max {
                return Err(format!(
                    "sr5: {name} must run from at least 1 up to its max, got {} to {}",
                    r.min, r.max
                ));
            }
        }
        // Pools are counted in bytes, teamwork dice (at most the pool again) included.
        if self.pool.max > 100 {
            return Err(format!(
                "sr5: pool max is at most 100, got {}",
                self.pool.max
            ));
        }
        if self.boxes_per_soak_hit == 0 {
            return Err("sr5: boxes_per_soak_hit must be at least 1".into());
        }
        if self.defense.is_empty() || self.soak.is_empty() {
            return Err("sr5: defense and soak each name at least one attribute".into());
        }
        for a in &self.attack_actions {
            for (i, m) in a.modes.iter().enumerate() {
                if m.mode.trim().is_empty() || m.mode.contains(char::is_whitespace) {
                    return Err(format!(
                        "sr5: {}'s fire modes are one word each, got {:?}",
                        a.action, m.mode
                    ));
                }
                if m.rounds == 0 {
                    return Err(format!(
                        "sr5: {}'s fire mode {} takes at least 1 round",
                        a.action, m.mode
                    ));
                }
                if a.modes[..i]
                    .iter()
                    .any(|o| o.mode.eq_ignore_ascii_case(&m.mode))
                {
                    return Err(format!(
                        "sr5: {} names fire mode {} twice",
                        a.action, m.mode
                    ));
                }
            }
        }
        Ok(())
    }

    /// The attack action of this name, if it is one.
    pub fn attack_action(&self, name: &str) -> Option<&AttackAction> {
        self.attack_actions
            .iter()
            .find(|a| a.action.eq_ignore_ascii_case(name))
    }

    pub fn is_reload(&self, name: &str) -> bool {
        named(&self.reload_actions, name)
    }

    pub fn is_remove_clip(&self, name: &str) -> bool {
        named(&self.remove_clip_actions, name)
    }

    pub fn is_insert_clip(&self, name: &str) -> bool {
        named(&self.insert_clip_actions, name)
    }

    pub fn is_melee_attack(&self, name: &str) -> bool {
        named(&self.melee_actions, name)
    }

    /// The test a wounded character must pass for this action, if it has one.
    pub fn wounded_test(&self, action: &str) -> Option<&WoundedTest> {
        self.wounded_tests
            .iter()
            .find(|t| t.action.eq_ignore_ascii_case(action))
    }

    /// Whether this much damage makes a character wounded.
    pub fn is_wounded(&self, physical: u8, stun: u8) -> bool {
        u16::from(physical) + u16::from(stun) >= u16::from(self.wounded_from_boxes.max(1))
    }

    pub fn defense_interrupt(&self, name: &str) -> Option<&DefenseInterrupt> {
        self.defense_interrupts
            .iter()
            .find(|d| d.action.eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::{Attribute, attributes_of};

    #[test]
    fn a_catalogue_test_of_attributes_only_gives_its_attributes() {
        assert_eq!(
            attributes_of("Body + Willpower"),
            Some(vec![Attribute::Body, Attribute::Willpower])
        );
        assert_eq!(attributes_of("Intuition"), Some(vec![Attribute::Intuition]));
        assert_eq!(
            attributes_of("Reaction + Intuition [Physical] v. Reaction + Intuition"),
            Some(vec![Attribute::Reaction, Attribute::Intuition])
        );
        // A skill or anything else srtrack does not keep: the GM types the pool.
        assert_eq!(attributes_of("(Weapon Skill) + Reaction [Physical]"), None);
        assert_eq!(attributes_of("Perception"), None);
        assert_eq!(attributes_of("none (Firewall action)"), None);
    }
}
