//! A small catalogue and a demo encounter mid-fight: for snapshots, tests, the bench and the
//! README capture (the real `saves/demo.ron` replaces it where available).

use std::sync::Arc;

use crate::catalogue::{
    ActionDef, ActionGroup, ActionKind, Catalogue, Effect, Restriction, TestBy,
};
use crate::encounter::Encounter;
use crate::lang::{self, Line};
use crate::rules::{HouseRules, RandomDice};

fn def(
    name: &str,
    group: ActionGroup,
    kind: ActionKind,
    test: Option<&str>,
    summary: &str,
) -> ActionDef {
    ActionDef {
        name: name.into(),
        group,
        kind,
        test: test.map(Into::into),
        test_by: TestBy::Actor,
        marks: None,
        threshold: None,
        ammo: None,
        restrictions: Vec::new(),
        effect: None,
        attack: None,
        page: None,
        summary: summary.into(),
    }
}

/// A handful of actions of every group.
pub fn catalogue() -> Catalogue {
    use ActionGroup as G;
    use ActionKind as K;
    let mut prone = def("Drop Prone", G::Free, K::Free, None, "Drop to the ground.");
    prone.effect = Some(Effect::Start("Prone".into()));
    let mut stand = def("Stand Up", G::Simple, K::Simple, None, "Get up from prone.");
    stand.effect = Some(Effect::End("Prone".into()));
    stand.restrictions = vec![Restriction::OnlyWhile("Prone".into())];
    let mut aim = def(
        "Take Aim",
        G::Simple,
        K::Simple,
        None,
        "+1 die to the next attack, stacks.",
    );
    aim.effect = Some(Effect::Stack("Take Aim".into()));
    let mut sprint = def(
        "Sprint",
        G::Complex,
        K::Complex,
        Some("Running + Strength"),
        "Run farther this turn.",
    );
    sprint.restrictions = vec![Restriction::NotWhile("Prone".into())];
    let mut fd = def(
        "Full Defense",
        G::Interrupt,
        K::Interrupt { initiative: -10 },
        None,
        "Add Willpower to defense until the round ends.",
    );
    fd.effect = Some(Effect::Start("Full Defense".into()));
    let mut fire = def(
        "Fire Weapon",
        G::Simple,
        K::Simple,
        Some("Firearm + Agility [Accuracy] v. Reaction + Intuition"),
        "A single shot or a semi-auto burst.",
    );
    fire.effect = Some(Effect::Uses("Take Aim".into()));
    let mut hack = def(
        "Hack on the Fly",
        G::Matrix,
        K::Complex,
        Some("Hacking + Logic [Sleaze] v. Intuition + Firewall"),
        "Place a mark on a device.",
    );
    hack.marks = Some("none".into());
    Catalogue::from_actions(vec![
        def(
            "Call a Shot",
            G::Free,
            K::Free,
            None,
            "Aim for a weak spot with the attack.",
        ),
        prone,
        def("Speak", G::Free, K::Free, None, "A short phrase."),
        fire,
        aim,
        def(
            "Observe in Detail",
            G::Simple,
            K::Simple,
            Some("Perception + Intuition"),
            "Look closely at something.",
        ),
        stand,
        def(
            "Fire Full-Auto",
            G::Complex,
            K::Complex,
            Some("Firearm + Agility [Accuracy] v. Reaction + Intuition"),
            "A long burst.",
        ),
        def(
            "Melee Attack",
            G::Complex,
            K::Complex,
            Some("Close Combat + Agility [Physical] v. Reaction + Intuition"),
            "Strike in close combat.",
        ),
        sprint,
        def(
            "Block",
            G::Interrupt,
            K::Interrupt { initiative: -5 },
            None,
            "Add Close Combat to one melee defense.",
        ),
        def(
            "Dodge",
            G::Interrupt,
            K::Interrupt { initiative: -5 },
            None,
            "Add Gymnastics to one defense.",
        ),
        fd,
        def(
            "Ram",
            G::Chase,
            K::Complex,
            Some("Vehicle + Reaction"),
            "Hit another vehicle.",
        ),
        hack,
        def(
            "Control Device",
            G::Matrix,
            K::Variable,
            Some("Electronic Warfare + Logic [Sleaze]"),
            "Make a device do something.",
        ),
        def(
            "Compile Sprite",
            G::Resonance,
            K::Complex,
            Some("Compiling + Resonance [Level]"),
            "Call a sprite.",
        ),
    ])
}

/// An empty encounter on the embedded rules and the demo catalogue.
pub fn empty() -> Encounter {
    Encounter::new(Arc::new(HouseRules::embedded()), Arc::new(catalogue()))
}

/// Runs lines of the command language; a line the engine refuses is a defect of the script.
pub fn script(enc: &mut Encounter, lines: &[&str], seed: u64) -> Result<(), String> {
    let mut dice = RandomDice::seeded(seed);
    for l in lines {
        match lang::parse(l, enc.state(), enc.catalogue()).map_err(|e| format!("{l}: {e}"))? {
            Line::Command(c) => {
                lang::execute(enc, c, &mut dice).map_err(|e| format!("{l}: {e}"))?;
            }
            Line::Undo(n) => {
                enc.undo(n);
            }
            Line::Redo(n) => {
                enc.redo(n);
            }
            Line::Why(..)
            | Line::AnarchyOdds(_)
            | Line::Odds(_)
            | Line::Odds2097(_)
            | Line::Nothing => {}
            Line::FromRoster(_) => return Err(format!("{l}: the demo has no roster")),
        }
    }
    Ok(())
}

/// The demo script: a runner team against gangers, mid-fight, with a delay, a ready, a Downed.
pub const DEMO: &[&str] = &[
    "add Jinx pc int 5 rea 6 edge 3 ip 1 body 4 will 5",
    "add Sledge pc int 3 rea 5 edge 2 body 7 will 3",
    "add Whisper pc int 5 rea 4 edge 4 body 3 will 6",
    "add Ganger x3 npc int 3 rea 3 body 4 will 3",
    "add Lt. Vasquez npc int 4 rea 5 edge 2 body 5 will 4",
    "roll all",
    "start",
    "act Lt. Vasquez Fire Weapon",
    "damage Ganger 3 10 physical",
    "damage Jinx 3 stun",
    "next",
    "delay Ganger 1 2 after Jinx",
    "next",
    "ready Sledge 2 when the door opens do Fire Weapon",
    "next",
    "act Ganger 2 Drop Prone",
    "act Ganger 2 Take Aim",
    "next",
];

/// The demo encounter, mid-fight: Jinx to act.
pub fn encounter() -> Encounter {
    let mut enc = empty();
    // The script is fixed: a refusal here is a bug in the demo, caught by its test.
    let _ = script(&mut enc, DEMO, 7);
    enc
}

/// A fight of sixteen, round 1 mid-pass, with every kind of row: statuses, Take Aim ×2, Edge
/// spent, wounds, a Downed ganger, a delay and a ready. Rolls are typed in so the order is fixed.
pub const TABLE: &[&str] = &[
    "add Razor pc int 5 rea 5 edge 3 body 5 will 4",
    "add Ana pc int 4 rea 5 edge 2 body 4 will 5",
    "add Jinx pc int 5 rea 6 edge 3 ip 1 body 4 will 5",
    "add Moth pc int 4 rea 4 edge 2 body 3 will 6",
    "add Ganger x8 npc int 3 rea 3 edge 1 body 4 will 3",
    "add Lt. Vasquez npc int 4 rea 5 edge 2 body 5 will 4",
    "add Roto-drone npc int 3 rea 4 body 3",
    "add Sniper npc int 4 rea 4 body 4 will 3",
    "add Dog npc int 4 rea 5 body 3 will 2",
    "roll Jinx hits 6",
    "roll Razor hits 5",
    "roll Lt. Vasquez hits 5",
    "roll Ana hits 4",
    "roll Dog hits 4",
    "roll Moth hits 3",
    "roll Sniper hits 3",
    "roll Roto-drone hits 2",
    "roll Ganger 1 hits 2",
    "roll Ganger 2 hits 1",
    "roll Ganger 3 hits 1",
    "roll Ganger 4 hits 1",
    "roll Ganger 5 hits 0",
    "roll Ganger 6 hits 0",
    "roll Ganger 7 hits 0",
    "roll Ganger 8 hits 0",
    "start",
    "act Jinx Fire Weapon",
    "edge Jinx",
    "act Jinx Fire Weapon",
    "next",
    "act Razor Take Aim",
    "act Razor Take Aim",
    "next",
    "act Lt. Vasquez Fire Full-Auto",
    "damage Ganger 1, Ganger 2, Ganger 3 3 stun",
    "next",
    "delay Ana 2 after Moth",
    "next",
    "act Dog Drop Prone",
    "next",
    "ready Moth 2 when the door opens do Fire Weapon",
    "act Sniper Full Defense",
    "damage Ganger 6 10 physical",
    "damage Razor 3 physical",
];

/// The fight of sixteen: Moth to act, Ana's delay waiting on Moth, Moth's ready declared.
pub fn table() -> Encounter {
    let mut enc = empty();
    // The script is fixed: a refusal here is a bug, caught by the tests that use it.
    let _ = script(&mut enc, TABLE, 11);
    enc
}
