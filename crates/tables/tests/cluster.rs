//! The distributed schedule of the line engine ([`lines::solve_on`]): on 1, 2 and 3 ranks (threads of
//! this process joined by channels, [`Threads`]) it gives exactly the one-process engine's counts,
//! counts by length and listed positions, in the same order, on boxes of 10^6 positions and more (CN,
//! SCN, a complex, Nim, Moore's Nim, both conventions), and the one-process engine agrees with the
//! plain search on a smaller box of each. Checkpoints are the same whatever the number of ranks: one
//! written on 3 ranks continues on 2 ranks and in one process, one written in one process continues on
//! 3 ranks, and a cancellation on a rank other than 0 stops every rank with a checkpoint that continues
//! to the same result.

use nimlab_core::table::{tabulate as naive, TableRun};
use nimlab_core::{BoxDomain, Game, Hooks, Play};
use nimlab_games::{CircularNim, Complex, MooreNim, Nim, ShrinkingCircularNim};
use nimlab_tables::checkpoint::{Memory, Progress, Saver};
use nimlab_tables::cluster::{Cluster, Solo, Threads};
use nimlab_tables::lines::{Resume, Stop};
use nimlab_tables::pset;
use std::cell::RefCell;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Count, canonical count, counts by length, listed positions (in the order sent).
type PSet = (u64, u64, Vec<(usize, u64, u64)>, Vec<Vec<u64>>);
/// A checkpoint, with the positions listed before it.
type Taken = (Vec<Vec<u64>>, Vec<u8>);

fn domain(game: &dyn Game, max: u64, heaps: Option<usize>) -> BoxDomain {
    game.table_domain(max, heaps).unwrap()
}

/// The P-set on `cluster`, with `listed` already sent before (resuming) and a checkpoint to resume
/// from; rank 0's result (other ranks: `None`).
fn on(
    cluster: &dyn Cluster,
    game: &dyn Game,
    d: &BoxDomain,
    play: Play,
    hooks: Hooks,
    saver: Option<&mut dyn Saver>,
    from: Option<Taken>,
) -> Result<Option<PSet>, Stop> {
    // Blocks of the previous diagonal handed back one by one, as on large boxes (every test here).
    nimlab_tables::lines::hand_back_from(0);
    let (before, bytes) = from.unzip();
    let listed = RefCell::new(before.unwrap_or_default());
    let mut rd: Option<&[u8]> = bytes.as_deref();
    let s = pset::tabulate_on(
        cluster,
        game,
        d,
        play,
        hooks,
        &mut |p| listed.borrow_mut().push(p.to_vec()),
        Resume {
            saver,
            from: rd.as_mut().map(|r| r as &mut dyn std::io::Read),
        },
    )?;
    if let (Some(r), true) = (rd, cluster.is_root()) {
        assert!(r.is_empty(), "the checkpoint was read whole");
    }
    Ok(cluster
        .is_root()
        .then(|| (s.count, s.canonical_count, s.by_length, listed.into_inner())))
}

fn solo(game: &dyn Game, d: &BoxDomain, play: Play) -> PSet {
    on(&Solo, game, d, play, Hooks::default(), None, None)
        .unwrap()
        .unwrap()
}

/// Rank 0's result on `ranks` threads (the others must return nothing).
fn threads(ranks: usize, game: &(dyn Game + Sync), d: &BoxDomain, play: Play) -> PSet {
    let mut all = Threads::run(ranks, |c| {
        let r = on(c, game, d, play, Hooks::default(), None, None).unwrap();
        (r, c.traffic())
    });
    // The work was shared: every rank but 0 sent P-lines and boundary blocks.
    for (rank, (r, t)) in all.iter().enumerate().skip(1) {
        assert!(r.is_none());
        assert!(
            t.lines > 0 && t.boundary > 0,
            "rank {rank} of {ranks}: {t:?}"
        );
    }
    all.remove(0).0.unwrap()
}

fn plain(game: &dyn Game, d: &BoxDomain, play: Play) -> PSet {
    let t = naive(
        game,
        d,
        &TableRun {
            play,
            keep_positions: true,
            hooks: Default::default(),
        },
    )
    .unwrap();
    (t.count, t.canonical_count, t.by_length, t.positions)
}

/// One process vs the plain search on `small`, then 1, 2 and 3 ranks vs one process on `big`.
fn check(game: &(dyn Game + Sync), small: &BoxDomain, big: &BoxDomain, plays: &[Play]) {
    for &play in plays {
        let mut one = solo(game, small, play);
        let mut p = plain(game, small, play);
        one.3.sort();
        p.3.sort();
        assert_eq!(
            one,
            p,
            "{} {play:?} on {small:?}: engine vs plain search",
            game.id()
        );
        let one = solo(game, big, play);
        assert!(
            big.size_f64() >= 1e6,
            "{}: a box of 10^6 positions",
            game.id()
        );
        for ranks in 1..=3 {
            assert_eq!(
                threads(ranks, game, big, play),
                one,
                "{} {play:?} on {ranks} ranks",
                game.id()
            );
        }
        eprintln!(
            "{} {play:?}: {} positions, {} P-positions, equal on 1, 2, 3 ranks",
            game.id(),
            big.size_f64(),
            one.0
        );
    }
}

const BOTH: [Play; 2] = [Play::Normal, Play::Misere];

#[test]
fn circular_nim_on_ranks_equals_one_process() {
    let g = CircularNim::new(5, 2).unwrap();
    check(&g, &domain(&g, 5, None), &domain(&g, 15, None), &BOTH);
    let g = CircularNim::new(7, 4).unwrap();
    check(
        &g,
        &domain(&g, 3, None),
        &domain(&g, 7, None),
        &[Play::Normal],
    );
}

#[test]
fn shrinking_circular_nim_on_ranks_equals_one_process() {
    let g = ShrinkingCircularNim::new(5, 3).unwrap();
    check(&g, &domain(&g, 4, None), &domain(&g, 17, None), &BOTH);
    let g = ShrinkingCircularNim::new(6, 4).unwrap();
    check(
        &g,
        &domain(&g, 3, None),
        &domain(&g, 10, None),
        &[Play::Normal],
    );
}

#[test]
fn complexes_nim_and_moore_on_ranks_equal_one_process() {
    let facets = vec![vec![1, 2, 3], vec![3, 4], vec![4, 5, 6], vec![6, 1]];
    let g = Complex::simplicial(&facets).unwrap();
    check(&g, &domain(&g, 4, None), &domain(&g, 10, None), &BOTH);
    let g = Complex::ecn(7, &[1, 3], 3).unwrap();
    check(
        &g,
        &domain(&g, 3, None),
        &domain(&g, 7, None),
        &[Play::Normal],
    );
    let g = Nim;
    check(
        &g,
        &domain(&g, 6, Some(4)),
        &domain(&g, 31, Some(4)),
        &[Play::Normal],
    );
    let g = MooreNim::new(2).unwrap();
    check(
        &g,
        &domain(&g, 6, Some(4)),
        &domain(&g, 31, Some(4)),
        &[Play::Misere],
    );
}

/// A saver that keeps a checkpoint after every diagonal, with the positions listed before it.
struct Recorder<'a> {
    mem: Memory,
    listed: &'a RefCell<Vec<Vec<u64>>>,
    at: Vec<Vec<Vec<u64>>>,
}

impl Saver for Recorder<'_> {
    fn due(&mut self) -> bool {
        true
    }
    fn save(&mut self, p: Progress, body: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>) {
        self.at.push(self.listed.borrow().clone());
        self.mem.save(p, body);
    }
}

/// A run with a checkpoint after every diagonal on `cluster`: rank 0's result and checkpoints.
fn recorded(
    cluster: &dyn Cluster,
    game: &dyn Game,
    d: &BoxDomain,
    play: Play,
) -> Option<(PSet, Vec<Taken>)> {
    let listed = RefCell::new(Vec::new());
    let mut rec = Recorder {
        mem: Memory::default(),
        listed: &listed,
        at: Vec::new(),
    };
    let s = pset::tabulate_on(
        cluster,
        game,
        d,
        play,
        Hooks::default(),
        &mut |p| listed.borrow_mut().push(p.to_vec()),
        Resume {
            saver: Some(&mut rec),
            from: None,
        },
    )
    .unwrap();
    let cks = rec
        .at
        .into_iter()
        .zip(rec.mem.saved)
        .map(|(l, (_, b))| (l, b))
        .collect();
    cluster.is_root().then(|| {
        (
            (s.count, s.canonical_count, s.by_length, listed.into_inner()),
            cks,
        )
    })
}

fn resumed_on(
    ranks: usize,
    game: &(dyn Game + Sync),
    d: &BoxDomain,
    play: Play,
    ck: &Taken,
) -> PSet {
    Threads::run(ranks, |c| {
        on(c, game, d, play, Hooks::default(), None, Some(ck.clone())).unwrap()
    })
    .remove(0)
    .unwrap()
}

fn checkpoints_move_between_rank_counts(game: &(dyn Game + Sync), d: &BoxDomain, play: Play) {
    let whole = solo(game, d, play);
    // Written on 3 ranks: the same checkpoints as one process writes, continued on 2 and on 1.
    let (on3, cks3) = Threads::run(3, |c| recorded(c, game, d, play))
        .remove(0)
        .unwrap();
    assert_eq!(on3, whole, "{}: 3 ranks with checkpoints", game.id());
    let (_, cks1) = recorded(&Solo, game, d, play).unwrap();
    assert_eq!(cks3.len(), cks1.len());
    assert!(cks3.len() >= 4, "{}: {} checkpoints", game.id(), cks3.len());
    for (i, ((l3, b3), (l1, b1))) in cks3.iter().zip(&cks1).enumerate() {
        assert!(
            b3 == b1 && l3 == l1,
            "{}: checkpoint {i} depends on the ranks",
            game.id()
        );
    }
    let step = (cks3.len() / 4).max(1);
    for (i, ck) in cks3.iter().enumerate().step_by(step) {
        for ranks in [1, 2, 3] {
            assert_eq!(
                resumed_on(ranks, game, d, play, ck),
                whole,
                "{}: checkpoint {i} of 3 ranks continued on {ranks}",
                game.id()
            );
        }
        let r = on(
            &Solo,
            game,
            d,
            play,
            Hooks::default(),
            None,
            Some(ck.clone()),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            r,
            whole,
            "{}: checkpoint {i} continued in one process",
            game.id()
        );
    }
}

#[test]
fn checkpoints_continue_on_any_number_of_ranks() {
    let g = CircularNim::new(5, 2).unwrap();
    checkpoints_move_between_rank_counts(&g, &domain(&g, 11, None), Play::Normal);
    let g = ShrinkingCircularNim::new(5, 3).unwrap();
    checkpoints_move_between_rank_counts(&g, &domain(&g, 9, None), Play::Misere);
}

/// Lines longer than one word (entries past 63): ranks and checkpoints as with one word. The engine
/// itself is checked against references past 63 in tests/wide_lines.rs.
#[test]
fn lines_past_one_word_on_ranks_and_through_checkpoints() {
    let g = CircularNim::new(3, 2).unwrap();
    let big = domain(&g, 130, None);
    for play in BOTH {
        let one = solo(&g, &big, play);
        for ranks in 2..=3 {
            assert_eq!(
                threads(ranks, &g, &big, play),
                one,
                "CN(3,2) {play:?} on {ranks} ranks"
            );
        }
    }
    checkpoints_move_between_rank_counts(&g, &domain(&g, 70, None), Play::Misere);
    let g = ShrinkingCircularNim::new(3, 2).unwrap();
    checkpoints_move_between_rank_counts(&g, &domain(&g, 70, None), Play::Normal);
}

/// Saves only when the sweep is cancelled.
struct OnCancel(Memory);

impl Saver for OnCancel {
    fn due(&mut self) -> bool {
        false
    }
    fn save(&mut self, p: Progress, body: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>) {
        self.0.save(p, body)
    }
}

#[test]
fn a_cancel_on_another_rank_stops_all_and_rank_0_keeps_a_checkpoint() {
    let g = CircularNim::new(6, 3).unwrap();
    let d = domain(&g, 9, None);
    let whole = solo(&g, &d, Play::Normal);
    // Rank 0 raises rank 2's flag once a third of the work is done; rank 2's cancel stops everyone.
    let flag = AtomicBool::new(false);
    let never = AtomicBool::new(false);
    let results = Threads::run(3, |c| {
        let raise = |done: u64, total: u64| {
            if 3 * done >= total {
                flag.store(true, Ordering::Relaxed)
            }
        };
        let hooks = match c.rank() {
            0 => Hooks::new(Some(&never), Some(&raise)),
            2 => Hooks::new(Some(&flag), None),
            _ => Hooks::new(Some(&never), None),
        };
        let listed = RefCell::new(Vec::new());
        let mut saver = OnCancel(Memory::default());
        let r = pset::tabulate_on(
            c,
            &g,
            &d,
            Play::Normal,
            hooks,
            &mut |p| listed.borrow_mut().push(p.to_vec()),
            Resume {
                saver: Some(&mut saver),
                from: None,
            },
        );
        (
            matches!(r, Err(Stop::Interrupted)),
            listed.into_inner(),
            saver.0.saved,
        )
    });
    assert!(results.iter().all(|r| r.0), "every rank stopped");
    let (_, listed, saved) = results.into_iter().next().unwrap();
    assert_eq!(saved.len(), 1, "rank 0 kept one checkpoint");
    let (progress, bytes) = saved.into_iter().next().unwrap();
    assert!(progress.done < progress.total);
    let r = on(
        &Solo,
        &g,
        &d,
        Play::Normal,
        Hooks::default(),
        None,
        Some((listed, bytes)),
    )
    .unwrap()
    .unwrap();
    assert_eq!(r, whole);
}
