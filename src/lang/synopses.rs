//! Which rule systems take each form of a verb's synopsis: help and Tab give a table its own.
//!
//! A synopsis may hold several forms (`armor NAME N | armor NAME pt N dr N`), and a verb may
//! have a synopsis per system (`edge`): each form is told apart here by its verb and its words,
//! as the engine's gate ([`crate::encounter::System::accepts`]) tells the commands they make.

use super::{all_verbs, anarchy, reads_as};
use crate::encounter::system::Family;
use crate::encounter::{RuleError, System};

/// One form of a verb's command, as its synopsis writes it (`roll NAME|GROUP [hits N [glitch|critical]]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    pub verb: &'static str,
    /// The whole form, its verb first.
    pub text: String,
}

/// The systems that take one form of `verb`.
fn systems(verb: &str, form: &str) -> &'static [System] {
    let words: Vec<&str> = form.split_whitespace().collect();
    let has = |w: &str| words.contains(&w);
    let own = |s: System| Family::Own(s).systems();
    match verb {
        // `edge NAME` alone is the initiative machine's +IP; `regain` the Anarchy GM's gift and
        // `after` Anarchy's Edge on seeing a roll; with other words, 2097's Edge.
        "edge" if has("regain") || has("after") => own(System::Anarchy),
        // Anarchy's Armor and Matrix tracks are one character's gear.
        "damage" | "heal" if has("armor|matrix") => own(System::Anarchy),
        "edge" if words.len() <= 2 => Family::Passes.systems(),
        "edge" | "sc" | "dmg" | "strength" | "odds2097" => own(System::Sr2097),
        // Every system adds and edits a sheet, each with the fields it plays with: the
        // initiative's are the passes'; the form without them Anarchy's.
        "add" | "edit" if has("int") || has("[int") => Family::Passes.systems(),
        "add" | "edit" if has("[edge") => own(System::Anarchy),
        // A group's shared initiative roll is the passes'; Anarchy adds from the roster without.
        "add" if has("[shared]") => Family::Passes.systems(),
        "add" if has("from") => own(System::Anarchy),
        "armor" if has("pt") => own(System::Sr2097),
        // SR5 and 2097 both take a weapon off a sheet; only 2097's are added as damage dice.
        "weapon" if has("remove") => &[System::Sr5, System::Sr2097],
        "weapon" if form.contains("NdM") => own(System::Sr2097),
        // 2097's initiative is typed in as its d6s, SR5's as hits.
        "roll" if has("[dice") => own(System::Sr2097),
        "roll" if has("[hits") => own(System::Sr5),
        "test" | "attack" | "teamwork" | "closecall" | "odds" | "reload" | "weapon" | "armor" => {
            own(System::Sr5)
        }
        // SR5's actions fire in modes and take the table's dice for their tests; 2097's neither.
        "act" if has("[mode") => own(System::Sr5),
        "roll" | "start" | "next" | "act" | "delay" | "ready" | "fire" | "move" | "why" => {
            Family::Passes.systems()
        }
        v if anarchy::VERBS.iter().any(|(a, _)| *a == v) => own(System::Anarchy),
        _ => Family::Shared.systems(),
    }
}

/// Splits a synopsis into its forms: a new one starts at each ` | ` followed by the verb; any
/// other `|` (inside brackets or parentheses) stays in the form.
fn forms_of(verb: &'static str, synopsis: &str) -> Vec<Form> {
    let mut out: Vec<Form> = Vec::new();
    for piece in synopsis.split(" | ") {
        let starts = piece == verb || piece.starts_with(&format!("{verb} "));
        match out.last_mut() {
            Some(last) if !starts => {
                last.text.push_str(" | ");
                last.text.push_str(piece);
            }
            _ => out.push(Form {
                verb,
                text: piece.to_string(),
            }),
        }
    }
    out
}

/// Every form of every verb `system` takes, in the language's order.
pub fn forms(system: System) -> Vec<Form> {
    all_verbs()
        .flat_map(|(verb, synopsis)| forms_of(verb, synopsis))
        .filter(|f| systems(f.verb, &f.text).contains(&system))
        .collect()
}

/// The verbs `system` takes, each once, in the language's order: a verb with several forms
/// (`edge`, `damage`) is one word to the GM.
pub fn verbs(system: System) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for form in forms(system) {
        if !out.contains(&form.verb) {
            out.push(form.verb);
        }
    }
    out
}

/// The systems whose table reads `word` (a first word, in lower case) as a command: those
/// taking a form of a verb the parser reads as it does `word` ([`reads_as`]: `dmg`, 2097's
/// damage roll, reads as `damage`, which SR5 takes). None for a word that is no command.
pub fn readers(word: &str) -> Vec<System> {
    let Some(verb) = reads_as(word) else {
        return Vec::new();
    };
    System::ALL
        .into_iter()
        .filter(|s| forms(*s).iter().any(|f| reads_as(f.verb) == Some(verb)))
        .collect()
}

/// Whether a table of `system` reads `word` as a command; if only other systems do, the gate's
/// sentence naming them ([`crate::encounter::System::accepts`]), the verb as the parser reads
/// it. A word no system reads is left to the parser to refuse.
pub fn takes(word: &str, system: System) -> Result<(), RuleError> {
    let owners = readers(word);
    match reads_as(word) {
        Some(verb) if !owners.is_empty() && !owners.contains(&system) => {
            Err(with_forms(RuleError::OtherSystem {
                verb,
                owners,
                system,
                forms: Vec::new(),
            }))
        }
        _ => Ok(()),
    }
}

/// The refusal of another system's verb or form as this table tells it: with this table's own
/// forms of the verb (the verb read as the parser reads its first word: `dmg` as `damage`), or,
/// where it has none, naming every system that has the verb (a bare verb; a form of it, as
/// `armor NAME pt N dr N`, is its owners' alone). Any other refusal as it is.
pub fn with_forms(err: RuleError) -> RuleError {
    let RuleError::OtherSystem {
        verb,
        mut owners,
        system,
        ..
    } = err
    else {
        return err;
    };
    let word = verb.split(' ').next().unwrap_or(verb);
    let read = reads_as(word);
    let own: Vec<String> = forms(system)
        .into_iter()
        .filter(|f| read.is_some() && reads_as(f.verb) == read)
        .map(|f| f.text)
        .collect();
    if own.is_empty() && word == verb {
        for s in readers(word) {
            if !owners.contains(&s) {
                owners.push(s);
            }
        }
        owners.sort_by_key(|s| System::ALL.iter().position(|x| x == s));
    }
    RuleError::OtherSystem {
        verb,
        owners,
        system,
        forms: own,
    }
}

/// The synopses help shows at a `system` table: each verb's forms that system takes, one line
/// a synopsis.
pub fn synopses(system: System) -> Vec<String> {
    let mut out = Vec::new();
    for (verb, synopsis) in all_verbs() {
        let kept: Vec<String> = forms_of(verb, synopsis)
            .into_iter()
            .filter(|f| systems(f.verb, &f.text).contains(&system))
            .map(|f| f.text)
            .collect();
        if !kept.is_empty() {
            out.push(kept.join(" | "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_verb_lists_each_verb_once() {
        let catalogue = crate::catalogue::Catalogue::from_actions(Vec::new());
        for system in System::ALL {
            let state = system.empty_state();
            let err = super::super::parse("frobnicate", &state, &catalogue).unwrap_err();
            let listed: Vec<&str> = err
                .expected
                .strip_prefix("a command: ")
                .unwrap_or_else(|| panic!("{system}: {}", err.expected))
                .split(", ")
                .collect();
            let mut unique = listed.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(listed.len(), unique.len(), "{system}: {}", err.expected);
            assert_eq!(listed, verbs(system), "{system}: only the verbs it takes");
        }
    }

    #[test]
    fn each_system_takes_the_shared_verbs_and_its_own() {
        let anarchy = verbs(System::Anarchy);
        for v in [
            "add", "damage", "status", "narrate", "pp", "gm", "atest", "cooldown", "edge",
        ] {
            assert!(anarchy.contains(&v), "anarchy: {v}");
        }
        for v in ["roll", "next", "test", "dmg", "sc", "armor", "weapon"] {
            assert!(!anarchy.contains(&v), "anarchy: {v}");
        }
        let sr2097 = verbs(System::Sr2097);
        for v in [
            "roll", "next", "edge", "dmg", "sc", "armor", "weapon", "odds2097",
        ] {
            assert!(sr2097.contains(&v), "2097: {v}");
        }
        for v in [
            "test", "attack", "teamwork", "odds", "reload", "pp", "atest",
        ] {
            assert!(!sr2097.contains(&v), "2097: {v}");
        }
        let sr5 = verbs(System::Sr5);
        for v in ["test", "attack", "armor", "weapon", "edge"] {
            assert!(sr5.contains(&v), "sr5: {v}");
        }
        for v in ["dmg", "sc", "strength", "odds2097", "narrate"] {
            assert!(!sr5.contains(&v), "sr5: {v}");
        }
    }

    #[test]
    fn a_verb_shows_each_system_only_its_forms() {
        let line = |system: System, verb: &str| {
            synopses(system)
                .into_iter()
                .filter(|s| s.starts_with(&format!("{verb} ")))
                .collect::<Vec<_>>()
        };
        assert_eq!(line(System::Sr5, "armor"), ["armor NAME N"]);
        assert_eq!(line(System::Sr2097, "armor"), ["armor NAME pt N dr N"]);
        assert_eq!(line(System::Sr5, "edge"), ["edge NAME"]);
        assert_eq!(
            line(System::Anarchy, "edge"),
            ["edge NAME regain [N]", "edge NAME after [dice A B ...]"]
        );
        for verb in ["damage", "heal"] {
            let shared = format!("{verb} NAME[, NAME...] N [physical|stun]");
            let gear = format!("{verb} NAME N armor|matrix");
            assert_eq!(
                line(System::Anarchy, verb),
                [shared.as_str(), gear.as_str()]
            );
            assert_eq!(line(System::Sr5, verb), [shared.as_str()]);
            assert_eq!(line(System::Sr2097, verb), [shared.as_str()]);
        }
        // Anarchy has no initiative: none of its words, nor a shared roll, in its `add`.
        assert_eq!(
            line(System::Anarchy, "add"),
            [
                "add NAME [xN] [pc|npc] [edge N] [body N] [will N] [hidden] | add NAME [xN] from template | add party"
            ]
        );
        for system in [System::Sr5, System::Sr2097] {
            let add = &line(system, "add")[0];
            assert!(
                add.contains("add NAME [xN] [shared] from template"),
                "{add}"
            );
            assert!(!add.contains("add NAME [xN] from template"), "{add}");
        }
        let edge = line(System::Sr2097, "edge");
        assert_eq!(edge.len(), 2);
        assert!(edge[1].contains("boost"));
        // SR5 adds its weapons with their DV and takes them off as 2097 does.
        assert_eq!(
            line(System::Sr5, "weapon"),
            ["weapon NAME add WEAPON dv N [p|s] ap N acc N [ammo N] | weapon NAME remove WEAPON"]
        );
        // 2097's initiative typed in as its d6s, in its help and in no other's.
        assert!(line(System::Sr2097, "roll")[0].contains("roll NAME|GROUP [dice A B"));
        assert!(!line(System::Sr5, "roll")[0].contains("dice"));
        // and SR5's typed in as hits, which 2097 refuses, in SR5's alone.
        assert!(line(System::Sr5, "roll")[0].contains("[hits N"));
        assert!(!line(System::Sr2097, "roll")[0].contains("hits"));
        let weapon = line(System::Sr2097, "weapon");
        assert!(weapon[0].contains("NdM") && weapon[0].contains("remove"));
        assert!(!weapon[0].contains("dv N"));
    }
}
