//! The automaton route of discover for the transfer chip games ET(3) and ENTROPY(3), normal play:
//! their P-sets read binary digits (2-adic valuations, `4^n·m`), so no set of totals or residues
//! describes them. An exact table of the box `[1, 2^B)^3` (ET) or `[0, 2^B)^3` (ENTROPY) — both
//! games' moves stay inside such a box — gives the P-positions of the boxes `2^b`, b < B; an
//! automaton is learned from them as for CN (the box doubled until two boxes agree, then checked on
//! the whole table of `2^B`), and proved for every box size by the equation of the value-0 set
//! (`nimlab_prove::automata::ValueSets`): a set S of the domain is the P-set exactly when S is the
//! set of positions with no option in S. A difference is a position re-checked on the exact table.

use crate::route::{drive, Checked, Proof, Proposal, Route, Run};
use crate::{Discovery, Options, TableUse};
use nimlab_core::{Arg, Error, Play, Refusal, Result};
use nimlab_prove::automata::{
    learn_value_set, readable, refute, Budget, Dfa, GrundyTable, LearnedValueSet, Stop, Transfer,
    ValueSets, MAX_GRUNDY_BITS,
};
use nimlab_prove::chips::{ChipGame, Moves};
use serde_json::json;
use std::time::Instant;

/// The binary digits of the default box (`[.., 2^8)` per box).
pub const DEFAULT_BITS: u32 = 8;

/// Most states of a learned automaton.
const MAX_STATES: usize = 20_000;

fn stop(e: Stop) -> Error {
    match e {
        Stop::Unsupported(why) => Error::Unsupported(why),
        Stop::Limit(why) => Error::TooLarge(why),
    }
}

/// The transfer moves of `game` when this route covers it (ET(3) or ENTROPY(3)).
pub fn covered(game: &ChipGame) -> Option<Transfer> {
    match (&game.moves, game.k) {
        (Moves::Et, 3) => Some(Transfer::Et),
        (Moves::Entropy, 3) => Some(Transfer::Entropy),
        _ => None,
    }
}

/// Discovers and proves the P-set of ET(3) or ENTROPY(3) (normal play) by automata; `opts.max` is
/// the largest box entry of the learning table (rounded up to `2^B - 1`).
pub fn discover_transfer(game: &ChipGame, moves: Transfer, opts: &Options) -> Result<Discovery> {
    let id = game.id();
    if opts.play == Play::Misere {
        let bound = if moves == Transfer::Et {
            Arg::MaxSum
        } else {
            Arg::Max
        };
        return Err(Error::refused(
            Refusal::new(format!(
                "discover finds {id}'s P-set in normal play only (by automata); its misère P-set is not covered: patterns on a box ("
            ))
            .given(bound)
            .text(") in misère play (")
            .given(Arg::Misere)
            .text(") group the P-positions by shape"),
        ));
    }
    if opts.max_sum.is_some() {
        return Err(Error::refused(
            Refusal::new(format!("discover learns {id} on a box of entries: use "))
                .given(Arg::Max)
                .text(", not ")
                .name(Arg::MaxSum),
        ));
    }
    let bits = match opts.max {
        None => DEFAULT_BITS,
        Some(h) => 64 - h.leading_zeros(),
    };
    if !(3..=MAX_GRUNDY_BITS).contains(&bits) {
        return Err(Error::refused(
            Refusal::new("")
                .name(Arg::Max)
                .text(format!(
                    " for {id}: the learning box takes entries below 2^3 to 2^{MAX_GRUNDY_BITS} ("
                ))
                .value(Arg::Max, 7)
                .text(format!(" to {})", (1u64 << MAX_GRUNDY_BITS) - 1)),
        ));
    }
    let top = (1u64 << bits) - 1;
    let mut d = Discovery::empty(id.clone(), Play::Normal, u64::from(moves == Transfer::Et));
    d.format = nimlab_prove::CharacterizationFormat::Automaton;
    let run = Run::new(opts);
    let mut route = TransferRoute {
        id,
        moves,
        bits,
        table: None,
    };
    drive(&mut route, top, &run, d, None)
}

/// The transfer games' route ([`Route`]): one exact table of the box of entries below `2^bits`,
/// an automaton learned from its boxes `2^b`, proved by the equation of the value-0 set.
struct TransferRoute {
    id: String,
    moves: Transfer,
    bits: u32,
    table: Option<GrundyTable>,
}

impl Route for TransferRoute {
    type Description = Dfa;

    fn bound(&self) -> Arg {
        Arg::Max
    }
    fn box_words(&self, h: u64) -> String {
        format!("the box of entries up to {h}")
    }
    fn largest(&self) -> u64 {
        (1u64 << self.bits) - 1
    }

    fn tabulate(&mut self, top: u64, run: &Run, d: &mut Discovery) -> Result<bool> {
        run.say(&format!(
            "tabulating {} on {} (exact search)",
            self.id,
            self.box_words(top)
        ));
        let table = GrundyTable::new(self.moves, self.bits).map_err(stop)?;
        nimlab_core::interrupt::check()?;
        d.tables.push(TableUse {
            max: top,
            p_positions: table.histogram().first().copied().unwrap_or(0) as usize,
            source: "search",
        });
        self.table = Some(table);
        Ok(true)
    }

    fn propose(&mut self, top: u64, run: &Run, _d: &mut Discovery) -> Result<Proposal<Dfa>> {
        run.say("learning an automaton of the P-set from the boxes 2^2, 2^3, ...");
        let table = self.table.as_ref().expect("tabulated");
        Ok(match learn_value_set(table, 0, 2, MAX_STATES).map_err(stop)? {
            LearnedValueSet::Stable { dfa, .. } => Proposal::Found(dfa),
            LearnedValueSet::Refuted { at, .. } => Proposal::Nothing(format!(
                "two boxes gave the same automaton, but the table of entries up to {top} differs at {at:?}"
            )),
            LearnedValueSet::Unstable { states } => {
                let s: Vec<String> = states
                    .iter()
                    .map(|(b, s)| match s {
                        Some(s) => format!("2^{b}: {s}"),
                        None => format!("2^{b}: -"),
                    })
                    .collect();
                Proposal::Nothing(format!(
                    "no automaton settles on the boxes up to 2^{} (states per box: {})",
                    self.bits - 1,
                    s.join(", ")
                ))
            }
        })
    }

    fn check(&mut self, _dfa: &Dfa, top: u64, _run: &Run, _d: &mut Discovery) -> Result<Checked> {
        // Learning checked it on the whole table.
        Ok(Checked::Holds(top))
    }

    fn record(&self, dfa: &Dfa, _read: u64, checked: u64, d: &mut Discovery) {
        d.box_max = Some(checked);
        d.states = Some(dfa.states());
        d.walnut = Some(nimlab_prove::walnut::to_walnut(dfa));
        d.rule = readable(dfa).map(|r| r.text(3));
    }

    fn prove(&mut self, dfa: &Dfa, run: &Run, d: &mut Discovery) -> Result<Proof> {
        let budget = Budget::new(run.start + run.opts.timeout, 4_000_000);
        let mut sets = ValueSets::new(self.moves, &budget).map_err(stop)?;
        let t = Instant::now();
        Ok(match sets.prove_next(dfa, &budget) {
            Ok(None) => {
                d.prover = Some("automata");
                d.proof = Some(json!({
                    "method": "automata",
                    "equation": "S = the positions of the domain with no option in S",
                    "seconds": t.elapsed().as_secs_f64(),
                }));
                Proof::Proved
            }
            Ok(Some(w)) => {
                let table = self.table.as_ref().expect("tabulated");
                let at = refute(table, dfa, 0, &w);
                d.counterexample = Some(match &at {
                    Some((x, g, member)) => {
                        json!({"position": x, "grundy": g, "in_set": member, "checked": "exact table"})
                    }
                    None => json!({"word": w.iter().map(|v| v.to_string()).collect::<Vec<_>>()}),
                });
                Proof::Refuted {
                    what: "the automaton equals the P-set of the box but not beyond it (the equation fails)"
                        .into(),
                    // A position of the exact table it misclassifies lies inside the box.
                    top: at.map(|(x, ..)| x.iter().copied().max().map_or(0, u128::from)),
                }
            }
            Err(Stop::Limit(why)) => Proof::Unknown(format!("the proof did not finish: {why}")),
            Err(e) => return Err(stop(e)),
        })
    }
}
