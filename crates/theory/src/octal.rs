//! Theorem octal-periodic: a list of heaps of an octal or subtraction game is worth the XOR of its
//! heaps' values, and where the game's Grundy sequence is proved periodic on a computed prefix (the
//! Guy–Smith periodicity theorem, or a repeated window for games that never split a heap; see
//! docs/rules.md) the value of a heap of any size is read off the period.

use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::octal::OctalGame;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The longest prefix of heaps computed to look for a proved period.
pub const PREFIX: u64 = 4096;
/// Most option visits spent on that prefix (a shorter prefix is computed when the full one would
/// cost more).
const WORK: f64 = 2e7;

/// A proved period: the values g(0..=N), and g(n + period) = g(n) for every n >= preperiod.
#[derive(Debug)]
pub struct Periodic {
    pub values: Vec<u32>,
    pub preperiod: u64,
    pub period: u64,
}

impl Periodic {
    /// g(n) for any heap size.
    pub fn value(&self, n: u64) -> u64 {
        let v = match usize::try_from(n).ok().and_then(|i| self.values.get(i)) {
            Some(&v) => v,
            None => self.values[(self.preperiod + (n - self.preperiod) % self.period) as usize],
        };
        u64::from(v)
    }
}

/// The proved period of `game`, computed once per game and kept; `None` when the prefix shows
/// none that a proof covers.
pub fn periodic(game: &OctalGame) -> Option<Arc<Periodic>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Option<Arc<Periodic>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let id = game.id();
    if let Some(known) = cache.lock().ok()?.get(&id) {
        return known.clone();
    }
    let mut max = PREFIX;
    while max > 16 && game.sequence_work(max) > WORK {
        max /= 2;
    }
    let found = game.sequence(max).ok().and_then(|values| {
        let p = game.periodicity(&values)?;
        (p.proof.is_some() && p.saltus == 0).then(|| {
            Arc::new(Periodic {
                values,
                preperiod: p.preperiod,
                period: p.period,
            })
        })
    });
    cache.lock().ok()?.insert(id, found.clone());
    found
}

/// Theorem octal-periodic (normal play).
pub struct OctalPeriodic;

impl Theorem for OctalPeriodic {
    fn id(&self) -> &'static str {
        "octal-periodic"
    }
    fn games(&self) -> &'static str {
        "octal(CODE), subtraction(S) whose Grundy sequence is proved periodic on its first 4096 heaps"
    }
    fn statement(&self) -> &'static str {
        "A list of heaps is worth g(n1) xor ... xor g(nm) (Sprague–Grundy); P iff that is 0. For n >= n0, g(n) = g(n0 + (n - n0) mod p), where the period p and preperiod n0 are proved on the computed values by the Guy–Smith periodicity theorem (g(n + p) = g(n) for n0 <= n < 2·max(n0,1) + p + t) or, for games that never split a heap, by a repeated window of t values. Winning move: in a heap n with g(n) xor X < g(n), an option worth g(n) xor X."
    }
    fn source(&self) -> &'static str {
        "R. K. Guy and C. A. B. Smith, The G-values of various games, Proc. Cambridge Philos. Soc. 52 (1956), 514–526; Berlekamp, Conway & Guy, Winning Ways, ch. 4; see docs/rules.md#theorem-octal-periodic"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        game.downcast_ref::<OctalGame>()
            .is_some_and(|g| periodic(g).is_some())
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let g = game.downcast_ref::<OctalGame>()?;
        let known = periodic(g)?;
        let x = p.iter().fold(0u64, |x, &n| x ^ known.value(n));
        let mut moves = Vec::new();
        if x != 0 {
            for (i, &n) in p.iter().enumerate() {
                let v = known.value(n);
                if v ^ x < v {
                    if let Some(q) = move_to(g, &known, p, i, v ^ x) {
                        moves.push(q);
                        break;
                    }
                }
            }
        }
        Some(Verdict {
            all_winning_moves: false,
            is_p: x == 0,
            grundy: Some(u128::from(x)),
            winning_moves: Some(moves),
            ..Default::default()
        })
    }
}

/// An option of heap `i` of `p` worth `want`, as the game lists it: the heap taken whole (0), left
/// as one heap, split into a (in its place) and r - a (appended), or into a <= b <= c (a in its
/// place, b and c appended). A split of r worth `want`
/// exists with a < n0 + p when one exists at all: for a >= n0 + p (and so r - a >= a), a - p and
/// r - a + p are worth the same.
fn move_to(game: &OctalGame, known: &Periodic, p: &[u64], i: usize, want: u64) -> Option<Pos> {
    let n = p[i];
    let mut q = p.to_vec();
    for (j, d) in game.digit_moves() {
        if j > n {
            break;
        }
        let r = n - j;
        if d & 1 != 0 && r == 0 && want == 0 {
            q[i] = 0;
            return Some(q);
        }
        if d & 2 != 0 && r >= 1 && known.value(r) == want {
            q[i] = r;
            return Some(q);
        }
        if d & 4 != 0 && r >= 2 {
            let top = (r / 2).min(known.preperiod.saturating_add(known.period));
            for a in 1..=top {
                if game.unequal_splits() && 2 * a == r {
                    continue;
                }
                if known.value(a) ^ known.value(r - a) == want {
                    q[i] = a;
                    q.push(r - a);
                    return Some(q);
                }
            }
        }
        // Three heaps: while two parts are at least n0 + p, moving p tokens from one of them to the
        // other keeps every value, so some split worth `want` has its two smaller parts below
        // n0 + p.
        if d & 8 != 0 && r >= 3 {
            let top = (r / 3).min(known.preperiod.saturating_add(known.period));
            for a in 1..=top {
                let btop = ((r - a) / 2).min(known.preperiod.saturating_add(known.period));
                for b in a..=btop {
                    let c = r - a - b;
                    if known.value(a) ^ known.value(b) ^ known.value(c) == want {
                        q[i] = a;
                        q.push(b);
                        q.push(c);
                        return Some(q);
                    }
                }
            }
        }
    }
    None
}
