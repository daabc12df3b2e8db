//! The success check form (Shadowrun 2097): TN, bonus, Advantage, Edge and the table's dice,
//! with the exact odds of the check as it stands, refreshed on every key.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::form::{self, Field, NO_YES, edit_fields, field, parse_faces, parse_num};
use super::{Ctx, Outcome};
use crate::encounter::system::sr2097::bonus_value;
use crate::encounter::{CombatantId, Command};
use crate::lang::{OddsQuery, target_number};
use crate::report::sr2097::{odds_lines, odds_of};
use crate::ui::action::Action;
use crate::ui::app::App;

const TN: usize = 0;
const BONUS: usize = 1;
const TILT: usize = 2;
const EDGE: usize = 3;
const DICE: usize = 4;

/// The Adv/Dis toggle's words: none, Advantage, Disadvantage, or both (they cancel).
const TILTS: &[&str] = &["none", "adv", "dis", "both"];

#[derive(Debug, Clone)]
pub struct State {
    pub who: CombatantId,
    pub title: String,
    pub fields: Vec<Field>,
    pub focus: usize,
    /// The odds of the check as the fields stand, or why they cannot be worked out yet.
    pub odds: Result<[String; 3], String>,
    /// The engine's refusal of the whole check.
    pub error: Option<String>,
    /// A complete failure left "Disadvantage: next check": the engine adds it to this check
    /// whatever the toggle says, so the odds shown count it too.
    pub owed: bool,
}

impl State {
    pub fn open(who: CombatantId, ctx: &Ctx) -> Self {
        let s = ctx.state();
        let rules = &ctx.enc.rules().sr2097;
        // A complete failure's Disadvantage weighs on this check: the form says so up front.
        let owed = s
            .get(who)
            .and_then(|c| c.status(&rules.check.any_disadvantage))
            .is_some();
        // A significant failure's is owed on a related check alone, which the GM judges: said
        // beside the toggle, left at none.
        let related = !owed
            && s.get(who)
                .and_then(|c| c.status(&rules.check.related_disadvantage))
                .is_some();
        let mut st = Self {
            who,
            title: format!("Success check: {}", s.name(who)),
            fields: vec![
                field("TN", "a number, or moderate, difficult, …", "moderate"),
                field("Bonus", "skill ranks + the two key attributes", ""),
                Field::toggle(
                    "Adv/Dis",
                    if owed {
                        "owed by a complete failure: counted whatever you pick; adv cancels it"
                    } else if related {
                        "a significant failure owes Disadvantage on a related check: pick dis if this is one"
                    } else {
                        "Advantage, Disadvantage, or both (they cancel)"
                    },
                    TILTS,
                    usize::from(owed) * 2,
                ),
                Field::toggle(
                    "Edge",
                    "yes: gain Advantage or remove Disadvantage",
                    NO_YES,
                    0,
                ),
                field("Dice", "empty: srtrack rolls; or the table's d10s", ""),
            ],
            focus: TN,
            odds: Err(String::new()),
            error: None,
            owed,
        };
        st.refresh(ctx);
        // Said at once, as the damage form does: no TN or bonus would let a Downed one roll.
        st.error = ctx.enc.may_act(who).err().map(|e| e.to_string());
        st
    }

    fn text(&self, i: usize) -> String {
        self.fields[i].get().to_lowercase()
    }

    /// The check's words, or the field to blame and why.
    fn query(&self, ctx: &Ctx) -> Result<OddsQuery, (usize, String)> {
        // As `sc` reads it, so that the engine refuses it in the same words, on the field.
        let rules = &ctx.enc.rules().sr2097;
        let tn = target_number(&self.fields[TN].get()).map_err(|e| (TN, e.to_string()))?;
        tn.value(rules).map_err(|e| (TN, e.to_string()))?;
        let bonus = parse_num(&self.fields[BONUS], true)
            .map_err(|e| (BONUS, e))?
            .unwrap_or(0);
        bonus_value(bonus, rules).map_err(|e| (BONUS, e.to_string()))?;
        let tilt = self.text(TILT);
        Ok(OddsQuery {
            tn,
            bonus,
            advantage: matches!(tilt.as_str(), "adv" | "both"),
            disadvantage: matches!(tilt.as_str(), "dis" | "both"),
            edge: self.text(EDGE) == "yes",
        })
    }

    fn command(&self, ctx: &Ctx) -> Result<Command, (usize, String)> {
        let q = self.query(ctx)?;
        let dice = parse_faces(&self.fields[DICE]).map_err(|e| (DICE, e))?;
        Ok(q.check(self.who, dice, None))
    }

    /// The odds, asked of the rules with the fields as they stand and the Disadvantage owed:
    /// those of the check the engine will roll.
    fn refresh(&mut self, ctx: &Ctx) {
        self.odds = match self.query(ctx) {
            // What the engine would refuse of the check (Edge the character has not left, …)
            // is said where its odds would be: there are none to roll.
            Ok(q) if let Err(e) = ctx.enc.check(q.clone().check(self.who, None, None)) => {
                Err(e.to_string())
            }
            Ok(mut q) => {
                q.disadvantage |= self.owed;
                odds_of(&q, &ctx.enc.rules().sr2097)
            }
            .map(|(_, odds)| odds_lines(&odds))
            .map_err(|e| e.to_string()),
            // A field left empty: the odds line asks for the TN and the bonus.
            Err((i, _)) if self.fields[i].get().is_empty() => Err(String::new()),
            Err((_, e)) => Err(e),
        };
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            Action::Cancel => Outcome::Close,
            Action::Confirm => {
                let cmd = self.command(ctx);
                form::confirm(&mut self.fields, &mut self.focus, cmd)
            }
            edit @ (Action::NextField | Action::PrevField | Action::Input(_)) => {
                self.error = edit_fields(&mut self.fields, &mut self.focus, edit)
                    .or_else(|| ctx.enc.may_act(self.who).err().map(|e| e.to_string()));
                self.refresh(ctx);
                Outcome::Stay
            }
            _ => Outcome::Stay,
        }
    }

    /// The engine refused the check (no Edge left, a face of 11, …): under the form.
    pub fn refused(&mut self, why: &str) {
        self.error = Some(why.to_string());
    }

    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let mut footer = match &self.odds {
            Ok([head, wins, losses]) => vec![
                Line::styled(format!("Odds: {head}"), t.title()),
                Line::styled(format!("  {wins}"), t.base()),
                Line::styled(format!("  {losses}"), t.base()),
            ],
            Err(e) => vec![Line::styled(
                if e.is_empty() {
                    "Odds: give the TN and the bonus".to_string()
                } else {
                    format!("Odds: {e}")
                },
                t.dim(),
            )],
        };
        footer.push(form::last_line(
            self.error.as_deref(),
            "roll",
            &self.fields,
            app,
        ));
        form::draw(
            &self.title,
            &self.fields,
            self.focus,
            footer,
            app,
            area,
            buf,
        );
    }
}
