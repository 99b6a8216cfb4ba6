//! A conjectured P-set written by a user: a Rhai file defining `fn is_p(p)`, where `p` is the position
//! as an array of integers, returning a bool. Runs under the limits of [`nimlab_games::script`].

use nimlab_core::{Error, Result};
use nimlab_games::script::{compile, describe, to_array};
use rhai::{Engine, Scope, AST};

pub struct ScriptPredicate {
    path: String,
    engine: Engine,
    ast: AST,
}

impl ScriptPredicate {
    pub fn load(path: &str) -> Result<ScriptPredicate> {
        let (engine, ast, _) = compile(path)?;
        if !ast
            .iter_functions()
            .any(|f| f.name == "is_p" && f.params.len() == 1)
        {
            return Err(Error::BadGame(format!(
                "{path}: a conjecture file must define fn is_p(p), returning true for the conjectured P-positions"
            )));
        }
        Ok(ScriptPredicate {
            path: path.to_string(),
            engine,
            ast,
        })
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    /// Whether the conjecture puts `p` in its P-set.
    pub fn is_p(&self, p: &[u64]) -> Result<bool> {
        let mut scope = Scope::new();
        let v = self
            .engine
            .call_fn::<rhai::Dynamic>(&mut scope, &self.ast, "is_p", (to_array(p),))
            .map_err(|e| Error::BadGame(describe(&self.path, "is_p", &e)))?;
        v.as_bool().map_err(|t| {
            Error::BadGame(format!(
                "{}: is_p({p:?}) returned {t}, not a bool",
                self.path
            ))
        })
    }
}
