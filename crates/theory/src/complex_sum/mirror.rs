//! Complexes with an antipodal pairing of the stacks: the mirror strategy.

use super::{cached, Cache};
use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::complex::Complex;
use std::sync::{Arc, OnceLock};

/// Complexes with an antipodal pairing: the stacks pair up so that no face holds both stacks of a
/// pair and every set made of one stack from each pair lies in a face (for ECN, stacks i and i+m/2:
/// ECN(6,{1,2},3), ECN(8,{1,3},4); also CN(4,2) and the boundary of the cross-polytope). Then the
/// P-positions are exactly those whose paired stacks are equal. See docs/rules.md#theorem-complex-mirror.
pub struct Mirror;

/// Most stacks for which the pairing is looked for (2^(n/2) transversals are checked once).
const MIRROR_MAX_STACKS: usize = 24;

/// The partner of each stack, when the complex has an antipodal pairing as above.
fn mirror_of(game: &dyn Game) -> Option<Arc<Vec<usize>>> {
    static CACHE: Cache<Vec<usize>> = OnceLock::new();
    cached(&CACHE, game, build_mirror)
}

fn build_mirror(c: &Complex) -> Option<Vec<usize>> {
    let n = c.stacks();
    if n < 2 || n % 2 == 1 || n > MIRROR_MAX_STACKS {
        return None;
    }
    let masks: Vec<u64> = c
        .facets()
        .iter()
        .map(|f| f.iter().fold(0u64, |m, &i| m | 1 << i))
        .collect();
    let full = (1u64 << n) - 1;
    // The partner of i is the one stack sharing no facet with i (a transversal through i and any
    // other stack j != partner lies in a face, so every other stack shares a facet with i).
    let mut partner = vec![0; n];
    for (i, p) in partner.iter_mut().enumerate() {
        let near = masks
            .iter()
            .filter(|&&m| m >> i & 1 == 1)
            .fold(1u64 << i, |a, &m| a | m);
        let far = full & !near;
        if far.count_ones() != 1 {
            return None;
        }
        *p = far.trailing_zeros() as usize;
    }
    if (0..n).any(|i| partner[partner[i]] != i) {
        return None;
    }
    let pairs: Vec<(usize, usize)> = (0..n)
        .filter(|&i| i < partner[i])
        .map(|i| (i, partner[i]))
        .collect();
    for choice in 0u64..1 << pairs.len() {
        let t = pairs.iter().enumerate().fold(0u64, |m, (b, &(i, j))| {
            m | 1 << if choice >> b & 1 == 1 { j } else { i }
        });
        if !masks.iter().any(|&f| f & t == t) {
            return None;
        }
    }
    Some(partner)
}

impl Theorem for Mirror {
    fn id(&self) -> &'static str {
        "complex-mirror"
    }
    fn games(&self) -> &'static str {
        "simplicial(...), ECN(m,S,k) whose stacks pair up with no face holding a pair and every choice of one stack per pair inside a face, e.g. ECN(6,{1,2},3), ECN(8,{1,3},4)"
    }
    fn statement(&self) -> &'static str {
        "Let the stacks of a complex pair up so that no face holds both stacks of a pair, and every set made of one stack from each pair lies in a face (for ECN(m,S,k): stack i with stack i+m/2). Then a position is P iff the two stacks of every pair are equal. (I) a move lowers stacks of one face, so at most one stack of each pair: from equal pairs it leaves an unequal one. (II) lowering every stack to the smaller of its pair changes at most one stack per pair, all inside one face: that is a move to equal pairs, the winning move."
    }
    fn source(&self) -> &'static str {
        "the mirror (Tweedledum and Tweedledee) strategy, E. R. Berlekamp, J. H. Conway & R. K. Guy, Winning Ways (1982); the condition on the faces and the proof are nimlab's (docs/rules.md); for ECN(6,{1,2},3) and ECN(8,{1,3},4) also proved for every stack size by nimlab prove (docs/findings.md, section 8); see docs/rules.md#theorem-complex-mirror"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        mirror_of(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let partner = mirror_of(game)?;
        if game.validate(p).is_err() {
            return None;
        }
        let is_p = (0..p.len()).all(|i| p[i] == p[partner[i]]);
        let q: Pos = (0..p.len()).map(|i| p[i].min(p[partner[i]])).collect();
        let pairs: Vec<String> = (0..p.len())
            .filter(|&i| i < partner[i])
            .map(|i| format!("{}-{}", i + 1, partner[i] + 1))
            .collect();
        let reason = format!(
            "{}: no face holds both stacks of a pair {}, and one stack from each pair always lies in a face; {}",
            game.id(),
            pairs.join(", "),
            if is_p {
                "the paired stacks are equal: P (answer every move on the other stack of each pair)".to_string()
            } else {
                format!(
                    "the pairs are not all equal: N, move to the smaller stack of each pair, {}",
                    game.format_position(&q)
                )
            }
        );
        Some(Verdict {
            all_winning_moves: false,
            is_p,
            grundy: is_p.then_some(0),
            winning_moves: Some(if is_p { Vec::new() } else { vec![q] }),
            family: None,
            reason: Some(reason),
        })
    }
}
