//! Semantic styles. The monochrome variant shows state by reverse, bold and symbols only.

use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Theme {
    pub mono: bool,
}

impl Theme {
    fn pick(self, color: Style, mono: Style) -> Style {
        if self.mono { mono } else { color }
    }

    pub fn base(self) -> Style {
        Style::default()
    }

    pub fn title(self) -> Style {
        self.pick(
            Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::BOLD),
        )
    }

    /// The character whose turn it is, and the current pass and cell.
    pub fn current(self) -> Style {
        self.pick(
            Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
        )
    }

    /// The selected row: white on blue in colour, underlined and bold without (with the `›`
    /// gutter mark in both, so it never rests on colour alone).
    pub fn selected(self) -> Style {
        self.pick(
            Style::new().fg(Color::White).bg(Color::Blue),
            Style::new().add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
        )
    }

    /// The `●` of a marked character.
    pub fn marked(self) -> Style {
        self.pick(
            Style::new()
                .fg(Color::LightMagenta)
                .add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::BOLD),
        )
    }

    /// The column of the pass under way in the IP grid.
    pub fn current_pass(self) -> Style {
        self.pick(
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::BOLD),
        )
    }

    pub fn acted(self) -> Style {
        self.pick(Style::new().fg(Color::Gray), Style::new())
    }

    pub fn downed(self) -> Style {
        self.pick(
            Style::new()
                .fg(Color::DarkGray)
                .add_modifier(Modifier::CROSSED_OUT),
            Style::new().add_modifier(Modifier::CROSSED_OUT | Modifier::DIM),
        )
    }

    pub fn dim(self) -> Style {
        self.pick(
            Style::new().fg(Color::DarkGray),
            Style::new().add_modifier(Modifier::DIM),
        )
    }

    pub fn reserve(self) -> Style {
        self.pick(
            Style::new().fg(Color::Magenta),
            Style::new().add_modifier(Modifier::ITALIC),
        )
    }

    pub fn error(self) -> Style {
        self.pick(
            Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::BOLD),
        )
    }

    pub fn ok(self) -> Style {
        self.pick(Style::new().fg(Color::Green), Style::new())
    }

    pub fn key(self) -> Style {
        self.pick(
            Style::new().fg(Color::Black).bg(Color::Cyan),
            Style::new().add_modifier(Modifier::REVERSED),
        )
    }

    pub fn border(self, focused: bool) -> Style {
        match (focused, self.mono) {
            (true, false) => Style::new().fg(Color::Cyan),
            (true, true) => Style::new().add_modifier(Modifier::BOLD),
            (false, _) => Style::new(),
        }
    }
}
