//! `table --backend cpu|gpu|auto`: the answer names its back end (JSON `backend`, `adapter`); the GPU
//! gives the CPU's table; `--backend gpu` is refused with one line where it cannot run (a binary built
//! without the `gpu` feature, Grundy tables, SCN, no adapter).

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

#[cfg(feature = "gpu")]
#[test]
fn the_gpu_gives_the_cpu_table_or_one_line_naming_the_fix() {
    for misere in [false, true] {
        let mut extra = vec!["--backend", "gpu"];
        if misere {
            extra.push("--misere");
        }
        let out = common::nimlab(&with(&extra));
        if out.status.code() == Some(2) && std::env::var("NIMLAB_REQUIRE_GPU").as_deref() != Ok("1")
        {
            let err = String::from_utf8_lossy(&out.stderr);
            common::assert_one_line("--backend gpu", &err);
            assert!(err.contains("no GPU adapter found"), "{err}");
            assert!(err.contains("mesa-vulkan-drivers"), "{err}");
            eprintln!("SKIPPED: {err}");
            return;
        }
        let gpu = common::parse("--backend gpu", &common::success("--backend gpu", out));
        extra[1] = "cpu";
        let cpu = json(&with(&extra));
        assert_eq!(gpu["backend"], "gpu");
        assert!(!gpu["adapter"].as_str().unwrap().is_empty());
        for k in ["count", "canonical_count", "positions", "by_length"] {
            assert_eq!(gpu[k], cpu[k], "misère {misere}: {k}");
        }
    }
}

#[test]
fn the_gpu_is_refused_where_it_does_not_apply() {
    let why = if cfg!(feature = "gpu") {
        "--backend cpu"
    } else {
        "built without the `gpu` feature"
    };
    fails(&with(&["--backend", "gpu", "--grundy"]), why);
    fails(
        &["table", "SCN(4,2)", "--max", "4", "--backend", "gpu"],
        why,
    );
}
