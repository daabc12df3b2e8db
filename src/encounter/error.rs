//! Why a command was refused. Every message says what was wrong and what is allowed.

use super::system::System;

/// A command the rules refuse; the encounter is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error(
        "{field} {} is out of range: allowed {min} to {max}",
        crate::text::typed_number(*value)
    )]
    OutOfRange {
        field: &'static str,
        value: i32,
        min: i32,
        max: i32,
    },
    #[error(
        "{who}'s Edge rating cannot be {edge}: {burned} of it is burned for good, so {burned} is the lowest allowed"
    )]
    EdgeBelowBurned { who: String, edge: u8, burned: u8 },
    #[error(
        "the name \"{}\" has {len} characters: allowed {min} to {max}",
        crate::text::excerpt(name)
    )]
    NameLength {
        name: String,
        len: usize,
        min: i32,
        max: i32,
    },
    #[error(
        "the group's name \"{}\" has {len} characters, and its members are named after it with a number (\"{suffix}\"): a group of this size takes a name of at most {max}",
        crate::text::excerpt(name)
    )]
    GroupNameLength {
        name: String,
        len: usize,
        suffix: String,
        max: i32,
    },
    #[error(
        "the {field} holds a control character (a line break, tab, escape, or a mark that turns the text's direction): type it again with visible characters and spaces only"
    )]
    ControlCharacter { field: &'static str },
    #[error(
        "the {field} holds an invisible character (U+{code:04X}), so it would look the same without it: type it again with visible characters and spaces only"
    )]
    InvisibleCharacter { field: &'static str, code: u32 },
    #[error(
        "the {field} starts with a combining mark (U+{code:04X}), which joins what is drawn before it: put the mark after its letter"
    )]
    LeadingMark { field: &'static str, code: u32 },
    #[error("the {field} has {len} characters: allowed {min} to {max}")]
    TextLength {
        field: &'static str,
        len: usize,
        min: i32,
        max: i32,
    },
    #[error(
        "the name \"{}\" is already taken in this encounter: names must be unique",
        crate::text::excerpt(name)
    )]
    NameTaken { name: String },
    #[error("no combatant with id {0} in this encounter")]
    UnknownCombatant(u32),
    #[error("{who} has been removed from the encounter")]
    Removed { who: String },
    #[error("{what} only works before the fight starts (the fight is on: round {round})")]
    OnlyInSetup { what: &'static str, round: u32 },
    #[error("the fight has not started yet: add combatants, roll initiative, then `start`")]
    NotStarted,
    #[error("the encounter has ended: `undo` to go back to it")]
    Ended,
    #[error("there is nobody to fight: add combatants first")]
    NoCombatants,
    #[error(
        "{} not rolled initiative yet: `roll all`, or type in a roll",
        list_names(names, "has", "have")
    )]
    MissingInitiative { names: Vec<String> },
    #[error(
        "nobody can act: everyone in the order is Downed or removed (revive someone, or `end`)"
    )]
    NoOneCanAct,
    #[error("it is not {who}'s turn ({}); only Interrupt actions can be taken out of turn", current.as_deref().map_or_else(|| "nobody's turn".to_string(), |c| format!("it is {c}'s turn")))]
    NotTheirTurn {
        who: String,
        current: Option<String>,
    },
    #[error("{who} is Downed and cannot act")]
    Downed { who: String },
    #[error("{who} has not enough IP: has {have}, needs {need}")]
    NotEnoughIp { who: String, have: u8, need: u8 },
    #[error(
        "{who} has {have} IP left of the delay, and this needs {need}: a delayed turn spends only the IP held back (the rest of the pool waits for {who}'s next turn)"
    )]
    NotEnoughHeld { who: String, have: u8, need: u8 },
    /// An interrupt in the character's own delay sub-turn: the held IP or the pool pay it,
    /// one or the other.
    #[error(
        "{who} has {held} IP left of the delay and {pool} in the pool, and this interrupt needs {need}: one or the other pays it, not both together"
    )]
    NotEnoughHeldOrPool {
        who: String,
        held: u8,
        pool: u8,
        need: u8,
    },
    #[error(
        "{who} would spend {total} IP in {turn} turn, over the cap of {cap} IP a character turn (already spent {spent} IP in it, this costs {cost})"
    )]
    OverTurnCap {
        who: String,
        /// Whose character turn: "their own", or "Bob's".
        turn: String,
        spent: u8,
        cost: u8,
        total: u8,
        cap: u8,
    },
    #[error("{who} has already used Edge for IP this round (allowed {per_round} a round)")]
    EdgeUsedThisRound { who: String, per_round: u8 },
    #[error("{who} has no Edge left (needs {need}, has {have})")]
    NoEdgeLeft { who: String, have: u8, need: u8 },
    #[error("no action called \"{}\" in the catalogue", crate::text::excerpt(name))]
    UnknownAction { name: String },
    #[error(
        "{action} is a {kind} action: say which type it takes this time (free, simple or complex)"
    )]
    NeedsType { action: String, kind: &'static str },
    #[error(
        "{action} is {kind} action and cannot be taken as {asked}: only Variable and Special actions take a chosen type (leave out `as {asked}`)",
        asked = asked.to_lowercase()
    )]
    TypeNotAsked {
        action: String,
        /// The action's own type with its article ("a Simple", "an Interrupt").
        kind: &'static str,
        asked: &'static str,
    },
    #[error(
        "{action} costs {initiative} Initiative, which rules.ron's interrupt_costs does not map to IP"
    )]
    UnmappedInterrupt { action: String, initiative: i8 },
    #[error("{who} cannot take {action} while {status}")]
    BarredWhile {
        who: String,
        action: String,
        status: String,
    },
    #[error("{who} can take {action} only while {status}")]
    NeedsStatus {
        who: String,
        action: String,
        status: String,
    },
    #[error(
        "{who} has already attacked in this Action Phase ({earlier}): a second attack action needs {more} taken in it"
    )]
    AttackTaken {
        who: String,
        earlier: String,
        /// The action that allows another ("Multiple Attacks").
        more: String,
    },
    #[error("{who}'s {action} already waits for the action it goes with (one of {with})")]
    CombineWaiting {
        who: String,
        action: String,
        with: String,
    },
    #[error(
        "{who} can take {action} only with one of {with}: none was taken in this Action Phase for it to go with, and {who} could not take one after it ({why})"
    )]
    NothingToCombine {
        who: String,
        action: String,
        with: String,
        why: String,
    },
    #[error(
        "{who} can take {action} only with one of {with}, and nothing after it in the ready goes with it: add one after it"
    )]
    ReadyLacksPartner {
        who: String,
        action: String,
        with: String,
    },
    #[error("{who}'s Take Aim is already at its cap of {cap} (half Willpower, rounded up)")]
    TakeAimCapped { who: String, cap: u8 },
    #[error("{who} already holds {what}; it must be used or lapse first")]
    AlreadyReserving { who: String, what: &'static str },
    #[error("{what} can only be declared in {who}'s own turn")]
    NotOwnTurn { who: String, what: &'static str },
    #[error("a delay of {ip} IP is too much: at most {cap} IP can be spent in the sub-turn")]
    DelayTooLarge { ip: i32, cap: u8 },
    #[error("a ready action reserves 1 to {cap} IP, not {ip}")]
    ReadyReserve { ip: i32, cap: u8 },
    #[error("reserve at least 1 IP")]
    ReserveTooSmall,
    #[error("{who} cannot be their own trigger: name another character")]
    TriggerIsSelf { who: String },
    #[error("{trigger}'s turn in this pass is over: name a character still to act, or acting now")]
    TriggerGone { trigger: String },
    #[error(
        "{trigger} joined this pass and acts from the next: name a character still to act, or acting now"
    )]
    TriggerJoined { trigger: String },
    #[error("{who} is not in the initiative order")]
    NotInOrder { who: String },
    #[error("{who} holds no delay")]
    NoDelay { who: String },
    #[error("{who}'s delay already waits on {trigger}")]
    DelayHasTrigger { who: String, trigger: String },
    #[error("{who} holds no armed ready action")]
    NoReady { who: String },
    #[error(
        "{who}'s ready already fired in this turn: a character answers one trigger before their next turn, so the next ready waits for that turn"
    )]
    ReadyAnswered { who: String },
    #[error(
        "{who} has no ready trigger {}: allowed 1 to {count}",
        crate::text::typed_count(i32::try_from(*number).unwrap_or(i32::MAX))
    )]
    NoSuchTrigger {
        who: String,
        number: usize,
        count: usize,
    },
    #[error("the ready actions cost {cost} IP, more than the {reserve} IP reserved")]
    ReadyTooCostly { cost: u8, reserve: u8 },
    #[error("a ready trigger needs a description of what triggers it")]
    EmptyTrigger,
    #[error("a ready trigger needs at least one action")]
    NoReadyActions,
    #[error("{who} reserved {reserve} IP for readies already; give the same amount or none")]
    ReadyReserveMismatch { who: String, reserve: u8 },
    #[error("{who} can change initiative only at the start of their own turn, before any action")]
    ChangeNotAtStart { who: String },
    #[error(
        "{who} cannot move relative to {target}: {target}'s skipped turn waits for {who}'s turn, so neither would come"
    )]
    WaitsInCircle { who: String, target: String },
    #[error("{who} cannot move relative to themself")]
    TargetIsSelf { who: String },
    #[error("{who} is already Downed ({cause})")]
    AlreadyDowned { who: String, cause: &'static str },
    #[error("{who} is not Downed")]
    NotDowned { who: String },
    #[error(
        "`shared` is for a group added with `xN` (its members roll once): {name} is one character, who rolls alone"
    )]
    SharedAlone { name: String },
    #[error(
        "{who} is Downed because the {track} monitor is full: heal {track} damage to bring them back"
    )]
    DownedByMonitor { who: String, track: &'static str },
    #[error(
        "{who} has no {attribute} on their sheet, so no {track} monitor: `edit` to set {attribute}"
    )]
    NoMonitor {
        who: String,
        track: &'static str,
        attribute: &'static str,
    },
    #[error("{who} has no {track} damage to heal")]
    NothingToHeal { who: String, track: &'static str },
    #[error("a status needs some text")]
    EmptyStatus,
    #[error("{who} has no status \"{}\"", crate::text::excerpt(name))]
    NoSuchStatus { who: String, name: String },
    #[error("{who} already has {status}: taking {action} again would add nothing while it lasts")]
    AlreadyInEffect {
        who: String,
        action: String,
        status: String,
    },
    #[error("{who} already has the status \"{}\"", crate::text::excerpt(name))]
    StatusHeld { who: String, name: String },
    #[error("\"until this turn\" needs a turn in progress")]
    NoTurnNow,
    #[error(
        "{} hits are impossible on a pool of {pool} dice",
        crate::text::typed_count(*hits)
    )]
    HitsAbovePool { hits: i32, pool: u8 },
    #[error(
        "{} hits are impossible: {who}'s initiative pool has {} ({base} less {} for wounds)",
        crate::text::typed_count(*hits),
        crate::rules::sr5::test::dice(*pool),
        base - pool
    )]
    HitsAboveWoundedPool {
        who: String,
        hits: i32,
        pool: u8,
        base: u8,
    },
    #[error("{}", crate::rules::sr5::test::glitch_impossible(*hits, *pool))]
    GlitchImpossible { hits: i32, pool: u8 },
    #[error(
        "{} initiative for this encounter already: rolls hold for the whole fight",
        list_names(names, "has", "have")
    )]
    AlreadyRolled { names: Vec<String> },
    #[error("{who} shares the group roll of {group}: roll {group}")]
    SharesGroupRoll { who: String, group: String },
    #[error("a typed-in roll is for one combatant or one group sharing a roll")]
    TypedNeedsOne,
    #[error("nobody to roll for: {0}")]
    NothingToRoll(&'static str),
    #[error("the fight has already started")]
    AlreadyStarted,
    #[error("name at least one character to aim at")]
    NoTargets,
    #[error("{who} is named twice: name each character once")]
    TargetTwice { who: String },
    #[error("{who} is hidden from the players already: `reveal {who}` shows them again")]
    AlreadyHidden { who: String },
    #[error("{who} is not hidden from the players: `hide {who}` hides them")]
    NotHidden { who: String },
    #[error(
        "fire modes are SR5's: at a {system} table a burst is extra dice of the damage roll (`dmg NAME TARGET 3d6+4`); leave out `mode {mode}`"
    )]
    FireModesOfSr5 { system: System, mode: String },
    #[error("{}", other_system(verb, owners, *system, forms))]
    OtherSystem {
        verb: &'static str,
        owners: Vec<System>,
        system: System,
        /// This table's own forms of the verb (SR5's `armor NAME N` for 2097's `armor NAME pt N
        /// dr N`), as the language's synopses write them: the engine's gate gives none, the
        /// language fills them in (`lang::synopses::with_forms`).
        forms: Vec<String>,
    },
    #[error(transparent)]
    Sr2097(#[from] crate::rules::sr2097::Sr2097Error),
    #[error(transparent)]
    Anarchy(#[from] super::system::anarchy::AnarchyRefusal),
    #[error(transparent)]
    Sr5(#[from] super::system::sr5::Sr5Error),
}

impl RuleError {
    /// The IP an action needed when too few IP were what refused it.
    pub fn ip_short(&self) -> Option<u8> {
        match self {
            RuleError::NotEnoughIp { need, .. }
            | RuleError::NotEnoughHeld { need, .. }
            | RuleError::NotEnoughHeldOrPool { need, .. } => Some(*need),
            _ => None,
        }
    }

    /// `value` if `range` allows it, else a sentence naming the field and the range.
    pub(crate) fn in_range(
        field: &'static str,
        value: i32,
        range: crate::rules::house::Range,
    ) -> Result<i32, RuleError> {
        if range.contains(value) {
            Ok(value)
        } else {
            Err(RuleError::OutOfRange {
                field,
                value,
                min: range.min,
                max: range.max,
            })
        }
    }
}

/// A verb (or a form of one) of another system; where this system has the verb in forms of its
/// own, the sentence gives them.
fn other_system(verb: &str, owners: &[System], system: System, forms: &[String]) -> String {
    let owners = super::system::list(owners);
    if forms.is_empty() {
        return format!("`{verb}` is a command of {owners}; this encounter runs {system}");
    }
    let forms: Vec<String> = forms.iter().map(|f| format!("`{f}`")).collect();
    let forms = match forms.as_slice() {
        [rest @ .., last] if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => forms.join(""),
    };
    format!("this form of `{verb}` is {owners}'s; this encounter runs {system}: {forms}")
}

fn list_names(names: &[String], one: &str, many: &str) -> String {
    match names {
        [single] => format!("{single} {one}"),
        _ => format!("{} {many}", names.join(", ")),
    }
}

impl RuleError {
    /// The one check of a text typed in (a name, a status, a ready trigger, a reason): no
    /// control character, and a length within `range` (`rules.ron`'s limits). The text as it is
    /// kept: its joined emoji apart ([`crate::text::unjoined`]), trimmed.
    pub fn check_text(
        field: &'static str,
        text: &str,
        range: crate::rules::house::Range,
    ) -> Result<String, RuleError> {
        let text = crate::text::unjoined(text);
        let text = text.trim();
        if crate::text::holds_control(text) {
            return Err(RuleError::ControlCharacter { field });
        }
        if let Some(c) = crate::text::leading_mark(text) {
            return Err(RuleError::LeadingMark {
                field,
                code: u32::from(c),
            });
        }
        if let Some(c) = crate::text::first_invisible(text) {
            return Err(RuleError::InvisibleCharacter {
                field,
                code: u32::from(c),
            });
        }
        let len = text.chars().count();
        if !range.contains(i32::try_from(len).unwrap_or(i32::MAX)) {
            return Err(RuleError::TextLength {
                field,
                len,
                min: range.min,
                max: range.max,
            });
        }
        Ok(text.to_string())
    }
}
