//! The registry's results about Ferguson's chip games as claims: linear ones as SMT sets
//! ([`from_registry`]), ET(3) and ENTROPY(3) in bit-vectors below 2^w ([`from_registry_bits`]), and
//! the P-sets that the provers building their own sets take ([`registry_p_set`]), each with the
//! entry's own `decide` as exact membership; and the records of which results are proved on which
//! games ([`CHIP_PROVED`] and its kin), which `nimlab theory` reports ([`checked`]).

use super::{ChipClaim, ChipGame, ChipKind, ChipSet, Exact, CHIP_PROVED_BY_AUTOMATA};
use crate::expr::{Cmp, Expr, Formula};
use nimlab_core::{Arg, Error, Play, Refusal, Result};

/// The registry results proved here for every box size, with the numbers of boxes k they are
/// proved for (the test `every_chip_result_listed_is_proved` in tests/chips.rs proves the k it
/// runs in CI, the ignored test `every_chip_result_listed_is_proved_for_every_k` all of them; the
/// times are in docs/findings.md).
pub const CHIP_PROVED: &[(&str, &[&str])] = &[
    (
        "ferguson-et-odd",
        &[
            "ET(2)", "ET(3)", "ET(4)", "ET(5)", "ET(6)", "ET(7)", "ET(8)",
        ],
    ),
    (
        "ferguson-et-two-even",
        &[
            "ET(2)", "ET(3)", "ET(4)", "ET(5)", "ET(6)", "ET(7)", "ET(8)",
        ],
    ),
    ("ferguson-et-k2-grundy", &["ET(2)"]),
    (
        "ferguson-eabo",
        &[
            "EABO(2)", "EABO(3)", "EABO(4)", "EABO(5)", "EABO(6)", "EABO(7)", "EABO(8)",
        ],
    ),
    (
        "ferguson-eabo-misere",
        &[
            "EABO(2)", "EABO(3)", "EABO(4)", "EABO(5)", "EABO(6)", "EABO(7)",
        ],
    ),
    (
        "ferguson-er",
        &["ER(2)", "ER(3)", "ER(4)", "ER(5)", "ER(6)"],
    ),
    (
        "ferguson-er-misere",
        &["ER(2)", "ER(3)", "ER(4)", "ER(5)", "ER(6)"],
    ),
    (
        "ferguson-ser",
        &["SER(2)", "SER(3)", "SER(4)", "SER(5)", "SER(6)"],
    ),
];

/// The games of [`CHIP_PROVED`] that the CI test proves (the others: the ignored test).
pub const CHIP_PROVED_IN_CI: &[&str] = &[
    "ET(2)", "ET(3)", "ET(4)", "EABO(2)", "EABO(3)", "EABO(4)", "ER(2)", "ER(3)", "ER(4)",
    "SER(2)", "SER(3)", "SER(4)",
];

/// The results that read binary digits, proved in bit-vectors for boxes below 2^w on their game
/// (evidence for all sizes, not a proof; the test `binary_results_are_proved_below_2_w` runs
/// smaller w, docs/findings.md gives the times of these). Both are also proved for every size by
/// automata ([`CHIP_PROVED_BY_AUTOMATA`]), which is what [`checked`] reports for them.
pub const CHIP_PROVED_BELOW: &[(&str, &str, u32)] = &[
    ("ferguson-et-k3", "ET(3)", 24),
    ("ferguson-entropy-k3", "ENTROPY(3)", 5),
];

/// What `nimlab theory` says of a chip result proved here: `None` when `id` is not one of them.
pub fn checked(id: &str) -> Option<(String, Vec<&'static str>)> {
    if let Some((_, game)) = CHIP_PROVED_BY_AUTOMATA.iter().find(|(i, _)| *i == id) {
        return Some(("proved for all sizes (automata)".into(), vec![*game]));
    }
    if let Some((_, game, w)) = CHIP_PROVED_BELOW.iter().find(|(i, _, _)| *i == id) {
        return Some((
            format!("proved below 2^{w} on {game}; checked on a box"),
            vec![*game],
        ));
    }
    let (_, games) = CHIP_PROVED.iter().find(|(i, _)| *i == id)?;
    let what = match id {
        "ferguson-et-odd" => " (its members are P-positions)",
        "ferguson-et-two-even" => " (its members are N-positions: each moves into the all-odd set)",
        "ferguson-et-k2-grundy" => {
            " (the P-set: both boxes odd; the Grundy values are checked on a box)"
        }
        "ferguson-er" | "ferguson-er-misere" => {
            " (the P-set; the norm set S(k) and x(n) through it)"
        }
        _ => "",
    };
    let text = if games.len() == 1 {
        format!("proved for all sizes{what}")
    } else {
        format!(
            "proved for all sizes on {}{what}; checked on a box for the other games",
            games.join(", ")
        )
    };
    Some((text, games.to_vec()))
}

/// The registry entry's exact membership: its `decide` (P-set: `is_p`; a subset: decided and P;
/// winning: decided and N).
fn registry_exact(id: &'static str, game: &ChipGame, kind: ChipKind) -> Result<Exact> {
    let t = nimlab_theory::by_id(id)
        .ok_or_else(|| Error::Unsupported(format!("no registry result {id}")))?;
    let g = nimlab_games::registry::parse_game(&game.id())?;
    Ok(Box::new(move |p: &[u64]| {
        let v = t.decide(g.as_ref(), p);
        match kind {
            ChipKind::PSet => v.is_some_and(|v| v.is_p),
            ChipKind::Subset => v.is_some_and(|v| v.is_p),
            ChipKind::Winning => v.is_some_and(|v| !v.is_p),
        }
    }))
}

/// The least common multiple of 1..=n.
fn lcm_upto(n: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    (1..=n).fold(1, |l, i| l / gcd(l, i) * i)
}

/// The box `i`.
pub(super) fn slot(i: usize) -> Expr {
    Expr::Slot(i)
}

/// The constant `n`.
pub(super) fn num(n: u64) -> Expr {
    Expr::Num(i128::from(n))
}

/// `mod(e, q)`.
pub(super) fn modulo(e: Expr, q: u64) -> Expr {
    Expr::Mod(Box::new(e), i128::from(q))
}

/// The sum of the boxes of `which`.
pub(super) fn boxes(which: impl IntoIterator<Item = usize>) -> Expr {
    Expr::Sum(which.into_iter().map(|i| (1, slot(i))).collect())
}

/// `e - c`.
fn minus(e: &Expr, c: u64) -> Expr {
    Expr::Sum(vec![(1, e.clone()), (1, Expr::Num(-i128::from(c)))])
}

/// `l op r`.
pub(super) fn rel(l: Expr, op: Cmp, r: Expr) -> Formula {
    Formula::cmp(l, op, r)
}

/// `lo <= e <= hi`.
fn between(lo: u64, e: &Expr, hi: u64) -> Formula {
    Formula::And(vec![
        rel(num(lo), Cmp::Le, e.clone()),
        rel(e.clone(), Cmp::Le, num(hi)),
    ])
}

/// The results with a linear statement: every box odd.
fn all_odd(k: usize) -> Formula {
    Formula::And(
        (0..k)
            .map(|i| rel(modulo(slot(i), 2), Cmp::Eq, num(1)))
            .collect(),
    )
}

/// The set of the linear registry result `id` on a game of `k` boxes: its kind, its formula, its
/// period, and whether the queries read it on residues; `None` for a result that is not linear.
fn linear_set(id: &str, k: usize) -> Option<(ChipKind, Formula, u64, bool)> {
    let kk = k as u64;
    // The total of the boxes other than box i.
    let others = |i: usize| boxes((0..k).filter(move |&j| j != i));
    Some(match id {
        "ferguson-et-odd" => (ChipKind::Subset, all_odd(k), 2, false),
        "ferguson-et-k2-grundy" => (ChipKind::PSet, all_odd(k), 2, false),
        "ferguson-et-two-even" => {
            // The number of even boxes: k minus the sum of the residues mod 2.
            let mut terms = vec![(1, num(kk))];
            terms.extend((0..k).map(|i| (-1, modulo(slot(i), 2))));
            (
                ChipKind::Winning,
                between(1, &Expr::Sum(terms), 2),
                2,
                false,
            )
        }
        "ferguson-eabo" => {
            let m = kk * (kk - 1);
            let body = (0..k)
                .map(|i| between(1, &modulo(slot(i), m), kk - 1))
                .collect();
            (ChipKind::PSet, Formula::And(body), m, true)
        }
        "ferguson-eabo-misere" => {
            let q = (kk - 1) * (2 * kk - 1);
            let mut parts: Vec<Formula> = (0..k)
                .map(|i| {
                    Formula::Or(vec![
                        between(1, &slot(i), kk - 1),
                        Formula::And(vec![
                            rel(slot(i), Cmp::Ge, num(kk)),
                            between(kk, &modulo(slot(i), q), 2 * kk - 2),
                        ]),
                    ])
                })
                .collect();
            parts.push(Formula::Or(
                (0..k).map(|i| rel(slot(i), Cmp::Ge, num(kk))).collect(),
            ));
            (ChipKind::PSet, Formula::And(parts), q, true)
        }
        "ferguson-er" => {
            let f = nimlab_theory::ferguson::er_f(kk);
            // n in S(k): n >= k and n is none of the totals (j k .. (j+1) k, residue j(k-1) mod j+1).
            let in_s = |n: &Expr| {
                let r = (1..=f)
                    .map(|j| {
                        let mut c = vec![rel(num(j * kk), Cmp::Le, n.clone())];
                        if j < f {
                            c.push(rel(n.clone(), Cmp::Lt, num((j + 1) * kk)));
                        }
                        c.push(rel(
                            modulo(n.clone(), j + 1),
                            Cmp::Eq,
                            num((j * (kk - 1)) % (j + 1)),
                        ));
                        Formula::And(c)
                    })
                    .collect();
                Formula::And(vec![rel(n.clone(), Cmp::Ge, num(kk)), !Formula::Or(r)])
            };
            let body = (0..k).map(|i| !in_s(&others(i))).collect();
            (ChipKind::PSet, Formula::And(body), lcm_upto(f + 1), false)
        }
        "ferguson-er-misere" => {
            let norms = |n: &Expr| {
                if k % 2 == 1 {
                    return Formula::And(vec![
                        rel(n.clone(), Cmp::Gt, num(kk)),
                        rel(modulo(minus(n, kk - 1), 2), Cmp::Eq, num(0)),
                    ]);
                }
                let small = Formula::And(vec![
                    rel(num(kk), Cmp::Lt, n.clone()),
                    rel(n.clone(), Cmp::Lt, num(2 * kk)),
                    rel(modulo(n.clone(), 2), Cmp::Eq, num(1)),
                ]);
                let three = |from: u64| {
                    Formula::Or(vec![
                        rel(modulo(minus(n, from), 3), Cmp::Eq, num(0)),
                        rel(modulo(minus(n, from), 3), Cmp::Eq, num(2)),
                    ])
                };
                let large = if k % 6 == 4 {
                    Formula::Or(vec![
                        Formula::And(vec![
                            rel(num(2 * kk), Cmp::Le, n.clone()),
                            rel(n.clone(), Cmp::Lt, num(3 * kk)),
                            three(2 * kk),
                        ]),
                        Formula::And(vec![
                            rel(n.clone(), Cmp::Ge, num(3 * kk)),
                            !rel(modulo(minus(n, 3 * kk), 4), Cmp::Eq, num(1)),
                        ]),
                    ])
                } else {
                    Formula::And(vec![rel(n.clone(), Cmp::Ge, num(2 * kk)), three(2 * kk)])
                };
                Formula::Or(vec![small, large])
            };
            let mut parts = vec![!Formula::And(
                (0..k).map(|i| rel(slot(i), Cmp::Eq, num(1))).collect(),
            )];
            parts.extend((0..k).map(|i| !norms(&others(i))));
            (ChipKind::PSet, Formula::And(parts), 12, false)
        }
        "ferguson-ser" => {
            // Sums of the boxes' residues mod k (the same residues as the sums of the boxes).
            let residues = |s: &[usize]| {
                modulo(
                    Expr::Sum(s.iter().map(|&i| (1, modulo(slot(i), kk))).collect()),
                    kk,
                )
            };
            let all: Vec<usize> = (0..k).collect();
            let mut parts = vec![rel(residues(&all), Cmp::Eq, num(0))];
            for mask in 1u32..(1u32 << k) {
                let s: Vec<usize> = (0..k).filter(|i| mask & (1 << i) != 0).collect();
                if s.len() < k {
                    parts.push(!rel(residues(&s), Cmp::Eq, num(0)));
                }
            }
            (ChipKind::PSet, Formula::And(parts), kk, true)
        }
        _ => return None,
    })
}

/// The chip game `game_text` and the registry result `id` about it (refused in one line when the
/// game is not a chip game, the result does not exist or is about other games).
pub(super) fn game_and_result(
    id: &str,
    game_text: &str,
) -> Result<(ChipGame, &'static dyn nimlab_theory::Theorem)> {
    let game = ChipGame::parse(game_text)?.ok_or_else(|| {
        Error::Unsupported(format!("{game_text} is not one of Ferguson's chip games"))
    })?;
    let t = nimlab_theory::by_id(id)
        .ok_or_else(|| Error::Unsupported(format!("no result {id} (nimlab theory lists them)")))?;
    if !t.covers(game.game.as_ref()) {
        return Err(Error::Unsupported(format!(
            "{} is not about {} (it covers {})",
            t.id(),
            game.id(),
            t.games()
        )));
    }
    Ok((game, t))
}

/// The registry result `id` on `game`, as a claim (refused in one line where it does not apply or is
/// not linear).
pub fn from_registry(id: &str, game_text: &str) -> Result<ChipClaim> {
    let (game, t) = game_and_result(id, game_text)?;
    let id: &'static str = t.id();
    let binary = [
        "ferguson-et-k3",
        "ferguson-et-k4",
        "ferguson-entropy-k3",
        "ferguson-entropy-k3-misere",
    ];
    if binary.contains(&id) {
        let r = Refusal::new(format!(
            "{id} reads the boxes' binary digits (2-adic valuations, halving, 4^n m): its set is not definable in linear integer arithmetic (not ultimately periodic), so SMT cannot prove it for every size; "
        ))
        .given(Arg::Automata)
        .text(" proves it for every size with finite automata");
        return Err(Error::refused(
            if ["ferguson-et-k3", "ferguson-entropy-k3"].contains(&id) {
                r.text(", and ")
                    .given(Arg::Bits)
                    .text(" in bit-vectors for boxes below 2^W")
            } else {
                r
            },
        ));
    }
    let k = game.k;
    let Some((kind, member, period, residues)) = linear_set(id, k) else {
        return Err(Error::Unsupported(format!(
            "{id} is not a result about Ferguson's chip games"
        )));
    };
    let exact = registry_exact(id, &game, kind)?;
    let set = ChipSet {
        member: Some(member),
        exact,
        period,
        residues,
    };
    let target = if kind == ChipKind::Winning {
        Some(ChipSet {
            member: Some(all_odd(k)),
            exact: Box::new(|p: &[u64]| p.iter().all(|&x| x % 2 == 1)),
            period: 2,
            residues: false,
        })
    } else {
        None
    };
    Ok(ChipClaim {
        game,
        play: t.play(),
        kind,
        source: id.to_string(),
        set,
        target,
        bits: None,
        totals: None,
    })
}

/// The results that read binary digits, in bit-vectors of `w` bits: proved (or not) for every
/// position whose boxes are below 2^w, never for all sizes. ET(3) (P iff the three boxes have the
/// same lowest 1 bit, `x & -x`) and ENTROPY(3) normal play (two boxes equal, the third differing
/// from them by 0 or by a number whose lowest 1 bit is an even power of 2).
pub fn from_registry_bits(id: &str, game_text: &str, w: u32) -> Result<ChipClaim> {
    if !(2..=24).contains(&w) {
        return Err(Error::refused(
            Refusal::new("")
                .value(Arg::Bits, w)
                .text(": the chip games' bit-vector proofs take W from 2 to 24"),
        ));
    }
    let game = ChipGame::parse(game_text)?.ok_or_else(|| {
        Error::Unsupported(format!("{game_text} is not one of Ferguson's chip games"))
    })?;
    let t = nimlab_theory::by_id(id)
        .ok_or_else(|| Error::Unsupported(format!("no result {id} (nimlab theory lists them)")))?;
    let id: &'static str = t.id();
    if !["ferguson-et-k3", "ferguson-entropy-k3"].contains(&id) {
        return Err(Error::refused(Refusal::new("").name(Arg::Bits).text(format!(
            " is for the results that read binary digits on their own game (ferguson-et-k3 on ET(3), ferguson-entropy-k3 on ENTROPY(3)); {id} is proved without it"
        ))));
    }
    if !t.covers(game.game.as_ref()) {
        return Err(Error::Unsupported(format!(
            "{id} is not about {} (it covers {})",
            game.id(),
            t.games()
        )));
    }
    registry_p_set(id, game, t.play(), Some(w))
}

/// The registry result `id` as the P-set of `game` in `play`, with no SMT body: for the provers that
/// build the set themselves (bit-vectors below 2^w, automata); membership for the re-checks is the
/// entry's own `decide`.
pub(super) fn registry_p_set(
    id: &'static str,
    game: ChipGame,
    play: Play,
    bits: Option<u32>,
) -> Result<ChipClaim> {
    let exact = registry_exact(id, &game, ChipKind::PSet)?;
    Ok(ChipClaim {
        game,
        play,
        kind: ChipKind::PSet,
        source: id.to_string(),
        set: ChipSet {
            member: None,
            exact,
            period: 1,
            residues: false,
        },
        target: None,
        bits,
        totals: None,
    })
}
