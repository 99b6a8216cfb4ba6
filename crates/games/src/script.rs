//! Games and predicates written by users in Rhai, the embedded scripting language for Rust programs.
//!
//! A game script defines `fn options(p)`, taking a position (an array of integers) and returning an
//! array of positions. It may also define `fn canonical(p)` (the representative of p's symmetry class)
//! and `fn validate(p)` (returning `true`, or a message saying what is wrong). Wherever a command takes a
//! game name, the path of a script ending in `.rhai` names that game.
//!
//! Scripts run under limits: a call may execute at most [`MAX_OPERATIONS`] operations, nest calls at most
//! 64 deep, and build arrays of at most [`MAX_ARRAY`] elements; a script that loops or allocates without
//! bound is stopped with a message. Errors carry the script's line and column.
//!
//! A game must end. Every option a script returns is checked to descend in a well-founded measure
//! before anything uses it: by default the coordinate sum, with ties broken by the entries sorted
//! largest first and compared lexicographically (the multiset order, so splitting a heap into smaller
//! heaps descends too); a script may instead define `fn rank(p)`, a non-negative integer that every
//! move must lower. A position among its own options, a cycle, or a heap that grows without a fall in
//! the measure is refused at the first such move, in one line naming it (`position -> option`), so no
//! search can run forever on it.
//!
//! A script's cost estimate comes from its real option counts: [`Game::branching_bound`] calls
//! `options` at a few positions below the one asked about and takes the most seen.

use nimlab_core::position::format_tuple;
use nimlab_core::{BoxDomain, Error, Game, Pos, Result, TableBound};
use rhai::{Array, Dynamic, Engine, EvalAltResult, Scope, AST};
use std::ops::ControlFlow;
use std::sync::Mutex;

/// Most operations one call into a script may execute.
pub const MAX_OPERATIONS: u64 = 20_000_000;
/// Largest array a script may build, nested arrays counted element by element (Rhai checks the size
/// after each change, so the limit also bounds the time a script can spend growing one array).
pub const MAX_ARRAY: usize = 200_000;

/// An engine with nimlab's limits.
pub fn engine() -> Engine {
    let mut e = Engine::new();
    e.set_max_operations(MAX_OPERATIONS);
    e.set_max_call_levels(64);
    e.set_max_expr_depths(128, 64);
    e.set_max_array_size(MAX_ARRAY);
    e.set_max_string_size(1_000_000);
    e.set_max_map_size(100_000);
    e
}

/// Reads and compiles a script; errors name the file, line and column.
pub fn compile(path: &str) -> Result<(Engine, AST, String)> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::BadGame(format!("cannot read script {path}: {e}")))?;
    let engine = engine();
    let ast = engine.compile(&text).map_err(|e| {
        let pos = e.position();
        Error::BadGame(format!(
            "{path}:{}:{}: {}",
            pos.line().unwrap_or(0),
            pos.position().unwrap_or(0),
            e.err_type()
        ))
    })?;
    Ok((engine, ast, text))
}

/// One line describing a runtime error of a script, with its line and column.
pub fn describe(path: &str, func: &str, e: &EvalAltResult) -> String {
    let pos = e.position();
    let what = match e {
        EvalAltResult::ErrorTooManyOperations(_) => format!(
            "stopped: more than {MAX_OPERATIONS} operations in one call of {func} (an endless loop?)"
        ),
        EvalAltResult::ErrorDataTooLarge(what, _) => {
            format!("stopped: {what} grew beyond nimlab's limit in {func}")
        }
        EvalAltResult::ErrorStackOverflow(_) => format!("stopped: calls nested too deeply in {func}"),
        other => {
            // Rhai's message without its own position suffix (we print ours in front).
            let msg = other.to_string();
            match msg.rfind(" (line ") {
                Some(i) => msg[..i].to_string(),
                None => msg,
            }
        }
    };
    if pos.is_none() {
        format!("{path}: in {func}: {what}")
    } else {
        format!(
            "{path}:{}:{}: in {func}: {what}",
            pos.line().unwrap_or(0),
            pos.position().unwrap_or(0)
        )
    }
}

/// Converts a position to a script array.
pub fn to_array(p: &[u64]) -> Array {
    p.iter().map(|&x| Dynamic::from(x as i64)).collect()
}

/// Converts a script value to a position: an array of non-negative integers.
pub fn from_dynamic(v: &Dynamic) -> std::result::Result<Pos, String> {
    let arr = v
        .clone()
        .try_cast::<Array>()
        .ok_or_else(|| format!("expected an array of integers, got {}", v.type_name()))?;
    arr.iter()
        .map(|x| match x.as_int() {
            Ok(i) if i >= 0 => Ok(i as u64),
            Ok(i) => Err(format!("position entries must be non-negative, got {i}")),
            Err(t) => Err(format!("position entries must be integers, got {t}")),
        })
        .collect()
}

/// The measure every move of a script must lower when it defines no `rank`: the coordinate sum, then
/// the entries sorted largest first (lexicographically; a proper prefix is smaller). Both parts are
/// well-founded and so is their lexicographic product.
fn measure(p: &[u64]) -> (u128, Vec<u64>) {
    let mut v = p.to_vec();
    v.sort_unstable_by(|a, b| b.cmp(a));
    (p.iter().map(|&x| x as u128).sum(), v)
}

/// A game defined by a Rhai script.
pub struct ScriptedGame {
    path: String,
    name: String,
    digest: u64,
    engine: Engine,
    ast: AST,
    has_canonical: bool,
    has_validate: bool,
    has_rank: bool,
    /// Sampled option counts by position (see [`ScriptedGame::sampled_options`]), so that repeated
    /// estimates do not call the script again.
    samples: Mutex<std::collections::HashMap<Pos, Option<usize>>>,
    error: Mutex<Option<String>>,
}

impl ScriptedGame {
    pub fn load(path: &str) -> Result<ScriptedGame> {
        let (engine, ast, text) = compile(path)?;
        let has = |name: &str| {
            ast.iter_functions()
                .any(|f| f.name == name && f.params.len() == 1)
        };
        if !has("options") {
            return Err(Error::BadGame(format!(
                "{path}: a game script must define fn options(p), returning an array of positions"
            )));
        }
        let name = std::path::Path::new(path)
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_else(|| path.to_string());
        // FNV-1a of the text: the ruleset id changes whenever the script does.
        let digest = text.bytes().fold(0xcbf29ce484222325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100000001b3)
        });
        Ok(ScriptedGame {
            path: path.to_string(),
            name,
            digest,
            has_canonical: has("canonical"),
            has_validate: has("validate"),
            has_rank: has("rank"),
            samples: Mutex::new(Default::default()),
            engine,
            ast,
            error: Mutex::new(None),
        })
    }

    fn call(&self, func: &str, p: &[u64]) -> std::result::Result<Dynamic, String> {
        let mut scope = Scope::new();
        self.engine
            .call_fn::<Dynamic>(&mut scope, &self.ast, func, (to_array(p),))
            .map_err(|e| describe(&self.path, func, &e))
    }

    /// Records a failure of `canonical` (which cannot return an error); the next option generation
    /// reports it.
    fn fail(&self, msg: String) {
        let mut e = self.error.lock().unwrap_or_else(|x| x.into_inner());
        if e.is_none() {
            *e = Some(msg);
        }
    }

    /// The script's `rank(p)`: a non-negative integer.
    fn rank(&self, p: &[u64]) -> Result<u64> {
        let v = self.call("rank", p).map_err(Error::Script)?;
        match v.as_int() {
            Ok(r) if r >= 0 => Ok(r as u64),
            _ => Err(Error::Script(format!(
                "{}: rank({}) must return a non-negative integer, got {}",
                self.path,
                format_tuple(p),
                v
            ))),
        }
    }

    /// Refuses a move that does not descend in the script's measure (see the module notes).
    fn check_descent(&self, p: &[u64], opts: &[Pos]) -> Result<()> {
        if self.has_rank {
            let r = self.rank(p)?;
            for q in opts {
                let rq = self.rank(q)?;
                if rq >= r {
                    return Err(Error::BadGame(format!(
                        "{}: the move {} -> {} does not lower rank (rank {r} -> {rq}); every move must lower fn rank(p) so that the game ends",
                        self.path,
                        format_tuple(p),
                        format_tuple(q)
                    )));
                }
            }
            return Ok(());
        }
        let key = measure(p);
        for q in opts {
            if measure(q) >= key {
                return Err(Error::BadGame(format!(
                    "{}: the move {} -> {} does not descend, so the game might never end: every move must lower the coordinate sum, or keep it and lower the entries sorted largest first (as splitting a heap does), or lower a fn rank(p) that the script defines",
                    self.path,
                    format_tuple(p),
                    format_tuple(q)
                )));
            }
        }
        Ok(())
    }

    /// The number of options at a few positions below `p` (p scaled by 1/8, 2/8, ..., 1), the most
    /// seen; `None` when no sample could be taken.
    fn sampled_options(&self, p: &[u64]) -> Option<usize> {
        if let Some(&n) = self.samples.lock().ok()?.get(p) {
            return n;
        }
        let mut most = None;
        for i in 1..=8u128 {
            let q: Pos = p.iter().map(|&x| (x as u128 * i / 8) as u64).collect();
            if i < 8 && q == p {
                continue;
            }
            if self.validate(&q).is_err() {
                continue;
            }
            if let Ok(v) = self.call("options", &q) {
                if let Some(arr) = v.try_cast::<Array>() {
                    most = Some(most.unwrap_or(0).max(arr.len()));
                }
            }
        }
        if let Ok(mut cache) = self.samples.lock() {
            if cache.len() >= 4096 {
                cache.clear();
            }
            cache.insert(p.to_vec(), most);
        }
        most
    }

    fn failed(&self) -> bool {
        self.error.lock().map(|e| e.is_some()).unwrap_or(true)
    }

    fn earlier_failure(&self) -> Result<()> {
        match self.error.lock().ok().and_then(|e| e.clone()) {
            Some(msg) => Err(Error::Script(msg)),
            None => Ok(()),
        }
    }
}

impl Game for ScriptedGame {
    fn id(&self) -> String {
        format!("{}.rhai#{:08x}", self.name, self.digest as u32)
    }
    fn validate(&self, p: &[u64]) -> Result<()> {
        if self.has_validate {
            let v = self.call("validate", p).map_err(Error::BadPosition)?;
            if let Some(ok) = v.clone().try_cast::<bool>() {
                if !ok {
                    return Err(Error::BadPosition(format!(
                        "{}: validate rejects position {:?}",
                        self.path, p
                    )));
                }
            } else {
                return Err(Error::BadPosition(format!("{}: {}", self.path, v)));
            }
        }
        Ok(())
    }
    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        self.earlier_failure()?;
        let v = self.call("options", p).map_err(Error::Script)?;
        let Some(arr) = v.clone().try_cast::<Array>() else {
            return Err(Error::Script(format!(
                "{}: options must return an array of positions, got {}",
                self.path,
                v.type_name()
            )));
        };
        let mut opts = Vec::with_capacity(arr.len());
        for q in &arr {
            match from_dynamic(q) {
                Ok(q) => opts.push(q),
                Err(e) => {
                    return Err(Error::Script(format!(
                        "{}: options({p:?}) returned a bad position: {e}",
                        self.path
                    )))
                }
            }
        }
        self.check_descent(p, &opts)?;
        for q in &opts {
            if f(q).is_break() {
                return Ok(());
            }
        }
        Ok(())
    }
    fn deferred_error(&self) -> Result<()> {
        self.earlier_failure()
    }
    fn canonical(&self, p: &[u64]) -> Pos {
        if !self.has_canonical || self.failed() {
            return p.to_vec();
        }
        match self.call("canonical", p).and_then(|v| from_dynamic(&v)) {
            Ok(q) => {
                // A representative above its position in the measure could undo a move's descent
                // (p -> q, then canonical(q) back to p): refused like a move that does not descend.
                let above = if self.has_rank {
                    match (self.rank(&q), self.rank(p)) {
                        (Ok(a), Ok(b)) => a > b,
                        _ => true,
                    }
                } else {
                    measure(&q) > measure(p)
                };
                if above {
                    self.fail(format!(
                        "{}: canonical({}) = {} lies above its position in the measure every move must lower (the coordinate sum, or the script's rank), so moves might never end; canonical must give a position of the same class that is not larger",
                        self.path,
                        format_tuple(p),
                        format_tuple(&q)
                    ));
                    return p.to_vec();
                }
                q
            }
            Err(e) => {
                self.fail(format!("{}: canonical: {e}", self.path));
                p.to_vec()
            }
        }
    }
    fn branching_bound(&self, p: &[u64]) -> f64 {
        // Sampled, not a bound: the default (every position below p) would put a subtraction game
        // at heap 10^6 at 10^12 option visits.
        match self.sampled_options(p) {
            Some(n) => n.max(1) as f64,
            None => self.state_bound(p),
        }
    }
    fn table_bound(&self) -> TableBound {
        // A script's positions have any length: `table` takes it from --heaps.
        TableBound::Box { heaps: true }
    }
    fn table_domain(&self, hi: u64, len: Option<usize>) -> Result<BoxDomain> {
        let Some(m) = len else {
            return Err(Error::refused(
                nimlab_core::Refusal::new("table of a scripted game needs the position length: ")
                    .given(nimlab_core::Arg::Heaps)
                    .text(format!(" ({})", self.path)),
            ));
        };
        Ok(BoxDomain {
            lengths: vec![m],
            lo: 0,
            hi,
        })
    }
    fn rules(&self) -> String {
        format!("defined by the script {}", self.path)
    }
}
