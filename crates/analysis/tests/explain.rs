//! An explanation's move follows its reasoning: where the result that decides names the part to
//! move in, the move shown is the result's own construction, checked here by a plain search.

use nimlab_analysis::{Analyzer, Limits, Method, StoreHandle, Want};
use nimlab_core::{Play, Solver};

#[test]
fn the_move_of_an_explanation_is_in_the_part_its_reason_names() {
    // ECN(6,{2},2) is the sum of stacks 1,3,5 and stacks 2,4,6: (1,1,1) is P and (2,2,3) is N, so
    // the reason says "win in the N part", and the move must lower a stack among 2, 4, 6.
    let game = nimlab_games::parse_game("ECN(6,{2},2)").unwrap();
    let an = Analyzer::new(StoreHandle::none(), Limits::CLI);
    let p = [1, 2, 1, 2, 1, 3];
    let a = an
        .analyse(game.as_ref(), &p, Play::Normal, Want::explain())
        .unwrap();
    let e = a.explanation.unwrap();
    assert_eq!(e.method, Method::Theorem("complex-components"));
    assert!(e.reason.contains("win in the N part"), "{}", e.reason);
    let q = e
        .winning_move
        .expect("an N-position's explanation names a move");
    let changed: Vec<usize> = (0..6).filter(|&i| q[i] != p[i]).collect();
    assert!(
        !changed.is_empty() && changed.iter().all(|i| i % 2 == 1),
        "{q:?}"
    );
    // The move is an option and lands on a P-position (plain search, no oracle).
    let mut is_option = false;
    game.for_each_option(&p, &mut |o| {
        is_option |= o == q.as_slice();
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    assert!(is_option, "{q:?}");
    assert!(Solver::new(game.as_ref())
        .outcome(&q, Play::Normal)
        .unwrap()
        .is_p());
}
