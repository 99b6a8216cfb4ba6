//! The automaton type: complete deterministic automata over letters of one bit per track, read most
//! significant digit first, with product (intersection, union), complement, minimisation, widening
//! of the alphabet, projection (an existential quantifier, by the subset construction), shortest
//! accepted words; and the limits (a state cap, a deadline) every construction checks.

use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
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

/// The reason of a [`Stop::Limit`] when the caller's cancel scope was cancelled (the prover turns it
/// into [`nimlab_core::Error::Interrupted`]).
pub const INTERRUPTED: &str = "interrupted";

/// The limits of one proof: a deadline and a cap on the states of any automaton; and, for one of
/// two searches run side by side, a flag the other sets when it has the answer.
pub struct Budget {
    pub deadline: Instant,
    pub max_states: usize,
    pub cancel: Option<Arc<AtomicBool>>,
    /// The cancel scope of the thread that made the budget ([`nimlab_core::interrupt`]): a front
    /// end's Ctrl-C, seen by every thread the proof uses.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// Limits with no other search to give way to.
    pub fn new(deadline: Instant, max_states: usize) -> Budget {
        Budget {
            deadline,
            max_states,
            cancel: None,
            interrupt: nimlab_core::interrupt::current(),
        }
    }

    pub(super) fn check(&self, states: usize) -> Result<(), Stop> {
        if states > self.max_states {
            return Err(Stop::Limit(format!(
                "an automaton grew past {} states",
                self.max_states
            )));
        }
        if states.is_multiple_of(1024) {
            self.poll()?;
        }
        Ok(())
    }

    /// Past the deadline: the answer is unknown. Every long loop calls this once a round (a state
    /// expanded, a refinement pass, a search node), so a proof stops soon after its time limit.
    pub(super) fn poll(&self) -> Result<(), Stop> {
        if let Some(flag) = &self.interrupt {
            nimlab_core::interrupt::hold("automata", &|| flag.load(Ordering::Relaxed));
            if flag.load(Ordering::Relaxed) {
                return Err(Stop::Limit(INTERRUPTED.into()));
            }
        }
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(Stop::Limit("another search answered first".into()));
        }
        if Instant::now() > self.deadline {
            return Err(Stop::Limit("time limit reached".into()));
        }
        Ok(())
    }
}

/// A complete deterministic automaton over letters of `tracks` bits; state 0 is the initial state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dfa {
    pub tracks: usize,
    pub(super) trans: Vec<u32>,
    pub(super) fin: Vec<bool>,
}

impl Dfa {
    pub fn states(&self) -> usize {
        self.fin.len()
    }

    pub(super) fn letters(&self) -> usize {
        1 << self.tracks
    }

    pub(super) fn next(&self, s: u32, letter: u32) -> u32 {
        self.trans[s as usize * self.letters() + letter as usize]
    }

    /// The automaton of the states reachable from `init` under `step`.
    pub(super) fn explore<S: Clone + Eq + Hash>(
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
        let mut index: HashMap<S, u32> = HashMap::default();
        let mut order: Vec<S> = vec![init.clone()];
        index.insert(init, 0);
        let mut trans = Vec::new();
        let mut i = 0;
        while i < order.len() {
            budget.poll()?;
            let s = order[i].clone();
            for l in 0..letters {
                // One step can be long (a subset of many states in a projection): poll within a row.
                if l % 64 == 63 {
                    budget.poll()?;
                }
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
        match self.minimize_within(None) {
            Ok(d) => d,
            Err(_) => unreachable!("no deadline to reach"),
        }
    }

    /// [`Dfa::minimize`], stopping at the budget's deadline.
    pub(super) fn minimize_within(&self, budget: Option<&Budget>) -> Result<Dfa, Stop> {
        let n = self.states();
        let letters = self.letters();
        let mut class: Vec<u32> = self.fin.iter().map(|&f| f as u32).collect();
        let mut count = 0usize;
        loop {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::default();
            let mut next = vec![0u32; n];
            for s in 0..n {
                if s % 4096 == 0 {
                    if let Some(b) = budget {
                        b.poll()?;
                    }
                }
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
        let mut renum: HashMap<u32, u32> = HashMap::default();
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
        Ok(Dfa {
            tracks: self.tracks,
            trans,
            fin,
        })
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
    pub(super) fn live(&self) -> Vec<bool> {
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
        d.minimize_within(Some(budget))
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
        d.minimize_within(Some(budget))
    }

    /// The reversal: the automaton that accepts a word exactly when this one accepts the word read
    /// backwards (an automaton that reads the least significant digit first becomes one that reads
    /// the most significant digit first, and back), by the subset construction on the reversed
    /// transitions, minimised.
    pub fn reverse(&self, budget: &Budget) -> Result<Dfa, Stop> {
        let letters = self.letters();
        let n = self.states();
        // back[t * letters + l]: the states that `l` takes to `t`.
        let mut back: Vec<Vec<u32>> = vec![Vec::new(); n * letters];
        for s in 0..n {
            for l in 0..letters {
                back[self.trans[s * letters + l] as usize * letters + l].push(s as u32);
            }
        }
        let start: Vec<u32> = (0..n as u32).filter(|&s| self.fin[s as usize]).collect();
        let d = Dfa::explore(
            self.tracks,
            start,
            |set, l| {
                let mut out: Vec<u32> = set
                    .iter()
                    .flat_map(|&t| back[t as usize * letters + l as usize].iter().copied())
                    .collect();
                out.sort_unstable();
                out.dedup();
                out
            },
            |set| set.first() == Some(&0),
            budget,
        )?;
        d.minimize_within(Some(budget))
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

impl Dfa {
    /// A word read from state `a` of `self` and from state `b` of `other` with different answers, as
    /// one value per track (`None`: the two states accept the same words).
    fn distinguish(&self, a: u32, other: &Dfa, b: u32) -> Option<Vec<u128>> {
        assert_eq!(self.tracks, other.tracks);
        // Each pair of states reached, with the pair and letter it was reached from.
        type Link = Option<((u32, u32), u32)>;
        let mut from: HashMap<(u32, u32), Link> = HashMap::default();
        from.insert((a, b), None);
        let mut queue = VecDeque::from([(a, b)]);
        while let Some((x, y)) = queue.pop_front() {
            if self.fin[x as usize] != other.fin[y as usize] {
                let mut word = Vec::new();
                let mut at = (x, y);
                while let Some(Some((p, l))) = from.get(&at) {
                    word.push(*l);
                    at = *p;
                }
                word.reverse();
                return Some(decode(&word, self.tracks));
            }
            for l in 0..self.letters() as u32 {
                let t = (self.next(x, l), other.next(y, l));
                if let std::collections::hash_map::Entry::Vacant(v) = from.entry(t) {
                    v.insert(Some(((x, y), l)));
                    queue.push_back(t);
                }
            }
        }
        None
    }

    /// A tuple on which the two automata (over the same tracks) differ, as the shortest word one
    /// accepts and the other rejects; `None` when they accept the same words.
    pub fn differs_from(&self, other: &Dfa) -> Option<Vec<u128>> {
        self.distinguish(0, other, 0)
    }

    /// A tuple whose answer changes when a zero letter is put in front of its word (`None`: leading
    /// zero letters never change the answer, as the provers require of every automaton).
    pub fn leading_zeros_matter(&self) -> Option<Vec<u128>> {
        self.distinguish(0, self, self.next(0, 0))
    }

    /// The state reached from state `s` by `letter` (`letter < 2^tracks`).
    pub fn step(&self, s: u32, letter: u32) -> u32 {
        self.next(s, letter)
    }

    /// True when state `s` is accepting.
    pub fn is_final(&self, s: u32) -> bool {
        self.fin[s as usize]
    }

    /// The automaton with states `0..fin.len()` (0 initial), `trans[s * 2^tracks + letter]` the
    /// successor of `s` by `letter` (bit `i` of the letter is track `i`).
    pub fn from_parts(tracks: usize, trans: Vec<u32>, fin: Vec<bool>) -> Result<Dfa, Stop> {
        if tracks > MAX_TRACKS {
            return Err(Stop::Unsupported(format!(
                "{tracks} tracks; automata here have at most {MAX_TRACKS}"
            )));
        }
        let n = fin.len();
        if n == 0 || trans.len() != n << tracks || trans.iter().any(|&t| t as usize >= n) {
            return Err(Stop::Unsupported(
                "an automaton needs a state and one successor in range for every state and letter"
                    .into(),
            ));
        }
        Ok(Dfa { tracks, trans, fin })
    }
}

/// `set` closed under the letter 0 of the kept tracks (the dropped values' extra leading digits).
pub(super) fn closed<T: Ord + Copy>(
    mut set: Vec<T>,
    mut advance: impl FnMut(&[T], u32) -> Vec<T>,
) -> Vec<T> {
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

/// Decodes a word (letters most significant digit first) into one value per track.
pub(super) fn decode(word: &[u32], tracks: usize) -> Vec<u128> {
    let mut v = vec![0u128; tracks];
    for &l in word {
        for (i, x) in v.iter_mut().enumerate() {
            *x = (*x << 1) | ((l >> i) & 1) as u128;
        }
    }
    v
}
