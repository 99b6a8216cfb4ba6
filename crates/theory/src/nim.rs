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
        let k = game.downcast_ref::<MooreNim>()?.k as u64;
        Some(Verdict {
            all_winning_moves: false,
            is_p: moore_is_p(k, p),
            grundy: None,
            winning_moves: None,
            ..Default::default()
        })
    }
}
