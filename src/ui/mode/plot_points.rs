//! The Plot Point menu: for the selected character, an award and every spend of the menu, and
//! the GM's spends and turn orders; refusals greyed with the engine's reason.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::{Ctx, Outcome, choose};
use crate::encounter::system::anarchy::{
    AnarchyCommand, AnarchyRefusal, AwardReason, Condition, OrderChange, SpendInput,
};
use crate::encounter::{CombatantId, Command, RuleError, Side};
use crate::rules::anarchy::{GmUse, SpendCost, SpendDef, SpendEffect};
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::view::{centered, clear, cut, draw_lines, more_hints, pane_block, wrap};

/// The menu: a choice list under a line of Plot Points, with what each line does.
#[derive(Debug, Clone)]
pub struct State {
    pub who: CombatantId,
    /// The line above the list: the character's Plot Points and the GM's pool.
    pub head: String,
    pub list: choose::State,
    /// What each line of the list does, in a few words.
    pub summaries: Vec<String>,
}

/// The menu's least width in cells, within the screen's.
const WIDTH: u16 = 76;

/// Whether a spend needs words typed after it (a track, a thing, a number, some text).
fn needs_words(def: &SpendDef) -> bool {
    def.cost == SpendCost::Chosen
        || matches!(
            def.effect,
            SpendEffect::Recover | SpendEffect::Cooldown | SpendEffect::Text
        )
}

fn cost(def: &SpendDef) -> String {
    match def.cost {
        SpendCost::Points(p) => format!("{p} PP"),
        SpendCost::Chosen => "X PP".into(),
    }
}

fn spend(words: &str, on: Option<CombatantId>) -> SpendInput {
    SpendInput {
        words: words.to_string(),
        on,
        rest: String::new(),
        note: String::new(),
    }
}

fn run(label: String, summary: String, cmd: Command, ctx: &Ctx) -> (choose::Item, String) {
    (choose::Item::run(label, cmd, ctx), summary)
}

/// A line that opens the command line. `probe` is the spend with its words still missing: the
/// engine's refusal greys the line, unless the missing words are all it lacks.
fn typed(
    def: &SpendDef,
    label: String,
    summary: String,
    text: String,
    probe: &Command,
    ctx: &Ctx,
) -> (choose::Item, String) {
    let refusal = match ctx.enc.check(probe.clone()) {
        Err(RuleError::Anarchy(AnarchyRefusal::SpendNeeds { .. }))
            if def.effect == SpendEffect::Recover =>
        {
            nothing_to_recover(probe, ctx)
        }
        Ok(()) | Err(RuleError::Anarchy(AnarchyRefusal::SpendNeeds { .. })) => None,
        Err(e) => Some(e.to_string()),
    };
    let item = choose::Item {
        label,
        choice: choose::Choice::Type(text),
        refusal,
        name: None,
    };
    (item, summary)
}

/// First Aid/Fix names its track: refused (why, for the greyed line) when the engine refuses
/// it on every track, as on a character with no damage at all.
fn nothing_to_recover(probe: &Command, ctx: &Ctx) -> Option<String> {
    let mut first = None;
    for (word, _) in Condition::WORDS {
        let mut on_track = probe.clone();
        if let Command::Anarchy(
            AnarchyCommand::Spend { spend, .. } | AnarchyCommand::GmSpend { spend },
        ) = &mut on_track
        {
            // The track follows the spend's name, or the name after `on`.
            if spend.on.is_some() {
                spend.rest = word.to_string();
            } else {
                spend.words = format!("{} {word}", spend.words);
            }
        }
        match ctx.enc.check(on_track) {
            Ok(()) => return None,
            Err(e) => {
                first.get_or_insert(format!("{word}: {e}"));
            }
        }
    }
    first.map(|why| format!("nothing to recover on any track ({why})"))
}

impl State {
    /// The menu for `who`: a player's own spends, or the GM's on an NPC; the GM's orders last.
    pub fn open(who: CombatantId, ctx: &Ctx) -> Self {
        let s = ctx.state();
        let rules = &ctx.enc.rules().anarchy;
        let name = crate::lang::quote(s.name(who));
        let player = s.get(who).is_some_and(|c| c.side == Side::Pc);
        let mut items = Vec::new();
        if player {
            items.push(run(
                "Award 1 Plot Point".into(),
                "good narration, a Cue or a Disposition shown".into(),
                Command::Anarchy(AnarchyCommand::Award {
                    who,
                    reason: AwardReason::Unsaid,
                }),
                ctx,
            ));
            for def in &rules.spends {
                let label = format!("{} ({})", def.name, cost(def));
                let words = def.name.to_lowercase();
                items.push(if needs_words(def) {
                    typed(
                        def,
                        label,
                        def.summary.clone(),
                        format!("pp {name} spend {words} "),
                        &Command::Anarchy(AnarchyCommand::Spend {
                            who,
                            spend: spend(&def.name, None),
                        }),
                        ctx,
                    )
                } else {
                    run(
                        label,
                        def.summary.clone(),
                        Command::Anarchy(AnarchyCommand::Spend {
                            who,
                            spend: spend(&def.name, None),
                        }),
                        ctx,
                    )
                });
            }
        }
        for def in rules.spends.iter().filter(|d| d.gm != GmUse::Never) {
            // On a player the GM may only buy the glitch die or a twist.
            if player && def.gm == GmUse::Npc {
                continue;
            }
            let label = format!("GM: {} on {} ({})", def.name, s.name(who), cost(def));
            let words = def.name.to_lowercase();
            items.push(if needs_words(def) {
                typed(
                    def,
                    label,
                    def.summary.clone(),
                    format!("gm spend {words} on {name} "),
                    &Command::Anarchy(AnarchyCommand::GmSpend {
                        spend: spend(&def.name, Some(who)),
                    }),
                    ctx,
                )
            } else {
                run(
                    label,
                    def.summary.clone(),
                    Command::Anarchy(AnarchyCommand::GmSpend {
                        spend: spend(&def.name, Some(who)),
                    }),
                    ctx,
                )
            });
        }
        for (change, label, summary) in [
            (
                OrderChange::Reverse,
                "GM: next turn in reverse order",
                "the last seat narrates first",
            ),
            (
                OrderChange::Random,
                "GM: next turn from a rolled seat",
                "a die picks who narrates first",
            ),
        ] {
            items.push(run(
                label.into(),
                summary.into(),
                Command::Anarchy(AnarchyCommand::GmOrder { change }),
                ctx,
            ));
        }
        let table = s.narration();
        let have = table
            .and_then(|n| n.player(who))
            .map_or(rules.plot_points.player_start, |p| p.plot_points);
        let gm = table.map_or(u32::from(rules.plot_points.gm_start), |n| n.gm_points);
        let name = crate::ui::view::cut(s.name(who), crate::ui::view::MENU_NAME_CELLS);
        let head = if player {
            format!(
                "{name}: {have} of {} Plot Points · GM pool {gm}",
                rules.plot_points.player_cap
            )
        } else {
            format!("{name} (NPC) · GM pool {gm}")
        };
        let (items, summaries) = items.into_iter().unzip();
        Self {
            who,
            head,
            list: choose::State::open("Plot Points".into(), items),
            summaries,
        }
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            // A page is the rows the list has under the head, above the summary.
            Action::PageUp | Action::PageDown => {
                let rows = self.list_rows(self.area(choose::body(ctx.screen)));
                self.list.go(action, rows);
                Outcome::Stay
            }
            _ => self.list.update(action, ctx),
        }
    }

    /// Where the menu is drawn over the body `area`: the head, the list, the selected line's
    /// whole reason when the list cuts reasons, and its summary.
    pub fn area(&self, area: Rect) -> Rect {
        // A wide screen shows each line's reason whole, as a choice list does.
        let w = self.list.natural_width(WIDTH).min(area.width);
        let inner = usize::from(w.saturating_sub(2));
        let below = self.list.reason_rows(inner) + self.summary_rows(inner);
        let h = (self.list.items.len() + 3 + below).min(usize::from(area.height));
        centered(area, w, u16::try_from(h).unwrap_or(u16::MAX).max(6))
    }

    /// The rows the list has in `r`, the box drawn: those inside its borders, less the head's,
    /// the reason's and the summary's, at least one.
    fn list_rows(&self, r: Rect) -> usize {
        let inner = usize::from(r.width.saturating_sub(2));
        usize::from(r.height.saturating_sub(3))
            .saturating_sub(self.list.reason_rows(inner) + self.summary_rows(inner))
            .max(1)
    }

    /// What line `i` does, and for a line finished on the command line, that Enter opens it.
    fn summary(&self, i: usize) -> String {
        let (Some(summary), Some(item)) = (self.summaries.get(i), self.list.items.get(i)) else {
            return String::new();
        };
        let then = match &item.choice {
            choose::Choice::Type(_) => " (Enter: finish it on the command line)",
            choose::Choice::Run(_)
            | choose::Choice::Attack(_)
            | choose::Choice::InterruptBy(_)
            | choose::Choice::MoreForReady { .. }
            | choose::Choice::Back => "",
        };
        format!("{summary}{then}")
    }

    /// The rows kept for the summary in `w` cells: as many as the longest takes, wrapped, so
    /// the box does not move with the selection.
    fn summary_rows(&self, w: usize) -> usize {
        (0..self.summaries.len())
            .map(|i| wrap(&self.summary(i), w, 0).len())
            .max()
            .unwrap_or(0)
            .max(1)
    }

    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let r = self.area(area);
        clear(r, buf);
        let rows = self.list_rows(r);
        // Lines out of sight are counted on the border, as a choice list counts them.
        let (above, below) = self.list.out_of_sight(rows);
        let block = more_hints(pane_block(&self.list.title, true, t), above, below, t);
        let inner = block.inner(r);
        block.render(r, buf);
        let w = inner.width as usize;
        let mut lines = vec![Line::styled(cut(&self.head, w), t.title())];
        lines.extend(self.list.lines(rows, w, t));
        lines.resize(rows + 1, Line::default());
        lines.extend(self.list.reason_lines(w, t));
        let mut summary: Vec<Line> = wrap(&self.summary(self.list.selected), w, 0)
            .into_iter()
            .map(|l| Line::styled(l, t.dim()))
            .collect();
        summary.resize(self.summary_rows(w), Line::default());
        lines.extend(summary);
        draw_lines(&lines, inner, buf);
    }
}
