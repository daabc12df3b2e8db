//! The actions catalogue: loaded from `assets/actions.ron`, validated, searchable.

pub mod model;

pub use model::{ActionDef, ActionGroup, ActionKind, Effect, Restriction};

/// The actions the engine may spend by name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Catalogue {
    actions: Vec<ActionDef>,
}

impl Catalogue {
    pub fn from_actions(actions: Vec<ActionDef>) -> Self {
        Self { actions }
    }

    pub fn actions(&self) -> &[ActionDef] {
        &self.actions
    }

    /// The action with this name, ignoring case.
    pub fn get(&self, name: &str) -> Option<&ActionDef> {
        self.actions
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(name))
    }
}
