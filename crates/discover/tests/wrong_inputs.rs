//! Wrong inputs: one clear error, or an honest conjecture/none — never a false `proved`.

mod common;

use common::{have_z3, run};
use nimlab_discover::{discover, DiscoveryVerdict, Options};
use std::time::Duration;

#[test]
fn a_game_no_prover_handles_is_refused_in_one_line() {
    let e = discover("ET(2)", &Options::default())
        .unwrap_err()
        .to_string();
    // ET is a chip game that discover does not read through totals.
    assert!(e.contains("patterns") && !e.contains('\n'), "{e}");
    let e = discover("CN(4,", &Options::default())
        .unwrap_err()
        .to_string();
    assert!(!e.contains('\n'), "{e}");
}

#[test]
fn a_box_below_two_is_refused() {
    let o = Options {
        max: Some(1),
        ..Options::default()
    };
    let e = discover("CN(4,2)", &o).unwrap_err().to_string();
    assert!(e.contains("--max 1"), "{e}");
}

#[test]
fn a_missing_solver_is_one_line() {
    let o = Options {
        solver: "/nonexistent/z3".into(),
        ..Options::default()
    };
    let e = discover("CN(4,2)", &o).unwrap_err().to_string();
    assert!(e.contains("z3") && !e.contains('\n'), "{e}");
}

#[test]
fn a_box_too_small_is_an_honest_conjecture() {
    if !have_z3("a_box_too_small_is_an_honest_conjecture") {
        return;
    }
    // CN(7,4) from [0..3] only: the families fit the box, the proof fails beyond it.
    let d = run("CN(7,4)", Some(3));
    assert_eq!(d.verdict, DiscoveryVerdict::Conjecture, "{:?}", d.reason);
    assert_eq!(d.exit_code(), 1);
    assert_eq!(d.box_max, Some(3));
    let cx = d.counterexample.as_ref().expect("the refuting position");
    let top = cx["position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .max()
        .unwrap();
    assert!(top > 3, "{cx}");
}

#[test]
fn xor_games_are_never_proved_as_linear() {
    if !have_z3("xor_games_are_never_proved_as_linear") {
        return;
    }
    // Nim on 3 heaps (CN(3,1)): xor, not linear: no families file is ever proved; the automaton
    // route (boxes inside --max) proves its automaton.
    let d = run("CN(3,1)", Some(8));
    assert_eq!(d.verdict, DiscoveryVerdict::Proved, "{:?}", d.reason);
    assert_eq!(d.format, nimlab_prove::CharacterizationFormat::Automaton);
    assert!(d.toml.is_none() && d.families.is_empty());
    // CN(6,4): too many families for a linear description, and boxes up to [0..14] are too small for
    // its automaton to settle (it does from [0..15] to [0..31]).
    let d = run("CN(6,4)", Some(14));
    assert_eq!(d.verdict, DiscoveryVerdict::None, "{:?}", d.reason);
    assert!(d.reason.as_deref().unwrap().contains("automaton"));
}

#[test]
fn a_time_limit_gives_no_false_answer() {
    if !have_z3("a_time_limit_gives_no_false_answer") {
        return;
    }
    let o = Options {
        timeout: Duration::from_millis(1),
        ..Options::default()
    };
    let d = discover("CN(7,4)", &o).unwrap();
    assert_ne!(d.verdict, DiscoveryVerdict::Proved);
    assert!(d.exit_code() == 3 || d.exit_code() == 1, "{:?}", d);
}

#[test]
fn cancelling_stops_with_interrupted() {
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let o = Options {
        cancel: Some(cancel),
        ..Options::default()
    };
    match discover("CN(7,4)", &o) {
        Err(nimlab_core::Error::Interrupted) => {}
        // Without z3 the run stops before it starts, with the solver's one line.
        Err(e) if e.to_string().contains("z3") => {}
        other => panic!("{other:?}"),
    }
}
