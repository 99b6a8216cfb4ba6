//! Empty & Transfer ET(k) (Ferguson, Some Chip Transfer Games, §2, Propositions 1–6; see
//! docs/rules.md#empty--transfer-etk).

use super::{n_verdict, ok_boxes, p_verdict, v2};
use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::EmptyTransfer;

/// The number of boxes of `game` when it is Empty & Transfer.
fn et_boxes(game: &dyn Game) -> Option<usize> {
    game.downcast_ref::<EmptyTransfer>().map(|g| g.k)
}

/// E&T, Proposition 1: a position whose boxes are all odd is a P-position (every k).
pub struct EtAllOdd;

impl Theorem for EtAllOdd {
    fn id(&self) -> &'static str {
        "ferguson-et-odd"
    }
    fn games(&self) -> &'static str {
        "ET(k) (partial: decides only the positions whose boxes are all odd)"
    }
    fn statement(&self) -> &'static str {
        "Empty & Transfer, any k: every position whose boxes all hold an odd number of chips is a P-position (Grundy value 0). Decides only such positions."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §2, Proposition 1; see docs/rules.md#theorem-ferguson-et-odd"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Partial
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
    let evens: Vec<usize> = (0..p.len()).filter(|&i| p[i].is_multiple_of(2)).collect();
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
        "ET(k) (partial: decides only the positions with one or two even boxes)"
    }
    fn statement(&self) -> &'static str {
        "Empty & Transfer, any k: a position with exactly one or two even boxes is an N-position. Winning move: with two even boxes empty one and put one chip of the other into it; with one even box empty an odd box and put one chip of the even box into it (all boxes are then odd). Decides only such positions."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §2, Proposition 2; see docs/rules.md#theorem-ferguson-et-two-even"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Partial
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
        "Ferguson, Some Chip Transfer Games, §2, Proposition 3 (and Propositions 1, 2); see docs/rules.md#theorem-ferguson-et-k2-grundy"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
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
        "Ferguson, Some Chip Transfer Games, §2, Proposition 4; see docs/rules.md#theorem-ferguson-et-k3"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
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
                let evens: Vec<usize> = (0..4).filter(|&i| w[i].is_multiple_of(2)).collect();
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
        "Ferguson, Some Chip Transfer Games, §2, Propositions 5 and 6 and the algorithm after them; see docs/rules.md#theorem-ferguson-et-k4"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
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
