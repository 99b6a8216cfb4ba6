//! `/api/prove` over a real socket: a pasted automaton or families file proved through the prover's
//! one request, the server's limits, and refusals that name the API's parameters.

use super::*;

#[test]
fn prove_takes_a_pasted_automaton_or_families_file() {
    // Bouton's P-set of Nim on three heaps as an automaton: every binary column of even parity. The
    // prover's own automata decide it (no solver needed).
    let nim3 = include_str!("../../../../examples/automata/nim-3.txt");
    let v = ok("/api/prove", &[("game", "CN(3,1)"), ("automaton", nim3)]);
    assert_eq!(v["verdict"], "proved", "{v}");
    assert_eq!(v["method"], "automata", "{v}");
    // In misère play the terminal position (0,0,0) is in the set: refuted, and the counterexample is
    // that position, re-checked.
    let v = ok(
        "/api/prove",
        &[("game", "CN(3,1)"), ("automaton", nim3), ("misere", "1")],
    );
    assert_eq!(v["verdict"], "refuted", "{v}");
    let iii = v["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["condition"] == "III")
        .unwrap();
    assert_eq!(
        iii["counterexample"]["position"],
        serde_json::json!([0, 0, 0]),
        "{v}"
    );
    // Bouton's misère rule for three heaps, as a families file, by automata (xor).
    let misere = include_str!("../../../../examples/nim-misere-3.toml");
    let v = ok(
        "/api/prove",
        &[
            ("game", "CN(3,1)"),
            ("families", misere),
            ("misere", "1"),
            ("automata", "1"),
        ],
    );
    assert_eq!(v["verdict"], "proved", "{v}");
    fails("/api/prove", &[("game", "CN(3,1)")], 400, "bad_request");
    let big = "x".repeat(40 * 1024);
    let e = fails(
        "/api/prove",
        &[("game", "CN(3,1)"), ("automaton", &big)],
        400,
        "bad_request",
    );
    assert!(e.contains("at most"), "{e}");
    // A refusal names the API's parameters, not the command line's flags.
    let e = fails(
        "/api/prove",
        &[("game", "nim"), ("automaton", nim3)],
        400,
        "bad_request",
    );
    assert!(e.contains("heaps=N") && !e.contains("--"), "{e}");
}
