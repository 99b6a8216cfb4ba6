//! Results for every number of heaps at once. The automata prover reads the heaps of one position in
//! parallel, one track per heap, so it proves a result for one number of heaps at a time (at most
//! [`crate::automata::MAX_TRACKS`] / 2 of them). Bouton's theorem, in normal and in misère play, holds for every number of heaps by
//! an induction over the heaps whose steps are statements about a fixed number of values (a heap, the
//! xor of the other heaps, ...), and each such statement is decided here by the automata prover for
//! every size of the values: [`prove_every_number_of_heaps`]. The argument is written below; it
//! combines the lemmas by cases over the heaps and by induction, which is not machine-checked.
//!
//! The argument, for A = {x : x1 xor ... xor xn = 0} on n heaps (any n >= 0). The xor of a list of
//! numbers is associative and commutative, so the xor X of all heaps is x_i xor R_i, R_i the xor of
//! the other heaps, whichever heap i is singled out; the xor of no heap is 0.
//!
//! - (III) The terminal position (every heap empty) has X = 0, so it is in A.
//! - (I) A move lowers one heap from a to b < a and leaves the others, whose xor c it does not
//!   change: lemma `one-heap` says that a xor c = 0 and b xor c = 0 cannot both hold.
//! - (II) Let X != 0. Claim: for every list of heaps with xor S and every T with S xor T < S, some
//!   heap h of the list has h xor T < h. By induction on the length of the list: the empty list has
//!   S = 0 and 0 xor T < 0 is false; a list L followed by a heap b has S = a xor b with a the xor
//!   of L, and lemma `step` says that b xor T < b or a xor T < a (then the induction hypothesis
//!   for L gives the heap). Lemma `start` (X xor X < X for X != 0) lets the claim apply with T = X:
//!   some heap h has h xor X < h, so lowering h to h xor X is a move, and lemma `lands` says that it
//!   reaches xor 0, a position of A.
//!
//! By the partition theorem (docs/rules.md) A is the P-set of Nim on n heaps, for every n.
//!
//! Misère play ([`BOUTON_MISERE`]): A = {every heap at most 1 and X = 1} ∪ {some heap of 2 or more
//! and X = 0}; over heaps of at most 1, X is at most 1 and is the parity of the number of 1s (lemma
//! `small`, by induction over the heaps), so this is Bouton's misère rule.
//!
//! - (III) The terminal position has every heap at most 1 and X = 0, so it is not in A.
//! - (I) A move lowers one heap a to b < a; the other heaps have xor c. If every other heap is at most
//!   1 (then c <= 1), lemma `one-heap-small` rules out both positions in A, whichever of a and b is 2
//!   or more; if some other heap is 2 or more, both positions have a heap of 2 or more, are in A only
//!   with xor 0, and lemma `one-heap-big` rules that out.
//! - (II) Let x be outside A and not terminal; count its heaps of 2 or more. None: every heap is at
//!   most 1 and X != 1, so X = 0, and some heap is 1 (x is not terminal); lowering it to 0 leaves X = 1
//!   (lemma `last-one`), a position of A. Exactly one, a: the others are at most 1 with xor b <= 1,
//!   and lowering a to 1 xor b is a move that leaves every heap at most 1 and X = 1 (lemma
//!   `single-big`). Two or more: x is outside A, so X != 0, and as in normal play (lemmas `start`,
//!   `step`, the induction, `lands`) a heap h has h xor X < h and lowering it leaves X = 0; another heap
//!   of 2 or more is left untouched, so the position reached is in A.
//!
//! The step
//! from the lemmas to the theorem is the argument above, written here and in docs/findings.md, not a
//! machine-checked one; the lemmas themselves are decided for every size of their values.

use crate::automata::{self, Budget, Stop};
use crate::conjecture::PFamily;
use crate::report::Status;
use nimlab_core::{Error, Play, Result};
use std::time::{Duration, Instant};

/// One lemma about a fixed number of values `a, b, c, ...` (natural numbers of any size).
#[derive(Debug, Clone, Copy)]
pub struct Lemma {
    pub name: &'static str,
    /// What it says, in words.
    pub statement: &'static str,
    /// What each value stands for in the argument, `a` first.
    pub values: &'static [&'static str],
    /// The negation of the lemma as cases, each a list of relations that a counterexample satisfies
    /// all of: the lemma holds when no tuple of natural numbers satisfies every relation of any case.
    pub cases: &'static [&'static [&'static str]],
}

/// The lemmas of Bouton's theorem for every number of heaps (see the module's documentation).
pub const BOUTON: &[Lemma] = &[
    Lemma {
        name: "one-heap",
        statement: "a xor c = 0 and b xor c = 0 imply b >= a: no move between two positions of xor 0",
        values: &[
            "a heap before the move",
            "the same heap after it",
            "the xor of the other heaps",
        ],
        cases: &[&["xor(a, c) = 0", "xor(b, c) = 0", "b < a"]],
    },
    Lemma {
        name: "start",
        statement: "a > 0 implies a xor a < a: the claim applies to T = X when X != 0",
        values: &["the xor X of all heaps"],
        cases: &[&["a > 0", "xor(a, a) >= a"]],
    },
    Lemma {
        name: "step",
        statement: "(a xor b) xor c < a xor b implies b xor c < b or a xor c < a: the induction step over the heaps",
        values: &[
            "the xor of the first heaps",
            "the next heap",
            "T",
        ],
        cases: &[&["xor(a, b, c) < xor(a, b)", "xor(b, c) >= b", "xor(a, c) >= a"]],
    },
    Lemma {
        name: "lands",
        statement: "(a xor (a xor b)) xor b = 0: lowering a heap a to a xor X, X = a xor b, leaves xor 0",
        values: &["the heap lowered", "the xor of the other heaps"],
        cases: &[&["xor(xor(a, xor(a, b)), b) != 0"]],
    },
];

/// The lemmas of Bouton's misère rule for every number of heaps, beside [`BOUTON`]'s `start`, `step`
/// and `lands` (see the module's documentation). The set is A = {every heap at most 1 and X = 1} ∪
/// {some heap of 2 or more and X = 0}; when every heap is at most 1, X is the parity of the number of
/// 1s (lemma `small`, by induction over the heaps), so A is the registry's description.
pub const BOUTON_MISERE: &[Lemma] = &[
    Lemma {
        name: "small",
        statement: "a <= 1 and b <= 1 imply a xor b <= 1 and a xor b = (a + b) mod 2: over heaps of at most 1, X is the parity of the number of 1s",
        values: &["the xor of the first heaps (at most 1)", "the next heap (at most 1)"],
        cases: &[
            &["a <= 1", "b <= 1", "xor(a, b) > 1"],
            &["a <= 1", "b <= 1", "xor(a, b) != mod(a + b, 2)"],
        ],
    },
    Lemma {
        name: "one-heap-small",
        statement: "when every other heap is at most 1 (their xor c <= 1), no move of one heap a -> b < a joins two positions of A",
        values: &[
            "a heap before the move",
            "the same heap after it",
            "the xor of the other heaps, all at most 1",
        ],
        cases: &[
            &["c <= 1", "b < a", "a <= 1", "xor(a, c) = 1", "b <= 1", "xor(b, c) = 1"],
            &["c <= 1", "b < a", "a <= 1", "xor(a, c) = 1", "b >= 2", "xor(b, c) = 0"],
            &["c <= 1", "b < a", "a >= 2", "xor(a, c) = 0", "b <= 1", "xor(b, c) = 1"],
            &["c <= 1", "b < a", "a >= 2", "xor(a, c) = 0", "b >= 2", "xor(b, c) = 0"],
        ],
    },
    Lemma {
        name: "one-heap-big",
        statement: "when some other heap is 2 or more, both positions are in A only with xor 0: a xor c = 0 and b xor c = 0 imply b >= a",
        values: &[
            "a heap before the move",
            "the same heap after it",
            "the xor of the other heaps",
        ],
        cases: &[&["xor(a, c) = 0", "xor(b, c) = 0", "b < a"]],
    },
    Lemma {
        name: "last-one",
        statement: "every heap at most 1 and X = 0: lowering a heap of 1 to 0 leaves X = 1 (a the xor of the other heaps, at most 1)",
        values: &["the xor of the other heaps"],
        cases: &[&["a <= 1", "xor(1, a) = 0", "xor(0, a) != 1"]],
    },
    Lemma {
        name: "single-big",
        statement: "one heap a >= 2, the others at most 1 with xor b: lowering a to 1 xor b is a move (1 xor b < a) that leaves every heap at most 1 and X = 1",
        values: &["the one heap of 2 or more", "the xor of the other heaps"],
        cases: &[
            &["a >= 2", "b <= 1", "xor(1, b) >= a"],
            &["a >= 2", "b <= 1", "xor(1, b) > 1"],
            &["a >= 2", "b <= 1", "xor(xor(1, b), b) != 1"],
        ],
    },
];

/// The answer for one lemma.
#[derive(Debug, Clone)]
pub struct LemmaReport {
    pub lemma: Lemma,
    /// Proved (no counterexample of any size), refuted (with one, re-checked) or unknown (limits).
    pub status: Status,
    /// The values of a counterexample, `a` first, re-checked by evaluating the relations exactly.
    pub counterexample: Option<Vec<u128>>,
    pub reason: Option<String>,
    pub seconds: f64,
}

/// The proof of a result for every number of heaps: each lemma's answer.
#[derive(Debug, Clone)]
pub struct HeapsReport {
    /// The registry entry, e.g. `bouton`.
    pub theorem: String,
    /// The play convention of the result.
    pub play: Play,
    /// Proved when every lemma is; refuted when one is refuted (the argument fails: a lemma is false);
    /// unknown otherwise.
    pub verdict: Status,
    pub lemmas: Vec<LemmaReport>,
    pub seconds: f64,
}

impl HeapsReport {
    /// The report as JSON (`nimlab prove nim --theorem bouton --automata --json`).
    pub fn to_json(&self) -> serde_json::Value {
        let lemmas: Vec<serde_json::Value> = self
            .lemmas
            .iter()
            .map(|l| {
                serde_json::json!({
                    "lemma": l.lemma.name,
                    "statement": l.lemma.statement,
                    "values": l.lemma.values,
                    "counterexample_cases": l.lemma.cases,
                    "status": l.status.name(),
                    "reason": l.reason,
                    "counterexample": l.counterexample.as_ref().map(|v| v.iter().map(|x| x.to_string()).collect::<Vec<_>>()),
                    "seconds": l.seconds,
                })
            })
            .collect();
        serde_json::json!({
            "game": "nim",
            "heaps": "any",
            "source": format!("theorem {}", self.theorem),
            "verdict": self.verdict.name(),
            "range": "all",
            "method": "induction over the heaps, lemmas by automata",
            "play": self.play.name(),
            "seconds": self.seconds,
            "lemmas": lemmas,
        })
    }
}

/// The lemmas of registry entry `id` for every number of heaps (`bouton` and `bouton-misere`; the
/// misère proof uses `start`, `step` and `lands` of [`BOUTON`] too), with its play convention.
pub fn lemmas(id: &str) -> Result<(Vec<Lemma>, Play)> {
    match id {
        "bouton" => Ok((BOUTON.to_vec(), Play::Normal)),
        "bouton-misere" => {
            let mut all = BOUTON_MISERE.to_vec();
            all.extend(BOUTON.iter().filter(|l| l.name != "one-heap"));
            Ok((all, Play::Misere))
        }
        _ => Err(Error::refused(
            nimlab_core::Refusal::new(format!(
                "{id}: nimlab proves only bouton and bouton-misere for every number of heaps (an induction over the heaps, docs/findings.md); give "
            ))
            .given(nimlab_core::Arg::Heaps),
        )),
    }
}

/// Decides one lemma for every size of its values: the automaton of its counterexamples is empty, or
/// its shortest word is a counterexample (re-checked by evaluating the relations exactly; one that does
/// not re-check is an error, never a refutation).
pub fn decide(lemma: &Lemma, budget: &Budget) -> Result<LemmaReport> {
    let start = Instant::now();
    let mut answer = (Status::Proved, None, None);
    for case in lemma.cases {
        let relations: Vec<String> = case.iter().map(|r| r.to_string()).collect();
        let f = PFamily::parse(lemma.name, lemma.values.len(), &relations)?;
        match automata::family(&f, budget) {
            Ok(d) => {
                let Some(w) = d.witness() else { continue };
                let t: Vec<i128> = w
                    .iter()
                    .map(|&x| i128::try_from(x))
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|_| {
                        Error::Unsupported(format!(
                            "lemma {}: a counterexample past 2^127 cannot be re-checked",
                            lemma.name
                        ))
                    })?;
                if !f.holds(&t) {
                    return Err(Error::Unsupported(format!(
                        "lemma {}: the automaton's word {w:?} does not satisfy the relations (an error of the prover)",
                        lemma.name
                    )));
                }
                answer = (Status::Refuted, Some(w), None);
                break;
            }
            Err(Stop::Limit(why)) => answer = (Status::Unknown, None, Some(why)),
            Err(Stop::Unsupported(why)) => return Err(Error::Unsupported(why)),
        }
    }
    let (status, counterexample, reason) = answer;
    Ok(LemmaReport {
        lemma: *lemma,
        status,
        counterexample,
        reason,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Decides every lemma of `lemmas` (for the registry entry `theorem`, about `play`) within `timeout`
/// in all.
pub fn prove_lemmas(
    theorem: &str,
    play: Play,
    lemmas: &[Lemma],
    timeout: Duration,
) -> Result<HeapsReport> {
    let start = Instant::now();
    let budget = Budget::new(start + timeout, 1 << 22);
    let lemmas = lemmas
        .iter()
        .map(|l| decide(l, &budget))
        .collect::<Result<Vec<_>>>()?;
    let verdict = if lemmas.iter().all(|l| l.status == Status::Proved) {
        Status::Proved
    } else if lemmas.iter().any(|l| l.status == Status::Refuted) {
        Status::Refuted
    } else {
        Status::Unknown
    };
    Ok(HeapsReport {
        theorem: theorem.to_string(),
        play,
        verdict,
        lemmas,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Proves the registry entry `id` (`bouton`, `bouton-misere`) for every number of heaps, within
/// `timeout`.
pub fn prove_every_number_of_heaps(id: &str, timeout: Duration) -> Result<HeapsReport> {
    let (lemmas, play) = lemmas(id)?;
    prove_lemmas(id, play, &lemmas, timeout)
}
