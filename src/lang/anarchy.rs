//! Shadowrun: Anarchy's words in the command language: `narrate`, `seating`, `sheet`, `pp`,
//! `gm`, `atest`, `aodds`, `cooldown`, and `damage`/`heal` on the Armor and Matrix tracks.

use super::{ParseError, Parser, quote};
use crate::encounter::system::anarchy::{
    Amp, AnarchyCommand, AwardReason, GearTrack, OrderChange, PoolInput, SpendInput, TestInput,
    TypedDice,
};
use crate::encounter::{CombatantId, Command, State};
use crate::rules::anarchy::test::Edge;

/// The verbs, with their synopses (help and completion show them).
pub const VERBS: &[(&str, &str)] = &[
    ("narrate", "narrate [NAME]"),
    ("seating", "seating NAME, NAME, ..."),
    ("sheet", "sheet NAME [armor N] [matrix N] [amp on|off]"),
    (
        "pp",
        "pp NAME award [cue TEXT|disposition TEXT|TEXT] | pp NAME spend WHAT [on NAME] [: TEXT]",
    ),
    (
        "gm",
        "gm spend WHAT [on NAME] [: TEXT] | gm order reverse|random",
    ),
    (
        "atest",
        "atest NAME POOL vs POOL [team N] [edge before|after] [glitchdie] [dice A B ... [vs C D ...]]",
    ),
    (
        "aodds",
        "aodds POOL vs POOL [team N] [edge before|after] [glitchdie]",
    ),
    ("cooldown", "cooldown NAME THING[, NAME THING ...]"),
];

const POOL_HINT: &str =
    "a pool: N, SKILL+ATTRIBUTE[+MOD], untrained ATTRIBUTE[+MOD] or attr A+B[+MOD]";

impl Parser<'_> {
    /// One of Anarchy's verbs, already read.
    pub(super) fn anarchy(&mut self, verb: &str) -> Result<Command, ParseError> {
        let command = match verb {
            "narrate" => AnarchyCommand::Narrate {
                who: if self.peek().is_some() {
                    Some(self.combatant()?)
                } else {
                    None
                },
            },
            "seating" => {
                let mut seating = vec![self.combatant()?];
                while self.peek().is_some() {
                    self.eat(",");
                    seating.push(self.combatant()?);
                }
                AnarchyCommand::Seat { seating }
            }
            "sheet" => self.sheet()?,
            "pp" => {
                let who = self.combatant()?;
                if self.eat("award") {
                    AnarchyCommand::Award {
                        who,
                        reason: self.award_reason(),
                    }
                } else if self.eat("spend") {
                    AnarchyCommand::Spend {
                        who,
                        spend: self.spend()?,
                    }
                } else {
                    return Err(self.error("`award` or `spend`"));
                }
            }
            "gm" => {
                if self.eat("spend") {
                    AnarchyCommand::GmSpend {
                        spend: self.spend()?,
                    }
                } else if self.eat("order") {
                    let change = if self.eat("reverse") {
                        OrderChange::Reverse
                    } else if self.eat("random") {
                        OrderChange::Random
                    } else {
                        return Err(self.error("`reverse` or `random`"));
                    };
                    AnarchyCommand::GmOrder { change }
                } else {
                    return Err(self.error("`spend` or `order`"));
                }
            }
            "atest" => {
                let who = self.combatant()?;
                let test = self.test()?;
                let dice = if self.eat("dice") {
                    // A pool of no dice has no faces: `dice vs 5 5` types the opposing ones.
                    let actor = if self.peek_is("vs") {
                        Vec::new()
                    } else {
                        self.faces()?
                    };
                    let opposing = if self.eat("vs") {
                        Some(self.faces()?)
                    } else {
                        None
                    };
                    Some(TypedDice { actor, opposing })
                } else {
                    None
                };
                AnarchyCommand::Test { who, test, dice }
            }
            "cooldown" => {
                // A list as `damage` takes: each comma starts another character's thing.
                let mut things = Vec::new();
                loop {
                    let who = self.combatant()?;
                    let thing = self.text_until(&[","]);
                    if thing.is_empty() {
                        return Err(self.error("the thing going on Cooldown"));
                    }
                    things.push((who, thing));
                    if !self.eat(",") {
                        break;
                    }
                }
                AnarchyCommand::Cooldown { things }
            }
            _ => return Err(self.error("an Anarchy command")),
        };
        Ok(Command::Anarchy(command))
    }

    /// `edge NAME after [dice A B …]` (Anarchy): Edge on seeing the roll; `dice`, the table's
    /// new dice for the misses.
    pub(super) fn edge_after(&mut self, who: CombatantId) -> Result<Command, ParseError> {
        let dice = if self.eat("dice") {
            Some(self.faces()?)
        } else {
            None
        };
        Ok(Command::Anarchy(AnarchyCommand::EdgeAfter { who, dice }))
    }

    /// `edge NAME regain [N]` (Anarchy): N, 1 when not given.
    pub(super) fn regain_edge(&mut self, who: CombatantId) -> Command {
        let edge = self.optional_number().unwrap_or(1);
        Command::Anarchy(AnarchyCommand::RegainEdge { who, edge })
    }

    /// `armor` or `matrix` after `damage NAME N` or `heal NAME N`.
    pub(super) fn gear_track(&mut self) -> Option<GearTrack> {
        if self.eat("armor") || self.eat("armour") {
            Some(GearTrack::Armor)
        } else if self.eat("matrix") {
            Some(GearTrack::Matrix)
        } else {
            None
        }
    }

    fn sheet(&mut self) -> Result<AnarchyCommand, ParseError> {
        let who = self.combatant()?;
        let (mut armor, mut matrix, mut amp) = (None, None, None);
        // Each keyword once: `armor 3 armor 4` is refused, not read as its last one.
        loop {
            if self.keyword_number("armor", &mut armor, "the Armor boxes (a number)")?
                || self.keyword_number("armour", &mut armor, "the Armor boxes (a number)")?
                || self.keyword_number("matrix", &mut matrix, "the Matrix boxes (a number)")?
            {
                continue;
            }
            if self.keyword_once("amp", amp.as_ref())? {
                amp = Some(if self.eat("on") {
                    Amp::BonusPlotPoint
                } else if self.eat("off") {
                    Amp::None
                } else {
                    return Err(self.error("`on` or `off` (a Shadow Amp giving a Plot Point)"));
                });
            } else {
                break;
            }
        }
        if armor.is_none() && matrix.is_none() && amp.is_none() {
            return Err(self.error("`armor N`, `matrix N` or `amp on|off`"));
        }
        Ok(AnarchyCommand::Sheet {
            who,
            armor,
            matrix,
            amp,
        })
    }

    fn award_reason(&mut self) -> AwardReason {
        if self.eat("cue") {
            AwardReason::Cue(self.text_until(&[]))
        } else if self.eat("disposition") {
            AwardReason::Disposition(self.text_until(&[]))
        } else {
            let text = self.text_until(&[]);
            if text.is_empty() {
                AwardReason::Unsaid
            } else {
                AwardReason::Other(text)
            }
        }
    }

    /// `WHAT [on NAME] [TEXT]` or `WHAT [on NAME]: TEXT`; an `on` before the colon must be
    /// followed by a character's name (in full or in short), once.
    fn spend(&mut self) -> Result<SpendInput, ParseError> {
        // A colon ends the spend's words: "threat:" is "threat" then ":".
        let mut i = self.at;
        while i < self.words.len() {
            let w = &self.words[i];
            if !w.quoted && w.text.len() > 1 && w.text.ends_with(':') {
                let head = w.text.trim_end_matches(':').to_string();
                self.words[i].text = head;
                self.words.insert(
                    i + 1,
                    super::Word {
                        text: ":".into(),
                        quoted: false,
                    },
                );
            }
            i += 1;
        }
        let mut words = Vec::new();
        let mut rest = Vec::new();
        let mut note = Vec::new();
        let mut on = None;
        let mut noted = false;
        while let Some(w) = self.peek().cloned() {
            if !noted && !w.quoted && w.text == ":" {
                noted = true;
                self.at += 1;
                continue;
            }
            // Before the colon, `on` always names whom the spend is for: a mistyped or
            // ambiguous name is refused, not kept as words (words with "on" go after `:`).
            if !noted && !w.quoted && w.text.eq_ignore_ascii_case("on") {
                self.once(on.as_ref(), "`on NAME`")?;
                self.at += 1;
                on = Some(self.combatant()?);
                continue;
            }
            self.at += 1;
            if noted {
                note.push(w.text);
            } else if on.is_some() {
                rest.push(w.text);
            } else {
                words.push(w.text);
            }
        }
        if words.is_empty() {
            return Err(self.error("what the Plot Points buy (e.g. surprise threat, glitch die)"));
        }
        // A free text is 1 character or more: a colon with nothing after it is a note left
        // out, refused as an empty status text is, not taken as no note.
        if noted && note.iter().all(|w| w.trim().is_empty()) {
            return Err(self.error("the note after `:` (a few words, or no `:` for none)"));
        }
        Ok(SpendInput {
            words: words.join(" "),
            on,
            rest: rest.join(" "),
            note: note.join(" "),
        })
    }

    /// `POOL vs POOL [team N] [edge before|after] [glitchdie]`.
    pub(super) fn test(&mut self) -> Result<TestInput, ParseError> {
        let pool = self.pool()?;
        if !self.eat("vs") {
            return Err(self.error("`vs` and the opposing pool"));
        }
        let opposing = self.pool()?;
        let mut test = TestInput {
            pool,
            opposing,
            teamwork: 0,
            edge: Edge::None,
            glitch_die: false,
        };
        // Each option once: `edge before edge after` or `team 1 team 3` is refused, not read
        // as its last word.
        let (mut team, mut edge, mut glitch_die) = (None, None, None);
        loop {
            if self.keyword_number("team", &mut team, "the assistants' hits (a number)")? {
                continue;
            }
            if self.peek_is("edge") {
                self.once(edge.as_ref(), "`edge before` or `edge after`")?;
                self.at += 1;
                edge = Some(if self.eat("before") {
                    Edge::Before
                } else if self.eat("after") {
                    Edge::After
                } else {
                    return Err(self.error("`before` or `after`"));
                });
            } else if self.peek_is("glitchdie") {
                self.once(glitch_die.as_ref(), "`glitchdie`")?;
                self.at += 1;
                glitch_die = Some(true);
            } else {
                break;
            }
        }
        test.teamwork = team.unwrap_or(0);
        test.edge = edge.unwrap_or(Edge::None);
        test.glitch_die = glitch_die.unwrap_or(false);
        Ok(test)
    }

    /// A pool's numbers: `7`, `4+3`, `4+3-1`; spaces around the signs are allowed.
    fn pool_terms(&mut self) -> Result<Vec<i32>, ParseError> {
        let starts =
            |w: &super::Word| !w.quoted && w.text.starts_with(|c: char| c.is_ascii_digit());
        if !self.peek().is_some_and(starts) {
            return Err(self.error(POOL_HINT));
        }
        let first = self.at;
        let mut text = String::new();
        while let Some(w) = self.peek().filter(|w| !w.quoted) {
            let joins =
                text.is_empty() || text.ends_with(['+', '-']) || w.text.starts_with(['+', '-']);
            if !joins {
                break;
            }
            text.push_str(&w.text);
            self.at += 1;
        }
        let mut terms = Vec::new();
        let mut sign = 1;
        let mut digits = String::new();
        for ch in text.chars().chain(std::iter::once('+')) {
            match ch {
                '0'..='9' => digits.push(ch),
                '+' | '-' if !digits.is_empty() => {
                    // Too big for a number: the largest, so the range check tells the range.
                    let n = crate::text::int_word(&digits).unwrap_or(i32::MAX);
                    terms.push(sign * n);
                    digits.clear();
                    sign = if ch == '-' { -1 } else { 1 };
                }
                _ => {
                    return Err(ParseError {
                        word: first + 1,
                        found: Some(text.clone()),
                        expected: POOL_HINT.into(),
                        refusal: None,
                    });
                }
            }
        }
        Ok(terms)
    }

    fn pool(&mut self) -> Result<PoolInput, ParseError> {
        let start = self.at;
        let wrong = |p: &Self| ParseError {
            word: start + 1,
            found: p.words.get(start).map(|w| w.text.clone()),
            expected: POOL_HINT.into(),
            refusal: None,
        };
        let extra = |t: &[i32]| t.first().copied().unwrap_or(0);
        if self.eat("untrained") {
            let t = self.pool_terms()?;
            Self::one_modifier(&t, 2, start, "untrained ATTRIBUTE+MOD")?;
            return Ok(PoolInput::Untrained {
                attribute: t[0],
                modifier: extra(&t[1..]),
            });
        }
        if self.eat("attr") {
            let t = self.pool_terms()?;
            if t.len() < 2 {
                return Err(wrong(self));
            }
            Self::one_modifier(&t, 3, start, "attr A+B+MOD")?;
            return Ok(PoolInput::Attributes {
                first: t[0],
                second: t[1],
                modifier: extra(&t[2..]),
            });
        }
        let t = self.pool_terms()?;
        Self::one_modifier(&t, 3, start, "SKILL+ATTRIBUTE+MOD")?;
        Ok(match t.as_slice() {
            [n] => PoolInput::Dice(*n),
            [skill, attribute, rest @ ..] => PoolInput::Skill {
                skill: *skill,
                attribute: *attribute,
                modifier: extra(rest),
            },
            [] => return Err(wrong(self)),
        })
    }

    /// A pool takes one modifier: more than `most` numbers (`3+2+1+1`) is refused, not summed,
    /// so the log shows the pool as typed.
    fn one_modifier(
        terms: &[i32],
        most: usize,
        start: usize,
        form: &str,
    ) -> Result<(), ParseError> {
        if terms.len() <= most {
            return Ok(());
        }
        let typed = terms
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if i == 0 {
                    n.to_string()
                } else {
                    format!("{n:+}")
                }
            })
            .collect::<String>();
        Err(ParseError {
            word: start + 1,
            found: Some(typed.clone()),
            expected: POOL_HINT.into(),
            refusal: Some(format!(
                "the pool {typed} has {} modifiers, and a pool takes one ({form}): add them up into one",
                terms.len() - most + 1
            )),
        })
    }

    /// Die faces up to `vs` or the end of the line.
    fn faces(&mut self) -> Result<Vec<u8>, ParseError> {
        let mut faces = Vec::new();
        while let Some(w) = self.peek().filter(|w| !w.text.eq_ignore_ascii_case("vs")) {
            let Ok(f) = w.text.parse::<u8>() else {
                return Err(self.error("a die face (a number)"));
            };
            faces.push(f);
            self.at += 1;
        }
        if faces.is_empty() {
            return Err(self.error("die faces (numbers)"));
        }
        Ok(faces)
    }
}

fn pool_words(p: PoolInput) -> String {
    let signed = |m: i32| match m {
        0 => String::new(),
        m if m > 0 => format!("+{m}"),
        m => m.to_string(),
    };
    match p {
        PoolInput::Dice(n) => n.to_string(),
        PoolInput::Skill {
            skill,
            attribute,
            modifier,
        } => format!("{skill}+{attribute}{}", signed(modifier)),
        PoolInput::Untrained {
            attribute,
            modifier,
        } => format!("untrained {attribute}{}", signed(modifier)),
        PoolInput::Attributes {
            first,
            second,
            modifier,
        } => format!("attr {first}+{second}{}", signed(modifier)),
    }
}

/// A test in words: `4+3 vs 5 team 2 edge before glitchdie`.
pub fn test_words(t: &TestInput) -> String {
    let mut out = format!("{} vs {}", pool_words(t.pool), pool_words(t.opposing));
    if t.teamwork != 0 {
        out += &format!(" team {}", t.teamwork);
    }
    match t.edge {
        Edge::None => {}
        Edge::Before => out += " edge before",
        Edge::After => out += " edge after",
    }
    if t.glitch_die {
        out += " glitchdie";
    }
    out
}

fn spend_words(s: &SpendInput, state: &State) -> String {
    let mut out = s.words.clone();
    if let Some(on) = s.on {
        out += &format!(" on {}", quote(state.name(on)));
    }
    if !s.rest.is_empty() {
        out += &format!(" {}", s.rest);
    }
    if !s.note.is_empty() {
        out += &format!(": {}", s.note);
    }
    out
}

fn faces(d: &[u8]) -> String {
    d.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// Writes an Anarchy command in the language.
pub(super) fn format(command: &AnarchyCommand, state: &State) -> String {
    let n = |id: CombatantId| quote(state.name(id));
    match command {
        AnarchyCommand::Narrate { who: None } => "narrate".into(),
        AnarchyCommand::Narrate { who: Some(w) } => format!("narrate {}", n(*w)),
        AnarchyCommand::Seat { seating } => {
            let names: Vec<String> = seating.iter().map(|id| n(*id)).collect();
            format!("seating {}", names.join(", "))
        }
        AnarchyCommand::Sheet {
            who,
            armor,
            matrix,
            amp,
        } => {
            let mut out = format!("sheet {}", n(*who));
            if let Some(a) = armor {
                out += &format!(" armor {a}");
            }
            if let Some(m) = matrix {
                out += &format!(" matrix {m}");
            }
            match amp {
                Some(Amp::BonusPlotPoint) => out += " amp on",
                Some(Amp::None) => out += " amp off",
                None => {}
            }
            out
        }
        AnarchyCommand::Award { who, reason } => {
            let why = match reason {
                AwardReason::Unsaid | AwardReason::ShadowAmp => String::new(),
                AwardReason::Cue(c) => format!(" cue {c}"),
                AwardReason::Disposition(d) => format!(" disposition {d}"),
                AwardReason::Other(o) => format!(" {o}"),
            };
            format!("pp {} award{why}", n(*who))
        }
        AnarchyCommand::Spend { who, spend } => {
            format!("pp {} spend {}", n(*who), spend_words(spend, state))
        }
        AnarchyCommand::GmSpend { spend } => format!("gm spend {}", spend_words(spend, state)),
        AnarchyCommand::GmOrder {
            change: OrderChange::Reverse,
        } => "gm order reverse".into(),
        AnarchyCommand::GmOrder {
            change: OrderChange::Random,
        } => "gm order random".into(),
        AnarchyCommand::Test { who, test, dice } => {
            let mut out = format!("atest {} {}", n(*who), test_words(test));
            if let Some(d) = dice {
                out += &format!(" dice {}", faces(&d.actor));
                if let Some(o) = &d.opposing {
                    out += &format!(" vs {}", faces(o));
                }
            }
            out
        }
        AnarchyCommand::Cooldown { things } => {
            let each: Vec<String> = things
                .iter()
                .map(|(who, thing)| format!("{} {thing}", n(*who)))
                .collect();
            format!("cooldown {}", each.join(", "))
        }
        AnarchyCommand::Damage { who, track, boxes } => format!(
            "damage {} {boxes} {}",
            n(*who),
            track.label().to_lowercase()
        ),
        AnarchyCommand::RegainEdge { who, edge } => format!("edge {} regain {edge}", n(*who)),
        AnarchyCommand::EdgeAfter { who, dice: None } => format!("edge {} after", n(*who)),
        AnarchyCommand::EdgeAfter { who, dice: Some(d) } => {
            format!("edge {} after dice {}", n(*who), faces(d))
        }
        AnarchyCommand::Repair { who, track, boxes } => {
            format!("heal {} {boxes} {}", n(*who), track.label().to_lowercase())
        }
    }
}
