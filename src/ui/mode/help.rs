//! Help: what the screen shows, the verbs of the `:` line, and every key, those of the room it
//! was opened from first; Esc goes back to that room.

use std::cell::RefCell;
use std::rc::Rc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::{Ctx, Mode, Outcome};
use crate::encounter::System;
use crate::rules::HouseRules;
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::keymap::{self, ModeKind};
use crate::ui::theme::Theme;
use crate::ui::view::{body_rows, centered, clear, draw_lines, pane_block, wrap};

const MODES: [ModeKind; 10] = [
    ModeKind::Tracker,
    ModeKind::Picker,
    ModeKind::ReadyPicker,
    ModeKind::InterruptPicker,
    ModeKind::Form,
    ModeKind::Command,
    ModeKind::Choose,
    ModeKind::PlotPoints,
    ModeKind::Find,
    ModeKind::Help,
];

/// The help's width on screen, borders included.
const WIDTH: u16 = 76;

#[derive(Debug, Clone)]
pub struct State {
    pub scroll: usize,
    /// The room help was opened from, as it was: Esc goes back to it.
    pub back: Box<Mode>,
    /// The lines last built, for the width and theme they were built for: nothing they are
    /// made of changes while help is open, and building them is a sixth of a frame.
    lines: RefCell<Option<Built>>,
}

#[derive(Debug, Clone)]
struct Built {
    width: usize,
    theme: Theme,
    lines: Rc<[Line<'static>]>,
}

/// What the help's lines are made of: the three numbers of the rules they tell, the system, the
/// room help was opened from, the width and the theme.
type Made = (u8, u8, u8, System, ModeKind, usize, Theme);

thread_local! {
    /// The help's lines as built for the last few openings: opening it again in the same room
    /// builds nothing (building them is a sixth of a frame).
    static BUILT: RefCell<Vec<(Made, Rc<[Line<'static>]>)>> = const { RefCell::new(Vec::new()) };
}

/// How many builds [`BUILT`] keeps.
const KEEP_BUILT: usize = 4;

/// The help's lines, as built before for the same [`Made`], or built now.
fn built_before(
    rules: &HouseRules,
    system: System,
    back: ModeKind,
    width: usize,
    theme: Theme,
) -> Rc<[Line<'static>]> {
    let made = (
        rules.turn_spend_cap,
        rules.edge.ip_gained,
        rules.anarchy.plot_points.player_cap,
        system,
        back,
        width,
        theme,
    );
    BUILT.with_borrow_mut(|built| {
        if let Some((_, lines)) = built.iter().find(|(m, _)| *m == made) {
            return Rc::clone(lines);
        }
        let lines: Rc<[Line<'static>]> = content(rules, system, back, width, theme).into();
        if built.len() >= KEEP_BUILT {
            built.remove(0);
        }
        built.push((made, Rc::clone(&lines)));
        lines
    })
}

/// Builds the lines help opened from the tracker shows on `app`'s screen, so that the first `?`
/// finds them built (the event loop calls it once the first frame is on screen).
pub fn prepare(app: &App) {
    let (w, _) = app.size;
    let r = centered(Rect::new(0, 0, w, 1), WIDTH, 1);
    built_before(
        app.enc.rules(),
        app.encounter().system(),
        ModeKind::Tracker,
        usize::from(r.width.saturating_sub(2)),
        app.theme,
    );
}

impl State {
    pub fn open(back: Mode) -> Self {
        Self {
            scroll: 0,
            back: Box::new(back),
            lines: RefCell::new(None),
        }
    }

    /// The help's lines for `width` and `theme`, built once.
    fn lines(
        &self,
        rules: &HouseRules,
        system: System,
        width: usize,
        theme: Theme,
    ) -> Rc<[Line<'static>]> {
        let mut built = self.lines.borrow_mut();
        match &*built {
            Some(b) if b.width == width && b.theme == theme => Rc::clone(&b.lines),
            _ => {
                let lines = built_before(rules, system, self.back.kind(), width, theme);
                *built = Some(Built {
                    width,
                    theme,
                    lines: Rc::clone(&lines),
                });
                lines
            }
        }
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        let (w, h) = ctx.screen;
        let shown = usize::from(body_rows(h).saturating_sub(2));
        // A page is the rows shown less one, which stays in sight (as `less` pages).
        let page = shown.saturating_sub(1).max(1);
        let by = match action {
            Action::Cancel => {
                return Outcome::Open(std::mem::replace(&mut *self.back, Mode::Tracker));
            }
            Action::Down => 1,
            Action::PageDown => page,
            Action::Up => {
                self.scroll = self.scroll.saturating_sub(1);
                return Outcome::Stay;
            }
            Action::PageUp => {
                self.scroll = self.scroll.saturating_sub(page);
                return Outcome::Stay;
            }
            _ => return Outcome::Stay,
        };
        // Never past the last page.
        let inner = usize::from(w.min(WIDTH).saturating_sub(2));
        // The lines on screen, whatever their colours: their count does not depend on them.
        let drawn = self
            .lines
            .borrow()
            .as_ref()
            .map(|b| (b.width, b.lines.len()));
        let len = match drawn {
            Some((width, len)) if width == inner => len,
            _ => self
                .lines(ctx.enc.rules(), ctx.enc.system(), inner, Theme::default())
                .len(),
        };
        self.scroll = (self.scroll + by).min(len.saturating_sub(shown));
        Outcome::Stay
    }

    /// Where the help is drawn over the body `area`: a column of its width, as tall as the body.
    pub fn area(area: Rect) -> Rect {
        centered(area, WIDTH, area.height)
    }

    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let r = Self::area(area);
        clear(r, buf);
        let lines = self.lines(
            app.enc.rules(),
            app.encounter().system(),
            usize::from(r.width.saturating_sub(2)),
            t,
        );
        let shown = usize::from(r.height.saturating_sub(2));
        let first = self.scroll.min(lines.len().saturating_sub(shown));
        let last = (first + shown).min(lines.len());
        let block = pane_block("Help (Esc closes)", true, t).title_bottom(Line::styled(
            format!(
                " lines {}–{last} of {}  j/k, PgUp/PgDn ",
                first + 1,
                lines.len()
            ),
            t.dim(),
        ));
        let inner = block.inner(r);
        block.render(r, buf);
        draw_lines(&lines[first..last], inner, buf);
    }
}

/// Every line of the help, wrapped to `width`: the screen, the command verbs, the keys.
pub fn content(
    rules: &HouseRules,
    system: System,
    first: ModeKind,
    width: usize,
    t: Theme,
) -> Vec<Line<'static>> {
    let mut out: Vec<Line<'static>> = Vec::new();
    let head = |out: &mut Vec<Line<'static>>, text: &str| {
        out.push(Line::styled(text.to_string(), t.title()));
    };
    let para = |out: &mut Vec<Line<'static>>, text: &str| {
        for l in wrap(text, width, 4) {
            out.push(Line::from(l));
        }
    };
    let keys = |out: &mut Vec<Line<'static>>, m: ModeKind| {
        // A room of another system's (Anarchy's Plot Point menu) has no keys here, nor a head.
        let bound = keymap::bindings(m, system);
        if bound.is_empty() {
            return;
        }
        head(out, &format!("Keys: {}", m.label()));
        for (k, label) in bound {
            para(out, &format!("  {k:<16} {label}"));
        }
        if matches!(
            m,
            ModeKind::Picker
                | ModeKind::ReadyPicker
                | ModeKind::InterruptPicker
                | ModeKind::Form
                | ModeKind::Command
                | ModeKind::Find
        ) {
            para(
                out,
                &format!(
                    "  {:<16} edit the text (←/→, Home/End, Backspace, C-w…)",
                    "typing"
                ),
            );
        }
        if m == ModeKind::Form {
            para(
                out,
                &format!(
                    "  {:<16} on a choice (Adv/Dis, Edge, a track…): the next or previous option, or its first letter",
                    "Space, ←/→"
                ),
            );
        }
        if m == ModeKind::Choose {
            para(
                out,
                &format!("  {:<16} jump to the first line about that name", "typing"),
            );
        }
        out.push(Line::from(""));
    };
    // The keys of the room help was opened from come first: they are what was asked for.
    keys(&mut out, first);
    head(&mut out, &format!("The screen ({})", system.name()));
    for text in super::help_screen::paragraphs(system, rules) {
        para(&mut out, &text);
    }
    out.push(Line::from(""));
    head(
        &mut out,
        "Commands of the : line (names may be short: A for Ana)",
    );
    for synopsis in crate::lang::synopses::synopses(system) {
        para(&mut out, &format!("  {synopsis}"));
    }
    for m in MODES.into_iter().filter(|m| *m != first) {
        keys(&mut out, m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `prepare` builds is what the first `?` from the tracker shows, at each width.
    #[test]
    fn the_lines_prepared_are_the_lines_the_first_help_draws() {
        for (w, h) in [(160, 48), (80, 24), (70, 30)] {
            let mut app = crate::ui::tests::app_for(crate::ui::demo::encounter());
            app.resize(w, h);
            prepare(&app);
            let prepared = BUILT.with_borrow(|b| b.last().map(|(_, l)| Rc::clone(l)));
            let help = State::open(Mode::Tracker);
            let r = centered(Rect::new(0, 0, w, h), WIDTH, h);
            let shown = help.lines(
                app.enc.rules(),
                app.encounter().system(),
                usize::from(r.width.saturating_sub(2)),
                app.theme,
            );
            let prepared = prepared.expect("built");
            assert!(Rc::ptr_eq(&prepared, &shown), "{w}x{h}: built once");
        }
    }

    /// Help's text at a table of `system`, one string.
    fn text(system: System) -> String {
        let lines = content(
            &HouseRules::embedded(),
            system,
            ModeKind::Tracker,
            400,
            Theme::default(),
        );
        lines
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// What help must say, and must not say, at a table of each system.
    const TOLD: [(System, &[&str], &[&str]); 3] = [
        (
            System::Anarchy,
            &[
                "The screen (Shadowrun: Anarchy)",
                "Narration: the turn's order",
                "narrate [NAME]",
                "seating NAME, NAME",
                "sheet NAME [armor N]",
                "pp NAME award",
                "gm spend WHAT",
                "gm order reverse|random",
                "atest NAME POOL vs POOL",
                "aodds POOL vs POOL",
                "cooldown NAME THING",
                "damage NAME N armor|matrix",
                "heal NAME N armor|matrix",
                "add NAME [xN] [pc|npc] [edge N] [body N] [will N] [hidden] |",
                "edit NAME [name NEW] [pc|npc] [edge N] [body N] [will N]\n",
                "Keys: Plot Point menu",
            ],
            &[
                "int N",
                "rea N",
                "mod N",
                "ip N",
                "IP per pass",
                "passes",
                "roll all",
                "delay NAME",
                "dmg ",
                "  test NAME",
                "Keys: Action picker",
            ],
        ),
        (
            System::Sr2097,
            &[
                "The screen (Shadowrun 2097)",
                "injuries",
                "dmg NAME TARGET (with WEAPON | NdM+ST)",
                "sc NAME tn N|WORD",
                "armor NAME pt N dr N",
                "edge NAME (boost [dice A B] | lessen [N]",
                "odds2097 tn",
                "strength NAME N",
                "IP per pass",
                "(W shows it again",
                "roll NAME|GROUP [dice A B …]",
                "add NAME [xN] [pc|npc] int N rea N",
            ],
            &[
                "[hits N [glitch",
                "[pc|npc] [edge N] [body N]",
                "attack NAME",
                "teamwork",
                "closecall",
                "dv N",
                "atest",
                "narrate",
                "armor|matrix",
                "(w shows",
                "Keys: Plot Point menu",
            ],
        ),
        (
            System::Sr5,
            &[
                "The screen (SR5)",
                "attack NAME TARGET",
                "test NAME POOL",
                "armor NAME N",
                "Keys: Action picker for an interrupt\n  Enter            spend\n  Esc              close\n  ↑",
                "(W shows it again",
                "roll NAME|GROUP [hits N [glitch|critical]]",
                "add NAME [xN] [pc|npc] int N rea N",
            ],
            &[
                "[dice A B",
                "[pc|npc] [edge N] [body N]",
                "dmg ",
                "odds2097",
                "pt N dr N",
                "narrate",
                "Plot Points",
                "armor|matrix",
                "(w shows",
                "Keys: Plot Point menu",
            ],
        ),
    ];

    /// Help tells each system's own screen and commands, and nothing of another's.
    #[test]
    fn help_shows_the_tables_own_screen_and_commands() {
        for (system, said, unsaid) in TOLD {
            let help = text(system);
            for s in said {
                assert!(help.contains(s), "{system:?} help lacks {s:?}");
            }
            for u in unsaid {
                assert!(!help.contains(u), "{system:?} help says {u:?}");
            }
        }
    }
}
