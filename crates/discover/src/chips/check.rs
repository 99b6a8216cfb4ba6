//! How far a description of T was checked ([`Check`]): the range of totals T was computed and
//! compared on, what stopped it, and the description it refuted ([`Refuted`]), in JSON and words.

use super::*;

/// How far the cheap check (step 4 of the module's doc) computed T and compared it with the
/// descriptions read from it.
#[derive(Debug, Clone)]
pub struct Check {
    /// T was computed exactly on the totals `from..=to` (`from` = k).
    pub from: u64,
    pub to: u64,
    /// What ended the extension: `totals` ([`CHECK_TOTALS`] reached, or T already computed that
    /// far), `seconds` ([`CHECK_SECONDS`]) or `time limit` (the run's).
    pub stopped_by: &'static str,
    /// Wall seconds the extension took.
    pub seconds: f64,
    /// The first description the check refuted (the one the box alone would have given).
    pub refuted: Option<Refuted>,
}

/// A description of T that equalled T on its box and failed the cheap check.
#[derive(Debug, Clone)]
pub struct Refuted {
    pub totals: Totals,
    /// It was read from the totals `k..=read` and equalled T on `k..=checked`.
    pub read: u64,
    pub checked: u64,
    /// The least total where it and T differ, and whether that total is in T.
    pub fails_at: u64,
    pub fails_at_in_t: bool,
    /// The first [`DIFFERENCES_SHOWN`] totals (up to the check's end) where it and T differ, and
    /// whether there are more.
    pub differences: Vec<u64>,
    pub more: bool,
    /// The least position it classifies wrongly (the least total, then the least sorted tuple),
    /// with whether it is P; `None` when none was found within the check's totals and time.
    pub position: Option<(Vec<u64>, bool)>,
}

/// How many totals where a refuted description and T differ are reported.
pub const DIFFERENCES_SHOWN: usize = 12;

/// The periodic part of a description in words: "every total from 175 on", "from 23 on, the
/// totals n with n mod 12 in {0, 1}", with the number of exceptions below its threshold.
pub fn tail_words(t: &Totals) -> String {
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let tail = if t.residues.len() as u64 == t.period {
        format!("every total from {} on", t.threshold)
    } else if t.residues.is_empty() {
        format!("no total from {} on", t.threshold)
    } else {
        format!(
            "from {} on, the totals n with n mod {} in {{{}}}",
            t.threshold,
            t.period,
            list(&t.residues)
        )
    };
    match t.exceptions.len() {
        0 => tail,
        e if e <= 6 => format!("{tail}; below it {{{}}}", list(&t.exceptions)),
        e => format!("{tail}; below it {e} totals"),
    }
}

/// A description in words for the progress lines: [`Totals::words`], or [`tail_words`] when that
/// is long.
pub(super) fn short_words(t: &Totals) -> String {
    let words = t.words();
    if words.chars().count() <= 200 {
        words
    } else {
        tail_words(t)
    }
}

impl Check {
    /// The object `totals_check` of `discover --json`.
    pub fn to_json(&self) -> Value {
        json!({
            "min": self.from,
            "max": self.to,
            "limit": {"totals": CHECK_TOTALS, "seconds": CHECK_SECONDS.as_secs_f64()},
            "stopped_by": self.stopped_by,
            "seconds": (self.seconds * 1000.0).round() / 1000.0,
            "refuted": self.refuted.as_ref().map(|r| json!({
                "words": r.totals.words(),
                "threshold": r.totals.threshold,
                "period": r.totals.period,
                "residues": r.totals.residues,
                "exceptions": r.totals.exceptions,
                "read": {"min": self.from, "max": r.read},
                "checked": {"min": self.from, "max": r.checked},
                "fails_at": r.fails_at,
                "fails_at_in_t": r.fails_at_in_t,
                "differences": r.differences,
                "more_differences": r.more,
                "position": r.position.as_ref().map(|(y, _)| y),
                "position_is_p": r.position.as_ref().map(|(_, p)| p),
            })),
        })
    }

    /// The lines `discover` prints about the check.
    pub fn text(&self) -> String {
        let mut out = format!(
            "T computed exactly and compared on the totals {}..{} (the check stops at {} chips or after {} s, here: {}; {:.2} s)\n",
            self.from,
            self.to,
            CHECK_TOTALS,
            CHECK_SECONDS.as_secs(),
            self.stopped_by,
            self.seconds
        );
        if let Some(r) = &self.refuted {
            let list = r
                .differences
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            out.push_str(&format!(
                "refuted by the check: the description read from the totals {}..{} ({}), equal to T on {}..{}, fails at the total {} ({} in T); T and it differ at {list}{}",
                self.from,
                r.read,
                tail_words(&r.totals),
                self.from,
                r.checked,
                r.fails_at,
                if r.fails_at_in_t { "it is" } else { "it is not" },
                if r.more { ", …" } else { "" }
            ));
            match &r.position {
                Some((y, is_p)) => out.push_str(&format!(
                    "; the least position it classifies wrongly is {}, {}\n",
                    nimlab_core::position::format_tuple(y),
                    if *is_p {
                        "a P-position outside the set it gives"
                    } else {
                        "an N-position inside the set it gives"
                    }
                )),
                None => out.push_str(
                    "; no position it classifies wrongly was found within the check's totals and time\n",
                ),
            }
        }
        out
    }
}
