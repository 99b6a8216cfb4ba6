//! `mpirun -np R nimlab table ... --backend mpi` (feature `mpi`) on 1, 2 and 3 ranks of this machine
//! (`--oversubscribe`): the listed positions (CSV), counts and store entries equal those of one
//! process (`--backend cpu`) on boxes of 10^6 positions and more for CN, SCN and a simplicial complex,
//! and a job killed with SIGKILL (mpirun and its ranks) continues from its checkpoint on another
//! number of ranks, or in one process, to the same table.
//!
//! Needs Open MPI's `mpirun` on the PATH: without it the tests say so and pass, unless
//! `NIMLAB_REQUIRE_MPI=1` (CI), where they fail.
#![cfg(feature = "mpi")]

mod common;
use common::{cmd, entry, ok, progress, success, TempDir};
use nimlab_tables::checkpoint;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `mpirun` with `ranks` ranks of the binary under test, or `None` (test skipped) without Open MPI.
fn mpirun(test: &str, ranks: usize) -> Option<Command> {
    let found = Command::new("mpirun")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let found = if found {
        Ok(())
    } else {
        Err("mpirun was not found (install openmpi-bin libopenmpi-dev)".to_string())
    };
    nimlab_testkit::tools::need(test, "mpi", found)?;
    let mut c = Command::new("mpirun");
    c.args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(env!("CARGO_BIN_EXE_nimlab"))
        .env("NIMLAB_DB", "off")
        // Open MPI refuses to start as root without these (containers, CI).
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        // Two ranks per core at most here: one thread each.
        .env("RAYON_NUM_THREADS", "1");
    Some(c)
}

/// The table as one process computes it (CSV rows, store entry), checked against the plain search
/// on a smaller box of the same game.
fn one_process(game: &str, max: &str, small: &str, dir: &TempDir) -> (String, Value) {
    let small_rows = ok(&["table", game, "--max", small, "--format", "csv"]);
    let naive = ok(&[
        "table", game, "--max", small, "--format", "csv", "--method", "naive",
    ]);
    assert_eq!(
        small_rows, naive,
        "{game} --max {small}: engine vs plain search"
    );
    let db = dir.file("one.sqlite3");
    let rows = ok(&[
        "table",
        game,
        "--max",
        max,
        "--format",
        "csv",
        "--backend",
        "cpu",
        "--db",
        &db,
    ]);
    (rows, entry(&db))
}

fn check_ranks(test: &str, game: &str, max: &str, small: &str) {
    let dir = TempDir::new(test);
    let (whole, stored) = one_process(game, max, small, &dir);
    for ranks in 1..=3 {
        let Some(mut c) = mpirun(test, ranks) else {
            return;
        };
        let db = dir.file(&format!("ranks{ranks}.sqlite3"));
        let args = [
            "table",
            game,
            "--max",
            max,
            "--format",
            "csv",
            "--backend",
            "mpi",
            "--db",
            &db,
        ];
        let out = c.args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        let rows = success((game, ranks), out);
        assert_eq!(rows, whole, "{game} --max {max} on {ranks} ranks");
        assert_eq!(entry(&db), stored, "{game} on {ranks} ranks: store entry");
        assert!(
            err.contains(&format!(
                "{ranks} MPI rank{} sent",
                if ranks == 1 { "" } else { "s" }
            )),
            "{err}"
        );
        eprintln!("{game} --max {max}: {ranks} ranks equal one process");
    }
}

#[test]
fn circular_nim_on_ranks_equals_one_process() {
    check_ranks("mpi-cn", "CN(6,3)", "12", "5");
}

#[test]
fn shrinking_circular_nim_on_ranks_equals_one_process() {
    check_ranks("mpi-scn", "SCN(5,3)", "17", "5");
}

/// Entries past 63: lines of two words, on ranks as in one process.
#[test]
fn entries_past_63_on_ranks_equal_one_process() {
    check_ranks("mpi-wide-cn", "CN(4,2)", "90", "5");
    check_ranks("mpi-wide-scn", "SCN(3,2)", "70", "5");
}

#[test]
fn complex_on_ranks_equals_one_process() {
    check_ranks(
        "mpi-complex",
        "simplicial({1,2,3},{3,4},{4,5,6},{6,1})",
        "10",
        "4",
    );
}

/// Runs the job with a checkpoint after every diagonal and kills mpirun and its ranks (SIGKILL to
/// the process group) once the checkpoint reports at least `percent`. False when skipped.
fn run_and_kill(test: &str, ranks: usize, args: &[&str], db: &str, percent: f64) -> bool {
    let Some(mut c) = mpirun(test, ranks) else {
        return false;
    };
    let mut child = c
        .args(args)
        .args(["--backend", "mpi", "--count-only", "--db", db])
        .env("NIMLAB_CHECKPOINT", "every")
        .env("NIMLAB_CHECKPOINT_DELAY_MS", "40")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !progress(db).is_some_and(|p| p >= percent) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("{args:?} ended ({status}) before its checkpoint reached {percent}%");
        }
        assert!(start.elapsed() < Duration::from_secs(600), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    // Ranks outlive a killed mpirun (they keep talking to each other), so every process of the job
    // is killed: the descendants of mpirun first (stopped, then killed), then mpirun.
    let job = descendants(child.id());
    for &p in &job {
        // SAFETY: signals to processes this test started (through mpirun).
        unsafe { libc::kill(p as i32, libc::SIGSTOP) };
    }
    for &p in &job {
        // SAFETY: as above.
        unsafe { libc::kill(p as i32, libc::SIGKILL) };
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let start = Instant::now();
    while job.iter().any(|p| alive(*p)) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the ranks did not end"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// The processes whose parent chain leads to `pid` (from /proc).
fn descendants(pid: u32) -> Vec<u32> {
    let parent_of = |p: u32| -> Option<u32> {
        let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).ok()?;
        // pid (comm) state ppid ...: the command may hold spaces, so read after the last ')'.
        stat.rsplit_once(')')?
            .1
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()
    };
    let all: Vec<u32> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        found.extend(all.iter().filter(|&&q| parent_of(q) == Some(p)));
        i += 1;
    }
    found.remove(0);
    found
}

/// True while `pid` runs (a zombie counts as ended).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|x| x.1.trim_start().starts_with('Z'))
        })
        .is_some_and(|zombie| !zombie)
}

#[test]
fn a_killed_job_continues_on_another_number_of_ranks() {
    let test = "mpi-kill";
    let dir = TempDir::new(test);
    for (game, max, killed_on, resumed_on, percent) in [
        ("CN(5,2)", "14", 3, Some(2), 40.0),
        ("SCN(5,3)", "11", 2, None, 60.0),
    ] {
        let (whole, stored) = one_process(game, max, "5", &dir);
        std::fs::remove_file(dir.file("one.sqlite3")).unwrap();
        let db = dir.file(&format!("killed-{killed_on}.sqlite3"));
        if !run_and_kill(
            test,
            killed_on,
            &["table", game, "--max", max],
            &db,
            percent,
        ) {
            return;
        }
        let got = progress(&db).expect("a checkpoint after the kill");
        assert!(got >= percent && got < 100.0, "{got}");
        let args = [
            "table", game, "--max", max, "--format", "csv", "--resume", "--db", &db,
        ];
        let out = match resumed_on {
            Some(r) => mpirun(test, r)
                .unwrap()
                .args(args)
                .args(["--backend", "mpi"])
                .output()
                .unwrap(),
            None => cmd()
                .args(args)
                .args(["--backend", "cpu"])
                .output()
                .unwrap(),
        };
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(err.contains("resuming from the checkpoint"), "{err}");
        let rows = success((game, resumed_on), out);
        assert_eq!(
            rows, whole,
            "{game}: killed on {killed_on} ranks at {got:.1}%, resumed on {resumed_on:?}"
        );
        assert_eq!(entry(&db), stored, "{game}: store entry after resuming");
        assert!(checkpoint::list(Path::new(&db)).is_empty());
        eprintln!("{game}: killed on {killed_on} ranks at {got:.1}%, resumed on {resumed_on:?} ranks to the same table");
    }
}

#[test]
fn a_stored_table_and_a_damaged_checkpoint_on_ranks() {
    let test = "mpi-store";
    let dir = TempDir::new(test);
    let db = dir.file("s.sqlite3");
    let Some(mut c) = mpirun(test, 2) else {
        return;
    };
    let args = [
        "table",
        "CN(5,2)",
        "--max",
        "9",
        "--backend",
        "mpi",
        "--format",
        "csv",
        "--db",
        &db,
    ];
    let first = success("first", c.args(args).output().unwrap());
    let out = mpirun(test, 2).unwrap().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(success("again", out), first);
    assert!(err.contains("answered from the store"), "{err}");
    // A damaged checkpoint is refused by rank 0, and every rank stops.
    let db2 = dir.file("d.sqlite3");
    assert!(run_and_kill(
        test,
        2,
        &["table", "CN(5,2)", "--max", "14"],
        &db2,
        30.0
    ));
    let (path, _) = checkpoint::list(Path::new(&db2)).pop().unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&path, bytes).unwrap();
    let out = mpirun(test, 2)
        .unwrap()
        .args([
            "table",
            "CN(5,2)",
            "--max",
            "14",
            "--backend",
            "mpi",
            "--db",
            &db2,
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success());
    assert!(
        err.contains("--restart") && !err.contains("panicked"),
        "{err}"
    );
}
