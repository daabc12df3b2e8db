//! The `:` command line: the command language of `srtrack exec`, typed on the status line.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use tui_input::Input;

use super::{Ctx, Outcome};
use crate::lang::{self, Line as Parsed};
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::view::{draw_lines, input_spans};

#[derive(Debug, Clone, Default)]
pub struct State {
    pub input: Input,
}

impl State {
    /// The line typed so far.
    pub fn value(&self) -> &str {
        self.input.value()
    }

    pub fn update(&mut self, action: Action, ctx: &Ctx) -> Outcome {
        match action {
            Action::Cancel => Outcome::Close,
            Action::Input(req) => {
                self.input.handle(req);
                Outcome::Stay
            }
            Action::Complete => self.complete(ctx),
            Action::Confirm => {
                match lang::parse(self.input.value(), ctx.state(), ctx.catalogue()) {
                    // The line stays for the GM to mend.
                    Err(e) => Outcome::Fail(e.to_string()),
                    Ok(Parsed::Nothing) => Outcome::Close,
                    Ok(Parsed::Undo(n)) => Outcome::Undo(n.max(1)),
                    Ok(Parsed::Redo(n)) => Outcome::Redo(n.max(1)),
                    Ok(Parsed::Why(a, b)) => Outcome::Answer(ctx.state().explain_order(a, b)),
                    Ok(Parsed::Odds2097(q)) => {
                        match crate::report::sr2097::odds_answer(&q, &ctx.enc.rules().sr2097) {
                            Ok(answer) => Outcome::Answer(answer),
                            Err(e) => Outcome::Fail(e.to_string()),
                        }
                    }
                    Ok(Parsed::Odds(q)) => match crate::report::sr5::odds_answer(ctx.enc, &q) {
                        Ok(line) => Outcome::Answer(line),
                        Err(e) => Outcome::Fail(e.to_string()),
                    },
                    Ok(Parsed::Command(cmd)) => Outcome::run(cmd),
                }
            }
            _ => Outcome::Stay,
        }
    }

    /// Tab: completes the last word from verbs, names and actions.
    fn complete(&mut self, ctx: &Ctx) -> Outcome {
        let value = self.input.value().to_string();
        let start = value.rfind(' ').map_or(0, |i| i + 1);
        let (head, word) = value.split_at(start);
        let lw = word.to_lowercase();
        let s = ctx.state();
        let mut cands: Vec<String> = if head.trim().is_empty() {
            lang::VERBS.iter().map(|(v, _)| (*v).to_string()).collect()
        } else {
            s.present()
                .map(|c| c.name.clone())
                .chain(s.groups.iter().map(|g| g.name.clone()))
                .chain(ctx.catalogue().actions().iter().map(|a| a.name.clone()))
                .collect()
        };
        cands.retain(|c| c.to_lowercase().starts_with(&lw));
        cands.sort();
        cands.dedup();
        match cands.as_slice() {
            [] => Outcome::Fail(format!("nothing completes \"{word}\"")),
            [one] => {
                let quoted = if one.contains(' ') {
                    format!("\"{one}\"")
                } else {
                    one.clone()
                };
                self.input = Input::new(format!("{head}{quoted} "));
                Outcome::Stay
            }
            many => {
                let mut common = many[0].clone();
                for c in many {
                    while !c.to_lowercase().starts_with(&common.to_lowercase()) {
                        common.pop();
                    }
                }
                if common.len() > word.len() {
                    self.input = Input::new(format!("{head}{common}"));
                }
                Outcome::Say(many.join("  "))
            }
        }
    }

    /// Drawn on the status line, in place of the message.
    pub fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let mut spans = vec![Span::styled(":", t.title())];
        spans.extend(input_spans(
            &self.input,
            (area.width as usize).saturating_sub(1),
            t,
        ));
        draw_lines(&[Line::from(spans)], area, buf);
    }
}
