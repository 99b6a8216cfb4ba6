//! The automaton route of discover: when no linear description is found (xor-type games such as Nim,
//! CN(6,4), Moore's Nim, misère Nim), learn an automaton of the P-set from tables of growing boxes
//! `[0, 2^B)^m` ([`nimlab_prove::learn`]: residual languages of prefixes, merged when the box cannot
//! tell them apart, the box doubled until two boxes give the same automaton, then one larger box
//! checked), and prove it for every stack size with the automata prover
//! ([`nimlab_prove::prove_members`]). The learned automaton is written in Walnut's text format.

use nimlab_core::Play;
use nimlab_prove::learn::{learn, LearnOptions, Outcome, Table};
use nimlab_prove::{prove_members, walnut, Kind, Ruleset, Status};
use nimlab_tables::pset::every_p_position;
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Most entries (bits) of one learning table: 2^30 bits, 128 MiB.
const MAX_TABLE_BITS: u32 = 30;

/// What the automaton route found.
pub struct Learned {
    /// Proved for every stack size.
    pub proved: bool,
    /// The automaton in Walnut's format.
    pub walnut: String,
    pub states: usize,
    /// The largest entry of the box where the automaton equals the P-set (checked).
    pub box_max: u64,
    /// The prover's report.
    pub proof: Option<Value>,
    pub counterexample: Option<Value>,
    /// Why it is not proved.
    pub reason: Option<String>,
}

/// Learns from boxes `[0, 2^B)^m` inside `[0..=max]` and proves. `Err` says in one line why the route
/// does not apply or found nothing.
pub fn try_automaton(
    rules: &Ruleset,
    play: Play,
    max: u64,
    deadline: Instant,
    halt: &AtomicBool,
    say: &dyn Fn(&str),
) -> Result<Learned, String> {
    if rules.kind == Kind::Scn {
        return Err(
            "SCN's circles shrink: the automaton route covers CN, Nim and the complexes".into(),
        );
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
        " (misère play: prove it with --misere)"
    } else {
        ""
    };
    let text = format!(
        "# {}: learned by `nimlab discover` from the P-positions of the box [0..{box_max}]{misere}.\n\
         # Input i is stack i, read in binary, most significant digit first: `nimlab prove GAME --automaton FILE`.\n{}",
        rules.id(),
        walnut::to_walnut(&dfa)
    );
    if let Some(at) = refuted_at {
        return Err(format!(
            "the automaton learned below 2^{} ({} states) differs from the table at {at:?}",
            box_max.count_ones(),
            dfa.states()
        ));
    }
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Ok(Learned {
            proved: false,
            walnut: text,
            states: dfa.states(),
            box_max,
            proof: None,
            counterexample: None,
            reason: Some("the time limit was reached before the proof".into()),
        });
    }
    say(&format!(
        "automaton: {} states, proving (automata)",
        dfa.states()
    ));
    let report = prove_members(rules, &dfa, play, left.max(Duration::from_millis(1)))
        .map_err(|e| e.to_string())?;
    let proved = report.verdict == Status::Proved;
    let proof = report.to_json();
    let counterexample = report.conditions.iter().find_map(|c| {
        c.counterexample.as_ref().map(|cx| {
            serde_json::json!({
                "condition": c.condition.name(),
                "position": cx.position,
                "move_to": cx.move_to,
            })
        })
    });
    Ok(Learned {
        proved,
        walnut: text,
        states: dfa.states(),
        box_max,
        proof: Some(proof),
        counterexample,
        reason: (!proved)
            .then(|| format!("the automata prover answered {}", report.verdict.name())),
    })
}
