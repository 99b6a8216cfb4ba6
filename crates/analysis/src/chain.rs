//! The chain of known answers: proven results, the store, the tables engine. [`Chain::root`] answers
//! a position without search when one of them can; as an [`Oracle`] the chain answers inside a search.

use crate::proved::Proved;
use crate::stored_sequence::StoredSequence;
use crate::{Method, StoreHandle};
use nimlab_core::solver::Oracle;
use nimlab_core::{BoxDomain, Game, Outcome, Play, Pos};
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset;
use nimlab_tables::store::{self, Entry};
use nimlab_theory::{Theorem, Verdict};
use rustc_hash::FxHashSet;
use std::sync::OnceLock;

/// An answer found without search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    pub outcome: Outcome,
    pub grundy: Option<u128>,
    /// A theorem, a stored table or the engine.
    pub method: Method,
}

/// Stored tables are loaded into memory for repeated look-ups only up to this many bytes.
const STORE_LOAD_CAP: usize = 256 << 20;

/// The positions a P-set table covers.
enum Region {
    /// Tuples of these lengths with entries in lo..=hi.
    Box {
        lo: u64,
        hi: u64,
        lengths: Vec<usize>,
    },
    /// Chip positions with at most this many chips in all.
    Chips(u64),
    /// Positions with max - min at most this.
    Spread(u64),
}

impl Region {
    fn of(e: &Entry) -> Region {
        match e.key.lengths.as_str() {
            "chips" => Region::Chips(e.key.hi),
            "spread" => Region::Spread(e.key.hi),
            _ => Region::Box {
                lo: e.key.lo,
                hi: e.key.hi,
                lengths: lengths_of(e),
            },
        }
    }
    fn holds(&self, p: &[u64]) -> bool {
        match self {
            Region::Box { lo, hi, lengths } => {
                lengths.contains(&p.len()) && p.iter().all(|x| x >= lo && x <= hi)
            }
            Region::Chips(s) => p.iter().map(|&x| x as u128).sum::<u128>() <= *s as u128,
            Region::Spread(h) => {
                let (lo, hi) = (p.iter().min(), p.iter().max());
                lo.zip(hi).is_some_and(|(lo, hi)| hi - lo <= *h)
            }
        }
    }
}

/// A P-set (canonical P-positions) over a region.
struct PSetBox {
    method: Method,
    region: Region,
    members: FxHashSet<Pos>,
}

impl PSetBox {
    fn holds(&self, p: &[u64]) -> bool {
        self.region.holds(p)
    }
}

/// A Grundy table over a box: values by length (in the box's order), then lexicographically.
struct GrundyBox {
    method: Method,
    lo: u64,
    hi: u64,
    lengths: Vec<usize>,
    values: Vec<u16>,
}

impl GrundyBox {
    fn value(&self, p: &[u64]) -> Option<u64> {
        if !self.lengths.contains(&p.len()) || p.iter().any(|&x| x < self.lo || x > self.hi) {
            return None;
        }
        let r = self.hi - self.lo + 1;
        let mut offset = 0u64;
        for &l in self.lengths.iter().take_while(|&&l| l < p.len()) {
            offset = offset.checked_add(r.checked_pow(l as u32)?)?;
        }
        let idx = p.iter().fold(0u64, |a, &x| a * r + (x - self.lo));
        self.values
            .get(usize::try_from(offset + idx).ok()?)
            .map(|&v| v as u64)
    }
}

fn lengths_of(e: &Entry) -> Vec<usize> {
    e.key
        .lengths
        .split(',')
        .filter_map(|l| l.parse().ok())
        .collect()
}

fn holds(e: &Entry, p: &[u64]) -> bool {
    Region::of(e).holds(p)
}

/// Proven results, stored tables and the engine for one game and convention, around one position.
pub struct Chain<'a> {
    game: &'a dyn Game,
    play: Play,
    /// The results covering the game in this convention (complete ones first) and, for Grundy
    /// values, in normal play.
    theorems: Vec<&'static dyn Theorem>,
    normal: Vec<&'static dyn Theorem>,
    store: &'a StoreHandle,
    root: Pos,
    engine_box: f64,
    stored_pset: OnceLock<Option<PSetBox>>,
    /// The store's proved characterizations of the game in this convention.
    proved: OnceLock<Vec<Proved>>,
    stored_grundy: OnceLock<Option<GrundyBox>>,
    /// The store's one-heap sequence of the game, when it holds every heap of the root.
    sequence: OnceLock<Option<StoredSequence>>,
    engine: OnceLock<Option<PSetBox>>,
    /// Whether the covering results give Grundy values (checked once, at the root); when they only
    /// decide P or N, a Grundy search does not ask them at every position.
    theorem_grundy: OnceLock<bool>,
}

/// False when `NIMLAB_THEORY=off`: the chain then leaves the registry's results out (to check the
/// other links, e.g. a stored characterization, against them).
pub fn theory_enabled() -> bool {
    std::env::var_os("NIMLAB_THEORY").is_none_or(|v| v != "off")
}

/// Results that decide only some positions of the games they cover.
fn is_partial(t: &dyn Theorem) -> bool {
    t.scope() == nimlab_theory::Scope::Partial
}

impl<'a> Chain<'a> {
    pub fn new(
        game: &'a dyn Game,
        play: Play,
        store: &'a StoreHandle,
        root: &[u64],
        engine_box: f64,
    ) -> Chain<'a> {
        let covering = |pl: Play| {
            if !theory_enabled() {
                return Vec::new();
            }
            let mut v = nimlab_theory::covering(game, pl);
            v.sort_by_key(|t| is_partial(*t));
            v
        };
        Chain {
            game,
            play,
            theorems: covering(play),
            normal: if play == Play::Normal {
                Vec::new()
            } else {
                covering(Play::Normal)
            },
            store,
            root: root.to_vec(),
            engine_box,
            stored_pset: OnceLock::new(),
            proved: OnceLock::new(),
            stored_grundy: OnceLock::new(),
            sequence: OnceLock::new(),
            engine: OnceLock::new(),
            theorem_grundy: OnceLock::new(),
        }
    }

    /// The chain without the registry's results.
    pub fn without_theory(mut self) -> Chain<'a> {
        self.theorems.clear();
        self.normal.clear();
        self
    }

    fn normal_theorems(&self) -> &[&'static dyn Theorem] {
        if self.play == Play::Normal {
            &self.theorems
        } else {
            &self.normal
        }
    }

    /// The theorem with this id among those covering the game.
    pub fn theorem(&self, id: &str) -> Option<&dyn Theorem> {
        self.theorems
            .iter()
            .chain(self.normal.iter())
            .find(|t| t.id() == id)
            .copied()
    }

    /// The first covering result that decides `p` in this convention, with its verdict.
    pub fn verdict(&self, p: &[u64]) -> Option<(String, Verdict)> {
        self.theorems
            .iter()
            .find_map(|t| t.decide(self.game, p).map(|v| (t.id().to_string(), v)))
    }

    /// True when every position of the game is decided without search (a complete result covers
    /// it, or the engine has tabulated the box below the root).
    pub fn decides_everything(&self) -> bool {
        self.theorems.iter().any(|t| !is_partial(*t))
            || self.characterization(&self.root).is_some()
            || (self.play == Play::Normal
                && self
                    .stored_sequence()
                    .is_some_and(|s| s.value(&self.root).is_some()))
            || self.engine_table().is_some()
    }

    /// The store's one-heap sequence of the game up to the root's largest heap (every heap of an
    /// option is smaller), or as far as it is stored.
    pub fn stored_sequence(&self) -> Option<&StoredSequence> {
        self.sequence
            .get_or_init(|| {
                self.game.downcast_ref::<nimlab_games::octal::OctalGame>()?;
                let top = self.root.iter().copied().max().unwrap_or(0);
                self.store.with(|s| StoredSequence::load(s, self.game, top))
            })
            .as_ref()
    }

    /// The store's proved characterizations of the game in this convention.
    pub fn proved(&self) -> &[Proved] {
        self.proved.get_or_init(|| {
            self.store
                .with(|s| Some(Proved::load(s, self.game, self.play)))
                .unwrap_or_default()
        })
    }

    /// The first stored characterization that decides `p`, with whether `p` is in its set.
    pub fn characterization(&self, p: &[u64]) -> Option<(&Proved, bool)> {
        self.proved()
            .iter()
            .find_map(|c| c.contains(p).map(|inside| (c, inside)))
    }

    fn stored_pset(&self) -> Option<&PSetBox> {
        self.stored_pset
            .get_or_init(|| {
                self.store.with(|s| {
                    let entries = s
                        .tables_of(&self.game.id(), self.play.name(), "pset")
                        .ok()?;
                    let e = entries.into_iter().find(|e| {
                        e.complete && holds(e, &self.root) && e.canonical_count < 1 << 24
                    })?;
                    let data = s.data(e.id).ok()?;
                    if data.len() > STORE_LOAD_CAP {
                        return None;
                    }
                    Some(PSetBox {
                        method: Method::Store(e.id),
                        region: Region::of(&e),
                        members: store::decode_positions(&data).into_iter().collect(),
                    })
                })
            })
            .as_ref()
    }

    fn stored_grundy(&self) -> Option<&GrundyBox> {
        self.stored_grundy
            .get_or_init(|| {
                self.store.with(|s| {
                    let entries = s.tables_of(&self.game.id(), "normal", "grundy").ok()?;
                    let e = entries.into_iter().find(|e| {
                        e.complete
                            && !lengths_of(e).is_empty()
                            && holds(e, &self.root)
                            && (e.positions_in_box as usize) < STORE_LOAD_CAP / 2
                    })?;
                    let data = s.data(e.id).ok()?;
                    Some(GrundyBox {
                        method: Method::Store(e.id),
                        lo: e.key.lo,
                        hi: e.key.hi,
                        lengths: lengths_of(&e),
                        values: store::decode_values(&data),
                    })
                })
            })
            .as_ref()
    }

    /// The engine's P-set of the box below the root, when the engine covers it cheaply.
    fn engine_table(&self) -> Option<&PSetBox> {
        self.engine
            .get_or_init(|| {
                let game = self.game;
                let hi = self.root.iter().copied().max().unwrap_or(0).max(1);
                let d: BoxDomain = game.table_domain(hi, Some(self.root.len())).ok()?;
                if !d.lengths.contains(&self.root.len()) || d.size_f64() > self.engine_box {
                    return None;
                }
                pset::rules_for(game, &d)?;
                let mut members = FxHashSet::default();
                pset::tabulate(game, &d, self.play, Hooks::default(), &mut |q| {
                    members.insert(q.to_vec());
                })
                .ok()?;
                Some(PSetBox {
                    method: Method::Engine,
                    region: Region::Box {
                        lo: d.lo,
                        hi: d.hi,
                        lengths: d.lengths,
                    },
                    members,
                })
            })
            .as_ref()
    }

    fn member(&self, b: &PSetBox, p: &[u64]) -> Option<Known> {
        b.holds(p).then(|| Known {
            outcome: Outcome::from_is_p(b.members.contains(&self.game.canonical(p))),
            grundy: None,
            method: b.method.clone(),
        })
    }

    /// The outcome of `p` without search, from the first link of the chain that knows it.
    pub fn root(&self, p: &[u64], play: Play) -> Option<Known> {
        debug_assert_eq!(play, self.play);
        if let Some((id, v)) = self.verdict(p) {
            return Some(Known {
                outcome: Outcome::from_is_p(v.is_p),
                grundy: v.grundy.or(v.is_p.then_some(0)),
                method: Method::theorem(&id)?,
            });
        }
        if let Some((c, inside)) = self.characterization(p) {
            return Some(Known {
                outcome: Outcome::from_is_p(inside),
                grundy: (inside && play == Play::Normal).then_some(0),
                method: c.method(),
            });
        }
        if play == Play::Normal {
            if let Some(s) = self.stored_sequence() {
                if let Some(v) = s.value(p) {
                    return Some(Known {
                        outcome: Outcome::from_is_p(v == 0),
                        grundy: Some(v),
                        method: s.method(),
                    });
                }
            }
            if let Some(g) = self.stored_grundy() {
                if let Some(v) = g.value(p) {
                    return Some(Known {
                        outcome: Outcome::from_is_p(v == 0),
                        grundy: Some(u128::from(v)),
                        method: g.method.clone(),
                    });
                }
            }
        }
        if let Some(k) = self.stored_pset().and_then(|b| self.member(b, p)) {
            return Some(k);
        }
        let mut k = self.engine_table().and_then(|b| self.member(b, p))?;
        if k.outcome.is_p() && play == Play::Normal {
            k.grundy = Some(0);
        }
        Some(k)
    }

    /// The Grundy value of `p` without search (a theorem's value, a stored Grundy table).
    pub fn known_grundy(&self, p: &[u64]) -> Option<(u128, Method)> {
        let useful = *self.theorem_grundy.get_or_init(|| {
            self.normal_theorems().iter().any(|t| {
                t.decide(self.game, &self.root)
                    .is_some_and(|v| v.grundy.is_some())
            })
        });
        for t in self.normal_theorems().iter().filter(|_| useful) {
            if let Some(v) = t.decide(self.game, p) {
                if let Some(g) = v.grundy.or(v.is_p.then_some(0)) {
                    return Some((g, Method::Theorem(t.id())));
                }
            }
        }
        if let Some(v) = self
            .stored_sequence()
            .and_then(|s| s.value(p).map(|v| (v, s)))
        {
            return Some((v.0, v.1.method()));
        }
        let g = self.stored_grundy()?;
        g.value(p).map(|v| (u128::from(v), g.method.clone()))
    }
}

impl Oracle for Chain<'_> {
    fn grundy(&self, _game: &dyn Game, p: &[u64]) -> Option<u64> {
        // A search's values are small (it visits every position below); a wider value ends no branch.
        self.known_grundy(p)
            .and_then(|(g, _)| u64::try_from(g).ok())
    }
    fn outcome(&self, _game: &dyn Game, p: &[u64], play: Play) -> Option<Outcome> {
        if play != self.play {
            return None;
        }
        self.root(p, play).map(|k| k.outcome)
    }
}
