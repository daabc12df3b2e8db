//! Everything a key can ask of the app. Keys map to these through the keymap table only.

use tui_input::InputRequest;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    Help,
    /// Esc: close the popup or the mode.
    Cancel,
    /// Enter: confirm the popup or the mode.
    Confirm,
    Up,
    Down,
    PageUp,
    PageDown,
    /// Home: the first line of a list.
    First,
    /// End: the last line of a list.
    Last,
    /// Cycle the pane that j/k and PgUp/PgDn act on.
    FocusNext,
    Add,
    Edit,
    Remove,
    RollAll,
    RollNpcs,
    TypeRoll,
    Start,
    Next,
    End,
    Act,
    /// A bare Free, Simple or Complex action for the actor, without the picker.
    SpendType(crate::rules::ActionType),
    Interrupt,
    Delay,
    Ready,
    Fire,
    Move,
    Edge,
    ToggleDowned,
    /// Hide the targets from the players' view (`srtrack watch`), or show them again.
    ToggleHidden,
    Damage,
    Heal,
    AddStatus,
    ClearStatus,
    /// SR5: the test form.
    Test,
    /// SR5: the next step of the attack under way (defense or soak).
    AttackStep,
    Undo,
    Redo,
    CommandLine,
    NextGroup,
    PrevGroup,
    NextField,
    PrevField,
    /// Tab on the command line.
    Complete,
    /// In the ready picker: add the action and keep choosing.
    AddMore,
    /// In the ready picker: declare the ready with the actions chosen so far.
    Declare,
    /// Mark or unmark the selected character for the next damage, heal or status.
    Mark,
    UnmarkAll,
    /// Type a name to move the selection to it.
    Find,
    /// Text editing in an input (typed characters, cursor moves).
    Input(InputRequest),
    /// A Shadowrun 2097 success check for the selected character.
    Check,
    /// A Shadowrun 2097 damage roll by the selected character.
    DamageRoll,
    /// Shadowrun 2097's uses of Edge for the selected character.
    EdgeMenu,
    /// Anarchy: the narration under way ends, the next seat narrates.
    Narrate,
    /// Anarchy: the selected character narrates now, out of turn (Shake It Up).
    NarrateSelected,
    /// Anarchy: the Plot Point menu for the selected character.
    PlotPoints,
    /// Anarchy: a test for the selected character, typed on the command line.
    AnarchyTest,
    /// Anarchy: Edge on seeing the selected character's last roll, its misses rolled again
    /// (the command line, for the table's dice or Enter).
    EdgeAfter,
    /// Anarchy: a Cooldown on one of the selected character's things.
    Cooldown,
}
