//! `discover` on the redistribution chip games: each description it proves is compared with an
//! independent brute force (tests/common/chip_brute.rs) on every position up to a total.

mod common;

use common::chip_brute::{p_positions, Rules, T};
use nimlab_core::Play;
use nimlab_discover::{DiscoveryVerdict, Options};

fn discovered(game: &str, play: Play) -> T {
    let opts = Options {
        play,
        ..Options::default()
    };
    let d = nimlab_discover::discover(game, &opts).unwrap_or_else(|e| panic!("{game}: {e}"));
    assert_eq!(
        d.verdict,
        DiscoveryVerdict::Proved,
        "{game} {play}: {:?}",
        d.reason
    );
    let v = d.to_json();
    assert_eq!(v["verdict"], "proved");
    let t = &v["totals"];
    let list = |key: &str| -> Vec<u64> {
        t[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    T {
        threshold: t["threshold"].as_u64().unwrap(),
        period: t["period"].as_u64().unwrap(),
        residues: list("residues"),
        exceptions: list("exceptions"),
    }
}

/// The proved description gives the P-set of the brute force on every position up to total `s`.
fn agrees(game: &str, rules: Rules, s: u64) {
    if !common::have_z3(game) {
        return;
    }
    let play = if rules.misere {
        Play::Misere
    } else {
        Play::Normal
    };
    let t = discovered(game, play);
    let p = p_positions(&rules, s);
    assert!(p.len() > 500, "{game}: only {} positions", p.len());
    for (x, &is_p) in &p {
        assert_eq!(
            t.member(&rules, x),
            is_p,
            "{game} {play} at {x:?}: T = {t:?}"
        );
    }
}

#[test]
fn eabo3_is_rediscovered_and_proved() {
    agrees("EABO(3)", Rules::eabo(3), 60);
}

#[test]
fn er4_is_rediscovered_and_proved() {
    agrees("ER(4)", Rules::er(4), 34);
}

#[test]
fn ser3_is_rediscovered_and_proved() {
    agrees("SER(3)", Rules::ser(3), 50);
}

#[test]
fn ejr42_is_rediscovered_and_proved() {
    agrees("EJR(4,2)", Rules::ejr(4, 2), 34);
}

#[test]
fn misere_ejr42_and_er3_are_rediscovered_and_proved() {
    agrees("EJR(4,2)", Rules::ejr(4, 2).misere(), 34);
    agrees("ER(3)", Rules::er(3).misere(), 50);
}

#[test]
fn a_box_game_refuses_max_sum_and_a_chip_game_max() {
    let o = Options {
        max_sum: Some(20),
        ..Options::default()
    };
    let e = nimlab_discover::discover("CN(4,2)", &o)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--max-sum"), "{e}");
    let o = Options {
        max: Some(20),
        ..Options::default()
    };
    let e = nimlab_discover::discover("ER(3)", &o)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--max-sum"), "{e}");
    let e = nimlab_discover::discover("ENTROPY(4)", &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("patterns") && !e.contains('\n'), "{e}");
    let o = Options {
        max_sum: Some(100_000),
        ..Options::default()
    };
    let e = nimlab_discover::discover("EJR(6,2)", &o)
        .unwrap_err()
        .to_string();
    assert!(e.contains("smaller --max-sum"), "{e}");
}
