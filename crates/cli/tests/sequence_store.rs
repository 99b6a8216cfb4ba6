//! `nimlab sequence` keeps its values in the store: a longer run extends the stored prefix, a
//! shorter one is answered from it, a run stopped by Ctrl-C (held inside its computation by
//! `NIMLAB_HOLD_AT=sequence-compute`, after a save; `NIMLAB_CHECKPOINT=every` saves every 1024
//! heaps) keeps its prefix marked not complete and `--resume` continues it to the values of an
//! uninterrupted run, which equal a brute-force mex written here. `outcome`, `grundy` and `moves`
//! on heaps inside a stored sequence are answered from it (`Method` `stored-sequence`), checked
//! against a brute force of sums of two and three heaps.

mod common;
use common::{cmd, fails, json, TempDir};
use serde_json::Value;

/// g(0..=max) by brute force, every option of every heap: Officers (octal 0.6: remove one token,
/// leaving one or two non-empty heaps) or Grundy's game (split into two unequal non-empty heaps).
fn brute(officers: bool, max: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=max {
        let mut seen = std::collections::HashSet::new();
        let r = if officers { n.checked_sub(1) } else { Some(n) };
        if let Some(r) = r {
            if officers && r >= 1 {
                seen.insert(g[r]);
            }
            for a in 1..r {
                let b = r - a;
                if a < b || (officers && a == b) {
                    seen.insert(g[a] ^ g[b]);
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

fn values(v: &Value) -> Vec<u32> {
    v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

/// Runs `sequence GAME --max MAX` in the store `db`, held after its first save past the stored
/// prefix, and stops it with SIGINT: exit status 130 and one line saying what is kept.
#[cfg(unix)]
fn interrupted(game: &str, max: &str, db: &str) {
    let mut command = cmd();
    command
        .args(["sequence", game, "--max", max, "--db", db])
        .env("NIMLAB_CHECKPOINT", "every");
    let (mut child, rx) = common::spawn_held(command, "sequence-compute", libc::SIG_DFL);
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let status = child.wait().unwrap();
    let rest: Vec<String> = rx.iter().collect();
    let rest = rest.join("\n");
    assert_eq!(status.code(), Some(130), "{game}: {status:?} {rest}");
    common::assert_one_line(game, &rest);
    assert!(
        rest.contains("is kept in the store (not complete)"),
        "{rest}"
    );
}

#[cfg(unix)]
#[test]
fn a_sequence_interrupted_and_resumed_equals_the_uninterrupted_one_and_the_brute_force() {
    const MAX: usize = 6000;
    for (game, officers) in [("octal(0.6)", true), ("grundy", false)] {
        let dir = TempDir::new(&format!("seq-resume-{officers}"));
        let want = brute(officers, MAX);
        let max = MAX.to_string();
        let whole_db = dir.file("whole.sqlite3");
        let whole = json(&["sequence", game, "--max", &max, "--json", "--db", &whole_db]);
        assert_eq!(values(&whole), want, "{game}: uninterrupted vs brute force");
        assert_eq!(whole["store"]["answered"], false);
        assert_eq!(whole["store"]["extended_from"], Value::Null);

        // A complete shorter run, then a longer one stopped inside its first save past it.
        let db = dir.db();
        let short = json(&["sequence", game, "--max", "2500", "--json", "--db", &db]);
        assert_eq!(values(&short), want[..=2500]);
        interrupted(game, &max, &db);
        // The prefix kept: exact, not complete, and it answers a shorter request at once.
        let kept = json(&["sequence", game, "--max", "3000", "--json", "--db", &db]);
        assert_eq!(kept["store"]["answered"], true, "{kept}");
        assert_eq!(kept["store"]["complete"], false);
        let n = kept["store"]["n"].as_u64().unwrap();
        assert!((3000..MAX as u64).contains(&n), "{n}");
        assert_eq!(kept["method"]["name"], "store");
        assert_eq!(values(&kept), want[..=3000]);
        // Too long for what is kept: --resume continues from it, not from heap 0.
        let resumed = json(&[
            "sequence", game, "--max", &max, "--json", "--resume", "--db", &db,
        ]);
        assert_eq!(resumed["store"]["extended_from"], n, "{game}");
        assert_eq!(values(&resumed), want, "{game}: resumed vs brute force");
        assert_eq!(resumed["method"]["name"], "sparse");
        assert!(
            resumed["method"]["visits"].as_u64() < whole["method"]["visits"].as_u64(),
            "{game}: the resumed run visits fewer options than the whole one"
        );
        // Now complete, and answered from the store, in words too.
        let again = json(&["sequence", game, "--max", &max, "--json", "--db", &db]);
        assert_eq!(again["store"]["answered"], true);
        assert_eq!(again["store"]["complete"], true);
        assert_eq!(values(&again), want);
        let text = common::ok(&["sequence", game, "--max", "100", "--db", &db]);
        assert!(
            text.contains("from the store: g(0..=100) computed earlier by the sparse-space method"),
            "{text}"
        );
        // --restart computes from heap 0 again.
        let restarted = json(&[
            "sequence",
            game,
            "--max",
            "3000",
            "--json",
            "--restart",
            "--db",
            &db,
        ]);
        assert_eq!(restarted["store"]["answered"], false);
        assert_eq!(restarted["store"]["extended_from"], Value::Null);
        assert_eq!(values(&restarted), want[..=3000]);
    }
}

#[test]
fn contradictory_or_empty_resume_options_are_refused_in_one_line() {
    let dir = TempDir::new("seq-refused");
    let db = dir.db();
    for extra in [&["--resume"][..], &["--restart"][..]] {
        let mut a = vec!["sequence", "grundy", "--max", "50", "--no-store"];
        a.extend(extra);
        fails(&a, "--no-store");
    }
    fails(
        &[
            "sequence",
            "grundy",
            "--max",
            "50",
            "--resume",
            "--restart",
            "--db",
            &db,
        ],
        "cannot be used with",
    );
    fails(
        &["sequence", "grundy", "--max", "50", "--resume", "--db", &db],
        "no values of grundy",
    );
    let mut c = cmd();
    let out = c
        .args(["sequence", "grundy", "--max", "50", "--resume"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    common::assert_one_line(
        "resume with the store off",
        &String::from_utf8_lossy(&out.stderr),
    );
}

/// `store list` shows a stored sequence (text and JSON) with its id `sequence:ID`; `store rm` removes
/// it; `store export` of it is refused in one line, naming the command that writes its values.
#[test]
fn the_store_commands_see_sequences() {
    let dir = TempDir::new("seq-store-cmds");
    let db = dir.db();
    common::ok(&["sequence", "octal(0.6)", "--max", "300", "--db", &db]);
    let listed = json(&["store", "list", "--json", "--db", &db]);
    let seqs: Vec<&Value> = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["kind"] == "sequence")
        .collect();
    assert_eq!(seqs.len(), 1, "{listed}");
    assert_eq!(seqs[0]["game"], "octal(0.6)");
    assert_eq!(seqs[0]["n"], 300);
    assert_eq!(seqs[0]["complete"], true);
    let id = seqs[0]["id"].as_str().unwrap().to_string();
    let text = common::ok(&["store", "list", "--db", &db]);
    assert!(text.contains(&format!("{id}  octal(0.6)")), "{text}");
    fails(&["store", "export", &id, "--db", &db], "nimlab sequence");
    common::ok(&["store", "rm", &id, "--db", &db]);
    fails(&["store", "rm", &id, "--db", &db], "no sequence");
    let listed = json(&["store", "list", "--json", "--db", &db]);
    assert!(listed
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v["kind"] != "sequence"));
}

/// The options of the list of heaps `p` as the game writes them (a heap left in its place, a
/// second heap appended at the end), read from the rules afresh: Officers removes one token and
/// leaves one or two non-empty heaps; Grundy's game splits a heap into two unequal ones.
fn options(officers: bool, p: &[u64]) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for (i, &n) in p.iter().enumerate() {
        let r = if officers { n.checked_sub(1) } else { Some(n) };
        let Some(r) = r else { continue };
        if officers && r >= 1 {
            let mut q = p.to_vec();
            q[i] = r;
            out.push(q);
        }
        for a in 1..r {
            let b = r - a;
            if a < b || (officers && a == b) {
                let mut q = p.to_vec();
                q[i] = a;
                q.push(b);
                out.push(q);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `outcome`, `grundy`, `moves` and `moves --all` on sums of two and three heaps within a stored
/// sequence are answered from it, and agree with the brute force; past it they are not.
#[test]
fn outcome_and_moves_are_answered_from_a_stored_sequence() {
    const MAX: usize = 3000;
    for (game, officers) in [("octal(0.6)", true), ("grundy", false)] {
        let dir = TempDir::new(&format!("seq-answers-{officers}"));
        let db = dir.db();
        let g = brute(officers, MAX);
        common::ok(&["sequence", game, "--max", &MAX.to_string(), "--db", &db]);
        let xor = |p: &[u64]| p.iter().fold(0u32, |x, &h| x ^ g[h as usize]);
        let mut seed = 12345u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        let mut checked_p = 0;
        for k in 0..24 {
            let len = 2 + (k % 2);
            let mut p: Vec<u64> = (0..len).map(|_| next(MAX as u64 + 1)).collect();
            if k % 6 == 5 {
                // A P-position: the last heap chosen to cancel the others, where one does.
                let x = xor(&p[..len - 1]);
                match (0..=MAX).rev().find(|&h| g[h] == x) {
                    Some(h) => p[len - 1] = h as u64,
                    None => continue,
                }
            }
            let text: Vec<String> = p.iter().map(u64::to_string).collect();
            let pos = text.join(",");
            let want = xor(&p);
            checked_p += usize::from(want == 0);
            let o = json(&["outcome", game, &pos, "--json", "--db", &db]);
            let method = format!("sequence:1:0..={MAX}");
            assert_eq!(o["method"], method.as_str(), "{game} {pos}: {o}");
            assert_eq!(o["grundy"], want, "{game} {pos}");
            assert_eq!(o["outcome"], if want == 0 { "P" } else { "N" });
            let gr = json(&["grundy", game, &pos, "--json", "--db", &db]);
            assert_eq!(gr["grundy"], want);
            let m = json(&["moves", game, &pos, "--json", "--db", &db]);
            let winning: Vec<Vec<u64>> = options(officers, &p)
                .into_iter()
                .filter(|q| xor(q) == 0)
                .collect();
            assert_eq!(
                m["winning_moves"],
                serde_json::json!(winning),
                "{game} {pos}"
            );
            assert_eq!(m["winning_moves_complete"], true);
            assert_eq!(m["moves_method"], method.as_str());
            if k < 4 {
                // Every option valued by the chain, each from the stored sequence.
                let all = json(&["moves", game, &pos, "--all", "--json", "--db", &db]);
                let opts = all["options"].as_array().unwrap();
                assert_eq!(opts.len(), options(officers, &p).len());
                for o in opts {
                    let q: Vec<u64> = serde_json::from_value(o["position"].clone()).unwrap();
                    assert_eq!(o["grundy"], xor(&q), "{game} {pos} -> {q:?}");
                }
                assert_eq!(all["winning_moves"], serde_json::json!(winning));
            }
        }
        assert!(
            checked_p > 0,
            "{game}: some P-positions among those checked"
        );
        // A heap past the stored values: not answered from it.
        let past = format!("{},5", MAX + 1);
        let v = json(&["outcome", game, &past, "--json", "--db", &db]);
        assert_ne!(v["method"], format!("sequence:1:0..={MAX}").as_str());
        let text = common::ok(&["outcome", game, "1000,2000", "--db", &db]);
        assert!(
            text.contains(&format!("method: the stored sequence #1 (g(0..={MAX})")),
            "{text}"
        );
    }
}
