//! Resuming a sweep from any of its checkpoints gives exactly the result of one uninterrupted pass:
//! the checkpoints of a run are kept in memory ([`checkpoint::Memory`], one after every diagonal), the
//! run is resumed from each of them in turn, and counts, counts by length, the listed canonical
//! P-positions (those sent before the checkpoint plus those sent after) and Grundy values are
//! compared with the one-pass run, which is itself compared with the plain search of
//! `nimlab_core::table` (every option of every position) on the same box.

use nimlab_core::table::{grundy_values, tabulate as naive, TableRun};
use nimlab_core::{BoxDomain, Game, Hooks, Play};
use nimlab_games::{CircularNim, ShrinkingCircularNim};
use nimlab_tables::checkpoint::{Memory, OnlyOnCancel};
use nimlab_tables::lines::{Resume, Stop};
use nimlab_tables::{grundy, pset};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

type PSet = (u64, u64, Vec<(usize, u64, u64)>, Vec<Vec<u64>>);
/// A checkpoint, with the positions listed before it.
type Taken = (Vec<Vec<u64>>, Vec<u8>);

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

/// One pass with a checkpoint after every diagonal: the result, and every checkpoint with the
/// positions listed before it was taken.
fn pass(game: &dyn Game, d: &BoxDomain, play: Play) -> (PSet, Vec<Taken>) {
    let listed = std::cell::RefCell::new(Vec::new());
    let mut saver = Recorder {
        mem: Memory::default(),
        listed: &listed,
        at: Vec::new(),
    };
    let s = pset::tabulate_resumable(
        game,
        d,
        play,
        Hooks::default(),
        &mut |p| listed.borrow_mut().push(p.to_vec()),
        Resume {
            saver: Some(&mut saver),
            from: None,
        },
    )
    .unwrap();
    let cks = saver
        .at
        .into_iter()
        .zip(saver.mem.saved)
        .map(|(l, (_, bytes))| (l, bytes))
        .collect();
    (
        (s.count, s.canonical_count, s.by_length, listed.into_inner()),
        cks,
    )
}

/// A memory saver that also notes what had been listed when each checkpoint was taken.
struct Recorder<'a> {
    mem: Memory,
    listed: &'a std::cell::RefCell<Vec<Vec<u64>>>,
    at: Vec<Vec<Vec<u64>>>,
}

impl nimlab_tables::checkpoint::Saver for Recorder<'_> {
    fn due(&mut self) -> bool {
        true
    }
    fn save(
        &mut self,
        p: nimlab_tables::checkpoint::Progress,
        body: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) {
        self.at.push(self.listed.borrow().clone());
        self.mem.save(p, body);
    }
}

fn check_pset(game: &dyn Game, d: &BoxDomain, play: Play) {
    let (whole, cks) = pass(game, d, play);
    assert_eq!(
        whole,
        plain(game, d, play),
        "{} one pass vs plain search",
        game.id()
    );
    assert!(cks.len() >= 3, "{}: {} checkpoints", game.id(), cks.len());
    for (i, (before, bytes)) in cks.iter().enumerate() {
        let mut listed = before.clone();
        let mut rd: &[u8] = bytes;
        let s = pset::tabulate_resumable(
            game,
            d,
            play,
            Hooks::default(),
            &mut |p| listed.push(p.to_vec()),
            Resume {
                saver: None,
                from: Some(&mut rd),
            },
        )
        .unwrap();
        assert!(rd.is_empty(), "checkpoint {i} read whole");
        assert_eq!(
            (s.count, s.canonical_count, s.by_length, listed),
            whole,
            "{} resumed from checkpoint {i} of {}",
            game.id(),
            cks.len()
        );
    }
    eprintln!(
        "{} {play:?}: resumed from each of {} checkpoints",
        game.id(),
        cks.len()
    );
}

fn cn_box(n: usize, h: u64) -> BoxDomain {
    BoxDomain {
        lengths: vec![n],
        lo: 0,
        hi: h,
    }
}

fn scn_box(n: usize, h: u64) -> BoxDomain {
    BoxDomain {
        lengths: (0..=n).collect(),
        lo: 1,
        hi: h,
    }
}

#[test]
fn pset_cn_resumes_from_every_diagonal() {
    for play in [Play::Normal, Play::Misere] {
        check_pset(&CircularNim::new(5, 3).unwrap(), &cn_box(5, 7), play);
        check_pset(&CircularNim::new(4, 2).unwrap(), &cn_box(4, 9), play);
    }
}

#[test]
fn pset_scn_resumes_from_every_diagonal() {
    for play in [Play::Normal, Play::Misere] {
        check_pset(
            &ShrinkingCircularNim::new(4, 2).unwrap(),
            &scn_box(4, 6),
            play,
        );
    }
}

fn grundy_pass(run: &dyn Fn(Resume) -> Result<Vec<u16>, Stop>) -> (Vec<u16>, Vec<Vec<u8>>) {
    let mut mem = Memory::default();
    let v = run(Resume {
        saver: Some(&mut mem),
        from: None,
    })
    .unwrap();
    (v, mem.saved.into_iter().map(|x| x.1).collect())
}

fn check_grundy(name: &str, want: &[u16], run: &dyn Fn(Resume) -> Result<Vec<u16>, Stop>) {
    let (whole, cks) = grundy_pass(run);
    assert_eq!(whole, want, "{name}: one pass vs plain search");
    assert!(cks.len() >= 3);
    for (i, bytes) in cks.iter().enumerate() {
        let mut rd: &[u8] = bytes;
        let got = run(Resume {
            saver: None,
            from: Some(&mut rd),
        })
        .unwrap();
        assert!(rd.is_empty());
        assert_eq!(got, whole, "{name} resumed from checkpoint {i}");
    }
    eprintln!("{name}: resumed from each of {} checkpoints", cks.len());
}

#[test]
fn grundy_cn_resumes_from_every_diagonal() {
    let game = CircularNim::new(5, 2).unwrap();
    let d = cn_box(5, 6);
    let want = grundy_values(&game, &d, Hooks::default()).unwrap();
    let windows = nimlab_core::game::cyclic_windows(5, 2);
    check_grundy("CN(5,2)", &want, &|res| {
        grundy::solve_resumable(5, 7, &windows, Hooks::default(), res)
    });
}

#[test]
fn grundy_scn_resumes_from_every_diagonal() {
    let game = ShrinkingCircularNim::new(4, 2).unwrap();
    let d = scn_box(4, 6);
    let want = grundy_values(&game, &d, Hooks::default()).unwrap();
    check_grundy("SCN(4,2)", &want, &|res| {
        grundy::solve_shrinking_resumable(4, 2, 6, Hooks::default(), res)
    });
}

/// Ctrl-C: the sweep writes a checkpoint of its last finished diagonal before it stops, and resuming
/// from it finishes the table.
#[test]
fn cancel_saves_then_resumes() {
    let game = CircularNim::new(5, 3).unwrap();
    let d = cn_box(5, 9);
    let want = plain(&game, &d, Play::Normal);
    let stop = AtomicBool::new(false);
    let seen = AtomicU64::new(0);
    // Cancel once a third of the box is done.
    let progress = |done: u64, total: u64| {
        seen.store(done, Ordering::Relaxed);
        if done * 3 >= total {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let hooks = Hooks::new(Some(&stop), Some(&progress));
    let mut saver = OnlyOnCancel(Memory::default());
    let mut listed = Vec::new();
    let r = pset::tabulate_resumable(
        &game,
        &d,
        Play::Normal,
        hooks,
        &mut |p| listed.push(p.to_vec()),
        Resume {
            saver: Some(&mut saver),
            from: None,
        },
    );
    assert_eq!(r.unwrap_err(), Stop::Interrupted);
    assert_eq!(saver.0.saved.len(), 1, "one checkpoint, written on cancel");
    let (p, bytes) = &saver.0.saved[0];
    assert_eq!(p.done, seen.load(Ordering::Relaxed));
    let mut rd: &[u8] = bytes;
    let s = pset::tabulate_resumable(
        &game,
        &d,
        Play::Normal,
        Hooks::default(),
        &mut |p| listed.push(p.to_vec()),
        Resume {
            saver: None,
            from: Some(&mut rd),
        },
    )
    .unwrap();
    assert_eq!((s.count, s.canonical_count, s.by_length, listed), want);
}

/// A checkpoint of another box is refused, not used.
#[test]
fn checkpoint_of_another_box_is_refused() {
    let game = CircularNim::new(5, 3).unwrap();
    let (_, cks) = pass(&game, &cn_box(5, 7), Play::Normal);
    let mut rd: &[u8] = &cks[2].1;
    let r = pset::tabulate_resumable(
        &game,
        &cn_box(5, 8),
        Play::Normal,
        Hooks::default(),
        &mut |_| {},
        Resume {
            saver: None,
            from: Some(&mut rd),
        },
    );
    assert!(matches!(r, Err(Stop::Damaged(_))), "{r:?}");
}

/// Ctrl-C in the Grundy engine (SCN: the last circle length): a checkpoint of the last finished
/// diagonal is written on the way out, and resuming from it gives every value of the plain search.
#[test]
fn grundy_cancel_saves_then_resumes() {
    let game = ShrinkingCircularNim::new(4, 2).unwrap();
    let want = grundy_values(&game, &scn_box(4, 8), Hooks::default()).unwrap();
    let stop = AtomicBool::new(false);
    let progress = |done: u64, total: u64| {
        if done * 2 >= total {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let mut saver = OnlyOnCancel(Memory::default());
    let r = grundy::solve_shrinking_resumable(
        4,
        2,
        8,
        Hooks::new(Some(&stop), Some(&progress)),
        Resume {
            saver: Some(&mut saver),
            from: None,
        },
    );
    assert_eq!(r.unwrap_err(), Stop::Interrupted);
    assert_eq!(saver.0.saved.len(), 1);
    let (p, bytes) = &saver.0.saved[0];
    assert!(p.stage.starts_with("length 4 of 4"), "{}", p.stage);
    let mut rd: &[u8] = bytes;
    let got = grundy::solve_shrinking_resumable(
        4,
        2,
        8,
        Hooks::default(),
        Resume {
            saver: None,
            from: Some(&mut rd),
        },
    )
    .unwrap();
    assert_eq!(got, want);
}
