//! The cost model's routes give the same Grundy values as a plain search.
//!
//! With no search budget the analyzer must compute a Grundy value it does not know (no theorem, no
//! store) from a Grundy table of the smallest box `[0..max p]^len` (the tables engine). Every
//! position of a box, for several window and face games, is answered that way and compared with a
//! plain exhaustive search written for the test (no oracle, no table), and the outcome with the
//! search's. Also: `outcome` leaves out a Grundy value whose cheapest computation is expensive and
//! says so, and asking twice answers from the analyzer's memory.

use nimlab_analysis::{Analyzer, Limits, Method, StoreHandle, Want};
use nimlab_core::{Budget, Game, Outcome, Play, Pos};
use rustc_hash::FxHashMap;

/// A plain search of the Grundy value, written for this test: mex of the options' values.
fn plain_grundy(game: &dyn Game, p: &[u64], memo: &mut FxHashMap<Pos, u64>) -> u64 {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let mut opts: Vec<Pos> = Vec::new();
    game.for_each_option(p, &mut |q| {
        opts.push(q.to_vec());
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    let mut seen: Vec<u64> = opts.iter().map(|q| plain_grundy(game, q, memo)).collect();
    seen.sort_unstable();
    seen.dedup();
    let mex = seen
        .iter()
        .enumerate()
        .find(|&(i, &v)| v != i as u64)
        .map_or(seen.len() as u64, |(i, _)| i as u64);
    memo.insert(p.to_vec(), mex);
    mex
}

/// Every tuple of `len` entries in 0..=hi, ordered by largest entry (so that each box's table is
/// computed once and then reused from the analyzer's memory).
fn positions_by_max(len: usize, hi: u64) -> Vec<Pos> {
    let mut all = vec![vec![]];
    for _ in 0..len {
        all = all
            .into_iter()
            .flat_map(|p: Pos| {
                (0..=hi).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    all.sort_by_key(|p| p.iter().copied().max().unwrap_or(0));
    all
}

fn no_search() -> Limits {
    Limits {
        budget: Budget {
            limit: 0.0,
            flag: None,
        },
        ..Limits::CLI
    }
}

/// Answers the Grundy value of every position of `ps` in `name` with no search allowed, each against
/// a plain search (and the outcome with it); how many answers `by_table` says came from a table.
fn answer_every(name: &str, ps: &[Pos], by_table: impl Fn(&Method) -> bool) -> usize {
    let game = nimlab_games::parse_game(name).unwrap();
    let g = game.as_ref();
    let an = Analyzer::new(StoreHandle::none(), no_search());
    let mut memo = FxHashMap::default();
    let mut tables = 0;
    for p in ps {
        let a = an
            .analyse(
                g,
                p,
                Play::Normal,
                Want {
                    grundy: true,
                    ..Want::default()
                },
            )
            .unwrap_or_else(|e| panic!("{name} {p:?}: {e}"));
        let want = plain_grundy(g, p, &mut memo);
        assert_eq!(a.grundy, Some(u128::from(want)), "{name} {p:?}: {a:?}");
        assert_eq!(a.outcome, Outcome::from_is_p(want == 0), "{name} {p:?}");
        tables += a.grundy_method.as_ref().is_some_and(&by_table) as usize;
    }
    tables
}

#[test]
fn grundy_tables_equal_a_plain_search_on_every_position_of_a_box() {
    // (game, stacks, largest entry): 2,401 to 16,384 positions each, 60,000 in all. Moore's Nim's
    // tables keep the sorted tuples alone.
    for (name, len, hi) in [
        ("CN(5,2)", 5, 5),
        ("CN(6,3)", 6, 3),
        ("CN(7,4)", 7, 3),
        ("moore(2)", 4, 6),
        ("moore(3)", 5, 5),
        ("simplicial({1,2},{2,3},{3,4})", 4, 8),
        ("ECN(6,{2},2)", 6, 3),
    ] {
        let ps = positions_by_max(len, hi);
        let by_table = answer_every(name, &ps, |m| matches!(m, Method::GrundyTable { .. }));
        assert!(
            by_table * 2 > ps.len() || name.starts_with("CN(5"),
            "{name}: only {by_table} of {} positions by a Grundy table",
            ps.len()
        );
        assert!(by_table > 0, "{name}: no position by a Grundy table");
    }
}

#[test]
fn circle_grundy_tables_equal_a_plain_search_on_every_circle_of_a_box() {
    // (game, piles, most tokens a pile): SCN circles of exactly `len` piles of 1..=hi tokens (their
    // options reach every shorter circle), 19,093 circles in all.
    for (name, len, hi) in [
        ("SCN(4,2)", 4, 8),
        ("SCN(5,2)", 5, 5),
        ("SCN(5,3)", 5, 6),
        ("SCN(6,4)", 6, 4),
    ] {
        let ps: Vec<Pos> = positions_by_max(len, hi - 1)
            .into_iter()
            .map(|p| p.iter().map(|&x| x + 1).collect())
            .collect();
        let by_table = answer_every(name, &ps, |m| matches!(m, Method::CircleGrundyTable { .. }));
        assert!(
            by_table * 2 > ps.len(),
            "{name}: only {by_table} of {} circles by a Grundy table",
            ps.len()
        );
    }
    // The route and its cost: SCN(4,2) (30,19,25,16) by a table of the circles of up to 4 piles of
    // 1..=30 tokens, far under the search's estimate.
    let game = nimlab_games::parse_game("SCN(4,2)").unwrap();
    let route = nimlab_analysis::cost::table_route(game.as_ref(), &[30, 19, 25, 16], 1e8).unwrap();
    assert_eq!(route.method(), Method::CircleGrundyTable { hi: 30, len: 4 });
    assert!(route.seconds() < 0.1, "{route:?}");
}

/// Moore's Nim keeps the values of the sorted tuples alone: a position whose box has more positions
/// than the limit (2.4e8 against 1e8) still has a table route, of 593,775 sorted tuples.
#[test]
fn a_table_of_sorted_tuples_fits_where_the_box_would_not() {
    let game = nimlab_games::parse_game("moore(2)").unwrap();
    let p = [24, 3, 17, 9, 0, 12];
    let route = nimlab_analysis::cost::table_route(game.as_ref(), &p, 1e8).unwrap();
    assert!(
        matches!(route, nimlab_analysis::cost::Route::Classes { positions, .. } if positions == 593_775.0),
        "{route:?}"
    );
    assert_eq!(route.method(), Method::GrundyTable { hi: 24, len: 6 });
    // Every permutation of the position reads the same entry of the table.
    let values = route.solve_table().unwrap();
    let v = route.table_value(&values, &p).unwrap();
    for q in [
        [0, 3, 9, 12, 17, 24],
        [24, 17, 12, 9, 3, 0],
        [9, 24, 0, 3, 12, 17],
    ] {
        assert_eq!(route.table_value(&values, &q), Some(v));
    }
    assert_eq!(route.table_value(&values, &[25, 3, 17, 9, 0, 12]), None);
}

/// Whether a value is cheap does not depend on the front end (`cheap_route` takes no limits): a Grundy
/// table is cheap only within the smallest box limit of the front ends (2e7 positions), even when its
/// estimate is under 0.1 s. The path complex 1-2-3 has faces of 4 entries in all: [0..280]^3 (2.2e7
/// positions) is estimated at about 0.09 s, and the search at minutes; [0..250]^3 is cheap.
#[test]
fn a_cheap_grundy_table_fits_every_front_end() {
    let game = nimlab_games::parse_game("simplicial({1,2},{2,3})").unwrap();
    let solver = nimlab_core::Solver::new(game.as_ref());
    let big = [280, 280, 280];
    let table = nimlab_analysis::cost::table_route(game.as_ref(), &big, 1e8).unwrap();
    assert!(
        table.seconds() <= nimlab_analysis::cost::CHEAP_SECONDS,
        "{table:?}"
    );
    assert_eq!(
        nimlab_analysis::cost::cheap_route(game.as_ref(), &solver, &big),
        None
    );
    let small = [250, 250, 250];
    let cheap = nimlab_analysis::cost::cheap_route(game.as_ref(), &solver, &small).unwrap();
    assert_eq!(cheap.method(), Method::GrundyTable { hi: 250, len: 3 });
}

#[test]
fn outcome_leaves_out_an_expensive_grundy_value_and_says_why() {
    let game = nimlab_games::parse_game("CN(7,4)").unwrap();
    let an = Analyzer::new(StoreHandle::none(), Limits::CLI);
    let p = [3, 9, 5, 6, 2, 3, 6];
    let a = an
        .analyse(
            game.as_ref(),
            &p,
            Play::Normal,
            Want {
                grundy_if_cheap: true,
                ..Want::default()
            },
        )
        .unwrap();
    assert_eq!(a.method, Method::Theorem("cn-7-4"));
    assert_eq!(a.grundy, None);
    let note = a.grundy_note.as_deref().unwrap();
    assert!(note.contains("Grundy table of the box [0..9]^7"), "{note}");
    assert_eq!(a.to_json()["grundy"], serde_json::Value::Null);
    // A small position's value is cheap: given at once, by the cheapest method.
    let a = an
        .analyse(
            game.as_ref(),
            &[1, 2, 0, 1, 2, 0, 1],
            Play::Normal,
            Want {
                grundy_if_cheap: true,
                ..Want::default()
            },
        )
        .unwrap();
    assert!(a.grundy.is_some() && a.grundy_note.is_none(), "{a:?}");
}

#[test]
fn a_computed_value_is_remembered() {
    let game = nimlab_games::parse_game("CN(6,3)").unwrap();
    let an = Analyzer::new(StoreHandle::none(), Limits::CLI);
    let p = [3, 1, 4, 1, 5, 2];
    let ask = || {
        an.analyse(
            game.as_ref(),
            &p,
            Play::Normal,
            Want {
                grundy: true,
                ..Want::default()
            },
        )
        .unwrap()
    };
    let first = ask();
    let again = ask();
    assert_eq!(first.grundy, again.grundy);
    assert_eq!(first.grundy_method, again.grundy_method);
    // The second answer searched nothing.
    assert_eq!(again.searched, 0, "{again:?}");
}
