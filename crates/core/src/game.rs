//! The [`Game`] abstraction.
//!
//! A game module implements a handful of required functions (its name, validity of a position, and
//! its options) and may override optional ones that make solving faster or output nicer (canonical form
//! under symmetries, decomposition into independent parts, a search-size estimate, a tabulation box).
//! Nothing else about the game needs to be known to the solvers.

use crate::error::{Error, Result};
use crate::position;
use std::any::Any;
use std::collections::HashSet;
use std::ops::ControlFlow;

/// A position: a vector of non-negative integers whose meaning is up to the game.
pub type Pos = Vec<u64>;

/// The box of positions that `table --max H` covers: every position whose length is one of `lengths`
/// and whose entries all lie in `lo..=hi`.
///
/// Tabulation relies on one property, which every game with a box checks in its tests: every option of a
/// position in the box is again in the box, has a length that is not larger, and, when the length is
/// the same, has every entry at most the corresponding one and at least one entry smaller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoxDomain {
    /// Allowed lengths, in increasing order.
    pub lengths: Vec<usize>,
    /// Smallest allowed entry.
    pub lo: u64,
    /// Largest allowed entry.
    pub hi: u64,
}

impl BoxDomain {
    /// Number of values each entry can take, exactly: 2^64 for the box `0..=2^64-1`, 0 when
    /// `hi < lo`.
    pub fn radix_exact(&self) -> u128 {
        if self.hi < self.lo {
            0
        } else {
            u128::from(self.hi - self.lo) + 1
        }
    }
    /// Number of values each entry can take, saturating at `u64::MAX` (the box `0..=2^64-1` has
    /// 2^64: far past any size a table accepts, which [`BoxDomain::size_f64`] reports exactly enough
    /// to refuse); 0 when `hi < lo`.
    pub fn radix(&self) -> u64 {
        u64::try_from(self.radix_exact()).unwrap_or(u64::MAX)
    }
    /// The box as users read it: `[0..5]^7`, or `[1..4]^m, m in 0, 1, 2, 3` for several lengths.
    pub fn describe(&self) -> String {
        match self.lengths.as_slice() {
            [m] => format!("[{}..{}]^{m}", self.lo, self.hi),
            ms => format!(
                "[{}..{}]^m, m in {}",
                self.lo,
                self.hi,
                ms.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
    /// Number of positions in the box (as `f64`, so that huge boxes can be refused without overflow).
    pub fn size_f64(&self) -> f64 {
        self.lengths
            .iter()
            .map(|&m| (self.radix_exact() as f64).powi(m as i32))
            .sum()
    }
}

/// Lets a `&dyn Game` be turned back into the concrete game type (`<dyn Game>::downcast_ref`); implemented
/// for every type, so game modules never write it.
pub trait AsAny: Any {
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// How the moves of a game act on the entries of a position, for the tabulation engine and for
/// front ends that check or draw a move without enumerating options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveStructure {
    /// A move lowers any entries inside one face (a set of places), at least one token in all;
    /// entries stay non-negative and the length never changes. Nim's faces are the single heaps,
    /// Moore's Nim_k's every set of k heaps, Circular Nim's the windows of k consecutive stacks.
    Faces(Vec<Vec<usize>>),
    /// Shrinking Circular Nim on a circle of `len` piles: a move lowers any piles inside a window of
    /// `k` consecutive piles (any piles when `len <= k`), at least one token in all; piles that
    /// reach zero vanish and the circle closes up.
    ShrinkingWindows { len: usize, k: usize },
}

impl MoveStructure {
    /// The faces (or windows) a move may touch, as place lists.
    pub fn faces(&self) -> Vec<Vec<usize>> {
        match self {
            MoveStructure::Faces(f) => f.clone(),
            MoveStructure::ShrinkingWindows { len, k } => cyclic_windows(*len, *k),
        }
    }

    /// Whether `q` is an option of `p` under this structure. Faces: same length, lowered inside one
    /// face. Shrinking windows: the piles of one window lowered, those lowered to 0 removed, the
    /// others kept in order (`q` as the game lists its options, not up to rotation or reflection;
    /// piles are at least 1). `None` when it cannot tell cheaply (shrinking circles of more than 64
    /// piles).
    pub fn is_option(&self, p: &[u64], q: &[u64]) -> Option<bool> {
        match self {
            MoveStructure::Faces(faces) => {
                if p.len() != q.len() || q.iter().zip(p).any(|(a, b)| a > b) || p == q {
                    return Some(false);
                }
                let changed: Vec<usize> = (0..p.len()).filter(|&i| p[i] != q[i]).collect();
                Some(faces.iter().any(|f| changed.iter().all(|i| f.contains(i))))
            }
            MoveStructure::ShrinkingWindows { len, k } => {
                if p.len() != *len || q.len() > p.len() || q == p || q.contains(&0) {
                    return Some(false);
                }
                if p.len() > 64 {
                    return None;
                }
                Some(cyclic_windows(*len, *k).iter().any(|w| shrinks_to(p, q, w)))
            }
        }
    }
}

/// Whether removing some piles of window `w` from `p` and lowering the other piles of `w` gives `q`
/// (piles outside `w` unchanged, order kept): which prefixes of `q` the prefixes of `p` can become.
fn shrinks_to(p: &[u64], q: &[u64], w: &[usize]) -> bool {
    let mut reach = vec![false; q.len() + 1];
    reach[0] = true;
    for (i, &pi) in p.iter().enumerate() {
        let inside = w.contains(&i);
        let mut next = vec![false; q.len() + 1];
        for j in 0..=q.len() {
            if !reach[j] {
                continue;
            }
            if inside {
                // Emptied (it vanishes), or kept at a height from 1 to its own.
                next[j] = true;
                if j < q.len() && q[j] <= pi {
                    next[j + 1] = true;
                }
            } else if j < q.len() && q[j] == pi {
                next[j + 1] = true;
            }
        }
        reach = next;
    }
    reach[q.len()]
}

/// The number of distinct positions `q != p` with `q <= p` that differ from `p` only inside one of
/// `faces`: the sum over every non-empty support `S` contained in some face of the product of `p_i`
/// over `S` (each changed entry takes one of `p_i` lower values). Saturates at `u128::MAX`. When
/// there are too many supports to list, counted as disjoint faces or as a union of boxes
/// ([`count_box_union`]); `None` only when that too would take too long.
pub fn count_face_options(faces: &[Vec<usize>], p: &[u64]) -> Option<u128> {
    // Every support inside some face, each once, as a bit set of places (positions have at most 64
    // entries wherever faces are used; longer ones go by boxes). Places holding 0 cannot change, so
    // they are dropped from the faces first; a face of f live places has 2^f subsets. Listing them
    // costs the sum of 2^f over the faces; past about a million (or with a face of 24 or more live
    // places) the count goes by disjoint faces or by the union of one box per face instead.
    let lives: Vec<Vec<usize>> = faces
        .iter()
        .map(|f| f.iter().copied().filter(|&i| p[i] > 0).collect())
        .collect();
    let listed: f64 = lives.iter().map(|l| 2f64.powi(l.len() as i32)).sum();
    if p.len() > 64 || listed > 1e6 || lives.iter().any(|l| l.len() >= 24) {
        return disjoint_faces_count(faces, p).or_else(|| {
            let boxes: Vec<Vec<(u64, u64)>> = faces
                .iter()
                .map(|f| {
                    (0..p.len())
                        .map(|i| {
                            if f.contains(&i) {
                                (0, p[i])
                            } else {
                                (p[i], p[i])
                            }
                        })
                        .collect()
                })
                .collect();
            count_box_union(&boxes).map(|n| if n == u128::MAX { n } else { n - 1 })
        });
    }
    // A support is a set, whatever order its face lists its places in (the windows of a circle
    // wrap: [4,5,0,1]), so one support met in two faces is counted once.
    let mut supports: Vec<u64> = Vec::with_capacity(listed as usize);
    for live in &lives {
        for mask in 1u32..(1u32 << live.len()) {
            let set = (0..live.len())
                .filter(|j| mask >> j & 1 == 1)
                .fold(0u64, |m, j| m | 1 << live[j]);
            supports.push(set);
        }
    }
    supports.sort_unstable();
    supports.dedup();
    Some(supports.iter().fold(0u128, |acc, &s| {
        let prod = (0..p.len())
            .filter(|i| s >> i & 1 == 1)
            .fold(1u128, |a, i| a.saturating_mul(u128::from(p[i])));
        acc.saturating_add(prod)
    }))
}

/// The options of a face structure whose faces are pairwise disjoint: per face, the product of
/// `p_i + 1` minus one. `None` when two faces overlap.
fn disjoint_faces_count(faces: &[Vec<usize>], p: &[u64]) -> Option<u128> {
    let mut seen = vec![false; p.len()];
    for f in faces {
        for &i in f {
            if seen[i] {
                return None;
            }
            seen[i] = true;
        }
    }
    Some(faces.iter().fold(0u128, |acc, f| {
        let boxes = f
            .iter()
            .fold(1u128, |a, &i| a.saturating_mul(p[i] as u128 + 1));
        acc.saturating_add(boxes - 1)
    }))
}

/// Most recursion steps [`count_box_union`] takes before it gives up (`None`).
const BOX_UNION_STEPS: usize = 200_000;

/// The number of distinct integer points in the union of `boxes`, each a list of inclusive ranges
/// `(lo, hi)` (one per coordinate, all of the same length). Exact, saturating at `u128::MAX` (every
/// term is a positive product, so saturation never hides a cancellation). `None` when the boxes
/// overlap in so many ways that the count would take more than a bounded number of steps.
///
/// The count splits on one coordinate at a time: the ends of the boxes' ranges cut that coordinate
/// into segments, every point of a segment lies in the same boxes, and the count is the sum over
/// segments of the segment's length times the count of those boxes on the remaining coordinates
/// (memoised by coordinate and set of boxes). A coordinate where every box has the same range only
/// multiplies.
pub fn count_box_union(boxes: &[Vec<(u64, u64)>]) -> Option<u128> {
    use std::collections::HashMap;
    let Some(dim) = boxes.first().map(|b| b.len()) else {
        return Some(0);
    };
    if boxes.iter().any(|b| b.len() != dim) {
        return None;
    }
    let boxes: Vec<&Vec<(u64, u64)>> = boxes
        .iter()
        .filter(|b| b.iter().all(|&(l, h)| l <= h))
        .collect();
    struct Ctx<'a> {
        boxes: Vec<&'a Vec<(u64, u64)>>,
        dim: usize,
        memo: HashMap<(usize, Vec<u32>), u128>,
        steps: usize,
    }
    fn go(c: &mut Ctx, d: usize, active: Vec<u32>) -> Option<u128> {
        if active.is_empty() {
            return Some(0);
        }
        // Coordinates on which every active box has the same range only multiply.
        let mut d = d;
        let mut factor: u128 = 1;
        while d < c.dim {
            let r = c.boxes[active[0] as usize][d];
            if active.iter().any(|&b| c.boxes[b as usize][d] != r) {
                break;
            }
            factor = factor.saturating_mul(u128::from(r.1 - r.0) + 1);
            d += 1;
        }
        if d == c.dim {
            return Some(factor);
        }
        c.steps += 1;
        if c.steps > BOX_UNION_STEPS {
            return None;
        }
        let key = (d, active);
        if let Some(&v) = c.memo.get(&key) {
            return Some(factor.saturating_mul(v));
        }
        let active = key.1.clone();
        // Segment starts: every lo, and every hi + 1 (u64 ranges: hi + 1 taken in u128).
        let mut cuts: Vec<u128> = Vec::with_capacity(2 * active.len());
        for &b in &active {
            let (l, h) = c.boxes[b as usize][d];
            cuts.push(u128::from(l));
            cuts.push(u128::from(h) + 1);
        }
        cuts.sort_unstable();
        cuts.dedup();
        let mut total: u128 = 0;
        for w in cuts.windows(2) {
            let (a, b) = (w[0], w[1]); // the segment a..b (b exclusive)
            let inside: Vec<u32> = active
                .iter()
                .copied()
                .filter(|&i| {
                    let (l, h) = c.boxes[i as usize][d];
                    u128::from(l) <= a && b - 1 <= u128::from(h)
                })
                .collect();
            if inside.is_empty() {
                continue;
            }
            let sub = go(c, d + 1, inside)?;
            total = total.saturating_add((b - a).saturating_mul(sub));
        }
        c.memo.insert(key, total);
        Some(factor.saturating_mul(total))
    }
    let n = boxes.len();
    let mut ctx = Ctx {
        boxes,
        dim,
        memo: HashMap::new(),
        steps: 0,
    };
    go(&mut ctx, 0, (0..n as u32).collect())
}

/// The `len` windows of `k` consecutive places on a circle of `len` places (one window, every place,
/// when `k >= len`).
pub fn cyclic_windows(len: usize, k: usize) -> Vec<Vec<usize>> {
    if len == 0 {
        return Vec::new();
    }
    if k >= len {
        return vec![(0..len).collect()];
    }
    (0..len)
        .map(|s| (0..k).map(|j| (s + j) % len).collect())
        .collect()
}

/// How `table` bounds the positions of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableBound {
    /// `--max H`: every entry in a range (a box); `heaps` is true when the number of entries is free
    /// and `--heaps N` must give it.
    Box { heaps: bool },
    /// `--max-sum S`: every multiset with at most S tokens in all (chip games).
    TotalChips,
    /// `--max H`: every multiset with max - min at most H (games played up to adding a constant).
    Spread,
    /// The game cannot be tabulated.
    None,
}

/// How a position is drawn by front ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Entries in a row (heaps, boxes of chips).
    Row,
    /// Entries around a circle (Circular Nim and its relatives).
    Circle,
}

/// An impartial game given by its rules (one ruleset: a family with all its parameters fixed).
///
/// Required: [`Game::id`], [`Game::validate`], [`Game::for_each_option`]. Everything else has a
/// correct default. A game's parameters are fields of its own type; code that needs them (a theorem
/// about CN(7,4), say) asks for that type with `<dyn Game>::downcast_ref` (`dyn Game`'s method).
pub trait Game: AsAny + Send + Sync {
    /// The ruleset's name with all its parameters, e.g. `CN(7,4)`. Two games with the same id have the
    /// same rules; caches are keyed by it and never shared between different ids.
    fn id(&self) -> String;

    /// Checks that `p` is a position of this game; the error names the problem in one line.
    fn validate(&self, p: &[u64]) -> Result<()>;

    /// Calls `f` with every option (position reachable in one move) of `p`, stopping early when `f`
    /// returns `Break`. An option may be reported more than once; [`Game::options`] removes repeats.
    /// A game whose rules can fail (a script) returns the failure here; built-in games never fail.
    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()>;

    /// Every option of `p`, each once, in the order first generated.
    fn options(&self, p: &[u64]) -> Result<Vec<Pos>> {
        let mut seen: HashSet<Pos> = HashSet::new();
        let mut out = Vec::new();
        self.for_each_option(p, &mut |q| {
            if seen.insert(q.to_vec()) {
                out.push(q.to_vec());
            }
            ControlFlow::Continue(())
        })?;
        Ok(out)
    }

    /// Every option of `p`, each once, refusing (with `Ok(None)`) a position with more than `cap`.
    fn options_at_most(&self, p: &[u64], cap: usize) -> Result<Option<Vec<Pos>>> {
        let mut seen: HashSet<Pos> = HashSet::new();
        let mut out = Vec::new();
        let mut over = false;
        self.for_each_option(p, &mut |q| {
            if seen.insert(q.to_vec()) {
                if out.len() == cap {
                    over = true;
                    return ControlFlow::Break(());
                }
                out.push(q.to_vec());
            }
            ControlFlow::Continue(())
        })?;
        Ok((!over).then_some(out))
    }

    /// The exact number of distinct options of `p`, counted arithmetically (a product over the
    /// faces or windows a move may touch, multiset counts for chip games) without listing them, so
    /// that a front end can tell "too many to list" before enumerating. `None` when the game cannot
    /// count them without enumeration. Default: counted from [`Game::move_structure`] when it is
    /// a face structure, else `None`. Saturates at `u128::MAX` (never wraps).
    fn count_options(&self, p: &[u64]) -> Option<u128> {
        match self.move_structure(p.len())? {
            MoveStructure::Faces(faces) => count_face_options(&faces, p),
            MoveStructure::ShrinkingWindows { .. } => None,
        }
    }

    /// A failure recorded where the game could not return it ([`Game::canonical`] of a scripted
    /// game), reported here; callers that used `canonical` without generating options afterwards ask
    /// before they answer. Default: none.
    fn deferred_error(&self) -> Result<()> {
        Ok(())
    }

    /// True when `p` has no option.
    fn is_terminal(&self, p: &[u64]) -> Result<bool> {
        let mut any = false;
        self.for_each_option(p, &mut |_| {
            any = true;
            ControlFlow::Break(())
        })?;
        Ok(!any)
    }

    /// The representative of `p`'s class under the game's symmetries (the least tuple of the class).
    /// Positions in the same class have the same value. Default: no symmetry.
    fn canonical(&self, p: &[u64]) -> Pos {
        p.to_vec()
    }

    /// Independent parts of `p`, when `p` is a disjunctive sum of smaller positions of this same game
    /// (normal-play Grundy values then XOR). `None` when `p` does not split.
    fn split(&self, _p: &[u64]) -> Option<Vec<Pos>> {
        None
    }

    /// An upper bound on the number of positions a search from `p` may visit (before memoization and
    /// symmetry reduce it). Default: the product of `(p_i + 1)`.
    fn state_bound(&self, p: &[u64]) -> f64 {
        p.iter().map(|&a| a as f64 + 1.0).product()
    }

    /// An upper bound on the number of positions a search from `p` that cannot use [`Game::split`]
    /// (misère play, remoteness) may visit. Default: [`Game::state_bound`]. A game whose moves add
    /// entries (octal games that split a heap in two) reaches more positions than those below `p`.
    fn full_state_bound(&self, p: &[u64]) -> f64 {
        self.state_bound(p)
    }

    /// An upper bound on the number of options a position reachable from `p` can have.
    /// Default: the number of positions below `p`. (A scripted game, whose options only its script
    /// knows, returns an estimate instead: the most options seen at a few sampled positions.)
    fn branching_bound(&self, p: &[u64]) -> f64 {
        self.state_bound(p)
    }

    /// How moves act on positions of length `len`, when they have one of the structures the
    /// tabulation engine and the front ends understand. Default: none (options are enumerated).
    fn move_structure(&self, _len: usize) -> Option<MoveStructure> {
        None
    }

    /// Whether `q` is an option of `p`, decided without enumerating options where the game can.
    /// `None` when only enumeration can tell. Default: from [`Game::move_structure`].
    fn is_option(&self, p: &[u64], q: &[u64]) -> Option<bool> {
        self.move_structure(p.len())?.is_option(p, q)
    }

    /// How `table` bounds this game's positions. Default: a box of entries when
    /// [`Game::table_domain`] gives one for a fixed length, else nothing.
    fn table_bound(&self) -> TableBound {
        TableBound::Box { heaps: false }
    }

    /// The box that `table --max hi` covers, if the game supports tabulation by a bound on entries.
    /// `len` is the number of heaps for games that accept any number of them.
    fn table_domain(&self, _hi: u64, _len: Option<usize>) -> Result<BoxDomain> {
        Err(Error::Unsupported(format!(
            "{} has no box tabulation",
            self.id()
        )))
    }

    /// A random position for play whose entries are at most about `hi` (callers lower `hi` until the
    /// position is small enough to solve at once). `None` when the game has no random starts.
    fn random_position(&self, _rng: &mut Rng, _hi: u64) -> Option<Pos> {
        None
    }

    /// How front ends draw a position.
    fn layout(&self) -> Layout {
        Layout::Row
    }

    /// Parses a position in the game's notation and validates it.
    fn parse_position(&self, text: &str) -> Result<Pos> {
        let p = position::parse_list(text)?;
        self.validate(&p)?;
        Ok(p)
    }

    /// Prints a position in the game's notation.
    fn format_position(&self, p: &[u64]) -> String {
        position::format_tuple(p)
    }

    /// Prints a position in the notation the user typed `input` in (chip games accept Ferguson's
    /// multiplicative notation and answer in it). Default: [`Game::format_position`].
    fn format_like(&self, p: &[u64], _input: &str) -> String {
        self.format_position(p)
    }

    /// One paragraph on the rules, for `nimlab games`.
    fn rules(&self) -> String {
        String::new()
    }
}

impl dyn Game {
    /// The concrete game, when it is of type `T` (e.g. `game.downcast_ref::<CircularNim>()`).
    pub fn downcast_ref<T: Game>(&self) -> Option<&T> {
        self.as_any().downcast_ref::<T>()
    }
}

/// A small deterministic random number generator (SplitMix64) for random starts and self-tests.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `lo..=hi` (`hi >= lo`; the whole range `0..=2^64-1` included, where the span
    /// 2^64 does not fit in a u64).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        match (hi - lo).checked_add(1) {
            Some(span) => lo + self.next_u64() % span,
            None => self.next_u64(),
        }
    }
}

/// The least tuple among all rotations and reflections of a circle; used by circular games.
pub fn dihedral_min(p: &[u64]) -> Pos {
    let n = p.len();
    if n <= 1 {
        return p.to_vec();
    }
    // The least reading starts at a least entry, so only those starts are compared, index by index
    // without building the readings: (start, forward) describes one reading.
    let read = |start: usize, forward: bool, i: usize| {
        let at = if forward { start + i } else { start + n - i };
        p[if at >= n { at - n } else { at }]
    };
    let lo = *p.iter().min().expect("n > 1");
    let (mut best_start, mut best_fwd) = (n, true);
    for start in (0..n).filter(|&s| p[s] == lo) {
        for fwd in [true, false] {
            if best_start == n {
                (best_start, best_fwd) = (start, fwd);
                continue;
            }
            for i in 1..n {
                let (a, b) = (read(start, fwd, i), read(best_start, best_fwd, i));
                if a != b {
                    if a < b {
                        (best_start, best_fwd) = (start, fwd);
                    }
                    break;
                }
            }
        }
    }
    (0..n).map(|i| read(best_start, best_fwd, i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every q <= p, q != p, whose changed places lie in one face: counted one by one.
    fn brute_face_options(faces: &[Vec<usize>], p: &[u64]) -> u128 {
        let mut count = 0;
        let mut q = vec![0u64; p.len()];
        loop {
            let changed: Vec<usize> = (0..p.len()).filter(|&i| q[i] != p[i]).collect();
            if !changed.is_empty() && faces.iter().any(|f| changed.iter().all(|i| f.contains(i))) {
                count += 1;
            }
            let mut i = 0;
            while i < p.len() && q[i] == p[i] {
                q[i] = 0;
                i += 1;
            }
            if i == p.len() {
                return count;
            }
            q[i] += 1;
        }
    }

    #[test]
    fn random_ranges_reach_the_top() {
        let mut rng = Rng::new(3);
        for _ in 0..100 {
            let _ = rng.range(0, u64::MAX);
            assert!(rng.range(u64::MAX - 1, u64::MAX) >= u64::MAX - 1);
            assert_eq!(rng.range(7, 7), 7);
        }
    }

    #[test]
    fn box_sizes_never_wrap() {
        let d = BoxDomain {
            lengths: vec![2],
            lo: 0,
            hi: u64::MAX,
        };
        assert_eq!(d.radix_exact(), 1u128 << 64);
        assert_eq!(d.radix(), u64::MAX);
        assert!(d.size_f64() > 3.0e38);
        let empty = BoxDomain {
            lengths: vec![0, 1],
            lo: 1,
            hi: 0,
        };
        assert_eq!((empty.radix(), empty.radix_exact()), (0, 0));
        let d = BoxDomain {
            lengths: vec![3],
            lo: 5,
            hi: 9,
        };
        assert_eq!((d.radix(), d.size_f64()), (5, 125.0));
    }

    #[test]
    fn face_counts_and_box_unions_agree_with_counting_one_by_one() {
        let mut rng = Rng::new(7);
        for _ in 0..3000 {
            let n = rng.range(1, 7) as usize;
            let p: Vec<u64> = (0..n).map(|_| rng.range(0, 3)).collect();
            let faces: Vec<Vec<usize>> = (0..rng.range(1, 5))
                .map(|_| {
                    let mut f: Vec<usize> = (0..n).filter(|_| rng.range(0, 1) == 1).collect();
                    if f.is_empty() {
                        f.push(rng.range(0, n as u64 - 1) as usize);
                    }
                    // Faces in any order, as the windows of a circle come.
                    let r = rng.range(0, f.len() as u64 - 1) as usize;
                    f.rotate_left(r);
                    f
                })
                .collect();
            let want = brute_face_options(&faces, &p);
            assert_eq!(
                count_face_options(&faces, &p),
                Some(want),
                "{faces:?} {p:?}"
            );
            let boxes: Vec<Vec<(u64, u64)>> = faces
                .iter()
                .map(|f| {
                    (0..n)
                        .map(|i| {
                            if f.contains(&i) {
                                (0, p[i])
                            } else {
                                (p[i], p[i])
                            }
                        })
                        .collect()
                })
                .collect();
            assert_eq!(count_box_union(&boxes), Some(want + 1), "{faces:?} {p:?}");
        }
        // Wide boxes: [0, 2^64 - 1] twice over two coordinates is 2^128 points: saturated.
        let top = u64::MAX;
        assert_eq!(
            count_box_union(&[vec![(0, top), (0, top)]]),
            Some(u128::MAX)
        );
        assert_eq!(
            count_box_union(&[vec![(0, top), (1, 1)], vec![(5, 5), (0, 1)]]),
            Some(u128::from(top) + 2)
        );
    }
    #[test]
    fn dihedral_min_finds_least_rotation_or_reflection() {
        assert_eq!(dihedral_min(&[3, 1, 2]), vec![1, 2, 3]);
        assert_eq!(dihedral_min(&[2, 1, 3]), vec![1, 2, 3]);
        assert_eq!(
            dihedral_min(&[1, 7, 5, 6, 2, 3, 6]),
            vec![1, 6, 3, 2, 6, 5, 7]
        );
        assert_eq!(dihedral_min(&[]), Vec::<u64>::new());
    }

    /// Against the least of the 2n readings built one by one, on every circle of 1 to 7 entries in
    /// [0..3] (21,844 circles, many with repeated least entries).
    #[test]
    fn dihedral_min_equals_the_least_of_all_readings() {
        for n in 1..=7usize {
            for code in 0..4u64.pow(n as u32) {
                let p: Vec<u64> = (0..n).map(|i| (code >> (2 * i)) & 3).collect();
                let mut least: Option<Vec<u64>> = None;
                for start in 0..n {
                    let fwd: Vec<u64> = (0..n).map(|i| p[(start + i) % n]).collect();
                    let back: Vec<u64> = (0..n).map(|i| p[(start + n - i) % n]).collect();
                    for r in [fwd, back] {
                        if least.as_ref().is_none_or(|l| r < *l) {
                            least = Some(r);
                        }
                    }
                }
                assert_eq!(dihedral_min(&p), least.unwrap(), "{p:?}");
            }
        }
    }
}
