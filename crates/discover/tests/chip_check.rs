//! The cheap check of `discover` on the redistribution chip games: T extended by its recurrence
//! before a description is proved or reported. Every expected value comes from a brute force written
//! here or in tests/common/chip_brute.rs (no nimlab code), or from the figures of docs/findings.md §12,
//! not from nimlab's own output.

mod common;

use common::chip_brute::{p_positions, Rules, T};
use nimlab_core::Play;
use nimlab_discover::chips::TotalsTable;
use nimlab_discover::{DiscoveryVerdict, Options};
use nimlab_games::Redistribute;
use nimlab_prove::chips::totals::Totals;

/// T by the brute force of chip_brute (every option of every position listed): the totals that
/// hold a P-position.
fn brute_t(r: &Rules, s: u64) -> Vec<bool> {
    let p = p_positions(r, s);
    let mut t = vec![false; s as usize + 1];
    for (x, &is_p) in &p {
        if is_p {
            t[x.iter().sum::<u64>() as usize] = true;
        }
    }
    t
}

/// Calls `f` on every sorted k-tuple of positive integers with total `n`, in lexicographic order,
/// until it returns false; false when it did.
fn each_position(k: usize, n: u64, f: &mut dyn FnMut(&[u64]) -> bool) -> bool {
    fn go(x: &mut Vec<u64>, k: usize, n: u64, lo: u64, f: &mut dyn FnMut(&[u64]) -> bool) -> bool {
        if x.len() + 1 == k {
            if n < lo {
                return true;
            }
            x.push(n);
            let go_on = f(x);
            x.pop();
            return go_on;
        }
        let left = (k - x.len()) as u64;
        let mut a = lo;
        while a * left <= n {
            x.push(a);
            let go_on = go(x, k, n - a, a, f);
            x.pop();
            if !go_on {
                return false;
            }
            a += 1;
        }
        true
    }
    go(&mut Vec::with_capacity(k), k, n, 1, f)
}

/// The masks of the kept sets a move may keep.
fn masks(r: &Rules) -> Vec<u32> {
    (1u32..(1 << r.k))
        .filter(|m| r.keep.contains(&(m.count_ones() as usize)))
        .collect()
}

/// Whether `x` is in the position set of the totals `set` (indexed by total): it has a move (in
/// misère play) and no kept set (of `masks`) of at least k chips has its total in `set`.
fn member(r: &Rules, masks: &[u32], set: &[bool], x: &[u64]) -> bool {
    let mut moves = false;
    for &mask in masks {
        let m: u64 = (0..r.k)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| x[i])
            .sum();
        if m >= r.k as u64 {
            moves = true;
            if set[m as usize] {
                return false;
            }
        }
    }
    moves || !r.misere
}

/// T up to `s` by a plain recursion written for this test: a position is P when none of its
/// options is P, and the options of a kept set of total m (m ≥ k) are all the positions of total
/// m, so "some option through it is P" is "total m holds a P-position". The positions of each total
/// are listed one by one, with no cut, until a P-position is found.
fn plain_t(r: &Rules, s: u64) -> Vec<bool> {
    let masks = masks(r);
    let mut t = vec![false; s as usize + 1];
    for n in r.k as u64..=s {
        let found = !each_position(r.k, n, &mut |x| !member(r, &masks, &t, x));
        t[n as usize] = found;
    }
    t
}

/// The totals up to `s` of the set `d` describes, indexed by total.
fn totals_of(r: &Rules, d: &T, s: u64) -> Vec<bool> {
    (0..=s).map(|n| d.has(r.k, n)).collect()
}

/// The least position (the least total, then the least sorted tuple) of total at most `s` where
/// the set `d` gives and the P-set of T (`t`, exact up to `s`) differ, by listing every position.
fn least_wrong(r: &Rules, t: &[bool], d: &T, s: u64) -> Option<(Vec<u64>, bool)> {
    let d = totals_of(r, d, s);
    let masks = masks(r);
    let mut found = None;
    for n in r.k as u64..=s {
        each_position(r.k, n, &mut |x| {
            let is_p = member(r, &masks, t, x);
            if member(r, &masks, &d, x) != is_p {
                found = Some((x.to_vec(), is_p));
                return false;
            }
            true
        });
        if found.is_some() {
            break;
        }
    }
    found
}

fn table(g: Redistribute, play: Play, s: u64) -> TotalsTable {
    let mut t = TotalsTable::new(&g, play);
    assert!(t.extend(s, &|| false));
    t
}

fn as_totals(d: &T) -> Totals {
    Totals {
        threshold: d.threshold,
        period: d.period,
        residues: d.residues.clone(),
        exceptions: d.exceptions.clone(),
    }
}

/// The cut search of `TotalsTable` gives the T of the brute force, for every kind of move (EABO,
/// ER, SER, EJR) in both plays.
#[test]
fn the_cut_search_gives_the_brute_force_t() {
    let games: Vec<(Redistribute, Rules, u64)> = vec![
        (Redistribute::eabo(3).unwrap(), Rules::eabo(3), 40),
        (Redistribute::eabo(5).unwrap(), Rules::eabo(5), 24),
        (Redistribute::er(4).unwrap(), Rules::er(4), 30),
        (Redistribute::er(6).unwrap(), Rules::er(6), 20),
        (Redistribute::ser(4).unwrap(), Rules::ser(4), 30),
        (Redistribute::ejr(5, 2).unwrap(), Rules::ejr(5, 2), 26),
        (Redistribute::ejr(5, 3).unwrap(), Rules::ejr(5, 3), 26),
        (Redistribute::ejr(6, 4).unwrap(), Rules::ejr(6, 4), 22),
    ];
    for (g, r, s) in games {
        for misere in [false, true] {
            let r = if misere {
                r.clone().misere()
            } else {
                r.clone()
            };
            let want = brute_t(&r, s);
            let got = table(g, Play::from_misere(misere), s);
            assert_eq!(got.in_t, want, "{r:?}");
            assert_eq!(plain_t(&r, s), want, "{r:?}: the plain recursion");
        }
    }
}

/// The least wrong position of a description agrees with a listing of every position, for a few
/// wrong descriptions of small games.
#[test]
fn least_wrong_positions_agree_with_a_listing() {
    let cases: Vec<(Redistribute, Rules, T)> = vec![
        // ER(4): T is the even totals; here one residue too many from 12 on.
        (
            Redistribute::er(4).unwrap(),
            Rules::er(4),
            T {
                threshold: 12,
                period: 4,
                residues: vec![0, 1, 2],
                exceptions: vec![4, 6, 8, 10],
            },
        ),
        // EJR(4,2) (T: n mod 4 in {0, 1}): 13 left out.
        (
            Redistribute::ejr(4, 2).unwrap(),
            Rules::ejr(4, 2),
            T {
                threshold: 14,
                period: 4,
                residues: vec![0, 1],
                exceptions: vec![4, 5, 8, 9, 12],
            },
        ),
        // SER(4) misère, every total from 4 on.
        (
            Redistribute::ser(4).unwrap(),
            Rules::ser(4).misere(),
            T {
                threshold: 4,
                period: 1,
                residues: vec![0],
                exceptions: vec![],
            },
        ),
        // EABO(3) misère (T: n mod 10 not in {3, 4}): every total from 3 on.
        (
            Redistribute::eabo(3).unwrap(),
            Rules::eabo(3).misere(),
            T {
                threshold: 3,
                period: 1,
                residues: vec![0],
                exceptions: vec![],
            },
        ),
    ];
    for (g, r, d) in cases {
        let s = 28;
        let t = plain_t(&r, s);
        let want = least_wrong(&r, &t, &d, s).expect("a wrong position within the totals");
        let table = table(g, Play::from_misere(r.misere), s);
        let got = table.least_wrong_position(&as_totals(&d), &|| false);
        assert_eq!(got, Some(want), "{r:?} {d:?}");
    }
}

/// The totals T of EJR(5,2) (normal play) misses from 5 to 174, as docs/findings.md §12 and the
/// description discover used to report list them.
const EJR52_MISSES_TO_174: [u64; 34] = [
    7, 8, 11, 12, 15, 16, 27, 28, 31, 32, 43, 44, 47, 48, 59, 60, 63, 64, 93, 94, 97, 98, 109, 110,
    113, 122, 143, 144, 147, 148, 163, 167, 168, 174,
];

/// The old conjecture: every total from 175 on, and below it every total from 5 but those above.
fn ejr52_old_conjecture() -> T {
    T {
        threshold: 175,
        period: 1,
        residues: vec![0],
        exceptions: (5..175)
            .filter(|n| !EJR52_MISSES_TO_174.contains(n))
            .collect(),
    }
}

/// The refuted conjecture of docs/findings.md §12: the description "every total from 175 on" of EJR(5,2) equals T on 5..192 but
/// T misses 197, 198, 201, 202, 213, 217, 224 and 250, and the least position it classifies
/// wrongly is (1,1,1,1,195). The plain recursion written here (checked against the brute force of
/// chip_brute on small totals above) confirms all of it; TotalsTable, its learning and its least
/// wrong position agree.
#[test]
fn ejr52_old_conjecture_fails_at_197_and_1_1_1_1_195() {
    let r = Rules::ejr(5, 2);
    let s = 250;
    let t = plain_t(&r, s);
    let misses: Vec<u64> = (5..=s).filter(|&n| !t[n as usize]).collect();
    let mut want = EJR52_MISSES_TO_174.to_vec();
    want.extend([197, 198, 201, 202, 213, 217, 224, 250]);
    assert_eq!(misses, want);
    let old = ejr52_old_conjecture();
    // The least wrong position, by listing every position of total up to 199.
    let wrong = least_wrong(&r, &t, &old, 199);
    assert_eq!(wrong, Some((vec![1, 1, 1, 1, 195], true)));

    let g = Redistribute::ejr(5, 2).unwrap();
    let tt = table(g, Play::Normal, s);
    assert_eq!(tt.in_t, t);
    // What discover read from the box of 192 chips (the 2e7-position limit) is the old conjecture.
    let learned = tt.learn(192).expect("a description on 5..192");
    assert_eq!(learned, as_totals(&old));
    assert_eq!(tt.mismatch(&learned, 192), None);
    assert_eq!(tt.mismatch(&learned, s), Some(197));
    assert_eq!(
        tt.differences(&learned, s, 20),
        vec![197, 198, 201, 202, 213, 217, 224, 250]
    );
    assert_eq!(
        tt.least_wrong_position(&learned, &|| false),
        Some((vec![1, 1, 1, 1, 195], true))
    );
}

/// `discover 'EJR(5,2)'` no longer reports "every total from 175 on" as a conjecture: the cheap
/// check refutes it at 197 with the least wrong position (1,1,1,1,195), and no description read
/// from a part of the checked totals holds on the rest (the verdict is none). No proof is tried.
#[test]
fn discover_no_longer_reports_the_ejr52_conjecture() {
    let d = nimlab_discover::discover("EJR(5,2)", &Options::default()).unwrap();
    let v = d.to_json();
    assert_eq!(d.verdict, DiscoveryVerdict::None, "{v}");
    assert!(d.prover.is_none() && d.proof.is_none(), "{v}");
    let reason = d.reason.as_deref().unwrap();
    assert!(reason.starts_with("no period up to "), "{reason}");
    let c = &v["totals_check"];
    assert_eq!(c["min"], 5);
    // T reaches 250 in well under the check's 3 s, even in a slow build.
    assert!(c["max"].as_u64().unwrap() >= 250, "{c}");
    let r = &c["refuted"];
    assert_eq!(r["threshold"], 175, "{c}");
    assert_eq!(r["period"], 1);
    assert_eq!(r["fails_at"], 197);
    assert_eq!(r["fails_at_in_t"], false);
    assert_eq!(r["position"], serde_json::json!([1, 1, 1, 1, 195]));
    assert_eq!(r["position_is_p"], true);
    let differences: Vec<u64> = r["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(
        differences[..8],
        [197, 198, 201, 202, 213, 217, 224, 250],
        "{c}"
    );
    let text = d.totals_check.as_ref().unwrap().text();
    assert!(
        text.contains("fails at the total 197") && text.contains("(1,1,1,1,195)"),
        "{text}"
    );
}

/// EJR(5,3), normal play: T up to 1000 chips misses exactly the 66 totals that the independent
/// script `docs/conjectures/ejr53_totals.py 1000` printed (docs/findings.md §5.4).
#[test]
fn ejr53_misses_agree_with_the_findings_script() {
    let runs = [
        11, 20, 47, 56, 83, 92, 191, 200, 227, 236, 335, 344, 371, 380, 767, 776, 803, 812, 911,
        920, 947, 956,
    ];
    let want: Vec<u64> = runs.iter().flat_map(|&a| a..a + 3).collect();
    let tt = table(Redistribute::ejr(5, 3).unwrap(), Play::Normal, 1000);
    let misses: Vec<u64> = (5..=1000).filter(|&n| !tt.in_t[n as usize]).collect();
    assert_eq!(misses, want);
}
