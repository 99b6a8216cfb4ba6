//! Complexes that split: three results about Nim on a complex whose structure makes it a sum or a
//! mirror game, one per file.
//!
//! * [`simplices`]: facets pairwise disjoint, so Nim on the facet totals ([`Simplices`]);
//! * [`components`]: parts that share no stack, each answered by a complete result ([`Components`]);
//! * [`mirror`]: an antipodal pairing of the stacks, the mirror strategy ([`Mirror`]).
//!
//! The structure of a complex is found once per complex and kept in a small cache (`cached`).

pub mod components;
pub mod mirror;
pub mod simplices;

pub use components::Components;
pub use mirror::Mirror;
pub use simplices::Simplices;

use nimlab_core::Game;
use nimlab_games::complex::Complex;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// What a structural entry found about each complex, by the complex's name (at most 1024 kept).
type Cache<T> = OnceLock<Mutex<HashMap<String, Option<Arc<T>>>>>;

/// `build` of `game` when it is a complex, computed once per complex.
fn cached<T>(
    cache: &'static Cache<T>,
    game: &dyn Game,
    build: impl FnOnce(&Complex) -> Option<T>,
) -> Option<Arc<T>> {
    let c = game.downcast_ref::<Complex>()?;
    let id = c.id();
    let cache = cache.get_or_init(Default::default);
    if let Some(s) = cache.lock().ok()?.get(&id) {
        return s.clone();
    }
    // Built without holding the lock: building may look up the parts of the complex here again.
    let s = build(c).map(Arc::new);
    if let Ok(mut m) = cache.lock() {
        if m.len() < 1024 {
            m.insert(id, s.clone());
        }
    }
    s
}

pub(crate) fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
