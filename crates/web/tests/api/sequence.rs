//! `/api/sequence` over a real socket: the values of single heaps of one-heap games checked against a
//! brute-force mex written here, the periods known from the literature, which games `/api/game` says
//! have a sequence, and refusals that name the API's parameters.

use super::*;

/// g(0..=max) of the octal game whose digits after the point are `digits` (d_1, d_2, ...): the mex
/// over every option, a heap of n with j removed leaving nothing (bit 1), one heap (bit 2) or two
/// non-empty heaps (bit 4).
fn octal_brute(digits: &[u8], max: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=max {
        let mut seen = std::collections::HashSet::new();
        for (i, &d) in digits.iter().enumerate() {
            let j = i + 1;
            if j > n {
                break;
            }
            let rest = n - j;
            if d & 1 != 0 && rest == 0 {
                seen.insert(0);
            }
            if d & 2 != 0 && rest >= 1 {
                seen.insert(g[rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    seen.insert(g[a] ^ g[rest - a]);
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

/// Grundy's game: a heap is split into two non-empty heaps of different sizes.
fn grundy_brute(max: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=max {
        let seen: std::collections::HashSet<u64> = (1..n)
            .filter(|&a| 2 * a != n)
            .map(|a| g[a] ^ g[n - a])
            .collect();
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

/// The least n0 with g(n + p) = g(n) for every n >= n0 of the prefix.
fn least_preperiod(g: &[u64], p: usize) -> usize {
    (0..g.len() - p)
        .rev()
        .find(|&n| g[n + p] != g[n])
        .map_or(0, |n| n + 1)
}

fn values(v: &Value) -> Vec<u64> {
    v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

#[test]
fn sequence_values_and_periods_of_one_heap_games() {
    // Kayles: period 12 from heap 71 (Guy and Smith), proved within 300 heaps.
    let v = ok("/api/sequence", &[("game", "octal(0.77)"), ("max", "300")]);
    let kayles = octal_brute(&[7, 7], 300);
    assert_eq!(values(&v), kayles);
    assert_eq!(least_preperiod(&kayles, 12), 71);
    assert_eq!(v["name"], "Kayles");
    assert_eq!(v["periodicity"]["period"], 12, "{v}");
    assert_eq!(v["periodicity"]["preperiod"], 71, "{v}");
    assert_eq!(v["periodicity"]["status"], "proved", "{v}");
    let text = v["period_text"].as_str().unwrap();
    assert!(
        text.starts_with("period 12 from n = 71") && text.contains("proved periodic"),
        "{text}"
    );
    assert!(v["method_text"].as_str().is_some_and(|m| !m.is_empty()));
    assert_eq!(v["largest"]["value"].as_u64(), kayles.iter().copied().max());

    // Dawson's Kayles: period 34; the preperiod is where the brute force's values start repeating.
    let v = ok("/api/sequence", &[("game", "octal(0.07)"), ("max", "400")]);
    let dawson = octal_brute(&[0, 7], 400);
    assert_eq!(values(&v), dawson);
    assert_eq!(v["periodicity"]["period"], 34, "{v}");
    assert_eq!(
        v["periodicity"]["preperiod"].as_u64(),
        Some(least_preperiod(&dawson, 34) as u64)
    );
    assert_eq!(v["periodicity"]["status"], "proved", "{v}");
    // Too few heaps for the proof: the period is evidence, and the proof's size is a parameter.
    let v = ok("/api/sequence", &[("game", "octal(0.07)"), ("max", "170")]);
    assert_eq!(v["periodicity"]["status"], "evidence", "{v}");
    let text = v["period_text"].as_str().unwrap();
    assert!(text.contains("a proof needs max="), "{text}");
    assert!(!text.contains("--"), "{text}");

    // Subtraction game {1,3,4}: 0 1 0 1 2 3 2, repeated from heap 0 (Winning Ways).
    let v = ok(
        "/api/sequence",
        &[("game", "subtraction(1,3,4)"), ("max", "60")],
    );
    let want: Vec<u64> = (0..=60).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect();
    assert_eq!(values(&v), want);
    assert_eq!(values(&v), octal_brute(&[3, 0, 3, 3], 60));
    assert_eq!(v["periodicity"]["period"], 7, "{v}");
    assert_eq!(v["periodicity"]["preperiod"], 0, "{v}");

    // Grundy's game: no period is known, and none is seen.
    let v = ok("/api/sequence", &[("game", "grundy"), ("max", "250")]);
    assert_eq!(values(&v), grundy_brute(250));
    assert_eq!(v["periodicity"], Value::Null, "{v}");
    assert_eq!(
        v["period_text"], "no period found up to n = 250 (evidence)",
        "{v}"
    );

    // Octal(0.6): leave two non-empty heaps only; values by the brute force.
    let v = ok("/api/sequence", &[("game", "octal(0.6)"), ("max", "200")]);
    assert_eq!(values(&v), octal_brute(&[6], 200));
}

#[test]
fn the_game_says_whether_it_has_a_sequence() {
    for (game, one_heap) in [
        ("octal(0.77)", true),
        ("grundy", true),
        ("subtraction(1,2)", true),
        ("CN(4,2)", false),
        ("nim", false),
    ] {
        let v = ok("/api/game", &[("game", game)]);
        assert_eq!(v["sequence"], one_heap, "{game}: {v}");
    }
}

#[test]
fn sequence_refusals_name_the_parameters() {
    let e = fails(
        "/api/sequence",
        &[("game", "nim"), ("max", "10")],
        400,
        "bad_request",
    );
    assert!(e.contains("one-heap game"), "{e}");
    let e = fails(
        "/api/sequence",
        &[("game", "octal(0.77)")],
        400,
        "bad_request",
    );
    assert!(e.contains("'max'"), "{e}");
    let e = fails(
        "/api/sequence",
        &[("game", "octal(0.77)"), ("max", "-3")],
        400,
        "bad_request",
    );
    assert!(e.starts_with("max must be a whole number"), "{e}");
    let e = fails(
        "/api/sequence",
        &[("game", "octal(0.77)"), ("max", "100001")],
        422,
        "too_large",
    );
    assert!(e.contains("max=100001") && !e.contains("--"), "{e}");
    // A hexadecimal code leaves three heaps: the plain mex up to 100000 heaps is too much here.
    let e = fails(
        "/api/sequence",
        &[("game", "octal(0.F)"), ("max", "100000")],
        422,
        "too_large",
    );
    assert!(e.contains("max=100000") && !e.contains("--"), "{e}");
    let e = fails(
        "/api/sequence",
        &[("game", "octal(0.77)"), ("max", "10"), ("heaps", "2")],
        400,
        "bad_request",
    );
    assert!(e.contains("unknown parameter 'heaps'"), "{e}");
    fails(
        "/api/sequence",
        &[("game", "octal(0.0G)"), ("max", "10")],
        400,
        "bad_game",
    );
}
