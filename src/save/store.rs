//! Where saves live: `DATA/saves/NAME.ron`, DATA from `--data-dir`, `SRTRACK_DATA_DIR` or the
//! platform's data directory. Also the list of saves and the most recently used one.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use crate::catalogue::Catalogue;

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
    pub modified: SystemTime,
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

    /// A save name must be a plain file name.
    pub fn check_name(name: &str) -> Result<(), String> {
        let bad = name.is_empty()
            || name.starts_with('.')
            || name.contains(['/', '\\', '\0'])
            || name.chars().any(char::is_control);
        if bad {
            Err(format!(
                "\"{name}\" is not a save name: use letters, digits, spaces, - or _ (or give a path)"
            ))
        } else {
            Ok(())
        }
    }

    /// The path of save NAME in the data directory.
    pub fn path_of(&self, name: &str) -> PathBuf {
        self.saves_dir().join(format!("{name}.ron"))
    }

    /// NAME (in the data directory) or PATH (anything with a slash or ending in `.ron`).
    pub fn resolve(&self, name_or_path: &str) -> PathBuf {
        let p = Path::new(name_or_path);
        if name_or_path.contains(std::path::MAIN_SEPARATOR)
            || name_or_path.contains('/')
            || p.extension().is_some_and(|e| e == "ron")
        {
            p.to_path_buf()
        } else {
            self.path_of(name_or_path)
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
        if let Ok(text) = std::fs::read_to_string(self.last_used_file()) {
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
                let modified = std::fs::metadata(&path)
                    .and_then(|m| m.modified())
                    .unwrap_or(SystemTime::UNIX_EPOCH);
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
