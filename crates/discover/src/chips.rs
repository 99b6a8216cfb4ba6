//! `nimlab discover` for the redistribution chip games EABO(k), ER(k), SER(k) and EJR(k,j), normal
//! and misère play.
//!
//! In these games the P-set is a function of one set of integers: T, the totals n ≥ k of the
//! P-positions (misère play: of the misère P-positions). A position is P exactly when no set of
//! boxes a move may keep has its total in T (misère play: and it is not terminal); the proof is in
//! [`nimlab_prove::chips::totals`]. So the pipeline works on T:
//!
//! 1. compute T on the totals `k..=S` exactly, total by total: n ∈ T when some partition of n into
//!    k positive parts satisfies the criterion above (its kept totals are all below n, so already
//!    known). The partitions are searched part by part, smallest first, and a branch is cut as soon
//!    as one of its kept sets is known to have its total in T (a kept set is known once its boxes,
//!    or the boxes it discards, are chosen), with the candidates for each part read from T as a bit
//!    set; the search stops at the first P-position of each total ([`TotalsTable::extend`]);
//! 2. read off the simplest ultimately periodic description of T on `k..=S`: exceptions below a
//!    threshold a, residues modulo a period q from a on, the periodic part observed for at least two
//!    full periods and at least 2k totals (`S + 1 - a >= max(2q, 2k)`); among those, the least
//!    `a + q`, then the least q;
//! 3. check it on a larger box of totals (T computed there exactly); on a mismatch, learn again from
//!    the larger box;
//! 4. **check it as far as is cheap** before it is proved or reported: T is extended exactly up to
//!    [`CHECK_TOTALS`] chips, or for [`CHECK_SECONDS`], whichever comes first (never less than the
//!    box of step 3), and compared with the description. When they differ, the description is
//!    neither proved nor reported: the run records where it fails (the least total, and the least
//!    position it classifies wrongly, [`TotalsTable::least_wrong_position`]) and learns again on the
//!    longer range, steps 2 and 3 now bounded by that range instead of `S` (as they are when step 2
//!    finds nothing periodic up to `S`). A description read from the whole range has no totals left
//!    to be checked on, so it is not reported: the verdict is then none ("no period up to N
//!    chips"), as when nothing periodic shows on the whole range. (Only when the check went no
//!    further than `S` itself, in a dear game, is a description read from all of it still proved,
//!    as before, its box being the totals it was read from);
//! 5. prove "no allowed kept set has its total in T" for every box size with the chip prover
//!    ([`nimlab_prove::chips::prove_chips`], which re-checks every counterexample and every
//!    "proved" by exact search); a counterexample beyond the checked totals but inside `S` grows the
//!    box to its total and T is learned again.
//!
//! The verdicts are those of [`crate::discover`]: proved, conjecture (T's description equals T on the
//! checked totals, the proof was refuted beyond them or gave no answer), none. The JSON's
//! `totals_check` ([`Check`]) says how far T was computed and compared, and which description the
//! check refuted.

use crate::route::{drive, Checked, Proof, Proposal, Route, Run};
use crate::{Discovery, Options, TableUse};
use nimlab_core::{Arg, Error, Play, Refusal, Result};
use nimlab_games::Redistribute;
use nimlab_prove::chips::totals::{self, Totals};
use nimlab_prove::chips::{prove_chips, ChipGame, Moves};
use nimlab_prove::{SmtSolver, Status};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The most positions (of total at most S) a box may hold: the limit of the chip games' tables.
pub const MAX_POSITIONS: f64 = 2.0e7;
/// The default largest box: the largest S whose positions are at most this many (the limit).
pub const DEFAULT_POSITIONS: f64 = MAX_POSITIONS;
/// The first box: about this many positions (at least k + 12 chips).
const FIRST_POSITIONS: f64 = 2.0e4;

/// The cheap check (step 4 of the module's doc) extends T up to this many chips at most: the chip
/// prover takes thresholds and periods up to [`totals::MAX_THRESHOLD`] (2000), so a description
/// read past it could not be proved anyway. EJR(5,2) reaches it in about 0.2 s (opt-level 3).
pub const CHECK_TOTALS: u64 = totals::MAX_THRESHOLD;
/// ... or for this long at most (wall time of the extension; the run's time limit still applies).
/// Where the search of a total is dear (ER(8): every partition of an odd total into 8 parts has to
/// be refuted) T then ends earlier, a few hundred chips; the report says where. The search for the
/// least position a refuted description classifies wrongly gets as long again, once per run.
pub const CHECK_SECONDS: Duration = Duration::from_secs(3);

/// The number of positions of k boxes (each ≥ 1) with total at most `s` (a float estimate, exact
/// while it is below 2^53).
pub fn positions_up_to(k: usize, s: u64) -> f64 {
    if s < k as u64 {
        return 0.0;
    }
    // Far past every limit (k >= 2 boxes give about s^2 / 4 positions).
    if s > 1_000_000 {
        return f64::INFINITY;
    }
    // Partitions of m = n - k into at most k parts, summed over m <= s - k.
    let m = (s - k as u64) as usize;
    let mut ways = vec![0f64; m + 1];
    ways[0] = 1.0;
    for part in 1..=k {
        for v in part..=m {
            ways[v] += ways[v - part];
        }
    }
    ways.iter().sum()
}

/// The largest total whose box holds at most `limit` positions (at least k + 2).
fn largest_sum(k: usize, limit: f64) -> u64 {
    let mut s = k as u64 + 2;
    while s < 100_000 && positions_up_to(k, s + 1) <= limit {
        s += 1;
    }
    s
}

mod check;
mod table;

use check::short_words;
pub use check::{tail_words, Check, Refuted, DIFFERENCES_SHOWN};
pub use table::TotalsTable;

/// What a move keeps, in words: "box", "set of 3 boxes", "set of 1 to 3 boxes".
fn kept_words(moves: &Moves) -> String {
    let Moves::Redistribute(sizes) = moves else {
        return "boxes".into();
    };
    let (lo, hi) = (
        sizes.iter().min().copied().unwrap_or(1),
        sizes.iter().max().copied().unwrap_or(1),
    );
    match (lo, hi) {
        (1, 1) => "box".into(),
        (a, b) if a == b => format!("set of {a} boxes"),
        (a, b) => format!("set of {a} to {b} boxes"),
    }
}

/// The criterion in words, for T described by `t`.
pub fn criterion(game: &ChipGame, play: Play, t: &Totals) -> String {
    format!(
        "a position is P exactly when no {} it may keep has its total in T{}, where {}",
        kept_words(&game.moves),
        if play == Play::Misere {
            " and it is not terminal"
        } else {
            ""
        },
        t.words()
    )
}

/// The refusal of `discover` for the chip games it does not cover (ET, ENTROPY).
pub fn not_covered(game: &ChipGame) -> Error {
    let id = game.id();
    let bound = if game.moves == Moves::Entropy {
        Arg::Max
    } else {
        Arg::MaxSum
    };
    Error::refused(
        Refusal::new(format!(
            "discover covers the redistribution chip games (EABO, ER, SER, EJR) and, by automata, ET(3) and ENTROPY(3), not {id}: its P-set is not read through a set of totals; patterns on a box ("
        ))
        .given(bound)
        .text(") group its P-positions by shape, verify with ")
        .given(Arg::Theorem)
        .text(" checks a registry result on a box, and prove with ")
        .given(Arg::Theorem)
        .text(" proves one"),
    )
}

/// Discovers and proves the P-set of a redistribution chip game (`opts.max` must be `None`: the box
/// is bounded by `opts.max_sum`, the most chips in all).
pub fn discover_chips(game_text: &str, opts: &Options) -> Result<Discovery> {
    let game = ChipGame::parse(game_text)?.ok_or_else(|| {
        Error::Unsupported(format!("{game_text} is not one of Ferguson's chip games"))
    })?;
    if let Some(moves) = crate::chip_automaton::covered(&game) {
        return crate::chip_automaton::discover_transfer(&game, moves, opts);
    }
    let Some(g) = game.game.downcast_ref::<Redistribute>().copied() else {
        return Err(not_covered(&game));
    };
    let id = game.id();
    if opts.max.is_some() {
        return Err(Error::refused(
            Refusal::new(format!(
                "{id} is bounded by its total number of chips: use "
            ))
            .given(Arg::MaxSum)
            .text(", not ")
            .name(Arg::Max),
        ));
    }
    let k = g.k;
    let kk = k as u64;
    let max_s = match opts.max_sum {
        Some(s) => {
            if s < kk + 4 {
                return Err(Error::refused(Refusal::new("").value(Arg::MaxSum, s).text(
                    format!(": discover on {id} needs at least k + 4 = {} chips", kk + 4),
                )));
            }
            let count = positions_up_to(k, s);
            if count > MAX_POSITIONS {
                return Err(Error::too_large(
                    Refusal::new(format!("{id} with "))
                        .value(Arg::MaxSum, s)
                        .text(format!(
                            " has about {count:.1e} positions, more than the {MAX_POSITIONS:.0e} the chip games' tables take; use a smaller "
                        ))
                        .name(Arg::MaxSum),
                ));
            }
            s
        }
        None => largest_sum(k, DEFAULT_POSITIONS),
    };
    let run = Run::new(opts);
    let d = Discovery::empty(id.clone(), opts.play, kk);
    let first = largest_sum(k, FIRST_POSITIONS).max(kk + 12).min(max_s);
    let mut route = TotalsRoute {
        id,
        k: kk,
        play: opts.play,
        max_s,
        cap: max_s,
        table: TotalsTable::new(&g, opts.play),
    };
    drive(&mut route, first, &run, d, None)
}

/// The route of the redistribution chip games ([`Route`]): boxes of totals `k..=s`, T computed
/// there exactly, its description read and checked, the P-set it gives proved by the chip prover.
struct TotalsRoute {
    id: String,
    k: u64,
    play: Play,
    /// The largest box allowed (`--max-sum`, or the default).
    max_s: u64,
    /// The largest total the learning and the box checks use: `max_s`, then, once the cheap
    /// check has refuted a description or nothing periodic showed up to `max_s`, the end of that
    /// check.
    cap: u64,
    table: TotalsTable,
}

impl Route for TotalsRoute {
    type Description = Totals;

    fn bound(&self) -> Arg {
        Arg::MaxSum
    }
    fn box_words(&self, s: u64) -> String {
        format!("the totals {}..{s}", self.k)
    }
    fn largest(&self) -> u64 {
        self.max_s
    }

    fn tabulate(&mut self, s: u64, run: &Run, d: &mut Discovery) -> Result<bool> {
        // A counterexample's total beyond the cap raises it.
        self.cap = self.cap.max(s);
        run.say(&format!(
            "computing the P-totals T of {} on {}",
            self.id,
            self.box_words(s)
        ));
        if !self.table.extend(s, &|| run.stopper.stop()) {
            return Ok(false);
        }
        d.tables.push(TableUse {
            max: s,
            p_positions: self.table.in_t[..=s as usize]
                .iter()
                .filter(|&&b| b)
                .count(),
            source: "totals",
        });
        Ok(true)
    }

    fn propose(&mut self, s: u64, run: &Run, d: &mut Discovery) -> Result<Proposal<Totals>> {
        let kk = self.k;
        if let Some(t) = self.table.learn(s) {
            run.say(&format!("read from {kk}..{s}: {}", short_words(&t)));
            return Ok(Proposal::Found(t));
        }
        if s >= self.cap && d.totals_check.is_none() {
            // Nothing periodic in the largest box: T as far as is cheap, and learning goes on
            // there.
            d.totals_check = Some(cheap_check(&mut self.table, kk, run)?);
            self.cap = self.cap.max(self.table.computed());
        }
        if s < self.cap {
            return Ok(Proposal::Larger {
                why: "no period observed twice".into(),
                next: (s + s / 2).min(self.cap),
            });
        }
        let exact = d.totals_check.as_ref().is_some_and(|c| c.to > self.max_s);
        if !exact {
            d.raise = Some(Arg::MaxSum);
        }
        Ok(Proposal::Nothing(format!(
            "no period up to {s} chips: no ultimately periodic description of T with two full periods (and 2k totals) observed on the totals {kk}..{s}{}",
            if exact {
                ", T computed exactly there (the end of the cheap check)"
            } else {
                ""
            }
        )))
    }

    fn check(&mut self, t: &Totals, s: u64, run: &Run, d: &mut Discovery) -> Result<Checked> {
        let kk = self.k;
        // The check on a larger box.
        let c = (s + (2 * t.period).max(s / 2)).min(self.cap);
        if c > s {
            if !self.table.extend(c, &|| run.stopper.stop()) {
                return Ok(Checked::Stopped(c));
            }
            if let Some(n) = self.table.mismatch(t, c) {
                return Ok(Checked::Fails {
                    why: format!("the description fails at the total {n} (checked up to {c})"),
                    next: c,
                });
            }
        }
        // The cheap check: T as far as it is cheap, once; every later description is compared on
        // the same range.
        if d.totals_check.is_none() {
            d.totals_check = Some(cheap_check(&mut self.table, kk, run)?);
        }
        let reach = self.table.computed();
        // Read from every total computed: nothing is left to check it on. (When the cheap check
        // went no further than the largest box — a dear game, or a large bound — the description
        // is proved as before, its box being the totals it was read from.)
        if s >= reach && s > self.max_s {
            return Ok(Checked::Nothing(format!(
                "no period up to {reach} chips: no description of T read from the totals {kk}..s with s < {reach} holds on the totals up to {reach} (T computed exactly there), and the one read from all of them ({}) has no total left to be checked on",
                tail_words(t)
            )));
        }
        let Some(n) = self.table.mismatch(t, reach) else {
            return Ok(Checked::Holds(reach.max(c)));
        };
        let check = d.totals_check.as_mut().expect("the cheap check ran");
        if check.refuted.is_none() {
            let until = Instant::now() + CHECK_SECONDS;
            let stopper = &run.stopper;
            let position = self
                .table
                .least_wrong_position(t, &|| stopper.stop() || Instant::now() >= until);
            let mut differences = self.table.differences(t, reach, DIFFERENCES_SHOWN + 1);
            let more = differences.len() > DIFFERENCES_SHOWN;
            differences.truncate(DIFFERENCES_SHOWN);
            check.refuted = Some(Refuted {
                totals: t.clone(),
                read: s,
                checked: c,
                fails_at: n,
                fails_at_in_t: self.table.in_t[n as usize],
                differences,
                more,
                position,
            });
            if stopper.cancelled() {
                return Err(Error::Interrupted);
            }
        }
        self.cap = reach;
        Ok(Checked::Fails {
            why: format!("the description fails at the total {n} (T checked up to {reach})"),
            next: c.max(n).min(reach),
        })
    }

    fn record(&self, t: &Totals, read: u64, checked: u64, d: &mut Discovery) {
        d.totals = Some(t.clone());
        d.box_max = Some(checked);
        d.toml = Some(file(&self.id, self.play, t, read, checked));
    }

    fn prove(&mut self, t: &Totals, run: &Run, d: &mut Discovery) -> Result<Proof> {
        let claim = match totals::claim(&self.id, self.play, t, "discovered".into()) {
            Ok(c) => c,
            Err(e) => return Ok(Proof::Unknown(format!("not proved: {e}"))),
        };
        let stopper = &run.stopper;
        let left = stopper.deadline.saturating_duration_since(Instant::now());
        let solver = SmtSolver {
            path: run.opts.solver.clone(),
            timeout: left.max(Duration::from_secs(1)),
            deadline: Some(stopper.deadline),
        };
        // The proof stops at the time limit as at Ctrl-C (the watchdog's flag).
        let report = match nimlab_core::interrupt::scope(stopper.halt.clone(), || {
            prove_chips(&claim, &[solver])
        }) {
            Err(Error::Interrupted) if !stopper.cancelled() => {
                return Ok(Proof::Unknown(
                    "the time limit was reached during the proof".into(),
                ))
            }
            r => r?,
        };
        d.prover = Some(report.method);
        d.proof = Some(report.to_json());
        Ok(match report.verdict {
            Status::Proved => Proof::Proved,
            Status::Unknown => Proof::Unknown(crate::families::no_answer(&report)),
            Status::Refuted => {
                let total = |p: &[u64]| p.iter().map(|&v| u128::from(v)).sum::<u128>();
                match crate::families::refuted(&report, d, total)? {
                    Proof::Refuted { what, top } => Proof::Refuted {
                        what: format!("{what} (total {})", top.expect("a total")),
                        top,
                    },
                    p => p,
                }
            }
        })
    }
}

/// The cheap check's extension of T (step 4 of the module's doc): up to [`CHECK_TOTALS`] chips or
/// for [`CHECK_SECONDS`], whichever comes first, within the run's time limit. `Err` only on the
/// cancel flag.
fn cheap_check(table: &mut TotalsTable, from: u64, run: &Run) -> Result<Check> {
    let stopper = &run.stopper;
    run.say(&format!(
        "computing T as far as is cheap: up to {CHECK_TOTALS} chips or for {} s",
        CHECK_SECONDS.as_secs()
    ));
    let begin = Instant::now();
    let until = begin + CHECK_SECONDS;
    let _ = table.extend(CHECK_TOTALS, &|| stopper.stop() || Instant::now() >= until);
    if stopper.cancelled() {
        return Err(Error::Interrupted);
    }
    let to = table.computed();
    Ok(Check {
        from,
        to,
        stopped_by: if to >= CHECK_TOTALS {
            "totals"
        } else if stopper.stop() {
            "time limit"
        } else {
            "seconds"
        },
        seconds: begin.elapsed().as_secs_f64(),
        refuted: None,
    })
}

/// The chip families file of a discovery: T read from the totals up to `read`, checked up to
/// `checked`.
fn file(id: &str, play: Play, t: &Totals, read: u64, checked: u64) -> String {
    let checked = if checked > read {
        format!("checked equal to T on the totals up to {checked}")
    } else {
        "not checked past them (T was computed no further)".into()
    };
    totals::render(
        id,
        play,
        t,
        &[format!(
            "Found by nimlab discover on the totals up to {read} (the periodic part observed for at least two full periods and 2k totals) and {checked}."
        )],
    )
}
