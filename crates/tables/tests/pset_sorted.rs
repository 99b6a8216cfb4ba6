//! P-sets computed on the sorted tuples (games every permutation of the heaps keeps: Nim, Moore's
//! Nim_k) against the line engine over every block and against Moore's theorem; their checkpoints,
//! the refusal of the line engine's, and an interrupted run that resumes. (tests/pset_vs_naive.rs
//! compares the same sweep with the plain search and a P-scan on boxes of 10^5 positions.)
//!
//! Moore's theorem (Moore, "A generalization of the game called Nim", Annals of Math. 1910): in
//! normal play a position of Moore's Nim_k is P exactly when, for every bit, the number of heaps with
//! that bit set is a multiple of k + 1.

use nimlab_core::{BoxDomain, Game, Play};
use nimlab_games::{MooreNim, Nim};
use nimlab_tables::checkpoint::{Memory, OnlyOnCancel};
use nimlab_tables::lines::{self, Hooks, Resume, Stop};
use nimlab_tables::pset::{self, Summary};
use std::sync::atomic::{AtomicBool, Ordering};

type Answer = (Summary, Vec<Vec<u64>>);

fn run(game: &dyn Game, d: &BoxDomain, play: Play, resume: Resume) -> Result<Answer, Stop> {
    let mut got = Vec::new();
    let s = pset::tabulate_resumable(
        game,
        d,
        play,
        Hooks::default(),
        &mut |p| got.push(p.to_vec()),
        resume,
    )?;
    Ok((s, got))
}

fn plain_run(game: &dyn Game, d: &BoxDomain, play: Play) -> Answer {
    run(game, d, play, Resume::default()).unwrap()
}

fn same(got: &Answer, want: &Answer, what: &str) {
    assert_eq!(got.0.count, want.0.count, "{what}: count");
    assert_eq!(got.0.by_length, want.0.by_length, "{what}: by length");
    assert_eq!(got.1, want.1, "{what}: canonical positions");
}

/// One test: the symmetry switch is global to the process.
#[test]
fn sorted_p_sets_equal_the_line_engine_and_moores_theorem() {
    // On a box of 3 heaps the line engine costs less: the sorted sweep only when asked.
    let d = Nim.table_domain(80, Some(3)).unwrap();
    assert!(!pset::is_sorted(&Nim, &d));
    let d = Nim.table_domain(31, Some(6)).unwrap();
    assert!(pset::is_sorted(&Nim, &d));
    pset::always_sorted(true);
    let cases: Vec<(Box<dyn Game>, usize, u64)> = vec![
        (Box::new(Nim), 3, 80),
        (Box::new(Nim), 4, 20),
        (Box::new(MooreNim::new(2).unwrap()), 4, 20),
        (Box::new(MooreNim::new(2).unwrap()), 5, 9),
        (Box::new(MooreNim::new(3).unwrap()), 5, 9),
        (Box::new(MooreNim::new(4).unwrap()), 6, 5),
    ];
    for (game, heaps, hi) in &cases {
        let d = game.table_domain(*hi, Some(*heaps)).unwrap();
        assert!(
            pset::is_sorted(game.as_ref(), &d),
            "{} {heaps} heaps",
            game.id()
        );
        for play in [Play::Normal, Play::Misere] {
            let what = format!("{} {heaps} heaps <= {hi} {play}", game.id());
            let sorted = plain_run(game.as_ref(), &d, play);
            lines::use_symmetry(false);
            assert!(!pset::is_sorted(game.as_ref(), &d));
            let lines_run = plain_run(game.as_ref(), &d, play);
            lines::use_symmetry(true);
            same(&sorted, &lines_run, &what);
            assert!(sorted.0.count > 0, "{what}");
        }
    }
    // Moore's theorem on a box of 6 heaps in [0..15] (16.7 million positions), every position.
    let (k, heaps, hi) = (2u64, 6usize, 15u64);
    let game = MooreNim::new(k as usize).unwrap();
    let d = game.table_domain(hi, Some(heaps)).unwrap();
    let got = plain_run(&game, &d, Play::Normal);
    let r = hi + 1;
    let mut count = 0u64;
    let mut canon = Vec::new();
    for idx in 0..r.pow(heaps as u32) {
        let p: Vec<u64> = (0..heaps)
            .map(|i| idx / r.pow((heaps - 1 - i) as u32) % r)
            .collect();
        let p_pos = (0..4)
            .all(|b| (p.iter().filter(|&&x| x >> b & 1 == 1).count() as u64).is_multiple_of(k + 1));
        if p_pos {
            count += 1;
            if p.windows(2).all(|w| w[0] <= w[1]) {
                canon.push(p);
            }
        }
    }
    assert_eq!(got.0.count, count, "Moore's theorem: count");
    assert_eq!(got.1, canon, "Moore's theorem: canonical positions");
    assert_eq!(got.0.canonical_count, canon.len() as u64);
    eprintln!(
        "moore(2) 6 heaps <= 15: {count} P-positions, {} sorted",
        canon.len()
    );
    checkpoints();
    interrupted();
    pset::always_sorted(false);
}

/// A run resumes from each of its checkpoints (one after each tier), and the sorted sweep and the
/// line engine refuse each other's checkpoints in one line.
fn checkpoints() {
    let game = MooreNim::new(2).unwrap();
    let d = game.table_domain(7, Some(4)).unwrap();
    for play in [Play::Normal, Play::Misere] {
        let want = plain_run(&game, &d, play);
        let mut taken = Vec::new();
        for on in [true, false] {
            lines::use_symmetry(on);
            let mut mem = Memory::default();
            let got = run(
                &game,
                &d,
                play,
                Resume {
                    saver: Some(&mut mem),
                    from: None,
                },
            )
            .unwrap();
            same(&got, &want, "a run that saves");
            taken.push(mem.saved);
        }
        lines::use_symmetry(true);
        let sorted = &taken[0];
        assert_eq!(sorted.len(), 4 * 7, "one checkpoint a tier but the last");
        for (p, bytes) in sorted {
            assert!(p.stage.contains("sorted positions"), "{}", p.stage);
            let mut rd: &[u8] = bytes;
            let got = run(
                &game,
                &d,
                play,
                Resume {
                    saver: None,
                    from: Some(&mut rd),
                },
            )
            .unwrap();
            assert!(rd.is_empty(), "{}: the whole checkpoint read", p.stage);
            same(&got, &want, &p.stage);
        }
        for (on, foreign) in [(true, &taken[1][1].1), (false, &sorted[3].1)] {
            lines::use_symmetry(on);
            let mut rd: &[u8] = foreign;
            match run(
                &game,
                &d,
                play,
                Resume {
                    saver: None,
                    from: Some(&mut rd),
                },
            ) {
                Err(Stop::Damaged(why)) => assert!(!why.contains('\n'), "one line: {why}"),
                Err(other) => panic!("symmetry {on}: a foreign checkpoint gave {other:?}"),
                Ok(_) => panic!("symmetry {on}: a foreign checkpoint was taken"),
            }
        }
        lines::use_symmetry(true);
    }
    // The other play's checkpoint.
    let mut mem = Memory::default();
    run(
        &game,
        &d,
        Play::Normal,
        Resume {
            saver: Some(&mut mem),
            from: None,
        },
    )
    .unwrap();
    let mut rd: &[u8] = &mem.saved[4].1;
    assert!(matches!(
        run(
            &game,
            &d,
            Play::Misere,
            Resume {
                saver: None,
                from: Some(&mut rd)
            }
        ),
        Err(Stop::Damaged(_))
    ));
}

/// Cancelled half-way, the run saves its last tier and stops; resumed, it gives the same P-set.
fn interrupted() {
    let game = MooreNim::new(2).unwrap();
    let d = game.table_domain(11, Some(5)).unwrap();
    let want = plain_run(&game, &d, Play::Misere);
    let stop = AtomicBool::new(false);
    let progress = |done: u64, total: u64| {
        if done * 2 >= total {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let mut saver = OnlyOnCancel(Memory::default());
    let mut sink = |_: &[u64]| panic!("nothing is listed before the run ends");
    let res = pset::tabulate_resumable(
        &game,
        &d,
        Play::Misere,
        Hooks::new(Some(&stop), Some(&progress)),
        &mut sink,
        Resume {
            saver: Some(&mut saver),
            from: None,
        },
    );
    assert_eq!(res.unwrap_err(), Stop::Interrupted);
    assert_eq!(saver.0.saved.len(), 1);
    let mut rd: &[u8] = &saver.0.saved[0].1;
    let got = run(
        &game,
        &d,
        Play::Misere,
        Resume {
            saver: None,
            from: Some(&mut rd),
        },
    )
    .unwrap();
    same(&got, &want, "resumed after an interruption");
}
