//! Nim on a simplicial complex (Ehrenborg & Steingrímsson, 1996) and Extended Circular Nim
//! ECN(m,S,k) (Suetsugu, 2025).
//!
//! The stacks are the vertices `1..=n` of a simplicial complex; a move lowers any stacks inside one
//! face, at least one token in all. Every subset of a facet is a face, so the facets (the maximal
//! faces) are the only move windows that matter, and every vertex is a face (a stack named in no
//! facet can still be lowered alone). `simplicial({1,2,3},{3,4},{4,1})` names the complex by its
//! facets; faces contained in other named faces are dropped.
//!
//! ECN(m,S,k) is the complex on a circle of m stacks whose facets are `{i, i+s, ..., i+(t-1)s}`
//! (mod m) for s in S, every start i, and `t = min(k, m / gcd(m, s))`; ECN(m,{1},k) is CN(m,k).
//!
//! Symmetries are the complex's automorphisms (permutations of the stacks mapping facets onto
//! facets), found once at construction by a search that matches vertices with the same number of
//! facets and the same pairwise facet counts. When every k-set is a facet the group is the whole
//! symmetric group and the canonical form is the sorted tuple. Otherwise the group is listed, up to
//! [`MAX_GROUP`] elements found within [`SEARCH_NODES`] search steps; past either limit no symmetry
//! is used (canonical forms are then the positions themselves, still correct, only less reduced).
//!
//! At construction the complex is also compared with CN(n,k) (every k) and Moore's Nim_k (every k):
//! when it is a relabeling of one of them, [`Complex::relabeling`] gives the map, and the theory
//! crate answers through the known game's results.

use crate::window::{for_each_lowering, window_product};
use nimlab_core::{BoxDomain, Error, Game, Layout, MoveStructure, Pos, Result, Rng};
use std::ops::ControlFlow;

/// Most stacks a complex may have (a face is a 64-bit mask).
pub const MAX_STACKS: usize = 64;
/// Most facets a complex may have (each one is a move window of the tables engine).
pub const MAX_FACETS: usize = 10_000;
/// Most automorphisms kept for canonical forms.
pub const MAX_GROUP: usize = 5_040;
/// Most search steps (a stack tried as the image of another; a complete map checked counts by its
/// facets) spent looking for automorphisms or for one relabeling of a known game.
pub const SEARCH_NODES: u64 = 5_000_000;

/// Which notation the complex was given in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ComplexKind {
    /// `simplicial({..},{..},...)`.
    Simplicial,
    /// `ECN(m,{s1,...},k)`; `steps` sorted, without repeats.
    Ecn { steps: Vec<usize>, k: usize },
}

/// A game with a proven theory that a complex may be a relabeling of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnownGame {
    /// CN(n,k): the n windows of k consecutive stacks (one window when k = n).
    Cn { n: usize, k: usize },
    /// Moore's Nim_k on n heaps: every k-set of heaps.
    Moore { n: usize, k: usize },
}

impl KnownGame {
    /// The game's name, e.g. `CN(5,2)`.
    pub fn name(&self) -> String {
        match self {
            KnownGame::Cn { n, k } => format!("CN({n},{k})"),
            KnownGame::Moore { k, .. } => format!("moore({k})"),
        }
    }
}

/// A relabeling of the stacks onto a known game: stack `i` (0-based) of the complex is stack
/// `map[i]` of `target`, and faces correspond exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relabeling {
    pub target: KnownGame,
    pub map: Vec<usize>,
}

impl Relabeling {
    /// A position of the complex as a position of the known game.
    pub fn forward(&self, p: &[u64]) -> Pos {
        let mut q = vec![0; p.len()];
        for (i, &a) in p.iter().enumerate() {
            q[self.map[i]] = a;
        }
        q
    }
    /// A position of the known game as a position of the complex.
    pub fn back(&self, q: &[u64]) -> Pos {
        self.map.iter().map(|&j| q[j]).collect()
    }
    /// The map in words, 1-based: `stacks 1,2,3,4,5 -> CN(5,2) stacks 1,3,5,2,4`.
    pub fn describe(&self) -> String {
        let from: Vec<String> = (1..=self.map.len()).map(|i| i.to_string()).collect();
        let to: Vec<String> = self.map.iter().map(|j| (j + 1).to_string()).collect();
        format!(
            "stacks {} -> {} stacks {}",
            from.join(","),
            self.target.name(),
            to.join(",")
        )
    }
}

/// The symmetries used for canonical forms.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Symmetry {
    /// Every permutation of the stacks.
    Full,
    /// The listed permutations (the identity included): `q[i] = p[perm[i]]`.
    Listed(Vec<Vec<u8>>),
    /// Too many to list, or the search ran out of steps: none used.
    Unknown,
}

/// Nim on a simplicial complex given by its facets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Complex {
    n: usize,
    /// Facets as sorted 0-based stack lists, in lexicographic order.
    facets: Vec<Vec<usize>>,
    masks: Vec<u64>,
    kind: ComplexKind,
    symmetry: Symmetry,
    relabeling: Option<Relabeling>,
}

fn mask_of(f: &[usize]) -> u64 {
    f.iter().fold(0u64, |m, &i| m | 1 << i)
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Complex {
    /// The complex on stacks `0..n` with the given faces (0-based); faces inside others are
    /// dropped, and every stack in no face becomes a facet of its own.
    fn build(n: usize, faces: Vec<Vec<usize>>, kind: ComplexKind, name: &str) -> Result<Complex> {
        if n == 0 || n > MAX_STACKS {
            return Err(Error::BadGame(format!(
                "{name}: the number of stacks must be between 1 and {MAX_STACKS}"
            )));
        }
        let mut masks: Vec<u64> = faces.iter().map(|f| mask_of(f)).collect();
        let covered = masks.iter().fold(0u64, |a, &m| a | m);
        masks.extend((0..n).filter(|&i| covered >> i & 1 == 0).map(|i| 1u64 << i));
        masks.sort_unstable();
        masks.dedup();
        let all = masks.clone();
        masks.retain(|&m| !all.iter().any(|&o| o != m && o & m == m));
        if masks.len() > MAX_FACETS {
            return Err(Error::BadGame(format!(
                "{name}: at most {MAX_FACETS} facets, got {}",
                masks.len()
            )));
        }
        let mut facets: Vec<Vec<usize>> = masks
            .iter()
            .map(|&m| (0..n).filter(|&i| m >> i & 1 == 1).collect())
            .collect();
        facets.sort();
        let masks: Vec<u64> = facets.iter().map(|f| mask_of(f)).collect();
        let mut c = Complex {
            n,
            facets,
            masks,
            kind,
            symmetry: Symmetry::Unknown,
            relabeling: None,
        };
        c.symmetry = c.find_symmetry();
        c.relabeling = c.find_relabeling();
        Ok(c)
    }

    /// `simplicial(...)` from its facets, stacks numbered from 1.
    pub fn simplicial(facets: &[Vec<usize>]) -> Result<Complex> {
        if facets.is_empty() {
            return Err(Error::BadGame(
                "simplicial: give at least one facet, e.g. simplicial({1,2},{2,3})".into(),
            ));
        }
        let mut n = 0;
        let mut faces = Vec::new();
        for f in facets {
            if f.is_empty() {
                return Err(Error::BadGame("simplicial: a facet {} is empty".into()));
            }
            if let Some(&v) = f.iter().find(|&&v| v == 0 || v > MAX_STACKS) {
                return Err(Error::BadGame(format!(
                    "simplicial: stack {v} is not between 1 and {MAX_STACKS}"
                )));
            }
            n = n.max(*f.iter().max().unwrap());
            faces.push(f.iter().map(|&v| v - 1).collect());
        }
        if facets.len() > MAX_FACETS {
            return Err(Error::BadGame(format!(
                "simplicial: at most {MAX_FACETS} facets, got {}",
                facets.len()
            )));
        }
        Complex::build(n, faces, ComplexKind::Simplicial, "simplicial")
    }

    /// ECN(m,S,k): m stacks on a circle, steps S (each 1 <= s <= m/2), at most k stacks per move.
    pub fn ecn(m: usize, steps: &[usize], k: usize) -> Result<Complex> {
        let mut s: Vec<usize> = steps.to_vec();
        s.sort_unstable();
        s.dedup();
        let name = format!(
            "ECN({m},{{{}}},{k})",
            s.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        if !(2..=MAX_STACKS).contains(&m) {
            return Err(Error::BadGame(format!(
                "{name}: the number of stacks m must be between 2 and {MAX_STACKS}"
            )));
        }
        if s.is_empty() {
            return Err(Error::BadGame(format!(
                "{name}: give at least one step in S"
            )));
        }
        if let Some(bad) = s.iter().find(|&&x| x == 0 || 2 * x > m) {
            return Err(Error::BadGame(format!(
                "{name}: every step s must satisfy 1 <= s <= m/2 (got {bad})"
            )));
        }
        if k == 0 || k > m {
            return Err(Error::BadGame(format!(
                "{name}: k (the most stacks one move may touch) must satisfy 1 <= k <= m"
            )));
        }
        let mut faces = Vec::new();
        for &step in &s {
            let t = k.min(m / gcd(m, step));
            for i in 0..m {
                faces.push((0..t).map(|j| (i + j * step) % m).collect());
            }
        }
        Complex::build(m, faces, ComplexKind::Ecn { steps: s, k }, &name)
    }

    /// The number of stacks.
    pub fn stacks(&self) -> usize {
        self.n
    }

    /// The facets, 0-based, each sorted, in lexicographic order.
    pub fn facets(&self) -> &[Vec<usize>] {
        &self.facets
    }

    /// How the complex was named.
    pub fn kind(&self) -> &ComplexKind {
        &self.kind
    }

    /// The known game this complex is a relabeling of, if any.
    pub fn relabeling(&self) -> Option<&Relabeling> {
        self.relabeling.as_ref()
    }

    /// The order of the automorphism group, when it was determined (None past the search limits or
    /// beyond 20! for the full symmetric group).
    pub fn automorphism_count(&self) -> Option<u64> {
        match &self.symmetry {
            Symmetry::Full => (1..=self.n as u64).try_fold(1u64, |a, b| a.checked_mul(b)),
            Symmetry::Listed(l) => Some(l.len() as u64),
            Symmetry::Unknown => None,
        }
    }

    /// The automorphisms as maps `perm` with `q[i] = p[perm[i]]` (the identity first), when the group
    /// was determined and has at most `cap` elements (the full symmetric group is listed when n! <= cap).
    pub fn automorphisms(&self, cap: usize) -> Option<Vec<Vec<usize>>> {
        match &self.symmetry {
            Symmetry::Full => {
                let order = (1..=self.n).try_fold(1usize, |a, b| a.checked_mul(b))?;
                if order > cap {
                    return None;
                }
                let mut out = Vec::with_capacity(order);
                let mut perm: Vec<usize> = (0..self.n).collect();
                permutations(&mut perm, 0, &mut out);
                out.sort();
                Some(out)
            }
            Symmetry::Listed(l) if l.len() <= cap => {
                let mut out: Vec<Vec<usize>> = l
                    .iter()
                    .map(|p| p.iter().map(|&j| j as usize).collect())
                    .collect();
                out.sort();
                Some(out)
            }
            _ => None,
        }
    }

    /// The facets in the 1-based notation of `simplicial(...)`.
    pub fn facets_text(&self) -> String {
        self.facets
            .iter()
            .map(|f| {
                let v: Vec<String> = f.iter().map(|i| (i + 1).to_string()).collect();
                format!("{{{}}}", v.join(","))
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    fn find_symmetry(&self) -> Symmetry {
        let n = self.n;
        let k = self.facets[0].len();
        let binom = (0..k).fold(1f64, |c, i| c * (n - i) as f64 / (i + 1) as f64);
        if self.facets.iter().all(|f| f.len() == k) && self.facets.len() as f64 == binom {
            return Symmetry::Full;
        }
        let mut found = Vec::new();
        let done = isomorphisms(&self.masks, &self.masks, n, MAX_GROUP + 1, &mut |map| {
            found.push(map.iter().map(|&x| x as u8).collect());
        });
        if !done || found.len() > MAX_GROUP {
            return Symmetry::Unknown;
        }
        Symmetry::Listed(found)
    }

    fn find_relabeling(&self) -> Option<Relabeling> {
        let n = self.n;
        let mut targets: Vec<KnownGame> = (1..=n).map(|k| KnownGame::Cn { n, k }).collect();
        targets.extend((1..=n).map(|k| KnownGame::Moore { n, k }));
        for target in targets {
            let faces: Vec<u64> = match target {
                KnownGame::Cn { n, k } => nimlab_core::game::cyclic_windows(n, k)
                    .iter()
                    .map(|w| mask_of(w))
                    .collect(),
                KnownGame::Moore { n, k } => {
                    let count = (0..k).fold(1f64, |c, i| c * (n - i) as f64 / (i + 1) as f64);
                    if count != self.masks.len() as f64 {
                        continue;
                    }
                    crate::moore::k_subsets(n, k)
                        .iter()
                        .map(|w| mask_of(w))
                        .collect()
                }
            };
            let mut faces = faces;
            faces.sort_unstable();
            faces.dedup();
            if faces.len() != self.masks.len() {
                continue;
            }
            let mut map = None;
            isomorphisms(&self.masks, &faces, n, 1, &mut |m| map = Some(m.to_vec()));
            if let Some(map) = map {
                return Some(Relabeling { target, map });
            }
        }
        None
    }

    /// The parts of `p` that no facet joins: stacks with tokens, grouped by "some facet holds both".
    fn components(&self, p: &[u64]) -> Vec<u64> {
        let support = (0..self.n)
            .filter(|&i| p[i] > 0)
            .fold(0u64, |m, i| m | 1 << i);
        let mut left = support;
        let mut parts = Vec::new();
        while left != 0 {
            let mut part = left & left.wrapping_neg();
            loop {
                let grown = self
                    .masks
                    .iter()
                    .filter(|&&f| f & part != 0)
                    .fold(part, |a, &f| a | (f & support));
                if grown == part {
                    break;
                }
                part = grown;
            }
            parts.push(part);
            left &= !part;
        }
        parts
    }
}

/// Every ordering of `perm[at..]` appended to `out`.
fn permutations(perm: &mut Vec<usize>, at: usize, out: &mut Vec<Vec<usize>>) {
    if at == perm.len() {
        out.push(perm.clone());
        return;
    }
    for i in at..perm.len() {
        perm.swap(at, i);
        permutations(perm, at + 1, out);
        perm.swap(at, i);
    }
}

/// Calls `found` with bijections `map` of `0..n` such that the facets `a` (masks) map exactly onto
/// the facets `b`, at most `limit` of them. Returns false when the search ran out of steps.
fn isomorphisms(
    a: &[u64],
    b: &[u64],
    n: usize,
    limit: usize,
    found: &mut dyn FnMut(&[usize]),
) -> bool {
    if a.len() != b.len() {
        return true;
    }
    // Invariants: facet sizes per vertex (sorted) and the number of facets holding each pair.
    let profile = |f: &[u64], v: usize| {
        let mut s: Vec<u32> = f
            .iter()
            .filter(|&&m| m >> v & 1 == 1)
            .map(|m| m.count_ones())
            .collect();
        s.sort_unstable();
        s
    };
    let pa: Vec<Vec<u32>> = (0..n).map(|v| profile(a, v)).collect();
    let pb: Vec<Vec<u32>> = (0..n).map(|v| profile(b, v)).collect();
    let pairs = |f: &[u64]| -> Vec<Vec<u32>> {
        (0..n)
            .map(|u| {
                (0..n)
                    .map(|v| {
                        f.iter()
                            .filter(|&&m| m >> u & 1 == 1 && m >> v & 1 == 1)
                            .count() as u32
                    })
                    .collect()
            })
            .collect()
    };
    let (ca, cb) = (pairs(a), pairs(b));
    let mut sorted_b = b.to_vec();
    sorted_b.sort_unstable();
    struct Search<'s> {
        n: usize,
        a: &'s [u64],
        sorted_b: Vec<u64>,
        pa: Vec<Vec<u32>>,
        pb: Vec<Vec<u32>>,
        ca: Vec<Vec<u32>>,
        cb: Vec<Vec<u32>>,
        map: Vec<usize>,
        used: u64,
        steps: u64,
        count: usize,
        limit: usize,
    }
    impl Search<'_> {
        /// False when the search must stop (limit reached or out of steps).
        fn go(&mut self, v: usize, found: &mut dyn FnMut(&[usize])) -> bool {
            if v == self.n {
                self.steps += 1 + self.a.len() as u64 / 16;
                if self.steps > SEARCH_NODES {
                    return false;
                }
                let mut image: Vec<u64> = self
                    .a
                    .iter()
                    .map(|&m| {
                        (0..self.n)
                            .filter(|&i| m >> i & 1 == 1)
                            .fold(0u64, |acc, i| acc | 1 << self.map[i])
                    })
                    .collect();
                image.sort_unstable();
                if image == self.sorted_b {
                    found(&self.map);
                    self.count += 1;
                }
                return self.count < self.limit;
            }
            for w in 0..self.n {
                self.steps += 1;
                if self.steps > SEARCH_NODES {
                    return false;
                }
                if self.used >> w & 1 == 1 || self.pa[v] != self.pb[w] {
                    continue;
                }
                if (0..v).any(|u| self.ca[u][v] != self.cb[self.map[u]][w]) {
                    continue;
                }
                self.map[v] = w;
                self.used |= 1 << w;
                let go_on = self.go(v + 1, found);
                self.used &= !(1 << w);
                if !go_on {
                    return false;
                }
            }
            true
        }
    }
    let mut s = Search {
        n,
        a,
        sorted_b,
        pa,
        pb,
        ca,
        cb,
        map: vec![0; n],
        used: 0,
        steps: 0,
        count: 0,
        limit,
    };
    let finished = s.go(0, found);
    finished || s.count >= limit
}

impl Game for Complex {
    fn id(&self) -> String {
        match &self.kind {
            ComplexKind::Simplicial => format!("simplicial({})", self.facets_text()),
            ComplexKind::Ecn { steps, k } => format!(
                "ECN({},{{{}}},{k})",
                self.n,
                steps
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }

    fn validate(&self, p: &[u64]) -> Result<()> {
        crate::window::check_stacks(&self.id(), self.n, p)
    }

    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        let mut buf = p.to_vec();
        for (fi, facet) in self.facets.iter().enumerate() {
            let earlier = &self.masks[..fi];
            let flow = for_each_lowering(p, facet, false, &mut buf, &mut |q| {
                // Report each option once: from the first facet that holds the stacks it changes.
                let changed = facet
                    .iter()
                    .filter(|&&i| q[i] != p[i])
                    .fold(0u64, |m, &i| m | 1 << i);
                if earlier.iter().any(|&e| changed & !e == 0) {
                    return ControlFlow::Continue(());
                }
                f(q)
            });
            if flow.is_break() {
                break;
            }
        }
        Ok(())
    }

    fn canonical(&self, p: &[u64]) -> Pos {
        match &self.symmetry {
            Symmetry::Full => {
                let mut q = p.to_vec();
                q.sort_unstable();
                q
            }
            Symmetry::Unknown => p.to_vec(),
            Symmetry::Listed(perms) => {
                let mut best: &[u8] = &perms[0];
                for perm in &perms[1..] {
                    for i in 0..p.len() {
                        let (a, b) = (p[perm[i] as usize], p[best[i] as usize]);
                        if a != b {
                            if a < b {
                                best = perm;
                            }
                            break;
                        }
                    }
                }
                best.iter().map(|&j| p[j as usize]).collect()
            }
        }
    }

    fn split(&self, p: &[u64]) -> Option<Vec<Pos>> {
        if p.len() != self.n {
            return None;
        }
        let parts = self.components(p);
        if parts.len() < 2 {
            return None;
        }
        Some(
            parts
                .into_iter()
                .map(|m| {
                    (0..self.n)
                        .map(|i| if m >> i & 1 == 1 { p[i] } else { 0 })
                        .collect()
                })
                .collect(),
        )
    }

    fn branching_bound(&self, p: &[u64]) -> f64 {
        self.facets.iter().map(|f| window_product(p, f)).sum()
    }

    fn move_structure(&self, len: usize) -> Option<MoveStructure> {
        (len == self.n).then(|| MoveStructure::Faces(self.facets.clone()))
    }

    fn table_domain(&self, hi: u64, _len: Option<usize>) -> Result<BoxDomain> {
        Ok(BoxDomain {
            lengths: vec![self.n],
            lo: 0,
            hi,
        })
    }

    fn random_position(&self, rng: &mut Rng, hi: u64) -> Option<Pos> {
        Some((0..self.n).map(|_| rng.range(0, hi.min(7))).collect())
    }

    fn layout(&self) -> Layout {
        Layout::Row
    }

    fn rules(&self) -> String {
        let tail = "lower any stacks inside one facet (or any part of one), taking at least one token in all. The player who cannot move (all stacks empty) loses in normal play.";
        match &self.kind {
            ComplexKind::Simplicial => format!(
                "Nim on the simplicial complex with facets {} on stacks 1..{}: {tail}",
                self.facets_text(),
                self.n
            ),
            ComplexKind::Ecn { steps, k } => format!(
                "Extended Circular Nim: {} stacks on a circle; a move picks a step s in {{{}}}, a start i and j <= {k}, and lowers any of the stacks i, i+s, ..., i+(j-1)s (mod {}), taking at least one token in all. Facets: {}. The player who cannot move loses in normal play.",
                self.n,
                steps.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(","),
                self.n,
                self.facets_text()
            ),
        }
    }
}

/// Parses the inside of `simplicial(...)`: facets in braces, e.g. `{1,2,3},{3,4},{4,1}`.
pub fn parse_simplicial(inner: &str) -> Result<Complex> {
    Complex::simplicial(&parse_sets("simplicial", inner)?)
}

/// Parses the inside of `ECN(...)`: `m,{s1,...},k` (also `m_{s1,...},k` as in the paper).
pub fn parse_ecn(inner: &str) -> Result<Complex> {
    let bad = || {
        Error::BadGame(format!(
            "ECN(m,{{s1,...}},k): cannot read '{inner}'; write e.g. ECN(8,{{1,2}},3)"
        ))
    };
    let open = inner.find('{').ok_or_else(bad)?;
    let close = inner.find('}').ok_or_else(bad)?;
    if close < open {
        return Err(bad());
    }
    let m_text = inner[..open]
        .strip_suffix(',')
        .or_else(|| inner[..open].strip_suffix('_'))
        .ok_or_else(bad)?;
    let k_text = inner[close + 1..].strip_prefix(',').ok_or_else(bad)?;
    let number = |t: &str, what: &str| {
        t.parse::<usize>().map_err(|_| {
            Error::BadGame(format!(
                "ECN(m,{{s1,...}},k): {what} '{t}' is not a non-negative integer"
            ))
        })
    };
    let m = number(m_text, "m")?;
    let k = number(k_text, "k")?;
    let steps = inner[open + 1..close]
        .split(',')
        .map(|s| number(s, "step"))
        .collect::<Result<Vec<usize>>>()?;
    Complex::ecn(m, &steps, k)
}

/// Sets of numbers in braces separated by commas: `{1,2},{3}`.
fn parse_sets(name: &str, text: &str) -> Result<Vec<Vec<usize>>> {
    let mut sets = Vec::new();
    let mut rest = text;
    loop {
        let body = rest.strip_prefix('{').ok_or_else(|| {
            Error::BadGame(format!(
                "{name}: expected a facet in braces at '{rest}', e.g. {name}({{1,2,3}},{{3,4}})"
            ))
        })?;
        let close = body.find('}').ok_or_else(|| {
            Error::BadGame(format!("{name}: a facet is missing its closing brace"))
        })?;
        let inside = &body[..close];
        let set = if inside.is_empty() {
            Vec::new()
        } else {
            inside
                .split(',')
                .map(|v| {
                    v.parse::<usize>().map_err(|_| {
                        Error::BadGame(format!("{name}: stack '{v}' is not a positive integer"))
                    })
                })
                .collect::<Result<Vec<usize>>>()?
        };
        sets.push(set);
        if sets.len() > MAX_FACETS {
            return Err(Error::BadGame(format!(
                "{name}: at most {MAX_FACETS} facets"
            )));
        }
        rest = &body[close + 1..];
        if rest.is_empty() {
            return Ok(sets);
        }
        rest = rest.strip_prefix(',').ok_or_else(|| {
            Error::BadGame(format!(
                "{name}: facets must be separated by commas, at '{rest}'"
            ))
        })?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facets_are_maximal_and_isolated_stacks_are_faces() {
        let c = Complex::simplicial(&[vec![1, 2], vec![1, 2, 3], vec![5]]).unwrap();
        // {1,2} lies in {1,2,3}; stack 4 is named by no facet and becomes one.
        assert_eq!(c.facets(), &[vec![0, 1, 2], vec![3], vec![4]]);
        assert_eq!(c.id(), "simplicial({1,2,3},{4},{5})");
    }

    #[test]
    fn ecn_facets_follow_the_steps() {
        // m = 6, s = 2: orbits {0,2,4},{1,3,5} of length 3; k = 2 gives pairs {i, i+2}.
        let c = Complex::ecn(6, &[2], 2).unwrap();
        assert_eq!(
            c.facets(),
            &[
                vec![0, 2],
                vec![0, 4],
                vec![1, 3],
                vec![1, 5],
                vec![2, 4],
                vec![3, 5]
            ]
        );
        // k = 5 > orbit length 3: each orbit is one facet.
        let c = Complex::ecn(6, &[2], 5).unwrap();
        assert_eq!(c.facets(), &[vec![0, 2, 4], vec![1, 3, 5]]);
        assert_eq!(c.id(), "ECN(6,{2},5)");
    }

    #[test]
    fn options_are_reported_once() {
        let c = Complex::simplicial(&[vec![1, 2], vec![2, 3]]).unwrap();
        let mut all = Vec::new();
        c.for_each_option(&[1, 1, 1], &mut |q| {
            all.push(q.to_vec());
            ControlFlow::Continue(())
        })
        .unwrap();
        // Lower 1, 2, 3, {1,2} or {2,3}: five options; {1,3} is no face.
        assert_eq!(all.len(), 5);
        assert!(!all.contains(&vec![0, 1, 0]));
    }

    #[test]
    fn bad_specs_are_one_line_errors() {
        for bad in [
            "", "{}", "{0,1}", "{1,2", "{1,a}", "{1},{2}x", "1,2", "{65}",
        ] {
            let e = parse_simplicial(bad).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{bad}: {e}");
        }
        for bad in [
            "8,{1,5},3",
            "8,{},3",
            "8,{0},3",
            "8,{1},0",
            "8,{1},9",
            "1,{1},1",
            "8,1,3",
            "8,{1}",
            "x,{1},2",
            "8,{1},3,4",
        ] {
            let e = parse_ecn(bad).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{bad}: {e}");
        }
        assert_eq!(parse_ecn("8_{2,1,1},3").unwrap().id(), "ECN(8,{1,2},3)");
    }
}
