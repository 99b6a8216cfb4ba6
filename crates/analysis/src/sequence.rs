//! The values of single heaps 0..=N of a one-heap game (octal and hexadecimal codes, subtraction
//! games, Grundy's game) with the period found, the rare values and the method, for every front end:
//! `nimlab sequence` and `nimlab plot --sequence`, Python's `nimlab.sequence`, the web's
//! `/api/sequence`. The values come from [`OctalGame::sequence_by`] (the mex over each heap's
//! options, or the sparse-space method), the period from [`OctalGame::periodicity`]; this module
//! checks the request, runs them and says what was found, in words and in JSON. With a store,
//! [`crate::kept_sequence`] reads the values kept there and extends them.

use nimlab_core::arg::{Mention, Spelling};
use nimlab_core::{Arg, Error, Game, Refusal, Result};
use nimlab_games::octal::{Method, OctalGame, Periodicity, Ran, MAX_SEQUENCE};
use nimlab_games::sparse::{choose_mask, rare_heaps};
use nimlab_tables::sequences::SequenceEntry;
use serde_json::{json, Value};
use std::time::Instant;

/// The one-heap game named `text`; any other game is refused.
pub fn one_heap(text: &str) -> Result<OctalGame> {
    let boxed = nimlab_games::parse_game(text)?;
    match boxed.downcast_ref::<OctalGame>() {
        Some(g) => Ok(g.clone()),
        None => Err(Error::Unsupported(format!(
            "{} is not a one-heap game: sequences are of octal(CODE), subtraction(S) or grundy",
            boxed.id()
        ))),
    }
}

/// What is asked: the values of heaps 0..=`max`, by `method`, with the sparse-space `mask` (else
/// chosen from the values), within `limit` option visits.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    pub max: u64,
    pub method: Method,
    pub mask: Option<u32>,
    pub limit: f64,
}

impl Request {
    /// Heaps 0..=`max` by the method that fits the game, within `limit`.
    pub fn new(max: u64, limit: f64) -> Request {
        Request {
            max,
            method: Method::Auto,
            mask: None,
            limit,
        }
    }
}

/// The values found and what they show.
#[derive(Debug, Clone)]
pub struct Values {
    pub game: OctalGame,
    pub max: u64,
    /// g(0..=max).
    pub values: Vec<u32>,
    /// The method that ran (`None`: every value was read from the store).
    pub ran: Option<Ran>,
    /// Where the values come from: computed, extended from the store's prefix, or read from it.
    pub origin: Origin,
    /// The period seen, and its proof, if any.
    pub periodicity: Option<Periodicity>,
    /// For games whose moves leave at most two heaps: the mask (the run's, else chosen from the
    /// values) and the heaps whose values are rare for it.
    pub rare: Option<(u32, Vec<u64>)>,
    /// The largest value and the first heap that has it.
    pub largest: (u32, usize),
    /// Seconds the computation took.
    pub seconds: f64,
}

/// Where the values of a [`Values`] come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    /// Computed from heap 0; kept in the store as its sequence `id`, when there is one.
    Computed { id: Option<i64> },
    /// Computed from the store's values g(0..=from), which were not computed again.
    Extended { from: u64, id: Option<i64> },
    /// Read from the store (its sequence holds g(0..=n), n >= max).
    Stored(SequenceEntry),
}

/// Refuses a request beyond [`MAX_SEQUENCE`] heaps or, for the plain mex, beyond its option visits
/// `limit`, before anything is computed.
pub fn check(game: &OctalGame, req: &Request) -> Result<()> {
    check_from(game, req, 0)
}

/// [`check`] for a run that starts from the values of heaps 0..`from` (the plain mex's visits are
/// those of the heaps from `from` on).
pub fn check_from(game: &OctalGame, req: &Request, from: u64) -> Result<()> {
    if req.max > MAX_SEQUENCE {
        return Err(Error::too_large(
            Refusal::default()
                .value(Arg::Max, req.max)
                .text(format!(
                    " would hold {} MiB of values; at most ",
                    OctalGame::sequence_bytes(req.max) >> 20
                ))
                .value(Arg::Max, MAX_SEQUENCE)
                .text(" (1024 MiB)"),
        ));
    }
    let sparse = match req.method {
        Method::Plain => false,
        Method::Auto => game.sparse_refusal().is_none(),
        Method::Sparse => match game.sparse_refusal() {
            Some(why) => return Err(Error::Unsupported(why)),
            None => true,
        },
    };
    let work = match from.checked_sub(1) {
        Some(last) => game.sequence_work(req.max) - game.sequence_work(last),
        None => game.sequence_work(req.max),
    };
    if !sparse && work > req.limit {
        return Err(Error::too_large(
            Refusal::new(format!("{} up to ", game.id()))
                .value(Arg::Max, req.max)
                .text(format!(" visits about {work:.1e} options (over "))
                .value(Arg::Limit, format!("{:.1e}", req.limit))
                .text("); lower ")
                .name(Arg::Max)
                .text(" or pass ")
                .value(Arg::Limit, nimlab_core::solver::limit_above(work)),
        ));
    }
    Ok(())
}

/// The values of heaps 0..=`req.max` of `game`, their period and rare values ([`check`]ed first).
/// Polls the thread's cancel scope ([`nimlab_core::interrupt`]).
pub fn compute(game: &OctalGame, req: &Request) -> Result<Values> {
    check(game, req)?;
    let start = Instant::now();
    let seq = game.sequence_by(req.max, req.method, req.mask, req.limit)?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(finish(
        game,
        req.max,
        seq.values,
        Some(seq.ran),
        Origin::Computed { id: None },
        seconds,
    ))
}

/// The values g(0..=max) with what they show: the period, the rare values, the largest value.
pub(crate) fn finish(
    game: &OctalGame,
    max: u64,
    values: Vec<u32>,
    ran: Option<Ran>,
    origin: Origin,
    seconds: f64,
) -> Values {
    let periodicity = game.periodicity(&values);
    // Rare values: for games whose moves leave at most two heaps, with the run's mask (else the
    // mask chosen from all the values).
    let rare_mask = match &ran {
        Some(Ran::Sparse(r)) => Some(r.mask),
        _ => (game.most_parts() == 2).then(|| choose_mask(&values)),
    };
    let rare = rare_mask.map(|m| (m, rare_heaps(&values, m)));
    let largest =
        values.iter().enumerate().fold(
            (0u32, 0usize),
            |(b, at), (n, &v)| if v > b { (v, n) } else { (b, at) },
        );
    Values {
        game: game.clone(),
        max,
        values,
        ran,
        origin,
        periodicity,
        rare,
        largest,
        seconds,
    }
}

impl Values {
    /// The JSON object of `nimlab sequence --json`.
    pub fn to_json(&self) -> Value {
        let g = &self.values;
        json!({
            "game": self.game.id(),
            "name": self.game.common_name(),
            "code": self.game.code(),
            "t": self.game.t(),
            "splits": self.game.splits(),
            "max": self.max,
            "method": self.method_json(),
            "largest": {"value": self.largest.0, "at": self.largest.1},
            "rare": self.rare.as_ref().map(|(m, heaps)| json!({
                "mask": m,
                "count": heaps.len(),
                "last": heaps.last(),
                "heaps": heaps.iter().map(|&n| json!([n, g[n as usize]])).collect::<Vec<_>>(),
            })),
            "values": g,
            "periodicity": self.periodicity.as_ref().map(periodicity_json),
            "seconds": self.seconds,
            "store": self.store_json(),
        })
    }

    /// The store's part, as JSON: `answered` (every value read from the store), `id`, `n` and
    /// `complete` of the stored sequence read, `extended_from` (the last heap of the stored prefix
    /// a computation started from), null where they do not apply.
    pub fn store_json(&self) -> Value {
        match &self.origin {
            Origin::Stored(e) => json!({
                "answered": true, "id": e.id, "n": e.n, "complete": e.complete,
                "extended_from": null,
            }),
            Origin::Computed { id } => json!({
                "answered": false, "id": id, "n": null, "complete": null, "extended_from": null,
            }),
            Origin::Extended { from, id } => json!({
                "answered": false, "id": id, "n": null, "complete": null, "extended_from": from,
            }),
        }
    }

    /// Where the values come from, in words, when the store had a part: "from the store: ..." or
    /// "extended from the store's g(0..=n) ...".
    pub fn origin_words(&self) -> Option<String> {
        match &self.origin {
            Origin::Computed { .. } => None,
            Origin::Extended { from, .. } => Some(format!(
                "extended from the store's g(0..={from}) (not computed again)"
            )),
            Origin::Stored(e) => Some(format!(
                "from the store: g(0..={}) computed earlier by {} (stored sequence #{}: g(0..={}){})",
                self.max,
                stored_method_words(&e.method),
                e.id,
                e.n,
                if e.complete { "" } else { ", a run not finished" }
            )),
        }
    }

    /// The method that ran, as JSON: `name` (`plain` or `sparse`) and, for the sparse-space method,
    /// its mask, whether it was given, the heap it was chosen from, where the plain mex took over
    /// and the option values visited.
    pub fn method_json(&self) -> Value {
        match &self.ran {
            None => json!({
                "name": "store",
                "computed_by": match &self.origin {
                    Origin::Stored(e) => Some(e.method.as_str()),
                    _ => None,
                },
            }),
            Some(Ran::Plain) => json!({"name": "plain"}),
            Some(Ran::Sparse(r)) => json!({
                "name": "sparse",
                "mask": r.mask,
                "mask_given": r.mask_given,
                "mask_from": r.mask_from,
                "plain_from": r.plain_from,
                "visits": r.visits,
            }),
        }
    }

    /// The method that ran, in words.
    pub fn method_words(&self) -> String {
        let rare = self.rare.as_ref().map_or(0, |(_, h)| h.len());
        match &self.ran {
            None => match &self.origin {
                Origin::Stored(e) => format!("the store ({})", stored_method_words(&e.method)),
                _ => "the store".into(),
            },
            Some(Ran::Plain) => "plain mex".into(),
            Some(Ran::Sparse(r)) => {
                let how = if r.mask_given {
                    "given"
                } else {
                    "chosen from the values"
                };
                match r.plain_from {
                    None => format!(
                        "sparse space (mask {:#b} = {}, {rare} rare values; mask {how}; {} option values visited)",
                        r.mask, r.mask, r.visits
                    ),
                    Some(from) => format!(
                        "sparse space (mask {:#b} = {}, mask {how}) up to n = {}, then plain mex (the rare values were not rare: {rare} rare values); {} option values visited",
                        r.mask,
                        r.mask,
                        from - 1,
                        r.visits
                    ),
                }
            }
        }
    }

    /// One line: the period, from where, and whether it is proved (or that none was found); the
    /// larger N a proof needs is named by `spelling`'s `max`.
    pub fn period_words(&self, spelling: &dyn Spelling) -> String {
        let Some(p) = &self.periodicity else {
            return format!("no period found up to n = {} (evidence)", self.max);
        };
        let last = if p.preperiod > 0 {
            format!("; last exceptional value at n = {}", p.preperiod - 1)
        } else {
            String::new()
        };
        let what = if p.saltus == 0 {
            format!("period {} from n = {}{last}", p.period, p.preperiod)
        } else {
            format!(
                "arithmetic period {} with saltus {} (g(n+{}) = g(n) + {}) from n = {}",
                p.period, p.saltus, p.period, p.saltus, p.preperiod
            )
        };
        match (p.proof, p.proof_needs) {
            (Some(proof), _) => format!(
                "{what}: proved periodic ({}; checked up to n = {})",
                proof.name(),
                self.game
                    .proof_needs(proof, p.preperiod, p.period)
                    .unwrap_or(p.preperiod + p.period)
            ),
            (None, Some(need)) => format!(
                "{what}: period seen in the computed prefix (evidence); a proof needs {}",
                spelling.spell(Arg::Max, &Mention::Value(need.to_string()))
            ),
            (None, None) => format!("{what}: period seen in the computed prefix (evidence)"),
        }
    }

    /// The period in a few words, for a picture's caption: `period 12 from 71 (proved)`, or `no
    /// period up to N`.
    pub fn period_caption(&self) -> String {
        match &self.periodicity {
            Some(p) => {
                let how = if p.proof.is_some() {
                    "proved"
                } else {
                    "evidence"
                };
                if p.saltus == 0 {
                    format!("period {} from {} ({how})", p.period, p.preperiod)
                } else {
                    format!(
                        "arithmetic period {} saltus {} from {} ({how})",
                        p.period, p.saltus, p.preperiod
                    )
                }
            }
            None => format!("no period up to {}", self.max),
        }
    }
}

/// A stored method (`sparse`, `plain`, `sparse+plain`) in words: "the sparse-space method", "the
/// plain mex", both joined by "and".
pub fn stored_method_words(m: &str) -> String {
    let words: Vec<&str> = m
        .split('+')
        .map(|p| match p {
            "sparse" => "the sparse-space method",
            "plain" => "the plain mex",
            other => other,
        })
        .collect();
    words.join(" and ")
}

/// The period's JSON object: `preperiod`, `period`, `saltus`, `last_exceptional`, `status`
/// (`proved` or `evidence`), `proof`, `proof_needs_max`.
pub fn periodicity_json(p: &Periodicity) -> Value {
    json!({
        "preperiod": p.preperiod,
        "period": p.period,
        "saltus": p.saltus,
        "last_exceptional": p.preperiod.checked_sub(1),
        "status": if p.proof.is_some() { "proved" } else { "evidence" },
        "proof": p.proof.map(|x| x.id()),
        "proof_needs_max": p.proof_needs,
    })
}
