//! # nimlab-discover
//!
//! `nimlab discover`: from tables of P-positions to a characterization proved for every stack size,
//! with no theorem given. It never reads the theory registry; everything comes from tables.
//!
//! The pipeline ([`discover`]):
//! 1. tabulate the P-set on a box `[lo..H]^n` with the tables engine (looked up in the store when it
//!    is there, saved there otherwise);
//! 2. conjecture linear families whose union is the P-set of that box exactly ([`linear`]);
//! 3. check the conjecture on a larger box (exact membership, the prover's own, against that box's
//!    table); when it fails, conjecture again from the larger box;
//! 4. prove conditions (I)–(III) for every stack size with the SMT prover (`nimlab_prove::prove`).
//!    A counterexample (re-checked by the prover) lies outside the checked box, so the box grows to
//!    hold it and the description is conjectured again;
//! 5. when no linear description fits a box, or the families are refuted beyond the largest box
//!    allowed, try once the automaton route ([`automaton`]: an automaton learned from the tables,
//!    proved by the automata prover);
//! 6. answer `proved`, `conjecture` (it equals the P-set on the box, and the proof was refuted beyond
//!    the largest box allowed or gave no answer) or `none` (no description within the limits).

mod answer;
pub mod automaton;
pub mod chip_automaton;
pub mod chips;
pub mod linear;
mod options;
mod render;

pub use answer::{Discovery, DiscoveryVerdict, FamilyOut, TableUse};
use options::Stopper;
pub use options::{Options, ProgressFn, DEFAULT_POSITIONS};

use linear::{Fam, PTable};
use nimlab_core::{Arg, Error, Hooks, Play, Refusal, Result};
use nimlab_prove::{ReadingRule, Ruleset, RulesetKind, SmtSolver, Status};
use nimlab_tables::plan::{self, Bounds, Request};
use serde_json::json;
use std::time::{Duration, Instant};

/// Largest entry of the automaton route's learning boxes when `--max` is not given.
pub const DEFAULT_LEARNING_MAX: u64 = 63;

/// The box bound used when none is given: the largest `H` whose box has at most
/// [`DEFAULT_POSITIONS`] positions (at least 4).
pub fn default_max(rules: &Ruleset) -> u64 {
    let lo = rules.min_entry() as u64;
    let mut h = lo + 4;
    while linear::positions_in_box(lo, h + 1, rules.n).is_some_and(|s| s <= DEFAULT_POSITIONS)
        && h < 64
    {
        h += 1;
    }
    h
}

/// The first box: about 20,000 positions, between lo+3 and lo+10.
fn first_max(rules: &Ruleset) -> u64 {
    let lo = rules.min_entry() as u64;
    let mut h = lo + 3;
    while h < lo + 10 && linear::positions_in_box(lo, h + 1, rules.n).is_some_and(|s| s <= 20_000) {
        h += 1;
    }
    h
}

/// Why a proof gave no answer: each undecided condition with its reason.
fn no_answer(report: &nimlab_prove::Report) -> String {
    let why: Vec<String> = report
        .conditions
        .iter()
        .filter(|c| c.status == Status::Unknown)
        .map(|c| {
            format!(
                "({}): {}",
                c.condition.name(),
                c.reason.clone().unwrap_or_default()
            )
        })
        .collect();
    format!("the proof gave no answer: {}", why.join("; "))
}

/// Finds and proves a characterization of the P-positions of `game` (in `opts.play`; nim and
/// moore(k) with `opts.heaps`) from tables alone, by the route the game takes: linear families then
/// an automaton (games of stacks), the P-totals (the redistribution chip games) or an automaton (ET(3),
/// ENTROPY(3)). The description found is written to `opts.out`, and a characterization proved for
/// every size is saved in the store at `opts.store`, where the analysis chain answers positions of
/// any size from it. `Err` only for bad input (a game no prover handles, a bad box, no solver), for
/// `Error::Interrupted` (the cancel flag) and for a file or store that cannot be written; a time
/// limit gives an honest verdict.
pub fn discover(game: &str, opts: &Options) -> Result<Discovery> {
    if opts.timeout.is_zero() {
        return Err(Error::refused(
            Refusal::new("")
                .name(Arg::Timeout)
                .text(" must be at least 1 second"),
        ));
    }
    let chip = nimlab_prove::chips::ChipGame::parse(game)?;
    let mut d = if let Some(chip) = &chip {
        if opts.heaps.is_some() {
            let bound = if chip_automaton::covered(chip).is_some() {
                Arg::Max
            } else {
                Arg::MaxSum
            };
            return Err(Error::refused(
                Refusal::new("")
                    .name(Arg::Heaps)
                    .text(format!(
                        " is for nim and moore(k); {} has its number of boxes in its name: bound it with ",
                        chip.id()
                    ))
                    .given(bound),
            ));
        }
        chips::discover_chips(game, opts)?
    } else {
        let parsed = nimlab_games::parse_game(game)?;
        let heaps = parsed.downcast_ref::<nimlab_games::Nim>().is_some()
            || parsed.downcast_ref::<nimlab_games::MooreNim>().is_some();
        if opts.max_sum.is_some() {
            return Err(Error::refused(
                Refusal::new("")
                    .name(Arg::MaxSum)
                    .text(format!(
                        " bounds the chip games' boxes (total chips); {} takes ",
                        parsed.id()
                    ))
                    .given(Arg::Max),
            ));
        }
        if !heaps && Ruleset::of(parsed.as_ref()).is_none() {
            return Err(nimlab_prove::request::not_covered(
                "discover",
                game,
                parsed.as_ref(),
            ));
        }
        search(&game_name(game, opts.heaps)?, opts)?
    };
    d.file = d.write(opts.out.as_deref())?;
    // The store keeps characterizations of games of stacks.
    if let (Some(proven), Some(path), None) = (d.proved(), &opts.store, &chip) {
        d.saved = Some(nimlab_analysis::proved::save_discovered(
            path, &d.game, d.play, proven,
        )?);
    }
    Ok(d)
}

/// The route of the games of stacks: linear families, then an automaton.
fn search(game: &str, opts: &Options) -> Result<Discovery> {
    let start = Instant::now();
    let rules = Ruleset::parse(game)?;
    // Families are read under the game's symmetries; a complex whose automorphism group is not
    // known has no readings, and only the automaton route (which reads the tuple as it is) applies.
    let mut no_families = None;
    let reading = match rules.kind {
        RulesetKind::Cn | RulesetKind::Scn => ReadingRule::MinFirst,
        RulesetKind::Complex => {
            if rules
                .complex
                .as_ref()
                .is_none_or(|c| c.automorphisms.is_none())
            {
                no_families = Some(format!(
                    "its automorphism group is larger than {} or was not determined, so its tables cannot be read as families",
                    nimlab_prove::conjecture::MAX_READINGS
                ));
            }
            ReadingRule::Any
        }
    };
    if rules.n > 26 {
        return Err(Error::Unsupported(format!(
            "{}: at most 26 stacks (families name them a..z)",
            rules.id()
        )));
    }
    let lo = rules.min_entry() as u64;
    let max = opts.max.unwrap_or_else(|| default_max(&rules));
    // The automaton route learns from boxes of 2^B values a stack (tables of at most 2^30 entries):
    // bounded by --max when it is given (the engine takes entries far past 63), else by entries up
    // to 63, not by the linear route's default box.
    let auto_max = opts.max.unwrap_or(DEFAULT_LEARNING_MAX);
    if max < lo + 2 {
        return Err(Error::refused(Refusal::new("").value(Arg::Max, max).text(format!(
            ": the box must reach at least {} (a box to conjecture from and a larger one to check it on)",
            lo + 2
        ))));
    }
    // The solver must be there before any work is done.
    let solver = SmtSolver {
        path: opts.solver.clone(),
        timeout: Duration::from_secs(1),
        deadline: None,
    };
    solver.check("", &[])?;
    let stopper = Stopper::new(opts.cancel.clone(), start + opts.timeout);
    let say = |s: &str| {
        if let Some(p) = &opts.progress {
            p(s)
        }
    };
    let mut d = Discovery::empty(rules.id(), opts.play, lo);
    if let Some(why) = no_families {
        return automaton_route(d, &rules, auto_max, &stopper, start, &say, why);
    }
    let min_first = reading == ReadingRule::MinFirst;
    let next = |h: u64| (h + 2).min(max);
    let mut h = first_max(&rules).min(max - 1);
    let mut cur = match table(&rules, h, opts, &stopper, &mut d, &say)? {
        Some(t) => t,
        None => return Ok(out_of_time(d, start, "no table could be computed")),
    };
    // The automaton route's answer, once it has run (it runs once, when no linear description fits
    // a box).
    let mut auto: Option<Discovery> = None;
    loop {
        say(&format!(
            "conjecturing from the box [{lo}..{h}] ({} P-positions up to symmetry)",
            cur.count()
        ));
        let fams = match linear::conjecture(&cur, min_first, &|| stopper.stop()) {
            Ok(f) => f,
            Err(_) if stopper.cancelled() => return Err(Error::Interrupted),
            Err(_) if stopper.stop() => {
                return Ok(out_of_time(
                    d,
                    start,
                    "the time limit was reached while conjecturing",
                ))
            }
            Err(why) if h < max => {
                // First the automaton route, once (xor-type games have no linear description at
                // any box): a proof there ends the run.
                if auto.is_none() {
                    let why = format!("{why} (box [{lo}..{h}])");
                    let a =
                        automaton_route(d.clone(), &rules, auto_max, &stopper, start, &say, why)?;
                    if a.verdict == DiscoveryVerdict::Proved {
                        return Ok(a);
                    }
                    auto = Some(a);
                }
                // Families that are only points at this box may be lines and planes at a larger one.
                let h2 = next(h);
                say(&format!(
                    "{why} at the box [{lo}..{h}]; trying the box [{lo}..{h2}]"
                ));
                match table(&rules, h2, opts, &stopper, &mut d, &say)? {
                    Some(t) => {
                        h = h2;
                        cur = t;
                        continue;
                    }
                    None => {
                        return Ok(out_of_time(
                            d,
                            start,
                            &format!("{why} at the box [{lo}..{h}], and the time limit was reached before a larger box"),
                        ))
                    }
                }
            }
            Err(why) => {
                let why = format!("{why} (box [{lo}..{h}])");
                return match auto {
                    // The automaton route already ran: its answer, with the linear route's reason
                    // at the largest box.
                    Some(mut a) => {
                        if let Some(r) = &a.reason {
                            if let Some((_, auto_why)) = r.split_once("; automaton: ") {
                                a.reason = Some(format!("{why}; automaton: {auto_why}"));
                            }
                        }
                        a.tables = d.tables;
                        a.seconds = start.elapsed().as_secs_f64();
                        Ok(a)
                    }
                    None => automaton_route(d, &rules, auto_max, &stopper, start, &say, why),
                };
            }
        };
        let text = families_toml(&rules, opts.play, reading, &fams, lo, h);
        let mut conj = nimlab_prove::from_toml(&text, "discovered")?;
        conj.play = opts.play;
        say(&format!(
            "{} {}",
            fams.len(),
            if fams.len() == 1 {
                "family"
            } else {
                "families"
            }
        ));
        // Check on a larger box.
        if h < max {
            let h2 = next(h);
            let Some(big) = table(&rules, h2, opts, &stopper, &mut d, &say)? else {
                d.families = outs(&fams);
                d.toml = Some(text);
                d.box_max = Some(h);
                d.verdict = DiscoveryVerdict::Conjecture;
                d.reason = Some(format!(
                    "the time limit was reached before the check on the box [{lo}..{h2}]"
                ));
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            };
            if let Some(w) = mismatch(&conj, &fams, &big, min_first) {
                say(&format!(
                    "the families fail on the box [{lo}..{h2}] at {w}; conjecturing again from it"
                ));
                h = h2;
                cur = big;
                continue;
            }
            h = h2;
        }
        d.families = outs(&fams);
        // The file says both boxes: the one the families were read from, and the larger one they
        // were checked equal to the P-set on.
        let text = match text.split_once('\n') {
            Some((first, rest)) if !first.contains(&format!("[{lo}..{h}]")) => format!(
                "{first}\n# They equal the P-set on the box [{lo}..{h}] (checked against its table).\n{rest}"
            ),
            _ => text,
        };
        d.toml = Some(text.clone());
        d.box_max = Some(h);
        if stopper.stop() {
            if stopper.cancelled() {
                return Err(Error::Interrupted);
            }
            d.verdict = DiscoveryVerdict::Conjecture;
            d.reason = Some("the time limit was reached before the proof".into());
            d.seconds = start.elapsed().as_secs_f64();
            return Ok(d);
        }
        say(&format!(
            "the families equal the P-set on the box [{lo}..{h}]; proving (I)-(III) for every size"
        ));
        let left = stopper.deadline.saturating_duration_since(Instant::now());
        let solver = SmtSolver {
            path: opts.solver.clone(),
            timeout: left.max(Duration::from_secs(1)),
            deadline: Some(stopper.deadline),
        };
        let prover = nimlab_prove::Prover::Smt(vec![solver]);
        let report = nimlab_prove::run(&conj, nimlab_prove::Claim::PSet, &prover)?;
        d.prover = Some(report.method);
        d.proof = Some(report.to_json());
        match report.verdict {
            Status::Proved => {
                d.verdict = DiscoveryVerdict::Proved;
                d.reason = None;
                d.counterexample = None;
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            Status::Unknown => {
                if stopper.cancelled() {
                    return Err(Error::Interrupted);
                }
                d.verdict = DiscoveryVerdict::Conjecture;
                d.reason = Some(no_answer(&report));
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            Status::Refuted => {
                let c = report
                    .conditions
                    .iter()
                    .find(|c| c.status == Status::Refuted)
                    .expect("a refuted condition");
                let cx = c.counterexample.clone().expect("re-checked counterexample");
                let top = cx
                    .position
                    .iter()
                    .chain(cx.move_to.iter().flatten())
                    .copied()
                    .max()
                    .unwrap_or(0);
                let shown = nimlab_core::position::format_tuple(&cx.position);
                d.counterexample = Some(json!({
                    "condition": c.condition.name(),
                    "position": cx.position,
                    "move_to": cx.move_to,
                }));
                if top > max && auto.is_none() {
                    // The families hold on every box allowed but are refuted beyond it: an
                    // automaton may still describe the P-set (xor-type games on small boxes).
                    let why = format!(
                        "the families are refuted at {shown}, outside the largest box allowed"
                    );
                    let a =
                        automaton_route(d.clone(), &rules, auto_max, &stopper, start, &say, why)?;
                    if a.verdict == DiscoveryVerdict::Proved {
                        return Ok(a);
                    }
                }
                if top > max || top <= h {
                    d.verdict = DiscoveryVerdict::Conjecture;
                    d.reason = Some(if top > max {
                        format!(
                            "condition ({}) is refuted at {shown}, outside the largest box allowed [{lo}..{max}] (raise --max)",
                            c.condition.name()
                        )
                    } else {
                        format!(
                            "condition ({}) is refuted at {shown}, inside the checked box (not expected: please report)",
                            c.condition.name()
                        )
                    });
                    d.seconds = start.elapsed().as_secs_f64();
                    return Ok(d);
                }
                say(&format!(
                    "condition ({}) refuted at {shown}: growing the box to hold it",
                    c.condition.name()
                ));
                h = top;
                cur = match table(&rules, h, opts, &stopper, &mut d, &say)? {
                    Some(t) => t,
                    None => {
                        d.verdict = DiscoveryVerdict::Conjecture;
                        d.reason = Some(format!(
                            "condition ({}) is refuted at {shown}, and the time limit was reached before a larger box",
                            c.condition.name()
                        ));
                        d.seconds = start.elapsed().as_secs_f64();
                        return Ok(d);
                    }
                };
            }
        }
    }
}

fn out_of_time(mut d: Discovery, start: Instant, why: &str) -> Discovery {
    d.verdict = DiscoveryVerdict::None;
    d.out_of_time = true;
    d.reason = Some(format!("no answer within the limits: {why}"));
    d.seconds = start.elapsed().as_secs_f64();
    d
}

/// The automaton route ([`automaton::try_automaton`]), after the linear route found no description
/// (`linear_why` says why): proved, a conjecture on the box the automaton was checked on, or none
/// with both reasons.
fn automaton_route(
    mut d: Discovery,
    rules: &Ruleset,
    max: u64,
    stopper: &Stopper,
    start: Instant,
    say: &dyn Fn(&str),
    linear_why: String,
) -> Result<Discovery> {
    say(&format!(
        "no linear description: {linear_why}; trying an automaton"
    ));
    let mut lengths = Vec::new();
    let found = automaton::try_automaton(
        rules,
        d.play,
        max,
        stopper.deadline,
        &stopper.halt,
        say,
        &mut lengths,
    );
    d.lengths = lengths;
    if stopper.cancelled() {
        return Err(Error::Interrupted);
    }
    d.seconds = start.elapsed().as_secs_f64();
    match &found {
        Err(why) => say(&format!("automaton: {why}")),
        Ok(a) if !a.proved => say(&format!(
            "automaton: not proved: {}",
            a.reason.as_deref().unwrap_or("-")
        )),
        Ok(_) => {}
    }
    match found {
        Err(why) => {
            d.reason = Some(format!("{linear_why}; automaton: {why}"));
            if stopper.stop() {
                d.out_of_time = true;
            }
        }
        Ok(a) => {
            d.format = nimlab_prove::CharacterizationFormat::Automaton;
            d.prover = a.proof.as_ref().map(|_| "automata");
            d.families.clear();
            d.toml = None;
            d.walnut = Some(a.walnut);
            d.states = Some(a.states);
            d.rule = a.rule;
            d.box_min = rules.min_entry() as u64;
            d.box_max = Some(a.box_max);
            d.proof = a.proof;
            d.counterexample = a.counterexample;
            if a.proved {
                d.verdict = DiscoveryVerdict::Proved;
                d.reason = None;
            } else {
                d.verdict = DiscoveryVerdict::Conjecture;
                d.reason = Some(format!(
                    "{linear_why}; automaton: {}",
                    a.reason.unwrap_or_else(|| "not proved".into())
                ));
            }
        }
    }
    Ok(d)
}

fn outs(fams: &[Fam]) -> Vec<FamilyOut> {
    fams.iter()
        .enumerate()
        .map(|(i, f)| FamilyOut {
            name: format!("F{}", i + 1),
            length: f.len,
            relations: f.relations(),
        })
        .collect()
}

#[derive(serde::Serialize)]
struct FileOut<'a> {
    game: String,
    reading: &'a str,
    family: Vec<FamilyOut>,
}

/// The families file (the `prove --families` format).
fn families_toml(
    rules: &Ruleset,
    play: Play,
    reading: ReadingRule,
    fams: &[Fam],
    lo: u64,
    h: u64,
) -> String {
    let file = FileOut {
        game: rules.id(),
        reading: match reading {
            ReadingRule::MinFirst => "min-first",
            ReadingRule::Any => "any",
            ReadingRule::Plain => "plain",
        },
        family: outs(fams),
    };
    let misere = if play == Play::Misere {
        "# Misère play: the P-positions of the misère game (prove it with `--misere`).\n"
    } else {
        ""
    };
    format!(
        "# {}: found by `nimlab discover` from the P-positions of the box [{lo}..{h}] (linear families).\n{misere}{}",
        rules.id(),
        toml::to_string(&file).expect("serializable")
    )
}

/// A position where the conjecture and the table `t` disagree: a P-position outside the families
/// (by the prover's own membership), or a point of a family that is not a P-position.
fn mismatch(
    conj: &nimlab_prove::Conjecture,
    fams: &[Fam],
    t: &PTable,
    min_first: bool,
) -> Option<String> {
    for ps in t.canonical.values() {
        for p in ps {
            if !conj.contains(p) {
                return Some(format!(
                    "{} (a P-position outside the families)",
                    nimlab_core::position::format_tuple(p)
                ));
            }
        }
    }
    for f in fams {
        if let Some(x) = f.stray(t, min_first) {
            let p: Vec<u64> = x.iter().map(|&v| v as u64).collect();
            return Some(format!(
                "{} (in the families, but an N-position)",
                nimlab_core::position::format_tuple(&p)
            ));
        }
    }
    None
}

/// The symmetries a table's canonical positions are expanded with.
fn symmetries(rules: &Ruleset, m: usize) -> Vec<Vec<usize>> {
    match &rules.complex {
        Some(c) => c
            .automorphisms
            .clone()
            .unwrap_or_else(|| vec![(0..m).collect()]),
        None => nimlab_prove::conjecture::readings(m),
    }
}

/// The P-set table of the box `[lo..h]` (from the store when it is there); None when the time limit
/// stopped it.
fn table(
    rules: &Ruleset,
    h: u64,
    opts: &Options,
    stopper: &Stopper,
    d: &mut Discovery,
    say: &dyn Fn(&str),
) -> Result<Option<PTable>> {
    let game = rules.game();
    let req = Request {
        bounds: Bounds {
            max: Some(h),
            max_sum: None,
            heaps: None,
        },
        play: opts.play,
        kind: plan::Kind::PSet,
        method: plan::Method::Auto,
        backend: plan::Backend::Cpu,
        remoteness: false,
        limit: opts.limit,
        resume: plan::ResumeMode::Off,
    };
    let p = plan::plan(game.as_ref(), &req)?;
    let mut store = match &opts.store {
        Some(path) => match nimlab_tables::store::Store::open(path) {
            Ok(s) => Some(s),
            Err(e) => {
                say(&format!("the store {} cannot be used: {e}", path.display()));
                None
            }
        },
        None => None,
    };
    say(&format!(
        "tabulating the P-positions of {} in the box [{}..{h}]",
        game.id(),
        rules.min_entry()
    ));
    let ans = match plan::run(
        game.as_ref(),
        &p,
        store.as_mut(),
        Hooks::new(Some(&stopper.halt), None),
    ) {
        Ok(a) => a,
        Err(Error::Interrupted) if stopper.cancelled() => return Err(Error::Interrupted),
        Err(Error::Interrupted) => return Ok(None),
        Err(e) => return Err(e),
    };
    let positions = ans.solved.positions();
    let lengths = rules.lengths();
    let t = PTable::new(rules.min_entry() as u64, h, &lengths, positions, &|m| {
        symmetries(rules, m)
    })
    .map_err(Error::Unsupported)?;
    d.tables.push(TableUse {
        max: h,
        p_positions: t.count(),
        source: ans.source.name(),
    });
    Ok(Some(t))
}

/// The game name `discover` works on: `nim`/`moore(k)` with a number of heaps become the game of
/// that many heaps ([`nimlab_prove::request::game_name`]).
pub fn game_name(game: &str, heaps: Option<usize>) -> Result<String> {
    nimlab_prove::request::game_name(game, heaps)
}
