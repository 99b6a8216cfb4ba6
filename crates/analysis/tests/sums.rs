//! Sums, remoteness and suspense against independent brute forces written here:
//! * disjunctive sums: search on the product game (a move in exactly one component);
//! * remoteness: decides conjunctive compounds (move in every component; play stops when one ends);
//! * suspense: decides continued conjunctive compounds (move in every component that can still move).
//!
//! The brute forces use only the components' option lists (checked against their own brute force in
//! crates/games/tests/crosscheck.rs).

use nimlab_analysis::sums::solve_sum;
use nimlab_analysis::{Analyzer, Limits, StoreHandle};
use nimlab_core::{Game, Outcome, Play, Pos, Solver};
use nimlab_games::{parse_game, parse_sum};
use std::collections::HashMap;

/// Who wins a compound of components, by plain recursion over tuples of positions.
struct Compound<'a> {
    games: Vec<&'a dyn Game>,
    kind: Kind,
    misere: bool,
    memo: HashMap<Vec<Pos>, bool>,
}

#[derive(Clone, Copy)]
enum Kind {
    Disjunctive,
    Conjunctive,
    Continued,
}

impl Compound<'_> {
    /// True when the player to move wins.
    fn wins(&mut self, ps: &[Pos]) -> bool {
        if let Some(&w) = self.memo.get(ps) {
            return w;
        }
        let opts: Vec<Vec<Pos>> = self
            .games
            .iter()
            .zip(ps)
            .map(|(g, p)| g.options(p).unwrap())
            .collect();
        let mut next: Vec<Vec<Pos>> = Vec::new();
        match self.kind {
            Kind::Disjunctive => {
                for (i, o) in opts.iter().enumerate() {
                    for q in o {
                        let mut t = ps.to_vec();
                        t[i] = q.clone();
                        next.push(t);
                    }
                }
            }
            Kind::Conjunctive | Kind::Continued => {
                let conj = matches!(self.kind, Kind::Conjunctive);
                if !(conj && opts.iter().any(|o| o.is_empty()))
                    && opts.iter().any(|o| !o.is_empty())
                {
                    // Cartesian product; a finished component stays put in the continued compound.
                    next.push(vec![]);
                    for (i, o) in opts.iter().enumerate() {
                        let choices: Vec<Pos> = if o.is_empty() {
                            vec![ps[i].clone()]
                        } else {
                            o.clone()
                        };
                        next = next
                            .into_iter()
                            .flat_map(|t| {
                                choices.iter().map(move |c| {
                                    let mut u = t.clone();
                                    u.push(c.clone());
                                    u
                                })
                            })
                            .collect();
                    }
                }
            }
        }
        let w = if next.is_empty() {
            self.misere
        } else {
            next.iter().any(|t| !self.wins(t))
        };
        self.memo.insert(ps.to_vec(), w);
        w
    }
}

fn small_positions(game: &dyn Game, texts: &[&str]) -> Vec<Pos> {
    texts
        .iter()
        .map(|t| game.parse_position(t).unwrap())
        .collect()
}

fn samples() -> Vec<(Box<dyn Game>, Vec<Pos>)> {
    let mut out: Vec<(Box<dyn Game>, Vec<Pos>)> = Vec::new();
    let cn = parse_game("CN(3,2)").unwrap();
    let ps = small_positions(
        cn.as_ref(),
        &[
            "0,0,0", "1,0,0", "1,1,0", "1,1,1", "2,1,0", "2,0,1", "2,2,1", "3,1,2",
        ],
    );
    out.push((cn, ps));
    let scn = parse_game("SCN(4,2)").unwrap();
    let ps = small_positions(
        scn.as_ref(),
        &["()", "1", "2", "1,1", "1,2", "2,2,1", "1,1,1,1", "2,1,2,1"],
    );
    out.push((scn, ps));
    let nim = parse_game("nim").unwrap();
    let ps = small_positions(nim.as_ref(), &["0", "1", "2", "3", "1,2", "4", "2,3"]);
    out.push((nim, ps));
    let et = parse_game("ET(2)").unwrap();
    let ps = small_positions(
        et.as_ref(),
        &["1,1", "1,2", "2,2", "3,1", "3,4", "2,5", "4,4"],
    );
    out.push((et, ps));
    let moore = parse_game("moore(2)").unwrap();
    let ps = small_positions(
        moore.as_ref(),
        &["0,0,0", "1,1,0", "1,1,1", "2,1,1", "2,2,1"],
    );
    out.push((moore, ps));
    out
}

#[test]
fn sums_of_two_and_three_games_match_the_product_game() {
    let samples = samples();
    let mut cases = 0;
    for a in 0..samples.len() {
        for b in a..samples.len() {
            for c in [None, Some((a + b + 1) % samples.len())] {
                let mut idx = vec![a, b];
                idx.extend(c);
                // Build the sum text once per choice of positions.
                let lists: Vec<&Vec<Pos>> = idx.iter().map(|&i| &samples[i].1).collect();
                let mut choice = vec![0usize; idx.len()];
                loop {
                    let text = idx
                        .iter()
                        .zip(&choice)
                        .map(|(&i, &j)| {
                            format!(
                                "{}[{}]",
                                samples[i].0.id(),
                                samples[i].1[j]
                                    .iter()
                                    .map(|x| x.to_string())
                                    .collect::<Vec<_>>()
                                    .join(",")
                            )
                        })
                        .collect::<Vec<_>>()
                        .join(" + ");
                    let (sum, parts) = parse_sum(&text).unwrap();
                    for play in [Play::Normal, Play::Misere] {
                        let games: Vec<&dyn Game> =
                            sum.parts().iter().map(|g| g.as_ref()).collect();
                        let mut brute = Compound {
                            games: games.clone(),
                            kind: Kind::Disjunctive,
                            misere: play == Play::Misere,
                            memo: HashMap::new(),
                        };
                        let ans = solve_sum(
                            &Analyzer::new(StoreHandle::none(), Limits::CLI),
                            &sum,
                            &parts,
                            play,
                            true,
                        )
                        .unwrap();
                        let n = brute.wins(&parts);
                        assert_eq!(ans.outcome == Outcome::N, n, "{text} {play}");
                        // Every named winning move is legal in its component and leaves a lost sum.
                        for m in &ans.winning_moves {
                            assert!(
                                games[m.component]
                                    .options(&parts[m.component])
                                    .unwrap()
                                    .contains(&m.to),
                                "{text}: {m:?}"
                            );
                            let mut after = parts.clone();
                            after[m.component] = m.to.clone();
                            assert!(
                                !brute.wins(&after),
                                "{text} {play}: move {m:?} does not win"
                            );
                        }
                        assert_eq!(
                            ans.winning_moves.is_empty(),
                            !n || (play == Play::Misere
                                && games
                                    .iter()
                                    .zip(&parts)
                                    .all(|(g, p)| g.is_terminal(p).unwrap())),
                            "{text} {play}: moves"
                        );
                        cases += 1;
                    }
                    // Next choice of positions.
                    let mut k = 0;
                    while k < choice.len() {
                        choice[k] += 1;
                        if choice[k] < lists[k].len() {
                            break;
                        }
                        choice[k] = 0;
                        k += 1;
                    }
                    if k == choice.len() {
                        break;
                    }
                }
            }
        }
    }
    assert!(cases >= 2000, "{cases} cases");
}

#[test]
fn remoteness_and_suspense_decide_conjunctive_compounds() {
    let samples = samples();
    let mut cases = 0;
    for (ga, pa) in &samples {
        for (gb, pb) in &samples {
            for p in pa {
                for q in pb {
                    for misere in [false, true] {
                        let play = Play::from_misere(misere);
                        let ra = Solver::new(ga.as_ref()).full(p).unwrap();
                        let rb = Solver::new(gb.as_ref()).full(q).unwrap();
                        let games: Vec<&dyn Game> = vec![ga.as_ref(), gb.as_ref()];
                        let ps = vec![p.clone(), q.clone()];
                        // Conjunctive compound: the component with the least remoteness ends the game,
                        // and its winner wins.
                        let mut conj = Compound {
                            games: games.clone(),
                            kind: Kind::Conjunctive,
                            misere,
                            memo: HashMap::new(),
                        };
                        let shortest = if ra.remoteness(play) <= rb.remoteness(play) {
                            ra
                        } else {
                            rb
                        };
                        let tie = ra.remoteness(play) == rb.remoteness(play);
                        if !tie || ra.outcome(play) == rb.outcome(play) {
                            assert_eq!(
                                conj.wins(&ps),
                                shortest.outcome(play) == Outcome::N,
                                "conjunctive {} {p:?} + {} {q:?} {play}",
                                ga.id(),
                                gb.id()
                            );
                        }
                        // Continued conjunctive compound: the component with the greatest suspense decides.
                        let mut cont = Compound {
                            games,
                            kind: Kind::Continued,
                            misere,
                            memo: HashMap::new(),
                        };
                        let longest = if ra.suspense(play) >= rb.suspense(play) {
                            ra
                        } else {
                            rb
                        };
                        let tie = ra.suspense(play) == rb.suspense(play);
                        if !misere && (!tie || ra.outcome(play) == rb.outcome(play)) {
                            assert_eq!(
                                cont.wins(&ps),
                                longest.outcome(play) == Outcome::N,
                                "continued {} {p:?} + {} {q:?}",
                                ga.id(),
                                gb.id()
                            );
                        }
                        cases += 1;
                    }
                }
            }
        }
    }
    assert!(cases > 1000);
}

#[test]
fn hand_computed_remoteness_and_suspense() {
    // Nim heap of 3: the winner takes all (remoteness 1); to prolong (suspense) the winner still has
    // only the move to 0 among P-options: suspense 1. Heaps (1,1): P; each move goes to (1) (N, 1),
    // so remoteness = suspense = 2.
    let nim = parse_game("nim").unwrap();
    let mut s = Solver::new(nim.as_ref());
    assert_eq!(
        (
            s.remoteness(&[3], Play::Normal).unwrap(),
            s.suspense(&[3], Play::Normal).unwrap()
        ),
        (1, 1)
    );
    assert_eq!(
        (
            s.remoteness(&[1, 1], Play::Normal).unwrap(),
            s.suspense(&[1, 1], Play::Normal).unwrap()
        ),
        (2, 2)
    );
    // (2,2) is P: moves to (1,2) [N: -> (1,1), remoteness 3] or (0,2) [N: -> (0,0), remoteness 1].
    // The loser prolongs: remoteness 1 + 3 = 4; in suspense the loser hurries: 1 + 1 = 2.
    assert_eq!(s.remoteness(&[2, 2], Play::Normal).unwrap(), 4);
    assert_eq!(s.suspense(&[2, 2], Play::Normal).unwrap(), 2);
}
