//! Every built-in game of the catalogue (`nimlab_games::registry`), a few parameter choices each,
//! through the conformance check of its API ([`nimlab_testkit::conformance`]) on small random
//! positions and on the box of `table_domain` where it has one.

use nimlab_core::{Game, Rng, TableBound};
use nimlab_games::registry::{catalogue, parse_game};
use nimlab_testkit::conformance::{check_position, check_table_domain, Checked};

/// The instances checked for each family of the catalogue (a family without any fails the test).
fn instances(family: &str) -> &'static [&'static str] {
    match family {
        "nim" => &["nim"],
        "octal(d0.d1d2...)" => &[
            "octal(0.77)",
            "octal(0.07)",
            "octal(0.137)",
            "octal(4.7)",
            "octal(0.6)",
            "octal(0.3)",
            "octal(0.12)",
            "octal(0.F)",
            "octal(4.8)",
        ],
        "grundy" => &["grundy"],
        "subtraction(s1,s2,...)" => &["subtraction(1,3,4)", "subtraction(2,5)"],
        "moore(k)" => &["moore(1)", "moore(2)", "moore(3)"],
        "CN(n,k)" => &[
            "CN(5,3)", "CN(4,2)", "CN(6,3)", "CN(6,4)", "CN(7,5)", "CN(3,3)", "CN(5,1)",
        ],
        "SCN(n,k)" => &[
            "SCN(5,2)", "SCN(4,3)", "SCN(4,4)", "SCN(6,3)", "SCN(6,4)", "SCN(3,1)",
        ],
        "simplicial({..},..)" => &[
            "simplicial({1,2,3},{3,4},{4,1})",
            "simplicial({1,2},{3,4})",
            "simplicial({1,2},{2,3},{4})",
        ],
        "ECN(m,{s1,..},k)" => &["ECN(8,{1,2},3)", "ECN(5,{2},2)", "ECN(6,{1,3},2)"],
        "ET(k)" => &["ET(3)", "ET(4)"],
        "EABO(k)" => &["EABO(3)", "EABO(4)"],
        "ER(k)" => &["ER(3)", "ER(4)"],
        "SER(k)" => &["SER(3)", "SER(4)"],
        "EJR(k,j)" => &["EJR(4,2)", "EJR(5,2)"],
        "ENTROPY(k)" => &["ENTROPY(3)", "ENTROPY(4)"],
        _ => &[],
    }
}

/// Small positions of `game`: random ones (entries up to 2, 3 and 4; games with any number of
/// heaps: 1 to 4 heaps).
fn positions(game: &dyn Game, rng: &mut Rng) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    let any_heaps = game.table_bound() == (TableBound::Box { heaps: true });
    for round in 0..24u64 {
        let hi = 2 + round % 3;
        let p = if any_heaps {
            let heaps = 1 + (round % 4) as usize;
            Some((0..heaps).map(|_| rng.range(0, hi)).collect())
        } else {
            game.random_position(rng, hi)
        };
        match p {
            Some(p) if game.validate(&p).is_ok() => out.push(p),
            _ => {}
        }
    }
    out
}

#[test]
fn every_built_in_game_conforms() {
    let mut rng = Rng::new(25);
    let mut total = Checked::default();
    for entry in catalogue() {
        let names = instances(entry.name);
        assert!(
            !names.is_empty(),
            "the catalogue's {} has no instances in this conformance test",
            entry.name
        );
        for name in names {
            let game = parse_game(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            let game = game.as_ref();
            let ps = positions(game, &mut rng);
            assert!(ps.len() >= 10, "{name}: only {} random positions", ps.len());
            for p in &ps {
                check_position(game, p, &mut total);
            }
            if let TableBound::Box { heaps } = game.table_bound() {
                for hi in [1, 2] {
                    let d = game
                        .table_domain(hi, heaps.then_some(3))
                        .unwrap_or_else(|e| panic!("{name}: table_domain({hi}): {e}"));
                    check_table_domain(game, &d);
                }
            }
        }
    }
    eprintln!("{total:?}");
    assert!(total.splits > 20, "{total:?}");
    assert!(total.counted > 100, "{total:?}");
    assert!(total.is_option_answers > 10_000, "{total:?}");
}
