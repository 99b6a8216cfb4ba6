//! Shrinking Circular Nim SCN(n,k) in the automata prover: one set automaton per circle length, the
//! moves as letter-to-letter relations between a circle and the (possibly shorter) circle it leaves,
//! and conditions (I) and (II) over every length at once, by pre-image automata.
//!
//! A position of length L (1 ≤ L ≤ n) is read on L tracks, every pile at least 1. Its set automaton
//! `S_L` is the conjectured set read under every rotation and reflection ([`members`]) intersected
//! with "every pile positive"; the empty circle is in the set or not (`S_0`, a constant).
//!
//! A move of a circle of L piles chooses a window w (k consecutive piles, the whole circle when
//! L ≤ k), a set Z ⊆ w of piles it empties and lowers the other piles of the window, each by any
//! amount (0 included), at least one token in all. It lands on the circle of the L' = L − |Z| piles
//! that remain, in their order (a reading of the new circle; the set automata read every rotation and
//! reflection, so which reading does not matter). One *move kind* (w, Z) is the relation, over the
//! tracks of x (L) and y (L'), "y equals x outside w without the piles of Z, y ≤ x on the kept piles of
//! w, and y ≠ x when Z is empty"; its only non-trivial part, "y ≤ x on the a = |w \ Z| kept piles,
//! some strictly when Z is empty", is an automaton over 2a tracks ([`lowered`]) and the rest is a
//! fixed wiring of tracks ([`MoveKind::letters`]). Piles lowered to 0 outside Z give a y with a zero
//! entry, which no set automaton accepts (all are positive), so the relation need not exclude them.
//!
//! Pre-image: `E_L` accepts x when some move of x lands in the set, the union over kinds of
//! `project_x(kind(x, y) ∧ S_{L'}(y))`. It is determinized directly over x's letters, each state the
//! set of (kind, relation state, set state) triples that some y reaches, y ranging over the digits of
//! the kept piles only ([`pre_image`]). The kinds of one window are enough: the window that starts at
//! pile s is the first window turned by s, its pre-image the first one's read on the turned tracks,
//! because `S_{L'}` is invariant under rotation, which is checked, not assumed ([`invariant`]).
//!
//! Then condition (I) is `S_L ∩ E_L = ∅` and condition (II) is `positive_L ∩ ¬S_L ∩ ¬E_L = ∅`, for
//! every L from 1 to n (the empty circle has no move). A witness x of (I) gets its move by
//! enumerating x's options (x is a shortest accepted word, so small); every counterexample is
//! re-checked by exact search in [`crate::prove`](mod@crate::prove).

use super::compile::members;
use super::conditions::{Conditions, Move};
use super::dfa::{closed, Budget, Dfa, Stop, MAX_TRACKS};
use crate::conjecture::Conjecture;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::time::Instant;

/// Largest number of options enumerated to name the move of a counterexample to (I).
const OPTION_CAP: f64 = 5e7;

/// Where a pile of the target circle takes its digits from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// An untouched pile of x (outside the window).
    X(usize),
    /// The kept window pile number `t` (its new value is on the relation's track `a + t`).
    Kept(usize),
}

/// One move kind of a circle of `len` piles: a window, the piles it empties, and the relation.
#[derive(Debug, Clone)]
pub struct MoveKind {
    /// The circle's length L.
    pub len: usize,
    /// The window's piles, in circle order.
    pub window: Vec<usize>,
    /// The piles emptied (Z ⊆ window).
    pub gone: Vec<usize>,
    /// The window's other piles, lowered or kept (a = kept.len()).
    pub kept: Vec<usize>,
    /// Each pile of the target circle (length L − |Z|): where its digits come from.
    sources: Vec<Source>,
    /// "y ≤ x on the kept piles (some strictly when nothing is emptied)", over 2a tracks: x's kept
    /// piles on tracks 0..a, their new values on a..2a.
    pub rel: Dfa,
}

impl MoveKind {
    /// The target circle's length.
    pub fn target(&self) -> usize {
        self.sources.len()
    }

    /// For a letter `lx` of x (L bits) and the digits `d` of the kept piles' new values (a bits):
    /// the relation's letter (2a bits) and the target circle's letter (L' bits).
    pub(super) fn letters(&self, lx: u32, d: u32) -> (u32, u32) {
        let a = self.kept.len();
        let mut r = d << a;
        for (t, &i) in self.kept.iter().enumerate() {
            r |= ((lx >> i) & 1) << t;
        }
        let mut y = 0u32;
        for (j, s) in self.sources.iter().enumerate() {
            let bit = match *s {
                Source::X(i) => (lx >> i) & 1,
                Source::Kept(t) => (d >> t) & 1,
            };
            y |= bit << j;
        }
        (r, y)
    }

    /// True when the move kind takes the circle `x` (piles ≥ 1) to the circle `y` (piles ≥ 1, in the
    /// order the piles of x that remain), read digit by digit through [`MoveKind::letters`] and the
    /// relation automaton: the automata's reading of the move, for tests against the game's moves.
    pub fn relates(&self, x: &[u128], y: &[u128]) -> bool {
        if x.len() != self.len || y.len() != self.target() {
            return false;
        }
        if x.iter().chain(y).any(|&v| v == 0) {
            return false;
        }
        let digits = x
            .iter()
            .chain(y)
            .map(|v| 128 - v.leading_zeros() as usize)
            .max()
            .unwrap_or(0);
        let mut q = 0u32;
        for j in (0..digits).rev() {
            let bits = |v: &[u128]| -> u32 {
                v.iter()
                    .enumerate()
                    .map(|(i, x)| (((x >> j) & 1) as u32) << i)
                    .sum()
            };
            let (lx, ly) = (bits(x), bits(y));
            let d: u32 = self
                .kept
                .iter()
                .enumerate()
                .map(|(t, _)| {
                    let pos = self.sources.iter().position(|&s| s == Source::Kept(t));
                    let pos = pos.expect("a kept pile is in the target");
                    ((ly >> pos) & 1) << t
                })
                .sum();
            let (r, y2) = self.letters(lx, d);
            if y2 != ly {
                return false;
            }
            q = self.rel.next(q, r);
        }
        self.rel.fin[q as usize]
    }
}

/// "y ≤ x on each of `a` piles (x on tracks 0..a, y on a..2a), and y ≠ x when `strict`".
pub(super) fn lowered(a: usize, strict: bool, budget: &Budget) -> Result<Dfa, Stop> {
    Dfa::explore(
        2 * a,
        Some(0u32),
        |s, l| {
            let mut low = (*s)?;
            for i in 0..a {
                if low >> i & 1 == 1 {
                    continue;
                }
                let (x, y) = ((l >> i) & 1, (l >> (a + i)) & 1);
                if y > x {
                    return None;
                }
                if y < x {
                    low |= 1 << i;
                }
            }
            Some(low)
        },
        |s| s.is_some_and(|low| low != 0 || !strict),
        budget,
    )
    .and_then(|d| d.minimize_within(Some(budget)))
}

/// The move kinds of a circle of `len` piles whose window is `window` (one per set of emptied piles).
pub fn move_kinds(len: usize, window: &[usize], budget: &Budget) -> Result<Vec<MoveKind>, Stop> {
    let k = window.len();
    if 2 * k > MAX_TRACKS {
        return Err(Stop::Unsupported(format!(
            "windows of {k} piles; the automata prover handles SCN windows of at most {}",
            MAX_TRACKS / 2
        )));
    }
    let mut rels: HashMap<(usize, bool), Dfa> = HashMap::new();
    let mut out = Vec::new();
    for mask in 0u32..1 << k {
        let gone: Vec<usize> = (0..k)
            .filter(|j| mask >> j & 1 == 1)
            .map(|j| window[j])
            .collect();
        let kept: Vec<usize> = (0..k)
            .filter(|j| mask >> j & 1 == 0)
            .map(|j| window[j])
            .collect();
        let sources = (0..len)
            .filter(|i| !gone.contains(i))
            .map(|i| match kept.iter().position(|&p| p == i) {
                Some(t) => Source::Kept(t),
                None => Source::X(i),
            })
            .collect();
        let strict = gone.is_empty();
        let rel = match rels.get(&(kept.len(), strict)) {
            Some(r) => r.clone(),
            None => {
                let r = lowered(kept.len(), strict, budget)?;
                rels.insert((kept.len(), strict), r.clone());
                r
            }
        };
        out.push(MoveKind {
            len,
            window: window.to_vec(),
            gone,
            kept,
            sources,
            rel,
        });
    }
    Ok(out)
}

/// Circles of `len` piles, every pile at least 1.
pub(super) fn positive(len: usize, budget: &Budget) -> Result<Dfa, Stop> {
    let all = (1u32 << len) - 1;
    Dfa::explore(len, 0u32, |&seen, l| seen | l, |&seen| seen == all, budget)
}

/// The automaton over `tracks` tracks that accepts every word or none.
fn constant_on(tracks: usize, accept: bool, budget: &Budget) -> Result<Dfa, Stop> {
    Dfa::explore(tracks, (), |_, _| (), |_| accept, budget)
}

/// The automaton over 0 tracks (the empty circle) that accepts or not.
fn constant(accept: bool) -> Dfa {
    Dfa {
        tracks: 0,
        trans: vec![0],
        fin: vec![accept],
    }
}

/// The set automata `S_0..=S_n` of a conjecture about SCN(n,k): exact membership on circles of each
/// length, piles positive.
pub fn sets(c: &Conjecture, budget: &Budget) -> Result<Vec<Dfa>, Stop> {
    let n = c.game.n;
    if n > MAX_TRACKS / 2 {
        return Err(Stop::Unsupported(format!(
            "{} has circles of {n} piles; the automata prover handles SCN circles of at most {}",
            c.game.id(),
            MAX_TRACKS / 2
        )));
    }
    let mut out = vec![constant(c.contains(&[]))];
    for len in 1..=n {
        let s = members(c, len, budget)?;
        out.push(Dfa::product(&s, &positive(len, budget)?, false, budget)?);
    }
    Ok(out)
}

/// True when `s` (a circle's set automaton) accepts the same words read on the tracks turned by one
/// place, so that it is invariant under every rotation.
fn invariant(s: &Dfa, budget: &Budget) -> Result<bool, Stop> {
    let len = s.tracks;
    if len < 2 {
        return Ok(true);
    }
    let map: Vec<usize> = (0..len).map(|i| (i + 1) % len).collect();
    let turned = s.embed(&map, len);
    let one = Dfa::product(s, &turned.complement(), false, budget)?;
    let two = Dfa::product(&s.complement(), &turned, false, budget)?;
    Ok(!one.live()[0] && !two.live()[0])
}

/// `E`: the circles x of the kinds' length with a move of one of `kinds` into the set, determinized
/// over x's letters (the union of the kinds' `project_x(kind(x, y) ∧ S_{L'}(y))`), minimal.
pub fn pre_image(kinds: &[MoveKind], sets: &[Dfa], budget: &Budget) -> Result<Dfa, Stop> {
    let len = kinds[0].len;
    let lives: Vec<Vec<bool>> = sets.iter().map(Dfa::live).collect();
    let rlive: Vec<Vec<bool>> = kinds.iter().map(|k| k.rel.live()).collect();
    // An element: kind (16 bits), relation state (16 bits), set state (32 bits).
    if kinds.len() >= 1 << 16 || kinds.iter().any(|k| k.rel.states() >= 1 << 16) {
        return Err(Stop::Unsupported("too many move kinds".into()));
    }
    let pack = |i: usize, r: u32, q: u32| ((i as u64) << 48) | ((r as u64) << 32) | q as u64;
    let unpack = |e: u64| ((e >> 48) as usize, ((e >> 32) & 0xffff) as u32, e as u32);
    let mut memo: HashMap<(u64, u32), Vec<u64>> = HashMap::new();
    let mut advance = |set: &[u64], lx: u32| -> Vec<u64> {
        let mut out = Vec::new();
        for &e in set {
            let next = memo.entry((e, lx)).or_insert_with(|| {
                let (i, r, q) = unpack(e);
                let kind = &kinds[i];
                let s = &sets[kind.target()];
                let mut v = Vec::new();
                for d in 0..1u32 << kind.kept.len() {
                    let (lr, ly) = kind.letters(lx, d);
                    let r2 = kind.rel.next(r, lr);
                    let q2 = s.next(q, ly);
                    if rlive[i][r2 as usize] && lives[kind.target()][q2 as usize] {
                        v.push(pack(i, r2, q2));
                    }
                }
                v
            });
            out.extend_from_slice(next);
        }
        out.sort_unstable();
        out.dedup();
        out
    };
    let start: Vec<u64> = (0..kinds.len())
        .filter(|&i| rlive[i][0] && lives[kinds[i].target()][0])
        .map(|i| pack(i, 0, 0))
        .collect();
    let start = closed(start, &mut advance);
    let accepting = |set: &Vec<u64>| {
        set.iter().any(|&e| {
            let (i, r, q) = unpack(e);
            kinds[i].rel.fin[r as usize] && sets[kinds[i].target()].fin[q as usize]
        })
    };
    Dfa::explore(len, start, |set, l| advance(set, l), accepting, budget)?
        .minimize_within(Some(budget))
}

/// `E_L`: the circles of `len` piles with a move into the set, every window: the first window's
/// pre-image read on the tracks turned by each place.
pub fn moves_into(c: &Conjecture, len: usize, sets: &[Dfa], budget: &Budget) -> Result<Dfa, Stop> {
    let windows = c.game.windows(len);
    let kinds = move_kinds(len, &windows[0], budget)?;
    let trace = std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some();
    let mut first = constant_on(len, false, budget)?;
    for kind in &kinds {
        let t = Instant::now();
        let e = pre_image(std::slice::from_ref(kind), sets, budget)?;
        first = Dfa::product(&first, &e, true, budget)?;
        if trace {
            eprintln!(
                "  window {:?}, emptied {:?}: pre-image {} states, union {} states ({:.2} s)",
                kind.window,
                kind.gone,
                e.states(),
                first.states(),
                t.elapsed().as_secs_f64()
            );
        }
    }
    let mut acc = first.clone();
    for s in 1..windows.len() {
        // The window that starts at pile s: track i of the first window's automaton is pile i + s.
        debug_assert_eq!(windows[s][0], s);
        let map: Vec<usize> = (0..len).map(|i| (i + s) % len).collect();
        acc = Dfa::product(&acc, &first.embed(&map, len), true, budget)?;
    }
    Ok(acc)
}

/// An option of `x` in the set, by enumerating the game's options (`Ok(None)`: none).
fn option_in_set(c: &Conjecture, x: &[u128]) -> Result<Option<Vec<u128>>, Stop> {
    let too_large = || Stop::Limit(format!("the counterexample {x:?} is too large to re-check"));
    let p: Vec<u64> = x
        .iter()
        .map(|&v| u64::try_from(v).map_err(|_| too_large()))
        .collect::<Result<_, _>>()?;
    let game = c.game.game();
    if game.branching_bound(&p) > OPTION_CAP {
        return Err(too_large());
    }
    let mut found = None;
    game.for_each_option(&p, &mut |o| {
        if c.contains(o) {
            found = Some(o.iter().map(|&v| v as u128).collect());
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .map_err(|e| Stop::Unsupported(e.to_string()))?;
    Ok(found)
}

/// Decides conditions (I) and (II) for a conjecture about SCN(n,k), over every circle length.
pub fn conditions(c: &Conjecture, budget: &Budget) -> Result<Conditions, Stop> {
    let trace = std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some();
    let t0 = Instant::now();
    let sets = sets(c, budget)?;
    for (len, s) in sets.iter().enumerate() {
        if !invariant(s, budget)? {
            return Err(Stop::Unsupported(format!(
                "internal error: the set automaton of circles of {len} piles is not invariant under rotation"
            )));
        }
        if trace {
            eprintln!("members of length {len}: {} states", s.states());
        }
    }
    let mut into = vec![constant(false)];
    for len in 1..=c.game.n {
        let t = Instant::now();
        let e = moves_into(c, len, &sets, budget)?;
        if trace {
            eprintln!(
                "moves into the set from circles of {len} piles: {} states ({:.2} s)",
                e.states(),
                t.elapsed().as_secs_f64()
            );
        }
        into.push(e);
    }
    let built = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let joined = (|| -> Result<Option<Move>, Stop> {
        for len in 1..=c.game.n {
            let both = Dfa::product(&sets[len], &into[len], false, budget)?;
            if let Some(x) = both.witness() {
                return match option_in_set(c, &x)? {
                    Some(y) => Ok(Some((x, y))),
                    None => Err(Stop::Unsupported(format!(
                        "internal error: the automata find a move from {x:?} into the set, the game's options do not"
                    ))),
                };
            }
        }
        Ok(None)
    })();
    let one = (joined, built + t1.elapsed().as_secs_f64());
    if let Err(Stop::Unsupported(e)) = one.0 {
        return Err(Stop::Unsupported(e));
    }
    let t2 = Instant::now();
    let stranded = (|| -> Result<Option<Vec<u128>>, Stop> {
        for len in 1..=c.game.n {
            let outside = Dfa::product(&sets[len].complement(), &positive(len, budget)?, false, budget)?;
            let left = Dfa::product(&outside, &into[len].complement(), false, budget)?;
            if let Some(x) = left.witness() {
                return Ok(Some(x));
            }
        }
        Ok(None)
    })();
    let two = (stranded, built + t2.elapsed().as_secs_f64());
    if trace {
        eprintln!("conditions: built {built:.2} s, (I) {:.2} s, (II) {:.2} s", one.1 - built, two.1 - built);
    }
    Ok(Conditions {
        members: sets[c.game.n].clone(),
        joined: one,
        stranded: two,
    })
}
