//! Shadowrun 2097's words in the command language: `sc`, `dmg NAME TARGET`, `armor NAME pt N dr
//! N`, `strength`, `weapon NAME add|remove`, `edge NAME boost|lessen|burn|award|rest|scenario`,
//! `roll NAME dice …` and `odds2097`, parsed and written back.

use super::{Line, ParseError, Parser, quote, target_words};
use crate::encounter::system::sr2097::{DamageSource, EdgeCommand, Sr2097Command, Tn, WeaponInput};
use crate::encounter::{CombatantId, Command, State, System, Track};

/// The words of a damage roll after its verb, read by `damage_words` (and `-` by the verb's
/// reader) and written by [`damage_text`]: one table, so that every word written is one read.
pub(super) struct DamageWords {
    /// In place of the attacker: damage with no one behind it (`dmg - TARGET 2d6+2`).
    pub no_attacker: &'static str,
    pub with: &'static str,
    pub mos: &'static str,
    pub edge: &'static str,
    pub dice: &'static str,
    pub stun: &'static str,
}

pub(super) const DAMAGE: DamageWords = DamageWords {
    no_attacker: "-",
    with: "with",
    mos: "mos",
    edge: "edge",
    dice: "dice",
    stun: "stun",
};

/// The words that end a name or a text in a 2097 command, with every spelling of Advantage
/// and Disadvantage ([`stops`] joins them).
const KEYWORDS: &[&str] = &[
    "tn",
    "bonus",
    DAMAGE.edge,
    DAMAGE.dice,
    "drop",
    DAMAGE.with,
    DAMAGE.mos,
    "pt",
    "dr",
    "add",
    "remove",
    "melee",
    DAMAGE.stun,
];

/// The spellings of a check's Advantage and of its Disadvantage: read by `check_words`, and
/// where a difficulty or a weapon's name of more than one word ends (`tn very easy advantage`).
const ADVANTAGE: &[&str] = &["adv", "advantage"];
const DISADVANTAGE: &[&str] = &["dis", "disadvantage"];

/// Every word that ends a name or a text in a 2097 command: the keywords, and each spelling of
/// Advantage and Disadvantage the check takes.
fn stops() -> Vec<&'static str> {
    [KEYWORDS, ADVANTAGE, DISADVANTAGE].concat()
}

/// What `odds2097` asks: the odds of a check before it is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OddsQuery {
    pub tn: Tn,
    pub bonus: i32,
    pub advantage: bool,
    pub disadvantage: bool,
    pub edge: bool,
}

impl OddsQuery {
    /// The check itself, for `who`, with the table's dice if typed in.
    pub fn check(self, who: CombatantId, dice: Option<Vec<i32>>, drop: Option<i32>) -> Command {
        Command::Sr2097(Sr2097Command::Check {
            who,
            tn: self.tn,
            bonus: self.bonus,
            advantage: self.advantage,
            disadvantage: self.disadvantage,
            edge: self.edge,
            dice,
            drop,
        })
    }
}

/// What follows `sc NAME` (or `odds2097`): the check, the typed dice, the face to drop.
type CheckWords = (OddsQuery, Option<Vec<i32>>, Option<i32>);

/// A damage roll's dice as numbers: how many, the die, and the ST if one is given.
pub type DiceExpr = (i32, i32, Option<i32>);

/// `NdM`, `NdM+ST` or `NdM-ST` as numbers, spaces allowed around the sign (`3d6 + 5`): the
/// whole text must be the dice. The damage form reads its With field with it, as `dmg` does.
pub fn dice_expression(text: &str) -> Option<DiceExpr> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match dice_words(&words)? {
        (dice, used) if used == words.len() => Some(dice),
        _ => None,
    }
}

/// The dice at the start of `words` and how many words they take: a word ending in a sign, or
/// followed by one starting with a sign, goes on into the next (`3d6 + 5`, `3d6 +5`, `3d6+ 5`).
pub fn dice_words(words: &[&str]) -> Option<(DiceExpr, usize)> {
    let mut joined = (*words.first()?).to_string();
    let mut used = 1;
    while let Some(next) = words.get(used) {
        if !joined.ends_with(['+', '-']) && !next.starts_with(['+', '-']) {
            break;
        }
        joined.push_str(next);
        used += 1;
    }
    Some((dice_joined(&joined)?, used))
}

/// `NdM`, `NdM+ST` or `NdM-ST` written without spaces. A number too big for any range stands
/// as the biggest there is, so that the engine says what is allowed.
fn dice_joined(word: &str) -> Option<DiceExpr> {
    let lower = word.to_ascii_lowercase();
    let (n, rest) = lower.split_once('d')?;
    let (m, st) = match rest.find(['+', '-']) {
        Some(at) => {
            let (m, st) = rest.split_at(at);
            let sign = st.strip_prefix(['+', '-'])?;
            if !digits(sign) {
                return None;
            }
            (m, Some(crate::text::int_word(st)?))
        }
        None => (rest, None),
    };
    if !digits(n) || !digits(m) {
        return None;
    }
    Some((crate::text::int_word(n)?, crate::text::int_word(m)?, st))
}

/// What a TN is, for a TN left out: `sc` and the check form say the same.
const TN_WANTED: &str = "a TN: a number or a difficulty (easy, moderate, difficult, …)";

/// What a TN is, for a number with more words after it (`20 5`): `sc` says it at the word
/// after the number, the check form in its TN field.
const TN_ONE_NUMBER: &str =
    "nothing after the number: a TN is one number, or a difficulty (easy, moderate, difficult, …)";

/// A TN as typed: a number alone, or a difficulty word with its spaces made single. The check
/// form reads its TN field with it, as `sc` and `odds2097` read the words after `tn`, so that
/// both give the engine the same TN, or refuse it in the same words. A number too big for any
/// stands as the biggest there is, so that the engine says the range allowed.
pub fn target_number(text: &str) -> Result<Tn, &'static str> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |w: &&str| crate::text::int_word(w);
    match words.as_slice() {
        [] => Err(TN_WANTED),
        [one] => Ok(number(one).map_or_else(|| Tn::Word((*one).to_string()), Tn::Number)),
        [first, ..] if number(first).is_some() => Err(TN_ONE_NUMBER),
        _ => Ok(Tn::Word(words.join(" "))),
    }
}

/// Whether a word is all digits (and not empty).
fn digits(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

impl Parser<'_> {
    /// Whether an unquoted `word` comes later on the line.
    pub(super) fn ahead(&self, word: &str) -> bool {
        self.words[self.at..]
            .iter()
            .any(|w| !w.quoted && w.text.eq_ignore_ascii_case(word))
    }

    /// The dice expression (`2d6+4`, `2d6 + 4`) the line goes on with, unquoted, and how
    /// many words it takes.
    fn peek_dice(&self) -> Option<(DiceExpr, usize)> {
        let words: Vec<&str> = self.words[self.at..]
            .iter()
            .take_while(|w| !w.quoted)
            .map(|w| w.text.as_str())
            .collect();
        dice_words(&words)
    }

    /// Whether a dice expression (`2d6+4`) comes later on the line.
    pub(super) fn dice_ahead(&self) -> bool {
        let words: Vec<&str> = self.words[self.at..]
            .iter()
            .map(|w| if w.quoted { "" } else { w.text.as_str() })
            .collect();
        (0..words.len()).any(|i| dice_words(&words[i..]).is_some())
    }

    /// Numbers up to the next word that is not one: the faces after `dice`.
    pub(super) fn faces_2097(&mut self) -> Result<Vec<i32>, ParseError> {
        let mut faces = Vec::new();
        while let Some(n) = self.optional_number() {
            faces.push(n);
        }
        if faces.is_empty() {
            return Err(self.error("the faces of the dice, e.g. `dice 7 3`"));
        }
        Ok(faces)
    }

    /// A TN as a number or a difficulty word (checked against the rules when the check runs),
    /// read by [`target_number`] as the check form reads its TN field.
    fn tn(&mut self) -> Result<Tn, ParseError> {
        // The TN's words run on to the next keyword (`very difficult`), or to Advantage or
        // Disadvantage in any of their spellings; a number with more words after it is refused
        // at the first of them (a quoted TN holding them, as a whole), as the check form
        // refuses it.
        let start = self.at;
        let text = self.text_until(&stops());
        target_number(&text).map_err(|e| {
            if e == TN_ONE_NUMBER {
                let number = self
                    .words
                    .get(start)
                    .and_then(|w| crate::text::int_word(&w.text));
                self.at = start + usize::from(number.is_some());
            }
            self.error(e)
        })
    }

    /// `sc NAME tn N|WORD bonus N [adv] [dis] [edge] [dice A B [C]] [drop F]`, or the same
    /// words after `odds2097` without the name and the dice.
    fn check_words(&mut self, with_dice: bool) -> Result<CheckWords, ParseError> {
        let (mut tn, mut bonus) = (None, None);
        let mut q = OddsQuery {
            tn: Tn::Number(0),
            bonus: 0,
            advantage: false,
            disadvantage: false,
            edge: false,
        };
        let (mut dice, mut drop) = (None, None);
        loop {
            if self.keyword_once("tn", tn.as_ref())? {
                tn = Some(self.tn()?);
            } else if with_dice && self.keyword_once("dice", dice.as_ref())? {
                dice = Some(self.faces_2097()?);
            } else {
                // The words that need nothing more than to be read.
                let read =
                    self.keyword_number("bonus", &mut bonus, "the skill bonus (a number)")?
                        || self.flag(ADVANTAGE, &mut q.advantage)?
                        || self.flag(DISADVANTAGE, &mut q.disadvantage)?
                        || self.flag(&["edge"], &mut q.edge)?
                        || (with_dice
                            && self.keyword_number(
                                "drop",
                                &mut drop,
                                "the face of the die to remove",
                            )?);
                if !read {
                    break;
                }
            }
        }
        q.tn = tn.ok_or_else(|| self.error("`tn N` or `tn WORD` (the target number)"))?;
        q.bonus = bonus.ok_or_else(|| self.error("`bonus N` (the skill bonus)"))?;
        Ok((q, dice, drop))
    }

    pub(super) fn sc(&mut self) -> Result<Command, ParseError> {
        let who = self.combatant()?;
        let (q, dice, drop) = self.check_words(true)?;
        Ok(q.check(who, dice, drop))
    }

    pub(super) fn odds2097(&mut self) -> Result<Line, ParseError> {
        let (q, _, _) = self.check_words(false)?;
        Ok(Line::Odds2097(q))
    }

    /// After `dmg NAME`: `TARGET (with WEAPON | NdM+ST) [mos N] [edge] [dice …] [stun]`.
    pub(super) fn damage_2097(&mut self, by: CombatantId) -> Result<Command, ParseError> {
        // `dmg Ana 2d6+4`: a target left out, or damage meant to have no attacker.
        if let Some((_, used)) = self.peek_dice() {
            let name = self.state.get(by).map_or("NAME".into(), |c| quote(&c.name));
            let dice: Vec<&str> = self.words[self.at..self.at + used]
                .iter()
                .map(|w| w.text.as_str())
                .collect();
            return Err(self.error(format!(
                "{} for the target; damage with no attacker (a fall, fire, a spell cast \
                 off-screen) is `dmg - {name} {}`",
                self.names_hint(),
                dice.join(" ")
            )));
        }
        self.damage_to(Some(by))
    }

    /// After `dmg -`: `TARGET NdM+ST [mos N] [dice …] [stun]`, damage with no attacker.
    pub(super) fn harm_2097(&mut self) -> Result<Command, ParseError> {
        self.damage_to(None)
    }

    /// The target and the damage's words: an attack from `by`, or damage with no attacker.
    fn damage_to(&mut self, by: Option<CombatantId>) -> Result<Command, ParseError> {
        let target = self.combatant()?;
        let (with, mos, edge, dice) = self.damage_words(by)?;
        Ok(Command::Sr2097(match by {
            Some(by) => Sr2097Command::Damage {
                by,
                target,
                with,
                mos,
                edge,
                dice,
            },
            None => Sr2097Command::Harm {
                target,
                with,
                mos,
                dice,
            },
        }))
    }

    /// The damage's source and options: `(with WEAPON | NdM+ST) [mos N] [edge] [dice …]
    /// [stun]`; with no attacker, neither a weapon nor Edge (both are the attacker's).
    #[allow(clippy::type_complexity)]
    fn damage_words(
        &mut self,
        by: Option<CombatantId>,
    ) -> Result<(DamageSource, Option<i32>, bool, Option<Vec<i32>>), ParseError> {
        let attacker = by.is_some();
        let with = if attacker && self.eat(DAMAGE.with) {
            // A weapon the attacker carries is taken by its whole name, the longest that fits,
            // keywords in it too (`with Big Dice dice 6 6`).
            let state = self.state;
            let carried = by
                .and_then(|id| state.sr2097.as_ref().map(|s| s.sheet(id)))
                .and_then(|sheet| self.longest(|run| sheet.weapon(run).map(|_| run.to_string())));
            // Else the word after `with` starts the name even when it is a keyword: a weapon
            // may be called `edge` or `stun`; the name runs to the next keyword.
            let mut name = carried.unwrap_or_default();
            if name.is_empty()
                && let Some(first) = self.peek().map(|w| w.text.clone())
            {
                self.at += 1;
                let rest = self.text_until(&stops());
                name = [first, rest].join(" ").trim_end().to_string();
            }
            if name.is_empty() {
                return Err(self.error("the weapon's name"));
            }
            DamageSource::Weapon(name)
        } else {
            match self.peek_dice() {
                Some(((dice, sides, st), used)) => {
                    self.at += used;
                    DamageSource::Dice {
                        dice,
                        sides,
                        st: st.unwrap_or(0),
                        track: Track::Physical,
                    }
                }
                None if attacker => {
                    return Err(self.error("`with WEAPON` or the damage as NdM+ST (e.g. 2d6+4)"));
                }
                None => {
                    return Err(self.error(
                        "the damage as NdM+ST (e.g. 2d6+4): with no attacker there is no weapon",
                    ));
                }
            }
        };
        let (mut mos, mut edge, mut dice, mut stun) = (None, false, None, false);
        loop {
            if self.keyword_number(DAMAGE.mos, &mut mos, "the attack's MoS (a number)")? {
            } else if self.keyword_once(DAMAGE.dice, dice.as_ref())? {
                dice = Some(self.faces_2097()?);
            } else if matches!(with, DamageSource::Weapon(_)) && self.peek_is(DAMAGE.stun) {
                // Refused at the word itself, so the message names the `stun` typed.
                return Err(self.error(
                    "`mos N`, `dice …` or `edge`: a sheet weapon's own line says whether it \
                     deals Stun, so `stun` goes with typed NdM+ST only",
                ));
            } else if !attacker && self.peek_is(DAMAGE.edge) {
                return Err(self.error(
                    "`mos N`, `dice …` or `stun`: Boost Damage spends the attacker's Edge, and \
                     this damage has none",
                ));
            } else if !self.flag(&[DAMAGE.edge], &mut edge)?
                && !self.flag(&[DAMAGE.stun], &mut stun)?
            {
                break;
            }
        }
        let with = match with {
            DamageSource::Dice {
                dice, sides, st, ..
            } if stun => DamageSource::Dice {
                dice,
                sides,
                st,
                track: Track::Stun,
            },
            other => other,
        };
        Ok((with, mos, edge, dice))
    }

    pub(super) fn armor_2097(&mut self) -> Result<Command, ParseError> {
        let who = self.combatant()?;
        if !self.eat("pt") {
            return Err(self.error(
                "`pt N dr N` (Shadowrun 2097's armor: the Penetration Threshold, then the Damage \
                 Reduction in %)",
            ));
        }
        let pt = self.number("the Penetration Threshold (a number)")?;
        if !self.eat("dr") {
            return Err(self.error("`dr N` (the Damage Reduction, a percentage)"));
        }
        let dr = self.number("the Damage Reduction (a percentage)")?;
        Ok(Command::Sr2097(Sr2097Command::Armor { who, pt, dr }))
    }

    pub(super) fn strength(&mut self) -> Result<Command, ParseError> {
        let who = self.combatant()?;
        let strength = self.number("the Strength (a number)")?;
        Ok(Command::Sr2097(Sr2097Command::Strength { who, strength }))
    }

    /// `weapon NAME add WEAPON NdM+ST|NdM melee [stun]` or `weapon NAME remove WEAPON`.
    pub(super) fn weapon_2097(&mut self) -> Result<Command, ParseError> {
        let who = self.combatant()?;
        if self.eat("remove") {
            let name = self.text_until(&[]);
            if name.is_empty() {
                return Err(self.error("the weapon to remove"));
            }
            return Ok(Command::Sr2097(Sr2097Command::RemoveWeapon { who, name }));
        }
        if !self.eat("add") {
            return Err(self.error("`add` or `remove`"));
        }
        let mut name = Vec::new();
        while let Some(w) = self.peek() {
            if self.peek_dice().is_some() {
                break;
            }
            name.push(w.text.clone());
            self.at += 1;
        }
        let Some(((dice, sides, st), used)) = self.peek_dice() else {
            return Err(self.error("the weapon's damage as NdM+ST (e.g. 2d6+4), or NdM melee"));
        };
        self.at += used;
        let melee = self.eat("melee");
        let track = if self.eat("stun") {
            Track::Stun
        } else {
            Track::Physical
        };
        let st = match (st, melee) {
            (Some(_), true) => {
                self.at -= 1;
                return Err(self.error(format!(
                    "no `melee` after an ST: a melee weapon adds its wielder's Strength, so write {dice}d{sides} melee"
                )));
            }
            (None, false) => {
                // The engine's refusal of these dice (0d6, 2d8) comes before the missing ST.
                self.unfinished = Some((
                    Command::Sr2097(Sr2097Command::AddWeapon {
                        who,
                        weapon: WeaponInput {
                            name: name.join(" "),
                            dice,
                            sides,
                            st: None,
                            track,
                        },
                    }),
                    System::Sr2097,
                ));
                return Err(self.error(format!(
                    "the weapon's own ST ({dice}d{sides}+4) or `melee` (the wielder's Strength)"
                )));
            }
            (st, _) => st,
        };
        Ok(Command::Sr2097(Sr2097Command::AddWeapon {
            who,
            weapon: WeaponInput {
                name: name.join(" "),
                dice,
                sides,
                st,
                track,
            },
        }))
    }

    /// An injury's number (from 1) after `lessen` or `burn`, if one is given.
    fn injury_number(&mut self) -> Result<Option<usize>, ParseError> {
        match self.optional_number() {
            Some(n) if n >= 1 => Ok(usize::try_from(n).ok()),
            Some(_) => {
                self.at -= 1;
                Err(self.error("an injury number from 1"))
            }
            None => Ok(None),
        }
    }

    /// After `edge NAME`: `boost [dice A B]`, `lessen [N]`, `burn [N]`, `award N`, `rest`,
    /// `scenario`.
    pub(super) fn edge_2097(&mut self, who: CombatantId) -> Result<Command, ParseError> {
        let edge = if self.eat("boost") {
            EdgeCommand::Boost {
                dice: if self.eat("dice") {
                    Some(self.faces_2097()?)
                } else {
                    None
                },
            }
        } else if self.eat("lessen") {
            EdgeCommand::Lessen {
                injury: self.injury_number()?,
            }
        } else if self.eat("burn") {
            EdgeCommand::Burn {
                injury: self.injury_number()?,
            }
        } else if self.eat("award") {
            EdgeCommand::Award(self.number("the Edge awarded (a number)")?)
        } else if self.eat("rest") {
            EdgeCommand::Rest
        } else if self.eat("scenario") {
            EdgeCommand::Scenario
        } else {
            // What this table's `edge` takes: a mistyped one is told its own forms only.
            return Err(self.error(match self.state.system {
                System::Sr5 => "the end of the line (`edge NAME`: SR5's Edge for IP)",
                System::Sr2097 => {
                    "the end of the line (`edge NAME`: Edge for IP), boost, lessen, burn, \
                     award N, rest or scenario"
                }
                System::Anarchy => {
                    "`regain` or `after` (`edge NAME regain [N]`, `edge NAME after [dice A B …]`)"
                }
            }));
        };
        Ok(Command::Sr2097(Sr2097Command::Edge { who, edge }))
    }
}

fn q(text: &str) -> String {
    let stops = stops();
    let risky = text
        .split_whitespace()
        .any(|w| stops.contains(&w.to_lowercase().as_str()) || dice_expression(w).is_some());
    if risky && !text.contains('"') {
        format!("\"{text}\"")
    } else {
        quote(text)
    }
}

fn faces(dice: &[i32]) -> String {
    let f: Vec<String> = dice.iter().map(i32::to_string).collect();
    f.join(" ")
}

fn tn_words(tn: &Tn) -> String {
    match tn {
        Tn::Number(n) => n.to_string(),
        Tn::Word(w) => w.clone(),
    }
}

/// A damage source as written (`with Pistol`, `2d6+4`), and whether it deals Stun.
fn source_words(with: &DamageSource) -> (String, bool) {
    match with {
        DamageSource::Weapon(w) => (format!("{} {}", DAMAGE.with, q(w)), false),
        DamageSource::Dice {
            dice,
            sides,
            st,
            track,
        } => (
            format!("{dice}d{sides}{}", st_words(*st)),
            *track == Track::Stun,
        ),
    }
}

fn st_words(st: i32) -> String {
    if st < 0 {
        st.to_string()
    } else {
        format!("+{st}")
    }
}

/// `dmg BY TARGET …` (`-` for no attacker): the damage's words as `damage_words` reads them.
fn damage_text(
    by: &str,
    target: &str,
    with: &DamageSource,
    mos: Option<i32>,
    edge: bool,
    dice: Option<&[i32]>,
) -> String {
    let (with, stun) = source_words(with);
    let mut out = format!("dmg {by} {target} {with}");
    if let Some(m) = mos {
        out.push_str(&format!(" {} {m}", DAMAGE.mos));
    }
    if edge {
        out.push_str(&format!(" {}", DAMAGE.edge));
    }
    if let Some(d) = dice {
        out.push_str(&format!(" {} {}", DAMAGE.dice, faces(d)));
    }
    if stun {
        out.push_str(&format!(" {}", DAMAGE.stun));
    }
    out
}

/// Writes a 2097 command in the language, naming combatants as they are in `state`.
pub fn format(command: &Sr2097Command, state: &State) -> String {
    let n = |id: CombatantId| quote(state.name(id));
    match command {
        Sr2097Command::Check {
            who,
            tn,
            bonus,
            advantage,
            disadvantage,
            edge,
            dice,
            drop,
        } => {
            let mut out = format!("sc {} tn {} bonus {bonus}", n(*who), tn_words(tn));
            for (on, word) in [
                (*advantage, " adv"),
                (*disadvantage, " dis"),
                (*edge, " edge"),
            ] {
                if on {
                    out.push_str(word);
                }
            }
            if let Some(d) = dice {
                out.push_str(&format!(" dice {}", faces(d)));
            }
            if let Some(f) = drop {
                out.push_str(&format!(" drop {f}"));
            }
            out
        }
        Sr2097Command::Damage {
            by,
            target,
            with,
            mos,
            edge,
            dice,
        } => damage_text(&n(*by), &n(*target), with, *mos, *edge, dice.as_deref()),
        Sr2097Command::Harm {
            target,
            with,
            mos,
            dice,
        } => damage_text(
            DAMAGE.no_attacker,
            &n(*target),
            with,
            *mos,
            false,
            dice.as_deref(),
        ),
        Sr2097Command::Armor { who, pt, dr } => format!("armor {} pt {pt} dr {dr}", n(*who)),
        Sr2097Command::Strength { who, strength } => format!("strength {} {strength}", n(*who)),
        Sr2097Command::AddWeapon { who, weapon } => {
            let damage = match weapon.st {
                Some(st) => format!("{}d{}{}", weapon.dice, weapon.sides, st_words(st)),
                None => format!("{}d{} melee", weapon.dice, weapon.sides),
            };
            let stun = if weapon.track == Track::Stun {
                " stun"
            } else {
                ""
            };
            format!("weapon {} add {} {damage}{stun}", n(*who), q(&weapon.name))
        }
        Sr2097Command::RemoveWeapon { who, name } => {
            format!("weapon {} remove {}", n(*who), quote(name))
        }
        Sr2097Command::Edge { who, edge } => {
            let what = match edge {
                EdgeCommand::Boost { dice: None } => "boost".to_string(),
                EdgeCommand::Boost { dice: Some(d) } => format!("boost dice {}", faces(d)),
                EdgeCommand::Lessen { injury: None } => "lessen".to_string(),
                EdgeCommand::Lessen { injury: Some(i) } => format!("lessen {i}"),
                EdgeCommand::Burn { injury: None } => "burn".to_string(),
                EdgeCommand::Burn { injury: Some(i) } => format!("burn {i}"),
                EdgeCommand::Award(k) => format!("award {k}"),
                EdgeCommand::Rest => "rest".to_string(),
                EdgeCommand::Scenario => "scenario".to_string(),
            };
            format!("edge {} {what}", n(*who))
        }
        Sr2097Command::Initiative { target, dice } => {
            format!("roll {} dice {}", target_words(*target, state), faces(dice))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every damage word the writer puts in a line is one the reader takes back: each command
    /// written reads back as itself, and together they use every word of the table.
    #[test]
    fn every_damage_word_written_reads_back() {
        use std::sync::Arc;

        use crate::catalogue::Catalogue;
        use crate::encounter::{Encounter, System};
        use crate::rules::{HouseRules, ScriptedDice};

        let mut enc = Encounter::for_system(
            System::Sr2097,
            Arc::new(HouseRules::embedded()),
            Arc::new(Catalogue::from_actions(Vec::new())),
        );
        for line in ["add Ana pc int 4 rea 4 edge 3", "add Bo int 3 rea 3"] {
            let Ok(super::super::Line::Command(c)) =
                super::super::parse(line, enc.state(), enc.catalogue())
            else {
                panic!("{line}");
            };
            let mut dice = ScriptedDice::new(std::iter::empty());
            super::super::execute(&mut enc, c, &mut dice).unwrap();
        }
        let id = |name: &str| enc.state().find(name).unwrap().id;
        let (ana, bo) = (id("Ana"), id("Bo"));
        let rolled = |track| DamageSource::Dice {
            dice: 2,
            sides: 6,
            st: 4,
            track,
        };
        let commands = [
            Sr2097Command::Damage {
                by: ana,
                target: bo,
                with: DamageSource::Weapon("Stun Edge".into()),
                mos: Some(5),
                edge: true,
                dice: Some(vec![6, 5, 4, 3]),
            },
            // A weapon's name that holds a spelling of Advantage is written in quotes.
            Sr2097Command::Damage {
                by: bo,
                target: ana,
                with: DamageSource::Weapon("Blade Advantage".into()),
                mos: None,
                edge: false,
                dice: None,
            },
            Sr2097Command::Damage {
                by: ana,
                target: bo,
                with: rolled(Track::Stun),
                mos: None,
                edge: false,
                dice: None,
            },
            Sr2097Command::Harm {
                target: ana,
                with: rolled(Track::Stun),
                mos: Some(2),
                dice: Some(vec![1, 2]),
            },
        ];
        let mut written = String::new();
        for c in commands {
            let text = format(&c, enc.state());
            let read = super::super::parse(&text, enc.state(), enc.catalogue());
            assert_eq!(
                read,
                Ok(super::super::Line::Command(Command::Sr2097(c))),
                "{text}"
            );
            written.push_str(&text);
            written.push(' ');
        }
        let words: Vec<&str> = written.split_whitespace().collect();
        for word in [
            DAMAGE.no_attacker,
            DAMAGE.with,
            DAMAGE.mos,
            DAMAGE.edge,
            DAMAGE.dice,
            DAMAGE.stun,
        ] {
            assert!(
                words.contains(&word),
                "`{word}` is never written: {written}"
            );
        }
    }

    #[test]
    fn dice_expressions_read_count_die_and_st() {
        assert_eq!(dice_expression("2d6+4"), Some((2, 6, Some(4))));
        assert_eq!(dice_expression("3D6"), Some((3, 6, None)));
        assert_eq!(dice_expression("1d6-1"), Some((1, 6, Some(-1))));
        assert_eq!(dice_expression("dice"), None);
        assert_eq!(dice_expression("2d"), None);
        // Spaces around the sign, as the damage form and `dmg` take them; not elsewhere.
        assert_eq!(dice_expression("1d6 - 1"), Some((1, 6, Some(-1))));
        assert_eq!(dice_expression("3d6 +5"), Some((3, 6, Some(5))));
        assert_eq!(dice_expression("3d6+ 5"), Some((3, 6, Some(5))));
        assert_eq!(dice_expression("3d6 5"), None);
        assert_eq!(dice_expression("3 d6"), None);
        assert_eq!(dice_expression("3d6 +"), None);
        assert_eq!(dice_expression("2d6+-4"), None);
        // Too big for any range: the biggest there is, so the engine tells the range.
        assert_eq!(dice_expression("99999999999d6"), Some((i32::MAX, 6, None)));
    }
}
