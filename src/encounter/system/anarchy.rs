//! Shadowrun: Anarchy's vocabulary: its commands, its events, the table it keeps (seats, Plot
//! Points, the turn of narrations, gear tracks) and why it refuses a command.
//!
//! The table is the state of `Phase::Narration`: an Anarchy encounter enters it with its first
//! Anarchy command, and the fold (`apply/anarchy.rs`) is the only writer.

use serde::{Deserialize, Serialize};

use crate::encounter::model::{CombatantId, Track};
use crate::rules::anarchy::AnarchyRules;
use crate::rules::anarchy::narration::{Movements, TurnOrder};
use crate::rules::anarchy::plot::Limit;
use crate::rules::anarchy::test::{Edge, Outcome, Pool, Roll, Spec, TestError};

// ----- commands -----------------------------------------------------------------------------

/// A pool as typed: numbers not yet checked against the limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PoolInput {
    /// `7`: a pool already added up.
    Dice(i32),
    /// `4+3` or `4+3-1`: skill, attribute, modifier.
    Skill {
        skill: i32,
        attribute: i32,
        modifier: i32,
    },
    /// `untrained 3`: the linked attribute alone.
    Untrained { attribute: i32, modifier: i32 },
    /// `attr 3+4` (or `attr 3+3`): an attribute-only test.
    Attributes {
        first: i32,
        second: i32,
        modifier: i32,
    },
}

/// A test as typed: `POOL vs POOL [team N] [edge before|after] [glitchdie]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestInput {
    pub pool: PoolInput,
    pub opposing: PoolInput,
    /// The assistants' hits (teamwork).
    pub teamwork: i32,
    pub edge: Edge,
    pub glitch_die: bool,
}

/// The table's dice for a test: the actor's, and the opposing pool's if typed too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypedDice {
    pub actor: Vec<u8>,
    pub opposing: Option<Vec<u8>>,
}

/// Why a player is given a Plot Point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AwardReason {
    /// No reason given.
    Unsaid,
    /// A Cue demonstrated: only its first time in the session earns a point.
    Cue(String),
    Disposition(String),
    /// A Shadow Amp's bonus at the start of combat.
    ShadowAmp,
    /// In the GM's words (a good narration, …).
    Other(String),
}

/// A spend as typed: the words naming it (and perhaps its argument), `on NAME`, more words,
/// and the note after a colon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpendInput {
    /// The words before `on`: the spend's name, then its argument (Montage's X, a track, a
    /// thing, a twist's words).
    pub words: String,
    pub on: Option<CombatantId>,
    /// The words after `on NAME`, before the colon: more of the argument.
    pub rest: String,
    /// The words after the colon: the note (empty: none).
    #[serde(default)]
    pub note: String,
}

/// A Shadow Amp on the sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Amp {
    #[default]
    None,
    /// Gives a Plot Point when combat starts.
    BonusPlotPoint,
}

/// The tracks an Anarchy character has beyond the shared Physical and Stun monitors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GearTrack {
    Armor,
    Matrix,
}

impl GearTrack {
    pub fn label(self) -> &'static str {
        match self {
            GearTrack::Armor => "Armor",
            GearTrack::Matrix => "Matrix",
        }
    }
}

/// Any condition track of an Anarchy character (what First Aid/Fix recovers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Condition {
    Monitor(Track),
    Gear(GearTrack),
}

impl Condition {
    pub const WORDS: [(&'static str, Condition); 4] = [
        ("physical", Condition::Monitor(Track::Physical)),
        ("stun", Condition::Monitor(Track::Stun)),
        ("armor", Condition::Gear(GearTrack::Armor)),
        ("matrix", Condition::Gear(GearTrack::Matrix)),
    ];

    pub fn from_word(word: &str) -> Option<Self> {
        Self::WORDS
            .iter()
            .find(|(w, _)| w.eq_ignore_ascii_case(word.trim()))
            .map(|(_, c)| *c)
    }
}

/// How the GM changes the next turn's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrderChange {
    Reverse,
    Random,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnarchyCommand {
    /// `narrate [NAME]`: the next narrator, or NAME now, out of turn (Shake It Up).
    Narrate { who: Option<CombatantId> },
    /// `seating NAME, NAME, …`: the table's order, NPC narrations where the GM puts them.
    Seat { seating: Vec<CombatantId> },
    /// `sheet NAME [armor N] [matrix N] [amp on|off]`.
    Sheet {
        who: CombatantId,
        armor: Option<i32>,
        matrix: Option<i32>,
        amp: Option<Amp>,
    },
    /// `pp NAME award [WHY]`.
    Award {
        who: CombatantId,
        reason: AwardReason,
    },
    /// `pp NAME spend WHAT [on NAME] [TEXT]`.
    Spend { who: CombatantId, spend: SpendInput },
    /// `gm spend WHAT [on NAME] [TEXT]`.
    GmSpend { spend: SpendInput },
    /// `gm order reverse|random`.
    GmOrder { change: OrderChange },
    /// `atest NAME POOL vs POOL … [dice A B … [vs C D …]]`.
    Test {
        who: CombatantId,
        test: TestInput,
        dice: Option<TypedDice>,
    },
    /// Things on Cooldown, each of its character: `cooldown NAME THING[, NAME THING…]`.
    Cooldown { things: Vec<(CombatantId, String)> },
    /// `damage NAME N armor|matrix`.
    Damage {
        who: CombatantId,
        track: GearTrack,
        boxes: i32,
    },
    /// `heal NAME N armor|matrix`.
    Repair {
        who: CombatantId,
        track: GearTrack,
        boxes: i32,
    },
    /// `edge NAME regain [N]`: the GM gives Edge back, never past the sheet's.
    RegainEdge { who: CombatantId, edge: i32 },
    /// `edge NAME after [dice A B …]`: Edge spent on seeing the roll, the misses of NAME's last
    /// test rolled again (with `dice`, the table's new dice for them).
    EdgeAfter {
        who: CombatantId,
        dice: Option<Vec<u8>>,
    },
}

impl AnarchyCommand {
    /// The verb of the command language, for messages that name it.
    pub fn verb(&self) -> &'static str {
        match self {
            AnarchyCommand::Narrate { .. } => "narrate",
            AnarchyCommand::Seat { .. } => "seating",
            AnarchyCommand::Sheet { .. } => "sheet",
            AnarchyCommand::Award { .. } | AnarchyCommand::Spend { .. } => "pp",
            AnarchyCommand::GmSpend { .. } | AnarchyCommand::GmOrder { .. } => "gm",
            AnarchyCommand::Test { .. } => "atest",
            AnarchyCommand::Cooldown { .. } => "cooldown",
            AnarchyCommand::Damage { .. } => "damage … armor|matrix",
            AnarchyCommand::Repair { .. } => "heal … armor|matrix",
            AnarchyCommand::RegainEdge { .. } => "edge … regain",
            AnarchyCommand::EdgeAfter { .. } => "edge … after",
        }
    }
}

// ----- events -------------------------------------------------------------------------------

/// Whether a narration came at its seat or out of turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Slot {
    Seat,
    /// Shake It Up (or a Flashback): now, and not again at the seat this turn.
    OutOfTurn,
    /// Asked for by name (`narrate NAME`, `N`) when the seat came next anyway: no Shake It Up.
    NextAnyway,
    /// A Flashback's narration (paid with the Flashback), out of turn or at the seat that came
    /// next; one a narration.
    Flashback,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnarchyEvent {
    /// The table opens: the GM's pool starts.
    SessionBegan {
        gm_points: u32,
    },
    /// A player character takes the next seat with its starting Plot Points.
    Seated {
        who: CombatantId,
        plot_points: u8,
    },
    SeatingSet {
        seating: Vec<CombatantId>,
    },
    /// A player seated while a turn is under way narrates in it too, at its end.
    JoinedTurn {
        who: CombatantId,
    },
    SheetSet {
        who: CombatantId,
        armor: u8,
        matrix: u8,
        amp: Amp,
    },
    TurnBegan {
        turn: u32,
        order: Vec<CombatantId>,
        how: TurnOrder<CombatantId>,
    },
    NarrationStarted {
        who: CombatantId,
        slot: Slot,
    },
    /// A Downed character's narration comes and goes.
    NarrationSkipped {
        who: CombatantId,
    },
    NarrationEnded {
        who: CombatantId,
    },
    TurnEnded {
        turn: u32,
    },
    /// The GM pays for the next turn's order.
    OrderChosen {
        how: TurnOrder<CombatantId>,
        points: u8,
    },
    Awarded {
        who: CombatantId,
        points: u8,
        reason: AwardReason,
    },
    /// A player spends Plot Points; the GM's pool gains `gm_gained`.
    Spent {
        who: CombatantId,
        what: String,
        points: u8,
        on: Option<CombatantId>,
        note: Option<String>,
        gm_gained: u32,
    },
    GmSpent {
        what: String,
        points: u8,
        on: Option<CombatantId>,
        note: Option<String>,
    },
    /// "Interesting Times": Edge back for a complication (0 when it was full).
    EdgeRegained {
        who: CombatantId,
        edge: u8,
    },
    /// The GM gives Edge back (`edge NAME regain N`), within the sheet's Edge.
    EdgeGiven {
        who: CombatantId,
        edge: u8,
    },
    /// A glitch die waits for this character's next test.
    GlitchDieReady {
        who: CombatantId,
    },
    /// The narrator's narration under way becomes its Flashback (taken in its own narration).
    FlashbackNarrated {
        who: CombatantId,
    },
    /// The narration under way gets Double-Time It's Movements.
    DoubleTime {
        who: CombatantId,
    },
    /// `who` got its Get Revenge in the narration under way (or, between turns, before the
    /// next one).
    Revenged {
        who: CombatantId,
    },
    Tested {
        who: CombatantId,
        spec: Spec,
        roll: Roll,
        /// What the dice came to under the rules in force, kept for the log.
        outcome: Outcome,
        edge_spent: u8,
        /// Edge spent on seeing the roll (`edge NAME after`): the test before, its misses
        /// rolled again (`roll.first` the dice as they lay).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        rerolled: bool,
    },
    GearDamaged {
        who: CombatantId,
        track: GearTrack,
        boxes: u8,
    },
    GearRepaired {
        who: CombatantId,
        track: GearTrack,
        boxes: u8,
    },
}

// ----- the table ----------------------------------------------------------------------------

/// A player character at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub who: CombatantId,
    pub plot_points: u8,
    /// Cues demonstrated this session (each earns a point once).
    pub cues: Vec<String>,
}

/// A track of boxes: its size and the damage on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Boxes {
    pub size: u8,
    pub damage: u8,
}

/// What an Anarchy sheet holds beyond the shared one: Armor and Matrix tracks, a Shadow Amp.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gear {
    pub who: CombatantId,
    pub armor: Boxes,
    pub matrix: Boxes,
    pub amp: Amp,
}

impl Gear {
    pub fn track(&self, track: GearTrack) -> Boxes {
        match track {
            GearTrack::Armor => self.armor,
            GearTrack::Matrix => self.matrix,
        }
    }

    pub fn track_mut(&mut self, track: GearTrack) -> &mut Boxes {
        match track {
            GearTrack::Armor => &mut self.armor,
            GearTrack::Matrix => &mut self.matrix,
        }
    }
}

/// The narration under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narrator {
    pub who: CombatantId,
    /// Unique to this narration in the encounter (statuses "until turn" end with it).
    pub serial: u64,
    pub slot: Slot,
    pub movements: Movements,
    /// The narrator has made a test in this narration: too late for it to be a Flashback.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tested: bool,
}

/// A turn in progress: its order, who has had a narration, who narrates now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NarrationTurn {
    pub order: Vec<CombatantId>,
    pub how: TurnOrder<CombatantId>,
    /// Narrated (at the seat or out of turn) or skipped this turn.
    pub done: Vec<CombatantId>,
    pub narrator: Option<Narrator>,
}

/// Where the table is between narrations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// No turn under way (before the first, or after one ended); `next` is how the next turn's
    /// order will be made.
    Between {
        next: TurnOrder<CombatantId>,
    },
    Turn(NarrationTurn),
}

/// The GM's spend in this turn, and the player it was aimed at, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GmSpend {
    pub points: u8,
    pub on_player: Option<CombatantId>,
}

/// The Anarchy table: the state of `Phase::Narration`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narration {
    /// Turns begun so far.
    pub turn: u32,
    /// The table's order, player characters and NPC narrations where the GM put them.
    pub seating: Vec<CombatantId>,
    pub players: Vec<Player>,
    pub gm_points: u32,
    /// The GM's spends of this turn (between turns: of the turn to come).
    pub gm_spends: Vec<GmSpend>,
    pub stage: Stage,
    /// Whose next test has a glitch die bought.
    pub glitch_dice: Vec<CombatantId>,
    pub gear: Vec<Gear>,
    /// Narrations started so far.
    pub narrations: u64,
    /// Each character's last test while its dice still lie on the table: until the narration
    /// ends (or the next begins), Edge may yet roll its misses again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open_tests: Vec<OpenTest>,
    /// Each character's last test Edge can no longer take up, for as long as `open_tests` would
    /// have kept it: the refusal says why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed_tests: Vec<ClosedTest>,
    /// Who has had Get Revenge in this narration (between turns: since the last one ended).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revenged: Vec<CombatantId>,
}

/// Why a test is closed to Edge after the roll: one Edge a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Closed {
    /// Edge was spent before the roll.
    EdgeBefore,
    /// Its misses were rolled again with Edge already.
    Rerolled,
    /// Edge after was declared with the test and every die hit: nothing to roll again.
    AllHit,
}

/// A character's last test while its dice lie on the table, closed to Edge after the roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClosedTest {
    pub who: CombatantId,
    pub why: Closed,
}

/// A test Edge was not spent on, its dice as they lay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenTest {
    pub who: CombatantId,
    pub spec: Spec,
    pub roll: Roll,
}

impl Narration {
    pub fn new(gm_points: u32) -> Self {
        Self {
            turn: 0,
            seating: Vec::new(),
            players: Vec::new(),
            gm_points,
            gm_spends: Vec::new(),
            stage: Stage::Between {
                next: TurnOrder::Seating,
            },
            glitch_dice: Vec::new(),
            gear: Vec::new(),
            narrations: 0,
            open_tests: Vec::new(),
            closed_tests: Vec::new(),
            revenged: Vec::new(),
        }
    }

    pub fn player(&self, who: CombatantId) -> Option<&Player> {
        self.players.iter().find(|p| p.who == who)
    }

    pub fn gear_of(&self, who: CombatantId) -> Option<&Gear> {
        self.gear.iter().find(|g| g.who == who)
    }

    pub fn turn_state(&self) -> Option<&NarrationTurn> {
        match &self.stage {
            Stage::Turn(t) => Some(t),
            Stage::Between { .. } => None,
        }
    }

    pub fn narrator(&self) -> Option<&Narrator> {
        self.turn_state().and_then(|t| t.narrator.as_ref())
    }

    /// Whether `who` has had (or is having) a narration this turn.
    pub fn has_narrated(&self, who: CombatantId) -> bool {
        self.turn_state()
            .is_some_and(|t| t.done.contains(&who) || t.narrator.is_some_and(|n| n.who == who))
    }

    /// The GM's Plot Points spent in this turn, in all and on one player.
    pub fn gm_spent(&self, on: Option<CombatantId>) -> u32 {
        self.gm_spends
            .iter()
            .filter(|s| on.is_none() || s.on_player == on)
            .map(|s| u32::from(s.points))
            .sum()
    }

    pub fn has_glitch_die(&self, who: CombatantId) -> bool {
        self.glitch_dice.contains(&who)
    }

    /// `who`'s last test, if Edge may still roll its misses again.
    pub fn open_test(&self, who: CombatantId) -> Option<&OpenTest> {
        self.open_tests.iter().find(|t| t.who == who)
    }

    /// Why `who`'s last test is closed to Edge after the roll, if it is.
    pub fn closed_test(&self, who: CombatantId) -> Option<Closed> {
        self.closed_tests
            .iter()
            .find(|t| t.who == who)
            .map(|t| t.why)
    }
}

// ----- refusals -----------------------------------------------------------------------------

/// Why Anarchy's rules refuse a command. Each sentence says what was wrong and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnarchyRefusal {
    #[error(
        "Plot Points are the players': {who} is an NPC (the GM spends for NPCs with `gm spend`)"
    )]
    NotAPlayer { who: String },
    #[error(
        "a Shadow Amp gives its Plot Point at the start of combat, and the first turn has begun: {who}'s would give nothing now"
    )]
    AmpTooLate { who: String },
    #[error("{who}'s sheet has no Shadow Amp: `amp off` has nothing to switch off")]
    NoAmp { who: String },
    #[error("{who}'s Edge is full ({max} of {max}): there is none to regain")]
    EdgeFull { who: String, max: u8 },
    #[error("{who} already has {cap} Plot Points, the most a player may hold")]
    AtCap { who: String, cap: u8 },
    #[error("{who} has {have} Plot Point{}: {what} costs {need}", plural(*have))]
    NotEnough {
        who: String,
        have: u32,
        need: u32,
        what: String,
    },
    /// Too few for any cost of a spend whose cost the player names (a Montage), when its words
    /// give none this could be said of.
    #[error("{who} has {have} Plot Point{}: {what} costs at least {least}", plural(*have))]
    NotEnoughForAny {
        who: String,
        have: u32,
        least: u32,
        what: String,
    },
    #[error(
        "the GM has spent {spent} Plot Point{} this turn, the limit (one per player, {limit} player{})",
        plural(*spent), plural(*limit)
    )]
    GmTurnLimit { spent: u32, limit: u32 },
    #[error(
        "the GM has spent {spent} Plot Points on {who} this turn, the most on one player ({limit})"
    )]
    GmOnPlayerLimit { who: String, spent: u32, limit: u32 },
    #[error(
        "the GM spends on a player only the glitch die or a plot twist: {what} would aid or hinder {who} directly (spend it on an NPC)"
    )]
    GmOnPlayer { what: String, who: String },
    #[error("{what} is a player's spend, not the GM's")]
    PlayersOnly { what: String },
    #[error("no Plot Point spend called \"{word}\": {menu}")]
    UnknownSpend { word: String, menu: String },
    #[error("{what} needs {need}: e.g. `{example}`")]
    SpendNeeds {
        what: String,
        need: &'static str,
        example: String,
    },
    #[error(
        "{what} takes no more words, but \"{extra}\" follows (a note goes after a colon: `: TEXT`)"
    )]
    SpendExtra { what: String, extra: String },
    #[error(
        "{what} is defending in a close ally's place: {who} cannot take a hit instead of {who} (name the ally after `on`, or leave `on` out)"
    )]
    TakeTheHitForOneself { what: String, who: String },
    #[error("{what} is for the spender's own narration, {who}'s: `on {other}` is not taken")]
    ForOneself {
        what: String,
        who: String,
        other: String,
    },
    #[error(
        "Plot Points are awarded one at a time: `pp {who} award` once for each point (\"{count}\" would be its reason)"
    )]
    AwardCount { who: String, count: String },
    #[error(
        "{who} demonstrated the Cue \"{cue}\" already this session: only its first time earns a Plot Point"
    )]
    CueRepeated { who: String, cue: String },
    #[error(
        "nobody is seated to narrate: add player characters (`add NAME pc …`) or `seating NAME, …`"
    )]
    NobodySeated,
    #[error("nobody can narrate: everyone seated is Downed or removed")]
    NobodyCanNarrate,
    #[error("{who} has narrated in this turn already: one narration a turn")]
    AlreadyNarrated { who: String },
    #[error(
        "{who}'s narration is a Flashback already, and a Flashback uses up the narration: one Flashback a narration"
    )]
    FlashbackTaken { who: String },
    #[error(
        "{who} has made a test in this narration already, and a Flashback uses up the whole narration: spend it before the narration's first test"
    )]
    FlashbackAfterTest { who: String },
    #[error("{who} is narrating now")]
    NarratingNow { who: String },
    #[error("{who} narrates next anyway: `narrate` costs nothing")]
    NextAnyway { who: String },
    #[error("{what} is for one's own narration: {now}")]
    NotNarrating { what: String, now: String },
    #[error("{who} already has {movements} Movements in this narration")]
    AlreadyDoubleTime { who: String, movements: u8 },
    #[error("the seating must name every player character: {missing} {} missing", if missing.contains(',') { "are" } else { "is" })]
    SeatingMissing { missing: String },
    #[error("{who} is named twice in the seating")]
    SeatedTwice { who: String },
    #[error(
        "a turn's order is set before its first narration: `gm order` between turns (after the last narration of a turn)"
    )]
    OrderMidTurn,
    #[error("the next turn's order is already changed ({how}): one change a turn")]
    OrderChanged { how: &'static str },
    #[error(
        "{who}'s next test already has a glitch die, and a test takes only one: roll that test first (`atest {who} … glitchdie`)"
    )]
    GlitchDieWaiting { who: String },
    #[error(
        "{who} is Downed and makes no test: a glitch die is bought for a roll about to be made"
    )]
    GlitchDieForDowned { who: String },
    #[error(
        "no glitch die was bought for {who}'s test: `pp NAME spend live dangerously on {who}` or `gm spend glitch die on {who}` first"
    )]
    NoGlitchDie { who: String },
    #[error("a glitch die was bought for {who}'s next test: add `glitchdie` to the test")]
    GlitchDieUnused { who: String },
    #[error(
        "{what} {} is out of range: allowed {min} to {max}",
        amount(*value, unit)
    )]
    OutOfRange {
        what: &'static str,
        value: i32,
        /// What the number counts, after it (`" Plot Points"`), or nothing.
        unit: &'static str,
        min: i32,
        max: i32,
    },
    #[error(
        "{what} holds a control character (a line break, tab, escape, or a mark that turns the text's direction): type it again with visible characters and spaces only"
    )]
    ControlText { what: &'static str },
    #[error(
        "{what} starts with a combining mark (U+{code:04X}), which joins what is drawn before it: put the mark after its letter"
    )]
    LeadingMark { what: &'static str, code: u32 },
    #[error(
        "{what} holds an invisible character (U+{code:04X}), so it would look the same without it: type it again with visible characters and spaces only"
    )]
    InvisibleText { what: &'static str, code: u32 },
    #[error("{what} holds {len} characters: allowed {min} to {max}")]
    BadText {
        what: &'static str,
        len: usize,
        min: i32,
        max: i32,
    },
    #[error("{who} has no {track} track: `sheet {who} {word} N` gives one")]
    NoGearTrack {
        who: String,
        track: &'static str,
        word: &'static str,
    },
    #[error(
        "{who} has had Get Revenge in this narration already: it strikes back just once at the attack just made"
    )]
    RevengeTaken { who: String },
    #[error("Get Revenge strikes back at an NPC that just attacked: {who} is a player character")]
    RevengeOnPlayer { who: String },
    #[error(
        "{who} has nothing on Cooldown: {what} is for something on Cooldown (`cooldown {who} THING` puts it there)"
    )]
    NothingOnCooldown { who: String, what: String },
    // The verb of the shared `heal` refusal, so First Aid and Fix read alike on every track.
    #[error("{who} has no {track} damage to heal")]
    NothingToRecover { who: String, track: &'static str },
    #[error(
        "{who} has no roll to spend Edge on: Edge after the roll rolls again the misses of {who}'s last test in this narration, once, and not of a test rolled with Edge before"
    )]
    NoOpenTest { who: String },
    #[error(
        "{who}'s last test was rolled again with Edge already: Edge after the roll re-rolls a test's misses once (one Edge a test)"
    )]
    Rerolled { who: String },
    #[error(
        "{who}'s last test was rolled with Edge before: one Edge a test, before the roll or after it, not both"
    )]
    EdgedBefore { who: String },
    #[error(
        "every die of {who}'s last test hit: there is no miss to roll again, and the Edge is kept"
    )]
    NoMiss { who: String },
    #[error("{0}")]
    Test(#[from] TestError),
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl AnarchyRefusal {
    /// The refusal for a broken Plot Point limit.
    pub fn of_limit(limit: Limit, who: &str, what: &str) -> Self {
        match limit {
            Limit::PlayerCap { cap } => AnarchyRefusal::AtCap {
                who: who.to_string(),
                cap,
            },
            Limit::NotEnough { have, need } => AnarchyRefusal::NotEnough {
                who: who.to_string(),
                have,
                need,
                what: what.to_string(),
            },
            Limit::GmTurn { spent, limit } => AnarchyRefusal::GmTurnLimit { spent, limit },
            Limit::GmOnPlayer { spent, limit } => AnarchyRefusal::GmOnPlayerLimit {
                who: who.to_string(),
                spent,
                limit,
            },
        }
    }
}

// ----- checking what was typed --------------------------------------------------------------

/// A number refused, as a sentence says it: `31`, `31 dice in all`, `2147483647 or more`.
fn amount(value: i32, unit: &str) -> String {
    let n = crate::text::typed_number(value);
    if unit.is_empty() {
        n
    } else {
        format!("{}{unit}", n.trim_start_matches("of "))
    }
}

fn in_range(
    what: &'static str,
    value: i32,
    range: crate::rules::house::Range,
) -> Result<u8, AnarchyRefusal> {
    counted(what, value, "", range)
}

/// A number checked against its range; refused as `{what} {value}{unit}` ("a Montage of 0
/// Plot Points").
pub fn counted(
    what: &'static str,
    value: i32,
    unit: &'static str,
    range: crate::rules::house::Range,
) -> Result<u8, AnarchyRefusal> {
    if range.contains(value) {
        Ok(u8::try_from(value.max(0)).unwrap_or(u8::MAX))
    } else {
        Err(AnarchyRefusal::OutOfRange {
            what,
            value,
            unit,
            min: range.min,
            max: range.max,
        })
    }
}

fn modifier(value: i32, rules: &AnarchyRules) -> Result<i8, AnarchyRefusal> {
    let m = rules.limits.modifier;
    if m.contains(value) {
        Ok(i8::try_from(value).unwrap_or(0))
    } else {
        // A modifier is what follows SKILL+ATTRIBUTE, all its parts added up (`7+7+7+7`).
        Err(AnarchyRefusal::OutOfRange {
            what: "a modifier of",
            value,
            unit: " in all",
            min: m.min,
            max: m.max,
        })
    }
}

impl PoolInput {
    /// The pool, its numbers checked against the limits.
    pub fn pool(self, rules: &AnarchyRules) -> Result<Pool, AnarchyRefusal> {
        let n = |what, v| in_range(what, v, rules.limits.pool);
        Ok(match self {
            PoolInput::Dice(d) => Pool::Dice(n("a pool", d)?),
            PoolInput::Skill {
                skill,
                attribute,
                modifier: m,
            } => Pool::Skill {
                skill: n("a skill", skill)?,
                attribute: n("an attribute", attribute)?,
                modifier: modifier(m, rules)?,
            },
            PoolInput::Untrained {
                attribute,
                modifier: m,
            } => Pool::Untrained {
                attribute: n("an attribute", attribute)?,
                modifier: modifier(m, rules)?,
            },
            PoolInput::Attributes {
                first,
                second,
                modifier: m,
            } => Pool::Attributes {
                first: n("an attribute", first)?,
                second: n("an attribute", second)?,
                modifier: modifier(m, rules)?,
            },
        })
    }
}

impl TestInput {
    /// The test, its numbers checked against the limits.
    pub fn spec(&self, rules: &AnarchyRules) -> Result<Spec, AnarchyRefusal> {
        let spec = Spec {
            pool: self.pool.pool(rules)?,
            teamwork: in_range("teamwork hits", self.teamwork, rules.limits.teamwork_hits)?,
            opposing: self.opposing.pool(rules)?,
            edge: self.edge,
            glitch_die: self.glitch_die,
        };
        // A pool's dice in all (its parts added up, teamwork dice with them) have the cap a
        // plain pool has: `15+15+10` or `15 team 15` is no way round it.
        let cap = rules.limits.pool;
        let total = |p: Pool, extra: u8| i32::from(p.dice()) + i32::from(extra);
        for (what, value) in [
            ("a pool of", total(spec.pool, spec.teamwork_dice()?)),
            ("an opposing pool of", total(spec.opposing, 0)),
        ] {
            if !cap.contains(value) {
                return Err(AnarchyRefusal::OutOfRange {
                    what,
                    value,
                    unit: " dice in all",
                    min: cap.min,
                    max: cap.max,
                });
            }
        }
        Ok(spec)
    }
}

/// A free text checked: trimmed, no control characters, within the length allowed.
pub fn text(
    what: &'static str,
    text: &str,
    rules: &AnarchyRules,
) -> Result<String, AnarchyRefusal> {
    let t = crate::text::unjoined(text);
    let t = t.trim();
    let len = t.chars().count();
    let range = rules.limits.text_chars;
    if crate::text::holds_control(t) {
        return Err(AnarchyRefusal::ControlText { what });
    }
    if let Some(c) = crate::text::leading_mark(t) {
        return Err(AnarchyRefusal::LeadingMark {
            what,
            code: u32::from(c),
        });
    }
    if let Some(c) = crate::text::first_invisible(t) {
        return Err(AnarchyRefusal::InvisibleText {
            what,
            code: u32::from(c),
        });
    }
    if !range.contains(i32::try_from(len).unwrap_or(i32::MAX)) {
        return Err(AnarchyRefusal::BadText {
            what,
            len,
            min: range.min,
            max: range.max,
        });
    }
    Ok(t.to_string())
}

/// A size checked for an Armor or Matrix track.
pub fn boxes(what: &'static str, value: i32, rules: &AnarchyRules) -> Result<u8, AnarchyRefusal> {
    in_range(what, value, rules.limits.boxes)
}
