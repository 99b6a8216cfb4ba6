//! The search asks the analysis chain at every position it visits: below a position that a proven
//! result decides, it stops. Counted on CN(9,5), where only the partial Lemma 5 applies, against the
//! plain search on the same positions (outcomes must agree).

use nimlab_analysis::{Chain, StoreHandle};
use nimlab_core::{Game, Play, Solver};
use nimlab_games::CircularNim;

#[test]
fn a_search_below_theorem_covered_positions_visits_fewer_positions() {
    let g = CircularNim::new(9, 5).unwrap();
    let store = StoreHandle::none();
    let mut compared = 0;
    let (mut plain_total, mut chained_total) = (0u64, 0u64);
    for seed in 0u64..40 {
        let p: Vec<u64> = (0..9).map(|i| (seed * 7 + i * 3 + seed * i) % 3).collect();
        // No engine (box 0): only proven results answer inside the search.
        let chain = Chain::new(&g, Play::Normal, &store, &p, 0.0);
        if chain.verdict(&p).is_some() {
            continue; // decided at the root: nothing to search
        }
        let mut plain = Solver::new(&g);
        let mut chained = Solver::with_oracle(&g, &chain);
        let a = plain.outcome(&p, Play::Normal).unwrap();
        let b = chained.outcome(&p, Play::Normal).unwrap();
        assert_eq!(a, b, "{p:?}");
        plain_total += plain.positions_searched();
        chained_total += chained.positions_searched();
        assert!(chained.positions_searched() <= plain.positions_searched());
        compared += 1;
        let _ = g.id();
    }
    assert!(compared >= 5, "only {compared} positions compared");
    eprintln!("searched: plain {plain_total}, with the chain {chained_total}");
    assert!(
        chained_total < plain_total,
        "plain {plain_total}, chained {chained_total}"
    );
}
