//! The analysis chain through the front ends: `moves`, a sum and the web API answer from a stored
//! table (`method` starting with `store`); the winning moves `moves` lists are every winning move
//! (checked against `--all` over boxes of 10^4+ positions for every built-in game), and a position too
//! large to enumerate says `winning_moves_complete: false`.

mod common;

use common::{cmd as bin, json, ok as run_ok, TempDir};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::Stdio;

#[test]
fn moves_sums_and_the_web_answer_from_a_stored_table() {
    // CN(6,2) has no proven result: once its box [0..3]^6 is stored, positions inside are look-ups.
    let dir = TempDir::new("chain-store");
    let db = dir.db();
    let dbs = db.as_str();
    let t = json(&[
        "table",
        "CN(6,2)",
        "--max",
        "3",
        "--count-only",
        "--json",
        "--db",
        dbs,
    ]);
    assert!(t["count"].as_u64().unwrap() > 0);
    // Its Grundy values over the same box, for the questions that need values (a sum, the web's moves).
    json(&[
        "table",
        "CN(6,2)",
        "--max",
        "3",
        "--grundy",
        "--count-only",
        "--json",
        "--db",
        dbs,
    ]);
    let m = json(&["moves", "CN(6,2)", "1,2,3,1,2,3", "--json", "--db", dbs]);
    assert!(m["method"].as_str().unwrap().starts_with("store"), "{m}");
    assert!(
        m["moves_method"].as_str().unwrap().starts_with("store"),
        "{m}"
    );
    assert_eq!(m["winning_moves_complete"], true);
    // The same answer without the store, by another method.
    let plain = json(&["moves", "CN(6,2)", "1,2,3,1,2,3", "--json", "--no-store"]);
    assert!(!plain["method"].as_str().unwrap().starts_with("store"));
    assert_eq!(plain["winning_moves"], m["winning_moves"]);
    assert_eq!(plain["outcome"], m["outcome"]);

    // A sum: the CN(6,2) component's value comes from the store too.
    let s = json(&[
        "grundy",
        "CN(6,2)[1,2,3,1,2,3] + nim[3]",
        "--json",
        "--db",
        dbs,
    ]);
    let c = &s["components"][0];
    assert!(c["method"].as_str().unwrap().starts_with("store"), "{s}");
    let o = json(&[
        "outcome",
        "CN(6,2)[1,2,3,1,2,3] + nim[3]",
        "--json",
        "--db",
        dbs,
    ]);
    assert!(
        o["components"][0]["method"]
            .as_str()
            .unwrap()
            .starts_with("store"),
        "{o}"
    );

    // The web API, with the store given by NIMLAB_DB.
    let mut server = bin()
        .args(["serve", "--port", "0"])
        .env("NIMLAB_DB", dbs)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    // "nimlab serve: listening on http://127.0.0.1:PORT/ (2 quick and 2 research ...; Ctrl-C stops)"
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap()
        .to_string();
    let get = |target: &str| -> Value {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            s,
            "GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut r = String::new();
        s.read_to_string(&mut r).unwrap();
        let body = &r[r.find('{').unwrap()..];
        serde_json::from_str(body.trim_end_matches(|c: char| c != '}')).unwrap()
    };
    let v = get("/api/hint?game=CN(6%2C2)&position=1%2C2%2C3%2C1%2C2%2C3");
    // The moves with their values: every option's Grundy value is a look-up in the stored table.
    let w = get("/api/moves?game=CN(6%2C2)&position=1%2C2%2C3%2C1%2C2%2C3");
    let _ = server.kill();
    let _ = server.wait();
    assert!(w["method"].as_str().unwrap().starts_with("store"), "{w}");
    // The hint, which needs only outcomes, comes from the store and says its list is complete.
    assert!(v["method"].as_str().unwrap().starts_with("store"), "{v}");
    assert_eq!(v["winning_moves_complete"], true, "{v}");
    assert_eq!(
        v["winning_moves"].as_array().unwrap().len(),
        m["winning_moves"].as_array().unwrap().len(),
        "{v}"
    );
}

/// Every position of a box of the given game, as argument text.
fn positions(len: usize, lo: u64, hi: u64, sorted: bool) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    let mut p = vec![lo; len];
    loop {
        if !sorted || p.windows(2).all(|w| w[0] <= w[1]) {
            out.push(p.clone());
        }
        let mut i = 0;
        while i < len && p[i] == hi {
            p[i] = lo;
            i += 1;
        }
        if i == len {
            return out;
        }
        p[i] += 1;
    }
}

#[test]
fn moves_lists_every_winning_move_and_says_when_it_cannot() {
    // (game, length, lo, hi, multiset): boxes of at least 10^4 positions, sampled for the CLI calls.
    let cases: [(&str, usize, u64, u64, bool); 9] = [
        ("nim", 4, 0, 9, false),
        ("moore(2)", 4, 0, 9, false),
        ("CN(7,4)", 7, 0, 3, false),
        ("CN(5,2)", 5, 0, 6, false),
        ("SCN(5,3)", 5, 1, 7, false),
        ("ET(3)", 3, 1, 30, true),
        ("ER(4)", 4, 1, 12, true),
        ("EABO(3)", 3, 1, 30, true),
        ("ENTROPY(3)", 3, 0, 30, true),
    ];
    for (game, len, lo, hi, multiset) in cases {
        let all = positions(len, lo, hi, multiset);
        let total: f64 = ((hi - lo + 1) as f64).powi(len as i32);
        assert!(total >= 1e4, "{game}: box of {total}");
        // Every 97th position of the box (the CLI is a process per call).
        for p in all.iter().step_by(all.len() / 12 + 1) {
            let text: Vec<String> = p.iter().map(|x| x.to_string()).collect();
            let text = text.join(",");
            let m = json(&["moves", game, &text, "--json", "--no-store"]);
            let a = json(&["moves", game, &text, "--all", "--json", "--no-store"]);
            assert_eq!(m["winning_moves_complete"], true, "{game} {text}: {m}");
            let mut want: Vec<Value> = a["options"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|o| o["winning"] == true)
                .map(|o| o["position"].clone())
                .collect();
            let mut got: Vec<Value> = m["winning_moves"].as_array().unwrap().clone();
            let key = |v: &Value| v.to_string();
            want.sort_by_key(key);
            got.sort_by_key(key);
            assert_eq!(got, want, "{game} {text}");
        }
    }
    // Stacks of 10^12: too many options to check. CN(7,4)'s families pin every window's stacks, so
    // the theorem lists every winning move (every integer point of every window's system) ...
    let m = json(&[
        "moves",
        "CN(7,4)",
        "1000000000000,7,5,6,2,3,6",
        "--json",
        "--no-store",
    ]);
    assert_eq!(m["winning_moves_complete"], true, "{m}");
    assert!(!m["winning_moves"].as_array().unwrap().is_empty());
    // ... CN(6,3)'s leave a stack free over a range of about 10^11 here: the moves found, partial.
    let wide = "500000000000,200000000000,700000000000,300000000000,900000000000,400000000000";
    let m = json(&["moves", "CN(6,3)", wide, "--json", "--no-store"]);
    assert_eq!(m["winning_moves_complete"], false, "{m}");
    assert!(!m["winning_moves"].as_array().unwrap().is_empty());
    let text = String::from_utf8(
        bin()
            .args(["moves", "CN(6,3)", wide, "--no-store"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(text.contains("may be partial"), "{text}");
}

/// A sum's winning moves say whether they are all of them: complete when every component's options
/// are listed, partial when a component is too large and its move is a theorem's construction.
#[test]
fn sum_winning_moves_say_whether_they_are_complete() {
    // ET(2) (31,54) has Grundy value 6, nim (5) 5, CN(4,2) (1,1,1,1) 0: total 3, so the winning
    // moves take ET(2) to value 5; its options are few, so the list is every winning move.
    let small = json(&[
        "moves",
        "ET(2)[31,54] + nim[5] + CN(4,2)[1,1,1,1]",
        "--json",
        "--no-store",
    ]);
    assert_eq!(small["winning_moves_complete"], true, "{small}");
    assert!(!small["winning_moves"].as_array().unwrap().is_empty());
    // ET(2) with 10^12 chips in a box: too many options to list.
    let big = json(&[
        "moves",
        "ET(2)[1000000000000,3] + nim[0]",
        "--json",
        "--no-store",
    ]);
    assert_eq!(big["winning_moves_complete"], false, "{big}");
    assert_eq!(big["winning_moves"].as_array().unwrap().len(), 1, "{big}");
    let text = run_ok(&["moves", "ET(2)[1000000000000,3] + nim[0]", "--no-store"]);
    assert!(text.contains("may be partial"), "{text}");
}
