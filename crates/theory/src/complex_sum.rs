//! Complexes whose facets are pairwise disjoint: a sum of simplices, which is Nim on the facet totals.
//!
//! Nim on a complex whose facets share no stack is the disjunctive sum of its facets. Inside one
//! facet every lower position is an option, so (by induction on the total) a facet holding T tokens
//! has exactly the options of the Nim heap *T up to identical games: it *is* *T, in normal and in
//! misère play. The whole game is Nim on the facet totals (Bouton). For ECN(m,S,k) this is the case
//! where g = gcd(m, s for s in S) > 1 and each step's facets go all the way round its circle: the
//! stacks of one residue class mod g form the circle ECN(m/g, S/g, k) [Suetsugu 2025], and with
//! `min(k, m / gcd(m,s)) = m / gcd(m,s)` for every step that circle is one facet. The theory names the
//! split it used. See docs/rules.md#theorem-complex-simplices.

use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::complex::{Complex, Kind};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A complex with pairwise disjoint facets, at least two of them and one of two or more stacks (a
/// single facet is CN(n,n) and single stacks are Nim: both are answered as relabelings), in one play
/// convention.
pub struct Simplices {
    pub play: Play,
}

/// The facets of `game` when it is a sum of two or more disjoint simplices, not all single stacks.
fn disjoint_facets(game: &dyn Game) -> Option<&[Vec<usize>]> {
    let c = game.downcast_ref::<Complex>()?;
    let f = c.facets();
    let total: usize = f.iter().map(|x| x.len()).sum();
    // Facets are distinct and maximal; they are disjoint exactly when their sizes add up to n.
    (f.len() >= 2 && total == c.stacks() && f.iter().any(|x| x.len() >= 2)).then_some(f)
}

/// The split in words, 1-based: `facets {1,3},{2,4}` and, for ECN, the circles it comes from.
fn describe(game: &dyn Game, facets: &[Vec<usize>]) -> String {
    let sets: Vec<String> = facets
        .iter()
        .map(|f| {
            let v: Vec<String> = f.iter().map(|i| (i + 1).to_string()).collect();
            format!("{{{}}}", v.join(","))
        })
        .collect();
    let mut s = format!(
        "{} is the sum of the disjoint facets {}",
        game.id(),
        sets.join(",")
    );
    if let Some(Kind::Ecn { steps, k }) = game.downcast_ref::<Complex>().map(|c| c.kind()) {
        let m = game.downcast_ref::<Complex>().map_or(0, |c| c.stacks());
        let g = steps.iter().fold(m, |a, &b| gcd(a, b));
        let small: Vec<String> = steps.iter().map(|s| (s / g).to_string()).collect();
        s.push_str(&format!(
            " (the residue classes mod gcd({m},{{{}}}) = {g}, each the circle ECN({},{{{}}},{}), one facet)",
            steps
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(","),
            m / g,
            small.join(","),
            (*k).min(m / g)
        ));
    }
    s
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// `p` with the facet `f` lowered to `target` tokens in all (`target` below its total), taking from
/// the facet's first stacks first.
fn lower_facet(p: &[u64], f: &[usize], target: u64) -> Pos {
    let mut q = p.to_vec();
    let total: u64 = f.iter().map(|&i| p[i]).sum();
    let mut take = total - target;
    for &i in f {
        let t = take.min(q[i]);
        q[i] -= t;
        take -= t;
    }
    q
}

impl Theorem for Simplices {
    fn id(&self) -> &'static str {
        match self.play {
            Play::Normal => "complex-simplices",
            Play::Misere => "complex-simplices-misere",
        }
    }
    fn games(&self) -> &'static str {
        "simplicial(...), ECN(m,S,k) whose facets are pairwise disjoint (e.g. ECN(6,{3},k), ECN(8,{2},k >= 4), ECN(8,{4},k >= 2))"
    }
    fn statement(&self) -> &'static str {
        match self.play {
            Play::Normal => "When the facets of a complex are pairwise disjoint, the game is the sum of its facets, and a facet holding T tokens is the Nim heap *T (every lower position of a facet is an option). The Grundy value is the nim-sum of the facet totals; a position is P iff that nim-sum is 0. Winning move: as in Nim on the totals, lower one facet's total T to T xor X (X the nim-sum). For ECN(m,S,k) with g = gcd(m, S) > 1 the facets are the g residue classes mod g when every step's facets go round its circle.",
            Play::Misere => "When the facets of a complex are pairwise disjoint, a facet holding T tokens is the Nim heap *T as a game, so misère play is misère Nim on the facet totals (Bouton): a position is P iff the nim-sum of the totals is 0 while some facet holds 2 or more tokens, or it is 1 while every facet holds at most 1.",
        }
    }
    fn source(&self) -> &'static str {
        match self.play {
            Play::Normal => "C. L. Bouton, Nim, a game with a complete mathematical theory, Ann. Math. 3 (1901/02) on the facet totals; sums of games (Sprague–Grundy); Nim on a complex: R. Ehrenborg & E. Steingrímsson, Electronic J. Combin. 3 (1996); ECN splitting into circles mod gcd(m, S): K. Suetsugu, Extended circular nim, arXiv:2501.12045 (2025); see docs/rules.md#theorem-complex-simplices",
            Play::Misere => "C. L. Bouton, Nim, a game with a complete mathematical theory, Ann. Math. 3 (1901/02) (misère Nim) on the facet totals; Nim on a complex: R. Ehrenborg & E. Steingrímsson, Electronic J. Combin. 3 (1996); see docs/rules.md#theorem-complex-simplices-misere",
        }
    }
    fn play(&self) -> Play {
        self.play
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        disjoint_facets(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let facets = disjoint_facets(game)?;
        if game.validate(p).is_err() {
            return None;
        }
        let totals: Vec<u64> = facets
            .iter()
            .map(|f| f.iter().map(|&i| p[i]).sum())
            .collect();
        let x = totals.iter().fold(0, |a, &t| a ^ t);
        let big = totals.iter().any(|&t| t >= 2);
        let is_p = match self.play {
            Play::Normal => x == 0,
            Play::Misere => {
                if big {
                    x == 0
                } else {
                    x == 1
                }
            }
        };
        // The total each facet is lowered to by a winning move (Bouton, normal or misère).
        let target = |t: u64| -> Option<u64> {
            match self.play {
                Play::Normal => (t ^ x < t).then_some(t ^ x),
                Play::Misere => {
                    let others_big =
                        totals.iter().filter(|&&u| u >= 2).count() > usize::from(t >= 2);
                    if t >= 2 && !others_big {
                        // The last facet of 2 or more: leave an odd number of facets of total 1.
                        let ones = totals.iter().filter(|&&u| u == 1).count() as u64;
                        Some(u64::from(ones.is_multiple_of(2)))
                    } else if !big {
                        // Every facet at most 1 and x = 0 (N): empty one facet of total 1.
                        (t == 1).then_some(0)
                    } else {
                        (t ^ x < t).then_some(t ^ x)
                    }
                }
            }
        };
        let moves: Vec<Pos> = if is_p {
            Vec::new()
        } else {
            facets
                .iter()
                .zip(&totals)
                .filter_map(|(f, &t)| target(t).map(|v| lower_facet(p, f, v)))
                .take(1)
                .collect()
        };
        let list: Vec<String> = totals.iter().map(|t| t.to_string()).collect();
        let reason = format!(
            "{}: facet totals {}, nim-sum {x}{}",
            describe(game, facets),
            list.join(","),
            match (is_p, moves.first()) {
                (true, _) => " (P)".to_string(),
                (false, Some(q)) => format!(
                    "; move to {} (facet totals made to nim-sum {})",
                    game.format_position(q),
                    if self.play == Play::Normal {
                        "0"
                    } else {
                        "0, or 1 with every facet at most 1"
                    }
                ),
                (false, None) => String::new(),
            }
        );
        Some(Verdict {
            all_winning_moves: false,
            is_p,
            grundy: (self.play == Play::Normal).then_some(u128::from(x)),
            winning_moves: Some(moves),
            family: None,
            reason: Some(reason),
        })
    }
}

/// A complex whose facets fall into two or more parts that share no stack (connected components),
/// each of which is answered by a complete result (a relabeling of CN(n,k) or Moore's Nim_k with a
/// complete result, or a single facet), in normal play. The game is the sum of the parts. A sum of
/// P-positions is P; a sum where exactly one part is N is N, won by that part's winning move; with two
/// or more N parts the P-sets do not decide (Grundy values would), and the result says nothing.
/// For ECN(m,S,k) with g = gcd(m, S) > 1 the parts are the circles ECN(m/g, S/g, k) on the residue
/// classes mod g. See docs/rules.md#theorem-complex-components.
pub struct Components;

/// One part of a split complex: its stacks (0-based, increasing) and the part as a game of its own.
struct Part {
    stacks: Vec<usize>,
    game: Complex,
}

/// The parts of a complex, when it has two or more and each is decided by a complete result.
struct Split {
    parts: Vec<Part>,
    /// How the parts were named, for the explanation.
    words: String,
}

/// What a structural entry found about each complex, by the complex's name (at most 1024 kept).
type Cache<T> = OnceLock<Mutex<HashMap<String, Option<Arc<T>>>>>;

/// `build` of `game` when it is a complex, computed once per complex.
fn cached<T>(
    cache: &'static Cache<T>,
    game: &dyn Game,
    build: impl FnOnce(&Complex) -> Option<T>,
) -> Option<Arc<T>> {
    let c = game.downcast_ref::<Complex>()?;
    let id = c.id();
    let cache = cache.get_or_init(Default::default);
    if let Some(s) = cache.lock().ok()?.get(&id) {
        return s.clone();
    }
    // Built without holding the lock: building may look up the parts of the complex here again.
    let s = build(c).map(Arc::new);
    if let Ok(mut m) = cache.lock() {
        if m.len() < 1024 {
            m.insert(id, s.clone());
        }
    }
    s
}

fn split_of(game: &dyn Game) -> Option<Arc<Split>> {
    static CACHE: Cache<Split> = OnceLock::new();
    cached(&CACHE, game, build_split)
}

fn build_split(c: &Complex) -> Option<Split> {
    if disjoint_facets(c).is_some() || c.facets().iter().all(|f| f.len() == 1) {
        // A sum of single facets: complex-simplices (or, single stacks, Nim) decides every position.
        return None;
    }
    let n = c.stacks();
    let facets = c.facets();
    // Components by union-find over the facets.
    let mut root: Vec<usize> = (0..n).collect();
    fn find(r: &mut [usize], x: usize) -> usize {
        let mut x = x;
        while r[x] != x {
            r[x] = r[r[x]];
            x = r[x];
        }
        x
    }
    for f in facets {
        for w in f.windows(2) {
            let (a, b) = (find(&mut root, w[0]), find(&mut root, w[1]));
            root[a] = b;
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for v in 0..n {
        let r = find(&mut root, v);
        groups.entry(r).or_default().push(v);
    }
    if groups.len() < 2 {
        return None;
    }
    let mut parts: Vec<Part> = Vec::new();
    let ecn = match c.kind() {
        Kind::Ecn { steps, k } => Some((steps.clone(), *k)),
        Kind::Simplicial => None,
    };
    let g = ecn
        .as_ref()
        .map_or(0, |(steps, _)| steps.iter().fold(n, |a, &b| gcd(a, b)));
    let mut stacks_of: Vec<Vec<usize>> = groups.into_values().collect();
    stacks_of.sort();
    for stacks in stacks_of {
        let game = match &ecn {
            // The class r, r+g, ... is the circle ECN(m/g, S/g, k): stack r + jg is its stack j.
            Some((steps, k)) if g > 1 && stacks.len() == n / g => {
                let small: Vec<usize> = steps.iter().map(|s| s / g).collect();
                Complex::ecn(n / g, &small, (*k).min(n / g)).ok()?
            }
            _ => {
                let index = |v: usize| stacks.iter().position(|&w| w == v);
                let local: Vec<Vec<usize>> = facets
                    .iter()
                    .filter(|f| stacks.contains(&f[0]))
                    .map(|f| f.iter().map(|&v| index(v).map(|i| i + 1)).collect())
                    .collect::<Option<_>>()?;
                Complex::simplicial(&local).ok()?
            }
        };
        if !crate::covering(&game, Play::Normal)
            .iter()
            .any(|t| t.scope() == Scope::Complete)
        {
            return None;
        }
        parts.push(Part { stacks, game });
    }
    let names: Vec<String> = parts
        .iter()
        .map(|p| {
            let v: Vec<String> = p.stacks.iter().map(|i| (i + 1).to_string()).collect();
            format!("stacks {} = {}", v.join(","), p.game.id())
        })
        .collect();
    let mut words = format!("{} is the sum of {}", c.id(), names.join(" + "));
    if let (Some((steps, _)), true) = (&ecn, g > 1) {
        words.push_str(&format!(
            " (the residue classes mod gcd({n},{{{}}}) = {g})",
            steps
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ));
    }
    Some(Split { parts, words })
}

impl Theorem for Components {
    fn id(&self) -> &'static str {
        "complex-components"
    }
    fn games(&self) -> &'static str {
        "simplicial(...), ECN(m,S,k) made of two or more parts that share no stack, each answered by a complete result, e.g. ECN(6,{2},2) = CN(3,2) + CN(3,2), ECN(8,{2},2..3) (partial: every part P, or exactly one part N)"
    }
    fn statement(&self) -> &'static str {
        "A complex whose stacks fall into parts that no facet joins is the sum of the parts. When every part with tokens is a P-position of its own game, the position is P; when exactly one part is N, it is N and the winning moves of that part (from its own result) win. With two or more N parts the parts' P-sets do not decide the sum. For ECN(m,S,k) with g = gcd(m, S) > 1 the parts are g copies of ECN(m/g, S/g, k) on the residue classes mod g."
    }
    fn source(&self) -> &'static str {
        "Sums of impartial games (Sprague–Grundy: Grundy values add by xor, P + P = P, N + P = N); Nim on a complex: R. Ehrenborg & E. Steingrímsson, Electronic J. Combin. 3 (1996); ECN splitting into circles mod gcd(m, S): K. Suetsugu, Extended circular nim, arXiv:2501.12045 (2025); each part by its own result; see docs/rules.md#theorem-complex-components"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Partial
    }
    fn covers(&self, game: &dyn Game) -> bool {
        split_of(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let split = split_of(game)?;
        if game.validate(p).is_err() {
            return None;
        }
        let mut n_part: Option<(usize, Verdict)> = None;
        let mut said = Vec::new();
        for (i, part) in split.parts.iter().enumerate() {
            let q: Pos = part.stacks.iter().map(|&s| p[s]).collect();
            let (th, v) = crate::find(&part.game, &q, Play::Normal)?;
            said.push(format!(
                "{} {} is {} by {}{}",
                part.game.id(),
                part.game.format_position(&q),
                if v.is_p { "P" } else { "N" },
                th.id(),
                v.reason
                    .as_ref()
                    .map(|r| format!(" [{r}]"))
                    .unwrap_or_default()
            ));
            if !v.is_p {
                if n_part.is_some() {
                    return None; // two N parts: their Grundy values would decide
                }
                n_part = Some((i, v));
            }
        }
        let reason = format!("{}; {}", split.words, said.join(", "));
        let Some((i, v)) = n_part else {
            return Some(Verdict {
                all_winning_moves: true,
                is_p: true,
                grundy: Some(0),
                winning_moves: Some(Vec::new()),
                family: None,
                reason: Some(format!("{reason}: a sum of P-positions is P")),
            });
        };
        let part = &split.parts[i];
        let moves = v.winning_moves.map(|ms| {
            ms.iter()
                .map(|m| {
                    let mut q = p.to_vec();
                    for (j, &s) in part.stacks.iter().enumerate() {
                        q[s] = m[j];
                    }
                    q
                })
                .collect::<Vec<Pos>>()
        });
        Some(Verdict {
            all_winning_moves: false,
            is_p: false,
            grundy: None,
            winning_moves: moves,
            family: None,
            reason: Some(format!(
                "{reason}: one N part and the others P, so N; win in the N part"
            )),
        })
    }
}

/// Complexes with an antipodal pairing: the stacks pair up so that no face holds both stacks of a
/// pair and every set made of one stack from each pair lies in a face (for ECN, stacks i and i+m/2:
/// ECN(6,{1,2},3), ECN(8,{1,3},4); also CN(4,2) and the boundary of the cross-polytope). Then the
/// P-positions are exactly those whose paired stacks are equal. See docs/rules.md#theorem-complex-mirror.
pub struct Mirror;

/// Most stacks for which the pairing is looked for (2^(n/2) transversals are checked once).
const MIRROR_MAX_STACKS: usize = 24;

/// The partner of each stack, when the complex has an antipodal pairing as above.
fn mirror_of(game: &dyn Game) -> Option<Arc<Vec<usize>>> {
    static CACHE: Cache<Vec<usize>> = OnceLock::new();
    cached(&CACHE, game, build_mirror)
}

fn build_mirror(c: &Complex) -> Option<Vec<usize>> {
    let n = c.stacks();
    if n < 2 || n % 2 == 1 || n > MIRROR_MAX_STACKS {
        return None;
    }
    let masks: Vec<u64> = c
        .facets()
        .iter()
        .map(|f| f.iter().fold(0u64, |m, &i| m | 1 << i))
        .collect();
    let full = (1u64 << n) - 1;
    // The partner of i is the one stack sharing no facet with i (a transversal through i and any
    // other stack j != partner lies in a face, so every other stack shares a facet with i).
    let mut partner = vec![0; n];
    for (i, p) in partner.iter_mut().enumerate() {
        let near = masks
            .iter()
            .filter(|&&m| m >> i & 1 == 1)
            .fold(1u64 << i, |a, &m| a | m);
        let far = full & !near;
        if far.count_ones() != 1 {
            return None;
        }
        *p = far.trailing_zeros() as usize;
    }
    if (0..n).any(|i| partner[partner[i]] != i) {
        return None;
    }
    let pairs: Vec<(usize, usize)> = (0..n)
        .filter(|&i| i < partner[i])
        .map(|i| (i, partner[i]))
        .collect();
    for choice in 0u64..1 << pairs.len() {
        let t = pairs.iter().enumerate().fold(0u64, |m, (b, &(i, j))| {
            m | 1 << if choice >> b & 1 == 1 { j } else { i }
        });
        if !masks.iter().any(|&f| f & t == t) {
            return None;
        }
    }
    Some(partner)
}

impl Theorem for Mirror {
    fn id(&self) -> &'static str {
        "complex-mirror"
    }
    fn games(&self) -> &'static str {
        "simplicial(...), ECN(m,S,k) whose stacks pair up with no face holding a pair and every choice of one stack per pair inside a face, e.g. ECN(6,{1,2},3), ECN(8,{1,3},4)"
    }
    fn statement(&self) -> &'static str {
        "Let the stacks of a complex pair up so that no face holds both stacks of a pair, and every set made of one stack from each pair lies in a face (for ECN(m,S,k): stack i with stack i+m/2). Then a position is P iff the two stacks of every pair are equal. (I) a move lowers stacks of one face, so at most one stack of each pair: from equal pairs it leaves an unequal one. (II) lowering every stack to the smaller of its pair changes at most one stack per pair, all inside one face: that is a move to equal pairs, the winning move."
    }
    fn source(&self) -> &'static str {
        "the mirror (Tweedledum and Tweedledee) strategy, E. R. Berlekamp, J. H. Conway & R. K. Guy, Winning Ways (1982); the condition on the faces and the proof are nimlab's (docs/rules.md); for ECN(6,{1,2},3) and ECN(8,{1,3},4) also proved for every stack size by nimlab prove (docs/findings.md, section 8); see docs/rules.md#theorem-complex-mirror"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        mirror_of(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let partner = mirror_of(game)?;
        if game.validate(p).is_err() {
            return None;
        }
        let is_p = (0..p.len()).all(|i| p[i] == p[partner[i]]);
        let q: Pos = (0..p.len()).map(|i| p[i].min(p[partner[i]])).collect();
        let pairs: Vec<String> = (0..p.len())
            .filter(|&i| i < partner[i])
            .map(|i| format!("{}-{}", i + 1, partner[i] + 1))
            .collect();
        let reason = format!(
            "{}: no face holds both stacks of a pair {}, and one stack from each pair always lies in a face; {}",
            game.id(),
            pairs.join(", "),
            if is_p {
                "the paired stacks are equal: P (answer every move on the other stack of each pair)".to_string()
            } else {
                format!(
                    "the pairs are not all equal: N, move to the smaller stack of each pair, {}",
                    game.format_position(&q)
                )
            }
        );
        Some(Verdict {
            all_winning_moves: false,
            is_p,
            grundy: is_p.then_some(0),
            winning_moves: Some(if is_p { Vec::new() } else { vec![q] }),
            family: None,
            reason: Some(reason),
        })
    }
}
