//! A frame on its way to the terminal, for the GM's screen and the players' view alike.
//!
//! A terminal emulator pays for every cell it is sent (measured in a pseudo-terminal: about
//! 1.7 µs a character through `pyte`, against 4 µs for a cursor move), so what is sent should be
//! what changed on the glass, not what changed in the buffer.

use std::io::{self, Write};

use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use ratatui::widgets::Widget;

use super::wire::Wire;

/// The modifiers a blank shows: a reversed, underlined or crossed-out space is seen.
const SEEN_ON_BLANK: Modifier = Modifier::REVERSED
    .union(Modifier::UNDERLINED)
    .union(Modifier::CROSSED_OUT);

/// Whether a blank in this style looks like a blank in no style: no background, none of
/// [`SEEN_ON_BLANK`].
pub(crate) fn shows_nothing_on_blank(bg: Color, modifier: Modifier) -> bool {
    bg == Color::Reset && !modifier.intersects(SEEN_ON_BLANK)
}

/// Whether `cell` is a blank whose style shows nothing.
pub(crate) fn unseen_blank(cell: &Cell) -> bool {
    cell.symbol() == " " && shows_nothing_on_blank(cell.bg, cell.modifier)
}

/// Blanks whose style shows nothing (no background, none of [`SEEN_ON_BLANK`]) become plain
/// blanks. The terminal shows the same; the diff then finds them equal to a cleared screen and
/// to each other, so a padded row or a pane's empty space is not sent again and again.
pub fn settle(buf: &mut Buffer) {
    for cell in &mut buf.content {
        if (cell.fg != Color::Reset || !cell.modifier.is_empty())
            && unseen_blank(cell)
            && cell.diff_option == ratatui::buffer::CellDiffOption::None
        {
            *cell = Cell::EMPTY;
        }
    }
}

/// The terminal frames are drawn to: the one buffer each frame is drawn into, and the
/// [`Wire`] that sends where it differs from what the terminal shows.
///
/// In place of ratatui's `Terminal`, which keeps the last frame as a second buffer and compares
/// the two whole: the wire already knows what the terminal shows. The GM's screen never shows
/// the terminal's cursor (it is hidden when the screen is set up).
pub struct Screen<W: Write> {
    buffer: Buffer,
    wire: Wire<W>,
}

impl<W: Write> Screen<W> {
    /// A screen of `width` × `height` cells, blank, written through `out`.
    pub fn new(out: W, width: u16, height: u16) -> Self {
        Self {
            buffer: Buffer::empty(Rect::new(0, 0, width, height)),
            wire: Wire::new(out),
        }
    }

    /// The screen's cells.
    pub fn area(&self) -> Rect {
        self.buffer.area
    }

    /// The terminal has a new size: it is cleared, and the next frame is sent whole.
    ///
    /// # Errors
    /// When the terminal cannot be written.
    pub fn resize(&mut self, width: u16, height: u16) -> io::Result<()> {
        self.buffer.resize(Rect::new(0, 0, width, height));
        self.wire.clear()
    }

    /// Draws `widget` as the next frame, settled (see [`settle`]), and sends what it changed.
    ///
    /// # Errors
    /// When the terminal cannot be written.
    pub fn draw(&mut self, widget: impl Widget) -> io::Result<&Buffer> {
        self.buffer.reset();
        let area = self.buffer.area;
        widget.render(area, &mut self.buffer);
        settle(&mut self.buffer);
        self.wire.present(&self.buffer)?;
        Ok(&self.buffer)
    }

    /// The writer, for tests and benches that count what was sent.
    pub fn writer(&self) -> &W {
        self.wire.writer()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Style;

    fn one(style: Style, symbol: &str) -> Cell {
        let mut buf = Buffer::empty(Rect::new(0, 0, 1, 1));
        buf[(0, 0)].set_symbol(symbol).set_style(style);
        settle(&mut buf);
        buf[(0, 0)].clone()
    }

    #[test]
    fn a_blank_that_shows_nothing_becomes_plain() {
        for style in [
            Style::new().cyan(),
            Style::new().bold(),
            Style::new().yellow().italic().dim(),
        ] {
            assert_eq!(one(style, " "), Cell::EMPTY, "{style:?}");
        }
    }

    #[test]
    fn a_blank_that_shows_keeps_its_style() {
        for style in [
            Style::new().on_blue(),
            Style::new().reversed(),
            Style::new().underlined().red(),
            Style::new().crossed_out(),
        ] {
            let cell = one(style, " ");
            assert_ne!(cell, Cell::EMPTY, "{style:?}");
            assert_eq!(cell.style(), Cell::EMPTY.style().patch(style), "{style:?}");
        }
    }

    #[test]
    fn text_keeps_its_style() {
        let cell = one(Style::new().cyan().bold(), "x");
        assert_eq!(cell.symbol(), "x");
        assert_eq!(cell.fg, Color::Cyan);
    }

    #[test]
    fn a_padded_row_sends_only_its_text() {
        let mut screen = Screen::new(Vec::new(), 20, 1);
        let row = ratatui::text::Line::from("ab").style(Style::new().cyan().bold());
        screen
            .draw(ratatui::widgets::Paragraph::new(row))
            .expect("draw");
        assert_eq!(
            String::from_utf8_lossy(screen.writer()),
            "\x1b[1;1H\x1b[1;36mab\x1b[0m",
            "only `a` and `b` differ from a cleared screen"
        );
    }

    #[test]
    fn a_frame_that_changes_nothing_sends_nothing_and_a_resize_sends_all() {
        let mut screen = Screen::new(Vec::new(), 10, 2);
        let text = || ratatui::widgets::Paragraph::new("hi there");
        screen.draw(text()).expect("draw");
        let first = screen.writer().len();
        screen.draw(text()).expect("draw");
        assert_eq!(screen.writer().len(), first, "nothing changed");
        screen.resize(12, 2).expect("resize");
        screen.draw(text()).expect("draw");
        let again = String::from_utf8_lossy(&screen.writer()[first..]).into_owned();
        assert_eq!(
            again, "\x1b[2J\x1b[1;1Hhi there",
            "cleared, then sent whole"
        );
    }
}
