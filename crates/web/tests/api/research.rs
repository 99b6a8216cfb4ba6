//! The research view's endpoints over a real socket: slices (against Bouton's theorem, and the
//! engine on the box below a slice of a box too large to tabulate), patterns, and discover on chip
//! games by their total.

use super::*;

/// The research view's endpoints: a slice of Nim against Bouton's theorem, patterns that count every
/// canonical P-position, and the refusals.
#[test]
fn research_endpoints() {
    let v = ok(
        "/api/slice",
        &[
            ("game", "nim"),
            ("heaps", "3"),
            ("max", "15"),
            ("fix", "1=5"),
        ],
    );
    let cells = v["cells"].as_array().unwrap();
    let want: Vec<(u64, u64)> = (0..=15u64).map(|b| (b, 5 ^ b)).collect();
    let got: Vec<(u64, u64)> = cells
        .iter()
        .map(|c| (c[0].as_u64().unwrap(), c[1].as_u64().unwrap()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(v["axes"], serde_json::json!([2, 3]));
    // Grundy values of a slice: Nim's value is the XOR of the heaps.
    let v = ok(
        "/api/slice",
        &[
            ("game", "nim"),
            ("heaps", "3"),
            ("max", "7"),
            ("fix", "2=3"),
            ("grundy", "true"),
        ],
    );
    for c in v["cells"].as_array().unwrap() {
        let (x, y, g) = (
            c[0].as_u64().unwrap(),
            c[1].as_u64().unwrap(),
            c[2].as_u64().unwrap(),
        );
        assert_eq!(g, x ^ 3 ^ y, "{c}");
    }
    assert_eq!(v["count"], 64);
    let p = ok("/api/patterns", &[("game", "CN(4,2)"), ("max", "5")]);
    let total: u64 = p["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, p["canonical_count"].as_u64().unwrap());
    fails(
        "/api/slice",
        &[
            ("game", "nim"),
            ("heaps", "3"),
            ("max", "15"),
            ("fix", "1=5,2=3"),
        ],
        400,
        "bad_request",
    );
    fails(
        "/api/slice",
        &[
            ("game", "nim"),
            ("heaps", "3"),
            ("max", "15"),
            ("fix", "1=99"),
        ],
        400,
        "bad_request",
    );
    // A box too large to tabulate here, but a slice whose positions below are few: the engine
    // tabulates the box below its cells. With stacks 1-5 empty, stacks 6 and 7 share a window, so every
    // position but (0,0) moves to it: (0,0) is the one P-position.
    let v = ok(
        "/api/slice",
        &[
            ("game", "CN(7,4)"),
            ("max", "63"),
            ("fix", "1=0,2=0,3=0,4=0,5=0"),
        ],
    );
    assert_eq!(v["method"], "engine", "{v}");
    assert_eq!(v["cells"], serde_json::json!([[0, 0, 0]]));
    // CN(5,2) with stacks 1-3 at 3, 4, 5 up to 30 (a box of 2.9e7 positions, more than the page
    // tabulates; 115320 below the slice): its cells up to 12 are those of the box up to 12, which
    // the engine tabulates whole.
    let cells = |v: &Value, top: u64| -> Vec<Value> {
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c[0].as_u64().unwrap() <= top && c[1].as_u64().unwrap() <= top)
            .cloned()
            .collect()
    };
    let big = ok(
        "/api/slice",
        &[("game", "CN(5,2)"), ("max", "30"), ("fix", "1=3,2=4,3=5")],
    );
    assert_eq!(big["method"], "engine", "{big}");
    assert_eq!(big["searched"], 115320.0);
    let small = ok(
        "/api/slice",
        &[("game", "CN(5,2)"), ("max", "12"), ("fix", "1=3,2=4,3=5")],
    );
    assert_ne!(small["method"], "search", "{small}");
    assert!(!cells(&small, 12).is_empty());
    assert_eq!(cells(&big, 12), cells(&small, 12));
    fails(
        "/api/slice",
        &[
            ("game", "CN(7,4)"),
            ("max", "63"),
            ("fix", "1=60,2=60,3=60,4=60,5=60"),
        ],
        422,
        "too_large",
    );
}

/// The totals n >= 4 of EJR(4,2)'s P-positions, by the recurrence written here: a total is a P-total
/// when some split of it into four positive boxes has no two boxes whose total is a P-total (every
/// move keeps two boxes and spreads their total over four).
fn ejr42_p_totals(max: usize) -> Vec<bool> {
    let mut t = vec![false; max + 1];
    for n in 4..=max {
        let mut found = false;
        for a in 1..=n {
            for b in a..=n {
                for c in b..=n {
                    if a + b + c >= n || c > n - a - b - c {
                        continue;
                    }
                    let x = [a, b, c, n - a - b - c];
                    let kept = (0..4).flat_map(|i| (i + 1..4).map(move |j| (i, j)));
                    if kept.map(|(i, j)| x[i] + x[j]).all(|s| !t[s]) {
                        found = true;
                    }
                }
            }
        }
        t[n] = found;
    }
    t
}

#[test]
fn discover_takes_chip_games_by_their_total() {
    let z3 = nimlab_testkit::tools::which("z3").ok_or_else(|| "z3 is not on PATH".to_string());
    if nimlab_testkit::tools::need("discover on a chip game over the web", "z3", z3).is_none() {
        return;
    }
    let v = ok("/api/discover", &[("game", "EJR(4,2)"), ("max_sum", "40")]);
    assert_eq!(v["verdict"], "proved", "{v}");
    let t = &v["totals"];
    let (a, q) = (
        t["threshold"].as_u64().unwrap(),
        t["period"].as_u64().unwrap(),
    );
    let residues: Vec<u64> = t["residues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    let exceptions: Vec<u64> = t["exceptions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    let brute = ejr42_p_totals(40);
    for n in 4..=40u64 {
        let said = if n < a {
            exceptions.contains(&n)
        } else {
            residues.contains(&(n % q))
        };
        assert_eq!(said, brute[n as usize], "total {n}: {t}");
    }
    assert!(v["text"].as_str().unwrap().contains("EJR(4,2)"), "{v}");
    fails(
        "/api/discover",
        &[("game", "EJR(4,2)"), ("max", "40")],
        400,
        "bad_request",
    );
}
