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

/// A game defined by a Rhai script.
pub struct ScriptedGame {
    path: String,
    name: String,
    digest: u64,
    engine: Engine,
    ast: AST,
    has_canonical: bool,
    has_validate: bool,
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
        for q in &opts {
            if f(q).is_break() {
                return Ok(());
            }
        }
        Ok(())
    }
    fn canonical(&self, p: &[u64]) -> Pos {
        if !self.has_canonical || self.failed() {
            return p.to_vec();
        }
        match self.call("canonical", p).and_then(|v| from_dynamic(&v)) {
            Ok(q) => q,
            Err(e) => {
                self.fail(format!("{}: canonical: {e}", self.path));
                p.to_vec()
            }
        }
    }
    fn table_bound(&self) -> TableBound {
        // A script's positions have any length: `table` takes it from --heaps.
        TableBound::Box { heaps: true }
    }
    fn table_domain(&self, hi: u64, len: Option<usize>) -> Result<BoxDomain> {
        let Some(m) = len else {
            return Err(Error::Unsupported(format!(
                "table of a scripted game needs the position length: --heaps N ({})",
                self.path
            )));
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
