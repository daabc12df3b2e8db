//! Where saves live: `DATA/saves/NAME.ron`, DATA from `--data-dir`, `SRTRACK_DATA_DIR` or the
//! platform's data directory. Also the list of saves and the most recently used one.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use crate::catalogue::Catalogue;

/// The longest save name: its files' names (`.NAME.ron.PID.tmp` the longest) stay within the
/// 255 bytes a file name may have.
pub const MAX_NAME_BYTES: usize = 200;

/// The demo fight a newcomer sees first, built into the binary.
pub const DEMO: &str = include_str!("../../saves/demo.ron");

/// The data directory and what is in it.
#[derive(Debug, Clone)]
pub struct Store {
    pub data_dir: PathBuf,
}

/// One line of `srtrack list`.
#[derive(Debug, Clone)]
pub struct Listed {
    pub name: String,
    pub path: PathBuf,
    /// When it last changed; `None` when that cannot be known (a link to nothing).
    pub modified: Option<SystemTime>,
    /// Rule system, round and pass, or why the file could not be read.
    pub at: Result<(crate::encounter::System, u32, u8), String>,
}

impl Store {
    /// `--data-dir`, else `SRTRACK_DATA_DIR`, else the platform's data directory.
    pub fn locate(flag: Option<PathBuf>) -> Result<Self, String> {
        if let Some(dir) = flag {
            return Ok(Self { data_dir: dir });
        }
        if let Some(dir) = std::env::var_os("SRTRACK_DATA_DIR").filter(|d| !d.is_empty()) {
            return Ok(Self {
                data_dir: PathBuf::from(dir),
            });
        }
        directories::ProjectDirs::from("", "", "srtrack")
            .map(|d| Self {
                data_dir: d.data_dir().to_path_buf(),
            })
            .ok_or_else(|| {
                "cannot find a home directory for saves: use --data-dir or SRTRACK_DATA_DIR".into()
            })
    }

    pub fn saves_dir(&self) -> PathBuf {
        self.data_dir.join("saves")
    }

    fn last_used_file(&self) -> PathBuf {
        self.data_dir.join("last-used")
    }

    /// A save name is a plain file name of the saves folder, and never one a path could be
    /// taken for: one rule for every command that takes one.
    pub fn check_name(name: &str) -> Result<(), String> {
        let why = if name.is_empty() {
            "it is empty"
        } else if name.starts_with('.') {
            "it starts with a dot (a hidden file, which `srtrack list` would not show)"
        } else if name.contains(['/', '\\']) {
            "it holds a / or \\"
        } else if name.chars().any(crate::text::is_control) {
            "it holds a control character (a line or direction mark among them)"
        } else if name.chars().any(crate::text::is_unseen) {
            "it holds a character that shows as nothing or joins the one before it, so it would look like another name"
        } else if crate::text::leading_mark(name).is_some() {
            "it starts with a combining mark, which joins what is drawn before it"
        } else if !unicode_normalization::is_nfc(name) {
            "it holds a letter and its accent apart (not in Unicode's composed form, NFC), so it would look like another name"
        } else if name.trim() != name {
            "it starts or ends with a space"
        } else if name.len() > MAX_NAME_BYTES {
            "it is too long"
        } else if std::path::Path::new(name)
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("ron"))
        {
            "it ends in .ron, which makes it a path"
        } else {
            return Ok(());
        };
        Err(format!(
            "\"{}\" is not a save name: {why}; a name is a plain file name of {MAX_NAME_BYTES} bytes at most, not hidden (a path has a / or ends in .ron)",
            crate::text::excerpt_to(name, 40)
        ))
    }

    /// Whether a command's save argument is a PATH (a `/`, or ending in `.ron` in any case, as
    /// [`Store::check_name`] refuses), not a NAME.
    fn is_path(name_or_path: &str) -> bool {
        name_or_path.contains(std::path::MAIN_SEPARATOR)
            || name_or_path.contains('/')
            || Path::new(name_or_path)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("ron"))
    }

    /// The path of save NAME in the data directory.
    pub fn path_of(&self, name: &str) -> PathBuf {
        self.saves_dir().join(format!("{name}.ron"))
    }

    /// NAME (in the data directory, checked by [`Store::check_name`]) or PATH (anything with a
    /// slash or ending in `.ron`).
    pub fn resolve(&self, name_or_path: &str) -> Result<PathBuf, String> {
        if Self::is_path(name_or_path) {
            // `x.ron/` would be taken for `x.ron` by the file name its lock and journal get,
            // and for a folder by the system: refused before either.
            let path = Path::new(name_or_path);
            if path
                .file_name()
                .is_some_and(|f| !name_or_path.ends_with(&*f.to_string_lossy()))
            {
                return Err(format!(
                    "{name_or_path}: a save path cannot end in / (nor /.): it names the save file itself, DIR/NAME.ron"
                ));
            }
            Ok(PathBuf::from(name_or_path))
        } else {
            Self::check_name(name_or_path)?;
            Ok(self.path_of(name_or_path))
        }
    }

    /// A path where a new save is to be made: its file name is NAME.ron, NAME a save name.
    pub fn check_new_path(path: &Path) -> Result<(), String> {
        let file = path.file_name().map(|f| f.to_string_lossy());
        match file.as_deref().and_then(|f| f.strip_suffix(".ron")) {
            Some(name) => Self::check_name(name)
                .map_err(|e| format!("{}: a new save's file is NAME.ron, and {e}", path.display())),
            None => Err(format!(
                "{}: a new save's file name ends in .ron (NAME.ron), so that `srtrack list` and `open NAME` find it",
                path.display()
            )),
        }
    }

    /// The save's display name: its file name without `.ron`.
    pub fn name_of(path: &Path) -> String {
        path.file_stem()
            .map_or_else(|| "encounter".into(), |s| s.to_string_lossy().into_owned())
    }

    /// Remembers the save opened last, for `srtrack` with no arguments.
    pub fn touch_last_used(&self, path: &Path) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        // Best effort: failing to remember only changes what a bare `srtrack` opens next time.
        let _ = std::fs::create_dir_all(&self.data_dir);
        let _ = super::atomic::replace(
            &self.last_used_file(),
            path.to_string_lossy().as_bytes(),
            false,
        );
    }

    /// The save used last if it still exists, else the newest save in the data directory.
    pub fn most_recent(&self) -> Option<PathBuf> {
        // A path: a file that is not a regular one, or longer than a path may be, is passed over.
        if let Ok(bytes) = super::read::read(&self.last_used_file(), 64 * 1024)
            && let Ok(text) = String::from_utf8(bytes)
        {
            let p = PathBuf::from(text.trim());
            if p.is_file() {
                return Some(p);
            }
        }
        self.list(&Arc::new(Catalogue::default()))
            .into_iter()
            .next()
            .map(|l| l.path)
    }

    /// Every save in the data directory, newest first.
    pub fn list(&self, catalogue: &Arc<Catalogue>) -> Vec<Listed> {
        let Ok(dir) = std::fs::read_dir(self.saves_dir()) else {
            return Vec::new();
        };
        let mut out: Vec<Listed> = dir
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .map(|path| {
                let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
                let at = super::file::load(&path, Arc::clone(catalogue))
                    .map(|(_, enc)| {
                        let (round, pass) = match &enc.state().phase {
                            crate::encounter::Phase::Setup => (0, 0),
                            crate::encounter::Phase::Fight(f) => (f.round, f.pass),
                            // An Anarchy table counts turns, which have no passes.
                            crate::encounter::Phase::Narration(n) => (n.turn, 0),
                            crate::encounter::Phase::Ended { round } => (*round, 0),
                        };
                        (enc.system(), round, pass)
                    })
                    .map_err(|e| e.message);
                Listed {
                    name: Self::name_of(&path),
                    path,
                    modified,
                    at,
                }
            })
            .collect();
        out.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Given arguments ending in `.ron` in any case, when each is resolved, then it is a path
    /// exactly when the name rule refuses it for making one.
    #[test]
    fn what_the_name_rule_calls_a_path_is_taken_as_one() {
        let store = Store {
            data_dir: PathBuf::from("data"),
        };
        for arg in ["ok.ron", "ok.RON", "ok.Ron", "ok", "ok.rons"] {
            let says_path = Store::check_name(arg).is_err_and(|e| e.contains("makes it a path"));
            assert_eq!(Store::is_path(arg), says_path, "{arg}");
            let resolved = store.resolve(arg).unwrap();
            assert_eq!(resolved == Path::new(arg), says_path, "{arg}: {resolved:?}");
        }
    }
}
