//! The one entry of the prover: a typed [`ProveRequest`] (the game parsed once, where the claimed
//! set comes from, the claim, the play, the method and what to emit) and [`prove`], which returns
//! one [`ProofResult`] that knows its claim, its verdict, its automata's states, its readable rule
//! and the files it wrote; text and JSON are rendered from it ([`ProofResult::text`],
//! [`ProofResult::to_json`]). Front ends (the command line, Python, the web) only translate their
//! options into a request and print the result.
//!
//! Every refusal of a request names its options as typed pieces ([`nimlab_core::Arg`]), so that
//! each front end spells them its own way.
//!
//! The routes (`request/routes.rs`): a box game's families (a registry result or a families file) by SMT or
//! automata; a box game's automaton file; a chip game's registry result (SMT, bit-vectors or
//! automata) or chip families file (its P-totals, by SMT); Nim for every number of heaps (Bouton, by
//! an induction whose lemmas the automata decide); the Grundy value sets of ET(3) and ENTROPY(3).

mod render;
mod routes;

pub use render::says;

use crate::chips::ChipGame;
use crate::conjecture::Ruleset;
use crate::heaps::HeapsReport;
use crate::prover::Prover;
use crate::{Report, Status};
use nimlab_core::{Arg, Error, Play, Refusal, Result};
use std::path::PathBuf;
use std::time::Duration;

/// The game of a request, parsed once.
pub enum ProofGame {
    /// A game of stacks with a fixed number of them: CN, SCN, a complex (nim and moore(k) with a
    /// number of heaps are read as these), ECN.
    Stacks(Ruleset),
    /// One of Ferguson's chip games: a fixed number of boxes of chips.
    Chips(ChipGame),
    /// Nim with any number of heaps.
    NimAnyHeaps,
}

impl ProofGame {
    /// Reads `text` (with `heaps` for nim and moore(k)); a game no prover handles is refused.
    pub fn parse(text: &str, heaps: Option<usize>) -> Result<ProofGame> {
        if let Some(chip) = ChipGame::parse(text)? {
            if heaps.is_some() {
                return Err(Error::refused(Refusal::new("").name(Arg::Heaps).text(
                    format!(
                        " is for nim and moore(k); {} has its number of boxes in its name",
                        chip.id()
                    ),
                )));
            }
            return Ok(ProofGame::Chips(chip));
        }
        if heaps.is_none() && text.trim().eq_ignore_ascii_case("nim") {
            return Ok(ProofGame::NimAnyHeaps);
        }
        let name = game_name(text, heaps)?;
        let parsed = nimlab_games::parse_game(&name)?;
        match Ruleset::of(parsed.as_ref()) {
            Some(r) => Ok(ProofGame::Stacks(r)),
            None => Err(not_covered("prove", text, parsed.as_ref())),
        }
    }

    /// The game's name as the prover reads it (`CN(3,1)` for nim on 3 heaps).
    pub fn id(&self) -> String {
        match self {
            ProofGame::Stacks(r) => r.id(),
            ProofGame::Chips(c) => c.id(),
            ProofGame::NimAnyHeaps => "nim".into(),
        }
    }

    /// Refuses, before any file is read, a source the game cannot take: nim with any number of heaps
    /// is proved from a registry result only (`source`: the option the claim comes from).
    pub fn takes(&self, source: Arg) -> Result<()> {
        match self {
            ProofGame::NimAnyHeaps if matches!(source, Arg::Families | Arg::Automaton) => {
                Err(Error::refused(
                    Refusal::new("nim takes any number of heaps: give ").given(Arg::Heaps),
                ))
            }
            _ => Ok(()),
        }
    }

    /// What one entry is: "stack" (its size is a stack size) or "box" (of chips).
    pub fn unit(&self) -> &'static str {
        match self {
            ProofGame::Chips(_) => "box",
            _ => "stack",
        }
    }
}

/// The game name the provers work on: nim and moore(k) with a number of heaps become the game of
/// that many heaps (`CN(N,1)`, the complex of the k-sets of N heaps); a number of heaps with any
/// other game is refused.
pub fn game_name(game: &str, heaps: Option<usize>) -> Result<String> {
    let g = game.trim().to_ascii_lowercase();
    let moore = g
        .strip_prefix("moore(")
        .and_then(|t| t.strip_suffix(')'))
        .and_then(|t| t.trim().parse::<usize>().ok());
    match (heaps, g.as_str(), moore) {
        (None, "nim", _) | (None, _, Some(_)) => Err(Error::refused(
            Refusal::new(format!("{game} takes any number of heaps: give ")).given(Arg::Heaps),
        )),
        (Some(n), "nim", _) if n >= 1 => Ok(format!("CN({n},1)")),
        (Some(n), _, Some(k)) if (2..=12).contains(&n) && (1..n).contains(&k) => {
            let mut facets = Vec::new();
            k_subsets(n, k, 0, &mut Vec::new(), &mut facets);
            Ok(format!("simplicial({})", facets.join(",")))
        }
        (Some(n), _, _) if n == 0 || g == "nim" || moore.is_some() => {
            Err(Error::refused(Refusal::new("").value(Arg::Heaps, n).text(
                format!(" does not fit {game} (nim: 1 or more heaps; moore(k): k < N <= 12)"),
            )))
        }
        (Some(_), _, _) => Err(Error::refused(Refusal::new("").name(Arg::Heaps).text(
            format!(" is for nim and moore(k); {game} has its number of stacks in its name"),
        ))),
        (None, _, _) => Ok(game.to_string()),
    }
}

/// The k-subsets of the heaps `from+1..=n`, each written as `{i,j,…}` (heaps numbered from 1).
fn k_subsets(n: usize, k: usize, from: usize, cur: &mut Vec<usize>, out: &mut Vec<String>) {
    if cur.len() == k {
        let items: Vec<String> = cur.iter().map(|i| (i + 1).to_string()).collect();
        out.push(format!("{{{}}}", items.join(",")));
        return;
    }
    for i in from..n {
        cur.push(i);
        k_subsets(n, k, i + 1, cur, out);
        cur.pop();
    }
}

/// The refusal of `prove` (or `discover`: `cmd`) for a game it does not cover: it names the commands
/// that can do the job.
pub fn not_covered(cmd: &str, name: &str, game: &dyn nimlab_core::Game) -> Error {
    let name = name.trim();
    let name = if name.contains(['(', ' ', '{', '[']) {
        format!("'{name}'")
    } else {
        name.to_string()
    };
    if game.downcast_ref::<nimlab_games::MooreNim>().is_some() {
        return Error::refused(
            Refusal::new(format!(
                "{cmd} works on a fixed number of stacks: {name} on N heaps is the complex of its k-sets; give "
            ))
            .given(Arg::Heaps),
        );
    }
    // The options that bound a table of the game.
    let bound = |r: Refusal| match game.table_bound() {
        nimlab_core::TableBound::TotalChips => r.given(Arg::MaxSum),
        nimlab_core::TableBound::Box { heaps: true } => {
            r.given(Arg::Heaps).text(" ").given(Arg::Max)
        }
        _ => r.given(Arg::Max),
    };
    let chips = if cmd == "prove" {
        " and Ferguson's chip games"
    } else {
        ""
    };
    let r = Refusal::new(format!(
        "{cmd} covers CN(n,k), SCN(n,k), nim and moore(k) (with a number of heaps), simplicial(...), ECN(m,S,k){chips}, not {}: `nimlab patterns {name} ",
        game.id()
    ));
    let r = bound(r).text(format!(
        "` groups the P-positions of a box by shape, and `nimlab verify {name} "
    ));
    let r = bound(r)
        .text(" ")
        .given(Arg::Conjecture)
        .text("` (or ")
        .given(Arg::Theorem)
        .text(") checks a characterization on that box");
    Error::refused(r)
}

/// Where the claimed set comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A result of the registry, by id.
    Registry(String),
    /// A families file (TOML), or for a redistribution chip game a chip families file (its
    /// P-totals): the text and the name it is shown by.
    Families { text: String, name: String },
    /// An automaton in Walnut's text format (SCN: one section per circle length).
    Automaton { text: String, name: String },
    /// The sets of the positions of Grundy value 0, …, `up_to` of ET(3) or ENTROPY(3), learned from
    /// an exact table of entries below 2^`table_bits`.
    GrundyValues { up_to: u16, table_bits: u32 },
}

impl Source {
    /// The option a front end takes this source from.
    pub fn arg(&self) -> Arg {
        match self {
            Source::Registry(_) => Arg::Theorem,
            Source::Families { .. } => Arg::Families,
            Source::Automaton { .. } => Arg::Automaton,
            Source::GrundyValues { .. } => Arg::GrundyValue,
        }
    }
}

/// One request to the prover.
pub struct ProveRequest {
    /// The game as the user wrote it.
    pub game_text: String,
    pub game: ProofGame,
    pub source: Source,
    pub play: Play,
    /// Asked to prove only that the set lies inside the P-set (a partial result always is).
    pub subset: bool,
    /// Prove for entries below 2^w only (bit-vector arithmetic).
    pub bits: Option<u32>,
    /// How the conditions are decided.
    pub prover: Prover,
    /// The time limit: per query for SMT, for the whole run for automata.
    pub timeout: Duration,
    /// Where to write a certificate.
    pub emit: Option<PathBuf>,
    /// The characterization is to be saved (checked here: only what can be saved may ask).
    pub save: bool,
}

impl ProveRequest {
    /// A request for `game` (with `heaps` for nim and moore(k)), the claim from `source`, in normal
    /// play, by z3 with a 120-second limit per query; change the fields for the rest.
    pub fn new(game: &str, heaps: Option<usize>, source: Source) -> Result<ProveRequest> {
        Ok(ProveRequest::of(
            game,
            ProofGame::parse(game, heaps)?,
            source,
        ))
    }

    /// A request for the game `parsed` (as the user wrote it: `text`), with the defaults of [`new`](Self::new).
    pub fn of(text: &str, parsed: ProofGame, source: Source) -> ProveRequest {
        let timeout = Duration::from_secs(120);
        ProveRequest {
            game_text: text.trim().to_string(),
            game: parsed,
            source,
            play: Play::Normal,
            subset: false,
            bits: None,
            prover: Prover::Smt(vec![crate::SmtSolver::new("z3", timeout)]),
            timeout,
            emit: None,
            save: false,
        }
    }
}

/// The options that do not apply to a request, refused together as one line: `(given, option)`.
fn refuse_any(given: &[(bool, Arg)], why: &str) -> Result<()> {
    let on: Vec<Arg> = given.iter().filter(|(g, _)| *g).map(|(_, a)| *a).collect();
    let Some((&first, rest)) = on.split_first() else {
        return Ok(());
    };
    let mut r = Refusal::new("").given(first);
    for a in rest {
        r = r.text(", ").given(*a);
    }
    Err(Error::refused(r.text(format!(
        " {} {why}",
        if on.len() == 1 { "does" } else { "do" }
    ))))
}

/// The refusal of a result or file (`subject`, e.g. "ID is a result") about `about` play when the
/// request asked for the other convention.
pub fn other_play(subject: &str, about: Play) -> Error {
    let fix = if about == Play::Misere {
        "add "
    } else {
        "drop "
    };
    Error::refused(Refusal::new(format!("{subject} about {about} play; {fix}")).given(Arg::Misere))
}

/// What a proof claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimedAs {
    /// The set is the P-set.
    PSet,
    /// Every member is a P-position.
    Subset,
    /// Every member is an N-position (it moves into a set of P-positions).
    NPositions,
    /// The sets of the positions of each Grundy value.
    ValueSets,
}

impl ClaimedAs {
    pub fn name(self) -> &'static str {
        match self {
            ClaimedAs::PSet => "P-set",
            ClaimedAs::Subset => "subset",
            ClaimedAs::NPositions => "N-positions",
            ClaimedAs::ValueSets => "value sets",
        }
    }
}

/// The proof of the Grundy value sets G_0, …, G_v.
#[derive(Debug, Clone)]
pub struct ValueSetsReport {
    pub game: String,
    pub up_to: u16,
    pub table_bits: u32,
    pub verdict: Status,
    /// The values whose sets are proved (0..proved).
    pub proved: usize,
    /// One line per value set, in order.
    pub lines: Vec<String>,
    pub seconds: f64,
}

/// What was decided.
#[derive(Debug, Clone)]
pub enum Decided {
    /// Conditions on one claimed set.
    Conditions(Report),
    /// Bouton's theorem for every number of heaps: the lemmas of the induction.
    Heaps(HeapsReport),
    /// The Grundy value sets.
    ValueSets(ValueSetsReport),
}

/// The characterization a proof may save in the store: its format's name and its text.
#[derive(Debug, Clone)]
pub struct Saveable {
    pub game: String,
    pub play: Play,
    pub format: crate::prover::CharacterizationFormat,
    pub text: String,
    pub method: &'static str,
}

/// The one result of [`prove`].
#[derive(Debug, Clone)]
pub struct ProofResult {
    pub decided: Decided,
    pub claim: ClaimedAs,
    /// What one entry is ("stack" or "box"), for "proved for every … size".
    pub unit: &'static str,
    /// The automata's sizes, `(what, states)`.
    pub states: Vec<(String, usize)>,
    /// A set automaton's readable rule, checked against it.
    pub rule: Option<String>,
    /// The files written (a certificate).
    pub files: Vec<PathBuf>,
    /// Where the certificate went, when one was written.
    pub emitted: Option<PathBuf>,
    /// Lines for the user beside the result (a partial result proved as a subset, …).
    pub notes: Vec<String>,
    /// The characterization, when the request asked to save it and the proof allows it.
    pub saveable: Option<Saveable>,
}

impl ProofResult {
    fn of(decided: Decided, claim: ClaimedAs, unit: &'static str) -> ProofResult {
        ProofResult {
            decided,
            claim,
            unit,
            states: Vec::new(),
            rule: None,
            files: Vec::new(),
            emitted: None,
            notes: Vec::new(),
            saveable: None,
        }
    }

    pub fn verdict(&self) -> Status {
        match &self.decided {
            Decided::Conditions(r) => r.verdict,
            Decided::Heaps(h) => h.verdict,
            Decided::ValueSets(v) => v.verdict,
        }
    }

    /// The conditions' report, for a proof of one set.
    pub fn report(&self) -> Option<&Report> {
        match &self.decided {
            Decided::Conditions(r) => Some(r),
            _ => None,
        }
    }

    /// 0 proved, 1 refuted, 3 unknown.
    pub fn exit_code(&self) -> u8 {
        match self.verdict() {
            Status::Proved => 0,
            Status::Refuted => 1,
            Status::Unknown => 3,
        }
    }
}

/// Proves what `req` asks; `Err` for a request that does not fit (typed refusals), bad files and
/// missing solvers; a proof that does not finish gives an honest "unknown".
pub fn prove(req: &ProveRequest) -> Result<ProofResult> {
    if req.timeout.is_zero() {
        return Err(Error::refused(
            Refusal::new("")
                .name(Arg::Timeout)
                .text(" must be at least 1 second"),
        ));
    }
    if req.bits.is_some() && matches!(req.prover, Prover::Automata(_)) {
        return Err(Error::refused(
            Refusal::new("")
                .given(Arg::Automata)
                .text(" proves for every size; ")
                .given(Arg::Bits)
                .text(" asks for entries below 2^W: give one of them"),
        ));
    }
    if let Source::GrundyValues { up_to, table_bits } = req.source {
        return routes::grundy_values(req, up_to, table_bits);
    }
    match &req.game {
        ProofGame::NimAnyHeaps => routes::every_number_of_heaps(req),
        ProofGame::Chips(game) => routes::chips(req, game),
        ProofGame::Stacks(rules) => routes::stacks(req, rules),
    }
}
