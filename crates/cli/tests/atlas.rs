//! `nimlab atlas`: every code of a family against a brute-force mex of the octal rules written
//! here, the three formats, and the refusals.

mod common;

use common::{fails, json, ok, TempDir};

/// g(0..=max) of the octal code with digits `d` (d[0] before the point) by the mex over every
/// option, straight from the rules: removing j tokens (d[j] != 0) may take the whole heap (bit 1),
/// leave one heap (bit 2) or two non-empty heaps (bit 4).
fn brute(d: &[u8], max: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=max {
        let mut opts = Vec::new();
        for (j, &dj) in d.iter().enumerate() {
            if j > n {
                break;
            }
            let r = n - j;
            if dj & 1 != 0 && r == 0 {
                opts.push(0);
            }
            if dj & 2 != 0 && r >= 1 {
                opts.push(g[r]);
            }
            if dj & 4 != 0 {
                for a in 1..r {
                    opts.push(g[a] ^ g[r - a]);
                }
            }
        }
        let mex = (0..).find(|v| !opts.contains(v)).unwrap();
        g.push(mex);
    }
    g
}

/// The digits of a code such as `0.07` or `4.3`.
fn digits(code: &str) -> Vec<u8> {
    code.chars()
        .filter(|c| *c != '.')
        .map(|c| c.to_digit(8).unwrap() as u8)
        .collect()
}

#[test]
fn every_two_digit_code_agrees_with_the_brute_force() {
    let max = 200usize;
    let rows = json(&["atlas", "0.dd", "--max", "200", "--format", "json"]);
    let rows = rows.as_array().unwrap();
    // d1, d2 in 0..=7, without the code 0.00 that has no move.
    assert_eq!(rows.len(), 63);
    assert_eq!(rows[0]["code"], "0.01");
    assert_eq!(rows[62]["code"], "0.77");
    for r in rows {
        let code = r["code"].as_str().unwrap();
        let g = brute(&digits(code), max);
        assert_eq!(
            r["largest"].as_u64().unwrap(),
            u64::from(*g.iter().max().unwrap()),
            "{code}"
        );
        if r["status"] == "none" {
            assert!(r["period"].is_null(), "{code}");
            continue;
        }
        // The period holds from the preperiod to the end of the prefix, and breaks just before.
        let p = r["period"].as_u64().unwrap() as usize;
        let pre = r["preperiod"].as_u64().unwrap() as usize;
        assert_eq!(r["saltus"], 0, "{code}");
        for n in pre..=max - p {
            assert_eq!(g[n + p], g[n], "{code}: g({}) != g({n})", n + p);
        }
        if pre > 0 {
            assert_ne!(g[pre - 1 + p], g[pre - 1], "{code}: period from {pre}");
            assert_eq!(r["last_exceptional"].as_u64(), Some(pre as u64 - 1));
        }
    }
    let find = |c: &str| rows.iter().find(|r| r["code"] == c).unwrap();
    // Kayles: period 12 from n = 71 (the last exceptional value at 70); Dawson's Kayles: period
    // 34 from n = 53, both proved by Guy–Smith within 200 heaps (2·71 + 12 + 2 - 1 + 12 = 167).
    let k = find("0.77");
    assert_eq!(
        (k["period"].as_u64(), k["preperiod"].as_u64()),
        (Some(12), Some(71))
    );
    assert_eq!(k["name"], "Kayles");
    assert_eq!(k["status"], "proved");
    let d = find("0.07");
    assert_eq!(
        (d["period"].as_u64(), d["preperiod"].as_u64()),
        (Some(34), Some(53))
    );
    assert_eq!(d["status"], "proved");
}

#[test]
fn text_and_csv_with_a_file() {
    // 4.d: d_0 = 4 (split a heap in two without removing a token) and d_1 in 0..=7.
    let text = ok(&["atlas", "4.d", "--max", "100"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("atlas 4.d: 8 codes"), "{text}");
    assert!(lines[1].starts_with("code"), "{text}");
    assert_eq!(lines.len(), 2 + 8 + 1, "{text}");
    // Aligned: every row as long as the header or shorter only by trailing blanks trimmed.
    let period_at = lines[1].find("period").unwrap();
    assert!(lines[2..10].iter().all(|l| l.len() >= period_at));
    let dir = TempDir::new("atlas-csv");
    let path = dir.path().join("a.csv");
    let out = common::nimlab(&[
        "atlas",
        "4.d",
        "--max",
        "100",
        "--format",
        "csv",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let csv = std::fs::read_to_string(&path).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "code",
            "name",
            "period",
            "saltus",
            "preperiod",
            "last_exceptional",
            "largest",
            "status",
            "method"
        ]
    );
    assert_eq!(rows.len(), 9);
    for r in &rows[1..] {
        let g = brute(&digits(r[0]), 100);
        assert_eq!(r[6], g.iter().max().unwrap().to_string(), "{r:?}");
    }
    // 4.0 splits a heap in two, nothing removed. By hand: g(0) = g(1) = 0 (no move); an even
    // heap splits into two odd or two even parts (worth equal values by induction: XOR 0), an odd
    // one into an odd and an even part (0 xor 1 = 1), so g = 0, 0, 1, 0, 1, 0, ...: period 2 from 1.
    let four = rows.iter().find(|r| r[0] == "4.0").unwrap();
    assert_eq!(
        (four[2], four[4], four[5], four[7]),
        ("2", "1", "0", "proved")
    );
}

#[test]
fn atlases_are_refused_with_one_line() {
    fails(
        &["atlas", "0.d", "--max", "10"],
        "give 0.dd, 0.ddd, 4.d or 4.dd",
    );
    fails(
        &["atlas", "0.dd", "--format", "xml"],
        "give text, csv or json",
    );
    // 511 codes to a million heaps: far over the budget, refused before any work.
    fails(&["atlas", "0.ddd", "--max", "1000000"], "--limit");
}
