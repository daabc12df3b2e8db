//! SR5's words in the command language: `test`, `teamwork`, `closecall`, `odds`, `attack`,
//! `weapon`, `reload`, `armor`, parsed and written back.

use super::{ParseError, Parser, quote};
use crate::encounter::query::Attack;
use crate::encounter::system::System;
use crate::encounter::system::sr5::{
    Against, AttackInput, OddsAgainst, OddsInput, PoolInput, Sr5Command, StepInput, TeamworkInput,
    TestInput, WeaponInput,
};
use crate::encounter::{CombatantId, Command, State};
use crate::rules::Glitch;
use crate::rules::sr5::combat::DamageType;
use crate::rules::sr5::test::Given;

const LIMIT: &str = "the limit (a number)";
const THRESHOLD: &str = "the threshold (a number)";

/// Words of SR5's commands a name must be quoted around when written back.
const KEYWORDS: &[&str] = &[
    "limit",
    "threshold",
    "vs",
    "push",
    "dice",
    "hits",
    "critical",
    "skill",
    "with",
    "pool",
    "defense",
    "soak",
    "add",
    "dv",
    "ap",
    "acc",
    "accuracy",
    "ammo",
    "aim",
    "closecall",
];

fn sr5_quote(text: &str) -> String {
    let risky = text
        .split_whitespace()
        .any(|w| KEYWORDS.contains(&w.to_lowercase().as_str()));
    if risky && !text.contains('"') {
        format!("\"{text}\"")
    } else {
        quote(text)
    }
}

/// What a parsed SR5 line is: a command, or a question that is never recorded.
pub enum Parsed {
    Command(Command),
    Odds(OddsInput),
}

/// A roll as typed in a form's field: the faces (`6 5 1 1 3`, or `dice 6 5 1 1 3`), `hits N
/// [glitch|critical]`, or nothing for srtrack to roll it. The same words as on the command line.
pub fn typed_roll(
    text: &str,
    state: &State,
    catalogue: &crate::catalogue::Catalogue,
) -> Result<Given, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Given::Roll);
    }
    let line = if text.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        format!("dice {text}")
    } else {
        text.to_string()
    };
    let mut p = Parser {
        words: super::tokenize(&line)?,
        at: 0,
        state,
        catalogue,
        attacker: None,
        verb: None,
        unfinished: None,
    };
    let given = p.given()?;
    p.finish()?;
    given.ok_or_else(|| p.error("the faces the dice show (`6 5 1 3`) or `hits N`"))
}

impl Parser<'_> {
    /// Parses the rest of a line whose verb is one of SR5's.
    pub(super) fn sr5(&mut self, verb: &str) -> Result<Parsed, ParseError> {
        let c = match verb {
            "test" => Sr5Command::Test(self.sr5_test()?),
            "teamwork" => Sr5Command::Teamwork(self.teamwork()?),
            "closecall" => {
                let who = self.combatant()?;
                if self.eat("initiative") {
                    Sr5Command::CloseCallInitiative { who }
                } else {
                    Sr5Command::CloseCall { who }
                }
            }
            "odds" => return Ok(Parsed::Odds(self.odds()?)),
            "attack" => Sr5Command::Attack(self.attack()?),
            "weapon" => self.weapon()?,
            "reload" => {
                let who = self.combatant()?;
                let weapon = self.weapon_name(who, &[]);
                Sr5Command::Reload { who, weapon }
            }
            "armor" => Sr5Command::Armor {
                who: self.combatant()?,
                rating: self.number("the armor rating (a number)")?,
            },
            _ => unreachable!("lang::Parser::line sends only SR5's verbs here"),
        };
        Ok(Parsed::Command(Command::Sr5(c)))
    }

    /// A typed-in roll: `dice F F …` or `hits N [glitch|critical]`; `None` when neither follows.
    pub(super) fn given(&mut self) -> Result<Option<Given>, ParseError> {
        if self.eat("dice") {
            let mut faces = Vec::new();
            while let Some(n) = self.optional_number() {
                faces.push(n);
            }
            if faces.is_empty() {
                return Err(self.error("the faces the dice show, e.g. `dice 6 5 1 3`"));
            }
            return Ok(Some(Given::Dice(faces)));
        }
        if self.eat("hits") {
            let hits = self.number("the number of hits")?;
            let glitch = if self.eat("glitch") {
                Glitch::Glitch
            } else if self.eat("critical") {
                let _ = self.eat("glitch");
                Glitch::Critical
            } else {
                Glitch::None
            };
            return Ok(Some(Given::Hits { hits, glitch }));
        }
        Ok(None)
    }

    fn sr5_test(&mut self) -> Result<TestInput, ParseError> {
        let who = self.combatant()?;
        let pool = self.number("the dice pool (a number)")?;
        let mut given = self.given()?;
        let mut limit = None;
        let mut against = None;
        let mut push = false;
        loop {
            if self.keyword_number("limit", &mut limit, LIMIT)? {
            } else if self.peek_is("threshold") || self.peek_is("vs") {
                self.once(against.as_ref(), "`threshold` or `vs`")?;
                against = Some(self.against(who, given.is_some())?);
            } else if self.flag(&["push"], &mut push)? {
            } else if given.is_none()
                && let Some(g) = self.given()?
            {
                given = Some(g);
            } else {
                break;
            }
        }
        self.done("limit N, threshold N, vs NAME POOL, push, dice … or hits N")?;
        Ok(TestInput {
            who,
            pool: PoolInput {
                pool,
                given: given.unwrap_or_default(),
            },
            limit,
            against: against.unwrap_or(Against::Open),
            push,
        })
    }

    /// `threshold N` or `vs NAME POOL [dice …|hits N]`. The dice after the opponent's pool are
    /// the opponent's; typed there while the tester's are not typed yet, they would be read as
    /// the tester's by a GM and as the opponent's by srtrack, so that is refused.
    fn against(&mut self, tester: CombatantId, tester_typed: bool) -> Result<Against, ParseError> {
        if self.eat("threshold") {
            return Ok(Against::Threshold(self.number(THRESHOLD)?));
        }
        let _ = self.eat("vs");
        let who = self.combatant()?;
        let pool = self.number("the opponent's dice pool (a number)")?;
        if !tester_typed && (self.peek_is("dice") || self.peek_is("hits")) {
            let (t, o) = (quote(self.state.name(tester)), quote(self.state.name(who)));
            return Err(self.error(format!(
                "{t}'s dice after {t}'s pool first: the dice after {o}'s pool are {o}'s \
                 (`test {t} 3 dice 6 5 1 vs {o} 4 dice 2 1 1 5`)"
            )));
        }
        let given = self.given()?.unwrap_or_default();
        Ok(Against::Opponent {
            who,
            pool: PoolInput { pool, given },
        })
    }

    /// Anything left on the line is a word out of place.
    fn done(&self, expected: &str) -> Result<(), ParseError> {
        match self.peek() {
            Some(_) => Err(self.error(expected)),
            None => Ok(()),
        }
    }

    fn teamwork(&mut self) -> Result<TeamworkInput, ParseError> {
        let leader = self.combatant()?;
        let pool = self.number("the leader's dice pool (a number)")?;
        let mut given = self.given()?;
        let (mut limit, mut threshold, mut skill) = (None, None, None);
        let mut push = false;
        loop {
            if self.keyword_number("limit", &mut limit, LIMIT)?
                || self.keyword_number("threshold", &mut threshold, THRESHOLD)?
                || self.keyword_number(
                    "skill",
                    &mut skill,
                    "the leader's skill rating (a number)",
                )?
                || self.flag(&["push"], &mut push)?
            {
            } else if given.is_none()
                && let Some(g) = self.given()?
            {
                given = Some(g);
            } else {
                break;
            }
        }
        if !self.eat("with") {
            return Err(self.error(
                "limit N, threshold N, skill N, push, dice …, or `with` and the assistants",
            ));
        }
        let mut assistants = Vec::new();
        let mut close_calls = Vec::new();
        loop {
            let who = self.combatant()?;
            let pool = self.number("the assistant's dice pool (a number)")?;
            let mut given = self.given()?;
            let mut close_call = false;
            loop {
                if self.flag(&["closecall"], &mut close_call)? {
                } else if given.is_none()
                    && let Some(g) = self.given()?
                {
                    given = Some(g);
                } else {
                    break;
                }
            }
            if close_call {
                close_calls.push(who);
            }
            let given = given.unwrap_or_default();
            assistants.push((who, PoolInput { pool, given }));
            if !self.eat(",") {
                break;
            }
        }
        self.done("`closecall`, dice …, or `,` and another assistant")?;
        Ok(TeamworkInput {
            leader,
            pool: PoolInput {
                pool,
                given: given.unwrap_or_default(),
            },
            limit,
            threshold,
            skill,
            push,
            assistants,
            close_calls,
        })
    }

    fn odds(&mut self) -> Result<OddsInput, ParseError> {
        let pool = self.number("the dice pool (a number)")?;
        let mut limit = None;
        let mut against = None;
        loop {
            if self.keyword_number("limit", &mut limit, LIMIT)? {
            } else if self.peek_is("threshold") || self.peek_is("vs") {
                self.once(against.as_ref(), "`threshold` or `vs`")?;
                against = Some(if self.eat("vs") {
                    OddsAgainst::Pool(self.number("the opposing pool (a number)")?)
                } else {
                    self.at += 1;
                    OddsAgainst::Threshold(self.number(THRESHOLD)?)
                });
            } else {
                break;
            }
        }
        self.done("limit N, threshold N or vs POOL")?;
        Ok(OddsInput {
            pool,
            limit,
            against: against.unwrap_or(OddsAgainst::Open),
        })
    }

    /// A weapon of `who` by the longest name on their sheet, else the words up to one of
    /// `stops` (the engine says if no such weapon exists); `None` at the end of the line.
    fn weapon_name(&mut self, who: CombatantId, stops: &[&str]) -> Option<String> {
        let state = self.state;
        let known = state.sr5.kit(who).map(|k| &k.weapons);
        if let Some(name) = self.longest(|s| {
            known
                .and_then(|ws| ws.iter().find(|w| w.name.eq_ignore_ascii_case(s)))
                .map(|w| w.name.clone())
        }) {
            return Some(name);
        }
        let text = self.text_until(stops);
        Some(text).filter(|t| !t.is_empty())
    }

    fn step(&mut self, pool_needed: bool) -> Result<StepInput, ParseError> {
        let pool = if pool_needed {
            Some(self.number("the attacker's dice pool (a number)")?)
        } else {
            self.optional_number()
        };
        let given = self.given()?.unwrap_or_default();
        Ok(StepInput { pool, given })
    }

    fn attack(&mut self) -> Result<AttackInput, ParseError> {
        let attacker = self.combatant()?;
        // An attack roll (`pool`) checks its attacker before its targets; a chain under way
        // (`defense`, `soak`) goes on without.
        let roll = self.words[self.at..]
            .iter()
            .any(|w| !w.quoted && w.text.eq_ignore_ascii_case("pool"));
        let members = if roll {
            self.attacker = Some((attacker, Attack::Armed(None), System::Sr5));
            super::Members::Standing
        } else {
            super::Members::Continued(attacker)
        };
        let targets = self.targets_of(members)?;
        let mut a = AttackInput {
            attacker,
            targets,
            weapon: None,
            attack: None,
            defense: None,
            soak: None,
            push: false,
            aim: None,
        };
        loop {
            if self.peek_is("with") {
                self.once(a.weapon.as_ref(), "`with`")?;
                self.at += 1;
                a.weapon = self.weapon_name(attacker, &["pool", "defense", "soak"]);
                if a.weapon.is_none() {
                    return Err(self.error("the weapon's name"));
                }
            } else if self.peek_is("pool") {
                self.once(a.attack.as_ref(), "`pool`")?;
                self.at += 1;
                a.attack = Some(self.step(true)?);
            } else if self.flag(&["push"], &mut a.push)?
                || self.keyword_number(
                    "aim",
                    &mut a.aim,
                    "the Take Aim actions put on Accuracy (a number)",
                )?
            {
            } else if self.peek_is("defense") {
                self.once(a.defense.as_ref(), "`defense`")?;
                self.at += 1;
                a.defense = Some(self.step(false)?);
            } else if self.peek_is("soak") {
                self.once(a.soak.as_ref(), "`soak`")?;
                self.at += 1;
                a.soak = Some(self.step(false)?);
            } else {
                break;
            }
        }
        self.done("with WEAPON, pool N, push, aim N, defense [N] or soak [N]")?;
        Ok(a)
    }

    fn weapon(&mut self) -> Result<Sr5Command, ParseError> {
        let who = self.combatant()?;
        if self.eat("remove") {
            let name = self.text_until(&[]);
            if name.is_empty() {
                return Err(self.error("the weapon to remove"));
            }
            return Ok(Sr5Command::RemoveWeapon { who, name });
        }
        if !self.eat("add") {
            return Err(self.error("`add` and the weapon, or `remove` and the weapon"));
        }
        let stops = ["dv", "ap", "acc", "accuracy", "ammo"];
        let name = self.text_until(&stops);
        if name.is_empty() {
            return Err(self.error("the weapon's name"));
        }
        let (mut dv, mut ap, mut acc, mut ammo) = (None, None, None, None);
        let mut damage = DamageType::Physical;
        loop {
            if self.peek_is("dv") {
                self.once(dv.as_ref(), "`dv`")?;
                self.at += 1;
                let (n, kind) = self.damage_value()?;
                dv = Some(n);
                damage = kind;
            } else if self.peek_is("ap") {
                self.once(ap.as_ref(), "`ap`")?;
                self.at += 1;
                ap = Some(self.number("the armor penetration (a number, e.g. -1)")?);
            } else if self.peek_is("acc") || self.peek_is("accuracy") {
                self.once(acc.as_ref(), "`acc`")?;
                self.at += 1;
                acc = Some(self.number("the accuracy (a number)")?);
            } else if self.peek_is("ammo") {
                self.once(ammo.as_ref(), "`ammo`")?;
                self.at += 1;
                ammo = Some(self.number("the rounds it holds (a number)")?);
            } else {
                break;
            }
        }
        self.done("dv N [p|s], ap N, acc N or ammo N")?;
        let Some(dv) = dv else {
            return Err(self.error("`dv N` (the damage value)"));
        };
        let Some(accuracy) = acc else {
            return Err(self.error("`acc N` (the accuracy, the attack's limit)"));
        };
        Ok(Sr5Command::AddWeapon {
            who,
            weapon: WeaponInput {
                name,
                dv,
                damage,
                ap: ap.unwrap_or(0),
                accuracy,
                ammo,
            },
        })
    }

    /// `8`, `8 p`, `8P`, `6 s`, `6S`.
    fn damage_value(&mut self) -> Result<(i32, DamageType), ParseError> {
        let word = self
            .peek()
            .map(|w| w.text.to_lowercase())
            .unwrap_or_default();
        let kind = |c: char| match c {
            's' => Some(DamageType::Stun),
            'p' => Some(DamageType::Physical),
            _ => None,
        };
        if let Some(last) = word.chars().last()
            && let Some(k) = kind(last)
            && let Ok(n) = word[..word.len() - 1].parse::<i32>()
        {
            self.at += 1;
            return Ok((n, k));
        }
        let n = self.number("the damage value (a number, e.g. 8 or 8P)")?;
        let k = if self.eat("s") || self.eat("stun") {
            DamageType::Stun
        } else {
            let _ = self.eat("p") || self.eat("physical");
            DamageType::Physical
        };
        Ok((n, k))
    }
}

fn given_words(given: &Given) -> String {
    match given {
        Given::Roll => String::new(),
        Given::Dice(faces) => {
            let faces: Vec<String> = faces.iter().map(i32::to_string).collect();
            format!(" dice {}", faces.join(" "))
        }
        Given::Hits { hits, glitch } => match glitch {
            Glitch::None => format!(" hits {hits}"),
            Glitch::Glitch => format!(" hits {hits} glitch"),
            Glitch::Critical => format!(" hits {hits} critical"),
        },
    }
}

fn pool_words(p: &PoolInput) -> String {
    format!("{}{}", p.pool, given_words(&p.given))
}

fn step_words(keyword: &str, step: Option<&StepInput>) -> String {
    match step {
        None => String::new(),
        Some(s) => {
            let n = s.pool.map(|n| format!(" {n}")).unwrap_or_default();
            format!(" {keyword}{n}{}", given_words(&s.given))
        }
    }
}

fn opt(keyword: &str, value: Option<i32>) -> String {
    value.map(|v| format!(" {keyword} {v}")).unwrap_or_default()
}

/// Writes an SR5 command in the language, naming combatants as they are in `state`.
pub(super) fn format(command: &Sr5Command, state: &State) -> String {
    let n = |id: CombatantId| quote(state.name(id));
    let push = |p: bool| if p { " push" } else { "" };
    match command {
        Sr5Command::Test(t) => {
            let against = match &t.against {
                Against::Open => String::new(),
                Against::Threshold(x) => format!(" threshold {x}"),
                Against::Opponent { who, pool } => format!(" vs {} {}", n(*who), pool_words(pool)),
            };
            format!(
                "test {} {}{}{against}{}",
                n(t.who),
                pool_words(&t.pool),
                opt("limit", t.limit),
                push(t.push)
            )
        }
        Sr5Command::Teamwork(t) => {
            let helpers: Vec<String> = t
                .assistants
                .iter()
                .map(|(who, p)| {
                    let close_call = if t.close_calls.contains(who) {
                        " closecall"
                    } else {
                        ""
                    };
                    format!("{} {}{close_call}", n(*who), pool_words(p))
                })
                .collect();
            format!(
                "teamwork {} {}{}{}{}{} with {}",
                n(t.leader),
                pool_words(&t.pool),
                opt("limit", t.limit),
                opt("threshold", t.threshold),
                opt("skill", t.skill),
                push(t.push),
                helpers.join(", ")
            )
        }
        Sr5Command::CloseCall { who } => format!("closecall {}", n(*who)),
        Sr5Command::CloseCallInitiative { who } => format!("closecall {} initiative", n(*who)),
        Sr5Command::Odds(q) => odds_words(q),
        Sr5Command::Attack(a) => {
            let with = a
                .weapon
                .as_deref()
                .map(|w| format!(" with {}", sr5_quote(w)))
                .unwrap_or_default();
            let targets: Vec<String> = a.targets.iter().map(|t| n(*t)).collect();
            format!(
                "attack {} {}{with}{}{}{}{}{}",
                n(a.attacker),
                targets.join(", "),
                step_words("pool", a.attack.as_ref()),
                push(a.push),
                opt("aim", a.aim),
                step_words("defense", a.defense.as_ref()),
                step_words("soak", a.soak.as_ref())
            )
        }
        Sr5Command::AddWeapon { who, weapon: w } => {
            let kind = match w.damage {
                DamageType::Physical => "p",
                DamageType::Stun => "s",
            };
            format!(
                "weapon {} add {} dv {} {kind} ap {} acc {}{}",
                n(*who),
                sr5_quote(&w.name),
                w.dv,
                w.ap,
                w.accuracy,
                opt("ammo", w.ammo)
            )
        }
        Sr5Command::RemoveWeapon { who, name } => {
            format!("weapon {} remove {}", n(*who), sr5_quote(name))
        }
        Sr5Command::Reload { who, weapon } => match weapon {
            Some(w) => format!("reload {} {}", n(*who), sr5_quote(w)),
            None => format!("reload {}", n(*who)),
        },
        Sr5Command::Armor { who, rating } => format!("armor {} {rating}", n(*who)),
        Sr5Command::Act { who, action, given } => format!(
            "act {} {}{}",
            n(*who),
            super::action_words(action),
            given_words(given)
        ),
    }
}

/// `odds 10 limit 4 threshold 3`.
pub fn odds_words(q: &OddsInput) -> String {
    let against = match q.against {
        OddsAgainst::Open => String::new(),
        OddsAgainst::Threshold(x) => format!(" threshold {x}"),
        OddsAgainst::Pool(x) => format!(" vs {x}"),
    };
    format!("odds {}{}{against}", q.pool, opt("limit", q.limit))
}
