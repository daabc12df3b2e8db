//! SR5's words in the engine: its commands (`Command::Sr5`), its events (`Event::Sr5`), the
//! state it keeps beside the shared one (weapons, armor, last tests, an attack under way) and why
//! one of its commands is refused.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::encounter::command::ActionChoice;
use crate::encounter::model::{ActionUse, CombatantId, Sheet};
use crate::rules::Glitch;
use crate::rules::sr5::combat::DamageType;
use crate::rules::sr5::test::{Bonus, Given, Goal, Roll, TestError};
use crate::rules::sr5::{Attribute, Sr5Rules};

// ----- commands ---------------------------------------------------------------------------------

/// A pool as the GM gives it (checked against `rules.ron`), and how its roll comes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolInput {
    pub pool: i32,
    pub given: Given,
}

/// What a test is measured against, as typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Against {
    Open,
    Threshold(i32),
    Opponent { who: CombatantId, pool: PoolInput },
}

/// `test NAME POOL [limit N] [threshold N | vs NAME POOL] [push] [dice …|hits N …]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestInput {
    pub who: CombatantId,
    pub pool: PoolInput,
    pub limit: Option<i32>,
    pub against: Against,
    /// Push the Limit: 1 Edge, no limit.
    pub push: bool,
}

/// `teamwork LEADER POOL [limit N] [threshold N] [skill N] [push] with NAME POOL [closecall][, …]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamworkInput {
    pub leader: CombatantId,
    pub pool: PoolInput,
    pub limit: Option<i32>,
    pub threshold: Option<i32>,
    /// The leader's skill rating (or higher attribute): the most dice the assistants may add.
    pub skill: Option<i32>,
    pub push: bool,
    pub assistants: Vec<(CombatantId, PoolInput)>,
    /// Assistants who use Close Call on their roll before the leader rolls, so that a critical
    /// glitch no longer spoils the leader's bonus.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub close_calls: Vec<CombatantId>,
}

/// What an odds question measures against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OddsAgainst {
    Open,
    Threshold(i32),
    Pool(i32),
}

/// `odds POOL [limit N] [threshold N | vs POOL]`: a question, never recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OddsInput {
    pub pool: i32,
    pub limit: Option<i32>,
    pub against: OddsAgainst,
}

/// One step of the attack chain: a pool (or none, for srtrack to work out from the sheet) and
/// how its roll comes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepInput {
    pub pool: Option<i32>,
    pub given: Given,
}

/// `attack NAME TARGET[, TARGET …] [with WEAPON] [pool N …] [defense [N] …] [soak [N] …]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackInput {
    pub attacker: CombatantId,
    /// One target, or several for an area attack (each defends and soaks on its own), in the
    /// order they are resolved.
    pub targets: Vec<CombatantId>,
    pub weapon: Option<String>,
    /// The attack roll: starts a new chain (a pool is needed for it).
    pub attack: Option<StepInput>,
    pub defense: Option<StepInput>,
    pub soak: Option<StepInput>,
    /// Push the Limit on the attack roll: 1 Edge, no accuracy limit.
    #[serde(default)]
    pub push: bool,
    /// Take Aim actions put on Accuracy (each +1 to the limit) rather than on the pool.
    #[serde(default)]
    pub aim: Option<i32>,
}

/// A weapon as typed: `weapon NAME add WEAPON dv N [p|s] ap N acc N [ammo N]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeaponInput {
    pub name: String,
    pub dv: i32,
    pub damage: DamageType,
    pub ap: i32,
    pub accuracy: i32,
    /// Rounds it holds; `None` for a weapon without ammunition (melee, thrown).
    pub ammo: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sr5Command {
    Test(TestInput),
    Teamwork(TeamworkInput),
    /// Close Call on the character's last test (the initiative test when there is none).
    CloseCall {
        who: CombatantId,
    },
    /// Close Call on the character's initiative test, before the order is set.
    CloseCallInitiative {
        who: CombatantId,
    },
    Odds(OddsInput),
    Attack(AttackInput),
    AddWeapon {
        who: CombatantId,
        weapon: WeaponInput,
    },
    /// Take a weapon off the sheet, by name.
    RemoveWeapon {
        who: CombatantId,
        name: String,
    },
    /// Refill a weapon (the one in hand when not named) and take it in hand.
    Reload {
        who: CombatantId,
        weapon: Option<String>,
    },
    Armor {
        who: CombatantId,
        rating: i32,
    },
    /// `act NAME ACTION dice …|hits N`: an action with the table's dice for the test it takes
    /// (a wounded character's Stand Up).
    Act {
        who: CombatantId,
        action: ActionChoice,
        given: Given,
    },
}

impl Sr5Command {
    pub fn verb(&self) -> &'static str {
        match self {
            Sr5Command::Test(_) => "test",
            Sr5Command::Teamwork(_) => "teamwork",
            Sr5Command::CloseCall { .. } | Sr5Command::CloseCallInitiative { .. } => "closecall",
            Sr5Command::Odds(_) => "odds",
            Sr5Command::Attack(_) => "attack",
            Sr5Command::AddWeapon { .. } | Sr5Command::RemoveWeapon { .. } => "weapon",
            Sr5Command::Reload { .. } => "reload",
            Sr5Command::Armor { .. } => "armor",
            Sr5Command::Act { .. } => "act",
        }
    }
}

// ----- events -----------------------------------------------------------------------------------

/// Ammunition of a weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ammo {
    pub capacity: u8,
    pub left: u8,
    /// Its clip is out (Remove Clip): it holds no rounds until a clip goes in. Saves from
    /// before it: in.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub clip_out: bool,
}

/// A weapon on the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub name: String,
    pub dv: u8,
    pub damage: DamageType,
    pub ap: i8,
    /// The attack's limit.
    pub accuracy: u8,
    pub ammo: Option<Ammo>,
}

impl Weapon {
    /// `8P, AP -1, accuracy 5`.
    pub fn stats(&self) -> String {
        format!(
            "DV {}{}, AP {}, accuracy {}",
            self.dv,
            self.damage.letter(),
            self.ap,
            self.accuracy
        )
    }

    /// Whether it is a melee weapon: one that takes no ammunition.
    pub fn is_melee(&self) -> bool {
        self.ammo.is_none()
    }
}

/// One part of a pool srtrack worked out from the sheet (`Reaction 5`, `armor 9 − AP 1: 8`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub label: String,
    pub dice: u8,
}

/// Where a pool came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PoolFrom {
    /// The GM typed it.
    Typed,
    /// srtrack added it up from the sheet.
    Sheet(Vec<Part>),
}

/// A pool as it was rolled: the dice before the wound modifier, and the modifier.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pool {
    pub base: u8,
    /// The wound modifier (0 or negative), applied automatically.
    pub wound: i8,
    pub from: PoolFrom,
}

impl Pool {
    /// The dice rolled.
    pub fn dice(&self) -> u8 {
        u8::try_from((i16::from(self.base) + i16::from(self.wound)).max(0)).unwrap_or(0)
    }
}

/// The opposing side of an opposed test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opponent {
    pub who: CombatantId,
    pub pool: Pool,
    pub roll: Roll,
}

/// How the defense came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Defense {
    /// The attack hits: net hits and the modified DV.
    Hit { net: u8, dv: u8 },
    /// The defender had as many hits or more.
    Miss,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sr5Event {
    WeaponAdded {
        who: CombatantId,
        weapon: Weapon,
    },
    /// The weapon went off the sheet, as it was: its rounds and its clip with it.
    WeaponRemoved {
        who: CombatantId,
        weapon: Weapon,
    },
    ArmorSet {
        who: CombatantId,
        rating: u8,
    },
    /// The weapon is full again, and in hand.
    Reloaded {
        who: CombatantId,
        weapon: String,
        rounds: u8,
    },
    /// A firing action took rounds from the firearm in hand.
    RoundsFired {
        who: CombatantId,
        weapon: String,
        rounds: u8,
    },
    /// The clip came out of the firearm in hand, the rounds left in it with it.
    ClipRemoved {
        who: CombatantId,
        weapon: String,
        rounds: u8,
    },
    Tested {
        who: CombatantId,
        pool: Pool,
        /// The limit in force; `None` with no limit or a pushed one.
        limit: Option<u8>,
        /// Push the Limit: the limit it removed and the Edge it cost.
        pushed: Option<(u8, u8)>,
        goal: Goal,
        opponent: Option<Opponent>,
        roll: Roll,
        /// A teamwork test's bonus from its assistants (already in `pool` and `limit`).
        teamwork: Option<Bonus>,
    },
    /// An assistant's roll for a teamwork test.
    Assisted {
        who: CombatantId,
        leader: CombatantId,
        pool: Pool,
        roll: Roll,
    },
    CloseCall {
        who: CombatantId,
        before: Glitch,
        after: Glitch,
        edge: u8,
    },
    /// Close Call on an initiative test: `who[0]` spent the Edge; everyone in `who` shares the
    /// roll (a group rolling as one).
    InitiativeCloseCall {
        who: Vec<CombatantId>,
        before: Glitch,
        after: Glitch,
        edge: u8,
    },
    /// An attack waiting for its next step gave way to a new one.
    AttackDropped {
        attacker: CombatantId,
        target: CombatantId,
    },
    /// The attacker's one roll; an area attack's other targets in `also`, each of which
    /// defends and soaks on its own after `target`.
    Attacked {
        attacker: CombatantId,
        target: CombatantId,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        also: Vec<CombatantId>,
        weapon: Weapon,
        pool: Pool,
        roll: Roll,
        /// Take Aim actions put on Accuracy: the limit is the weapon's accuracy + this.
        #[serde(default, skip_serializing_if = "is_zero")]
        aim: u8,
        /// Push the Limit: the Edge it cost; the attack's hits have no limit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pushed: Option<u8>,
    },
    Defended {
        target: CombatantId,
        attacker: CombatantId,
        pool: Pool,
        /// One-time defense interrupts the test used up (Dodge).
        used: Vec<String>,
        roll: Roll,
        /// The attack's hits that counted (after its limit).
        attack_hits: u8,
        result: Defense,
    },
    Soaked {
        target: CombatantId,
        pool: Pool,
        roll: Roll,
        /// The modified DV resisted.
        dv: u8,
        /// Armor after AP.
        armor: u8,
        damage: DamageType,
        boxes: u8,
    },
}

// serde's `skip_serializing_if` hands it a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The limit on an attack's hits: the weapon's accuracy raised by Take Aim, none when pushed.
pub fn attack_limit(weapon: &Weapon, aim: u8, pushed: Option<u8>) -> Option<u8> {
    pushed
        .is_none()
        .then(|| weapon.accuracy.saturating_add(aim))
}

impl Sr5Event {
    /// Whether the event drops an attack step still waiting.
    pub fn is_drop(&self) -> bool {
        matches!(self, Sr5Event::AttackDropped { .. })
    }

    /// Whether the event is a Close Call, which changes a test's glitch.
    pub fn is_close_call(&self) -> bool {
        matches!(
            self,
            Sr5Event::CloseCall { .. } | Sr5Event::InitiativeCloseCall { .. }
        )
    }

    /// Whether the event is a test rolled or typed in (one line of `srtrack exec` each).
    pub fn is_test(&self) -> bool {
        matches!(
            self,
            Sr5Event::Tested { .. }
                | Sr5Event::Assisted { .. }
                | Sr5Event::Attacked { .. }
                | Sr5Event::Defended { .. }
                | Sr5Event::Soaked { .. }
        )
    }
}

// ----- state ------------------------------------------------------------------------------------

/// Which of a character's tests the last one was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TestKind {
    Test,
    Assist,
    Attack,
    Defense,
    Soak,
}

/// "last test", or "last test (attack)": a plain test is not named twice.
fn last_test(what: &str) -> String {
    if what == TestKind::Test.label() {
        "last test".into()
    } else {
        format!("last test ({what})")
    }
}

/// "test", or "test (attack)".
fn this_test(what: &str) -> String {
    if what == TestKind::Test.label() {
        "test".into()
    } else {
        format!("test ({what})")
    }
}

impl TestKind {
    pub fn label(self) -> &'static str {
        match self {
            TestKind::Test => "test",
            TestKind::Assist => "teamwork assist",
            TestKind::Attack => "attack",
            TestKind::Defense => "defense",
            TestKind::Soak => "damage resistance",
        }
    }
}

/// A use of Edge made on one test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EdgeUse {
    PushTheLimit,
    CloseCall,
}

impl EdgeUse {
    pub fn label(self) -> &'static str {
        match self {
            EdgeUse::PushTheLimit => "Push the Limit",
            EdgeUse::CloseCall => "Close Call",
        }
    }
}

/// A character's last test, for Close Call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastTest {
    pub kind: TestKind,
    pub glitch: Glitch,
    /// Close Call was used on it (once per test).
    pub close_called: bool,
    /// The Edge used on it, if any (saves from before it: none known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edge: Option<EdgeUse>,
}

/// What SR5 keeps of one character: weapons, armor, the last test, defense interrupts taken.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Kit {
    pub weapons: Vec<Weapon>,
    /// The firearm firing actions take rounds from (an index into `weapons`).
    pub in_hand: Option<usize>,
    pub armor: Option<u8>,
    pub last_test: Option<LastTest>,
    /// One-time defense interrupts (Dodge, Block, Parry) taken for the next defense test.
    pub defense_adds: Vec<String>,
}

impl Kit {
    pub fn weapon(&self, name: &str) -> Option<(usize, &Weapon)> {
        self.weapons
            .iter()
            .enumerate()
            .find(|(_, w)| w.name.eq_ignore_ascii_case(name))
    }

    pub fn firearm_in_hand(&self) -> Option<&Weapon> {
        self.in_hand.and_then(|i| self.weapons.get(i))
    }

    /// Whether there is anything to show on the screen.
    pub fn is_empty(&self) -> bool {
        self.weapons.is_empty() && self.armor.is_none() && self.defense_adds.is_empty()
    }
}

/// Where an attack chain stands when it waits for the GM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// The attack is rolled; the defense comes next. `hits`: the attack's counted hits.
    Defense { hits: u8 },
    /// The attack hit; the damage resistance test comes next.
    Soak { dv: u8 },
}

/// An attack chain waiting for its next step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingAttack {
    pub attacker: CombatantId,
    pub target: CombatantId,
    pub weapon: Weapon,
    pub stage: Stage,
}

/// An attribute's rating on the sheet, if the sheet holds it.
pub fn attribute(sheet: &Sheet, attribute: Attribute) -> Option<u8> {
    match attribute {
        Attribute::Body => sheet.body,
        Attribute::Reaction => Some(sheet.reaction),
        Attribute::Intuition => Some(sheet.intuition),
        Attribute::Willpower => sheet.willpower,
    }
}

/// Whether an attack of its character is owed to `action`: an attack action of the rules
/// (`attack_actions`), or one the catalogue gives ammunition (a firing action of the GM's own,
/// whose rounds the firearm in hand gives as for a built-in one).
pub fn is_attack_action(rules: &Sr5Rules, action: &ActionUse) -> bool {
    action.ammo.is_some()
        || action
            .name
            .as_deref()
            .is_some_and(|n| rules.attack_action(n).is_some())
}

/// SR5's part of the encounter state. Kits are shared between state copies, like combatants.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Sr5State {
    /// By combatant index; a combatant past the end has an empty kit.
    kits: Vec<Arc<Kit>>,
    /// The attack's targets still waiting for a step, in the order they are resolved (one
    /// attack at a time, so each target once). Saves from before area attacks hold one or none.
    #[serde(default, deserialize_with = "one_or_many")]
    pub pending: Vec<PendingAttack>,
    /// The attack actions each character took in the character turn under way with no firearm
    /// in hand (so no rounds went with them), oldest first, that no attack was rolled for yet:
    /// each attack its character rolls is the oldest's, and takes that action's rounds. Saves
    /// from before it have none; version 5 kept one a character, the latest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unfired: Vec<(CombatantId, ActionUse)>,
}

/// `Some(attack)`/`None` (saves from before area attacks) or a list. A visitor rather than an
/// untagged enum, so the attack inside is read by its own type (RON's untagged reading loses
/// enum variants).
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<PendingAttack>, D::Error> {
    struct OneOrMany;
    impl<'de> serde::de::Visitor<'de> for OneOrMany {
        type Value = Vec<PendingAttack>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of waiting attacks, or Some/None")
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_some<D2: serde::Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
            Ok(vec![PendingAttack::deserialize(d)?])
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut all = Vec::new();
            while let Some(p) = seq.next_element()? {
                all.push(p);
            }
            Ok(all)
        }
    }
    d.deserialize_any(OneOrMany)
}

impl Sr5State {
    /// The waiting step of `target`, if its attack waits for one.
    pub fn waiting(&self, target: CombatantId) -> Option<&PendingAttack> {
        self.pending.iter().find(|p| p.target == target)
    }

    /// The attack action `id`'s next attack is rolled for, if no rounds went with it yet: the
    /// oldest of those waiting.
    pub fn unfired(&self, id: CombatantId) -> Option<&ActionUse> {
        self.unfired.iter().find(|(w, _)| *w == id).map(|(_, a)| a)
    }

    pub fn kit(&self, id: CombatantId) -> Option<&Kit> {
        self.kits.get(id.index()).map(AsRef::as_ref)
    }

    /// The kit to change, made if it is not there yet.
    pub fn kit_mut(&mut self, id: CombatantId) -> &mut Kit {
        let i = id.index();
        if self.kits.len() <= i {
            self.kits.resize_with(i + 1, Default::default);
        }
        Arc::make_mut(&mut self.kits[i])
    }
}

// ----- refusals ---------------------------------------------------------------------------------

/// Why an SR5 command is refused; the encounter is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Sr5Error {
    #[error(transparent)]
    Roll(#[from] TestError),
    #[error(
        "{who}'s Take Aim gives at most +{cap} (half Willpower, rounded up), not +{aim}: `aim 1` to `aim {cap}`"
    )]
    AimCapped { who: String, aim: i32, cap: u8 },
    #[error(
        "Push the Limit removes the attack's limit, so Take Aim on Accuracy adds nothing: put the Take Aim dice in the pool instead"
    )]
    AimPushed,
    #[error("`push` and `aim` go with the attack roll: give them with `pool N`")]
    AimMidChain,
    #[error(
        "{who}'s {what} {} is out of range: allowed {min} to {max}",
        crate::text::typed_number(*value)
    )]
    TeamworkRange {
        who: String,
        what: &'static str,
        value: i32,
        min: i32,
        max: i32,
    },
    #[error("{who} has no limit on this test to push: Push the Limit needs a limit")]
    NothingToPush { who: String },
    #[error("{who} has taken no test yet: Close Call works on the character's last test")]
    NoTest { who: String },
    #[error(
        "{who}'s {} did not glitch: Close Call has nothing to save",
        last_test(what)
    )]
    NoGlitch { who: String, what: &'static str },
    #[error(
        "{who}'s teamwork assist did not glitch: Close Call has nothing to save (leave out `closecall`)"
    )]
    AssistNoGlitch { who: String },
    #[error(
        "{leader}'s dice are typed but {who}'s are left to srtrack: the assistants' hits decide how many dice {leader} rolls, so type theirs too (`with {who} {pool} dice …`), or let srtrack roll {leader}'s"
    )]
    LeaderTypedAlone {
        leader: String,
        who: String,
        pool: u8,
    },
    #[error(
        "the pool has {} ({base} less {} for wounds) but {} typed: type one face per die",
        crate::rules::sr5::test::dice(*pool),
        -i16::from(*wound),
        crate::rules::sr5::test::typed_faces(*typed)
    )]
    WoundedCount {
        pool: u8,
        base: u8,
        wound: i8,
        typed: usize,
    },
    #[error(
        "{leader}'s pool is {} with the teamwork bonus ({bonus} of them from the assistants' hits) but {} typed: type one face per die",
        crate::rules::sr5::test::dice(*pool),
        crate::rules::sr5::test::typed_faces(*typed)
    )]
    TeamworkCount {
        leader: String,
        pool: u8,
        bonus: u8,
        typed: usize,
    },
    #[error(
        "{who}'s critical glitch on the teamwork assist cost the leader the bonus, and the leader has rolled: undo the teamwork test and give it again with `closecall` after {who}'s pool"
    )]
    AssistSpoiled { who: String },
    #[error(
        "{who} already has a place in the initiative order: Close Call on an initiative test comes before `start` sets the order"
    )]
    OrderSet { who: String },
    #[error(
        "{who} already used Edge on this {}: {used}; one use of Edge per test",
        this_test(what)
    )]
    EdgeUsed {
        who: String,
        what: &'static str,
        used: &'static str,
    },
    #[error(
        "{who} already used Close Call on the {}: once per test",
        last_test(what)
    )]
    AlreadyCloseCalled { who: String, what: &'static str },
    #[error(
        "{who}'s {action} takes no test now (only a wounded character's does): leave out the dice"
    )]
    NoTestDue { who: String, action: String },
    #[error(
        "{who} has no {attribute} on their sheet to roll the {action} test with: `edit` the sheet"
    )]
    NoTestAttribute {
        who: String,
        attribute: &'static str,
        action: String,
    },
    #[error("{action} has no fire mode {mode}: {modes}")]
    NoSuchFireMode {
        action: String,
        mode: String,
        modes: String,
    },
    #[error("{action} has no fire modes: leave out `mode {mode}`")]
    NoFireModes { action: String, mode: String },
    #[error("{who} cannot test against themself: name another opponent")]
    SelfOpposed { who: String },
    #[error("{who} cannot assist their own teamwork test")]
    SelfAssist { who: String },
    #[error("{who} assists twice: name each assistant once")]
    AssistsTwice { who: String },
    #[error("a teamwork test needs at least one assistant: `with NAME POOL`")]
    NoAssistants,
    #[error("{who} has no weapon called \"{name}\"{}", has_list(has))]
    UnknownWeapon {
        who: String,
        name: String,
        has: Vec<String>,
    },
    #[error("{who} already has a weapon called \"{name}\": weapon names are unique per character")]
    WeaponTaken { who: String, name: String },
    #[error("{who} has no weapon: add one (`weapon {who} add NAME dv N ap N acc N`)")]
    NoWeapon { who: String },
    #[error(
        "{who} has no attack action waiting for its attack in this character turn: take one first (`act {who} Fire Gun`, `act {who} Melee Attack`, a ready fired, an Intercept)"
    )]
    NoAttackAction { who: String },
    #[error("{who}'s {action} is made with {kind}, and {who} has none: add one with `weapon`")]
    NoWeaponFor {
        who: String,
        action: String,
        kind: &'static str,
    },
    #[error(
        "{who}'s {action} is made with {kind}, and {weapon} is not one{}",
        kind_list(who, has)
    )]
    WrongWeapon {
        who: String,
        action: String,
        weapon: String,
        kind: &'static str,
        has: Vec<String>,
    },
    #[error("{who}'s {weapon} takes no ammunition: nothing to reload")]
    NoAmmo { who: String, weapon: String },
    #[error("{who} has no firearm in hand to reload: name one (`reload {who} WEAPON`)")]
    NothingToReload { who: String },
    #[error(
        "{who}'s {weapon} has {} left, {action} takes {need}: {}",
        n_rounds(*left),
        match insert {
            Some(insert) => format!("its clip is out, take {insert} first (`act {who} {insert}`)"),
            None if *in_hand => format!("reload first (`reload {who}`)"),
            None => format!("reload first (`reload {who} {weapon}`)"),
        }
    )]
    TooFewRounds {
        who: String,
        weapon: String,
        left: u8,
        need: u8,
        action: String,
        /// Whether it is the firearm in hand, which a bare `reload NAME` fills.
        in_hand: bool,
        /// The action that puts a clip in, when its clip is out.
        insert: Option<String>,
    },
    #[error("{who}'s {weapon} still has its clip in: take {remove} first (`act {who} {remove}`)")]
    ClipIn {
        who: String,
        weapon: String,
        remove: String,
    },
    #[error("{who}'s {weapon} has its clip out already: take {insert} (`act {who} {insert}`)")]
    ClipOut {
        who: String,
        weapon: String,
        insert: String,
    },
    #[error(
        "{who}'s {action} already waits for the next defense test: a second one would add nothing to it"
    )]
    DefenseAddWaiting { who: String, action: String },
    #[error(
        "{action} counts only against melee attacks, and the attack waiting for {who}'s defense is {attacker}'s {weapon}, not a melee weapon"
    )]
    DefenseAddNotMelee {
        who: String,
        action: String,
        attacker: String,
        weapon: String,
    },
    #[error(
        "{action} needs a melee weapon, and {who} carries none{}: add one (`weapon {who} add NAME dv N ap N acc N`)",
        has_list(has)
    )]
    NoMeleeWeapon {
        who: String,
        action: String,
        has: Vec<String>,
    },
    #[error(
        "{who}'s {action} is no status to clear: it adds to {who}'s next defense test and lapses at the round's end (`undo` takes it back, IP and all)"
    )]
    DefenseAddNotStatus { who: String, action: String },
    #[error("{who} cannot attack themself: name another target")]
    SelfAttack { who: String },
    #[error(
        "no attack of {attacker} on {target} waits for its next step: start one with `pool N` (the attacker's dice)"
    )]
    NoAttack { attacker: String, target: String },
    #[error("{what} comes after the {step}: give the {step} first")]
    StepOrder {
        what: &'static str,
        step: &'static str,
    },
    #[error("the attack of {attacker} on {target} already had its {step}")]
    StepDone {
        attacker: String,
        target: String,
        step: &'static str,
    },
    #[error(
        "an attack already under way keeps its weapon: `with` goes with a new attack (`pool N`)"
    )]
    WeaponMidChain,
    #[error(
        "typed dice belong to one target: with several targets give `{word} N` (the same pool for each) or `{word}` alone, and type a target's dice with `attack ATTACKER TARGET {word} N dice …` when it waits"
    )]
    SharedDice { word: &'static str },
    #[error("{who} is Downed already: attack someone still standing")]
    TargetDowned { who: String },
    #[error("every member of {group} is Downed: attack someone still standing")]
    GroupDowned { group: String },
    #[error("a new attack needs the attacker's dice: `pool N` (and `dice …` to type them)")]
    AttackPool,
    #[error(
        "{who}'s defense adds {adds}, which srtrack does not know: type the whole pool (`defense N`)"
    )]
    NeedsDefensePool { who: String, adds: String },
    #[error(
        "the attack of {attacker} on {target} waits for {target}'s {step}: give it (`{word} N`, `dice …` to type the roll), or `{word}` alone for srtrack to roll it"
    )]
    Waiting {
        attacker: String,
        target: String,
        step: &'static str,
        word: &'static str,
    },
    #[error(
        "{who} has no {attribute} on their sheet to roll the {step} with: type the pool (`{step} N`) or `edit` the sheet"
    )]
    NoAttribute {
        who: String,
        attribute: &'static str,
        step: &'static str,
    },
}

fn has_list(has: &[String]) -> String {
    if has.is_empty() {
        " (has none: add one with `weapon`)".into()
    } else {
        format!(" (has {})", has.join(", "))
    }
}

/// The weapons of the kind an attack action takes, for its refusal to name.
fn kind_list(who: &str, has: &[String]) -> String {
    if has.is_empty() {
        format!(": {who} has none (add one with `weapon`)")
    } else {
        format!(": name {}", has.join(" or "))
    }
}

/// `n` rounds, in words: "1 round", "3 rounds".
pub fn n_rounds(n: u8) -> String {
    format!("{n} round{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_from_before_area_attacks_keeps_its_waiting_attack() {
        let old = "Sr5State(kits: [], pending: Some(PendingAttack(attacker: CombatantId(1), \
                   target: CombatantId(0), weapon: Weapon(name: \"Club\", dv: 5, damage: Physical, \
                   ap: 0, accuracy: 4, ammo: None), stage: Soak(dv: 7))))";
        let s: Sr5State = ron::from_str(old).expect("the old form loads");
        assert_eq!(s.pending.len(), 1);
        assert_eq!(s.pending[0].stage, Stage::Soak { dv: 7 });
        let none: Sr5State = ron::from_str("Sr5State(kits: [], pending: None)").expect("loads");
        assert!(none.pending.is_empty());
        let back: Sr5State = ron::from_str(&ron::to_string(&s).expect("writes")).expect("reads");
        assert_eq!(back, s);
    }
}
