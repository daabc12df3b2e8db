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
    /// One line per problem (file, line, what is wrong), for the GM to see at start.
    pub warnings: Vec<String>,
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
    let mut warnings = Vec::new();

    let gm_rules = dir
        .as_deref()
        .and_then(|d| read_override(&d.join("rules.ron"), &mut warnings))
        .and_then(|(path, text)| match HouseRules::parse(&text, &path) {
            Ok(rules) => Some(rules),
            Err(e) => {
                warnings.push(format!("{e}; using the built-in house rules"));
                None
            }
        });
    let gm_actions = dir
        .as_deref()
        .and_then(|d| read_override(&d.join("actions.ron"), &mut warnings));

    let rules = gm_rules.unwrap_or_else(HouseRules::embedded);
    if let Some((path, text)) = gm_actions {
        match Catalogue::parse(&text, &path, &rules) {
            Ok(catalogue) => {
                return Loaded {
                    rules,
                    catalogue,
                    warnings,
                };
            }
            Err(problems) => {
                push_problems(&mut warnings, &problems);
                warnings.push(format!("{path}: using the built-in actions catalogue"));
            }
        }
    }
    match Catalogue::embedded(&rules) {
        Ok(catalogue) => Loaded {
            rules,
            catalogue,
            warnings,
        },
        Err(problems) => {
            // Only a GM rules.ron can get here (it dropped a status or interrupt cost the built-in
            // actions use): fall back to the built-in rules, which the built-in actions fit.
            push_problems(&mut warnings, &problems);
            warnings.push(
                "the house rules do not fit the built-in actions catalogue; \
                 using the built-in house rules"
                    .into(),
            );
            let rules = HouseRules::embedded();
            let catalogue = Catalogue::embedded(&rules).unwrap_or_else(|problems| {
                // A build defect (a test checks the pair); still start, with an empty catalogue.
                push_problems(&mut warnings, &problems);
                Catalogue::default()
            });
            Loaded {
                rules,
                catalogue,
                warnings,
            }
        }
    }
}

/// The text of a GM file and its path for messages; None if it is absent or unreadable (warned).
fn read_override(path: &Path, warnings: &mut Vec<String>) -> Option<(String, String)> {
    let label = path.display().to_string();
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
            warnings.push(format!(
                "{label}: it is a link to {target}, which does not exist; using the built-in one"
            ));
            return None;
        }
        Err(crate::save::read::Unread::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return None;
        }
        Err(crate::save::read::Unread::Io(e)) => {
            warnings.push(format!(
                "{label}: cannot read it ({e}); using the built-in one"
            ));
            return None;
        }
        Err(e) => {
            let why = e.message("a config file", |size| {
                format!(
                    "the file is {size}, more than the {} MiB a config file may have",
                    MAX_BYTES / (1024 * 1024)
                )
            });
            warnings.push(format!("{label}: {why}; using the built-in one"));
            return None;
        }
    };
    match String::from_utf8(bytes) {
        // An editor's byte-order mark (Notepad writes one) is no part of the text, as in a save.
        Ok(text) => Some((label, crate::text::without_bom(&text).to_owned())),
        Err(e) => {
            let before = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = before.iter().filter(|b| **b == b'\n').count() + 1;
            warnings.push(format!(
                "{label}:{line}: the file is not UTF-8 text (save it as UTF-8 in the editor); using the built-in one"
            ));
            None
        }
    }
}

fn push_problems(warnings: &mut Vec<String>, problems: &[Problem]) {
    warnings.extend(problems.iter().map(ToString::to_string));
}
