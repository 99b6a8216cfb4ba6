//! Proved characterizations kept in the store: a P-set described by families (a families TOML,
//! proved by the SMT solver or by automata) or by an automaton (Walnut's text format, proved by
//! automata; SCN: one automaton per circle length, the SCN file format of `nimlab_prove::walnut`),
//! for every stack size. [`save_proved`] checks a file and saves it (`nimlab prove
//! --save`, `nimlab discover`); the analysis chain ([`crate::chain`]) then answers positions of any
//! size with it: the outcome by exact membership, a winning move by a search in the automaton of the
//! set (linear in the entries' binary digits), or, where no automaton is built, among the options.
//! A P-set characterization gives no Grundy values.

use crate::Method;
use nimlab_core::{Error, Game, Play, Result};
use nimlab_prove::automata::{self, Budget, Dfa};
use nimlab_prove::{Conjecture, Ruleset, RulesetKind};
use nimlab_tables::store::Store;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How a characterization is written.
pub use nimlab_prove::CharacterizationFormat;

/// The provers whose verdict `proved` (for every size) a characterization may be saved with.
pub const PROVERS: [&str; 2] = ["smt", "automata"];

/// The set a characterization describes.
enum Set {
    Families(Box<Conjecture>),
    Automaton(Dfa),
    /// SCN: the automaton of each circle length 0..=n (every pile positive; length 0 a constant).
    Circles(Vec<Dfa>),
}

/// The limits of building the automata a winning move is searched in (once per characterization).
const BUILD_SECONDS: u64 = 20;
const BUILD_STATES: usize = 1 << 20;
/// Without automata, a winning move is searched among at most this many options.
const OPTIONS_CAP: usize = 1 << 16;

/// One stored characterization, ready to answer.
pub struct Proved {
    pub id: i64,
    pub format: CharacterizationFormat,
    pub prover: String,
    game: Ruleset,
    set: Set,
    /// The set's automaton and the option relation of each window, built when a move is first asked.
    search: OnceLock<Option<(Dfa, Vec<Dfa>)>>,
}

fn parse(game: &Ruleset, format: CharacterizationFormat, text: &str) -> Result<Set> {
    match format {
        CharacterizationFormat::Families => {
            let c = nimlab_prove::from_toml(text, "the characterization")?;
            if c.game != *game {
                return Err(Error::Unsupported(format!(
                    "the families are about {}, not {}",
                    c.game.id(),
                    game.id()
                )));
            }
            c.validate_shape()?;
            Ok(Set::Families(Box::new(c)))
        }
        CharacterizationFormat::Automaton if game.kind == RulesetKind::Scn => {
            // One automaton per circle length; the prover's own checks and positivity.
            let (empty, per_length) = nimlab_prove::walnut::scn_from_walnut(text, game.n)?;
            let budget = Budget::new(
                Instant::now() + Duration::from_secs(BUILD_SECONDS),
                BUILD_STATES,
            );
            let sets = automata::scn_given_sets(game, &per_length, empty, &budget).map_err(
                |e| match e {
                    automata::Stop::Unsupported(s) | automata::Stop::Limit(s) => {
                        Error::Unsupported(s)
                    }
                },
            )?;
            Ok(Set::Circles(sets))
        }
        CharacterizationFormat::Automaton => Ok(Set::Automaton(nimlab_prove::walnut::from_walnut(
            text, game.n,
        )?)),
    }
}

/// Saves a characterization proved for every stack size (by `prover`, `smt` or `automata`) of the
/// P-set of `game` in `play`; returns its id in the store (the same id when the same text is
/// already saved). The text is checked to read as `format` for this game; the caller vouches for
/// the proof (the verdict `proved` for every size, not below 2^W only).
pub fn save_proved(
    store: &mut Store,
    game: &str,
    play: Play,
    format: CharacterizationFormat,
    text: &str,
    prover: &str,
) -> Result<i64> {
    let rules = Ruleset::parse(game)?;
    if !PROVERS.contains(&prover) {
        return Err(Error::Unsupported(format!(
            "prover {prover}: a proved characterization is saved from smt or automata"
        )));
    }
    parse(&rules, format, text)?;
    store
        .save_characterization(&rules.id(), play.name(), format.name(), text, prover)
        .map_err(|e| Error::store("saving the characterization", e))
}

/// Saves what `nimlab discover` proved (its typed [`nimlab_prove::Proven`]) in the store at `path`;
/// its id.
pub fn save_discovered(
    path: &std::path::Path,
    game: &str,
    play: Play,
    proven: nimlab_prove::Proven,
) -> Result<i64> {
    let mut store = Store::open(path).map_err(|e| Error::store("opening the store", e))?;
    save_proved(
        &mut store,
        game,
        play,
        proven.format,
        proven.text,
        proven.method,
    )
}

impl Proved {
    /// The stored characterizations of `game` in `play` that read correctly, oldest first.
    pub fn load(store: &Store, game: &dyn Game, play: Play) -> Vec<Proved> {
        let Some(rules) = Ruleset::of(game) else {
            return Vec::new();
        };
        let Ok(rows) = store.characterizations_of(&game.id(), play.name()) else {
            return Vec::new();
        };
        rows.into_iter()
            .filter_map(|r| {
                let format = CharacterizationFormat::parse(&r.format)?;
                let set = parse(&rules, format, &r.text).ok()?;
                Some(Proved {
                    id: r.id,
                    format,
                    prover: r.prover,
                    game: rules.clone(),
                    set,
                    search: OnceLock::new(),
                })
            })
            .collect()
    }

    /// The set as a rule a person can read, when it is an automaton that reads as one (XOR
    /// relations or column sums on the binary digits; checked against the automaton).
    pub fn rule(&self) -> Option<String> {
        match &self.set {
            Set::Automaton(d) => nimlab_prove::automata::readable(d)
                .map(|r| format!("the P-positions are those where {}", r.text(d.tracks))),
            _ => None,
        }
    }

    /// The method naming this characterization.
    pub fn method(&self) -> Method {
        Method::Characterization {
            id: self.id,
            format: self.format.name(),
            prover: self.prover.clone(),
        }
    }

    /// Whether `p` is in the set (`None` when the characterization says nothing about positions of
    /// this length). Exact at every size: families in `i128` or big integers, automata on `u128`.
    pub fn contains(&self, p: &[u64]) -> Option<bool> {
        if !self.game.lengths().contains(&p.len()) {
            return None;
        }
        Some(match &self.set {
            Set::Families(c) => c.contains(p),
            Set::Automaton(d) => {
                let v: Vec<u128> = p.iter().map(|&x| u128::from(x)).collect();
                d.tracks == p.len() && d.accepts(&v)
            }
            Set::Circles(sets) => {
                let v: Vec<u128> = p.iter().map(|&x| u128::from(x)).collect();
                sets.get(p.len()).is_some_and(|d| d.accepts(&v))
            }
        })
    }

    fn automata(&self) -> Option<&(Dfa, Vec<Dfa>)> {
        self.search
            .get_or_init(|| {
                if self.game.kind == RulesetKind::Scn {
                    return None;
                }
                let m = self.game.n;
                let budget = Budget::new(
                    Instant::now() + Duration::from_secs(BUILD_SECONDS),
                    BUILD_STATES,
                );
                let set = match &self.set {
                    Set::Automaton(d) => d.clone(),
                    Set::Families(c) => automata::members(c, m, &budget).ok()?,
                    Set::Circles(_) => return None,
                };
                let windows = self
                    .game
                    .windows(m)
                    .iter()
                    .map(|w| automata::window_options(m, w, &budget).ok())
                    .collect::<Option<Vec<_>>>()?;
                Some((set, windows))
            })
            .as_ref()
    }

    /// A move from `p` into the set (`None` when there is none, or none was found within the caps):
    /// a search in the product of each window's option relation with the set's automaton, digit by
    /// digit along `p`'s binary digits; without automata, among at most 2^16 options.
    pub fn winning_move(&self, game: &dyn Game, p: &[u64]) -> Option<Vec<u64>> {
        if let Some((set, windows)) = self.automata().filter(|_| p.len() == self.game.n) {
            return windows.iter().find_map(|o| move_into(set, o, p));
        }
        let opts = game.options_at_most(p, OPTIONS_CAP).ok()??;
        opts.into_iter().find(|q| self.contains(q) == Some(true))
    }
}

/// A `y` with `(x, y)` accepted by the option relation `o` (2m tracks: x on 0..m, y on m..2m) and
/// `y` accepted by `set` (m tracks): the pairs of states reachable digit by digit, most significant
/// first, each with the pair and letter it came from; a final pair gives `y` read back.
fn move_into(set: &Dfa, o: &Dfa, x: &[u64]) -> Option<Vec<u64>> {
    let m = x.len();
    let digits = x
        .iter()
        .map(|v| 64 - v.leading_zeros() as usize)
        .max()
        .unwrap_or(0);
    type Back = FxHashMap<(u32, u32), ((u32, u32), u32)>;
    let mut layers: Vec<Back> = Vec::with_capacity(digits);
    let mut now: Vec<(u32, u32)> = vec![(0, 0)];
    for j in (0..digits).rev() {
        let xl: u32 = x
            .iter()
            .enumerate()
            .map(|(i, v)| (((v >> j) & 1) as u32) << i)
            .sum();
        let mut back: Back = FxHashMap::default();
        let mut next = Vec::new();
        for &(a, b) in &now {
            for yl in 0..(1u32 << m) {
                let t = (o.step(a, xl | (yl << m)), set.step(b, yl));
                back.entry(t).or_insert_with(|| {
                    next.push(t);
                    ((a, b), yl)
                });
            }
        }
        layers.push(back);
        now = next;
    }
    let mut at = *now
        .iter()
        .find(|&&(a, b)| o.is_final(a) && set.is_final(b))?;
    let mut y = vec![0u64; m];
    for (depth, back) in layers.iter().enumerate().rev() {
        let (prev, yl) = back[&at];
        let j = digits - 1 - depth;
        for (i, v) in y.iter_mut().enumerate() {
            *v |= u64::from((yl >> i) & 1) << j;
        }
        at = prev;
    }
    Some(y)
}
