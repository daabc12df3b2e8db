//! The rule set srtrack runs with: the built-in house rules and catalogue, or the GM's copies from
//! the config directory. A broken GM file is reported and the built-in one used: srtrack always
//! starts.

use std::path::{Path, PathBuf};

use directories::ProjectDirs;

use super::{Catalogue, Problem};
use crate::rules::HouseRules;

/// A GM's rules.ron or actions.ron bigger than this is not read (the built-in ones are ~25 KB).
const MAX_BYTES: u64 = 4 * 1024 * 1024;

/// What srtrack runs with, and what went wrong loading the GM's files.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub rules: HouseRules,
    pub catalogue: Catalogue,
    /// One line per problem (file, line, what is wrong) and per file given up, as printed.
    pub warnings: Vec<String>,
    /// The problems alone, each once, without what was used instead: for the screen.
    pub problems: Vec<String>,
    /// The GM's files that gave way to the built-in ones, each once.
    pub gave_way: Vec<GmFile>,
}

/// One of the GM's files in the config directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GmFile {
    Rules,
    Actions,
}

impl GmFile {
    pub fn file_name(self) -> &'static str {
        match self {
            GmFile::Rules => "rules.ron",
            GmFile::Actions => "actions.ron",
        }
    }

    /// What stands in for it: "house rules", "actions catalogue".
    pub fn built_in(self) -> &'static str {
        match self {
            GmFile::Rules => "house rules",
            GmFile::Actions => "actions catalogue",
        }
    }
}

/// What the load found, as it goes.
#[derive(Default)]
struct Report {
    warnings: Vec<String>,
    problems: Vec<String>,
    gave_way: Vec<GmFile>,
}

impl Report {
    fn problems(&mut self, problems: &[Problem]) {
        for p in problems {
            self.warnings.push(p.to_string());
            self.problems.push(p.to_string());
        }
    }

    /// `file` gave way to the built-in one: `why` (if it is not among the problems already),
    /// and `said`, the line printed.
    fn gave_way(&mut self, file: GmFile, why: Option<String>, said: String) {
        self.problems.extend(why);
        self.warnings.push(said);
        if !self.gave_way.contains(&file) {
            self.gave_way.push(file);
        }
    }

    fn loaded(self, rules: HouseRules, catalogue: Catalogue) -> Loaded {
        Loaded {
            rules,
            catalogue,
            warnings: self.warnings,
            problems: self.problems,
            gave_way: self.gave_way,
        }
    }
}

/// srtrack's config directory (where a GM puts `rules.ron` and `actions.ron`), if the OS has one.
pub fn default_config_dir() -> Option<PathBuf> {
    ProjectDirs::from("", "", "srtrack").map(|p| p.config_dir().to_path_buf())
}

/// Loads the rule set: `rules.ron` and `actions.ron` in `config_dir` (srtrack's config directory
/// when None) replace the built-in ones. Never fails; problems end up in `warnings`.
pub fn load_ruleset(config_dir: Option<&Path>) -> Loaded {
    let dir = config_dir
        .map(Path::to_path_buf)
        .or_else(default_config_dir);
    let mut report = Report::default();

    let gm_rules = dir
        .as_deref()
        .and_then(|d| read_override(&d.join("rules.ron"), GmFile::Rules, &mut report))
        .and_then(|(path, text)| match HouseRules::parse(&text, &path) {
            Ok(rules) => Some(rules),
            Err(e) => {
                let said = format!("{e}; using the built-in house rules");
                report.gave_way(GmFile::Rules, Some(e.to_string()), said);
                None
            }
        });
    let gm_actions = dir
        .as_deref()
        .and_then(|d| read_override(&d.join("actions.ron"), GmFile::Actions, &mut report));

    let rules = gm_rules.unwrap_or_else(HouseRules::embedded);
    if let Some((path, text)) = gm_actions {
        match Catalogue::parse(&text, &path, &rules) {
            Ok(catalogue) => return report.loaded(rules, catalogue),
            Err(problems) => {
                report.problems(&problems);
                let said = format!("{path}: using the built-in actions catalogue");
                report.gave_way(GmFile::Actions, None, said);
            }
        }
    }
    match Catalogue::embedded(&rules) {
        Ok(catalogue) => report.loaded(rules, catalogue),
        Err(problems) => {
            // Only a GM rules.ron can get here (it dropped a status or interrupt cost the built-in
            // actions use): fall back to the built-in rules, which the built-in actions fit.
            report.problems(&problems);
            let why = "the house rules do not fit the built-in actions catalogue";
            let said = format!("{why}; using the built-in house rules");
            report.gave_way(GmFile::Rules, Some(why.into()), said);
            let rules = HouseRules::embedded();
            let catalogue = Catalogue::embedded(&rules).unwrap_or_else(|problems| {
                // A build defect (a test checks the pair); still start, with an empty catalogue.
                report.problems(&problems);
                Catalogue::default()
            });
            report.loaded(rules, catalogue)
        }
    }
}

/// The text of a GM file and its path for messages; None if it is absent or unreadable (warned).
fn read_override(path: &Path, file: GmFile, report: &mut Report) -> Option<(String, String)> {
    let label = path.display().to_string();
    let mut given_up = |why: String| {
        let said = format!("{why}; using the built-in one");
        report.gave_way(file, Some(why), said);
    };
    let bytes = match crate::save::read::read(path, MAX_BYTES) {
        Ok(bytes) => bytes,
        // A link whose target is gone is a file the GM meant to use: said, not passed over.
        Err(crate::save::read::Unread::Io(e))
            if e.kind() == std::io::ErrorKind::NotFound && path.symlink_metadata().is_ok() =>
        {
            let target = std::fs::read_link(path).map_or_else(
                |_| "a file".to_string(),
                |t| crate::text::escaped(&t.display().to_string()).into_owned(),
            );
            given_up(format!(
                "{label}: it is a link to {target}, which does not exist"
            ));
            return None;
        }
        Err(crate::save::read::Unread::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return None;
        }
        Err(crate::save::read::Unread::Io(e)) => {
            given_up(format!("{label}: cannot read it ({e})"));
            return None;
        }
        Err(e) => {
            let why = e.message("a config file", |size| {
                format!(
                    "the file is {size}, more than the {} MiB a config file may have",
                    MAX_BYTES / (1024 * 1024)
                )
            });
            given_up(format!("{label}: {why}"));
            return None;
        }
    };
    match String::from_utf8(bytes) {
        // An editor's byte-order mark (Notepad writes one) is no part of the text, as in a save.
        Ok(text) => Some((label, crate::text::without_bom(&text).to_owned())),
        Err(e) => {
            let before = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = before.iter().filter(|b| **b == b'\n').count() + 1;
            given_up(format!(
                "{label}:{line}: the file is not UTF-8 text (save it as UTF-8 in the editor)"
            ));
            None
        }
    }
}
