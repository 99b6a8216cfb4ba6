//! The searches that decide the partition theorem's conditions on the automata, for every entry size
//! at once: (I) a breadth-first search of the product "member, option inside one window, member",
//! and (II) a search for a non-terminal non-member with no option in the set, by two exact methods
//! run side by side (an antichain search over sets of states, and the union of the windows'
//! pre-images of the set), the first answer kept. A found word is decoded into a position for
//! [`crate::check`] to re-check.

use super::compile::{members, nonzero, window_options};
use super::dfa::{closed, decode, Budget, Dfa, Stop, MAX_TRACKS};
use super::window_pre_image::{moves_into, stranded_images};
use crate::conjecture::{Conjecture, Ruleset, RulesetKind};
use rustc_hash::FxHashMap as HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A position and one of its options, one entry per track.
pub type Move = (Vec<u128>, Vec<u128>);

/// A search node: its state, and where it came from (node, letter).
type Node<S> = (S, Option<(usize, u32)>);

/// The answers of the partition theorem's conditions (I) and (II): a member with an option in the
/// set (and that option), and a non-terminal position outside the set with no option in it; `None`
/// where there is none, for every entry size.
pub struct Conditions {
    pub members: Dfa,
    /// Condition (I): `Ok(None)` when it holds; with the seconds it took.
    pub joined: (Result<Option<Move>, Stop>, f64),
    /// Condition (II): `Ok(None)` when it holds; with the seconds it took.
    pub stranded: (Result<Option<Vec<u128>>, Stop>, f64),
}

/// The letter of the `2m` tracks (x, y) whose y equals x outside the window `w` and takes the bits of
/// `d` (in order) on it.
pub(super) fn with_window(m: usize, lx: u32, w: &[usize], d: u32) -> u32 {
    let mut y = lx;
    for (j, &i) in w.iter().enumerate() {
        y = (y & !(1 << i)) | (((d >> j) & 1) << i);
    }
    lx | (y << m)
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

/// Condition (I): a breadth-first search of the product "x in the set `s`, y an option of x inside
/// one window, y in `t`" for an accepted word (`t` is the set itself for (I), the positions without a
/// move into the set for (C)).
fn joined(
    m: usize,
    s: &Dfa,
    t: &Dfa,
    opts: &[(Vec<usize>, Dfa)],
    budget: &Budget,
) -> Result<Option<Move>, Stop> {
    let ls = s.live();
    let lt = t.live();
    for (w, opt) in opts {
        let lo = opt.live();
        let mut seen: HashMap<(u32, u32, u32), usize> = HashMap::default();
        let mut nodes: Vec<Node<(u32, u32, u32)>> = vec![((0, 0, 0), None)];
        seen.insert((0, 0, 0), 0);
        let mut i = 0;
        while i < nodes.len() {
            budget.poll()?;
            let ((qx, o, qy), _) = nodes[i];
            if s.fin[qx as usize] && opt.fin[o as usize] && t.fin[qy as usize] {
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
                    let qy2 = t.next(qy, l >> m);
                    if !lo[o2 as usize] || !lt[qy2 as usize] {
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

/// Condition (II) by the antichain method: a search for x, outside the set and not all zero, such that no option of x is in
/// the set. The options are tracked as the set of (window, option-automaton state, set-automaton
/// state) reachable by some y; a search node whose set contains that of another node with the same
/// x-state is skipped, since every continuation that avoids the larger set avoids the smaller one
/// too (the antichain method).
fn stranded_antichain(
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
    let mut memo: HashMap<(u64, u32), Vec<u64>> = HashMap::default();
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
    let mut kept: HashMap<u32, Vec<usize>> = HashMap::default();
    kept.insert(0, vec![0]);
    let mut i = 0;
    while i < nodes.len() {
        let (qa, set) = (nodes[i].0 .0, nodes[i].0 .1.clone());
        if outside.fin[qa as usize] && !accepting(&set) {
            return Ok(Some(decode(&path(&nodes, i), m)));
        }
        for lx in 0..1u32 << m {
            budget.poll()?;
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

/// Condition (II): a non-terminal position outside the set with no option in it. Two exact
/// searches run side by side and the first answer is kept: the antichain search
/// ([`stranded_antichain`]), quick when the set automaton is small and the windows many (Moore's
/// Nim), and the pre-images ([`stranded_images`]), quick when the set automaton is large and the
/// windows rotations of each other (CN(7,4), CN(8,6)); docs/benchmarks.md has the figures.
fn stranded(
    m: usize,
    s: &Dfa,
    opts: &[(Vec<usize>, Dfa)],
    budget: &Budget,
) -> Result<Option<Vec<u128>>, Stop> {
    let trace = std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some();
    // For benchmarks: one method alone (`NIMLAB_AUTOMATA_II=antichain` or `images`).
    match std::env::var("NIMLAB_AUTOMATA_II").as_deref() {
        Ok("antichain") => return stranded_antichain(m, s, opts, budget),
        Ok("images") => return stranded_images(m, s, opts, budget),
        _ => {}
    }
    let done = Arc::new(AtomicBool::new(false));
    let own = || Budget {
        deadline: budget.deadline,
        max_states: budget.max_states,
        cancel: Some(done.clone()),
        interrupt: budget.interrupt.clone(),
    };
    let (a, b) = (own(), own());
    let run = |name: &'static str, r: Result<Option<Vec<u128>>, Stop>| {
        if r.is_ok() {
            done.store(true, Ordering::Relaxed);
            if trace {
                eprintln!("(II): decided by the {name}");
            }
        }
        r
    };
    let (one, two) = std::thread::scope(|scope| {
        let one = scope.spawn(|| run("antichain search", stranded_antichain(m, s, opts, &a)));
        let two = run("pre-images", stranded_images(m, s, opts, &b));
        (one.join(), two)
    });
    let one = one.unwrap_or_else(|_| Err(Stop::Limit("the antichain search failed".into())));
    // Both exact: an answer from either is the answer; an outside cancellation (the caller's own
    // flag) or the deadline leaves both without one.
    match (one, two) {
        (Ok(x), _) | (_, Ok(x)) => Ok(x),
        (Err(Stop::Unsupported(e)), _) | (_, Err(Stop::Unsupported(e))) => {
            Err(Stop::Unsupported(e))
        }
        (Err(e), Err(Stop::Limit(f))) => Err(if f.starts_with("another") {
            e
        } else {
            Stop::Limit(f)
        }),
    }
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

/// Decides conditions (I) and (II) for a conjecture about CN or a complex (SCN: `scn.rs`).
pub fn conditions(c: &Conjecture, budget: &Budget) -> Result<Conditions, Stop> {
    if c.game.kind == RulesetKind::Scn {
        return super::scn::conditions(c, budget);
    }
    let m = fits(&c.game)?;
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
    decide(&c.game, s, t0, false, budget)
}

/// Decides conditions (I) and (II) for a set given directly as an automaton over `game.n` tracks
/// (track `i` = stack `i`, most significant digit first, the same answer with or without leading
/// zero letters): CN, Nim or a complex. With `stop_early`, (II) is not searched once (I) has a
/// counterexample (its answer is then `Err(Stop::Limit(..))`, saying so).
pub fn conditions_for(
    game: &Ruleset,
    members: Dfa,
    stop_early: bool,
    budget: &Budget,
) -> Result<Conditions, Stop> {
    let m = fits(game)?;
    if members.tracks != m {
        return Err(Stop::Unsupported(format!(
            "the automaton reads {} inputs; a position of {} has {m} stacks",
            members.tracks,
            game.id()
        )));
    }
    decide(game, members, Instant::now(), stop_early, budget)
}

/// Every move window of `game` (positions of `m` stacks) with its option relation.
fn windows_with_options(
    game: &Ruleset,
    m: usize,
    budget: &Budget,
) -> Result<Vec<(Vec<usize>, Dfa)>, Stop> {
    game.windows(m)
        .into_iter()
        .map(|w| window_options(m, &w, budget).map(|o| (w, o)))
        .collect()
}

/// The number of tracks of `game`'s positions, when the automata prover covers it.
fn fits(game: &Ruleset) -> Result<usize, Stop> {
    if game.kind == RulesetKind::Scn {
        return Err(Stop::Unsupported(
            "SCN's circles shrink: give one automaton per circle length (prove_scn_members; the SCN file format of nimlab_prove::walnut)".into(),
        ));
    }
    let m = game.n;
    if 2 * m > MAX_TRACKS {
        return Err(Stop::Unsupported(format!(
            "{} has {m} stacks; the automata prover handles at most {}",
            game.id(),
            MAX_TRACKS / 2
        )));
    }
    Ok(m)
}

/// The two searches on the set automaton `s` (built from `t0` on).
fn decide(
    game: &Ruleset,
    s: Dfa,
    t0: Instant,
    stop_early: bool,
    budget: &Budget,
) -> Result<Conditions, Stop> {
    let m = game.n;
    let trace = std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some();
    let opts = windows_with_options(game, m, budget)?;
    let built = t0.elapsed().as_secs_f64();
    let one = timed("I", built, trace, || joined(m, &s, &s, &opts, budget))?;
    let two = if stop_early && matches!(one.0, Ok(Some(_))) {
        (
            Err(Stop::Limit(
                "not searched: condition (I) is already refuted".into(),
            )),
            0.0,
        )
    } else {
        timed("II", built, trace, || stranded(m, &s, &opts, budget))?
    };
    Ok(Conditions {
        members: s,
        joined: one,
        stranded: two,
    })
}

/// Condition (C) for a set claimed to lie inside the P-set, for CN, Nim or a complex (SCN:
/// `scn::closure`): a member x
/// with an option y that has no option in the set (the search of condition (I) on the set and the
/// complement of the union of the windows' pre-images); `Ok(None)` when there is none, for every entry size. With the seconds it took.
pub fn closure(c: &Conjecture, budget: &Budget) -> Result<(Result<Option<Move>, Stop>, f64), Stop> {
    if c.game.kind == RulesetKind::Scn {
        return super::scn::closure(c, budget);
    }
    let m = fits(&c.game)?;
    let t0 = Instant::now();
    let s = members(c, m, budget)?;
    let opts = windows_with_options(&c.game, m, budget)?;
    let run = || -> Result<Option<Move>, Stop> {
        let mut stranded = moves_into(m, &s, &opts, budget)?.complement();
        if c.play == nimlab_core::Play::Misere {
            // A terminal option is an N-position in misère play: no move back is needed.
            stranded = Dfa::product(&stranded, &nonzero(m, budget)?, false, budget)?;
        }
        joined(m, &s, &stranded, &opts, budget)
    };
    let r = run();
    if let Err(Stop::Unsupported(e)) = r {
        return Err(Stop::Unsupported(e));
    }
    Ok((r, t0.elapsed().as_secs_f64()))
}
