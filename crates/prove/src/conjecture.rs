//! A conjectured P-set: a finite union of linear families of a circular game (read under the game's
//! rotations and reflections) or of a simplicial complex (`simplicial(...)`, `ECN(m,S,k)`: read under
//! the complex's automorphisms, or plainly). Membership is decided exactly here; the SMT encoding (`encode`) writes
//! the same definition as formulas.

use crate::arith::Arith;
use crate::expr::{parse_relation, Atom};
use nimlab_core::{Arg, Error, Game, Play, Refusal, Result};
use nimlab_games::complex::Complex;
use nimlab_games::{CircularNim, ShrinkingCircularNim};
use nimlab_theory::linear::Reading;
use std::sync::Arc;

mod theorems;

pub use theorems::from_theorem;

/// The games the prover knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesetKind {
    /// Circular Nim CN(n,k): n stacks, entries >= 0.
    Cn,
    /// Shrinking Circular Nim SCN(n,k): circles of m <= n piles, entries >= 1; emptied piles vanish.
    Scn,
    /// Nim on a simplicial complex (`simplicial(...)` or `ECN(m,S,k)`): n stacks, entries >= 0; a move
    /// lowers stacks inside one facet, at least one token in all.
    Complex,
}

/// Most automorphisms a complex's families may be read under (each is one alternative of every
/// membership formula).
pub const MAX_READINGS: usize = 1_000;

/// Widest entries (in bits) a bit-vector proof takes.
pub const MAX_BITS: u32 = 32;

/// The rules of a complex as the prover needs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComplexRules {
    /// The game's name, e.g. `ECN(8,{1,2},3)`.
    pub id: String,
    /// The facets, 0-based.
    pub facets: Vec<Vec<usize>>,
    /// The automorphisms (`q[i] = p[perm[i]]`, the identity first), or None when the group is larger
    /// than [`MAX_READINGS`] or was not determined.
    pub automorphisms: Option<Vec<Vec<usize>>>,
    /// The known game it is a relabeling of, with the map (stack i is stack `map[i]` there).
    pub relabeling: Option<(String, Vec<usize>)>,
}

/// A ruleset CN(n,k), SCN(n,k) or a complex: the game itself (the one source of its rules, whose
/// moves re-check counterexamples), and what the encodings read off it.
#[derive(Clone)]
pub struct Ruleset {
    pub kind: RulesetKind,
    pub n: usize,
    /// CN and SCN: the window length; a complex: its largest facet.
    pub k: usize,
    /// A complex's facets and automorphisms (None for CN and SCN).
    pub complex: Option<Arc<ComplexRules>>,
    game: Arc<dyn Game>,
}

impl PartialEq for Ruleset {
    fn eq(&self, other: &Ruleset) -> bool {
        (self.kind, self.n, self.k, &self.complex) == (other.kind, other.n, other.k, &other.complex)
    }
}

impl Eq for Ruleset {}

impl std::fmt::Debug for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ruleset")
            .field("game", &self.game.id())
            .field("kind", &self.kind)
            .field("n", &self.n)
            .field("k", &self.k)
            .field("complex", &self.complex)
            .finish()
    }
}

impl Ruleset {
    /// The ruleset of a game name such as `CN(7,4)` (any spelling nimlab accepts).
    pub fn parse(name: &str) -> Result<Ruleset> {
        let game = nimlab_games::parse_game(name)?;
        Ruleset::of(game.as_ref()).ok_or_else(|| {
            Error::Unsupported(format!(
                "prove knows Circular Nim CN(n,k), Shrinking Circular Nim SCN(n,k), simplicial(...) and ECN(m,S,k), not {}",
                game.id()
            ))
        })
    }

    /// The ruleset of a game, when it is CN, SCN or a complex (it keeps a copy of the game).
    pub fn of(game: &dyn Game) -> Option<Ruleset> {
        if let Some(g) = game.downcast_ref::<CircularNim>() {
            return Some(Ruleset {
                kind: RulesetKind::Cn,
                n: g.n,
                k: g.k,
                complex: None,
                game: Arc::new(*g),
            });
        }
        if let Some(g) = game.downcast_ref::<Complex>() {
            let facets = g.facets().to_vec();
            return Some(Ruleset {
                kind: RulesetKind::Complex,
                n: g.stacks(),
                k: facets.iter().map(Vec::len).max().unwrap_or(0),
                complex: Some(Arc::new(ComplexRules {
                    id: g.id(),
                    facets,
                    automorphisms: g.automorphisms(MAX_READINGS),
                    relabeling: g.relabeling().map(|r| (r.target.name(), r.map.clone())),
                })),
                game: Arc::new(g.clone()),
            });
        }
        game.downcast_ref::<ShrinkingCircularNim>()
            .map(|g| Ruleset {
                kind: RulesetKind::Scn,
                n: g.n,
                k: g.k,
                complex: None,
                game: Arc::new(*g),
            })
    }

    pub fn id(&self) -> String {
        self.game.id()
    }

    /// The game itself, whose `for_each_option` re-checks counterexamples.
    pub fn game(&self) -> Arc<dyn Game> {
        Arc::clone(&self.game)
    }

    /// The game, borrowed.
    pub(crate) fn game_ref(&self) -> &dyn Game {
        self.game.as_ref()
    }

    /// The circle lengths a position can have (CN and complexes: n; SCN: 0..=n).
    pub fn lengths(&self) -> Vec<usize> {
        match self.kind {
            RulesetKind::Cn | RulesetKind::Complex => vec![self.n],
            RulesetKind::Scn => (0..=self.n).collect(),
        }
    }

    /// The smallest entry of a position (CN and complex stacks may be empty; SCN piles are positive).
    pub fn min_entry(&self) -> i128 {
        match self.kind {
            RulesetKind::Cn | RulesetKind::Complex => 0,
            RulesetKind::Scn => 1,
        }
    }

    /// The move windows of a position of `m` entries: CN and SCN, m windows of k (the whole circle
    /// when m <= k); a complex, its facets.
    pub fn windows(&self, m: usize) -> Vec<Vec<usize>> {
        match &self.complex {
            Some(c) => c.facets.clone(),
            None => nimlab_core::game::cyclic_windows(m, self.k),
        }
    }
}

/// Which readings of a circle may satisfy a family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadingRule {
    /// Some rotation or reflection (a complex: some automorphism).
    Any,
    /// Some rotation or reflection that starts at a minimal entry (CN and SCN only).
    MinFirst,
    /// The position as it is, slot i = stack i (complexes only).
    Plain,
}

/// One family: `len` slots `a, b, c, ...` and the relations they satisfy.
#[derive(Debug, Clone)]
pub struct PFamily {
    pub name: String,
    /// The circle length the family lives on.
    pub len: usize,
    /// The relations as written (for headers and messages).
    pub relations: Vec<String>,
    pub atoms: Vec<Atom>,
    /// When set, slot j of the relations is place `slots[j]` of the reading (a family of a known game
    /// carried over to a relabeling of it).
    pub slots: Option<Vec<usize>>,
}

impl PFamily {
    /// `name (length L): relation, relation, ...`, as query headers and certificates list it.
    pub fn describe(&self) -> String {
        format!(
            "{} (length {}): {}",
            self.name,
            self.len,
            self.relations.join(", ")
        )
    }

    /// A family from relations in the language of [`crate::expr`].
    pub fn parse(name: &str, len: usize, relations: &[String]) -> Result<PFamily> {
        if len > 26 {
            return Err(Error::Unsupported(format!(
                "family {name}: {len} entries, but the letters a..z name at most 26"
            )));
        }
        let mut atoms = Vec::new();
        for r in relations {
            atoms.extend(
                parse_relation(r, len)
                    .map_err(|e| Error::Unsupported(format!("family {name}: {e}")))?,
            );
        }
        Ok(PFamily {
            name: name.to_string(),
            len,
            relations: relations.to_vec(),
            atoms,
            slots: None,
        })
    }

    /// True when the reading `t` satisfies every relation.
    pub fn holds(&self, t: &[i128]) -> bool {
        if t.len() != self.len {
            return false;
        }
        match &self.slots {
            None => self.atoms.iter().all(|a| a.holds(t)),
            Some(s) => {
                let u: Vec<i128> = s.iter().map(|&j| t[j]).collect();
                self.atoms.iter().all(|a| a.holds(&u))
            }
        }
    }

    /// The reading's entries (names or values) in the order of the family's slots.
    pub fn arrange<T: Clone>(&self, t: &[T]) -> Vec<T> {
        match &self.slots {
            None => t.to_vec(),
            Some(s) => s.iter().map(|&j| t[j].clone()).collect(),
        }
    }
}

/// A conjectured P-set of one ruleset.
#[derive(Debug, Clone)]
pub struct Conjecture {
    pub game: Ruleset,
    pub reading: ReadingRule,
    pub families: Vec<PFamily>,
    /// Where the families come from: `theorem ID` or `file PATH`.
    pub source: String,
    /// `Some(w)`: prove only for entries below `2^w`, in bit-vector arithmetic (needed for `xor`);
    /// `None`: for every entry size, in integer arithmetic.
    pub bits: Option<u32>,
    /// The play convention the set is claimed to be the P-set of. Misère play changes condition
    /// (III) only: no terminal position is in the set (docs/rules.md).
    pub play: Play,
}

/// The distinct readings of a circle of `m` entries, each as the list of entry indices of its slots.
pub fn readings(m: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for r in Reading::all(m) {
        let map: Vec<usize> = (0..m).map(|i| r.index(m, i)).collect();
        if !out.contains(&map) {
            out.push(map);
        }
    }
    out
}

impl Conjecture {
    /// The readings of a position that may satisfy a family, in words.
    pub fn reading_words(&self) -> &'static str {
        match (self.reading, self.game.kind) {
            (ReadingRule::Any, RulesetKind::Complex) => "any automorphism of the complex",
            (ReadingRule::Plain, _) => "the position as it is (no symmetry)",
            (ReadingRule::Any, _) => "any rotation or reflection",
            (ReadingRule::MinFirst, _) => "rotations and reflections that start at a minimal entry",
        }
    }

    /// The readings of a position of `m` entries the families are tried on, each as the list of entry
    /// indices of its slots: CN and SCN, the rotations and reflections; a complex, its automorphisms
    /// (reading `any`) or the identity (reading `plain`).
    pub fn readings(&self, m: usize) -> Result<Vec<Vec<usize>>> {
        match (&self.game.complex, self.reading) {
            (None, ReadingRule::Plain) => Err(Error::Unsupported(format!(
                "reading \"plain\" is for complexes; {} families are read under rotations and reflections",
                self.game.id()
            ))),
            (None, _) => Ok(readings(m)),
            (Some(_), ReadingRule::Plain) => Ok(vec![(0..m).collect()]),
            (Some(c), ReadingRule::Any) => c.automorphisms.clone().ok_or_else(|| {
                Error::Unsupported(format!(
                    "{}: its automorphism group is larger than {MAX_READINGS} or was not determined; read the families with reading = \"plain\"",
                    c.id
                ))
            }),
            (Some(c), ReadingRule::MinFirst) => Err(Error::Unsupported(format!(
                "{}: reading \"min-first\" is for circles; a complex's families are read \"any\" (under its automorphisms) or \"plain\"",
                c.id
            ))),
        }
    }

    /// Checks that every family fits the game (CN and complex families live on n stacks, SCN ones on
    /// at most n piles), that the reading suits the game, and that the relations can be proved: linear
    /// ones for every size, `xor` only below `2^w` (bit-vectors, [`Conjecture::bits`]).
    pub fn validate(&self) -> Result<()> {
        self.validate_shape()?;
        self.arith().map(|_| ())
    }

    /// The arithmetic of the queries: integers, or bit-vectors when [`Conjecture::bits`] is set.
    pub fn arith(&self) -> Result<Arith> {
        let atoms = self.families.iter().flat_map(|f| f.atoms.iter());
        if let Some(f) = self.families.iter().find(|f| {
            f.atoms
                .iter()
                .any(|a| a.left.has_colsum() || a.right.has_colsum())
        }) {
            return Err(Error::refused(
                Refusal::new(format!(
                    "family {}: colsum(...) is decided only by the automata prover: use ",
                    f.name
                ))
                .given(Arg::Automata),
            ));
        }
        match self.bits {
            None => {
                if let Some(f) = self
                    .families
                    .iter()
                    .find(|f| f.atoms.iter().any(Atom::has_xor))
                {
                    return Err(Error::refused(
                        Refusal::new(format!(
                            "family {}: xor(...) is not linear arithmetic, so the SMT solver cannot prove it for every size: use ",
                            f.name
                        ))
                        .given(Arg::Automata)
                        .text(" (every size, CN and complexes) or ")
                        .given(Arg::Bits)
                        .text(" (entries below 2^W)"),
                    ));
                }
                Ok(Arith::Int)
            }
            Some(w) if (1..=MAX_BITS).contains(&w) => {
                Arith::bit_vectors(w, atoms).ok_or_else(|| {
                    Error::Unsupported(
                        "the relations' constants are too large for bit-vectors".into(),
                    )
                })
            }
            Some(w) => Err(Error::refused(
                Refusal::new("")
                    .value(Arg::Bits, w)
                    .text(format!(": the entry width must be 1 to {MAX_BITS}")),
            )),
        }
    }

    /// Checks that every family fits the game (CN families live on n stacks, SCN ones on at most n
    /// piles); xor relations are allowed (exact membership evaluates them).
    pub fn validate_shape(&self) -> Result<()> {
        if self.families.is_empty() {
            return Err(Error::Unsupported("the conjecture has no family".into()));
        }
        self.readings(self.game.n)?;
        for f in &self.families {
            let ok = match self.game.kind {
                RulesetKind::Cn | RulesetKind::Complex => f.len == self.game.n,
                RulesetKind::Scn => f.len <= self.game.n,
            };
            if !ok {
                return Err(Error::Unsupported(format!(
                    "family {}: length {} does not fit {} (CN and complex families have length n, SCN families at most n)",
                    f.name,
                    f.len,
                    self.game.id()
                )));
            }
        }
        Ok(())
    }

    /// Exact membership: some admissible reading of `p` satisfies every relation of some family.
    pub fn contains(&self, p: &[u64]) -> bool {
        let m = p.len();
        let fams: Vec<&PFamily> = self.families.iter().filter(|f| f.len == m).collect();
        if fams.is_empty() {
            return false;
        }
        let min = p.iter().min().copied();
        let Ok(maps) = self.readings(m) else {
            return false;
        };
        maps.iter().any(|map| {
            if self.reading == ReadingRule::MinFirst && m > 0 && Some(p[map[0]]) != min {
                return false;
            }
            let t: Vec<i128> = map.iter().map(|&i| p[i] as i128).collect();
            fams.iter().any(|f| f.holds(&t))
        })
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct FileFamily {
    name: String,
    length: Option<usize>,
    relations: Vec<String>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    game: String,
    reading: Option<String>,
    family: Vec<FileFamily>,
}

/// A conjecture from the text of a families file (TOML: `game`, `reading`, `[[family]]` tables with
/// `name`, `length` and `relations`); `source` names the file in the report.
pub fn from_toml(text: &str, source: &str) -> Result<Conjecture> {
    from_toml_any(text, source)
}

/// A conjecture from the text of a families file, checked for shape only (xor relations need no
/// `bits` here): for exact membership on a box (`verify --families`).
pub fn from_toml_any(text: &str, source: &str) -> Result<Conjecture> {
    let file: File = toml::from_str(text).map_err(|e| {
        Error::Unsupported(format!(
            "{source}: not a families file: {}",
            e.message().trim()
        ))
    })?;
    let game = Ruleset::parse(&file.game)?;
    let reading = match file.reading.as_deref().unwrap_or("any") {
        "any" => ReadingRule::Any,
        "min-first" => ReadingRule::MinFirst,
        "plain" => ReadingRule::Plain,
        other => {
            return Err(Error::Unsupported(format!(
                "{source}: reading {other:?} is not \"any\", \"min-first\" or \"plain\""
            )))
        }
    };
    let families = file
        .family
        .iter()
        .map(|f| PFamily::parse(&f.name, f.length.unwrap_or(game.n), &f.relations))
        .collect::<Result<Vec<_>>>()?;
    let c = Conjecture {
        game,
        reading,
        families,
        source: format!("file {source}"),
        bits: None,
        play: Play::Normal,
    };
    c.validate_shape()?;
    Ok(c)
}
