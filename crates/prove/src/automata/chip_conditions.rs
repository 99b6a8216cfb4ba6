//! Ferguson's chip-transfer games Empty & Transfer ET(k) and Entropy Reduction ENTROPY(k) with
//! automata, for every box size: the option relations, the P-sets of the results that read binary
//! digits (built from their statements), and the conditions of the partition theorem.
//!
//! A position is k box contents, one track each (track `i` = box `i`), read most significant digit
//! first; an option relation reads x on tracks `0..k` and y on tracks `k..2k`. The move parameter t
//! is eliminated by hand, each relation being linear ([`pair_options`]):
//!
//! - ET, empty box i and move t chips of box j into it: `y_i + y_j = x_j`, `y_i >= 1`, `y_j >= 1`,
//!   the other boxes equal (t = y_i, and `1 <= t <= x_j - 1` is `y_i >= 1`, `y_j >= 1`);
//! - ENTROPY, move t chips from box i to box j: `y_i + y_j = x_i + x_j`, `y_j >= x_j + 1`,
//!   `y_j <= x_i - 1`, the other boxes equal (t = y_j - x_j).
//!
//! Domains ([`domain`]): ET positions have every box at least 1, which the moves keep. ENTROPY
//! positions are taken with entries `>= 0`: the moves keep them (a box only loses chips down to
//! more than the box it gives to), and adding a constant to every box changes neither the moves nor
//! the sets proved here (they read differences only), so every position is a translate of one with
//! entries `>= 0` and the conditions over all of them are the conditions for the game. Terminal
//! positions ([`terminal`]): ET `1^k`; ENTROPY `max - min <= 1`.
//!
//! The conditions ([`chip_conditions`]): (I) no member in the domain has an option in the set (the
//! product "x in the set, y an option of x, y in the set", one pair of boxes at a time); (II) every
//! non-terminal position of the domain outside the set has an option in it (the pre-image "x has an
//! option in the set" is the projection of "y an option of x in the set" onto x, one pair of boxes at
//! a time, united); (III) no terminal position is outside the set (misère play: inside it). Each
//! holds exactly when its automaton accepts nothing; a shortest accepted word is returned, for
//! [`crate::chips`] to re-check by exact search. ET's partial results: (C) for a set inside the
//! P-set ([`chip_closure`]), and "every member has an option in a target set" for a set of
//! N-positions ([`chip_winning`]).

use super::compile::{linear, Lin, Sign};
use super::conditions::Move;
use super::dfa::{Budget, Dfa, Stop, MAX_TRACKS};
use nimlab_core::Play;
use std::collections::BTreeMap;
use std::time::Instant;

/// The moves of a chip game whose option relation is linear in one parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transfer {
    /// Empty & Transfer.
    Et,
    /// Entropy Reduction.
    Entropy,
}

/// `sum coef * track + c`.
fn lin(terms: &[(usize, i128)], c: i128) -> Lin {
    let mut t: BTreeMap<usize, i128> = BTreeMap::new();
    for &(i, a) in terms {
        *t.entry(i).or_insert(0) += a;
    }
    t.retain(|_, a| *a != 0);
    Lin { terms: t, c }
}

/// `track >= v`.
fn at_least(track: usize, v: i128) -> (Lin, Sign) {
    (lin(&[(track, -1)], v), Sign::AtMostZero)
}

/// `a = b`.
fn equal(a: usize, b: usize) -> (Lin, Sign) {
    (lin(&[(a, 1), (b, -1)], 0), Sign::Zero)
}

/// `a <= b`.
fn at_most(a: usize, b: usize) -> (Lin, Sign) {
    (lin(&[(a, 1), (b, -1)], 0), Sign::AtMostZero)
}

/// `track = v`.
fn is(track: usize, v: i128) -> (Lin, Sign) {
    (lin(&[(track, 1)], -v), Sign::Zero)
}

fn constant(tracks: usize, accept: bool, budget: &Budget) -> Result<Dfa, Stop> {
    Dfa::explore(tracks, (), |_, _| (), |_| accept, budget)
}

/// Every linear condition at once.
fn all_of(tracks: usize, conds: &[(Lin, Sign)], budget: &Budget) -> Result<Dfa, Stop> {
    let mut acc = constant(tracks, true, budget)?;
    for (l, s) in conds {
        acc = Dfa::product(&acc, &linear(tracks, l, *s, budget)?, false, budget)?;
    }
    Ok(acc)
}

/// The union of automata over `tracks` tracks (none: the empty set).
fn any_of(tracks: usize, parts: Vec<Dfa>, budget: &Budget) -> Result<Dfa, Stop> {
    let mut acc = constant(tracks, false, budget)?;
    for p in parts {
        acc = Dfa::product(&acc, &p, true, budget)?;
    }
    Ok(acc)
}

fn and(a: &Dfa, b: &Dfa, budget: &Budget) -> Result<Dfa, Stop> {
    Dfa::product(a, b, false, budget)
}

fn fits(k: usize) -> Result<(), Stop> {
    if k < 2 || 2 * k > MAX_TRACKS {
        return Err(Stop::Unsupported(format!(
            "{k} boxes: the chip games' automata take 2 to {} boxes (an option relation has two tracks a box)",
            MAX_TRACKS / 2
        )));
    }
    Ok(())
}

/// "y is the option of x by a move between boxes `i` and `j`" over `2k` tracks (x on `0..k`, y on
/// `k..2k`): ET empties box `i` and moves chips of box `j` into it; ENTROPY moves chips from box `i`
/// to box `j` (the module's documentation gives the relations). Box `i` of x is unconstrained for ET
/// (the domain asks it to be at least 1).
pub fn pair_options(
    moves: Transfer,
    k: usize,
    i: usize,
    j: usize,
    budget: &Budget,
) -> Result<Dfa, Stop> {
    fits(k)?;
    if i == j || i >= k || j >= k {
        return Err(Stop::Unsupported(format!(
            "boxes {i} and {j}: a move takes two different boxes of {k}"
        )));
    }
    let y = |b: usize| k + b;
    let mut conds: Vec<(Lin, Sign)> = (0..k)
        .filter(|&l| l != i && l != j)
        .map(|l| equal(y(l), l))
        .collect();
    match moves {
        Transfer::Et => {
            conds.push((lin(&[(y(i), 1), (y(j), 1), (j, -1)], 0), Sign::Zero));
            conds.push(at_least(y(i), 1));
            conds.push(at_least(y(j), 1));
        }
        Transfer::Entropy => {
            conds.push((
                lin(&[(y(i), 1), (y(j), 1), (i, -1), (j, -1)], 0),
                Sign::Zero,
            ));
            // x_j + 1 <= y_j <= x_i - 1.
            conds.push((lin(&[(j, 1), (y(j), -1)], 1), Sign::AtMostZero));
            conds.push((lin(&[(y(j), 1), (i, -1)], 1), Sign::AtMostZero));
        }
    }
    all_of(2 * k, &conds, budget)
}

/// An option relation with its pair of boxes (i, j).
pub type PairOptions = ((usize, usize), Dfa);

/// The option relation of every ordered pair of boxes, with the pair.
pub fn options(moves: Transfer, k: usize, budget: &Budget) -> Result<Vec<PairOptions>, Stop> {
    let mut out = Vec::new();
    for i in 0..k {
        for j in 0..k {
            if i != j {
                out.push(((i, j), pair_options(moves, k, i, j, budget)?));
            }
        }
    }
    Ok(out)
}

/// The positions over `k` tracks: ET every box at least 1; ENTROPY every tuple (entries `>= 0`).
pub fn domain(moves: Transfer, k: usize, budget: &Budget) -> Result<Dfa, Stop> {
    match moves {
        Transfer::Et => all_of(
            k,
            &(0..k).map(|i| at_least(i, 1)).collect::<Vec<_>>(),
            budget,
        ),
        Transfer::Entropy => constant(k, true, budget),
    }
}

/// The positions of the domain with a move: ET some box at least 2; ENTROPY two boxes that differ by
/// at least 2.
pub fn nonterminal(moves: Transfer, k: usize, budget: &Budget) -> Result<Dfa, Stop> {
    let parts = match moves {
        Transfer::Et => (0..k)
            .map(|i| all_of(k, &[at_least(i, 2)], budget))
            .collect::<Result<Vec<_>, _>>()?,
        Transfer::Entropy => {
            let mut v = Vec::new();
            for a in 0..k {
                for b in 0..k {
                    if a != b {
                        // x_a - x_b >= 2.
                        v.push(all_of(
                            k,
                            &[(lin(&[(a, -1), (b, 1)], 2), Sign::AtMostZero)],
                            budget,
                        )?);
                    }
                }
            }
            v
        }
    };
    and(
        &domain(moves, k, budget)?,
        &any_of(k, parts, budget)?,
        budget,
    )
}

/// The terminal positions of the domain: ET `1^k`; ENTROPY `max - min <= 1`.
pub fn terminal(moves: Transfer, k: usize, budget: &Budget) -> Result<Dfa, Stop> {
    and(
        &domain(moves, k, budget)?,
        &nonterminal(moves, k, budget)?.complement(),
        budget,
    )
}

/// ET(3)'s P-set as its statement gives it (ferguson-et-k3): the boxes have the same 2-adic
/// valuation, i.e. the last letter with a 1 has a 1 on every track (every box is then at least 1).
pub fn equal_valuations(k: usize, budget: &Budget) -> Result<Dfa, Stop> {
    let full = (1u32 << k) - 1;
    // 0: no 1 read yet; 1: the last letter with a 1 was full; 2: it was not.
    Dfa::explore(
        k,
        0u8,
        |&s, l| match l {
            0 => s,
            l if l == full => 1,
            _ => 2,
        },
        |&s| s == 1,
        budget,
    )
}

/// The state of the halving algorithm read least significant digit first: the carry of each box
/// (what the algorithm has added to the box's higher digits), or the outcome once two or more boxes
/// are odd.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Halving {
    Carries(u32),
    Decided(bool),
}

/// One round of the halving algorithm on four boxes, reading their digits `l` at this round, with
/// the carries `c` of the rounds before: the boxes' values are `digit + carry` plus twice their
/// higher digits. With exactly one odd box, `round_up` adds 1 to it before halving (Ferguson's
/// Proposition 6); `false` is a wrong variant (it takes 1 away) for the tests.
fn halving_round(c: u32, l: u32, round_up: bool) -> Halving {
    let s: Vec<u32> = (0..4).map(|i| ((l >> i) & 1) + ((c >> i) & 1)).collect();
    let odd: Vec<usize> = (0..4).filter(|&i| s[i] % 2 == 1).collect();
    match odd.len() {
        0 | 1 => {
            let mut next = 0;
            for (i, &v) in s.iter().enumerate() {
                let carry = if odd.contains(&i) {
                    u32::from(round_up)
                } else {
                    v / 2
                };
                next |= carry << i;
            }
            Halving::Carries(next)
        }
        n => Halving::Decided(n == 4),
    }
}

/// The outcome a state of the halving algorithm reaches on leading zero digits (`false` when it never
/// decides: some box is 0, outside the domain).
fn halving_final(s: Halving, round_up: bool) -> bool {
    let mut s = s;
    for _ in 0..=16 {
        match s {
            Halving::Decided(p) => return p,
            Halving::Carries(c) => s = halving_round(c, 0, round_up),
        }
    }
    false
}

/// ET(4)'s halving algorithm (ferguson-et-k4) as an automaton reading the boxes least significant
/// digit first: its state is the boxes' carries until two or more boxes are odd (P when all four
/// are). The same answer with or without more leading zero digits, by [`halving_final`].
pub(super) fn halving_lsb(round_up: bool, budget: &Budget) -> Result<Dfa, Stop> {
    Dfa::explore(
        4,
        Halving::Carries(0),
        |&s, l| match s {
            Halving::Decided(_) => s,
            Halving::Carries(c) => halving_round(c, l, round_up),
        },
        |&s| halving_final(s, round_up),
        budget,
    )
}

/// ET(4)'s P-set by the halving algorithm (ferguson-et-k4), most significant digit first: the
/// reversal of the automaton that reads the boxes least significant digit first (its state: the
/// boxes' carries, or the outcome), on the positions with every box at least 1.
pub fn halving(budget: &Budget) -> Result<Dfa, Stop> {
    halving_with(true, budget)
}

pub(super) fn halving_with(round_up: bool, budget: &Budget) -> Result<Dfa, Stop> {
    let msb = halving_lsb(round_up, budget)?.reverse(budget)?;
    and(&msb, &domain(Transfer::Et, 4, budget)?, budget)
}

/// A number (on track `t` of `tracks`) that is 0 or has an even number of trailing zeros (4^n m, m
/// odd); with `even = false`, any number (the tests' wrong variant 2^n m).
fn four_adic(tracks: usize, t: usize, even: bool, budget: &Budget) -> Result<Dfa, Stop> {
    // (a 1 read, the zeros since the last 1 are even in number)
    Dfa::explore(
        tracks,
        (false, true),
        |&(seen, zeros_even), l| {
            if (l >> t) & 1 == 1 {
                (true, true)
            } else if seen {
                (true, !zeros_even)
            } else {
                (false, true)
            }
        },
        |&(seen, zeros_even)| !seen || zeros_even || !even,
        budget,
    )
}

/// ENTROPY(3)'s normal-play P-set (ferguson-entropy-k3): two boxes equal and the third differing
/// from them by 0 or by 4^n m with m odd. A fourth track holds the difference d, quantified away.
pub fn entropy3(budget: &Budget) -> Result<Dfa, Stop> {
    entropy3_with(true, budget)
}

pub(super) fn entropy3_with(even: bool, budget: &Budget) -> Result<Dfa, Stop> {
    let d = 3;
    let good = four_adic(4, d, even, budget)?;
    let mut parts = Vec::new();
    for (a, b, c) in [(0, 1, 2), (0, 2, 1), (1, 2, 0)] {
        // d = x_c - x_a or d = x_a - x_c.
        let up = all_of(
            4,
            &[(lin(&[(d, 1), (c, -1), (a, 1)], 0), Sign::Zero)],
            budget,
        )?;
        let down = all_of(
            4,
            &[(lin(&[(d, 1), (a, -1), (c, 1)], 0), Sign::Zero)],
            budget,
        )?;
        let diff = Dfa::product(&up, &down, true, budget)?;
        let one = and(
            &and(&all_of(4, &[equal(a, b)], budget)?, &diff, budget)?,
            &good,
            budget,
        )?;
        parts.push(one);
    }
    any_of(4, parts, budget)?.project(&[0, 1, 2], budget)
}

/// The numbers x (on track `t`) of the misère P-set's two infinite classes: x = 4^n 2m with m in
/// {3, 7}, or x = 4^n m with m odd, m not 3 or 7, and m != 1 when n <= 1. The state is the odd part
/// read so far (exactly up to 7, then "more") and the zeros since its last 1 (exactly up to 3, then
/// their parity).
fn misere_class(tracks: usize, t: usize, budget: &Budget) -> Result<Dfa, Stop> {
    const BIG: u32 = 8;
    Dfa::explore(
        tracks,
        (0u32, 0u32),
        |&(m, z), l| {
            if (l >> t) & 1 == 1 {
                let next = if m == 0 {
                    1
                } else if m >= BIG || z >= 3 {
                    BIG
                } else {
                    ((m << (z + 1)) | 1).min(BIG)
                };
                (next, 0)
            } else if m == 0 {
                (0, 0)
            } else {
                // 4 stands for "an even number at least 4", 5 for "an odd number at least 5".
                let z2 = if z + 1 >= 6 { z - 1 } else { z + 1 };
                (m, z2)
            }
        },
        |&(m, z)| {
            if m == 0 {
                false
            } else if z % 2 == 1 {
                m == 3 || m == 7
            } else {
                m != 3 && m != 7 && !(m == 1 && z <= 2)
            }
        },
        budget,
    )
}

/// ENTROPY(3)'s misère P-set (ferguson-entropy-k3-misere), in the statement's normalisation
/// (X, Y) = (max − min, middle − min) on two tracks of their own, quantified away: (X, Y) one of
/// (2,0), (2,1), (2,2), (5,2), (5,3), or Y in {0, X} with X = 4^n 2m, m in {3, 7}, or X = 4^n m,
/// m odd, m not 3 or 7, and m != 1 when n <= 1.
pub fn entropy3_misere(budget: &Budget) -> Result<Dfa, Stop> {
    let (xt, yt) = (3, 4);
    let mut sorted = Vec::new();
    for (a, b, c) in [
        (0, 1, 2),
        (0, 2, 1),
        (1, 0, 2),
        (1, 2, 0),
        (2, 0, 1),
        (2, 1, 0),
    ] {
        sorted.push(all_of(
            5,
            &[
                at_most(a, b),
                at_most(b, c),
                (lin(&[(xt, 1), (c, -1), (a, 1)], 0), Sign::Zero),
                (lin(&[(yt, 1), (b, -1), (a, 1)], 0), Sign::Zero),
            ],
            budget,
        )?);
    }
    let sorted = any_of(5, sorted, budget)?;
    let mut listed = Vec::new();
    for (x, y) in [(2, 0), (2, 1), (2, 2), (5, 2), (5, 3)] {
        listed.push(all_of(5, &[is(xt, x), is(yt, y)], budget)?);
    }
    let two_equal = any_of(
        5,
        vec![
            all_of(5, &[is(yt, 0)], budget)?,
            all_of(5, &[equal(yt, xt)], budget)?,
        ],
        budget,
    )?;
    let classes = and(&two_equal, &misere_class(5, xt, budget)?, budget)?;
    listed.push(classes);
    let rule = any_of(5, listed, budget)?;
    and(&sorted, &rule, budget)?.project(&[0, 1, 2], budget)
}

/// The set of the registry result `id` on `k` boxes as an automaton, built from its statement, with
/// the game's moves: ferguson-et-k3 (ET(3)), ferguson-et-k4 (ET(4)), ferguson-entropy-k3 and
/// ferguson-entropy-k3-misere (ENTROPY(3)).
pub fn theorem_set(id: &str, k: usize, budget: &Budget) -> Result<(Transfer, Dfa), Stop> {
    match (id, k) {
        ("ferguson-et-k3", 3) => Ok((Transfer::Et, equal_valuations(3, budget)?)),
        ("ferguson-et-k4", 4) => Ok((Transfer::Et, halving(budget)?)),
        ("ferguson-entropy-k3", 3) => Ok((Transfer::Entropy, entropy3(budget)?)),
        ("ferguson-entropy-k3-misere", 3) => Ok((Transfer::Entropy, entropy3_misere(budget)?)),
        _ => Err(Stop::Unsupported(format!(
            "{id} on {k} boxes has no automaton here (the automata prove ferguson-et-k3 on ET(3), ferguson-et-k4 on ET(4), ferguson-entropy-k3 and ferguson-entropy-k3-misere on ENTROPY(3))"
        ))),
    }
}

/// ET's positions with every box odd (ferguson-et-odd's members, and the set ferguson-et-two-even's
/// members move into): the last letter has a 1 on every track.
pub fn all_odd(k: usize, budget: &Budget) -> Result<Dfa, Stop> {
    let full = (1u32 << k) - 1;
    // The state is the last letter read (0 before any).
    Dfa::explore(k, 0u32, |_, l| l, |&l| l == full, budget)
}

/// ET's positions (every box at least 1) with exactly one or exactly two even boxes
/// (ferguson-et-two-even): the last letter has a 0 on one or two tracks.
pub fn one_or_two_even(k: usize, budget: &Budget) -> Result<Dfa, Stop> {
    let evens = move |l: u32| k - l.count_ones() as usize;
    let last = Dfa::explore(k, 0u32, |_, l| l, |&l| matches!(evens(l), 1 | 2), budget)?;
    and(&last, &domain(Transfer::Et, k, budget)?, budget)
}

/// "x has an option in the set `target`" over the k tracks of x: the projection onto x of "y an
/// option of x, y in the target", one pair of boxes at a time, united.
fn moves_into(k: usize, opts: &[PairOptions], target: &Dfa, budget: &Budget) -> Result<Dfa, Stop> {
    let xs: Vec<usize> = (0..k).collect();
    let ty = target.embed(&(k..2 * k).collect::<Vec<_>>(), 2 * k);
    let mut images = Vec::new();
    for (_, o) in opts {
        images.push(and(o, &ty, budget)?.project(&xs, budget)?);
    }
    any_of(k, images, budget)
}

/// Condition (C) for a set claimed to lie inside the P-set (ferguson-et-odd): a member x of the
/// domain with an option y that has no option in the set (misère play: y not terminal); `Ok(None)`
/// when there is none, for every box size. With its seconds.
pub fn chip_closure(
    moves: Transfer,
    k: usize,
    set: &Dfa,
    play: Play,
    budget: &Budget,
) -> Result<Timed<Option<Move>>, Stop> {
    fits(k)?;
    timed(|| {
        let s = and(set, &domain(moves, k, budget)?, budget)?;
        let opts = options(moves, k, budget)?;
        let mut stuck = moves_into(k, &opts, &s, budget)?.complement();
        if play == Play::Misere {
            stuck = and(&stuck, &nonterminal(moves, k, budget)?, budget)?;
        }
        let sx = s.embed(&(0..k).collect::<Vec<_>>(), 2 * k);
        let ty = stuck.embed(&(k..2 * k).collect::<Vec<_>>(), 2 * k);
        for (_, o) in &opts {
            if let Some(v) = witness(&and(&and(&sx, o, budget)?, &ty, budget)?)? {
                return Ok(Some((v[..k].to_vec(), v[k..].to_vec())));
            }
        }
        Ok(None)
    })
}

/// For a set claimed to hold N-positions only, each moving into `target` (a set of P-positions
/// proved apart; ferguson-et-two-even into the all-odd set): a member of the domain with no option
/// in the target; `Ok(None)` when there is none, for every box size. With its seconds.
pub fn chip_winning(
    moves: Transfer,
    k: usize,
    set: &Dfa,
    target: &Dfa,
    budget: &Budget,
) -> Result<Timed<Option<Vec<u128>>>, Stop> {
    fits(k)?;
    timed(|| {
        let s = and(set, &domain(moves, k, budget)?, budget)?;
        let opts = options(moves, k, budget)?;
        let into = moves_into(k, &opts, target, budget)?;
        witness(&and(&s, &into.complement(), budget)?)
    })
}

/// The answers of conditions (I), (II), (III) for a chip game's set, for every box size; each with
/// the seconds it took (`Ok(None)`: the condition holds).
pub struct ChipConditions {
    /// (I): a member and an option of it in the set.
    pub joined: Timed<Option<Move>>,
    /// (II): a non-terminal position outside the set with no option in it.
    pub stranded: Timed<Option<Vec<u128>>>,
    /// (III): a terminal position outside the set (misère play: inside it).
    pub terminal: Timed<Option<Vec<u128>>>,
    /// The sizes of the automata: the set (on the domain), the largest option relation of one pair
    /// of boxes, and "has an option in the set" (0 when (II) was not reached).
    pub states: Vec<(&'static str, usize)>,
}

/// A shortest accepted word as one value per track ([`Dfa::witness`]), or a limit when its values
/// need more than 127 binary digits (they could not be re-checked, nor held without wrapping).
pub fn witness(d: &Dfa) -> Result<Option<Vec<u128>>, Stop> {
    // The length of a shortest accepted word, by a breadth-first search from the initial state.
    let mut dist = vec![usize::MAX; d.states()];
    dist[0] = 0;
    let mut queue = std::collections::VecDeque::from([0u32]);
    let mut len = None;
    while let Some(s) = queue.pop_front() {
        if d.is_final(s) {
            len = Some(dist[s as usize]);
            break;
        }
        for l in 0..1u32 << d.tracks {
            let t = d.step(s, l);
            if dist[t as usize] == usize::MAX {
                dist[t as usize] = dist[s as usize] + 1;
                queue.push_back(t);
            }
        }
    }
    match len {
        None => Ok(None),
        Some(n) if n > 127 => Err(Stop::Limit(format!(
            "the shortest counterexample has {n} binary digits, more than the 127 the re-check takes"
        ))),
        Some(_) => Ok(d.witness()),
    }
}

/// A search's answer (a limit reached: `Err(Stop::Limit(..))`) and its seconds.
pub type Timed<T> = (Result<T, Stop>, f64);

fn timed<T>(run: impl FnOnce() -> Result<T, Stop>) -> Result<Timed<T>, Stop> {
    let t = Instant::now();
    let r = run();
    if let Err(Stop::Unsupported(e)) = r {
        return Err(Stop::Unsupported(e));
    }
    Ok((r, t.elapsed().as_secs_f64()))
}

/// Decides conditions (I), (II), (III) for the set `set` (k tracks) of positions of the chip game
/// with `moves` on `k` boxes, in `play`, for every box size. Only the set's positions in the
/// [`domain`] count.
pub fn chip_conditions(
    moves: Transfer,
    k: usize,
    set: &Dfa,
    play: Play,
    budget: &Budget,
) -> Result<ChipConditions, Stop> {
    fits(k)?;
    if set.tracks != k {
        return Err(Stop::Unsupported(format!(
            "the automaton reads {} inputs; a position has {k} boxes",
            set.tracks
        )));
    }
    let dom = domain(moves, k, budget)?;
    let s = and(set, &dom, budget)?;
    let opts = options(moves, k, budget)?;
    let mut states = vec![
        ("set", s.states()),
        (
            "option relation",
            opts.iter().map(|(_, o)| o.states()).max().unwrap_or(0),
        ),
    ];
    let xs: Vec<usize> = (0..k).collect();
    let ys: Vec<usize> = (k..2 * k).collect();
    let sx = s.embed(&xs, 2 * k);
    let sy = s.embed(&ys, 2 * k);
    let joined = timed(|| {
        for (_, o) in &opts {
            let both = and(&and(&sx, o, budget)?, &sy, budget)?;
            if let Some(v) = witness(&both)? {
                return Ok(Some((v[..k].to_vec(), v[k..].to_vec())));
            }
        }
        Ok(None)
    })?;
    let mut into_states = 0;
    let stranded = timed(|| {
        let into = moves_into(k, &opts, &s, budget)?;
        into_states = into.states();
        let outside = and(&s.complement(), &nonterminal(moves, k, budget)?, budget)?;
        witness(&and(&outside, &into.complement(), budget)?)
    })?;
    states.push(("has an option in the set", into_states));
    let end = timed(|| {
        let t = terminal(moves, k, budget)?;
        let wrong = match play {
            Play::Normal => s.complement(),
            Play::Misere => s.clone(),
        };
        witness(&and(&t, &wrong, budget)?)
    })?;
    Ok(ChipConditions {
        joined,
        stranded,
        terminal: end,
        states,
    })
}
