//! The actions catalogue: loaded from `assets/actions.ron`, validated, searchable.

pub mod load;
pub mod model;
pub mod search;
mod validate;

pub use load::{GmFile, Loaded, load_ruleset};
pub use model::{ActionDef, ActionGroup, ActionKind, AttackRole, Effect, Restriction, TestBy};
pub use search::Hit;
pub use validate::{EntryRef, MAX_ACTIONS, Problem};

use crate::rules::HouseRules;

/// The catalogue file built into the binary.
pub const EMBEDDED_ACTIONS: &str = include_str!("../../assets/actions.ron");

/// How the built-in catalogue is named in messages.
pub const EMBEDDED_LABEL: &str = "assets/actions.ron";

/// The actions the engine may spend by name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Catalogue {
    actions: Vec<ActionDef>,
    /// Lower-case words of each name, kept for the typo fallback of `search` (which runs on
    /// every keystroke).
    name_words: Vec<Vec<search::Word>>,
}

impl Catalogue {
    pub fn from_actions(actions: Vec<ActionDef>) -> Self {
        let name_words = actions.iter().map(|a| search::words(&a.name)).collect();
        Self {
            actions,
            name_words,
        }
    }

    /// The built-in catalogue, checked against `rules`. It only fails when the rules drop a
    /// status or interrupt cost the built-in actions use (a GM's rules.ron can do that).
    pub fn embedded(rules: &HouseRules) -> Result<Self, Vec<Problem>> {
        Self::parse(EMBEDDED_ACTIONS, EMBEDDED_LABEL, rules)
    }

    /// Parses and validates a catalogue file; `file_label` names it in every problem.
    pub fn parse(text: &str, file_label: &str, rules: &HouseRules) -> Result<Self, Vec<Problem>> {
        validate::parse(text, file_label, rules).map(Self::from_actions)
    }

    pub fn actions(&self) -> &[ActionDef] {
        &self.actions
    }

    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The action with this name, ignoring case.
    pub fn get(&self, name: &str) -> Option<&ActionDef> {
        self.actions
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(name))
    }

    /// The actions of one group, in catalogue order.
    pub fn in_group(&self, group: ActionGroup) -> impl Iterator<Item = &ActionDef> + '_ {
        self.actions.iter().filter(move |a| a.group == group)
    }

    /// The action that ends a status (Stand Up ends Prone), if one does.
    pub fn ender_of(&self, status: &str) -> Option<&ActionDef> {
        self.actions
            .iter()
            .find(|a| matches!(&a.effect, Some(Effect::End(s)) if s.eq_ignore_ascii_case(status)))
    }

    /// The actions of one type as the text gives it (every interrupt, whatever its cost), in
    /// catalogue order.
    pub fn of_kind(&self, kind: ActionKind) -> impl Iterator<Item = &ActionDef> + '_ {
        let same = move |k: ActionKind| std::mem::discriminant(&k) == std::mem::discriminant(&kind);
        self.actions.iter().filter(move |a| same(a.kind))
    }
}
