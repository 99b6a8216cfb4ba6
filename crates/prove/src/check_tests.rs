//! The guard ([`crate::check`]) catches a report that says "proved" wrongly: the reports here
//! are made up, as a prover with an encoding error would give them.

use crate::check::guard;
use crate::claimed::OnRuleset;
use crate::conjecture::Conjecture;
use crate::encode::Condition;
use crate::report::{proved, BoxCheck, Claim, Counterexample, Report, Status};

/// A families file for `game`: one family per (length, relations).
fn file(game: &str, families: &[(usize, &[&str])]) -> String {
    let mut s = format!("game = \"{game}\"\n");
    for (i, (len, rels)) in families.iter().enumerate() {
        let rels: Vec<String> = rels.iter().map(|r| format!("\"{r}\"")).collect();
        s += &format!(
            "[[family]]\nname = \"f{i}\"\nlength = {len}\nrelations = [{}]\n",
            rels.join(", ")
        );
    }
    s
}

/// A report that says "proved" for `text`, as a prover with an encoding error would give.
fn said_proved(text: &str, claim: Claim) -> (Conjecture, Report) {
    let c = crate::from_toml(text, "test").unwrap();
    let r = Report {
        game: c.game.id(),
        source: "test".into(),
        bits: None,
        verdict: Status::Proved,
        seconds: 0.0,
        conditions: vec![proved(Condition::I, 0.0)],
        method: "smt",
        play: c.play,
        claim,
        box_check: None,
        solvers: Vec::new(),
    };
    (c, r)
}

#[test]
fn a_false_proof_is_caught_by_the_box() {
    // Nim on two heaps (CN(2,1)): the P-positions are a = b (Bouton). "a <= b" holds (0,1),
    // an N-position that moves to (0,0): the first member in the box's order that is wrong.
    let le = file("CN(2,1)", &[(2, &["a <= b"])]);
    let (c, r) = said_proved(&le, Claim::PSet);
    let g = guarded(&c, r);
    assert_eq!(g.verdict, Status::Refuted);
    let last = g.conditions.last().unwrap();
    assert_eq!(last.condition, Condition::Search);
    assert_eq!(
        last.counterexample,
        Some(Counterexample {
            position: vec![0, 1],
            move_to: Some(vec![0, 0]),
        })
    );
    assert!(last.reason.as_deref().unwrap().contains("said proved"));
    // "a = b, a <= 3" lies inside the P-set (a subset claim passes, with its box recorded) but
    // is not all of it: (4,4) is a P-position outside it.
    let small = file("CN(2,1)", &[(2, &["a = b", "a <= 3"])]);
    let (c, r) = said_proved(&small, Claim::Subset);
    let g = guarded(&c, r);
    assert_eq!(g.verdict, Status::Proved);
    // The largest box of at most 20000 positions: [0..140]^2 (141^2 = 19881).
    assert_eq!(
        g.box_check,
        Some(BoxCheck {
            lo: 0,
            hi: 140,
            max_sum: None,
            positions: 19881
        })
    );
    let (c, r) = said_proved(&small, Claim::PSet);
    let g = guarded(&c, r);
    assert_eq!(g.verdict, Status::Refuted);
    assert_eq!(
        g.conditions.last().unwrap().counterexample,
        Some(Counterexample {
            position: vec![4, 4],
            move_to: None,
        })
    );
}

#[test]
fn many_stacks_are_checked_on_a_bounded_sum() {
    // Nim on 12 heaps: [0..2]^12 has 531441 positions, so the check takes the positions whose
    // heaps sum to at most 6: C(18,12) = 18564 (sum 7: C(19,12) = 50388, too many).
    let zero: Vec<String> = "abcdefghijkl".chars().map(|v| format!("{v} = 0")).collect();
    let zero: Vec<&str> = zero.iter().map(String::as_str).collect();
    let text = file("CN(12,1)", &[(12, &zero)]);
    let (c, r) = said_proved(&text, Claim::Subset);
    let g = guarded(&c, r);
    assert_eq!(g.verdict, Status::Proved);
    assert_eq!(
        g.box_check,
        Some(BoxCheck {
            lo: 0,
            hi: 6,
            max_sum: Some(6),
            positions: 18564
        })
    );
    // "a = b" on 12 heaps holds (0,...,0,1), an N-position.
    let eq = file("CN(12,1)", &[(12, &["a = b"])]);
    let (c, r) = said_proved(&eq, Claim::Subset);
    let g = guarded(&c, r);
    assert_eq!(g.verdict, Status::Refuted);
    let mut want = vec![0u64; 12];
    want[11] = 1;
    assert_eq!(
        g.conditions
            .last()
            .unwrap()
            .counterexample
            .as_ref()
            .unwrap()
            .position,
        want
    );
}

#[test]
fn a_false_scn_subset_proof_is_caught_by_the_box() {
    // The set that the automata prover of SCN once called inside the P-set: (), every (a,a,a)
    // and (1,2,1), which moves to (1,1,1) (an N-position of SCN(3,2)).
    let text = file(
        "SCN(3,2)",
        &[
            (0, &[]),
            (3, &["a = b", "b = c"]),
            (3, &["a = 1", "b = 2", "c = 1"]),
        ],
    );
    let (c, r) = said_proved(&text, Claim::Subset);
    let g = guarded(&c, r);
    assert_eq!(g.verdict, Status::Refuted);
    let cx = g.conditions.last().unwrap().counterexample.clone().unwrap();
    // The file's reading takes every rotation and reflection: the box meets (1,1,2) first.
    assert_eq!(cx.position, vec![1, 1, 2]);
    assert!(cx.move_to.is_some());
}

/// The guard on a families file's report.
fn guarded(c: &Conjecture, r: Report) -> Report {
    let claim = r.claim;
    guard(&OnRuleset::of(c), claim.into(), r).unwrap()
}
