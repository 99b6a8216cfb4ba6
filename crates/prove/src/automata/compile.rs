//! Relations compiled to automata: a family's relations (linear forms with integer coefficients,
//! `min`, `max`, `mod`, `xor`, `colsum`; auxiliary values on tracks of their own, quantified away)
//! become the automaton of the conjectured set ([`members`]), and a window game's option relation
//! one automaton per window ([`window_options`]).

use super::dfa::{Budget, Dfa, Stop, MAX_TRACKS};
use crate::conjecture::{Conjecture, PFamily, ReadingRule};
use crate::expr::{Atom, Cmp, Expr};
use std::collections::BTreeMap;

/// A linear form over tracks: `sum coef * track + constant`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Lin {
    pub(super) terms: BTreeMap<usize, i128>,
    pub(super) c: i128,
}

impl Lin {
    fn constant(c: i128) -> Lin {
        Lin {
            terms: BTreeMap::new(),
            c,
        }
    }

    fn track(t: usize) -> Lin {
        Lin {
            terms: BTreeMap::from([(t, 1)]),
            c: 0,
        }
    }

    /// `self + k * o`, exactly: a coefficient or constant past `i128` is refused, never wrapped
    /// (the relation parser keeps them below 2^100, so this does not happen on parsed relations).
    fn add(&self, k: i128, o: &Lin) -> Result<Lin, Stop> {
        let big = || {
            Stop::Unsupported(
                "a coefficient is beyond the range the automata prover handles exactly".into(),
            )
        };
        let mut r = self.clone();
        for (&t, &a) in &o.terms {
            let e = r.terms.entry(t).or_insert(0);
            *e = k
                .checked_mul(a)
                .and_then(|ka| e.checked_add(ka))
                .ok_or_else(big)?;
        }
        r.terms.retain(|_, a| *a != 0);
        r.c = k
            .checked_mul(o.c)
            .and_then(|kc| r.c.checked_add(kc))
            .ok_or_else(big)?;
        Ok(r)
    }
}

/// A sign condition on a linear form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sign {
    Zero,
    NonZero,
    AtMostZero,
}

/// One constraint of an alternative.
#[derive(Debug, Clone)]
enum Cond {
    Lin(Lin, Sign),
    /// The bitwise xor of these tracks is 0.
    Xor(Vec<usize>),
    /// At every binary digit the number of these tracks with a 1 is (`true`) or is not everywhere
    /// (`false`) a multiple of `m`.
    ColSum(i128, Vec<usize>, bool),
}

/// One case of an expression: its value, valid under the guards.
#[derive(Debug, Clone)]
struct Alt {
    guards: Vec<Cond>,
    val: Lin,
}

/// Values on tracks: the conditions that define the new tracks, and the tracks in order.
type Tracked = (Vec<Cond>, Vec<usize>);

/// The arguments of `xor` or `colsum` as tracks, one case per combination of their cases: a slot is
/// its own track, any other value a new track equal to it (tracks are never negative, as exact
/// evaluation wants of these arguments).
fn argument_tracks(
    args: &[Expr],
    slot: &dyn Fn(usize) -> usize,
    fresh: &mut usize,
) -> Result<Vec<Tracked>, Stop> {
    let cs = args
        .iter()
        .map(|e| cases(e, slot, fresh))
        .collect::<Result<Vec<_>, _>>()?;
    combos(&cs)
        .into_iter()
        .map(|c| {
            let mut guards: Vec<Cond> = c.iter().flat_map(|a| a.guards.clone()).collect();
            let mut xs = Vec::new();
            for a in &c {
                let single =
                    a.val.c == 0 && a.val.terms.len() == 1 && a.val.terms.values().all(|&k| k == 1);
                if single {
                    xs.push(*a.val.terms.keys().next().expect("one term"));
                } else {
                    let t = *fresh;
                    *fresh += 1;
                    guards.push(compare(&Lin::track(t), Cmp::Eq, &a.val)?);
                    xs.push(t);
                }
            }
            Ok((guards, xs))
        })
        .collect()
}

/// `l op r` as conditions on `l - r`.
fn compare(l: &Lin, op: Cmp, r: &Lin) -> Result<Cond, Stop> {
    let d = l.add(-1, r)?;
    Ok(match op {
        Cmp::Eq => Cond::Lin(d, Sign::Zero),
        Cmp::Ne => Cond::Lin(d, Sign::NonZero),
        Cmp::Le => Cond::Lin(d, Sign::AtMostZero),
        Cmp::Lt => Cond::Lin(d.add(1, &Lin::constant(1))?, Sign::AtMostZero),
        Cmp::Ge => Cond::Lin(Lin::default().add(-1, &d)?, Sign::AtMostZero),
        Cmp::Gt => Cond::Lin(
            Lin::default().add(-1, &d)?.add(1, &Lin::constant(1))?,
            Sign::AtMostZero,
        ),
    })
}

/// Every combination of one case per argument.
fn combos(args: &[Vec<Alt>]) -> Vec<Vec<Alt>> {
    let mut out: Vec<Vec<Alt>> = vec![Vec::new()];
    for a in args {
        let mut next = Vec::new();
        for c in &out {
            for x in a {
                let mut c = c.clone();
                c.push(x.clone());
                next.push(c);
            }
        }
        out = next;
    }
    out
}

/// Most cases one relation may split into (min/max arguments multiply).
const MAX_CASES: usize = 4096;

/// The cases of an expression; `slot` maps a slot to its track, `fresh` numbers auxiliary tracks.
fn cases(e: &Expr, slot: &dyn Fn(usize) -> usize, fresh: &mut usize) -> Result<Vec<Alt>, Stop> {
    let guards_of = |c: &[Alt]| c.iter().flat_map(|a| a.guards.clone()).collect::<Vec<_>>();
    let out = match e {
        Expr::Num(v) => vec![Alt {
            guards: vec![],
            val: Lin::constant(*v),
        }],
        Expr::Slot(i) => vec![Alt {
            guards: vec![],
            val: Lin::track(slot(*i)),
        }],
        Expr::Sum(terms) => {
            let args = terms
                .iter()
                .map(|(_, e)| cases(e, slot, fresh))
                .collect::<Result<Vec<_>, _>>()?;
            combos(&args)
                .into_iter()
                .map(|c| {
                    let mut val = Lin::default();
                    for ((k, _), a) in terms.iter().zip(&c) {
                        val = val.add(*k, &a.val)?;
                    }
                    Ok(Alt {
                        guards: guards_of(&c),
                        val,
                    })
                })
                .collect::<Result<Vec<_>, Stop>>()?
        }
        Expr::Min(v) | Expr::Max(v) => {
            let is_min = matches!(e, Expr::Min(_));
            let args = v
                .iter()
                .map(|e| cases(e, slot, fresh))
                .collect::<Result<Vec<_>, _>>()?;
            let mut out = Vec::new();
            for c in combos(&args) {
                for (i, pick) in c.iter().enumerate() {
                    let mut guards = guards_of(&c);
                    for (j, other) in c.iter().enumerate() {
                        // Ties go to the first argument, so the cases do not overlap.
                        let op = match (is_min, j < i) {
                            (true, true) => Cmp::Lt,
                            (true, false) => Cmp::Le,
                            (false, true) => Cmp::Gt,
                            (false, false) => Cmp::Ge,
                        };
                        if j != i {
                            guards.push(compare(&pick.val, op, &other.val)?);
                        }
                    }
                    out.push(Alt {
                        guards,
                        val: pick.val.clone(),
                    });
                }
            }
            out
        }
        Expr::Mod(e, m) => {
            // v = e - m (q1 - q2) with 0 <= v < m; q1, q2 and v are auxiliary tracks.
            let inner = cases(e, slot, fresh)?;
            inner
                .into_iter()
                .map(|a| {
                    let (v, q1, q2) = (*fresh, *fresh + 1, *fresh + 2);
                    *fresh += 3;
                    let mut guards = a.guards.clone();
                    let rhs = a.val.add(-*m, &Lin::track(q1))?.add(*m, &Lin::track(q2))?;
                    guards.push(compare(&Lin::track(v), Cmp::Eq, &rhs)?);
                    guards.push(compare(&Lin::track(v), Cmp::Lt, &Lin::constant(*m))?);
                    Ok(Alt {
                        guards,
                        val: Lin::track(v),
                    })
                })
                .collect::<Result<Vec<_>, Stop>>()?
        }
        Expr::ColSum(..) => {
            return Err(Stop::Unsupported(
                "colsum(...) is supported by the automata prover only as `colsum(...) = 0` or `colsum(...) != 0`".into(),
            ))
        }
        Expr::Xor(v) => {
            // The value is a new track whose xor with the arguments' tracks is 0.
            argument_tracks(v, slot, fresh)?
                .into_iter()
                .map(|(mut guards, mut xs)| {
                    let t = *fresh;
                    *fresh += 1;
                    xs.push(t);
                    guards.push(Cond::Xor(xs));
                    Alt {
                        guards,
                        val: Lin::track(t),
                    }
                })
                .collect()
        }
    };
    if out.len() > MAX_CASES {
        return Err(Stop::Unsupported(format!(
            "a relation splits into more than {MAX_CASES} cases (min/max arguments)"
        )));
    }
    Ok(out)
}

/// `sum coef * track + c` compared with 0, read most significant digit first: the state is the value
/// of the digits read so far, until its sign can no longer change.
pub(super) fn linear(tracks: usize, lin: &Lin, sign: Sign, budget: &Budget) -> Result<Dfa, Stop> {
    #[derive(Clone, PartialEq, Eq, Hash)]
    enum V {
        Val(i128),
        Pos,
        Neg,
    }
    // Every value below stays within a few times `pos + neg + |c|`: refuse forms whose sums come
    // near the end of `i128` instead of letting a step wrap.
    let room = 1u128 << 120;
    let mut total = lin.c.unsigned_abs();
    for a in lin.terms.values() {
        total = total.saturating_add(a.unsigned_abs());
    }
    if total >= room {
        return Err(Stop::Unsupported(
            "a linear relation's coefficients are beyond the range the automata prover handles exactly".into(),
        ));
    }
    let pos: i128 = lin.terms.values().filter(|&&a| a > 0).sum();
    let neg: i128 = lin.terms.values().filter(|&&a| a < 0).map(|a| -a).sum();
    let c = lin.c;
    let terms: Vec<(usize, i128)> = lin.terms.iter().map(|(&t, &a)| (t, a)).collect();
    Dfa::explore(
        tracks,
        V::Val(0),
        |s, l| match s {
            V::Val(v) => {
                let d: i128 = terms
                    .iter()
                    .map(|&(t, a)| if (l >> t) & 1 == 1 { a } else { 0 })
                    .sum();
                let w = 2 * v + d;
                // Past `neg` the value only grows, below `-pos` it only falls.
                if w > neg && w + c > 0 {
                    V::Pos
                } else if w < -pos && w + c < 0 {
                    V::Neg
                } else {
                    V::Val(w)
                }
            }
            other => other.clone(),
        },
        |s| {
            let (zero, at_most) = match s {
                V::Val(v) => (v + c == 0, v + c <= 0),
                V::Pos => (false, false),
                V::Neg => (false, true),
            };
            match sign {
                Sign::Zero => zero,
                Sign::NonZero => !zero,
                Sign::AtMostZero => at_most,
            }
        },
        budget,
    )
    .and_then(|d| d.minimize_within(Some(budget)))
}

/// The xor of the tracks `xs` is 0: each digit has an even number of ones.
pub(super) fn xor_zero(tracks: usize, xs: &[usize], budget: &Budget) -> Result<Dfa, Stop> {
    let mask: u32 = xs.iter().map(|&t| 1u32 << t).fold(0, |a, b| a ^ b);
    Dfa::explore(
        tracks,
        true,
        |&ok, l| ok && (l & mask).count_ones().is_multiple_of(2),
        |&ok| ok,
        budget,
    )
}

fn cond_dfa(tracks: usize, c: &Cond, budget: &Budget) -> Result<Dfa, Stop> {
    match c {
        Cond::Lin(l, s) => linear(tracks, l, *s, budget),
        Cond::Xor(xs) => xor_zero(tracks, xs, budget),
        Cond::ColSum(m, xs, zero) => {
            let mask: u32 = xs.iter().map(|&t| 1u32 << t).sum();
            let m = *m as u32;
            // State: a digit whose count is not a multiple of m has been read.
            Dfa::explore(
                tracks,
                false,
                |&bad, l| bad || !(l & mask).count_ones().is_multiple_of(m),
                |&bad| bad != *zero,
                budget,
            )
        }
    }
}

fn all_of(tracks: usize, conds: &[Cond], budget: &Budget) -> Result<Dfa, Stop> {
    let mut acc = always(tracks, true, budget)?;
    for c in conds {
        acc = Dfa::product(&acc, &cond_dfa(tracks, c, budget)?, false, budget)?;
    }
    Ok(acc)
}

fn always(tracks: usize, accept: bool, budget: &Budget) -> Result<Dfa, Stop> {
    Dfa::explore(tracks, (), |_, _| (), |_| accept, budget)
}

/// The relation `atom` over `places` tracks (slot `j` on track `slot(j)`).
fn atom_dfa(
    atom: &Atom,
    places: usize,
    slot: &dyn Fn(usize) -> usize,
    budget: &Budget,
) -> Result<Dfa, Stop> {
    let mut fresh = places;
    let colsum = match (&atom.left, atom.op, &atom.right) {
        (Expr::ColSum(m, v), op, Expr::Num(0)) | (Expr::Num(0), op, Expr::ColSum(m, v))
            if matches!(op, Cmp::Eq | Cmp::Ne) =>
        {
            Some((*m, v, op == Cmp::Eq))
        }
        _ => None,
    };
    if let Some((m, v, zero)) = colsum {
        let alts = argument_tracks(v, slot, &mut fresh)?;
        let tracks = fresh;
        if tracks > MAX_TRACKS {
            return Err(Stop::Unsupported(format!(
                "the relation {atom} needs too many auxiliary values"
            )));
        }
        let mut acc = always(tracks, false, budget)?;
        for (mut guards, xs) in alts {
            guards.push(Cond::ColSum(m, xs, zero));
            acc = Dfa::product(&acc, &all_of(tracks, &guards, budget)?, true, budget)?;
        }
        return if tracks == places {
            Ok(acc)
        } else {
            acc.project(&(0..places).collect::<Vec<_>>(), budget)
        };
    }
    let left = cases(&atom.left, slot, &mut fresh)?;
    let right = cases(&atom.right, slot, &mut fresh)?;
    let tracks = fresh;
    if tracks > MAX_TRACKS {
        return Err(Stop::Unsupported(format!(
            "the relation {atom} needs {} auxiliary values; the automata prover handles {} tracks in all",
            tracks - places,
            MAX_TRACKS
        )));
    }
    let mut acc = always(tracks, false, budget)?;
    for l in &left {
        for r in &right {
            let mut conds: Vec<Cond> = l.guards.iter().chain(&r.guards).cloned().collect();
            conds.push(compare(&l.val, atom.op, &r.val)?);
            acc = Dfa::product(&acc, &all_of(tracks, &conds, budget)?, true, budget)?;
        }
    }
    if tracks == places {
        return Ok(acc);
    }
    acc.project(&(0..places).collect::<Vec<_>>(), budget)
}

/// A family as an automaton over its reading's places (track `p` = place `p` of the reading).
fn family_dfa(f: &PFamily, budget: &Budget) -> Result<Dfa, Stop> {
    let slots = f.slots.clone();
    let slot = move |j: usize| slots.as_ref().map_or(j, |s| s[j]);
    let mut acc = always(f.len, true, budget)?;
    for a in &f.atoms {
        acc = Dfa::product(&acc, &atom_dfa(a, f.len, &slot, budget)?, false, budget)?;
    }
    Ok(acc)
}

/// The tuples of `f.len` entries (slot `j` on track `j`) that satisfy every relation of the family,
/// as an automaton: for statements about a fixed number of values, such as the lemmas of
/// [`crate::heaps`].
pub fn family(f: &PFamily, budget: &Budget) -> Result<Dfa, Stop> {
    family_dfa(f, budget)
}

/// The conjectured set of tuples of `m` entries, as an automaton over `m` tracks (track `i` = entry `i`).
pub fn members(c: &Conjecture, m: usize, budget: &Budget) -> Result<Dfa, Stop> {
    let readings = c
        .readings(m)
        .map_err(|e| Stop::Unsupported(e.to_string()))?;
    let mut acc = always(m, false, budget)?;
    for f in c.families.iter().filter(|f| f.len == m) {
        let fam = family_dfa(f, budget)?;
        if std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some() {
            eprintln!("family {}: {} states", f.name, fam.states());
        }
        for r in &readings {
            let mut one = fam.embed(r, m);
            if c.reading == ReadingRule::MinFirst {
                // The reading starts at a smallest entry.
                let first = Lin::track(r[0]);
                let conds: Vec<Cond> = (0..m)
                    .map(|i| compare(&first, Cmp::Le, &Lin::track(i)))
                    .collect::<Result<_, _>>()?;
                one = Dfa::product(&one, &all_of(m, &conds, budget)?, false, budget)?;
            }
            acc = Dfa::product(&acc, &one, true, budget)?;
        }
    }
    Ok(acc)
}

/// "y is an option of x that lowers entries of the window `w` only" over `2m` tracks (x on `0..m`,
/// y on `m..2m`); y equals x outside `w`.
pub fn window_options(m: usize, w: &[usize], budget: &Budget) -> Result<Dfa, Stop> {
    let inside: u32 = w.iter().map(|&i| 1u32 << i).sum();
    Dfa::explore(
        2 * m,
        Some(0u32),
        |s, l| {
            let mut low = (*s)?;
            for i in 0..m {
                let (x, y) = ((l >> i) & 1, (l >> (m + i)) & 1);
                if inside >> i & 1 == 0 {
                    if x != y {
                        return None;
                    }
                    continue;
                }
                if low >> i & 1 == 1 {
                    continue;
                }
                if y > x {
                    return None;
                }
                if y < x {
                    low |= 1 << i;
                }
            }
            Some(low)
        },
        |s| s.is_some_and(|low| low != 0),
        budget,
    )
    .and_then(|d| d.minimize_within(Some(budget)))
}

/// Tuples of `m` entries that are not all 0.
pub(super) fn nonzero(m: usize, budget: &Budget) -> Result<Dfa, Stop> {
    Dfa::explore(m, false, |&seen, l| seen || l != 0, |&seen| seen, budget)
}
