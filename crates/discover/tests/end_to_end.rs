//! `discover` end to end on the small linear games: each is proved for every size, and the
//! discovered set equals the theory crate's result (a proven theorem, which discover never reads)
//! on every position of a box of tens of thousands of positions.

mod common;

use common::{conjecture, each_tuple, have_z3, run};
use nimlab_core::Play;
use nimlab_discover::DiscoveryVerdict;

/// Compares the discovered set with the registry's complete result for `game` on `[lo..=hi]^m` for
/// every length `m` of the game; returns the number of positions compared.
fn agrees_with_theory(game: &str, hi: u64) -> usize {
    let d = run(game, None);
    assert_eq!(
        d.verdict,
        DiscoveryVerdict::Proved,
        "{game}: {:?}",
        d.reason
    );
    assert_eq!(d.prover, Some("smt"));
    let c = conjecture(&d);
    let g = nimlab_games::parse_game(game).unwrap();
    let lo = c.game.min_entry() as u64;
    let mut seen = 0;
    for m in c.game.lengths() {
        each_tuple(m, lo, hi, &mut |p| {
            let (t, v) = nimlab_theory::find(g.as_ref(), p, Play::Normal)
                .unwrap_or_else(|| panic!("{game}: no result decides {p:?}"));
            assert_eq!(
                c.contains(p),
                v.is_p,
                "{game}: {p:?}: discovered vs {}",
                t.id()
            );
            seen += 1;
        });
    }
    seen
}

#[test]
fn cn_3_3_and_cn_4_3() {
    if !have_z3("cn_3_3_and_cn_4_3") {
        return;
    }
    assert!(agrees_with_theory("CN(3,3)", 30) >= 20_000);
    assert!(agrees_with_theory("CN(4,3)", 14) >= 20_000);
}

/// Two of the larger games discover was accepted on. (CN(8,6) tabulates [0..9]^8 before its proof,
/// 7 s in a release build and far more on a loaded CI machine: scripts/bench-discover.sh runs it.)
#[test]
fn cn_6_3_and_cn_7_4() {
    if !have_z3("cn_6_3_and_cn_7_4") {
        return;
    }
    assert!(agrees_with_theory("CN(6,3)", 6) >= 20_000);
    assert!(agrees_with_theory("CN(7,4)", 4) >= 20_000);
}

#[test]
fn cn_4_2() {
    if !have_z3("cn_4_2") {
        return;
    }
    assert!(agrees_with_theory("CN(4,2)", 14) >= 20_000);
}

#[test]
fn cn_5_2_and_cn_5_3() {
    if !have_z3("cn_5_2_and_cn_5_3") {
        return;
    }
    assert!(agrees_with_theory("CN(5,2)", 8) >= 20_000);
    assert!(agrees_with_theory("CN(5,3)", 8) >= 20_000);
}

#[test]
fn scn_4_2_and_scn_5_3() {
    if !have_z3("scn_4_2_and_scn_5_3") {
        return;
    }
    assert!(agrees_with_theory("SCN(4,2)", 13) >= 20_000);
    assert!(agrees_with_theory("SCN(5,3)", 8) >= 20_000);
}

#[test]
fn scn_5_2_needs_parity() {
    if !have_z3("scn_5_2_needs_parity") {
        return;
    }
    assert!(agrees_with_theory("SCN(5,2)", 8) >= 20_000);
    let d = run("SCN(5,2)", None);
    assert!(
        d.families
            .iter()
            .any(|f| f.relations.iter().any(|r| r.starts_with("mod("))),
        "{:?}",
        d.families
    );
}

#[test]
fn the_families_file_is_what_prove_proves() {
    if !have_z3("the_families_file_is_what_prove_proves") {
        return;
    }
    let d = run("CN(5,2)", None);
    let c = conjecture(&d);
    let r = nimlab_prove::prove(&c, &nimlab_prove::SmtSolver::default()).unwrap();
    assert_eq!(r.verdict, nimlab_prove::Status::Proved);
    let mut d = d;
    d.file = Some("x.toml".into());
    let j = d.to_json();
    for k in [
        "game", "verdict", "format", "file", "prover", "box", "seconds",
    ] {
        assert!(!j[k].is_null(), "{k} in {j}");
    }
    assert_eq!(j["format"], "families");
    assert_eq!(j["verdict"], "proved");
    assert_eq!(j["box"]["min"], 0);
}
