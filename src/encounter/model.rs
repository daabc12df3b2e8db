//! The encounter's state: combatants, the order, the phase. Changed only by applying events.

use serde::{Deserialize, Serialize};

use crate::rules::initiative::{InitiativeRoll, OrderKey, RollOff};

/// A combatant's identity for the whole encounter (its index in `State::combatants`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CombatantId(pub u32);

impl CombatantId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GroupId(pub u32);

/// One entrant of the tie steps: a combatant, or a group sharing one roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Unit {
    One(CombatantId),
    Group(GroupId),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    Pc,
    Npc,
}

impl Side {
    pub fn label(self) -> &'static str {
        match self {
            Side::Pc => "PC",
            Side::Npc => "NPC",
        }
    }
}

/// What the GM writes on a combatant's sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    pub intuition: u8,
    pub reaction: u8,
    pub edge: u8,
    pub dice_modifier: i8,
    /// Extra starting IP from augmentation, spells and the like.
    pub ip_bonus: u8,
    pub body: Option<u8>,
    pub willpower: Option<u8>,
}

impl Sheet {
    /// The initiative pool: Intuition + Reaction + modifier, never below 0.
    pub fn pool(&self) -> u8 {
        let pool =
            i16::from(self.intuition) + i16::from(self.reaction) + i16::from(self.dice_modifier);
        u8::try_from(pool.max(0)).unwrap_or(u8::MAX)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub id: GroupId,
    pub name: String,
    /// Whether the members share one initiative roll.
    pub shared_roll: bool,
    pub members: Vec<CombatantId>,
}

/// Why a combatant is Downed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DownCause {
    /// The GM said so.
    Gm,
    PhysicalFull,
    StunFull,
    /// An injury at or above the severity that Downs (SR 2097).
    Injury,
}

impl DownCause {
    pub fn label(self) -> &'static str {
        match self {
            DownCause::Gm => "toggled by the GM",
            DownCause::PhysicalFull => "Physical monitor full",
            DownCause::StunFull => "Stun monitor full",
            DownCause::Injury => "injury",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Track {
    Physical,
    Stun,
}

impl Track {
    pub fn label(self) -> &'static str {
        match self {
            Track::Physical => "Physical",
            Track::Stun => "Stun",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Damage {
    pub physical: u8,
    pub stun: u8,
}

impl Damage {
    pub fn on(&self, track: Track) -> u8 {
        match track {
            Track::Physical => self.physical,
            Track::Stun => self.stun,
        }
    }

    pub fn on_mut(&mut self, track: Track) -> &mut u8 {
        match track {
            Track::Physical => &mut self.physical,
            Track::Stun => &mut self.stun,
        }
    }
}

/// When a lasting effect ends by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StatusEnd {
    /// At the end of the turn with this serial number.
    EndOfTurn {
        serial: u64,
    },
    /// At the end of the character's next own turn (becomes `EndOfTurn` when that turn starts).
    EndOfNextTurn,
    EndOfRound,
    /// When the character takes any other action (Take Aim).
    OtherAction,
    /// Until an action or the GM ends it.
    UntilCleared,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveStatus {
    pub name: String,
    pub end: StatusEnd,
    /// How many times it stacked (Take Aim); 1 for others.
    pub stacks: u8,
}

/// One action as it was spent: what it was, what it cost, what it started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionUse {
    /// The catalogue name, or `None` for a bare Free/Simple/Complex action.
    pub name: Option<String>,
    /// The type it was taken as ("Complex", "Interrupt"...).
    pub kind: String,
    pub cost: u8,
    pub interrupt: bool,
    pub effect: Option<crate::catalogue::Effect>,
    /// The fire mode it was fired in (Fire Gun's `BF`), as the rules spell it; none when none
    /// was named (and in saves from before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The rounds the catalogue says it uses (its `ammo`), kept as it was spent, so the fold,
    /// which has no catalogue, knows a firing action of the GM's own; none where the catalogue
    /// gives none (and in saves from before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ammo: Option<u8>,
}

impl ActionUse {
    pub fn label(&self) -> String {
        match &self.name {
            Some(_) => format!("{} ({}, {} IP)", self.title(), self.kind, self.cost),
            None => format!("{} action ({} IP)", self.kind, self.cost),
        }
    }

    /// The action's name with its fire mode, if one was named: "Fire Gun BF".
    pub fn title(&self) -> String {
        let name = self.name.as_deref().unwrap_or(&self.kind);
        match &self.mode {
            Some(m) => format!("{name} {m}"),
            None => name.to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadyTrigger {
    pub text: String,
    pub actions: Vec<ActionUse>,
}

impl ReadyTrigger {
    /// A trigger as it is kept: what the GM typed, trimmed, without a leading `when` (any case,
    /// a whole word): every view writes `when` before it, so "when the door opens" typed in the
    /// form, or `ready … when when …` on the command line, never shows as "when when".
    pub fn words(typed: &str) -> &str {
        let typed = typed.trim();
        match typed.split_once(char::is_whitespace) {
            Some((first, rest)) if first.eq_ignore_ascii_case("when") => rest.trim_start(),
            None if typed.eq_ignore_ascii_case("when") => "",
            _ => typed,
        }
    }

    pub fn cost(&self) -> u8 {
        self.actions.iter().map(|a| a.cost).sum()
    }
}

/// IP held back out of the pool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reserve {
    /// Standard delay: spent in a sub-turn at the end of the trigger character's turn.
    Delay {
        ip: u8,
        trigger: Option<CombatantId>,
    },
    /// Ready action: one of the triggers may fire before the character's next turn.
    Ready {
        ip: u8,
        triggers: Vec<ReadyTrigger>,
        /// The turn it was declared in: more triggers may be added only then.
        turn_serial: u64,
        /// The round it was declared in: a ready outlives the round's reset, but if it lapses in
        /// a later round its IP are lost with the old round's pool.
        round: u32,
    },
}

impl Reserve {
    /// What is held, in words: "a delay", "a ready action".
    pub fn what(&self) -> &'static str {
        match self {
            Reserve::Delay { .. } => "a delay",
            Reserve::Ready { .. } => "a ready action",
        }
    }

    pub fn ip(&self) -> u8 {
        match self {
            Reserve::Delay { ip, .. } | Reserve::Ready { ip, .. } => *ip,
        }
    }

    /// A ready declared before round `now`: its IP went with that round's pool and cannot come
    /// back into this one's.
    pub fn of_an_earlier_round(&self, now: u32) -> bool {
        matches!(self, Reserve::Ready { round, .. } if *round != now)
    }

    /// What the reserve would give back to the pool in round `now` if it lapsed.
    pub fn returnable_ip(&self, now: u32) -> u8 {
        if self.of_an_earlier_round(now) {
            0
        } else {
            self.ip()
        }
    }

    pub fn ip_mut(&mut self) -> &mut u8 {
        match self {
            Reserve::Delay { ip, .. } | Reserve::Ready { ip, .. } => ip,
        }
    }
}

/// Where a combatant stands in the current pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum PassMark {
    /// Its turn in this pass is still to come.
    #[default]
    Waiting,
    /// Having its turn now.
    Acting,
    Acted,
    /// Its turn came while it was Downed.
    Skipped,
    /// It changed initiative to a place still to come: its skipped turn is taken there. `turn`
    /// is the serial of the turn it skipped: taken later, the turn keeps it, so what ends with
    /// that turn ends when it is taken.
    Deferred {
        turn: u64,
    },
    /// It changed initiative to a place already gone by: no turn in this pass.
    Lost,
    /// It joined with a slot this pass had already gone by.
    Joined,
}

impl PassMark {
    pub fn still_to_act(self) -> bool {
        matches!(self, PassMark::Waiting | PassMark::Deferred { .. })
    }

    pub fn done(self) -> bool {
        !matches!(
            self,
            PassMark::Waiting | PassMark::Deferred { .. } | PassMark::Acting
        )
    }
}

/// A combatant's IP in one pass of the round: at the start of its turn, and spent in the pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PassIp {
    /// The IP its turn began with, counting back in what it spent earlier in the pass (an
    /// interrupt in another's turn) and leaving out what Edge bought then (`edge`): what it had
    /// for the pass, so that `start + edge - spent - reserved` is what is left.
    pub start: Option<u8>,
    pub spent: u8,
    /// IP bought with Edge in this pass (outside the starting IP), so `spent` may exceed `start`.
    #[serde(default)]
    pub edge: u8,
    /// IP set aside in this pass for a delay or a ready.
    #[serde(default)]
    pub reserved: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Relative {
    Before,
    After,
}

impl Relative {
    pub fn word(self) -> &'static str {
        match self {
            Relative::Before => "before",
            Relative::After => "after",
        }
    }
}

/// A skipped turn waiting for another character's real turn to start (before) or end (after).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    pub relative: Relative,
    pub target: CombatantId,
    /// The turn it was declared in: who waited first is placed first.
    pub since: u64,
}

/// A change of initiative, kept to explain the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moved {
    pub relative: Relative,
    pub target: CombatantId,
    pub round: u32,
    pub pass: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Presence {
    Present,
    Removed { reason: Option<String> },
}

/// Whether the players' view (`srtrack watch`) shows a character. The engine treats both
/// alike: a hidden character acts as any other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Visibility {
    #[default]
    Shown,
    /// The GM keeps it secret from the players (an ambush, a sniper not yet seen).
    Hidden,
}

impl Visibility {
    /// The verb of the command language that sets it.
    pub fn verb(self) -> &'static str {
        match self {
            Visibility::Shown => "reveal",
            Visibility::Hidden => "hide",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combatant {
    pub id: CombatantId,
    pub name: String,
    pub side: Side,
    pub sheet: Sheet,
    pub group: Option<GroupId>,
    pub initiative: Option<InitiativeRoll>,
    /// IP in the pool now, not counting a reserve.
    pub ip: u8,
    pub reserve: Option<Reserve>,
    pub edge_left: u8,
    pub edge_uses_this_round: u8,
    pub downed: Option<DownCause>,
    pub damage: Damage,
    pub statuses: Vec<ActiveStatus>,
    pub mark: PassMark,
    /// IP pass by pass in this round.
    pub ledger: Vec<PassIp>,
    pub moved: Option<Moved>,
    /// A change of initiative whose skipped turn is still to be taken: the place changes then.
    pub waits: Option<Waiting>,
    pub presence: Presence,
    /// Saves from before the players' view have none: everyone is shown.
    #[serde(default)]
    pub visibility: Visibility,
    /// The turn (its serial) whose ready fired: one trigger is answered before the next turn, so
    /// no second ready in that turn. Absent from saves until a ready fires.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready_fired: Option<u64>,
}

impl Combatant {
    pub fn is_present(&self) -> bool {
        self.presence == Presence::Present
    }

    pub fn is_hidden(&self) -> bool {
        self.visibility == Visibility::Hidden
    }

    pub fn is_downed(&self) -> bool {
        self.downed.is_some()
    }

    pub fn status(&self, name: &str) -> Option<&ActiveStatus> {
        self.statuses
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// The initiative's tie-breakers, with `edge` the most Edge the character can have (see
    /// [`State::order_key`], which knows what Edge Burn took).
    fn order_key_with(&self, edge: u8) -> Option<OrderKey> {
        self.initiative.as_ref().map(|r| OrderKey {
            score: r.score(),
            glitched: r.glitch.is_glitch(),
            pool: r.pool,
            edge,
        })
    }

    /// Whether the character has bought Edge IP as often as a round allows.
    pub fn edge_ip_used_up(&self, rules: &crate::rules::HouseRules) -> bool {
        self.edge_uses_this_round >= rules.edge.uses_per_round
    }

    pub fn delay(&self) -> Option<(u8, Option<CombatantId>)> {
        match &self.reserve {
            Some(Reserve::Delay { ip, trigger }) => Some((*ip, *trigger)),
            _ => None,
        }
    }
}

/// What kind of turn is in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnKind {
    /// The character's own turn in the order (it gained its IP for the pass).
    Own,
    /// A turn skipped by a change of initiative, taken at the new place (no second IP gain).
    Resumed,
    /// A delay's sub-turn at the end of the trigger character's turn, paid from the reserve.
    Delayed { trigger: CombatantId },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub who: CombatantId,
    pub kind: TurnKind,
    /// A number unique to this turn in the encounter.
    pub serial: u64,
    /// Whether the character has done anything yet (actions, delay, ready).
    pub acted: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fight {
    pub round: u32,
    pub pass: u8,
    /// `None` only when nobody can act (all Downed or removed).
    pub turn: Option<Turn>,
    pub turns_started: u64,
    /// IP each character has spent in the character turn under way, against the per-turn cap. A
    /// delay's sub-turn is part of its trigger's turn, so it does not start a new count.
    pub spent: Vec<(CombatantId, u8)>,
    /// The catalogue actions each character took in the character turn under way (its Action
    /// Phase, counted like `spent`), in order: one attack action per phase, and what Call a Shot
    /// or Multiple Attacks go with. Saves from before it have none.
    #[serde(default)]
    pub taken: Vec<(CombatantId, String)>,
}

impl Fight {
    /// The round and pass a fight begins with.
    pub const FIRST_PASS: (u32, u8) = (1, 1);
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Adding combatants and rolling initiative.
    Setup,
    Fight(Fight),
    /// Shadowrun: Anarchy plays in narration turns: the table, its seats and Plot Points.
    Narration(super::system::anarchy::Narration),
    Ended {
        round: u32,
    },
}

/// Whether two names are the same: as [`same_written_name`], both compared as typed text is
/// kept (`text::unjoined`): a skin tone an older save keeps on an emoji counts on neither side,
/// so the name is found typed with or without it.
pub fn same_name(a: &str, b: &str) -> bool {
    same_written_name(&crate::text::unjoined(a), &crate::text::unjoined(b))
}

/// Whether two names are the same as written: after Unicode normalization (NFC), so names that
/// look alike are alike, ignoring ASCII case, and ignoring what only shapes a character (the
/// zero-width joiner, variation selectors) or shows as nothing (a zero-width space in an older
/// save). Skin tones count: names an older save keeps apart by them were told apart then.
pub fn same_written_name(a: &str, b: &str) -> bool {
    use unicode_normalization::UnicodeNormalization as _;
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    let seen = |c: &char| !crate::text::is_shaping(*c) && !crate::text::is_zero_width(*c);
    a.nfc()
        .filter(seen)
        .map(|c| c.to_ascii_lowercase())
        .eq(b.nfc().filter(seen).map(|c| c.to_ascii_lowercase()))
}

/// The one item of `items`: none when there are none or several.
fn only<T>(mut items: impl Iterator<Item = T>) -> Option<T> {
    let one = items.next()?;
    items.next().is_none().then_some(one)
}

/// The whole state of an encounter: a fold of its events.
///
/// Combatants are shared between copies (`Arc`): a copy of the state for undo checkpoints or for
/// deciding a command costs one pointer per combatant, and applying an event copies only the
/// combatants it changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub combatants: Vec<std::sync::Arc<Combatant>>,
    pub groups: Vec<Group>,
    /// The initiative order, fixed at the start; removed combatants keep their slot, unseen.
    pub order: Vec<CombatantId>,
    pub rolloffs: Vec<RollOff<Unit>>,
    pub phase: Phase,
    /// Shadowrun 2097's slice: there from the start in a 2097 encounter, else `None`.
    pub sr2097: Option<super::system::sr2097::Sr2097State>,
    /// SR5's weapons, armor, last tests and the attack under way.
    #[serde(default)]
    pub sr5: super::system::sr5::Sr5State,
    /// The rule system the encounter runs under (the encounter's own, set by
    /// [`super::system::System::empty_state`]): what the command language and the log read.
    #[serde(default)]
    pub system: super::system::System,
}

impl Default for State {
    fn default() -> Self {
        Self {
            combatants: Vec::new(),
            groups: Vec::new(),
            order: Vec::new(),
            rolloffs: Vec::new(),
            phase: Phase::Setup,
            sr2097: None,
            sr5: super::system::sr5::Sr5State::default(),
            system: super::system::System::default(),
        }
    }
}

impl State {
    /// The most Edge a character can have: its rating, less what Shadowrun 2097's Edge Burn
    /// took for good.
    pub fn edge_max(&self, c: &Combatant) -> u8 {
        c.sheet.edge.saturating_sub(self.edge_burned(c.id))
    }

    /// The Edge a character has burned for good (Shadowrun 2097's Edge Burn; 0 elsewhere).
    pub fn edge_burned(&self, id: CombatantId) -> u8 {
        self.sr2097.as_ref().map_or(0, |s| s.sheet(id).burned)
    }

    /// Where a character's initiative puts it, ties broken by the Edge it can still have.
    pub fn order_key(&self, c: &Combatant) -> Option<OrderKey> {
        c.order_key_with(self.edge_max(c))
    }

    pub fn get(&self, id: CombatantId) -> Option<&Combatant> {
        self.combatants.get(id.index()).map(AsRef::as_ref)
    }

    /// Every combatant ever added, removed ones included.
    pub fn all(&self) -> impl Iterator<Item = &Combatant> {
        self.combatants.iter().map(AsRef::as_ref)
    }

    pub fn name(&self, id: CombatantId) -> &str {
        self.get(id).map_or("?", |c| c.name.as_str())
    }

    pub fn present(&self) -> impl Iterator<Item = &Combatant> {
        self.all().filter(|c| c.is_present())
    }

    /// A present combatant by name, ignoring case (see [`same_name`]); none when the name
    /// stands for several (see [`Self::alike`]).
    pub fn find(&self, name: &str) -> Option<&Combatant> {
        let name = name.trim();
        only(self.present().filter(|c| same_name(&c.name, name)))
    }

    /// A group by name, as [`Self::find`].
    pub fn find_group(&self, name: &str) -> Option<&Group> {
        let name = name.trim();
        only(self.groups.iter().filter(|g| same_name(&g.name, name)))
    }

    /// The names of the present combatants and the groups `name` stands for, when it stands for
    /// more than one: an older save keeps names that differ only by a skin tone, which a typed
    /// line leaves out (see [`same_name`]). Empty when it stands for one or none.
    pub fn alike(&self, name: &str) -> Vec<&str> {
        let name = name.trim();
        let names: Vec<&str> = self
            .present()
            .map(|c| c.name.as_str())
            .chain(self.groups.iter().map(|g| g.name.as_str()))
            .filter(|n| same_name(n, name))
            .collect();
        if names.len() > 1 { names } else { Vec::new() }
    }

    pub fn fight(&self) -> Option<&Fight> {
        match &self.phase {
            Phase::Fight(f) => Some(f),
            _ => None,
        }
    }

    /// The round and pass under way; before `start`, the fight's first, which a boost of
    /// initiative (SR 2097) bought then counts in. None at an Anarchy table or after the end.
    pub fn pass_now(&self) -> Option<(u32, u8)> {
        match &self.phase {
            Phase::Setup => Some(Fight::FIRST_PASS),
            Phase::Fight(f) => Some((f.round, f.pass)),
            Phase::Narration(_) | Phase::Ended { .. } => None,
        }
    }

    pub fn turn(&self) -> Option<&Turn> {
        self.fight().and_then(|f| f.turn.as_ref())
    }

    /// The Anarchy table, when the encounter plays in narrations.
    pub fn narration(&self) -> Option<&super::system::anarchy::Narration> {
        match &self.phase {
            Phase::Narration(n) => Some(n),
            _ => None,
        }
    }

    /// Who has the turn (or narrates) now.
    pub fn acting(&self) -> Option<CombatantId> {
        self.turn()
            .map(|t| t.who)
            .or_else(|| self.narration().and_then(|n| n.narrator()).map(|n| n.who))
    }

    /// The serial of the turn (or narration) under way: what "until the end of this turn" ends with.
    pub fn turn_serial(&self) -> Option<u64> {
        self.turn().map(|t| t.serial).or_else(|| {
            self.narration()
                .and_then(|n| n.narrator())
                .map(|n| n.serial)
        })
    }

    /// The combatants in initiative order, present ones only.
    pub fn ordered(&self) -> impl Iterator<Item = &Combatant> {
        self.order
            .iter()
            .filter_map(|id| self.get(*id))
            .filter(|c| c.is_present())
    }

    pub fn position(&self, id: CombatantId) -> Option<usize> {
        self.order.iter().position(|x| *x == id)
    }

    /// Whether anyone in the order could take a turn.
    pub fn anyone_can_act(&self) -> bool {
        self.ordered().any(|c| !c.is_downed())
    }
}
