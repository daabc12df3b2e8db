//! The box around a pane or a popup: borders on all four sides and titles on them.
//!
//! It draws what ratatui's `Block` draws with every border and no style of its own (a test
//! holds the two to the same cells), without the pass a `Block` makes over every cell of its
//! area to apply that style: an unstyled `Block` still walks the whole rectangle through the
//! buffer's checked index: about a seventh of what opening help cost (measured).

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Widget;

/// A pane's box: its border style, and its titles, each on the top or the bottom border and
/// aligned as its line says (left when it says nothing).
#[derive(Debug, Clone, Hash, PartialEq, Eq)]
pub struct PaneBox<'a> {
    border: Style,
    titles: Vec<(Edge, Line<'a>)>,
}

/// Which border a title is on.
#[derive(Debug, Clone, Copy, Hash, PartialEq, Eq)]
enum Edge {
    Top,
    Bottom,
}

/// The borders' symbols: sides first, then the corners over their ends (as `Block` draws
/// them).
const VERTICAL: &str = "│";
const HORIZONTAL: &str = "─";
const TOP_LEFT: &str = "┌";
const TOP_RIGHT: &str = "┐";
const BOTTOM_LEFT: &str = "└";
const BOTTOM_RIGHT: &str = "┘";

impl<'a> PaneBox<'a> {
    /// A box whose borders are drawn in `border`, with no title yet.
    pub fn new(border: Style) -> Self {
        Self {
            border,
            titles: Vec::new(),
        }
    }

    /// A title on the top border.
    #[must_use]
    pub fn title(mut self, line: Line<'a>) -> Self {
        self.titles.push((Edge::Top, line));
        self
    }

    /// A title on the bottom border.
    #[must_use]
    pub fn title_bottom(mut self, line: Line<'a>) -> Self {
        self.titles.push((Edge::Bottom, line));
        self
    }

    /// The rectangle inside the borders.
    pub fn inner(&self, area: Rect) -> Rect {
        let mut inner = area;
        inner.x = inner.x.saturating_add(1).min(inner.right());
        inner.width = inner.width.saturating_sub(1);
        inner.y = inner.y.saturating_add(1).min(inner.bottom());
        inner.height = inner.height.saturating_sub(1);
        inner.width = inner.width.saturating_sub(1);
        inner.height = inner.height.saturating_sub(1);
        inner
    }

    /// Draws the borders over `area` (within the buffer), then the titles on them.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let (left, top) = (area.left(), area.top());
        let right = area.right().saturating_sub(1);
        let bottom = area.bottom().saturating_sub(1);
        let mut put = |x: u16, y: u16, symbol: &str| {
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.set_symbol(symbol).set_style(self.border);
            }
        };
        for y in top..=bottom {
            put(left, y, VERTICAL);
        }
        for x in left..=right {
            put(x, top, HORIZONTAL);
        }
        for y in top..=bottom {
            put(right, y, VERTICAL);
        }
        for x in left..=right {
            put(x, bottom, HORIZONTAL);
        }
        put(right, bottom, BOTTOM_RIGHT);
        put(right, top, TOP_RIGHT);
        put(left, bottom, BOTTOM_LEFT);
        put(left, top, TOP_LEFT);
        for edge in [Edge::Top, Edge::Bottom] {
            let y = match edge {
                Edge::Top => top,
                Edge::Bottom => bottom,
            };
            let row = Rect {
                x: left.saturating_add(1),
                y,
                width: area.width.saturating_sub(2),
                height: 1,
            };
            self.render_left(edge, row, buf);
            self.render_centre(edge, row, buf);
            self.render_right(edge, row, buf);
        }
    }

    fn on(&self, edge: Edge, alignment: Alignment) -> impl DoubleEndedIterator<Item = &Line<'a>> {
        self.titles
            .iter()
            .filter(move |(e, line)| {
                *e == edge && line.alignment.unwrap_or(Alignment::Left) == alignment
            })
            .map(|(_, line)| line)
    }

    /// Left titles one after another, a space between, cut at the right.
    fn render_left(&self, edge: Edge, mut row: Rect, buf: &mut Buffer) {
        for title in self.on(edge, Alignment::Left) {
            if row.is_empty() {
                break;
            }
            let width = width_of(title);
            title.render(
                Rect {
                    width: width.min(row.width),
                    ..row
                },
                buf,
            );
            let advance = width.saturating_add(1);
            row.x = row.x.saturating_add(advance);
            row.width = row.width.saturating_sub(advance);
        }
    }

    /// Centred titles, a space between; when they do not fit, cut on both sides.
    fn render_centre(&self, edge: Edge, row: Rect, buf: &mut Buffer) {
        let titles: Vec<&Line> = self.on(edge, Alignment::Center).collect();
        let total = titles
            .iter()
            .map(|t| width_of(t).saturating_add(1))
            .fold(0, u16::saturating_add)
            .saturating_sub(1);
        let mut row = row;
        if total <= row.width {
            row.x = row
                .left()
                .saturating_add(row.width.saturating_sub(total) / 2);
            for title in titles {
                let width = width_of(title);
                title.render(Rect { width, ..row }, buf);
                let advance = width.saturating_add(1);
                row.x = row.x.saturating_add(advance);
                row.width = row.width.saturating_sub(advance);
            }
            return;
        }
        let mut offset = total.saturating_sub(row.width) / 2;
        for title in titles {
            if row.is_empty() {
                break;
            }
            let width = row.width.min(width_of(title)).saturating_sub(offset);
            let area = Rect { width, ..row };
            if offset > 0 {
                title.clone().right_aligned().render(area, buf);
                offset = offset.saturating_sub(width).saturating_sub(1);
            } else {
                title.clone().left_aligned().render(area, buf);
            }
            let advance = width.saturating_add(1);
            row.x = row.x.saturating_add(advance);
            row.width = row.width.saturating_sub(advance);
        }
    }

    /// Right titles from the right, a space between.
    fn render_right(&self, edge: Edge, mut row: Rect, buf: &mut Buffer) {
        for title in self.on(edge, Alignment::Right).rev() {
            if row.is_empty() {
                break;
            }
            let width = width_of(title);
            title.render(
                Rect {
                    x: row.right().saturating_sub(width).max(row.left()),
                    width: width.min(row.width),
                    ..row
                },
                buf,
            );
            row.width = row.width.saturating_sub(width).saturating_sub(1);
        }
    }
}

/// A line's width in cells, at most what a row can hold.
fn width_of(line: &Line) -> u16 {
    u16::try_from(line.width()).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use ratatui::style::Color;
    use ratatui::widgets::{Block, Borders};

    fn a_title() -> impl Strategy<Value = (bool, u8, String)> {
        (any::<bool>(), 0u8..3, "[a-z 日▲…]{0,14}")
    }

    fn line((_, align, text): &(bool, u8, String)) -> Line<'static> {
        let line = Line::styled(text.clone(), Style::new().cyan().bold());
        match align {
            0 => line,
            1 => line.right_aligned(),
            _ => line.centered(),
        }
    }

    proptest! {
        /// Any rectangle (in the buffer, across its edge or outside it), any titles on either
        /// border in any alignment, over any cells: the cells ratatui's unstyled `Block` with
        /// every border draws, and the same rectangle inside.
        #[test]
        fn it_draws_what_an_unstyled_block_draws(
            x in 0u16..14, y in 0u16..8, w in 0u16..20, h in 0u16..9,
            titles in prop::collection::vec(a_title(), 0..4),
            under in "[a-z]{48}",
        ) {
            let border = Style::new().fg(Color::Indexed(5));
            let mut block = Block::default().borders(Borders::ALL).border_style(border);
            let mut ours = PaneBox::new(border);
            for t in &titles {
                if t.0 {
                    block = block.title_bottom(line(t));
                    ours = ours.title_bottom(line(t));
                } else {
                    block = block.title(line(t));
                    ours = ours.title(line(t));
                }
            }
            let area = Rect::new(x, y, w, h);
            let mut want = Buffer::empty(Rect::new(0, 0, 16, 10));
            for row in 0..10 {
                want.set_string(0, row, &under[..16], Style::new().red());
            }
            let mut got = want.clone();
            block.clone().render(area, &mut want);
            ours.render(area, &mut got);
            prop_assert_eq!(got, want);
            prop_assert_eq!(ours.inner(area), block.inner(area));
        }
    }
}
