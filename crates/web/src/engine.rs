//! The play engine shared by `nimlab play` (terminal) and `nimlab serve` (web): what a position is
//! worth, the options with their values, the computer's move, the legality of a player's move, the
//! theory's explanation, and random starting positions. Every function bounds its work with a
//! [`Limits`] and answers a too-large position with [`Error::TooLarge`] instead of searching it.

use nimlab_core::{Budget, Error, Game, Outcome, Play, Pos, Result, Solver};
use std::ops::ControlFlow;

/// How much work one question may cause, in estimated option visits (see [`Solver::work_estimate`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Largest Grundy-value or misère search.
    pub search: f64,
    /// Largest full search (remoteness); above it the computer plays by Grundy values or theory.
    pub full: f64,
    /// Most options listed or checked one by one.
    pub options: usize,
}

impl Limits {
    /// The terminal's limits: a human waits a second or two at most.
    pub const TERMINAL: Limits = Limits {
        search: 2e8,
        full: 2e7,
        options: 200_000,
    };
    /// The web server's limits per request: small, so that no request can occupy the machine.
    pub const WEB: Limits = Limits {
        search: 2e7,
        full: 4e6,
        options: 20_000,
    };
    fn budget(&self, full: bool) -> Budget {
        Budget {
            limit: if full { self.full } else { self.search },
            flag: "--limit",
        }
    }
}

/// Refuses a search above `budget`, with a message for players (no option lifts it here).
fn within(solver: &Solver, p: &[u64], full_search: bool, budget: Budget) -> Result<()> {
    let est = solver.work_estimate(p, full_search);
    if est > budget.limit {
        let game = solver.game();
        return Err(Error::TooLarge(format!(
            "{} {} is too large to play here: no proven result decides it and a search may visit about {est:.1e} options (the limit here is {:.1e}); try a smaller position",
            game.id(),
            game.format_position(p),
            budget.limit
        )));
    }
    Ok(())
}

/// The games one can play: every built-in game (scripted `.rhai` games and sums are not offered).
pub fn load_game(name: &str) -> Result<Box<dyn Game>> {
    let t = name.trim();
    if t.is_empty() {
        return Err(Error::BadGame("no game given, e.g. CN(5,3)".into()));
    }
    if t.len() > 64 || t.ends_with(".rhai") || nimlab_games::is_sum(t) {
        return Err(Error::BadGame(format!(
            "'{}' is not a built-in game; play one of: {}",
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

/// Parses a position of `game` and checks it is small enough to be played here: at most 64 entries
/// (`MAX_ENTRIES`).
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

/// Most stacks, heaps or boxes of a playable position.
pub const MAX_ENTRIES: usize = 64;

/// The proven result that decides a position, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    pub id: String,
    pub games: String,
    pub statement: String,
    pub source: String,
    /// The P-family the position is in (or that the winning move reaches), when the result names one.
    pub family: Option<String>,
    /// Why, in the words of the paper, when the result says.
    pub reason: Option<String>,
    pub is_p: bool,
}

/// The proven result that decides `p` under `play`, if any.
pub fn explain(game: &dyn Game, p: &[u64], play: Play) -> Option<Explanation> {
    let (t, v) = nimlab_theory::find(game, p, play)?;
    Some(Explanation {
        id: t.id().to_string(),
        games: t.games().to_string(),
        statement: t.statement().to_string(),
        source: t.source().to_string(),
        family: v.family,
        reason: v.reason,
        is_p: v.is_p,
    })
}

/// What a position is worth to the player to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    pub outcome: Outcome,
    /// Normal play only, when known.
    pub grundy: Option<u64>,
    /// Moves left with perfect play (winner hurries, loser delays), when a full search was affordable.
    pub remoteness: Option<u64>,
    /// `search` or the id of the theorem used.
    pub method: String,
    pub terminal: bool,
}

/// The value of `p` under `play`: by theory when a result applies, else by search within `limits`.
pub fn analyse(game: &dyn Game, p: &[u64], play: Play, limits: Limits) -> Result<Analysis> {
    let terminal = game.is_terminal(p);
    let mut solver = Solver::new(game);
    let full_ok = solver.work_estimate(p, true) <= limits.full;
    let remoteness = if full_ok {
        Some(solver.full(p).remoteness(play))
    } else {
        None
    };
    let (outcome, grundy, method) = match nimlab_theory::find(game, p, play) {
        Some((t, v)) => (Outcome::from_is_p(v.is_p), v.grundy, t.id().to_string()),
        None => match play {
            Play::Normal => {
                within(&solver, p, false, limits.budget(false))?;
                let g = solver.grundy(p);
                (Outcome::from_is_p(g == 0), Some(g), "search".into())
            }
            Play::Misere => {
                within(&solver, p, true, limits.budget(false))?;
                (solver.full(p).misere, None, "search".into())
            }
        },
    };
    // Grundy values are cheap where the full search was: report them too.
    let grundy = match (grundy, play) {
        (None, Play::Normal) if full_ok => Some(solver.grundy(p)),
        (g, _) => g,
    };
    failure(game)?;
    Ok(Analysis {
        outcome,
        grundy,
        remoteness,
        method,
        terminal,
    })
}

fn failure(game: &dyn Game) -> Result<()> {
    match game.failure() {
        Some(e) => Err(Error::BadGame(e)),
        None => Ok(()),
    }
}

/// One option of a position with its value for the player who moves there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveInfo {
    pub to: Pos,
    /// True when the option is a P-position: moving there wins.
    pub winning: bool,
    pub grundy: Option<u64>,
    pub remoteness: Option<u64>,
}

/// The options of `p` with their values, when there are at most `limits.options` and searching them
/// is within the limits; the moves are listed winning first, then by the game's order.
pub fn moves(game: &dyn Game, p: &[u64], play: Play, limits: Limits) -> Result<Vec<MoveInfo>> {
    let mut solver = Solver::new(game);
    let full_ok = solver.work_estimate(p, true) <= limits.full;
    if !full_ok {
        within(&solver, p, play == Play::Misere, limits.budget(false))?;
    }
    let opts = bounded_options(game, p, limits.options)?;
    let mut out: Vec<MoveInfo> = opts
        .into_iter()
        .map(|q| {
            if full_ok {
                let f = solver.full(&q);
                MoveInfo {
                    winning: f.outcome(play).is_p(),
                    grundy: (play == Play::Normal).then(|| solver.grundy(&q)),
                    remoteness: Some(f.remoteness(play)),
                    to: q,
                }
            } else {
                let (winning, grundy) = match play {
                    Play::Normal => {
                        let g = solver.grundy(&q);
                        (g == 0, Some(g))
                    }
                    Play::Misere => (solver.full(&q).misere.is_p(), None),
                };
                MoveInfo {
                    to: q,
                    winning,
                    grundy,
                    remoteness: None,
                }
            }
        })
        .collect();
    failure(game)?;
    out.sort_by_key(|m| !m.winning);
    Ok(out)
}

/// Every option of `p`, refusing positions with more than `cap` of them.
fn bounded_options(game: &dyn Game, p: &[u64], cap: usize) -> Result<Vec<Pos>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut over = false;
    game.for_each_option(p, &mut |q| {
        if seen.insert(q.to_vec()) {
            if out.len() == cap {
                over = true;
                return ControlFlow::Break(());
            }
            out.push(q.to_vec());
        }
        ControlFlow::Continue(())
    });
    if over {
        return Err(Error::TooLarge(format!(
            "{} {} has more than {cap} moves; too many to list here",
            game.id(),
            game.format_position(p)
        )));
    }
    Ok(out)
}

/// The winning moves of `p` (empty when there is none): from theory when it constructs them, else by
/// search within `limits`.
pub fn winning_moves(game: &dyn Game, p: &[u64], play: Play, limits: Limits) -> Result<Vec<Pos>> {
    Ok(winning_moves_listed(game, p, play, limits)?.0)
}

/// The winning moves of `p` and whether the list is complete: it is not when a proven result names
/// some winning moves and the position is too large to search for the others.
pub fn winning_moves_listed(
    game: &dyn Game,
    p: &[u64],
    play: Play,
    limits: Limits,
) -> Result<(Vec<Pos>, bool)> {
    if let Some((_, v)) = nimlab_theory::find(game, p, play) {
        if let Some(w) = v.winning_moves {
            if v.all_winning_moves || v.is_p {
                return Ok((w, true));
            }
            // Theory names some winning moves; list them all when a search is affordable.
            return match moves(game, p, play, limits) {
                Ok(m) => Ok((
                    m.into_iter().filter(|m| m.winning).map(|m| m.to).collect(),
                    true,
                )),
                Err(_) => Ok((w, false)),
            };
        }
    }
    let w = moves(game, p, play, limits)?
        .into_iter()
        .filter(|m| m.winning)
        .map(|m| m.to)
        .collect();
    Ok((w, true))
}

/// The computer's move and why it was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub to: Pos,
    /// True when the move wins (moves to a P-position).
    pub winning: bool,
    pub why: String,
}

/// The perfect opponent's move from `p` (which must not be terminal): a winning move when one exists
/// (the quickest, by remoteness, when a full search is affordable), otherwise the move that holds out
/// longest (greatest remoteness; without a full search, the option that removes least).
pub fn computer_move(game: &dyn Game, p: &[u64], play: Play, limits: Limits) -> Result<Choice> {
    let mut solver = Solver::new(game);
    if solver.work_estimate(p, true) <= limits.full {
        let opts = bounded_options(game, p, limits.options)?;
        let mut best_win: Option<(u64, Pos)> = None;
        let mut best_lose: Option<(u64, Pos)> = None;
        for q in opts {
            let f = solver.full(&q);
            let r = f.remoteness(play);
            if f.outcome(play).is_p() {
                if best_win.as_ref().is_none_or(|(b, _)| r < *b) {
                    best_win = Some((r, q));
                }
            } else if best_lose.as_ref().is_none_or(|(b, _)| r > *b) {
                best_lose = Some((r, q));
            }
        }
        failure(game)?;
        return match (best_win, best_lose) {
            (Some((r, q)), _) => Ok(Choice {
                to: q,
                winning: true,
                why: if r == 0 {
                    "a winning move: it ends the game".into()
                } else {
                    format!("a winning move, the quickest: the game ends within {r} more moves")
                },
            }),
            (None, Some((r, q))) => Ok(Choice {
                to: q,
                winning: false,
                why: format!("no winning move exists; this one holds out longest ({r} more moves with perfect play)"),
            }),
            (None, None) => Err(Error::Unsupported("the game is over: no move is left".into())),
        };
    }
    // Theory: constructs a winning move for positions of any size.
    let theory = nimlab_theory::find(game, p, play);
    if let Some((t, v)) = &theory {
        if let Some(q) = v.winning_moves.as_ref().and_then(|w| w.first()) {
            return Ok(Choice {
                to: q.clone(),
                winning: true,
                why: format!("a winning move constructed by {}", t.id()),
            });
        }
    }
    if play == Play::Normal && within(&solver, p, false, limits.budget(false)).is_ok() {
        let opts = bounded_options(game, p, limits.options)?;
        let mut best: Option<(bool, u128, Pos)> = None;
        for q in opts {
            let win = solver.grundy(&q) == 0;
            let s = sum(&q);
            let better = match &best {
                None => true,
                Some((bw, bs, _)) => (win && !bw) || (win == *bw && s > *bs),
            };
            if better {
                best = Some((win, s, q));
            }
        }
        failure(game)?;
        if let Some((win, _, q)) = best {
            return Ok(Choice {
                to: q,
                winning: win,
                why: if win {
                    "a winning move (to a position of Grundy value 0)".into()
                } else {
                    "no winning move exists; this one takes least".into()
                },
            });
        }
    }
    if theory.as_ref().is_some_and(|(_, v)| v.is_p) {
        // A lost position too large to search: take as little as possible among the first options.
        let mut best: Option<(u128, Pos)> = None;
        let mut seen = 0usize;
        game.for_each_option(p, &mut |q| {
            let s = sum(q);
            if best.as_ref().is_none_or(|(b, _)| s > *b) {
                best = Some((s, q.to_vec()));
            }
            seen += 1;
            if seen >= limits.options {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if let Some((_, q)) = best {
            return Ok(Choice {
                to: q,
                winning: false,
                why: "no winning move exists (by theory); this one takes little".into(),
            });
        }
    }
    if game.is_terminal(p) {
        return Err(Error::Unsupported(
            "the game is over: no move is left".into(),
        ));
    }
    Err(Error::TooLarge(format!(
        "{} {} is too large to search here and no proven result constructs a move; try a smaller position",
        game.id(),
        game.format_position(p)
    )))
}

fn sum(p: &[u64]) -> u128 {
    p.iter().map(|&a| a as u128).sum()
}

/// Checks that moving from `p` to `q` is legal and returns the position moved to, normalised: for
/// Shrinking Circular Nim `q` may keep the emptied piles as zeros (they are removed); for the chip
/// games `q` is a multiset in any order.
pub fn legal_move(game: &dyn Game, p: &[u64], q: &[u64], limits: Limits) -> Result<Pos> {
    let illegal = |why: &str| {
        Err(Error::BadPosition(format!(
            "illegal move from {} to {}: {why}",
            game.format_position(p),
            game.format_position(q)
        )))
    };
    let params = game.params();
    let lowered = |q: &[u64]| -> std::result::Result<Vec<usize>, &'static str> {
        if q.len() != p.len() {
            return Err("the number of stacks changed");
        }
        if q.iter().zip(p).any(|(a, b)| a > b) {
            return Err("a stack may only be lowered");
        }
        let changed: Vec<usize> = (0..p.len()).filter(|&i| q[i] < p[i]).collect();
        if changed.is_empty() {
            return Err("nothing was taken");
        }
        Ok(changed)
    };
    match game.family() {
        "nim" | "moore" => {
            let most = if game.family() == "nim" {
                1
            } else {
                params[0] as usize
            };
            let changed = match lowered(q) {
                Ok(c) => c,
                Err(e) => return illegal(e),
            };
            if changed.len() > most {
                return illegal(&format!(
                    "a move takes from at most {most} heap{}",
                    if most == 1 { "" } else { "s" }
                ));
            }
            Ok(q.to_vec())
        }
        "CN" | "SCN" if game.family() == "CN" || q.len() == p.len() => {
            let (n, k) = (p.len(), params[1] as usize);
            let changed = match lowered(q) {
                Ok(c) => c,
                Err(e) => return illegal(e),
            };
            if !in_one_window(n, k, &changed) {
                return illegal(&format!(
                    "the stacks lowered must lie in one window of {k} consecutive stacks"
                ));
            }
            if game.family() == "SCN" {
                Ok(q.iter().copied().filter(|&a| a > 0).collect())
            } else {
                Ok(q.to_vec())
            }
        }
        _ => {
            // Any other move is checked against the options, compared up to the game's symmetry
            // for multisets (chip games) and for shrinking circles written without their zeros.
            let loose = nimlab_games::chip::is_chip_game(game) || game.family() == "SCN";
            let target = if loose { game.canonical(q) } else { q.to_vec() };
            let mut found: Option<Pos> = None;
            let mut seen = 0usize;
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
                if seen >= limits.options * 10 {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            match found {
                Some(o) if nimlab_games::chip::is_chip_game(game) => Ok(o),
                Some(_) => Ok(q.to_vec()),
                None if seen >= limits.options * 10 => Err(Error::TooLarge(format!(
                    "{} {} has too many moves to check this one here",
                    game.id(),
                    game.format_position(p)
                ))),
                None => illegal("no move of the rules leads there"),
            }
        }
    }
}

/// True when the indices `changed` of a circle of `n` stacks lie in `k` consecutive stacks.
fn in_one_window(n: usize, k: usize, changed: &[usize]) -> bool {
    if k >= n {
        return true;
    }
    (0..n).any(|s| changed.iter().all(|&i| (i + n - s) % n < k))
}

/// Parses a move typed in the terminal: either the new position (`0,1,5,4,2,3,6`, the game's
/// position syntax) or, for CN and SCN, `w S a,b,c` — the window of k stacks starting at stack S
/// (1-based, clockwise) lowered to the heights a, b, c. Returns the (legal, normalised) new position.
pub fn parse_move(game: &dyn Game, p: &[u64], text: &str, limits: Limits) -> Result<Pos> {
    let t = text.trim();
    let window = t
        .strip_prefix("w ")
        .or_else(|| t.strip_prefix("W "))
        .filter(|_| matches!(game.family(), "CN" | "SCN"));
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
        let k = (game.params()[1] as usize).min(m);
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
        // SCN positions may be written with zeros for the emptied piles: parse as a plain list.
        let q = nimlab_core::position::parse_list(t)?;
        if game.family() != "SCN" || q.len() != p.len() {
            game.parse_position(t)?
        } else {
            q
        }
    };
    legal_move(game, p, &q, limits)
}

/// A small random number generator (splitmix64), enough for starting positions.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// Seeded from the clock.
    pub fn from_time() -> Rng {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x9e37_79b9);
        Rng(t ^ (std::process::id() as u64).rotate_left(32))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }
}

/// A random starting position of moderate size: not terminal, and small enough that the computer
/// can search it fully (so it plays by remoteness) within `limits`.
pub fn random_position(game: &dyn Game, rng: &mut Rng, limits: Limits) -> Result<Pos> {
    let params = game.params();
    let fam = game.family();
    // (number of entries, least entry, largest entry to try first)
    let (len, lo, mut hi): (usize, u64, u64) = match fam {
        "nim" => (rng.range(3, 4) as usize, 1, 9),
        "moore" => ((params[0] as usize + 1).min(5), 1, 6),
        "CN" => (params[0] as usize, 0, 7),
        "SCN" => (params[0] as usize, 1, 7),
        "ENTROPY" => (params[0] as usize, 0, 9),
        _ if nimlab_games::chip::is_chip_game(game) => (params[0] as usize, 1, 9),
        _ => {
            return Err(Error::Unsupported(format!(
                "no random positions for {}",
                game.id()
            )))
        }
    };
    if len > MAX_ENTRIES {
        return Err(Error::TooLarge(format!(
            "{} has too many stacks to play here (at most {MAX_ENTRIES})",
            game.id()
        )));
    }
    let solver = Solver::new(game);
    for attempt in 0..200 {
        if attempt % 20 == 19 && hi > lo + 1 {
            hi -= 1;
        }
        let p: Pos = (0..len).map(|_| rng.range(lo, hi)).collect();
        let p = if nimlab_games::chip::is_chip_game(game) {
            game.canonical(&p)
        } else {
            p
        };
        if game.validate(&p).is_err() || game.is_terminal(&p) {
            continue;
        }
        if solver.work_estimate(&p, true) <= limits.full {
            return Ok(p);
        }
    }
    // Large circles: a sparse position (mostly zeros) keeps the search small.
    for _ in 0..200 {
        let mut p: Pos = vec![lo; len];
        for _ in 0..3 {
            let i = rng.range(0, len as u64 - 1) as usize;
            p[i] = rng.range(1, 3);
        }
        if game.validate(&p).is_ok()
            && !game.is_terminal(&p)
            && solver.work_estimate(&p, false) <= limits.search
        {
            return Ok(p);
        }
    }
    Err(Error::TooLarge(format!(
        "no random position of {} is small enough to play here",
        game.id()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cn(n: usize, k: usize) -> Box<dyn Game> {
        load_game(&format!("CN({n},{k})")).unwrap()
    }

    #[test]
    fn window_moves_are_checked() {
        let g = cn(5, 3);
        let p = vec![1, 2, 3, 4, 5];
        let l = Limits::TERMINAL;
        assert_eq!(
            legal_move(g.as_ref(), &p, &[0, 2, 3, 4, 0], l).unwrap(),
            vec![0, 2, 3, 4, 0]
        );
        assert!(legal_move(g.as_ref(), &p, &[0, 2, 0, 4, 5], l).is_ok());
        assert!(legal_move(g.as_ref(), &p, &[0, 2, 3, 0, 5], l).is_ok());
        assert!(legal_move(g.as_ref(), &p, &[0, 2, 0, 4, 0], l).is_err());
        assert!(legal_move(g.as_ref(), &p, &[1, 2, 3, 4, 5], l).is_err());
        assert!(legal_move(g.as_ref(), &p, &[1, 2, 3, 4, 6], l).is_err());
        assert_eq!(
            parse_move(g.as_ref(), &p, "w 4 0,0,1", l).unwrap(),
            vec![1, 2, 3, 0, 0]
        );
        assert!(parse_move(g.as_ref(), &p, "w 9 0,0,1", l).is_err());
        assert!(parse_move(g.as_ref(), &p, "w 1 0,0", l).is_err());
    }

    #[test]
    fn every_option_is_legal_and_nothing_else() {
        let l = Limits::TERMINAL;
        for (name, p) in [
            ("CN(5,3)", vec![1, 0, 2, 1, 1]),
            ("SCN(5,3)", vec![1, 2, 1, 2]),
            ("nim", vec![2, 1, 3]),
            ("moore(2)", vec![1, 2, 2]),
            ("ET(3)", vec![1, 2, 4]),
            ("ER(3)", vec![1, 2, 4]),
        ] {
            let g = load_game(name).unwrap();
            let opts = g.options(&p);
            for q in &opts {
                let r = legal_move(g.as_ref(), &p, q, l)
                    .unwrap_or_else(|e| panic!("{name} {p:?} -> {q:?}: {e}"));
                assert_eq!(g.canonical(&r), g.canonical(q));
            }
            // Every lowering of the same length that is not an option is refused.
            // (For SCN a lowering can reach an option's shape by another window: not compared here.)
            if !nimlab_games::chip::is_chip_game(g.as_ref()) && !name.starts_with("SCN") {
                let mut q = vec![0u64; p.len()];
                loop {
                    if q.iter().zip(&p).all(|(a, b)| a <= b) {
                        let r = legal_move(g.as_ref(), &p, &q, l);
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
        let g = cn(5, 3);
        let l = Limits::WEB;
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let p = random_position(g.as_ref(), &mut rng, l).unwrap();
            let a = analyse(g.as_ref(), &p, Play::Normal, l).unwrap();
            let c = computer_move(g.as_ref(), &p, Play::Normal, l).unwrap();
            assert_eq!(c.winning, a.outcome == Outcome::N, "{p:?}");
            let after = analyse(g.as_ref(), &c.to, Play::Normal, l).unwrap();
            assert_eq!(after.outcome == Outcome::P, c.winning);
            let w = winning_moves(g.as_ref(), &p, Play::Normal, l).unwrap();
            assert_eq!(w.is_empty(), !c.winning);
        }
    }

    #[test]
    fn huge_positions_use_theory_or_are_refused() {
        let l = Limits::WEB;
        let nim = load_game("nim").unwrap();
        let p = vec![1_000_000_000_000, 3, 5];
        let c = computer_move(nim.as_ref(), &p, Play::Normal, l).unwrap();
        assert!(c.winning);
        let g = cn(9, 5);
        let p = vec![1000; 9];
        assert!(matches!(
            analyse(g.as_ref(), &p, Play::Normal, l),
            Err(Error::TooLarge(_))
        ));
        assert!(load_game("x.rhai").is_err());
        assert!(load_game("nim[3]+nim[4]").is_err());
    }
}
