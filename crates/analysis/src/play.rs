//! What playing a game needs, shared by `nimlab play` (terminal) and `nimlab serve` (web): what a
//! position is worth, the options with their values ([`moves_shown`]: the moves the page lists), the
//! computer's move, the legality of a player's move, the explanation, the hint ([`hint_text`]: one
//! sentence for the terminal and the page), and random starting positions. Every answer goes
//! through the [`Analyzer`], so the store, proven results and the engine are used here as
//! everywhere; every function bounds its work by the analyzer's [`crate::Limits`] and answers a
//! too-large position with [`Error::TooLarge`] instead of searching it.

use crate::{Analysis, Analyzer, Explanation, OptionValue, Remoteness, Want};
use nimlab_core::{
    Error, Game, Layout, MoveStructure, Outcome, Play, Pos, Result, Rng, TableBound,
};
use std::ops::ControlFlow;

/// The games one can play: every built-in game (scripted `.rhai` games and sums are not offered).
pub fn load_game(name: &str) -> Result<Box<dyn Game>> {
    let t = name.trim();
    if t.is_empty() {
        return Err(Error::BadGame("no game given, e.g. CN(5,3)".into()));
    }
    if t.len() > 64 || t.ends_with(".rhai") || nimlab_games::is_sum(t) {
        // Name the command that does the job where there is one.
        let instead = if t.len() > 64 {
            String::new()
        } else if t.ends_with(".rhai") {
            format!(" (a script is played in the terminal: `nimlab play {t} POSITION`)")
        } else {
            format!(" (the winning moves of a sum: `nimlab moves '{t}'`)")
        };
        return Err(Error::BadGame(format!(
            "'{}' is not a built-in game{instead}; play one of: {}",
            t.chars().take(64).collect::<String>(),
            game_names().join(", ")
        )));
    }
    nimlab_games::parse_game(t)
}

/// The catalogue's name patterns.
pub fn game_names() -> Vec<&'static str> {
    nimlab_games::catalogue().iter().map(|e| e.name).collect()
}

/// Most stacks, heaps or boxes of a playable position.
pub const MAX_ENTRIES: usize = 64;

/// Parses a position of `game` and checks it is small enough to be played here.
pub fn load_position(game: &dyn Game, text: &str) -> Result<Pos> {
    if text.len() > 4096 {
        return Err(Error::BadPosition("position text too long".into()));
    }
    let p = game.parse_position(text)?;
    if p.len() > MAX_ENTRIES {
        return Err(Error::BadPosition(format!(
            "at most {MAX_ENTRIES} stacks, heaps or boxes can be played here, got {}",
            p.len()
        )));
    }
    Ok(p)
}

/// The value of `p`: outcome, Grundy value (normal play), remoteness when a full search is small.
pub fn value(an: &Analyzer, game: &dyn Game, p: &[u64], play: Play) -> Result<Analysis> {
    an.analyse(game, p, play, Want::outcome())
}

/// Why `p` is P or N: the result that decides it, or the search.
pub fn explain(an: &Analyzer, game: &dyn Game, p: &[u64], play: Play) -> Result<Explanation> {
    let a = an.analyse(game, p, play, Want::explain())?;
    Ok(a.explanation.expect("an explanation was asked for"))
}

/// The options of `p` with their values (remoteness when a full search is small), in a neutral
/// order (sorted by position: nothing in the order tells a winning move from a losing one).
pub fn moves(an: &Analyzer, game: &dyn Game, p: &[u64], play: Play) -> Result<Analysis> {
    an.analyse(
        game,
        p,
        play,
        Want {
            options: true,
            remoteness: Remoteness::IfSmall,
            ..Want::default()
        },
    )
}

/// The moves a player is shown, each with its value, all taken from one [`Analysis`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The analysis they come from: of [`moves`] (every option valued), or of [`Want::moves`] when
    /// the options are too many to value one by one.
    pub analysis: Analysis,
    /// The moves in the options' neutral order (sorted by position): every option, or the winning
    /// moves alone ([`Analysis::moves_with_values`]).
    pub moves: Vec<OptionValue>,
    /// True when `moves` is every option; false when it holds the winning moves alone.
    pub all_options: bool,
    /// Why only the winning moves are listed, when they are.
    pub note: Option<String>,
}

/// The options of `p` with their values ([`moves`]); when they are too many to value one by one
/// (Nim with heaps of 10^6), the winning moves alone, which a proven result or the chain finds
/// without listing options, and why the others are missing.
pub fn moves_shown(an: &Analyzer, game: &dyn Game, p: &[u64], play: Play) -> Result<Shown> {
    let (analysis, note) = match moves(an, game, p, play) {
        Ok(a) => (a, None),
        Err(e) if e.is_too_large() => (
            an.analyse(game, p, play, Want::moves())?,
            Some(format!("only the winning moves are listed: {e}")),
        ),
        Err(e) => return Err(e),
    };
    Ok(Shown {
        moves: analysis.moves_with_values(),
        all_options: analysis.options.is_some(),
        note,
        analysis,
    })
}

impl Analysis {
    /// The moves of this answer with their values: every option when the options were valued
    /// ([`Want::options`]); otherwise the winning moves, each to a P-position (Grundy value 0 in
    /// normal play; remoteness not computed).
    pub fn moves_with_values(&self) -> Vec<OptionValue> {
        match &self.options {
            Some(all) => all.clone(),
            None => self
                .winning_moves
                .iter()
                .flatten()
                .map(|q| OptionValue {
                    to: q.clone(),
                    outcome: Outcome::P,
                    grundy: (self.play == Play::Normal).then_some(0),
                    remoteness: None,
                })
                .collect(),
        }
    }
}

/// A player's hint about `p`: its winning moves and whether the list is every one of them (the
/// analysis of [`Want::moves`]); [`hint_text`] says it in words.
pub fn hint(an: &Analyzer, game: &dyn Game, p: &[u64], play: Play) -> Result<Analysis> {
    an.analyse(game, p, play, Want::moves())
}

/// The winning moves of an answer as one sentence, the hint of `nimlab play` and of the page: that
/// the game is over, that no winning move exists, or the moves (each written by `show`), marked
/// as possibly partial when a proven result constructed them on a position too large to search for
/// others.
pub fn hint_text(a: &Analysis, show: &dyn Fn(&[u64]) -> String) -> String {
    let w = a.winning_moves.as_deref().unwrap_or_default();
    let plural = if w.len() == 1 { "" } else { "s" };
    let list = w.iter().map(|q| show(q)).collect::<Vec<_>>().join("  ");
    if a.terminal {
        "the game is over".to_string()
    } else if w.is_empty() {
        "no winning move exists: every move leaves your opponent a winning position".to_string()
    } else if !a.winning_moves_complete {
        format!(
            "winning move{plural} constructed by a proven result; the list may be partial (the position is too large to search for others): {list}"
        )
    } else {
        format!("winning move{plural}: {list}")
    }
}

/// The winning moves of `p` and whether the list is complete.
pub fn winning_moves(
    an: &Analyzer,
    game: &dyn Game,
    p: &[u64],
    play: Play,
) -> Result<(Vec<Pos>, bool)> {
    let a = an.analyse(game, p, play, Want::moves())?;
    Ok((
        a.winning_moves.unwrap_or_default(),
        a.winning_moves_complete,
    ))
}

/// The computer's move and why it was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub to: Pos,
    /// True when the move wins (moves to a P-position).
    pub winning: bool,
    pub why: String,
}

fn total(p: &[u64]) -> u128 {
    p.iter().map(|&a| a as u128).sum()
}

/// The perfect opponent's move from `p` (which must not be terminal): a winning move when one exists
/// (the quickest, by remoteness, when a full search is affordable), otherwise the move that holds out
/// longest (greatest remoteness; without a full search, the option that removes least).
pub fn computer_move(an: &Analyzer, game: &dyn Game, p: &[u64], play: Play) -> Result<Choice> {
    if game.is_terminal(p)? {
        return Err(Error::Unsupported(
            "the game is over: no move is left".into(),
        ));
    }
    match moves(an, game, p, play) {
        Ok(a) => {
            let opts = a.options.unwrap_or_default();
            let win = opts
                .iter()
                .filter(|o| o.outcome.is_p())
                .min_by_key(|o| (o.remoteness, std::cmp::Reverse(total(&o.to))));
            if let Some(o) = win {
                return Ok(Choice {
                    to: o.to.clone(),
                    winning: true,
                    why: match o.remoteness {
                        Some(0) => "a winning move: it ends the game".into(),
                        Some(r) => format!(
                            "a winning move, the quickest: the game ends within {}",
                            nimlab_core::plural_of(r, "more move", "more moves")
                        ),
                        None => format!(
                            "a winning move (to a P-position, by {})",
                            a.moves_method.unwrap_or(a.method)
                        ),
                    },
                });
            }
            let hold = opts.iter().max_by_key(|o| (o.remoteness, total(&o.to)));
            if let Some(o) = hold {
                return Ok(Choice {
                    to: o.to.clone(),
                    winning: false,
                    why: match o.remoteness {
                        Some(r) => format!("no winning move exists; this one holds out longest ({} with perfect play)", nimlab_core::plural_of(r, "more move", "more moves")),
                        None => "no winning move exists; this one takes least".into(),
                    },
                });
            }
            Err(Error::Unsupported(
                "the game is over: no move is left".into(),
            ))
        }
        Err(why) if why.is_too_large() => {
            // Too large to value every option: a move the theory constructs, or hold out.
            let (w, _) = winning_moves(an, game, p, play).map_err(|_| why.clone())?;
            if let Some(q) = w.into_iter().next() {
                return Ok(Choice {
                    to: q,
                    winning: true,
                    why: "a winning move constructed by a proven result".into(),
                });
            }
            // A lost position: take as little as possible among the first options.
            let mut best: Option<(u128, Pos)> = None;
            let mut seen = 0usize;
            game.for_each_option(p, &mut |q| {
                let s = total(q);
                if best.as_ref().is_none_or(|(b, _)| s > *b) {
                    best = Some((s, q.to_vec()));
                }
                seen += 1;
                if seen >= an.limits.options {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })?;
            match best {
                Some((_, q)) => Ok(Choice {
                    to: q,
                    winning: false,
                    why: "no winning move exists (by a proven result); this one takes little"
                        .into(),
                }),
                None => Err(why),
            }
        }
        Err(e) => Err(e),
    }
}

/// Why `q` (of the length of `p`) is not an option of `p` in a game whose moves lower the stacks
/// inside one face or window (the game's [`Game::is_option`] said it is not), in words.
fn why_not_a_face_move(game: &dyn Game, p: &[u64], q: &[u64]) -> String {
    if q.len() != p.len() {
        return "the number of stacks changed".into();
    }
    if q.iter().zip(p).any(|(a, b)| a > b) {
        return "a stack may only be lowered".into();
    }
    if q == p {
        return "nothing was taken".into();
    }
    let faces = game
        .move_structure(p.len())
        .map(|s| s.faces())
        .unwrap_or_default();
    let k = faces.iter().map(|f| f.len()).max().unwrap_or(0);
    // Faces that are every k-set (Nim, Moore's Nim) or the circle's windows are named so; any other
    // complex lists its facets.
    let every_k_set = faces.iter().all(|f| f.len() == k)
        && faces.len() as f64
            == (0..k).fold(1f64, |c, i| c * (p.len() - i) as f64 / (i + 1) as f64);
    let windows = faces == nimlab_core::game::cyclic_windows(p.len(), k)
        || (k == p.len() && faces.len() == 1);
    match game.layout() {
        Layout::Circle if windows => {
            format!("the stacks lowered must lie in one window of {k} consecutive stacks")
        }
        Layout::Row if every_k_set => format!(
            "a move takes from at most {k} heap{}",
            if k == 1 { "" } else { "s" }
        ),
        _ => format!(
            "the stacks lowered must lie in one facet: {}",
            faces
                .iter()
                .map(|f| format!(
                    "{{{}}}",
                    f.iter()
                        .map(|i| (i + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ))
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// Checks that moving from `p` to `q` is legal and returns the position moved to, normalised: for a
/// shrinking circle `q` may keep the emptied piles as zeros (they are removed); for games played on
/// multisets (chip games) `q` may list the boxes in any order.
pub fn legal_move(an: &Analyzer, game: &dyn Game, p: &[u64], q: &[u64]) -> Result<Pos> {
    let illegal = |why: &str| -> Result<Pos> {
        Err(Error::BadPosition(format!(
            "illegal move from {} to {}: {why}",
            game.format_position(p),
            game.format_position(q)
        )))
    };
    let structure = game.move_structure(p.len());
    // A shrinking circle's move may be typed with the emptied piles kept as zeros.
    let shrinking = matches!(structure, Some(MoveStructure::ShrinkingWindows { .. }));
    let reached: Pos = if shrinking && q.len() == p.len() {
        q.iter().copied().filter(|&a| a > 0).collect()
    } else {
        q.to_vec()
    };
    match game.is_option(p, &reached) {
        Some(true) => return Ok(reached),
        // Moves inside faces (and a circle's moves typed pile by pile) are all the game's moves of
        // that shape: say why this one is not one of them.
        Some(false) if !shrinking || q.len() == p.len() => {
            return illegal(&why_not_a_face_move(game, p, q))
        }
        // Options up to rotation (shrinking circles), or only enumeration can tell.
        _ => {}
    }
    // Any other move is checked against the options, up to the game's symmetry for multisets.
    let multiset = matches!(
        game.table_bound(),
        TableBound::TotalChips | TableBound::Spread
    );
    let loose = multiset || matches!(structure, Some(MoveStructure::ShrinkingWindows { .. }));
    let target = if loose { game.canonical(q) } else { q.to_vec() };
    let mut found: Option<Pos> = None;
    let mut seen = 0usize;
    let cap = an.limits.options * 10;
    game.for_each_option(p, &mut |o| {
        seen += 1;
        let hit = if loose {
            game.canonical(o) == target
        } else {
            o == q
        };
        if hit {
            found = Some(o.to_vec());
            return ControlFlow::Break(());
        }
        if seen >= cap {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    })?;
    match found {
        Some(o) if multiset => Ok(o),
        Some(_) => Ok(q.to_vec()),
        None if seen >= cap => Err(Error::TooLarge(format!(
            "{} {} has too many moves to check this one here",
            game.id(),
            game.format_position(p)
        ))),
        None => illegal("no move of the rules leads there"),
    }
}

/// Parses a move typed in the terminal: either the new position (the game's position syntax) or, for
/// games drawn on a circle, `w S a,b,c`: the window starting at stack S (1-based, clockwise) lowered
/// to the heights a, b, c. Returns the (legal, normalised) new position.
pub fn parse_move(an: &Analyzer, game: &dyn Game, p: &[u64], text: &str) -> Result<Pos> {
    let t = text.trim();
    let window = t
        .strip_prefix("w ")
        .or_else(|| t.strip_prefix("W "))
        .filter(|_| game.layout() == Layout::Circle);
    let q = if let Some(rest) = window {
        let rest = rest.trim();
        let (s, heights) = rest.split_once(char::is_whitespace).ok_or_else(|| {
            Error::BadPosition("window move: write `w S a,b,c` (start stack, new heights)".into())
        })?;
        let m = p.len();
        let s: usize = s
            .parse()
            .ok()
            .filter(|&s| s >= 1 && s <= m)
            .ok_or_else(|| {
                Error::BadPosition(format!("window start must be a stack number 1..={m}"))
            })?;
        let heights = nimlab_core::position::parse_list(heights)?;
        let k = game
            .move_structure(m)
            .map(|ms| ms.faces())
            .and_then(|f| f.iter().map(|w| w.len()).max())
            .unwrap_or(m)
            .min(m);
        if heights.len() != k {
            return Err(Error::BadPosition(format!(
                "a window has {k} stacks: give {k} heights"
            )));
        }
        let mut q = p.to_vec();
        for (j, &h) in heights.iter().enumerate() {
            q[(s - 1 + j) % m] = h;
        }
        q
    } else {
        // Shrinking circles may be written with zeros for the emptied piles: parse as a plain list.
        let q = nimlab_core::position::parse_list(t)?;
        let shrinking = matches!(
            game.move_structure(p.len()),
            Some(MoveStructure::ShrinkingWindows { .. })
        );
        if !shrinking || q.len() != p.len() {
            game.parse_position(t)?
        } else {
            q
        }
    };
    legal_move(an, game, p, &q)
}

/// A random generator seeded from the clock.
pub fn rng_from_time() -> Rng {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0x9e37_79b9);
    Rng::new(t ^ (std::process::id() as u64).rotate_left(32))
}

/// Largest full search (estimated option visits) behind a random start: a game against the computer
/// starts where every move is answered at once, whatever the front end's limits.
const START_FULL: f64 = 4e6;
/// Largest search behind a sparse random start of a large circle (no full search).
const START_SEARCH: f64 = 2e7;

/// A random starting position of moderate size: not terminal, and small enough that the computer
/// can search it fully (so it plays by remoteness) within the analyzer's limits.
pub fn random_position(an: &Analyzer, game: &dyn Game, rng: &mut Rng) -> Result<Pos> {
    let no = || Error::Unsupported(format!("no random positions for {}", game.id()));
    let first = game.random_position(rng, 9).ok_or_else(no)?;
    if first.len() > MAX_ENTRIES {
        return Err(Error::TooLarge(format!(
            "{} has too many stacks to play here (at most {MAX_ENTRIES})",
            game.id()
        )));
    }
    let solver = nimlab_core::Solver::new(game);
    let mut hi = 9;
    for attempt in 0..200 {
        if attempt % 20 == 19 && hi > 2 {
            hi -= 1;
        }
        let Some(p) = game.random_position(rng, hi) else {
            break;
        };
        if game.validate(&p).is_err() || game.is_terminal(&p)? {
            continue;
        }
        if solver.work_estimate(&p, true) <= an.limits.auto_full.min(START_FULL) {
            return Ok(p);
        }
    }
    // Large circles: a sparse position (mostly at the least entry) keeps the search small.
    let lo = first.iter().copied().min().unwrap_or(0).min(1);
    let len = first.len();
    for _ in 0..200 {
        let mut p: Pos = vec![lo; len];
        for _ in 0..3 {
            let i = rng.range(0, len as u64 - 1) as usize;
            p[i] = rng.range(1, 3);
        }
        if game.validate(&p).is_ok()
            && !game.is_terminal(&p)?
            && solver.work_estimate(&p, false) <= an.limits.budget.limit.min(START_SEARCH)
        {
            return Ok(p);
        }
    }
    Err(Error::TooLarge(format!(
        "no random position of {} is small enough to play here",
        game.id()
    )))
}

/// The outcome in words, for players.
pub fn in_words(o: Outcome) -> &'static str {
    o.in_words()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Limits, StoreHandle};

    fn an(l: Limits) -> Analyzer {
        Analyzer::new(StoreHandle::none(), l)
    }

    #[test]
    fn illegal_moves_of_a_complex_name_its_facets() {
        let a = an(Limits::TERMINAL);
        let g = load_game("simplicial({1,2},{2,3})").unwrap();
        let e = legal_move(&a, g.as_ref(), &[1, 1, 1], &[0, 1, 0])
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("must lie in one facet: {1,2},{2,3}"), "{e}");
        let g = load_game("moore(2)").unwrap();
        let e = legal_move(&a, g.as_ref(), &[1, 1, 1], &[0, 0, 0])
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("at most 2 heaps"), "{e}");
    }

    #[test]
    fn window_moves_are_checked() {
        let a = an(Limits::TERMINAL);
        let g = load_game("CN(5,3)").unwrap();
        let g = g.as_ref();
        let p = vec![1, 2, 3, 4, 5];
        assert_eq!(
            legal_move(&a, g, &p, &[0, 2, 3, 4, 0]).unwrap(),
            vec![0, 2, 3, 4, 0]
        );
        assert!(legal_move(&a, g, &p, &[0, 2, 0, 4, 5]).is_ok());
        assert!(legal_move(&a, g, &p, &[0, 2, 3, 0, 5]).is_ok());
        assert!(legal_move(&a, g, &p, &[0, 2, 0, 4, 0]).is_err());
        assert!(legal_move(&a, g, &p, &[1, 2, 3, 4, 5]).is_err());
        assert!(legal_move(&a, g, &p, &[1, 2, 3, 4, 6]).is_err());
        assert_eq!(
            parse_move(&a, g, &p, "w 4 0,0,1").unwrap(),
            vec![1, 2, 3, 0, 0]
        );
        assert!(parse_move(&a, g, &p, "w 9 0,0,1").is_err());
        assert!(parse_move(&a, g, &p, "w 1 0,0").is_err());
    }

    #[test]
    fn every_option_is_legal_and_nothing_else() {
        let a = an(Limits::TERMINAL);
        for (name, p) in [
            ("CN(5,3)", vec![1, 0, 2, 1, 1]),
            ("SCN(5,3)", vec![1, 2, 1, 2]),
            ("nim", vec![2, 1, 3]),
            ("moore(2)", vec![1, 2, 2]),
            ("simplicial({1,2},{2,3,4})", vec![1, 2, 2, 1]),
            ("ECN(5,{2},2)", vec![1, 0, 2, 1, 1]),
            ("ET(3)", vec![1, 2, 4]),
            ("ER(3)", vec![1, 2, 4]),
        ] {
            let g = load_game(name).unwrap();
            let opts = g.options(&p).unwrap();
            for q in &opts {
                let r = legal_move(&a, g.as_ref(), &p, q)
                    .unwrap_or_else(|e| panic!("{name} {p:?} -> {q:?}: {e}"));
                assert_eq!(g.canonical(&r), g.canonical(q));
            }
            // Every lowering of the same length that is not an option is refused.
            if !nimlab_games::chip::is_chip_game(g.as_ref()) && !name.starts_with("SCN") {
                let mut q = vec![0u64; p.len()];
                loop {
                    if q.iter().zip(&p).all(|(a, b)| a <= b) {
                        let r = legal_move(&a, g.as_ref(), &p, &q);
                        assert_eq!(r.is_ok(), opts.contains(&q), "{name} {p:?} -> {q:?}");
                    }
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
        }
    }

    #[test]
    fn the_computer_wins_when_it_can() {
        let a = an(Limits::WEB);
        let g = load_game("CN(5,3)").unwrap();
        let g = g.as_ref();
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let p = random_position(&a, g, &mut rng).unwrap();
            let v = value(&a, g, &p, Play::Normal).unwrap();
            let c = computer_move(&a, g, &p, Play::Normal).unwrap();
            assert_eq!(c.winning, v.outcome == Outcome::N, "{p:?}");
            let after = value(&a, g, &c.to, Play::Normal).unwrap();
            assert_eq!(after.outcome == Outcome::P, c.winning);
            let (w, complete) = winning_moves(&a, g, &p, Play::Normal).unwrap();
            assert!(complete);
            assert_eq!(w.is_empty(), !c.winning);
        }
    }

    #[test]
    fn hints_and_shown_moves_come_from_one_analysis() {
        let a = an(Limits::WEB);
        let nim = load_game("nim").unwrap();
        let show = |q: &[u64]| nim.format_position(q);
        let h = hint(&a, nim.as_ref(), &[1, 2], Play::Normal).unwrap();
        assert_eq!(hint_text(&h, &show), "winning move: (1,1)");
        let h = hint(&a, nim.as_ref(), &[1, 1], Play::Normal).unwrap();
        assert!(hint_text(&h, &show).starts_with("no winning move exists"));
        // Too many options to value: the winning moves alone, each to a P-position, and why.
        let s = moves_shown(&a, nim.as_ref(), &[1_000_000, 1_000_000, 3], Play::Normal).unwrap();
        assert!(!s.all_options && s.note.is_some());
        assert_eq!(s.moves.len(), 1);
        assert_eq!(
            (s.moves[0].outcome, s.moves[0].grundy),
            (Outcome::P, Some(0))
        );
        let s = moves_shown(&a, nim.as_ref(), &[1, 2], Play::Normal).unwrap();
        assert!(s.all_options && s.note.is_none());
        assert_eq!(s.moves, s.analysis.options.clone().unwrap());
    }

    #[test]
    fn huge_positions_use_theory_or_are_refused() {
        let a = an(Limits::WEB);
        let nim = load_game("nim").unwrap();
        let p = vec![1_000_000_000_000, 3, 5];
        let c = computer_move(&a, nim.as_ref(), &p, Play::Normal).unwrap();
        assert!(c.winning);
        let g = load_game("CN(9,5)").unwrap();
        let p = vec![1000; 9];
        assert!(matches!(
            value(&a, g.as_ref(), &p, Play::Normal),
            Err(Error::TooLarge(_))
        ));
        assert!(load_game("x.rhai").is_err());
        assert!(load_game("nim[3]+nim[4]").is_err());
    }
}
