//! Answers from a one-heap Grundy sequence kept in the store (`nimlab sequence` writes them; see
//! `nimlab_tables::sequences`): a list of heaps of an octal, subtraction or Grundy's game whose
//! heaps all lie within the stored g(0..=n) is worth the XOR of their values (Sprague–Grundy), and
//! its winning moves are the options worth 0, each valued by the same look-ups. The chain asks it
//! after the proven results and before the search ([`Method::StoredSequence`]).

use crate::Method;
use nimlab_core::{Game, Pos};
use nimlab_games::octal::OctalGame;
use nimlab_tables::store::Store;
use std::ops::ControlFlow;

/// Values are loaded for one question up to this heap (256 MiB).
const LOAD_CAP: u64 = 1 << 26;

/// The stored values g(0..=upto) of one game, for the heaps of one position and its options.
pub struct StoredSequence {
    /// The stored sequence's id and its largest heap n (g(0..=n) stored).
    pub id: i64,
    pub n: u64,
    values: Vec<u32>,
}

impl StoredSequence {
    /// The stored values of `game` up to heap `upto` (or as far as the store holds them: positions
    /// with a heap past them are not answered here, but their options may be).
    pub fn load(store: &Store, game: &dyn Game, upto: u64) -> Option<StoredSequence> {
        let octal = game.downcast_ref::<OctalGame>()?;
        let e = store.sequence(&octal.sequence_key()).ok()??;
        let upto = upto.min(e.n).min(LOAD_CAP);
        let values = store.sequence_values(&e, upto).ok()?;
        (values.len() as u64 == upto + 1).then_some(StoredSequence {
            id: e.id,
            n: e.n,
            values,
        })
    }

    pub fn method(&self) -> Method {
        Method::StoredSequence {
            id: self.id,
            n: self.n,
        }
    }

    /// The value of the list of heaps `p`: the XOR of the heaps' values (`None` when a heap lies
    /// past the values loaded).
    pub fn value(&self, p: &[u64]) -> Option<u128> {
        p.iter()
            .try_fold(0u32, |x, &h| {
                let v = self.values.get(usize::try_from(h).ok()?)?;
                Some(x ^ v)
            })
            .map(u128::from)
    }

    /// The winning moves of `p` (its options worth 0), in the game's order of options, sorted:
    /// every one when there are at most `cap` (then `true`), else the first `cap`. `None` when a
    /// heap of `p` lies past the values.
    pub fn winning_moves(
        &self,
        game: &dyn Game,
        p: &[u64],
        cap: usize,
    ) -> Option<(Vec<Pos>, bool)> {
        if self.value(p)? == 0 {
            return Some((Vec::new(), true));
        }
        let mut w: Vec<Pos> = Vec::new();
        let mut complete = true;
        let mut missing = false;
        game.for_each_option(p, &mut |q| {
            match self.value(q) {
                Some(0) if w.len() >= cap => {
                    complete = false;
                    return ControlFlow::Break(());
                }
                Some(0) => w.push(q.to_vec()),
                Some(_) => {}
                None => {
                    missing = true;
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        })
        .ok()?;
        if missing {
            return None;
        }
        w.sort();
        w.dedup();
        Some((w, complete))
    }
}
