//! The command language: one line per GM command, for `srtrack exec`, the `:` line and the log.
//!
//! Names of combatants and actions may have several words and need no quotes: the longest
//! known name wins. Quotes ("...") are accepted anywhere a name or text goes.

mod anarchy;
pub mod complete;
mod sr2097;
pub mod sr5;
pub mod synopses;

use std::fmt;

use crate::catalogue::Catalogue;
use crate::encounter::Visibility;
use crate::encounter::query::Attack;
use crate::encounter::system::anarchy::AnarchyCommand;
use crate::encounter::system::sr5::Sr5Command;
use crate::encounter::system::{Family, SheetField, System};
use crate::encounter::{
    ActionChoice, AddCombatant, Combatant, CombatantId, Command, Each, Encounter, Entry,
    ReadyTrigger, Relative, RollTarget, RuleError, SheetInput, Side, State, StatusUntil, Timing,
    Track,
};
use crate::rules::{ActionType, Dice};
use crate::text::int_word;
pub use sr2097::{OddsQuery, dice_expression, target_number};

pub use anarchy::test_words;

/// One parsed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Command(Command),
    Undo(usize),
    Redo(usize),
    /// Why does the first stand where it does against the second?
    Why(CombatantId, CombatantId),
    /// The exact odds of an Anarchy test, before the roll (`aodds`).
    AnarchyOdds(crate::encounter::system::anarchy::TestInput),
    /// SR5's exact odds of a test: a question, never recorded.
    Odds(crate::encounter::system::sr5::OddsInput),
    /// The odds of a Shadowrun 2097 check, before it is made.
    Odds2097(OddsQuery),
    /// A blank line or a comment.
    Nothing,
    /// Sheets to bring in from the roster: the caller, who has the roster, turns it into
    /// self-contained `add` commands (the history never needs the roster).
    FromRoster(RosterAdd),
}

impl Line {
    /// Whether a table of `system` answers this question, as [`System::accepts`] tells of a
    /// command: `why` asks of the order of passes, each `odds` of its own system's dice.
    pub fn belongs(&self, system: System) -> Result<(), RuleError> {
        let (verb, family) = match self {
            Line::Why(..) => ("why", Family::Passes),
            Line::AnarchyOdds(_) => ("aodds", Family::Own(System::Anarchy)),
            Line::Odds(_) => ("odds", Family::Own(System::Sr5)),
            Line::Odds2097(_) => ("odds2097", Family::Own(System::Sr2097)),
            _ => return Ok(()),
        };
        family.admits(system, verb)
    }
}

/// `add NAME [xN] [shared] from template` or `add party`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RosterAdd {
    /// One sheet of the roster by name; a count makes a group of that many.
    Template {
        name: String,
        count: Option<i32>,
        shared_roll: bool,
    },
    /// Every PC sheet of the roster.
    Party,
}

/// Which word was wrong and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based index of the word, or one past the last word when a word is missing.
    pub word: usize,
    /// The word found, or `None` at the end of the line.
    pub found: Option<String>,
    pub expected: String,
    /// The sentence a line read right is refused with (a name it cannot stand for here),
    /// shown instead of what was expected.
    pub refusal: Option<String>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(refusal) = &self.refusal {
            return f.write_str(refusal);
        }
        match &self.found {
            Some(w) => write!(
                f,
                "word {} \"{}\": expected {}",
                self.word,
                crate::text::excerpt(w),
                self.expected
            ),
            None => write!(
                f,
                "after word {}: expected {}",
                self.word - 1,
                self.expected
            ),
        }
    }
}

impl std::error::Error for ParseError {}

/// The verbs of the language, with a one-line synopsis each (shown by help and completion);
/// each rule system's own verbs follow in [`all_verbs`].
pub const VERBS: &[(&str, &str)] = &[
    (
        "add",
        "add NAME [xN] [pc|npc] int N rea N [edge N] [mod N] [ip N] [body N] [will N] [shared] [hidden] | add NAME [xN] [pc|npc] [edge N] [body N] [will N] [hidden] | add NAME [xN] [shared] from template | add NAME [xN] from template | add party",
    ),
    (
        "edit",
        "edit NAME [name NEW] [pc|npc] [int N] [rea N] [edge N] [mod N] [ip N] [body N] [will N] | edit NAME [name NEW] [pc|npc] [edge N] [body N] [will N]",
    ),
    ("remove", "remove NAME [because TEXT]"),
    (
        "roll",
        "roll all | roll npcs | roll NAME|GROUP [hits N [glitch|critical]] | roll NAME|GROUP [dice A B …]",
    ),
    ("start", "start"),
    ("next", "next"),
    (
        "act",
        "act NAME ACTION [as free|simple|complex] | act NAME ACTION [as free|simple|complex] [mode MODE] [dice …|hits N]",
    ),
    ("edge", "edge NAME"),
    (
        "delay",
        "delay NAME IP [after TRIGGER] | delay NAME after TRIGGER",
    ),
    ("ready", "ready NAME [IP] when TEXT do ACTION [, ACTION...]"),
    ("fire", "fire NAME [N] [before|after]"),
    ("move", "move NAME before|after NAME"),
    ("down", "down NAME"),
    ("up", "up NAME"),
    ("hide", "hide NAME[, NAME...]"),
    ("reveal", "reveal NAME[, NAME...]"),
    ("damage", "damage NAME[, NAME...] N [physical|stun]"),
    ("damage", "damage NAME N armor|matrix"),
    ("heal", "heal NAME[, NAME...] N [physical|stun]"),
    ("heal", "heal NAME N armor|matrix"),
    (
        "status",
        "status NAME[, NAME...] TEXT [until turn|next|round|never]",
    ),
    ("clear", "clear NAME[, NAME...] STATUS"),
    ("end", "end"),
    ("undo", "undo [N]"),
    ("redo", "redo [N]"),
    ("why", "why NAME NAME"),
    (
        "test",
        "test NAME POOL [limit N] [threshold N | vs NAME POOL] [push] [dice …|hits N [glitch|critical]]",
    ),
    (
        "attack",
        "attack NAME TARGET [with WEAPON] [pool N [dice …]] [defense [N] [dice …]] [soak [N] [dice …]]",
    ),
    (
        "teamwork",
        "teamwork LEADER POOL [limit N] [threshold N] [skill N] [push] with NAME POOL [closecall][, NAME POOL…]",
    ),
    ("closecall", "closecall NAME [initiative]"),
    ("odds", "odds POOL [limit N] [threshold N | vs POOL]"),
    (
        "weapon",
        "weapon NAME add WEAPON dv N [p|s] ap N acc N [ammo N] | weapon NAME add WEAPON NdM+ST|NdM melee [stun] | weapon NAME remove WEAPON",
    ),
    ("reload", "reload NAME [WEAPON]"),
    ("armor", "armor NAME N | armor NAME pt N dr N"),
    (
        "sc",
        "sc NAME tn N|WORD bonus N [adv|dis] [edge] [dice A B [C]] [drop F]",
    ),
    (
        "dmg",
        "dmg NAME TARGET (with WEAPON | NdM+ST) [mos N] [edge] [dice ...] [stun] | dmg - TARGET NdM+ST [mos N] [dice ...] [stun]",
    ),
    ("strength", "strength NAME N"),
    (
        "edge",
        "edge NAME (boost [dice A B] | lessen [N] | burn [N] | award N | rest | scenario)",
    ),
    ("edge", "edge NAME regain [N]"),
    ("edge", "edge NAME after [dice A B ...]"),
    ("odds2097", "odds2097 tn N|WORD bonus N [adv|dis] [edge]"),
];

/// Other words the parser reads as a verb of the synopses: a short form, or another name.
/// `dmg` has a synopsis of its own too (2097's damage roll) and reads as `damage`, whose
/// reading takes both; the systems reading a word are those of every verb read so
/// ([`synopses::readers`]).
pub const ALIASES: &[(&str, &str)] = &[
    ("rm", "remove"),
    ("n", "next"),
    ("change", "move"),
    ("dmg", "damage"),
    ("str", "strength"),
    ("u", "undo"),
];

/// The verb the parser reads a first word (in lower case) as: an alias's verb, or the word
/// itself when it is a verb; none when it is no command. The parser dispatches on this, so a
/// word is a command exactly when it is here.
pub fn reads_as(word: &str) -> Option<&'static str> {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == word)
        .map(|(_, verb)| *verb)
        .or_else(|| {
            all_verbs()
                .find(|(verb, _)| *verb == word)
                .map(|(verb, _)| *verb)
        })
}

/// Every word the parser reads as a command, each once: the verbs, then the aliases.
pub fn command_words() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for word in all_verbs()
        .map(|(v, _)| *v)
        .chain(ALIASES.iter().map(|(a, _)| *a))
    {
        if !out.contains(&word) {
            out.push(word);
        }
    }
    out
}

/// Every verb with its synopsis: the shared ones, then each rule system's.
pub fn all_verbs() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    VERBS.iter().chain(anarchy::VERBS)
}

const SHEET_WORDS: &[&str] = &["int", "rea", "edge", "mod", "ip", "body", "will"];
/// The words of `add` and `edit` for the initiative of passes, each with its field and the
/// form a table without it (Anarchy) is told it is.
const PASSES_FIELDS: &[(&str, SheetField, &str)] = &[
    ("add", SheetField::Intuition, "add NAME … int N"),
    ("add", SheetField::Reaction, "add NAME … rea N"),
    ("add", SheetField::DiceModifier, "add NAME … mod N"),
    ("add", SheetField::IpBonus, "add NAME … ip N"),
    ("add", SheetField::SharedRoll, "add NAME … shared"),
    ("edit", SheetField::Intuition, "edit NAME … int N"),
    ("edit", SheetField::Reaction, "edit NAME … rea N"),
    ("edit", SheetField::DiceModifier, "edit NAME … mod N"),
    ("edit", SheetField::IpBonus, "edit NAME … ip N"),
];
const ADD_WORDS: &[&str] = &["pc", "npc", "shared", "hidden", "name"];

#[derive(Debug, Clone)]
struct Word {
    text: String,
    quoted: bool,
}

fn tokenize(line: &str) -> Result<Vec<Word>, ParseError> {
    let mut words = Vec::new();
    let mut chars = line.chars().peekable();
    // A tab, a line or paragraph separator is no word break but part of its word, refused
    // where the word is read (a name with one names its field), as inside quotes.
    let breaks = |c: char| c.is_whitespace() && !crate::text::is_control(c);
    while let Some(&c) = chars.peek() {
        if breaks(c) {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut text = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    // Inside quotes `\"` is a quote and `\\` a backslash (what `quote` writes
                    // for a name holding them); any other backslash is itself.
                    Some('\\') if matches!(chars.peek(), Some('"' | '\\')) => {
                        text.extend(chars.next());
                    }
                    Some(ch) => text.push(ch),
                    None => {
                        return Err(ParseError {
                            word: words.len() + 1,
                            found: Some(format!("\"{text}")),
                            expected: "a closing quote (\"); inside quotes a quote is written \\\" and a backslash \\\\"
                                .into(),
                            refusal: None,
                        });
                    }
                }
            }
            words.push(Word { text, quoted: true });
        } else if c == ',' {
            chars.next();
            words.push(Word {
                text: ",".into(),
                quoted: false,
            });
        } else {
            let mut text = String::new();
            while let Some(&ch) = chars.peek() {
                if breaks(ch) || ch == '"' || ch == ',' {
                    break;
                }
                text.push(ch);
                chars.next();
            }
            words.push(Word {
                text,
                quoted: false,
            });
        }
    }
    Ok(words)
}

/// Which members a group's name stands for.
#[derive(Debug, Clone, Copy)]
enum Members {
    /// Each member present (not removed from the fight).
    Present,
    /// Each member present and standing, as an attack's targets: a Downed one is left out,
    /// and a group whose members present are all Downed is refused.
    Standing,
    /// As `Standing`, for an attack chain going on (no new roll): a member Downed since this
    /// attacker's roll whose chain still waits is in too, as its defense and soak are owed
    /// (README, Rulings of our own).
    Continued(CombatantId),
}

/// Why `name` finds nobody when it stands for several names an older save keeps apart only by
/// a skin tone, which a typed name leaves out (`State::alike`): `None` when it does not.
pub fn alike(name: &str, state: &State) -> Option<String> {
    let names = state.alike(name);
    (!names.is_empty()).then(|| alike_names(name, &names))
}

/// The sentence refusing `name` typed for the `names` it stands for once skin tones are left
/// out (see [`alike`]).
pub fn alike_names(name: &str, names: &[&str]) -> String {
    format!(
        "\"{}\" is the name of {} characters once skin tones are left out ({}): rename one \
         (select it, `e`) to tell them apart",
        crate::text::unjoined(name.trim()),
        names.len(),
        names.join(", ")
    )
}

/// The characters a form's list of targets stands for, read as `attack` reads its targets
/// (names in full or in short, groups for their members still standing, separated by commas);
/// a text that is one name in full, comma and all, is that name. Why not, in a sentence.
pub fn attack_targets(
    text: &str,
    state: &State,
    catalogue: &Catalogue,
) -> Result<Vec<CombatantId>, String> {
    let text = normalized(text);
    if let Some(ids) = Members::Standing.named(state, text.trim()) {
        return ids;
    }
    read_words(&text, state, catalogue, |p| p.targets_of(Members::Standing))
}

/// The one combatant a form's field names, read as a command reads a name (in full or in
/// short); a text that is one name in full, comma and all, is that name. Why not, in a
/// sentence.
pub fn combatant_named(
    text: &str,
    state: &State,
    catalogue: &Catalogue,
) -> Result<CombatantId, String> {
    let text = normalized(text);
    if let Some(c) = state.find(text.trim()) {
        return Ok(c.id);
    }
    read_words(&text, state, catalogue, Parser::combatant)
}

/// `text` read whole by `read`: what it read, or the first wrong word.
fn read_words<'a, T>(
    text: &str,
    state: &'a State,
    catalogue: &'a Catalogue,
    read: impl FnOnce(&mut Parser<'a>) -> Result<T, ParseError>,
) -> Result<T, String> {
    let mut p = Parser {
        words: tokenize(text.trim()).map_err(|e| e.to_string())?,
        at: 0,
        state,
        catalogue,
        attacker: None,
        verb: None,
        unfinished: None,
    };
    let found = read(&mut p).map_err(|e| in_a_field(&e))?;
    p.finish().map_err(|e| in_a_field(&e))?;
    Ok(found)
}

/// A parse error said of a form's field: the word itself, not its number in a line the GM
/// never typed.
fn in_a_field(e: &ParseError) -> String {
    match (&e.refusal, &e.found) {
        (Some(refusal), _) => refusal.clone(),
        (None, Some(w)) => format!("\"{}\": expected {}", crate::text::excerpt(w), e.expected),
        (None, None) => format!("expected {}", e.expected),
    }
}

/// Text as a line is read: names are kept in NFC (a name typed with combining accents finds
/// the same combatant) and without emoji joiners (`text::unjoined`), so a name in short or a
/// status typed back with them finds what was kept.
/// A word of zero-width joiners alone (a name, a status) would vanish once they are set apart
/// (`normalized`), and the line be read as if it were not typed: refused as what it is.
fn joiners_only(line: &str) -> Option<ParseError> {
    if !line.contains(['\u{200d}', '\u{fe0e}', '\u{fe0f}']) {
        return None;
    }
    let words = tokenize(line.trim()).ok()?;
    let at = words
        .iter()
        .position(|w| crate::text::only_joining(&w.text))?;
    Some(ParseError {
        word: at + 1,
        found: None,
        expected: String::new(),
        refusal: Some(format!(
            "word {} is only zero-width joiners or emoji presentation selectors, which show as nothing: type visible characters",
            at + 1
        )),
    })
}

fn normalized(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization as _;
    let text: String = text.nfc().collect();
    crate::text::unjoined(&text).into_owned()
}

impl Members {
    /// The one called `name`, or the members of the group called so.
    fn named(self, state: &State, name: &str) -> Option<Result<Vec<CombatantId>, String>> {
        if let Some(c) = state.find(name) {
            return Some(Ok(vec![c.id]));
        }
        let group = state.find_group(name)?;
        let present: Vec<&Combatant> = group
            .members
            .iter()
            .filter_map(|id| state.get(*id))
            .filter(|c| c.is_present())
            .collect();
        let waits = |c: &Combatant| match self {
            Self::Continued(attacker) => state
                .sr5
                .pending
                .iter()
                .any(|p| p.attacker == attacker && p.target == c.id),
            Self::Present | Self::Standing => false,
        };
        let standing: Vec<CombatantId> = present
            .iter()
            .filter(|c| !c.is_downed() || waits(c))
            .map(|c| c.id)
            .collect();
        Some(match self {
            Self::Standing | Self::Continued(_) if standing.is_empty() && !present.is_empty() => {
                Err(crate::encounter::system::sr5::Sr5Error::GroupDowned {
                    group: group.name.clone(),
                }
                .to_string())
            }
            Self::Standing | Self::Continued(_) => Ok(standing),
            Self::Present => Ok(present.iter().map(|c| c.id).collect()),
        })
    }
}

struct Parser<'a> {
    words: Vec<Word>,
    at: usize,
    state: &'a State,
    catalogue: &'a Catalogue,
    /// The attacker of an attack roll read so far: [`read`] asks the engine of it when a later
    /// word is wrong.
    attacker: Option<Attacker>,
    /// The verb the first word reads as ([`reads_as`]): [`read`] asks whether this table
    /// takes it before telling a later wrong word.
    verb: Option<&'static str>,
    /// A command whose words so far the engine may refuse whatever comes next (a 2097 weapon
    /// of 0d6): [`read`] asks the engine of it before telling a later wrong word, so the hint
    /// never offers what would be refused.
    unfinished: Option<(Command, System)>,
}

/// What [`parse_noting`] read of a line: the line, or the first wrong word, with what a
/// refusal may be told for first.
struct Reading {
    line: Result<Line, ParseError>,
    attacker: Option<Attacker>,
    verb: Option<&'static str>,
    unfinished: Option<(Command, System)>,
}

/// An attack roll's attacker, the attack, and the rule system whose command it is.
type Attacker = (CombatantId, Attack<'static>, System);

/// Parses one line against the encounter (for names) and the catalogue (for actions).
pub fn parse(line: &str, state: &State, catalogue: &Catalogue) -> Result<Line, ParseError> {
    parse_noting(line, state, catalogue).line
}

/// Parses one line, and notes its verb and the attacker of an attack roll if the line got that
/// far.
fn parse_noting(line: &str, state: &State, catalogue: &Catalogue) -> Reading {
    if let Some(e) = joiners_only(line) {
        return Reading {
            line: Err(e),
            attacker: None,
            verb: None,
            unfinished: None,
        };
    }
    let line = normalized(line);
    let trimmed = line.trim();
    let read = |line| Reading {
        line,
        attacker: None,
        verb: None,
        unfinished: None,
    };
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return read(Ok(Line::Nothing));
    }
    let words = match tokenize(trimmed) {
        Ok(words) => words,
        Err(e) => return read(Err(e)),
    };
    let mut p = Parser {
        words,
        at: 0,
        state,
        catalogue,
        attacker: None,
        verb: None,
        unfinished: None,
    };
    let line = p.line().and_then(|line| p.finish().map(|()| line));
    Reading {
        line,
        attacker: p.attacker,
        verb: p.verb,
        unfinished: p.unfinished,
    }
}

/// Reads one line typed at `enc`'s table (the command line, `exec`): parsed, and refused
/// when it belongs to another rule system. An attack roll whose attacker the engine refuses
/// whoever the target (Downed, unarmed: [`Encounter::may_attack`]) is refused for that first,
/// in the attack form's sentence, even when a later word (a target's name) is wrong; a command
/// or question only other systems have ([`synopses::takes`]) for being that, whatever its words.
pub fn read(line: &str, enc: &Encounter) -> Result<Line, String> {
    let Reading {
        line: parsed,
        attacker,
        verb,
        unfinished,
    } = parse_noting(line, enc.state(), enc.catalogue());
    match parsed {
        Ok(line) => {
            line.belongs(enc.system())
                .map_err(|e| synopses::with_forms(e).to_string())?;
            match line {
                Line::Undo(n) => within("undo", n, enc.undo_steps())?,
                Line::Redo(n) => within("redo", n, enc.redo_steps())?,
                _ => {}
            }
            Ok(line)
        }
        Err(e) => {
            // Another system's command is refused for that, not for a wrong word in it.
            if let Some(verb) = verb {
                synopses::takes(verb, enc.system()).map_err(|r| r.to_string())?;
            }
            if let Some((command, _)) = unfinished.filter(|(_, s)| *s == enc.system()) {
                enc.check(command).map_err(|r| r.to_string())?;
            }
            match attacker {
                Some((who, attack, system)) if system == enc.system() => {
                    enc.may_attack(who, attack).map_err(|r| r.to_string())?;
                    Err(e.to_string())
                }
                _ => Err(e.to_string()),
            }
        }
    }
}

/// `undo N` or `redo N` is all or nothing: asking more than there is changes nothing. A count
/// too big for a number reads as the biggest there is ([`crate::text::int_word`]): told so.
fn within(verb: &str, asked: usize, there: usize) -> Result<(), String> {
    if there == 0 {
        return Err(format!("nothing to {verb}"));
    }
    if asked <= there {
        return Ok(());
    }
    let asked = if asked >= i32::MAX as usize {
        format!("{} or more", i32::MAX)
    } else {
        asked.to_string()
    };
    Err(format!(
        "{verb} {asked}: only {there} command{} to {verb}",
        if there == 1 { "" } else { "s" }
    ))
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Word> {
        self.words.get(self.at)
    }

    fn peek_is(&self, keyword: &str) -> bool {
        self.peek()
            .is_some_and(|w| !w.quoted && w.text.eq_ignore_ascii_case(keyword))
    }

    fn eat(&mut self, keyword: &str) -> bool {
        let yes = self.peek_is(keyword);
        if yes {
            self.at += 1;
        }
        yes
    }

    fn error(&self, expected: impl Into<String>) -> ParseError {
        ParseError {
            word: self.at + 1,
            found: self.peek().map(|w| w.text.clone()),
            expected: expected.into(),
            refusal: None,
        }
    }

    fn finish(&self) -> Result<(), ParseError> {
        if self.at < self.words.len() {
            return Err(self.error("the end of the line"));
        }
        Ok(())
    }

    fn number(&mut self, what: &str) -> Result<i32, ParseError> {
        match self.peek().and_then(|w| int_word(&w.text)) {
            Some(n) => {
                self.at += 1;
                Ok(n)
            }
            None => Err(self.error(what)),
        }
    }

    /// A keyword given twice is refused where it comes the second time.
    fn once<T>(&self, slot: Option<&T>, what: &str) -> Result<(), ParseError> {
        match slot {
            Some(_) => Err(self.error(format!("{what} once only"))),
            None => Ok(()),
        }
    }

    /// `KEYWORD N` into `slot` when KEYWORD comes next; refused the second time.
    fn keyword_number(
        &mut self,
        keyword: &str,
        slot: &mut Option<i32>,
        what: &str,
    ) -> Result<bool, ParseError> {
        if !self.keyword_once(keyword, slot.as_ref())? {
            return Ok(false);
        }
        *slot = Some(self.number(what)?);
        Ok(true)
    }

    /// A flag (`keywords[0]` or an alias) when one comes next; refused the second time.
    fn flag(&mut self, keywords: &[&str], set: &mut bool) -> Result<bool, ParseError> {
        let Some(first) = keywords.first() else {
            return Ok(false);
        };
        if !keywords.iter().any(|k| self.peek_is(k)) {
            return Ok(false);
        }
        if *set {
            return Err(self.error(format!("`{first}` once only")));
        }
        self.at += 1;
        *set = true;
        Ok(true)
    }

    /// `KEYWORD` when it comes next and its value is not given yet (then the caller reads the
    /// value); refused the second time.
    fn keyword_once<T>(&mut self, keyword: &str, slot: Option<&T>) -> Result<bool, ParseError> {
        if !self.peek_is(keyword) {
            return Ok(false);
        }
        self.once(slot, &format!("`{keyword}`"))?;
        self.at += 1;
        Ok(true)
    }

    fn optional_number(&mut self) -> Option<i32> {
        let n = self.peek().and_then(|w| int_word(&w.text))?;
        self.at += 1;
        Some(n)
    }

    /// The longest run of words from here that `matches` accepts.
    fn longest<T>(&mut self, matches: impl Fn(&str) -> Option<T>) -> Option<T> {
        if let Some(w) = self.peek().filter(|w| w.quoted) {
            let found = matches(&w.text)?;
            self.at += 1;
            return Some(found);
        }
        let mut best = None;
        let mut joined = String::new();
        for (i, w) in self.words[self.at..].iter().enumerate() {
            if w.quoted || w.text == "," {
                break;
            }
            if i > 0 {
                joined.push(' ');
            }
            joined.push_str(&w.text);
            if let Some(found) = matches(&joined) {
                best = Some((found, i + 1));
            }
        }
        let (found, n) = best?;
        self.at += n;
        Some(found)
    }

    fn names_hint(&self) -> String {
        let names: Vec<&str> = self
            .state
            .present()
            .map(|c| c.name.as_str())
            .take(6)
            .collect();
        if names.is_empty() {
            "a combatant name (there are none yet: `add` one)".into()
        } else {
            let more = if self.state.present().count() > names.len() {
                ", …"
            } else {
                ""
            };
            format!("a combatant name ({}{more})", names.join(", "))
        }
    }

    /// The longest run of unquoted words from here that starts the words of at least one of
    /// `names` (`A` for Ana, `sp` for Speak/Text/Transmit Phrase); how many words, and the names.
    fn by_prefix<'n>(&self, names: &[&'n str]) -> Option<(usize, Vec<&'n str>)> {
        let mut best = None;
        let mut run: Vec<&str> = Vec::new();
        for w in &self.words[self.at..] {
            if w.quoted || w.text == "," {
                break;
            }
            run.push(&w.text);
            let fits: Vec<&str> = names
                .iter()
                .copied()
                .filter(|n| starts_words(&run, n))
                .collect();
            if fits.is_empty() {
                break;
            }
            best = Some((run.len(), fits));
        }
        best
    }

    /// A name given in short: the one it fits, `None` if it fits none, and an error naming
    /// them if it fits several. `then`, if given, lists the words that may follow the name: a
    /// run stopped by any other word is a misspelling, not a short name (`Fire Gn`).
    fn short<'n>(
        &mut self,
        names: &[&'n str],
        what: &str,
        then: Option<&[&str]>,
    ) -> Result<Option<&'n str>, ParseError> {
        let found = self.by_prefix(names);
        if let (Some((n, _)), Some(then)) = (&found, then)
            && let Some(next) = self.words.get(self.at + n)
            && next.text != ","
            && !then.iter().any(|t| next.text.eq_ignore_ascii_case(t))
        {
            return Ok(None);
        }
        match found {
            Some((n, fits)) if fits.len() == 1 => {
                self.at += n;
                Ok(Some(fits[0]))
            }
            Some((n, fits)) => {
                let run: Vec<&str> = self.words[self.at..self.at + n]
                    .iter()
                    .map(|w| w.text.as_str())
                    .collect();
                let shown: Vec<&str> = fits.iter().copied().take(8).collect();
                let more = if fits.len() > shown.len() {
                    ", …"
                } else {
                    ""
                };
                Err(self.error(format!(
                    "one {what}, but \"{}\" fits {} of them ({}{more}): type more of the name",
                    run.join(" "),
                    fits.len(),
                    shown.join(", ")
                )))
            }
            None => Ok(None),
        }
    }

    fn combatant(&mut self) -> Result<CombatantId, ParseError> {
        let state = self.state;
        if let Some(id) = self.longest(|s| state.find(s).map(|c| c.id)) {
            return Ok(id);
        }
        self.not_alike()?;
        let names: Vec<&str> = state.present().map(|c| c.name.as_str()).collect();
        self.short(&names, "character", None)?
            .and_then(|name| state.find(name))
            .map(|c| c.id)
            .ok_or_else(|| self.error(self.names_hint()))
    }

    /// Refuses a name from here that stands for several names an older save keeps apart only
    /// by a skin tone ([`alike`]): none is picked for the other.
    fn not_alike(&mut self) -> Result<(), ParseError> {
        let (state, at) = (self.state, self.at);
        let Some(refusal) = self.longest(|s| alike(s, state)) else {
            return Ok(());
        };
        self.at = at;
        Err(ParseError {
            refusal: Some(refusal),
            ..self.error("one name")
        })
    }

    /// Characters to aim at: names (in full or in short) and groups (each member present),
    /// separated by commas.
    fn targets(&mut self) -> Result<Vec<CombatantId>, ParseError> {
        self.targets_of(Members::Present)
    }

    /// [`Self::targets`], a group standing for the members `members` keeps.
    fn targets_of(&mut self, members: Members) -> Result<Vec<CombatantId>, ParseError> {
        let mut who = Vec::new();
        loop {
            let state = self.state;
            let at = self.at;
            let group = self.longest(|s| members.named(state, s));
            match group {
                Some(Ok(ids)) => who.extend(ids),
                Some(Err(refusal)) => {
                    self.at = at;
                    return Err(ParseError {
                        refusal: Some(refusal),
                        ..self.error("someone still standing")
                    });
                }
                None => who.push(self.combatant()?),
            }
            if !self.eat(",") {
                return Ok(who);
            }
        }
    }

    /// The names of `damage`/`heal`, before the boxes. Names are read longest first, so in
    /// `damage Guard 3 stun` (the group Guard: Guard 1 to 3) "Guard 3" would be read as a name
    /// and leave no boxes. Where no number follows the names and at most a track ends the
    /// line, a last word of the names that is a number, and leaves names without it, is the
    /// boxes: the one reading `NAME[, NAME…] N [TRACK]` gives the line.
    fn boxes_targets(&mut self) -> Result<Vec<CombatantId>, ParseError> {
        let start = self.at;
        let who = self.targets()?;
        let end = self.at;
        let number = |w: &Word| !w.quoted && int_word(&w.text).is_some();
        let boxes_next = self.peek().is_some_and(number);
        let ends_in_number = end > start + 1 && self.words.get(end - 1).is_some_and(number);
        if boxes_next || !ends_in_number || !self.track_or_nothing(end) {
            return Ok(who);
        }
        let tail = self.words.split_off(end - 1);
        self.at = start;
        let shorter = self.targets();
        let read_all = self.at == end - 1;
        self.words.extend(tail);
        match shorter {
            Ok(shorter) if read_all => Ok(shorter),
            _ => {
                self.at = end;
                Ok(who)
            }
        }
    }

    /// Whether the words from `at` are nothing, or one track of damage (`stun`, `armor`, …).
    fn track_or_nothing(&self, at: usize) -> bool {
        const TRACKS: [&str; 7] = ["physical", "p", "stun", "s", "armor", "armour", "matrix"];
        match self.words.get(at..) {
            Some([]) | None => true,
            Some([w]) => !w.quoted && TRACKS.iter().any(|t| w.text.eq_ignore_ascii_case(t)),
            Some(_) => false,
        }
    }

    /// Words up to (not including) one of `stops`, joined; quoted text counts as one word.
    fn text_until(&mut self, stops: &[&str]) -> String {
        let mut parts = Vec::new();
        while let Some(w) = self.peek() {
            if !w.quoted && stops.iter().any(|s| w.text.eq_ignore_ascii_case(s)) {
                break;
            }
            parts.push(w.text.clone());
            self.at += 1;
        }
        parts.join(" ")
    }

    fn action_type(word: &str) -> Option<ActionType> {
        ActionType::ALL
            .into_iter()
            .find(|t| t.label().eq_ignore_ascii_case(word))
    }

    fn action(&mut self) -> Result<ActionChoice, ParseError> {
        if let Some(t) = self
            .peek()
            .filter(|w| !w.quoted)
            .and_then(|w| Self::action_type(&w.text))
        {
            self.at += 1;
            return Ok(ActionChoice::Type(t));
        }
        let catalogue = self.catalogue;
        let name = match self.longest(|s| catalogue.get(s).map(|a| a.name.clone())) {
            Some(name) => name,
            None => {
                let names: Vec<&str> = catalogue
                    .actions()
                    .iter()
                    .map(|a| a.name.as_str())
                    .collect();
                match self.short(&names, "action", Some(&["as", "mode"]))? {
                    Some(name) => name.to_string(),
                    None => return Err(self.error(self.action_hint())),
                }
            }
        };
        let as_type = if self.eat("as") {
            let t = self
                .peek()
                .and_then(|w| Self::action_type(&w.text))
                .ok_or_else(|| self.error("an action type: free, simple or complex"))?;
            self.at += 1;
            Some(t)
        } else {
            None
        };
        // A fire mode (`mode BF`): the engine knows which the action has.
        let mode = if self.eat("mode") {
            let word = self
                .peek()
                .filter(|w| !w.text.is_empty())
                .map(|w| w.text.clone())
                .ok_or_else(|| self.error("a fire mode (e.g. `mode BF`)"))?;
            self.at += 1;
            Some(word)
        } else {
            None
        };
        Ok(ActionChoice::Named {
            name,
            as_type,
            mode,
        })
    }

    fn action_hint(&self) -> String {
        let word = self
            .peek()
            .map(|w| w.text.to_lowercase())
            .unwrap_or_default();
        let close: Vec<&str> = self
            .catalogue
            .actions()
            .iter()
            .filter(|a| !word.is_empty() && a.name.to_lowercase().contains(&word))
            .map(|a| a.name.as_str())
            .take(4)
            .collect();
        if close.is_empty() {
            "free, simple, complex or an action of the catalogue".into()
        } else {
            format!(
                "free, simple, complex or an action of the catalogue (e.g. {})",
                close.join(", ")
            )
        }
    }

    /// `damage`/`heal TARGETS N [TRACK]`: Anarchy's Armor and Matrix tracks are one
    /// character's gear; the condition monitors take a list.
    fn boxes(
        &mut self,
        what: &str,
        gear: impl FnOnce(
            CombatantId,
            crate::encounter::system::anarchy::GearTrack,
            i32,
        ) -> AnarchyCommand,
        each: impl FnOnce(Track, i32) -> Each,
    ) -> Result<Command, ParseError> {
        let first = self.at;
        let who = self.boxes_targets()?;
        let names = self.at;
        let boxes = self.number(what)?;
        Ok(match self.gear_track() {
            Some(track) => match who.as_slice() {
                [one] => Command::Anarchy(gear(*one, track, boxes)),
                _ => {
                    let typed: Vec<&str> = self.words[first..names]
                        .iter()
                        .map(|w| w.text.as_str())
                        .collect();
                    return Err(ParseError {
                        word: first + 1,
                        found: Some(typed.join(" ")),
                        expected: format!(
                            "one name: {} is one character's gear (`{} NAME N {}`)",
                            track.label(),
                            self.words.first().map_or("damage", |w| w.text.as_str()),
                            track.label().to_lowercase()
                        ),
                        refusal: None,
                    });
                }
            },
            None => {
                let track = self.track();
                Command::aimed(who, each(track, boxes))
            }
        })
    }

    fn track(&mut self) -> Track {
        if self.eat("stun") || self.eat("s") {
            Track::Stun
        } else {
            let _ = self.eat("physical") || self.eat("p");
            Track::Physical
        }
    }

    fn line(&mut self) -> Result<Line, ParseError> {
        let Some(word) = self.peek().map(|w| w.text.to_lowercase()) else {
            return Ok(Line::Nothing);
        };
        self.verb = reads_as(&word);
        let verb = self.verb.unwrap_or_default();
        self.at += 1;
        if verb == "add"
            && let Some(r) = self.roster_add()?
        {
            return Ok(Line::FromRoster(r));
        }
        let cmd = match verb {
            "add" => self.add()?,
            "edit" => self.edit()?,
            "remove" => {
                let who = self.combatant()?;
                let reason = if self.eat("because") {
                    let reason = self.text_until(&[]);
                    // A `because` with nothing after it is a reason left out: refused, as an
                    // Anarchy spend's empty `:` note is, not taken as none.
                    if reason.trim().is_empty() {
                        return Err(self.error(
                            "the reason after `because` (a few words, or no `because` for none)",
                        ));
                    }
                    Some(reason)
                } else {
                    None
                };
                Command::Remove { who, reason }
            }
            "roll" => self.roll()?,
            "start" => Command::Start,
            "next" => Command::Next,
            "act" => {
                let who = self.combatant()?;
                let action = self.action()?;
                // The table's dice for the test the action takes (a wounded Stand Up).
                match self.given()? {
                    Some(given) => Command::Sr5(Sr5Command::Act { who, action, given }),
                    None => Command::SpendAction { who, action },
                }
            }
            "edge" => {
                let who = self.combatant()?;
                if self.eat("regain") {
                    self.regain_edge(who)
                } else if self.eat("after") {
                    self.edge_after(who)?
                } else if self.peek().is_some() {
                    self.edge_2097(who)?
                } else {
                    Command::UseEdge { who }
                }
            }
            "delay" => {
                let who = self.combatant()?;
                if self.eat("after") {
                    let trigger = self.combatant()?;
                    Command::NameDelayTrigger { who, trigger }
                } else {
                    let ip = self.number("the IP to reserve (a number)")?;
                    let trigger = if self.eat("after") {
                        Some(self.combatant()?)
                    } else {
                        None
                    };
                    Command::Delay { who, ip, trigger }
                }
            }
            "ready" => {
                let who = self.combatant()?;
                let ip = self.optional_number();
                if !self.eat("when") {
                    return Err(self.error("`when` and the trigger's description"));
                }
                // The GM's own `when` after ours is not kept: the log writes one.
                let typed = self.text_until(&["do"]);
                let trigger = ReadyTrigger::words(&typed).to_string();
                if !self.eat("do") {
                    return Err(self.error("`do` and the ready actions"));
                }
                let mut actions = vec![self.action()?];
                while self.eat(",") {
                    actions.push(self.action()?);
                }
                Command::Ready {
                    who,
                    ip,
                    trigger,
                    actions,
                }
            }
            "fire" => {
                let who = self.combatant()?;
                let n = self.optional_number().unwrap_or(1);
                if n < 1 {
                    self.at -= 1;
                    return Err(self.error("a trigger number from 1"));
                }
                let timing = if self.eat("before") {
                    Timing::Before
                } else {
                    let _ = self.eat("after");
                    Timing::After
                };
                Command::FireReady {
                    who,
                    trigger: (n - 1) as usize,
                    timing,
                }
            }
            "move" => {
                let who = self.combatant()?;
                let relative = if self.eat("before") {
                    Relative::Before
                } else if self.eat("after") {
                    Relative::After
                } else {
                    return Err(self.error("`before` or `after`"));
                };
                let target = self.combatant()?;
                Command::ChangeInitiative {
                    who,
                    relative,
                    target,
                }
            }
            "down" => Command::SetDowned {
                who: self.combatant()?,
                downed: true,
            },
            "up" => Command::SetDowned {
                who: self.combatant()?,
                downed: false,
            },
            "hide" | "reveal" => Command::SetVisibility {
                who: self.targets()?,
                visibility: if verb == "hide" {
                    Visibility::Hidden
                } else {
                    Visibility::Shown
                },
            },
            "damage" => {
                // A number, however large, is boxes on a monitor (a number past any range gets
                // the engine's allowed range), anything else after one attacker a target: a
                // Shadowrun 2097 damage roll.
                // `dmg - TARGET NdM+ST`: 2097 damage with no attacker.
                if self.eat(sr2097::DAMAGE.no_attacker) {
                    return Ok(Line::Command(self.harm_2097()?));
                }
                let start = self.at;
                let who = self.boxes_targets()?;
                let numeric = |t: &str| {
                    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
                    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
                };
                // A track alone after the name is the monitors' `damage` missing its boxes,
                // not a damage roll (that needs a target and its dice or weapon).
                if let [one] = who[..]
                    && self.peek().is_some_and(|w| w.quoted || !numeric(&w.text))
                    && !self.track_or_nothing(self.at)
                {
                    self.attacker = Some((one, Attack::Damage, System::Sr2097));
                    return Ok(Line::Command(self.damage_2097(one)?));
                }
                self.at = start;
                self.boxes(
                    "the boxes of damage (a number)",
                    |who, track, boxes| AnarchyCommand::Damage { who, track, boxes },
                    |track, boxes| Each::Damage { track, boxes },
                )?
            }
            "heal" => self.boxes(
                "the boxes to heal (a number)",
                |who, track, boxes| AnarchyCommand::Repair { who, track, boxes },
                |track, boxes| Each::Heal { track, boxes },
            )?,
            "narrate" | "seating" | "sheet" | "pp" | "gm" | "atest" | "cooldown" => {
                self.anarchy(verb)?
            }
            "aodds" => {
                let test = self.test()?;
                return Ok(Line::AnarchyOdds(test));
            }
            "status" => {
                let who = self.targets()?;
                let text = self.text_until(&["until"]);
                if text.is_empty() {
                    return Err(self.error("the status text"));
                }
                let until = if self.eat("until") {
                    Some(
                        match self.peek().map(|w| w.text.to_lowercase()).as_deref() {
                            Some("turn") => StatusUntil::ThisTurn,
                            Some("next") => StatusUntil::NextTurn,
                            Some("round") => StatusUntil::Round,
                            Some("never") => StatusUntil::Never,
                            _ => return Err(self.error("turn, next, round or never")),
                        },
                    )
                } else {
                    None
                };
                if until.is_some() {
                    self.at += 1;
                }
                Command::aimed(who, Each::AddStatus { text, until })
            }
            "clear" => {
                let who = self.targets()?;
                let name = self.text_until(&[]);
                if name.is_empty() {
                    return Err(self.error("the status to clear"));
                }
                Command::aimed(who, Each::ClearStatus { name })
            }
            "end" => Command::End,
            "undo" => return Ok(Line::Undo(self.count()?)),
            "redo" => return Ok(Line::Redo(self.count()?)),
            "why" => {
                let a = self.combatant()?;
                let b = self.combatant()?;
                return Ok(Line::Why(a, b));
            }
            "sc" => self.sc()?,
            // SR5 has `armor NAME N`: the words after the name tell which is meant, and in a
            // 2097 fight any other words are a 2097 armor missing its `pt N dr N`.
            "armor"
                if self.ahead("pt")
                    || (self.state.sr2097.is_some()
                        && (self.ahead("dr")
                            || !self
                                .words
                                .last()
                                .is_some_and(|w| !w.quoted && int_word(&w.text).is_some()))) =>
            {
                self.armor_2097()?
            }
            "strength" => self.strength()?,
            // SR5 and 2097 both remove a weapon; only 2097's are added as damage dice.
            "weapon"
                if self.dice_ahead()
                    || (self.ahead("remove") && self.state.system != System::Sr5) =>
            {
                self.weapon_2097()?
            }
            "odds2097" => return self.odds2097(),
            // At a 2097 table a weapon the SR5 form cannot read either is told the 2097 form
            // (`weapon Ana add Claw d6`: its dice, not SR5's `dv N`).
            "weapon" if self.state.system == System::Sr2097 => {
                let at = self.at;
                match self.sr5(verb) {
                    Ok(sr5::Parsed::Command(c)) => c,
                    Ok(sr5::Parsed::Odds(q)) => return Ok(Line::Odds(q)),
                    Err(_) => {
                        self.at = at;
                        self.weapon_2097()?
                    }
                }
            }
            "test" | "teamwork" | "closecall" | "odds" | "attack" | "weapon" | "reload"
            | "armor" => match self.sr5(verb)? {
                sr5::Parsed::Command(c) => c,
                sr5::Parsed::Odds(q) => return Ok(Line::Odds(q)),
            },
            _ => {
                self.at -= 1;
                // The verbs this table's system takes, each once (several have a form per
                // system: `edge`, `damage`, `heal`).
                let verbs = synopses::verbs(self.state.system);
                return Err(self.error(format!("a command: {}", verbs.join(", "))));
            }
        };
        Ok(Line::Command(cmd))
    }

    fn count(&mut self) -> Result<usize, ParseError> {
        match self.optional_number() {
            None => Ok(1),
            Some(n) if n >= 1 => Ok(n as usize),
            Some(_) => {
                self.at -= 1;
                Err(self.error("a count from 1"))
            }
        }
    }

    /// Whether `w` ends the name of `add`: a word `add` takes. `name` is `edit`'s, and `shared`
    /// only where the system rolls a group's initiative once, so a name holds them elsewhere.
    fn is_add_keyword(&self, w: &Word) -> bool {
        if w.quoted {
            return false;
        }
        let t = w.text.to_lowercase();
        let not_here =
            t == "name" || (t == "shared" && !self.state.system.uses(SheetField::SharedRoll));
        (SHEET_WORDS.contains(&t.as_str()) || ADD_WORDS.contains(&t.as_str())) && !not_here
            || (t.len() > 1 && t.starts_with('x') && int_word(&t[1..]).is_some_and(|n| n >= 0))
    }

    /// `e` told that a name holding a keyword is typed in quotes, when it is refused at the
    /// keyword that ended the name `words[from..to]` or at the word after it: the line most
    /// likely meant the keyword as part of the name (`add Edge Lord …`).
    fn keyword_in_name(&self, mut e: ParseError, from: usize, to: usize) -> ParseError {
        let Some(keyword) = self.words.get(to).filter(|w| !w.quoted) else {
            return e;
        };
        // A field of another system's form (`int` at an Anarchy table) is refused as that form:
        // the line meant the field, not a name holding it.
        if self
            .foreign_form("add", &keyword.text.to_lowercase())
            .is_some()
        {
            return e;
        }
        let at = e.word.saturating_sub(1);
        // Refused at the word after the keyword, that word must read as a name's (`Guy` of
        // `add Big Edge Guy`), not as a keyword or a number (`add X pc npc`).
        let name_like = |w: &Word| !self.is_add_keyword(w) && int_word(&w.text).is_none();
        let after = self.words.get(to + 1).is_some_and(name_like);
        if at != to && !(at == to + 1 && after) {
            return e;
        }
        // The name as it was likely meant: its words, the keyword, and those up to the next
        // keyword.
        let more = self.words[to + 1..]
            .iter()
            .take_while(|w| !self.is_add_keyword(w))
            .count();
        let meant: Vec<&str> = self.words[from..=to + more]
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        let hint = format!(
            "; a name holding the word \"{}\" is typed in quotes: {}",
            crate::text::excerpt(&keyword.text),
            quoted(&meant.join(" "))
        );
        match &mut e.refusal {
            Some(r) => r.push_str(&hint),
            None => e.expected.push_str(&hint),
        }
        e
    }

    /// Sheet fields in any order, of `add` or `edit` (`verb`): a field this table's system does
    /// not play with (Anarchy's initiative) is another system's form of the verb, refused so.
    /// Each once: a field in `given` already (from this call or an earlier one on the same
    /// line) is refused, not read as its last value; each field read is added to it.
    fn sheet_fields(
        &mut self,
        verb: &str,
        sheet: &mut SheetInput,
        side: &mut Option<Side>,
        given: &mut Vec<String>,
    ) -> Result<(), ParseError> {
        while let Some(w) = self
            .peek()
            .filter(|w| !w.quoted)
            .map(|w| w.text.to_lowercase())
        {
            match w.as_str() {
                "pc" | "npc" => {
                    self.once(side.as_ref(), "`pc` or `npc`")?;
                    self.at += 1;
                    *side = Some(if w == "pc" { Side::Pc } else { Side::Npc });
                }
                "int" | "rea" | "edge" | "mod" | "ip" | "body" | "will" => {
                    self.foreign_field(verb, &w)?;
                    self.once(given.contains(&w).then_some(&()), &format!("`{w}`"))?;
                    given.push(w.clone());
                    self.at += 1;
                    let n = self.number(&format!("a number after `{w}`"))?;
                    match w.as_str() {
                        "int" => sheet.intuition = n,
                        "rea" => sheet.reaction = n,
                        "edge" => sheet.edge = n,
                        "mod" => sheet.dice_modifier = n,
                        "ip" => sheet.ip_bonus = n,
                        "body" => sheet.body = Some(n),
                        _ => sheet.willpower = Some(n),
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// Refuses the next word if it is `word`, a field of the sheet this table's system does not
    /// play with ([`System::uses`]: Anarchy's initiative): that is another system's form of
    /// `verb` (`add` or `edit`), told with this table's forms of it.
    fn foreign_field(&self, verb: &str, word: &str) -> Result<(), ParseError> {
        let Some(form) = self.foreign_form(verb, word).filter(|_| self.peek_is(word)) else {
            return Ok(());
        };
        let refusal = synopses::with_forms(RuleError::OtherSystem {
            verb: form,
            owners: Family::Passes.systems().to_vec(),
            system: self.state.system,
            forms: Vec::new(),
        });
        Err(ParseError {
            refusal: Some(refusal.to_string()),
            ..self.error(*form)
        })
    }

    /// The form of `verb` (`add` or `edit`) whose field `word` is, when this table's system
    /// does not play with that field ([`System::uses`]: Anarchy's initiative): another system's.
    fn foreign_form(&self, verb: &str, word: &str) -> Option<&'static &'static str> {
        PASSES_FIELDS
            .iter()
            .find(|(v, _, form)| {
                *v == verb && form.trim_end_matches(" N").ends_with(&format!(" {word}"))
            })
            .filter(|(_, field, _)| !self.state.system.uses(*field))
            .map(|(_, _, form)| form)
    }

    /// The words after `add`, if they ask for the roster: `party` alone, or ending in
    /// `from template`.
    fn roster_add(&mut self) -> Result<Option<RosterAdd>, ParseError> {
        let rest = &self.words[self.at..];
        let plain = |w: &Word, k: &str| !w.quoted && w.text.eq_ignore_ascii_case(k);
        if let [w] = rest
            && plain(w, "party")
        {
            self.at = self.words.len();
            return Ok(Some(RosterAdd::Party));
        }
        let [head @ .., from, template] = rest else {
            return Ok(None);
        };
        if !plain(from, "from") || !plain(template, "template") {
            return Ok(None);
        }
        let mut head = head;
        let mut shared_roll = false;
        if let [before @ .., last] = head
            && plain(last, "shared")
        {
            if !before.is_empty() && !self.state.system.uses(SheetField::SharedRoll) {
                self.at += head.len() - 1;
                return self.foreign_field("add", "shared").map(|()| None);
            }
            shared_roll = true;
            head = before;
        }
        let mut count = None;
        if let [before @ .., last] = head
            && !last.quoted
            && last.text.len() > 1
            && last.text.to_lowercase().starts_with('x')
            && let Some(n) = int_word(&last.text[1..])
        {
            count = Some(n);
            head = before;
        }
        if head.is_empty() {
            return Ok(None);
        }
        let name: Vec<&str> = head.iter().map(|w| w.text.as_str()).collect();
        let name = name.join(" ");
        self.at = self.words.len();
        Ok(Some(RosterAdd::Template {
            name,
            count,
            shared_roll,
        }))
    }

    fn add(&mut self) -> Result<Command, ParseError> {
        let start = self.at;
        let mut name = Vec::new();
        while let Some(w) = self.peek() {
            if self.is_add_keyword(w) {
                break;
            }
            name.push(w.text.clone());
            self.at += 1;
        }
        let end = self.at;
        if name.is_empty() {
            self.at = start;
            let e = self.error("the new combatant's name");
            return Err(self.keyword_in_name(e, start, end));
        }
        let cmd = match self.add_after_name(&name) {
            Ok(cmd) => cmd,
            Err(e) => return Err(self.keyword_in_name(e, start, end)),
        };
        // The end of the line too, so a word left over after a keyword gets the hint.
        self.finish()
            .map_err(|e| self.keyword_in_name(e, start, end))?;
        Ok(cmd)
    }

    /// The rest of `add` after the new combatant's name.
    fn add_after_name(&mut self, name: &[String]) -> Result<Command, ParseError> {
        let mut count = None;
        if let Some(n) = self
            .peek()
            .filter(|w| !w.quoted && w.text.len() > 1 && w.text.to_lowercase().starts_with('x'))
            .and_then(|w| int_word(&w.text[1..]))
        {
            self.at += 1;
            count = Some(n);
        }
        let mut sheet = SheetInput::default();
        let mut side = None;
        let mut given = Vec::new();
        let mut shared = false;
        let mut hidden = false;
        loop {
            let before = self.at;
            self.sheet_fields("add", &mut sheet, &mut side, &mut given)?;
            self.foreign_field("add", "shared")?;
            self.flag(&["shared"], &mut shared)?;
            self.flag(&["hidden"], &mut hidden)?;
            if self.at == before {
                break;
            }
        }
        // Intuition and Reaction are required where the system plays with them (its
        // initiative): elsewhere (Anarchy) they stay the sheet's defaults unless given.
        let system = self.state.system;
        let has = |field: &str| given.iter().any(|g| g == field);
        if system.uses(SheetField::Intuition) && !has("int") {
            return Err(self.error("`int N` (Intuition)"));
        }
        if system.uses(SheetField::Reaction) && !has("rea") {
            return Err(self.error("`rea N` (Reaction)"));
        }
        Ok(Command::Add(AddCombatant {
            name: name.join(" "),
            side: side.unwrap_or(Side::Npc),
            sheet,
            count,
            shared_roll: shared,
            hidden,
        }))
    }

    fn edit(&mut self) -> Result<Command, ParseError> {
        let who = self.combatant()?;
        let c = self.state.get(who).cloned();
        let mut sheet = c.as_ref().map(sheet_input).unwrap_or_default();
        let mut side = None;
        let mut name = None;
        let mut given = Vec::new();
        loop {
            let before = self.at;
            self.sheet_fields("edit", &mut sheet, &mut side, &mut given)?;
            if self.keyword_once("name", name.as_ref())? {
                let text = self.text_until(&[
                    "pc", "npc", "int", "rea", "edge", "mod", "ip", "body", "will",
                ]);
                if text.is_empty() {
                    return Err(self.error("the new name"));
                }
                name = Some(text);
            }
            if self.at == before {
                break;
            }
        }
        Ok(Command::Edit {
            who,
            name,
            side,
            sheet,
        })
    }

    fn roll(&mut self) -> Result<Command, ParseError> {
        // `all` and `npcs` unquoted are the keywords; a combatant so named is typed in quoted.
        let keyword = ["all", "npcs"].into_iter().find(|k| self.peek_is(k));
        if let Some(k) = keyword
            && self
                .words
                .get(self.at + 1)
                .is_some_and(|w| !w.quoted && w.text.eq_ignore_ascii_case("hits"))
            && (self.state.find(k).is_some() || self.state.find_group(k).is_some())
        {
            let whom = if k == "all" { "everyone" } else { "the NPCs" };
            return Err(self.error(format!(
                "a quoted name: `roll {k}` rolls for {whom}; to type in the roll of the combatant called {k}, quote the name: roll \"{k}\" hits {}",
                self.words.get(self.at + 2).map_or("N", |w| w.text.as_str())
            )));
        }
        let target = if self.eat("all") {
            RollTarget::All
        } else if self.eat("npcs") {
            RollTarget::Npcs
        } else {
            let state = self.state;
            let found = self.longest(|s| {
                state
                    .find(s)
                    .map(|c| RollTarget::One(c.id))
                    .or_else(|| state.find_group(s).map(|g| RollTarget::Group(g.id)))
            });
            match found {
                Some(t) => t,
                None => {
                    self.not_alike()?;
                    let names: Vec<&str> = state.present().map(|c| c.name.as_str()).collect();
                    match self
                        .short(&names, "character", None)?
                        .and_then(|n| state.find(n))
                    {
                        Some(c) => RollTarget::One(c.id),
                        None => {
                            let hint = self.names_hint();
                            return Err(self.error(format!("all, npcs, a group or {hint}")));
                        }
                    }
                }
            }
        };
        if self.eat("dice") {
            let dice = self.faces_2097()?;
            return Ok(Command::Sr2097(
                crate::encounter::system::sr2097::Sr2097Command::Initiative { target, dice },
            ));
        }
        let typed = if self.eat("hits") {
            let hits = self.number("the number of hits")?;
            // `critical` as the SR5 test takes it: a glitch with no hit is the critical one.
            let glitch = if self.peek_is("critical") {
                if hits != 0 {
                    return Err(
                        self.error("`glitch` (a critical glitch has no hit: `hits 0 critical`)")
                    );
                }
                self.at += 1;
                let _ = self.eat("glitch");
                true
            } else {
                self.eat("glitch")
            };
            Some((hits, glitch))
        } else {
            None
        };
        Ok(Command::Roll { target, typed })
    }
}

/// Whether the words of `run` start the words of `name`, in order (`fi wea` starts "Fire
/// Weapon"); a number must be a whole word (`G 1` is "Ganger 1", not "Ganger 12").
fn starts_words(run: &[&str], name: &str) -> bool {
    let words: Vec<&str> = name.split_whitespace().collect();
    run.len() <= words.len()
        && run.iter().zip(&words).all(|(r, w)| {
            if r.chars().all(|c| c.is_ascii_digit()) {
                r == w
            } else {
                // As a line is read: a skin tone an older save keeps counts for nothing.
                crate::text::unjoined(w)
                    .to_lowercase()
                    .starts_with(&r.to_lowercase())
            }
        })
}

fn sheet_input(c: &Combatant) -> SheetInput {
    SheetInput::from(c.sheet)
}

/// `text` in quotes, `"` and `\` inside written `\"` and `\\`: reads back as one word.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    out.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Quotes a name or text when its words could be read as keywords, or when it holds a quote
/// (then `"` and `\` inside are written `\"` and `\\`): what it returns reads back as `text`.
pub fn quote(text: &str) -> String {
    let risky = text.is_empty()
        || text.contains(',')
        || text.split_whitespace().any(|w| {
            let w = w.to_lowercase();
            SHEET_WORDS.contains(&w.as_str())
                || ADD_WORDS.contains(&w.as_str())
                || [
                    "after", "before", "as", "when", "do", "until", "because", "hits", "glitch",
                ]
                .contains(&w.as_str())
                || w.parse::<i32>().is_ok()
                || (w.len() > 1 && w.starts_with('x') && w[1..].parse::<u32>().is_ok())
        });
    if risky || text.contains('"') {
        quoted(text)
    } else {
        text.to_string()
    }
}

/// A new sheet's words, those of the fields `system` plays with (Anarchy's have no initiative).
fn sheet_words(s: &SheetInput, system: System) -> String {
    let mut out = String::new();
    if system.uses(SheetField::Intuition) {
        out += &format!(" int {} rea {}", s.intuition, s.reaction);
    }
    if s.edge != 0 {
        out += &format!(" edge {}", s.edge);
    }
    if s.dice_modifier != 0 && system.uses(SheetField::DiceModifier) {
        out += &format!(" mod {}", s.dice_modifier);
    }
    if s.ip_bonus != 0 && system.uses(SheetField::IpBonus) {
        out += &format!(" ip {}", s.ip_bonus);
    }
    if let Some(b) = s.body {
        out += &format!(" body {b}");
    }
    if let Some(w) = s.willpower {
        out += &format!(" will {w}");
    }
    out
}

/// An edit's sheet: each field that differs from the sheet it changes (` edge 0` included, which
/// `add`'s words leave out), so the text reads back to the same sheet; every field when the
/// character is not known.
fn edit_words(was: Option<&SheetInput>, now: &SheetInput) -> String {
    let fields: [(&str, i32, Option<i32>); 5] = [
        ("int", now.intuition, was.map(|w| w.intuition)),
        ("rea", now.reaction, was.map(|w| w.reaction)),
        ("edge", now.edge, was.map(|w| w.edge)),
        ("mod", now.dice_modifier, was.map(|w| w.dice_modifier)),
        ("ip", now.ip_bonus, was.map(|w| w.ip_bonus)),
    ];
    let mut out = String::new();
    for (word, value, before) in fields {
        if before != Some(value) {
            out += &format!(" {word} {value}");
        }
    }
    let boxes = [
        ("body", now.body, was.map(|w| w.body)),
        ("will", now.willpower, was.map(|w| w.willpower)),
    ];
    for (word, value, before) in boxes {
        if let Some(v) = value.filter(|_| before != Some(value)) {
            out += &format!(" {word} {v}");
        }
    }
    out
}

fn action_words(a: &ActionChoice) -> String {
    match a {
        ActionChoice::Type(t) => t.label().to_lowercase(),
        ActionChoice::Named {
            name,
            as_type,
            mode,
        } => {
            let mut words = quote(name);
            if let Some(t) = as_type {
                words.push_str(&format!(" as {}", t.label().to_lowercase()));
            }
            if let Some(m) = mode {
                words.push_str(&format!(" mode {}", quote(m)));
            }
            words
        }
    }
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::Pc => "pc",
        Side::Npc => "npc",
    }
}

/// Runs a command on an encounter and records it with its text in the command language: the
/// usual way to call `Encounter::execute`. Another system's command is refused with this table's
/// forms of its verb ([`synopses::with_forms`]).
pub fn execute<'e>(
    enc: &'e mut Encounter,
    command: Command,
    dice: &mut dyn Dice,
) -> Result<&'e Entry, RuleError> {
    enc.execute(command, dice, format)
        .map_err(synopses::with_forms)
}

/// A setup line of `add` or `edit` in the words `system` takes: at an Anarchy table, which has
/// no initiative, without `int`, `rea`, `mod`, `ip` (each with its number) and `shared`.
#[cfg(test)]
pub(crate) fn sheet_line(system: System, line: &str) -> String {
    if system.uses(SheetField::Intuition) {
        return line.to_string();
    }
    let mut out: Vec<&str> = Vec::new();
    let mut words = line.split(' ');
    while let Some(w) = words.next() {
        match w {
            "int" | "rea" | "mod" | "ip" => {
                words.next();
            }
            "shared" => {}
            _ => out.push(w),
        }
    }
    out.join(" ")
}

/// Who a roll is for, in the language.
fn target_words(target: RollTarget, state: &State) -> String {
    match target {
        RollTarget::All => "all".to_string(),
        RollTarget::Npcs => "npcs".to_string(),
        RollTarget::One(id) => quote(state.name(id)),
        RollTarget::Group(g) => quote(
            state
                .groups
                .get(g.0 as usize)
                .map_or("?", |g| g.name.as_str()),
        ),
    }
}

/// Writes a command in the language, naming combatants as they are in `state` (before it runs).
pub fn format(command: &Command, state: &State) -> String {
    let n = |id: CombatantId| quote(state.name(id));
    match command {
        Command::Add(a) => {
            let count = a.count.map(|c| format!(" x{c}")).unwrap_or_default();
            let shared = if a.shared_roll { " shared" } else { "" };
            let hidden = if a.hidden { " hidden" } else { "" };
            format!(
                "add {}{count} {}{}{shared}{hidden}",
                quote(&a.name),
                side_word(a.side),
                sheet_words(&a.sheet, state.system)
            )
        }
        Command::Edit {
            who,
            name,
            side,
            sheet,
        } => {
            let name = name
                .as_ref()
                .map(|nm| format!(" name {}", quote(nm)))
                .unwrap_or_default();
            let side = side
                .map(|s| format!(" {}", side_word(s)))
                .unwrap_or_default();
            let was = state.get(*who).map(sheet_input);
            format!(
                "edit {}{name}{side}{}",
                n(*who),
                edit_words(was.as_ref(), sheet)
            )
        }
        Command::Remove { who, reason } => match reason {
            Some(r) => format!("remove {} because {r}", n(*who)),
            None => format!("remove {}", n(*who)),
        },
        Command::Roll { target, typed } => {
            let target = target_words(*target, state);
            match typed {
                Some((hits, true)) => format!("roll {target} hits {hits} glitch"),
                Some((hits, false)) => format!("roll {target} hits {hits}"),
                None => format!("roll {target}"),
            }
        }
        Command::Start => "start".into(),
        Command::Next => "next".into(),
        Command::SpendAction { who, action } => format!("act {} {}", n(*who), action_words(action)),
        Command::UseEdge { who } => format!("edge {}", n(*who)),
        Command::Delay { who, ip, trigger } => match trigger {
            Some(t) => format!("delay {} {ip} after {}", n(*who), n(*t)),
            None => format!("delay {} {ip}", n(*who)),
        },
        Command::NameDelayTrigger { who, trigger } => {
            format!("delay {} after {}", n(*who), n(*trigger))
        }
        Command::Ready {
            who,
            ip,
            trigger,
            actions,
        } => {
            let ip = ip.map(|i| format!(" {i}")).unwrap_or_default();
            let actions: Vec<String> = actions.iter().map(action_words).collect();
            format!(
                "ready {}{ip} when {} do {}",
                n(*who),
                quote(trigger),
                actions.join(", ")
            )
        }
        Command::FireReady {
            who,
            trigger,
            timing,
        } => format!("fire {} {} {}", n(*who), trigger + 1, timing.word()),
        Command::ChangeInitiative {
            who,
            relative,
            target,
        } => format!("move {} {} {}", n(*who), relative.word(), n(*target)),
        Command::SetDowned { who, downed } => {
            format!("{} {}", if *downed { "down" } else { "up" }, n(*who))
        }
        Command::Damage { who, track, boxes } => each_words(
            &n(*who),
            &Each::Damage {
                track: *track,
                boxes: *boxes,
            },
        ),
        Command::Heal { who, track, boxes } => each_words(
            &n(*who),
            &Each::Heal {
                track: *track,
                boxes: *boxes,
            },
        ),
        Command::AddStatus { who, text, until } => each_words(
            &n(*who),
            &Each::AddStatus {
                text: text.clone(),
                until: *until,
            },
        ),
        Command::ClearStatus { who, name } => {
            each_words(&n(*who), &Each::ClearStatus { name: name.clone() })
        }
        Command::ForEach { who, each } => {
            let names: Vec<String> = who.iter().map(|id| n(*id)).collect();
            each_words(&names.join(", "), each)
        }
        Command::SetVisibility { who, visibility } => {
            let names: Vec<String> = who.iter().map(|id| n(*id)).collect();
            format!("{} {}", visibility.verb(), names.join(", "))
        }
        Command::End => "end".into(),
        Command::Sr2097(c) => sr2097::format(c, state),
        Command::Sr5(c) => sr5::format(c, state),
        Command::Anarchy(c) => anarchy::format(c, state),
    }
}

/// A command aimed at `targets` (one name, or names joined by commas), in the language.
fn each_words(targets: &str, each: &Each) -> String {
    match each {
        Each::Damage { track, boxes } => {
            format!("damage {targets} {boxes} {}", track.label().to_lowercase())
        }
        Each::Heal { track, boxes } => {
            format!("heal {targets} {boxes} {}", track.label().to_lowercase())
        }
        Each::AddStatus { text, until } => {
            let until = match until {
                Some(StatusUntil::ThisTurn) => " until turn",
                Some(StatusUntil::NextTurn) => " until next",
                Some(StatusUntil::Round) => " until round",
                Some(StatusUntil::Never) => " until never",
                None => "",
            };
            format!("status {targets} {}{until}", quote(text))
        }
        Each::ClearStatus { name } => format!("clear {targets} {}", quote(name)),
    }
}
