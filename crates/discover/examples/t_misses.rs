//! Research run (not part of the test suite): the totals T misses up to 2000 chips, for
//! docs/findings.md §12 — `cargo run --release -p nimlab-discover --example t_misses`.

use nimlab_core::Play;
use nimlab_discover::chips::TotalsTable;
use nimlab_games::Redistribute;

fn main() {
    let games = [
        ("EJR(5,2)", Redistribute::ejr(5, 2).unwrap(), Play::Normal),
        ("EJR(5,3)", Redistribute::ejr(5, 3).unwrap(), Play::Normal),
        ("SER(4)", Redistribute::ser(4).unwrap(), Play::Misere),
    ];
    for (name, g, play) in games {
        let start = std::time::Instant::now();
        let mut tt = TotalsTable::new(&g, play);
        assert!(tt.extend(2000, &|| false));
        let misses: Vec<u64> = (g.k as u64..=2000)
            .filter(|&n| !tt.in_t[n as usize])
            .collect();
        println!(
            "{name} {play}: T computed to 2000 in {:.2} s; {} totals missing: {misses:?}",
            start.elapsed().as_secs_f64(),
            misses.len()
        );
    }
}
