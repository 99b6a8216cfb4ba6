//! Nim on a simplicial complex and ECN(m,S,k): the tables engine (P-sets in both conventions, Grundy
//! tables), the solver and the game's canonical forms equal a brute force written here from the rules
//! on 240 random complexes with 2 to 7 stacks; ECN(m,{1},k) equals CN(m,k); relabeled complexes give
//! the same tables; automorphism group orders match values worked out by hand.
//!
//! The brute force knows only the rule: a move lowers the stacks of a set D, at least one token in
//! all, where D lies inside one of the named facets or is a single stack. Every position below `p`
//! (coordinate-wise, not `p`) whose changed stacks form such a D is an option; Grundy values and
//! misère outcomes follow by recursion in lexicographic order (every option comes earlier).
//! Symmetries are found by trying all n! permutations against the named facets.

use nimlab_core::{Game, Play, Rng, Solver};
use nimlab_games::complex::Complex;
use nimlab_games::CircularNim;
use nimlab_tables::grundy;
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset::{self, rules_for, Rules};
use std::collections::BTreeSet;

struct Brute {
    n: usize,
    r: usize,
    grundy: Vec<u32>,
    /// Misère: the player to move wins.
    misere_n: Vec<bool>,
}

fn decode(mut idx: usize, n: usize, r: usize) -> Vec<u64> {
    let mut p = vec![0u64; n];
    for i in (0..n).rev() {
        p[i] = (idx % r) as u64;
        idx /= r;
    }
    p
}

fn encode(p: &[u64], r: usize) -> usize {
    p.iter().fold(0usize, |a, &x| a * r + x as usize)
}

/// Which sets of changed stacks (bit masks) a move may have.
fn allowed_sets(n: usize, facets: &[u64]) -> Vec<bool> {
    (0..1u64 << n)
        .map(|d| d != 0 && (d.count_ones() == 1 || facets.iter().any(|&f| d & !f == 0)))
        .collect()
}

impl Brute {
    fn new(n: usize, facets: &[u64], h: u64) -> Brute {
        let r = h as usize + 1;
        let size = r.pow(n as u32);
        let ok = allowed_sets(n, facets);
        let mut grundy = vec![0u32; size];
        let mut misere_n = vec![false; size];
        for idx in 0..size {
            let p = decode(idx, n, r);
            let mut seen = vec![false; size + 1];
            let mut any = false;
            let mut to_misere_p = false;
            // Every q <= p.
            let total: usize = p.iter().map(|&a| a as usize + 1).product();
            for j in 0..total {
                let mut v = j;
                let mut q = vec![0u64; n];
                let mut d = 0u64;
                for i in (0..n).rev() {
                    let w = p[i] as usize + 1;
                    q[i] = (v % w) as u64;
                    v /= w;
                    if q[i] != p[i] {
                        d |= 1 << i;
                    }
                }
                if !ok[d as usize] {
                    continue;
                }
                let qi = encode(&q, r);
                any = true;
                seen[grundy[qi] as usize] = true;
                to_misere_p |= !misere_n[qi];
            }
            grundy[idx] = seen.iter().position(|&s| !s).unwrap() as u32;
            // Misère: a terminal position is a win for the player to move.
            misere_n[idx] = !any || to_misere_p;
        }
        Brute {
            n,
            r,
            grundy,
            misere_n,
        }
    }

    fn is_p(&self, idx: usize, play: Play) -> bool {
        match play {
            Play::Normal => self.grundy[idx] == 0,
            Play::Misere => !self.misere_n[idx],
        }
    }
}

/// Every permutation `s` of `0..n` with `{ s(f) : f facet } = facets`, by trying all of them.
fn automorphisms(n: usize, facets: &[u64]) -> Vec<Vec<usize>> {
    let mut sorted = facets.to_vec();
    sorted.sort_unstable();
    let mut out = Vec::new();
    let mut perm: Vec<usize> = (0..n).collect();
    permutations(&mut perm, 0, &mut |s| {
        let mut image: Vec<u64> = facets
            .iter()
            .map(|&f| {
                (0..n)
                    .filter(|&i| f >> i & 1 == 1)
                    .fold(0, |a, i| a | 1 << s[i])
            })
            .collect();
        image.sort_unstable();
        if image == sorted {
            out.push(s.to_vec());
        }
    });
    out
}

fn permutations(p: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
    if k == p.len() {
        f(p);
        return;
    }
    for i in k..p.len() {
        p.swap(k, i);
        permutations(p, k + 1, f);
        p.swap(k, i);
    }
}

/// The facets as the brute force sees them: the named sets, and every stack named by none alone,
/// reduced to the maximal ones (faces inside others add no move).
fn closed(n: usize, named: &[u64]) -> Vec<u64> {
    let covered = named.iter().fold(0, |a, &f| a | f);
    let mut all: Vec<u64> = named.to_vec();
    all.extend((0..n).filter(|&i| covered >> i & 1 == 0).map(|i| 1u64 << i));
    let mut out: Vec<u64> = all
        .iter()
        .copied()
        .filter(|&f| !all.iter().any(|&g| g != f && g & f == f))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn to_lists(sets: &[u64]) -> Vec<Vec<usize>> {
    sets.iter()
        .map(|&f| {
            (0..64)
                .filter(|&i| f >> i & 1 == 1)
                .map(|i| i + 1)
                .collect()
        })
        .collect()
}

/// Box height for n stacks: the largest h <= 8 with (h+1)^n <= 4200.
fn height(n: usize) -> u64 {
    (1..=8u64)
        .rev()
        .find(|&h| (h + 1).pow(n as u32) <= 4200)
        .unwrap()
}

/// Engine, solver and canonical forms of `game` against the brute force for the complex with
/// `named` facets on `n` stacks. Returns the (ordered, canonical) normal-play P counts.
fn check(game: &dyn Game, n: usize, named: &[u64], rng: &mut Rng) -> (u64, u64) {
    let h = height(n);
    let brute = Brute::new(n, named, h);
    let group = automorphisms(n, &closed(n, named));
    let canonical = |p: &[u64]| -> Vec<u64> {
        group
            .iter()
            .map(|s| (0..n).map(|i| p[s[i]]).collect::<Vec<u64>>())
            .min()
            .unwrap()
    };
    let d = game.table_domain(h, None).unwrap();
    let mut normal = (0, 0);
    for play in [Play::Normal, Play::Misere] {
        let mut want = BTreeSet::new();
        let mut count = 0u64;
        for idx in 0..brute.grundy.len() {
            if brute.is_p(idx, play) {
                count += 1;
                let p = decode(idx, brute.n, brute.r);
                if canonical(&p) == p {
                    want.insert(p);
                }
            }
        }
        let mut got = BTreeSet::new();
        let s = pset::tabulate(game, &d, play, Hooks::default(), &mut |p| {
            got.insert(p.to_vec());
        })
        .unwrap();
        assert_eq!(s.count, count, "{} {play} ordered count", game.id());
        assert_eq!(got, want, "{} {play} canonical P-positions", game.id());
        assert_eq!(s.canonical_count, want.len() as u64);
        if play == Play::Normal {
            normal = (count, want.len() as u64);
        }
    }
    let Some(Rules::Windows { m, windows }) = rules_for(game, &d) else {
        panic!("{}: the engine runs every complex", game.id());
    };
    let values = grundy::solve(m, brute.r, &windows, Hooks::default()).unwrap();
    let want: Vec<u16> = brute.grundy.iter().map(|&g| g as u16).collect();
    assert_eq!(values, want, "{} Grundy table", game.id());
    // The solver (own move generator, canonical forms, splitting) on random positions of the box.
    let mut solver = Solver::new(game);
    for _ in 0..6 {
        let p: Vec<u64> = (0..n).map(|_| rng.range(0, h)).collect();
        let idx = encode(&p, brute.r);
        assert_eq!(
            solver.grundy(&p).unwrap(),
            brute.grundy[idx] as u64,
            "{} {p:?}",
            game.id()
        );
        for play in [Play::Normal, Play::Misere] {
            let o = solver.outcome(&p, play).unwrap();
            assert_eq!(
                o.is_p(),
                brute.is_p(idx, play),
                "{} {play} {p:?}",
                game.id()
            );
        }
        assert_eq!(
            game.canonical(&p),
            canonical(&p),
            "{} canonical {p:?}",
            game.id()
        );
    }
    normal
}

fn random_complex(rng: &mut Rng) -> (usize, Vec<u64>) {
    let n = rng.range(2, 7) as usize;
    let count = rng.range(1, 5) as usize;
    let mut named: Vec<u64> = (0..count)
        .map(|_| {
            let size = rng.range(1, (n as u64).min(4));
            let mut f = 0u64;
            while f.count_ones() < size as u32 {
                f |= 1 << rng.range(0, n as u64 - 1);
            }
            f
        })
        .collect();
    // Stack n must be named, or the complex would have fewer stacks.
    named[0] |= 1 << (n - 1);
    (n, named)
}

#[test]
fn engine_solver_and_canonical_forms_equal_brute_force_on_random_complexes() {
    let mut rng = Rng::new(16);
    let mut sizes = [0usize; 8];
    for _ in 0..240 {
        let (n, named) = random_complex(&mut rng);
        let game = Complex::simplicial(&to_lists(&named)).unwrap();
        assert_eq!(game.stacks(), n);
        check(&game, n, &named, &mut rng);
        sizes[n] += 1;
    }
    // Every size from 2 to 7 stacks was drawn.
    assert!(sizes[2..=7].iter().all(|&c| c > 0), "{sizes:?}");
}

#[test]
fn relabeled_complexes_give_the_same_tables() {
    let mut rng = Rng::new(7);
    for _ in 0..40 {
        let (n, mut named) = random_complex(&mut rng);
        // Name every stack (a stack alone is a face anyway), so that the relabeled complex keeps n.
        let covered = named.iter().fold(0, |a, &f| a | f);
        named.extend((0..n).filter(|&i| covered >> i & 1 == 0).map(|i| 1u64 << i));
        // A random permutation s: stack i becomes stack s[i].
        let mut s: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            s.swap(i, rng.range(0, i as u64) as usize);
        }
        let moved: Vec<u64> = named
            .iter()
            .map(|&f| {
                (0..n)
                    .filter(|&i| f >> i & 1 == 1)
                    .fold(0, |a, i| a | 1 << s[i])
            })
            .collect();
        let (a, b) = (
            Complex::simplicial(&to_lists(&named)).unwrap(),
            Complex::simplicial(&to_lists(&moved)).unwrap(),
        );
        let ca = check(&a, n, &named, &mut rng);
        let cb = check(&b, n, &moved, &mut rng);
        assert_eq!(ca, cb, "{} and {}", a.id(), b.id());
        assert_eq!(a.automorphism_count(), b.automorphism_count());
        // Grundy values move with the stacks: g_b(q) = g_a(p) where q[s[i]] = p[i].
        let h = height(n);
        let r = h as usize + 1;
        let d = a.table_domain(h, None).unwrap();
        let (Some(Rules::Windows { windows: wa, .. }), Some(Rules::Windows { windows: wb, .. })) =
            (rules_for(&a, &d), rules_for(&b, &d))
        else {
            unreachable!()
        };
        let ga = grundy::solve(n, r, &wa, Hooks::default()).unwrap();
        let gb = grundy::solve(n, r, &wb, Hooks::default()).unwrap();
        for (idx, &g) in ga.iter().enumerate() {
            let p = decode(idx, n, r);
            let mut q = vec![0; n];
            for i in 0..n {
                q[s[i]] = p[i];
            }
            assert_eq!(gb[encode(&q, r)], g);
        }
    }
}

/// CN(n,k)'s windows as the brute force sees them: k consecutive stacks, the whole circle for k = n.
fn cn_windows(n: usize, k: usize) -> Vec<u64> {
    if k >= n {
        return vec![(1u64 << n) - 1];
    }
    (0..n)
        .map(|s| (0..k).fold(0u64, |a, j| a | 1 << ((s + j) % n)))
        .collect()
}

#[test]
fn ecn_with_step_one_is_circular_nim() {
    let mut rng = Rng::new(3);
    for m in 2..=7 {
        for k in 1..=m {
            let e = Complex::ecn(m, &[1], k).unwrap();
            let c = CircularNim::new(m, k).unwrap();
            let h = height(m).min(4);
            let d = e.table_domain(h, None).unwrap();
            // The complex's symmetries are CN's rotations and reflections except when every k-set is a
            // window (k = 1, k >= m - 1: all m! permutations) or m <= 3 (where the dihedral group is
            // all of them): then only the ordered counts agree, not those up to symmetry.
            let same_group = e.automorphism_count() == Some(2 * m as u64) || m <= 3;
            assert_eq!(
                same_group,
                (2..=m.saturating_sub(2)).contains(&k) || m <= 3,
                "{}",
                e.id()
            );
            for play in [Play::Normal, Play::Misere] {
                let (mut pe, mut pc) = (Vec::new(), Vec::new());
                let se =
                    pset::tabulate(&e, &d, play, Hooks::default(), &mut |p| pe.push(p.to_vec()))
                        .unwrap();
                let sc =
                    pset::tabulate(&c, &d, play, Hooks::default(), &mut |p| pc.push(p.to_vec()))
                        .unwrap();
                assert_eq!(se.count, sc.count, "ECN({m},{{1}},{k}) {play}");
                if same_group {
                    assert_eq!((se, pe), (sc, pc), "ECN({m},{{1}},{k}) {play}");
                }
            }
            let Some(Rules::Windows { windows, .. }) = rules_for(&c, &d) else {
                unreachable!()
            };
            let cn_values = grundy::solve(m, h as usize + 1, &windows, Hooks::default()).unwrap();
            let Some(Rules::Windows { windows, .. }) = rules_for(&e, &d) else {
                unreachable!()
            };
            let ecn_values = grundy::solve(m, h as usize + 1, &windows, Hooks::default()).unwrap();
            assert_eq!(cn_values, ecn_values, "ECN({m},{{1}},{k}) Grundy table");
            // And both equal the brute force of CN's windows.
            check(&e, m, &cn_windows(m, k), &mut rng);
        }
    }
}

#[test]
fn ecn_equals_brute_force_of_its_own_definition() {
    // Facets {i, i+s, ..., i+(j-1)s} mod m for every s in S, start i and j <= k, written out here.
    let mut rng = Rng::new(5);
    for m in 2..=7usize {
        let steps: Vec<usize> = (1..=m / 2).collect();
        for mask in 1..1u32 << steps.len() {
            let s: Vec<usize> = (0..steps.len())
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| steps[i])
                .collect();
            for k in 1..=m {
                let mut named = Vec::new();
                for &step in &s {
                    for i in 0..m {
                        for j in 1..=k {
                            named.push((0..j).fold(0u64, |a, t| a | 1 << ((i + t * step) % m)));
                        }
                    }
                }
                let g = Complex::ecn(m, &s, k).unwrap();
                check(&g, m, &named, &mut rng);
            }
        }
    }
}

#[test]
fn automorphism_groups_have_the_orders_worked_out_by_hand() {
    let simplicial = |f: &[&[usize]]| {
        Complex::simplicial(&f.iter().map(|x| x.to_vec()).collect::<Vec<_>>()).unwrap()
    };
    let cases: Vec<(Complex, u64)> = vec![
        // A 5-cycle of edges: the dihedral group of the pentagon, 2 * 5.
        (
            simplicial(&[&[1, 2], &[2, 3], &[3, 4], &[4, 5], &[5, 1]]),
            10,
        ),
        // A path 1-2-3: only the reversal.
        (simplicial(&[&[1, 2], &[2, 3]]), 2),
        // Two disjoint edges: swap inside either edge, swap the edges: 2 * 2 * 2.
        (simplicial(&[&[1, 2], &[3, 4]]), 8),
        // Every pair of 4 stacks (Moore's Nim_2): all 4! permutations.
        (
            simplicial(&[&[1, 2], &[1, 3], &[1, 4], &[2, 3], &[2, 4], &[3, 4]]),
            24,
        ),
        // A triangle {1,2,3} with a pendant edge {3,4}: fix 3 and 4, swap 1 and 2.
        (simplicial(&[&[1, 2, 3], &[3, 4]]), 2),
        // CN(7,3) as ECN(7,{1},3): rotations and reflections of the heptagon, 2 * 7.
        (Complex::ecn(7, &[1], 3).unwrap(), 14),
        // CN(8,3): 2 * 8.
        (Complex::ecn(8, &[1], 3).unwrap(), 16),
        // CN(6,3): the windows are 6 of the octahedron's 8 triangles (pairs at distance 3 never share a
        // window); its 48 symmetries permute the 4 pairs of opposite triangles, and the two triangles
        // left out ({1,3,5}, {2,4,6}) form one such pair: 48 / 4 = 12 = 2 * 6.
        (Complex::ecn(6, &[1], 3).unwrap(), 12),
        // ECN(6,{1,2},2): every pair but the opposite ones {i, i+3}, the octahedron's edges: any
        // permutation of the 3 opposite pairs, and a swap inside each: 3! * 2^3 = 48.
        (Complex::ecn(6, &[1, 2], 2).unwrap(), 48),
        // CN(5,4) = every 4-set of 5 stacks: all 5! permutations.
        (Complex::ecn(5, &[1], 4).unwrap(), 120),
        // ECN(8,{4},2): the pairs {i, i+4}, four disjoint edges: 4! * 2^4 = 384.
        (Complex::ecn(8, &[4], 2).unwrap(), 384),
    ];
    for (g, order) in cases {
        assert_eq!(g.automorphism_count(), Some(order), "{}", g.id());
    }
}
