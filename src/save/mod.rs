//! Saving encounters. The app calls an [`Autosave`] after every command.

use crate::encounter::Encounter;

/// Where the app writes the encounter after every change.
pub trait Autosave {
    /// Writes the whole encounter (history and undo position). The message says what failed.
    fn save(&mut self, encounter: &Encounter) -> Result<(), String>;
}

/// Keeps nothing: for tests, demos and read-only sessions.
pub struct NoSave;

impl Autosave for NoSave {
    fn save(&mut self, _encounter: &Encounter) -> Result<(), String> {
        Ok(())
    }
}
