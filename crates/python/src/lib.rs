//! `nimlab._nimlab`: the Rust side of the Python package `nimlab`. It only translates: every answer
//! comes from the analysis library (`nimlab_analysis`), every table from the tables crate's planner
//! and sink (`nimlab_tables::plan`, `nimlab_tables::sink`), exactly as for the command line.
//!
//! Long calls run on a worker thread while the calling thread waits without the GIL, wakes every
//! 50 ms to let Python handle signals (Ctrl-C raises `KeyboardInterrupt` and cancels the call: a
//! table, the search, `verify`, `prove` with its solver process, `discover`; a table then stores
//! nothing and keeps its checkpoint) and to report progress to an optional callback
//! `progress(done, total)`.
//! Answers cross as JSON text (small) or as raw little-endian bytes (tables), so no per-position
//! Python object is made here; `nimlab/__init__.py` turns them into dicts and NumPy arrays.

use nimlab_analysis::{Analyzer, Limits, Remoteness, StoreHandle, Want};
use nimlab_core::{Error, Game, Hooks, Play, Pos, TableBound};
use nimlab_research::domain::Bound as Region;
use nimlab_tables::plan::{self, Bounds, Request, TableKind, TableMethod};
use nimlab_tables::sink;
use nimlab_tables::store::{self, Store};
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

create_exception!(
    _nimlab,
    TooLarge,
    PyValueError,
    "The question would need more work than the budget allows (the message names the estimate and the option that lifts it)."
);

/// nimlab's errors as Python exceptions: bad input is `ValueError` (`TooLarge` is one), an
/// interrupted computation `KeyboardInterrupt`, files `OSError`, the store `RuntimeError`.
fn to_py(e: Error) -> PyErr {
    let msg = match &e {
        Error::Refused(_) | Error::TooLargeRefused(_) => e.render(&Keywords),
        _ => pythonic(&e.to_string()),
    };
    match e {
        Error::Interrupted => PyKeyboardInterrupt::new_err(msg),
        e if e.is_too_large() => TooLarge::new_err(msg),
        Error::Io { .. } => PyOSError::new_err(msg),
        Error::Store { .. } => PyRuntimeError::new_err(msg),
        _ => PyValueError::new_err(msg),
    }
}

/// This package's spelling of a request's options: its keyword arguments (`heaps=N`, `misere=True`,
/// `method='naive'`, `store=False`), and in words the options it does not have (the back end, which
/// is the CPU's here; resuming or restarting a table, which it does on its own from a checkpoint).
struct Keywords;

impl nimlab_core::arg::Spelling for Keywords {
    fn spell(&self, arg: nimlab_core::Arg, how: &nimlab_core::arg::Mention) -> String {
        use nimlab_core::arg::Mention;
        use nimlab_core::Arg;
        match (arg, how) {
            (Arg::Method, Mention::Value(v)) => return format!("method='{v}'"),
            (Arg::Backend, Mention::Value(v)) => {
                return format!("the {} back end", v.to_uppercase())
            }
            (Arg::Backend, _) => return "the back end".into(),
            (Arg::Resume, _) => return "resuming from a checkpoint".into(),
            (Arg::Restart, _) => return "its checkpoint file removed".into(),
            (Arg::NoStore, _) => return "store=False".into(),
            _ => {}
        }
        let name = arg.name().replace('-', "_");
        match (how, arg.placeholder()) {
            (Mention::Name, _) => format!("{name}="),
            (Mention::Given, None) => format!("{name}=True"),
            (Mention::Given, Some(p)) => format!("{name}={p}"),
            (Mention::Value(v), _) => format!("{name}={v}"),
        }
    }
}

/// The command line's options as this package's keyword arguments: `--limit 1e10` → `limit=1e10`,
/// `--heaps N` → `heaps=N`, `--max-sum S` → `max_sum=S`, `--misere` → `misere=True`,
/// `--no-store` → `store=False`. Messages come from the libraries the command line shares; a Python
/// user should read the names they type.
fn pythonic(msg: &str) -> String {
    // (flag, keyword, takes a value; for flags without a value, the keyword's value).
    const WITH_VALUE: [(&str, &str); 8] = [
        ("limit", "limit"),
        ("heaps", "heaps"),
        ("max-sum", "max_sum"),
        ("max", "max"),
        ("method", "method"),
        ("db", "db"),
        ("timeout", "timeout"),
        ("bits", "bits"),
    ];
    const SWITCHES: [(&str, &str); 5] = [
        ("misere", "misere=True"),
        ("grundy", "grundy=True"),
        ("no-store", "store=False"),
        ("automata", "automata=True"),
        ("remoteness", "remoteness=True"),
    ];
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(after.len());
        let name = &after[..name_len];
        let tail = &after[name_len..];
        if let Some((_, kw)) = WITH_VALUE.iter().find(|(f, _)| *f == name) {
            // The value: the next word, without a sentence's closing punctuation.
            let value = tail.strip_prefix(' ').map(|t| {
                let end = t
                    .find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ')' | ':'))
                    .unwrap_or(t.len());
                let word = &t[..end];
                word.strip_suffix('.').unwrap_or(word)
            });
            match value.filter(|v| !v.is_empty()) {
                Some(v) => {
                    let quoted = if *kw == "method" && !v.starts_with('\'') {
                        format!("'{v}'")
                    } else {
                        v.to_string()
                    };
                    out.push_str(&format!("{kw}={quoted}"));
                    rest = &tail[1 + v.len()..];
                }
                None => {
                    out.push_str(&format!("{kw}=..."));
                    rest = tail;
                }
            }
        } else if let Some((_, kw)) = SWITCHES.iter().find(|(f, _)| *f == name) {
            out.push_str(kw);
            rest = tail;
        } else {
            out.push_str("--");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// A count or bound given from Python: non-negative (a negative one is a `ValueError`, not an
/// `OverflowError`).
fn non_negative<T: TryFrom<i128>>(name: &str, v: Option<i128>) -> PyResult<Option<T>> {
    v.map(|x| {
        if x < 0 {
            return Err(PyValueError::new_err(format!(
                "{name} must be non-negative, got {x}"
            )));
        }
        T::try_from(x).map_err(|_| PyValueError::new_err(format!("{name} is too large: {x}")))
    })
    .transpose()
}

/// Progress shared between the worker and the waiting thread: (done, total).
#[derive(Default)]
struct Progress(AtomicU64, AtomicU64);

/// Runs `job` on a worker thread; see the module notes. The job runs inside a cancel scope
/// ([`nimlab_core::interrupt`]) whose flag it is also handed; Ctrl-C (a signal Python reports), or
/// an exception from the progress callback (a `KeyboardInterrupt` raised while it ran, too), sets the
/// flag, waits for the job to stop (a table writes its checkpoint first and stores nothing) and
/// raises that exception. A job that finished is answered even if the signal comes later.
fn blocking<T, F>(py: Python<'_>, progress: Option<Py<PyAny>>, job: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(&Arc<AtomicBool>, &Progress) -> Result<T, Error> + Send + 'static,
{
    let cancel = Arc::new(AtomicBool::new(false));
    let shared = Arc::new(Progress::default());
    let (tx, rx) = mpsc::channel();
    let (c, s) = (cancel.clone(), shared.clone());
    std::thread::spawn(move || {
        let r = nimlab_core::interrupt::scope(c.clone(), || job(&c, &s));
        let _ = tx.send(r);
    });
    // `detach` needs what it borrows to be `Sync`; a receiver is only `Send`.
    let rx = std::sync::Mutex::new(rx);
    let recv = |t: Duration| {
        rx.lock()
            .map_err(|_| RecvTimeoutError::Disconnected)?
            .recv_timeout(t)
    };
    let mut last = (u64::MAX, u64::MAX);
    loop {
        match py.detach(|| recv(Duration::from_millis(50))) {
            Ok(r) => return r.map_err(to_py),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the computation stopped without an answer (an internal error)",
                ))
            }
            Err(RecvTimeoutError::Timeout) => {
                let mut stop = py.check_signals().err();
                if let (None, Some(cb)) = (&stop, &progress) {
                    let now = (
                        shared.0.load(Ordering::Relaxed),
                        shared.1.load(Ordering::Relaxed),
                    );
                    if now.1 > 0 && now != last {
                        last = now;
                        stop = cb.call1(py, now).err();
                    }
                }
                if let Some(e) = stop {
                    // Every long computation polls the flag; the wait is a cap, not a delay.
                    cancel.store(true, Ordering::Relaxed);
                    let _ = py.detach(|| recv(Duration::from_secs(60)));
                    return Err(e);
                }
            }
        }
    }
}

fn play_of(misere: bool) -> Play {
    Play::from_misere(misere)
}

/// A game of nimlab, with the analyzer that answers questions about it.
#[pyclass(frozen, name = "Game", module = "nimlab._nimlab")]
struct PyGame {
    game: Arc<dyn Game>,
    an: Arc<Analyzer>,
    db: Option<PathBuf>,
}

impl PyGame {
    /// A position from text (the game's notation, e.g. `1^3 2` for chip games) or a sequence of
    /// integers (a list, a tuple, a NumPy array), validated by the game.
    fn position(&self, p: &Bound<'_, PyAny>) -> PyResult<Pos> {
        if let Ok(text) = p.extract::<String>() {
            return self.game.parse_position(&text).map_err(to_py);
        }
        let xs: Vec<i128> = p.extract().map_err(|_| {
            PyValueError::new_err(
                "a position is a string or a sequence of integers (list, tuple or array)",
            )
        })?;
        let text = xs
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",");
        self.game.parse_position(&text).map_err(to_py)
    }
}

#[pymethods]
impl PyGame {
    /// `spec`: a game name as in `nimlab games` (e.g. `CN(7,4)`) or a `.rhai` script. `db`: the store's
    /// file (default: `$NIMLAB_DB`, else nimlab/tables.sqlite3 in the user's data directory);
    /// `store=False` turns it off. `limit`: the largest search, in estimated option visits.
    #[new]
    #[pyo3(signature = (spec, db=None, store=true, limit=2e9))]
    fn new(spec: &str, db: Option<PathBuf>, store: bool, limit: f64) -> PyResult<Self> {
        let game: Arc<dyn Game> = Arc::from(nimlab_games::parse_game(spec).map_err(to_py)?);
        let path = if store {
            store::default_path(db.as_deref())
        } else {
            None
        };
        let limits = Limits::CLI.with_limit(limit);
        Ok(PyGame {
            game,
            an: Arc::new(Analyzer::new(StoreHandle::at(path.clone()), limits)),
            db: path,
        })
    }

    /// The game's name with its parameters, e.g. `CN(7,4)`.
    #[getter]
    fn id(&self) -> String {
        self.game.id()
    }

    /// How the game bounds a table: `box`, `heaps` (a box with any number of heaps), `chips`
    /// (total chips) or `spread` (max - min).
    #[getter]
    fn bound(&self) -> &'static str {
        match self.game.table_bound() {
            TableBound::Box { heaps: false } => "box",
            TableBound::Box { heaps: true } => "heaps",
            TableBound::TotalChips => "chips",
            TableBound::Spread => "spread",
            TableBound::None => "none",
        }
    }

    /// `circle` or `row`: how the position is drawn.
    #[getter]
    fn layout(&self) -> &'static str {
        match self.game.layout() {
            nimlab_core::Layout::Circle => "circle",
            nimlab_core::Layout::Row => "row",
        }
    }

    /// The rules in one paragraph.
    #[getter]
    fn rules(&self) -> String {
        self.game.rules()
    }

    /// The store's file, or None when the store is off.
    #[getter]
    fn db(&self) -> Option<String> {
        self.db.as_ref().map(|p| p.display().to_string())
    }

    /// The position `p`, validated, as a list of integers.
    fn parse(&self, p: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
        self.position(p)
    }

    /// `p` in the game's one notation (chip games in Ferguson's `1^3 2 5`, as on the web page and in
    /// the command line's answers to that notation; `power=False`: chip games as tuples).
    #[pyo3(signature = (p, power=true))]
    fn format(&self, p: &Bound<'_, PyAny>, power: bool) -> PyResult<String> {
        let q = self.position(p)?;
        Ok(if power {
            self.game.format_like(&q, "^")
        } else {
            self.game.format_position(&q)
        })
    }

    /// Everything asked about `p`, as JSON text: the analysis library's object, the one
    /// `nimlab outcome|grundy|moves|explain --json` prints.
    /// `outcome_only`: the outcome alone (no Grundy value, no remoteness), for `Game.outcome`.
    #[pyo3(signature = (p, misere=false, grundy=false, moves=false, options=false, remoteness=false, explain=false, outcome_only=false))]
    #[allow(clippy::too_many_arguments)]
    fn analyse(
        &self,
        py: Python<'_>,
        p: &Bound<'_, PyAny>,
        misere: bool,
        grundy: bool,
        moves: bool,
        options: bool,
        remoteness: bool,
        explain: bool,
        outcome_only: bool,
    ) -> PyResult<String> {
        let pos = self.position(p)?;
        let play = play_of(misere);
        if grundy && play == Play::Misere {
            return Err(PyValueError::new_err(
                "Grundy values are defined for normal play; drop misere=True",
            ));
        }
        // No question named: the question `outcome` (as `nimlab outcome`, `/api/answer?ask=outcome`).
        let plain = !(grundy || moves || options || explain || outcome_only);
        let want = Want {
            grundy,
            grundy_if_cheap: plain,
            moves: moves || options,
            options,
            remoteness: if remoteness {
                Remoteness::Always
            } else if plain {
                Remoteness::IfSmall
            } else {
                Remoteness::Skip
            },
            explain,
        };
        let (game, an) = (self.game.clone(), self.an.clone());
        blocking(py, None, move |_, _| {
            Ok(an
                .analyse(game.as_ref(), &pos, play, want)?
                .to_json()
                .to_string())
        })
    }

    /// A table, planned and solved as `nimlab table` does (the store included). Returns
    /// `(head, data)`: `head` is the JSON object of `nimlab table --json --count-only` plus `width`,
    /// `lengths`, `lo`, `hi`; `data` holds the listed P-positions (u64 little-endian, `width` per row,
    /// shorter positions padded with 0) or the Grundy values (u16 little-endian, in table order).
    /// `ordered`: every ordered P-position of the box (every rotation and reflection of a circle,
    /// every order of heaps) instead of the least tuple of each symmetry class (box games; chip
    /// games list multisets either way).
    #[pyo3(signature = (max=None, max_sum=None, heaps=None, misere=false, grundy=false, method="auto", limit=2e9, progress=None, ordered=false))]
    #[allow(clippy::too_many_arguments)]
    fn table<'py>(
        &self,
        py: Python<'py>,
        max: Option<i128>,
        max_sum: Option<i128>,
        heaps: Option<i128>,
        misere: bool,
        grundy: bool,
        method: &str,
        limit: f64,
        progress: Option<Py<PyAny>>,
        ordered: bool,
    ) -> PyResult<(String, Bound<'py, PyBytes>)> {
        let max: Option<u64> = non_negative("max", max)?;
        let max_sum: Option<u64> = non_negative("max_sum", max_sum)?;
        let heaps: Option<usize> = non_negative("heaps", heaps)?;
        if !limit.is_finite() || limit < 0.0 {
            return Err(PyValueError::new_err(format!(
                "limit must be a non-negative number, got {limit}"
            )));
        }
        let method = match method {
            "auto" => TableMethod::Auto,
            "engine" | "fast" => TableMethod::Engine,
            "naive" => TableMethod::Naive,
            m => {
                return Err(PyValueError::new_err(format!(
                    "method '{m}': use 'auto', 'engine' or 'naive'"
                )))
            }
        };
        let req = Request {
            bounds: Bounds {
                max,
                max_sum,
                heaps,
            },
            play: play_of(misere),
            kind: if grundy {
                TableKind::Grundy
            } else {
                TableKind::PSet
            },
            method,
            // The Python package is built without the `gpu` feature: the CPU engine.
            backend: plan::Backend::Cpu,
            remoteness: false,
            limit,
            // As the command line without --resume/--restart: with a store, a checkpoint is kept
            // next to it while the table runs, stays when it is interrupted, and is continued from
            // by the next call for the same table.
            resume: plan::ResumeMode::Auto,
        };
        let game = self.game.clone();
        let plan = plan::plan(game.as_ref(), &req).map_err(to_py)?;
        let db = self.db.clone();
        let (head, data) = blocking(py, progress, move |cancel, shared| {
            let mut store = match &db {
                Some(p) => Some(Store::open(p).map_err(|e| Error::store("opening the store", e))?),
                None => None,
            };
            let report = |d: u64, t: u64| {
                shared.0.store(d, Ordering::Relaxed);
                shared.1.store(t, Ordering::Relaxed);
            };
            let a = plan::run(
                game.as_ref(),
                &plan,
                store.as_mut(),
                Hooks::new(Some(cancel.as_ref()), Some(&report)),
            )?;
            let mut text = Vec::new();
            sink::write(
                &mut text,
                game.as_ref(),
                &plan,
                &a,
                sink::SinkFormat::Json,
                sink::Options {
                    count_only: true,
                    ..Default::default()
                },
            )
            .map_err(|e| Error::io("writing the table", e))?;
            let mut head: Value = serde_json::from_slice(&text).unwrap_or_default();
            let width = plan.width();
            head["width"] = json!(width);
            if let plan::Domain::Box(d) = &plan.domain {
                head["lengths"] = json!(d.lengths);
                head["lo"] = json!(d.lo);
                head["hi"] = json!(d.hi);
            }
            head["chips"] = json!(plan.is_chips());
            // Continued from a checkpoint: how far the interrupted run had come (percent).
            head["resumed"] = json!(a.resumed.as_ref().map(|h| h.percent()));
            let data: Vec<u8> = match &a.solved {
                plan::Solved::PSet { .. } => {
                    let mut ps = a.solved.positions();
                    if ordered && matches!(plan.domain, plan::Domain::Box(_)) {
                        // Every tuple of the box whose symmetry class is listed.
                        let classes: std::collections::HashSet<Pos> = ps.drain(..).collect();
                        plan.for_each_position(&mut |p| {
                            if classes.contains(&game.canonical(p)) {
                                ps.push(p.to_vec());
                            }
                        });
                        head["listed"] = json!("ordered");
                    } else {
                        head["listed"] = json!("canonical");
                    }
                    let mut out = Vec::with_capacity(ps.len() * width * 8);
                    for p in &ps {
                        for i in 0..width {
                            out.extend_from_slice(&p.get(i).copied().unwrap_or(0).to_le_bytes());
                        }
                    }
                    out
                }
                plan::Solved::Grundy { values } => store::encode_values(values),
            };
            if plan.is_chips() && grundy {
                // The positions of a chip-game Grundy table, in order, after the values.
                let mut pos = Vec::new();
                plan.for_each_position(&mut |p| {
                    for i in 0..width {
                        pos.extend_from_slice(&p.get(i).copied().unwrap_or(0).to_le_bytes());
                    }
                });
                head["positions_offset"] = json!(data.len());
                let mut all = data;
                all.extend(pos);
                return Ok((head.to_string(), all));
            }
            Ok((head.to_string(), data))
        })?;
        Ok((head, PyBytes::new(py, &data)))
    }
}

/// The proven results nimlab uses, as JSON text: the objects of `nimlab theory [GAME] --json`.
#[pyfunction]
#[pyo3(signature = (game=None))]
fn theory(game: Option<&str>) -> PyResult<String> {
    Ok(nimlab_analysis::json::theory_of(game)
        .map_err(to_py)?
        .to_string())
}

/// The built-in games, as JSON text: the objects of `nimlab games --json`.
#[pyfunction]
fn games() -> String {
    nimlab_analysis::json::catalogue().to_string()
}

/// A sum of games written `G[p] + H[q] + ...`, as JSON text with the keys of `nimlab outcome --json`
/// for sums (`components`, `winning_moves`, `winning_moves_detail`, ...).
#[pyfunction]
#[pyo3(signature = (spec, misere=false, moves=false, db=None, store=true, limit=2e9))]
fn sum(
    py: Python<'_>,
    spec: &str,
    misere: bool,
    moves: bool,
    db: Option<PathBuf>,
    store: bool,
    limit: f64,
) -> PyResult<String> {
    let path = if store {
        store::default_path(db.as_deref())
    } else {
        None
    };
    // The command line's limits, the option that lifts them spelled as a keyword ([`Keywords`]).
    let limits = Limits::CLI.with_limit(limit);
    let an = Analyzer::new(StoreHandle::at(path), limits);
    let spec = spec.to_string();
    let play = play_of(misere);
    blocking(py, None, move |_, _| {
        let s = nimlab_analysis::sums::analyse_spec(&an, &spec, play, moves)?;
        Ok(s.to_string())
    })
}

/// `verify`: a proven result (`theorem`) or a Rhai conjecture file (`conjecture`) checked with the
/// partition theorem over a bounded set; JSON text with the keys of `nimlab verify --json`.
#[pyfunction]
#[pyo3(signature = (game, theorem=None, conjecture=None, max=None, max_sum=None, heaps=None, misere=false, examples=5))]
#[allow(clippy::too_many_arguments)]
fn verify(
    py: Python<'_>,
    game: &str,
    theorem: Option<String>,
    conjecture: Option<String>,
    max: Option<u64>,
    max_sum: Option<u64>,
    heaps: Option<usize>,
    misere: bool,
    examples: usize,
) -> PyResult<String> {
    let g: Arc<dyn Game> = Arc::from(nimlab_games::parse_game(game).map_err(to_py)?);
    if theorem.is_some() == conjecture.is_some() {
        return Err(PyValueError::new_err(
            "give exactly one of theorem=ID and conjecture=FILE",
        ));
    }
    let bound = Region {
        max,
        max_sum,
        heaps,
    };
    let play = play_of(misere);
    blocking(py, None, move |_, _| {
        let claim = match (&theorem, &conjecture) {
            (Some(id), _) => nimlab_analysis::verify::Claim::Theorem(id),
            (_, Some(path)) => nimlab_analysis::verify::Claim::Conjecture(path),
            _ => unreachable!("checked above"),
        };
        let c = nimlab_analysis::verify::verify(g.as_ref(), claim, bound, play, examples)?;
        Ok(nimlab_analysis::verify::to_json(g.as_ref(), &c, bound, play).to_string())
    })
}

/// `prove`: conditions (I)-(III) for every stack size by an SMT solver, for a built-in result
/// (`theorem`) or a families file (`families`, TOML); with `bits`, for entries below 2^bits in
/// bit-vectors (xor); with `automata`, by the automata prover for every size (xor included, no
/// solver; CN, Nim, complexes and SCN); with `subset` (always for a partial result such as
/// `cn-lemma5-s1`), only that every member is a P-position (condition (C)); JSON text with the keys
/// of `nimlab prove --json`.
#[pyfunction]
#[pyo3(signature = (game, theorem=None, families=None, timeout=120, solver="z3".into(), bits=None, automata=false, misere=false, subset=false, cross_check=false, heaps=None, automaton=None, emit=None, grundy_value=None, grundy_bits=8))]
#[allow(clippy::too_many_arguments)]
fn prove(
    py: Python<'_>,
    game: &str,
    theorem: Option<String>,
    families: Option<PathBuf>,
    timeout: u64,
    solver: PathBuf,
    bits: Option<u32>,
    automata: bool,
    misere: bool,
    subset: bool,
    cross_check: bool,
    heaps: Option<usize>,
    automaton: Option<PathBuf>,
    emit: Option<PathBuf>,
    grundy_value: Option<u16>,
    grundy_bits: u32,
) -> PyResult<String> {
    use nimlab_prove::{ProofGame, ProveRequest, Prover, Source};
    let given = [
        theorem.is_some(),
        families.is_some(),
        automaton.is_some(),
        grundy_value.is_some(),
    ];
    if given.iter().filter(|g| **g).count() != 1 {
        return Err(PyValueError::new_err(
            "give exactly one of theorem=ID, families=FILE, automaton=FILE and grundy_value=V",
        ));
    }
    // The game first: a game that needs heaps= is refused before a file is read.
    let parsed = ProofGame::parse(game, heaps).map_err(to_py)?;
    let from = match (&theorem, &families, &automaton) {
        (Some(_), _, _) => nimlab_core::Arg::Theorem,
        (_, Some(_), _) => nimlab_core::Arg::Families,
        (_, _, Some(_)) => nimlab_core::Arg::Automaton,
        _ => nimlab_core::Arg::GrundyValue,
    };
    parsed.takes(from).map_err(to_py)?;
    let read = |path: &PathBuf| -> PyResult<(String, String)> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| to_py(Error::io(format!("reading {}", path.display()), e)))?;
        Ok((text, path.display().to_string()))
    };
    let source = match (theorem, families, automaton, grundy_value) {
        (_, _, _, Some(v)) => Source::GrundyValues {
            up_to: v,
            table_bits: grundy_bits,
        },
        (Some(id), _, _, _) => Source::Registry(id),
        (_, Some(path), _, _) => {
            let (text, name) = read(&path)?;
            Source::Families { text, name }
        }
        (_, _, Some(path), _) => {
            let (text, name) = read(&path)?;
            Source::Automaton { text, name }
        }
        _ => unreachable!("checked above"),
    };
    let limit = Duration::from_secs(timeout);
    let mut req = ProveRequest::of(game, parsed, source);
    req.play = Play::from_misere(misere);
    req.subset = subset;
    req.bits = bits;
    req.prover = Prover::from_options(automata, &solver, cross_check, limit).map_err(to_py)?;
    req.timeout = limit;
    req.emit = emit;
    blocking(py, None, move |_, _| {
        Ok(nimlab_prove::request::prove(&req)?.to_json().to_string())
    })
}

/// `discover`: a characterization of the P-positions found from tables alone and proved for every
/// stack size; JSON text with the keys of `nimlab discover --json` (`out`: where to write the
/// families file). The store is used unless `store` is false (`db`: its path).
#[pyfunction]
#[pyo3(signature = (game, max=None, heaps=None, timeout=600, out=None, solver="z3".into(), db=None, store=true, misere=false, max_sum=None))]
#[allow(clippy::too_many_arguments)]
fn discover(
    py: Python<'_>,
    game: &str,
    max: Option<u64>,
    heaps: Option<usize>,
    timeout: u64,
    out: Option<PathBuf>,
    solver: PathBuf,
    db: Option<PathBuf>,
    store: bool,
    misere: bool,
    max_sum: Option<u64>,
) -> PyResult<String> {
    let game = game.to_string();
    let play = Play::from_misere(misere);
    let store = if store {
        nimlab_tables::store::default_path(db.as_deref())
    } else {
        None
    };
    blocking(py, None, move |cancel, _| {
        let opts = nimlab_discover::Options {
            max,
            max_sum,
            heaps,
            timeout: Duration::from_secs(timeout),
            solver,
            store,
            out,
            cancel: Some(cancel.clone()),
            play,
            ..Default::default()
        };
        // Written and saved by discover itself, as for the command line.
        Ok(nimlab_discover::discover(&game, &opts)?
            .to_json_spelled(&Keywords)
            .to_string())
    })
}

/// `sequence`: the Grundy values of single heaps 0..=max of a one-heap game (octal, subtraction,
/// Grundy's game), as `nimlab sequence --json` computes them. Returns `(head, data)`: `head` the
/// JSON object of the period (`period`, `preperiod`, `saltus`, `last_exceptional`, `status`,
/// `proof`, `proof_needs_max`), `largest`, `method`; `data` the values, u32 little-endian.
#[pyfunction]
#[pyo3(signature = (game, max, method="auto", limit=2e9))]
fn sequence<'py>(
    py: Python<'py>,
    game: &str,
    max: i128,
    method: &str,
    limit: f64,
) -> PyResult<(String, Bound<'py, PyBytes>)> {
    use nimlab_analysis::sequence;
    let max: u64 = non_negative("max", Some(max))?.unwrap_or(0);
    if !limit.is_finite() || limit < 0.0 {
        return Err(PyValueError::new_err(format!(
            "limit must be a non-negative number, got {limit}"
        )));
    }
    let req = sequence::Request {
        max,
        method: nimlab_games::octal::Method::parse(method).map_err(to_py)?,
        mask: None,
        limit,
    };
    let g = sequence::one_heap(game).map_err(to_py)?;
    sequence::check(&g, &req).map_err(to_py)?;
    let (head, data) = blocking(py, None, move |_, _| {
        let s = sequence::compute(&g, &req)?;
        let per = s.periodicity.as_ref();
        let head = json!({
            "game": g.id(),
            "name": g.common_name(),
            "max": max,
            "method": s.method_json(),
            "largest": {"value": s.largest.0, "at": s.largest.1},
            "period": per.map(|p| p.period),
            "preperiod": per.map(|p| p.preperiod),
            "saltus": per.map(|p| p.saltus),
            "last_exceptional": per.and_then(|p| p.preperiod.checked_sub(1)),
            "status": match per {
                Some(p) if p.proof.is_some() => "proved",
                Some(_) => "evidence",
                None => "none",
            },
            "proof": per.and_then(|p| p.proof).map(|x| x.id()),
            "proof_needs_max": per.and_then(|p| p.proof_needs),
        });
        let mut data = Vec::with_capacity(s.values.len() * 4);
        for v in &s.values {
            data.extend_from_slice(&v.to_le_bytes());
        }
        Ok((head.to_string(), data))
    })?;
    Ok((head, PyBytes::new(py, &data)))
}

#[pymodule]
fn _nimlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_function(wrap_pyfunction!(theory, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(sum, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add_function(wrap_pyfunction!(discover, m)?)?;
    m.add_function(wrap_pyfunction!(sequence, m)?)?;
    m.add("TooLarge", m.py().get_type::<TooLarge>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
