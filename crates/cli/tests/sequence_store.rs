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
use std::process::Stdio;
use std::time::Duration;

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
                if a <= b && !(!officers && a == b) {
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
    use std::io::BufRead;
    let mut child = cmd()
        .args(["sequence", game, "--max", max, "--db", db])
        .env("NIMLAB_CHECKPOINT", "every")
        .env("NIMLAB_HOLD_AT", "sequence-compute")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = std::io::BufReader::new(child.stderr.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in err.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    loop {
        match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(line) if line == "nimlab: holding at sequence-compute" => break,
            Ok(_) => {}
            Err(e) => {
                let _ = child.kill();
                panic!("{game}: the run never held: {e}");
            }
        }
    }
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
