//! Rendering: a pure function of the app state. The layout and one file per pane here; each
//! popup is drawn by its room (`ui/mode/`).

// t, s, r, h, w: theme, state, rectangle, height, width — the same in every pane.
#![allow(clippy::many_single_char_names)]

pub mod header;
pub mod ip_grid;
pub mod keybar;
pub mod log;
pub mod message;
pub mod narration;
pub mod order;
pub mod seats;
pub mod status;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::ui::pane_box::PaneBox;
use tui_input::Input;

use super::app::{App, MIN_HEIGHT, MIN_WIDTH};
pub use super::frame::Drawing;
use super::frame::{Frame, hash_of};
use super::mode::{self, Mode};
use super::theme::Theme;

/// A rectangle of at most `w`×`h`, centred in `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

pub fn pane_block(title: &str, focused: bool, theme: Theme) -> PaneBox<'static> {
    PaneBox::new(theme.border(focused)).title(Line::styled(format!(" {title} "), theme.title()))
}

pub use super::frame::{clear, draw_lines};

/// A line of one text in one style, as `Line::styled` makes it but without its copy of an
/// owned text (it splits the text at newlines, which a text drawn never holds: control
/// characters are escaped). The log and the status pane make dozens a frame.
pub fn text_line(text: String, style: ratatui::style::Style) -> Line<'static> {
    Line {
        spans: vec![Span::raw(text)],
        style,
        ..Line::default()
    }
}

/// An input with its cursor drawn as a reversed cell (render stays a pure function). A control
/// character (a completion from a save's text) is drawn escaped (`\e`), as everywhere else, and
/// measured so.
pub fn input_spans(input: &Input, width: usize, theme: Theme) -> Vec<Span<'static>> {
    let shown = |c: char| crate::text::escaped(c.encode_utf8(&mut [0; 4])).into_owned();
    let value = input.value();
    let escaped_view;
    let measured = if crate::text::holds_control(value) {
        let cursor = value
            .chars()
            .take(input.cursor())
            .map(|c| shown(c).chars().count());
        escaped_view =
            Input::new(crate::text::escaped(value).into_owned()).with_cursor(cursor.sum());
        &escaped_view
    } else {
        input
    };
    // tui-input scrolls by cells, its cursor is a character index: the characters scrolled
    // off are those that start left of the scroll's cell (a wide one takes two).
    let scroll = measured.visual_scroll(width.saturating_sub(1));
    let mut x = 0;
    let chars: Vec<char> = value
        .chars()
        .skip_while(|c| {
            let off = x < scroll;
            x += unicode_width::UnicodeWidthStr::width(shown(*c).as_str());
            off
        })
        .collect();
    let skipped = value.chars().count() - chars.len();
    let cur = input.cursor().saturating_sub(skipped);
    let before: String = chars.iter().take(cur).map(|c| shown(*c)).collect();
    let at: String = chars.get(cur).map_or(" ".to_string(), |c| shown(*c));
    let after: String = chars.iter().skip(cur + 1).map(|c| shown(*c)).collect();
    let _ = theme;
    vec![
        Span::raw(before),
        Span::styled(
            at,
            ratatui::style::Style::new().add_modifier(ratatui::style::Modifier::REVERSED),
        ),
        Span::raw(after),
    ]
}

/// Escapes the control characters of every span (texts that did not go through [`cut`]).
pub fn escape_lines(lines: &mut [Line]) {
    for line in lines {
        for span in &mut line.spans {
            if crate::text::holds_control(&span.content) {
                span.content = crate::text::escaped(&span.content).into_owned().into();
            }
        }
    }
}

/// Writes `text` cut to `n` characters as [`cut`] cuts it, then spaces up to `n`: the
/// `format!("{:<n$}", cut(text, n))` of a table's column, without its allocations.
pub fn push_padded(out: &mut String, text: &str, n: usize) {
    let written = push_cut(out, text, n);
    out.extend(std::iter::repeat_n(' ', n - written));
}

/// The cells a character's name may take in a menu's head or title, so the counts after it
/// show (a name may be 40 wide characters, 80 cells).
pub const MENU_NAME_CELLS: usize = 24;

/// Cuts a string to at most `n` terminal cells (a wide character takes two), `…` where cut; control characters are escaped first, so that what is drawn is what was
/// measured.
pub fn cut(s: &str, n: usize) -> String {
    let mut out = String::new();
    push_cut(&mut out, s, n);
    out
}

/// Writes what [`cut`] gives; how many terminal cells that is (a wide character that would
/// straddle the cut is left out, so it may be fewer than `n`).
fn push_cut(out: &mut String, text: &str, n: usize) -> usize {
    use unicode_width::UnicodeWidthChar as _;
    let text = crate::text::escaped(text);
    let cells = crate::text::shown_len(&text);
    if cells <= n {
        out.push_str(&text);
        cells
    } else if n == 0 {
        0
    } else {
        let mut used = 0;
        for c in text.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > n - 1 {
                break;
            }
            out.push(c);
            used += w;
        }
        out.push('…');
        used + 1
    }
}

/// A name cut to `n` cells as [`cut`] cuts it, but for a number at its end (a group member's,
/// `Ganger 10`), which is kept after the `…`: members cut alike stay told apart.
pub fn push_padded_name(out: &mut String, name: &str, n: usize) {
    let written = match name.rsplit_once(' ') {
        Some((head, number))
            if !head.is_empty()
                && (1..=3).contains(&number.len())
                && number.bytes().all(|b| b.is_ascii_digit())
                && n >= number.len() + 3
                && crate::text::shown_len(name) > n =>
        {
            let w = push_cut(out, head, n - number.len() - 1);
            out.push(' ');
            out.push_str(number);
            w + 1 + number.len()
        }
        _ => push_cut(out, name, n),
    };
    out.extend(std::iter::repeat_n(' ', n.saturating_sub(written)));
}

/// A line cut to `n` cells in all: the spans that fit kept, the one that does not cut and `…`
/// put where the line stops (so a cut line never just ends short).
pub fn cut_spans(line: Line<'static>, n: usize) -> Line<'static> {
    if line.width() <= n {
        return line;
    }
    let mut out = Vec::new();
    let mut used = 0;
    for span in line.spans {
        let w = span.width();
        if used + w < n {
            used += w;
            out.push(span);
            continue;
        }
        // This span and what follows it do not fit in the `n - used` cells left (at least
        // one): as much of it as leaves a cell for the `…`.
        let mut text = String::new();
        push_cut(&mut text, &format!("{}…", span.content), n - used);
        out.push(Span::styled(text, span.style));
        break;
    }
    Line::from(out)
}

/// A name cut to `n` cells, its number kept, and padded to them: a column of names.
pub fn padded_name(name: &str, n: usize) -> String {
    let mut out = String::new();
    push_padded_name(&mut out, name, n);
    out
}

/// A name cut to `n` cells, its number kept (see [`push_padded_name`]), without padding.
pub fn cut_name(name: &str, n: usize) -> String {
    let mut out = String::new();
    push_padded_name(&mut out, name, n);
    out.trim_end_matches(' ').to_string()
}

/// `text` cut to `n` terminal cells and padded to them: a column of names.
pub fn padded(text: &str, n: usize) -> String {
    let mut out = String::new();
    push_padded(&mut out, text, n);
    out
}

/// Word-wraps `text` to lines of at most `width` cells; lines after the first are indented
/// by `indent`. A word longer than a line is broken. Nothing is dropped.
pub fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    // Control characters are escaped first, as in `cut`: what is drawn is what was measured.
    let text = crate::text::escaped(text);
    let text = text.as_ref();
    let width = width.max(indent + 4);
    let mut out: Vec<String> = Vec::new();
    // A line after the first is indented: written in place (the log wraps every line it shows,
    // every frame it changes).
    let line = |first: bool, s: &str| {
        let pad = if first { 0 } else { indent };
        let mut line = String::with_capacity(pad + s.len());
        line.extend(std::iter::repeat_n(' ', pad));
        line.push_str(s);
        line
    };
    let mut rest = text;
    loop {
        let first = out.is_empty();
        let room = if first { width } else { width - indent };
        // Where the line's cells run out: 日 takes two. A line holds at least one character.
        let mut used = 0;
        let end = rest.char_indices().find_map(|(i, c)| {
            let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            if used + w > room && i > 0 {
                return Some(i);
            }
            used += w;
            None
        });
        let Some(end) = end else {
            out.push(line(first, rest));
            return out;
        };
        // Break at the last space that has a word before it, else in the middle of the word.
        let head = &rest[..end];
        let space = if rest[end..].starts_with(' ') {
            Some(end)
        } else {
            head.rfind(' ')
        };
        let (cut, next) = match space {
            Some(b) if !rest[..b].trim().is_empty() => (&rest[..b], rest[b + 1..].trim_start()),
            _ => (head, &rest[end..]),
        };
        out.push(line(first, cut.trim_end()));
        if next.is_empty() {
            return out;
        }
        rest = next;
    }
}

/// Rows for the panes at this screen height: the header, the status line and the key bar take 4.
pub fn body_rows(height: u16) -> u16 {
    height.saturating_sub(4)
}

/// From this width on, the order and the IP per pass are one table.
pub const ONE_TABLE: u16 = 100;

/// Where each part of the screen goes.
#[derive(Debug, Clone, Copy)]
pub struct Areas {
    pub head: Rect,
    pub body: Rect,
    /// The order, or the order and the IP grid as one table.
    pub order: Rect,
    /// The IP grid beside the order, when the screen is narrower than `ONE_TABLE`.
    pub grid: Option<Rect>,
    pub status: Rect,
    pub log: Rect,
    /// Above the `:` line: why its last line was refused, or what Tab offers.
    pub note: Option<Rect>,
    pub status_line: Rect,
    pub keys: Rect,
}

/// The layout: the roster gets the rows it needs, down to what leaves the status and the log a
/// few; the status pane is as wide as its lines need (within a third to a half), the log the rest.
/// Whether the encounter plays in narration turns (Anarchy): its table and turn take the place
/// of the order and the IP grid.
fn narrating(app: &App) -> bool {
    crate::ui::mode::tracker::narrates(&app.enc)
}

pub fn areas(app: &App, area: Rect) -> Areas {
    let note_rows = match &app.mode {
        Mode::Command(c) => c.note_rows(area.width),
        _ => 0,
    };
    // The layout measures the panes' lines: kept while what they read and the screen are the
    // same (a key that changes neither, the save mark's second frame).
    // The `:` line and the find take the status line's one row; a message there may wrap.
    let message_rows = match &app.mode {
        Mode::Command(_) | Mode::Find(_) => 1,
        _ => message::rows(app, area.width),
    };
    let key = hash_of(&(
        app.enc.revision(),
        &app.tracker,
        app.theme,
        area,
        note_rows,
        message_rows,
    ));
    *app.layout
        .get(key, || lay_out(app, area, note_rows, message_rows))
}

fn lay_out(app: &App, area: Rect, note_rows: u16, message_rows: u16) -> Areas {
    let [head, body, note, status_line, keys] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(0),
        Constraint::Length(note_rows),
        Constraint::Length(message_rows),
        Constraint::Length(1),
    ])
    .areas(area);
    if narrating(app) {
        // The narration pane lists every character's boxes under four lines of its own.
        let rows = u16::try_from(app.roster().len() + 4 + 3).unwrap_or(u16::MAX);
        let top_h = rows.clamp(6, (body.height * 11 / 20).max(6));
        let [top, bottom] =
            Layout::vertical([Constraint::Length(top_h), Constraint::Min(0)]).areas(body);
        let [order, grid] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(top);
        let [status_area, log_area] =
            Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)])
                .areas(bottom);
        return Areas {
            head,
            body,
            order,
            grid: Some(grid),
            status: status_area,
            log: log_area,
            note: (note_rows > 0).then_some(note),
            status_line,
            keys,
        };
    }
    let want = u16::try_from(order::measures(app).rows.len() + 3).unwrap_or(u16::MAX);
    let bottom_min = if body.height >= 12 {
        6
    } else {
        body.height / 2
    };
    let top_h = want
        .min(body.height.saturating_sub(bottom_min))
        .max(5.min(body.height));
    let [top, bottom] =
        Layout::vertical([Constraint::Length(top_h), Constraint::Min(0)]).areas(body);
    let cells = |w: usize| u16::try_from(w).unwrap_or(u16::MAX);
    let natural = status::width(app) + 2;
    let status_w = natural.clamp(usize::from(area.width) / 3, usize::from(area.width) / 2);
    if area.width >= ONE_TABLE {
        // One table as wide as its columns; the status pane beside it where there is room
        // (it would be blank otherwise), the log below.
        let table_w = order::natural_width(app, true);
        let beside = usize::from(area.width).saturating_sub(table_w);
        if beside >= 36 {
            let [order, status_area] =
                Layout::horizontal([Constraint::Length(cells(table_w)), Constraint::Min(0)])
                    .areas(top);
            return Areas {
                head,
                body,
                order,
                grid: None,
                status: status_area,
                log: bottom,
                note: (note_rows > 0).then_some(note),
                status_line,
                keys,
            };
        }
    }
    let (order, grid) = if area.width >= ONE_TABLE {
        (top, None)
    } else {
        let grid_w = ip_grid::width(app).min(top.width / 2);
        let [o, g] =
            Layout::horizontal([Constraint::Min(0), Constraint::Length(grid_w)]).areas(top);
        (o, Some(g))
    };
    let [status_area, log_area] =
        Layout::horizontal([Constraint::Length(cells(status_w)), Constraint::Min(0)]).areas(bottom);
    Areas {
        head,
        body,
        order,
        grid,
        status: status_area,
        log: log_area,
        note: (note_rows > 0).then_some(note),
        status_line,
        keys,
    }
}

/// A pane's title, saying when the pane has the focus (j/k and PgUp/PgDn act on it) in words,
/// so it shows without colour.
pub fn focus_title(title: &str, focused: bool) -> String {
    if focused {
        format!("{title} · focus")
    } else {
        title.to_string()
    }
}

/// "▲ 3 more" and "▼ 5 more" on a pane's borders when rows are out of sight.
pub fn more_hints(block: PaneBox<'_>, above: usize, below: usize, theme: Theme) -> PaneBox<'_> {
    let mut block = block;
    if above > 0 {
        block =
            block.title(Line::styled(format!(" ▲ {above} more "), theme.title()).right_aligned());
    }
    if below > 0 {
        block = block
            .title_bottom(Line::styled(format!(" ▼ {below} more "), theme.title()).right_aligned());
    }
    block
}

/// The frame for the screen of `area`: the panes, then the mode's popup over them.
pub fn compose<'a>(app: &'a App, area: Rect) -> Frame<'a> {
    let mut frame = Frame::new(area);
    let theme = app.theme;
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = format!(
            "terminal too small (need {MIN_WIDTH}×{MIN_HEIGHT}, now {}×{})",
            area.width, area.height
        );
        frame.always(area, move |buf| {
            // Wrapped, so the size needed still shows on the narrowest terminal.
            let lines = vec![Line::from(msg), Line::from("q: quit")];
            let width = usize::from(area.width.max(1));
            let rows: usize = lines.iter().map(|l| l.width().div_ceil(width).max(1)).sum();
            let top = area
                .height
                .saturating_sub(u16::try_from(rows).unwrap_or(u16::MAX))
                / 2;
            let r = Rect {
                y: area.y + top,
                height: area.height - top,
                ..area
            };
            Paragraph::new(Text::from(lines).centered())
                .style(theme.error())
                .wrap(Wrap { trim: true })
                .render(r, buf);
        });
        return frame;
    }
    let a = areas(app, area);
    // Each pane is keyed by what it reads (see `Frame::pane_of`): the encounter's revision, the
    // tracker's focus, selection, marks and scrolls, the theme, and what is its own. A key
    // that would leave out something a pane reads shows as a stale pane in the proptest that
    // holds kept frames to fresh ones (`ui/tests/frames.rs`).
    let fight = app.enc.revision();
    let pane =
        |frame: &mut Frame<'a>, r: Rect, inputs: u64, draw: fn(&'a App, Rect, &mut Drawing<'a>)| {
            frame.pane_of(r, inputs, move || {
                let mut d = Drawing::default();
                draw(app, r, &mut d);
                d
            });
        };
    let seen = hash_of(&(fight, &app.tracker, theme));
    pane(
        &mut frame,
        a.head,
        hash_of(&(fight, &app.title, theme, &app.saved, &app.read_only)),
        header::render,
    );
    match &app.mode {
        Mode::Command(c) => {
            frame.always(a.status_line, move |buf| c.render(app, a.status_line, buf));
            if let Some(n) = a.note {
                frame.always(n, move |buf| c.render_note(app, n, buf));
            }
        }
        Mode::Find(f) => frame.always(a.status_line, move |buf| f.render(app, a.status_line, buf)),
        _ => pane(
            &mut frame,
            a.status_line,
            hash_of(&(&app.message, theme)),
            message::render,
        ),
    }
    pane(
        &mut frame,
        a.keys,
        hash_of(&(
            app.mode_kind(),
            app.encounter().system(),
            crate::ui::keymap::Uses::of(app.state()),
            app.read_only.is_some(),
            theme,
        )),
        keybar::render,
    );
    // The picker takes the whole body: the panes under it would be drawn for nothing.
    if let Mode::Picker(p) = &app.mode {
        frame.always(a.body, move |buf| p.render(app, a.body, buf));
        return frame;
    }
    if narrating(app) {
        // A narration game (Anarchy) shows its table and turn where passes show order and IP.
        pane(&mut frame, a.order, seen, seats::render);
        if let Some(g) = a.grid {
            pane(&mut frame, g, seen, narration::render);
        }
    } else {
        let one_table = a.grid.is_none();
        let r = a.order;
        frame.pane_of(r, hash_of(&(seen, one_table)), move || {
            let mut d = Drawing::default();
            order::render(app, r, one_table, &mut d);
            d
        });
        if let Some(g) = a.grid {
            pane(&mut frame, g, seen, ip_grid::render);
        }
    }
    pane(&mut frame, a.status, seen, status::render);
    pane(
        &mut frame,
        a.log,
        hash_of(&(
            app.log.revision(),
            app.tracker.focus,
            app.tracker.log_scroll,
            theme,
        )),
        log::render,
    );
    let body = a.body;
    match &app.mode {
        Mode::Tracker | Mode::Command(_) | Mode::Picker(_) | Mode::Find(_) => {}
        Mode::Form(f) => frame.over(body, move |buf| f.render(app, body, buf)),
        Mode::CheckForm(f) => frame.over(body, move |buf| f.render(app, body, buf)),
        Mode::DamageForm(f) => frame.over(body, move |buf| f.render(app, body, buf)),
        // A popup whose rectangle follows from its state is drawn over that alone: what lies
        // under it is kept, put back and compared there, not over the whole body.
        Mode::TestForm(f) => frame.over(f.area(body), move |buf| f.render(app, body, buf)),
        Mode::Choose(c) => frame.over(c.area(body), move |buf| c.render(app, body, buf)),
        Mode::Help(h) => frame.over(mode::help::State::area(body), move |buf| {
            h.render(app, body, buf);
        }),
        Mode::PlotPoints(p) => frame.over(p.area(body), move |buf| p.render(app, body, buf)),
    }
    frame
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        compose(self, area).render(buf);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use ratatui::text::Line;

    fn drawn(input: &tui_input::Input, width: usize) -> [String; 3] {
        let spans = super::input_spans(input, width, crate::ui::theme::Theme::default());
        [0, 1, 2].map(|i| spans[i].content.to_string())
    }

    #[test]
    fn the_input_cursor_stands_on_its_character_among_wide_ones() {
        use tui_input::InputRequest::GoToPrevChar;
        let mut input = tui_input::Input::new("日本語".into());
        input.handle(GoToPrevChar);
        assert_eq!(drawn(&input, 40), ["日本", "語", ""]);
        input.handle(GoToPrevChar);
        assert_eq!(drawn(&input, 40), ["日", "本", "語"]);
        // Scrolled: a narrow box keeps the cursor's character on screen.
        let mut input = tui_input::Input::new("日本語日本語日本語".into());
        input.handle(GoToPrevChar);
        let [before, at, after] = drawn(&input, 6);
        assert_eq!((at.as_str(), after.as_str()), ("語", ""));
        assert!(
            unicode_width::UnicodeWidthStr::width(before.as_str()) <= 4,
            "{before}"
        );
    }

    #[test]
    fn a_control_character_in_the_input_is_drawn_escaped() {
        // Given a line Tab completed with a weapon name a save holds an escape in, when it is
        // drawn, then the escape shows as `\e`, as in every pane, the cursor on it whole.
        let line = "reload Jinx Ares\u{1b}[5mPredator";
        let input = tui_input::Input::new(line.into());
        assert_eq!(
            drawn(&input, 80),
            ["reload Jinx Ares\\e[5mPredator", " ", ""]
        );
        let on_escape = tui_input::Input::new(line.into()).with_cursor(16);
        assert_eq!(
            drawn(&on_escape, 80),
            ["reload Jinx Ares", "\\e", "[5mPredator"]
        );
        // Scrolled: the cursor's cell stays in the box, measured as drawn.
        let [before, at, _] = drawn(&input, 12);
        assert_eq!(at, " ");
        assert!(
            unicode_width::UnicodeWidthStr::width(before.as_str()) <= 11,
            "{before}"
        );
    }

    proptest! {
        /// A column written in place is `cut` padded to exactly its cells: names with
        /// control characters, wide characters and accents, any width.
        #[test]
        fn a_padded_column_is_the_formatted_one(
            text in "[a-z é日\u{1b}\n…]{0,20}",
            n in 0usize..24,
        ) {
            let mut out = String::from("x");
            super::push_padded(&mut out, &text, n);
            let cut = super::cut(&text, n);
            prop_assert!(out[1..].starts_with(&cut));
            prop_assert!(out[1 + cut.len()..].chars().all(|c| c == ' '));
            prop_assert_eq!(unicode_width::UnicodeWidthStr::width(&out[1..]), n);
        }

        /// A line of one text is the line `Line::styled` makes of a text without newlines.
        #[test]
        fn a_text_line_is_the_styled_line(text in "[a-z é日…]{1,20}", bold: bool) {
            let style = if bold {
                ratatui::style::Style::new().bold()
            } else {
                ratatui::style::Style::new()
            };
            prop_assert_eq!(
                super::text_line(text.clone(), style),
                Line::styled(text, style)
            );
        }

        /// Wrapped text: no line wider than the width in cells (at least the indent and 4), every line
        /// after the first indented, and nothing dropped but the spaces it breaks at.
        #[test]
        fn wrapped_lines_fit_are_indented_and_drop_nothing(
            text in "[a-z é日\u{1b}]{0,80}",
            width in 0usize..30,
            indent in 0usize..6,
        ) {
            let lines = super::wrap(&text, width, indent);
            let room = width.max(indent + 4);
            let pad = " ".repeat(indent);
            for (i, line) in lines.iter().enumerate() {
                // Cells, not characters: 日 takes two columns of the pane.
                let cells = unicode_width::UnicodeWidthStr::width(line.as_str());
                prop_assert!(cells <= room, "{line:?} is {cells} cells, wider than {room}");
                prop_assert!(i == 0 || line.starts_with(&pad), "{line:?} not indented");
            }
            let kept: String = lines.concat().chars().filter(|c| *c != ' ').collect();
            let all: String = crate::text::escaped(&text).chars().filter(|c| *c != ' ').collect();
            prop_assert_eq!(kept, all);
        }
    }
}
