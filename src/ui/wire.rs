//! What writes frames to the terminal: it compares a frame with what the terminal shows and
//! sends the cells that differ, in a shorter encoding than ratatui's crossterm backend.
//!
//! Measured in a pseudo-terminal, what a key costs the GM is mostly what the terminal must parse.
//! crossterm's backend moves the cursor with an absolute position before every run, sets colours
//! as 256-colour indexes (`ESC[38;5;6;49m`), sends each modifier as its own sequence, and resets
//! four attributes after every frame. This one:
//! - moves right along a row with a relative move (`ESC[3C`), elsewhere with one absolute move,
//!   and steps over a gap of up to [`GAP_FILL`] unchanged cells by writing them again when that
//!   needs no change of style (it remembers what it wrote: a space is shorter than a move);
//! - sends one SGR sequence per change of style, with the 16 basic colours as their short codes
//!   (`ESC[1;36m`: the same palette entries), and only what changed;
//! - writes a blank that shows nothing ([`unseen_blank`]) in whatever style is in
//!   force, when that style shows nothing on a blank either;
//! - erases a run of at least [`ERASE_RUN`] blanks (a popup closing, a line growing shorter)
//!   with one `ECH` instead of writing them, running on over cells already blank on the screen;
//! - resets the style once at the end of a frame, and only if it was changed;
//! - moves rows up or down with the terminal's scrolling region when the screen asks
//!   ([`Wire::scroll`]: the log as entries come and go), so that what only moved is not sent.
//!
//! It is not a ratatui `Backend`: a `Terminal` keeps the last frame as a second buffer and
//! compares the two cell by cell (measured: a fifth of a key's time in the real program, most of
//! it measuring the width of every symbol twice), when this already remembers what is on the
//! screen, in a fifth of a `Cell`'s memory. [`super::frame::Screen`] draws into one buffer and
//! hands it to [`Wire::present`].

use std::io::{self, Write};
use std::ops::Range;

use ratatui::buffer::{Buffer, Cell, CellDiffOption};
use ratatui::crossterm::{Command, terminal};
use ratatui::layout::Position;
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr as _;

use super::frame::{shows_nothing_on_blank, unseen_blank};
use crate::text::push_number;

/// The longest run of unchanged cells written again rather than stepped over: a cursor move is
/// four bytes, and costs an emulator about as much as two or three characters.
const GAP_FILL: u16 = 3;

/// The shortest run of blanks to erase with one `ECH` (erase characters) and a move past it
/// rather than by writing spaces: the two sequences take about as many bytes as six spaces, and
/// cost an emulator less than four.
const ERASE_RUN: usize = 6;

/// A terminal reached through a writer (the real one: a buffered stdout).
pub struct Wire<W: Write> {
    out: W,
    /// The encoded frame, written to `out` in one piece.
    scratch: String,
    /// What the terminal shows, as far as this wrote it since it was cleared: the screen's
    /// cells row by row, `cols` to a row (empty after a clear: all blank). `None`: a cell not
    /// known to hold one plain character (a wide character and its right half, a grapheme of
    /// several), sent again.
    shown: Vec<Option<Shown>>,
    cols: usize,
    /// Cleared since the last frame: every row of the next is sent.
    fresh: bool,
    /// The cells of the frame being sent, kept between frames: the first frame sizes it for a
    /// whole screen, so a later frame (the first popup after a launch) finds its memory there
    /// rather than growing a new list a page fault at a time.
    sent: Vec<Sent>,
    /// Rows moved since the last frame ([`Wire::scroll`]): sent ahead of its cells.
    moves: String,
    /// Sequences to send ahead of the next frame, in its write ([`Wire::send_ahead`]).
    ahead: String,
}

/// A one-cell character on the screen and its style: a fifth of a [`Cell`]'s memory.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shown {
    ch: char,
    pen: Pen,
}

impl Shown {
    const BLANK: Self = Self {
        ch: ' ',
        pen: Pen::RESET,
    };
}

/// The style in force on the terminal while a frame is written.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Pen {
    fg: Color,
    bg: Color,
    underline: Color,
    modifier: Modifier,
}

impl Pen {
    const RESET: Self = Self {
        fg: Color::Reset,
        bg: Color::Reset,
        underline: Color::Reset,
        modifier: Modifier::empty(),
    };

    fn of(cell: &Cell) -> Self {
        Self {
            fg: cell.fg,
            bg: cell.bg,
            underline: cell.underline_color,
            modifier: cell.modifier,
        }
    }

    /// Whether `cell` is written in this style (field by field: no pen made to compare).
    fn is(self, cell: &Cell) -> bool {
        self.fg == cell.fg
            && self.bg == cell.bg
            && self.modifier == cell.modifier
            && self.underline == cell.underline_color
    }

    /// Whether a blank written in this style looks like a blank in no style.
    fn blank_unseen(self) -> bool {
        shows_nothing_on_blank(self.bg, self.modifier)
    }
}

impl<W: Write> Wire<W> {
    pub fn new(out: W) -> Self {
        Self {
            out,
            scratch: String::with_capacity(1 << 14),
            shown: Vec::new(),
            cols: 0,
            fresh: true,
            sent: Vec::new(),
            moves: String::new(),
            ahead: String::new(),
        }
    }

    /// Sends `command` (the switch to the alternate screen, a clear) at the head of the next
    /// frame, in the one write the frame goes out in: however large the frame, the terminal
    /// never shows what lies between the two.
    pub fn send_ahead(&mut self, command: impl Command) {
        // Writing into a String does not fail.
        let _ = command.write_ansi(&mut self.ahead);
    }

    /// Moves the rows `rows` of the terminal up by `by` rows (down when `by` is negative)
    /// within themselves, as its scrolling region does: the rows moved out are gone, the rows
    /// moved in are blank across the whole width. Done only when it changes nothing outside
    /// `cols`: every cell there is known and the same in each of the rows (a pane's side
    /// borders). Whether it was done; the terminal is sent it ahead of the next frame.
    pub fn scroll(&mut self, rows: Range<u16>, cols: Range<u16>, by: i32) -> bool {
        let height = rows.len();
        let steps = usize::try_from(by.unsigned_abs()).unwrap_or(usize::MAX);
        let width = self.cols;
        let (top, bottom) = (usize::from(rows.start), usize::from(rows.end));
        if self.fresh
            || steps == 0
            || steps >= height
            || height < 2
            || bottom * width > self.shown.len()
            || usize::from(cols.end) > width
            || cols.start >= cols.end
        {
            return false;
        }
        let row = |y: usize| &self.shown[y * width..(y + 1) * width];
        let outside = |y: usize| {
            let r = row(y);
            (&r[..usize::from(cols.start)], &r[usize::from(cols.end)..])
        };
        let (left, right) = outside(top);
        let known = left.iter().chain(right).all(Option::is_some);
        if !known || !(top + 1..bottom).all(|y| outside(y) == (left, right)) {
            return false;
        }
        let (from, to, blank) = if by > 0 {
            (top + steps..bottom, top, bottom - steps..bottom)
        } else {
            (top..bottom - steps, top + steps, top..top + steps)
        };
        self.shown
            .copy_within(from.start * width..from.end * width, to * width);
        self.shown[blank.start * width..blank.end * width].fill(Some(Shown::BLANK));
        // The region, the cursor inside it, delete (M) or insert (L) lines there, the region
        // back to the whole screen. The style is the default between frames, so the rows
        // moved in are plain blanks.
        let s = &mut self.moves;
        s.push_str("\x1b[");
        push_number(s, rows.start + 1);
        s.push(';');
        push_number(s, rows.end);
        s.push_str("r\x1b[");
        push_number(s, rows.start + 1);
        s.push_str(";1H\x1b[");
        push_number(s, u16::try_from(steps).unwrap_or(u16::MAX));
        s.push(if by > 0 { 'M' } else { 'L' });
        s.push_str("\x1b[r");
        true
    }

    /// The character shown at `x`, `y`, if it is known to be one plain character.
    fn shown_at(&self, x: u16, y: u16) -> Option<Shown> {
        let x = usize::from(x);
        if x >= self.cols {
            return None;
        }
        self.shown
            .get(usize::from(y) * self.cols + x)
            .copied()
            .flatten()
    }

    /// Remembers that the terminal shows `sent` at `x`, `y`.
    fn remember(&mut self, x: u16, y: u16, sent: &Sent, cell: &Cell) {
        let (x, y) = (usize::from(x), usize::from(y));
        if x >= self.cols {
            return;
        }
        let start = y * self.cols + x;
        let end = (start + usize::from(sent.width.max(1))).min(start - x + self.cols);
        let Some(cells) = self.shown.get_mut(start..end) else {
            return;
        };
        cells[0] = match sent.ch {
            Some(ch) if sent.width == 1 => Some(Shown {
                ch,
                pen: Pen::of(cell),
            }),
            _ => None,
        };
        for hidden in &mut cells[1..] {
            *hidden = None;
        }
    }

    /// One erase from a blank to send at `x`, `y`, where `rest` are the cells to send after it:
    /// the columns it covers, and how many of the cells to send it takes care of (that blank
    /// included). It runs on over the blanks to send that follow along the row (`blank` tells
    /// them), and over the cells between them the terminal already shows as plain blanks
    /// (erasing those changes nothing), up to the last blank to send: a popup's padding over a
    /// pane's blanks is one erase, not a few spaces, a move, a few spaces.
    fn blank_span(
        &self,
        rest: &[Sent],
        x: u16,
        y: u16,
        blank: impl Fn(&Sent) -> bool,
    ) -> (usize, usize) {
        let mut end = x.saturating_add(1);
        let mut taken = 1;
        let mut col = end;
        for b in rest {
            if b.y != y || b.x < col {
                break;
            }
            if (col..b.x).any(|c| self.shown_at(c, y) != Some(Shown::BLANK)) || !blank(b) {
                break;
            }
            taken += 1;
            col = b.x.saturating_add(1);
            end = col;
        }
        (usize::from(end - x), taken)
    }

    /// Writes to `s` the cells of a gap on row `y`, from `from` up to `to`, when writing them
    /// again needs no change from `pen`; whether it did.
    fn refill(&self, s: &mut String, from: u16, to: u16, y: u16, pen: Pen) -> bool {
        let same = |x| {
            self.shown_at(x, y).is_some_and(|cell| {
                cell.pen == pen || (cell.ch == ' ' && cell.pen.blank_unseen() && pen.blank_unseen())
            })
        };
        if !(from..to).all(same) {
            return false;
        }
        for x in from..to {
            if let Some(cell) = self.shown_at(x, y) {
                s.push(cell.ch);
            }
        }
        true
    }

    /// The writer, for tests and benches that count what was sent.
    pub fn writer(&self) -> &W {
        &self.out
    }
}

/// Appends the SGR sequence that turns `from` into `to` (nothing when they are the same).
fn restyle(s: &mut String, from: Pen, to: Pen) {
    if from == to {
        return;
    }
    let mut params = Params::default();
    let removed = from.modifier - to.modifier;
    let mut added = to.modifier - from.modifier;
    if removed.intersects(Modifier::BOLD | Modifier::DIM) {
        // 22 ends both bold and dim: whichever stays is set again.
        params.push(22);
        added |= to.modifier & (Modifier::BOLD | Modifier::DIM);
    }
    for (m, off) in [
        (Modifier::ITALIC, 23),
        (Modifier::UNDERLINED, 24),
        (Modifier::SLOW_BLINK | Modifier::RAPID_BLINK, 25),
        (Modifier::REVERSED, 27),
        (Modifier::HIDDEN, 28),
        (Modifier::CROSSED_OUT, 29),
    ] {
        if removed.intersects(m) {
            params.push(off);
            // One code ends both blinks: the one that stays is set again.
            added |= to.modifier & m;
        }
    }
    for (m, on) in [
        (Modifier::BOLD, 1),
        (Modifier::DIM, 2),
        (Modifier::ITALIC, 3),
        (Modifier::UNDERLINED, 4),
        (Modifier::SLOW_BLINK, 5),
        (Modifier::RAPID_BLINK, 6),
        (Modifier::REVERSED, 7),
        (Modifier::HIDDEN, 8),
        (Modifier::CROSSED_OUT, 9),
    ] {
        if added.contains(m) {
            params.push(on);
        }
    }
    if from.fg != to.fg {
        color(&mut params, to.fg, Layer::Fg);
    }
    if from.bg != to.bg {
        color(&mut params, to.bg, Layer::Bg);
    }
    if from.underline != to.underline {
        color(&mut params, to.underline, Layer::Underline);
    }
    s.push_str("\x1b[");
    for (i, &p) in params.list().iter().enumerate() {
        if i > 0 {
            s.push(';');
        }
        push_number(s, p);
    }
    s.push('m');
}

/// The parameters of one SGR sequence, on the stack: at most 2 + 6 + 9 + 3 × 5 of them.
#[derive(Default)]
struct Params {
    list: [u16; 32],
    len: usize,
}

impl Params {
    fn push(&mut self, p: u16) {
        if let Some(slot) = self.list.get_mut(self.len) {
            *slot = p;
            self.len += 1;
        }
    }

    fn extend(&mut self, ps: impl IntoIterator<Item = u16>) {
        for p in ps {
            self.push(p);
        }
    }

    fn list(&self) -> &[u16] {
        &self.list[..self.len]
    }
}

#[derive(Clone, Copy)]
enum Layer {
    Fg,
    Bg,
    Underline,
}

fn color(params: &mut Params, c: Color, layer: Layer) {
    let (reset, base, bright, extended) = match layer {
        Layer::Fg => (39, 30, 90, 38),
        Layer::Bg => (49, 40, 100, 48),
        // Underline colours have no short codes.
        Layer::Underline => (59, 0, 0, 58),
    };
    let basic = match c {
        Color::Reset => {
            params.push(reset);
            return;
        }
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
        Color::Indexed(i) => {
            params.extend([extended, 5, u16::from(i)]);
            return;
        }
        Color::Rgb(r, g, b) => {
            params.extend([extended, 2, u16::from(r), u16::from(g), u16::from(b)]);
            return;
        }
    };
    match layer {
        Layer::Underline => params.extend([extended, 5, basic]),
        _ if basic < 8 => params.push(base + basic),
        _ => params.push(bright + basic - 8),
    }
}

impl<W: Write> Wire<W> {
    /// Sends what `frame` changes on the screen, in one write.
    ///
    /// A cell is sent when the terminal is not known to show it (by what this wrote since the
    /// last clear); the cells a wide character covers are not (the terminal draws it over
    /// them), as in ratatui's diff. With `rows`, only the columns given for each row are
    /// compared (an empty range: none of that row): the other cells are the last frame's
    /// (every cell is, after a clear).
    ///
    /// # Errors
    /// When the terminal cannot be written.
    pub fn present(&mut self, frame: &Buffer, rows: Option<&[Range<u16>]>) -> io::Result<()> {
        let area = frame.area;
        let cols = usize::from(area.width);
        let cells = cols * usize::from(area.height);
        if self.cols != cols || self.shown.len() != cells {
            if !self.shown.is_empty() {
                // A frame of another size than the last, without a clear between.
                self.send_ahead(terminal::Clear(terminal::ClearType::All));
            }
            self.shown = vec![Some(Shown::BLANK); cells];
            self.cols = cols;
            self.fresh = true;
        }
        // After a clear every row is new to the terminal, and rows moved before it are gone.
        if self.fresh {
            self.moves.clear();
        }
        let rows = rows.filter(|_| !self.fresh);
        self.fresh = false;
        let mut changed = std::mem::take(&mut self.sent);
        changed.clear();
        if cols > 0 {
            for (i, ((y, row), shown)) in (area.y..)
                .zip(frame.content.chunks(cols))
                .zip(self.shown.chunks(cols))
                .enumerate()
            {
                let (from, to) = match rows {
                    None => (0, cols),
                    Some(rows) => match rows.get(i) {
                        Some(r) if r.start >= r.end => continue,
                        Some(r) => (usize::from(r.start).min(cols), usize::from(r.end).min(cols)),
                        None => (0, cols),
                    },
                };
                // Cells are where the whole row puts them: a wide character covers the cell
                // after it, whichever columns changed. Left of the columns nothing changed, so
                // where the wire knows every cell there for one plain character, the columns
                // start where they say.
                let mut x = 0;
                if shown[..from].iter().all(Option::is_some) {
                    x = from;
                }
                while x < from {
                    x += covers(&row[x]).max(1);
                }
                // Past the columns, a cell the wire does not know (the right half of a wide
                // character that one of them may have split) is compared too.
                while let Some(cell) = row
                    .get(x)
                    .filter(|_| x < to || shown.get(x).is_some_and(Option::is_none))
                {
                    let symbol = cell.symbol();
                    // One byte is one ASCII character, one cell: no need to ask Unicode.
                    let (ch, width) = match symbol.as_bytes() {
                        [b] => (Some(char::from(*b)), 1),
                        _ => (one_char(symbol), symbol_width(symbol)),
                    };
                    let known = || {
                        matches!(
                            (shown.get(x), ch),
                            (Some(Some(s)), Some(ch)) if s.ch == ch && s.pen.is(cell)
                        )
                    };
                    let (covers, send) = match cell.diff_option {
                        CellDiffOption::None => (width, !known()),
                        CellDiffOption::Skip => (width, false),
                        CellDiffOption::AlwaysUpdate => (width, true),
                        CellDiffOption::ForcedWidth(w) => (usize::from(w.get()), !known()),
                    };
                    if send {
                        changed.push(Sent {
                            x: area.x.saturating_add(cell_x(x)),
                            y,
                            at: i * cols + x,
                            ch,
                            width: u16::try_from(width).unwrap_or(u16::MAX),
                        });
                    }
                    x += covers.max(1);
                }
            }
        }
        let encoded = self.encode(frame, &changed);
        self.sent = changed;
        encoded?;
        self.out.flush()
    }

    /// Clears the screen with the next frame, which is sent whole.
    pub fn clear(&mut self) {
        self.shown.clear();
        self.moves.clear();
        self.fresh = true;
        self.send_ahead(terminal::Clear(terminal::ClearType::All));
    }

    /// Encodes `cells` (position order, as a diff gives them) and writes them in one piece.
    fn encode(&mut self, frame: &Buffer, cells: &[Sent]) -> io::Result<()> {
        let cell_of = |sent: &Sent| &frame.content[sent.at];
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        text.push_str(&self.ahead);
        self.ahead.clear();
        text.push_str(&self.moves);
        self.moves.clear();
        let mut pen = Pen::RESET;
        // Where the terminal's cursor stands, when known.
        let mut at: Option<Position> = None;
        let mut next = 0;
        while let Some(sent) = cells.get(next) {
            let (x, y, cell) = (sent.x, sent.y, cell_of(sent));
            next += 1;
            match at {
                Some(p) if p.y == y && p.x == x => {}
                Some(p) if p.y == y && p.x < x => {
                    if !(x - p.x <= GAP_FILL && self.refill(&mut text, p.x, x, y, pen)) {
                        text.push_str("\x1b[");
                        push_number(&mut text, x - p.x);
                        text.push('C');
                    }
                }
                _ => {
                    text.push_str("\x1b[");
                    push_number(&mut text, y + 1);
                    text.push(';');
                    push_number(&mut text, x + 1);
                    text.push('H');
                }
            }
            let blank = unseen_blank(cell);
            if blank {
                let (span, taken) =
                    self.blank_span(&cells[next..], x, y, |b| unseen_blank(cell_of(b)));
                if span >= ERASE_RUN {
                    if !pen.blank_unseen() {
                        restyle(&mut text, pen, Pen::RESET);
                        pen = Pen::RESET;
                    }
                    text.push_str("\x1b[");
                    push_number(&mut text, u16::try_from(span).unwrap_or(u16::MAX));
                    text.push('X');
                    for erased in &cells[next - 1..next - 1 + taken] {
                        self.remember(erased.x, erased.y, erased, cell_of(erased));
                    }
                    next += taken - 1;
                    // The cursor stays where the erasing began.
                    at = Some(Position { x, y });
                    continue;
                }
            }
            if !(blank && pen.blank_unseen()) {
                let want = Pen::of(cell);
                if want != pen {
                    restyle(&mut text, pen, want);
                    pen = want;
                }
            }
            text.push_str(cell.symbol());
            self.remember(x, y, sent, cell);
            // After anything but a one-cell symbol, the next cell is placed absolutely: a
            // terminal may not agree on the width of what it was sent.
            at = (sent.width == 1).then_some(Position { x: x + 1, y });
        }
        if pen != Pen::RESET {
            text.push_str("\x1b[0m");
        }
        let sent = self.out.write_all(text.as_bytes());
        self.scratch = text;
        sent
    }
}

/// A cell to send: where, what, and what the wire makes of its symbol.
struct Sent {
    x: u16,
    y: u16,
    /// Its cell's index in the frame's buffer.
    at: usize,
    /// Its symbol, when that is one character.
    ch: Option<char>,
    /// The cells its symbol covers.
    width: u16,
}

/// The cells a cell's symbol covers on the screen (its forced width, if it has one).
fn covers(cell: &Cell) -> usize {
    match cell.diff_option {
        CellDiffOption::ForcedWidth(w) => usize::from(w.get()),
        _ => symbol_width(cell.symbol()),
    }
}

#[inline]
/// The cells a symbol covers: one for ASCII and for box drawing (the borders, most of the
/// characters a frame holds that are not ASCII), without asking Unicode.
fn symbol_width(symbol: &str) -> usize {
    match symbol.as_bytes() {
        [_] | [0xE2, 0x94 | 0x95, _] => 1,
        _ => symbol.width(),
    }
}

/// The character of a symbol of one character.
fn one_char(symbol: &str) -> Option<char> {
    let mut chars = symbol.chars();
    match (chars.next(), chars.next()) {
        (Some(ch), None) => Some(ch),
        _ => None,
    }
}

/// A column of a row: a row is at most `u16::MAX` cells wide.
fn cell_x(x: usize) -> u16 {
    u16::try_from(x).unwrap_or(u16::MAX)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    fn pen(style: Style) -> Pen {
        let mut cell = Cell::EMPTY;
        cell.set_style(style);
        Pen::of(&cell)
    }

    fn sgr(from: Style, to: Style) -> String {
        let mut s = String::new();
        restyle(&mut s, pen(from), pen(to));
        s
    }

    #[test]
    fn box_drawing_is_one_cell_as_unicode_says() {
        for ch in '\u{2500}'..='\u{257f}' {
            let s = ch.to_string();
            assert_eq!(symbol_width(&s), s.width(), "{ch}");
            assert_eq!(symbol_width(&s), 1, "{ch}");
        }
        for s in ["a", "日", "é", "…", "◾", "▶"] {
            assert_eq!(symbol_width(s), s.width(), "{s}");
        }
    }

    #[test]
    fn the_list_of_cells_to_send_is_kept_between_frames() {
        let area = Rect::new(0, 0, 40, 10);
        let mut wire = Wire::new(Vec::new());
        let mut full = Buffer::empty(area);
        for y in 0..10 {
            full.set_string(0, y, "x".repeat(40), Style::new());
        }
        wire.present(&full, None).expect("present");
        let (list, room) = (wire.sent.as_ptr(), wire.sent.capacity());
        assert!(room >= 400, "the first frame sent every cell");
        full.set_string(0, 0, "y".repeat(10), Style::new());
        wire.present(&full, None).expect("present");
        assert_eq!(wire.sent.len(), 10, "the cells that changed");
        assert_eq!(
            (wire.sent.as_ptr(), wire.sent.capacity()),
            (list, room),
            "in the memory the first frame sized"
        );
    }

    #[test]
    fn one_short_sequence_per_change() {
        assert_eq!(sgr(Style::new(), Style::new()), "");
        assert_eq!(sgr(Style::new(), Style::new().cyan().bold()), "\x1b[1;36m");
        assert_eq!(
            sgr(Style::new().cyan().bold(), Style::new().cyan()),
            "\x1b[22m"
        );
        assert_eq!(
            sgr(Style::new().bold().dim(), Style::new().dim().on_dark_gray()),
            "\x1b[22;2;100m"
        );
        assert_eq!(
            sgr(Style::new().fg(Color::Indexed(200)), Style::new().white()),
            "\x1b[97m"
        );
        assert_eq!(
            sgr(Style::new().rapid_blink(), Style::new().slow_blink()),
            "\x1b[25;5m"
        );
        assert_eq!(
            sgr(Style::new(), Style::new().fg(Color::Rgb(1, 2, 3))),
            "\x1b[38;2;1;2;3m"
        );
    }

    /// Sends `frames` one after another, settled, through a [`Wire`]: what it wrote.
    fn sent(frames: &[&Buffer]) -> Vec<u8> {
        let mut wire = Wire::new(Vec::new());
        for frame in frames {
            let mut settled = (*frame).clone();
            crate::ui::frame::settle(&mut settled);
            wire.present(&settled, None).expect("present");
        }
        wire.out
    }

    /// Draws `frames` one after another through a [`Wire`], and returns what a terminal shows.
    fn shown(frames: &[Buffer]) -> vt100::Parser {
        let area = frames[0].area;
        let size = |n: u16| std::num::NonZeroU16::new(n).expect("a frame has cells");
        let mut vt = vt100::Parser::new(size(area.height), size(area.width), 0);
        vt.process(&sent(&frames.iter().collect::<Vec<_>>()));
        vt
    }

    /// The columns of each row where `next` differs from `last`, from the first to the last
    /// that differ: what a screen that knows what it drew gives the wire.
    fn changes(last: &Buffer, next: &Buffer) -> Vec<Range<u16>> {
        let w = usize::from(next.area.width);
        last.content
            .chunks(w)
            .zip(next.content.chunks(w))
            .map(|(a, b)| {
                let differ: Vec<u16> = (0..w)
                    .filter(|&x| a[x] != b[x])
                    .map(|x| u16::try_from(x).expect("narrow"))
                    .collect();
                match (differ.first(), differ.last()) {
                    (Some(&from), Some(&to)) => from..to + 1,
                    _ => 0..0,
                }
            })
            .collect()
    }

    /// Like [`shown`], but each frame after the first is compared only where it changed.
    fn shown_by_changes(frames: &[Buffer]) -> vt100::Parser {
        let area = frames[0].area;
        let size = |n: u16| std::num::NonZeroU16::new(n).expect("a frame has cells");
        let mut vt = vt100::Parser::new(size(area.height), size(area.width), 0);
        let mut wire = Wire::new(Vec::new());
        let mut last: Option<Buffer> = None;
        for frame in frames {
            let mut settled = frame.clone();
            crate::ui::frame::settle(&mut settled);
            let spans = last.as_ref().map(|l| changes(l, &settled));
            wire.present(&settled, spans.as_deref()).expect("present");
            last = Some(settled);
        }
        vt.process(&wire.out);
        vt
    }

    #[test]
    fn a_run_of_blanks_is_erased_with_one_sequence() {
        let area = Rect::new(0, 0, 12, 2);
        let mut before = Buffer::empty(area);
        before.set_string(1, 0, "abcdefghij", Style::new().bold());
        before.set_string(0, 1, "xyz", Style::new());
        let mut after = before.clone();
        after.set_string(1, 0, "a         ", Style::new().bold());
        let vt = shown(&[before.clone(), after.clone()]);
        assert_shows(&vt, &after);
        let first = sent(&[&before]).len();
        let both = sent(&[&before, &after]);
        let second = String::from_utf8_lossy(&both[first..]).into_owned();
        assert_eq!(second, "\x1b[1;3H\x1b[9X", "one move, one erase");
    }

    #[test]
    fn blanks_to_send_among_blanks_shown_are_erased_with_one_sequence() {
        // Words with a blank between them go, as under a popup's padding: the blanks between
        // are shown already, and the erase runs on over them.
        let area = Rect::new(0, 0, 16, 1);
        let mut before = Buffer::empty(area);
        before.set_string(1, 0, "ab cd ef gh", Style::new());
        let mut after = Buffer::empty(area);
        after.set_string(0, 0, "x", Style::new());
        let vt = shown(&[before.clone(), after.clone()]);
        assert_shows(&vt, &after);
        let first = sent(&[&before]).len();
        let both = sent(&[&before, &after]);
        let second = String::from_utf8_lossy(&both[first..]).into_owned();
        assert_eq!(
            second, "\x1b[1;1Hx\x1b[11X",
            "one write, one erase over 11 columns"
        );
    }

    /// The 16 named colours, in palette order.
    const NAMED: [Color; 16] = [
        Color::Black,
        Color::Red,
        Color::Green,
        Color::Yellow,
        Color::Blue,
        Color::Magenta,
        Color::Cyan,
        Color::Gray,
        Color::DarkGray,
        Color::LightRed,
        Color::LightGreen,
        Color::LightYellow,
        Color::LightBlue,
        Color::LightMagenta,
        Color::LightCyan,
        Color::White,
    ];

    /// The palette entry a terminal gives each colour (written out here, not derived from the
    /// encoder, so that a wrong code is caught).
    fn vt_color(c: Color) -> vt100::Color {
        match c {
            Color::Reset => vt100::Color::Default,
            Color::Indexed(i) => vt100::Color::Idx(i),
            Color::Rgb(r, g, b) => vt100::Color::Rgb(r, g, b),
            named => {
                let i = NAMED
                    .iter()
                    .position(|n| *n == named)
                    .expect("a named colour");
                vt100::Color::Idx(u8::try_from(i).expect("16 colours"))
            }
        }
    }

    /// Each cell of `want` as the terminal shows it: its symbol, and its style where a style
    /// can be seen (a blank that shows nothing may carry any foreground).
    pub(crate) fn assert_shows(vt: &vt100::Parser, want: &Buffer) {
        let screen = vt.screen();
        for y in 0..want.area.height {
            let mut x = 0;
            while x < want.area.width {
                let cell = &want[(x, y)];
                let got = screen.cell(y, x).expect("in the screen");
                let symbol = if got.has_contents() {
                    got.contents()
                } else {
                    " "
                };
                assert_eq!(symbol, cell.symbol(), "symbol at {x},{y}");
                let blank = unseen_blank(cell);
                if !blank {
                    assert_eq!(got.fgcolor(), vt_color(cell.fg), "fg at {x},{y}");
                    assert_eq!(got.bold(), cell.modifier.contains(Modifier::BOLD), "bold");
                    assert_eq!(got.italic(), cell.modifier.contains(Modifier::ITALIC));
                }
                assert_eq!(got.bgcolor(), vt_color(cell.bg), "bg at {x},{y}");
                assert_eq!(got.inverse(), cell.modifier.contains(Modifier::REVERSED));
                assert_eq!(
                    got.underline(),
                    cell.modifier.contains(Modifier::UNDERLINED)
                );
                x += u16::try_from(cell.symbol().width().max(1)).expect("small");
            }
        }
    }

    use proptest::prelude::*;

    fn a_color() -> impl Strategy<Value = Color> {
        prop_oneof![
            Just(Color::Reset),
            prop::sample::select(NAMED.to_vec()),
            any::<u8>().prop_map(Color::Indexed),
            (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(r, g, b)| Color::Rgb(r, g, b)),
        ]
    }

    fn a_style() -> impl Strategy<Value = Style> {
        (a_color(), a_color(), any::<u16>()).prop_map(|(fg, bg, bits)| {
            let m = Modifier::from_bits_truncate(bits)
                & (Modifier::BOLD
                    | Modifier::DIM
                    | Modifier::ITALIC
                    | Modifier::UNDERLINED
                    | Modifier::REVERSED);
            // A blank without a background is the common case: half the cells.
            let bg = if bits & 0x8000 == 0 { Color::Reset } else { bg };
            Style::new().fg(fg).bg(bg).add_modifier(m)
        })
    }

    type Run = (u16, u16, &'static str, Style);

    /// Runs of text: ASCII, box drawing, blanks (runs long enough to be erased) and, if `wide`,
    /// wide characters.
    fn runs(w: u16, h: u16, wide: bool, most: usize) -> impl Strategy<Value = Vec<Run>> {
        let mut texts = vec!["ab c", "  ", "│─┌", "▶ x", " ", "é", "      ", "         "];
        if wide {
            texts.push("日本");
        }
        prop::collection::vec(
            (0..w, 0..h, prop::sample::select(texts), a_style()),
            0..most,
        )
    }

    /// `frame` with `runs` written over it.
    fn edited(frame: &Buffer, runs: &[Run]) -> Buffer {
        let mut buf = frame.clone();
        let w = buf.area.width;
        for &(x, y, text, style) in runs {
            buf.set_stringn(x, y, text, usize::from(w - x), style);
        }
        // vt100 keeps one intensity, where terminals keep bold and dim apart.
        for cell in &mut buf.content {
            if cell.modifier.contains(Modifier::BOLD) {
                cell.modifier.remove(Modifier::DIM);
            }
        }
        buf
    }

    /// A first screen, then each edit of the frame before, then `last` over them all.
    fn session(first: &[Run], edits: &[Vec<Run>], last: &[Run]) -> Vec<Buffer> {
        let mut frames = vec![edited(&Buffer::empty(Rect::new(0, 0, 24, 6)), first)];
        for edit in edits.iter().map(Vec::as_slice).chain([last]) {
            let next = edited(frames.last().expect("a frame"), edit);
            frames.push(next);
        }
        frames
    }

    /// The last of `frames`, settled, is what `vt` shows.
    fn shows_the_last(vt: &vt100::Parser, mut frames: Vec<Buffer>) {
        let mut last = frames.pop().expect("a frame");
        crate::ui::frame::settle(&mut last);
        assert_shows(vt, &last);
    }

    proptest! {
        /// Whatever a frame holds, and whatever was on the screen before it, the terminal
        /// shows the frame: a first screen, then frames that change a few runs of it, as a key
        /// does, wide characters among them (a wide character half drawn over by the next
        /// frame: both its cells are unknown to the wire, so what replaces either is sent).
        #[test]
        fn the_terminal_shows_each_frame(
            first in runs(24, 6, true, 40),
            edits in prop::collection::vec(runs(24, 6, true, 6), 0..4),
            last in runs(24, 6, true, 6),
        ) {
            let frames = session(&first, &edits, &last);
            shows_the_last(&shown(&frames), frames);
        }

        /// The same when each frame is compared only in the columns that changed (as the
        /// screen asks once it keeps panes and rows): a wide character just left of the
        /// changed columns, half drawn over or not, is still sent whole.
        #[test]
        fn the_terminal_shows_each_frame_compared_where_it_changed(
            first in runs(24, 6, true, 40),
            edits in prop::collection::vec(runs(24, 6, true, 6), 0..4),
            last in runs(24, 6, true, 6),
        ) {
            let frames = session(&first, &edits, &last);
            shows_the_last(&shown_by_changes(&frames), frames);
        }
    }
}
