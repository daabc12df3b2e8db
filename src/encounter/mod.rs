//! The encounter state machine: commands become events; the state is a fold of events.
