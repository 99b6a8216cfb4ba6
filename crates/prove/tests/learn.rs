//! Automata learned from tables (`nimlab_prove::learn`) and automata given in Walnut's format
//! (`nimlab_prove::walnut`), proved by the automata prover (`prove_members`). The training tables come
//! from the tables engine; every learned automaton is compared with a plain exhaustive search written
//! here (or with the registry's proved result) on a box larger than the one it was learned from, and
//! proved for every size; an automaton learned from a box too small is never reported proved.

use nimlab_core::{Game, Play};
use nimlab_prove::automata::Dfa;
use nimlab_prove::learn::{self, disagreement, learn_table, LearnOptions, Outcome, Table};
use nimlab_prove::walnut::{from_walnut, to_walnut};
use nimlab_prove::{from_theorem, prove_members, Condition, Ruleset, Status};
use nimlab_tables::lines::{self, LineSpec, NoOracle};
use nimlab_tables::pset::{engine_windows, rules_for, Rules};
use std::ops::ControlFlow;
use std::time::Duration;

/// The P-bits of the box `[0, 2^bits)^m` from the tables engine.
fn engine(game: &dyn Game, play: Play, bits: u32) -> Table {
    let r = 1usize << bits;
    let domain = game.table_domain(r as u64 - 1, None).unwrap();
    let Some(Rules::Windows { m, windows }) = rules_for(game, &domain) else {
        panic!("the engine covers {}", game.id());
    };
    let spec = LineSpec {
        radix: None,
        m,
        r,
        windows: engine_windows(m, &windows),
        origin_n: play == Play::Misere,
    };
    // Every P-line (the first m-1 stacks as a line index, the last one as the bit) marked directly.
    let mut t = Table::new(m, bits).unwrap();
    let mut x = vec![0u64; m];
    lines::solve(&spec, &NoOracle, Default::default(), &mut |_, ls| {
        for (line, bit) in ls {
            let mut v = line;
            for i in (0..m - 1).rev() {
                x[i] = v % r as u64;
                v /= r as u64;
            }
            x[m - 1] = bit as u64;
            t.mark(&x);
        }
    })
    .unwrap();
    t
}

/// The P-set of the box `[0, hi]^m` by plain search: positions in lexicographic order (every option
/// lowers some stack, so it comes earlier), P exactly when no option is P.
fn brute(game: &dyn Game, m: usize, hi: u64) -> impl Fn(&[u64]) -> bool {
    let side = hi + 1;
    let n = side.pow(m as u32) as usize;
    let index = move |p: &[u64]| p.iter().fold(0u64, |a, &x| a * side + x) as usize;
    let mut p_set = vec![false; n];
    let mut x = vec![0u64; m];
    for k in 0..n {
        let mut v = k as u64;
        for i in (0..m).rev() {
            x[i] = v % side;
            v /= side;
        }
        let mut has_p = false;
        game.for_each_option(&x, &mut |o| {
            if p_set[index(o)] {
                has_p = true;
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        p_set[k] = !has_p;
    }
    move |p: &[u64]| p_set[index(p)]
}

/// Every tuple of `[0, hi]^m`.
fn boxed(m: usize, hi: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..m {
        out = out
            .into_iter()
            .flat_map(|v: Vec<u64>| {
                (0..=hi).map(move |x| {
                    let mut v = v.clone();
                    v.push(x);
                    v
                })
            })
            .collect();
    }
    out
}

fn accepts(d: &Dfa, p: &[u64]) -> bool {
    d.accepts(&p.iter().map(|&x| x as u128).collect::<Vec<_>>())
}

/// Learns `game` from engine tables; returns the stable automaton and the box it was learned from.
fn learned(game: &str, max_bits: u32) -> (Ruleset, Dfa, u32) {
    let rules = Ruleset::parse(game).unwrap();
    let g = rules.game();
    let m = rules.n;
    let opts = LearnOptions {
        min_bits: 1,
        max_bits,
        check_bits: Some(max_bits + 1),
        max_states: 100_000,
        deadline: None,
    };
    let mut rounds = Vec::new();
    let out = learn::learn(
        m,
        &mut |bits| Ok(engine(g.as_ref(), Play::Normal, bits)),
        &opts,
        &mut |r| rounds.push(r.clone()),
    )
    .unwrap();
    eprintln!("{game}: {rounds:?}");
    match out {
        Outcome::Stable { dfa, bits, .. } => (rules, dfa, bits),
        other => panic!("{game}: {other:?}"),
    }
}

fn prove(rules: &Ruleset, d: &Dfa) -> nimlab_prove::Report {
    prove_members(rules, d, Play::Normal, Duration::from_secs(120)).unwrap()
}

/// Learns, checks against plain search on a larger box than the training one, proves.
fn learn_check_prove(game: &str, max_bits: u32, hi: u64) -> Dfa {
    let (rules, d, bits) = learned(game, max_bits);
    assert!(
        hi >= 1 << bits,
        "the check box must be larger than the training box"
    );
    let g = rules.game();
    let is_p = brute(g.as_ref(), rules.n, hi);
    let mut p = 0;
    for x in boxed(rules.n, hi) {
        assert_eq!(accepts(&d, &x), is_p(&x), "{game}: {x:?}");
        p += is_p(&x) as usize;
    }
    assert!(p > 10, "{game}: only {p} P-positions in the box");
    let r = prove(&rules, &d);
    assert_eq!(r.verdict, Status::Proved, "{game}: {:?}", r.conditions);
    d
}

#[test]
fn nim_on_three_heaps_is_learned_and_proved() {
    let d = learn_check_prove("CN(3,1)", 5, 40);
    // Bouton: accepting state and dead state.
    assert_eq!(d.states(), 2);
}

#[test]
fn moores_nim_2_on_four_heaps_is_learned_and_proved() {
    // Moore's Nim_2 on 4 heaps is the complex of every pair of stacks.
    let d = learn_check_prove("simplicial({1,2},{1,3},{1,4},{2,3},{2,4},{3,4})", 4, 11);
    assert_eq!(d.states(), 2);
}

#[test]
fn cn_6_4_is_learned_from_16_and_equals_the_theorem() {
    let rules = Ruleset::parse("CN(6,4)").unwrap();
    let g = rules.game();
    let t4 = engine(g.as_ref(), Play::Normal, 4);
    let l = learn_table(&t4, 10_000).unwrap();
    // Independent: the registry's theorem compiled to an automaton by the prover accepts the same
    // words (every size), and plain search agrees on a box.
    let c = from_theorem("cn-6-4", rules.clone()).unwrap();
    let budget = nimlab_prove::automata::Budget {
        deadline: std::time::Instant::now() + Duration::from_secs(60),
        max_states: 1 << 20,
        cancel: None,
        interrupt: None,
    };
    let thm = nimlab_prove::automata::members(&c, 6, &budget).unwrap();
    assert_eq!(l.dfa.differs_from(&thm), None);
    let is_p = brute(g.as_ref(), 6, 5);
    for x in boxed(6, 5) {
        assert_eq!(accepts(&l.dfa, &x), is_p(&x), "{x:?}");
    }
    assert_eq!(prove(&rules, &l.dfa).verdict, Status::Proved);
    // Through Walnut's format and back: the same automaton, still proved.
    let back = from_walnut(&to_walnut(&l.dfa), 6).unwrap();
    assert_eq!(back.differs_from(&l.dfa), None);
    // The doubling loop up to 2^4 does not call it stable: the automata of 2^3 and 2^4 differ.
    let out = learn::learn(
        6,
        &mut |bits| Ok(engine(g.as_ref(), Play::Normal, bits)),
        &LearnOptions {
            min_bits: 1,
            max_bits: 4,
            check_bits: None,
            max_states: 10_000,
            deadline: None,
        },
        &mut |_| {},
    )
    .unwrap();
    assert!(matches!(out, Outcome::Unstable { .. }), "{out:?}");
}

#[test]
fn a_box_too_small_is_never_proved() {
    let rules = Ruleset::parse("CN(6,4)").unwrap();
    let g = rules.game();
    let t4 = engine(g.as_ref(), Play::Normal, 4);
    for bits in [2, 3] {
        let l = learn_table(&engine(g.as_ref(), Play::Normal, bits), 10_000).unwrap();
        // It reproduces its own box, not the larger one ...
        assert_eq!(
            disagreement(&l.dfa, &engine(g.as_ref(), Play::Normal, bits)),
            None
        );
        let at = disagreement(&l.dfa, &t4).expect("differs on the larger box");
        assert_ne!(accepts(&l.dfa, &at), t4.is_p(&at));
        // ... and the prover refutes it with a re-checked counterexample.
        let r = prove(&rules, &l.dfa);
        assert_eq!(r.verdict, Status::Refuted, "bits {bits}");
        assert!(r
            .conditions
            .iter()
            .any(|c| c.status == Status::Refuted && c.counterexample.is_some()));
    }
    // Nim learned from a single digit: the box is too small to learn from at all.
    let nim = Ruleset::parse("CN(3,1)").unwrap();
    assert!(learn_table(&engine(nim.game().as_ref(), Play::Normal, 1), 100).is_err());
}

#[test]
fn misere_nim_is_learned_and_proved_under_misere_play_only() {
    let nim = Ruleset::parse("CN(3,1)").unwrap();
    let g = nim.game();
    let out = learn::learn(
        3,
        &mut |bits| Ok(engine(g.as_ref(), Play::Misere, bits)),
        &LearnOptions {
            min_bits: 1,
            max_bits: 5,
            check_bits: Some(6),
            max_states: 1000,
            deadline: None,
        },
        &mut |_| {},
    )
    .unwrap();
    let Outcome::Stable { dfa, .. } = out else {
        panic!("{out:?}");
    };
    // Bouton's misère rule, written out here: heaps all at most 1, an odd number of ones; else xor 0.
    for x in boxed(3, 40) {
        let small = x.iter().all(|&a| a <= 1);
        let want = if small {
            x.iter().sum::<u64>() % 2 == 1
        } else {
            x[0] ^ x[1] ^ x[2] == 0
        };
        assert_eq!(accepts(&dfa, &x), want, "{x:?}");
    }
    let r = prove_members(&nim, &dfa, Play::Misere, Duration::from_secs(60)).unwrap();
    assert_eq!(r.verdict, Status::Proved);
    // Under normal play, (0,0,0) is terminal and outside the set: (III) fails.
    let r = prove(&nim, &dfa);
    assert_eq!(r.verdict, Status::Refuted);
    assert_eq!(r.conditions[2].status, Status::Refuted);
}

#[test]
fn tables_are_built_four_ways_alike() {
    let g = Ruleset::parse("CN(4,2)").unwrap().game();
    let from_engine = engine(g.as_ref(), Play::Normal, 2);
    let is_p = brute(g.as_ref(), 4, 3);
    let bits: Vec<bool> = boxed(4, 3).iter().map(|x| is_p(x)).collect();
    let lex = Table::from_lex(4, 2, &bits).unwrap();
    let by_fn = Table::from_fn(4, 2, &is_p).unwrap();
    let mut marked = Table::new(4, 2).unwrap();
    for x in boxed(4, 3) {
        if is_p(&x) {
            assert!(marked.mark(&x));
        }
        assert_eq!(lex.is_p(&x), is_p(&x), "{x:?}");
        assert_eq!(from_engine.is_p(&x), is_p(&x), "{x:?}");
        assert_eq!(by_fn.is_p(&x), is_p(&x), "{x:?}");
        assert_eq!(marked.is_p(&x), is_p(&x), "{x:?}");
    }
    assert!(!marked.mark(&[4, 0, 0, 0]) && !marked.mark(&[0, 0, 0]));
    assert!(Table::new(9, 4).is_err() && Table::from_lex(2, 2, &[true; 15]).is_err());
}

const NIM3: &str = "msd_2 msd_2 msd_2\n# a xor b xor c = 0: every column has an even number of ones\n0 1\n0 0 0 -> 0\n0 1 1 -> 0\n1 0 1 -> 0\n1 1 0 -> 0\n";

#[test]
fn walnut_files_are_proved_or_refuted() {
    let nim = Ruleset::parse("CN(3,1)").unwrap();
    let d = from_walnut(NIM3, 3).unwrap();
    assert_eq!(prove(&nim, &d).verdict, Status::Proved);
    let game = nim.game();
    // Too large: (1,1,1) is also accepted, and moves to (1,1,0).
    let more = NIM3.replace("1 1 0 -> 0\n", "1 1 0 -> 0\n1 1 1 -> 0\n");
    let r = prove(&nim, &from_walnut(&more, 3).unwrap());
    assert_eq!(r.verdict, Status::Refuted);
    let one = &r.conditions[0];
    assert_eq!(one.condition, Condition::I);
    let cx = one.counterexample.as_ref().expect("a counterexample");
    let to = cx.move_to.as_ref().expect("a move");
    let mut legal = false;
    game.for_each_option(&cx.position, &mut |o| {
        legal |= o == to.as_slice();
        ControlFlow::Continue(())
    })
    .unwrap();
    assert!(legal);
    for p in [&cx.position, to] {
        assert!(accepts(&from_walnut(&more, 3).unwrap(), p));
    }
    // Too small: a column 1 1 0 is missing, so (1,1,0) has no move into the set.
    let less = NIM3.replace("1 1 0 -> 0\n", "");
    let r = prove(&nim, &from_walnut(&less, 3).unwrap());
    assert_eq!(r.verdict, Status::Refuted);
    let two = &r.conditions[1];
    assert_eq!(two.condition, Condition::II);
    let x = &two.counterexample.as_ref().unwrap().position;
    let is_p = brute(game.as_ref(), 3, 7);
    assert!(!accepts(&from_walnut(&less, 3).unwrap(), x) && is_p(x));
    // Leading zeros change the answer: refused in one line.
    let lead = "msd_2 msd_2 msd_2\n0 0\n0 0 0 -> 1\n1 1\n0 0 0 -> 1\n";
    let e = prove_members(
        &nim,
        &from_walnut(lead, 3).unwrap(),
        Play::Normal,
        Duration::from_secs(10),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("leading zero"), "{e}");
    // The wrong number of inputs.
    let e = prove_members(
        &Ruleset::parse("CN(4,1)").unwrap(),
        &d,
        Play::Normal,
        Duration::from_secs(10),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("3 inputs"), "{e}");
}

/// `pset::every_p_position` (the library's way to get every P-position of a box, which discover
/// learns from) marks the same table as the engine's lines read here, in both plays.
#[test]
fn every_p_position_marks_the_engine_table() {
    for (game, play, bits) in [
        ("CN(6,4)", Play::Normal, 3),
        ("CN(5,2)", Play::Normal, 3),
        ("CN(3,1)", Play::Misere, 4),
    ] {
        let g = Ruleset::parse(game).unwrap().game();
        let m = Ruleset::parse(game).unwrap().n;
        let want = engine(g.as_ref(), play, bits);
        let mut got = Table::new(m, bits).unwrap();
        let mut count = 0usize;
        nimlab_tables::pset::every_p_position(
            g.as_ref(),
            (1 << bits) - 1,
            play,
            Default::default(),
            &mut |x| {
                got.mark(x);
                count += 1;
            },
        )
        .unwrap()
        .unwrap();
        assert!(count > 0);
        for x in boxed(m, (1 << bits) - 1) {
            assert_eq!(got.is_p(&x), want.is_p(&x), "{game} {play:?} {x:?}");
        }
    }
    // SCN is not a window game of one length: refused.
    let scn = Ruleset::parse("SCN(4,2)").unwrap().game();
    assert!(nimlab_tables::pset::every_p_position(
        scn.as_ref(),
        7,
        Play::Normal,
        Default::default(),
        &mut |_| {}
    )
    .is_none());
}
