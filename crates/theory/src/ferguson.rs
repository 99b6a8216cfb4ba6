//! Ferguson's chip-transfer games: every closed form of T. S. Ferguson, *Some Chip Transfer Games*
//! (SPEC.md §3), as theory entries. Every answer is computed from the box contents with a number of
//! operations polynomial in k and the number of bits, never by enumerating options, so boxes of 10^18
//! chips are answered at once. Sums are taken in `u128`.
//!
//! A constructed move whose boxes would not fit in 64 bits (possible only when the total number of
//! chips is above `u64::MAX`) is left out of `winning_moves`; the verdict itself is still exact.

use crate::{Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::{EmptyTransfer, EntropyReduction, RedistKind, Redistribute};
use std::fmt;

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

/// The number of boxes of `game` when it is Empty & Transfer.
fn et_boxes(game: &dyn Game) -> Option<usize> {
    game.downcast_ref::<EmptyTransfer>().map(|g| g.k)
}

/// The number of boxes of `game` when it is the redistribution game `kind`.
fn redist_boxes(game: &dyn Game, kind: RedistKind) -> Option<usize> {
    game.downcast_ref::<Redistribute>()
        .filter(|g| g.kind == kind)
        .map(|g| g.k)
}

/// The number of boxes of `game` when it is `EJR(k,j)` with `j = j_of_k(k)`.
fn ejr_boxes(game: &dyn Game, j_of_k: impl Fn(usize) -> usize) -> Option<usize> {
    let g = game.downcast_ref::<Redistribute>()?;
    (g.kind == RedistKind::Ejr(j_of_k(g.k))).then_some(g.k)
}

/// True when `p` has exactly `k` boxes, each with at least one chip.
fn ok_boxes(p: &[u64], k: usize) -> bool {
    p.len() == k && p.iter().all(|&x| x >= 1)
}

fn sorted(p: &[u64]) -> Pos {
    let mut q = p.to_vec();
    q.sort_unstable();
    q
}

fn dedup_sorted(mut moves: Vec<Pos>) -> Vec<Pos> {
    for m in moves.iter_mut() {
        m.sort_unstable();
    }
    moves.sort();
    moves.dedup();
    moves
}

fn total(p: &[u64]) -> u128 {
    p.iter().map(|&x| x as u128).sum()
}

/// The position v^(k-1) z (sorted), or `None` when z does not fit in 64 bits.
fn power_position(k: usize, v: u128, z: u128) -> Option<Pos> {
    let v = u64::try_from(v).ok()?;
    let z = u64::try_from(z).ok()?;
    let mut q = vec![v; k - 1];
    q.push(z);
    q.sort_unstable();
    Some(q)
}

/// The exponent of 2 in `x` (x > 0).
fn v2(x: u64) -> u32 {
    x.trailing_zeros()
}

fn p_verdict(normal: bool) -> Verdict {
    Verdict {
        all_winning_moves: true,
        is_p: true,
        grundy: if normal { Some(0) } else { None },
        winning_moves: Some(Vec::new()),
        ..Default::default()
    }
}

fn n_verdict(moves: Vec<Pos>, all: bool, grundy: Option<u64>) -> Verdict {
    Verdict {
        all_winning_moves: all,
        is_p: false,
        grundy,
        winning_moves: Some(dedup_sorted(moves)),
        ..Default::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Empty & Transfer
// ---------------------------------------------------------------------------------------------

/// E&T, Proposition 1: a position whose boxes are all odd is a P-position (every k).
pub struct EtAllOdd;

impl Theorem for EtAllOdd {
    fn id(&self) -> &'static str {
        "ferguson-et-odd"
    }
    fn games(&self) -> &'static str {
        "ET(k)"
    }
    fn statement(&self) -> &'static str {
        "Empty & Transfer, any k: every position whose boxes all hold an odd number of chips is a P-position (Grundy value 0). Decides only such positions."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §2, Proposition 1"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn covers(&self, game: &dyn Game) -> bool {
        et_boxes(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = et_boxes(game)?;
        if ok_boxes(p, k) && p.iter().all(|&x| x % 2 == 1) {
            Some(p_verdict(true))
        } else {
            None
        }
    }
}

/// The moves of Proposition 2 from a position with exactly one or two even boxes (into all-odd).
fn et_prop2_moves(p: &[u64]) -> Vec<Pos> {
    let evens: Vec<usize> = (0..p.len()).filter(|&i| p[i] % 2 == 0).collect();
    let odds: Vec<usize> = (0..p.len()).filter(|&i| p[i] % 2 == 1).collect();
    let mut moves = Vec::new();
    let mut apply = |empty: usize, from: usize| {
        let mut q = p.to_vec();
        q[empty] = 1;
        q[from] = p[from] - 1;
        moves.push(q);
    };
    match evens.len() {
        1 => {
            for &o in &odds {
                apply(o, evens[0]);
            }
        }
        2 => {
            apply(evens[0], evens[1]);
            apply(evens[1], evens[0]);
        }
        _ => {}
    }
    moves
}

/// E&T, Proposition 2: a position with exactly one or two even boxes is an N-position.
pub struct EtOneOrTwoEven;

impl Theorem for EtOneOrTwoEven {
    fn id(&self) -> &'static str {
        "ferguson-et-two-even"
    }
    fn games(&self) -> &'static str {
        "ET(k)"
    }
    fn statement(&self) -> &'static str {
        "Empty & Transfer, any k: a position with exactly one or two even boxes is an N-position. Winning move: with two even boxes empty one and put one chip of the other into it; with one even box empty an odd box and put one chip of the even box into it (all boxes are then odd). Decides only such positions."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §2, Proposition 2"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn covers(&self, game: &dyn Game) -> bool {
        et_boxes(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = et_boxes(game)?;
        if !ok_boxes(p, k) {
            return None;
        }
        let evens = p.iter().filter(|&&x| x % 2 == 0).count();
        if evens == 1 || evens == 2 {
            Some(n_verdict(et_prop2_moves(p), false, None))
        } else {
            None
        }
    }
}

/// The Sprague–Grundy value of E&T with two boxes, by the recursion of Proposition 3:
/// g(x,y) = 0 when x and y are odd, otherwise g(x,y) = 1 + g(ceil(x/2), ceil(y/2)).
pub fn et2_grundy(x: u64, y: u64) -> u64 {
    let (mut x, mut y) = (x, y);
    let mut g = 0;
    while x % 2 == 0 || y % 2 == 0 {
        // g(2a,2b) = g(2a,2b-1) = g(2a-1,2b) = 1 + g(a,b): halve, rounding up.
        x = x / 2 + x % 2;
        y = y / 2 + y % 2;
        g += 1;
    }
    g
}

/// The same value by Ferguson's binary method: find the least bit j where x and y are not both 0;
/// if both are 1 the value is j, otherwise add 2^j to the number having the 1 and repeat.
pub fn et2_grundy_binary(x: u64, y: u64) -> u64 {
    let (mut x, mut y) = (x as u128, y as u128);
    loop {
        let j = (x | y).trailing_zeros();
        let (xj, yj) = ((x >> j) & 1, (y >> j) & 1);
        if xj == 1 && yj == 1 {
            return j as u64;
        }
        if xj == 1 {
            x += 1u128 << j;
        } else {
            y += 1u128 << j;
        }
    }
}

/// E&T with two boxes, Proposition 3: the Sprague–Grundy function.
pub struct EtTwoBoxGrundy;

impl Theorem for EtTwoBoxGrundy {
    fn id(&self) -> &'static str {
        "ferguson-et-k2-grundy"
    }
    fn games(&self) -> &'static str {
        "ET(2)"
    }
    fn statement(&self) -> &'static str {
        "Empty & Transfer with two boxes: g(x,y) = 0 if x and y are both odd, and g(2x,2y) = g(2x,2y-1) = g(2x-1,2y) = 1 + g(x,y); equivalently (binary method) add 2^j at the lowest bit j where exactly one of x, y has a 1 until both have a 1 at bit j, and then g = j. P iff both boxes are odd. Example: g(31,54) = 6. Winning move from an even box y: empty the other box and put one chip of y into it."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §2, Proposition 3 (and Propositions 1, 2)"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn covers(&self, game: &dyn Game) -> bool {
        et_boxes(game) == Some(2)
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        if et_boxes(game) != Some(2) || !ok_boxes(p, 2) {
            return None;
        }
        let g = et2_grundy(p[0], p[1]);
        if g == 0 {
            return Some(p_verdict(true));
        }
        Some(n_verdict(et_prop2_moves(p), false, Some(g)))
    }
}

/// E&T with three boxes, Proposition 4: P iff the three boxes have the same 2-adic valuation.
pub struct EtThreeBoxes;

/// Membership in the P-set of ET(3).
pub fn et3_is_p(p: &[u64]) -> bool {
    p.len() == 3 && v2(p[0]) == v2(p[1]) && v2(p[1]) == v2(p[2])
}

impl Theorem for EtThreeBoxes {
    fn id(&self) -> &'static str {
        "ferguson-et-k3"
    }
    fn games(&self) -> &'static str {
        "ET(3)"
    }
    fn statement(&self) -> &'static str {
        "Empty & Transfer with three boxes: P iff n_i = 2^j m_i with m_i odd for one j and all i (the same power of 2 divides each box exactly). Winning move: with j1 <= j2 <= j3 the exponents and j1 < j3, empty box 2 and move 2^j1 chips of box 3 into it (or, when j2 > j1, empty box 3 and move 2^j1 chips of box 2 into it)."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §2, Proposition 4"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn covers(&self, game: &dyn Game) -> bool {
        et_boxes(game) == Some(3)
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        if et_boxes(game) != Some(3) || !ok_boxes(p, 3) {
            return None;
        }
        if et3_is_p(p) {
            return Some(p_verdict(true));
        }
        let mut idx = [0usize, 1, 2];
        idx.sort_by_key(|&i| v2(p[i]));
        let (i1, i2, i3) = (idx[0], idx[1], idx[2]);
        let unit = 1u64 << v2(p[i1]);
        let mut moves = Vec::new();
        // Empty box 2, move 2^j1 chips of box 3 into it.
        let mut q = p.to_vec();
        q[i2] = unit;
        q[i3] = p[i3] - unit;
        moves.push(q);
        if v2(p[i2]) > v2(p[i1]) {
            let mut q = p.to_vec();
            q[i3] = unit;
            q[i2] = p[i2] - unit;
            moves.push(q);
        }
        Some(n_verdict(moves, false, None))
    }
}

/// The outcome of ET(4) by the halving algorithm of §2 (Propositions 5, 6, 1, 2), with the number
/// `g` of halvings and the constructed winning moves.
pub fn et4_halving(p: &[u64]) -> (bool, u32, Vec<Pos>) {
    let mut w: Vec<u128> = p.iter().map(|&x| x as u128).collect();
    let mut g: u32 = 0;
    loop {
        let odd: Vec<usize> = (0..4).filter(|&i| w[i] % 2 == 1).collect();
        match odd.len() {
            0 => {
                // Proposition 5: (a,b,c,d) ~ (2a,2b,2c,2d).
                for x in w.iter_mut() {
                    *x /= 2;
                }
                g += 1;
            }
            1 => {
                // Proposition 6: (2a,2b,2c,2d-1) ~ (a,b,c,d).
                w[odd[0]] += 1;
                for x in w.iter_mut() {
                    *x /= 2;
                }
                g += 1;
            }
            4 => return (true, g, Vec::new()),
            n => {
                let unit = 1u64 << g;
                let evens: Vec<usize> = (0..4).filter(|&i| w[i] % 2 == 0).collect();
                let mut moves = Vec::new();
                let mut apply = |empty: usize, from: usize| {
                    if p[from] > unit {
                        let mut q = p.to_vec();
                        q[empty] = unit;
                        q[from] = p[from] - unit;
                        moves.push(q);
                    }
                };
                if n == 3 {
                    for &o in &odd {
                        apply(o, evens[0]);
                    }
                } else {
                    apply(evens[0], evens[1]);
                    apply(evens[1], evens[0]);
                }
                return (false, g, moves);
            }
        }
    }
}

/// E&T with four boxes, Propositions 5 and 6 and the halving algorithm.
pub struct EtFourBoxes;

impl Theorem for EtFourBoxes {
    fn id(&self) -> &'static str {
        "ferguson-et-k4"
    }
    fn games(&self) -> &'static str {
        "ET(4)"
    }
    fn statement(&self) -> &'static str {
        "Empty & Transfer with four boxes: (a,b,c,d), (2a,2b,2c,2d) and (2a,2b,2c,2d-1) have the same outcome. Halve while all boxes are even; with exactly one odd box add 1 to it and halve; stop at 4 odd boxes (P) or 2 or 3 odd boxes (N). With g halvings done, the winning move empties a box that led to an odd number and moves 2^g chips into it from the one that led to an even number (3 odd), or empties one box that led to an even number and moves 2^g chips into it from the other (2 odd)."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §2, Propositions 5 and 6 and the algorithm after them"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn covers(&self, game: &dyn Game) -> bool {
        et_boxes(game) == Some(4)
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        if et_boxes(game) != Some(4) || !ok_boxes(p, 4) {
            return None;
        }
        let (is_p, _, moves) = et4_halving(p);
        Some(if is_p {
            p_verdict(true)
        } else {
            n_verdict(moves, false, None)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Empty-All-But-One
// ---------------------------------------------------------------------------------------------

fn eabo_k(game: &dyn Game) -> Option<usize> {
    redist_boxes(game, RedistKind::Eabo).or_else(|| ejr_boxes(game, |k| k - 1))
}

/// Membership in the normal-play P-set of EABO(k) (Proposition 7).
pub fn eabo_is_p(k: usize, p: &[u64]) -> bool {
    let m = (k as u128) * (k as u128 - 1);
    p.iter().all(|&x| {
        let r = x as u128 % m;
        r >= 1 && r < k as u128
    })
}

/// Splits `r` into `k` parts, each between `lo_each` and `cap`, starting from `start` (a vector of
/// k starting values, each <= cap), filling greedily. The caller guarantees it fits.
fn fill_greedy(start: Vec<u128>, cap: u128, mut extra: u128) -> Vec<u128> {
    let mut v = start;
    for x in v.iter_mut() {
        let add = (cap - *x).min(extra);
        *x += add;
        extra -= add;
    }
    v
}

/// E&R's winning-move construction from box `x` for EABO (normal play): a split of x into k parts,
/// every part 1..k-1 modulo k(k-1).
fn eabo_split(k: usize, x: u64) -> Option<Pos> {
    let kk = k as u128;
    let m = kk * (kk - 1);
    let r = x as u128 % m;
    if (1..kk).contains(&r) || (x as u128) < kk {
        return None;
    }
    let target = if r == 0 { m } else { r };
    let mut v = fill_greedy(vec![1; k], kk - 1, target - kk);
    v[k - 1] += x as u128 - target;
    Some(v.into_iter().map(|y| y as u64).collect())
}

/// Empty-All-But-One, Proposition 7 (normal play).
pub struct EaboNormal;

impl Theorem for EaboNormal {
    fn id(&self) -> &'static str {
        "ferguson-eabo"
    }
    fn games(&self) -> &'static str {
        "EABO(k), EJR(k,k-1)"
    }
    fn statement(&self) -> &'static str {
        "Empty-All-But-One with k boxes: P iff 1 <= n_i mod k(k-1) < k for every box. Winning move: keep a box whose residue mod k(k-1) is 0 or >= k and split it into k parts whose residues lie in 1..k-1."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §3, Proposition 7"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn covers(&self, game: &dyn Game) -> bool {
        eabo_k(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = eabo_k(game)?;
        if !ok_boxes(p, k) {
            return None;
        }
        if eabo_is_p(k, p) {
            return Some(p_verdict(true));
        }
        let moves = p.iter().filter_map(|&x| eabo_split(k, x)).collect();
        Some(n_verdict(moves, false, None))
    }
}

/// Membership in the misère P-set of EABO(k) (Proposition 7, misère).
pub fn eabo_misere_is_p(k: usize, p: &[u64]) -> bool {
    let kk = k as u128;
    let q = (kk - 1) * (2 * kk - 1);
    let ok = |x: u64| {
        let x = x as u128;
        (1..kk).contains(&x) || (kk..=2 * kk - 2).contains(&(x % q))
    };
    p.iter().all(|&x| ok(x)) && p.iter().any(|&x| x as u128 >= kk)
}

fn eabo_misere_split(k: usize, x: u64) -> Option<Pos> {
    let kk = k as u128;
    let q = (kk - 1) * (2 * kk - 1);
    let xx = x as u128;
    let r = xx % q;
    if xx < kk || (kk..=2 * kk - 2).contains(&r) {
        return None;
    }
    let target = if r >= 2 * kk - 1 { r } else { r + q };
    if target > xx {
        return None;
    }
    let mut start = vec![1u128; k];
    start[0] = kk;
    let mut v = fill_greedy(start, 2 * kk - 2, target - (2 * kk - 1));
    v[0] += xx - target;
    Some(v.into_iter().map(|y| y as u64).collect())
}

/// Empty-All-But-One, Proposition 7 (misère).
pub struct EaboMisere;

impl Theorem for EaboMisere {
    fn id(&self) -> &'static str {
        "ferguson-eabo-misere"
    }
    fn games(&self) -> &'static str {
        "EABO(k), EJR(k,k-1) (misère)"
    }
    fn statement(&self) -> &'static str {
        "Misère Empty-All-But-One with k boxes, q = (k-1)(2k-1): P iff every box has 1 <= n_i <= k-1 or k <= n_i mod q <= 2k-2, and not all n_i < k. Winning move: keep a box n_i >= k whose residue mod q is not in k..2k-2 and split it into parts in 1..2k-2 (plus a multiple of q on a part >= k), at least one part >= k."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §3, Proposition 7 (misère)"
    }
    fn play(&self) -> Play {
        Play::Misere
    }
    fn covers(&self, game: &dyn Game) -> bool {
        eabo_k(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = eabo_k(game)?;
        if !ok_boxes(p, k) {
            return None;
        }
        if eabo_misere_is_p(k, p) {
            return Some(p_verdict(false));
        }
        let moves = p.iter().filter_map(|&x| eabo_misere_split(k, x)).collect();
        Some(n_verdict(moves, false, None))
    }
}

// ---------------------------------------------------------------------------------------------
// Empty & Redistribute
// ---------------------------------------------------------------------------------------------

fn er_k(game: &dyn Game) -> Option<usize> {
    redist_boxes(game, RedistKind::Er).or_else(|| ejr_boxes(game, |_| 1))
}

/// f(k) = min{ j >= 1 : j+1 does not divide k-1 } (k >= 2).
pub fn er_f(k: u64) -> u64 {
    let mut j = 1;
    while (k - 1) % (j + 1) == 0 {
        j += 1;
    }
    j
}

/// The index j with n in R_j(k), if n is in R(k) = R_1(k) ∪ ... ∪ R_f(k).
pub fn er_r_index(k: u64, n: u128) -> Option<u64> {
    let f = er_f(k);
    let kk = k as u128;
    for j in 1..=f {
        let jj = j as u128;
        let in_range = if j < f {
            jj * kk <= n && n < (jj + 1) * kk
        } else {
            n >= jj * kk
        };
        if in_range && n % (jj + 1) == (jj * (kk - 1)) % (jj + 1) {
            return Some(j);
        }
    }
    None
}

/// True when n is in S(k) = {k, k+1, ...} minus R(k): the norms of the positions x(n).
pub fn er_in_s(k: u64, n: u128) -> bool {
    n >= k as u128 && er_r_index(k, n).is_none()
}

/// For n in S(k), the pair (v, z) with x(n) = v^(k-1) z (Proposition 8); `None` when n is not in S(k).
pub fn er_x(k: u64, n: u128) -> Option<(u128, u128)> {
    if !er_in_s(k, n) {
        return None;
    }
    let f = er_f(k) as u128;
    let kk = k as u128;
    let j = if n < f * kk { n / kk } else { f };
    let v = (n - j * (kk - 1)) % (j + 1);
    Some((v, n - (kk - 1) * v))
}

/// Membership in the normal-play P-set of ER(k): no box x_i has |x| - x_i in S(k).
pub fn er_is_p(k: usize, p: &[u64]) -> bool {
    let n = total(p);
    p.iter().all(|&x| !er_in_s(k as u64, n - x as u128))
}

/// One part of R(k) as printed by `nimlab theory ER(k)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErRPart {
    pub j: u64,
    /// Least n of the range.
    pub from: u128,
    /// One past the largest n of the range; `None` for the unbounded last part R_f(k).
    pub until: Option<u128>,
    /// n ≡ residue (mod modulus).
    pub modulus: u128,
    pub residue: u128,
}

/// What `nimlab theory ER(k)` prints: f(k), the parts R_j(k), the first elements of S(k) and R(k), and
/// x(n) for n in S(k) up to a bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErSummary {
    pub k: u64,
    pub f: u64,
    pub r_parts: Vec<ErRPart>,
    /// Elements of S(k) up to the bound.
    pub s: Vec<u128>,
    /// Elements of R(k) up to the bound.
    pub r: Vec<u128>,
    /// (n, v, z) with x(n) = v^(k-1) z for n in S(k) up to the bound.
    pub x: Vec<(u128, u128, u128)>,
    pub upto: u128,
}

/// The objects of Proposition 8 for ER(k), listed up to norm `upto`. `None` when k < 2.
pub fn er_summary(k: u64, upto: u128) -> Option<ErSummary> {
    if k < 2 {
        return None;
    }
    let f = er_f(k);
    let kk = k as u128;
    let r_parts = (1..=f)
        .map(|j| {
            let jj = j as u128;
            ErRPart {
                j,
                from: jj * kk,
                until: if j < f { Some((jj + 1) * kk) } else { None },
                modulus: jj + 1,
                residue: (jj * (kk - 1)) % (jj + 1),
            }
        })
        .collect();
    let mut s = Vec::new();
    let mut r = Vec::new();
    let mut x = Vec::new();
    let mut n = kk;
    while n <= upto {
        if let Some((v, z)) = er_x(k, n) {
            s.push(n);
            x.push((n, v, z));
        } else {
            r.push(n);
        }
        n += 1;
    }
    Some(ErSummary {
        k,
        f,
        r_parts,
        s,
        r,
        x,
        upto,
    })
}

fn list(v: &[u128]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for ErSummary {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.k;
        writeln!(
            out,
            "Empty & Redistribute ER({k}) (Ferguson, Proposition 8)"
        )?;
        writeln!(
            out,
            "f({k}) = {} (least j >= 1 with j+1 not dividing k-1 = {})",
            self.f,
            k - 1
        )?;
        for part in &self.r_parts {
            match part.until {
                Some(u) => writeln!(
                    out,
                    "R_{}({k}) = {{n : {} <= n < {}, n ≡ {} mod {}}}",
                    part.j, part.from, u, part.residue, part.modulus
                )?,
                None => writeln!(
                    out,
                    "R_{}({k}) = {{n : n >= {}, n ≡ {} mod {}}}",
                    part.j, part.from, part.residue, part.modulus
                )?,
            }
        }
        writeln!(out, "R({k}) up to {}: {{{}}}", self.upto, list(&self.r))?;
        writeln!(out, "S({k}) up to {}: {{{}}}", self.upto, list(&self.s))?;
        writeln!(out, "x(n) = v^{} z for n in S({k}):", k - 1)?;
        for &(n, v, z) in &self.x {
            let mut p = vec![v as u64; (k - 1) as usize];
            p.push(z as u64);
            writeln!(out, "  x({n}) = {}", nimlab_games::format_power(&p))?;
        }
        writeln!(
            out,
            "A position x is N iff some box x_i has |x| - x_i in S({k}); the winning move discards x_i and redistributes to x(|x| - x_i)."
        )
    }
}

/// Empty & Redistribute, Proposition 8 (normal play).
pub struct ErNormal;

impl Theorem for ErNormal {
    fn id(&self) -> &'static str {
        "ferguson-er"
    }
    fn games(&self) -> &'static str {
        "ER(k), EJR(k,1)"
    }
    fn statement(&self) -> &'static str {
        "Empty & Redistribute with k boxes: with f(k) = min{j >= 1 : j+1 does not divide k-1}, R_j(k) = {n : jk <= n < (j+1)k, n ≡ j(k-1) mod j+1} for j < f(k), R_f(k) = {n >= k f(k) : n ≡ f(k)(k-1) mod f(k)+1}, and S(k) = {k, k+1, ...} minus their union, a position x is N iff some box x_i has |x| - x_i in S(k). Winning move: discard x_i and redistribute to x(n) = v^(k-1) z, n = |x| - x_i, j = floor(n/k) if n < k f(k) else f(k), v = (n - j(k-1)) mod (j+1), z = n - (k-1)v. For even k the P-positions are the all-odd positions."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §4, Proposition 8 and Lemma 4"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn covers(&self, game: &dyn Game) -> bool {
        er_k(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = er_k(game)?;
        if !ok_boxes(p, k) {
            return None;
        }
        let n = total(p);
        let mut moves = Vec::new();
        let mut found = false;
        for &x in p {
            if let Some((v, z)) = er_x(k as u64, n - x as u128) {
                found = true;
                if let Some(q) = power_position(k, v, z) {
                    moves.push(q);
                }
            }
        }
        Some(if found {
            n_verdict(moves, false, None)
        } else {
            p_verdict(true)
        })
    }
}

/// For misère E&R, the v with x(n) = v^(k-1) z a P-position of norm n (Proposition 8, misère), or
/// `None` when every position of norm n is an N-position.
pub fn er_misere_v(k: u64, n: u128) -> Option<u128> {
    let kk = k as u128;
    if k % 2 == 1 {
        // P = {1^(k-1) z : z even}: norms n = k-1+z with z >= 2 even.
        return (n > kk && (n - (kk - 1)) % 2 == 0).then_some(1);
    }
    if n > kk && n < 2 * kk {
        return (n % 2 == 1).then_some(1);
    }
    if n < 2 * kk {
        return None;
    }
    if k % 6 == 4 {
        if n < 3 * kk {
            return match (n - 2 * kk) % 3 {
                0 => Some(2),
                2 => Some(1),
                _ => None,
            };
        }
        return match (n - 3 * kk) % 4 {
            0 => Some(3),
            3 => Some(2),
            2 => Some(1),
            _ => None,
        };
    }
    // k ≡ 0, 2 (mod 6)
    match (n - 2 * kk) % 3 {
        0 => Some(2),
        2 => Some(1),
        _ => None,
    }
}

/// Membership in the misère P-set of ER(k): not terminal, and no box x_i has a norm |x| - x_i for
/// which [`er_misere_v`] names a P-position.
pub fn er_misere_is_p(k: usize, p: &[u64]) -> bool {
    let n = total(p);
    !p.iter().all(|&x| x == 1)
        && p.iter()
            .all(|&x| er_misere_v(k as u64, n - x as u128).is_none())
}

/// Empty & Redistribute, Proposition 8 (misère).
pub struct ErMisere;

impl Theorem for ErMisere {
    fn id(&self) -> &'static str {
        "ferguson-er-misere"
    }
    fn games(&self) -> &'static str {
        "ER(k), EJR(k,1) (misère)"
    }
    fn statement(&self) -> &'static str {
        "Misère Empty & Redistribute with k boxes. k odd: P = {1^(k-1) z : z even}. k ≡ 0, 2 (mod 6): x(n) = 1^(k-1) z for n odd with k < n < 2k and for n >= 2k with n-2k ≡ 2 (mod 3), x(n) = 2^(k-1) z for n >= 2k with n-2k ≡ 0 (mod 3). k ≡ 4 (mod 6): as before for n < 3k, and for n >= 3k x(n) = 3^(k-1) z, 2^(k-1) z, 1^(k-1) z when n-3k ≡ 0, 3, 2 (mod 4). All such x(n) are P-positions; for every other norm n, every position of norm n is N. A non-terminal x is N iff some |x| - x_i is such a norm; the winning move discards x_i and redistributes to x(|x| - x_i)."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §4, Proposition 8 (misère)"
    }
    fn play(&self) -> Play {
        Play::Misere
    }
    fn covers(&self, game: &dyn Game) -> bool {
        er_k(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = er_k(game)?;
        if !ok_boxes(p, k) {
            return None;
        }
        if p.iter().all(|&x| x == 1) {
            // The terminal position is an N-position in misère play; there is no move.
            return Some(n_verdict(Vec::new(), true, None));
        }
        let n = total(p);
        let mut moves = Vec::new();
        let mut found = false;
        for &x in p {
            let m = n - x as u128;
            if let Some(v) = er_misere_v(k as u64, m) {
                found = true;
                if let Some(q) = power_position(k, v, m - (k as u128 - 1) * v) {
                    moves.push(q);
                }
            }
        }
        Some(if found {
            n_verdict(moves, false, None)
        } else {
            p_verdict(false)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Selective-Empty & Redistribute
// ---------------------------------------------------------------------------------------------

/// A nonempty set of indices among the first `m` boxes whose sum is ≡ 0 (mod k), by a dynamic
/// programme over residues (O(m k) steps).
fn zero_sum_subset(p: &[u64], m: usize, k: usize) -> Option<Vec<usize>> {
    // first[r] = (item index, previous residue or None for the singleton) for the first nonempty
    // subset found with sum ≡ r.
    let mut first: Vec<Option<(usize, Option<usize>)>> = vec![None; k];
    for (i, &x) in p.iter().enumerate().take(m) {
        let xr = (x % k as u64) as usize;
        let before: Vec<usize> = (0..k).filter(|&r| first[r].is_some()).collect();
        if first[xr].is_none() {
            first[xr] = Some((i, None));
        }
        for r in before {
            let nr = (r + xr) % k;
            if first[nr].is_none() {
                first[nr] = Some((i, Some(r)));
            }
        }
        if first[0].is_some() {
            break;
        }
    }
    let mut out = Vec::new();
    let mut r = 0usize;
    loop {
        let (i, prev) = first[r]?;
        out.push(i);
        match prev {
            None => break,
            Some(pr) => r = pr,
        }
    }
    Some(out)
}

/// Membership in the P-set of SER(k): the total is a multiple of k and no nonempty set of at most
/// k-1 boxes has a total that is a multiple of k.
pub fn ser_is_p(k: usize, p: &[u64]) -> bool {
    total(p) % k as u128 == 0 && zero_sum_subset(p, p.len().saturating_sub(1), k).is_none()
}

/// Selective-Empty & Redistribute (normal play).
pub struct SerNormal;

impl Theorem for SerNormal {
    fn id(&self) -> &'static str {
        "ferguson-ser"
    }
    fn games(&self) -> &'static str {
        "SER(k)"
    }
    fn statement(&self) -> &'static str {
        "Selective-Empty & Redistribute with k boxes: the norms of P-positions are the multiples of k, and 1^(k-1) z is P for such norms. Hence (completing §4's argument) x is P iff |x| ≡ 0 (mod k) and no nonempty set of at most k-1 boxes has a total ≡ 0 (mod k). Winning move: keep a nonempty proper set of boxes with total n ≡ 0 (mod k) (one exists: among k numbers some nonempty subset sums to 0 mod k, by pigeonhole on prefix sums) and redistribute to 1^(k-1) (n-k+1)."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §4 (Selective-Empty & Redistribute); Roberts, Applied Combinatorics, Ex. 8.1.26"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn covers(&self, game: &dyn Game) -> bool {
        redist_boxes(game, RedistKind::Ser).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = redist_boxes(game, RedistKind::Ser)?;
        if !ok_boxes(p, k) {
            return None;
        }
        let kk = k as u128;
        let n = total(p);
        let mut keeps: Vec<Vec<usize>> = Vec::new();
        if n % kk != 0 {
            // Prefix sums s_0 = 0, ..., s_k take k+1 values mod k: two agree, and not s_0, s_k.
            let mut seen: Vec<Option<usize>> = vec![None; k];
            let mut s = 0u128;
            seen[0] = Some(0);
            for (i, &x) in p.iter().enumerate() {
                s += x as u128;
                let r = (s % kk) as usize;
                if let Some(a) = seen[r] {
                    keeps.push((a..=i).collect());
                    break;
                }
                seen[r] = Some(i + 1);
            }
        } else {
            match zero_sum_subset(p, k - 1, k) {
                None => return Some(p_verdict(true)),
                Some(d) => {
                    let rest: Vec<usize> = (0..k).filter(|i| !d.contains(i)).collect();
                    keeps.push(d);
                    keeps.push(rest);
                }
            }
        }
        let moves = keeps
            .into_iter()
            .filter_map(|keep| {
                let m: u128 = keep.iter().map(|&i| p[i] as u128).sum();
                power_position(k, 1, m - (kk - 1))
            })
            .collect();
        Some(n_verdict(moves, false, None))
    }
}

// ---------------------------------------------------------------------------------------------
// Entropy Reduction, k = 3
// ---------------------------------------------------------------------------------------------

/// (max − min, mid − min) of a three-box position.
fn entropy_norm(p: &[u64]) -> (u64, u64) {
    let s = sorted(p);
    (s[2] - s[0], s[1] - s[0])
}

/// Membership in the normal-play P-set of ENTROPY(3) (Proposition 9): two boxes are equal and the
/// difference d to the third is 0 or 4^n times an odd number.
pub fn entropy3_is_p(p: &[u64]) -> bool {
    let (x, y) = entropy_norm(p);
    (y == 0 || y == x) && (x == 0 || v2(x) % 2 == 0)
}

/// Membership in the misère P-set of ENTROPY(3) (Proposition 9, misère), in the notation (x, y) =
/// (max − min, mid − min).
pub fn entropy3_misere_is_p(p: &[u64]) -> bool {
    let (x, y) = entropy_norm(p);
    if matches!((x, y), (2, 0) | (2, 1) | (2, 2) | (5, 2) | (5, 3)) {
        return true;
    }
    if x == 0 || !(y == 0 || y == x) {
        return false;
    }
    let e = v2(x);
    let m = x >> e;
    if e % 2 == 1 {
        // P2: x = 4^n 2m with m in {3, 7}.
        m == 3 || m == 7
    } else {
        // P3: x = 4^n m, m odd, m not 3 or 7, and m != 1 when n <= 1.
        m != 3 && m != 7 && !(m == 1 && e / 2 <= 1)
    }
}

/// Every move of a three-box position that lands in the set `is_p`, found among O(1) candidates: a
/// move transfers t chips from a box of A to a box of C < A with the third box w fixed; a P-position
/// has two equal boxes or (misère) max − min <= 5, so t is within 5 of A − w, w − C or (A − C)/2.
fn entropy3_moves(p: &[u64], is_p: fn(&[u64]) -> bool) -> Vec<Pos> {
    let s = sorted(p);
    let mut out = Vec::new();
    for from in 0..3 {
        for to in 0..3 {
            if from == to || s[from] <= s[to] + 1 {
                continue;
            }
            let w = s[3 - from - to] as i128;
            let (a, c) = (s[from] as i128, s[to] as i128);
            let mut cands: Vec<i128> = Vec::new();
            for centre in [a - w, w - c, (a - c) / 2] {
                for d in -5..=5 {
                    cands.push(centre + d);
                }
            }
            for t in cands {
                if t < 1 || t > a - c - 1 {
                    continue;
                }
                let q = vec![(a - t) as u64, (c + t) as u64, w as u64];
                if is_p(&q) {
                    out.push(q);
                }
            }
        }
    }
    out
}

fn entropy_k3(game: &dyn Game) -> bool {
    game.downcast_ref::<EntropyReduction>()
        .is_some_and(|g| g.k == 3)
}

/// Entropy Reduction with three boxes, Proposition 9 (normal play).
pub struct Entropy3Normal;

impl Theorem for Entropy3Normal {
    fn id(&self) -> &'static str {
        "ferguson-entropy-k3"
    }
    fn games(&self) -> &'static str {
        "ENTROPY(3)"
    }
    fn statement(&self) -> &'static str {
        "Entropy Reduction with three boxes: P iff the position is (x,x,y) with x = y or |x-y| = 4^n m, m odd. From an N-position a winning move transfers chips from the largest box to the smallest (to (x,u,u) with u = (x+y)/2, or until one box equals the middle one, or to the midpoint). All winning moves are listed."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §5, Proposition 9"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn covers(&self, game: &dyn Game) -> bool {
        entropy_k3(game)
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        if !entropy_k3(game) || p.len() != 3 {
            return None;
        }
        if entropy3_is_p(p) {
            return Some(p_verdict(true));
        }
        Some(n_verdict(entropy3_moves(p, entropy3_is_p), true, None))
    }
}

/// Entropy Reduction with three boxes, Proposition 9 (misère).
pub struct Entropy3Misere;

impl Theorem for Entropy3Misere {
    fn id(&self) -> &'static str {
        "ferguson-entropy-k3-misere"
    }
    fn games(&self) -> &'static str {
        "ENTROPY(3) (misère)"
    }
    fn statement(&self) -> &'static str {
        "Misère Entropy Reduction with three boxes, writing a position as (x,y) = (max-min, mid-min): P = {(2,0),(2,1),(2,2),(5,2),(5,3)} ∪ {(x,0),(x,x) : x = 4^n 2m, m in {3,7}} ∪ {(x,0),(x,x) : x = 4^n m, m odd, m not 3 or 7, m != 1 when n <= 1}. All winning moves are listed."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §5, Proposition 9 (misère)"
    }
    fn play(&self) -> Play {
        Play::Misere
    }
    fn covers(&self, game: &dyn Game) -> bool {
        entropy_k3(game)
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        if !entropy_k3(game) || p.len() != 3 {
            return None;
        }
        if entropy3_misere_is_p(p) {
            return Some(p_verdict(false));
        }
        Some(n_verdict(
            entropy3_moves(p, entropy3_misere_is_p),
            true,
            None,
        ))
    }
}

/// Every entry of this module, most specific first.
pub fn entries() -> Vec<Box<dyn Theorem>> {
    vec![
        Box::new(EtTwoBoxGrundy),
        Box::new(EtThreeBoxes),
        Box::new(EtFourBoxes),
        Box::new(EtOneOrTwoEven),
        Box::new(EtAllOdd),
        Box::new(EaboNormal),
        Box::new(EaboMisere),
        Box::new(ErNormal),
        Box::new(ErMisere),
        Box::new(SerNormal),
        Box::new(Entropy3Normal),
        Box::new(Entropy3Misere),
    ]
}
