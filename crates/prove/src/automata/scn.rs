//! Shrinking Circular Nim SCN(n,k) in the automata prover: one set automaton per circle length, the
//! moves as relations between a circle and the (possibly shorter) circle it leaves, and conditions
//! (I) and (II) over every length at once.
//!
//! A position of length L (1 ≤ L ≤ n) is read on L tracks, every pile at least 1. Its set automaton
//! `S_L` is the conjectured set read under every rotation and reflection ([`members`]) intersected
//! with "every pile positive"; the empty circle is in the set or not (`S_0`, a constant).
//!
//! A move of a circle of L piles chooses a window w (k consecutive piles, the whole circle when
//! L ≤ k), a set Z ⊆ w of piles it empties, and lowers the other piles of the window, each by any
//! amount, at least one token in all. It lands on the circle of the L' = L − |Z| piles that remain,
//! in their order (one reading of the new circle; the set automata read every rotation and
//! reflection, so which one does not matter). A *move kind* (w, Z) ([`MoveKind`]) is the relation over
//! x (L tracks) and y (L' tracks): y's piles are x's remaining ones (the wiring `sources`), equal
//! outside w, at most x's on the kept piles of w, and y ≠ x when Z is empty. A kept pile lowered to 0
//! gives a y with a zero pile, which no set automaton accepts, so the relation need not exclude it.
//!
//! Condition (II): for each kind, the pre-image `project_x(kind(x, y) ∧ S_{L'}(y))`, built by reading
//! `S_{L'}` on the remaining piles' tracks and quantifying the kept piles' new values one pile at a
//! time, minimal after each step ([`kind_pre_image`]), is taken away from "positive, outside the set";
//! a word left is a counterexample. The kinds of the first window are enough: the window that starts
//! at pile s is the first one turned by s, and its pre-image is the first one's read on the turned
//! tracks, because every `S_{L'}` is invariant under rotation, which is checked, not assumed
//! ([`invariant`]).
//!
//! Condition (I): for each kind of the first window, a breadth-first search of the product "x in
//! `S_L`, y ≤ x on the kept piles (some strictly when Z is empty), y in `S_{L'}`" (`joined`), which
//! gives the member and its move.
//!
//! Both run over every L from 1 to n (the empty circle has no move); every counterexample is
//! re-checked by exact search in [`crate::check`].

use super::compile::{linear, members, Lin, Sign};
use super::conditions::{Conditions, Move};
use super::dfa::{Budget, Dfa, Stop, MAX_TRACKS};
use crate::conjecture::{Conjecture, Ruleset, RulesetKind};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// One move kind of a circle of `len` piles: a window, and the piles of it the move empties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveKind {
    /// The circle's length L.
    pub len: usize,
    /// The window's piles, in circle order.
    pub window: Vec<usize>,
    /// The piles emptied (Z ⊆ window).
    pub gone: Vec<usize>,
    /// The window's other piles, lowered or kept.
    pub kept: Vec<usize>,
    /// The piles of x that remain, in order: pile `j` of the target circle is pile `sources[j]` of x.
    pub sources: Vec<usize>,
}

impl MoveKind {
    /// The target circle's length.
    pub fn target(&self) -> usize {
        self.sources.len()
    }

    /// The move kind as one relation over `len + target` tracks (x on `0..len`, y on the rest): every
    /// pile of both positive, y's piles equal x's remaining ones outside the window and are at most
    /// them inside it, and y ≠ x when nothing is emptied. Built from the same pieces as
    /// [`kind_pre_image`] (the wiring `sources`, `at_most` per kept pile) and read the same way by
    /// `joined`; for tests against the game's moves (its letters have 2^(len + target) values: small
    /// circles only).
    pub fn relation(&self, budget: &Budget) -> Result<Dfa, Stop> {
        let (l, t) = (self.len, self.target());
        let tracks = l + t;
        let pos = positive(tracks, budget)?;
        let mut acc = pos;
        for (j, &i) in self.sources.iter().enumerate() {
            let cmp = if self.kept.contains(&i) {
                at_most(false, budget)?
            } else {
                equal(budget)?
            };
            // Track 0 of `cmp` is x's pile, track 1 the new value.
            acc = Dfa::product(&acc, &cmp.embed(&[i, l + j], tracks), false, budget)?;
        }
        if self.gone.is_empty() {
            // Some kept pile strictly lower: the sum over the window of x - y is positive.
            let mut lin = Lin::default();
            for (j, &i) in self.sources.iter().enumerate() {
                if self.kept.contains(&i) {
                    lin.terms.insert(i, -1);
                    lin.terms.insert(l + j, 1);
                }
            }
            lin.c = 1;
            acc = Dfa::product(
                &acc,
                &linear(tracks, &lin, Sign::AtMostZero, budget)?,
                false,
                budget,
            )?;
        }
        Ok(acc)
    }
}

/// "y ≤ x" (`strict`: "y < x") over two tracks, x on track 0 and y on track 1.
pub(super) fn at_most(strict: bool, budget: &Budget) -> Result<Dfa, Stop> {
    let lin = Lin {
        terms: BTreeMap::from([(1, 1), (0, -1)]),
        c: strict as i128,
    };
    linear(2, &lin, Sign::AtMostZero, budget)
}

/// "y = x" over two tracks.
fn equal(budget: &Budget) -> Result<Dfa, Stop> {
    let lin = Lin {
        terms: BTreeMap::from([(1, 1), (0, -1)]),
        c: 0,
    };
    linear(2, &lin, Sign::Zero, budget)
}

/// The move kinds of a circle of `len` piles whose window is `window` (one per set of emptied piles).
pub fn move_kinds(len: usize, window: &[usize]) -> Vec<MoveKind> {
    let k = window.len();
    (0u32..1 << k)
        .map(|mask| {
            let gone: Vec<usize> = (0..k)
                .filter(|j| mask >> j & 1 == 1)
                .map(|j| window[j])
                .collect();
            let kept: Vec<usize> = (0..k)
                .filter(|j| mask >> j & 1 == 0)
                .map(|j| window[j])
                .collect();
            let sources = (0..len).filter(|i| !gone.contains(i)).collect();
            MoveKind {
                len,
                window: window.to_vec(),
                gone,
                kept,
                sources,
            }
        })
        .collect()
}

/// `exists y ≤ x_i with x[i := y]` in `d`: the pre-image of `d` under the
/// moves that lower pile `i` alone, `project(embed(d) ∧ at_most)` over one more track, the product
/// explored inside the subset construction (a state is the set of (state of `d`, state of
/// `at_most`) pairs some y reaches), then minimized.
fn lower_one(d: &Dfa, i: usize, budget: &Budget) -> Result<Dfa, Stop> {
    let cmp = at_most(false, budget)?;
    let (live, clive) = (d.live(), cmp.live());
    let nc = cmp.states() as u64;
    let advance = |set: &[u64], lx: u32| -> Vec<u64> {
        let xi = (lx >> i) & 1;
        let mut out = Vec::with_capacity(2 * set.len());
        for &e in set {
            let (q, c) = ((e / nc) as u32, (e % nc) as u32);
            for y in 0..2u32 {
                let c2 = cmp.next(c, xi | (y << 1));
                let q2 = d.next(q, (lx & !(1 << i)) | (y << i));
                if clive[c2 as usize] && live[q2 as usize] {
                    out.push(q2 as u64 * nc + c2 as u64);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    };
    // y <= x needs no more digits than x: the start is the initial pair alone.
    let start = if live[0] && clive[0] {
        vec![0u64]
    } else {
        Vec::new()
    };
    Dfa::explore(
        d.tracks,
        start,
        |set, l| advance(set, l),
        |set| {
            set.iter()
                .any(|&e| d.fin[(e / nc) as usize] && cmp.fin[(e % nc) as usize])
        },
        budget,
    )?
    .minimize_within(Some(budget))
}

/// The circles x of the kind's length with a move of this kind, or no move at all, into the set:
/// `project_x(kind(x, y) ∧ S_{L'}(y)) ∪ S_L`, over x's `len` tracks. The target's set automaton is
/// read on the remaining piles' tracks, then "y ≤ x" is quantified one kept pile at a time, minimal
/// after each step (`lower_one`); the piles are taken from both ends of the window inwards (on
/// SCN(8,6) the largest intermediate subset construction has 2.0e5 states this way, 4.9e5 in window
/// order: docs/benchmarks.md). The relation is "y ≤ x on the kept piles", not "some strictly lower"
/// when nothing is emptied, so the result also holds the set itself (y = x): condition (II), which
/// asks about circles outside the set, reads it as it is; condition (I) is decided by `joined`.
pub fn kind_pre_image(kind: &MoveKind, sets: &[Dfa], budget: &Budget) -> Result<Dfa, Stop> {
    let len = kind.len;
    let target = &sets[kind.target()];
    if !target.live()[0] {
        return constant_on(len, false, budget);
    }
    let mut u = target.embed(&kind.sources, len);
    let (mut lo, mut hi) = (0, kind.kept.len());
    while lo < hi {
        u = lower_one(&u, kind.kept[lo], budget)?;
        lo += 1;
        if lo < hi {
            hi -= 1;
            u = lower_one(&u, kind.kept[hi], budget)?;
        }
    }
    Ok(u)
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
    if n >= MAX_TRACKS {
        return Err(Stop::Unsupported(format!(
            "{} has circles of {n} piles; the automata prover handles SCN circles of at most {}",
            c.game.id(),
            MAX_TRACKS - 1
        )));
    }
    let mut out = vec![constant(c.contains(&[]))];
    for len in 1..=n {
        let s = members(c, len, budget)?;
        out.push(Dfa::product(&s, &positive(len, budget)?, false, budget)?);
    }
    Ok(out)
}

/// The circle that shows `s` (a circle's set automaton) is not invariant under rotation and
/// reflection: a tuple it accepts whose turn by one place (`"rotation"`) or mirror image
/// (`"reflection"`) it rejects, or the other way round; `None` when it is invariant (the turn by one
/// place and one reflection generate every rotation and reflection).
fn not_invariant(s: &Dfa, budget: &Budget) -> Result<Option<(Vec<u128>, &'static str)>, Stop> {
    let len = s.tracks;
    if len < 2 {
        return Ok(None);
    }
    let turn: Vec<usize> = (0..len).map(|i| (i + 1) % len).collect();
    let mirror: Vec<usize> = (0..len).map(|i| len - 1 - i).collect();
    for (map, what) in [(turn, "rotation"), (mirror, "reflection")] {
        let moved = s.embed(&map, len);
        let one = Dfa::product(s, &moved.complement(), false, budget)?;
        if let Some(w) = one.witness() {
            return Ok(Some((w, what)));
        }
        let two = Dfa::product(&s.complement(), &moved, false, budget)?;
        if let Some(w) = two.witness() {
            return Ok(Some((w, what)));
        }
    }
    Ok(None)
}

/// The turns of the circle of `len` piles that carry the first window onto each window: track `i`
/// of an automaton about the first window is pile `map[i]` for the window that starts at pile `s`.
fn turns(game: &Ruleset, len: usize) -> Vec<Vec<usize>> {
    let windows = game.windows(len);
    (0..windows.len())
        .map(|s| {
            debug_assert_eq!(windows[s][0], s);
            (0..len).map(|i| (i + s) % len).collect()
        })
        .collect()
}

/// `E_L ∪ S_L`: the circles of `len` piles that are in the set or have a move into it, every window
/// (the first window's kinds, [`kind_pre_image`], read on the turned tracks). Condition (II) takes the
/// same pre-images away from the circles outside the set one at a time instead; this union is for
/// tests against exhaustive search.
pub fn moves_into(c: &Conjecture, len: usize, sets: &[Dfa], budget: &Budget) -> Result<Dfa, Stop> {
    let windows = c.game.windows(len);
    let mut acc = constant_on(len, false, budget)?;
    for kind in move_kinds(len, &windows[0]) {
        let e = kind_pre_image(&kind, sets, budget)?;
        for map in turns(&c.game, len) {
            acc = Dfa::product(&acc, &e.embed(&map, len), true, budget)?;
        }
    }
    Ok(acc)
}

/// Condition (II) on circles of `len` piles: a circle outside the set with no move into it. Starting
/// from "positive piles, outside the set", each kind's pre-image ([`kind_pre_image`]), on each window,
/// is taken away in turn, minimal after each step; what is left is the answer (a shortest word).
fn stranded(
    game: &Ruleset,
    len: usize,
    sets: &[Dfa],
    budget: &Budget,
) -> Result<Option<Vec<u128>>, Stop> {
    let trace = std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some();
    let mut left = Dfa::product(
        &sets[len].complement(),
        &positive(len, budget)?,
        false,
        budget,
    )?;
    let windows = game.windows(len);
    for kind in move_kinds(len, &windows[0]) {
        if !left.live()[0] {
            return Ok(None);
        }
        let t = Instant::now();
        let e = kind_pre_image(&kind, sets, budget)?;
        if !e.live()[0] {
            continue;
        }
        for map in turns(game, len) {
            left = Dfa::product(&left, &e.embed(&map, len).complement(), false, budget)?;
        }
        if trace {
            eprintln!(
                "(II) circles of {len}: emptied {:?}: pre-image {} states, {} states left ({:.2} s)",
                kind.gone,
                e.states(),
                left.states(),
                t.elapsed().as_secs_f64()
            );
        }
    }
    Ok(left.witness())
}

/// Condition (I) for one move kind: a breadth-first search of the product "x in `S_L`, the kept
/// piles' new values at most x's (the set of those already strictly lower), the target circle in
/// `T_{L'}`" (`targets`: the sets themselves for (I); for (C) the circles with no move into the set)
/// over pairs of letters (x's digits, the kept piles' new digits) for an accepted word: a
/// member with a move of this kind into the set, as (x, y).
fn joined(
    kind: &MoveKind,
    sets: &[Dfa],
    targets: &[Dfa],
    budget: &Budget,
) -> Result<Option<Move>, Stop> {
    let (sx, sy) = (&sets[kind.len], &targets[kind.target()]);
    let (lx_live, ly_live) = (sx.live(), sy.live());
    if !lx_live[0] || !ly_live[0] {
        return Ok(None);
    }
    let a = kind.kept.len();
    // The target's letter from x's letter and the kept piles' new digits.
    let wire = |lx: u32, d: u32| -> u32 {
        let mut y = 0u32;
        for (j, &i) in kind.sources.iter().enumerate() {
            let bit = match kind.kept.iter().position(|&p| p == i) {
                Some(t) => (d >> t) & 1,
                None => (lx >> i) & 1,
            };
            y |= bit << j;
        }
        y
    };
    // A node: (x's set state, the kept piles already strictly lower, y's set state).
    type Key = (u32, u32, u32);
    // Where a node came from: (node, x's letter, the kept piles' new digits).
    type From = Option<(usize, u32, u32)>;
    let mut seen: HashMap<Key, usize> = HashMap::new();
    let mut nodes: Vec<(Key, From)> = vec![((0, 0, 0), None)];
    seen.insert((0, 0, 0), 0);
    let mut i = 0;
    while i < nodes.len() {
        budget.poll()?;
        let ((qx, low, qy), _) = nodes[i];
        if sx.fin[qx as usize] && sy.fin[qy as usize] && (low != 0 || !kind.gone.is_empty()) {
            // Decode x and the kept piles' new values from the path.
            let mut word = Vec::new();
            let mut j = i;
            while let Some((p, lx, d)) = nodes[j].1 {
                word.push((lx, d));
                j = p;
            }
            word.reverse();
            let mut x = vec![0u128; kind.len];
            let mut y = vec![0u128; kind.target()];
            for &(lx, d) in &word {
                let ly = wire(lx, d);
                for (t, v) in x.iter_mut().enumerate() {
                    *v = (*v << 1) | ((lx >> t) & 1) as u128;
                }
                for (t, v) in y.iter_mut().enumerate() {
                    *v = (*v << 1) | ((ly >> t) & 1) as u128;
                }
            }
            return Ok(Some((x, y)));
        }
        for lx in 0..1u32 << kind.len {
            let qx2 = sx.next(qx, lx);
            if !lx_live[qx2 as usize] {
                continue;
            }
            'd: for d in 0..1u32 << a {
                let mut low2 = low;
                for (t, &p) in kind.kept.iter().enumerate() {
                    if low >> t & 1 == 1 {
                        continue;
                    }
                    let (xb, yb) = ((lx >> p) & 1, (d >> t) & 1);
                    if yb > xb {
                        continue 'd;
                    }
                    if yb < xb {
                        low2 |= 1 << t;
                    }
                }
                let qy2 = sy.next(qy, wire(lx, d));
                if !ly_live[qy2 as usize] {
                    continue;
                }
                let key = (qx2, low2, qy2);
                if let std::collections::hash_map::Entry::Vacant(v) = seen.entry(key) {
                    v.insert(nodes.len());
                    nodes.push((key, Some((i, lx, d))));
                    budget.check(nodes.len())?;
                }
            }
        }
        i += 1;
    }
    Ok(None)
}

/// The set automata of a conjecture ([`sets`]), each checked to be invariant under rotation and
/// reflection (the searches look at the first window only).
fn invariant_sets(c: &Conjecture, budget: &Budget) -> Result<Vec<Dfa>, Stop> {
    let sets = sets(c, budget)?;
    for (len, s) in sets.iter().enumerate() {
        if let Some((w, what)) = not_invariant(s, budget)? {
            return Err(Stop::Unsupported(format!(
                "internal error: the set automaton of circles of {len} piles is not invariant under {what} (at {w:?})"
            )));
        }
    }
    Ok(sets)
}

/// Decides conditions (I) and (II) for a conjecture about SCN(n,k), over every circle length.
pub fn conditions(c: &Conjecture, budget: &Budget) -> Result<Conditions, Stop> {
    let t0 = Instant::now();
    let sets = invariant_sets(c, budget)?;
    decide(&c.game, &sets, t0, false, budget)
}

/// Decides conditions (I) and (II) over every circle length for a set of SCN(n,k) positions given
/// as one automaton per circle length: `per_length[L - 1]` reads circles of L piles on L tracks
/// (track `i` = pile `i`, most significant digit first, the same answer with or without leading
/// zero letters), `empty` says whether the empty circle is in the set. What an automaton accepts
/// with a zero pile is not a circle and is left out (intersected with "every pile positive"). The
/// set must be one of circles: every automaton invariant under rotation and reflection (refused in
/// one line otherwise, with a tuple that shows it). With `stop_early`, (II) is not searched once
/// (I) has a counterexample. `members` of the answer is the automaton of the longest circles.
pub fn conditions_for_sets(
    game: &Ruleset,
    per_length: &[Dfa],
    empty: bool,
    stop_early: bool,
    budget: &Budget,
) -> Result<Conditions, Stop> {
    let t0 = Instant::now();
    let sets = given_sets(game, per_length, empty, budget)?;
    decide(game, &sets, t0, stop_early, budget)
}

/// The set automata `S_0..=S_n` of a set given per circle length ([`conditions_for_sets`]): checked
/// (kind, lengths, tracks, leading zeros, invariance) and intersected with "every pile positive".
pub fn given_sets(
    game: &Ruleset,
    per_length: &[Dfa],
    empty: bool,
    budget: &Budget,
) -> Result<Vec<Dfa>, Stop> {
    let n = game.n;
    if game.kind != RulesetKind::Scn {
        return Err(Stop::Unsupported(format!(
            "{} has positions of one length: give one automaton, not one per circle length",
            game.id()
        )));
    }
    if n >= MAX_TRACKS {
        return Err(Stop::Unsupported(format!(
            "{} has circles of {n} piles; the automata prover handles SCN circles of at most {}",
            game.id(),
            MAX_TRACKS - 1
        )));
    }
    if per_length.len() != n {
        return Err(Stop::Unsupported(format!(
            "{} automata given; {} has circles of 1 to {n} piles, one automaton each",
            per_length.len(),
            game.id()
        )));
    }
    let mut out = vec![constant(empty)];
    for (i, d) in per_length.iter().enumerate() {
        let len = i + 1;
        if d.tracks != len {
            return Err(Stop::Unsupported(format!(
                "the automaton of circles of {len} piles reads {} inputs, not {len}",
                d.tracks
            )));
        }
        // Only circles count (every pile positive): what the automaton says of tuples with a zero
        // pile is left out below, so it may depend on leading zeros there.
        let circles = Dfa::product(d, &positive(len, budget)?, false, budget)?;
        if let Some(w) = circles.leading_zeros_matter() {
            return Err(Stop::Unsupported(format!(
                "the automaton of circles of {len} piles answers differently with leading zero letters (e.g. on the circle {}): msd_2 automata must give the same answer with or without them",
                shown(&w)
            )));
        }
        let s = Dfa::product(d, &positive(len, budget)?, false, budget)?
            .minimize_within(Some(budget))?;
        if let Some((w, what)) = not_invariant(&s, budget)? {
            let image = if what == "rotation" {
                "turn by one place"
            } else {
                "mirror image"
            };
            return Err(Stop::Unsupported(format!(
                "the automaton of circles of {len} piles is not a set of circles: it is not invariant under {what} ({} is {} but its {image} is {})",
                shown(&w),
                if s.accepts(&w) { "accepted" } else { "rejected" },
                if s.accepts(&w) { "not" } else { "accepted" },
            )));
        }
        out.push(s);
    }
    Ok(out)
}

fn shown(w: &[u128]) -> String {
    let parts: Vec<String> = w.iter().map(|x| x.to_string()).collect();
    format!("({})", parts.join(","))
}

/// The two searches on the set automata `S_0..=S_n` (built from `t0` on).
fn decide(
    game: &Ruleset,
    sets: &[Dfa],
    t0: Instant,
    stop_early: bool,
    budget: &Budget,
) -> Result<Conditions, Stop> {
    let trace = std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some();
    if trace {
        for (len, s) in sets.iter().enumerate() {
            eprintln!("members of length {len}: {} states", s.states());
        }
    }
    let built = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let joined = (|| -> Result<Option<Move>, Stop> {
        for len in 1..=game.n {
            // The first window is enough: the sets are invariant under rotation.
            for kind in move_kinds(len, &game.windows(len)[0]) {
                if let Some(m) = joined(&kind, sets, sets, budget)? {
                    return Ok(Some(m));
                }
            }
        }
        Ok(None)
    })();
    let one = (joined, built + t1.elapsed().as_secs_f64());
    if let Err(Stop::Unsupported(e)) = one.0 {
        return Err(Stop::Unsupported(e));
    }
    let t2 = Instant::now();
    let two = if stop_early && matches!(one.0, Ok(Some(_))) {
        (
            Err(Stop::Limit(
                "not searched: condition (I) is already refuted".into(),
            )),
            0.0,
        )
    } else {
        let stranded = (|| -> Result<Option<Vec<u128>>, Stop> {
            for len in 1..=game.n {
                if let Some(x) = stranded(game, len, sets, budget)? {
                    return Ok(Some(x));
                }
            }
            Ok(None)
        })();
        (stranded, built + t2.elapsed().as_secs_f64())
    };
    if trace {
        eprintln!(
            "conditions: built {built:.2} s, (I) {:.2} s, (II) {:.2} s",
            one.1 - built,
            two.1 - built
        );
    }
    Ok(Conditions {
        members: sets[game.n].clone(),
        joined: one,
        stranded: two,
    })
}

/// Condition (C) for a set of SCN(n,k) positions claimed to lie inside the P-set: a member x with a
/// move to a circle y (of any length) that has no move into the set — for y of L' >= 1 piles the
/// complement of [`moves_into`] among positive circles; the empty circle (normal play: it has no
/// move, so a member that empties its circle fails; misère play: it is an N-position). One product
/// search per move kind of the first window ([`joined`] against those targets). With its seconds.
pub fn closure(c: &Conjecture, budget: &Budget) -> Result<(Result<Option<Move>, Stop>, f64), Stop> {
    let t0 = Instant::now();
    let sets = invariant_sets(c, budget)?;
    let run = || -> Result<Option<Move>, Stop> {
        // The targets of a move from a member that break (C): circles with no move into the set,
        // and members themselves (a move between two members: one of them is not a P-position).
        // `moves_into` is "in the set or has a move into it", so the members are added back.
        let empty_member = sets[0].accepts(&[]);
        let mut targets = vec![constant(
            c.play == nimlab_core::Play::Normal || empty_member,
        )];
        for len in 1..=c.game.n {
            let into = moves_into(c, len, &sets, budget)?;
            let bad = Dfa::product(&into.complement(), &sets[len], true, budget)?;
            targets.push(
                Dfa::product(&positive(len, budget)?, &bad, false, budget)?
                    .minimize_within(Some(budget))?,
            );
        }
        for len in 1..=c.game.n {
            if !sets[len].live()[0] {
                continue;
            }
            for kind in move_kinds(len, &c.game.windows(len)[0]) {
                if let Some(m) = joined(&kind, &sets, &targets, budget)? {
                    return Ok(Some(m));
                }
            }
        }
        Ok(None)
    };
    let r = run();
    if let Err(Stop::Unsupported(e)) = r {
        return Err(Stop::Unsupported(e));
    }
    Ok((r, t0.elapsed().as_secs_f64()))
}
