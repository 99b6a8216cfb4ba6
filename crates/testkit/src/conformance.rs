//! The conformance check of a game's API: the optional methods of [`Game`] agree with its moves
//! ([`Game::for_each_option`]), as GamesmanOne checks each game's API before solving it.
//!
//! At a position `p` ([`check_position`]):
//! - `canonical`: it is a position of the game, idempotent, and `p` and `canonical(p)` have the same
//!   options up to canonical form;
//! - `split`: the parts' Grundy values XOR to the whole's, the parts' options are as many as the
//!   whole's, and, when the parts are positions of the whole's length that add up to it, each
//!   option of a part put back in the whole is an option of the whole, and these are all of them;
//! - `is_option` (the game's, and its `move_structure`'s): where it answers, `q` is an option of `p`
//!   exactly when it says so, for every option `q` and every `q` of `p`'s length below `p` (entry by
//!   entry) when those are few;
//! - `count_options`: where it answers, the number of distinct options.
//!
//! Over a box ([`check_table_domain`]): `table_domain` holds positions of the game, closed under
//! moves (every option of a position of the box is in the box).

use nimlab_core::{BoxDomain, Game, Pos, Solver};
use std::collections::BTreeSet;

/// Most positions below `p` compared with `is_option` at one position.
pub const BELOW_MAX: u64 = 20_000;

/// What one check covered.
#[derive(Debug, Default, Clone, Copy)]
pub struct Checked {
    pub positions: usize,
    pub options: usize,
    pub is_option_answers: usize,
    pub counted: usize,
    pub splits: usize,
}

fn canonical_set(game: &dyn Game, ps: &[Pos]) -> BTreeSet<Pos> {
    ps.iter().map(|q| game.canonical(q)).collect()
}

/// Checks the game's API at `p` (a position of the game); panics with the first disagreement.
pub fn check_position(game: &dyn Game, p: &[u64], checked: &mut Checked) {
    let id = game.id();
    game.validate(p)
        .unwrap_or_else(|e| panic!("{id} {p:?} is not a position: {e}"));
    let options = game.options(p).unwrap();
    checked.positions += 1;
    checked.options += options.len();
    let set: BTreeSet<&Pos> = options.iter().collect();

    // canonical
    let c = game.canonical(p);
    game.validate(&c)
        .unwrap_or_else(|e| panic!("{id}: canonical({p:?}) = {c:?} is not a position: {e}"));
    assert_eq!(
        game.canonical(&c),
        c,
        "{id}: canonical is not idempotent at {p:?}"
    );
    let of_c = game.options(&c).unwrap();
    assert_eq!(
        canonical_set(game, &options),
        canonical_set(game, &of_c),
        "{id}: {p:?} and its canonical form {c:?} have different options up to symmetry"
    );

    // count_options
    if let Some(n) = game.count_options(p) {
        checked.counted += 1;
        assert_eq!(n, options.len() as u128, "{id}: count_options({p:?})");
    }

    // is_option, the game's and its move structure's
    let structure = game.move_structure(p.len());
    let mut agree = |q: &[u64], is: bool| {
        for (who, said) in [
            ("is_option", game.is_option(p, q)),
            (
                "move_structure().is_option",
                structure.as_ref().and_then(|s| s.is_option(p, q)),
            ),
        ] {
            if let Some(said) = said {
                checked.is_option_answers += 1;
                assert_eq!(said, is, "{id}: {who}({p:?}, {q:?})");
            }
        }
    };
    for q in &options {
        agree(q, true);
    }
    let below: f64 = p.iter().map(|&a| a as f64 + 1.0).product();
    if below <= BELOW_MAX as f64 {
        let mut q = vec![0u64; p.len()];
        loop {
            agree(&q, set.contains(&q));
            let mut i = 0;
            while i < q.len() && q[i] == p[i] {
                q[i] = 0;
                i += 1;
            }
            if i == q.len() {
                break;
            }
            q[i] += 1;
        }
    }

    // split
    if let Some(parts) = game.split(p) {
        checked.splits += 1;
        assert!(
            !parts.is_empty() || options.is_empty(),
            "{id}: split({p:?}) has no parts"
        );
        let mut solver = Solver::new(game);
        let whole = solver.grundy(p).unwrap();
        let mut xor = 0;
        let mut count = 0;
        for part in &parts {
            game.validate(part).unwrap_or_else(|e| {
                panic!("{id}: a part {part:?} of {p:?} is not a position: {e}")
            });
            xor ^= solver.grundy(part).unwrap();
            count += game.options(part).unwrap().len();
        }
        assert_eq!(
            whole, xor,
            "{id}: Grundy value of {p:?} against its parts {parts:?}"
        );
        assert_eq!(
            count,
            options.len(),
            "{id}: options of {p:?} against its parts {parts:?}"
        );
        let adds_up = parts.iter().all(|s| s.len() == p.len())
            && (0..p.len()).all(|i| parts.iter().map(|s| s[i]).sum::<u64>() == p[i]);
        if adds_up {
            let mut from_parts = BTreeSet::new();
            for part in &parts {
                for o in game.options(part).unwrap() {
                    let q: Pos = (0..p.len()).map(|i| p[i] - part[i] + o[i]).collect();
                    from_parts.insert(q);
                }
            }
            let all: BTreeSet<Pos> = options.iter().cloned().collect();
            assert_eq!(
                from_parts, all,
                "{id}: options of {p:?} from its parts {parts:?}"
            );
        }
    }
}

/// Every position of `d`, lexicographic, each length in turn.
pub fn box_positions(d: &BoxDomain) -> Vec<Pos> {
    let mut out = Vec::new();
    for &m in &d.lengths {
        let mut p = vec![d.lo; m];
        loop {
            out.push(p.clone());
            let mut i = 0;
            while i < m && p[i] == d.hi {
                p[i] = d.lo;
                i += 1;
            }
            if i == m {
                break;
            }
            p[i] += 1;
        }
    }
    out
}

/// Checks that `d`, the box of `table_domain`, holds positions of `game` only, closed under moves.
pub fn check_table_domain(game: &dyn Game, d: &BoxDomain) -> usize {
    let id = game.id();
    let inside =
        |q: &[u64]| d.lengths.contains(&q.len()) && q.iter().all(|&a| (d.lo..=d.hi).contains(&a));
    let all = box_positions(d);
    for p in &all {
        game.validate(p)
            .unwrap_or_else(|e| panic!("{id}: {p:?} of its box {d:?} is not a position: {e}"));
        for q in game.options(p).unwrap() {
            assert!(
                inside(&q),
                "{id}: the option {q:?} of {p:?} leaves the box {d:?}"
            );
        }
    }
    all.len()
}
