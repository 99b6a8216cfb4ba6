//! `nimlab verify` and `nimlab patterns`: the research workflow of the papers (check a characterization
//! with the partition theorem, find the families of P-positions).

use crate::args::Common;
use crate::output;
use clap::Args;
use nimlab_core::table::{tabulate, TableRun};
use nimlab_core::{Error, Game, Play, Pos, Solver};
use nimlab_games::{chip, parse_game};
use nimlab_research::conjecture::ScriptPredicate;
use nimlab_research::domain::{positions, Bound};
use nimlab_research::patterns::families;
use nimlab_research::verify::{verify, Condition, Counterexample, Membership, Report};
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset;
use serde_json::json;
use std::collections::HashSet;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct BoundArgs {
    /// Largest entry of the box (CN stacks, SCN piles, heaps; for ENTROPY(k) the largest max - min).
    #[arg(long)]
    max: Option<u64>,
    /// Chip games: the most chips in all.
    #[arg(long, value_name = "S")]
    max_sum: Option<u64>,
    /// Number of heaps (Nim, Moore's Nim, scripted games).
    #[arg(long)]
    heaps: Option<usize>,
}

impl BoundArgs {
    fn bound(&self) -> Bound {
        Bound {
            max: self.max,
            max_sum: self.max_sum,
            heaps: self.heaps,
        }
    }
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Game name or script, e.g. CN(7,4).
    game: String,
    #[command(flatten)]
    bound: BoundArgs,
    /// A built-in result, by id (see `nimlab theory GAME`).
    #[arg(
        long,
        conflicts_with = "conjecture",
        required_unless_present = "conjecture"
    )]
    theorem: Option<String>,
    /// A Rhai file defining fn is_p(p).
    #[arg(long)]
    conjecture: Option<String>,
    /// Misère play: the player who makes the last move loses.
    #[arg(long)]
    misere: bool,
    /// How many counterexamples of each kind to show.
    #[arg(long, default_value_t = 5)]
    examples: usize,
    /// Print one JSON object on stdout.
    #[arg(long)]
    json: bool,
}

/// The canonical P-positions of the box by the tables engine, where it covers the game and box.
fn engine_p_set(game: &dyn Game, bound: Bound, play: Play) -> Option<HashSet<Pos>> {
    if chip::is_chip_game(game) {
        return None;
    }
    let domain = game.table_domain(bound.max?, bound.heaps).ok()?;
    pset::rules_for(game, &domain)?;
    let mut set = HashSet::new();
    let hooks = Hooks::default();
    pset::tabulate(game, &domain, play, hooks, &mut |p| {
        set.insert(p.to_vec());
    })
    .ok()?;
    Some(set)
}

/// Verifies the set given by `member`. Where the tables engine covers the box, the set is first compared
/// with the engine's exact P-set: in a box closed under moves the P-set is the only set satisfying
/// (I)-(III), so equality settles it at once, and a partial result's verdicts are compared with it.
/// Otherwise, or when the sets differ, conditions (I)-(III) are checked one by one for witnesses.
fn checked(
    game: &dyn Game,
    a: &VerifyArgs,
    play: Play,
    ps: &[Pos],
    member: &mut Membership,
) -> Result<Report, Error> {
    if let Some(pset) = engine_p_set(game, a.bound.bound(), play) {
        let mut report = Report {
            positions: ps.len() as u64,
            ..Default::default()
        };
        let mut differs = false;
        let mut claims = Vec::new();
        for p in ps {
            let truth = pset.contains(&game.canonical(p));
            match member(p)? {
                Some(m) => {
                    report.members += m as u64;
                    if m != truth {
                        differs = true;
                    }
                    claims.push((p, m, truth));
                }
                None => report.undecided += 1,
            }
        }
        if report.undecided > 0 {
            report.by_search = true;
            for (p, claim, truth) in claims {
                if claim != truth {
                    *report.violations.entry(Condition::Search).or_insert(0) += 1;
                    if report.examples.len() < a.examples {
                        report.examples.push(Counterexample {
                            condition: Condition::Search,
                            position: p.clone(),
                            move_to: None,
                            claimed_p: Some(claim),
                        });
                    }
                }
            }
            return Ok(report);
        }
        if !differs {
            eprintln!("nimlab: the set equals the P-set of the box computed by the tables engine; in a box closed under moves that is equivalent to (I)-(III)");
            return Ok(report);
        }
    }
    verify(game, ps, member, play, a.examples)
}

/// Runs `verify`; exits with status 1 when the set is not the P-set.
pub fn run_verify(a: &VerifyArgs) -> Result<ExitCode, Error> {
    let game = parse_game(&a.game)?;
    let play = Play::from_misere(a.misere);
    let ps = positions(game.as_ref(), a.bound.bound())?;
    let (source, report) = match (&a.theorem, &a.conjecture) {
        (Some(id), _) => {
            let t = nimlab_theory::all()
                .iter()
                .find(|t| t.id() == id)
                .ok_or_else(|| {
                    Error::BadGame(format!("no result with id '{id}' (see `nimlab theory`)"))
                })?;
            if !t.covers(game.as_ref()) {
                return Err(Error::BadGame(format!(
                    "{id} does not cover {} (it is about {})",
                    game.id(),
                    t.games()
                )));
            }
            if t.play() != play {
                return Err(Error::BadGame(format!(
                    "{id} is a result about {} play; {}",
                    t.play(),
                    if a.misere {
                        "drop --misere"
                    } else {
                        "add --misere"
                    }
                )));
            }
            let g = game.as_ref();
            let r = checked(g, a, play, &ps, &mut |p| Ok(t.decide(g, p).map(|v| v.is_p)))?;
            (format!("theorem {id}"), r)
        }
        (None, Some(path)) => {
            let pred = ScriptPredicate::load(path)?;
            let r = checked(game.as_ref(), a, play, &ps, &mut |p| pred.is_p(p).map(Some))?;
            (format!("conjecture {path}"), r)
        }
        (None, None) => {
            return Err(Error::Unsupported(
                "give --theorem ID or --conjecture FILE".into(),
            ))
        }
    };
    let holds = report.holds();
    let show = |p: &[u64]| game.format_position(p);
    if a.json {
        let mut violations = serde_json::Map::new();
        for c in [
            Condition::I,
            Condition::II,
            Condition::III,
            Condition::Search,
        ] {
            if c != Condition::Search || report.by_search {
                violations.insert(
                    c.name().into(),
                    json!(report.violations.get(&c).copied().unwrap_or(0)),
                );
            }
        }
        let v = json!({
            "game": game.id(),
            "bound": a.bound.bound().describe(),
            "play": play.name(),
            "source": source,
            "holds": holds,
            "positions": report.positions,
            "members": report.members,
            "undecided": report.undecided,
            "method": if report.by_search { "verdicts compared with exhaustive search (partial result)" } else { "conditions (I)-(III)" },
            "violations": violations,
            "counterexamples": report.examples.iter().map(|c| json!({
                "condition": c.condition.name(),
                "position": c.position,
                "move_to": c.move_to,
                "claimed_p": c.claimed_p,
            })).collect::<Vec<_>>(),
        });
        output::print_json(&v);
    } else {
        println!(
            "{} {}, {} play, {}: {} on {} positions ({} in the set{})",
            game.id(),
            a.bound.bound().describe(),
            play,
            source,
            if holds { "HOLDS" } else { "FAILS" },
            report.positions,
            report.members,
            if report.undecided > 0 {
                format!(", {} not decided by the result", report.undecided)
            } else {
                String::new()
            }
        );
        if report.by_search {
            println!("partial result: its verdicts were compared with exhaustive search");
        } else {
            for c in [Condition::I, Condition::II, Condition::III] {
                let n = report.violations.get(&c).copied().unwrap_or(0);
                println!(
                    "  {}: {}",
                    c.describe(),
                    if n == 0 {
                        "never".to_string()
                    } else {
                        format!("{n} times")
                    }
                );
            }
        }
        for c in &report.examples {
            match (c.condition, &c.move_to, c.claimed_p) {
                (Condition::I, Some(q), _) => println!(
                    "  counterexample (I): {} -> {}, both in the set",
                    show(&c.position),
                    show(q)
                ),
                (Condition::II, _, _) => println!(
                    "  counterexample (II): {} is outside the set and no move reaches the set",
                    show(&c.position)
                ),
                (Condition::III, _, _) => println!(
                    "  counterexample (III): terminal position {} is {} the set",
                    show(&c.position),
                    if play == Play::Normal {
                        "outside"
                    } else {
                        "inside"
                    }
                ),
                (_, _, Some(claim)) => println!(
                    "  counterexample: {} is said to be {} but search finds {}",
                    show(&c.position),
                    if claim { "P" } else { "N" },
                    if claim { "N" } else { "P" }
                ),
                _ => {}
            }
        }
    }
    // A counterexample is an answer, not an error: exit status 1, as `grep` does when nothing matches.
    Ok(if holds {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[derive(Args, Debug)]
pub struct PatternsArgs {
    /// Game name or script, e.g. CN(7,4).
    game: String,
    #[command(flatten)]
    bound: BoundArgs,
    /// Misère play: the player who makes the last move loses.
    #[arg(long)]
    misere: bool,
    /// Examples shown per family.
    #[arg(long, default_value_t = 3)]
    examples: usize,
    #[command(flatten)]
    common: Common,
}

/// The canonical P-positions of the bounded set.
pub fn canonical_p_positions(game: &dyn Game, bound: Bound, play: Play) -> Result<Vec<Pos>, Error> {
    if chip::is_chip_game(game)
        || game
            .table_domain(bound.max.unwrap_or(1), bound.heaps)
            .is_err()
    {
        let mut solver = Solver::new(game);
        let mut out: Vec<Pos> = Vec::new();
        for p in positions(game, bound)? {
            // A solver error (a script's runtime error, an over-budget search) is reported, not
            // read as "not a P-position".
            if game.canonical(&p) == p && solver.outcome(&p, play)?.is_p() {
                out.push(p);
            }
        }
        out.dedup();
        return Ok(out);
    }
    let hi = bound
        .max
        .ok_or_else(|| Error::Unsupported(format!("{} needs --max H", game.id())))?;
    let domain = game.table_domain(hi, bound.heaps)?;
    let t = tabulate(
        game,
        &domain,
        &TableRun {
            play,
            keep_positions: true,
            hooks: Default::default(),
        },
    )?;
    Ok(t.positions)
}

pub fn run_patterns(a: &PatternsArgs) -> Result<(), Error> {
    let game = parse_game(&a.game)?;
    let play = Play::from_misere(a.misere);
    let ps = canonical_p_positions(game.as_ref(), a.bound.bound(), play)?;
    let fams = families(&ps, a.examples);
    if a.common.json {
        let v = json!({
            "game": game.id(),
            "bound": a.bound.bound().describe(),
            "play": play.name(),
            "canonical_count": ps.len(),
            "families": fams.iter().map(|f| json!({
                "shape": f.shape, "count": f.count, "relations": f.relations, "examples": f.examples,
            })).collect::<Vec<_>>(),
        });
        output::print_json(&v);
        return Ok(());
    }
    println!(
        "{} {}, {} play: {} canonical P-positions in {} families by shape (0 empty, m smallest, M largest, · other)",
        game.id(),
        a.bound.bound().describe(),
        play,
        ps.len(),
        fams.len()
    );
    for (i, f) in fams.iter().enumerate() {
        println!();
        println!(
            "family {}: shape {} — {} position{}",
            i + 1,
            f.shape,
            f.count,
            if f.count == 1 { "" } else { "s" }
        );
        if !f.relations.is_empty() {
            println!("  relations: {}", f.relations.join("; "));
        }
        let ex: Vec<String> = f.examples.iter().map(|p| game.format_position(p)).collect();
        println!("  examples: {}", ex.join(" "));
    }
    Ok(())
}
