//! Finding a character by name: letters typed on the status line move the order pane's
//! selection to the first name they fit; Enter keeps it there, Esc puts it back.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use tui_input::Input;

use super::tracker::Selection;
use super::{After, Ctx, Outcome, find_name};
use crate::encounter::CombatantId;
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::view::{draw_lines, input_spans};

#[derive(Debug, Clone)]
pub struct State {
    pub input: Input,
    /// Where the selection was: Esc goes back there.
    pub back: Selection,
    /// The character the letters lead to, if any.
    pub found: Option<CombatantId>,
}

impl State {
    pub fn open(back: Selection) -> Self {
        Self {
            input: Input::default(),
            back,
            found: None,
        }
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            Action::Cancel => Outcome::Select(self.back, After::Close),
            // Letters no name fits: the line stays, saying so, until mended or Esc (as Enter
            // on a refused line of a list); closing would keep what an earlier letter found.
            Action::Confirm if self.found.is_none() && !self.input.value().is_empty() => {
                Outcome::Stay
            }
            Action::Confirm => Outcome::Close,
            Action::Input(req) => {
                self.input.handle(req);
                self.seek(ctx, 0)
            }
            // Tab: the next name the letters fit.
            Action::Complete => {
                let from = self
                    .found
                    .and_then(|id| ctx.roster.iter().position(|x| *x == id))
                    .map_or(0, |i| i + 1);
                self.seek(ctx, from)
            }
            _ => Outcome::Stay,
        }
    }

    fn seek(&mut self, ctx: &Ctx, from: usize) -> Outcome {
        let s = ctx.state();
        let names = ctx.roster.iter().map(|id| s.name(*id));
        self.found = find_name(names, self.input.value(), from).map(|i| ctx.roster[i]);
        match self.found {
            Some(id) => Outcome::Select(Selection::On(id), After::Stay),
            None => Outcome::Stay,
        }
    }

    /// Drawn on the status line, in place of the message.
    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let mut spans = vec![Span::styled("find: ", t.title())];
        spans.extend(input_spans(&self.input, 24, t));
        let said = match (self.found, self.input.value().is_empty()) {
            (_, true) => "  type a name; Enter keeps, Esc goes back".to_string(),
            (Some(id), false) => format!(
                "  → {}  (Tab: next, Enter: keep, Esc: back)",
                crate::text::escaped(app.state().name(id))
            ),
            (None, false) => "  no name fits (Esc: back)".to_string(),
        };
        spans.push(Span::styled(said, t.dim()));
        draw_lines(&[Line::from(spans)], area, buf);
    }
}
