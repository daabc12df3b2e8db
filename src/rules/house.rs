//! The house rules: every number of the initiative rules, read from `assets/rules.ron`.

use serde::{Deserialize, Serialize};

use super::anarchy::AnarchyRules;
use super::sr2097::Sr2097Rules;

/// The rules file built into the binary.
pub const EMBEDDED_RULES: &str = include_str!("../../assets/rules.ron");

/// Every number of the rules, as `assets/rules.ron` (or the GM's copy) gives them.
///
/// # A section per rule system
///
/// Each rule system keeps its numbers in a section of its own (`sr2097: Sr2097Rules`, …). A save
/// embeds its rules in full, and a GM's `rules.ron` may be older than this srtrack: a section they
/// lack is filled from the embedded `assets/rules.ron`, never from numbers written in code:
///
/// ```ignore
/// /// SR 2097's numbers: checks, damage bands, Edge.
/// #[serde(default = "sr2097_from_embedded")]
/// pub sr2097: Sr2097Rules,
///
/// fn sr2097_from_embedded() -> Sr2097Rules {
///     HouseRules::from_embedded(|r| &r.sr2097)
/// }
/// ```
///
/// The section must then be in `assets/rules.ron` itself (the embedded file has nothing to fall
/// back on; `embedded_rules_hold_every_section` fails if it is missing).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HouseRules {
    pub dice: DiceRules,
    pub passes_per_round: u8,
    pub starting_ip: u8,
    pub starting_ip_cap: u8,
    pub ip_per_turn: u8,
    pub turn_spend_cap: u8,
    pub action_costs: ActionCosts,
    pub interrupt_costs: Vec<InterruptCost>,
    pub edge: EdgeRules,
    pub ready_reserve_cap: u8,
    pub condition: ConditionRules,
    pub take_aim_willpower_divisor: u8,
    pub limits: Limits,
    pub statuses: Vec<StatusDef>,
    /// Shadowrun 2097's numbers: checks, damage and armor, injuries, Edge, initiative.
    #[serde(default = "sr2097_from_embedded")]
    pub sr2097: Sr2097Rules,
    /// Shadowrun: Anarchy's numbers: Plot Points, the menu of spends, tests, the glitch die.
    #[serde(default = "anarchy_from_embedded")]
    pub anarchy: AnarchyRules,
    /// SR5's numbers: tests, Edge, teamwork, weapons, armor, combat.
    #[serde(default = "sr5_from_embedded")]
    pub sr5: super::sr5::Sr5Rules,
}

fn sr2097_from_embedded() -> Sr2097Rules {
    HouseRules::from_embedded(|r| &r.sr2097)
}

fn anarchy_from_embedded() -> AnarchyRules {
    HouseRules::from_embedded(|r| &r.anarchy)
}

fn sr5_from_embedded() -> super::sr5::Sr5Rules {
    HouseRules::from_embedded(|r| &r.sr5)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRules {
    pub sides: u8,
    pub hit_at_least: u8,
    pub glitch_face: u8,
    pub glitch_more_than_num: u8,
    pub glitch_more_than_den: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionCosts {
    pub free: u8,
    pub simple: u8,
    pub complex: u8,
}

/// The catalogue writes an interrupt's cost as lost Initiative ("-5 Initiative"); this maps it to IP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterruptCost {
    pub initiative: i8,
    pub ip: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeRules {
    pub ip_gained: u8,
    pub edge_cost: u8,
    pub uses_per_round: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionRules {
    pub base_boxes: u8,
    pub attribute_divisor: u8,
    pub boxes_per_wound: u8,
}

/// An inclusive range of allowed values for one field of a combatant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Range {
    pub min: i32,
    pub max: i32,
}

impl Range {
    pub fn contains(self, value: i32) -> bool {
        (self.min..=self.max).contains(&value)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    pub name_chars: Range,
    pub intuition: Range,
    pub reaction: Range,
    pub edge: Range,
    pub dice_modifier: Range,
    pub ip_bonus: Range,
    pub body: Range,
    pub willpower: Range,
    pub group_size: Range,
    pub damage_boxes: Range,
    /// Free texts: status texts, ready triggers, reasons for leaving. Saves from before it have
    /// none: they get the built-in one.
    #[serde(default = "built_in_text_chars")]
    pub text_chars: Range,
}

impl Limits {
    /// Each range named as the file names it, and whether it counts something (a character,
    /// a member, a box), which a range from 0 would make impossible to give.
    fn named(&self) -> [(&'static str, Range, bool); 11] {
        [
            ("name_chars", self.name_chars, true),
            ("intuition", self.intuition, false),
            ("reaction", self.reaction, false),
            ("edge", self.edge, false),
            ("dice_modifier", self.dice_modifier, false),
            ("ip_bonus", self.ip_bonus, false),
            ("body", self.body, false),
            ("willpower", self.willpower, false),
            ("group_size", self.group_size, true),
            ("damage_boxes", self.damage_boxes, true),
            ("text_chars", self.text_chars, true),
        ]
    }

    /// A range no value fits (min above max), or a count that could be none, would refuse every
    /// `add`, `damage` or status typed: refused here, with the built-in rules used instead.
    fn validate(&self) -> Result<(), String> {
        for (name, r, counts) in self.named() {
            if r.min > r.max {
                return Err(format!(
                    "limits: {name} allows no value (min {} is above max {})",
                    r.min, r.max
                ));
            }
            if counts && r.min < 1 {
                return Err(format!(
                    "limits: {name} counts something, so its min must be at least 1, got {}",
                    r.min
                ));
            }
        }
        Ok(())
    }
}

/// The first range anywhere in `rules` that no value fits (min above max), with its place in
/// the file (`sr2097.damage.pt`). Every `Range` is found by walking the rules as the file
/// writes them, so a range added to any section is checked with no line here.
fn empty_range(rules: &HouseRules) -> Option<(String, (f64, f64))> {
    fn walk(value: &ron::Value, path: &str) -> Option<(String, (f64, f64))> {
        let number = |v: Option<&ron::Value>| match v {
            Some(ron::Value::Number(n)) => Some(n.into_f64()),
            _ => None,
        };
        match value {
            ron::Value::Map(map) => {
                let bound = |k: &str| number(map.get(&ron::Value::String(k.into())));
                if map.len() == 2
                    && let (Some(min), Some(max)) = (bound("min"), bound("max"))
                {
                    return (min > max).then(|| (path.to_string(), (min, max)));
                }
                map.iter().find_map(|(k, v)| {
                    let key = match k {
                        ron::Value::String(k) => k.clone(),
                        other => format!("{other:?}"),
                    };
                    let inner = if path.is_empty() {
                        key
                    } else {
                        format!("{path}.{key}")
                    };
                    walk(v, &inner)
                })
            }
            ron::Value::Seq(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, v)| walk(v, &format!("{path}[{i}]"))),
            ron::Value::Option(Some(v)) => walk(v, path),
            _ => None,
        }
    }
    // The rules were read from RON, so they write back to it; a failure finds nothing.
    let text = ron::to_string(rules).ok()?;
    let value: ron::Value = ron::from_str(&text).ok()?;
    walk(&value, "")
}

fn built_in_text_chars() -> Range {
    HouseRules::embedded().limits.text_chars
}

/// A lasting effect the catalogue can start, and when it ends by itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusDef {
    pub name: String,
    pub ends: StatusEnds,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StatusEnds {
    /// Until the end of the round in which it started.
    EndOfRound,
    /// Until an action ends it (Stand Up ends Prone).
    UntilEnded,
    /// Stacks with repeats of its own action and ends when the character takes any other action.
    OtherAction,
}

/// The action types that have a fixed IP cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum ActionType {
    Free,
    Simple,
    Complex,
}

impl ActionType {
    pub const ALL: [ActionType; 3] = [ActionType::Free, ActionType::Simple, ActionType::Complex];

    pub fn label(self) -> &'static str {
        match self {
            ActionType::Free => "Free",
            ActionType::Simple => "Simple",
            ActionType::Complex => "Complex",
        }
    }
}

impl std::fmt::Display for ActionType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// A problem found in a rules file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("{file}:{line}:{col}: {message}")]
    Syntax {
        file: String,
        line: usize,
        col: usize,
        message: String,
    },
    #[error("{file}: {message}")]
    Invalid { file: String, message: String },
}

thread_local! {
    /// Set while the embedded file is parsed, so a section missing from it fails loudly instead
    /// of asking the half-built cache for itself.
    static PARSING_EMBEDDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl HouseRules {
    /// The rules built into srtrack.
    pub fn embedded() -> Self {
        Self::embedded_ref().clone()
    }

    /// The rules built into srtrack, parsed once.
    pub fn embedded_ref() -> &'static Self {
        static EMBEDDED: std::sync::OnceLock<HouseRules> = std::sync::OnceLock::new();
        EMBEDDED.get_or_init(|| {
            PARSING_EMBEDDED.set(true);
            let parsed = Self::parse(EMBEDDED_RULES, "assets/rules.ron");
            PARSING_EMBEDDED.set(false);
            // The embedded file is checked by a test, so a failure here is a build defect, not
            // user input.
            parsed.expect("the embedded rules.ron is valid")
        })
    }

    /// A section of the embedded rules, for `#[serde(default = ...)]` on a section an older
    /// rules file (a save's, a GM's) may lack. See [`HouseRules`].
    pub fn from_embedded<T: Clone>(section: impl FnOnce(&HouseRules) -> &T) -> T {
        assert!(
            !PARSING_EMBEDDED.get(),
            "assets/rules.ron lacks a section that has a default: add the section to the file"
        );
        section(Self::embedded_ref()).clone()
    }

    /// Parses and validates a rules file; `file` names it in messages.
    pub fn parse(text: &str, file: &str) -> Result<Self, RulesError> {
        let rules: HouseRules = ron::from_str(text).map_err(|e| {
            let ((line, col), message) = crate::text::ron_error_words(&e, text);
            RulesError::Syntax {
                file: file.to_string(),
                line,
                col,
                message,
            }
        })?;
        rules.validate().map_err(|message| RulesError::Invalid {
            file: file.to_string(),
            message,
        })?;
        Ok(rules)
    }

    /// Checks the numbers hang together; a save carries its rules, so loading checks them too.
    pub fn validate(&self) -> Result<(), String> {
        let d = &self.dice;
        if d.sides < 2 {
            return Err(format!(
                "dice: sides must be at least 2 (a die with a face that hits and one that misses), got {}",
                d.sides
            ));
        }
        if d.hit_at_least == 0 || d.hit_at_least > d.sides {
            return Err(format!(
                "dice: hit_at_least must be between 1 and sides ({}), got {}",
                d.sides, d.hit_at_least
            ));
        }
        if d.glitch_face == 0 || d.glitch_face > d.sides || d.glitch_more_than_den == 0 {
            return Err(
                "dice: glitch_face must be a face of the die and glitch_more_than_den above 0"
                    .into(),
            );
        }
        if self.passes_per_round == 0 {
            return Err("passes_per_round must be at least 1".into());
        }
        if self.turn_spend_cap == 0 {
            return Err("turn_spend_cap must be at least 1".into());
        }
        if self.ready_reserve_cap == 0 {
            return Err(
                "ready_reserve_cap must be at least 1 (a ready sets aside 1 IP or more)".into(),
            );
        }
        if self.starting_ip > self.starting_ip_cap {
            return Err(format!(
                "starting_ip ({}) is above starting_ip_cap ({})",
                self.starting_ip, self.starting_ip_cap
            ));
        }
        let c = self.action_costs;
        if c.free == 0 || c.simple == 0 || c.complex == 0 {
            return Err("action_costs: every action costs at least 1 IP".into());
        }
        if self
            .interrupt_costs
            .iter()
            .any(|i| i.ip == 0 || i.initiative >= 0)
        {
            return Err(
                "interrupt_costs: each entry maps a negative initiative to at least 1 IP".into(),
            );
        }
        if self.condition.attribute_divisor == 0 || self.condition.boxes_per_wound == 0 {
            return Err(
                "condition: attribute_divisor and boxes_per_wound must be at least 1".into(),
            );
        }
        if self.take_aim_willpower_divisor == 0 {
            return Err("take_aim_willpower_divisor must be at least 1".into());
        }
        self.limits.validate()?;
        self.sr2097.validate()?;
        self.anarchy.validate()?;
        self.sr5.validate()?;
        if let Some((path, r)) = empty_range(self) {
            return Err(format!(
                "{path} allows no value (min {} is above max {})",
                r.0, r.1
            ));
        }
        if let Some(text) = crate::text::first_with_control(self) {
            return Err(format!(
                "\"{}\" holds a control character: the texts of the house rules are printable ones",
                crate::text::escaped(&text)
            ));
        }
        self.spend_names()?;
        let mut seen = std::collections::HashSet::new();
        for s in &self.statuses {
            let chars = s.name.chars().count();
            if s.name.trim().is_empty() || s.name.trim() != s.name {
                return Err(format!(
                    "statuses: \"{}\" is no name a GM could type: a status's name is words without spaces around them",
                    crate::text::excerpt(&s.name)
                ));
            }
            if !self
                .limits
                .name_chars
                .contains(i32::try_from(chars).unwrap_or(i32::MAX))
            {
                return Err(format!(
                    "statuses: \"{}\" is {chars} characters long: a status's name is {} to {} (limits: name_chars)",
                    crate::text::excerpt(&s.name),
                    self.limits.name_chars.min,
                    self.limits.name_chars.max
                ));
            }
            if !seen.insert(s.name.to_lowercase()) {
                return Err(format!("statuses: \"{}\" is defined twice", s.name));
            }
        }
        Ok(())
    }

    /// Anarchy's Plot Point spends are typed by name or alias (`pp NAME spend WORDS`), so each
    /// is held to a name's rules, and the menu holds at least one.
    fn spend_names(&self) -> Result<(), String> {
        if self.anarchy.spends.is_empty() {
            return Err(
                "anarchy spends: the list is empty, so Plot Points could buy nothing".into(),
            );
        }
        let words = self
            .anarchy
            .spends
            .iter()
            .flat_map(|s| std::iter::once(&s.name).chain(&s.aliases));
        for word in words {
            if word.trim().is_empty() {
                return Err(format!(
                    "anarchy spends: \"{word}\" is no name a GM could type: a spend's name and aliases are words"
                ));
            }
            if let Some(why) =
                crate::text::name_fault(word, "a spend's name", self.limits.name_chars)
            {
                return Err(format!(
                    "anarchy spends: \"{}\": {why}",
                    crate::text::excerpt(word)
                ));
            }
        }
        Ok(())
    }

    pub fn cost_of(&self, kind: ActionType) -> u8 {
        match kind {
            ActionType::Free => self.action_costs.free,
            ActionType::Simple => self.action_costs.simple,
            ActionType::Complex => self.action_costs.complex,
        }
    }

    /// IP paid for an interrupt written as `initiative` (e.g. -5), if the rules map it.
    pub fn interrupt_ip(&self, initiative: i8) -> Option<u8> {
        self.interrupt_costs
            .iter()
            .find(|c| c.initiative == initiative)
            .map(|c| c.ip)
    }

    /// The pool a round starts with: the starting IP plus augmentation, capped.
    pub fn starting_pool(&self, ip_bonus: u8) -> u8 {
        self.starting_ip
            .saturating_add(ip_bonus)
            .min(self.starting_ip_cap)
    }

    /// Boxes of a condition monitor for an attribute (Body or Willpower).
    pub fn monitor_boxes(&self, attribute: u8) -> u8 {
        self.condition
            .base_boxes
            .saturating_add(attribute.div_ceil(self.condition.attribute_divisor))
    }

    /// The wound modifier for the damage taken (a negative number of dice, or 0).
    pub fn wound_modifier(&self, physical: u8, stun: u8) -> i32 {
        let per = self.condition.boxes_per_wound;
        -(i32::from(physical / per) + i32::from(stun / per))
    }

    /// The largest Take Aim stack a character with this Willpower may build.
    pub fn take_aim_cap(&self, willpower: Option<u8>) -> Option<u8> {
        willpower.map(|w| w.div_ceil(self.take_aim_willpower_divisor))
    }

    pub fn status(&self, name: &str) -> Option<&StatusDef> {
        self.statuses
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_rules_hold_the_numbers_of_the_rules_text() {
        let r = HouseRules::embedded();
        assert_eq!(r.passes_per_round, 5);
        assert_eq!(r.starting_ip, 4);
        assert_eq!(r.starting_ip_cap, 10);
        assert_eq!(r.turn_spend_cap, 5);
        assert_eq!(
            (
                r.cost_of(ActionType::Free),
                r.cost_of(ActionType::Simple),
                r.cost_of(ActionType::Complex)
            ),
            (1, 2, 4)
        );
        assert_eq!(r.interrupt_ip(-5), Some(2));
        assert_eq!(r.interrupt_ip(-10), Some(4));
        assert_eq!(r.starting_pool(9), 10);
        assert_eq!(r.monitor_boxes(5), 11);
        assert_eq!(r.wound_modifier(3, 5), -2);
        assert_eq!(r.take_aim_cap(Some(5)), Some(3));
    }

    /// The pattern of [`HouseRules`], tried on a section every file has: an old file without
    /// the section gets the embedded numbers.
    #[test]
    fn a_section_an_old_file_lacks_comes_from_the_embedded_rules() {
        #[derive(Deserialize)]
        struct Old {
            passes_per_round: u8,
            #[serde(default = "edge_from_embedded")]
            edge: EdgeRules,
        }
        fn edge_from_embedded() -> EdgeRules {
            HouseRules::from_embedded(|r| &r.edge)
        }
        let old: Old = ron::from_str("(passes_per_round: 3)").unwrap();
        assert_eq!(old.passes_per_round, 3);
        assert_eq!(old.edge, HouseRules::embedded().edge);
        let given: Old = ron::from_str(
            "(passes_per_round: 3, edge: (ip_gained: 2, edge_cost: 1, uses_per_round: 2))",
        )
        .unwrap();
        assert_eq!(given.edge.ip_gained, 2);
    }

    /// Every section is in the embedded file: parsing it asks no default of itself.
    #[test]
    fn embedded_rules_hold_every_section() {
        PARSING_EMBEDDED.set(true);
        let parsed = HouseRules::parse(EMBEDDED_RULES, "assets/rules.ron");
        PARSING_EMBEDDED.set(false);
        assert!(parsed.is_ok());
    }

    #[test]
    fn a_die_of_too_few_sides_is_refused_naming_its_sides() {
        // Given rules whose die has 0 or 1 sides (a tampered file)
        for sides in [0, 1] {
            let mut r = HouseRules::embedded();
            r.dice.sides = sides;
            // Then the refusal names the sides, not the face that hits
            let err = r.validate().unwrap_err();
            assert!(err.starts_with("dice: sides must be at least 2"), "{err}");
            assert!(err.ends_with(&format!("got {sides}")), "{err}");
        }
    }

    #[test]
    fn a_broken_rules_file_names_line_and_column() {
        let err =
            HouseRules::parse("HouseRules(\n  passes_per_round: x,\n)", "my.ron").unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("my.ron:2:"), "{msg}");
        // In words a GM can act on, as a save's are, not ron's own.
        let err = HouseRules::parse("HouseRules(\n  passes_per_round: \"x\",\n)", "my.ron")
            .unwrap_err()
            .to_string();
        assert!(err.contains("a whole number belongs here"), "{err}");
    }

    /// A save carries its rules: a status name with an escape sequence in it would reach the
    /// screen, so such a file is refused, whichever section holds the text.
    #[test]
    fn a_control_character_in_a_text_of_the_rules_is_refused() {
        let r = HouseRules::embedded();
        let status = &r.statuses[0].name;
        let text = EMBEDDED_RULES.replacen(
            &format!("\"{status}\""),
            &format!("\"{status}\\u{{1b}}[2J\""),
            1,
        );
        assert_ne!(text, EMBEDDED_RULES);
        let err = HouseRules::parse(&text, "r.ron").unwrap_err().to_string();
        assert!(err.contains("control character"), "{err}");
        assert!(!crate::text::holds_control(&err), "{err:?}");
        let mut r = HouseRules::embedded();
        r.sr5.defense_interrupts[0].adds.push('\u{7}');
        assert!(r.validate().unwrap_err().contains("control character"));
    }

    /// Given a rules file whose limits leave no value to give (min above max, a count from 0)
    /// or whose status names no GM could type, when it is parsed, then it is refused naming
    /// the field.
    #[test]
    fn limits_that_allow_nothing_and_untypable_status_names_are_refused() {
        let cases = [
            (
                "intuition: (min: 1, max: 20)",
                "intuition: (min: 20, max: 1)",
                "intuition allows no value (min 20 is above max 1)",
            ),
            (
                "edge: (min: 0, max: 10)",
                "edge: (min: 5, max: 2)",
                "edge allows no value",
            ),
            (
                "name_chars: (min: 1, max: 40)",
                "name_chars: (min: 0, max: 0)",
                "name_chars counts something, so its min must be at least 1, got 0",
            ),
            (
                "group_size: (min: 1, max: 50)",
                "group_size: (min: 0, max: 0)",
                "group_size counts",
            ),
            (
                "damage_boxes: (min: 1, max: 40)",
                "damage_boxes: (min: 0, max: 0)",
                "damage_boxes counts",
            ),
            (
                "text_chars: (min: 1, max: 200)",
                "text_chars: (min: 0, max: 0)",
                "text_chars counts",
            ),
            (
                "(name: \"Prone\",",
                "(name: \"\",",
                "\"\" is no name a GM could type",
            ),
            (
                "(name: \"Prone\",",
                "(name: \"   \",",
                "is no name a GM could type",
            ),
            (
                "(name: \"Prone\",",
                &format!("(name: \"{}\",", "P".repeat(41)),
                "is 41 characters long: a status's name is 1 to 40",
            ),
        ];
        for (from, to, says) in cases {
            let text = EMBEDDED_RULES.replacen(from, to, 1);
            assert_ne!(text, EMBEDDED_RULES, "{from}");
            let err = HouseRules::parse(&text, "r.ron").unwrap_err().to_string();
            assert!(err.contains(says), "{to}: {err}");
        }
    }

    /// Each `(from, to, says)`: the built-in file with `from` made `to` is refused, naming the
    /// file, in words holding `says`.
    fn refused_naming(cases: &[(&str, &str, &str)]) {
        for (from, to, says) in cases {
            let text = EMBEDDED_RULES.replacen(from, to, 1);
            assert_ne!(text, EMBEDDED_RULES, "{from}");
            let err = HouseRules::parse(&text, "r.ron").unwrap_err().to_string();
            assert!(err.starts_with("r.ron: "), "{err}");
            assert!(err.contains(says), "{to}: {err}");
        }
    }

    /// Given a rules file with a range no value fits, anywhere in it (each system's section
    /// included), a ready that could set aside no IP, or injuries that start above 1 point,
    /// when it is parsed, then it is refused naming the file and the field.
    #[test]
    fn every_range_that_allows_no_value_and_a_zero_ready_cap_are_refused() {
        let cases = [
            (
                "pt: (min: 0, max: 200)",
                "pt: (min: 201, max: 200)",
                "sr2097.damage.pt allows no value (min 201 is above max 200)",
            ),
            (
                "weapon_dv: (min: 0, max: 30)",
                "weapon_dv: (min: 31, max: 30)",
                "sr5.weapon_dv allows no value (min 31 is above max 30)",
            ),
            (
                "pool: (min: 0, max: 30)",
                "pool: (min: 31, max: 30)",
                "anarchy.limits.pool allows no value",
            ),
            (
                "montage: (min: 1, max: 5)",
                "montage: (min: 6, max: 5)",
                "anarchy.limits.montage allows no value",
            ),
            (
                "ready_reserve_cap: 3",
                "ready_reserve_cap: 0",
                "ready_reserve_cap must be at least 1",
            ),
            (
                "(from: 1, severity: Graze)",
                "(from: 5, severity: Graze)",
                "sr2097.damage.severity: steps from 1 upwards",
            ),
        ];
        refused_naming(&cases);
    }

    /// Given a rules file whose Anarchy spends no command could name (a blank name or alias, a
    /// name with spaces around it) or that lists none, when it is parsed, then it is refused
    /// naming the spends.
    #[test]
    fn plot_point_spends_no_command_could_name_are_refused() {
        let cases = [
            (
                "name: \"Flashback\"",
                "name: \"  \"",
                "anarchy spends: \"  \" is no name a GM could type",
            ),
            (
                "name: \"Flashback\", aliases: []",
                "name: \"Flashback\", aliases: [\"\"]",
                "anarchy spends: \"\" is no name a GM could type",
            ),
            (
                "name: \"Flashback\"",
                "name: \" Flashback\"",
                "spaces at an end",
            ),
        ];
        refused_naming(&cases);
        let mut r = HouseRules::embedded();
        r.anarchy.spends.clear();
        assert!(r.validate().unwrap_err().contains("the list is empty"));
    }

    /// Given a number too large for its field (`passes_per_round: 300`) or below 0 for a count,
    /// when the rules are parsed, then the message says so in words, not the parser's.
    #[test]
    fn a_number_that_does_not_fit_its_field_is_said_in_words() {
        for to in ["passes_per_round: 300", "passes_per_round: -1"] {
            let text = EMBEDDED_RULES.replacen("passes_per_round: 5", to, 1);
            assert_ne!(text, EMBEDDED_RULES);
            let err = HouseRules::parse(&text, "r.ron").unwrap_err().to_string();
            assert!(
                err.contains("this number does not fit its field"),
                "{to}: {err}"
            );
            assert!(!err.contains("out of bounds"), "{err}");
        }
    }

    /// A rules file from before the one-use-of-Edge ruling gets the built-in file's switch.
    #[test]
    fn a_rules_file_without_one_edge_use_per_test_gets_the_built_in_one() {
        let text = EMBEDDED_RULES
            .lines()
            .filter(|l| !l.contains("one_edge_use_per_test:"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_ne!(text.len(), EMBEDDED_RULES.len());
        let old = HouseRules::parse(&text, "old.ron").unwrap_or_else(|e| panic!("{e}"));
        let built_in = HouseRules::embedded();
        assert_eq!(
            old.sr5.one_edge_use_per_test,
            built_in.sr5.one_edge_use_per_test
        );
    }

    /// A rules file from before SR5's wounded tests gets the built-in file's.
    #[test]
    fn a_rules_file_without_the_wounded_tests_gets_the_built_in_ones() {
        let text = EMBEDDED_RULES
            .lines()
            .filter(|l| !l.contains("wounded_tests:") && !l.contains("wounded_from_boxes:"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_ne!(text.len(), EMBEDDED_RULES.len());
        let old = HouseRules::parse(&text, "old.ron").unwrap_or_else(|e| panic!("{e}"));
        let built_in = HouseRules::embedded();
        assert_eq!(old.sr5.wounded_tests, built_in.sr5.wounded_tests);
        assert_eq!(old.sr5.wounded_from_boxes, built_in.sr5.wounded_from_boxes);
    }

    #[test]
    fn a_fire_mode_named_twice_or_of_no_rounds_is_refused() {
        let text =
            EMBEDDED_RULES.replace(r#"(mode: "SA", rounds: 1)"#, r#"(mode: "ss", rounds: 1)"#);
        let e = HouseRules::parse(&text, "r.ron")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains("Fire Gun names fire mode ss twice"), "{e}");
        let text =
            EMBEDDED_RULES.replace(r#"(mode: "BF", rounds: 3)"#, r#"(mode: "BF", rounds: 0)"#);
        let e = HouseRules::parse(&text, "r.ron")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("Fire Gun's fire mode BF takes at least 1 round"),
            "{e}"
        );
    }

    #[test]
    fn starting_ip_above_the_cap_is_refused() {
        let text = EMBEDDED_RULES.replace("starting_ip: 4,", "starting_ip: 11,");
        let err = HouseRules::parse(&text, "r.ron").unwrap_err();
        assert!(
            err.to_string()
                .contains("starting_ip (11) is above starting_ip_cap (10)")
        );
    }
}
