//! The one discovery loop ([`drive`]) and what a route brings to it ([`Route`]).
//!
//! Every route — linear families ([`crate::families`]), an automaton learned from boxes
//! ([`crate::automaton`]), the chip games' P-totals ([`crate::chips`]) and the transfer chip games'
//! automaton ([`crate::chip_automaton`]) — does the same four things on boxes of growing size:
//! it tabulates a box, proposes a description read from it, checks the description on a larger box
//! and proves it for every size. The loop around them is written once, here:
//!
//! - a box that shows nothing, a check that fails, or a counterexample of the proof that lies
//!   beyond the checked box but inside the largest allowed, grows the box (to the size the route
//!   names, or to one that holds the counterexample) and the description is proposed again;
//! - the time limit and the caller's cancel flag are looked at between the steps: Ctrl-C is
//!   `Error::Interrupted`, the time limit an honest verdict;
//! - the verdict: `proved`, `conjecture` (the description equals the P-set on the checked box, and
//!   the proof was refuted beyond the largest box allowed, gave no answer or ran out of time) or
//!   `none` (no description within the limits), with the reason and, where a larger bound may
//!   decide it, the bound to raise ([`Discovery::raise`]).
//!
//! A route may have a second route to fall back on (the linear families fall back on an automaton:
//! xor-type games have no linear description at any box). It is tried once: the first time a box
//! shows no description, or when the proof is refuted beyond the largest box allowed; a proof
//! there ends the run, and otherwise its answer is the run's when the first route finds nothing.

use crate::options::Stopper;
use crate::{Discovery, DiscoveryVerdict, Options};
use nimlab_core::{Arg, Error, Result};
use std::time::Instant;

/// A run's surroundings: its options, why it stops, when it started, where progress goes.
pub(crate) struct Run<'a> {
    pub opts: &'a Options,
    pub stopper: Stopper,
    pub start: Instant,
}

impl Run<'_> {
    pub(crate) fn new(opts: &Options) -> Run<'_> {
        let start = Instant::now();
        Run {
            opts,
            stopper: Stopper::new(opts.cancel.clone(), start + opts.timeout),
            start,
        }
    }

    /// One line of progress.
    pub(crate) fn say(&self, line: &str) {
        if let Some(p) = &self.opts.progress {
            p(line)
        }
    }

    /// `Err(Interrupted)` when the caller cancelled the run.
    fn cancelled(&self) -> Result<()> {
        if self.stopper.cancelled() {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }
}

/// What a route read from its box.
pub(crate) enum Proposal<D> {
    /// A description that equals the P-set on the box.
    Found(D),
    /// Nothing at this box (`why`); a larger one, `next`, may show it.
    Larger { why: String, next: u64 },
    /// Nothing within the route's limits.
    Nothing(String),
    /// The time limit stopped the proposal (what it was doing).
    Stopped(String),
}

/// How the description fared on a larger box.
pub(crate) enum Checked {
    /// It equals the P-set on the box up to this size.
    Holds(u64),
    /// It fails there (`why`): propose again from the box `next`.
    Fails { why: String, next: u64 },
    /// The time limit came before the check on the box of this size.
    Stopped(u64),
    /// No box is left to check it on, and it is not reported (`why`).
    Nothing(String),
}

/// What the proof for every size answered.
pub(crate) enum Proof {
    Proved,
    /// No answer (why).
    Unknown(String),
    /// Refuted at a counterexample the prover re-checked: `what` says where ("condition (I) is
    /// refuted at (1, 2, 3)"); `top`, the size of the smallest box that holds it (None: the route
    /// cannot say, it lies beyond every box it learns from).
    Refuted {
        what: String,
        top: Option<u128>,
    },
}

/// One way of finding a description: see the module's doc.
pub(crate) trait Route {
    type Description;
    /// The option that bounds the route's boxes (raised for a larger box).
    fn bound(&self) -> Arg;
    /// The box of size `h` in words: "the box [0..9]", "the totals 3..40".
    fn box_words(&self, h: u64) -> String;
    /// The size of the largest box allowed now.
    fn largest(&self) -> u64;
    /// Tabulates the box of size `h` (and records it in `d.tables`); false when the time limit
    /// stopped it.
    fn tabulate(&mut self, h: u64, run: &Run, d: &mut Discovery) -> Result<bool>;
    /// A description read from the box of size `h`, last tabulated.
    fn propose(
        &mut self,
        h: u64,
        run: &Run,
        d: &mut Discovery,
    ) -> Result<Proposal<Self::Description>>;
    /// The description checked on a larger box.
    fn check(
        &mut self,
        desc: &Self::Description,
        h: u64,
        run: &Run,
        d: &mut Discovery,
    ) -> Result<Checked>;
    /// Writes the description into the answer: read from the box of size `read`, equal to the
    /// P-set up to `checked`.
    fn record(&self, desc: &Self::Description, read: u64, checked: u64, d: &mut Discovery);
    /// Proves the description for every size (the report and counterexample go into `d`).
    fn prove(&mut self, desc: &Self::Description, run: &Run, d: &mut Discovery) -> Result<Proof>;
}

/// A route to fall back on: its name, and the run of it from the answer so far.
pub(crate) type Fallback<'f> = (
    &'static str,
    &'f mut dyn FnMut(Discovery) -> Result<Discovery>,
);

fn finish(mut d: Discovery, run: &Run) -> Result<Discovery> {
    d.seconds = run.start.elapsed().as_secs_f64();
    Ok(d)
}

/// The verdict none because the time limit stopped the run before a description was found.
fn out_of_time(mut d: Discovery, run: &Run, why: &str) -> Result<Discovery> {
    run.cancelled()?;
    d.verdict = DiscoveryVerdict::None;
    d.out_of_time = true;
    d.reason = Some(format!("no answer within the limits: {why}"));
    finish(d, run)
}

/// A conjecture: the description recorded equals the P-set on the checked box, and no proof.
fn conjecture(mut d: Discovery, run: &Run, why: String) -> Result<Discovery> {
    run.cancelled()?;
    d.verdict = DiscoveryVerdict::Conjecture;
    d.reason = Some(why);
    finish(d, run)
}

/// The fallback's answer, when the first route found nothing: the first route's reason, then the
/// fallback's own, and every table used.
fn fallen_back(mut a: Discovery, name: &str, why: &str, d: &Discovery, run: &Run) -> Discovery {
    if a.verdict != DiscoveryVerdict::Proved {
        a.reason = Some(format!(
            "{why}; {name}: {}",
            a.reason.as_deref().unwrap_or("not proved")
        ));
    }
    if a.tables.len() < d.tables.len() {
        a.tables.clone_from(&d.tables);
    }
    a.seconds = run.start.elapsed().as_secs_f64();
    a
}

/// Runs `route` from the box of size `first` to a verdict (the module's doc).
pub(crate) fn drive<R: Route>(
    route: &mut R,
    first: u64,
    run: &Run,
    mut d: Discovery,
    mut fallback: Option<Fallback>,
) -> Result<Discovery> {
    let mut h = first;
    // The fallback's answer once it has run (it runs once), with its name.
    let mut other: Option<(&'static str, Discovery)> = None;
    let mut try_other =
        |d: &Discovery, why: &str, run: &Run| -> Result<Option<(&'static str, Discovery)>> {
            match fallback.take() {
                Some((name, f)) => {
                    run.say(&format!("{why}; trying the {name} route"));
                    Ok(Some((name, f(d.clone())?)))
                }
                None => Ok(None),
            }
        };
    loop {
        if !route.tabulate(h, run, &mut d)? {
            return out_of_time(
                d,
                run,
                &format!(
                    "the time limit was reached while tabulating {}",
                    route.box_words(h)
                ),
            );
        }
        let desc = match route.propose(h, run, &mut d)? {
            Proposal::Found(x) => x,
            Proposal::Stopped(what) => {
                return out_of_time(d, run, &format!("the time limit was reached {what}"))
            }
            Proposal::Larger { why, next } => {
                let why = format!("{why} ({})", route.box_words(h));
                if other.is_none() {
                    if let Some((name, a)) = try_other(&d, &why, run)? {
                        if a.verdict == DiscoveryVerdict::Proved {
                            return Ok(fallen_back(a, name, &why, &d, run));
                        }
                        other = Some((name, a));
                    }
                }
                run.cancelled()?;
                run.say(&format!("{why}; trying {}", route.box_words(next)));
                h = next;
                continue;
            }
            Proposal::Nothing(why) => {
                // The fallback's answer (run now if it has not run yet), with this route's last
                // reason and every table used.
                if let Some((name, a)) = match other {
                    Some(o) => Some(o),
                    None => try_other(&d, &why, run)?,
                } {
                    run.cancelled()?;
                    return Ok(fallen_back(a, name, &why, &d, run));
                }
                run.cancelled()?;
                if run.stopper.stop() {
                    d.out_of_time = true;
                }
                d.reason = Some(why);
                return finish(d, run);
            }
        };
        let checked = match route.check(&desc, h, run, &mut d)? {
            Checked::Holds(c) => c,
            Checked::Fails { why, next } => {
                run.cancelled()?;
                run.say(&format!(
                    "{why}; proposing again from {}",
                    route.box_words(next)
                ));
                h = next;
                continue;
            }
            Checked::Stopped(c) => {
                route.record(&desc, h, h, &mut d);
                return conjecture(
                    d,
                    run,
                    format!(
                        "the time limit was reached before the check on {}",
                        route.box_words(c)
                    ),
                );
            }
            Checked::Nothing(why) => {
                run.cancelled()?;
                d.reason = Some(why);
                return finish(d, run);
            }
        };
        route.record(&desc, h, checked, &mut d);
        if run.stopper.stop() {
            return conjecture(d, run, "the time limit was reached before the proof".into());
        }
        run.say(&format!(
            "the description equals the P-set on {}; proving it for every size",
            route.box_words(checked)
        ));
        match route.prove(&desc, run, &mut d)? {
            Proof::Proved => {
                d.verdict = DiscoveryVerdict::Proved;
                d.reason = None;
                d.raise = None;
                d.counterexample = None;
                return finish(d, run);
            }
            Proof::Unknown(why) => return conjecture(d, run, why),
            Proof::Refuted { what, top } => {
                let largest = route.largest().max(checked);
                match top {
                    Some(t) if t > u128::from(checked) && t <= u128::from(largest) => {
                        run.say(&format!("{what}: growing the box to hold it"));
                        h = t as u64;
                        continue;
                    }
                    Some(t) if t <= u128::from(checked) => {
                        return conjecture(
                            d,
                            run,
                            format!("{what}, inside the checked box (not expected: please report)"),
                        )
                    }
                    _ => {}
                }
                let why = format!(
                    "{what}, beyond the largest box allowed, {}",
                    route.box_words(largest)
                );
                if other.is_none() {
                    if let Some((name, a)) = try_other(&d, &why, run)? {
                        if a.verdict == DiscoveryVerdict::Proved {
                            return Ok(fallen_back(a, name, &why, &d, run));
                        }
                    }
                }
                d.raise = Some(route.bound());
                return conjecture(d, run, why);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimlab_core::Play;

    /// A route played from a script: boxes below `found_at` show nothing; the description found
    /// holds one box further; the proof is refuted at each of `refutations` in turn, then proved
    /// (or refuted for good when `never` is set).
    struct Scripted {
        found_at: u64,
        largest: u64,
        refutations: Vec<u128>,
        never: bool,
        tabulated: Vec<u64>,
    }

    impl Route for Scripted {
        type Description = u64;
        fn bound(&self) -> Arg {
            Arg::Max
        }
        fn box_words(&self, h: u64) -> String {
            format!("box {h}")
        }
        fn largest(&self) -> u64 {
            self.largest
        }
        fn tabulate(&mut self, h: u64, _: &Run, _: &mut Discovery) -> Result<bool> {
            self.tabulated.push(h);
            Ok(true)
        }
        fn propose(&mut self, h: u64, _: &Run, _: &mut Discovery) -> Result<Proposal<u64>> {
            Ok(if h >= self.found_at {
                Proposal::Found(h)
            } else if h < self.largest {
                Proposal::Larger {
                    why: "nothing".into(),
                    next: h + 1,
                }
            } else {
                Proposal::Nothing("nothing at all".into())
            })
        }
        fn check(&mut self, _: &u64, h: u64, _: &Run, _: &mut Discovery) -> Result<Checked> {
            Ok(Checked::Holds((h + 1).min(self.largest)))
        }
        fn record(&self, x: &u64, _: u64, checked: u64, d: &mut Discovery) {
            d.box_max = Some(checked);
            d.states = Some(*x as usize);
        }
        fn prove(&mut self, _: &u64, _: &Run, _: &mut Discovery) -> Result<Proof> {
            if self.refutations.is_empty() && !self.never {
                return Ok(Proof::Proved);
            }
            let top = if self.refutations.is_empty() {
                1000
            } else {
                self.refutations.remove(0)
            };
            Ok(Proof::Refuted {
                what: format!("refuted at {top}"),
                top: Some(top),
            })
        }
    }

    fn scripted(found_at: u64, refutations: Vec<u128>, never: bool) -> Scripted {
        Scripted {
            found_at,
            largest: 20,
            refutations,
            never,
            tabulated: Vec::new(),
        }
    }

    fn empty() -> Discovery {
        Discovery::empty("test".into(), Play::Normal, 0)
    }

    /// Boxes grow one by one until a description shows, then to each counterexample inside the
    /// largest box, and the proof ends the run.
    #[test]
    fn the_box_grows_to_each_counterexample() {
        let opts = Options::default();
        let run = Run::new(&opts);
        let mut r = scripted(5, vec![9, 14], false);
        let d = drive(&mut r, 3, &run, empty(), None).unwrap();
        assert_eq!(d.verdict, DiscoveryVerdict::Proved);
        assert_eq!(r.tabulated, vec![3, 4, 5, 9, 14]);
        assert_eq!(d.box_max, Some(15));
        assert!(d.reason.is_none() && d.raise.is_none());
    }

    /// A counterexample beyond the largest box: a conjecture, with the bound to raise.
    #[test]
    fn a_refutation_beyond_the_largest_box_is_a_conjecture() {
        let opts = Options::default();
        let run = Run::new(&opts);
        let mut r = scripted(3, vec![], true);
        let d = drive(&mut r, 3, &run, empty(), None).unwrap();
        assert_eq!(d.verdict, DiscoveryVerdict::Conjecture);
        assert_eq!(d.raise, Some(Arg::Max));
        let reason = d.reason_spelled(&nimlab_core::arg::CommandLine).unwrap();
        assert_eq!(
            reason,
            "refuted at 1000, beyond the largest box allowed, box 20 (raise --max H)"
        );
    }

    /// The fallback runs once, at the first box that shows nothing; when the first route then
    /// finds nothing at all, the answer is the fallback's, both reasons given.
    #[test]
    fn the_fallback_runs_once_and_answers_when_nothing_is_found() {
        let opts = Options::default();
        let run = Run::new(&opts);
        let mut r = scripted(100, vec![], false);
        let mut calls = 0;
        let mut other = |mut d: Discovery| {
            calls += 1;
            d.reason = Some("no automaton".into());
            Ok(d)
        };
        let d = drive(&mut r, 18, &run, empty(), Some(("automaton", &mut other))).unwrap();
        assert_eq!(calls, 1);
        assert_eq!(d.verdict, DiscoveryVerdict::None);
        assert_eq!(
            d.reason.as_deref(),
            Some("nothing at all; automaton: no automaton")
        );
        assert_eq!(r.tabulated, vec![18, 19, 20]);
    }

    /// A fallback that proves ends the run at once.
    #[test]
    fn a_fallback_that_proves_ends_the_run() {
        let opts = Options::default();
        let run = Run::new(&opts);
        let mut r = scripted(100, vec![], false);
        let mut other = |mut d: Discovery| {
            d.verdict = DiscoveryVerdict::Proved;
            Ok(d)
        };
        let d = drive(&mut r, 3, &run, empty(), Some(("automaton", &mut other))).unwrap();
        assert_eq!(d.verdict, DiscoveryVerdict::Proved);
        assert_eq!(r.tabulated, vec![3]);
    }

    /// The time limit before the proof: a conjecture that says so.
    #[test]
    fn the_time_limit_gives_a_conjecture() {
        let opts = Options {
            timeout: std::time::Duration::from_millis(1),
            ..Options::default()
        };
        let run = Run::new(&opts);
        std::thread::sleep(std::time::Duration::from_millis(5));
        let mut r = scripted(3, vec![], false);
        let d = drive(&mut r, 3, &run, empty(), None).unwrap();
        assert_eq!(d.verdict, DiscoveryVerdict::Conjecture);
        assert_eq!(
            d.reason.as_deref(),
            Some("the time limit was reached before the proof")
        );
    }
}
