//! Shrinking Circular Nim (Oginuma & Shinoda, Shrinking Circular Nim (2024); see
//! docs/rules.md#shrinking-circular-nim-scnnk): SCN(4,2), SCN(5,2), SCN(5,3), SCN(8,6), and the cases
//! the paper calls trivial (k = 1, k = n-1, k = n), stated here for every n. The P-set of
//! SCN(n,k) contains those of the smaller circles the game passes through; each entry lists them as
//! families of shorter length. Winning moves may empty piles of the window (they vanish), so the solver
//! also tries every set of emptied window piles.

use crate::linear::{Family, FamilyTheorem};
use crate::{Scope, Theorem, Verdict};
use nimlab_core::position::format_tuple;
use nimlab_core::{Game, Play, Pos};
use nimlab_games::ShrinkingCircularNim;

fn empty() -> Family {
    Family::new("()", "the empty circle", 0, &[])
}

fn equal(len: usize) -> Family {
    let (label, shape, rels): (&'static str, &'static str, &[&'static str]) = match len {
        3 => ("(a,a,a)", "three equal piles", &["a = b = c"]),
        4 => ("(a,a,a,a)", "four equal piles", &["a = b = c = d"]),
        7 => (
            "(a,a,a,a,a,a,a)",
            "seven equal piles",
            &["a = b = c = d = e = f = g"],
        ),
        _ => unreachable!("equal-pile families are listed for 3, 4 and 7 piles"),
    };
    Family::new(label, shape, len, rels)
}

fn scn42_families() -> Vec<Family> {
    vec![
        empty(),
        equal(3),
        Family::new(
            "(a,b,a,b)",
            "(a, b, a, b) with a != b",
            4,
            &["a = c", "b = d", "a < b"],
        ),
    ]
}

pub fn scn42() -> FamilyTheorem {
    FamilyTheorem::new(
        "scn-4-2",
        "SCN(4,2)",
        "In SCN(4,2) the P-positions are (a, b, a, b) with a != b, (a, a, a), and the empty circle ().",
        "Oginuma & Shinoda, Shrinking Circular Nim (2024), Theorem 2.3; see docs/rules.md#theorem-scn-4-2",
        "SCN",
        4,
        2,
        scn42_families,
    )
}

fn even(t: &[u64]) -> bool {
    t[2].is_multiple_of(2)
}
fn odd(t: &[u64]) -> bool {
    t[2] % 2 == 1
}

pub fn scn52() -> FamilyTheorem {
    FamilyTheorem::new(
        "scn-5-2",
        "SCN(5,2)",
        "In SCN(5,2) the P-positions are those of SCN(4,2) ((a,b,a,b) with a != b, (a,a,a), ()) and the 5-circles which, with m = min and M = max, are up to symmetry: (M, m, a, b, m) with m < a <= b < M and a + b = m + M; (m+1, M, m, m, M) with m even and m+2 <= M; (m+1, M, m, m, M) with m odd and m+3 <= M; (m+2, m+1, m, m, m+1) with m odd; (m+1, m+1, m, m, m+2) with m odd.",
        "Oginuma & Shinoda, Shrinking Circular Nim (2024), Theorem 3.2; see docs/rules.md#theorem-scn-5-2",
        "SCN",
        5,
        2,
        || {
            let mut v = scn42_families();
            v.extend([
                Family::new(
                    "P3",
                    "(M, m, a, b, m) with m < a <= b < M, a + b = m + M",
                    5,
                    &["b = e", "c + d = a + b", "b < c", "c <= d", "d < a"],
                ),
                Family::new(
                    "P4",
                    "(m+1, M, m, m, M) with m even, m+2 <= M",
                    5,
                    &["a = c + 1", "c = d", "b = e", "c + 2 <= b"],
                )
                .with_side(even),
                Family::new(
                    "P5",
                    "(m+1, M, m, m, M) with m odd, m+3 <= M",
                    5,
                    &["a = c + 1", "c = d", "b = e", "c + 3 <= b"],
                )
                .with_side(odd),
                Family::new(
                    "P6",
                    "(m+2, m+1, m, m, m+1) with m odd",
                    5,
                    &["a = c + 2", "b = c + 1", "d = c", "e = c + 1"],
                )
                .with_side(odd),
                Family::new(
                    "P7",
                    "(m+1, m+1, m, m, m+2) with m odd",
                    5,
                    &["a = c + 1", "b = c + 1", "d = c", "e = c + 2"],
                )
                .with_side(odd),
            ]);
            v
        },
    )
}

pub fn scn53() -> FamilyTheorem {
    FamilyTheorem::new(
        "scn-5-3",
        "SCN(5,3)",
        "In SCN(5,3) the P-positions are (a, a, a, a), the empty circle (), and the 5-circles which are up to symmetry (1, M, a, b, M) with 1 <= a < b <= M and a + b = 1 + M, or (2, 2p, p+1, p, 2p-1) with p >= 2.",
        "Oginuma & Shinoda, Shrinking Circular Nim (2024), Theorem 3.4; see docs/rules.md#theorem-scn-5-3",
        "SCN",
        5,
        3,
        || {
            vec![
                empty(),
                equal(4),
                Family::new(
                    "(1,M,a,b,M)",
                    "(1, M, a, b, M) with 1 <= a < b <= M, a + b = 1 + M",
                    5,
                    &["a = 1", "b = e", "c + d = 1 + b", "c >= 1", "c < d", "d <= b"],
                ),
                Family::new(
                    "(2,2p,p+1,p,2p-1)",
                    "(2, 2p, p+1, p, 2p-1) with p >= 2",
                    5,
                    &["a = 2", "b = 2d", "c = d + 1", "e = 2d - 1", "d >= 2"],
                ),
            ]
        },
    )
}

/// Not the excluded family (1, 2p-1, p, p, 2p-1, p, p, 2p-1) of Theorem 3.9.
fn not_exception(t: &[u64]) -> bool {
    !(t[2] == t[3]
        && t[3] == t[5]
        && t[5] == t[6]
        && t[1] as u128 + 1 == 2 * t[2] as u128
        && t[4] == t[1]
        && t[7] == t[1])
}

pub fn scn86() -> FamilyTheorem {
    FamilyTheorem::new(
        "scn-8-6",
        "SCN(8,6)",
        "In SCN(8,6) the P-positions are (a,a,a,a,a,a,a), the empty circle (), and the 8-circles which are up to symmetry (1, M, a, M-a+1, α, M-b+1, b, M) with a, b <= M and α = min(M, a+b-1), except the family (1, 2p-1, p, p, 2p-1, p, p, 2p-1), p >= 1.",
        "Oginuma & Shinoda, Shrinking Circular Nim (2024), Theorem 3.9; see docs/rules.md#theorem-scn-8-6",
        "SCN",
        8,
        6,
        || {
            vec![
                empty(),
                equal(7),
                Family::new(
                    "α=M",
                    "(1, M, a, M-a+1, α, M-b+1, b, M) with α = M <= a+b-1 (not (1,2p-1,p,p,2p-1,p,p,2p-1))",
                    8,
                    &["a = 1", "b = h", "c + d = b + 1", "f + g = b + 1", "c <= b", "g <= b", "e = b", "c + g - 1 >= b"],
                )
                .with_side(not_exception),
                Family::new(
                    "α=a+b-1",
                    "(1, M, a, M-a+1, α, M-b+1, b, M) with α = a+b-1 <= M (not (1,2p-1,p,p,2p-1,p,p,2p-1))",
                    8,
                    &["a = 1", "b = h", "c + d = b + 1", "f + g = b + 1", "c <= b", "g <= b", "e = c + g - 1", "c + g - 1 <= b"],
                )
                .with_side(not_exception),
            ]
        },
    )
}

fn scn_params(game: &dyn Game) -> Option<(usize, usize)> {
    game.downcast_ref::<ShrinkingCircularNim>()
        .map(|g| (g.n, g.k))
}

/// A verdict of the three simple SCN results, whose move lists are complete: SCN(n,1) lists every
/// pile it can lower to xor 0, SCN(n,n) and SCN(n,n-1) have a single P-target (the empty circle, or
/// the n equal piles at the minimum).
fn plain(is_p: bool, moves: Vec<Pos>, family: &str, reason: String) -> Verdict {
    Verdict {
        all_winning_moves: true,
        is_p,
        winning_moves: Some(moves),
        family: Some(family.to_string()),
        reason: Some(reason),
        ..Default::default()
    }
}

/// SCN(n,1): each move lowers one pile, so adjacency is irrelevant: Nim on the piles.
pub struct ScnNim;

impl Theorem for ScnNim {
    fn id(&self) -> &'static str {
        "scn-n-1"
    }
    fn games(&self) -> &'static str {
        "SCN(n,1)"
    }
    fn statement(&self) -> &'static str {
        "SCN(n,1) is Nim on the piles (a move lowers one pile; emptied piles vanish, which changes nothing): P iff the xor of the piles is 0. Winning move: lower a pile a to a xor X where that is smaller (to 0: the pile vanishes)."
    }
    fn source(&self) -> &'static str {
        "trivial case of Oginuma & Shinoda, Shrinking Circular Nim (2024), §3.1; Bouton (1901); see docs/rules.md#theorem-scn-n-1"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        scn_params(game).is_some_and(|(_, k)| k == 1)
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let x = p.iter().fold(0, |a, &b| a ^ b);
        if x == 0 {
            return Some(Verdict {
                grundy: Some(0),
                ..plain(true, vec![], "nim", "P: the xor of the piles is 0".into())
            });
        }
        let i = p.iter().position(|&a| a ^ x < a)?;
        let mut q = p.to_vec();
        q[i] ^= x;
        q.retain(|&a| a > 0);
        // Every winning move lowers one pile a to a xor x (Bouton); piles emptied vanish, so two
        // piles equal to x give the same circle when they are neighbours of the same piles.
        let mut moves: Vec<Pos> = vec![q.clone()];
        for (j, &a) in p.iter().enumerate().skip(i + 1) {
            if a ^ x < a {
                let mut t = p.to_vec();
                t[j] ^= x;
                t.retain(|&v| v > 0);
                if !moves.contains(&t) {
                    moves.push(t);
                }
            }
        }
        Some(Verdict {
            grundy: Some(u128::from(x)),
            ..plain(
                false,
                moves,
                "nim",
                format!(
                    "N: the xor of the piles is {x}; lowering pile {} from {} to {} gives {} with xor 0",
                    i + 1,
                    p[i],
                    p[i] ^ x,
                    format_tuple(&q)
                ),
            )
        })
    }
}

/// SCN(n,n): every window is the whole circle, so only () is P.
pub struct ScnWhole;

impl Theorem for ScnWhole {
    fn id(&self) -> &'static str {
        "scn-n-n"
    }
    fn games(&self) -> &'static str {
        "SCN(n,n)"
    }
    fn statement(&self) -> &'static str {
        "In SCN(n,n) every circle of at most n piles can be taken whole: only the empty circle () is P."
    }
    fn source(&self) -> &'static str {
        "trivial case of Oginuma & Shinoda, Shrinking Circular Nim (2024), §3.1; see docs/rules.md#theorem-scn-n-n"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        scn_params(game).is_some_and(|(n, k)| n == k)
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        Some(if p.is_empty() {
            plain(true, vec![], "()", "P: the empty circle is terminal".into())
        } else {
            plain(
                false,
                vec![vec![]],
                "()",
                "N: take every pile (the window is the whole circle), leaving ()".into(),
            )
        })
    }
}

/// SCN(n,n-1): a circle of fewer than n piles is taken whole; in a full circle nobody may empty a pile
/// (the opponent would take the rest), so it plays like CN(n,n-1): P iff all piles are equal.
pub struct ScnAllButOne;

impl Theorem for ScnAllButOne {
    fn id(&self) -> &'static str {
        "scn-n-n-1"
    }
    fn games(&self) -> &'static str {
        "SCN(n,n-1), n >= 2"
    }
    fn statement(&self) -> &'static str {
        "In SCN(n,n-1) the P-positions are the empty circle () and the full circles of n equal piles. A shorter circle is taken whole; from a full circle that is not constant, keep one smallest pile and lower the other n-1 (a window) to its height."
    }
    fn source(&self) -> &'static str {
        "trivial case of Oginuma & Shinoda, Shrinking Circular Nim (2024), §3.1 (SCN(3,2), SCN(4,3), SCN(5,4), SCN(7,6) are quoted in Theorems 2.3, 3.4, 3.9); see docs/rules.md#theorem-scn-n-n-1"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        scn_params(game).is_some_and(|(n, k)| n >= 2 && k + 1 == n)
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let n = scn_params(game)?.0;
        if p.is_empty() {
            return Some(plain(true, vec![], "()", "P: the empty circle".into()));
        }
        if p.len() < n {
            return Some(plain(
                false,
                vec![vec![]],
                "()",
                format!(
                    "N: a circle of {} < {n} piles is one window; take it whole",
                    p.len()
                ),
            ));
        }
        let m = *p.iter().min()?;
        if p.iter().all(|&a| a == m) {
            return Some(plain(
                true,
                vec![],
                "equal piles",
                format!("P: all {n} piles equal {m}"),
            ));
        }
        let q = vec![m; n];
        Some(plain(
            false,
            vec![q.clone()],
            "equal piles",
            format!(
                "N: keep a smallest pile ({m}) and lower the other {} to it: {}",
                n - 1,
                format_tuple(&q)
            ),
        ))
    }
}
