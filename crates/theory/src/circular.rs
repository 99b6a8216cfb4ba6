//! Circular Nim results that hold for whole families of n (Dufour & Heubach, Circular Nim Games
//! (2013); Dufour, Heubach & Vo, Circular Nim Games CN(7,4) (2021); see
//! docs/rules.md#circular-nim-cnnk): CN(n,n), CN(n,n-1), CN(4,2), and the partial result Lemma 5 for
//! CN(2l+1,l+1). Winning moves are constructed directly from the position, so they work for stacks of
//! any size.

use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::CircularNim;

fn cn_params(game: &dyn Game) -> Option<(usize, usize)> {
    game.downcast_ref::<CircularNim>().map(|g| (g.n, g.k))
}

/// CN(n,n): the window is the whole circle, so only the zero position is P.
pub struct CnWhole;

impl Theorem for CnWhole {
    fn id(&self) -> &'static str {
        "cn-n-n"
    }
    fn games(&self) -> &'static str {
        "CN(n,n)"
    }
    fn statement(&self) -> &'static str {
        "In CN(n,n) the only P-position is the zero position; from any other position, take every token."
    }
    fn source(&self) -> &'static str {
        "Dufour & Heubach, Circular Nim Games, Electron. J. Combin. 20(2) (2013), Paper 22; see docs/rules.md#theorem-cn-n-n"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        cn_params(game).is_some_and(|(n, k)| n == k)
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let is_p = p.iter().all(|&a| a == 0);
        Some(Verdict {
            all_winning_moves: true,
            is_p,
            grundy: None,
            winning_moves: Some(if is_p { vec![] } else { vec![vec![0; p.len()]] }),
            ..Default::default()
        })
    }
}

/// CN(n,n-1): P iff all stacks are equal.
pub struct CnAllButOne;

impl Theorem for CnAllButOne {
    fn id(&self) -> &'static str {
        "cn-n-n-1"
    }
    fn games(&self) -> &'static str {
        "CN(n,n-1), n >= 2"
    }
    fn statement(&self) -> &'static str {
        "In CN(n,n-1) the P-positions are those with all stacks equal. Winning move: keep one smallest stack and lower every other stack to its height (the other n-1 stacks form a window)."
    }
    fn source(&self) -> &'static str {
        "Dufour & Heubach, Circular Nim Games, Electron. J. Combin. 20(2) (2013), Paper 22; see docs/rules.md#theorem-cn-n-n-1"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        cn_params(game).is_some_and(|(n, k)| n >= 2 && k + 1 == n)
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let m = *p.iter().min()?;
        let is_p = p.iter().all(|&a| a == m);
        // A winning move leaves all stacks equal to some v. One stack is outside the window and keeps its
        // height, so v is that height, and every stack must be at least v: v = m. The only target is
        // (m, ..., m), reached by keeping a smallest stack and lowering the others.
        let moves = if is_p { vec![] } else { vec![vec![m; p.len()]] };
        Some(Verdict {
            all_winning_moves: true,
            is_p,
            grundy: None,
            winning_moves: Some(moves),
            ..Default::default()
        })
    }
}

/// CN(4,2): P iff a1 = a3 and a2 = a4.
pub struct Cn42;

impl Theorem for Cn42 {
    fn id(&self) -> &'static str {
        "cn-4-2"
    }
    fn games(&self) -> &'static str {
        "CN(4,2)"
    }
    fn statement(&self) -> &'static str {
        "In CN(4,2) the P-positions are those with a1 = a3 and a2 = a4. Winning move: lower the larger stack of each opposite pair to the smaller one (the two larger stacks are adjacent, so they form a window)."
    }
    fn source(&self) -> &'static str {
        "Dufour & Heubach, Circular Nim Games, Electron. J. Combin. 20(2) (2013), Paper 22; see docs/rules.md#theorem-cn-4-2"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        cn_params(game) == Some((4, 2))
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let is_p = p[0] == p[2] && p[1] == p[3];
        let target: Pos = vec![
            p[0].min(p[2]),
            p[1].min(p[3]),
            p[0].min(p[2]),
            p[1].min(p[3]),
        ];
        Some(Verdict {
            all_winning_moves: true,
            is_p,
            grundy: None,
            winning_moves: Some(if is_p { vec![] } else { vec![target] }),
            ..Default::default()
        })
    }
}

/// Lemma 5: in CN(2l+1, l+1) every position of S1 = {(x, 0^(l-1), x, a1..al) : a1+...+al = x} (up to
/// symmetry) is P. It decides only the positions of S1; all others are left to search.
pub struct Lemma5;

/// True when `p` (a circle of 2l+1 stacks) is in S1 for some rotation or reflection.
pub fn in_s1(p: &[u64]) -> bool {
    let n = p.len();
    if n < 3 || n.is_multiple_of(2) {
        return false;
    }
    let l = (n - 1) / 2;
    let read = |start: usize, fwd: bool, i: usize| {
        if fwd {
            p[(start + i) % n]
        } else {
            p[(start + n - i) % n]
        }
    };
    (0..n).any(|s| {
        [true, false].into_iter().any(|fwd| {
            let x = read(s, fwd, 0);
            (1..l).all(|i| read(s, fwd, i) == 0)
                && read(s, fwd, l) == x
                && (l + 1..n).map(|i| read(s, fwd, i) as u128).sum::<u128>() == x as u128
        })
    })
}

impl Theorem for Lemma5 {
    fn id(&self) -> &'static str {
        "cn-lemma5-s1"
    }
    fn games(&self) -> &'static str {
        "CN(2l+1,l+1), l >= 1 (partial: decides only the positions of S1)"
    }
    fn statement(&self) -> &'static str {
        "In CN(2l+1,l+1) every position (x, 0^(l-1), x, a1, ..., al) with a1+...+al = x (up to rotation and reflection) is a P-position. Positions outside S1 are not decided by this result."
    }
    fn source(&self) -> &'static str {
        "Dufour, Heubach & Vo, Circular Nim Games CN(7,4), Integers 21B (2021), Lemma 5; see docs/rules.md#theorem-cn-lemma5-s1"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Partial
    }
    fn covers(&self, game: &dyn Game) -> bool {
        cn_params(game).is_some_and(|(n, k)| n >= 3 && n % 2 == 1 && k == (n - 1) / 2 + 1)
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        in_s1(p).then(|| Verdict {
            all_winning_moves: true,
            is_p: true,
            grundy: None,
            winning_moves: Some(vec![]),
            ..Default::default()
        })
    }
}
