//! The damage roll form (Shadowrun 2097): target, weapon or dice, the attack's MoS, Edge and the
//! table's dice; it shows what the target's armor makes of the roll before it is made. One
//! command rolls, puts the damage through the armor and records the injury.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::form::{self, Field, NO_YES, edit_fields, field, parse_faces, parse_num};
use super::{Ctx, Outcome};
use crate::encounter::query::Attack;
use crate::encounter::system::sr2097::{DamageSource, Sr2097Command};
use crate::encounter::{CombatantId, Command, Track};
use crate::lang::dice_expression;
use crate::report::sr2097::damage_preview;
use crate::ui::action::Action;
use crate::ui::app::App;

const TARGET: usize = 0;
const WITH: usize = 1;
const MOS: usize = 2;
const EDGE: usize = 3;
const DICE: usize = 4;

#[derive(Debug, Clone)]
pub struct State {
    pub by: CombatantId,
    pub title: String,
    pub fields: Vec<Field>,
    pub focus: usize,
    /// What the target's armor makes of the roll, or why it cannot be told yet.
    pub preview: Result<String, String>,
    pub error: Option<String>,
}

/// The parts of the form that make the command.
struct Parts {
    target: CombatantId,
    with: DamageSource,
    mos: Option<i32>,
    edge: bool,
}

impl State {
    pub fn open(by: CombatantId, ctx: &Ctx) -> Self {
        let s = ctx.state();
        let name_max = ctx.enc.rules().limits.name_chars.max;
        let weapon = s
            .sr2097
            .as_ref()
            .and_then(|x| x.sheet(by).weapons.first().map(|w| w.name.clone()))
            .unwrap_or_default();
        // The attack's MoS, so the GM does not type it again.
        let to_follow = s.sr2097.as_ref().and_then(|x| x.sheet(by).to_follow);
        let mos = match to_follow {
            Some(m) if m >= 0 => Field::text(
                "MoS",
                format!("{}'s check: 5+ adds 1d6, 10+ 2d6", s.name(by)),
                &m.to_string(),
            ),
            // The engine refuses the roll: the preview says so, and nothing is put in its way.
            Some(m) => Field::text(
                "MoS",
                format!("{}'s check failed (MoS {m}): a miss", s.name(by)),
                "",
            ),
            None => field("MoS", "the attack's MoS: 5+ adds 1d6, 10+ 2d6", "0"),
        };
        let mut st = Self {
            by,
            title: format!("Damage roll: {} attacks", s.name(by)),
            fields: vec![
                field("Target", "who is hit (a name)", "").at_most(name_max),
                field("With", "a weapon on the sheet, or NdM+ST", &weapon).at_most(name_max),
                mos,
                Field::toggle("Edge", "yes: +2d6 for 1 Edge", NO_YES, 0),
                field("Dice", "empty: srtrack rolls; or the table's d6s", ""),
            ],
            focus: TARGET,
            preview: Err(String::new()),
            error: None,
        };
        st.refresh(ctx);
        st.error = st.attacker_refused(ctx);
        st
    }

    /// Why the engine would refuse the attacker whatever the fields hold (Downed), asked of it
    /// as the form opens and while it is open: the sentence the typed `dmg` prints.
    fn attacker_refused(&self, ctx: &Ctx) -> Option<String> {
        let refused = ctx.enc.may_attack(self.by, Attack::Damage).err()?;
        Some(refused.to_string())
    }

    fn text(&self, i: usize) -> String {
        self.fields[i].get()
    }

    fn parts(&self, ctx: &Ctx) -> Result<Parts, (usize, String)> {
        let name = self.text(TARGET);
        if name.is_empty() {
            return Err((TARGET, "required".into()));
        }
        let target = crate::lang::combatant_named(&name, ctx.state(), ctx.catalogue())
            .map_err(|e| (TARGET, e))?;
        let with = self.text(WITH);
        let with = match dice_expression(&with) {
            Some((dice, sides, st)) => DamageSource::Dice {
                dice,
                sides,
                st: st.unwrap_or(0),
                track: Track::Physical,
            },
            None if with.is_empty() => return Err((WITH, "required".into())),
            None => DamageSource::Weapon(with),
        };
        let mos = parse_num(&self.fields[MOS], false).map_err(|e| (MOS, e))?;
        let edge = self.text(EDGE) == "yes";
        Ok(Parts {
            target,
            with,
            mos,
            edge,
        })
    }

    /// The roll the fields ask for, with the table's dice as typed (`None`: srtrack rolls).
    fn command(&self, p: Parts, dice: Option<Vec<i32>>) -> Command {
        Command::Sr2097(Sr2097Command::Damage {
            by: self.by,
            target: p.target,
            with: p.with,
            mos: p.mos,
            edge: p.edge,
            dice,
        })
    }

    /// What the armor would make of the roll, or why the engine would refuse it (a miss, …).
    fn refresh(&mut self, ctx: &Ctx) {
        self.preview = match self.parts(ctx) {
            Ok(p) => {
                let mos = p.mos;
                let (target, with, edge) = (p.target, p.with.clone(), p.edge);
                match ctx.enc.check(self.command(p, None)) {
                    Err(e) => Err(e.to_string()),
                    Ok(()) => damage_preview(
                        ctx.state(),
                        &ctx.enc.rules().sr2097,
                        self.by,
                        target,
                        &with,
                        mos.unwrap_or(0),
                        edge,
                    ),
                }
            }
            Err((_, e)) => Err(e),
        };
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            Action::Cancel => Outcome::Close,
            Action::Confirm => {
                let cmd = self.parts(ctx).and_then(|p| {
                    let dice = parse_faces(&self.fields[DICE]).map_err(|e| (DICE, e))?;
                    Ok(self.command(p, dice))
                });
                form::confirm(&mut self.fields, &mut self.focus, cmd)
            }
            edit @ (Action::NextField | Action::PrevField | Action::Input(_)) => {
                self.error = edit_fields(&mut self.fields, &mut self.focus, edit)
                    .or_else(|| self.attacker_refused(ctx));
                self.refresh(ctx);
                Outcome::Stay
            }
            _ => Outcome::Stay,
        }
    }

    /// The engine refused the roll (unknown weapon, no Edge left, …): under the form.
    pub fn refused(&mut self, why: &str) {
        self.error = Some(why.to_string());
    }

    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let preview = match &self.preview {
            Ok(p) => Line::styled(p.clone(), t.title()),
            Err(e) if e.is_empty() || e == "required" => {
                Line::styled("give the target and the weapon or dice", t.dim())
            }
            Err(e) => Line::styled(e.clone(), t.dim()),
        };
        let last = form::last_line(self.error.as_deref(), "roll", &self.fields, app);
        form::draw(
            &self.title,
            &self.fields,
            self.focus,
            vec![preview, last],
            app,
            area,
            buf,
        );
    }
}
