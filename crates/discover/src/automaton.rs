//! The automaton route of discover: when no linear description is found (xor-type games such as Nim,
//! CN(6,4), Moore's Nim, misère Nim), learn an automaton of the P-set from tables of growing boxes
//! `[0, 2^B)^m` ([`nimlab_prove::learn`]: residual languages of prefixes, merged when the box cannot
//! tell them apart, the box doubled until two boxes give the same automaton, then one larger box
//! checked), and prove it for every stack size with the automata prover
//! ([`nimlab_prove::prove_members`]). The learned automaton is written in Walnut's text format.
//!
//! SCN (`learn_scn_automaton`): one automaton per circle length L = 1..n, each learned from the
//! table of `[0, 2^B)^L` made from one SCN table of the circles with piles in `1..2^B - 1` (every
//! rotation and reflection of the canonical P-circles the tables engine lists). A tuple with a zero
//! pile is not a circle; it is read two ways, each learned (`READINGS`): not in the set
//! (`positive`), or as the shorter circle left when its zero piles are dropped (`dropped`: SCN(n,1),
//! Nim on every circle, then needs 2 states a length). The box grows until two consecutive boxes
//! give the same automaton at every length, in one reading or the other; the automata are checked on
//! one larger box when its tables are affordable (at most 2^30 entries a length) and proved with
//! [`nimlab_prove::prove_scn_members`], which ignores what they say of tuples with a zero pile. They
//! are written in the SCN file format of [`nimlab_prove::walnut`] (a section `# length L` each).

use crate::route::{drive, Checked, Proof, Proposal, Route, Run};
use crate::Discovery;
use nimlab_core::{Arg, Error, Play};
type Result<T, E = Error> = std::result::Result<T, E>;
use nimlab_prove::automata::Dfa;
use nimlab_prove::learn::{disagreement, learn, learn_table, LearnOptions, Outcome, Table};
use nimlab_prove::{prove_members, prove_scn_members, walnut, Ruleset, RulesetKind, Status};
use nimlab_tables::pset::every_p_position;
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Most entries (bits) of one learning table: 2^30 bits, 128 MiB.
const MAX_TABLE_BITS: u32 = 30;

/// What the automaton route learned: an automaton that equals the P-set on a box.
pub struct Learned {
    /// The automaton in Walnut's format.
    pub walnut: String,
    pub states: usize,
    /// The automaton as a rule a person can read, when it is one (checked against the automaton).
    pub rule: Option<String>,
    /// The largest entry of the box where the automaton equals the P-set (checked).
    pub box_max: u64,
    /// What the automata prover is given.
    pub automata: Automata,
}

/// The automata learned: one for the tuples of stacks, or (SCN) one per circle length with the
/// empty circle's outcome.
pub enum Automata {
    Tuples(Dfa),
    Circles { empty: bool, dfas: Vec<Dfa> },
}

/// SCN: the learning of the automaton of one circle length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LengthLearned {
    /// The circle length L.
    pub len: usize,
    /// Per box (largest pile `2^B - 1`), the states of the automata learned from it in each reading
    /// of a tuple with a zero pile: (`positive`: not in the set, `dropped`: as the shorter circle
    /// left when the zero piles are dropped); `None`: the box was too small or the automaton too
    /// large.
    pub per_box: Vec<(u64, Option<usize>, Option<usize>)>,
    /// The reading whose automata settled (`positive` or `dropped`), when one did.
    pub reading: Option<&'static str>,
}

impl LengthLearned {
    /// `{"length": L, "reading": R, "boxes": [{"max": H, "positive": S, "dropped": S}, ...]}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "length": self.len,
            "reading": self.reading,
            "boxes": self.per_box.iter().map(|(h, a, b)| serde_json::json!({"max": h, "positive": a, "dropped": b})).collect::<Vec<_>>(),
        })
    }

    /// The states of the automaton that settled (or of the last one learned, smaller reading first).
    pub fn states(&self) -> Option<usize> {
        let &(_, a, b) = self.per_box.last()?;
        match self.reading {
            Some("positive") => a,
            Some(_) => b,
            None => match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
        }
    }
}

/// Learns from boxes `[0, 2^B)^m` inside `[0..=max]` an automaton that equals the P-set there.
/// `Err` says in one line why the route does not apply or found nothing. SCN: `lengths` receives
/// what was learned at each circle length, box by box, whether or not the route succeeds.
pub fn learn_automaton(
    rules: &Ruleset,
    play: Play,
    max: u64,
    deadline: Instant,
    halt: &AtomicBool,
    say: &dyn Fn(&str),
    lengths: &mut Vec<LengthLearned>,
) -> Result<Learned, String> {
    if rules.kind == RulesetKind::Scn {
        return learn_scn_automaton(rules, play, max, deadline, halt, say, lengths);
    }
    let m = rules.n;
    if 2 * m > nimlab_prove::automata::MAX_TRACKS {
        return Err(format!(
            "{m} stacks: the automata prover handles at most {}",
            nimlab_prove::automata::MAX_TRACKS / 2
        ));
    }
    let game = rules.game();
    // The largest box: a table of at most 2^MAX_TABLE_BITS entries, and a radix the engine takes.
    let radix_bits = nimlab_tables::pset::MAX_RADIX.ilog2();
    // and entries at most `max` (`--max`).
    let max_bits = (MAX_TABLE_BITS / m as u32)
        .min(radix_bits)
        .min((max.saturating_add(1)).ilog2());
    if max_bits < 2 {
        return Err(format!(
            "{m} stacks: no box of at least 4 values a stack fits a learning table"
        ));
    }
    // Boxes of 2, 4, 8, ... values a stack up to the largest; two consecutive boxes that give the
    // same automaton check the first one on the second (it reproduces that table exactly), and the
    // largest box is checked too when learning settled below it.
    let opts = LearnOptions {
        min_bits: 1,
        max_bits,
        check_bits: Some(max_bits),
        max_states: 200_000,
        deadline: Some(deadline),
    };
    let mut table = |bits: u32| -> nimlab_core::Result<Table> {
        let mut t = Table::new(m, bits)?;
        let hooks = nimlab_core::Hooks::new(Some(halt), None);
        match every_p_position(game.as_ref(), (1u64 << bits) - 1, play, hooks, &mut |x| {
            t.mark(x);
        }) {
            None => Err(nimlab_core::Error::Unsupported(format!(
                "the tables engine does not cover {} below 2^{bits}",
                game.id()
            ))),
            Some(Err(_)) => Err(nimlab_core::Error::Interrupted),
            Some(Ok(())) => Ok(t),
        }
    };
    let outcome = learn(m, &mut table, &opts, &mut |r| {
        say(&format!(
            "automaton: box [0..{}]: {}",
            (1u64 << r.bits) - 1,
            r.states
                .map_or("too small to learn from".into(), |s| format!("{s} states"))
        ))
    })
    .map_err(|e| e.to_string())?;
    let (dfa, box_max, refuted_at) = match outcome {
        Outcome::Stable {
            dfa, checked_bits, ..
        } => (dfa, (1u64 << checked_bits) - 1, None),
        Outcome::Refuted { dfa, bits, at } => (dfa, (1u64 << bits) - 1, Some(at)),
        Outcome::Unstable { last } => {
            return Err(format!(
                "no two boxes up to [0..{}] gave the same automaton{}",
                (1u64 << max_bits) - 1,
                last.map_or(String::new(), |l| format!(
                    " (the last had {} states)",
                    l.dfa.states()
                ))
            ))
        }
    };
    let misere = if play == Play::Misere {
        " (misère play)"
    } else {
        ""
    };
    let rule = nimlab_prove::automata::readable(&dfa).map(|r| r.text(dfa.tracks));
    let text = format!(
        "# {}: learned by `nimlab discover` from the P-positions of the box [0..{box_max}]{misere}.\n\
         # Input i is stack i, read in binary, most significant digit first: `nimlab prove GAME --automaton FILE`.\n{}{}",
        rules.id(),
        rule.as_ref()
            .map_or(String::new(), |r| format!("# The rule it states (checked against it): {r}.\n")),
        walnut::to_walnut(&dfa)
    );
    if let Some(at) = refuted_at {
        return Err(format!(
            "the automaton learned below 2^{} ({} states) differs from the table at {at:?}",
            box_max.count_ones(),
            dfa.states()
        ));
    }
    Ok(Learned {
        walnut: text,
        states: dfa.states(),
        rule,
        box_max,
        automata: Automata::Tuples(dfa),
    })
}

/// The two readings of a tuple with a zero pile in SCN's tables (see [`LengthLearned`]).
const READINGS: [&str; 2] = ["positive", "dropped"];

/// The SCN(n,k) tables of each circle length 1..=n over the box `[0, 2^bits)^L`, in both readings
/// ([`READINGS`]): `positive` marks every rotation and reflection of each P-circle with piles in
/// `1..2^bits - 1` (the tables engine lists them up to symmetry); `dropped` also marks each tuple
/// whose zero piles, dropped, leave a P-circle (the empty circle included). And whether the empty
/// circle is P.
#[allow(clippy::type_complexity)]
fn scn_tables(
    rules: &Ruleset,
    bits: u32,
    play: Play,
    halt: &AtomicBool,
) -> Result<(bool, Vec<[Table; 2]>), String> {
    let game = rules.game();
    let n = rules.n;
    let hi = (1u64 << bits) - 1;
    let domain = game.table_domain(hi, None).map_err(|e| e.to_string())?;
    if nimlab_tables::pset::rules_for(game.as_ref(), &domain).is_none() {
        return Err(format!(
            "the tables engine does not cover {} with piles up to {hi}",
            game.id()
        ));
    }
    let mut positive = (1..=n)
        .map(|len| Table::new(len, bits))
        .collect::<nimlab_core::Result<Vec<_>>>()
        .map_err(|e| e.to_string())?;
    let mut empty = false;
    let hooks = nimlab_core::Hooks::new(Some(halt), None);
    nimlab_tables::pset::tabulate(game.as_ref(), &domain, play, hooks, &mut |p| {
        let len = p.len();
        if len == 0 {
            empty = true;
            return;
        }
        let t = &mut positive[len - 1];
        let mut q = p.to_vec();
        for _ in 0..2 {
            for _ in 0..len {
                t.mark(&q);
                q.rotate_left(1);
            }
            q.reverse();
        }
    })
    .map_err(|_| stopped(hi))?;
    let mut dropped: Vec<Table> = positive.clone();
    // Every P-circle of each shorter length (the empty one too), with zero piles put in every way.
    for short in 0..n {
        let mut circle = vec![1u64; short];
        loop {
            let is_p = if short == 0 {
                empty
            } else {
                positive[short - 1].is_p(&circle)
            };
            if is_p {
                for (len, t) in dropped.iter_mut().enumerate().skip(short) {
                    let len = len + 1;
                    // The places of the circle's piles among `len`: each `short`-subset.
                    for mask in 0u32..1 << len {
                        if mask.count_ones() as usize != short {
                            continue;
                        }
                        let mut x = vec![0u64; len];
                        let mut it = circle.iter();
                        for (i, v) in x.iter_mut().enumerate() {
                            if mask >> i & 1 == 1 {
                                *v = *it.next().expect("short piles");
                            }
                        }
                        t.mark(&x);
                    }
                }
            }
            // The next circle of `short` piles in 1..=hi.
            let mut i = 0;
            loop {
                if i == short {
                    break;
                }
                if circle[i] < hi {
                    circle[i] += 1;
                    break;
                }
                circle[i] = 1;
                i += 1;
            }
            if i == short {
                break;
            }
        }
        if halt.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(stopped(hi));
        }
    }
    let out = positive
        .into_iter()
        .zip(dropped)
        .map(|(a, b)| [a, b])
        .collect();
    Ok((empty, out))
}

/// Why the tables of a box stopped (the time limit, or Ctrl-C, which the caller reports itself).
fn stopped(hi: u64) -> String {
    format!("the time limit was reached while tabulating the circles with piles up to {hi}")
}

/// [`learn_automaton`] for SCN(n,k): one automaton per circle length (module notes). A length
/// settles when, in one of the two readings of tuples with a zero pile ([`READINGS`]), the
/// automata of two consecutive boxes are the same; every length must settle on the same two boxes.
/// The prover ignores what an automaton says about tuples with a zero pile, so either reading
/// describes the same set of circles.
fn learn_scn_automaton(
    rules: &Ruleset,
    play: Play,
    max: u64,
    deadline: Instant,
    halt: &AtomicBool,
    say: &dyn Fn(&str),
    out: &mut Vec<LengthLearned>,
) -> Result<Learned, String> {
    let n = rules.n;
    if n >= nimlab_prove::automata::MAX_TRACKS {
        return Err(format!(
            "circles of {n} piles: the automata prover handles SCN circles of at most {}",
            nimlab_prove::automata::MAX_TRACKS - 1
        ));
    }
    // Piles 1..2^B - 1 in one table of the engine (at most MAX_RADIX values), at most
    // 2^MAX_TABLE_BITS entries for the longest circles, and piles at most `max` (`--max`).
    let radix_bits = (nimlab_tables::pset::MAX_RADIX + 1).ilog2();
    let max_bits = (MAX_TABLE_BITS / n as u32)
        .min(radix_bits)
        .min(max.saturating_add(1).ilog2());
    if max_bits < 3 {
        return Err(format!(
            "circles of {n} piles: no two boxes of piles up to 2^B - 1 (B >= 2) fit a learning table (largest pile {max})"
        ));
    }
    let box_of = |bits: u32| (1u64 << bits) - 1;
    *out = (1..=n)
        .map(|len| LengthLearned {
            len,
            per_box: Vec::new(),
            reading: None,
        })
        .collect();
    let lengths = out;
    let shown = |s: Option<usize>| s.map_or("-".to_string(), |s| s.to_string());
    let history = |lengths: &[LengthLearned]| -> String {
        lengths
            .iter()
            .map(|l| {
                let s: Vec<String> = l
                    .per_box
                    .iter()
                    .map(|&(_, a, b)| format!("{}/{}", shown(a), shown(b)))
                    .collect();
                format!("length {}: {}", l.len, s.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    // Per length, the automata of the previous box in each reading.
    let mut prev: Vec<[Option<Dfa>; 2]> = vec![[None, None]; n];
    // The settled automata: (empty circle in the set, per length (reading, automaton), box bits).
    type Settled = (bool, Vec<(usize, Dfa)>, u32);
    let mut found: Option<Settled> = None;
    let mut unsettled: Vec<usize> = (1..=n).collect();
    for bits in 2..=max_bits {
        if Instant::now() > deadline {
            break;
        }
        let (empty, tables) = scn_tables(rules, bits, play, halt)?;
        let mut now: Vec<[Option<Dfa>; 2]> = Vec::with_capacity(n);
        for (pair, l) in tables.iter().zip(lengths.iter_mut()) {
            let mut got: [Option<Dfa>; 2] = [None, None];
            for (r, t) in pair.iter().enumerate() {
                got[r] = match learn_table(t, 200_000) {
                    Ok(x) => Some(x.dfa),
                    Err(nimlab_core::Error::TooLarge(_)) => None,
                    Err(e) => return Err(e.to_string()),
                };
            }
            l.per_box.push((
                box_of(bits),
                got[0].as_ref().map(Dfa::states),
                got[1].as_ref().map(Dfa::states),
            ));
            now.push(got);
        }
        drop(tables);
        say(&format!(
            "automata: piles [1..{}]: states per circle length 1..{n} (zero piles: not in the set / dropped): {}",
            box_of(bits),
            lengths
                .iter()
                .map(|l| {
                    let &(_, a, b) = l.per_box.last().expect("this box");
                    format!("{}/{}", shown(a), shown(b))
                })
                .collect::<Vec<_>>()
                .join(", ")
        ));
        // Per length, a reading whose automaton is the previous box's (the smaller one when both).
        let settled: Vec<Option<usize>> = prev
            .iter()
            .zip(&now)
            .map(|(p, c)| {
                (0..2)
                    .filter(|&r| match (&p[r], &c[r]) {
                        (Some(a), Some(b)) => a.differs_from(b).is_none(),
                        _ => false,
                    })
                    .min_by_key(|&r| c[r].as_ref().map_or(usize::MAX, Dfa::states))
            })
            .collect();
        unsettled = settled
            .iter()
            .zip(1..)
            .filter(|(s, _)| s.is_none())
            .map(|(_, len)| len)
            .collect();
        if unsettled.is_empty() {
            let dfas = now
                .into_iter()
                .zip(&settled)
                .map(|(mut c, r)| {
                    let r = r.expect("settled");
                    (r, c[r].take().expect("learned"))
                })
                .collect();
            found = Some((empty, dfas, bits));
            break;
        }
        prev = now;
    }
    let Some((empty, dfas, bits)) = found else {
        let which: Vec<String> = unsettled.iter().map(|l| l.to_string()).collect();
        return Err(format!(
            "no two consecutive boxes up to piles [1..{}] gave the same automaton at every circle length{}: {} {} did not settle (states per box, zero piles not in the set / dropped: {})",
            box_of(max_bits),
            if Instant::now() > deadline { " (the time limit was reached)" } else { "" },
            if which.len() == 1 { "length" } else { "lengths" },
            which.join(", "),
            history(lengths)
        ));
    };
    for (l, (r, _)) in lengths.iter_mut().zip(&dfas) {
        l.reading = Some(READINGS[*r]);
    }
    // The automata of the boxes below 2^(bits-1) and 2^bits agree; check them on one more box when
    // its tables are affordable.
    let mut checked = bits;
    if bits < max_bits && Instant::now() <= deadline {
        let (e2, tables) = scn_tables(rules, bits + 1, play, halt)?;
        if e2 != empty {
            return Err("the empty circle's outcome changed between two boxes (a bug)".into());
        }
        for (pair, (r, d)) in tables.iter().zip(&dfas) {
            if let Some(at) = disagreement(d, &pair[*r]) {
                return Err(format!(
                    "the automaton of circles of {} piles learned from piles [1..{}] differs from the table of piles [1..{}] at {at:?} (states per box, zero piles not in the set / dropped: {})",
                    d.tracks,
                    box_of(bits),
                    box_of(bits + 1),
                    history(lengths)
                ));
            }
        }
        checked = bits + 1;
    }
    let dfas: Vec<Dfa> = dfas.into_iter().map(|(_, d)| d).collect();
    let box_max = box_of(checked);
    let misere = if play == Play::Misere {
        " (misère play)"
    } else {
        ""
    };
    let text = format!(
        "# {}: learned by `nimlab discover` from the P-positions of circles with piles [1..{box_max}]{misere}.\n\
         # One automaton per circle length (`# length L`); input i is pile i, read in binary, most significant\n\
         # digit first; a tuple with a zero pile is not a circle (what an automaton says of it is ignored).\n\
         # `nimlab prove GAME --automaton FILE`.\n{}",
        rules.id(),
        walnut::scn_to_walnut(empty, &dfas)
    );
    let states: usize = dfas.iter().map(Dfa::states).sum();
    Ok(Learned {
        walnut: text,
        states,
        rule: None,
        box_max,
        automata: Automata::Circles { empty, dfas },
    })
}

/// Runs the automaton route on `rules` (boxes of entries up to `max`) from the answer so far.
pub(crate) fn run(d: Discovery, rules: &Ruleset, max: u64, run: &Run) -> Result<Discovery> {
    let mut route = Automaton {
        rules,
        max,
        checked: 0,
    };
    drive(&mut route, 0, run, d, None)
}

/// The automaton route ([`Route`]): learning grows its boxes itself (doubling them until two agree),
/// so the loop proposes once; a proof refuted beyond the box it learned from is not grown.
struct Automaton<'r> {
    rules: &'r Ruleset,
    max: u64,
    /// The largest entry of the box the automaton was checked on.
    checked: u64,
}

impl Route for Automaton<'_> {
    type Description = Learned;

    fn bound(&self) -> Arg {
        Arg::Max
    }
    fn box_words(&self, h: u64) -> String {
        if self.rules.kind == RulesetKind::Scn {
            format!("the circles with piles [1..{h}]")
        } else {
            format!("the box [0..{h}]")
        }
    }
    fn largest(&self) -> u64 {
        self.checked
    }

    fn tabulate(&mut self, _h: u64, _run: &Run, _d: &mut Discovery) -> Result<bool> {
        // The learning tabulates its own boxes.
        Ok(true)
    }

    fn propose(&mut self, _h: u64, run: &Run, d: &mut Discovery) -> Result<Proposal<Learned>> {
        let mut lengths = Vec::new();
        let found = learn_automaton(
            self.rules,
            d.play,
            self.max,
            run.stopper.deadline,
            &run.stopper.halt,
            &|s| run.say(s),
            &mut lengths,
        );
        d.lengths = lengths;
        if run.stopper.cancelled() {
            return Err(Error::Interrupted);
        }
        Ok(match found {
            Ok(a) => {
                self.checked = a.box_max;
                Proposal::Found(a)
            }
            Err(why) => Proposal::Nothing(why),
        })
    }

    fn check(&mut self, a: &Learned, _h: u64, _run: &Run, _d: &mut Discovery) -> Result<Checked> {
        // Learning checked it on the largest box it tabulated.
        Ok(Checked::Holds(a.box_max))
    }

    fn record(&self, a: &Learned, _read: u64, checked: u64, d: &mut Discovery) {
        d.format = nimlab_prove::CharacterizationFormat::Automaton;
        d.families.clear();
        d.toml = None;
        d.walnut = Some(a.walnut.clone());
        d.states = Some(a.states);
        d.rule.clone_from(&a.rule);
        d.box_min = self.rules.min_entry() as u64;
        d.box_max = Some(checked);
        d.counterexample = None;
    }

    fn prove(&mut self, a: &Learned, run: &Run, d: &mut Discovery) -> Result<Proof> {
        let left = run
            .stopper
            .deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1));
        run.say(&format!(
            "automaton: {} states, proving (automata)",
            a.states
        ));
        let report = match &a.automata {
            Automata::Tuples(dfa) => prove_members(self.rules, dfa, d.play, left),
            Automata::Circles { empty, dfas } => {
                prove_scn_members(self.rules, dfas, *empty, d.play, left)
            }
        };
        let report = match report {
            Ok(r) => r,
            Err(Error::Interrupted) => return Err(Error::Interrupted),
            // The automaton equals the P-set on its box; the prover does not take it.
            Err(e) => return Ok(Proof::Unknown(format!("the automata prover: {e}"))),
        };
        d.prover = Some("automata");
        d.proof = Some(report.to_json());
        d.counterexample = counterexample_json(&report);
        Ok(match report.verdict {
            Status::Proved => Proof::Proved,
            Status::Refuted => Proof::Refuted {
                what: format!(
                    "the automata prover refuted the automaton{}",
                    d.counterexample
                        .as_ref()
                        .map_or(String::new(), |c| format!(" at {}", c["position"]))
                ),
                top: None,
            },
            Status::Unknown => Proof::Unknown("the automata prover gave no answer".into()),
        })
    }
}

/// The prover's first counterexample, as discover's JSON gives it.
fn counterexample_json(report: &nimlab_prove::Report) -> Option<Value> {
    report.conditions.iter().find_map(|c| {
        c.counterexample.as_ref().map(|cx| {
            serde_json::json!({
                "condition": c.condition.name(),
                "position": cx.position,
                "move_to": cx.move_to,
            })
        })
    })
}
