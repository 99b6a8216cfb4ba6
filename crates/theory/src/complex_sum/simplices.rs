//! Complexes whose facets are pairwise disjoint: a sum of simplices, which is Nim on the facet totals.
//!
//! Nim on a complex whose facets share no stack is the disjunctive sum of its facets. Inside one
//! facet every lower position is an option, so (by induction on the total) a facet holding T tokens
//! has exactly the options of the Nim heap *T up to identical games: it *is* *T, in normal and in
//! misère play. The whole game is Nim on the facet totals (Bouton). For ECN(m,S,k) this is the case
//! where g = gcd(m, s for s in S) > 1 and each step's facets go all the way round its circle: the
//! stacks of one residue class mod g form the circle ECN(m/g, S/g, k) [Suetsugu 2025], and with
//! `min(k, m / gcd(m,s)) = m / gcd(m,s)` for every step that circle is one facet. The theory names the
//! split it used. See docs/rules.md#theorem-complex-simplices.

use super::gcd;
use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::complex::{Complex, ComplexKind};

/// A complex with pairwise disjoint facets, at least two of them and one of two or more stacks (a
/// single facet is CN(n,n) and single stacks are Nim: both are answered as relabelings), in one play
/// convention.
pub struct Simplices {
    pub play: Play,
}

/// The facets of `game` when it is a sum of two or more disjoint simplices, not all single stacks.
pub(super) fn disjoint_facets(game: &dyn Game) -> Option<&[Vec<usize>]> {
    let c = game.downcast_ref::<Complex>()?;
    let f = c.facets();
    let total: usize = f.iter().map(|x| x.len()).sum();
    // Facets are distinct and maximal; they are disjoint exactly when their sizes add up to n.
    (f.len() >= 2 && total == c.stacks() && f.iter().any(|x| x.len() >= 2)).then_some(f)
}

/// The split in words, 1-based: `facets {1,3},{2,4}` and, for ECN, the circles it comes from.
fn describe(game: &dyn Game, facets: &[Vec<usize>]) -> String {
    let sets: Vec<String> = facets
        .iter()
        .map(|f| {
            let v: Vec<String> = f.iter().map(|i| (i + 1).to_string()).collect();
            format!("{{{}}}", v.join(","))
        })
        .collect();
    let mut s = format!(
        "{} is the sum of the disjoint facets {}",
        game.id(),
        sets.join(",")
    );
    if let Some(ComplexKind::Ecn { steps, k }) = game.downcast_ref::<Complex>().map(|c| c.kind()) {
        let m = game.downcast_ref::<Complex>().map_or(0, |c| c.stacks());
        let g = steps.iter().fold(m, |a, &b| gcd(a, b));
        let small: Vec<String> = steps.iter().map(|s| (s / g).to_string()).collect();
        s.push_str(&format!(
            " (the residue classes mod gcd({m},{{{}}}) = {g}, each the circle ECN({},{{{}}},{}), one facet)",
            steps
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(","),
            m / g,
            small.join(","),
            (*k).min(m / g)
        ));
    }
    s
}

/// The number of tokens on the stacks `f` of `p`, exactly: a facet of up to 64 stacks of up to
/// 2^64 - 1 tokens each holds less than 2^70, so the total is a `u128` and never wraps.
pub fn facet_total(p: &[u64], f: &[usize]) -> u128 {
    f.iter().map(|&i| u128::from(p[i])).sum()
}

/// `p` with the facet `f` lowered to `target` tokens in all (`target` below its total), taking from
/// the facet's first stacks first.
fn lower_facet(p: &[u64], f: &[usize], target: u128) -> Pos {
    let mut q = p.to_vec();
    let mut take = facet_total(p, f) - target;
    for &i in f {
        // `t` is at most `q[i]`, a u64, so the conversion back is exact.
        let t = take.min(u128::from(q[i]));
        q[i] -= t as u64;
        take -= t;
    }
    q
}

/// Most winning moves a verdict lists (past that, the list is marked partial).
const MAX_LISTED: usize = 2_000;

/// Every position that lowers the facet `f` of `p` to `target` tokens in all (`target` below the
/// facet's total), or `None` when there are more than `limit`. The stacks of the facet are
/// distributed as "keep `target`" or as "take the rest", whichever amount is smaller.
fn lowerings(p: &[u64], f: &[usize], target: u128, limit: usize) -> Option<Vec<Pos>> {
    let total = facet_total(p, f);
    let take = total - target;
    let (amount, keeping) = if target <= take {
        (target, true)
    } else {
        (take, false)
    };
    let caps: Vec<u128> = f.iter().map(|&i| u128::from(p[i])).collect();
    // suffix[i]: the most the stacks i.. can hold.
    let mut suffix = vec![0u128; caps.len() + 1];
    for i in (0..caps.len()).rev() {
        suffix[i] = suffix[i + 1] + caps[i];
    }
    let mut out: Vec<Pos> = Vec::new();
    let mut part = vec![0u128; caps.len()];
    let budget = std::cell::Cell::new(limit);
    fn go(
        i: usize,
        left: u128,
        caps: &[u128],
        suffix: &[u128],
        part: &mut Vec<u128>,
        budget: &std::cell::Cell<usize>,
        emit: &mut dyn FnMut(&[u128]),
    ) -> bool {
        if i == caps.len() {
            if left != 0 {
                return true;
            }
            if budget.get() == 0 {
                return false;
            }
            budget.set(budget.get() - 1);
            emit(part);
            return true;
        }
        let lo = left.saturating_sub(suffix[i + 1]);
        let hi = left.min(caps[i]);
        if lo > hi {
            return true;
        }
        // Every value of this stack leads to at least one distribution: too many when the range
        // alone is wider than what is left of the budget.
        if hi - lo >= budget.get() as u128 {
            return false;
        }
        for v in lo..=hi {
            part[i] = v;
            if !go(i + 1, left - v, caps, suffix, part, budget, emit) {
                return false;
            }
        }
        true
    }
    let ok = go(0, amount, &caps, &suffix, &mut part, &budget, &mut |d| {
        let mut q = p.to_vec();
        for (j, &i) in f.iter().enumerate() {
            // keep d[j] tokens, or take d[j] from p[i]: both at most p[i].
            q[i] = if keeping {
                d[j] as u64
            } else {
                p[i] - d[j] as u64
            };
        }
        out.push(q);
    });
    ok.then_some(out)
}

impl Theorem for Simplices {
    fn id(&self) -> &'static str {
        match self.play {
            Play::Normal => "complex-simplices",
            Play::Misere => "complex-simplices-misere",
        }
    }
    fn games(&self) -> &'static str {
        "simplicial(...), ECN(m,S,k) whose facets are pairwise disjoint (e.g. ECN(6,{3},k), ECN(8,{2},k >= 4), ECN(8,{4},k >= 2))"
    }
    fn statement(&self) -> &'static str {
        match self.play {
            Play::Normal => "When the facets of a complex are pairwise disjoint, the game is the sum of its facets, and a facet holding T tokens is the Nim heap *T (every lower position of a facet is an option). The Grundy value is the nim-sum of the facet totals; a position is P iff that nim-sum is 0. Winning move: as in Nim on the totals, lower one facet's total T to T xor X (X the nim-sum). For ECN(m,S,k) with g = gcd(m, S) > 1 the facets are the g residue classes mod g when every step's facets go round its circle.",
            Play::Misere => "When the facets of a complex are pairwise disjoint, a facet holding T tokens is the Nim heap *T as a game, so misère play is misère Nim on the facet totals (Bouton): a position is P iff the nim-sum of the totals is 0 while some facet holds 2 or more tokens, or it is 1 while every facet holds at most 1.",
        }
    }
    fn source(&self) -> &'static str {
        match self.play {
            Play::Normal => "C. L. Bouton, Nim, a game with a complete mathematical theory, Ann. Math. 3 (1901/02) on the facet totals; sums of games (Sprague–Grundy); Nim on a complex: R. Ehrenborg & E. Steingrímsson, Electronic J. Combin. 3 (1996); ECN splitting into circles mod gcd(m, S): K. Suetsugu, Extended circular nim, arXiv:2501.12045 (2025); see docs/rules.md#theorem-complex-simplices",
            Play::Misere => "C. L. Bouton, Nim, a game with a complete mathematical theory, Ann. Math. 3 (1901/02) (misère Nim) on the facet totals; Nim on a complex: R. Ehrenborg & E. Steingrímsson, Electronic J. Combin. 3 (1996); see docs/rules.md#theorem-complex-simplices-misere",
        }
    }
    fn play(&self) -> Play {
        self.play
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        disjoint_facets(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let facets = disjoint_facets(game)?;
        if game.validate(p).is_err() {
            return None;
        }
        // Totals and their nim-sum in u128: a facet of two stacks 2^64 - 1 and 1 holds 2^64.
        let totals: Vec<u128> = facets.iter().map(|f| facet_total(p, f)).collect();
        let x = totals.iter().fold(0u128, |a, &t| a ^ t);
        let big = totals.iter().any(|&t| t >= 2);
        let is_p = match self.play {
            Play::Normal => x == 0,
            Play::Misere => {
                if big {
                    x == 0
                } else {
                    x == 1
                }
            }
        };
        // The total each facet is lowered to by a winning move (Bouton, normal or misère).
        let target = |t: u128| -> Option<u128> {
            match self.play {
                Play::Normal => (t ^ x < t).then_some(t ^ x),
                Play::Misere => {
                    let others_big =
                        totals.iter().filter(|&&u| u >= 2).count() > usize::from(t >= 2);
                    if t >= 2 && !others_big {
                        // The last facet of 2 or more: leave an odd number of facets of total 1.
                        let ones = totals.iter().filter(|&&u| u == 1).count();
                        Some(u128::from(ones.is_multiple_of(2)))
                    } else if !big {
                        // Every facet at most 1 and x = 0 (N): empty one facet of total 1.
                        (t == 1).then_some(0)
                    } else {
                        (t ^ x < t).then_some(t ^ x)
                    }
                }
            }
        };
        // Every winning move lowers one facet to its target total (the target of a facet is unique:
        // Bouton's rule on the totals), in any way: the constructed move first (the facet's first
        // stacks first), then every other distribution while there are at most MAX_LISTED.
        let mut moves: Vec<Pos> = Vec::new();
        let mut complete = true;
        if !is_p {
            for (f, &t) in facets.iter().zip(&totals) {
                let Some(v) = target(t) else { continue };
                let first = lower_facet(p, f, v);
                if moves.is_empty() {
                    moves.push(first.clone());
                }
                match lowerings(p, f, v, MAX_LISTED.saturating_sub(moves.len())) {
                    Some(all) => {
                        let head = moves[0].clone();
                        moves.extend(all.into_iter().filter(|q| *q != head));
                    }
                    None => complete = false,
                }
            }
        }
        let list: Vec<String> = totals.iter().map(|t| t.to_string()).collect();
        let reason = format!(
            "{}: facet totals {}, nim-sum {x}{}",
            describe(game, facets),
            list.join(","),
            match (is_p, moves.first()) {
                (true, _) => " (P)".to_string(),
                (false, Some(q)) => format!(
                    "; move to {} (facet totals made to nim-sum {})",
                    game.format_position(q),
                    if self.play == Play::Normal {
                        "0"
                    } else {
                        "0, or 1 with every facet at most 1"
                    }
                ),
                (false, None) => String::new(),
            }
        );
        // The list is complete when it is empty for want of moves: a P-position, or the empty
        // position (N in misère play).
        let none_left = totals.iter().all(|&t| t == 0);
        Some(Verdict {
            all_winning_moves: is_p || none_left || complete,
            is_p,
            grundy: (self.play == Play::Normal).then_some(x),
            winning_moves: Some(moves),
            family: None,
            reason: Some(reason),
        })
    }
}
