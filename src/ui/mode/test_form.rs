//! The SR5 test form: a test, or one step of an attack chain, set up field by field with its
//! exact odds redrawn on every key.
//!
//! The form does no rule arithmetic: on every key it asks the engine for the events its command
//! would give (a dry run with dice that never reach the save), takes the pools, limit and goal
//! from them (wound modifiers, Push the Limit, the sheet's defense and soak pools included) and
//! hands them to `rules::sr5::odds` through the `odds` line of the report.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::form::{Field, NO_YES, edit_fields, field, field_lines, parse_num};
use super::{Ctx, Mode, Outcome};
use crate::catalogue::TestBy;
use crate::encounter::query::Attack;
use crate::encounter::system::sr5::{
    Against, AttackInput, OddsAgainst, OddsInput, Pool, PoolInput, Sr5Command, Sr5Event, Stage,
    StepInput, TestInput, attack_limit,
};
use crate::encounter::{CombatantId, Command, Event, State as EncState};
use crate::rules::Dice;
use crate::rules::sr5::attributes_of;
use crate::rules::sr5::test::{Given, Goal};
use crate::text::escaped;
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::view::{centered, clear, pane_block, wrap};

/// What the form sets up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purpose {
    /// `T`: a test for this character.
    Test(CombatantId),
    /// Offered after an attack action is spent: the attacker's roll starts the chain.
    Attack {
        attacker: CombatantId,
        action: String,
    },
    /// The attack under way waits for this target's defense or damage resistance test.
    Step(CombatantId),
}

impl Purpose {
    /// What Esc does, in the title's and the footer's one word: a test is cancelled; an
    /// attack's roll or a waiting step is left for later (the action stays spent): `A` brings
    /// it back.
    fn esc(&self) -> &'static str {
        match self {
            Purpose::Test(_) => "cancel",
            Purpose::Attack { .. } | Purpose::Step(_) => "later",
        }
    }
}

#[derive(Debug, Clone)]
pub struct State {
    pub title: String,
    pub purpose: Purpose,
    pub fields: Vec<Field>,
    pub focus: usize,
    /// The odds of the test as set up, or why the engine would refuse it.
    pub odds: Result<String, String>,
    /// The engine's refusal of the whole form, when no field is to blame.
    pub error: Option<String>,
    /// What a new attack's Enter drops (the steps still waiting), said before it is pressed.
    pub drops: Option<String>,
}

/// Dice for the dry run that prices the form: what they show never matters, only the pools.
struct Dry;

impl Dice for Dry {
    fn roll(&mut self, _sides: u8) -> u8 {
        1
    }
}

/// Whether the encounter takes SR5's commands (its keys and offers are SR5's own).
fn takes_sr5(ctx: &Ctx, who: CombatantId) -> bool {
    ctx.enc
        .system()
        .accepts(&Command::Sr5(Sr5Command::CloseCall { who }))
        .is_ok()
}

/// The last action whose test `who` makes, with its test and threshold: one it took, or one
/// another took that its onlookers test (a Gesture: the name says whose).
/// An action that rolled its own test (a wounded character's Stand Up) offers nothing more.
fn last_tested_action(ctx: &Ctx, who: CombatantId) -> Option<(String, String, Option<String>)> {
    ctx.enc.applied().iter().rev().find_map(|entry| {
        let rolled = entry
            .events
            .iter()
            .any(|e| matches!(e, Event::Sr5(s) if s.is_test()));
        entry.events.iter().rev().find_map(|e| match e {
            Event::ActionSpent { who: w, action, .. } => {
                let def = ctx.catalogue().get(action.name.as_deref()?)?;
                let test = def.test.clone()?;
                let name = match def.test_by {
                    TestBy::Actor if *w == who => def.name.clone(),
                    TestBy::Onlookers if *w != who => {
                        format!("{}'s {}", ctx.state().name(*w), def.name)
                    }
                    _ => return None,
                };
                Some((!rolled).then(|| (name, test, def.threshold.clone())))
            }
            _ => None,
        })
    })?
}

/// The number a catalogue threshold starts with ("3 (2 with a quick-draw holster)" gives 3).
fn leading_number(text: &str) -> Option<i32> {
    let digits: String = text
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

impl State {
    fn new(title: String, purpose: Purpose, fields: Vec<Field>, ctx: &Ctx) -> Self {
        let mut s = Self {
            title,
            purpose,
            fields,
            focus: 0,
            odds: Err(String::new()),
            error: None,
            drops: None,
        };
        if matches!(s.purpose, Purpose::Attack { .. }) {
            s.drops = drops(ctx.state());
        }
        s.reprice(ctx);
        s
    }

    /// `T`: a test for `who`, its pool and threshold taken from the last action it took when
    /// the catalogue's test for it adds up attributes the sheet holds.
    pub fn test(who: CombatantId, ctx: &Ctx) -> Outcome {
        if !takes_sr5(ctx, who) {
            return Outcome::Fail(format!(
                "tests with a pool, a limit and a threshold are SR5's; this encounter runs {}",
                ctx.enc.system()
            ));
        }
        let s = ctx.state();
        // A Downed character cannot test: refused at the key with the engine's sentence.
        if s.get(who)
            .is_some_and(crate::encounter::model::Combatant::is_downed)
        {
            let probe = Command::Sr5(Sr5Command::Test(TestInput {
                who,
                pool: PoolInput {
                    pool: 1,
                    given: Given::default(),
                },
                limit: None,
                against: Against::Open,
                push: false,
            }));
            if let Some(why) = ctx.refusal(probe) {
                return Outcome::Fail(why);
            }
        }
        let name = escaped(s.name(who)).into_owned();
        let mut pool = String::new();
        let mut threshold = String::new();
        let mut title = format!("{name}: a test");
        if let Some((action, test, thr)) = last_tested_action(ctx, who) {
            title = format!("{name}: a test ({}: {})", escaped(&action), escaped(&test));
            let sheet = s.get(who).map(|c| c.sheet);
            let from_sheet = attributes_of(&test).and_then(|attrs| {
                let sheet = sheet?;
                attrs
                    .iter()
                    .map(|a| crate::encounter::system::sr5::attribute(&sheet, *a).map(i32::from))
                    .sum::<Option<i32>>()
            });
            if let Some(p) = from_sheet {
                pool = p.to_string();
                if let Some(t) = thr.as_deref().and_then(leading_number) {
                    threshold = t.to_string();
                }
            }
        }
        let fields = vec![
            field("Pool", "attribute + skill + modifiers", &pool),
            field("Limit", "empty: no limit", ""),
            field("Threshold", "empty: none, or an opponent", &threshold),
            field("Vs", "opposed: the opponent's name", "")
                .at_most(ctx.enc.rules().limits.name_chars.max),
            field("Vs pool", "the opponent's dice", ""),
            // A player opposing rolls at the table as the tester does.
            field("Vs dice", "empty: srtrack rolls the opponent's", ""),
            Field::toggle("Push", "yes: Push the Limit (Edge)", NO_YES, 0),
            field("Dice", "empty: srtrack rolls; 6 5 1 … or hits N", ""),
        ];
        Outcome::Open(Mode::TestForm(Self::new(
            title,
            Purpose::Test(who),
            fields,
            ctx,
        )))
    }

    /// After an attack action is spent: the attack chain, offered (Enter goes on, Esc skips).
    /// `None` where there is nothing to offer (not an attack action, another system's fight).
    pub fn attack_offer(attacker: CombatantId, action: &str, ctx: &Ctx) -> Option<Mode> {
        ctx.enc.rules().sr5.attack_action(action)?;
        if !takes_sr5(ctx, attacker) {
            return None;
        }
        let s = ctx.state();
        // The marked characters (an area attack), else the selected one.
        let target = ctx
            .targets()
            .into_iter()
            .filter(|t| *t != attacker)
            .map(|t| s.name(t).to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let fields = vec![
            field("Target", "who is attacked; several: A, B, C", &target),
            field("Weapon", "empty: the one in hand", "")
                .at_most(ctx.enc.rules().sr5.weapon_name_chars.max),
            field("Pool", "the attacker's dice", ""),
            field("Dice", "empty: srtrack rolls; 6 5 1 … or hits N", ""),
        ];
        let purpose = Purpose::Attack {
            attacker,
            action: action.to_string(),
        };
        let title = format!(
            "{}: {} — the attack (Enter: roll, Esc: {})",
            escaped(s.name(attacker)),
            escaped(action),
            purpose.esc()
        );
        let mut form = Self::new(title, purpose, fields, ctx);
        form.error = form.attacker_refused(ctx);
        Some(Mode::TestForm(form))
    }

    /// `A`: the step the attack under way waits for, else the attack of an attack action taken
    /// in this turn and not rolled.
    pub fn resume(ctx: &Ctx) -> Option<Mode> {
        Self::pending_step(ctx).or_else(|| {
            let (attacker, action) = ctx.enc.unrolled_attack()?;
            Self::attack_offer(attacker, &action, ctx)
        })
    }

    /// The next step of the attack under way, if it waits for one: the first target waiting,
    /// in the order the attack named them.
    pub fn pending_step(ctx: &Ctx) -> Option<Mode> {
        let s = ctx.state();
        let p = s.sr5.pending.first()?;
        let more = match s.sr5.pending.len() - 1 {
            0 => String::new(),
            n => format!(" ({n} more waiting)"),
        };
        let (step, from) = match p.stage {
            Stage::Defense { .. } => ("defense", "empty: from the sheet"),
            Stage::Soak { .. } => ("damage resistance", "empty: Body + armor"),
        };
        let title = format!(
            "{}'s attack on {}: {}'s {step}{more} (Enter: go on, Esc: {})",
            escaped(s.name(p.attacker)),
            escaped(s.name(p.target)),
            escaped(s.name(p.target)),
            Purpose::Step(p.target).esc(),
        );
        let fields = vec![
            field("Pool", from, ""),
            field("Dice", "empty: srtrack rolls; 6 5 1 … or hits N", ""),
        ];
        Some(Mode::TestForm(Self::new(
            title,
            Purpose::Step(p.target),
            fields,
            ctx,
        )))
    }

    /// Why the engine would refuse the attacker whatever the fields hold (Downed, no weapon),
    /// asked of it before the GM fills anything and while the form is open: the sentence the
    /// typed `attack` prints.
    fn attacker_refused(&self, ctx: &Ctx) -> Option<String> {
        let Purpose::Attack { attacker, .. } = self.purpose else {
            return None;
        };
        let refused = ctx.enc.may_attack(attacker, Attack::Armed(None)).err()?;
        Some(refused.to_string())
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            Action::Cancel => return Outcome::Close,
            Action::NextField | Action::PrevField => {
                self.error = edit_fields(&mut self.fields, &mut self.focus, action)
                    .or_else(|| self.attacker_refused(ctx));
            }
            Action::Input(_) => {
                self.error = edit_fields(&mut self.fields, &mut self.focus, action)
                    .or_else(|| self.attacker_refused(ctx));
                self.reprice(ctx);
            }
            Action::Confirm => return self.submit(ctx),
            _ => {}
        }
        Outcome::Stay
    }

    /// Enter: a bad value stays in its field; the command goes to the engine.
    fn submit(&mut self, ctx: &Ctx) -> Outcome {
        for fl in &mut self.fields {
            fl.error = None;
        }
        match self.command(ctx) {
            Ok(cmd) => Outcome::run(cmd),
            Err((i, e)) => {
                if let Some(fl) = self.fields.get_mut(i) {
                    fl.error = Some(e);
                    self.focus = i;
                }
                Outcome::Stay
            }
        }
    }

    /// The engine refused the command: the reason goes under the form.
    pub fn refused(&mut self, why: &str) {
        self.error = Some(why.to_string());
    }

    /// Once its command ran: the attack under way's next step when it waits for one.
    pub fn after_run(&self, ctx: &Ctx) -> Option<Mode> {
        match self.purpose {
            Purpose::Attack { .. } | Purpose::Step(_) => Self::pending_step(ctx),
            Purpose::Test(_) => None,
        }
    }

    fn text(&self, i: usize) -> String {
        self.fields
            .get(i)
            .map(super::form::Field::get)
            .unwrap_or_default()
    }

    fn num(&self, i: usize, required: bool) -> Result<Option<i32>, (usize, String)> {
        parse_num(&self.fields[i], required).map_err(|e| (i, e))
    }

    fn given(&self, i: usize, ctx: &Ctx) -> Result<Given, (usize, String)> {
        crate::lang::sr5::typed_roll(&self.text(i), ctx.state(), ctx.catalogue())
            .map_err(|e| (i, e.to_string()))
    }

    fn combatant(&self, i: usize, ctx: &Ctx) -> Result<CombatantId, (usize, String)> {
        named(&self.text(i), ctx).map_err(|e| (i, e))
    }

    /// A list of names (`A, B, C`), read as `attack` reads its targets: each in full or in
    /// short, a group for its members still standing; a name holding a comma is taken whole.
    fn combatants(&self, i: usize, ctx: &Ctx) -> Result<Vec<CombatantId>, (usize, String)> {
        let text = self.text(i);
        if text.trim().is_empty() {
            return Err((i, REQUIRED_NAME.into()));
        }
        crate::lang::attack_targets(&text, ctx.state(), ctx.catalogue()).map_err(|e| (i, e))
    }

    /// The form's command, or the field to blame and why.
    fn command(&self, ctx: &Ctx) -> Result<Command, (usize, String)> {
        let s = ctx.state();
        let step = |pool: Option<i32>, given_at: usize| -> Result<StepInput, (usize, String)> {
            Ok(StepInput {
                pool,
                given: self.given(given_at, ctx)?,
            })
        };
        let c = match &self.purpose {
            Purpose::Test(who) => {
                let threshold = self.num(2, false)?;
                let vs = self.text(3);
                let against = match (threshold, vs.is_empty()) {
                    (Some(_), false) => {
                        return Err((3, "a threshold or an opponent, not both".into()));
                    }
                    (Some(t), true) => Against::Threshold(t),
                    (None, false) => Against::Opponent {
                        who: self.combatant(3, ctx)?,
                        pool: PoolInput {
                            pool: self.num(4, true)?.unwrap_or_default(),
                            given: self.given(5, ctx)?,
                        },
                    },
                    (None, true) if !self.text(4).is_empty() => {
                        return Err((
                            4,
                            "a pool for the opponent, and no opponent named in Vs".into(),
                        ));
                    }
                    (None, true) if !self.text(5).is_empty() => {
                        return Err((
                            5,
                            "dice for the opponent, and no opponent named in Vs".into(),
                        ));
                    }
                    (None, true) => Against::Open,
                };
                let push = self.text(6) == "yes";
                Sr5Command::Test(TestInput {
                    who: *who,
                    pool: PoolInput {
                        pool: self.num(0, true)?.unwrap_or_default(),
                        given: self.given(7, ctx)?,
                    },
                    limit: self.num(1, false)?,
                    against,
                    push,
                })
            }
            Purpose::Attack { attacker, .. } => {
                let weapon = Some(self.text(1)).filter(|w| !w.is_empty());
                Sr5Command::Attack(AttackInput {
                    attacker: *attacker,
                    targets: self.combatants(0, ctx)?,
                    weapon,
                    attack: Some(step(self.num(2, true)?, 3)?),
                    defense: None,
                    soak: None,
                    push: false,
                    aim: None,
                })
            }
            Purpose::Step(target) => {
                let Some(p) = s.sr5.waiting(*target) else {
                    return Err((0, "no attack waits for its next step any more".into()));
                };
                let this = Some(step(self.num(0, false)?, 1)?);
                let (defense, soak) = match p.stage {
                    Stage::Defense { .. } => (this, None),
                    Stage::Soak { .. } => (None, this),
                };
                Sr5Command::Attack(AttackInput {
                    attacker: p.attacker,
                    targets: vec![p.target],
                    weapon: None,
                    attack: None,
                    defense,
                    soak,
                    push: false,
                    aim: None,
                })
            }
        };
        Ok(Command::Sr5(c))
    }

    /// The odds of the form as it stands: the engine's dry run gives the pools, the rules the
    /// numbers. A field still empty or refused says what is missing instead.
    /// Asks the engine again what the form says of it (the attacker's refusal, the odds), on a
    /// state changed since it was made.
    pub fn refresh(&mut self, ctx: &Ctx) {
        if matches!(self.purpose, Purpose::Attack { .. }) {
            self.error = self.attacker_refused(ctx);
            self.drops = drops(ctx.state());
        }
        self.reprice(ctx);
    }

    fn reprice(&mut self, ctx: &Ctx) {
        let cmd = match self.command(ctx) {
            Ok(c) => c,
            Err((i, e)) => {
                let label = self.fields.get(i).map_or("", |f| f.label);
                self.odds = Err(format!("{label}: {e}"));
                return;
            }
        };
        let events = match ctx.enc.decide(cmd, &mut Dry) {
            Ok(ev) => ev,
            Err(e) => {
                self.odds = Err(crate::lang::synopses::with_forms(e).to_string());
                return;
            }
        };
        self.odds = question(&self.purpose, &events, ctx.state())
            .map(|q| {
                let line = crate::report::sr5::pools_odds_line(
                    &q.input,
                    ctx.enc.rules(),
                    &q.pool,
                    q.opposing.as_ref(),
                );
                format!("{}{line}", q.prefix)
            })
            .ok_or_else(|| "odds: the defense is typed by the player".to_string());
    }

    /// Where the form is drawn over the body `area`: its fields, and under them the odds and
    /// the last line (with the way back to the attack under a refusal of it), each wrapped to
    /// the form's width so none is cut.
    pub fn area(&self, area: Rect) -> Rect {
        let w = FORM_WIDTH.min(area.width);
        let below: usize = self
            .below()
            .iter()
            .map(|(text, _)| wrap(text, usize::from(w.saturating_sub(2)), 0).len())
            .sum();
        let rows = self.fields.len() + below + 2;
        centered(area, w, u16::try_from(rows).unwrap_or(u16::MAX))
    }

    /// Under a refusal of the attack's roll: the action stays spent, and `A` brings it back.
    fn back(&self) -> Option<&'static str> {
        match (&self.purpose, &self.error) {
            (Purpose::Attack { .. }, Some(_)) => Some("Esc: later; `A` brings this attack back"),
            _ => None,
        }
    }

    /// The lines under the fields, unwrapped: the odds (or why there are none), then the
    /// refusal and the way back, or what the keys do.
    fn below(&self) -> Vec<(String, Below)> {
        let mut lines = vec![match &self.odds {
            Ok(o) => (o.clone(), Below::Odds),
            Err(why) => (why.clone(), Below::Dim),
        }];
        match &self.error {
            Some(e) => {
                lines.push((format!("✗ {e}"), Below::Error));
                if let Some(back) = self.back() {
                    lines.push((back.to_string(), Below::Dim));
                }
            }
            None => {
                if let Some(d) = &self.drops {
                    lines.push((d.clone(), Below::Error));
                }
                // A form with a choice (the test's Push) says how to change it.
                let choice = if self
                    .fields
                    .iter()
                    .any(|f| matches!(f.value, super::form::Value::Toggle { .. }))
                {
                    "  Space, ←/→: change a choice"
                } else {
                    ""
                };
                lines.push((
                    format!(
                        "Enter: roll or take the typed dice  Tab: next field{choice}  Esc: {}",
                        self.purpose.esc()
                    ),
                    Below::Dim,
                ));
            }
        }
        lines
    }

    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let r = self.area(area);
        clear(r, buf);
        let block = pane_block(&self.title, true, t);
        let inner = block.inner(r);
        block.render(r, buf);
        let width = usize::from(inner.width);
        let mut lines = field_lines(&self.fields, self.focus, width, t);
        for (text, kind) in self.below() {
            let style = match kind {
                Below::Odds => t.title(),
                Below::Error => t.error(),
                Below::Dim => t.dim(),
            };
            lines.extend(
                wrap(&text, width, 0)
                    .into_iter()
                    .map(|row| Line::styled(row, style)),
            );
        }
        Paragraph::new(lines).render(inner, buf);
    }
}

/// The steps a new attack roll drops, in the form's words: one attack waits at a time, and the
/// commonest ready ("when he shoots, I shoot back") would lose a landed hit without a word.
fn drops(s: &EncState) -> Option<String> {
    let steps: Vec<String> = s
        .sr5
        .pending
        .iter()
        .map(|p| {
            let step = match p.stage {
                Stage::Defense { .. } => "defense",
                Stage::Soak { .. } => "damage resistance",
            };
            format!(
                "{}'s attack on {}, waiting for {}'s {step}",
                escaped(s.name(p.attacker)),
                escaped(s.name(p.target)),
                escaped(s.name(p.target)),
            )
        })
        .collect();
    (!steps.is_empty()).then(|| format!("Enter drops {}", steps.join("; and ")))
}

/// The form's widest: wider screens keep it this wide.
const FORM_WIDTH: u16 = 96;

/// How a line under the fields is drawn.
#[derive(Debug, Clone, Copy)]
enum Below {
    Odds,
    Error,
    Dim,
}

/// The combatant a field names, or why not.
/// What an empty name field is told.
const REQUIRED_NAME: &str = "required: a combatant's name";

/// The one combatant `name` stands for, read as a command reads a name.
fn named(name: &str, ctx: &Ctx) -> Result<CombatantId, String> {
    if name.trim().is_empty() {
        return Err(REQUIRED_NAME.into());
    }
    crate::lang::combatant_named(name, ctx.state(), ctx.catalogue())
}

/// What a form's odds answer: the question in numbers, the words before its line, and the
/// pools the dry run made (the line says what each holds: wounds, the sheet's parts).
struct Question {
    prefix: String,
    input: OddsInput,
    pool: Pool,
    /// The pool it is opposed by: an opposed test's, the attack's defense.
    opposing: Option<Pool>,
}

/// The odds question a dry run's events answer: the test (or step) the form sets up, with a few
/// words saying what P(success) means for a step of the attack chain.
fn question(purpose: &Purpose, events: &[Event], s: &EncState) -> Option<Question> {
    events.iter().find_map(|e| {
        let Event::Sr5(e) = e else { return None };
        match (purpose, e) {
            (
                Purpose::Test(_),
                Sr5Event::Tested {
                    pool,
                    limit,
                    goal,
                    opponent,
                    ..
                },
            ) => {
                let against = match goal {
                    Goal::Open => OddsAgainst::Open,
                    Goal::Threshold(t) => OddsAgainst::Threshold(i32::from(*t)),
                    Goal::Opposed => {
                        OddsAgainst::Pool(opponent.as_ref().map_or(0, |o| o.pool.dice().into()))
                    }
                };
                let opposing = matches!(goal, Goal::Opposed)
                    .then(|| opponent.as_ref().map(|o| o.pool.clone()))
                    .flatten();
                Some(Question {
                    prefix: String::new(),
                    input: OddsInput {
                        pool: i32::from(pool.dice()),
                        limit: limit.map(i32::from),
                        against,
                    },
                    pool: pool.clone(),
                    opposing,
                })
            }
            (
                Purpose::Attack { .. },
                Sr5Event::Attacked {
                    pool,
                    weapon,
                    also,
                    aim,
                    pushed,
                    ..
                },
            ) => {
                // The defense rolled from the sheet, when srtrack rolls it; a player's defense is
                // typed later, and the attack's odds wait for it. An area attack's odds are
                // against the first target srtrack rolls for, named.
                let (target, defense) = events.iter().find_map(|e| match e {
                    Event::Sr5(Sr5Event::Defended { target, pool, .. }) => Some((*target, pool)),
                    _ => None,
                })?;
                let prefix = if also.is_empty() {
                    "the attack hits: ".to_string()
                } else {
                    format!("the attack hits {}: ", escaped(s.name(target)))
                };
                Some(Question {
                    prefix,
                    input: OddsInput {
                        pool: i32::from(pool.dice()),
                        limit: attack_limit(weapon, *aim, *pushed).map(i32::from),
                        against: OddsAgainst::Pool(i32::from(defense.dice())),
                    },
                    pool: pool.clone(),
                    opposing: Some(defense.clone()),
                })
            }
            (Purpose::Step(target), Sr5Event::Defended { pool, .. }) => {
                let hits = match s.sr5.waiting(*target)?.stage {
                    Stage::Defense { hits } => hits,
                    Stage::Soak { .. } => return None,
                };
                // A tie goes to the defender: the defense holds with as many hits as the attack,
                // so against none it holds whatever it rolls (threshold 0, certain).
                let prefix = if hits == 0 {
                    "the attack scored no hit, so the defense holds whatever it rolls: ".to_string()
                } else {
                    format!("the defense holds on {hits}+ hits: ")
                };
                Some(Question {
                    prefix,
                    input: OddsInput {
                        pool: i32::from(pool.dice()),
                        limit: None,
                        against: OddsAgainst::Threshold(i32::from(hits)),
                    },
                    pool: pool.clone(),
                    opposing: None,
                })
            }
            (Purpose::Step(_), Sr5Event::Soaked { pool, dv, .. }) => Some(Question {
                prefix: format!("no damage on {dv}+ hits: "),
                input: OddsInput {
                    pool: i32::from(pool.dice()),
                    limit: None,
                    against: OddsAgainst::Threshold(i32::from((*dv).max(1))),
                },
                pool: pool.clone(),
                opposing: None,
            }),
            _ => None,
        }
    })
}
