//! The answer of [`crate::discover`]: the verdict, the description found (families, an automaton
//! or a set of P-totals), the boxes and tables it was checked on, the last proof's report, where it
//! was written and saved; its JSON ([`Discovery::to_json`]) and text ([`Discovery::text`]).

use crate::automaton;
use nimlab_core::arg::{CommandLine, Mention, Spelling};
use nimlab_core::{Arg, Error, Play, Result};
use serde_json::{json, Value};

/// The verdict of a discovery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiscoveryVerdict {
    /// The characterization is the P-set, for every stack size.
    Proved,
    /// It equals the P-set on the box, and the proof was refuted beyond the largest box allowed, or
    /// gave no answer.
    Conjecture,
    /// No description was found within the limits.
    None,
}

impl DiscoveryVerdict {
    pub fn name(self) -> &'static str {
        match self {
            DiscoveryVerdict::Proved => "proved",
            DiscoveryVerdict::Conjecture => "conjecture",
            DiscoveryVerdict::None => "none",
        }
    }
}

/// One family of the answer.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FamilyOut {
    pub name: String,
    pub length: usize,
    pub relations: Vec<String>,
}

/// One table the run used.
#[derive(Debug, Clone)]
pub struct TableUse {
    pub max: u64,
    pub p_positions: usize,
    pub source: &'static str,
}

/// The answer of [`crate::discover`].
#[derive(Debug, Clone)]
pub struct Discovery {
    pub game: String,
    /// The play convention the characterization is about.
    pub play: Play,
    pub verdict: DiscoveryVerdict,
    /// `families`, or `automaton` (the automaton route; SCN: one automaton per circle length).
    pub format: nimlab_prove::CharacterizationFormat,
    /// The prover that decided (`smt`), if one ran.
    pub prover: Option<&'static str>,
    /// The smallest entry of the box.
    pub box_min: u64,
    /// The largest entry of the box on which the families equal the P-set exactly (checked against
    /// that box's table), when a description was found.
    pub box_max: Option<u64>,
    pub seconds: f64,
    pub families: Vec<FamilyOut>,
    /// The families file (TOML, the format of `nimlab prove --families`), when a description was found.
    pub toml: Option<String>,
    /// The automaton (Walnut's text format, `nimlab prove --automaton`), when the automaton route
    /// found the description (`format` is then `automaton`).
    pub walnut: Option<String>,
    /// The automaton's states (automaton route; SCN: the sum over the circle lengths).
    pub states: Option<usize>,
    /// The automaton as a rule a person can read (XOR relations, column sums), when it is one.
    pub rule: Option<String>,
    /// SCN's automaton route: the states learned at each circle length, box by box.
    pub lengths: Vec<automaton::LengthLearned>,
    /// The prover's report of the last proof attempt.
    pub proof: Option<Value>,
    /// The last re-checked counterexample of the prover.
    pub counterexample: Option<Value>,
    /// Why the verdict is not `proved`.
    pub reason: Option<String>,
    /// The bound whose larger value may decide what this run could not (the description was
    /// refuted, or nothing settled, beyond the largest box allowed); each front end spells it.
    pub raise: Option<Arg>,
    /// The tables used, in order.
    pub tables: Vec<TableUse>,
    /// True when the time limit stopped the run before any description was found.
    pub out_of_time: bool,
    /// The redistribution chip games: the description of T, the totals of the P-positions (the box
    /// is then of totals, `box_min` = k to `box_max`, and `toml` holds the chip families file).
    pub totals: Option<nimlab_prove::chips::totals::Totals>,
    /// The redistribution chip games: how far T was computed and compared ([`crate::chips::Check`]).
    pub totals_check: Option<crate::chips::Check>,
    /// Where the description was written ([`crate::Options::out`]).
    pub file: Option<String>,
    /// The store's id of the characterization, when it was proved and saved there
    /// ([`crate::Options::store`]).
    pub saved: Option<i64>,
}

impl Discovery {
    /// A run that has found nothing yet: verdict none, box starting at `box_min`.
    pub(crate) fn empty(game: String, play: Play, box_min: u64) -> Discovery {
        Discovery {
            game,
            play,
            verdict: DiscoveryVerdict::None,
            format: nimlab_prove::CharacterizationFormat::Families,
            prover: None,
            box_min,
            box_max: None,
            seconds: 0.0,
            families: Vec::new(),
            toml: None,
            walnut: None,
            rule: None,
            states: None,
            lengths: Vec::new(),
            proof: None,
            counterexample: None,
            reason: None,
            raise: None,
            tables: Vec::new(),
            out_of_time: false,
            totals: None,
            totals_check: None,
            file: None,
            saved: None,
        }
    }

    /// Exit status of `nimlab discover`: 0 proved, 1 conjecture or none, 3 no answer within the
    /// limits (the time limit reached before any description was found).
    pub fn exit_code(&self) -> u8 {
        match self.verdict {
            DiscoveryVerdict::Proved => 0,
            DiscoveryVerdict::None if self.out_of_time => 3,
            _ => 1,
        }
    }

    /// Why the verdict is not `proved`, with the bound to raise spelled by a front end.
    pub fn reason_spelled(&self, spelling: &dyn Spelling) -> Option<String> {
        let reason = self.reason.as_deref()?;
        Some(match self.raise {
            Some(arg) => format!("{reason} (raise {})", spelling.spell(arg, &Mention::Given)),
            None => reason.to_string(),
        })
    }

    /// The JSON object of `nimlab discover --json`.
    pub fn to_json(&self) -> Value {
        self.to_json_spelled(&CommandLine)
    }

    /// [`Discovery::to_json`] with the options spelled by a front end.
    pub fn to_json_spelled(&self, spelling: &dyn Spelling) -> Value {
        json!({
            "game": self.game,
            "play": if self.play == Play::Misere { "misere" } else { "normal" },
            "verdict": self.verdict.name(),
            // A "none" verdict has no description, so no format.
            "format": (self.verdict != DiscoveryVerdict::None).then(|| self.format.name()),
            "file": self.file,
            "saved": self.saved.map(|id| format!("proved:{id}")),
            "prover": self.prover,
            "box": self.box_max.map(|h| json!({"min": self.box_min, "max": h})),
            "seconds": (self.seconds * 1000.0).round() / 1000.0,
            "families": self.families,
            "states": self.states,
            "rule": self.rule,
            "lengths": (!self.lengths.is_empty()).then(|| self.lengths.iter().map(|l| l.to_json()).collect::<Vec<_>>()),
            "counterexample": self.counterexample,
            "reason": self.reason_spelled(spelling),
            "tables": self.tables.iter().map(|t| json!({
                "max": t.max, "p_positions": t.p_positions, "source": t.source,
            })).collect::<Vec<_>>(),
            "proof": self.proof,
            "totals": self.totals.as_ref().map(|t| json!({
                "threshold": t.threshold,
                "period": t.period,
                "residues": t.residues,
                "exceptions": t.exceptions,
                "words": t.words(),
            })),
            "totals_check": self.totals_check.as_ref().map(crate::chips::Check::to_json),
        })
    }
}

impl Discovery {
    /// The characterization when it is proved for every stack size: its format (`families` or
    /// `automaton`), its text (the file `write` writes) and the prover that proved it.
    pub fn proved(&self) -> Option<nimlab_prove::Proven<'_>> {
        // A chip families file is not a characterization the store reads.
        if self.verdict != DiscoveryVerdict::Proved || self.totals.is_some() {
            return None;
        }
        let text = self.toml.as_deref().or(self.walnut.as_deref())?;
        Some(nimlab_prove::Proven {
            format: self.format,
            text,
            method: self.prover?,
        })
    }

    /// Writes the families file to `out` (when there is one to write); the path written.
    pub fn write(&self, out: Option<&std::path::Path>) -> Result<Option<String>> {
        match (out, self.toml.as_ref().or(self.walnut.as_ref())) {
            (Some(path), Some(text)) => {
                std::fs::write(path, text)
                    .map_err(|e| Error::io(format!("writing {}", path.display()), e))?;
                Ok(Some(path.display().to_string()))
            }
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod json_tests {
    use super::*;

    /// A "none" verdict describes no set, so its JSON has no format.
    #[test]
    fn a_none_verdict_has_no_format() {
        let mut d = Discovery::empty("CN(4,2)".into(), Play::Normal, 0);
        d.reason = Some("no description found".into());
        assert!(d.to_json()["format"].is_null());
        d.verdict = DiscoveryVerdict::Conjecture;
        assert_eq!(d.to_json()["format"], "families");
    }
}
