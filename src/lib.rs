//! srtrack: a combat and initiative tracker for Shadowrun game masters.
#![forbid(unsafe_code)]

pub mod catalogue;
pub mod cli;
pub mod encounter;
pub mod lang;
pub mod report;
pub mod roster;
pub mod rules;
pub mod save;
pub mod text;
pub mod ui;

/// The rule set srtrack starts with (built-in or the GM's overrides).
pub use catalogue::{Loaded, load_ruleset};
