//! Pure game rules: dice pools, the house-rules numbers, initiative ordering. No terminal code.

pub mod anarchy;
pub mod dice;
pub mod house;
pub mod initiative;
pub mod sr2097;
pub mod sr5;

pub use dice::{Dice, Glitch, PoolRoll, RandomDice, ScriptedDice};
pub use house::{ActionType, HouseRules, StatusEnds};
