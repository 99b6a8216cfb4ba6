//! `nimlab verify` and `nimlab patterns`: the research workflow of the papers (check a characterization
//! with the partition theorem, find the families of P-positions).

use crate::args::Common;
use crate::output;
use clap::Args;
use nimlab_analysis::verify::Claim;
use nimlab_core::table::{tabulate, TableRun};
use nimlab_core::{Error, Game, Play, Pos, Solver};
use nimlab_games::{chip, parse_game};
use nimlab_research::domain::{positions, Bound};
use nimlab_research::patterns::families;
use nimlab_research::verify::Condition;
use serde_json::json;
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
#[command(group(clap::ArgGroup::new("source").required(true).args(["theorem", "conjecture", "families"])))]
pub struct VerifyArgs {
    /// Game name or script, e.g. CN(7,4).
    game: String,
    #[command(flatten)]
    bound: BoundArgs,
    /// A built-in result, by id (see `nimlab theory GAME`).
    #[arg(long)]
    theorem: Option<String>,
    /// A Rhai file defining fn is_p(p).
    #[arg(long)]
    conjecture: Option<String>,
    /// A families file (TOML, as for `nimlab prove --families`): a union of linear families.
    #[arg(long)]
    families: Option<String>,
    /// Misère play: the player who makes the last move loses.
    #[arg(long)]
    misere: bool,
    /// How many counterexamples of each kind to show.
    #[arg(long, default_value_t = 5)]
    examples: usize,
    /// Print one JSON object on stdout.
    #[arg(long)]
    json: bool,
    /// The store: the engine's P-set of the box is read from it when solved before, else saved there.
    #[command(flatten)]
    store: crate::store_cmd::StoreArgs,
}

/// Runs `verify`; exits with status 1 when the set is not the P-set.
pub fn run_verify(a: &VerifyArgs) -> Result<ExitCode, Error> {
    let game = parse_game(&a.game)?;
    let play = Play::from_misere(a.misere);
    let claim = match (&a.theorem, &a.conjecture, &a.families) {
        (Some(id), _, _) => Claim::Theorem(id),
        (None, Some(path), _) => Claim::Conjecture(path),
        (None, None, Some(path)) => Claim::Families(path),
        (None, None, None) => {
            return Err(Error::Unsupported(
                "give --theorem ID, --conjecture FILE or --families FILE".into(),
            ))
        }
    };
    let db = a.store.path();
    let checked = nimlab_analysis::verify::verify_with_store(
        game.as_ref(),
        claim,
        a.bound.bound(),
        play,
        a.examples,
        db.as_deref(),
    )?;
    if checked.settled_by_engine {
        eprintln!("nimlab: the set equals the P-set of the box computed by the tables engine; in a box closed under moves that is equivalent to (I)-(III)");
    }
    let (source, report) = (&checked.source, &checked.report);
    let holds = report.holds();
    let show = |p: &[u64]| game.format_position(p);
    if a.json {
        let v = nimlab_analysis::verify::to_json(game.as_ref(), &checked, a.bound.bound(), play);
        output::print_json(&v);
    } else {
        println!(
            "{} {}, {} play, {}: {} on {} ({} in the set{})",
            game.id(),
            a.bound.bound().describe(),
            play,
            source,
            if holds { "HOLDS" } else { "FAILS" },
            nimlab_core::plural(report.positions, "position"),
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
            for c in Condition::THEOREM {
                let n = report.violations.get(&c).copied().unwrap_or(0);
                println!(
                    "  {}: {}",
                    c.describe(),
                    if n == 0 {
                        "never".to_string()
                    } else {
                        nimlab_core::plural_of(n, "time", "times")
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
    /// The store: the P-set is read from it when solved before (by `table`), else saved there.
    #[command(flatten)]
    store: crate::store_cmd::StoreArgs,
}

/// The canonical P-positions of the bounded set from the store, as `nimlab table` finds or saves
/// them there; `None` when no store is in use or `table` cannot plan this bound.
fn stored_p_positions(
    game: &dyn Game,
    bound: Bound,
    play: Play,
    store: &crate::store_cmd::StoreArgs,
) -> Result<Option<Vec<Pos>>, Error> {
    use nimlab_tables::plan;
    let Some(mut db) = store.open()? else {
        return Ok(None);
    };
    let req = plan::Request {
        bounds: plan::Bounds {
            max: bound.max,
            max_sum: bound.max_sum,
            heaps: bound.heaps,
        },
        play,
        kind: plan::TableKind::PSet,
        method: plan::TableMethod::Auto,
        backend: plan::Backend::Cpu,
        remoteness: false,
        limit: nimlab_core::Budget::default().limit,
        resume: plan::ResumeMode::Off,
    };
    let Ok(pl) = plan::plan(game, &req) else {
        return Ok(None);
    };
    let answer = plan::run(game, &pl, Some(&mut db), Default::default())?;
    Ok(Some(answer.solved.positions()))
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

/// For each shape family, the named P-families of the proven results covering the game that its
/// members belong to: (result id, family name, how many members), in order of first appearance.
fn known_families(
    game: &dyn nimlab_core::Game,
    play: Play,
    ps: &[nimlab_core::Pos],
    fams: &[nimlab_research::patterns::Family],
) -> Vec<Vec<(String, String, usize)>> {
    let theorems = nimlab_theory::covering(game, play);
    let index: std::collections::HashMap<&str, usize> = fams
        .iter()
        .enumerate()
        .map(|(i, f)| (f.key.as_str(), i))
        .collect();
    let mut out: Vec<Vec<(String, String, usize)>> = vec![Vec::new(); fams.len()];
    for p in ps {
        let Some(&i) = index.get(nimlab_research::patterns::key(p).as_str()) else {
            continue;
        };
        let named = theorems.iter().find_map(|t| {
            let v = t.decide(game, p)?;
            Some((t.id().to_string(), v.family?))
        });
        if let Some((id, fam)) = named {
            match out[i].iter_mut().find(|(a, b, _)| *a == id && *b == fam) {
                Some(e) => e.2 += 1,
                None => out[i].push((id, fam, 1)),
            }
        }
    }
    out
}

pub fn run_patterns(a: &PatternsArgs) -> Result<(), Error> {
    let game = parse_game(&a.game)?;
    let play = Play::from_misere(a.misere);
    let ps = match stored_p_positions(game.as_ref(), a.bound.bound(), play, &a.store)? {
        Some(ps) => ps,
        None => canonical_p_positions(game.as_ref(), a.bound.bound(), play)?,
    };
    let fams = families(&ps, a.examples);
    let known = known_families(game.as_ref(), play, &ps, &fams);
    if a.common.json {
        let v = json!({
            "game": game.id(),
            "bound": a.bound.bound().describe(),
            "play": play.name(),
            "canonical_count": ps.len(),
            "families": fams.iter().enumerate().map(|(i, f)| json!({
                "shape": f.shape, "count": f.count, "relations": f.relations, "examples": f.examples,
                "known": known[i].iter().map(|(id, fam, n)| json!({"result": id, "family": fam, "count": n})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        });
        output::print_json(&v);
        return Ok(());
    }
    println!(
        "{} {}, {} play: {} in {} by shape (0 empty, m smallest, M largest, · other)",
        game.id(),
        a.bound.bound().describe(),
        play,
        nimlab_core::plural(ps.len(), "canonical P-position"),
        nimlab_core::plural_of(fams.len(), "family", "families")
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
        if !known[i].is_empty() {
            let named: Vec<String> = known[i]
                .iter()
                .map(|(id, fam, n)| {
                    if *n == f.count {
                        format!("family {fam} of {id} (all {n})")
                    } else {
                        format!("family {fam} of {id} ({n} of {})", f.count)
                    }
                })
                .collect();
            println!("  known as: {}", named.join("; "));
        }
        let ex: Vec<String> = f.examples.iter().map(|p| game.format_position(p)).collect();
        println!("  examples: {}", ex.join(" "));
    }
    Ok(())
}
