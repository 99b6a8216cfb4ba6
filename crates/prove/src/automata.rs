//! Proofs by finite automata, for every entry size, of families that use `xor` (Nim-like sets).
//!
//! A tuple of entries is read in binary, all entries in parallel and the most significant digit
//! first: a word whose letters have one bit per *track* (one track per entry, plus tracks for the
//! option's entries and for auxiliary values). Leading zero letters do not change the tuple, and
//! every automaton here gives the same answer with or without them. Linear relations with integer
//! coefficients, `min`, `max`, `mod` and `xor` (an auxiliary track per value, quantified away) define
//! sets that finite automata recognise — they are *automatic in base 2* — and so do the option
//! relation of a window game (lower stacks inside one window) and the three conditions of the
//! partition theorem, built from them by intersection, complement and projection (an existential
//! quantifier). A condition holds exactly when its automaton accepts no word, which a search over its
//! states decides for every entry size at once; this is the method of the Walnut prover. A
//! counterexample is a shortest accepted word, decoded into a position and re-checked by exact search
//! before it is reported ([`crate::prove`]).
//!
//! Covered: CN(n,k) (Nim is CN(n,1)) and the simplicial-complex games (one tuple length, a move
//! lowers stacks inside one facet), every reading rule. SCN is left to the SMT prover.

use crate::conjecture::{Conjecture, Kind, PFamily, ReadingRule};
use crate::expr::{Atom, Cmp, Expr};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::hash::Hash;
use std::time::Instant;

/// Most tracks of one automaton (letters have 2^tracks values).
pub const MAX_TRACKS: usize = 16;

/// Why an automaton was not built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The relations use something automata do not cover here, in one line.
    Unsupported(String),
    /// More states than the budget allows, or past the deadline: the answer is unknown.
    Limit(String),
}

/// The limits of one proof: a deadline and a cap on the states of any automaton.
pub struct Budget {
    pub deadline: Instant,
    pub max_states: usize,
}

impl Budget {
    fn check(&self, states: usize) -> Result<(), Stop> {
        if states > self.max_states {
            return Err(Stop::Limit(format!(
                "an automaton grew past {} states",
                self.max_states
            )));
        }
        if states.is_multiple_of(1024) && Instant::now() > self.deadline {
            return Err(Stop::Limit("time limit reached".into()));
        }
        Ok(())
    }
}

/// A complete deterministic automaton over letters of `tracks` bits; state 0 is the initial state.
#[derive(Debug, Clone)]
pub struct Dfa {
    pub tracks: usize,
    trans: Vec<u32>,
    fin: Vec<bool>,
}

impl Dfa {
    pub fn states(&self) -> usize {
        self.fin.len()
    }

    fn letters(&self) -> usize {
        1 << self.tracks
    }

    fn next(&self, s: u32, letter: u32) -> u32 {
        self.trans[s as usize * self.letters() + letter as usize]
    }

    /// The automaton of the states reachable from `init` under `step`.
    fn explore<S: Clone + Eq + Hash>(
        tracks: usize,
        init: S,
        mut step: impl FnMut(&S, u32) -> S,
        is_final: impl Fn(&S) -> bool,
        budget: &Budget,
    ) -> Result<Dfa, Stop> {
        if tracks > MAX_TRACKS {
            return Err(Stop::Unsupported(format!(
                "{tracks} tracks; the automata prover handles at most {MAX_TRACKS}"
            )));
        }
        let letters = 1u32 << tracks;
        let mut index: HashMap<S, u32> = HashMap::new();
        let mut order: Vec<S> = vec![init.clone()];
        index.insert(init, 0);
        let mut trans = Vec::new();
        let mut i = 0;
        while i < order.len() {
            let s = order[i].clone();
            for l in 0..letters {
                let t = step(&s, l);
                let id = match index.get(&t) {
                    Some(&id) => id,
                    None => {
                        let id = order.len() as u32;
                        budget.check(order.len())?;
                        index.insert(t.clone(), id);
                        order.push(t);
                        id
                    }
                };
                trans.push(id);
            }
            i += 1;
        }
        let fin = order.iter().map(is_final).collect();
        Ok(Dfa { tracks, trans, fin })
    }

    /// The same language with the fewest states (Moore's partition refinement).
    pub fn minimize(&self) -> Dfa {
        let n = self.states();
        let letters = self.letters();
        let mut class: Vec<u32> = self.fin.iter().map(|&f| f as u32).collect();
        let mut count = 0usize;
        loop {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
            let mut next = vec![0u32; n];
            for s in 0..n {
                let mut sig = Vec::with_capacity(letters + 1);
                sig.push(class[s]);
                sig.extend((0..letters).map(|l| class[self.trans[s * letters + l] as usize]));
                let k = ids.len() as u32;
                next[s] = *ids.entry(sig).or_insert(k);
            }
            let c = ids.len();
            class = next;
            if c == count {
                break;
            }
            count = c;
        }
        // Renumber from the initial state's class, in order of discovery.
        let mut renum: HashMap<u32, u32> = HashMap::new();
        let mut reps: Vec<usize> = Vec::new();
        renum.insert(class[0], 0);
        reps.push(0);
        let mut trans = Vec::new();
        let mut i = 0;
        while i < reps.len() {
            let s = reps[i];
            for l in 0..letters {
                let t = self.trans[s * letters + l] as usize;
                let k = renum.len() as u32;
                let id = *renum.entry(class[t]).or_insert_with(|| {
                    reps.push(t);
                    k
                });
                trans.push(id);
            }
            i += 1;
        }
        let fin = reps.iter().map(|&s| self.fin[s]).collect();
        Dfa {
            tracks: self.tracks,
            trans,
            fin,
        }
    }

    /// The complement (every word the automaton rejects).
    pub fn complement(&self) -> Dfa {
        Dfa {
            tracks: self.tracks,
            trans: self.trans.clone(),
            fin: self.fin.iter().map(|f| !f).collect(),
        }
    }

    /// States from which some word leads to a final state.
    fn live(&self) -> Vec<bool> {
        let n = self.states();
        let letters = self.letters();
        let mut back: Vec<Vec<u32>> = vec![Vec::new(); n];
        for s in 0..n {
            for l in 0..letters {
                back[self.trans[s * letters + l] as usize].push(s as u32);
            }
        }
        let mut live = self.fin.clone();
        let mut stack: Vec<usize> = (0..n).filter(|&s| live[s]).collect();
        while let Some(t) = stack.pop() {
            for &s in &back[t] {
                if !live[s as usize] {
                    live[s as usize] = true;
                    stack.push(s as usize);
                }
            }
        }
        live
    }

    /// The intersection (`and`) or union (`or`) of two automata over the same tracks.
    pub fn product(a: &Dfa, b: &Dfa, union: bool, budget: &Budget) -> Result<Dfa, Stop> {
        assert_eq!(a.tracks, b.tracks);
        let d = Dfa::explore(
            a.tracks,
            (0u32, 0u32),
            |&(x, y), l| (a.next(x, l), b.next(y, l)),
            |&(x, y)| {
                if union {
                    a.fin[x as usize] || b.fin[y as usize]
                } else {
                    a.fin[x as usize] && b.fin[y as usize]
                }
            },
            budget,
        )?;
        Ok(d.minimize())
    }

    /// This automaton read on a wider alphabet: its track `i` is track `map[i]` of `tracks`.
    pub fn embed(&self, map: &[usize], tracks: usize) -> Dfa {
        assert_eq!(map.len(), self.tracks);
        let letters = 1usize << tracks;
        let inner: Vec<u32> = (0..letters as u32)
            .map(|l| {
                map.iter()
                    .enumerate()
                    .map(|(i, &t)| ((l >> t) & 1) << i)
                    .sum()
            })
            .collect();
        let mut trans = Vec::with_capacity(self.states() * letters);
        for s in 0..self.states() as u32 {
            trans.extend(inner.iter().map(|&l| self.next(s, l)));
        }
        Dfa {
            tracks,
            trans,
            fin: self.fin.clone(),
        }
    }

    /// `exists` the tracks not in `keep`: an automaton over `keep` (in that order), by the subset
    /// construction; states that can no longer accept are left out of the subsets. The dropped
    /// values may need more digits than the kept ones, so the start is every state reached from the
    /// initial one by letters that are zero on the kept tracks.
    pub fn project(&self, keep: &[usize], budget: &Budget) -> Result<Dfa, Stop> {
        let dropped: Vec<usize> = (0..self.tracks).filter(|t| !keep.contains(t)).collect();
        let live = self.live();
        // The letter with the bits of `l` on the kept tracks and those of `d` on the dropped ones.
        let spread = |l: u32, d: u32| -> u32 {
            let mut x = 0u32;
            for (i, &t) in keep.iter().enumerate() {
                x |= ((l >> i) & 1) << t;
            }
            for (i, &t) in dropped.iter().enumerate() {
                x |= ((d >> i) & 1) << t;
            }
            x
        };
        let advance = |set: &[u64], l: u32| -> Vec<u64> {
            let mut out: Vec<u64> = Vec::new();
            for &s in set {
                for d in 0..1u32 << dropped.len() {
                    let t = self.next(s as u32, spread(l, d));
                    if live[t as usize] {
                        out.push(t as u64);
                    }
                }
            }
            out.sort_unstable();
            out.dedup();
            out
        };
        let start = closed(if live[0] { vec![0] } else { Vec::new() }, &advance);
        let d = Dfa::explore(
            keep.len(),
            start,
            |set, l| advance(set, l),
            |set| set.iter().any(|&s| self.fin[s as usize]),
            budget,
        )?;
        Ok(d.minimize())
    }

    /// A shortest accepted word, as one value per track (`None`: the automaton accepts nothing).
    pub fn witness(&self) -> Option<Vec<u128>> {
        let n = self.states();
        let mut from: Vec<Option<(u32, u32)>> = vec![None; n];
        let mut seen = vec![false; n];
        seen[0] = true;
        let mut queue = VecDeque::from([0u32]);
        while let Some(s) = queue.pop_front() {
            if self.fin[s as usize] {
                let mut word = Vec::new();
                let mut t = s;
                while let Some((p, l)) = from[t as usize] {
                    word.push(l);
                    t = p;
                }
                word.reverse();
                return Some(decode(&word, self.tracks));
            }
            for l in 0..self.letters() as u32 {
                let t = self.next(s, l);
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    from[t as usize] = Some((s, l));
                    queue.push_back(t);
                }
            }
        }
        None
    }

    /// True when the automaton accepts the tuple `v` (one value per track).
    pub fn accepts(&self, v: &[u128]) -> bool {
        let digits = v
            .iter()
            .map(|x| 128 - x.leading_zeros() as usize)
            .max()
            .unwrap_or(0);
        let mut s = 0u32;
        for j in (0..digits).rev() {
            let l = v
                .iter()
                .enumerate()
                .map(|(i, x)| (((x >> j) & 1) as u32) << i)
                .sum();
            s = self.next(s, l);
        }
        self.fin[s as usize]
    }
}

/// `set` closed under the letter 0 of the kept tracks (the dropped values' extra leading digits).
fn closed(mut set: Vec<u64>, mut advance: impl FnMut(&[u64], u32) -> Vec<u64>) -> Vec<u64> {
    loop {
        let mut more = advance(&set, 0);
        more.extend(&set);
        more.sort_unstable();
        more.dedup();
        if more == set {
            return set;
        }
        set = more;
    }
}

/// The word that leads to node `i` of a search, from the parent links.
fn path<S>(nodes: &[Node<S>], mut i: usize) -> Vec<u32> {
    let mut word = Vec::new();
    while let Some((p, l)) = nodes[i].1 {
        word.push(l);
        i = p;
    }
    word.reverse();
    word
}

/// A linear form over tracks: `sum coef * track + constant`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Lin {
    terms: BTreeMap<usize, i128>,
    c: i128,
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

    fn add(&self, k: i128, o: &Lin) -> Lin {
        let mut r = self.clone();
        for (&t, &a) in &o.terms {
            *r.terms.entry(t).or_insert(0) += k * a;
        }
        r.terms.retain(|_, a| *a != 0);
        r.c += k * o.c;
        r
    }
}

/// A sign condition on a linear form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sign {
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
    Ok(combos(&cs)
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
                    guards.push(compare(&Lin::track(t), Cmp::Eq, &a.val));
                    xs.push(t);
                }
            }
            (guards, xs)
        })
        .collect())
}

/// `l op r` as conditions on `l - r`.
fn compare(l: &Lin, op: Cmp, r: &Lin) -> Cond {
    let d = l.add(-1, r);
    match op {
        Cmp::Eq => Cond::Lin(d, Sign::Zero),
        Cmp::Ne => Cond::Lin(d, Sign::NonZero),
        Cmp::Le => Cond::Lin(d, Sign::AtMostZero),
        Cmp::Lt => Cond::Lin(d.add(1, &Lin::constant(1)), Sign::AtMostZero),
        Cmp::Ge => Cond::Lin(Lin::default().add(-1, &d), Sign::AtMostZero),
        Cmp::Gt => Cond::Lin(
            Lin::default().add(-1, &d).add(1, &Lin::constant(1)),
            Sign::AtMostZero,
        ),
    }
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
                        val = val.add(*k, &a.val);
                    }
                    Alt {
                        guards: guards_of(&c),
                        val,
                    }
                })
                .collect()
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
                            guards.push(compare(&pick.val, op, &other.val));
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
                    let rhs = a.val.add(-*m, &Lin::track(q1)).add(*m, &Lin::track(q2));
                    guards.push(compare(&Lin::track(v), Cmp::Eq, &rhs));
                    guards.push(compare(&Lin::track(v), Cmp::Lt, &Lin::constant(*m)));
                    Alt {
                        guards,
                        val: Lin::track(v),
                    }
                })
                .collect()
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
fn linear(tracks: usize, lin: &Lin, sign: Sign, budget: &Budget) -> Result<Dfa, Stop> {
    #[derive(Clone, PartialEq, Eq, Hash)]
    enum V {
        Val(i128),
        Pos,
        Neg,
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
    .map(|d| d.minimize())
}

/// The xor of the tracks `xs` is 0: each digit has an even number of ones.
fn xor_zero(tracks: usize, xs: &[usize], budget: &Budget) -> Result<Dfa, Stop> {
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
            conds.push(compare(&l.val, atom.op, &r.val));
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
                    .collect();
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
    .map(|d| d.minimize())
}

/// Tuples of `m` entries that are not all 0.
fn nonzero(m: usize, budget: &Budget) -> Result<Dfa, Stop> {
    Dfa::explore(m, false, |&seen, l| seen || l != 0, |&seen| seen, budget)
}

/// The answers of the partition theorem's conditions (I) and (II): a member with an option in the
/// set (and that option), and a non-terminal position outside the set with no option in it; `None`
/// where there is none, for every entry size.
/// A position and one of its options, one entry per track.
pub type Move = (Vec<u128>, Vec<u128>);

/// A search node: its state, and where it came from (node, letter).
type Node<S> = (S, Option<(usize, u32)>);

pub struct Conditions {
    pub members: Dfa,
    /// Condition (I): `Ok(None)` when it holds; with the seconds it took.
    pub joined: (Result<Option<Move>, Stop>, f64),
    /// Condition (II): `Ok(None)` when it holds; with the seconds it took.
    pub stranded: (Result<Option<Vec<u128>>, Stop>, f64),
}

/// The letter of the `2m` tracks (x, y) whose y equals x outside the window `w` and takes the bits of
/// `d` (in order) on it.
fn with_window(m: usize, lx: u32, w: &[usize], d: u32) -> u32 {
    let mut y = lx;
    for (j, &i) in w.iter().enumerate() {
        y = (y & !(1 << i)) | (((d >> j) & 1) << i);
    }
    lx | (y << m)
}

/// Decodes a word (letters most significant digit first) into one value per track.
fn decode(word: &[u32], tracks: usize) -> Vec<u128> {
    let mut v = vec![0u128; tracks];
    for &l in word {
        for (i, x) in v.iter_mut().enumerate() {
            *x = (*x << 1) | ((l >> i) & 1) as u128;
        }
    }
    v
}

/// Condition (I): a breadth-first search of the product "x in the set, y an option of x inside one
/// window, y in the set" for an accepted word.
fn joined(
    m: usize,
    s: &Dfa,
    opts: &[(Vec<usize>, Dfa)],
    budget: &Budget,
) -> Result<Option<Move>, Stop> {
    let ls = s.live();
    for (w, opt) in opts {
        let lo = opt.live();
        let mut seen: HashMap<(u32, u32, u32), usize> = HashMap::new();
        let mut nodes: Vec<Node<(u32, u32, u32)>> = vec![((0, 0, 0), None)];
        seen.insert((0, 0, 0), 0);
        let mut i = 0;
        while i < nodes.len() {
            let ((qx, o, qy), _) = nodes[i];
            if s.fin[qx as usize] && opt.fin[o as usize] && s.fin[qy as usize] {
                let v = decode(&path(&nodes, i), 2 * m);
                return Ok(Some((v[..m].to_vec(), v[m..].to_vec())));
            }
            for lx in 0..1u32 << m {
                let qx2 = s.next(qx, lx);
                if !ls[qx2 as usize] {
                    continue;
                }
                for d in 0..1u32 << w.len() {
                    let l = with_window(m, lx, w, d);
                    let o2 = opt.next(o, l);
                    let qy2 = s.next(qy, l >> m);
                    if !lo[o2 as usize] || !ls[qy2 as usize] {
                        continue;
                    }
                    let key = (qx2, o2, qy2);
                    if let std::collections::hash_map::Entry::Vacant(v) = seen.entry(key) {
                        v.insert(nodes.len());
                        nodes.push((key, Some((i, l))));
                        budget.check(nodes.len())?;
                    }
                }
            }
            i += 1;
        }
    }
    Ok(None)
}

/// Condition (II): a search for x, outside the set and not all zero, such that no option of x is in
/// the set. The options are tracked as the set of (window, option-automaton state, set-automaton
/// state) reachable by some y; a search node whose set contains that of another node with the same
/// x-state is skipped, since every continuation that avoids the larger set avoids the smaller one
/// too (the antichain method).
fn stranded(
    m: usize,
    s: &Dfa,
    opts: &[(Vec<usize>, Dfa)],
    budget: &Budget,
) -> Result<Option<Vec<u128>>, Stop> {
    let trace = std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some();
    let outside = Dfa::product(&s.complement(), &nonzero(m, budget)?, false, budget)?;
    let la = outside.live();
    if !la[0] {
        return Ok(None);
    }
    let ls = s.live();
    let lo: Vec<Vec<bool>> = opts.iter().map(|(_, o)| o.live()).collect();
    let ns = s.states() as u64;
    // An element: window index, option state, set state.
    let pack =
        |w: usize, o: u32, q: u32| -> u64 { ((w as u64 * 1_000_000 + o as u64) * ns) + q as u64 };
    let unpack = |e: u64| -> (usize, u32, u32) {
        let q = (e % ns) as u32;
        let r = e / ns;
        ((r / 1_000_000) as usize, (r % 1_000_000) as u32, q)
    };
    // The successors of one element under one letter of x, computed once.
    let mut memo: HashMap<(u64, u32), Vec<u64>> = HashMap::new();
    let mut advance = |set: &[u64], lx: u32| -> Vec<u64> {
        let mut out = Vec::new();
        for &e in set {
            let next = memo.entry((e, lx)).or_insert_with(|| {
                let (wi, o, q) = unpack(e);
                let (w, opt) = &opts[wi];
                let mut v = Vec::new();
                for d in 0..1u32 << w.len() {
                    let l = with_window(m, lx, w, d);
                    let o2 = opt.next(o, l);
                    let q2 = s.next(q, l >> m);
                    if lo[wi][o2 as usize] && ls[q2 as usize] {
                        v.push(pack(wi, o2, q2));
                    }
                }
                v.sort_unstable();
                v.dedup();
                v
            });
            out.extend_from_slice(next);
        }
        out.sort_unstable();
        out.dedup();
        out
    };
    let accepting = |set: &[u64]| {
        set.iter().any(|&e| {
            let (wi, o, q) = unpack(e);
            opts[wi].1.fin[o as usize] && s.fin[q as usize]
        })
    };
    let start = closed(
        (0..opts.len())
            .filter(|&wi| lo[wi][0] && ls[0])
            .map(|wi| pack(wi, 0, 0))
            .collect(),
        &mut advance,
    );
    let is_subset = |a: &[u64], b: &[u64]| {
        // a and b sorted: every element of a is in b.
        let mut j = 0;
        a.iter().all(|x| {
            while j < b.len() && b[j] < *x {
                j += 1;
            }
            j < b.len() && b[j] == *x
        })
    };
    let mut nodes: Vec<Node<(u32, Vec<u64>)>> = vec![((0, start), None)];
    let mut kept: HashMap<u32, Vec<usize>> = HashMap::from([(0, vec![0])]);
    let mut i = 0;
    while i < nodes.len() {
        let (qa, set) = (nodes[i].0 .0, nodes[i].0 .1.clone());
        if outside.fin[qa as usize] && !accepting(&set) {
            return Ok(Some(decode(&path(&nodes, i), m)));
        }
        for lx in 0..1u32 << m {
            let qa2 = outside.next(qa, lx);
            if !la[qa2 as usize] {
                continue;
            }
            let set2 = advance(&set, lx);
            let same = kept.entry(qa2).or_default();
            if same.iter().any(|&k| is_subset(&nodes[k].0 .1, &set2)) {
                continue;
            }
            same.push(nodes.len());
            nodes.push(((qa2, set2), Some((i, lx))));
            budget.check(nodes.len())?;
        }
        i += 1;
        if trace && i % 1000 == 0 {
            let avg = nodes.iter().map(|n| n.0 .1.len()).sum::<usize>() / nodes.len();
            eprintln!(
                "(II): {i} of {} nodes expanded, {avg} elements a set on average",
                nodes.len()
            );
        }
    }
    Ok(None)
}

/// One condition's search: its answer and its seconds, counting the `built` seconds of the automata
/// both conditions share; a refusal ends the proof.
fn timed<T>(
    name: &str,
    built: f64,
    trace: bool,
    run: impl FnOnce() -> Result<T, Stop>,
) -> Result<(Result<T, Stop>, f64), Stop> {
    let t = Instant::now();
    let r = run();
    if trace {
        eprintln!("condition ({name}): {:.2} s", t.elapsed().as_secs_f64());
    }
    if let Err(Stop::Unsupported(e)) = r {
        return Err(Stop::Unsupported(e));
    }
    Ok((r, built + t.elapsed().as_secs_f64()))
}

/// Decides conditions (I) and (II) for a conjecture about CN or a complex.
pub fn conditions(c: &Conjecture, budget: &Budget) -> Result<Conditions, Stop> {
    if c.game.kind == Kind::Scn {
        return Err(Stop::Unsupported(
            "the automata prover covers CN, Nim and the complexes (one tuple length); SCN's circles shrink: use the SMT prover (--bits W for xor)".into(),
        ));
    }
    let m = c.game.n;
    if 2 * m > MAX_TRACKS {
        return Err(Stop::Unsupported(format!(
            "{} has {m} stacks; the automata prover handles at most {}",
            c.game.id(),
            MAX_TRACKS / 2
        )));
    }
    let trace = std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some();
    let t0 = Instant::now();
    let s = members(c, m, budget)?;
    if trace {
        eprintln!(
            "members: {} states ({:.2} s)",
            s.states(),
            t0.elapsed().as_secs_f64()
        );
    }
    let opts = c
        .game
        .windows(m)
        .into_iter()
        .map(|w| window_options(m, &w, budget).map(|o| (w, o)))
        .collect::<Result<Vec<_>, _>>()?;
    let built = t0.elapsed().as_secs_f64();
    let one = timed("I", built, trace, || joined(m, &s, &opts, budget))?;
    let two = timed("II", built, trace, || stranded(m, &s, &opts, budget))?;
    Ok(Conditions {
        members: s,
        joined: one,
        stranded: two,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn budget() -> Budget {
        Budget {
            deadline: Instant::now() + Duration::from_secs(60),
            max_states: 1 << 20,
        }
    }

    /// Every tuple of `tracks` entries below `2^bits`.
    fn all(tracks: usize, bits: u32) -> Vec<Vec<u128>> {
        let top = 1u128 << bits;
        let mut out = vec![vec![]];
        for _ in 0..tracks {
            out = out
                .into_iter()
                .flat_map(|v: Vec<u128>| {
                    (0..top).map(move |x| {
                        let mut v = v.clone();
                        v.push(x);
                        v
                    })
                })
                .collect();
        }
        out
    }

    #[test]
    fn linear_relations_equal_arithmetic() {
        let b = budget();
        // 3x - 2y + z - 5 against 0, every sign, on all triples below 2^4.
        let lin = Lin {
            terms: BTreeMap::from([(0, 3), (1, -2), (2, 1)]),
            c: -5,
        };
        for sign in [Sign::Zero, Sign::NonZero, Sign::AtMostZero] {
            let d = linear(3, &lin, sign, &b).unwrap();
            for v in all(3, 4) {
                let x = 3 * v[0] as i128 - 2 * v[1] as i128 + v[2] as i128 - 5;
                let want = match sign {
                    Sign::Zero => x == 0,
                    Sign::NonZero => x != 0,
                    Sign::AtMostZero => x <= 0,
                };
                assert_eq!(d.accepts(&v), want, "{sign:?} {v:?}");
            }
        }
    }

    #[test]
    fn xor_and_leading_zeros() {
        let b = budget();
        let d = xor_zero(3, &[0, 1, 2], &b).unwrap();
        for v in all(3, 4) {
            assert_eq!(d.accepts(&v), v[0] ^ v[1] ^ v[2] == 0, "{v:?}");
        }
        // A witness of "x = y + 9" is a shortest one.
        let lin = Lin {
            terms: BTreeMap::from([(0, 1), (1, -1)]),
            c: -9,
        };
        let d = linear(2, &lin, Sign::Zero, &b).unwrap();
        assert_eq!(d.witness(), Some(vec![9, 0]));
    }

    #[test]
    fn projection_finds_wider_witnesses() {
        let b = budget();
        // exists y: y = 2x + 1 (y needs one digit more than x): true for every x.
        let lin = Lin {
            terms: BTreeMap::from([(1, 1), (0, -2)]),
            c: -1,
        };
        let d = linear(2, &lin, Sign::Zero, &b).unwrap();
        let p = d.project(&[0], &b).unwrap();
        for x in 0..64u128 {
            assert!(p.accepts(&[x]), "{x}");
        }
        // exists y: x = 2y: the even numbers.
        let lin = Lin {
            terms: BTreeMap::from([(0, 1), (1, -2)]),
            c: 0,
        };
        let p = linear(2, &lin, Sign::Zero, &b)
            .unwrap()
            .project(&[0], &b)
            .unwrap();
        for x in 0..64u128 {
            assert_eq!(p.accepts(&[x]), x % 2 == 0, "{x}");
        }
    }

    #[test]
    fn the_option_relation_of_cn_4_2_equals_the_rules() {
        let b = budget();
        let windows = [vec![0, 1], vec![1, 2], vec![2, 3], vec![3, 0]];
        let per: Vec<Dfa> = windows
            .iter()
            .map(|w| window_options(4, w, &b).unwrap())
            .collect();
        for v in all(8, 2) {
            let (x, y) = (&v[..4], &v[4..]);
            let lowered: Vec<usize> = (0..4).filter(|&i| y[i] < x[i]).collect();
            let want = (0..4).all(|i| y[i] <= x[i])
                && !lowered.is_empty()
                && windows
                    .iter()
                    .any(|w| lowered.iter().all(|i| w.contains(i)));
            let got = per.iter().any(|d| d.accepts(&v));
            assert_eq!(got, want, "{x:?} -> {y:?}");
        }
    }
}
