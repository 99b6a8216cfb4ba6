//! Property tests for the query strings of `/api/outcome` and `/api/moves`, over a real socket:
//! whatever the query, the server answers 200 with a JSON object, or 400/422 with a JSON error
//! (`{"error", "kind"}`), or 503 `busy`/`timeout` when the machine is loaded, never a panic, a dropped
//! connection or an empty body; and it keeps serving.
//! Positions are bounded by the API's limits, so no request searches for long.

mod common;

use common::{encode, request};
use proptest::prelude::*;
use serde_json::Value;

const PATHS: [&str; 2] = ["/api/outcome", "/api/moves"];

/// Sends `path?query` and checks the answer's shape.
fn check(path: &str, query: &str) -> Result<(), TestCaseError> {
    let target = format!("{path}?{query}");
    let (status, ctype, body) = request(&target);
    prop_assert!(!body.is_empty(), "{target}: {status} with an empty body");
    prop_assert!(
        ctype.starts_with("application/json"),
        "{target}: {status} {ctype}: {body}"
    );
    let v: Value = serde_json::from_str(&body)
        .map_err(|e| TestCaseError::fail(format!("{target}: {status}: not JSON ({e}): {body}")))?;
    prop_assert!(v.is_object(), "{target}: {status}: {body}");
    match status {
        200 => prop_assert!(v.get("error").is_none(), "{target}: {body}"),
        400 | 422 => {
            let e = v["error"].as_str().unwrap_or_default();
            prop_assert!(!e.is_empty(), "{target}: {status}: {body}");
            prop_assert!(v["kind"].is_string(), "{target}: {status}: {body}");
        }
        // Under load (the four properties share one server on a small machine) the server may refuse
        // or cut a computation: that too must be a JSON answer of its own kind.
        503 => {
            let kind = v["kind"].as_str().unwrap_or_default();
            prop_assert!(kind == "busy" || kind == "timeout", "{target}: {body}");
            prop_assert!(v["error"].is_string(), "{target}: {body}");
        }
        _ => prop_assert!(false, "{target}: unexpected status {status}: {body}"),
    }
    Ok(())
}

/// Characters that may stand in a request target's query as sent, `%` included (so that malformed
/// escapes such as `%ZZ` or a lone `%` occur).
fn raw_query() -> impl Strategy<Value = String> {
    "[A-Za-z0-9._~!$&'()*+,;=:@/?%-]{0,60}"
}

/// A game name, near-misses included.
fn game() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "nim",
            "CN(5,3)",
            "CN(7,4)",
            "SCN(4,2)",
            "moore(2)",
            "ET(3)",
            "ER(4)",
            "EABO(3)",
            "SER(3)",
            "EJR(4,2)",
            "ENTROPY(3)",
            "CN(,)",
            "CN(3,9)",
            "moore(0)",
            "",
            "chess",
        ])
        .prop_map(String::from),
        (0u64..70, 0u64..70).prop_map(|(n, k)| format!("CN({n},{k})")),
        (0u64..70, 0u64..70).prop_map(|(n, k)| format!("SCN({n},{k})")),
        any::<String>(),
    ]
}

/// A position, near-misses included: random separators, negative and overflowing entries, `v^e`.
fn position() -> impl Strategy<Value = String> {
    let entry = prop_oneof![
        6 => (0u64..5).prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => Just("18446744073709551616".to_string()),
        1 => (1u64..100).prop_map(|n| format!("-{n}")),
        1 => (0u64..4, 0u64..9).prop_map(|(v, e)| format!("{v}^{e}")),
        1 => "\\PC{0,2}",
    ];
    let sep = prop::sample::select(vec![",", " ", ", ", ",,", ";"]);
    prop_oneof![
        4 => (prop::collection::vec(entry, 0..9), sep).prop_map(|(es, s)| es.join(s)),
        1 => any::<String>(),
    ]
}

/// A query of key-value pairs, each percent-encoded or sent raw, with the endpoint's parameters,
/// repeats and unknown names.
fn pairs() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        4 => prop::sample::select(vec!["game", "position", "misere"]).prop_map(String::from),
        1 => "[a-z]{0,8}",
        1 => any::<String>(),
    ];
    let value = prop_oneof![
        2 => game(),
        3 => position(),
        1 => prop::sample::select(vec!["true", "false", "1", "0", "", "yes"]).prop_map(String::from),
    ];
    let pair = (key, value, any::<bool>()).prop_map(|(k, v, raw)| {
        if raw {
            // Only the characters that may stand in a request target go out unencoded.
            let keep = |s: &str| {
                s.chars()
                    .filter(|c| c.is_ascii_graphic() && !"#\"<>\\^`{|}".contains(*c))
                    .collect::<String>()
            };
            format!("{}={}", keep(&k), keep(&v))
        } else {
            format!("{}={}", encode(&k), encode(&v))
        }
    });
    prop::collection::vec(pair, 0..5).prop_map(|ps| ps.join("&"))
}

/// The three parameters of the endpoints, well-formed enough to reach the game and position parsers.
fn well_formed() -> impl Strategy<Value = String> {
    (game(), position(), prop::option::of(any::<bool>())).prop_map(|(g, p, m)| {
        let mut q = format!("game={}&position={}", encode(&g), encode(&p));
        if let Some(m) = m {
            q.push_str(&format!("&misere={m}"));
        }
        q
    })
}

/// A game with a position of the right length, mostly small (answered), sometimes large (refused up
/// front with 422, or answered by a closed form), with or without misère play.
fn matching() -> impl Strategy<Value = String> {
    let games = [
        ("nim", 0..6),
        ("moore(2)", 0..6),
        ("CN(5,3)", 5..6),
        ("CN(6,2)", 6..7),
        ("CN(7,4)", 7..8),
        ("SCN(4,2)", 0..5),
        ("ET(3)", 3..4),
        ("ER(4)", 4..5),
        ("EABO(3)", 3..4),
        ("ENTROPY(3)", 3..4),
    ];
    let entry = prop_oneof![
        8 => 1u64..6,
        1 => Just(0u64),
        1 => 20u64..400,
        1 => any::<u64>(),
    ];
    (prop::sample::select(games.to_vec()), any::<bool>()).prop_flat_map(
        move |((g, len), misere)| {
            prop::collection::vec(entry.clone(), len).prop_map(move |p| {
                let p: Vec<String> = p.iter().map(|x| x.to_string()).collect();
                format!(
                    "game={}&position={}&misere={misere}",
                    encode(g),
                    encode(&p.join(","))
                )
            })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn raw_query_strings(i in 0..PATHS.len(), q in raw_query()) {
        check(PATHS[i], &q)?;
    }

    #[test]
    fn key_value_queries(i in 0..PATHS.len(), q in pairs()) {
        check(PATHS[i], &q)?;
    }

    #[test]
    fn games_and_positions(i in 0..PATHS.len(), q in well_formed()) {
        check(PATHS[i], &q)?;
    }

    #[test]
    fn positions_of_the_right_length(i in 0..PATHS.len(), q in matching()) {
        check(PATHS[i], &q)?;
    }
}

/// After all that, the server still answers.
#[test]
fn still_serving_after_junk() {
    for path in PATHS {
        for q in ["game=%ZZ", "%", "&&&", "game=CN(5,3)&position=1,2,3,4,5"] {
            check(path, q).unwrap();
        }
    }
}
