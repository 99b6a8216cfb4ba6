//! Nim-like baselines: Bouton's theorem (normal and misère) for Nim and for CN(n,1), which is Nim on
//! the stacks, and Moore's theorem for Nim_k.

use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::{CircularNim, MooreNim, Nim};

/// True for the games that are Nim on their entries: Nim, CN(n,1) and Moore's Nim_1.
pub fn is_nim_like(game: &dyn Game) -> bool {
    game.downcast_ref::<Nim>().is_some()
        || game.downcast_ref::<CircularNim>().is_some_and(|g| g.k == 1)
        || game.downcast_ref::<MooreNim>().is_some_and(|g| g.k == 1)
}

/// Bouton: a Nim position is P iff the XOR of its heaps is 0; its Grundy value is that XOR.
pub struct Bouton;

impl Theorem for Bouton {
    fn id(&self) -> &'static str {
        "bouton"
    }
    fn games(&self) -> &'static str {
        "nim, moore(1), CN(n,1)"
    }
    fn statement(&self) -> &'static str {
        "The Grundy value is a1 xor a2 xor ... xor an; P iff it is 0. Winning moves: lower a heap a_i to a_i xor X wherever that is smaller."
    }
    fn source(&self) -> &'static str {
        "C. L. Bouton, Nim, a game with a complete mathematical theory, Annals of Mathematics (2) 3 (1901/02), 35–39; see docs/rules.md#theorem-bouton"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        is_nim_like(game)
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let x = p.iter().fold(0, |a, &b| a ^ b);
        let moves = p
            .iter()
            .enumerate()
            .filter(|&(_, &a)| a ^ x < a)
            .map(|(i, &a)| {
                let mut q = p.to_vec();
                q[i] = a ^ x;
                q
            })
            .collect();
        Some(Verdict {
            all_winning_moves: true,
            is_p: x == 0,
            grundy: Some(u128::from(x)),
            winning_moves: Some(moves),
            ..Default::default()
        })
    }
}

/// Bouton's misère rule: P iff (every heap <= 1 and the number of ones is odd) or (some heap >= 2 and
/// the XOR is 0).
pub struct BoutonMisere;

/// Membership in the misère P-set of Nim.
pub fn misere_nim_is_p(p: &[u64]) -> bool {
    let x = p.iter().fold(0, |a, &b| a ^ b);
    if p.iter().all(|&a| a <= 1) {
        p.iter().filter(|&&a| a == 1).count() % 2 == 1
    } else {
        x == 0
    }
}

impl Theorem for BoutonMisere {
    fn id(&self) -> &'static str {
        "bouton-misere"
    }
    fn games(&self) -> &'static str {
        "nim, moore(1), CN(n,1)"
    }
    fn statement(&self) -> &'static str {
        "Misère play: P iff every heap is at most 1 and an odd number of heaps are 1, or some heap is at least 2 and the XOR of the heaps is 0."
    }
    fn source(&self) -> &'static str {
        "C. L. Bouton, Nim, a game with a complete mathematical theory (1901); Berlekamp, Conway & Guy, Winning Ways, ch. 13; see docs/rules.md#theorem-bouton-misere"
    }
    fn play(&self) -> Play {
        Play::Misere
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        is_nim_like(game)
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        // A winning move lowers one heap to a P-position; only three targets per heap can work:
        // the XOR target, 0 and 1.
        let x = p.iter().fold(0, |a, &b| a ^ b);
        let mut moves: Vec<Pos> = Vec::new();
        for (i, &a) in p.iter().enumerate() {
            let mut targets = vec![a ^ x, 0, 1];
            targets.sort_unstable();
            targets.dedup();
            for t in targets.into_iter().rev() {
                if t < a {
                    let mut q = p.to_vec();
                    q[i] = t;
                    if misere_nim_is_p(&q) {
                        moves.push(q);
                    }
                }
            }
        }
        Some(Verdict {
            all_winning_moves: true,
            is_p: misere_nim_is_p(p),
            grundy: None,
            winning_moves: Some(moves),
            ..Default::default()
        })
    }
}

/// Moore: a Nim_k position is P iff, in every binary place, the number of heaps with a 1 there is a
/// multiple of k+1.
pub struct MooreTheorem;

/// Membership in the P-set of Moore's Nim_k.
pub fn moore_is_p(k: u64, p: &[u64]) -> bool {
    (0..64)
        .all(|bit| (p.iter().filter(|&&a| a >> bit & 1 == 1).count() as u64).is_multiple_of(k + 1))
}

/// A winning move of Moore's Nim_k from an N-position (`None` at a P-position), built bit by bit
/// from the most significant as in Moore's proof: a set S of at most k heaps is being lowered (each
/// already smaller in a higher bit, so free below); in each column, with u ones among the other
/// heaps and r = u mod (k+1), either k+1-r heaps of S take a 1 (when S has that many), or r heaps
/// with a 1 join S by dropping it (then |S| + r <= k) and S takes 0s. Every column then has a
/// multiple of k+1 ones and at most k heaps changed, each lowered.
pub fn moore_move(k: usize, p: &[u64]) -> Option<Pos> {
    let m = (k + 1) as u64;
    let mut q = p.to_vec();
    let mut lowered = vec![false; p.len()];
    for bit in (0..64).rev() {
        let b = 1u64 << bit;
        let ones: Vec<usize> = (0..p.len())
            .filter(|&i| !lowered[i] && p[i] & b != 0)
            .collect();
        let r = ones.len() as u64 % m;
        let free: Vec<usize> = (0..p.len()).filter(|&i| lowered[i]).collect();
        if r != 0 && free.len() as u64 >= m - r {
            for (j, &i) in free.iter().enumerate() {
                q[i] = if (j as u64) < m - r {
                    q[i] | b
                } else {
                    q[i] & !b
                };
            }
            continue;
        }
        // r == 0, or S too small for k+1-r ones: r heaps with a 1 drop it and join S.
        for &i in ones.iter().take(r as usize) {
            lowered[i] = true;
            q[i] &= !b;
        }
        for (i, l) in lowered.iter().enumerate() {
            if *l {
                q[i] &= !b;
            }
        }
    }
    let changed = lowered.iter().filter(|&&l| l).count();
    (changed > 0 && changed <= k).then_some(q)
}

impl Theorem for MooreTheorem {
    fn id(&self) -> &'static str {
        "moore"
    }
    fn games(&self) -> &'static str {
        "moore(k)"
    }
    fn statement(&self) -> &'static str {
        "P iff for every binary place the number of heaps having a 1 in that place is divisible by k+1."
    }
    fn source(&self) -> &'static str {
        "E. H. Moore, A generalization of the game called Nim, Annals of Mathematics 11(3) (1910), 93–94; see docs/rules.md#theorem-moore"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        game.downcast_ref::<MooreNim>().is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = game.downcast_ref::<MooreNim>()?.k;
        let is_p = moore_is_p(k as u64, p);
        Some(Verdict {
            all_winning_moves: is_p,
            is_p,
            grundy: is_p.then_some(0),
            winning_moves: Some(if is_p {
                Vec::new()
            } else {
                moore_move(k, p).into_iter().collect()
            }),
            ..Default::default()
        })
    }
}
