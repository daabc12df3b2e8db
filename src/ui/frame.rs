//! A frame on its way to the terminal, for the GM's screen and the players' view alike.
//!
//! A terminal emulator pays for every cell it is sent (measured in a pseudo-terminal: about
//! 1.7 µs a character through `pyte`, against 4 µs for a cursor move), so what is sent should be
//! what changed on the glass, not what changed in the buffer.

use std::hash::Hash;
use std::io::{self, Write};
use std::ops::Range;

use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Widget;

use super::pane_box::PaneBox;
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
/// to each other, so a padded row or a pane's empty space is not sent again and again. A cell
/// whose characters a terminal may draw wider than it is measured is made [`drawable`].
pub fn settle(buf: &mut Buffer) {
    settle_cells(&mut buf.content);
}

/// Makes a cell that holds several characters, measured as one glyph a terminal may draw apart
/// (👨‍👩‍👧: 2 cells to unicode-width, 6 to tmux and xterm), show its first visible character,
/// padded with spaces to the cells measured: every terminal then draws it as wide as the buffer
/// assumes, and its row does not spill past its pane. Text typed in never holds such a glyph
/// (`text::unjoined`); text read from a file (a save, `rules.ron`, a catalogue) may.
pub fn drawable(cell: &mut Cell) {
    use unicode_width::{UnicodeWidthChar as _, UnicodeWidthStr as _};
    let symbol = cell.symbol();
    if symbol.len() < 2 || symbol.chars().nth(1).is_none() {
        return;
    }
    let measured = symbol.width();
    let width = |c: char| c.width().unwrap_or(0);
    if symbol.chars().map(width).sum::<usize>() == measured {
        return;
    }
    let mut shown = String::with_capacity(8);
    if let Some(c) = symbol
        .chars()
        .find(|&c| width(c) > 0)
        .filter(|&c| width(c) <= measured)
    {
        shown.push(c);
    }
    let pad = measured - shown.chars().map(width).sum::<usize>();
    shown.extend(std::iter::repeat_n(' ', pad));
    cell.set_symbol(&shown);
}

fn settle_cells(cells: &mut [Cell]) {
    for cell in cells {
        drawable(cell);
        if (cell.fg != Color::Reset || !cell.modifier.is_empty())
            && unseen_blank(cell)
            && cell.diff_option == ratatui::buffer::CellDiffOption::None
        {
            *cell = Cell::EMPTY;
        }
    }
}

/// The cells of `area` (within the buffer), a row at a time.
fn rows_of(buf: &mut Buffer, area: Rect) -> impl Iterator<Item = &mut [Cell]> {
    let full = buf.area;
    let area = area.intersection(full);
    let cols = usize::from(full.width).max(1);
    let from = usize::from(area.x.saturating_sub(full.x));
    let to = from + usize::from(area.width);
    let skip = usize::from(area.y.saturating_sub(full.y));
    let take = if area.is_empty() {
        0
    } else {
        usize::from(area.height)
    };
    buf.content
        .chunks_mut(cols)
        .skip(skip)
        .take(take)
        .map(move |row| &mut row[from..to])
}

/// Blanks `area` (within the buffer) as ratatui's `Clear` does, a row at a time: `Clear` walks
/// it column by column through the buffer's checked index, a third of what drawing help cost.
/// A wide character whose right half the area covers is blanked too: the terminal would draw it
/// whole over the area's first column (a popup's border), and a diff skips the cell after it.
pub fn clear(area: Rect, buf: &mut Buffer) {
    let area = area.intersection(buf.area);
    if area.x > buf.area.x {
        for y in area.y..area.y + area.height {
            let left = &mut buf[(area.x - 1, y)];
            if reaches_right(left) {
                left.set_symbol(" ");
            }
        }
    }
    for row in rows_of(buf, area) {
        for cell in row {
            cell.reset();
        }
    }
}

/// Whether `cell` holds a glyph that reaches into the cell on its right.
fn reaches_right(cell: &Cell) -> bool {
    use unicode_width::UnicodeWidthStr as _;
    cell.symbol().width() > 1
}

/// `area` (within the buffer), and the column left of it if a wide character there reaches
/// into it: what [`clear`] over `area` changes, so what a popup drawn over `area` must keep,
/// put back, settle and mark as changed (else the character stays blanked once it closes).
fn with_cut_glyphs(buf: &Buffer, area: Rect) -> Rect {
    let cut = area.x > buf.area.x
        && (area.y..area.bottom()).any(|y| buf.cell((area.x - 1, y)).is_some_and(reaches_right));
    if cut {
        Rect {
            x: area.x - 1,
            width: area.width + 1,
            ..area
        }
    } else {
        area
    }
}

/// Draws lines, cut at the right edge, like an unwrapped `Paragraph` but without its
/// per-character grapheme segmentation for plain text: the frame budget is mostly text drawing.
/// One-cell characters are written straight into the row's cells.
pub fn draw_lines(lines: &[Line], area: Rect, buf: &mut Buffer) {
    let area = area.intersection(buf.area);
    let right = area.x + area.width;
    for (line, y) in lines.iter().zip(area.y..area.y + area.height) {
        if line.style != Style::default() {
            for cell in row_of(buf, area, y) {
                cell.set_style(line.style);
            }
        }
        let mut x = area.x;
        for span in &line.spans {
            let style = line.style.patch(span.style);
            let row = row_of(buf, area, y);
            let mut wide = None;
            for (i, ch) in span.content.char_indices() {
                if x >= right {
                    break;
                }
                if ch.is_ascii_graphic() || ch == ' ' || ONE_CELL.contains(ch) {
                    let cell = &mut row[usize::from(x - area.x)];
                    // A space over a blank is already written (most of a padded row).
                    if ch != ' ' || cell.symbol() != " " {
                        cell.set_char(ch);
                    }
                    cell.set_style(style);
                    x += 1;
                } else {
                    wide = Some(i);
                    break;
                }
            }
            if let Some(i) = wide {
                // Wide or combining: ratatui's width-aware path, for the rest of the span.
                let (nx, _) =
                    buf.set_stringn(x, y, &span.content[i..], usize::from(right - x), style);
                x = nx;
            }
        }
    }
}

/// The cells of row `y` within `area` (both within the buffer).
fn row_of(buf: &mut Buffer, area: Rect, y: u16) -> &mut [Cell] {
    let full = buf.area;
    let cols = usize::from(full.width);
    let start = usize::from(y - full.y) * cols + usize::from(area.x - full.x);
    &mut buf.content[start..start + usize::from(area.width)]
}

/// The symbols the screen uses, all one cell wide.
const ONE_CELL: &str = "▶▸✓✗↳⏸♥◆→—–»…⊘★↶↷│─┌┐└┘×·›●○◌▲▼←↑↓⏎";

/// What a pane draws, written down rather than drawn: its blocks and its lines, in order.
/// Two drawings that hash alike draw alike, so a pane that would draw what it drew in the last
/// frame, in the same place, is not drawn again, and of a pane whose lines changed only the
/// rows that changed are ([`Screen::show`]).
#[derive(Default)]
pub struct Drawing<'a> {
    ops: Vec<Op<'a>>,
}

// A pane writes two or three of these a frame: boxing the block would cost more than its size.
#[allow(clippy::large_enum_variant)]
#[derive(Hash)]
enum Op<'a> {
    Block(PaneBox<'a>, Rect),
    Lines(Vec<Line<'a>>, Rect),
}

impl<'a> Drawing<'a> {
    /// A block drawn over `area`; the rectangle inside its borders.
    pub fn block(&mut self, block: PaneBox<'a>, area: Rect) -> Rect {
        let inner = block.inner(area);
        self.ops.push(Op::Block(block, area));
        inner
    }

    /// Lines drawn in `area` (see [`draw_lines`]).
    pub fn lines(&mut self, lines: Vec<Line<'a>>, area: Rect) {
        self.ops.push(Op::Lines(lines, area));
    }

    /// Whether what comes before its last lines is boxes over `r` that draw nothing inside
    /// `lines` (a box draws only its borders and titles): then that part can be drawn again
    /// alone, around the lines, which it leaves as they are.
    fn boxes_alone(&self, r: Rect, lines: Rect) -> bool {
        self.ops.split_last().is_some_and(|(_, head)| {
            head.iter().all(|op| match op {
                Op::Block(block, area) => {
                    *area == r && {
                        let inner = block.inner(*area);
                        inner.union(lines) == inner
                    }
                }
                Op::Lines(..) => false,
            })
        })
    }

    /// Draws what comes before its last lines (its box).
    fn draw_head(&self, buf: &mut Buffer) {
        if let Some((_, head)) = self.ops.split_last() {
            for op in head {
                op.draw(buf);
            }
        }
    }

    /// Draws it.
    pub fn draw(&self, buf: &mut Buffer) {
        for op in &self.ops {
            op.draw(buf);
        }
    }

    /// The drawing as keys: what it draws before its last lines, and each of those lines
    /// (see [`Memo`]).
    fn memo(&self, area: Rect) -> Memo {
        let (before, lines) = match self.ops.split_last() {
            Some((Op::Lines(lines, r), before))
                if !before.iter().any(|op| matches!(op, Op::Lines(..))) =>
            {
                (before, Some((*r, lines)))
            }
            _ => (&self.ops[..], None),
        };
        let head = hash_of(&(area, before));
        let rows = lines.map(|(r, lines)| Rows {
            head,
            lines: r,
            keys: (0..usize::from(r.height))
                .map(|i| lines.get(i).map_or(NO_LINE, line_key))
                .collect(),
        });
        let key = match &rows {
            Some(rows) => hash_of(&(head, rows.lines, &rows.keys)),
            None => head,
        };
        Memo { key, rows }
    }

    /// Draws row `i` of its last lines alone, over a blank (see [`Rows`]).
    fn draw_row(&self, i: u16, buf: &mut Buffer) {
        let Some(Op::Lines(lines, r)) = self.ops.last() else {
            return;
        };
        let row = Rect::new(r.x, r.y + i, r.width, 1);
        for cells in rows_of(buf, row) {
            cells.fill(Cell::EMPTY);
        }
        if let Some(line) = lines.get(usize::from(i)) {
            draw_lines(std::slice::from_ref(line), row, buf);
        }
        rows_of(buf, row).for_each(settle_cells);
    }
}

impl Op<'_> {
    fn draw(&self, buf: &mut Buffer) {
        match self {
            Op::Block(block, area) => block.render(*area, buf),
            Op::Lines(lines, area) => draw_lines(lines, *area, buf),
        }
    }
}

/// The key a drawing, or a part of one, is kept by. (`foldhash`: `SipHash` took a twelfth of
/// a key's time; two different drawings share a key once in 2^64.)
pub(crate) fn hash_of(value: &impl Hash) -> u64 {
    use std::hash::BuildHasher;
    KEYS.hash_one(value)
}

/// The hasher every key of a drawing is made with (fixed: keys are compared across frames).
const KEYS: foldhash::fast::FixedState =
    foldhash::fast::FixedState::with_seed(0x5352_7472_6163_6b21);

/// The key a line is kept by: [`hash_of`] the line, with each style taken as two numbers.
/// (Every frame keys each line of every pane; the derived hash of a style goes field by field
/// through `Option` and `Color`, two thirds of a line's key built for size.) Lines alike have
/// the same key; a line differing in any field, a different key but once in 2^64.
pub(crate) fn line_key(line: &Line) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = KEYS.build_hasher();
    let [a, b] = style_bits(line.style);
    h.write_u64(a);
    h.write_u64(b);
    h.write_u8(match line.alignment {
        None => 0,
        Some(ratatui::layout::HorizontalAlignment::Left) => 1,
        Some(ratatui::layout::HorizontalAlignment::Center) => 2,
        Some(ratatui::layout::HorizontalAlignment::Right) => 3,
    });
    for span in &line.spans {
        let [a, b] = style_bits(span.style);
        h.write_u64(a);
        h.write_u64(b);
        // The length first: spans split differently are told apart.
        h.write_usize(span.content.len());
        h.write(span.content.as_bytes());
    }
    h.finish()
}

/// A style as two numbers: its colours (26 bits each) and its modifiers.
fn style_bits(s: Style) -> [u64; 2] {
    [
        colour_bits(s.fg) | colour_bits(s.bg) << 32,
        colour_bits(s.underline_color)
            | u64::from(s.add_modifier.bits()) << 32
            | u64::from(s.sub_modifier.bits()) << 48,
    ]
}

/// A colour as a number: none 0, the named ones 1 to 17, indexed and RGB apart above.
fn colour_bits(c: Option<Color>) -> u64 {
    let Some(c) = c else { return 0 };
    match c {
        Color::Reset => 1,
        Color::Black => 2,
        Color::Red => 3,
        Color::Green => 4,
        Color::Yellow => 5,
        Color::Blue => 6,
        Color::Magenta => 7,
        Color::Cyan => 8,
        Color::Gray => 9,
        Color::DarkGray => 10,
        Color::LightRed => 11,
        Color::LightGreen => 12,
        Color::LightYellow => 13,
        Color::LightBlue => 14,
        Color::LightMagenta => 15,
        Color::LightCyan => 16,
        Color::White => 17,
        Color::Indexed(i) => 1 << 24 | u64::from(i),
        Color::Rgb(r, g, b) => 1 << 25 | u64::from(r) << 16 | u64::from(g) << 8 | u64::from(b),
    }
}

/// The fewest rows a pane's lines must spare being drawn and sent for the terminal to move
/// them instead (the sequences that move them take about as many bytes as a short row).
const SCROLL_GAIN: usize = 2;

/// How far the rows of `now` moved up from `before` (down when negative): the move that
/// brings the most rows to where they are now, if it brings [`SCROLL_GAIN`] more than not
/// moving does (the smaller move of two that bring as many).
fn moved(before: &[u64], now: &[u64]) -> Option<i32> {
    let height = now.len();
    if before.len() != height || height < 2 {
        return None;
    }
    // Rows of `now` that were `by` rows further down before.
    let alike = |by: isize| {
        now.iter()
            .enumerate()
            .filter(|&(i, key)| {
                i.checked_add_signed(by)
                    .and_then(|j| before.get(j))
                    .is_some_and(|was| was == key)
            })
            .count()
    };
    let still = alike(0);
    let mut best = (0, 0);
    for by in 1..height {
        // A move of `by` brings at most the rows left beside it: once that cannot beat the
        // best so far, or the rows not moving by enough, no further move can (each frame
        // keys every pane: trying them all cost an action key a twentieth of its time).
        let most = height - by;
        if most <= best.0 || most < still + SCROLL_GAIN {
            break;
        }
        let by = isize::try_from(by).ok()?;
        for by in [by, -by] {
            let n = alike(by);
            if n > best.0 {
                best = (n, by);
            }
        }
    }
    let (most, by) = best;
    (by != 0 && most >= still + SCROLL_GAIN)
        .then(|| i32::try_from(by).ok())
        .flatten()
}

/// The key of a row with no line.
const NO_LINE: u64 = 0x6e6f_206c_696e_6521;

/// A pane's drawing as keys: the whole of it, and, when it ends with lines drawn over what came
/// before them (a block), what came before and each row of those lines. A pane whose head is as
/// it was, over the same rows, needs only its changed rows drawn again.
#[derive(PartialEq, Eq)]
struct Memo {
    key: u64,
    rows: Option<Rows>,
}

#[derive(PartialEq, Eq)]
struct Rows {
    /// What is drawn before the lines (the block), and where.
    head: u64,
    /// Where the lines are drawn.
    lines: Rect,
    /// A key for each row of `lines` ([`NO_LINE`] where there is none).
    keys: Vec<u64>,
}

/// A pane of the last frame: where it was, and what it drew. `rows` only when its lines were
/// seen to be drawn over blanks (what a pane's block leaves inside its borders): then a row is
/// drawn again alone, over a blank.
struct Kept {
    area: Rect,
    /// The key of what it read, when it was made from that ([`Frame::pane_of`]).
    inputs: Option<u64>,
    memo: Memo,
}

/// One part of a frame.
enum Part<'a> {
    /// A pane written down: drawn only when it differs from the last frame's.
    Pane(Rect, Drawing<'a>),
    /// A pane written down only when what it shows may have changed: the key of what it reads
    /// differs from the last frame's (see [`Frame::pane_of`]).
    Made(Rect, u64, Box<dyn FnOnce() -> Drawing<'a> + 'a>),
    /// A pane drawn every frame (an input line, the picker).
    Always(Rect, Box<dyn FnOnce(&mut Buffer) + 'a>),
    /// Drawn over the panes (a popup), every frame, within its rectangle.
    Over(Rect, Box<dyn FnOnce(&mut Buffer) + 'a>),
}

/// A frame as parts: the panes, which share the screen out between them, then what is drawn
/// over them. [`Screen::show`] draws only the parts that changed; [`Frame::render`] all.
pub struct Frame<'a> {
    area: Rect,
    parts: Vec<Part<'a>>,
}

impl<'a> Frame<'a> {
    /// A frame for a screen of `area`.
    pub fn new(area: Rect) -> Self {
        Self {
            area,
            parts: Vec::new(),
        }
    }

    /// A pane in `area`, as `drawing` draws it.
    pub fn pane(&mut self, area: Rect, drawing: Drawing<'a>) {
        self.parts.push(Part::Pane(area, drawing));
    }

    /// A pane in `area`, as `make` writes it down. `inputs` is a key of everything `make` reads:
    /// while it is the last frame's, the pane is kept without being written down again.
    pub fn pane_of(&mut self, area: Rect, inputs: u64, make: impl FnOnce() -> Drawing<'a> + 'a) {
        self.parts.push(Part::Made(area, inputs, Box::new(make)));
    }

    /// A pane in `area` that is drawn every frame.
    pub fn always(&mut self, area: Rect, draw: impl FnOnce(&mut Buffer) + 'a) {
        self.parts.push(Part::Always(area, Box::new(draw)));
    }

    /// Drawn over the panes, within `area`.
    pub fn over(&mut self, area: Rect, draw: impl FnOnce(&mut Buffer) + 'a) {
        self.parts.push(Part::Over(area, Box::new(draw)));
    }

    /// Draws every part onto `buf`, in order: the frame as it is, with nothing kept, each cell
    /// [`drawable`].
    pub fn render(self, buf: &mut Buffer) {
        for part in self.parts {
            match part {
                Part::Pane(_, drawing) => drawing.draw(buf),
                Part::Made(_, _, make) => make().draw(buf),
                Part::Always(_, draw) | Part::Over(_, draw) => draw(buf),
            }
        }
        buf.content.iter_mut().for_each(drawable);
    }

    /// Whether the panes share the screen out exactly: each cell is one pane's. Only then can
    /// a pane be kept from the last frame (no other pane drew over it).
    fn tiles(&self) -> bool {
        let panes: Vec<Rect> = self
            .parts
            .iter()
            .filter_map(|p| match p {
                Part::Pane(r, _) | Part::Made(r, ..) | Part::Always(r, _) => Some(*r),
                Part::Over(..) => None,
            })
            .collect();
        let inside = panes.iter().all(|r| self.area.union(*r) == self.area);
        let apart = panes
            .iter()
            .enumerate()
            .all(|(i, a)| panes[i + 1..].iter().all(|b| !a.intersects(*b)));
        let cells: u32 = panes.iter().map(|r| r.area()).sum();
        inside && apart && cells == self.area.area()
    }
}

/// The pane the last frame had in `r`, taken from `last`.
fn take_kept(last: &mut Vec<Kept>, r: Rect) -> Option<Kept> {
    last.iter()
        .position(|k| k.area == r)
        .map(|i| last.swap_remove(i))
}

/// The parts of `r` around `lines` (within it): the rows above and below, the columns left
/// and right; empty where there are none.
fn around(r: Rect, lines: Rect) -> [Rect; 4] {
    let lines = lines.intersection(r);
    [
        Rect::new(r.x, r.y, r.width, lines.y.saturating_sub(r.y)),
        Rect::new(
            r.x,
            lines.bottom(),
            r.width,
            r.bottom().saturating_sub(lines.bottom()),
        ),
        Rect::new(r.x, lines.y, lines.x.saturating_sub(r.x), lines.height),
        Rect::new(
            lines.right(),
            lines.y,
            r.right().saturating_sub(lines.right()),
            lines.height,
        ),
    ]
}

/// Marks the cells of `r` as changed: each row's columns widen to take them in.
fn mark(dirty: &mut [Range<u16>], area: Rect, r: Rect) {
    let r = r.intersection(area);
    if r.is_empty() {
        return;
    }
    let from = usize::from(r.y - area.y);
    let (left, right) = (r.x - area.x, r.right() - area.x);
    if let Some(rows) = dirty.get_mut(from..from + usize::from(r.height)) {
        for cols in rows {
            *cols = if cols.start >= cols.end {
                left..right
            } else {
                cols.start.min(left)..cols.end.max(right)
            };
        }
    }
}

/// The terminal frames are drawn to: the one buffer each frame is drawn into, kept from frame
/// to frame so that a pane that did not change is not drawn again ([`Screen::show`]), and the
/// [`Wire`] that sends where it differs from what the terminal shows.
///
/// In place of ratatui's `Terminal`, which keeps the last frame as a second buffer and compares
/// the two whole: the wire already knows what the terminal shows. The GM's screen never shows
/// the terminal's cursor (it is hidden when the screen is set up).
pub struct Screen<W: Write> {
    buffer: Buffer,
    wire: Wire<W>,
    /// The panes of the last frame shown, when it could keep them.
    kept: Vec<Kept>,
    /// What lies under each part drawn over the panes in the last frame.
    under: Vec<(Rect, Vec<Cell>)>,
    /// Lists for `under` whose cells were put back, kept for the next popup (see
    /// [`Screen::prepare_popups`]).
    spare: Vec<Vec<Cell>>,
    /// The columns of each row changed since the last frame was sent.
    dirty: Vec<Range<u16>>,
    /// Where the last frame drew: the parts and rows it drew (the others were kept).
    drawn: Vec<Rect>,
}

impl<W: Write> Screen<W> {
    /// A screen of `width` × `height` cells, blank, written through `out`.
    pub fn new(out: W, width: u16, height: u16) -> Self {
        Self {
            buffer: Buffer::empty(Rect::new(0, 0, width, height)),
            wire: Wire::new(out),
            kept: Vec::new(),
            under: Vec::new(),
            spare: Vec::new(),
            dirty: Vec::new(),
            drawn: Vec::new(),
        }
    }

    /// A screen that opens on the terminal's alternate screen with its cursor hidden: the
    /// switch goes out with the first frame, in its one write, so the terminal never shows the
    /// alternate screen empty (and the first frame costs one write). The alternate screen
    /// starts blank, as [`Screen::new`] assumes.
    pub fn opening(out: W, width: u16, height: u16) -> Self {
        let mut screen = Self::new(out, width, height);
        screen
            .wire
            .send_ahead(ratatui::crossterm::terminal::EnterAlternateScreen);
        screen.wire.send_ahead(ratatui::crossterm::cursor::Hide);
        // A paste comes as one text, not as keys that would run commands (see `App::paste`).
        screen
            .wire
            .send_ahead(ratatui::crossterm::event::EnableBracketedPaste);
        screen
    }

    /// The screen's cells.
    pub fn area(&self) -> Rect {
        self.buffer.area
    }

    /// The terminal has a new size: it is cleared with the next frame, which is sent whole.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.buffer.resize(Rect::new(0, 0, width, height));
        self.forget();
        self.wire.clear();
    }

    /// Readies the memory the first popup keeps what lies under it in, half the screen's cells
    /// (help at 160×48 covers a little under that; a larger popup grows it): run once the first
    /// frame is out, so that opening it does not wait on fresh pages (~35 for that help, ~3 µs
    /// each on a VM).
    pub fn prepare_popups(&mut self) {
        if self.spare.is_empty() {
            let cells = self.buffer.content.len() / 2;
            let mut ready = vec![Cell::EMPTY; cells];
            ready.clear();
            self.spare.push(ready);
        }
    }

    fn forget(&mut self) {
        self.kept.clear();
        for (_, mut cells) in self.under.drain(..) {
            cells.clear();
            self.spare.push(cells);
        }
    }

    /// Draws `widget` as the next frame, whole (nothing kept), settled (see [`settle`]), and
    /// sends what it changed.
    ///
    /// # Errors
    /// When the terminal cannot be written.
    pub fn draw(&mut self, widget: impl Widget) -> io::Result<&Buffer> {
        self.forget();
        self.buffer.reset();
        let area = self.buffer.area;
        widget.render(area, &mut self.buffer);
        settle(&mut self.buffer);
        self.wire.present(&self.buffer, None)?;
        Ok(&self.buffer)
    }

    /// Shows `frame`, drawing only what changed since the last frame: a pane that draws what
    /// it drew then, in the same place, is kept as it is on the screen, and of a pane whose
    /// lines changed under the same block only the rows that changed are drawn; what lay
    /// under the last frame's popups is put back first. The cells drawn are compared with
    /// what the terminal shows, and what differs is sent.
    ///
    /// The result is the frame [`Frame::render`] draws, settled (a test holds it to that).
    ///
    /// # Errors
    /// When the terminal cannot be written.
    pub fn show(&mut self, frame: Frame<'_>) -> io::Result<&Buffer> {
        let area = self.buffer.area;
        let tiles = frame.area == area && frame.tiles();
        let keep = tiles && !self.kept.is_empty();
        self.dirty.clear();
        let all = if keep { 0..0 } else { 0..area.width };
        self.dirty.resize(usize::from(area.height), all);
        if keep {
            for (r, mut cells) in self.under.drain(..).rev() {
                for (row, saved) in
                    rows_of(&mut self.buffer, r).zip(cells.chunks_mut(usize::from(r.width).max(1)))
                {
                    row.swap_with_slice(saved);
                }
                mark(&mut self.dirty, area, r);
                cells.clear();
                self.spare.push(cells);
            }
        } else {
            self.forget();
            self.buffer.reset();
        }
        let mut last = std::mem::take(&mut self.kept);
        let mut kept = Vec::new();
        self.drawn.clear();
        for part in frame.parts {
            match part {
                Part::Pane(r, drawing) => {
                    let was = take_kept(&mut last, r);
                    kept.push(self.pane(r, keep, &drawing, None, was));
                }
                Part::Made(r, inputs, make) => {
                    let was = take_kept(&mut last, r);
                    match was {
                        Some(was) if was.inputs == Some(inputs) => kept.push(was),
                        was => kept.push(self.pane(r, keep, &make(), Some(inputs), was)),
                    }
                }
                Part::Always(r, draw) => self.redraw(r, keep, draw),
                Part::Over(r, draw) => {
                    let r = with_cut_glyphs(&self.buffer, r.intersection(area));
                    let mut cells = self.spare.pop().unwrap_or_default();
                    cells.reserve(usize::from(r.width) * usize::from(r.height));
                    for row in rows_of(&mut self.buffer, r) {
                        cells.extend_from_slice(row);
                    }
                    self.under.push((r, cells));
                    draw(&mut self.buffer);
                    rows_of(&mut self.buffer, r).for_each(settle_cells);
                    mark(&mut self.dirty, area, r);
                    self.drawn.push(r);
                }
            }
        }
        self.kept = if tiles { kept } else { Vec::new() };
        self.wire.present(&self.buffer, Some(&self.dirty))?;
        Ok(&self.buffer)
    }

    /// Draws the pane `drawing` writes down in `r`, where the last frame had `was`: not at all
    /// if it draws the same, only its changed rows if its block and place are the same, else
    /// whole.
    fn pane(
        &mut self,
        r: Rect,
        keep: bool,
        drawing: &Drawing,
        inputs: Option<u64>,
        was: Option<Kept>,
    ) -> Kept {
        let memo = drawing.memo(r);
        match was {
            Some(was) if was.memo.key == memo.key => Kept { inputs, ..was },
            Some(was) => match (was.memo.rows, memo.rows) {
                (Some(before), Some(now))
                    if before.lines == now.lines
                        && (before.head == now.head || drawing.boxes_alone(r, now.lines)) =>
                {
                    self.redraw_rows(drawing, &before, &now);
                    if before.head != now.head {
                        self.redraw_box(r, drawing, now.lines);
                    }
                    Kept {
                        area: r,
                        inputs,
                        memo: Memo {
                            key: memo.key,
                            rows: Some(now),
                        },
                    }
                }
                (_, rows) => self.redraw_pane(r, keep, drawing, inputs, memo.key, rows),
            },
            None => self.redraw_pane(r, keep, drawing, inputs, memo.key, memo.rows),
        }
    }

    /// Draws a pane in `r` afresh: blank first (unless the whole buffer was), then settled.
    fn redraw(&mut self, r: Rect, blank_first: bool, draw: impl FnOnce(&mut Buffer)) {
        if blank_first {
            rows_of(&mut self.buffer, r).for_each(|row| row.fill(Cell::EMPTY));
        }
        draw(&mut self.buffer);
        rows_of(&mut self.buffer, r).for_each(settle_cells);
        mark(&mut self.dirty, self.buffer.area, r);
        self.drawn.push(r);
    }

    /// Draws a pane afresh, as [`Screen::redraw`]; its rows can be drawn alone in later frames
    /// if its lines are drawn over blanks, inside the pane.
    fn redraw_pane(
        &mut self,
        r: Rect,
        blank_first: bool,
        drawing: &Drawing,
        inputs: Option<u64>,
        key: u64,
        rows: Option<Rows>,
    ) -> Kept {
        let mut over_blanks = false;
        self.redraw(r, blank_first, |buf| {
            let Some(lines) = drawing.ops.last() else {
                return;
            };
            drawing.draw_head(buf);
            over_blanks = rows.as_ref().is_some_and(|rows| {
                r.union(rows.lines) == r
                    && rows_of(buf, rows.lines).all(|row| row.iter().all(|c| *c == Cell::EMPTY))
            });
            lines.draw(buf);
        });
        Kept {
            area: r,
            inputs,
            memo: Memo {
                key,
                rows: rows.filter(|_| over_blanks),
            },
        }
    }

    /// Draws again, alone, what a pane draws around its `lines` (its box: borders and titles),
    /// over a blank: a title or a border's style changed (the order's `▲ N more` as the turn
    /// moves), its lines' rows are drawn as they changed.
    fn redraw_box(&mut self, r: Rect, drawing: &Drawing, lines: Rect) {
        let area = self.buffer.area;
        let around = around(r, lines);
        for part in around {
            rows_of(&mut self.buffer, part).for_each(|row| row.fill(Cell::EMPTY));
        }
        drawing.draw_head(&mut self.buffer);
        for part in around {
            rows_of(&mut self.buffer, part).for_each(settle_cells);
            mark(&mut self.dirty, area, part);
            self.drawn.push(part);
        }
    }

    /// Draws again, alone, the rows of a pane's lines whose keys changed. When its lines
    /// moved up or down (the log as entries come and go), the terminal moves them first
    /// ([`Screen::scroll`]), and only the rows that came in are drawn.
    fn redraw_rows(&mut self, drawing: &Drawing, before: &Rows, now: &Rows) {
        let area = self.buffer.area;
        let by = self.scroll(before, now);
        for (i, is) in (0u16..).zip(&now.keys) {
            let from = usize::try_from(i32::from(i) + by).ok();
            let was = from.and_then(|j| before.keys.get(j));
            if was != Some(is) {
                drawing.draw_row(i, &mut self.buffer);
                let y = now.lines.y + i;
                // A row the terminal moved in is blank across the screen.
                let row = if was.is_none() {
                    Rect::new(area.x, y, area.width, 1)
                } else {
                    Rect::new(now.lines.x, y, now.lines.width, 1)
                };
                mark(&mut self.dirty, area, row);
                self.drawn.push(row);
            }
        }
    }

    /// How far up (down when negative) a pane's lines moved since the last frame, when moving
    /// their rows on the terminal spares drawing and sending at least [`SCROLL_GAIN`] of them;
    /// the rows are moved in the buffer and on the terminal then. 0: not moved.
    fn scroll(&mut self, before: &Rows, now: &Rows) -> i32 {
        let Some(by) = moved(&before.keys, &now.keys) else {
            return 0;
        };
        let lines = now.lines;
        let area = self.buffer.area;
        let rows = lines.y..lines.bottom();
        // Cells the frame has already changed in these rows would move with them.
        let untouched = self
            .dirty
            .get(usize::from(rows.start - area.y)..usize::from(rows.end - area.y))
            .is_some_and(|d| d.iter().all(|c| c.start >= c.end));
        if !untouched
            || !self
                .wire
                .scroll(rows.clone(), lines.x - area.x..lines.right() - area.x, by)
        {
            return 0;
        }
        // The rows moved as on the terminal, whole: the cells beside the lines are alike in
        // each row (or the wire would not have moved them), so within the lines this is the
        // move, and one rotation of the rows' cells costs a few copies where a swap per row
        // cost a tenth of an action key (built for size, the swap is a loop over bytes). The
        // rows moved in hold what moved out, and are drawn again.
        let cols = usize::from(area.width);
        let row = |y: u16| usize::from(y - area.y) * cols;
        let shift = usize::try_from(by.unsigned_abs()).unwrap_or(0) * cols;
        if let Some(block) = self.buffer.content.get_mut(row(rows.start)..row(rows.end)) {
            if by > 0 {
                block.rotate_left(shift.min(block.len()));
            } else {
                block.rotate_right(shift.min(block.len()));
            }
        }
        by
    }

    /// Where the last frame drew (its other parts were kept from the frame before).
    pub fn drawn(&self) -> &[Rect] {
        &self.drawn
    }

    /// The writer, for tests and benches that count what was sent.
    pub fn writer(&self) -> &W {
        self.wire.writer()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use ratatui::style::Style;

    /// [`moved`] as first written: every move tried.
    fn moved_trying_all(before: &[u64], now: &[u64]) -> Option<i32> {
        let height = i32::try_from(now.len()).ok()?;
        if before.len() != now.len() || height < 2 {
            return None;
        }
        let alike = |by: i32| {
            (0..height)
                .filter(|&i| {
                    usize::try_from(i + by)
                        .ok()
                        .and_then(|j| before.get(j))
                        .zip(usize::try_from(i).ok().and_then(|i| now.get(i)))
                        .is_some_and(|(a, b)| a == b)
                })
                .count()
        };
        let still = alike(0);
        let (most, by) = (1..height)
            .flat_map(|by| [by, -by])
            .map(|by| (alike(by), by))
            .fold(
                (0, 0),
                |best, this| if this.0 > best.0 { this } else { best },
            );
        (by != 0 && most >= still + SCROLL_GAIN).then_some(by)
    }

    proptest::proptest! {
        // Keys from a few values, and rows shifted from the ones before, so that moves are
        // found often.
        #[test]
        fn the_move_found_is_the_one_trying_every_move_finds(
            before in proptest::collection::vec(0u64..4, 0..14),
            shift in -5i32..6,
            changes in proptest::collection::vec((0usize..14, 0u64..6), 0..4),
        ) {
            let n = before.len();
            let mut now: Vec<u64> = (0..n)
                .map(|i| {
                    let j = i32::try_from(i).unwrap_or(0) + shift;
                    usize::try_from(j).ok().and_then(|j| before.get(j)).copied().unwrap_or(9)
                })
                .collect();
            for (at, key) in changes {
                if let Some(k) = now.get_mut(at) {
                    *k = key;
                }
            }
            prop_assert_eq!(moved(&before, &now), moved_trying_all(&before, &now));
            prop_assert_eq!(moved(&now, &before), moved_trying_all(&now, &before));
        }
    }

    #[test]
    fn a_lines_key_changes_with_each_thing_it_draws() {
        use ratatui::layout::HorizontalAlignment;
        use ratatui::text::Span;
        let red_on_black = || Style::new().red().on_black();
        let line = |spans: Vec<Span<'static>>| Line::from(spans);
        let base = || line(vec![Span::styled("ab", red_on_black()), Span::raw("c")]);
        // Given a line, and the same line once more: the same key
        assert_eq!(line_key(&base()), line_key(&base()));
        // When any one thing it draws differs: then so does its key
        let mut changed: Vec<Line> = vec![
            base().style(Style::new().bold()),
            base().alignment(HorizontalAlignment::Left),
            base().alignment(HorizontalAlignment::Center),
            base().alignment(HorizontalAlignment::Right),
            line(vec![Span::styled("ab", Style::new().red()), Span::raw("c")]),
            line(vec![
                Span::styled("ab", Style::new().red().on_white()),
                Span::raw("c"),
            ]),
            line(vec![Span::styled("ab", red_on_black()), Span::raw("d")]),
            line(vec![Span::styled("abc", red_on_black())]),
            line(vec![Span::styled("a", red_on_black()), Span::raw("bc")]),
            line(vec![
                Span::styled("ab", red_on_black()),
                Span::raw("c"),
                Span::raw(""),
            ]),
            line(vec![
                Span::styled("ab", red_on_black()),
                Span::styled("c", Style::new().not_bold()),
            ]),
            line(vec![
                Span::styled("ab", red_on_black()),
                Span::styled("c", Style::new().underline_color(Color::Blue)),
            ]),
        ];
        for c in [
            Color::Reset,
            Color::Indexed(3),
            Color::Indexed(4),
            Color::Rgb(1, 2, 3),
            Color::Rgb(1, 2, 4),
            Color::Rgb(0, 0, 3),
            Color::LightRed,
        ] {
            changed.push(line(vec![
                Span::styled("ab", Style::new().fg(c).on_black()),
                Span::raw("c"),
            ]));
        }
        let mut keys: Vec<u64> = changed.iter().map(line_key).collect();
        keys.push(line_key(&base()));
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n, "two different lines share a key");
    }

    fn colours() -> impl Strategy<Value = Option<Color>> {
        prop::sample::select(vec![
            None,
            Some(Color::Reset),
            Some(Color::Red),
            Some(Color::LightRed),
            Some(Color::Indexed(1)),
            Some(Color::Indexed(2)),
            Some(Color::Rgb(1, 2, 3)),
            Some(Color::Rgb(1, 2, 4)),
        ])
    }

    fn styles() -> impl Strategy<Value = Style> {
        let modifiers = prop::sample::select(vec![Modifier::empty(), Modifier::BOLD]);
        (
            colours(),
            colours(),
            colours(),
            modifiers.clone(),
            modifiers,
        )
            .prop_map(
                |(fg, bg, underline_color, add_modifier, sub_modifier)| Style {
                    fg,
                    bg,
                    underline_color,
                    add_modifier,
                    sub_modifier,
                },
            )
    }

    fn small_lines() -> impl Strategy<Value = Line<'static>> {
        let span = (styles(), prop::sample::select(vec!["", "a", "ab", "b"]))
            .prop_map(|(style, text)| ratatui::text::Span::styled(text, style));
        (styles(), prop::collection::vec(span, 0..3))
            .prop_map(|(style, spans)| Line::from(spans).style(style))
    }

    proptest::proptest! {
        // Lines drawn from a few colours, modifiers and words, so that two are often alike.
        #[test]
        fn lines_share_a_key_exactly_when_they_are_alike(
            pairs in proptest::collection::vec((small_lines(), small_lines()), 64),
        ) {
            for (a, b) in &pairs {
                prop_assert_eq!(a == b, line_key(a) == line_key(b), "{:?} / {:?}", a, b);
                prop_assert_eq!(line_key(a), line_key(&a.clone()));
            }
        }
    }

    #[test]
    fn a_wide_character_a_popup_cuts_at_its_left_edge_is_blanked() {
        // Given a row with 龍 in columns 4 and 5, and a popup cleared from column 5
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 2));
        buf.set_string(4, 0, "龍", Style::default());
        buf.set_string(2, 1, "龍", Style::default());
        clear(Rect::new(5, 0, 4, 2), &mut buf);
        // Then the half left outside is a space: a terminal would draw the whole character
        // over the popup's border, and the frame's diff would skip the border's cell
        assert_eq!(buf[(4, 0)].symbol(), " ");
        // And a wide character wholly outside stays
        assert_eq!(buf[(2, 1)].symbol(), "龍");
    }

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

    /// Each `write` it is given, apart.
    #[derive(Default)]
    struct Writes(Vec<Vec<u8>>);

    impl Write for Writes {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.push(bytes.to_vec());
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A buffer smaller than the frames drawn through it, as stdout's is smaller than a large
    /// screen's frame: a frame that went out in pieces would show as several writes.
    type Counted = io::BufWriter<Writes>;

    fn counted() -> Counted {
        io::BufWriter::with_capacity(8, Writes::default())
    }

    /// The screen's writes so far, and those after drawing `text`.
    fn drawn(screen: &mut Screen<Counted>, text: &'static str) -> (usize, Vec<String>) {
        let before = screen.writer().get_ref().0.len();
        screen
            .draw(ratatui::widgets::Paragraph::new(text))
            .expect("draw");
        let writes = screen.writer().get_ref().0[before..].iter();
        let after = writes.map(|w| String::from_utf8_lossy(w).into_owned());
        (before, after.collect())
    }

    #[test]
    fn the_first_frame_goes_out_in_one_write_with_the_switch_to_the_alternate_screen() {
        let mut screen = Screen::opening(counted(), 20, 1);
        let (before, writes) = drawn(&mut screen, "ab");
        assert_eq!(before, 0, "nothing before the frame");
        assert_eq!(
            writes,
            ["\x1b[?1049h\x1b[?25l\x1b[?2004h\x1b[1;1Hab"],
            "one write: the switch, the cursor hidden, then the frame"
        );
    }

    #[test]
    fn a_resized_screen_is_cleared_in_the_write_of_its_next_frame() {
        let mut screen = Screen::new(counted(), 20, 1);
        let (_, first) = drawn(&mut screen, "ab");
        screen.resize(10, 1);
        let (before, writes) = drawn(&mut screen, "cd");
        assert_eq!(before, first.len(), "nothing sent on resize");
        assert_eq!(writes, ["\x1b[2J\x1b[1;1Hcd"]);
    }

    /// A frame of one pane over the whole screen, with a popup over `popup` if given.
    fn framed(area: Rect, popup: Option<Rect>) -> Frame<'static> {
        let mut frame = Frame::new(area);
        frame.always(area, |buf| {
            ratatui::widgets::Paragraph::new("under").render(buf.area, buf);
        });
        if let Some(r) = popup {
            frame.over(r, move |buf| clear(r, buf));
        }
        frame
    }

    #[test]
    fn popups_keep_what_lies_under_them_in_memory_readied_before() {
        let area = Rect::new(0, 0, 20, 10);
        let popup = Rect::new(2, 2, 8, 4);
        let mut screen = Screen::new(Vec::new(), 20, 10);
        screen.show(framed(area, None)).expect("show");
        screen.prepare_popups();
        let ready = screen.spare[0].as_ptr();
        assert!(screen.spare[0].capacity() >= 100, "half the screen");
        screen.show(framed(area, Some(popup))).expect("show");
        assert_eq!(
            screen.under[0].1.as_ptr(),
            ready,
            "the first popup takes it"
        );
        screen.show(framed(area, None)).expect("show");
        assert_eq!(screen.spare[0].as_ptr(), ready, "given back when put back");
        screen.show(framed(area, Some(popup))).expect("show");
        assert_eq!(screen.under[0].1.as_ptr(), ready, "and taken again");
    }

    #[test]
    fn a_frame_that_changes_nothing_sends_nothing_and_a_resize_sends_all() {
        let mut screen = Screen::new(Vec::new(), 10, 2);
        let text = || ratatui::widgets::Paragraph::new("hi there");
        screen.draw(text()).expect("draw");
        let first = screen.writer().len();
        screen.draw(text()).expect("draw");
        assert_eq!(screen.writer().len(), first, "nothing changed");
        screen.resize(12, 2);
        screen.draw(text()).expect("draw");
        let again = String::from_utf8_lossy(&screen.writer()[first..]).into_owned();
        assert_eq!(
            again, "\x1b[2J\x1b[1;1Hhi there",
            "cleared, then sent whole"
        );
    }

    /// A screen of `w` × `h`: a pane of one column at the left (the same in each row, or
    /// not), and a bordered pane of lines, one a row, from `ids` (some with a wide character,
    /// some styled), with its lines drawn row by row as the log's are.
    fn log_frame(w: u16, h: u16, same_left: bool, ids: &[u16]) -> Frame<'static> {
        let area = Rect::new(0, 0, w, h);
        let left = Rect::new(0, 0, 1, h);
        let right = Rect::new(1, 0, w - 1, h);
        let mut frame = Frame::new(area);
        let mut side = Drawing::default();
        let marks: Vec<Line> = (0..h)
            .map(|y| Line::from(if same_left || y % 2 == 0 { "|" } else { ":" }))
            .collect();
        side.lines(marks, left);
        frame.pane(left, side);
        let mut log = Drawing::default();
        let inner = log.block(PaneBox::new(Style::new()), right);
        let lines = ids
            .iter()
            .map(|id| {
                let text = match id % 5 {
                    0 => format!("wide 日{id}"),
                    1 => format!("entry {id} {}", "-".repeat(usize::from(id % 7))),
                    _ => format!("line {id}"),
                };
                Line::styled(
                    text,
                    Style::new().fg(Color::Indexed(u8::try_from(id % 3).unwrap_or(0))),
                )
            })
            .collect();
        log.lines(lines, inner);
        frame.pane(right, log);
        frame
    }

    /// Shows `ids` then each of `then` on one screen; checks each frame against the frame
    /// drawn afresh and against what a terminal fed the bytes shows.
    fn log_session(w: u16, h: u16, same_left: bool, first: &[u16], then: &[Vec<u16>]) {
        let mut screen = Screen::new(Vec::new(), w, h);
        let mut vt = terminal(w, h);
        let mut fed = 0;
        for ids in std::iter::once(first).chain(then.iter().map(Vec::as_slice)) {
            let shown = screen
                .show(log_frame(w, h, same_left, ids))
                .expect("show")
                .clone();
            let mut want = Buffer::empty(Rect::new(0, 0, w, h));
            log_frame(w, h, same_left, ids).render(&mut want);
            settle(&mut want);
            assert_eq!(shown, want, "kept as drawn afresh: {ids:?}");
            vt.process(&screen.writer()[fed..]);
            crate::ui::wire::tests::assert_shows(&vt, &want);
            fed = screen.writer().len();
        }
    }

    /// A terminal of `w` × `h` to feed what a screen sends.
    fn terminal(w: u16, h: u16) -> vt100::Parser {
        let size = |n| std::num::NonZeroU16::new(n).expect("a screen has cells");
        vt100::Parser::new(size(h), size(w), 0)
    }

    /// What showing `frame` sends.
    fn sent_for(screen: &mut Screen<Vec<u8>>, frame: Frame<'_>) -> String {
        let before = screen.writer().len();
        screen.show(frame).expect("show");
        String::from_utf8_lossy(&screen.writer()[before..]).into_owned()
    }

    /// A pane boxed with `title` on its top and bottom borders in `border`, its lines `ids`,
    /// over the whole screen.
    fn titled_frame<'a>(w: u16, h: u16, title: &'a str, border: Style, ids: &[u16]) -> Frame<'a> {
        let area = Rect::new(0, 0, w, h);
        let mut frame = Frame::new(area);
        let mut pane = Drawing::default();
        let boxed = PaneBox::new(border)
            .title(Line::from(title))
            .title_bottom(Line::from(title));
        let inner = pane.block(boxed, area);
        let lines = ids
            .iter()
            .map(|id| Line::from(format!("line {id}")))
            .collect();
        pane.lines(lines, inner);
        frame.pane(area, pane);
        frame
    }

    #[test]
    fn only_a_box_over_the_whole_pane_with_the_lines_inside_it_is_drawn_again_alone() {
        let r = Rect::new(0, 0, 20, 8);
        let boxed = |area: Rect, lines: Rect| {
            let mut d = Drawing::default();
            d.block(PaneBox::new(Style::new()), area);
            d.lines(vec![Line::from("a")], lines);
            d
        };
        // A box over the pane, its lines inside the borders: its box can be drawn alone
        assert!(boxed(r, Rect::new(1, 1, 18, 6)).boxes_alone(r, Rect::new(1, 1, 18, 6)));
        assert!(boxed(r, Rect::new(2, 2, 10, 3)).boxes_alone(r, Rect::new(2, 2, 10, 3)));
        // Not a box over part of the pane, nor lines reaching over its borders
        assert!(
            !boxed(Rect::new(0, 0, 10, 8), Rect::new(1, 1, 8, 6))
                .boxes_alone(r, Rect::new(1, 1, 8, 6))
        );
        assert!(!boxed(r, Rect::new(0, 1, 19, 6)).boxes_alone(r, Rect::new(0, 1, 19, 6)));
        // Nor lines drawn before the last ones
        let mut twice = boxed(r, Rect::new(1, 1, 18, 3));
        twice.lines(vec![Line::from("b")], Rect::new(1, 4, 18, 3));
        assert!(!twice.boxes_alone(r, Rect::new(1, 4, 18, 3)));
    }

    #[test]
    fn a_box_whose_title_changed_is_drawn_again_around_the_rows_kept() {
        let (w, h) = (24, 8);
        let inner = Rect::new(1, 1, w - 2, h - 2);
        let mut screen = Screen::new(Vec::new(), w, h);
        let mut vt = terminal(w, h);
        let mut fed = 0;
        // Given a boxed pane, when its title grows shorter, its border takes a colour and one
        // row changes, a wide title comes and a row goes
        let steps: [(&str, Style, &[u16], &[u16]); 4] = [
            ("a long title, cut", Style::new(), &[1, 2, 3, 4, 5, 6], &[]),
            ("short", Style::new(), &[1, 2, 3, 4, 5, 6], &[]),
            ("▲ 3 more", Style::new().cyan(), &[1, 2, 9, 4, 5, 6], &[3]),
            ("日本 wide", Style::new().cyan(), &[1, 2, 9, 4, 5], &[6]),
        ];
        for (i, (title, border, ids, rows)) in steps.into_iter().enumerate() {
            let shown = screen
                .show(titled_frame(w, h, title, border, ids))
                .expect("show")
                .clone();
            // Then the screen and the terminal show the frame drawn afresh
            let mut want = Buffer::empty(Rect::new(0, 0, w, h));
            titled_frame(w, h, title, border, ids).render(&mut want);
            settle(&mut want);
            assert_eq!(shown, want, "step {i}");
            vt.process(&screen.writer()[fed..]);
            fed = screen.writer().len();
            crate::ui::wire::tests::assert_shows(&vt, &want);
            if i == 0 {
                continue;
            }
            // And inside the box only the rows that changed were drawn, and the box around
            let inside: Vec<u16> = screen
                .drawn()
                .iter()
                .filter(|d| d.intersects(inner))
                .map(|d| {
                    assert_eq!(d.height, 1, "a row at a time: {d:?}");
                    d.y
                })
                .collect();
            assert_eq!(inside, rows, "step {i}");
            assert!(
                screen.drawn().iter().any(|d| d.y == 0 && d.width == w),
                "the top border: {:?}",
                screen.drawn()
            );
        }
    }

    #[test]
    fn lines_that_move_up_or_down_are_moved_by_the_terminal() {
        let (w, h) = (30, 10);
        let first: Vec<u16> = (1..=8).collect();
        let up: Vec<u16> = (3..=10).collect();
        let mut screen = Screen::new(Vec::new(), w, h);
        screen.show(log_frame(w, h, true, &first)).expect("show");
        let sent = sent_for(&mut screen, log_frame(w, h, true, &up));
        assert!(
            sent.starts_with("\x1b[2;9r\x1b[2;1H\x1b[2M\x1b[r"),
            "the eight rows inside the borders move up two: {sent:?}"
        );
        assert!(
            !sent.contains("line 4"),
            "what only moved is not sent: {sent:?}"
        );
        assert!(
            sent.contains("line 9") && sent.contains("wide 日"),
            "the rows that came in: {sent:?}"
        );
        let sent = sent_for(&mut screen, log_frame(w, h, true, &first));
        assert!(
            sent.starts_with("\x1b[2;9r\x1b[2;1H\x1b[2L\x1b[r"),
            "and back down: {sent:?}"
        );
        assert!(!sent.contains("line 4"), "{sent:?}");
    }

    #[test]
    fn lines_are_not_moved_where_moving_would_change_another_pane() {
        let (w, h) = (30, 10);
        let mut screen = Screen::new(Vec::new(), w, h);
        screen
            .show(log_frame(w, h, false, &(1..=8).collect::<Vec<_>>()))
            .expect("show");
        let sent = sent_for(
            &mut screen,
            log_frame(w, h, false, &(3..=10).collect::<Vec<_>>()),
        );
        assert!(!sent.contains("\x1b[r"), "no region: {sent:?}");
        assert!(
            sent.contains("line 4"),
            "rows drawn where they are: {sent:?}"
        );
    }

    #[test]
    fn lines_that_move_as_a_popup_over_them_closes_show_as_drawn_afresh() {
        let (w, h) = (30, 10);
        let first: Vec<u16> = (1..=8).collect();
        let up: Vec<u16> = (3..=10).collect();
        let popup = Rect::new(4, 2, 12, 4);
        let mut with_popup = log_frame(w, h, true, &first);
        with_popup.over(popup, move |buf| {
            clear(popup, buf);
            buf.set_string(5, 3, "a popup", Style::new().reversed());
        });
        let mut screen = Screen::new(Vec::new(), w, h);
        screen.show(with_popup).expect("show");
        let mut vt = terminal(w, h);
        let shown = screen
            .show(log_frame(w, h, true, &up))
            .expect("show")
            .clone();
        vt.process(screen.writer());
        let mut want = Buffer::empty(Rect::new(0, 0, w, h));
        log_frame(w, h, true, &up).render(&mut want);
        settle(&mut want);
        assert_eq!(shown, want);
        crate::ui::wire::tests::assert_shows(&vt, &want);
    }

    /// A screen of one bordered pane of wide characters (a row of them from its first column
    /// of text, a row from its second), and, if `popup` is `(over, r)`, a popup cleared over
    /// `r` with a border, which the frame says is drawn over `over` (`r` itself, or a larger
    /// rectangle, as a form's is the body).
    fn wide_frame(w: u16, h: u16, popup: Option<(Rect, Rect)>) -> Frame<'static> {
        let area = Rect::new(0, 0, w, h);
        let mut frame = Frame::new(area);
        let mut pane = Drawing::default();
        let inner = pane.block(PaneBox::new(Style::new()), area);
        let lines = (0..inner.height)
            .map(|i| {
                let pad = if i % 2 == 0 { "" } else { "x" };
                Line::styled(
                    format!("{pad}{}", "龍".repeat(usize::from(w))),
                    Style::new().fg(Color::Cyan).bold(),
                )
            })
            .collect();
        pane.lines(lines, inner);
        frame.pane(area, pane);
        if let Some((saved, r)) = popup {
            frame.over(saved, move |buf| {
                clear(r, buf);
                PaneBox::new(Style::new()).render(r, buf);
                let inner = usize::from(r.width.saturating_sub(2));
                buf.set_stringn(r.x + 1, r.y + 1, "a popup", inner, Style::new().reversed());
            });
        }
        frame
    }

    #[test]
    fn wide_characters_a_popups_border_crossed_show_whole_when_it_closes() {
        // Given rows of wide characters, one row starting a column after the other, and a
        // popup whose left and right edges fall on either half of one of them, or on one
        // cut in half (each place from column 1 to 8, each width from 3 to 6)
        let (w, h) = (24, 6);
        let want = |popup| {
            let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
            wide_frame(w, h, popup).render(&mut buf);
            settle(&mut buf);
            buf
        };
        for x in 1..9 {
            for width in 3..7 {
                let r = Rect::new(x, 1, width, 4);
                let body = Rect::new(1, 1, w - 2, h - 2);
                for saved in [r, body] {
                    let popup = Some((saved, r));
                    let mut screen = Screen::new(Vec::new(), w, h);
                    let mut vt = terminal(w, h);
                    let mut fed = 0;
                    // When the popup opens, then closes, then opens and closes again
                    for (step, p) in [None, popup, None, popup, None].into_iter().enumerate() {
                        let shown = screen.show(wide_frame(w, h, p)).expect("show").clone();
                        vt.process(&screen.writer()[fed..]);
                        fed = screen.writer().len();
                        // Then the screen and the terminal show the frame drawn afresh: no
                        // hole where the popup's border was, no half a glyph beside it
                        let want = want(p);
                        let differ: Vec<_> = (0..w * h)
                            .map(|i| (i % w, i / w))
                            .filter(|&p| shown[p] != want[p])
                            .map(|p| (p, shown[p].symbol().to_owned(), want[p].symbol().to_owned()))
                            .collect();
                        assert!(
                            differ.is_empty(),
                            "popup {r:?} over {saved:?}, step {step}: {differ:?}"
                        );
                        crate::ui::wire::tests::assert_shows(&vt, &want);
                    }
                }
            }
        }
    }

    fn moves() -> impl Strategy<Value = (i32, Vec<u16>, Vec<(usize, u16)>)> {
        (
            -9i32..=9,
            prop::collection::vec(20u16..40, 0..9),
            prop::collection::vec((0usize..9, 40u16..60), 0..3),
        )
    }

    /// Lines after `ids` moved by `by` (up when positive: new lines come in at the bottom),
    /// then a few of them replaced.
    fn moved_ids(ids: &[u16], by: i32, fresh: &[u16], edits: &[(usize, u16)]) -> Vec<u16> {
        let n = ids.len();
        let k = usize::try_from(by.unsigned_abs()).unwrap_or(0).min(n);
        let mut new = fresh.iter().copied().cycle().take(k);
        let mut out: Vec<u16> = if by >= 0 {
            ids[k..].iter().copied().chain(&mut new).collect()
        } else {
            (&mut new).chain(ids[..n - k].iter().copied()).collect()
        };
        out.resize(n, 99);
        for &(i, id) in edits {
            if let Some(slot) = out.get_mut(i) {
                *slot = id;
            }
        }
        out
    }

    proptest::proptest! {
        /// Lines that move up and down by any number of rows, some of them changed too, a
        /// pane beside them that moving the rows would or would not spoil: each frame is the
        /// frame drawn afresh, and the terminal shows it.
        #[test]
        fn moved_lines_show_as_drawn_afresh(
            same_left: bool,
            h in 4u16..12,
            steps in proptest::collection::vec(moves(), 1..5),
        ) {
            let w = 24;
            let first: Vec<u16> = (1..h.saturating_sub(1)).collect();
            let mut frames = Vec::new();
            let mut ids = first.clone();
            for (by, fresh, edits) in &steps {
                let fresh = if fresh.is_empty() { vec![77] } else { fresh.clone() };
                ids = moved_ids(&ids, *by, &fresh, edits);
                frames.push(ids.clone());
            }
            log_session(w, h, same_left, &first, &frames);
        }
    }
}
