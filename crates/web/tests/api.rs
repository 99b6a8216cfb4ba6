//! The JSON API of `nimlab serve`, over a real socket: every endpoint with good and bad input.

mod common;
#[path = "api/load.rs"]
mod load;
#[path = "api/prove.rs"]
mod prove;
#[path = "api/research.rs"]
mod research;
#[path = "api/sequence.rs"]
mod sequence;

use common::get_raw;
use serde_json::Value;

fn get(path: &str, params: &[(&str, &str)]) -> (u16, Value) {
    let (status, ctype, body) = get_raw(path, params);
    assert!(
        ctype.starts_with("application/json"),
        "{path} {params:?}: {ctype}: {body}"
    );
    (status, serde_json::from_str(&body).unwrap())
}

fn ok(path: &str, params: &[(&str, &str)]) -> Value {
    let (status, v) = get(path, params);
    assert_eq!(status, 200, "{path} {params:?}: {v}");
    v
}

fn fails(path: &str, params: &[(&str, &str)], status: u16, kind: &str) -> String {
    let (s, v) = get(path, params);
    assert_eq!(s, status, "{path} {params:?}: {v}");
    assert_eq!(v["kind"], kind, "{path} {params:?}: {v}");
    let e = v["error"].as_str().unwrap().to_string();
    assert!(!e.is_empty());
    e
}

const CN53: (&str, &str) = ("game", "CN(5,3)");

#[test]
fn page_and_assets() {
    let (s, t, body) = get_raw("/", &[]);
    assert_eq!(s, 200);
    assert!(t.starts_with("text/html"), "{t}");
    assert!(body.contains("<svg id=\"board\""), "{body}");
    let (s, t, body) = get_raw("/app.js", &[]);
    assert_eq!(s, 200);
    assert!(t.starts_with("text/javascript"), "{t}");
    assert!(body.contains("/api/"));
    let (s, t, _) = get_raw("/style.css", &[]);
    assert_eq!(s, 200);
    assert!(t.starts_with("text/css"), "{t}");
    fails("/nope", &[], 404, "not_found");
    fails("/api/nope", &[], 404, "not_found");
}

#[test]
fn games_and_game() {
    let v = ok("/api/games", &[]);
    assert!(v["games"].as_array().unwrap().len() >= 10);
    assert!(v["presets"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p == "CN(5,3)"));
    fails("/api/games", &[("x", "1")], 400, "bad_request");
    let v = ok("/api/game", &[CN53]);
    assert_eq!(v["game"], "CN(5,3)");
    assert_eq!(v["drawing"], "circle");
    assert_eq!(v["window"], 3);
    // How the game is tabulated, as the research view shows its fields.
    assert_eq!(v["table"], "box");
    for (g, t) in [
        ("nim", "heaps"),
        ("moore(2)", "heaps"),
        ("octal(0.33)", "heaps"),
        ("octal(0.07)", "none"),
        ("ER(4)", "max_sum"),
        ("ENTROPY(3)", "spread"),
    ] {
        assert_eq!(ok("/api/game", &[("game", g)])["table"], t, "{g}");
    }
    assert_eq!(
        ok("/api/game", &[("game", "scn(6,3)")])["drawing"],
        "shrinking"
    );
    assert_eq!(ok("/api/game", &[("game", "nim")])["drawing"], "heaps");
    assert_eq!(ok("/api/game", &[("game", "ET(3)")])["drawing"], "boxes");
    fails("/api/game", &[], 400, "bad_request");
    fails("/api/game", &[("game", "CN(3,5)")], 400, "bad_game");
    fails("/api/game", &[("game", "chess")], 400, "bad_game");
    fails("/api/game", &[("game", "/etc/x.rhai")], 400, "bad_game");
    fails("/api/game", &[("game", "nim[1]+nim[2]")], 400, "bad_game");
}

/// The step chords of `/api/game`'s graph, per step: how many.
fn chords_per_step(g: &Value) -> std::collections::BTreeMap<u64, usize> {
    let mut per = std::collections::BTreeMap::new();
    for e in g["edges"].as_array().unwrap() {
        *per.entry(e["step"].as_u64().unwrap()).or_insert(0) += 1;
    }
    per
}

#[test]
fn complexes_are_drawn_as_graphs() {
    // ECN(8,{1,2},3): 8 stacks; the facets are the 8 runs {i,i+1,i+2} and the 8 sets {i,i+2,i+4}
    // (all distinct: i and i+4 give different sets since 8 is not 3*2); chords {i,i+1} and {i,i+2},
    // 8 of each; no face shaded.
    let v = ok("/api/game", &[("game", "ECN(8,{1,2},3)")]);
    assert_eq!(v["drawing"], "graph");
    let g = &v["graph"];
    assert_eq!(g["kind"], "ecn");
    assert_eq!(g["vertices"].as_array().unwrap().len(), 8);
    assert_eq!(g["steps"], serde_json::json!([1, 2]));
    assert_eq!(chords_per_step(g), [(1, 8), (2, 8)].into_iter().collect());
    assert_eq!(g["facets"].as_array().unwrap().len(), 16);
    assert!(g["faces"].as_array().unwrap().is_empty());
    // Stack 1 at the top of the unit circle, stack 3 (a quarter turn on) at the right.
    assert_eq!(g["vertices"][0]["x"].as_f64(), Some(0.0));
    assert_eq!(g["vertices"][0]["y"].as_f64(), Some(-1.0));
    assert_eq!(g["vertices"][2]["x"].as_f64(), Some(1.0));
    // Every chord joins stacks a step apart around the circle.
    for e in g["edges"].as_array().unwrap() {
        let (a, b, s) = (
            e["a"].as_u64().unwrap(),
            e["b"].as_u64().unwrap(),
            e["step"].as_u64().unwrap(),
        );
        assert_eq!((a + s) % 8, b, "{e}");
    }
    // The step m/2 = 4 of ECN(8,{1,4},2): the chord {i, i+4} is the chord {i+4, i+8}: 4 of them.
    let g = &ok("/api/game", &[("game", "ECN(8,{1,4},2)")])["graph"];
    assert_eq!(chords_per_step(g), [(1, 8), (4, 4)].into_iter().collect());
    // k = 1: the facets are the single stacks; no chord.
    let g = &ok("/api/game", &[("game", "ECN(6,{1,3},1)")])["graph"];
    assert!(g["edges"].as_array().unwrap().is_empty());
    assert_eq!(g["facets"].as_array().unwrap().len(), 6);

    // A complex: facets {1,2,3,4} and {4,5,6} ({1,2} lies in the first and is dropped) and {6,7};
    // edges: the 6 pairs of the first, the 3 of the second, 1 of the third = 10; shaded faces: the
    // two facets of 3 or more stacks.
    let v = ok(
        "/api/game",
        &[("game", "simplicial({1,2,3,4},{1,2},{4,5,6},{6,7})")],
    );
    assert_eq!(v["drawing"], "graph");
    let g = &v["graph"];
    assert_eq!(g["kind"], "complex");
    assert_eq!(g["vertices"].as_array().unwrap().len(), 7);
    assert_eq!(g["edges"].as_array().unwrap().len(), 10);
    assert!(g["edges"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["step"].is_null()));
    assert_eq!(g["faces"], serde_json::json!([[0, 1, 2, 3], [3, 4, 5]]));
    assert_eq!(g["facets"].as_array().unwrap().len(), 3);
    // Games that are not complexes carry no graph.
    assert!(ok("/api/game", &[CN53])["graph"].is_null());
}

#[test]
fn random_positions_for_every_preset() {
    let presets = ok("/api/games", &[])["presets"].clone();
    for g in presets.as_array().unwrap() {
        let g = g.as_str().unwrap();
        let v = ok("/api/random", &[("game", g)]);
        let text = v["position"]["text"].as_str().unwrap().to_string();
        let o = ok("/api/outcome", &[("game", g), ("position", &text)]);
        assert_eq!(o["terminal"], false, "{g} {text}");
        assert!(o["remoteness"].is_u64(), "{g} {text}: {o}");
    }
    let a = ok("/api/random", &[CN53, ("seed", "42")]);
    let b = ok("/api/random", &[CN53, ("seed", "42")]);
    assert_eq!(a, b);
    fails("/api/random", &[CN53, ("seed", "-1")], 400, "bad_request");
    // Large circles start sparse, so that they can still be played.
    let v = ok("/api/random", &[("game", "CN(64,2)")]);
    assert_eq!(v["position"]["entries"].as_array().unwrap().len(), 64);
}

#[test]
fn outcome_and_explain() {
    let v = ok("/api/outcome", &[CN53, ("position", "1,2,3,4,5")]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["grundy"], 15);
    assert_eq!(v["remoteness"], 5);
    assert_eq!(v["play"], "normal");
    assert_eq!(v["position"]["entries"], serde_json::json!([1, 2, 3, 4, 5]));
    assert!(v["in_words"].as_str().unwrap().contains("wins"));
    // The explanation object is the analysis library's, as `nimlab explain --json` and Python give it.
    assert_eq!(v["explanation"]["method"], "cn-5-3", "{v}");
    assert_eq!(v["answer"]["explanation"], v["explanation"], "{v}");
    assert_eq!(v["answer"]["position"], serde_json::json!([1, 2, 3, 4, 5]));
    let v = ok("/api/outcome", &[CN53, ("position", "(1 2 0 2 1)")]);
    assert_eq!(v["outcome"], "P");
    let v = ok("/api/outcome", &[CN53, ("position", "0,0,0,0,0")]);
    assert_eq!(v["terminal"], true);
    assert!(v["in_words"].as_str().unwrap().contains("lost"));
    let v = ok(
        "/api/outcome",
        &[CN53, ("position", "0,0,0,0,0"), ("misere", "true")],
    );
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["play"], "misere");
    // Theory answers huge positions at once.
    let v = ok(
        "/api/outcome",
        &[("game", "nim"), ("position", "1000000000000000000,3,5")],
    );
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["method"], "bouton");
    assert_eq!(v["position"]["text"], "1000000000000000000,3,5");
    fails(
        "/api/outcome",
        &[
            ("game", "CN(9,5)"),
            ("position", "900,900,900,900,900,900,900,900,900"),
        ],
        422,
        "too_large",
    );
    fails("/api/outcome", &[CN53], 400, "bad_request");
    fails(
        "/api/outcome",
        &[CN53, ("position", "1,2,3")],
        400,
        "bad_position",
    );
    fails(
        "/api/outcome",
        &[CN53, ("position", "1,-2,3,4,5")],
        400,
        "bad_position",
    );
    fails(
        "/api/outcome",
        &[CN53, ("position", "a,b")],
        400,
        "bad_position",
    );
    fails(
        "/api/outcome",
        &[CN53, ("position", "1,2,3,4,5"), ("misere", "maybe")],
        400,
        "bad_request",
    );
    let long = "1,".repeat(3000);
    fails(
        "/api/outcome",
        &[("game", "nim"), ("position", &long)],
        400,
        "bad_position",
    );
    let many = vec!["1"; 65].join(",");
    fails(
        "/api/outcome",
        &[("game", "nim"), ("position", &many)],
        400,
        "bad_position",
    );

    let v = ok("/api/explain", &[CN53, ("position", "1,2,0,2,1")]);
    assert!(v["explanation"]["statement"].is_string(), "{v}");
    assert!(v["text"].as_str().unwrap().contains("source"), "{v}");
    let v = ok(
        "/api/explain",
        &[("game", "CN(6,2)"), ("position", "1,2,3,1,2,3")],
    );
    assert!(v["explanation"]["statement"].is_null(), "{v}");
    assert!(v["explanation"]["reason"].is_string(), "{v}");
    assert!(
        v["text"].as_str().unwrap().contains("no proven result"),
        "{v}"
    );
    fails("/api/explain", &[("game", "CN(6,2)")], 400, "bad_request");
}

#[test]
fn moves_and_hints() {
    let v = ok("/api/moves", &[CN53, ("position", "1,2,3,4,5")]);
    assert_eq!(v["winning_count"], 2);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, v["count"].as_u64().unwrap());
    assert!(moves.len() > 50);
    // A neutral order: sorted by position, so that nothing in it tells the winning moves (which the
    // page must not reveal with hints off).
    let entries: Vec<Vec<u64>> = moves
        .iter()
        .map(|m| serde_json::from_value(m["to"]["entries"].clone()).unwrap())
        .collect();
    assert!(entries.windows(2).all(|w| w[0] < w[1]), "{entries:?}");
    let winning: Vec<&Value> = moves.iter().filter(|m| m["winning"] == true).collect();
    assert_eq!(winning.len(), 2);
    assert!(winning.iter().all(|m| m["grundy"] == 0));
    assert_ne!(moves[0]["winning"], true, "{v}");
    let v = ok("/api/moves", &[CN53, ("position", "0,0,0,0,0")]);
    assert_eq!(v["count"], 0);
    let v = ok(
        "/api/moves",
        &[("game", "ET(3)"), ("position", "1^2 5"), ("misere", "1")],
    );
    assert!(v["count"].as_u64().unwrap() > 0);
    // Nim at any size: the winning moves alone (10^18 xor 3 xor 5 = 10^18 xor 6: lower the big heap
    // to 6).
    let v = ok(
        "/api/moves",
        &[("game", "nim"), ("position", "1000000000000000000,3,5")],
    );
    assert_eq!(v["moves"][0]["to"]["entries"], serde_json::json!([6, 3, 5]));
    // No proven result and too large to search: refused, with the reason.
    let e = fails(
        "/api/moves",
        &[("game", "CN(6,2)"), ("position", "100000,100000,3,4,5,6")],
        422,
        "too_large",
    );
    assert!(
        e.contains("no proven result or stored table decides it"),
        "{e}"
    );
    fails("/api/moves", &[("game", "nim")], 400, "bad_request");

    let v = ok("/api/hint", &[CN53, ("position", "1,2,3,4,5")]);
    assert_eq!(v["exists"], true);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 2);
    assert_eq!(v["complete"], true);
    // CN(7,4) (1,7,5,6,2,3,6): a complete result decides every option, so the hint lists every
    // winning move (two, as an exhaustive search of its options finds; `nimlab moves --all` lists them).
    let v = ok(
        "/api/hint",
        &[("game", "CN(7,4)"), ("position", "1,7,5,6,2,3,6")],
    );
    assert_eq!(v["exists"], true);
    assert_eq!(v["complete"], true, "{v}");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 2, "{v}");
    // With stacks of 10^12 the options cannot be listed. CN(7,4)'s theorem still lists every
    // winning move (each window's system has few solutions) ...
    let v = ok(
        "/api/hint",
        &[
            ("game", "CN(7,4)"),
            ("position", "1000000000000,1000000000007,5,6,2,3,6"),
        ],
    );
    assert_eq!(v["exists"], true);
    assert_eq!(v["complete"], true, "{v}");
    // ... CN(6,3)'s leaves a stack free over a range of about 10^11: the moves the theorem
    // constructs, marked as possibly partial.
    let v = ok(
        "/api/hint",
        &[
            ("game", "CN(6,3)"),
            (
                "position",
                "500000000000,200000000000,700000000000,300000000000,900000000000,400000000000",
            ),
        ],
    );
    assert_eq!(v["exists"], true);
    assert_eq!(v["complete"], false);
    assert_eq!(v["winning_moves_complete"], false);
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .contains("constructed by a proven result"),
        "{v}"
    );
    let v = ok("/api/hint", &[CN53, ("position", "1,2,0,2,1")]);
    assert_eq!(v["exists"], false);
    assert!(v["text"].as_str().unwrap().contains("no winning move"));
    let v = ok(
        "/api/hint",
        &[("game", "nim"), ("position", "1000000000000000000,3,5")],
    );
    assert_eq!(v["exists"], true);
    fails(
        "/api/hint",
        &[("game", "nim"), ("position", "x")],
        400,
        "bad_position",
    );
}

#[test]
fn player_moves_are_checked() {
    let v = ok(
        "/api/move",
        &[CN53, ("position", "1,2,3,4,5"), ("to", "1,2,0,2,1")],
    );
    assert_eq!(v["winning"], true);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["from"]["text"], "1,2,3,4,5");
    let v = ok(
        "/api/move",
        &[CN53, ("position", "1,2,3,4,5"), ("to", "0,2,3,4,5")],
    );
    assert_eq!(v["winning"], false);
    let e = fails(
        "/api/move",
        &[CN53, ("position", "1,2,3,4,5"), ("to", "0,2,0,4,0")],
        400,
        "illegal_move",
    );
    assert!(e.contains("window"), "{e}");
    fails(
        "/api/move",
        &[CN53, ("position", "1,2,3,4,5"), ("to", "1,2,3,4,5")],
        400,
        "illegal_move",
    );
    fails(
        "/api/move",
        &[CN53, ("position", "1,2,3,4,5"), ("to", "1,2,3,4,6")],
        400,
        "illegal_move",
    );
    fails(
        "/api/move",
        &[CN53, ("position", "1,2,3,4,5"), ("to", "1,2")],
        400,
        "illegal_move",
    );
    fails(
        "/api/move",
        &[CN53, ("position", "1,2,3,4,5")],
        400,
        "bad_request",
    );
    fails(
        "/api/move",
        &[CN53, ("position", "0,0,0,0,0"), ("to", "0,0,0,0,0")],
        400,
        "game_over",
    );
    // Shrinking Circular Nim: emptied piles may be sent as zeros and vanish.
    let v = ok(
        "/api/move",
        &[
            ("game", "SCN(6,3)"),
            ("position", "1,6,2,3,3,6"),
            ("to", "1,6,0,3,3,6"),
        ],
    );
    assert_eq!(v["position"]["text"], "1,6,3,3,6");
    // Chip games: the position after the move, in any order or in Ferguson's notation.
    let v = ok(
        "/api/move",
        &[("game", "ET(3)"), ("position", "1,2,5"), ("to", "3 2^2")],
    );
    assert_eq!(v["position"]["text"], "2,2,3");
    fails(
        "/api/move",
        &[("game", "ET(3)"), ("position", "1,2,5"), ("to", "1,1,6")],
        400,
        "illegal_move",
    );
    // Nim and Moore: one heap, at most k heaps.
    fails(
        "/api/move",
        &[("game", "nim"), ("position", "3,4"), ("to", "2,3")],
        400,
        "illegal_move",
    );
    ok(
        "/api/move",
        &[("game", "moore(2)"), ("position", "3,4,5"), ("to", "2,3,5")],
    );
}

#[test]
fn the_computer_moves() {
    let v = ok("/api/computer", &[CN53, ("position", "1,2,3,4,5")]);
    assert_eq!(v["winning"], true);
    assert_eq!(v["outcome"], "P");
    assert!(v["why"].as_str().unwrap().contains("winning"));
    let v = ok("/api/computer", &[CN53, ("position", "1,2,0,2,1")]);
    assert_eq!(v["winning"], false);
    assert_eq!(v["outcome"], "N");
    let v = ok(
        "/api/computer",
        &[("game", "nim"), ("position", "1000000000000000000,3,5")],
    );
    assert_eq!(v["winning"], true);
    let v = ok(
        "/api/computer",
        &[
            ("game", "ENTROPY(3)"),
            ("position", "0,3,9"),
            ("misere", "true"),
        ],
    );
    assert!(v["position"]["text"].is_string());
    fails(
        "/api/computer",
        &[CN53, ("position", "0,0,0,0,0")],
        400,
        "game_over",
    );
    fails(
        "/api/computer",
        &[
            ("game", "CN(9,5)"),
            ("position", "900,900,900,900,900,900,900,900,900"),
        ],
        422,
        "too_large",
    );
}

#[test]
fn junk_never_breaks_the_server() {
    let junk = [
        "",
        " ",
        ",,,",
        "((((",
        "1^",
        "^3",
        "99999999999999999999999",
        "-",
        "1e9",
        "ü,ö",
        "\u{0}",
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
    ];
    for path in [
        "/api/outcome",
        "/api/moves",
        "/api/hint",
        "/api/computer",
        "/api/explain",
    ] {
        for game in [
            "CN(5,3)",
            "SCN(4,2)",
            "nim",
            "ET(3)",
            "ENTROPY(3)",
            "CN(,)",
            "",
            "moore(0)",
        ] {
            for pos in junk {
                let (s, v) = get(path, &[("game", game), ("position", pos)]);
                assert!(s < 500, "{path} {game:?} {pos:?}: {s} {v}");
                if s != 200 {
                    assert!(v["error"].is_string());
                }
            }
        }
    }
    for to in junk {
        let (s, _) = get("/api/move", &[CN53, ("position", "1,2,3,4,5"), ("to", to)]);
        assert_eq!(s, 400, "{to:?}");
    }
    // A malformed query string and a very long one.
    let (s, _, _) = get_raw("/api/outcome?game=%ZZ&position=1", &[]);
    assert_eq!(s, 400);
    // Still serving.
    ok("/api/games", &[]);
}

/// Every error is a JSON object naming its real cause: another method than GET, a parameter the
/// endpoint does not take (when it takes none), a parameter given twice.
#[test]
fn errors_are_json_and_say_why() {
    for method in ["POST", "PUT", "DELETE"] {
        let (status, ctype, body) =
            common::request_with(method, "/api/moves?game=nim&position=1,2");
        assert_eq!(status, 405, "{method}: {body}");
        assert!(ctype.starts_with("application/json"), "{method}: {ctype}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["kind"], "method_not_allowed", "{body}");
    }
    let e = fails("/api/games", &[("x", "1")], 400, "bad_request");
    assert!(e.contains("takes no parameters"), "{e}");
    let e = fails("/api/moves", &[("x", "1")], 400, "bad_request");
    assert!(e.contains("game, position, misere"), "{e}");
    for path in ["/api/outcome", "/api/moves", "/api/hint"] {
        let e = fails(
            path,
            &[("game", "nim"), ("game", "CN(5,3)"), ("position", "1,2,3")],
            400,
            "bad_request",
        );
        assert!(e.contains("'game' is given more than once"), "{e}");
    }
}

/// Nim's winning moves are known at any size (Bouton): with too many options to list, `/api/moves`
/// answers the winning moves alone and says so, instead of refusing.
#[test]
fn moves_with_too_many_options_lists_the_winning_ones() {
    // 1000000 xor 1000000 xor 3 = 3: the only winning move empties the heap of 3.
    let v = ok(
        "/api/moves",
        &[("game", "nim"), ("position", "1000000,1000000,3")],
    );
    assert_eq!(v["all_options"], false, "{v}");
    assert_eq!(v["winning_moves_complete"], true, "{v}");
    assert!(
        v["note"].as_str().unwrap().contains("too many to list"),
        "{v}"
    );
    let to: Vec<&Value> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["to"]["entries"])
        .collect();
    assert_eq!(to, [&serde_json::json!([1000000, 1000000, 0])], "{v}");
    // 1000000 xor 1000001 xor 1 = 0: a P-position, no winning move, and the list is complete.
    let v = ok(
        "/api/moves",
        &[("game", "nim"), ("position", "1000000,1000001,1")],
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 0, "{v}");
    assert_eq!(v["winning_moves_complete"], true, "{v}");
    // Small positions keep the full list of options.
    let v = ok("/api/moves", &[("game", "nim"), ("position", "1,2")]);
    assert_eq!(v["all_options"], true, "{v}");
    assert_eq!(v["count"], 3, "{v}");
}

/// `/api/answer`, `/api/sum` and `/api/theory` answer the analysis library's objects (the ones
/// `nimlab ... --json` and Python give; crates/python/tests/test_one_answer.py compares the three
/// front ends on 60 questions); the page's hints use the game's one notation.
#[test]
fn library_objects_and_one_notation() {
    // Bouton: 3 xor 5 xor 7 = 1; every heap can be lowered to make the XOR 0. Sorted by position.
    let v = ok(
        "/api/answer",
        &[("ask", "moves"), ("game", "nim"), ("position", "3,5,7")],
    );
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([[2, 5, 7], [3, 4, 7], [3, 5, 6]])
    );
    assert_eq!(v["winning_moves_complete"], true);
    assert_eq!(v["moves_method"], "bouton");
    assert_eq!(v["position"], serde_json::json!([3, 5, 7]));
    for key in [
        "grundy",
        "grundy_method",
        "grundy_note",
        "remoteness",
        "suspense",
    ] {
        assert!(v.get(key).is_some(), "{key} in {v}");
    }
    let v = ok(
        "/api/answer",
        &[
            ("ask", "grundy"),
            ("game", "CN(6,3)"),
            ("position", "3,1,2,1,3,2"),
        ],
    );
    assert!(
        v["grundy"].is_u64() && v["grundy_method"].is_string(),
        "{v}"
    );
    fails(
        "/api/answer",
        &[("ask", "everything"), ("game", "nim"), ("position", "1")],
        400,
        "bad_request",
    );
    fails(
        "/api/answer",
        &[
            ("ask", "grundy"),
            ("game", "nim"),
            ("position", "1"),
            ("misere", "true"),
        ],
        400,
        "bad_request",
    );
    // Proposition 3 of Ferguson's paper gives ET(2)(31,54) the value 6; nim(5) is worth 5.
    let v = ok("/api/sum", &[("sum", "nim[5] + ET(2)[31,54]")]);
    assert_eq!(v["grundy"], 5 ^ 6);
    assert_eq!(v["method"], "xor of the components' Grundy values");
    fails("/api/sum", &[("sum", "nim[5] + nope[1]")], 400, "bad_game");
    let v = ok("/api/theory", &[("game", "CN(7,4)")]);
    assert!(v.as_array().unwrap().iter().any(|t| t["id"] == "cn-7-4"));
    fails("/api/theory", &[("game", "nope")], 400, "bad_game");

    // A chip game's hint and moves in Ferguson's notation, the notation of the page.
    let er = [("game", "ER(7)"), ("position", "1^5 2 10")];
    let v = ok("/api/hint", &er);
    let text = v["text"].as_str().unwrap();
    assert!(text.contains("1^7") && !text.contains("(1,"), "{text}");
    let v = ok("/api/moves", &er);
    for m in v["moves"].as_array().unwrap() {
        assert_eq!(m["to"]["display"], m["to"]["notation"], "{m}");
        assert!(!m["to"]["notation"].as_str().unwrap().contains(','), "{m}");
    }
}

/// The API answers as the command line's `--json` does (the analysis library with the command line's
/// limits, no store): positions that need the tables engine (a box of 1.1e7 positions), a complex the
/// search alone cannot do, and positions a result or the search decides; every field of the answer.
#[test]
fn answers_equal_the_command_line() {
    use nimlab_analysis::{Analyzer, Limits, StoreHandle, Want};
    let cli = Analyzer::new(StoreHandle::none(), Limits::CLI);
    let cases = [
        ("CN(6,2)", "3,3,14,3,14,3"),
        ("ECN(7,{1,3},3)", "1,2,3,4,5,6,7"),
        ("CN(7,4)", "1,7,5,6,2,3,6"),
        ("SCN(5,2)", "3,1,4,1,5"),
        ("CN(4,2)", "2,1,2,1"),
    ];
    for (game, pos) in cases {
        for (ask, want) in [
            ("outcome", Want::outcome()),
            ("grundy", Want::grundy()),
            ("moves", Want::moves()),
        ] {
            let web = ok(
                "/api/answer",
                &[("ask", ask), ("game", game), ("position", pos)],
            );
            let g = nimlab_games::parse_game(game).unwrap();
            let p = nimlab_analysis::play::load_position(g.as_ref(), pos).unwrap();
            let mut here = cli
                .analyse(g.as_ref(), &p, nimlab_core::Play::Normal, want)
                .unwrap()
                .to_json();
            let mut web = web;
            // Times differ from run to run; everything else is the same.
            for v in [&mut here, &mut web] {
                if let Some(o) = v.as_object_mut() {
                    o.retain(|k, _| !k.contains("seconds") && k != "searched");
                }
            }
            assert_eq!(web, here, "{ask} {game} {pos}");
        }
    }
    // The engine, not the search, decides the first one, with its remoteness.
    let v = ok(
        "/api/answer",
        &[
            ("ask", "outcome"),
            ("game", "CN(6,2)"),
            ("position", "3,3,14,3,14,3"),
        ],
    );
    assert_ne!(v["method"], "search", "{v}");
    assert!(v["remoteness"].is_u64(), "{v}");
}
