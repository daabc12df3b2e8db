//! Given/when/then for the rule system an encounter runs under: its commands pass the gate,
//! another system's are refused with a sentence naming both (DESIGN.md, "Rule systems").

mod common;
use common::Table;
use srtrack::encounter::{RuleError, System};

/// Ana and Bob at an Anarchy table, before anything else happens.
fn anarchy() -> Table {
    table(System::Anarchy)
}

#[test]
fn an_anarchy_encounter_refuses_delay_naming_the_systems_that_have_it() {
    let mut t = anarchy();
    let err = t.refuse("delay Ana 2 after Bob");
    assert_eq!(
        err.to_string(),
        "`delay` is a command of SR5 and Shadowrun 2097; this encounter runs Shadowrun: Anarchy"
    );
    assert!(matches!(
        err,
        RuleError::OtherSystem {
            verb: "delay",
            system: System::Anarchy,
            ..
        }
    ));
}

#[test]
fn anarchy_refuses_every_command_of_the_initiative_pass_machine() {
    let mut t = anarchy();
    for (line, verb) in [
        ("roll all", "roll"),
        ("roll Ana hits 2", "roll"),
        ("start", "start"),
        ("next", "next"),
        ("act Ana simple", "act"),
        ("edge Ana", "edge"),
        ("delay Ana 2", "delay"),
        ("delay Ana after Bob", "delay"),
        ("ready Ana 2 when the door opens do Fire Gun", "ready"),
        ("fire Ana", "fire"),
        ("move Ana after Bob", "move"),
    ] {
        let err = t.refuse(line);
        assert!(
            matches!(err, RuleError::OtherSystem { verb: v, .. } if v == verb),
            "`{line}`: {err}"
        );
    }
}

#[test]
fn anarchy_takes_the_commands_every_system_shares() {
    let mut t = anarchy();
    t.run("edit Bob will 4");
    t.run("damage Bob 3 stun");
    t.run("heal Bob 1 stun");
    t.run("status Ana Spotted until never");
    t.run("clear Ana Spotted");
    t.run("down Bob");
    t.run("up Bob");
    t.run("remove Bob because he ran");
    t.run("end");
    assert!(matches!(t.refuse("add Cy edge 1"), RuleError::Ended));
}

#[test]
fn sr5_and_sr2097_accept_delay_in_the_characters_turn() {
    for system in [System::Sr5, System::Sr2097] {
        let mut t = Table::under(system);
        t.run("add Ana pc int 4 rea 5 edge 3");
        t.run("add Bob int 3 rea 3 edge 1");
        // SR5 types in hits; 2097 its initiative d6s.
        let (ana, bob) = match system {
            System::Sr2097 => ("roll Ana dice 6 6", "roll Bob dice 1 1"),
            _ => ("roll Ana hits 3", "roll Bob hits 1"),
        };
        t.run(ana);
        t.run(bob);
        t.run("start");
        t.run("delay Ana 2 after Bob");
        assert_eq!(t.c("Ana").delay().map(|d| d.0), Some(2), "{system}");
    }
}

#[test]
fn a_new_encounter_runs_sr5_unless_told_otherwise() {
    assert_eq!(Table::new().enc.system(), System::Sr5);
    assert_eq!(Table::under(System::Sr2097).enc.system(), System::Sr2097);
}

/// The questions (`why`, `aodds`, `odds2097`, `odds`) are refused at a table of another system
/// with the same sentence as its commands, and answered at their own.
#[test]
fn a_question_of_one_system_is_refused_at_another_table() {
    for (line, verb, own) in [
        ("aodds 4 vs 2", "aodds", System::Anarchy),
        ("odds2097 tn 20 bonus 3", "odds2097", System::Sr2097),
        ("odds 8", "odds", System::Sr5),
    ] {
        for system in System::ALL {
            let mut t = Table::under(system);
            t.run(&common::sheet_line(
                system,
                "add Ana pc int 4 rea 5 edge 3 body 4 will 5",
            ));
            let parsed = srtrack::lang::parse(line, t.enc.state(), t.enc.catalogue())
                .unwrap_or_else(|e| panic!("`{line}`: {e}"));
            match parsed.belongs(system) {
                Ok(()) => assert_eq!(system, own, "`{line}` answered at {system}"),
                Err(err) => {
                    assert_ne!(system, own, "`{line}` refused at its own table: {err}");
                    assert!(
                        matches!(err, RuleError::OtherSystem { verb: v, .. } if v == verb),
                        "`{line}` at {system}: {err}"
                    );
                    assert!(
                        err.to_string()
                            .contains(&format!("this encounter runs {system}"))
                    );
                }
            }
        }
    }
    // `why` asks of the order, which narration turns do not have.
    for system in System::ALL {
        let mut t = Table::under(system);
        t.run(&common::sheet_line(
            system,
            "add Ana pc int 4 rea 5 edge 3 body 4 will 5",
        ));
        t.run(&common::sheet_line(
            system,
            "add Bob npc int 3 rea 3 edge 1 body 3 will 3",
        ));
        let parsed = srtrack::lang::parse("why Ana Bob", t.enc.state(), t.enc.catalogue())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            parsed.belongs(system).is_ok(),
            system.plays_in_passes(),
            "{system}"
        );
        // Asked of the engine all the same, an Anarchy table says it has no order.
        let why = t.state().explain_order(t.c("Ana").id, t.c("Bob").id);
        if !system.plays_in_passes() {
            assert_eq!(
                why,
                "Shadowrun: Anarchy plays in narration turns: there is no initiative order"
            );
        }
    }
}

#[test]
fn a_question_of_another_system_is_refused_for_that_before_any_wrong_word() {
    // Given a table of each system, with Ana only
    for system in System::ALL {
        let mut t = Table::under(system);
        t.run(&common::sheet_line(
            system,
            "add Ana pc int 4 rea 5 edge 3 body 4 will 5",
        ));
        for (line, verb, owners) in [
            ("why Ana Nobody", "why", "SR5 and Shadowrun 2097"),
            ("why Nobody Ana", "why", "SR5 and Shadowrun 2097"),
            ("odds Nobody 5", "odds", "SR5"),
            ("odds2097 Nobody 5", "odds2097", "Shadowrun 2097"),
            ("aodds Nobody 5", "aodds", "Shadowrun: Anarchy"),
        ] {
            // When the GM asks another system's question with a wrong word in it
            if owners.contains(&system.to_string()) {
                continue;
            }
            // then the table says whose question it is, not what word was wrong
            assert_eq!(
                t.unread(line),
                format!("`{verb}` is a command of {owners}; this encounter runs {system}"),
                "{line}"
            );
        }
    }
    // At its own table the wrong word is told.
    let mut t = anarchy();
    assert!(t.unread("aodds Nobody 5").starts_with("word 2 \"Nobody\""));
}

#[test]
fn a_verb_two_systems_have_is_refused_naming_both() {
    let mut t = anarchy();
    for (line, verb) in [
        ("weapon Ana add Pistol dv 5 ap -1 acc 5", "weapon"),
        ("armor Ana 9", "armor"),
    ] {
        assert_eq!(
            t.refuse(line).to_string(),
            format!(
                "`{verb}` is a command of SR5 and Shadowrun 2097; this encounter runs Shadowrun: Anarchy"
            ),
            "{line}"
        );
    }
}

/// `edge` means something at every table: a mistyped one gets this table's forms, never
/// another system's; another system's form is refused with this table's form.
#[test]
fn a_mistyped_edge_gets_the_tables_own_usage() {
    let mistyped = |system: System, line: &str| -> String {
        let mut t = Table::under(system);
        t.run(&common::sheet_line(
            system,
            "add Ana pc int 4 rea 5 edge 3 body 4 will 5",
        ));
        match srtrack::lang::parse(line, t.enc.state(), t.enc.catalogue()) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("`{line}` parsed at {system}"),
        }
    };
    for line in ["edge Ana 2", "edge Ana foo"] {
        let sr5 = mistyped(System::Sr5, line);
        assert!(sr5.contains("`edge NAME`"), "{sr5}");
        assert!(!sr5.contains("2097") && !sr5.contains("boost"), "{sr5}");
        let sr2097 = mistyped(System::Sr2097, line);
        assert!(
            sr2097.contains("boost") && !sr2097.contains("SR5"),
            "{sr2097}"
        );
        let anarchy = mistyped(System::Anarchy, line);
        assert!(anarchy.contains("regain"), "{anarchy}");
        assert!(
            !anarchy.contains("2097") && !anarchy.contains("SR5"),
            "{anarchy}"
        );
    }
    // 2097's form at an SR5 table: refused as 2097's, with SR5's own form.
    let mut t = Table::under(System::Sr5);
    t.run("add Ana pc int 4 rea 5 edge 3 body 4 will 5");
    assert_eq!(
        t.refuse("edge Ana boost").to_string(),
        "this form of `edge NAME boost` is Shadowrun 2097's; this encounter runs SR5: `edge NAME`"
    );
    // The initiative machine's bare `edge NAME` at an Anarchy table: refused with its own form.
    let mut t = Table::under(System::Anarchy);
    t.run("add Ana pc edge 3 body 4 will 5");
    assert_eq!(
        t.refuse("edge Ana").to_string(),
        "this form of `edge` is SR5 and Shadowrun 2097's; this encounter runs Shadowrun: Anarchy: `edge NAME regain [N]` or `edge NAME after [dice A B ...]`"
    );
}

/// A table of `system` with Ana and Bob, before anything else happens.
fn table(system: System) -> Table {
    let mut t = Table::under(system);
    t.run(&common::sheet_line(
        system,
        "add Ana pc int 4 rea 5 edge 3 body 4 will 5",
    ));
    t.run(&common::sheet_line(
        system,
        "add Bob int 3 rea 3 edge 1 body 3 will 3",
    ));
    t
}

#[test]
fn another_systems_command_with_a_wrong_name_is_refused_for_being_that() {
    let passes = "SR5 and Shadowrun 2097";
    for (system, lines) in [
        (
            System::Anarchy,
            &[
                ("delay Nobody 3", "delay", passes),
                ("move Nobody after Ana", "move", passes),
                ("change Nobody after Ana", "move", passes),
                ("fire Nobody", "fire", passes),
                ("roll Nobody", "roll", passes),
                ("act Nobody Take Aim", "act", passes),
                ("armor Nobody 3", "armor", passes),
                ("test Nobody 6", "test", "SR5"),
                ("sc Nobody tn 8 bonus 0", "sc", "Shadowrun 2097"),
                ("str Nobody 4", "strength", "Shadowrun 2097"),
            ][..],
        ),
        (
            System::Sr5,
            &[
                ("narrate Nobody", "narrate", "Shadowrun: Anarchy"),
                ("pp Nobody award", "pp", "Shadowrun: Anarchy"),
                ("atest Nobody 6 vs 4", "atest", "Shadowrun: Anarchy"),
                ("sheet Nobody armor 3", "sheet", "Shadowrun: Anarchy"),
                ("sc Nobody tn 8 bonus 0", "sc", "Shadowrun 2097"),
                ("strength Nobody 4", "strength", "Shadowrun 2097"),
            ][..],
        ),
        (
            System::Sr2097,
            &[
                ("test Nobody 6", "test", "SR5"),
                ("attack Nobody Ana", "attack", "SR5"),
                ("reload Nobody", "reload", "SR5"),
                ("closecall Nobody", "closecall", "SR5"),
                ("cooldown Nobody Spell", "cooldown", "Shadowrun: Anarchy"),
                ("pp Nobody award", "pp", "Shadowrun: Anarchy"),
            ][..],
        ),
    ] {
        // Given a table of the system with Ana and Bob
        let mut t = table(system);
        for (line, verb, owners) in lines {
            // When the GM types another system's command with a name nobody has
            // Then the table says whose command it is, not which word was wrong
            assert_eq!(
                t.unread(line),
                format!("`{verb}` is a command of {owners}; this encounter runs {system}"),
                "`{line}` at {system}"
            );
        }
    }
}

#[test]
fn this_systems_command_with_a_wrong_name_is_refused_for_the_name() {
    for (system, lines) in [
        (
            System::Anarchy,
            &[
                "narrate Nobody",
                "pp Nobody award",
                "damage Nobody 3",
                "dmg Nobody 3",
                "edge Nobody regain",
                "rm Nobody",
            ][..],
        ),
        (
            System::Sr5,
            &[
                "dmg Nobody 3",
                "delay Nobody 3",
                "test Nobody 6",
                "change Nobody after Ana",
                "armor Nobody 3",
            ][..],
        ),
        (
            System::Sr2097,
            &[
                "dmg Nobody 3",
                "sc Nobody tn 8 bonus 0",
                "str Nobody 4",
                "delay Nobody 3",
                "weapon Nobody remove Gun",
            ][..],
        ),
    ] {
        // Given a table of the system with Ana and Bob
        let mut t = table(system);
        for line in lines {
            // When the GM types one of this table's commands (or another name of one, as
            // SR5's `dmg` for `damage`) with a name nobody has
            let err = t.unread(line);
            // Then the wrong name is told
            assert!(
                err.starts_with("word 2 \"Nobody\""),
                "`{line}` at {system}: {err}"
            );
        }
    }
}

/// Whether a table of `system` reads `line` as one of its own commands or questions: it
/// parses, and the engine's gate (or the question's) lets it through.
fn reads(t: &Table, line: &str, system: System) -> bool {
    use srtrack::lang::Line;
    match srtrack::lang::parse(line, t.state(), t.enc.catalogue()) {
        Ok(Line::Command(c)) => system.accepts(&c).is_ok(),
        Ok(line) => line.belongs(system).is_ok(),
        Err(_) => false,
    }
}

/// The systems that read each first word, which the gate above tells before any wrong word,
/// are those whose parser and engine take some well-formed line with it: every word the parser
/// dispatches (verb or alias) has lines here, and a table reads it exactly where the language
/// says (its synopses).
#[test]
fn the_systems_reading_each_word_are_those_whose_parser_and_engine_take_it() {
    let lines: &[(&str, &[&str])] = &[
        (
            "add",
            &["add Cy int 3 rea 3 body 3 will 3", "add Cy body 3 will 3"],
        ),
        ("edit", &["edit Ana edge 2"]),
        ("remove", &["remove Ana"]),
        ("rm", &["rm Ana"]),
        ("roll", &["roll all"]),
        ("start", &["start"]),
        ("next", &["next"]),
        ("n", &["n"]),
        ("act", &["act Ana Take Aim"]),
        (
            "edge",
            &[
                "edge Ana",
                "edge Ana burn",
                "edge Ana regain",
                "edge Ana after",
            ],
        ),
        ("delay", &["delay Ana 2"]),
        ("ready", &["ready Ana when the door opens do Take Aim"]),
        ("fire", &["fire Ana"]),
        ("move", &["move Ana after Bob"]),
        ("change", &["change Ana after Bob"]),
        ("down", &["down Ana"]),
        ("up", &["up Ana"]),
        ("hide", &["hide Ana"]),
        ("reveal", &["reveal Ana"]),
        ("damage", &["damage Ana 2", "damage Ana 2 armor"]),
        ("dmg", &["dmg Ana 2", "dmg Ana Bob 2d6+3"]),
        ("heal", &["heal Ana 1", "heal Ana 1 armor"]),
        ("status", &["status Ana Stunned"]),
        ("clear", &["clear Ana Stunned"]),
        ("end", &["end"]),
        ("undo", &["undo"]),
        ("u", &["u"]),
        ("redo", &["redo"]),
        ("why", &["why Ana Bob"]),
        ("test", &["test Ana 6"]),
        ("attack", &["attack Ana Bob pool 6"]),
        ("teamwork", &["teamwork Ana 6 with Bob 4"]),
        ("closecall", &["closecall Ana"]),
        ("odds", &["odds 6"]),
        (
            "weapon",
            &[
                "weapon Ana add Gun dv 5 p ap 0 acc 5",
                "weapon Ana add Knife 1d6 melee",
                "weapon Ana add Pistol 2d6+4",
            ],
        ),
        ("reload", &["reload Ana"]),
        ("armor", &["armor Ana 9", "armor Ana pt 2 dr 1"]),
        ("sc", &["sc Ana tn 8 bonus 0"]),
        ("strength", &["strength Ana 4"]),
        ("str", &["str Ana 4"]),
        ("odds2097", &["odds2097 tn 8 bonus 0"]),
        ("narrate", &["narrate Ana"]),
        ("seating", &["seating Ana, Bob"]),
        ("sheet", &["sheet Ana armor 3"]),
        ("pp", &["pp Ana award"]),
        ("gm", &["gm order reverse"]),
        ("atest", &["atest Ana 6 vs 4"]),
        ("aodds", &["aodds 6 vs 4"]),
        ("cooldown", &["cooldown Ana Spell"]),
    ];
    let words = srtrack::lang::command_words();
    for word in &words {
        assert!(
            lines.iter().any(|(w, _)| w == word),
            "`{word}`: give lines with it here"
        );
    }
    for (word, lines) in lines {
        assert!(words.contains(word), "`{word}` is no word of the parser");
        let mut have = Vec::new();
        for system in System::ALL {
            let t = table(system);
            if lines.iter().any(|line| reads(&t, line, system)) {
                have.push(system);
            }
        }
        assert_eq!(
            srtrack::lang::synopses::readers(word),
            have,
            "the systems reading `{word}`"
        );
    }
    // A word the parser does not read is no command anywhere.
    assert!(srtrack::lang::synopses::readers("frobnicate").is_empty());
}

/// A sample line of each form another table may type: a form with none here fails the test
/// below, so a new form of a verb two systems have is checked as soon as it is in the synopses.
/// The more particular prefix first.
const SAMPLES: &[(&str, &str)] = &[
    ("roll NAME|GROUP [dice", "roll Ana dice 3 4"),
    ("edge NAME (boost", "edge Ana boost"),
    ("edge NAME regain", "edge Ana regain"),
    ("edge NAME after", "edge Ana after"),
    ("edge NAME", "edge Ana"),
    ("damage NAME N armor|matrix", "damage Ana 2 armor"),
    ("heal NAME N armor|matrix", "heal Ana 1 matrix"),
    ("dmg NAME TARGET", "dmg Ana Bob 2d6+3"),
    ("dmg - TARGET", "dmg - Bob 2d6+3"),
    ("armor NAME pt", "armor Ana pt 3 dr 2"),
    ("armor NAME N", "armor Ana 9"),
    (
        "weapon NAME add WEAPON dv",
        "weapon Ana add Gun dv 5 p ap 0 acc 5",
    ),
    ("weapon NAME add WEAPON NdM", "weapon Ana add X 3d6+2"),
    ("weapon NAME remove", "weapon Ana remove Pistol"),
    ("add NAME [xN] [pc|npc] int", "add Cy int 3 rea 3"),
    (
        "add NAME [xN] [shared] from",
        "add Ganger x2 shared from template",
    ),
    ("edit NAME [name NEW] [pc|npc] [int", "edit Ana int 4"),
    (
        "act NAME ACTION [as free|simple|complex] [mode",
        "act Ana Stand Up dice 6 5",
    ),
];

/// Whether `system` refuses another's form of a verb it has in a sentence of its own, not the
/// gate's: SR5 and 2097 add and edit a sheet asking for the fields they play with (their
/// Intuition), reading any other (Anarchy refuses theirs with its forms); 2097 tells its initiative dice for SR5's hits (its tests in
/// `rules_sr2097.rs`).
fn own_sentence(system: System, form: &str) -> bool {
    (system != System::Anarchy && (form.starts_with("add ") || form.starts_with("edit ")))
        || (system == System::Sr2097 && form.starts_with("roll NAME|GROUP [hits"))
}

/// The sentence a line is refused with at this table, as it is read or by the engine;
/// nothing changes either way.
fn refusal(t: &mut Table, line: &str) -> String {
    if srtrack::lang::read(line, &t.enc).is_err() {
        t.unread(line)
    } else {
        t.refuse(line).to_string()
    }
}

/// The verb the parser reads a form's first word as (`dmg` as `damage`).
fn verb_of(form: &srtrack::lang::synopses::Form) -> Option<&'static str> {
    srtrack::lang::reads_as(form.verb)
}

#[test]
fn another_systems_form_of_a_verb_this_table_has_is_refused_with_this_tables_forms() {
    use srtrack::lang::synopses::forms;
    for system in System::ALL {
        let own = forms(system);
        for other in System::ALL.into_iter().filter(|o| *o != system) {
            for form in forms(other) {
                // Given a table of the system, where the verb has forms of its own but not this
                if own.iter().any(|f| f.text == form.text)
                    || !own.iter().any(|f| verb_of(f) == verb_of(&form))
                    || own_sentence(system, &form.text)
                {
                    continue;
                }
                let Some((_, line)) = SAMPLES.iter().find(|(p, _)| form.text.starts_with(p)) else {
                    panic!("`{}`: give a sample line of it in SAMPLES", form.text);
                };
                let mut t = table(system);
                // When the GM types the other system's form
                let said = refusal(&mut t, line);
                // Then one sentence names this table's forms of the verb
                assert!(
                    said.contains(&format!("this encounter runs {system}")),
                    "`{line}` at {system}: {said}"
                );
                for mine in own.iter().filter(|f| verb_of(f) == verb_of(&form)) {
                    assert!(
                        said.contains(&format!("`{}`", mine.text)),
                        "`{line}` at {system} does not give `{}`: {said}",
                        mine.text
                    );
                }
                assert!(
                    !said.contains(". ") && !said.ends_with('.'),
                    "`{line}` at {system}: one sentence: {said}"
                );
            }
        }
    }
}

#[test]
fn at_an_sr5_table_2097s_armor_is_refused_with_sr5s() {
    // Given an SR5 table with Ana and Bob
    let mut t = table(System::Sr5);
    // When the GM types 2097's armor
    // Then SR5's form is given
    assert_eq!(
        refusal(&mut t, "armor Ana pt 3 dr 2"),
        "this form of `armor NAME pt N dr N` is Shadowrun 2097's; this encounter runs SR5: `armor NAME N`"
    );
    // And 2097's weapon of damage dice is told SR5's weapon forms, removing one among them
    let said = refusal(&mut t, "weapon Ana add Knife 1d6 melee");
    assert!(
        said.ends_with("this encounter runs SR5: `weapon NAME add WEAPON dv N [p|s] ap N acc N [ammo N]` or `weapon NAME remove WEAPON`"),
        "{said}"
    );
}

/// Anarchy has no initiative: the sheet's initiative words (`int`, `rea`, `mod`, `ip`) and a
/// group's shared roll are SR5's and 2097's forms of `add` and `edit`, refused in one sentence
/// naming Anarchy's forms, and nothing changes.
#[test]
fn at_an_anarchy_table_the_initiative_words_of_add_and_edit_are_refused_with_anarchys_forms() {
    // Given an Anarchy table with Ana and Bob
    let mut t = anarchy();
    let adds = "`add NAME [xN] [pc|npc] [edge N] [body N] [will N] [hidden]`, `add NAME [xN] from template` or `add party`";
    for (line, word) in [
        ("add Cy int 3 rea 3", "int"),
        ("add Cy edge 2 rea 3", "rea"),
        ("add Cy body 3 mod 2", "mod"),
        ("add Cy ip 1", "ip"),
        ("add Cy x2 edge 1 shared", "shared"),
        ("add Ganger x2 shared from template", "shared"),
    ] {
        // When the GM types an initiative word in `add`
        let said = t.unread(line);
        // Then one sentence names the word's form as the passes' and Anarchy's forms of `add`
        assert_eq!(
            said,
            format!(
                "this form of `add NAME … {word}{}` is SR5 and Shadowrun 2097's; this encounter runs Shadowrun: Anarchy: {adds}",
                if word == "shared" { "" } else { " N" }
            ),
            "`{line}`"
        );
    }
    for (line, word) in [
        ("edit Ana int 4", "int"),
        ("edit Ana edge 2 rea 4", "rea"),
        ("edit Bob mod 1", "mod"),
        ("edit Bob ip 2", "ip"),
    ] {
        let said = t.unread(line);
        assert_eq!(
            said,
            format!(
                "this form of `edit NAME … {word} N` is SR5 and Shadowrun 2097's; this encounter runs Shadowrun: Anarchy: `edit NAME [name NEW] [pc|npc] [edge N] [body N] [will N]`"
            ),
            "`{line}`"
        );
    }
    // And Anarchy's own forms are taken
    t.run("add Cy x2 pc edge 2 body 3 will 4");
    t.run("edit Ana edge 1 body 5");
    // While SR5 and 2097 take the initiative words as before
    for system in [System::Sr5, System::Sr2097] {
        let mut t = table(system);
        t.run("add Cy x2 int 3 rea 3 mod 1 ip 1 shared");
        t.run("edit Ana int 5 rea 5 mod 1 ip 1");
    }
}

/// The log of an Anarchy table writes an `add` in Anarchy's words: its text reads back there.
#[test]
fn an_anarchy_add_is_logged_without_initiative_words() {
    let mut t = anarchy();
    t.run("add Cy pc edge 2 body 3");
    let text = &t.enc.history().last().expect("an entry").text;
    assert_eq!(text, "add Cy pc edge 2 body 3");
}

/// A sample line of each form of each verb, the more particular prefix first: every form a
/// table's help and Tab show ([`srtrack::lang::synopses::forms`]) has one here.
const EVERY_FORM: &[(&str, &str)] = &[
    ("add NAME [xN] [pc|npc] int", "add Cy pc int 3 rea 3 edge 2"),
    (
        "add NAME [xN] [pc|npc] [edge",
        "add Cy pc edge 2 body 3 will 3",
    ),
    ("add NAME [xN] [shared] from", "add Ganger x2 from template"),
    ("add NAME [xN] from", "add Ganger x2 from template"),
    ("add party", "add party"),
    ("edit NAME [name NEW] [pc|npc] [int", "edit Ana int 4 rea 4"),
    (
        "edit NAME [name NEW] [pc|npc] [edge",
        "edit Ana name Anna edge 2",
    ),
    ("remove", "remove Bob because he ran"),
    ("roll all", "roll all"),
    ("roll npcs", "roll npcs"),
    ("roll NAME|GROUP [hits", "roll Ana hits 3"),
    ("start", "start"),
    ("next", "next"),
    ("act", "act Ana simple"),
    ("delay NAME IP", "delay Ana 2"),
    ("delay NAME after", "delay Ana after Bob"),
    ("ready", "ready Ana when the door opens do simple"),
    ("fire", "fire Ana"),
    ("move", "move Ana after Bob"),
    ("down", "down Bob"),
    ("up", "up Bob"),
    ("hide", "hide Bob"),
    ("reveal", "reveal Bob"),
    ("damage NAME[, NAME...]", "damage Ana, Bob 2 stun"),
    ("heal NAME[, NAME...]", "heal Ana, Bob 1 physical"),
    ("status", "status Ana Spotted until never"),
    ("clear", "clear Ana Spotted"),
    ("end", "end"),
    ("undo", "undo"),
    ("redo", "redo"),
    ("why", "why Ana Bob"),
    ("test", "test Ana 6"),
    ("attack", "attack Ana Bob"),
    ("teamwork", "teamwork Ana 6 with Bob 4"),
    ("closecall", "closecall Ana"),
    ("odds2097", "odds2097 tn 4 bonus 0"),
    ("odds", "odds 6"),
    ("reload", "reload Ana"),
    ("sc", "sc Ana tn 4 bonus 0"),
    ("strength", "strength Ana 4"),
    ("narrate", "narrate"),
    ("seating", "seating Ana, Bob"),
    ("sheet", "sheet Ana armor 3"),
    ("pp NAME award", "pp Ana award"),
    ("pp NAME spend", "pp Ana spend an edge"),
    ("gm spend", "gm spend a threat"),
    ("gm order", "gm order reverse"),
    ("atest", "atest Ana 6 vs 4"),
    ("aodds", "aodds 6 vs 4"),
    ("cooldown", "cooldown Ana the spell"),
];

/// Whether `err` refuses a line for being another system's (its verb, its form, its words).
fn for_another_system(err: &RuleError) -> bool {
    matches!(
        err,
        RuleError::OtherSystem { .. }
            | RuleError::FireModesOfSr5 { .. }
            | RuleError::Sr2097(srtrack::rules::sr2097::Sr2097Error::HitsIn2097 { .. })
    )
}

#[test]
fn every_form_a_table_shows_is_taken_at_that_table() {
    use srtrack::lang::Line;
    for system in System::ALL {
        for form in srtrack::lang::synopses::forms(system) {
            let Some((_, line)) = EVERY_FORM
                .iter()
                .chain(SAMPLES)
                .find(|(p, _)| form.text.starts_with(p))
            else {
                panic!("`{}`: give a sample line of it in EVERY_FORM", form.text);
            };
            // Given a table of the system, with Ana and Bob, and a line undone to redo
            let mut t = table(system);
            t.run(&common::sheet_line(system, "add Dee int 3 rea 3"));
            t.enc.undo(1);
            // When the GM types the form its help shows
            let read = srtrack::lang::read(line, &t.enc);
            // Then it is read, and the engine refuses it for no other system's being
            let read = read.unwrap_or_else(|e| panic!("`{line}` at {system}: {e}"));
            if let Line::Command(c) = read
                && let Err(e) = t.enc.preview(c)
            {
                assert!(!for_another_system(&e), "`{line}` at {system}: {e}");
            }
        }
    }
}
