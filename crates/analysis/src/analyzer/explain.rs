//! The explanation of an answer ([`crate::Explanation`]): the proven result that decides the position
//! in its own words, a proved characterization's rule, or what the search found.

use super::Analyzer;
use crate::{Analysis, Chain, Explanation, Method};
use nimlab_core::{Game, Play, Pos};

impl Analyzer {
    pub(super) fn explanation(
        &self,
        chain: &Chain,
        game: &dyn Game,
        p: &[u64],
        play: Play,
        a: &Analysis,
    ) -> Explanation {
        // The game's one notation (chip games: Ferguson's `1^7`), as on the web page and in Python.
        let fmt = |q: &Pos| game.format_like(q, "^");
        let first = a.winning_moves.as_ref().and_then(|w| w.first());
        if let Some((id, v)) = chain.verdict(p) {
            let t = chain.theorem(&id);
            let mut reason = v.reason.clone().unwrap_or_else(|| {
                if v.is_p {
                    format!("P: the position is in the P-set that {id} describes")
                } else {
                    format!("N: the position is outside the P-set that {id} describes")
                }
            });
            // The move the reason names: the theorem's own construction first.
            let named = v.winning_moves.as_ref().and_then(|w| w.first()).or(first);
            if !v.is_p && v.reason.is_none() {
                if let Some(q) = named {
                    reason.push_str(&format!("; the move to {} lands in it", fmt(q)));
                }
            }
            return Explanation {
                method: Method::theorem(&id).unwrap_or(Method::Search),
                statement: t.map(|t| t.statement().to_string()),
                source: t.map(|t| t.source().to_string()),
                family: v.family.clone(),
                reason,
                winning_move: if v.is_p { None } else { named.cloned() },
            };
        }
        let by = &a.method;
        // A characterization given as an automaton: its rule in words, when it reads as one.
        let rule = match by {
            Method::Characterization { id, .. } => chain
                .proved()
                .iter()
                .find(|c| c.id == *id)
                .and_then(|c| c.rule()),
            _ => None,
        };
        let reason = if let (Method::Characterization { id, .. }, false) = (by, a.terminal) {
            if a.outcome.is_p() {
                format!("P: in the proved set (characterization #{id}), so every move leaves it")
            } else if let Some(q) = first {
                format!(
                    "N: outside the proved set (characterization #{id}); the move to {} lands in it",
                    fmt(q)
                )
            } else {
                format!("N: outside the proved set (characterization #{id}), which holds every P-position")
            }
        } else if a.terminal {
            match play {
                Play::Normal => {
                    "P: no move is left, and in normal play the player to move loses".to_string()
                }
                Play::Misere => {
                    "N: no move is left, and in misère play the player to move wins".to_string()
                }
            }
        } else if a.outcome.is_p() {
            format!("P: no proven result known to nimlab decides this position; {by} finds that every move leads to an N-position")
        } else if let Some(q) = first {
            format!("N: no proven result known to nimlab decides this position; {by} finds the winning move to {}, a P-position", fmt(q))
        } else {
            format!("N: decided by {by}")
        };
        Explanation {
            method: a.method.clone(),
            statement: rule,
            source: None,
            family: None,
            reason,
            winning_move: if a.outcome.is_p() {
                None
            } else {
                first.cloned()
            },
        }
    }
}
