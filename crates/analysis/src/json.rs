//! Every answer's JSON form, built once: the command line's `--json`, the web API and Python print
//! exactly these objects (Python turns them into dicts).
//!
//! - a position's analysis ([`Analysis::to_json`]): `game`, `position`, `play`, `outcome`, `method`,
//!   `terminal`, `grundy`, `grundy_method`, `grundy_note` (why no value is given: null when one is,
//!   or in misère play), `remoteness`, `suspense` (null when not computed); with moves asked also
//!   `winning_moves`, `winning_moves_complete`, `moves_method`; with options `options` (each
//!   `position`, `outcome`, `winning`, `grundy`, `remoteness`); with an explanation `explanation`
//!   ([`Explanation::to_json`]);
//! - sums ([`crate::sums::SumReport::to_json`]), checks ([`crate::verify::to_json`]);
//! - the games catalogue ([`catalogue`]) and the proven results ([`theory`]).
//!
//! Methods are written by [`Method::id`]; keys are always present (null when unknown), never absent.

use crate::{Analysis, Explanation, Method, OptionValue};
use nimlab_core::{Game, Result};
use serde_json::{json, Value};

fn method_json(m: &Option<Method>) -> Value {
    m.as_ref().map_or(Value::Null, Method::to_json)
}

impl Explanation {
    /// `method`, `statement`, `source` (null for the search, the store and the engine), `family`,
    /// `reason`, `winning_move` (the move the reason names, null for a P-position).
    pub fn to_json(&self) -> Value {
        json!({
            "method": self.method.to_json(),
            "statement": self.statement,
            "source": self.source,
            "family": self.family,
            "reason": self.reason,
            "winning_move": self.winning_move,
        })
    }
}

impl OptionValue {
    pub fn to_json(&self) -> Value {
        json!({
            "position": self.to,
            "outcome": self.outcome.to_string(),
            "winning": self.outcome.is_p(),
            "grundy": self.grundy,
            "remoteness": self.remoteness,
        })
    }
}

impl Analysis {
    /// The answer as the JSON object every front end prints (see the module notes).
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "game": self.game,
            "position": self.position,
            "play": self.play.name(),
            "outcome": self.outcome.to_string(),
            "method": self.method.to_json(),
            "terminal": self.terminal,
            "grundy": self.grundy,
            "grundy_method": method_json(&self.grundy_method),
            "grundy_note": self.grundy_note,
            "remoteness": self.remoteness,
            "suspense": self.suspense,
        });
        if self.asked.moves || self.asked.options {
            v["winning_moves"] = json!(self.winning_moves);
            v["winning_moves_complete"] = json!(self.winning_moves_complete);
            v["moves_method"] = method_json(&self.moves_method);
        }
        if self.asked.options {
            v["options"] = self
                .options
                .iter()
                .flatten()
                .map(OptionValue::to_json)
                .collect();
        }
        if self.asked.explain {
            v["explanation"] = self
                .explanation
                .as_ref()
                .map_or(Value::Null, Explanation::to_json);
        }
        v
    }
}

/// The built-in games: `name`, `title`, `parameters`, `position`, `example`, `rules`, `source`,
/// `presets` (the instances the web page offers).
pub fn catalogue() -> Value {
    nimlab_games::registry::catalogue()
        .iter()
        .map(|e| {
            json!({
                "name": e.name, "title": e.title, "parameters": e.parameters,
                "position": e.position, "example": e.example, "rules": e.rules,
                "source": e.source, "presets": e.presets,
            })
        })
        .collect()
}

/// The proven results nimlab uses, or those covering `game`: `id`, `games`, `play`, `statement`,
/// `source`, `complete` (whether it decides every position of its games), `checked` (how nimlab
/// checked it) and `proved_on`; for Empty & Redistribute (`game` ER(k)) the ER entry adds `details`,
/// the objects of Ferguson's Proposition 8.
pub fn theory(game: Option<&dyn Game>) -> Value {
    let mut v: Vec<Value> = nimlab_theory::all()
        .iter()
        .filter(|t| game.is_none_or(|g| t.covers(g)))
        .map(|t| {
            let (checked, proved_on) = nimlab_prove::proved::checked(t.id());
            json!({
                "id": t.id(), "games": t.games(), "play": t.play().name(),
                "statement": t.statement(), "source": t.source(),
                "complete": t.scope() != nimlab_theory::Scope::Partial,
                "checked": checked, "proved_on": proved_on,
            })
        })
        .collect();
    if let Some(e) = game.and_then(crate::er_summary_of) {
        let details = json!({
            "k": e.k, "f": e.f,
            "R": e.r.iter().map(|&n| n as u64).collect::<Vec<_>>(),
            "S": e.s.iter().map(|&n| n as u64).collect::<Vec<_>>(),
            "x": e.x.iter().map(|&(n, v, z)| json!({"n": n as u64, "v": v as u64, "z": z as u64})).collect::<Vec<_>>(),
            "up_to": e.upto as u64,
        });
        for entry in v.iter_mut().filter(|x| x["id"] == "ferguson-er") {
            entry["details"] = details.clone();
        }
    }
    Value::Array(v)
}

/// The game named `name` for [`theory`] (an error for an unknown name).
pub fn theory_of(name: Option<&str>) -> Result<Value> {
    match name {
        None => Ok(theory(None)),
        Some(n) => {
            let g = nimlab_games::parse_game(n)?;
            Ok(theory(Some(g.as_ref())))
        }
    }
}
