//! `table` through the engine and the store: same answers as the plain search, stored once and then
//! looked up, `store list|export|rm`, Grundy tables and the streaming formats. Every run uses its own
//! store file (`--db`) or none.

mod common;

use common::{cmd, csv_rows, json, nimlab, ok, TempDir};
use serde_json::Value;
use std::process::Child;

#[test]
fn engine_and_naive_agree_through_the_cli() {
    for game in ["CN(5,2)", "SCN(4,2)", "moore(2)"] {
        for misere in [false, true] {
            let mut args = vec!["table", game, "--max", "5", "--json", "--no-store"];
            if game == "moore(2)" {
                args.extend(["--heaps", "4"]);
            }
            if misere {
                args.push("--misere");
            }
            let fast = json(&args);
            args.extend(["--method", "naive"]);
            let slow = json(&args);
            assert_eq!(fast["method"], "engine");
            assert_eq!(slow["method"], "naive");
            for k in [
                "count",
                "canonical_count",
                "positions",
                "by_length",
                "positions_in_box",
            ] {
                assert_eq!(fast[k], slow[k], "{game} misère {misere}: {k}");
            }
        }
    }
}

#[test]
fn tables_are_stored_then_looked_up() {
    let dir = TempDir::new("store-lookup");
    let db = dir.db();
    let db_s = db.as_str();
    let args = ["table", "CN(5,3)", "--max", "6", "--json", "--db", db_s];
    let first = json(&args);
    assert_eq!(first["method"], "engine");
    let second = json(&args);
    assert_eq!(second["method"], "store");
    assert_eq!(first["positions"], second["positions"]);
    assert_eq!(first["count"], second["count"]);
    // Misère is another table.
    let m = json(&[
        "table", "CN(5,3)", "--max", "6", "--json", "--misere", "--db", db_s,
    ]);
    assert_eq!(m["method"], "engine");

    let list = json(&["store", "list", "--json", "--db", db_s]);
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["game"], "CN(5,3)");
    assert_eq!(list[0]["complete"], true);
    assert_eq!(list[0]["count"], first["count"]);
    let id = list[0]["id"].as_i64().unwrap().to_string();
    let csv = ok(&["store", "export", &id, "--format", "csv", "--db", db_s]);
    let rows = csv_rows(&csv, "p1,p2,p3,p4,p5");
    assert_eq!(
        rows.len() as u64,
        first["canonical_count"].as_u64().unwrap()
    );
    let first_line: Vec<u64> = rows[0].split(',').map(|x| x.parse().unwrap()).collect();
    assert_eq!(serde_json::json!(first_line), first["positions"][0]);
    let jsonl = ok(&["store", "export", &id, "--format", "jsonl", "--db", db_s]);
    let v: Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(v, first["positions"][0]);
    ok(&["store", "rm", &id, "--db", db_s]);
    assert_eq!(
        json(&["store", "list", "--json", "--db", db_s])
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert!(!nimlab(&["store", "rm", &id, "--db", db_s]).status.success());
    let again = json(&args);
    assert_eq!(again["method"], "engine");
}

#[test]
fn grundy_tables_and_histograms() {
    // Two-heap Nim in 0..=3: g = a xor b, each value 0..=3 four times.
    let v = json(&[
        "table",
        "nim",
        "--heaps",
        "2",
        "--max",
        "3",
        "--grundy",
        "--json",
        "--no-store",
    ]);
    assert_eq!(v["histogram"], serde_json::json!([4, 4, 4, 4]));
    let values = v["values"].as_array().unwrap();
    assert_eq!(values.len(), 16);
    for e in values {
        let p = e["position"].as_array().unwrap();
        let x = p[0].as_u64().unwrap() ^ p[1].as_u64().unwrap();
        assert_eq!(e["grundy"].as_u64().unwrap(), x);
    }
    let csv = ok(&[
        "table",
        "CN(4,2)",
        "--max",
        "3",
        "--grundy",
        "--format",
        "csv",
        "--no-store",
    ]);
    assert_eq!(csv_rows(&csv, "p1,p2,p3,p4,grundy").len(), 256);
    // The engine and the plain search agree on CN(5,3) and SCN(4,3).
    let cn53 = |extra: &[&str]| {
        let mut args = vec!["table", "CN(5,3)", "--max", "4", "--grundy", "--json"];
        args.extend_from_slice(extra);
        json(&args)
    };
    let a = cn53(&["--no-store"]);
    let b = cn53(&["--no-store", "--method", "naive"]);
    assert_eq!(a["values"], b["values"]);
    let s = json(&[
        "table",
        "SCN(3,2)",
        "--max",
        "3",
        "--grundy",
        "--json",
        "--count-only",
        "--no-store",
    ]);
    assert_eq!(s["positions_in_box"], 40);
    let scn = |method: &str| {
        json(&[
            "table",
            "SCN(4,3)",
            "--max",
            "5",
            "--grundy",
            "--json",
            "--no-store",
            "--method",
            method,
        ])
    };
    let (fast, slow) = (scn("fast"), scn("naive"));
    assert_eq!(fast["method"], "engine");
    assert_eq!(slow["method"], "naive");
    assert_eq!(fast["values"], slow["values"]);
    assert_eq!(
        fast["values"].as_array().unwrap().len(),
        1 + 5 + 25 + 125 + 625
    );
    // Stored Grundy tables are looked up.
    let dir = TempDir::new("store-grundy");
    let db = dir.db();
    assert_eq!(cn53(&["--db", &db])["method"], "engine");
    let again = cn53(&["--db", &db]);
    assert_eq!(again["method"], "store");
    assert_eq!(again["values"], a["values"]);
}

#[test]
fn streaming_formats_and_files() {
    let v = json(&["table", "CN(6,3)", "--max", "4", "--json", "--no-store"]);
    let jsonl = ok(&[
        "table",
        "CN(6,3)",
        "--max",
        "4",
        "--format",
        "jsonl",
        "--no-store",
    ]);
    let rows: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(serde_json::json!(rows), v["positions"]);
    let csv = ok(&[
        "table",
        "CN(6,3)",
        "--max",
        "4",
        "--format",
        "csv",
        "--no-store",
    ]);
    assert_eq!(csv_rows(&csv, "p1,p2,p3,p4,p5,p6").len(), rows.len());
    let dir = TempDir::new("store-file");
    let path = dir.file("t.json");
    ok(&[
        "table",
        "CN(6,3)",
        "--max",
        "4",
        "--json",
        "--no-store",
        "-o",
        &path,
    ]);
    let w: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(w["positions"], v["positions"]);
    assert!(!dir.path().join("t.partial").exists());
}

#[test]
fn outcome_and_grundy_look_up_stored_tables() {
    let dir = TempDir::new("store-outcome");
    let db = dir.db();
    let with_db = |args: &[&str]| -> Value {
        let out = cmd().env("NIMLAB_DB", &db).args(args).output().unwrap();
        common::parse(args, &common::success(args, out))
    };
    let before = with_db(&["outcome", "CN(6,2)", "1,2,3,1,2,3", "--json"]);
    assert!(
        !before["method"].as_str().unwrap().starts_with("store"),
        "{before}"
    );
    with_db(&["table", "CN(6,2)", "--max", "4", "--json", "--count-only"]);
    for (p, want) in [("1,2,3,1,2,3", "P"), ("1,2,1,2,1,3", "N")] {
        let v = with_db(&["outcome", "CN(6,2)", p, "--json"]);
        assert_eq!(v["outcome"], want);
        assert!(v["method"].as_str().unwrap().starts_with("store:"));
    }
    // --db names the store to look in; --no-store searches.
    let explicit = dir.file("explicit.sqlite3");
    let e = explicit.as_str();
    ok(&["table", "CN(6,2)", "--max", "3", "--count-only", "--db", e]);
    let v = json(&["outcome", "CN(6,2)", "1,2,3,1,2,3", "--json", "--db", e]);
    assert!(v["method"].as_str().unwrap().starts_with("store:"), "{v}");
    // A stored P-position has Grundy value 0; an N-position's value needs a Grundy table or a search.
    let g = json(&["grundy", "CN(6,2)", "1,2,3,1,2,3", "--json", "--db", e]);
    assert_eq!(g["grundy"], 0, "{g}");
    let g = json(&["grundy", "CN(6,2)", "1,2,1,2,1,3", "--json", "--db", e]);
    // No Grundy table is stored: it is computed, by the search or a Grundy table of [0..3]^6
    // (whichever the cost model finds cheaper).
    let how = g["grundy_method"].as_str().unwrap();
    assert!(
        how == "search" || how == "grundy-table:[0..3]^6",
        "no Grundy table stored: {g}"
    );
    assert!(g["grundy"].as_u64().unwrap() > 0, "{g}");
    let v = json(&[
        "outcome",
        "CN(6,2)",
        "1,2,3,1,2,3",
        "--json",
        "--db",
        e,
        "--no-store",
    ]);
    assert!(!v["method"].as_str().unwrap().starts_with("store"), "{v}");
    // Outside the stored box: another method again.
    let v = with_db(&["outcome", "CN(6,2)", "1,2,3,1,2,5", "--json"]);
    assert!(!v["method"].as_str().unwrap().starts_with("store"), "{v}");
    with_db(&[
        "table",
        "CN(6,2)",
        "--max",
        "4",
        "--json",
        "--grundy",
        "--count-only",
    ]);
    let v = with_db(&["grundy", "CN(6,2)", "1,2,1,2,1,3", "--json"]);
    assert!(v["method"].as_str().unwrap().starts_with("store:"));
    let search = json(&["grundy", "CN(6,2)", "1,2,1,2,1,3", "--json"]);
    assert_eq!(v["grundy"], search["grundy"]);
}

/// Ctrl-C in the middle of a table run: the run stops with exit status 130 and the one-line
/// message, the store holds no complete table but the run's checkpoint, and a rerun stores its
/// table cleanly.
#[cfg(unix)]
#[test]
fn an_interrupted_run_stores_nothing() {
    interrupted_by(libc::SIGINT, "store-interrupt");
}

/// SIGTERM (what `kill`, a batch scheduler at its time limit or a shutdown sends) stops a table
/// as Ctrl-C does.
#[cfg(unix)]
#[test]
fn a_terminated_run_stops_as_ctrl_c_does() {
    interrupted_by(libc::SIGTERM, "store-terminate");
}

/// A table run started with SIGINT ignored (a background job of a shell script, `nohup`) leaves it
/// ignored, as other Unix tools do; SIGTERM still stops it.
#[cfg(unix)]
#[test]
fn an_ignored_ctrl_c_stays_ignored() {
    let dir = TempDir::new("store-ignored");
    let db = dir.db();
    let (mut run, _lines) = held_table(&db, libc::SIG_IGN);
    let pid = run.0.id();
    // Held inside the computation, so the handlers are in place: SIGINT ignored, SIGTERM caught
    // (read from /proc where there is one).
    if std::path::Path::new("/proc/self/status").exists() {
        assert!(ignores(pid, libc::SIGINT) && !catches(pid, libc::SIGINT));
        assert!(catches(pid, libc::SIGTERM));
    }
    assert_eq!(unsafe { libc::kill(pid as libc::pid_t, libc::SIGTERM) }, 0);
    let status = run.0.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
}

/// A `table` run of CN(7,4) in [0..12]^7 with its store at `db`, started with SIGINT's action
/// `sigint` and held (NIMLAB_HOLD_AT) once the engine has finished its first diagonal; returns once
/// it holds there, with the receiver of the rest of its standard error.
#[cfg(unix)]
fn held_table(db: &str, sigint: libc::sighandler_t) -> (Reap, std::sync::mpsc::Receiver<String>) {
    let mut command = cmd();
    command.args([
        "table",
        "CN(7,4)",
        "--max",
        "12",
        "--count-only",
        "--db",
        db,
    ]);
    let (child, rx) = common::spawn_held(command, "table-compute", sigint);
    (Reap(child), rx)
}

#[cfg(unix)]
fn interrupted_by(signal: libc::c_int, name: &str) {
    let dir = TempDir::new(name);
    let db = dir.db();
    let (mut run, lines) = held_table(&db, libc::SIG_DFL);
    let pid = run.0.id();
    assert_eq!(unsafe { libc::kill(pid as libc::pid_t, signal) }, 0);
    let status = run.0.wait().unwrap();
    let err: Vec<String> = lines.iter().collect();
    let err = err.join("\n");
    assert_eq!(status.code(), Some(130), "{status:?}: {err}");
    common::assert_one_line("interrupted table", &err);
    assert!(
        err.contains("interrupted before the computation finished"),
        "{err}"
    );
    // Stopped after its first diagonal: the checkpoint is kept and said.
    assert!(
        err.contains("run the same command again to continue"),
        "{err}"
    );
    let list = json(&["store", "list", "--json", "--db", &db]);
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .all(|e| e["complete"] != true),
        "an interrupted run stored a complete table: {list}"
    );
    // A rerun on a smaller box starts cleanly and stores its table.
    let v = json(&[
        "table",
        "CN(7,4)",
        "--max",
        "4",
        "--json",
        "--count-only",
        "--db",
        &db,
    ]);
    assert_eq!(v["method"], "engine");
    let list = json(&["store", "list", "--json", "--db", &db]);
    let list = list.as_array().unwrap();
    // The stored table, and the interrupted one as unfinished: its checkpoint, without an id.
    assert_eq!(list.len(), 2, "{list:?}");
    assert_eq!(list[0]["complete"], true);
    assert_eq!(list[0]["count"], v["count"]);
    assert_eq!(list[1]["complete"], false);
    assert_eq!(list[1]["id"], serde_json::Value::Null);
    assert_eq!(list[1]["hi"], 12);
}

/// Kills and reaps a child process when dropped, so that a failing test leaves nothing running.
struct Reap(Child);

impl Drop for Reap {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// True when process `pid` catches `signal` (its handler is installed), read from
/// `/proc/PID/status`; true where there is no `/proc`.
#[cfg(unix)]
fn catches(pid: u32, signal: libc::c_int) -> bool {
    signal_mask(pid, "SigCgt:", signal).unwrap_or(true)
}

/// True when process `pid` ignores `signal`; true where there is no `/proc`.
#[cfg(unix)]
fn ignores(pid: u32, signal: libc::c_int) -> bool {
    signal_mask(pid, "SigIgn:", signal).unwrap_or(true)
}

#[cfg(unix)]
fn signal_mask(pid: u32, field: &str, signal: libc::c_int) -> Option<bool> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .map(|mask| mask & (1 << (signal - 1)) != 0)
}

/// A scripted game whose options have smaller sums but are not lexicographically smaller: the plain
/// Grundy table visits positions by sum, so its zeros are the P-set, each P-position checked by search.
#[test]
fn plain_grundy_tables_follow_the_sum_order() {
    let dir = TempDir::new("store-rev");
    let script = dir.write(
        "rev.rhai",
        "// Take one token from a stack, then the two stacks trade places.\n\
         fn options(p) {\n\
             let out = [];\n\
             if p[0] > 0 { out.push([p[1], p[0] - 1]); }\n\
             if p[1] > 0 { out.push([p[1] - 1, p[0]]); }\n\
             out\n\
         }\n",
    );
    let s = script.as_str();
    let table = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["table", s, "--max", "5", "--heaps", "2", "--format", "csv"];
        args.extend_from_slice(extra);
        let header = if extra.is_empty() {
            "p1,p2"
        } else {
            "p1,p2,grundy"
        };
        csv_rows(&ok(&args), header)
    };
    let p_set = table(&[]);
    let zeros: Vec<String> = table(&["--grundy"])
        .iter()
        .filter_map(|l| l.strip_suffix(",0").map(str::to_string))
        .collect();
    assert_eq!(zeros, p_set);
    // (0,3) -> (2,0) is lexicographically larger; every listed position is P by search.
    for p in &p_set {
        assert_eq!(json(&["outcome", s, p, "--json"])["outcome"], "P", "{p}");
    }
}

/// A box whose engine would need more memory than the machine allows is refused before it starts,
/// in one line that names the amount (`NIMLAB_ENGINE_MEMORY` lowers the bound to 1 MB here); within
/// the bound, CN(6,3) --max 31 --grundy (1.07e9 positions, past the old cap of 1e9) is planned.
#[test]
fn boxes_beyond_the_memory_bound_are_refused_with_the_amount() {
    let cases: [(&[&str], &str); 2] = [
        (
            &[
                "table",
                "CN(6,3)",
                "--max",
                "31",
                "--grundy",
                "--count-only",
                "--no-store",
                "--limit",
                "1e20",
            ],
            "a Grundy table of CN(6,3) with --max 31 (1.1e9 positions) needs about",
        ),
        (
            &[
                "table",
                "SCN(6,4)",
                "--max",
                "127",
                "--count-only",
                "--no-store",
                "--limit",
                "1e20",
            ],
            "the engine needs about",
        ),
    ];
    for (args, needle) in cases {
        let (code, err) = with_memory_bound("1000000", args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains(needle) && err.contains("GiB"),
            "{args:?}: {err}"
        );
    }
    // A box past what the Grundy engine lays out is refused in one line, its estimate never counted.
    let (code, err) = with_memory_bound(
        "1e15",
        &[
            "table",
            "CN(9,3)",
            "--max",
            "65534",
            "--grundy",
            "--count-only",
            "--no-store",
            "--limit",
            "1e300",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("positions the Grundy engine lays out"),
        "{err}"
    );
    // Within the bound the plan passes every check: `--resume` then finds no checkpoint (the last
    // check), where the cap of 1e9 positions used to refuse.
    let dir = TempDir::new("memory-bound");
    let db = dir.db();
    let args = [
        "table",
        "CN(6,3)",
        "--max",
        "31",
        "--grundy",
        "--count-only",
        "--limit",
        "1e20",
        "--resume",
        "--db",
        &db,
    ];
    let (_, err) = with_memory_bound("1e15", &args);
    assert!(err.contains("no checkpoint of this table"), "{err}");
}

/// Runs nimlab with the engines' memory bound set to `bytes`: its exit code and stderr.
fn with_memory_bound(bytes: &str, args: &[&str]) -> (Option<i32>, String) {
    let out = cmd()
        .args(args)
        .env("NIMLAB_ENGINE_MEMORY", bytes)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A box inside a stored larger box is answered from the stored table (`store_box_hi`), with the
/// same P-positions, counts and Grundy values as the plain search of the smaller box; `store gc`
/// then removes the tables a larger one holds, and `--dry-run` removes nothing.
#[test]
fn a_box_inside_a_stored_larger_box_is_read_from_it() {
    let dir = TempDir::new("store-within");
    let db = dir.db();
    let db_s = db.as_str();
    let cases: [(&str, &[&str], &str, &str); 6] = [
        ("CN(5,2)", &[], "9", "6"),
        ("CN(5,2)", &["--misere"], "8", "5"),
        ("SCN(5,3)", &[], "7", "5"),
        ("nim", &["--heaps", "3"], "12", "7"),
        ("CN(4,2)", &["--grundy"], "9", "6"),
        ("SCN(4,2)", &["--grundy"], "6", "4"),
    ];
    for (game, extra, big, small) in cases {
        let run = |max: &str, store: &[&str]| {
            let mut a = vec!["table", game, "--max", max, "--json"];
            a.extend(extra);
            a.extend(store);
            json(&a)
        };
        let stored = run(big, &["--db", db_s]);
        assert_eq!(stored["method"], "engine", "{game} {extra:?}");
        let within = run(small, &["--db", db_s]);
        assert_eq!(within["method"], "store", "{game} {extra:?}");
        assert_eq!(within["store_box_hi"], big.parse::<u64>().unwrap());
        assert_eq!(within["store_id"], stored["store_id"]);
        let plain = run(small, &["--no-store", "--method", "naive"]);
        for k in [
            "count",
            "canonical_count",
            "positions",
            "by_length",
            "values",
            "histogram",
            "positions_in_box",
        ] {
            assert_eq!(within[k], plain[k], "{game} {extra:?} max {small}: {k}");
        }
    }
    // Nothing stored for the smaller boxes; gc finds nothing to remove yet.
    let list = json(&["store", "list", "--json", "--db", db_s]);
    assert_eq!(list.as_array().unwrap().len(), cases.len());
    assert!(ok(&["store", "gc", "--db", db_s]).contains("no table is held by another"));
    // A smaller box stored first, then a larger one: gc removes the smaller (dry run: nothing).
    let first = json(&["table", "CN(4,3)", "--max", "4", "--json", "--db", db_s]);
    assert_eq!(first["method"], "engine");
    let larger = json(&["table", "CN(4,3)", "--max", "8", "--json", "--db", db_s]);
    assert_eq!(larger["method"], "engine");
    let dry = ok(&["store", "gc", "--dry-run", "--db", db_s]);
    let held = format!("would remove table {}", first["store_id"]);
    assert!(dry.contains(&held), "{dry}");
    assert!(dry.contains(&format!("held by table {}", larger["store_id"])));
    let count = || {
        json(&["store", "list", "--json", "--db", db_s])
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(count(), cases.len() + 2);
    let gc = ok(&["store", "gc", "--db", db_s]);
    assert!(
        gc.contains(&format!("removed table {}", first["store_id"])),
        "{gc}"
    );
    assert_eq!(count(), cases.len() + 1);
    let again = json(&["table", "CN(4,3)", "--max", "4", "--json", "--db", db_s]);
    assert_eq!(again["method"], "store");
    assert_eq!(again["positions"], first["positions"]);
    assert_eq!(again["count"], first["count"]);
}

/// A Grundy table whose values do not fit beside the engine's value sets keeps them in a mapped file
/// (`NIMLAB_ENGINE_MEMORY` makes this machine small here: 4 MB, above the 2.6 MB of value sets and
/// below them with the 2.1 MB of values): the same values as in memory, said in the JSON, not stored
/// (the store reads tables back whole), and no file left behind.
#[test]
fn grundy_values_past_memory_are_kept_on_disk() {
    let dir = TempDir::new("values-on-disk");
    let scratch = dir.path().join("scratch");
    std::fs::create_dir_all(&scratch).unwrap();
    let args = [
        "table",
        "CN(4,2)",
        "--max",
        "31",
        "--grundy",
        "--format",
        "csv",
        "--no-store",
    ];
    let in_memory = ok(&args);
    let run = |args: &[&str]| {
        cmd()
            .args(args)
            .env("NIMLAB_ENGINE_MEMORY", "4000000")
            .env("NIMLAB_SCRATCH", &scratch)
            .output()
            .unwrap()
    };
    let out = run(&args);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), in_memory);
    let db = dir.db();
    let out = run(&[
        "table",
        "CN(4,2)",
        "--max",
        "31",
        "--grundy",
        "--count-only",
        "--json",
        "--db",
        &db,
    ]);
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["values_on_disk"], true);
    assert!(v.get("store_id").is_none(), "{v}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("not stored") && err.contains("past memory"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(&scratch).unwrap().count(),
        0,
        "no file left"
    );
    // A box whose value sets alone do not fit is refused with the amount.
    let out = run(&[
        "table",
        "CN(4,2)",
        "--max",
        "63",
        "--grundy",
        "--count-only",
        "--no-store",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("MiB for the Grundy engine's value sets alone"),
        "{err}"
    );
}
