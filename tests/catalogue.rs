//! The actions catalogue against the facts of its rules text, its validation, GM overrides
//! and search.

#[path = "common/catalogue_facts.rs"]
mod facts;

use std::collections::{BTreeSet, HashSet};

use facts::{ActionFacts, CatalogueFacts, RUN, run_hash, test_pieces, words};
use srtrack::catalogue::{
    ActionDef, ActionGroup, ActionKind, Catalogue, EMBEDDED_ACTIONS, Effect, Problem, Restriction,
    load_ruleset,
};
use srtrack::rules::{ActionType, HouseRules};

/// What the rules text says of each action, kept in the repository (taken from the text by
/// `examples/catalogue_facts.rs`).
fn text_facts() -> CatalogueFacts {
    ron::from_str(include_str!("fixtures/catalogue-facts.ron"))
        .unwrap_or_else(|e| panic!("tests/fixtures/catalogue-facts.ron: {e}"))
}

/// The text's heading of a catalogue action. The chase heading adds what the action is for
/// ("Evasive Driving (Defense)"); the name is the action's.
fn facts_of<'f>(facts: &'f CatalogueFacts, a: &ActionDef) -> &'f ActionFacts {
    facts
        .actions
        .iter()
        .find(|f| {
            f.name
                .trim_end_matches(" (Defense)")
                .eq_ignore_ascii_case(&a.name)
        })
        .unwrap_or_else(|| panic!("{} is a heading of the text", a.name))
}

fn rules() -> HouseRules {
    HouseRules::embedded()
}

fn catalogue() -> Catalogue {
    Catalogue::embedded(&rules()).unwrap_or_else(|p| panic!("{}", show(&p)))
}

fn show(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

fn action(name: &str) -> ActionDef {
    catalogue()
        .get(name)
        .unwrap_or_else(|| panic!("{name} is in the catalogue"))
        .clone()
}

// ---- the catalogue holds every action of the text ----

#[test]
fn every_group_has_the_number_of_actions_the_text_lists() {
    // Counted by hand from the headings of sr5-actions-catalogue.txt, section by section:
    // Free 9 (Call a Shot .. Speak/Text/Transmit Phrase); Simple 23 (Activate Focus .. Use Sensors,
    // "Fire Full-Auto Weapon (6 Bullets)" included); Complex 16 (Astral Projection .. Use Skill, with
    // "(10 Bullets)" a separate entry and "Fire Long Burst / or Semi-Auto Burst" and "Fire Mounted /
    // or Vehicle Weapon" one entry each despite their two-line headings); Interrupt 6 (Block, Dodge,
    // Hit the Dirt, Intercept, Parry, Full Defense); Chase 5 (Catch-Up/Break Away, Cut-Off, Ram,
    // Stunt, Evasive Driving); Matrix 30 (Brute Force .. Trace Icon, "send message" + "Send
    // Message" being one heading printed twice); Resonance 7 (Call/Dismiss Sprite .. Thread
    // Complex Form). 96 in all.
    let expected = [
        (ActionGroup::Free, 9),
        (ActionGroup::Simple, 23),
        (ActionGroup::Complex, 16),
        (ActionGroup::Interrupt, 6),
        (ActionGroup::Chase, 5),
        (ActionGroup::Matrix, 30),
        (ActionGroup::Resonance, 7),
    ];
    let cat = catalogue();
    for (group, n) in expected {
        assert_eq!(cat.in_group(group).count(), n, "{group:?}");
    }
    assert_eq!(cat.len(), 96);
}

#[test]
fn the_catalogue_has_exactly_the_headings_of_the_text() {
    let facts = text_facts();
    let cat = catalogue();
    for group in ActionGroup::ALL {
        let ours: BTreeSet<String> = cat.in_group(group).map(|a| a.name.to_lowercase()).collect();
        let theirs: BTreeSet<String> = facts
            .actions
            .iter()
            .filter(|f| f.group == group)
            .map(|f| f.name.trim_end_matches(" (Defense)").to_lowercase())
            .collect();
        assert_eq!(ours, theirs, "{group:?}");
    }
    assert_eq!(facts.actions.len(), 96, "one heading an action");
}

#[test]
fn types_tests_marks_and_pages_are_as_written_in_the_text() {
    let facts = text_facts();
    let every_page: BTreeSet<u32> = facts.actions.iter().flat_map(|f| f.pages.clone()).collect();
    for a in catalogue().actions() {
        let f = facts_of(&facts, a);
        assert_eq!(a.group, f.group, "{}: group", a.name);
        // The type line under the heading, where the text has one; the group heading otherwise.
        let written = match a.kind {
            ActionKind::Interrupt { initiative } if f.group != ActionGroup::Matrix => {
                format!("{initiative} Initiative")
            }
            kind => format!("{} Action", kind.label()),
        };
        if let Some(kind) = &f.kind {
            assert_eq!(&written, kind, "{}: type", a.name);
        } else if matches!(
            f.group,
            ActionGroup::Free | ActionGroup::Simple | ActionGroup::Complex
        ) {
            assert_eq!(
                a.kind.label(),
                f.group.label(),
                "{}: type of its group",
                a.name
            );
        }
        match (&f.test, &a.test) {
            // A "Test:" line: the catalogue writes it as the text does.
            (Some(theirs), ours) => assert_eq!(ours.as_ref(), Some(theirs), "{}: test", a.name),
            // A test in the prose: each of its pieces is a phrase of the passage.
            (None, Some(ours)) => {
                for piece in test_pieces(ours) {
                    assert!(f.phrases.contains(&piece), "{}: test {piece:?}", a.name);
                }
            }
            (None, None) => {}
        }
        assert_eq!(a.marks, f.marks, "{}: marks", a.name);
        if let Some(page) = a.page {
            // Often the text refers to an action's page from another action's passage.
            assert!(
                every_page.contains(&u32::from(page)),
                "{}: page {page} is referenced in the text",
                a.name
            );
        }
    }
    let ramming = action("Ramming");
    let test = ramming.test.unwrap_or_default();
    assert!(test.starts_with("Vehicle skill + Reaction v. Reaction + Intuition"));
    assert_eq!(
        facts_of(&facts, &action("Ramming")).phrases,
        [
            "Vehicle skill + Reaction",
            "Reaction + Intuition",
            "Reaction + Intuition [Handling]"
        ]
    );
}

#[test]
fn the_facts_pieces_split_tests_as_the_text_writes_them() {
    assert_eq!(
        test_pieces(
            "Vehicle skill + Reaction v. Reaction + Intuition (pedestrian) or X [Speed or Handling] (driver)"
        ),
        [
            "Vehicle skill + Reaction",
            "Reaction + Intuition",
            "X [Speed or Handling]"
        ]
    );
    assert_eq!(
        test_pieces("(Weapon Skill) + Reaction [Physical]"),
        ["(Weapon Skill) + Reaction [Physical]"]
    );
    let facts = text_facts();
    let quick = facts
        .actions
        .iter()
        .find(|f| f.name == "Quick Draw")
        .unwrap();
    assert_eq!(quick.pages, [432], "the holster's page, not the action's");
}

// ---- field by field against the text ----

#[test]
fn full_defense() {
    let a = action("Full Defense");
    assert_eq!(a.group, ActionGroup::Interrupt);
    assert_eq!(a.kind, ActionKind::Interrupt { initiative: -10 });
    assert_eq!(a.effect, Some(Effect::Start("Full Defense".into())));
    assert_eq!(
        a.restrictions,
        vec![Restriction::NotWhile("Surprised".into())]
    );
    assert_eq!(a.page, Some(191));
    assert_eq!(
        (&a.test, &a.marks, &a.threshold, a.ammo),
        (&None, &None, &None, None)
    );
    assert_eq!(a.ip_cost(&rules(), None), Some(4));
}

#[test]
fn dodge() {
    let a = action("Dodge");
    assert_eq!(a.group, ActionGroup::Interrupt);
    assert_eq!(a.kind, ActionKind::Interrupt { initiative: -5 });
    assert_eq!(a.effect, None);
    assert!(a.restrictions.is_empty());
    assert_eq!(a.page, Some(191));
    assert!(a.summary.contains("Gymnastics"));
    assert_eq!(a.ip_cost(&rules(), None), Some(2));
}

#[test]
fn quick_draw() {
    let a = action("Quick Draw");
    assert_eq!((a.group, a.kind), (ActionGroup::Simple, ActionKind::Simple));
    assert_eq!(
        a.test.as_deref(),
        Some("(Weapon Skill) + Reaction [Physical]")
    );
    assert_eq!(
        a.threshold.as_deref(),
        Some("3 (2 with a quick-draw holster)")
    );
    assert!(matches!(a.restrictions.as_slice(), [Restriction::Needs(n)] if n.contains("holster")));
    // p. 432 is the holster's page, not the action's.
    assert_eq!(a.page, None);
    assert_eq!(a.ip_cost(&rules(), None), Some(2));
}

#[test]
fn take_aim() {
    let a = action("Take Aim");
    assert_eq!((a.group, a.kind), (ActionGroup::Simple, ActionKind::Simple));
    assert_eq!(a.effect, Some(Effect::Stack("Take Aim".into())));
    assert_eq!(a.test, None);
    assert_eq!(a.page, None);
}

#[test]
fn fire_full_auto_weapon_simple_and_complex() {
    let six = action("Fire Full-Auto Weapon (6 Bullets)");
    assert_eq!(
        (six.group, six.kind),
        (ActionGroup::Simple, ActionKind::Simple)
    );
    assert_eq!(six.ammo, Some(6));
    assert_eq!(six.page, Some(424));
    assert_eq!(six.ip_cost(&rules(), None), Some(2));
    let ten = action("Fire Full-Auto Weapon (10 Bullets)");
    assert_eq!(
        (ten.group, ten.kind),
        (ActionGroup::Complex, ActionKind::Complex)
    );
    assert_eq!(ten.ammo, Some(10));
    assert_eq!(ten.page, Some(424));
    assert_eq!(ten.ip_cost(&rules(), None), Some(4));
}

#[test]
fn brute_force() {
    let a = action("Brute Force");
    assert_eq!(
        (a.group, a.kind),
        (ActionGroup::Matrix, ActionKind::Complex)
    );
    assert_eq!(
        a.test.as_deref(),
        Some("Cybercombat + Logic [Attack] v. Willpower + Firewall")
    );
    assert_eq!(a.marks.as_deref(), Some("none"));
    assert_eq!(a.page, None);
}

#[test]
fn hack_on_the_fly() {
    let a = action("hack on the fly");
    assert_eq!(a.name, "Hack on the Fly");
    assert_eq!(
        (a.group, a.kind),
        (ActionGroup::Matrix, ActionKind::Complex)
    );
    assert_eq!(
        a.test.as_deref(),
        Some("Hacking + Logic [Sleaze] v. Intuition + Firewall")
    );
    assert_eq!(a.marks.as_deref(), Some("none"));
}

#[test]
fn control_device() {
    let a = action("Control Device");
    assert_eq!(
        (a.group, a.kind),
        (ActionGroup::Matrix, ActionKind::Variable)
    );
    assert_eq!(
        a.test.as_deref(),
        Some(
            "(as action) [Data Processing (or special)] v. (as action) or Electronic Warfare + \
             Intuition [Sleaze] v. Intuition + Firewall"
        )
    );
    assert_eq!(a.marks.as_deref(), Some("varies"));
    let r = rules();
    assert_eq!(a.ip_cost(&r, None), None, "the GM must pick a type");
    assert_eq!(a.ip_cost(&r, Some(ActionType::Free)), Some(1));
    assert_eq!(a.ip_cost(&r, Some(ActionType::Complex)), Some(4));
}

#[test]
fn matrix_search() {
    let a = action("Matrix Search");
    assert_eq!(
        (a.group, a.kind),
        (ActionGroup::Matrix, ActionKind::Special)
    );
    assert_eq!(
        a.test.as_deref(),
        Some("Simple Computer + Intuition [Data Processing]")
    );
    assert_eq!(a.marks.as_deref(), Some("n/a"));
    assert_eq!(a.ip_cost(&rules(), Some(ActionType::Simple)), Some(2));
}

#[test]
fn compile_sprite() {
    let a = action("Compile Sprite");
    assert_eq!(
        (a.group, a.kind),
        (ActionGroup::Resonance, ActionKind::Complex)
    );
    assert_eq!(
        a.test.as_deref(),
        Some("Compiling + Resonance [Level] v. Sprite Level")
    );
    assert_eq!(a.marks, None);
    assert_eq!(a.page, Some(254));
}

#[test]
fn evasive_driving() {
    let a = action("Evasive Driving");
    assert_eq!(a.group, ActionGroup::Chase);
    // DESIGN.md: an interrupt of 4 IP (Initiative Score −10).
    assert_eq!(a.kind, ActionKind::Interrupt { initiative: -10 });
    assert_eq!(a.ip_cost(&rules(), None), Some(4));
    assert_eq!(a.test, None);
    assert!(a.summary.contains("Intuition"));
}

#[test]
fn rulings_of_the_design_for_kinds_the_text_does_not_give() {
    let cat = catalogue();
    for a in cat.in_group(ActionGroup::Chase) {
        if a.name != "Evasive Driving" {
            assert_eq!(a.kind, ActionKind::Complex, "{}", a.name);
        }
    }
    for name in ["Call/Dismiss Sprite", "Command Sprite"] {
        assert_eq!(action(name).kind, ActionKind::Simple, "{name}");
    }
    assert_eq!(
        action("Full Matrix Defense").kind,
        ActionKind::Interrupt { initiative: -10 }
    );
    assert_eq!(
        action("Full Matrix Defense").effect,
        Some(Effect::Start("Full Matrix Defense".into()))
    );
    for name in ["Drop Prone", "Hit the Dirt"] {
        assert_eq!(
            action(name).effect,
            Some(Effect::Start("Prone".into())),
            "{name}"
        );
    }
    let stand = action("Stand Up");
    assert_eq!(stand.effect, Some(Effect::End("Prone".into())));
    assert_eq!(
        stand.restrictions,
        vec![Restriction::OnlyWhile("Prone".into())]
    );
    assert_eq!(stand.test.as_deref(), Some("Body + Willpower"));
    assert!(stand.threshold.is_some_and(|t| t.starts_with('2')));
    assert!(
        action("Sprint")
            .restrictions
            .contains(&Restriction::NotWhile("Prone".into()))
    );
    assert!(
        action("Take Cover")
            .restrictions
            .contains(&Restriction::NotWhile("Surprised".into()))
    );
    // "Fire Weapon" in the text is every Fire… action: the data names them.
    let fire: Vec<String> = catalogue()
        .actions()
        .iter()
        .filter(|a| a.name.starts_with("Fire ") || a.name.ends_with("and Fire Bow"))
        .map(|a| a.name.clone())
        .collect();
    assert_eq!(fire.len(), 7, "{fire:?}");
    let mut shot = fire.clone();
    shot.extend(["Throw Weapon".into(), "Melee Attack".into()]);
    assert_eq!(
        action("Call a Shot").restrictions,
        vec![Restriction::CombineWith(shot.clone())]
    );
    let mut multiple = shot;
    multiple.extend(["Reckless Spellcasting".into(), "Cast Spell".into()]);
    assert_eq!(
        action("Multiple Attacks").restrictions,
        vec![Restriction::CombineWith(multiple)]
    );
    assert!(matches!(
        action("Rigger Jump In").restrictions.as_slice(),
        [Restriction::Needs(n)] if n.contains("control rig")
    ));
    // Every action has a cost once the GM picks a type for Variable / Special ones.
    let r = rules();
    for a in cat.actions() {
        assert!(
            a.ip_cost(&r, Some(ActionType::Simple)).is_some(),
            "{}",
            a.name
        );
    }
}

// ---- our own words ----

#[test]
fn no_summary_copies_a_sentence_of_the_text() {
    // Stricter than a sentence: no run of six words may be the text's.
    let runs: HashSet<u64> = text_facts().word_runs.into_iter().collect();
    assert!(runs.len() > 7000, "every run of the text: {}", runs.len());
    for a in catalogue().actions() {
        let words = words(&a.summary);
        for w in words.windows(RUN) {
            assert!(
                !runs.contains(&run_hash(w)),
                "{}: {:?} is the text's",
                a.name,
                w.join(" ")
            );
        }
        assert!(
            a.summary.chars().count() <= 90,
            "{}: summary too long",
            a.name
        );
        assert!(!a.summary.contains('\n'));
    }
    // The check bites: a run of the text's own words is caught (here, a "Test:" line).
    let facts = text_facts();
    let brute = facts
        .actions
        .iter()
        .find(|f| f.name == "Brute Force")
        .unwrap();
    let copied = words(&format!(
        "Test: {}",
        brute.test.as_deref().unwrap_or_default()
    ));
    assert!(runs.contains(&run_hash(&copied[..RUN])), "{copied:?}");
}

// ---- the file ----

#[test]
fn the_file_round_trips_through_ron() {
    let parsed: Vec<ActionDef> = ron::from_str(EMBEDDED_ACTIONS).expect("parses");
    let pretty =
        ron::ser::to_string_pretty(&parsed, ron::ser::PrettyConfig::default()).expect("serialises");
    let again: Vec<ActionDef> = ron::from_str(&pretty).expect("re-parses");
    assert_eq!(parsed, again);
    // How ron writes the enums and Options, as the file does.
    assert!(pretty.contains("kind: Interrupt(\n"), "{pretty}");
    assert!(pretty.contains("effect: Some(Start(\"Full Defense\"))"));
    assert!(EMBEDDED_ACTIONS.contains("kind: Interrupt(initiative: -10)"));
}

#[test]
fn every_status_the_catalogue_names_is_a_house_rules_status() {
    let r = rules();
    for a in catalogue().actions() {
        if let Some(e) = &a.effect {
            assert!(r.status(e.status()).is_some(), "{}", a.name);
        }
    }
}

// ---- validation ----

const ONE: &str = r#"[
    (name: "Dodge", group: Interrupt, kind: Interrupt(initiative: -5), summary: "Duck."),
    (name: "Stand Up", group: Simple, kind: Simple, summary: "Get up."),
]"#;

fn problems(text: &str) -> Vec<Problem> {
    match Catalogue::parse(text, "gm/actions.ron", &rules()) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(p) => p,
    }
}

fn assert_points_at(p: &Problem, line: usize, number: usize, name: &str, what: &str) {
    let msg = p.to_string();
    assert!(msg.starts_with(&format!("gm/actions.ron:{line}")), "{msg}");
    assert!(
        msg.contains(&format!("entry #{number} \"{name}\"")),
        "{msg}"
    );
    assert!(msg.contains(what), "{msg}");
    assert_eq!(p.line, line);
}

#[test]
fn a_valid_small_file_parses() {
    let cat = Catalogue::parse(ONE, "gm/actions.ron", &rules()).expect("valid");
    assert_eq!(cat.len(), 2);
}

#[test]
fn a_duplicate_name_is_refused_whatever_its_case() {
    let text = ONE.replace("\"Stand Up\"", "\"DODGE\"");
    let p = problems(&text);
    assert_eq!(p.len(), 1, "{}", show(&p));
    assert_points_at(&p[0], 3, 2, "DODGE", "duplicate name");
    assert!(p[0].to_string().contains("entry #1 \"Dodge\" already"));
}

#[test]
fn an_unknown_group_names_entry_and_line() {
    let text = ONE.replace("group: Simple", "group: Bonus");
    let p = problems(&text);
    assert_eq!(p.len(), 1);
    assert_points_at(&p[0], 3, 2, "Stand Up", "Bonus");
    assert!(p[0].col.is_some());
}

#[test]
fn an_unknown_kind_names_entry_and_line() {
    let text = ONE.replace("kind: Simple", "kind: Sideways");
    let p = problems(&text);
    assert_points_at(&p[0], 3, 2, "Stand Up", "Sideways");
}

#[test]
fn an_interrupt_cost_the_rules_do_not_map_is_refused() {
    let text = ONE.replace("initiative: -5", "initiative: -7");
    let p = problems(&text);
    assert_eq!(p.len(), 1);
    assert_points_at(&p[0], 2, 1, "Dodge", "interrupt_costs");
}

#[test]
fn a_status_not_in_the_rules_is_refused() {
    let text = ONE.replace(
        "kind: Simple,",
        "kind: Simple, restrictions: [OnlyWhile(\"Flying\")], effect: Some(End(\"Levitating\")),",
    );
    let p = problems(&text);
    assert_eq!(p.len(), 2, "{}", show(&p));
    assert_points_at(&p[0], 3, 2, "Stand Up", "\"Levitating\"");
    assert_points_at(&p[1], 3, 2, "Stand Up", "\"Flying\"");
    // Surprised is a status of rules.ron, so it may be named.
    let ok = ONE.replace(
        "kind: Simple,",
        "kind: Simple, restrictions: [NotWhile(\"Surprised\")],",
    );
    assert!(Catalogue::parse(&ok, "gm/actions.ron", &rules()).is_ok());
}

#[test]
fn an_empty_name_or_summary_is_refused() {
    let text = ONE.replace("summary: \"Get up.\"", "summary: \" \"");
    assert_points_at(&problems(&text)[0], 3, 2, "Stand Up", "summary is empty");
    let text = ONE.replace("\"Stand Up\"", "\"\"");
    let p = problems(&text);
    assert!(
        p[0].to_string()
            .starts_with("gm/actions.ron:3: entry #2 (no name): the name is empty")
    );
}

/// A GM's file is refused at entry when a text in it holds a control character (an escape
/// sequence in a name would reach every screen that shows it), whichever field holds it and
/// however RON writes it; the problem line itself shows it written out.
#[test]
fn a_control_character_in_any_text_is_refused() {
    for (from, to) in [
        ("\"Stand Up\"", "\"Stand\\u{1b}[2J Up\""),
        ("summary: \"Get up.\"", "summary: \"Get\\u{7} up.\""),
        (
            "summary: \"Get up.\"",
            "summary: \"Get up.\", test: Some(\"Body\\u{202e} + Willpower\")",
        ),
        (
            "kind: Simple,",
            "kind: Simple, restrictions: [Needs(\"a \\u{1b}]0;x\\u{7}holster\")],",
        ),
    ] {
        let text = ONE.replace(from, to);
        let p = problems(&text);
        assert_eq!(p.len(), 1, "{to}: {}", show(&p));
        assert!(p[0].message.contains("control character"), "{}", p[0]);
        assert_eq!(p[0].entry.as_ref().map(|e| e.number), Some(2), "{}", p[0]);
        assert!(
            !srtrack::text::holds_control(&p[0].message),
            "{:?}",
            p[0].message
        );
    }
}

/// A GM's file may not hold an action whose name looks like another's in the picker, or one
/// no command line can name: as a combatant's name, nothing invisible, no stray spaces, at most
/// `name_chars`.
#[test]
fn a_name_that_would_look_like_another_or_cannot_be_typed_is_refused() {
    let long = format!("\"Stand {}\"", "U".repeat(100_000));
    for (to, what) in [
        ("\"Stand\u{200b} Up\"", "U+200B, which shows as nothing"),
        ("\"Stand  Up\"", "two in a row"),
        ("\"Stand Up \"", "spaces at an end"),
        ("\"\u{301}Stand Up\"", "combining mark U+0301"),
        (
            long.as_str(),
            "100006 characters long: an action's name is 1 to 40",
        ),
    ] {
        let text = ONE.replace("\"Stand Up\"", to);
        let p = problems(&text);
        assert_eq!(p.len(), 1, "{to}: {}", show(&p));
        assert!(p[0].message.contains(what), "{}", p[0]);
        assert_eq!(p[0].entry.as_ref().map(|e| e.number), Some(2), "{}", p[0]);
        // The problem line echoes at most 40 characters of the name, escaped.
        assert!(p[0].to_string().len() < 300, "{}", p[0]);
    }
}

#[test]
fn a_syntax_error_names_line_and_column() {
    let text = ONE.replace("summary: \"Get up.\")", "summary: \"Get up.\"");
    let p = problems(&text);
    assert_eq!(p.len(), 1);
    let msg = p[0].to_string();
    assert!(msg.starts_with("gm/actions.ron:4:"), "{msg}");
    assert!(msg.contains("entry #2 \"Stand Up\""), "{msg}");
}

#[test]
fn every_problem_is_reported_at_once() {
    let text = ONE
        .replace("initiative: -5", "initiative: -3")
        .replace("summary: \"Get up.\"", "summary: \"\"");
    let p = problems(&text);
    assert_eq!(p.len(), 2, "{}", show(&p));
    assert_eq!((p[0].line, p[1].line), (2, 3));
}

// ---- GM overrides ----

#[test]
fn no_gm_files_means_the_built_in_rule_set() {
    let dir = tempfile::tempdir().expect("tempdir");
    let loaded = load_ruleset(Some(dir.path()));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.rules, rules());
    assert_eq!(loaded.catalogue, catalogue());
}

#[test]
fn a_broken_gm_catalogue_is_reported_and_the_built_in_one_used() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = ONE.replace("initiative: -5", "initiative: -7");
    std::fs::write(dir.path().join("actions.ron"), text).expect("write");
    let loaded = load_ruleset(Some(dir.path()));
    assert_eq!(loaded.catalogue, catalogue());
    let all = loaded.warnings.join("\n");
    assert!(all.contains("actions.ron:2: entry #1 \"Dodge\""), "{all}");
    assert!(all.contains("interrupt_costs"), "{all}");
    assert!(all.contains("built-in actions catalogue"), "{all}");
}

#[test]
fn a_gm_catalogue_with_a_syntax_error_is_reported_and_the_built_in_one_used() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("actions.ron"), "[ (name: \"X\", \n oops ]").expect("write");
    let loaded = load_ruleset(Some(dir.path()));
    assert_eq!(loaded.catalogue.len(), 96);
    assert!(
        loaded.warnings[0].contains("actions.ron:2:"),
        "{:?}",
        loaded.warnings
    );
}

#[test]
fn gm_files_cut_short_say_where_they_end_in_plain_words() {
    // Given a rules.ron and an actions.ron each cut short
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("rules.ron"),
        "HouseRules(\n  dice: DiceRules(",
    )
    .expect("write");
    std::fs::write(dir.path().join("actions.ron"), "[\n  (name: \"X\"").expect("write");
    // When the rule set loads
    let loaded = load_ruleset(Some(dir.path()));
    // Then each is named where it ends, in no parser's words, and the built-in ones are used
    let all = loaded.warnings.join("\n");
    assert!(
        all.contains(
            "rules.ron:2:19: the file ends early, at line 2 column 19 (was it cut short?)"
        ),
        "{all}"
    );
    assert!(
        all.contains("actions.ron:2:13: entry #1 \"X\": the file ends early, at line 2 column 13"),
        "{all}"
    );
    assert!(!all.contains("Unexpected end of RON"), "{all}");
    assert_eq!(loaded.rules, rules());
    assert_eq!(loaded.catalogue.len(), 96);
}

#[test]
fn an_empty_gm_catalogue_is_refused_and_the_built_in_one_used() {
    // Given an actions.ron holding an empty list
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("actions.ron"), "[]\n").expect("write");
    // When the rule set loads
    let loaded = load_ruleset(Some(dir.path()));
    // Then the file is named with what a catalogue holds, and the built-in actions are used
    assert_eq!(loaded.catalogue.len(), 96);
    let all = loaded.warnings.join("\n");
    assert!(
        all.contains("actions.ron: it holds no actions: a catalogue holds 1 to 1000 of them"),
        "{all}"
    );
    assert!(
        all.contains("using the built-in actions catalogue"),
        "{all}"
    );
}

#[test]
fn a_valid_gm_catalogue_with_a_house_action_is_used() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = EMBEDDED_ACTIONS
        .trim_end()
        .trim_end_matches(']')
        .to_string();
    text.push_str(
        "    (name: \"Flourish\", group: Free, kind: Free, summary: \"House rule: a showy twirl.\"),\n]\n",
    );
    std::fs::write(dir.path().join("actions.ron"), text).expect("write");
    let loaded = load_ruleset(Some(dir.path()));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.catalogue.len(), 97);
    let hits = loaded.catalogue.search("flour", None);
    assert_eq!(loaded.catalogue.actions()[hits[0].index].name, "Flourish");
}

#[test]
fn gm_house_rules_are_used_with_the_catalogue() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = srtrack::rules::house::EMBEDDED_RULES
        .replace("(initiative: -5, ip: 2)", "(initiative: -5, ip: 3)");
    std::fs::write(dir.path().join("rules.ron"), text).expect("write");
    let loaded = load_ruleset(Some(dir.path()));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let dodge = loaded.catalogue.get("Dodge").expect("dodge");
    assert_eq!(dodge.ip_cost(&loaded.rules, None), Some(3));
}

#[test]
fn broken_gm_house_rules_are_reported_and_the_built_in_ones_used() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("rules.ron"),
        "HouseRules(\n  dice: nope,\n)",
    )
    .expect("write");
    let loaded = load_ruleset(Some(dir.path()));
    assert_eq!(loaded.rules, rules());
    assert_eq!(loaded.catalogue.len(), 96);
    assert!(
        loaded.warnings[0].contains("rules.ron:2:"),
        "{:?}",
        loaded.warnings
    );
}

#[test]
fn gm_rules_that_drop_a_status_the_catalogue_needs_fall_back_to_the_built_in_rules() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text =
        srtrack::rules::house::EMBEDDED_RULES.replace("(name: \"Prone\", ends: UntilEnded),", "");
    std::fs::write(dir.path().join("rules.ron"), text).expect("write");
    let loaded = load_ruleset(Some(dir.path()));
    assert_eq!(loaded.rules, rules());
    assert_eq!(loaded.catalogue.len(), 96);
    let all = loaded.warnings.join("\n");
    assert!(all.contains("assets/actions.ron:"), "{all}");
    assert!(all.contains("\"Prone\""), "{all}");
}

// ---- search ----

fn names(cat: &Catalogue, query: &str, group: Option<ActionGroup>) -> Vec<String> {
    cat.search(query, group)
        .into_iter()
        .map(|h| cat.actions()[h.index].name.clone())
        .collect()
}

#[test]
fn fire_ranks_the_fire_actions_first() {
    let cat = catalogue();
    let got = names(&cat, "fire", None);
    let firsts: BTreeSet<&str> = got.iter().take(6).map(String::as_str).collect();
    let want: BTreeSet<&str> = [
        "Fire Bow",
        "Fire Full-Auto Weapon (6 Bullets)",
        "Fire Gun",
        "Fire Full-Auto Weapon (10 Bullets)",
        "Fire Long Burst or Semi-Auto Burst",
        "Fire Mounted or Vehicle Weapon",
    ]
    .into();
    assert_eq!(firsts, want, "{got:?}");
    assert!(got.contains(&"Load and Fire Bow".to_string()));
}

#[test]
fn fuzzy_queries_find_the_intended_action_first() {
    let cat = catalogue();
    for (query, want) in [
        ("dodg", "Dodge"),
        ("frie gun", "Fire Gun"),
        ("full defnse", "Full Defense"),
        ("full defense", "Full Defense"),
        ("brute", "Brute Force"),
        ("hotf", "Hack on the Fly"),
        ("qiuck draw", "Quick Draw"),
        ("matrix serch", "Matrix Search"),
        ("take aim", "Take Aim"),
        ("evasive", "Evasive Driving"),
    ] {
        let got = names(&cat, query, None);
        assert_eq!(
            got.first().map(String::as_str),
            Some(want),
            "{query}: {got:?}"
        );
    }
}

#[test]
fn scores_come_best_first() {
    let hits = catalogue().search("sprite", None);
    assert!(hits.len() >= 5);
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
}

#[test]
fn an_empty_query_lists_the_group_in_catalogue_order() {
    let cat = catalogue();
    let all = cat.search("", None);
    assert_eq!(all.len(), 96);
    assert!(all.iter().enumerate().all(|(i, h)| h.index == i));
    let chase = names(&cat, "  ", Some(ActionGroup::Chase));
    assert_eq!(
        chase,
        [
            "Catch-Up/Break Away",
            "Cut-Off",
            "Ram",
            "Stunt",
            "Evasive Driving"
        ]
    );
}

#[test]
fn a_group_limits_the_search() {
    let cat = catalogue();
    let got = names(&cat, "defense", Some(ActionGroup::Matrix));
    assert_eq!(got, ["Full Matrix Defense"]);
    assert!(cat.search("zzzzqqq", None).is_empty());
}

#[test]
fn a_missing_field_points_at_the_entry_that_lacks_it() {
    let text = ONE.replace("(name: \"Stand Up\", ", "(");
    let p = problems(&text);
    assert_eq!(p.len(), 1);
    let msg = p[0].to_string();
    assert!(msg.starts_with("gm/actions.ron:3:"), "{msg}");
    assert!(msg.contains("entry #2 (no name)"), "{msg}");
    assert!(msg.contains("name"), "{msg}");
}

#[test]
fn equal_scores_prefer_the_shorter_name() {
    let cat = catalogue();
    assert_eq!(names(&cat, "ram", None)[..2], ["Ram", "Ramming"]);
    assert_eq!(
        names(&cat, "full defense", None)[..2],
        ["Full Defense", "Full Matrix Defense"]
    );
}

#[test]
fn filter_by_type_takes_every_interrupt_whatever_its_cost() {
    let cat = Catalogue::embedded(&HouseRules::embedded()).unwrap();
    let interrupts: Vec<&str> = cat
        .of_kind(ActionKind::Interrupt { initiative: 0 })
        .map(|a| a.name.as_str())
        .collect();
    for name in [
        "Block",
        "Dodge",
        "Full Defense",
        "Full Matrix Defense",
        "Evasive Driving",
    ] {
        assert!(interrupts.contains(&name), "{name} in {interrupts:?}");
    }
    assert!(
        cat.of_kind(ActionKind::Complex)
            .all(|a| a.kind == ActionKind::Complex)
    );
    assert_eq!(cat.of_kind(ActionKind::Variable).count(), 1);
}

/// Given the GM's files saved with a byte-order mark (as Notepad saves them), when they load,
/// then they are used as written.
#[test]
fn gm_files_with_a_byte_order_mark_are_used() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rules = srtrack::rules::house::EMBEDDED_RULES
        .replace("(initiative: -5, ip: 2)", "(initiative: -5, ip: 3)");
    std::fs::write(dir.path().join("rules.ron"), format!("\u{feff}{rules}")).expect("write");
    std::fs::write(
        dir.path().join("actions.ron"),
        format!("\u{feff}{EMBEDDED_ACTIONS}"),
    )
    .expect("write");
    let loaded = load_ruleset(Some(dir.path()));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let dodge = loaded.catalogue.get("Dodge").expect("dodge");
    assert_eq!(dodge.ip_cost(&loaded.rules, None), Some(3));
}

/// Given a rules.ron linked to a file that is gone, when srtrack loads, then it says so and
/// uses the built-in rules (a missing file is passed over in silence; a broken link is not).
#[test]
fn a_gm_file_linked_to_nothing_is_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink(dir.path().join("gone.ron"), dir.path().join("rules.ron"))
        .expect("link");
    let loaded = load_ruleset(Some(dir.path()));
    assert_eq!(loaded.rules, rules());
    let all = loaded.warnings.join("\n");
    assert!(all.contains("rules.ron: it is a link to"), "{all}");
    assert!(
        all.contains("gone.ron, which does not exist; using the built-in one"),
        "{all}"
    );
}

/// Given an actions.ron in another encoding, when srtrack loads, then the line is named in
/// plain words, not the decoder's.
#[test]
fn a_gm_file_not_in_utf8_names_its_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut bytes = b"[\n  (name: \"Caf".to_vec();
    bytes.extend([0xe9, b'"']);
    std::fs::write(dir.path().join("actions.ron"), bytes).expect("write");
    let loaded = load_ruleset(Some(dir.path()));
    let all = loaded.warnings.join("\n");
    assert!(
        all.contains("actions.ron:2: the file is not UTF-8 text"),
        "{all}"
    );
    assert!(!all.contains("utf-8 sequence"), "{all}");
}

/// Given a catalogue of more actions than the picker can search at each key, when it loads,
/// then it is refused in one sentence and the built-in one used.
#[test]
fn a_catalogue_past_the_cap_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = String::from("[\n");
    for i in 0..=srtrack::catalogue::MAX_ACTIONS {
        text.push_str(&format!(
            "    (name: \"Flourish {i}\", group: Free, kind: Free, summary: \"A twirl.\"),\n"
        ));
    }
    text.push_str("]\n");
    std::fs::write(dir.path().join("actions.ron"), text).expect("write");
    let loaded = load_ruleset(Some(dir.path()));
    assert_eq!(loaded.catalogue, catalogue());
    let all = loaded.warnings.join("\n");
    assert!(
        all.contains("1001 actions, more than the 1000 a catalogue may hold"),
        "{all}"
    );
}
