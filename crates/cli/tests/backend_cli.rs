//! `table --backend cpu|gpu|auto`: the answer names its back end (JSON `backend`, `adapter`); the GPU
//! gives the CPU's table (P-sets of CN and SCN, Grundy values of CN, complexes and SCN); `--backend
//! gpu` is refused with one line where it cannot run (a binary built without the `gpu` feature, games
//! or boxes the engine does not cover, no adapter).

mod common;

use common::{fails, json};

const CN: [&str; 6] = ["table", "CN(5,2)", "--max", "9", "--json", "--no-store"];

fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    CN.iter().chain(extra).copied().collect()
}

#[test]
fn the_cpu_and_a_small_auto_table_say_cpu() {
    for backend in ["cpu", "auto"] {
        let v = json(&with(&["--backend", backend]));
        assert_eq!(v["backend"], "cpu", "--backend {backend}");
        assert!(v["adapter"].is_null());
        assert!(v["count"].as_u64().unwrap() > 0);
    }
}

#[test]
fn a_stored_table_names_no_back_end() {
    let dir = std::env::temp_dir().join(format!("nimlab-test-{}-backend", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("t.sqlite3").display().to_string();
    let args = [
        "table",
        "CN(4,2)",
        "--max",
        "5",
        "--json",
        "--db",
        db.as_str(),
    ];
    assert_eq!(json(&args)["backend"], "cpu");
    let again = json(&args);
    assert_eq!(again["method"], "store");
    assert!(again["backend"].is_null());
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(not(feature = "gpu"))]
#[test]
fn without_the_feature_the_gpu_is_refused_with_one_line() {
    fails(
        &with(&["--backend", "gpu"]),
        "built without the `gpu` feature",
    );
    fails(
        &["table", "ER(3)", "--max-sum", "6", "--backend", "gpu"],
        "built without the `gpu` feature",
    );
}

/// The GPU's answer to `args` (with `--backend gpu`) against the CPU's, on the keys given; false
/// (after checking the one-line refusal) when there is no adapter and none is required.
#[cfg(feature = "gpu")]
fn same_on_gpu(args: &[&str], keys: &[&str]) -> bool {
    let mut extra: Vec<&str> = args.to_vec();
    extra.extend(["--backend", "gpu"]);
    let out = common::nimlab(&extra);
    if out.status.code() == Some(2) && !nimlab_testkit::tools::required("gpu") {
        let err = String::from_utf8_lossy(&out.stderr);
        common::assert_one_line("--backend gpu", &err);
        assert!(err.contains("no GPU adapter found"), "{err}");
        assert!(err.contains("mesa-vulkan-drivers"), "{err}");
        eprintln!("SKIPPED: {err}");
        return false;
    }
    let gpu = common::parse("--backend gpu", &common::success("--backend gpu", out));
    let n = extra.len();
    extra[n - 1] = "cpu";
    let cpu = json(&extra);
    assert_eq!(gpu["backend"], "gpu", "{args:?}");
    assert_eq!(cpu["backend"], "cpu", "{args:?}");
    assert!(!gpu["adapter"].as_str().unwrap().is_empty());
    // The host-device traffic of the GPU's run; none for the CPU.
    let t = &gpu["gpu_traffic"];
    assert!(t["submissions"].as_u64().unwrap() >= 1, "{args:?}: {t}");
    assert!(t["uploaded_bytes"].as_u64().unwrap() > 0, "{args:?}: {t}");
    assert!(t["downloaded_bytes"].is_u64() && t["waits"].is_u64(), "{t}");
    assert!(cpu.get("gpu_traffic").is_none(), "{args:?}");
    for k in keys {
        assert!(!cpu[k].is_null(), "{args:?}: {k}");
        assert_eq!(gpu[k], cpu[k], "{args:?}: {k}");
    }
    true
}

#[cfg(feature = "gpu")]
#[test]
fn the_gpu_gives_the_cpu_table_or_one_line_naming_the_fix() {
    let keys = ["count", "canonical_count", "positions", "by_length"];
    for misere in [false, true] {
        let mut args = with(&[]);
        if misere {
            args.push("--misere");
        }
        if !same_on_gpu(&args, &keys) {
            return;
        }
        let mut scn = vec!["table", "SCN(4,2)", "--max", "5", "--json", "--no-store"];
        // Entries past 63: lines of two words.
        let mut wide = vec!["table", "CN(3,2)", "--max", "70", "--json", "--no-store"];
        if misere {
            scn.push("--misere");
            wide.push("--misere");
        }
        same_on_gpu(&scn, &keys);
        same_on_gpu(&wide, &keys);
    }
}

#[cfg(feature = "gpu")]
#[test]
fn grundy_values_on_the_gpu_equal_the_cpu() {
    for args in [
        &[
            "table",
            "CN(4,2)",
            "--max",
            "6",
            "--grundy",
            "--json",
            "--no-store",
        ][..],
        &[
            "table",
            "simplicial({1,2,3},{3,4})",
            "--max",
            "5",
            "--grundy",
            "--format",
            "json",
            "--no-store",
        ],
        // SCN: each circle length on the GPU, the values of moves that empty piles from the host.
        &[
            "table",
            "SCN(5,3)",
            "--max",
            "9",
            "--grundy",
            "--json",
            "--no-store",
        ],
    ] {
        if !same_on_gpu(
            args,
            &[
                "count",
                "histogram",
                "max_value",
                "values",
                "positions_in_box",
            ],
        ) {
            return;
        }
    }
}

/// The text output of a Grundy table names its back end, as a P-set's does.
#[test]
fn a_grundy_table_in_text_names_its_back_end() {
    let out = common::nimlab(&[
        "table",
        "CN(3,2)",
        "--max",
        "3",
        "--grundy",
        "--count-only",
        "--no-store",
        "--backend",
        "cpu",
    ]);
    let text = common::success("--grundy", out);
    assert_eq!(text.lines().nth(1), Some("back end: cpu"), "{text}");
}

#[test]
fn the_gpu_is_refused_where_it_does_not_apply() {
    let why = if cfg!(feature = "gpu") {
        "--backend cpu"
    } else {
        "built without the `gpu` feature"
    };
    // Past the GPU's values per entry: 256 for P-sets (entries up to 255), 64 for Grundy values;
    // the refusal names both limits.
    for (max, grundy) in [("256", false), ("70", true)] {
        let mut args = vec!["table", "CN(3,2)", "--max", max, "--backend", "gpu"];
        if grundy {
            args.push("--grundy");
        }
        fails(&args, why);
        if cfg!(feature = "gpu") {
            fails(
                &args,
                "at most 256 values per entry for P-sets and 64 for Grundy values",
            );
        }
    }
    fails(
        &["table", "ER(3)", "--max-sum", "6", "--backend", "gpu"],
        why,
    );
}
