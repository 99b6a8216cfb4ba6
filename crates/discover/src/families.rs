//! The linear route of the games of stacks ([`search`]): tables of growing boxes `[lo..H]^n`, linear
//! families whose union is the P-set of a box exactly ([`crate::linear`]), checked on a larger box
//! and proved for every stack size with the SMT prover; an automaton ([`crate::automaton`]) to fall
//! back on. The loop is [`crate::route::drive`].

use crate::linear::{self, Fam, PTable};
use crate::route::{drive, Checked, Proof, Proposal, Route, Run};
use crate::{automaton, Discovery, FamilyOut, Options, TableUse};
use nimlab_core::{Arg, Error, Hooks, Play, Refusal, Result};
use nimlab_prove::{ReadingRule, Ruleset, RulesetKind, SmtSolver, Status};
use nimlab_tables::plan::{self, Bounds, Request};
use serde_json::json;
use std::time::{Duration, Instant};

/// Why a proof gave no answer: each undecided condition with its reason.
pub(crate) fn no_answer(report: &nimlab_prove::Report) -> String {
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

/// The first box: about 20,000 positions, between lo+3 and lo+10.
fn first_max(rules: &Ruleset) -> u64 {
    let lo = rules.min_entry() as u64;
    let mut h = lo + 3;
    while h < lo + 10 && linear::positions_in_box(lo, h + 1, rules.n).is_some_and(|s| s <= 20_000) {
        h += 1;
    }
    h
}

/// The route of the games of stacks: linear families, then an automaton.
pub(crate) fn search(game: &str, opts: &Options) -> Result<Discovery> {
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
    let max = opts.max.unwrap_or_else(|| crate::default_max(&rules));
    // The automaton route learns from boxes of 2^B values a stack (tables of at most 2^30 entries):
    // bounded by the largest entry when it is given (the engine takes entries far past 63), else by
    // entries up to 63, not by the linear route's default box.
    let auto_max = opts.max.unwrap_or(crate::DEFAULT_LEARNING_MAX);
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
    let run = Run::new(opts);
    let d = Discovery::empty(rules.id(), opts.play, lo);
    let mut fallback = |d: Discovery| automaton::run(d, &rules, auto_max, &run);
    if let Some(why) = no_families {
        let mut a = fallback(d)?;
        if a.verdict != crate::DiscoveryVerdict::Proved {
            a.reason = Some(format!(
                "{why}; automaton: {}",
                a.reason.as_deref().unwrap_or("not proved")
            ));
        }
        return Ok(a);
    }
    let mut route = Families {
        rules: &rules,
        reading,
        max,
        cur: None,
    };
    let first = first_max(&rules).min(max - 1);
    drive(
        &mut route,
        first,
        &run,
        d,
        Some(("automaton", &mut fallback)),
    )
}

/// A description of the linear route: the families, their file and the prover's conjecture.
pub(crate) struct Described {
    fams: Vec<Fam>,
    text: String,
    conj: nimlab_prove::Conjecture,
}

/// The linear route ([`Route`]): boxes `[lo..H]`, growing by 2 up to `max`.
struct Families<'r> {
    rules: &'r Ruleset,
    reading: ReadingRule,
    max: u64,
    /// The table of the last box tabulated.
    cur: Option<PTable>,
}

impl Families<'_> {
    fn lo(&self) -> u64 {
        self.rules.min_entry() as u64
    }
    fn min_first(&self) -> bool {
        self.reading == ReadingRule::MinFirst
    }
    fn next(&self, h: u64) -> u64 {
        (h + 2).min(self.max)
    }
    /// The table of the box of size `h`: the one last tabulated when it is that box.
    fn table_of(&mut self, h: u64, run: &Run, d: &mut Discovery) -> Result<Option<PTable>> {
        if let Some(t) = self.cur.take_if(|t| t.hi == h) {
            return Ok(Some(t));
        }
        table(self.rules, h, run, d)
    }
}

impl Route for Families<'_> {
    type Description = Described;

    fn bound(&self) -> Arg {
        Arg::Max
    }
    fn box_words(&self, h: u64) -> String {
        format!("the box [{}..{h}]", self.lo())
    }
    fn largest(&self) -> u64 {
        self.max
    }

    fn tabulate(&mut self, h: u64, run: &Run, d: &mut Discovery) -> Result<bool> {
        self.cur = self.table_of(h, run, d)?;
        Ok(self.cur.is_some())
    }

    fn propose(&mut self, h: u64, run: &Run, _d: &mut Discovery) -> Result<Proposal<Described>> {
        let cur = self.cur.as_ref().expect("tabulated");
        run.say(&format!(
            "conjecturing from {} ({} P-positions up to symmetry)",
            self.box_words(h),
            cur.count()
        ));
        let stopper = &run.stopper;
        let fams = match linear::conjecture(cur, self.min_first(), &|| stopper.stop()) {
            Ok(f) => f,
            Err(_) if stopper.cancelled() => return Err(Error::Interrupted),
            Err(_) if stopper.stop() => return Ok(Proposal::Stopped("while conjecturing".into())),
            // Families that are only points at this box may be lines and planes at a larger one.
            Err(why) if h < self.max => {
                return Ok(Proposal::Larger {
                    why,
                    next: self.next(h),
                })
            }
            Err(why) => return Ok(Proposal::Nothing(format!("{why} ({})", self.box_words(h)))),
        };
        let text = families_toml(self.rules, run.opts.play, self.reading, &fams, self.lo(), h);
        let mut conj = nimlab_prove::from_toml(&text, "discovered")?;
        conj.play = run.opts.play;
        run.say(&format!(
            "{} {}",
            fams.len(),
            if fams.len() == 1 {
                "family"
            } else {
                "families"
            }
        ));
        Ok(Proposal::Found(Described { fams, text, conj }))
    }

    fn check(&mut self, x: &Described, h: u64, run: &Run, d: &mut Discovery) -> Result<Checked> {
        if h >= self.max {
            return Ok(Checked::Holds(h));
        }
        let h2 = self.next(h);
        let Some(big) = self.table_of(h2, run, d)? else {
            return Ok(Checked::Stopped(h2));
        };
        let wrong = mismatch(&x.conj, &x.fams, &big, self.min_first());
        // Kept: the next proposal reads the larger box when the families fail on it.
        self.cur = Some(big);
        Ok(match wrong {
            Some(w) => Checked::Fails {
                why: format!("the families fail on {} at {w}", self.box_words(h2)),
                next: h2,
            },
            None => Checked::Holds(h2),
        })
    }

    fn record(&self, x: &Described, _read: u64, checked: u64, d: &mut Discovery) {
        let lo = self.lo();
        d.families = outs(&x.fams);
        // The file says both boxes: the one the families were read from, and the larger one they
        // were checked equal to the P-set on.
        let text = match x.text.split_once('\n') {
            Some((first, rest)) if !first.contains(&format!("[{lo}..{checked}]")) => format!(
                "{first}\n# They equal the P-set on the box [{lo}..{checked}] (checked against its table).\n{rest}"
            ),
            _ => x.text.clone(),
        };
        d.toml = Some(text);
        d.box_max = Some(checked);
    }

    fn prove(&mut self, x: &Described, run: &Run, d: &mut Discovery) -> Result<Proof> {
        let left = run
            .stopper
            .deadline
            .saturating_duration_since(Instant::now());
        let solver = SmtSolver {
            path: run.opts.solver.clone(),
            timeout: left.max(Duration::from_secs(1)),
            deadline: Some(run.stopper.deadline),
        };
        let prover = nimlab_prove::Prover::Smt(vec![solver]);
        let report = nimlab_prove::run(&x.conj, nimlab_prove::Claim::PSet, &prover)?;
        d.prover = Some(report.method);
        d.proof = Some(report.to_json());
        Ok(match report.verdict {
            Status::Proved => Proof::Proved,
            Status::Unknown => Proof::Unknown(no_answer(&report)),
            Status::Refuted => refuted(&report, d, |p| {
                p.iter().copied().max().map_or(0, u128::from)
            })?,
        })
    }
}

/// The first refuted condition of `report` as a [`Proof`] (its counterexample recorded in `d`),
/// the box that holds it measured by `size`.
pub(crate) fn refuted(
    report: &nimlab_prove::Report,
    d: &mut Discovery,
    size: impl Fn(&[u64]) -> u128,
) -> Result<Proof> {
    let c = report
        .conditions
        .iter()
        .find(|c| c.status == Status::Refuted)
        .ok_or_else(|| Error::Unsupported("a refutation names no condition".into()))?;
    let Some(cx) = c.counterexample.clone() else {
        return Err(Error::Unsupported(
            "a refutation without its counterexample".into(),
        ));
    };
    let top = size(&cx.position).max(cx.move_to.as_deref().map_or(0, &size));
    d.counterexample = Some(json!({
        "condition": c.condition.name(),
        "position": cx.position,
        "move_to": cx.move_to,
    }));
    Ok(Proof::Refuted {
        what: format!(
            "condition ({}) is refuted at {}",
            c.condition.name(),
            nimlab_core::position::format_tuple(&cx.position)
        ),
        top: Some(top),
    })
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
        "# Misère play: the P-positions of the misère game (prove it in misère play, not normal play).\n"
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
fn table(rules: &Ruleset, h: u64, run: &Run, d: &mut Discovery) -> Result<Option<PTable>> {
    let (opts, stopper) = (run.opts, &run.stopper);
    let say = |s: &str| run.say(s);
    let game = rules.game();
    let req = Request {
        bounds: Bounds {
            max: Some(h),
            max_sum: None,
            heaps: None,
        },
        play: opts.play,
        kind: plan::TableKind::PSet,
        method: plan::TableMethod::Auto,
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
