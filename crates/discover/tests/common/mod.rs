//! Shared by the discover tests: z3 on the PATH (skipped with a note when missing, unless
//! NIMLAB_REQUIRE_Z3=1), and running discover with no store.
#![allow(dead_code)]

pub mod chip_brute;

use nimlab_discover::{Discovery, Options};

pub fn have_z3(test: &str) -> bool {
    let found = nimlab_testkit::tools::which("z3")
        .ok_or("z3 is not on the PATH (apt-get install z3)".to_string());
    nimlab_testkit::tools::need(test, "z3", found).is_some()
}

pub fn run(game: &str, max: Option<u64>) -> Discovery {
    let opts = Options {
        max,
        ..Options::default()
    };
    nimlab_discover::discover(game, &opts).unwrap_or_else(|e| panic!("{game}: {e}"))
}

/// The discovered characterization as the prover reads it (its families file).
pub fn conjecture(d: &Discovery) -> nimlab_prove::Conjecture {
    nimlab_prove::from_toml(d.toml.as_deref().expect("a families file"), "test").unwrap()
}

/// Calls `f` on every tuple of `[lo..=hi]^m`.
pub fn each_tuple(m: usize, lo: u64, hi: u64, f: &mut dyn FnMut(&[u64])) {
    let mut x = vec![lo; m];
    loop {
        f(&x);
        let mut i = 0;
        loop {
            if i == m {
                return;
            }
            if x[i] < hi {
                x[i] += 1;
                break;
            }
            x[i] = lo;
            i += 1;
        }
    }
}
