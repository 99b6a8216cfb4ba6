//! The cost model: estimated seconds of each exact way to find a Grundy value, so that `grundy` takes
//! the cheapest and `outcome` shows a value only when one comes cheaply.
//!
//! Two computations find a Grundy value nobody stored or proved:
//!
//! - the search, from the solver's estimate of option visits ([`Solver::work_estimate`], an upper
//!   bound: positions below × options each);
//! - a Grundy table of the smallest box `[0..max p]^len` that holds the position, by the tables
//!   engine ([`nimlab_tables::grundy`]), where the engine covers the game (window and face games:
//!   CN, Nim, Moore's Nim, complexes): about one word operation per (position, face entry); for
//!   games every permutation of the stacks keeps (Nim, Moore's Nim) the engine computes and keeps
//!   the sorted tuples alone, about ten times slower a step but `len!` times fewer of them, and the
//!   value is read at the position's sorted entries.
//!
//! The constants were measured on the development machine (2 cores; docs/benchmarks.md, "The cost
//! model"): the search makes roughly 10^8 estimated option visits per second (the estimate is an upper
//! bound, and a search's real speed depends on how much of it fits the caches), the engine about 10^9
//! (position, face entry) steps per second on both cores.

use nimlab_core::{BoxDomain, Error, Game, MoveStructure, Result, Solver};
use nimlab_tables::grundy;
use nimlab_tables::pset::{self, Rules};

/// Seconds per estimated option visit of the search.
pub const SEARCH_SECONDS_PER_VISIT: f64 = 1e-8;
/// Seconds per (position, face entry) step of the Grundy engine.
pub const TABLE_SECONDS_PER_STEP: f64 = 1e-9;
/// Seconds per (sorted tuple, face entry) step of the Grundy engine on a game every permutation of
/// the stacks keeps (Nim, Moore's Nim: [`grundy::is_sorted`]), which computes and keeps the sorted
/// tuples alone.
pub const SORTED_SECONDS_PER_STEP: f64 = 1e-8;
/// Seconds per (position, face entry) step of the Grundy engine on SCN's circles, where the moves that
/// empty piles cost more than the window steps they are counted with.
pub const CIRCLE_TABLE_SECONDS_PER_STEP: f64 = 8e-9;
/// A computation estimated at most this long is "cheap": `outcome` and the web page's values show
/// its Grundy value without being asked (well under a second). At this size a search (10^7 visits)
/// fits every front end's budget; a cheap Grundy table also has at most [`CHEAP_TABLE_POSITIONS`]
/// positions, within every front end's box limit, so that whether a value is cheap does not depend
/// on the front end.
pub const CHEAP_SECONDS: f64 = 0.1;
/// Most positions of a Grundy table computed for a cheap value (the smallest box limit of the front
/// ends, the terminal game's).
pub const CHEAP_TABLE_POSITIONS: f64 = 2e7;

/// The cheaper of the search and a Grundy table of at most `max_positions` positions.
pub fn cheapest_route(game: &dyn Game, solver: &Solver, p: &[u64], max_positions: f64) -> Route {
    let search = search_route(solver, p);
    match table_route(game, p, max_positions) {
        Some(t) if t.seconds() < search.seconds() => t,
        _ => search,
    }
}

/// The cheapest route to `p`'s Grundy value when it is cheap ([`CHEAP_SECONDS`]), the same in every
/// front end.
pub fn cheap_route(game: &dyn Game, solver: &Solver, p: &[u64]) -> Option<Route> {
    let best = cheapest_route(game, solver, p, CHEAP_TABLE_POSITIONS);
    (best.seconds() <= CHEAP_SECONDS).then_some(best)
}

/// One exact way to compute a Grundy value, with its estimated cost.
#[derive(Debug, Clone, PartialEq)]
pub enum Route {
    /// Exhaustive search: `visits` estimated option visits.
    Search { visits: f64 },
    /// A Grundy table of `[0..hi]^len` by the engine with these faces.
    Table {
        hi: u64,
        len: usize,
        faces: Vec<Vec<usize>>,
        positions: f64,
    },
    /// A Grundy table of `[0..hi]^len` of a game every permutation of the stacks keeps (Nim, Moore's
    /// Nim: [`grundy::is_sorted`]) by the engine, kept as the values of its `positions` sorted tuples.
    Classes {
        hi: u64,
        len: usize,
        faces: Vec<Vec<usize>>,
        positions: f64,
    },
    /// A Grundy table of the circles of SCN(len, k) with piles of `1..=hi` tokens, every length
    /// `0..=len`, by the engine.
    Circles {
        hi: u64,
        len: usize,
        k: usize,
        positions: f64,
    },
}

impl Route {
    /// Estimated seconds.
    pub fn seconds(&self) -> f64 {
        match self {
            Route::Search { visits } => visits * SEARCH_SECONDS_PER_VISIT,
            Route::Table {
                faces, positions, ..
            } => positions * per_position(faces) * TABLE_SECONDS_PER_STEP,
            Route::Classes {
                faces, positions, ..
            } => positions * per_position(faces) * SORTED_SECONDS_PER_STEP,
            Route::Circles { hi, len, k, .. } => {
                // Each length m has hi^m circles and faces of min(k, m) piles at m starts (one face
                // when m <= k).
                (1..=*len)
                    .map(|m| {
                        let per = if m <= *k { m } else { m * k };
                        (*hi as f64).powi(m as i32) * per as f64
                    })
                    .sum::<f64>()
                    * CIRCLE_TABLE_SECONDS_PER_STEP
            }
        }
    }

    /// A table route's box: its largest entry and its stacks (`None` for the search).
    pub fn table_box(&self) -> Option<(u64, usize)> {
        match self {
            Route::Search { .. } => None,
            Route::Table { hi, len, .. }
            | Route::Classes { hi, len, .. }
            | Route::Circles { hi, len, .. } => Some((*hi, *len)),
        }
    }

    /// A table route's Grundy table, computed by the engine in its order (the search has none).
    pub fn solve_table(&self) -> Result<Vec<u16>> {
        let too_wide = || Error::TooLarge("a box too wide for a Grundy table".into());
        let hooks = nimlab_tables::lines::Hooks::default;
        match self {
            Route::Search { .. } => Err(Error::TooLarge("the search has no Grundy table".into())),
            Route::Table { hi, len, faces, .. } => {
                let r = usize::try_from(*hi + 1).map_err(|_| too_wide())?;
                nimlab_tables::grundy::solve(*len, r, faces, hooks())
                    .map_err(|_| Error::Interrupted)
            }
            Route::Classes { hi, len, faces, .. } => {
                let r = usize::try_from(*hi + 1).map_err(|_| too_wide())?;
                grundy::solve_classes(*len, r, faces, hooks()).map_err(|e| match e {
                    nimlab_tables::lines::Stop::Beyond(r) => Error::too_large(r),
                    _ => Error::Interrupted,
                })
            }
            Route::Circles { hi, len, k, .. } => {
                let r = usize::try_from(*hi).map_err(|_| too_wide())?;
                nimlab_tables::grundy::solve_shrinking(*len, *k, r, hooks())
                    .map_err(|_| Error::Interrupted)
            }
        }
    }

    /// The Grundy value of `p` read from this route's table (`None` for the search, or outside it).
    pub fn table_value(&self, values: &[u16], p: &[u64]) -> Option<u64> {
        match self {
            Route::Search { .. } => None,
            Route::Table { hi, .. } => table_value(values, *hi, p),
            Route::Classes { hi, .. } => {
                let r = usize::try_from(hi.checked_add(1)?).ok()?;
                let at = grundy::class_index(p, r)?;
                values.get(at).map(|&v| u64::from(v))
            }
            Route::Circles { hi, .. } => circle_value(values, *hi, p),
        }
    }

    /// How it is named in answers.
    pub fn method(&self) -> crate::Method {
        match self {
            Route::Search { .. } => crate::Method::Search,
            Route::Table { hi, len, .. } | Route::Classes { hi, len, .. } => {
                crate::Method::GrundyTable { hi: *hi, len: *len }
            }
            Route::Circles { hi, len, .. } => {
                crate::Method::CircleGrundyTable { hi: *hi, len: *len }
            }
        }
    }
}

/// The Grundy table route for `p`, when the engine covers the smallest box that holds it and the box
/// has at most `max_positions` positions. For SCN the box is every circle of at most `p.len()` piles
/// of `1..=max p` tokens (a move never lengthens a circle).
pub fn table_route(game: &dyn Game, p: &[u64], max_positions: f64) -> Option<Route> {
    let hi = p.iter().copied().max()?;
    let len = p.len();
    if let Some(MoveStructure::ShrinkingWindows { .. }) = game.move_structure(len) {
        let d = BoxDomain {
            lengths: (0..=len).collect(),
            lo: 1,
            hi,
        };
        let positions = d.size_f64();
        if p.contains(&0) || positions > max_positions {
            return None;
        }
        return match pset::rules_for(game, &d)? {
            Rules::Shrinking { n, k } if n == len => Some(Route::Circles {
                hi,
                len,
                k,
                positions,
            }),
            _ => None,
        };
    }
    let d = game.table_domain(hi, Some(len)).ok()?;
    if d.lengths != [len] || d.lo != 0 || d.hi != hi {
        return None;
    }
    let Rules::Windows { m, windows } = pset::rules_for(game, &d)? else {
        return None;
    };
    if m != len {
        return None;
    }
    // A game every permutation of the stacks keeps: only the sorted tuples are computed and kept.
    let r = usize::try_from(hi.checked_add(1)?).ok()?;
    let sorted = grundy::is_sorted(len, r, &windows);
    let positions = if sorted {
        grundy::computed_positions(len, r, &windows)
    } else {
        d.size_f64()
    };
    if positions > max_positions {
        return None;
    }
    Some(if sorted {
        Route::Classes {
            hi,
            len,
            faces: windows,
            positions,
        }
    } else {
        Route::Table {
            hi,
            len,
            faces: windows,
            positions,
        }
    })
}

/// Face entries of all the faces (at least one): the engine's steps a position.
fn per_position(faces: &[Vec<usize>]) -> f64 {
    faces.iter().map(|f| f.len()).sum::<usize>().max(1) as f64
}

/// The search route for `p`.
pub fn search_route(solver: &Solver, p: &[u64]) -> Route {
    Route::Search {
        visits: solver.work_estimate(p, false),
    }
}

/// The Grundy value of the circle `p` read from a table of SCN's circles of `0..=len` piles of
/// `1..=hi` tokens ([`nimlab_tables::grundy::solve_shrinking`]'s order: the empty circle, then each
/// length in turn, lexicographic in the entries minus 1).
pub fn circle_value(values: &[u16], hi: u64, p: &[u64]) -> Option<u64> {
    let mut before: u64 = 1;
    for m in 1..p.len() {
        before = before.checked_add(hi.checked_pow(u32::try_from(m).ok()?)?)?;
    }
    let mut idx: u64 = 0;
    for &x in p {
        if x == 0 || x > hi {
            return None;
        }
        idx = idx.checked_mul(hi)?.checked_add(x - 1)?;
    }
    let at = if p.is_empty() {
        0
    } else {
        before.checked_add(idx)?
    };
    values.get(usize::try_from(at).ok()?).map(|&v| u64::from(v))
}

/// The Grundy value of `p` read from a table of `[0..hi]^len` in the engine's order (lexicographic).
pub fn table_value(values: &[u16], hi: u64, p: &[u64]) -> Option<u64> {
    let r = hi.checked_add(1)?;
    let mut idx: u64 = 0;
    for &x in p {
        if x > hi {
            return None;
        }
        idx = idx.checked_mul(r)?.checked_add(x)?;
    }
    values
        .get(usize::try_from(idx).ok()?)
        .map(|&v| u64::from(v))
}
