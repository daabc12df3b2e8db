//! The command line: `srtrack [open|new|list|check|exec|watch|show|export|roster|defaults|completions]`.

mod export;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

use crate::catalogue::Catalogue;
use crate::encounter::{Encounter, Phase, System};
use crate::lang::{self, Line};
use crate::report;
use crate::roster::Roster;
use crate::rules::{Dice, HouseRules, RandomDice};
use crate::save::audit::Audit;
use crate::save::follow::{Stamps, stamps_of};
use crate::save::store::{DEMO, Store};
use crate::save::{self, Autosave, FileSave, Lock, LockError, NoSave, file};
use crate::text;
use crate::ui::held::Held;

/// A failure the user can act on: printed as one or two sentences, exit code 1.
#[derive(Debug)]
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

type Result<T> = std::result::Result<T, Failure>;

/// Writes to standard output. A reader that went away (`srtrack show | head`) is not a
/// failure: nobody wants the rest, and the command ends as it would have. Any other error (a
/// full disk under `> file`) is one.
fn out(bytes: &[u8]) -> Result<()> {
    match std::io::stdout().lock().write_all(bytes) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure(format!(
            "cannot write to standard output: {}",
            save::io_message(&e)
        ))),
        _ => Ok(()),
    }
}

/// `print!` through [`out`].
macro_rules! out {
    ($($arg:tt)*) => {
        out(format!($($arg)*).as_bytes())
    };
}

/// `println!` through [`out`].
macro_rules! outln {
    ($($arg:tt)*) => {
        out(format!("{}\n", format_args!($($arg)*)).as_bytes())
    };
}

#[derive(Debug, Parser)]
#[command(
    name = "srtrack",
    version,
    about = "A terminal initiative tracker for Shadowrun game masters",
    after_help = "Examples:
  srtrack                      resume the last save (or start with the demo fight)
  srtrack new warehouse        start a new encounter called warehouse
  srtrack open ./saves/demo.ron
  srtrack list
  echo 'next' | srtrack exec warehouse

Exit codes: 0 ok, 1 failure, 2 usage error."
)]
pub struct Cli {
    /// Where saves live (default: the platform's data directory; also `SRTRACK_DATA_DIR`).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Seed the dice, for reproducible rolls (here for the screen of a bare `srtrack`; also
    /// taken by `open`, `new` and `exec`, the commands that roll).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = seed_value)]
    pub seed: Option<u64>,
    /// No colours: state shown by reverse video, bold and symbols (also when `NO_COLOR` is set).
    #[arg(long, global = true)]
    pub no_color: bool,
    #[command(subcommand)]
    pub command: Option<Cmd>,
}

#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// Open a save by name (in the data directory) or by path.
    #[command(after_help = "Examples:
  srtrack open warehouse
  srtrack open saves/demo.ron")]
    Open {
        /// A save name, or a path to a .ron file.
        save: String,
        /// Seed the dice, for reproducible rolls.
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = seed_value)]
        seed: Option<u64>,
    },
    /// Start a new encounter and open it (without a terminal, as in a script: only make it).
    #[command(after_help = "Examples:
  srtrack new \"docks ambush\"
  srtrack new seattle-2097 --system sr2097")]
    New {
        /// The new save's name.
        name: String,
        /// The rule system it runs under: sr5, sr2097 or anarchy (kept in the save).
        #[arg(long, value_name = "SYSTEM", default_value = "sr5", value_parser = Words::<System>::new())]
        system: System,
        /// Seed the dice, for reproducible rolls.
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = seed_value)]
        seed: Option<u64>,
    },
    /// List the saves in the data directory, newest first.
    #[command(after_help = "Example:
  srtrack list --data-dir ~/campaign")]
    List,
    /// Validate a save file: exit 0 if it loads, 1 with the reasons if not.
    #[command(after_help = "Example:
  srtrack check saves/demo.ron")]
    Check {
        /// A save name or path.
        file: String,
    },
    /// Apply commands (one a line, `#` comments) to a save, creating it if missing.
    #[command(
        after_help = "Stops at the first refused command with its line number (exit 1); the save keeps
every line before it. `why A B` prints to stdout.

Examples:
  srtrack exec fight.ron setup.script
  echo 'next' | srtrack exec --seed 7 warehouse
  srtrack exec --system anarchy heist.ron setup.script"
    )]
    Exec {
        /// A save name or path.
        file: String,
        /// The script; standard input if omitted or `-`.
        script: Option<PathBuf>,
        /// Seed the dice, for reproducible rolls.
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = seed_value)]
        seed: Option<u64>,
        /// The rule system of a save exec creates: sr5 (the default), sr2097 or anarchy. For a
        /// save that exists it must be the one the save runs.
        #[arg(long, value_name = "SYSTEM", value_parser = Words::<System>::new())]
        system: Option<System>,
    },
    /// The players' view: read-only, full screen, following the GM's save as it changes.
    #[command(
        after_help = "What the GM keeps secret stays so: characters hidden with `hide`, and an NPC's IP,
condition monitors, wounds and Edge. It never writes or locks anything; any number may run.

Examples:
  srtrack watch rooftop
  ssh -t gm@laptop srtrack watch rooftop"
    )]
    Watch {
        /// A save name or path.
        save: String,
    },
    /// Print the state of a fight as plain text.
    #[command(after_help = "Example:
  srtrack show saves/demo.ron")]
    Show {
        /// A save name or path.
        file: String,
    },
    /// Print a Markdown recap of the fight for the group chat (or its whole command log).
    #[command(
        after_help = "The recap tells, round by round and pass by pass, who did what, who went
down, the Edge spent, delays and readies, and every test's result.

Examples:
  srtrack export warehouse > recap.md
  srtrack export --log warehouse > log.md"
    )]
    Export {
        /// A save name or path.
        file: String,
        /// Every command of the fight with its log lines, instead of the recap.
        #[arg(long)]
        log: bool,
    },
    /// Keep named sheets between fights: the party's PCs and NPC templates such as "Ganger".
    #[command(
        after_help = "Sheets live in DATA/roster/NAME.ron. In a fight, `add Ganger x4 from template`
brings in four gangers and `add party` every PC sheet; the history keeps the plain `add`
commands, so the save never needs the roster.

Examples:
  srtrack roster save rooftop \"Ganger 1\" --as Ganger
  srtrack roster save rooftop Jinx
  srtrack roster list
  srtrack roster show Ganger
  srtrack roster remove Ganger"
    )]
    Roster {
        #[command(subcommand)]
        what: RosterCmd,
    },
    /// Print a built-in file, to start a house rules or actions file of your own from.
    #[command(
        after_help = "The copy loads as the built-in file does; edit it, and srtrack uses it from the
next start (a broken file is reported and the built-in one used).

Examples:
  mkdir -p ~/.config/srtrack
  srtrack defaults rules > ~/.config/srtrack/rules.ron
  srtrack defaults actions > ~/.config/srtrack/actions.ron"
    )]
    Defaults {
        /// rules (the house rules, `rules.ron`) or actions (the catalogue, `actions.ron`).
        #[arg(value_name = "FILE", value_parser = Words::<Builtin>::new())]
        what: Builtin,
    },
    /// Print a shell completion script.
    #[command(after_help = "Example:
  srtrack completions bash > ~/.local/share/bash-completion/completions/srtrack")]
    Completions { shell: clap_complete::Shell },
}

#[derive(Debug, Subcommand)]
pub enum RosterCmd {
    /// List the sheets: name, side, system, stats (unreadable files with the reason).
    List,
    /// Print one sheet as its file holds it.
    Show {
        /// The sheet's name.
        name: String,
    },
    /// Keep a combatant of a save as a sheet (a PC for the party, an NPC as a template).
    Save {
        /// A save name or path.
        file: String,
        /// The combatant's name in that save.
        combatant: String,
        /// The sheet's name (default: the combatant's), e.g. `--as Ganger` for "Ganger 1".
        #[arg(long = "as", value_name = "NAME")]
        name: Option<String>,
        /// Write over a sheet of that name.
        #[arg(long)]
        replace: bool,
    },
    /// Remove a sheet (an unreadable file too, by its file name).
    Remove {
        /// The sheet's name.
        name: String,
    },
}

/// A file built into the binary that `srtrack defaults` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    Rules,
    Actions,
}

impl Builtin {
    const ALL: [Builtin; 2] = [Builtin::Rules, Builtin::Actions];

    fn word(self) -> &'static str {
        match self {
            Builtin::Rules => "rules",
            Builtin::Actions => "actions",
        }
    }

    /// The file as the binary holds it.
    fn text(self) -> &'static str {
        match self {
            Builtin::Rules => crate::rules::house::EMBEDDED_RULES,
            Builtin::Actions => crate::catalogue::EMBEDDED_ACTIONS,
        }
    }
}

fn parse_builtin(word: &str) -> std::result::Result<Builtin, String> {
    Builtin::ALL
        .into_iter()
        .find(|b| b.word() == word)
        .ok_or_else(|| format!("\"{word}\" is not a built-in file: use rules or actions"))
}

/// A closed set of words the command line takes (`srtrack defaults rules`, `--system sr5`).
trait Worded: Sized + Clone + Send + Sync + 'static {
    fn words() -> Vec<&'static str>;
    fn parse_word(word: &str) -> std::result::Result<Self, String>;
}

impl Worded for Builtin {
    fn words() -> Vec<&'static str> {
        Builtin::ALL.into_iter().map(Builtin::word).collect()
    }
    fn parse_word(word: &str) -> std::result::Result<Self, String> {
        parse_builtin(word)
    }
}

impl Worded for System {
    fn words() -> Vec<&'static str> {
        System::ALL.into_iter().map(System::word).collect()
    }
    fn parse_word(word: &str) -> std::result::Result<Self, String> {
        parse_system(word)
    }
}

/// Reads one of a [`Worded`] set (one sentence for another word) and tells the shell
/// completions the words.
#[derive(Debug, Clone, Copy)]
struct Words<T>(std::marker::PhantomData<T>);

impl<T: Worded> Words<T> {
    const fn new() -> Self {
        Words(std::marker::PhantomData)
    }
}

impl<T: Worded> clap::builder::TypedValueParser for Words<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<T, clap::Error> {
        let parse: fn(&str) -> std::result::Result<T, String> = T::parse_word;
        parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            T::words()
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

fn parse_system(word: &str) -> std::result::Result<System, String> {
    word.parse()
        .map_err(|e: crate::encounter::system::UnknownSystem| e.to_string())
}

/// Parses the command line, runs it, and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    // The house rules and the catalogue (~35 KB of RON) are parsed while the command line is
    // and the save is found: a millisecond off the first frame on two cores. Whoever needs
    // them first waits for this parse (its warnings are printed before anyone gets them).
    std::thread::spawn(|| {
        ruleset();
    });
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match Cli::parse_args(&args) {
        Ok(cli) => cli,
        Err(e) => return command_line_refused(&told_escaped(&args, e)),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg)) => {
            // Paths, names and file contents may hold anything: escaped, never raw.
            eprintln!("srtrack: {}", text::escaped(&msg));
            ExitCode::FAILURE
        }
    }
}

impl Cli {
    /// The command line, with a seed only where dice roll, and given once.
    fn parse_args(args: &[std::ffi::OsString]) -> std::result::Result<Self, clap::Error> {
        match Cli::try_parse_from(args) {
            Ok(cli) => cli.seed_only_where_rolled(),
            // `srtrack show x --seed 3`: clap knows no --seed there and says only that; the
            // command without it says why, as `srtrack --seed 3 show x` does.
            Err(e) if e.kind() == ErrorKind::UnknownArgument && names_seed(&e) => {
                match Cli::try_parse_from(without_seed(args)) {
                    Ok(Cli {
                        command: Some(cmd), ..
                    }) if !cmd.rolls() => Err(cmd.takes_no_seed()),
                    _ => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// `srtrack --seed N show x`: clap takes an option of `srtrack` before any subcommand, but
    /// only the screen and `exec` roll dice. Refused as a usage error for the others; and a
    /// seed before a subcommand that takes its own as well would leave one of the two unused.
    fn seed_only_where_rolled(self) -> std::result::Result<Self, clap::Error> {
        let Some(cmd) = &self.command else {
            return Ok(self);
        };
        match (self.seed, cmd.rolls(), cmd.own_seed()) {
            (Some(_), false, _) => Err(cmd.takes_no_seed()),
            (Some(_), true, Some(_)) => Err(Cli::command().error(
                ErrorKind::ArgumentConflict,
                format!(
                    "--seed given twice (before and after `{}`): give it once",
                    cmd.word()
                ),
            )),
            _ => Ok(self),
        }
    }
}

/// A seed as typed: a whole number clap takes (a negative one too, so that it is told what a
/// seed is rather than to pass it after `--`).
fn seed_value(text: &str) -> std::result::Result<u64, String> {
    text.parse()
        .map_err(|_| format!("a seed is a whole number from 0 to {}", u64::MAX))
}

/// Whether clap's refusal is of a `--seed` it did not expect.
fn names_seed(e: &clap::Error) -> bool {
    matches!(
        e.get(clap::error::ContextKind::InvalidArg),
        Some(clap::error::ContextValue::String(arg)) if arg == "--seed" || arg.starts_with("--seed=")
    )
}

/// The arguments with every `--seed N` and `--seed=N` left out.
fn without_seed(args: &[std::ffi::OsString]) -> Vec<std::ffi::OsString> {
    let mut kept = Vec::with_capacity(args.len());
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            kept.push(arg.clone());
            kept.extend(rest.cloned());
            break;
        }
        match arg.to_str() {
            Some("--seed") => {
                rest.next();
            }
            Some(a) if a.starts_with("--seed=") => {}
            _ => kept.push(arg.clone()),
        }
    }
    kept
}

impl Cmd {
    /// Whether the command rolls dice, so takes a seed.
    fn rolls(&self) -> bool {
        matches!(self, Cmd::Open { .. } | Cmd::New { .. } | Cmd::Exec { .. })
    }

    /// The seed given after the subcommand's name.
    fn own_seed(&self) -> Option<u64> {
        match self {
            Cmd::Open { seed, .. } | Cmd::New { seed, .. } | Cmd::Exec { seed, .. } => *seed,
            _ => None,
        }
    }

    /// The refusal of a seed given to a command that rolls no dice.
    fn takes_no_seed(&self) -> clap::Error {
        Cli::command().error(
            ErrorKind::ArgumentConflict,
            format!(
                "`{}` rolls no dice, so it takes no --seed (only `open`, `new`, `exec` and a bare `srtrack` do)",
                self.word()
            ),
        )
    }

    /// The subcommand's name, as typed.
    fn word(&self) -> &'static str {
        match self {
            Cmd::Open { .. } => "open",
            Cmd::New { .. } => "new",
            Cmd::List => "list",
            Cmd::Check { .. } => "check",
            Cmd::Exec { .. } => "exec",
            Cmd::Watch { .. } => "watch",
            Cmd::Show { .. } => "show",
            Cmd::Export { .. } => "export",
            Cmd::Roster { .. } => "roster",
            Cmd::Defaults { .. } => "defaults",
            Cmd::Completions { .. } => "completions",
        }
    }
}

/// clap's refusal of `args` as told of them escaped: clap drops an escape sequence from the
/// value it quotes when it writes in plain text, so `sr5\e[0m` would be told as `sr5`. The
/// same arguments with their control characters written out are refused alike, and quoted
/// whole; if they are not refused alike (a text that was not UTF-8), clap's own words stay.
fn told_escaped(args: &[std::ffi::OsString], e: clap::Error) -> clap::Error {
    let holds = |a: &std::ffi::OsString| a.to_str().is_some_and(text::holds_control);
    if !args.iter().any(holds) {
        return e;
    }
    let written: Vec<std::ffi::OsString> = args
        .iter()
        .map(|a| match a.to_str() {
            Some(s) => text::escaped(s).into_owned().into(),
            None => a.clone(),
        })
        .collect();
    match Cli::parse_args(&written) {
        Err(again) if again.kind() == e.kind() => again,
        _ => e,
    }
}

/// What clap says of a command line it does not take. Its message quotes the arguments, which
/// may hold anything: written in plain text, each line escaped (clap's own colours would let an
/// escape sequence through raw). `--help` and `--version` are printed as clap prints them.
fn command_line_refused(e: &clap::Error) -> ExitCode {
    if !e.use_stderr() {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let plain = e.render().to_string();
    for line in plain.lines() {
        eprintln!("{}", text::escaped(line));
    }
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

/// The house rules and the catalogue in force: built in, or the GM's from the config directory,
/// and what the screen says at start of those that did not load. Loaded once; a broken GM file
/// is reported and the built-in one used.
fn ruleset() -> &'static (Arc<HouseRules>, Arc<Catalogue>, Option<String>) {
    static LOADED: std::sync::OnceLock<(Arc<HouseRules>, Arc<Catalogue>, Option<String>)> =
        std::sync::OnceLock::new();
    LOADED.get_or_init(|| {
        let loaded = crate::load_ruleset(None);
        for w in &loaded.warnings {
            eprintln!("srtrack: {}", text::escaped(w));
        }
        let warning = startup_warning(&loaded);
        (Arc::new(loaded.rules), Arc::new(loaded.catalogue), warning)
    })
}

/// What the screen says at start of the GM's files that did not load (standard error said it
/// before the screen covered it, and it is there again on quitting): first which file did not
/// load and what is used instead, then how many problems there are and the first of them.
fn startup_warning(loaded: &crate::catalogue::Loaded) -> Option<String> {
    let first = loaded.problems.first().or(loaded.warnings.first())?;
    let gave_way = &loaded.gave_way;
    if gave_way.is_empty() {
        // Nothing given up (a build defect of the built-in pair): the first, and how many more.
        let first = text::escaped(first).into_owned();
        return Some(match loaded.warnings.len() - 1 {
            0 => first,
            more => format!("{first} (and {more} more: on the terminal once srtrack quits)"),
        });
    }
    let files: Vec<&str> = gave_way.iter().map(|f| f.file_name()).collect();
    let used: Vec<&str> = gave_way.iter().map(|f| f.built_in()).collect();
    let head = |count: &str| {
        format!(
            "{} did not load ({count}printed on quit): using the built-in {}",
            files.join(" and "),
            used.join(" and ")
        )
    };
    let said = match loaded.problems.as_slice() {
        [] => head(""),
        [one] => format!("{}; {one}", head("")),
        [first, ..] => format!(
            "{}; first: {first}",
            head(&format!("{} problems, ", loaded.problems.len()))
        ),
    };
    Some(text::escaped(&said).into_owned())
}

/// The catalogue the engine spends actions from.
fn catalogue() -> Arc<Catalogue> {
    Arc::clone(&ruleset().1)
}

fn house_rules() -> Arc<HouseRules> {
    Arc::clone(&ruleset().0)
}

/// The roster of the data directory, checked under the house rules in force.
fn roster_of(store: &Store) -> Roster {
    Roster::in_data_dir(&store.data_dir, house_rules())
}

/// How the screen is opened.
struct TuiOptions {
    no_color: bool,
    seed: Option<u64>,
    /// Where the roster is: it is checked under the house rules, so it is made once the save
    /// is open (the rules are parsed on a thread meanwhile).
    data_dir: PathBuf,
}

pub fn run(cli: Cli) -> Result<()> {
    let store = Store::locate(cli.data_dir.clone()).map_err(Failure)?;
    let mut tui = TuiOptions {
        no_color: cli.no_color,
        seed: cli.seed,
        data_dir: store.data_dir.clone(),
    };
    match cli.command {
        None => resume(&store, &tui),
        Some(Cmd::Open { save, seed }) => {
            tui.seed = seed.or(tui.seed);
            let path = store.resolve(&save)?;
            // A link to nothing is told as every command tells it, not as no save at all.
            if let Err(e) = save::atomic::real_path(&path) {
                return Err(Failure(format!(
                    "{}: {}",
                    path.display(),
                    save::io_message(&e)
                )));
            }
            if !path.exists() {
                return Err(Failure(format!(
                    "{}: no such save (`srtrack list` shows them; `srtrack new NAME` starts one)",
                    path.display()
                )));
            }
            open(&store, &path, &tui)
        }
        Some(Cmd::New { name, system, seed }) => {
            tui.seed = seed.or(tui.seed);
            Store::check_name(&name).map_err(Failure)?;
            let path = store.path_of(&name);
            if path.exists() {
                return Err(Failure(format!(
                    "a save called \"{name}\" already exists ({}): open it with `srtrack open {name}`",
                    path.display()
                )));
            }
            create_empty(&path, &name, system)?;
            if !has_terminal() {
                // A GM's script: the save is made for later, and remembered as the one a bare
                // `srtrack` resumes.
                store.touch_last_used(&path);
                outln!(
                    "created \"{}\" ({system}) in {}: open it in a terminal with `srtrack open {}`",
                    text::escaped(&name),
                    text::escaped(&path.display().to_string()),
                    text::escaped(&name)
                )?;
                return Ok(());
            }
            open(&store, &path, &tui)
        }
        Some(Cmd::List) => list(&store),
        Some(Cmd::Check { file }) => {
            let path = store.resolve(&file)?;
            let (_, enc) = file::load_verified(&path, catalogue())?;
            outln!(
                "{}: ok ({} entries, {})",
                text::escaped(&path.display().to_string()),
                enc.history().len(),
                where_in_fight(&enc)
            )?;
            Ok(())
        }
        Some(Cmd::Exec {
            file,
            script,
            seed,
            system,
        }) => exec(
            &roster_of(&store),
            &store.resolve(&file)?,
            // `-` is standard input, as for most tools (a file so named is `./-`).
            script.as_deref().filter(|p| *p != Path::new("-")),
            seed.or(cli.seed),
            system,
        ),
        Some(Cmd::Watch { save }) => watch(&store.resolve(&save)?, tui.no_color),
        // A save that `check` refuses is refused here too, not printed as if sound.
        Some(Cmd::Show { file }) => {
            let (_, enc) = file::load_verified(&store.resolve(&file)?, catalogue())?;
            out!("{}", report::show(&report::as_kept_now(&enc), 10))?;
            Ok(())
        }
        Some(Cmd::Export { file, log }) => {
            let (header, enc) = file::load_verified(&store.resolve(&file)?, catalogue())?;
            let enc = report::as_kept_now(&enc);
            if log {
                out!("{}", export::markdown(&header, &enc))?;
            } else {
                out!(
                    "{}",
                    report::recap::markdown(&enc, &header.name, &header.created)
                )?;
            }
            Ok(())
        }
        Some(Cmd::Roster { what }) => roster_cmd(&store, what),
        Some(Cmd::Defaults { what }) => out(what.text().as_bytes()),
        Some(Cmd::Completions { shell }) => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "srtrack", &mut script);
            out(&script)
        }
    }
}

fn roster_cmd(store: &Store, what: RosterCmd) -> Result<()> {
    let roster = roster_of(store);
    let shown = |p: &Path| text::escaped(&p.display().to_string()).into_owned();
    match what {
        RosterCmd::List => {
            if let Some(why) = roster.unusable() {
                return Err(Failure(why));
            }
            let all = roster.list();
            if all.is_empty() {
                outln!(
                    "No sheets in {} (`srtrack roster save SAVE NAME` keeps one).",
                    shown(&roster.dir)
                )?;
            }
            for l in all {
                match l.sheet {
                    Ok(t) => outln!(
                        "{}  ({}; {})",
                        text::escaped(&t.name),
                        t.system.word(),
                        t.summary()
                    )?,
                    Err(e) => outln!(
                        "{}  (unreadable: {})",
                        text::escaped(&l.stem),
                        text::escaped(&e)
                    )?,
                }
            }
            Ok(())
        }
        RosterCmd::Show { name } => {
            let t = roster.find(&name).map_err(Failure)?;
            for line in t.to_ron().lines() {
                outln!("{}", text::escaped(line))?;
            }
            Ok(())
        }
        RosterCmd::Save {
            file,
            combatant,
            name,
            replace,
        } => {
            let (_, enc) = file::load(&store.resolve(&file)?, catalogue())?;
            let matching: Vec<_> = enc
                .state()
                .present()
                .filter(|c| crate::encounter::same_name(&c.name, combatant.trim()))
                .collect();
            if let [_, _, ..] = matching[..] {
                let names: Vec<&str> = matching.iter().map(|c| c.name.as_str()).collect();
                return Err(Failure(crate::lang::alike_names(&combatant, &names)));
            }
            let c = matching.first().copied().ok_or_else(|| {
                let names: Vec<&str> = enc.state().present().map(|c| c.name.as_str()).collect();
                Failure(format!(
                    "no combatant \"{}\" in {file}: it has {}",
                    text::excerpt(&combatant),
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ))
            })?;
            let t = crate::roster::Template::of(c, &enc, name.as_deref());
            let path = roster.put(&t, replace).map_err(Failure)?;
            outln!(
                "kept {} ({}) in {}",
                text::escaped(&t.name),
                t.summary(),
                shown(&path)
            )?;
            Ok(())
        }
        RosterCmd::Remove { name } => {
            let path = roster.remove(&name).map_err(Failure)?;
            outln!("removed {}", shown(&path))?;
            Ok(())
        }
    }
}

fn where_in_fight(enc: &Encounter) -> String {
    match &enc.state().phase {
        Phase::Setup => "in setup".into(),
        Phase::Fight(f) => format!("round {}, pass {}", f.round, f.pass),
        Phase::Narration(n) => format!("narration turn {}", n.turn),
        Phase::Ended { round } => format!("ended in {} {round}", enc.system().round_word()),
    }
}

/// `srtrack` alone: the last save, else a copy of the demo.
fn resume(store: &Store, tui: &TuiOptions) -> Result<()> {
    if let Some(path) = store.most_recent() {
        return open(store, &path, tui);
    }
    let mut name = "demo".to_string();
    let mut n = 1;
    while store.path_of(&name).exists() {
        n += 1;
        name = format!("demo-{n}");
    }
    let path = store.path_of(&name);
    std::fs::create_dir_all(store.saves_dir()).map_err(|e| {
        Failure(format!(
            "cannot create {}: {}",
            store.saves_dir().display(),
            e
        ))
    })?;
    // The copy is the newcomer's own encounter: its name and creation time are new.
    let mut demo = file::parse(DEMO.as_bytes(), "the built-in demo")?;
    demo.name = name;
    demo.created = file::now_rfc3339();
    save::write_atomic(&path, &demo.to_ron())
        .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
    open(store, &path, tui)
}

/// Makes the folders a new save's path lacks (`exec` and `new` alike); a failure in words.
fn make_folders(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        Failure(format!(
            "cannot create the folder {}: {}",
            dir.display(),
            save::io_message(&e)
        ))
    })
}

fn create_empty(path: &Path, name: &str, system: System) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        make_folders(dir)?;
    }
    // A journal left beside that it would not replace is said before the save is made.
    save::atomic::refuse_beside(path).map_err(|e| io_failure(path, &e))?;
    let enc = Encounter::for_system(system, house_rules(), catalogue());
    let snapshot = file::SaveFile::of(&enc, name, &file::now_rfc3339());
    save::write_atomic(path, &snapshot.to_ron())
        .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
    // A journal left beside by a removed save of this name continues no snapshot there is:
    // the new save's own replaces it (as a save `exec` creates does), else it would be refused.
    let journal = save::journal::path_of(path);
    if std::fs::symlink_metadata(&journal).is_err() {
        return Ok(());
    }
    save::journal::Writer::start(&journal, snapshot.generation, path)
        .map(drop)
        .map_err(|e| Failure(format!("cannot write {}: {e}", journal.display())))
}

/// Opens a save in the TUI; read-only when another srtrack holds it or its owner made it so.
fn open(store: &Store, path: &Path, tui: &TuiOptions) -> Result<()> {
    // Looked at before the read: a write landing before the lock is ours is read again then.
    let looked = stamps_of(path);
    // From the snapshot's end: the first frame does not wait for the whole history.
    let (header, enc) = file::open(path, catalogue)?;
    // Remembered beside the first frame rather than before it (a synced rename takes ~2 ms),
    // and waited for before the process ends.
    let remembered = {
        let (store, path) = (store.clone(), path.to_path_buf());
        std::thread::spawn(move || store.touch_last_used(&path))
    };
    let opened = open_screen(path, (header, enc), looked, tui);
    let _ = remembered.join();
    opened
}

/// The screen on a save read when it had the stamp `looked`.
fn open_screen(
    path: &Path,
    (header, enc): (file::SaveFile, Encounter),
    looked: Stamps,
    tui: &TuiOptions,
) -> Result<()> {
    let real = save::atomic::real_path(path).map_err(|e| io_failure(path, &e))?;
    let read_only = |enc: Encounter, name: String, why: String| {
        eprintln!("srtrack: {}; opening it read-only", text::escaped(&why));
        open_tui(path, enc, name, Box::new(NoSave), Some(why), None, tui)
    };
    if let Err(e) = save::atomic::refuse_to_write(&real) {
        let why = format!("{}: {}", path.display(), save::io_message(&e));
        return read_only(enc, header.name, why);
    }
    match Lock::acquire(&real) {
        Ok(lock) => {
            // Another writer may have changed it before the lock was ours: read it again.
            let (header, enc) = if stamps_of(&real) == looked {
                (header, enc)
            } else {
                file::open(path, catalogue)?
            };
            let saver = FileSave::new(real, header.name.clone(), header.created.clone(), lock)
                .on_disk(&enc, &header)
                .in_background();
            open_tui(path, enc, header.name, Box::new(saver), None, None, tui)
        }
        Err(LockError::InUse { pid }) => {
            // Followed as its holder writes it, and taken when it lets go (`ui::held`).
            let why = format!("{}; followed until it lets go", LockError::InUse { pid });
            eprintln!("srtrack: {}; opening it read-only", text::escaped(&why));
            let held = Held::of_save(path, catalogue());
            open_tui(
                path,
                enc,
                header.name,
                Box::new(NoSave),
                Some(why),
                Some(held),
                tui,
            )
        }
        // A lock file it may not make: a save it may read but not write.
        Err(LockError::Io(e))
            if matches!(
                e.kind(),
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
            ) =>
        {
            let why = format!("{}: {}", path.display(), LockError::Io(e));
            read_only(enc, header.name, why)
        }
        Err(e) => Err(Failure(format!("{}: {e}", path.display()))),
    }
}

/// The players' view of a save. It must load once, so that a mistyped name is said at once;
/// after that the view waits through whatever happens to the file.
fn watch(path: &Path, no_color: bool) -> Result<()> {
    file::load(path, catalogue())?;
    if !has_terminal() {
        return Err(Failure(format!(
            "the players' view needs a terminal (over ssh: `ssh -t`), or print the fight with `srtrack show {}`",
            path.display()
        )));
    }
    let stop = stop_flag();
    crate::ui::watch::run(
        path.to_path_buf(),
        Store::name_of(path),
        catalogue(),
        no_color,
        &stop,
    )
    .map_err(|e| Failure(e.to_string()))
}

/// Whether a screen can run: standard input and output are both a terminal.
fn has_terminal() -> bool {
    use std::io::IsTerminal as _;
    std::io::stdout().is_terminal() && std::io::stdin().is_terminal()
}

fn io_failure(path: &Path, e: &std::io::Error) -> Failure {
    Failure(format!("{}: {}", path.display(), save::io_message(e)))
}

/// Runs the screen on an encounter until the GM quits. The store autosaves after every command
/// and once more on the way out (quit, SIGTERM, SIGHUP, SIGINT, SIGQUIT).
fn open_tui(
    path: &Path,
    encounter: Encounter,
    title: String,
    store: Box<dyn Autosave>,
    read_only: Option<String>,
    held: Option<Held>,
    tui: &TuiOptions,
) -> Result<()> {
    if !has_terminal() {
        return Err(Failure(format!(
            "\"{title}\" is ready, but the tracker screen needs a terminal: run srtrack in one, or print the fight with `srtrack show`"
        )));
    }
    let mut app = crate::ui::App::new(encounter, title, store, read_only)
        .with_roster(Roster::in_data_dir(&tui.data_dir, house_rules()))
        .with_audit(Audit::of(path.to_path_buf(), catalogue()))
        .with_warning(ruleset().2.clone());
    if let Some(held) = held {
        app = app.with_held(held);
    }
    if let Some(seed) = tui.seed {
        app = app.with_dice(Box::new(crate::rules::RandomDice::seeded(seed)));
    }
    let stop = stop_flag();
    crate::ui::run(app, tui.no_color, &stop).map_err(|e| Failure(e.to_string()))
}

/// Set when SIGTERM, SIGHUP, SIGINT or SIGQUIT arrives: the current command finishes, the save
/// is written, the terminal is given back as it was. (On the screen Ctrl-C is a key, so these
/// come from outside: `kill`, a closed window, a shell's job control.)
pub fn stop_flag() -> Arc<AtomicBool> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
        // Without the handler the default action still ends the process; the save on disk is
        // always whole (atomic writes), so a failed registration loses at most the last command.
        let _ = signal_hook::flag::register(sig, Arc::clone(&flag));
    }
    flag
}

fn list(store: &Store) -> Result<()> {
    // A folder that is not there holds no saves yet; one that cannot be read (a data directory
    // that is a file) is no empty list: said in the words `exec` and `new` use.
    let dir = store.saves_dir();
    if let Err(e) = std::fs::read_dir(&dir)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        return Err(Failure(format!(
            "cannot read the folder {}: {}",
            dir.display(),
            save::io_message(&e)
        )));
    }
    let saves = store.list(&catalogue());
    if saves.is_empty() {
        outln!(
            "No saves in {} (`srtrack new NAME` starts one).",
            text::escaped(&store.saves_dir().display().to_string())
        )?;
        return Ok(());
    }
    // A file name in the data directory may hold anything: what does not show is written out,
    // so that two names are told apart.
    let names: Vec<String> = saves
        .iter()
        .map(|s| text::escaped_unseen(&s.name).into_owned())
        .collect();
    // By the cells a name takes on the terminal (a wide character two), not its characters.
    let width = names
        .iter()
        .map(|n| text::shown_len(n))
        .max()
        .unwrap_or(4)
        .max(4);
    let sys = System::ALL
        .iter()
        .map(|s| s.name().chars().count())
        .max()
        .unwrap_or(6);
    outln!(
        "{}  {:sys$}  {:>5}  {:>4}  LAST CHANGE",
        text::pad("NAME", width),
        "SYSTEM",
        "ROUND",
        "PASS"
    )?;
    for (s, name) in saves.iter().zip(&names) {
        // No time for a file whose time cannot be read (a link to nothing), never 1970's.
        let when = s.modified.map_or_else(
            || "-".into(),
            |m| {
                m.duration_since(std::time::UNIX_EPOCH)
                    .map_or_else(|_| "?".into(), |d| file::rfc3339(d.as_secs()))
            },
        );
        let name = text::pad(name, width);
        match &s.at {
            Ok((system, round, pass)) => outln!(
                "{name}  {:sys$}  {round:>5}  {pass:>4}  {when}",
                system.name()
            )?,
            Err(e) => outln!(
                "{name}  {:sys$}  {:>5}  {:>4}  {when}  (unreadable: {})",
                "-",
                "-",
                "-",
                text::escaped(e)
            )?,
        }
    }
    Ok(())
}

/// `exec` saves as it goes, so that a kill -9 in a long script loses no more than this many
/// lines or this much time of it (and a signal it can catch, nothing).
const EXEC_SAVE_LINES: usize = 64;
const EXEC_SAVE_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// Applies a script to a save; stops at the first refused line, saving all lines before it.
/// A file that is there must be a save (checked before its lock file is made beside it) that
/// its owner has not made read-only.
fn exec(
    roster: &Roster,
    path: &Path,
    script: Option<&Path>,
    seed: Option<u64>,
    system: Option<System>,
) -> Result<()> {
    let source = script.map_or_else(|| "stdin".to_string(), |p| p.display().to_string());
    // Opened before the save is looked at (a mistyped script changes nothing), read only once
    // the save is held.
    let reader = open_script(script).map_err(|e| Failure(format!("{source}: {e}")))?;
    let stop = stop_flag();
    let real = save::atomic::real_path(path).map_err(|e| io_failure(path, &e))?;
    // What the screen's audit (`save::audit`) distrusts, exec does not write to either; the save
    // is read and each entry checked once for both (`file::load_and_verify`).
    let verified = |path: &Path| -> Result<(file::SaveFile, Encounter)> {
        let (header, enc, stale) = file::load_and_verify(path, catalogue())?;
        match stale {
            Some(e) => Err(Failure(format!("{e}: nothing is written"))),
            None => Ok((header, enc)),
        }
    };
    let loaded = if real.exists() {
        // Looked at before the read, so that no write between the two goes unseen.
        let looked = stamps_of(&real);
        let loaded = verified(path)?;
        if let Some(asked) = system.filter(|s| *s != loaded.1.system()) {
            return Err(Failure(format!(
                "{} runs {}, not {asked}: --system chooses the system only when exec creates the save (nothing changed)",
                path.display(),
                loaded.1.system()
            )));
        }
        save::atomic::refuse_to_write(&real).map_err(|e| io_failure(path, &e))?;
        Some((loaded, looked))
    } else {
        Store::check_new_path(path).map_err(Failure)?;
        if let Some(dir) = real.parent().filter(|d| !d.as_os_str().is_empty()) {
            make_folders(dir)?;
        }
        save::atomic::refuse_to_write(&real).map_err(|e| io_failure(path, &e))?;
        None
    };
    let created = loaded.is_none();
    // A backup left by a save since removed is not this run's: kept as it is (it may be the
    // only copy of that fight), neither replaced by this save's rewrites nor removed.
    let earlier_backup = created && std::fs::symlink_metadata(save::backup_path(&real)).is_ok();
    let lock = Lock::acquire(&real).map_err(|e| Failure(format!("{}: {e}", path.display())))?;
    let group = save::Durability::Grouped {
        lines: EXEC_SAVE_LINES,
        every: EXEC_SAVE_EVERY,
    };
    let (saver, mut enc) = match loaded {
        Some(((header, enc), looked)) => {
            // Another writer may have changed it before the lock was ours: read it again.
            let (header, enc) = if stamps_of(&real) == looked {
                (header, enc)
            } else {
                verified(path)?
            };
            let saver = FileSave::new(real, header.name.clone(), header.created.clone(), lock)
                .on_disk(&enc, &header);
            (saver, enc)
        }
        None => {
            let enc = Encounter::for_system(system.unwrap_or_default(), house_rules(), catalogue());
            let saver = FileSave::new(real, Store::name_of(path), file::now_rfc3339(), lock);
            (saver, enc)
        }
    };
    let mut saver = saver.durability(group);
    if earlier_backup {
        saver = saver.without_backup();
    }
    let mut dice: RandomDice = seed.map_or_else(RandomDice::new, RandomDice::seeded);
    let mut out = std::io::stdout().lock();
    let mut run = ExecRun {
        enc: &mut enc,
        roster,
        dice: &mut dice,
        out: &mut out,
        saver: &mut saver,
        source: &source,
    };
    let refused = match script_lines(reader) {
        Ok(lines) => run.lines(&lines, &stop)?,
        Err(e) => Some(format!("{source}: cannot be read: {e}")),
    };
    if created && enc.history().is_empty() {
        // A script refused before any line applied leaves things as they were: no save (which
        // would fix the rule system). Nothing was written, so only the lock this run took goes;
        // a journal or backup left beside by a removed save stays.
        let _ = std::fs::remove_file(save::lock::lock_path(&saver.path));
        drop(saver);
    } else if created {
        // A save this run made is left whole in its snapshot, its journal empty: it opens from
        // its end like any save the screen closed. The backup the fold kept is of the fight as
        // this run began it, not worth keeping (one there before the run was not replaced).
        if let save::Closed::InJournal(why) = saver.close(&enc).map_err(Failure)? {
            eprintln!("srtrack: {}", text::escaped(&crate::ui::in_journal(&why)));
        }
        if !earlier_backup {
            let _ = std::fs::remove_file(save::backup_path(&saver.path));
        }
    } else {
        saver.save(&enc).map_err(Failure)?;
        saver.flush().map_err(Failure)?;
    }
    match refused {
        Some(msg) => Err(Failure(msg)),
        None => Ok(()),
    }
}

/// How often `exec` waiting for its script's next line looks whether a signal came.
const EXEC_STOP_POLL: std::time::Duration = std::time::Duration::from_millis(20);
/// Lines of the script read ahead of those applied, at most (in batches of what was there).
const EXEC_READ_AHEAD: usize = 256;
/// The longest script line read, its line end included: a command line is a few hundred bytes
/// at most (names of 40 characters, texts of 200), so a longer one is no script's, and an
/// endless one (`/dev/zero`) is refused here rather than read into memory.
pub const MAX_SCRIPT_LINE_BYTES: usize = 64 * 1024;

/// The script file, or standard input. A directory is refused as one (opening it succeeds).
fn open_script(script: Option<&Path>) -> std::result::Result<Box<dyn Read + Send>, String> {
    let Some(p) = script else {
        return Ok(Box::new(std::io::stdin()));
    };
    let said = |e: &std::io::Error| match e.kind() {
        std::io::ErrorKind::IsADirectory => "it is a directory, not a script".to_string(),
        _ => save::io_message(e),
    };
    let f = std::fs::File::open(p).map_err(|e| said(&e))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err("it is a directory, not a script".into());
    }
    Ok(Box::new(f))
}

/// What the script's reader hands over: the whole lines it has (newline kept), or why it stopped.
enum ScriptRead {
    Lines(Vec<Vec<u8>>),
    Failed(String),
    /// The next line is longer than [`MAX_SCRIPT_LINE_BYTES`]: not read on.
    TooLong,
}

/// Reads the script on a thread of its own, so that each line is applied as it comes and a
/// signal is seen while none does. The channel closes at the script's end.
fn script_lines(
    reader: Box<dyn Read + Send>,
) -> std::io::Result<std::sync::mpsc::Receiver<ScriptRead>> {
    use std::io::BufRead as _;
    let (tx, rx) = std::sync::mpsc::sync_channel(EXEC_READ_AHEAD);
    std::thread::Builder::new()
        .name("exec script".into())
        .spawn(move || {
            let mut r = std::io::BufReader::new(reader);
            let mut batch = Vec::new();
            loop {
                let mut line = Vec::new();
                // One byte past the bound tells a line too long from one just long enough.
                let got = std::io::Read::take(&mut r, MAX_SCRIPT_LINE_BYTES as u64 + 1)
                    .read_until(b'\n', &mut line);
                let too_long = line.len() > MAX_SCRIPT_LINE_BYTES;
                let ended = too_long || !matches!(got, Ok(1..));
                if !ended {
                    batch.push(line);
                }
                // Handed over before a read that may wait: what is here is applied meanwhile.
                if (ended || batch.len() >= EXEC_READ_AHEAD || !r.buffer().contains(&b'\n'))
                    && !batch.is_empty()
                    && tx
                        .send(ScriptRead::Lines(std::mem::take(&mut batch)))
                        .is_err()
                {
                    return;
                }
                if too_long {
                    let _ = tx.send(ScriptRead::TooLong);
                } else if let Err(e) = got {
                    let _ = tx.send(ScriptRead::Failed(save::io_message(&e)));
                }
                if ended {
                    return;
                }
            }
        })?;
    Ok(rx)
}

/// A script line as text: without its line end (and, the first, without a byte-order mark an
/// editor wrote); `None` if it is not UTF-8.
fn script_text(raw: &[u8], first: bool) -> Option<&str> {
    let mut b = raw;
    if let Some(rest) = b.strip_suffix(b"\n") {
        b = rest.strip_suffix(b"\r").unwrap_or(rest);
    }
    if first {
        b = b.strip_prefix("\u{feff}".as_bytes()).unwrap_or(b);
    }
    std::str::from_utf8(b).ok()
}

/// An `exec` under way: the save it holds and what its lines go through.
struct ExecRun<'a> {
    enc: &'a mut Encounter,
    roster: &'a Roster,
    dice: &'a mut RandomDice,
    out: &'a mut dyn Write,
    saver: &'a mut FileSave,
    source: &'a str,
}

impl ExecRun<'_> {
    /// Applies and saves each line as it comes, until the script ends: why it stopped early (a
    /// refused line, a signal, a read that failed), if it did.
    fn lines(
        &mut self,
        rx: &std::sync::mpsc::Receiver<ScriptRead>,
        stop: &AtomicBool,
    ) -> Result<Option<String>> {
        use std::sync::mpsc::RecvTimeoutError;
        let mut done = 0usize;
        // Since when lines are saved but perhaps not synced: synced once EXEC_SAVE_EVERY has
        // gone by with no line coming (the saver syncs as lines come).
        let mut unsynced: Option<std::time::Instant> = None;
        loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(Some(stopped(done)));
            }
            let wait = unsynced.map_or(EXEC_STOP_POLL, |t| {
                EXEC_SAVE_EVERY
                    .saturating_sub(t.elapsed())
                    .min(EXEC_STOP_POLL)
            });
            match rx.recv_timeout(wait) {
                Err(RecvTimeoutError::Timeout) => {
                    if unsynced.is_some_and(|t| t.elapsed() >= EXEC_SAVE_EVERY) {
                        self.saver.flush().map_err(Failure)?;
                        unsynced = None;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Ok(ScriptRead::Failed(e)) => {
                    return Ok(Some(format!(
                        "{}:{}: cannot be read: {e}; earlier lines are saved",
                        self.source,
                        done + 1
                    )));
                }
                Ok(ScriptRead::TooLong) => {
                    return Ok(Some(format!(
                        "{}:{}: the line is longer than {MAX_SCRIPT_LINE_BYTES} bytes, more than any command (it is not read on); earlier lines are saved",
                        self.source,
                        done + 1
                    )));
                }
                Ok(ScriptRead::Lines(lines)) => {
                    for raw in &lines {
                        if stop.load(Ordering::Relaxed) {
                            return Ok(Some(stopped(done)));
                        }
                        let at = done + 1;
                        let Some(line) = script_text(raw, done == 0) else {
                            return Ok(Some(format!(
                                "{}:{at}: the line is not UTF-8 text (a script must be written in UTF-8)",
                                self.source
                            )));
                        };
                        if let Err(reason) =
                            exec_line(self.enc, self.roster, line, self.dice, self.out)
                        {
                            return Ok(Some(format!("{}:{at}: {reason}", self.source)));
                        }
                        // Appended to the journal at once, synced in groups.
                        self.saver.save(self.enc).map_err(|e| {
                            Failure(format!(
                                "{}:{at}: {e}; the lines before it are saved",
                                self.source
                            ))
                        })?;
                        unsynced.get_or_insert_with(std::time::Instant::now);
                        done = at;
                    }
                }
            }
        }
    }
}

fn stopped(done: usize) -> String {
    format!(
        "stopped by a signal before line {}; earlier lines are saved",
        done + 1
    )
}

/// Runs what `run` does to the encounter, then prints a line per test of each entry it recorded.
fn printing_results(
    enc: &mut Encounter,
    out: &mut dyn Write,
    run: impl FnOnce(&mut Encounter) -> std::result::Result<(), String>,
) -> std::result::Result<(), String> {
    let mut state = enc.state().clone();
    let from = enc.cursor();
    run(enc)?;
    for entry in &enc.applied()[from..] {
        for l in report::result_lines(state.clone(), entry, enc.rules(), enc.catalogue()) {
            let _ = writeln!(out, "{l}");
        }
        for ev in &entry.events {
            state.apply(ev, enc.rules());
        }
    }
    Ok(())
}

/// One script line: a command, undo/redo, `why`, or sheets from the roster.
fn exec_line(
    enc: &mut Encounter,
    roster: &Roster,
    line: &str,
    dice: &mut dyn Dice,
    out: &mut dyn Write,
) -> std::result::Result<(), String> {
    let parsed = lang::read(line, enc)?;
    match parsed {
        Line::Command(cmd) => printing_results(enc, out, |enc| {
            lang::execute(enc, cmd, dice)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })?,
        // `lang::read` refused a count above what there is.
        Line::Undo(n) => {
            enc.undo(n);
        }
        Line::Redo(n) => {
            enc.redo(n);
        }
        Line::Why(a, b) => {
            let _ = writeln!(out, "{}", text::escaped(&enc.state().explain_order(a, b)));
        }
        Line::Odds2097(q) => {
            let answer =
                report::sr2097::odds_answer(&q, &enc.rules().sr2097).map_err(|e| e.to_string())?;
            let _ = writeln!(out, "{answer}");
        }
        Line::AnarchyOdds(test) => {
            let line = report::anarchy::odds_line(&test, &enc.rules().anarchy)?;
            let _ = writeln!(out, "{line}");
        }
        Line::FromRoster(add) => {
            // Expanded here, so the history holds plain `add` lines and never needs the roster.
            let commands = roster.brings(&add)?;
            let left: Vec<String> = commands
                .iter()
                .filter_map(|b| b.gear_left_in(enc.system()))
                .collect();
            printing_results(enc, out, |enc| {
                crate::roster::execute_all(enc, commands, dice).map(|_| ())
            })?;
            for l in left {
                let _ = writeln!(out, "{}", text::escaped(&l));
            }
        }
        Line::Odds(q) => {
            let line = report::sr5::odds_answer(enc, &q).map_err(|e| e.to_string())?;
            let _ = writeln!(out, "{line}");
        }
        Line::Nothing => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::startup_warning;

    #[test]
    fn exec_on_a_save_checks_each_of_its_entries_once() {
        use crate::save::validate::ENTRIES_CHECKED;
        // Given a save of four entries, its journal empty, and one whose journal undid two
        // entries of its snapshot and recorded another (snapshot 4, journal history 3)
        let dir = tempfile::tempdir().unwrap();
        let roster = super::Roster::in_data_dir(dir.path(), super::house_rules());
        let script = dir.path().join("script.txt");
        let run = |save: &std::path::Path, lines: &str| {
            std::fs::write(&script, lines).unwrap();
            ENTRIES_CHECKED.with(|n| n.set(0));
            super::exec(&roster, save, Some(&script), Some(1), None)
                .unwrap_or_else(|e| panic!("{}", e.0));
            ENTRIES_CHECKED.with(std::cell::Cell::get)
        };
        let adds = "add Ann pc int 4 rea 5\nadd Bo pc int 4 rea 5\nadd Cy pc int 4 rea 5\nadd Di pc int 4 rea 5\n";
        let plain = dir.path().join("plain.ron");
        let journaled = dir.path().join("journaled.ron");
        run(&plain, adds);
        run(&journaled, adds);
        run(&journaled, "undo 2\nadd Ed pc int 4 rea 5\n");
        // When exec opens each to run an empty script
        // Then each entry is checked once: the snapshot's four, and the two the histories
        // share once, the snapshot's two dropped and the journal's one
        assert_eq!(run(&plain, ""), 4);
        assert_eq!(run(&journaled, ""), 5);
    }

    #[test]
    fn a_save_changed_only_in_its_journal_is_read_again_before_exec_writes() {
        // Given a save and the stamp exec takes when it first reads it
        let dir = tempfile::tempdir().unwrap();
        let save = dir.path().join("s.ron");
        std::fs::write(&save, "snapshot").unwrap();
        let journal = crate::save::journal::path_of(&save);
        std::fs::write(&journal, "one\n").unwrap();
        let looked = super::stamps_of(&save);
        // When another srtrack appends to its journal alone (the snapshot untouched)
        std::fs::write(&journal, "one\ntwo\n").unwrap();
        // Then the stamp differs: exec reads the save again once the lock is its own
        assert_ne!(super::stamps_of(&save), looked);
        // And a journal made where there was none changes it too
        std::fs::remove_file(&journal).unwrap();
        let looked = super::stamps_of(&save);
        std::fs::write(&journal, "one\n").unwrap();
        assert_ne!(super::stamps_of(&save), looked);
    }

    #[test]
    fn the_screen_opens_with_the_built_in_file_in_use_then_the_first_problem_escaped() {
        use crate::catalogue::{Catalogue, GmFile, Loaded};
        use crate::rules::HouseRules;
        let loaded = |warnings: &[&str], problems: &[&str], gave_way: &[GmFile]| Loaded {
            rules: HouseRules::embedded(),
            catalogue: Catalogue::default(),
            warnings: warnings.iter().map(ToString::to_string).collect(),
            problems: problems.iter().map(ToString::to_string).collect(),
            gave_way: gave_way.to_vec(),
        };
        assert_eq!(startup_warning(&loaded(&[], &[], &[])), None);
        // One problem: which file did not load and what stands in for it come first
        let one = loaded(
            &["cfg/rules.ron:2:3: Expected integer; using the built-in house rules"],
            &["cfg/rules.ron:2:3: Expected integer"],
            &[GmFile::Rules],
        );
        assert_eq!(
            startup_warning(&one).as_deref(),
            Some(
                "rules.ron did not load (printed on quit): using the built-in house rules; \
                 cfg/rules.ron:2:3: Expected integer"
            )
        );
        let problems = [
            "cfg/actions.ron:4: entry #1 \"Dodge\u{1b}[2J\": the summary is empty",
            "cfg/actions.ron:9: entry #2 \"X\": the name is empty",
        ];
        let mut printed = problems.to_vec();
        printed.push("cfg/actions.ron: using the built-in actions catalogue");
        let three = loaded(&printed, &problems, &[GmFile::Actions]);
        assert_eq!(
            startup_warning(&three).as_deref(),
            Some(
                "actions.ron did not load (2 problems, printed on quit): using the built-in \
                 actions catalogue; first: cfg/actions.ron:4: entry #1 \"Dodge\\e[2J\": the \
                 summary is empty"
            )
        );
        // Both files given up: both named, and what stands in for each
        let both = loaded(
            &[
                "r; using the built-in house rules",
                "a; using the built-in one",
            ],
            &["r", "a"],
            &[GmFile::Rules, GmFile::Actions],
        );
        assert_eq!(
            startup_warning(&both).as_deref(),
            Some(
                "rules.ron and actions.ron did not load (2 problems, printed on quit): using \
                 the built-in house rules and actions catalogue; first: r"
            )
        );
    }

    #[test]
    fn a_broken_actions_file_says_on_an_80_column_screen_that_the_built_in_catalogue_is_in_use() {
        use ratatui::widgets::Widget as _;
        // Given a GM's actions.ron with two broken entries
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("actions.ron"),
            "[(name: \"\", group: Free, kind: Free, summary: \"x\"), \
             (name: \"Y\", group: Free, kind: Free, summary: \"\")]",
        )
        .unwrap();
        let loaded = crate::load_ruleset(Some(dir.path()));
        // When the screen opens at 80 columns with what the load warned of
        let warning = startup_warning(&loaded).expect("a warning");
        let mut app = crate::ui::app::App::new(
            crate::ui::demo::encounter(),
            "Demo".into(),
            Box::new(crate::save::NoSave),
            None,
        )
        .with_warning(Some(warning));
        let area = ratatui::layout::Rect::new(0, 0, 80, 24);
        app.resize(80, 24);
        let mut buf = ratatui::buffer::Buffer::empty(area);
        (&app).render(area, &mut buf);
        let rows: Vec<String> = (0..24)
            .map(|y| (0..80).map(|x| buf[(x, y)].symbol()).collect::<String>())
            .collect();
        let said = rows.iter().map(|r| r.trim()).collect::<Vec<_>>().join(" ");
        // Then the status line says first that the built-in catalogue is in use, whole
        assert!(
            said.contains("✗ actions.ron did not load (2 problems, printed on quit): using the built-in actions catalogue; first:"),
            "{}",
            rows.join("\n")
        );
    }
}
