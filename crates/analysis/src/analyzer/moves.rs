//! The winning moves and the options of a position: a proven result's complete list when it has one,
//! else every option counted, listed and valued by the chain within the limits, else the construction
//! of a proven result or of a proved characterization (marked incomplete), else a refusal that says
//! why.

use super::Analyzer;
use crate::{lift, Analysis, Chain, Method, OptionValue, Want};
use nimlab_core::{Error, Game, Outcome, Play, Pos, Result, Solver};

impl Analyzer {
    /// The winning moves when a proven result lists every one (or proves `p` is P), without listing
    /// options.
    fn theorem_moves(chain: &Chain, p: &[u64]) -> Option<(Vec<Pos>, Method)> {
        let (id, v) = chain.verdict(p)?;
        let m = Method::theorem(&id)?;
        if v.is_p {
            return Some((Vec::new(), m));
        }
        if !v.all_winning_moves {
            return None;
        }
        let mut w = v.winning_moves?;
        w.sort();
        w.dedup();
        Some((w, m))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn moves(
        &self,
        chain: &Chain,
        solver: &mut Solver,
        game: &dyn Game,
        p: &[u64],
        play: Play,
        want: Want,
        full: bool,
        a: &mut Analysis,
    ) -> Result<()> {
        if !want.options {
            if let Some((w, m)) = Self::theorem_moves(chain, p) {
                a.winning_moves = Some(w);
                a.winning_moves_complete = true;
                a.moves_method = Some(m);
                return Ok(());
            }
            // A stored one-heap sequence values every option by look-ups: the winning moves
            // without valuing every option through the chain.
            if let Some(s) = chain.stored_sequence().filter(|_| play == Play::Normal) {
                if let Some((w, complete)) = s.winning_moves(game, p, self.limits.options) {
                    a.winning_moves = Some(w);
                    a.winning_moves_complete = complete;
                    a.moves_method = Some(s.method());
                    return Ok(());
                }
            }
        }
        // Count before listing: a position with 10^18 options is never enumerated.
        let counted = game.count_options(p);
        let listed = match counted {
            Some(n) if n > self.limits.options as u128 => None,
            _ => game.options_at_most(p, self.limits.options)?,
        };
        // Every option can be valued when the chain decides the options, or a search fits the budget.
        let affordable = chain.decides_everything() || {
            let est = solver.work_estimate(p, play == Play::Misere);
            est <= self.limits.budget.limit
        };
        match listed {
            Some(mut opts) if affordable => {
                opts.sort();
                let mut method: Option<Method> = None;
                let mut values = Vec::with_capacity(opts.len());
                for q in opts {
                    let (outcome, g, how) = match chain.root(&q, play) {
                        Some(k)
                            if !(want.options && play == Play::Normal && k.grundy.is_none()) =>
                        {
                            (k.outcome, k.grundy, k.method)
                        }
                        _ if play == Play::Normal && want.options => {
                            let g = match chain.known_grundy(&q) {
                                Some((g, m)) => (g, m),
                                None => (u128::from(solver.grundy(&q)?), Method::Search),
                            };
                            (Outcome::from_is_p(g.0 == 0), Some(g.0), g.1)
                        }
                        _ => (solver.outcome(&q, play)?, None, Method::Search),
                    };
                    let r = if full {
                        Some(solver.full(&q)?.remoteness(play))
                    } else {
                        None
                    };
                    method = Some(match method {
                        None => how,
                        Some(m) => m.and(how),
                    });
                    values.push(OptionValue {
                        to: q,
                        outcome,
                        grundy: g,
                        remoteness: r,
                    });
                }
                a.winning_moves = Some(
                    values
                        .iter()
                        .filter(|v| v.outcome.is_p())
                        .map(|v| v.to.clone())
                        .collect(),
                );
                a.winning_moves_complete = true;
                a.moves_method = Some(method.unwrap_or_else(|| a.method.clone()));
                if want.options {
                    a.options = Some(values);
                }
                Ok(())
            }
            _ => {
                let how_many = match counted {
                    Some(n) => format!("{n} options"),
                    None => format!("more than {} options", self.limits.options),
                };
                // Too many options to value one by one: the theorem's construction, if any.
                if want.options {
                    return Err(match listed {
                        None => Error::TooLarge(format!(
                            "{} {} has {how_many}, too many to list (at most {})",
                            game.id(),
                            game.format_position(p),
                            self.limits.options
                        )),
                        Some(_) => {
                            let est = solver.work_estimate(p, play == Play::Misere);
                            lift(
                                self.limits.budget,
                                est,
                                format!(
                                    "valuing every option of {} {} needs a search of about {est:.1e} option visits, above the limit of {:.1e}",
                                    game.id(),
                                    game.format_position(p),
                                    self.limits.budget.limit,
                                ),
                                " to search anyway",
                                "",
                            )
                        }
                    });
                }
                let proved = match &a.method {
                    Method::Characterization { id, .. } if !a.outcome.is_p() => chain
                        .proved()
                        .iter()
                        .find(|c| c.id == *id)
                        .and_then(|c| c.winning_move(game, p).map(|q| (q, c.method()))),
                    _ => None,
                };
                match chain.verdict(p) {
                    Some((id, v)) if v.winning_moves.is_some() => {
                        let mut w = v.winning_moves.clone().unwrap_or_default();
                        w.sort();
                        w.dedup();
                        a.winning_moves = Some(w);
                        a.winning_moves_complete = v.all_winning_moves || v.is_p;
                        a.moves_method = Method::theorem(&id);
                        Ok(())
                    }
                    None if proved.is_some() => {
                        let (q, m) = proved.expect("a move");
                        // One winning move, found in the characterization's automaton (or
                        // among the options): not the list of all of them.
                        a.winning_moves = Some(vec![q]);
                        a.winning_moves_complete = false;
                        a.moves_method = Some(m);
                        Ok(())
                    }
                    _ if a.outcome.is_p() => {
                        a.winning_moves = Some(Vec::new());
                        a.winning_moves_complete = true;
                        a.moves_method = Some(a.method.clone());
                        Ok(())
                    }
                    _ if want.moves => Err(Error::TooLarge(format!(
                        "{} {} is {} ({}), but its winning moves cannot be listed here: {} and no proven result constructs them",
                        game.id(),
                        game.format_position(p),
                        a.outcome,
                        a.method,
                        match listed {
                            None => format!("it has {how_many}"),
                            Some(_) => "valuing its options needs a search above the limit".into(),
                        }
                    ))),
                    _ => Ok(()),
                }
            }
        }
    }
}
