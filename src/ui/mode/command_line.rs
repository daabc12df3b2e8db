//! The `:` command line: the command language of `srtrack exec`, typed on the status line.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use tui_input::Input;

use super::{Ctx, Outcome};
use crate::lang::{self, Line as Parsed};
use crate::ui::action::Action;
use crate::ui::app::App;
use crate::ui::view::{draw_lines, input_spans, wrap};

/// What shows above the line while it is open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// Why the last line was refused (by the parser or the engine); the line stays to mend.
    Refused(String),
    /// The words Tab could complete to.
    Options(String),
}

#[derive(Debug, Clone, Default)]
pub struct State {
    pub input: Input,
    pub note: Option<Note>,
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
                let parsed = lang::read(self.input.value(), ctx.enc);
                match parsed {
                    // The line stays for the GM to mend, the reason above it.
                    Err(e) => {
                        self.note = Some(Note::Refused(e.clone()));
                        Outcome::Fail(e)
                    }
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
                    Ok(Parsed::AnarchyOdds(test)) => {
                        match crate::report::anarchy::odds_line(&test, &ctx.enc.rules().anarchy) {
                            Ok(line) => Outcome::Answer(line),
                            Err(why) => Outcome::Fail(why),
                        }
                    }
                    Ok(Parsed::Odds(q)) => match crate::report::sr5::odds_answer(ctx.enc, &q) {
                        Ok(line) => Outcome::Answer(line),
                        Err(e) => Outcome::Fail(e.to_string()),
                    },
                    Ok(Parsed::Command(cmd)) => Outcome::run(cmd),
                    Ok(Parsed::FromRoster(add)) => match ctx.sheets.map(|r| r.brings(&add)) {
                        Some(Ok(brings)) => Outcome::Bring { brings, then: None },
                        Some(Err(e)) => Outcome::Fail(e),
                        None => Outcome::Fail(
                            "no roster here: this screen was opened without a data directory"
                                .into(),
                        ),
                    },
                }
            }
            _ => Outcome::Stay,
        }
    }

    /// Tab: completes the last word with what the command takes there (see `lang::complete`).
    fn complete(&mut self, ctx: &Ctx) -> Outcome {
        let value = self.input.value().to_string();
        let offer = lang::complete::complete(&value, ctx.enc);
        let head = &value[..offer.start];
        match offer.words.as_slice() {
            [] => {
                let why = format!("nothing completes \"{}\" here", offer.word);
                self.note = Some(Note::Refused(why.clone()));
                Outcome::Fail(why)
            }
            [one] => {
                // Written as the language reads it back: quoted (quotes inside escaped) when
                // it has spaces, commas or quotes; a keyword as it is.
                let word = if one.contains([' ', ',', '"']) {
                    lang::quoted(one)
                } else {
                    one.clone()
                };
                self.input = Input::new(format!("{head}{word} "));
                Outcome::Stay
            }
            many => {
                let mut common = many[0].clone();
                for c in many {
                    while !c.to_lowercase().starts_with(&common.to_lowercase()) {
                        common.pop();
                    }
                }
                // A start holding a quote is left to the GM: written out, it would close.
                if common.chars().count() > offer.word.chars().count() && !common.contains('"') {
                    self.input = Input::new(format!("{head}{common}"));
                }
                self.note = Some(Note::Options(many.join("  ")));
                Outcome::Stay
            }
        }
    }

    /// The engine refused the line: the reason shows above it.
    pub fn refused(&mut self, why: &str) {
        self.note = Some(Note::Refused(why.to_string()));
    }

    fn note_text(&self) -> Option<String> {
        match &self.note {
            Some(Note::Refused(why)) => Some(format!("✗ {why}")),
            Some(Note::Options(words)) => Some(words.clone()),
            None => None,
        }
    }

    /// Rows the note needs above the line on a screen this wide (it wraps, up to 4 rows).
    pub fn note_rows(&self, width: u16) -> u16 {
        self.note_text().map_or(0, |n| {
            u16::try_from(wrap(&n, usize::from(width), 2).len().min(4)).unwrap_or(4)
        })
    }

    /// The note above the line, if any: the reason a line was refused, or what Tab offers.
    pub fn render_note(&self, app: &App, area: Rect, buf: &mut Buffer) {
        let t = app.theme;
        let style = match &self.note {
            Some(Note::Refused(_)) => t.error(),
            _ => t.dim(),
        };
        let Some(text) = self.note_text() else { return };
        let lines: Vec<Line> = wrap(&text, usize::from(area.width), 2)
            .into_iter()
            .map(|l| Line::styled(l, style))
            .collect();
        draw_lines(&lines, area, buf);
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
