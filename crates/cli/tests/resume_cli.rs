//! `nimlab table` killed with SIGKILL continues from its checkpoint: the real binary runs with a
//! checkpoint after every diagonal (`NIMLAB_CHECKPOINT=every`, slowed down by
//! `NIMLAB_CHECKPOINT_DELAY_MS` so that the kill lands mid-run), is killed once its checkpoint reports
//! a given share of the work, and is run again with `--resume`. The listed positions (CSV), the counts
//! and the store entry must equal those of an uninterrupted run, which must equal the plain search
//! (`--method naive`, every option of every position) on the same box. Damaged, foreign and missing
//! checkpoints are refused with one line.

mod common;
use common::{cmd, entry, fails, nimlab, ok, progress, success, TempDir};
use nimlab_tables::checkpoint;
use serde_json::Value;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The table (CSV rows) and its store entry from an uninterrupted run in a fresh store.
fn uninterrupted(args: &[&str], dir: &TempDir) -> (String, Value) {
    let db = dir.file("whole.sqlite3");
    let mut a = args.to_vec();
    a.extend(["--format", "csv", "--db", &db]);
    let rows = ok(&a);
    (rows, entry(&db))
}

/// Runs the table in the store `db` with a checkpoint after every diagonal and kills it (SIGKILL)
/// once its checkpoint reports at least `percent`.
fn run_and_kill(args: &[&str], db: &str, percent: f64) {
    let mut a = args.to_vec();
    a.extend(["--count-only", "--db", db]);
    let mut child = cmd()
        .args(&a)
        .env("NIMLAB_CHECKPOINT", "every")
        .env("NIMLAB_CHECKPOINT_DELAY_MS", "40")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if progress(db).is_some_and(|p| p >= percent) {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("{args:?} ended ({status}) before its checkpoint reached {percent}%");
        }
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "{args:?}: no progress"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
}

fn check(args: &[&str], percents: &[f64]) {
    let dir = TempDir::new(&format!(
        "resume-{}",
        args.join("-")
            .replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    ));
    let (whole, stored) = uninterrupted(args, &dir);
    // The uninterrupted run against the plain search.
    let mut naive = args.to_vec();
    naive.extend(["--format", "csv", "--method", "naive", "--no-store"]);
    assert_eq!(whole, ok(&naive), "{args:?}: engine vs plain search");
    for (i, &pc) in percents.iter().enumerate() {
        let db = dir.file(&format!("killed{i}.sqlite3"));
        run_and_kill(args, &db, pc);
        let got = progress(&db).expect("a checkpoint after the kill");
        assert!(got >= pc && got < 100.0, "{got}");
        // `store list` shows the unfinished table and how far it got.
        let list = ok(&["store", "list", "--db", &db]);
        assert!(
            list.contains("unfinished") && list.contains(&format!("{got:.1}% done")),
            "{list}"
        );
        let mut a = args.to_vec();
        a.extend(["--format", "csv", "--resume", "--db", &db]);
        let out = cmd().args(&a).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(err.contains("resuming from the checkpoint"), "{err}");
        let rows = success(&a, out);
        assert_eq!(rows, whole, "{args:?} killed at {got:.1}% and resumed");
        assert_eq!(entry(&db), stored, "{args:?}: store entry after resuming");
        assert!(
            checkpoint::list(Path::new(&db)).is_empty(),
            "the checkpoint is removed when the table completes"
        );
        eprintln!("{args:?}: killed at {got:.1}%, resumed to the same table");
    }
}

#[test]
fn cn_pset_killed_and_resumed() {
    check(&["table", "CN(5,3)", "--max", "9"], &[15.0, 50.0, 85.0]);
    check(&["table", "CN(4,2)", "--max", "13", "--misere"], &[40.0]);
}

#[test]
fn scn_pset_killed_and_resumed() {
    check(&["table", "SCN(5,3)", "--max", "7"], &[10.0, 60.0]);
}

/// Entries past 63: lines of two words and more, checkpointed and resumed as with one.
#[test]
fn pset_past_63_killed_and_resumed() {
    check(&["table", "nim", "--heaps", "3", "--max", "70"], &[50.0]);
    check(&["table", "SCN(2,2)", "--max", "80", "--misere"], &[40.0]);
}

#[test]
fn cn_grundy_killed_and_resumed() {
    check(
        &["table", "CN(4,2)", "--max", "11", "--grundy"],
        &[20.0, 70.0],
    );
}

#[test]
fn scn_grundy_killed_and_resumed() {
    check(
        &["table", "SCN(4,2)", "--max", "9", "--grundy"],
        &[30.0, 75.0],
    );
}

/// A plain rerun (no `--resume`) continues as well, and says so.
#[test]
fn plain_rerun_resumes() {
    let dir = TempDir::new("resume-rerun");
    let db = dir.db();
    let args = ["table", "CN(5,3)", "--max", "9"];
    run_and_kill(&args, &db, 40.0);
    let out = nimlab(&["table", "CN(5,3)", "--max", "9", "--db", &db]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains("resuming from the checkpoint"), "{err}");
    let text = success("rerun", out);
    let naive = ok(&["table", "CN(5,3)", "--max", "9", "--method", "naive"]);
    // The counts lines agree (the timing differs).
    let counts = |t: &str| {
        t.lines()
            .nth(1)
            .unwrap()
            .split(" (")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(counts(&text), counts(&naive));
}

#[test]
fn damaged_foreign_and_missing_checkpoints_are_refused() {
    let dir = TempDir::new("resume-refused");
    let db = dir.db();
    let args = ["table", "CN(5,3)", "--max", "9"];
    run_and_kill(&args, &db, 30.0);
    let (path, _) = checkpoint::list(Path::new(&db)).remove(0);
    let good = std::fs::read(&path).unwrap();
    // One flipped byte in the payload, then one in the header.
    for at in [good.len() - 7, 20] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        std::fs::write(&path, &bad).unwrap();
        for extra in [&[][..], &["--resume"][..]] {
            let mut a = vec!["table", "CN(5,3)", "--max", "9", "--db", &db];
            a.extend(extra);
            fails(&a, "damaged");
            fails(&a, "--restart");
        }
    }
    // Cut short.
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    fails(&["table", "CN(5,3)", "--max", "9", "--db", &db], "damaged");
    // A checkpoint of CN(5,3) where the one of CN(5,2) belongs.
    let other_db = dir.file("other.sqlite3");
    run_and_kill(&["table", "CN(5,2)", "--max", "9"], &other_db, 30.0);
    let (other, _) = checkpoint::list(Path::new(&other_db)).remove(0);
    std::fs::write(&other, &good).unwrap();
    fails(
        &["table", "CN(5,2)", "--max", "9", "--db", &other_db],
        "belongs to another table",
    );
    // --restart discards it and computes the table from the start.
    let out = ok(&[
        "table",
        "CN(5,2)",
        "--max",
        "9",
        "--restart",
        "--db",
        &other_db,
    ]);
    let naive = ok(&["table", "CN(5,2)", "--max", "9", "--method", "naive"]);
    assert_eq!(
        out.lines().nth(1).map(|l| l.split(" (").next()),
        naive.lines().nth(1).map(|l| l.split(" (").next())
    );
    assert!(checkpoint::list(Path::new(&other_db)).is_empty());
    // --resume with nothing to resume, and options that cannot apply.
    fails(
        &["table", "CN(5,1)", "--max", "5", "--resume", "--db", &db],
        "no checkpoint",
    );
    fails(
        &["table", "CN(5,1)", "--max", "5", "--resume", "--no-store"],
        "--no-store",
    );
    fails(
        &[
            "table", "CN(5,1)", "--max", "5", "--resume", "--method", "naive", "--db", &db,
        ],
        "checkpoints are kept for engine tables",
    );
    fails(
        &[
            "table",
            "CN(5,1)",
            "--max",
            "5",
            "--resume",
            "--restart",
            "--db",
            &db,
        ],
        "cannot be used with",
    );
}

/// A checkpoint with a valid checksum written by another engine version is refused as foreign.
#[test]
fn checkpoint_of_another_engine_version_is_refused() {
    let dir = TempDir::new("resume-engine");
    let db = dir.db();
    run_and_kill(&["table", "CN(5,3)", "--max", "9"], &db, 30.0);
    let (path, _) = checkpoint::list(Path::new(&db)).remove(0);
    let f = std::fs::read(&path).unwrap();
    // "NIMLABCK" | format u32 | header length u32 | header | payload length u64 | CRC-32 u32 | payload
    let hlen = u32::from_le_bytes(f[12..16].try_into().unwrap()) as usize;
    let header = String::from_utf8(f[16..16 + hlen].to_vec()).unwrap();
    let engine = format!("\"engine\":\"{}\"", nimlab_tables::ENGINE_VERSION);
    assert!(header.contains(&engine), "{header}");
    let header = header.replace(&engine, "\"engine\":\"lines-0.0.0-old\"");
    let rest = &f[16 + hlen..];
    let payload = &rest[12..];
    let mut crc = crc32fast::Hasher::new();
    crc.update(header.as_bytes());
    crc.update(payload);
    let mut out = f[..12].to_vec();
    out.extend((header.len() as u32).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(&rest[..8]);
    out.extend(crc.finalize().to_le_bytes());
    out.extend(payload);
    std::fs::write(&path, out).unwrap();
    fails(
        &["table", "CN(5,3)", "--max", "9", "--db", &db],
        "was written by engine lines-0.0.0-old",
    );
    // `store list` still shows it, and --restart discards it.
    let list = ok(&["store", "list", "--db", &db]);
    assert!(list.contains("unfinished"), "{list}");
    // Only an unfinished table: the listing must not also say that nothing is stored.
    assert!(!list.contains("no tables stored"), "{list}");
    assert!(list.contains("no complete tables stored"), "{list}");
    ok(&["table", "CN(5,3)", "--max", "9", "--restart", "--db", &db]);
    assert!(checkpoint::list(Path::new(&db)).is_empty());
}
