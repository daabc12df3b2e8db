//! The shape of one catalogue entry, as `assets/actions.ron` writes it.

use serde::{Deserialize, Serialize};

use crate::rules::{ActionType, HouseRules};

/// The seven groups of the actions text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum ActionGroup {
    Free,
    Simple,
    Complex,
    Interrupt,
    Chase,
    Matrix,
    Resonance,
}

impl ActionGroup {
    pub const ALL: [ActionGroup; 7] = [
        ActionGroup::Free,
        ActionGroup::Simple,
        ActionGroup::Complex,
        ActionGroup::Interrupt,
        ActionGroup::Chase,
        ActionGroup::Matrix,
        ActionGroup::Resonance,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ActionGroup::Free => "Free",
            ActionGroup::Simple => "Simple",
            ActionGroup::Complex => "Complex",
            ActionGroup::Interrupt => "Interrupt",
            ActionGroup::Chase => "Chase",
            ActionGroup::Matrix => "Matrix",
            ActionGroup::Resonance => "Resonance",
        }
    }
}

/// The action type as the text gives it (or as DESIGN.md rules where it gives none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionKind {
    Free,
    Simple,
    Complex,
    /// Paid out of turn; `initiative` is the cost as written ("-5 Initiative"), mapped to IP by rules.ron.
    Interrupt {
        initiative: i8,
    },
    /// Takes the type of what is done through it (Control Device): the GM picks it each time.
    Variable,
    /// Its type depends on the situation (Matrix Search): the GM picks it each time.
    Special,
}

impl ActionKind {
    /// The fixed type, when the kind has one.
    pub fn fixed_type(self) -> Option<ActionType> {
        match self {
            ActionKind::Free => Some(ActionType::Free),
            ActionKind::Simple => Some(ActionType::Simple),
            ActionKind::Complex => Some(ActionType::Complex),
            ActionKind::Interrupt { .. } | ActionKind::Variable | ActionKind::Special => None,
        }
    }

    /// Whether the GM must say which type it takes this time.
    pub fn asks_type(self) -> bool {
        matches!(self, ActionKind::Variable | ActionKind::Special)
    }

    /// The label with its article, for a sentence: "a Simple", "an Interrupt".
    pub fn a_label(self) -> &'static str {
        match self {
            ActionKind::Free => "a Free",
            ActionKind::Simple => "a Simple",
            ActionKind::Complex => "a Complex",
            ActionKind::Interrupt { .. } => "an Interrupt",
            ActionKind::Variable => "a Variable",
            ActionKind::Special => "a Special",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ActionKind::Free => "Free",
            ActionKind::Simple => "Simple",
            ActionKind::Complex => "Complex",
            ActionKind::Interrupt { .. } => "Interrupt",
            ActionKind::Variable => "Variable",
            ActionKind::Special => "Special",
        }
    }
}

/// A lasting effect an action starts or ends; the status is named in rules.ron's `statuses`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// Starts the status (Full Defense, Prone).
    Start(String),
    /// Ends the status (Stand Up ends Prone).
    End(String),
    /// Adds one to the status's stack (Take Aim).
    Stack(String),
    /// The action the stacked status was built up for (an attack uses Take Aim): the status
    /// ends with it as with any other action, and the log says the action took its bonus.
    Uses(String),
}

impl Effect {
    pub fn status(&self) -> &str {
        match self {
            Effect::Start(s) | Effect::End(s) | Effect::Stack(s) | Effect::Uses(s) => s,
        }
    }
}

/// What an action is to the rule of one attack action per Action Phase (Fire Gun, Throw Weapon:
/// no second attack action in that phase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttackRole {
    /// An attack action: one per Action Phase.
    Attack,
    /// Allows one more attack action in the same Action Phase (Multiple Attacks).
    OneMore,
}

/// When an action may be taken, beyond IP and turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Restriction {
    /// Refused while the character has this status (no Sprint while Prone).
    NotWhile(String),
    /// Only while the character has this status (Stand Up needs Prone).
    OnlyWhile(String),
    /// Goes with one of these actions (Call a Shot with an attack): taken in the same Action Phase,
    /// before or after it. Each name is an action of the catalogue.
    CombineWith(Vec<String>),
    /// A requirement srtrack cannot check (a control rig, a quick-draw holster); shown to the GM.
    Needs(String),
}

/// Who makes an action's test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TestBy {
    #[default]
    Actor,
    /// Those who see the action: a Gesture's onlookers, not the one who gestures.
    Onlookers,
}

impl TestBy {
    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
    pub fn is_actor(&self) -> bool {
        *self == TestBy::Actor
    }
}

/// One action of the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionDef {
    pub name: String,
    pub group: ActionGroup,
    pub kind: ActionKind,
    /// The test as written, e.g. `Cybercombat + Logic [Attack] v. Willpower + Firewall`.
    #[serde(default)]
    pub test: Option<String>,
    /// Who makes the test: the one who acts (the default), or those who see it (Gesture).
    #[serde(default, skip_serializing_if = "TestBy::is_actor")]
    pub test_by: TestBy,
    /// Marks required (Matrix actions), as written: "none", "3", "Owner", "n/a (or 1)".
    #[serde(default)]
    pub marks: Option<String>,
    /// A threshold as written, e.g. "3 (2 with a quick-draw holster)".
    #[serde(default)]
    pub threshold: Option<String>,
    /// Ammunition used, where the text says.
    #[serde(default)]
    pub ammo: Option<u8>,
    #[serde(default)]
    pub restrictions: Vec<Restriction>,
    #[serde(default)]
    pub effect: Option<Effect>,
    /// An attack action, or one that allows another (older catalogue files have none).
    #[serde(default)]
    pub attack: Option<AttackRole>,
    /// Page reference given in the text.
    #[serde(default)]
    pub page: Option<u16>,
    /// One line in our own words.
    pub summary: String,
}

impl ActionDef {
    /// IP this action costs under `rules`. Variable and Special actions take the type the GM
    /// `chosen` for this use (None until chosen); an interrupt whose initiative the rules do
    /// not map has no cost (the catalogue validation refuses such entries).
    pub fn ip_cost(&self, rules: &HouseRules, chosen: Option<ActionType>) -> Option<u8> {
        match self.kind {
            ActionKind::Interrupt { initiative } => rules.interrupt_ip(initiative),
            ActionKind::Variable | ActionKind::Special => chosen.map(|t| rules.cost_of(t)),
            kind => kind.fixed_type().map(|t| rules.cost_of(t)),
        }
    }
}
