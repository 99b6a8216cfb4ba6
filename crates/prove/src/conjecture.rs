//! A conjectured P-set: a finite union of linear families of a circular game, read under the game's
//! rotations and reflections. Membership is decided exactly here; the SMT encoding (`encode`) writes
//! the same definition as formulas.

use crate::expr::{parse_relation, Atom, Cmp, Expr};
use nimlab_core::{Error, Game, Result};
use nimlab_games::{CircularNim, ShrinkingCircularNim};
use nimlab_theory::linear::{Family, Reading};

/// The circular games the prover knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Circular Nim CN(n,k): n stacks, entries >= 0.
    Cn,
    /// Shrinking Circular Nim SCN(n,k): circles of m <= n piles, entries >= 1; emptied piles vanish.
    Scn,
}

/// A ruleset CN(n,k) or SCN(n,k).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ruleset {
    pub kind: Kind,
    pub n: usize,
    pub k: usize,
}

impl Ruleset {
    /// The ruleset of a game name such as `CN(7,4)` (any spelling nimlab accepts).
    pub fn parse(name: &str) -> Result<Ruleset> {
        let game = nimlab_games::parse_game(name)?;
        Ruleset::of(game.as_ref()).ok_or_else(|| {
            Error::Unsupported(format!(
                "prove knows Circular Nim CN(n,k) and Shrinking Circular Nim SCN(n,k), not {}",
                game.id()
            ))
        })
    }

    /// The ruleset of a game, when it is CN or SCN.
    pub fn of(game: &dyn Game) -> Option<Ruleset> {
        if let Some(g) = game.downcast_ref::<CircularNim>() {
            return Some(Ruleset {
                kind: Kind::Cn,
                n: g.n,
                k: g.k,
            });
        }
        game.downcast_ref::<ShrinkingCircularNim>()
            .map(|g| Ruleset {
                kind: Kind::Scn,
                n: g.n,
                k: g.k,
            })
    }

    pub fn id(&self) -> String {
        match self.kind {
            Kind::Cn => format!("CN({},{})", self.n, self.k),
            Kind::Scn => format!("SCN({},{})", self.n, self.k),
        }
    }

    /// The game itself, whose `for_each_option` re-checks counterexamples.
    pub fn game(&self) -> Box<dyn Game> {
        match self.kind {
            Kind::Cn => Box::new(CircularNim {
                n: self.n,
                k: self.k,
            }),
            Kind::Scn => Box::new(ShrinkingCircularNim {
                n: self.n,
                k: self.k,
            }),
        }
    }

    /// The circle lengths a position can have (CN: n; SCN: 0..=n).
    pub fn lengths(&self) -> Vec<usize> {
        match self.kind {
            Kind::Cn => vec![self.n],
            Kind::Scn => (0..=self.n).collect(),
        }
    }

    /// The smallest entry of a position (CN stacks may be empty; SCN piles are positive).
    pub fn min_entry(&self) -> i128 {
        match self.kind {
            Kind::Cn => 0,
            Kind::Scn => 1,
        }
    }

    /// The windows of a circle of `m` entries: m windows of k, or the whole circle when m <= k.
    pub fn windows(&self, m: usize) -> Vec<Vec<usize>> {
        nimlab_core::game::cyclic_windows(m, self.k)
    }
}

/// Which readings of a circle may satisfy a family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadingRule {
    /// Some rotation or reflection.
    Any,
    /// Some rotation or reflection that starts at a minimal entry.
    MinFirst,
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
}

impl PFamily {
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
        })
    }

    /// True when the reading `t` satisfies every relation.
    pub fn holds(&self, t: &[i128]) -> bool {
        t.len() == self.len && self.atoms.iter().all(|a| a.holds(t))
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
    /// Checks that every family fits the game (CN families live on n stacks, SCN ones on at most n
    /// piles) and that the relations are linear (XOR is not).
    pub fn validate(&self) -> Result<()> {
        self.validate_shape()?;
        for f in &self.families {
            if f.atoms.iter().any(Atom::has_xor) {
                return Err(Error::Unsupported(format!(
                    "family {}: xor(...) is not linear arithmetic; prove handles linear relations only (bit-vector proofs below 2^w are not implemented yet)",
                    f.name
                )));
            }
        }
        Ok(())
    }

    /// Checks that every family fits the game (CN families live on n stacks, SCN ones on at most n
    /// piles); xor relations are allowed (exact membership evaluates them; only `prove` refuses them).
    pub fn validate_shape(&self) -> Result<()> {
        if self.families.is_empty() {
            return Err(Error::Unsupported("the conjecture has no family".into()));
        }
        for f in &self.families {
            let ok = match self.game.kind {
                Kind::Cn => f.len == self.game.n,
                Kind::Scn => f.len <= self.game.n,
            };
            if !ok {
                return Err(Error::Unsupported(format!(
                    "family {}: length {} does not fit {} (CN families have length n, SCN families at most n)",
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
        readings(m).iter().any(|map| {
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
    let c = from_toml_any(text, source)?;
    c.validate()?;
    Ok(c)
}

/// A conjecture from the text of a families file, with xor relations allowed: for exact membership
/// on a box (`verify --families`), not for `prove`.
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
        other => {
            return Err(Error::Unsupported(format!(
                "{source}: reading {other:?} is neither \"any\" nor \"min-first\""
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
    };
    c.validate_shape()?;
    Ok(c)
}

/// A relation `sum coef * slot + c0 (= or >=) 0` of the theory crate as an atom.
fn rel_atom(rel: &nimlab_theory::linear::Rel, op: Cmp) -> Atom {
    let mut terms: Vec<(i128, Expr)> = rel.coef.iter().map(|&(i, c)| (c, Expr::Slot(i))).collect();
    if rel.c0 != 0 {
        terms.push((1, Expr::Num(rel.c0)));
    }
    Atom {
        left: Expr::Sum(terms),
        op,
        right: Expr::Num(0),
    }
}

/// The side conditions of registry families, which the theory crate keeps as Rust functions, written
/// as alternatives of relations (the family holds with its side condition exactly when it holds with
/// one of the alternatives). A test checks each against the function on a box of readings.
fn side_alternatives(theorem: &str, label: &str) -> Option<Vec<Vec<&'static str>>> {
    match (theorem, label) {
        ("scn-5-2", "P4") => Some(vec![vec!["mod(c, 2) = 0"]]),
        ("scn-5-2", "P5" | "P6" | "P7") => Some(vec![vec!["mod(c, 2) = 1"]]),
        // Not the excluded family (1, 2p-1, p, p, 2p-1, p, p, 2p-1): one relation of it fails.
        ("scn-8-6", _) => Some(
            [
                "c != d",
                "d != f",
                "f != g",
                "b + 1 != 2c",
                "e != b",
                "h != b",
            ]
            .iter()
            .map(|r| vec![*r])
            .collect(),
        ),
        _ => None,
    }
}

/// The families of a registry entry built from linear templates, as the prover's families.
fn from_templates(id: &str, fams: &[Family]) -> Result<Vec<PFamily>> {
    let mut out = Vec::new();
    for f in fams {
        let mut atoms: Vec<Atom> = f.eqs.iter().map(|r| rel_atom(r, Cmp::Eq)).collect();
        atoms.extend(f.ges.iter().map(|r| rel_atom(r, Cmp::Ge)));
        let base = PFamily {
            name: f.label.to_string(),
            len: f.len,
            relations: atoms.iter().map(|a| a.to_string()).collect(),
            atoms,
        };
        if f.side.is_none() {
            out.push(base);
            continue;
        }
        let alts = side_alternatives(id, f.label).ok_or_else(|| {
            Error::Unsupported(format!(
                "{id}: family {} has a side condition that prove cannot state",
                f.label
            ))
        })?;
        for alt in alts {
            let mut g = base.clone();
            for r in alt {
                g.atoms
                    .extend(parse_relation(r, f.len).map_err(|e| Error::Unsupported(e.0))?);
                g.relations.push(r.to_string());
            }
            out.push(g);
        }
    }
    Ok(out)
}

fn letters(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| ((b'a' + i as u8) as char).to_string())
        .collect()
}

/// The families of the registry's theorem `id` for `game`: the linear templates the registry itself
/// tests membership with, or, for the entries written as code, the same statement as relations.
pub fn from_theorem(id: &str, game: Ruleset) -> Result<Conjecture> {
    use nimlab_theory::{cn74, cn_small, scn};
    let theorem = nimlab_theory::by_id(id).ok_or_else(|| {
        Error::Unsupported(format!("no result with id {id:?} (see `nimlab theory`)"))
    })?;
    if !theorem.covers(game.game().as_ref()) {
        return Err(Error::Unsupported(format!(
            "{id} is about {}, not {}",
            theorem.games(),
            game.id()
        )));
    }
    let n = game.n;
    if n > 26 {
        return Err(Error::Unsupported(format!(
            "{}: at most 26 entries (letters a..z)",
            game.id()
        )));
    }
    let all_equal = || vec![letters(n).join(" = ")];
    let one = |name: &str, len: usize, rels: Vec<String>| PFamily::parse(name, len, &rels);
    let templates = [
        cn_small::cn52,
        cn_small::cn53,
        cn_small::cn63,
        cn74::cn74,
        cn_small::cn86,
        scn::scn42,
        scn::scn52,
        scn::scn53,
        scn::scn86,
    ];
    let families = if let Some(t) = templates.iter().map(|b| b()).find(|t| t.id == id) {
        from_templates(id, t.families())?
    } else {
        match id {
            "cn-n-n" => vec![one(
                "zero",
                n,
                letters(n).iter().map(|l| format!("{l} = 0")).collect(),
            )?],
            "cn-n-n-1" => vec![one("all equal", n, all_equal())?],
            "cn-4-2" => vec![one("(a,b,a,b)", 4, vec!["a = c".into(), "b = d".into()])?],
            "scn-n-n" => vec![one("()", 0, vec![])?],
            "scn-n-n-1" => vec![one("()", 0, vec![])?, one("all equal", n, all_equal())?],
            _ => {
                return Err(Error::Unsupported(format!(
                    "{id} is not a union of linear families ({}); prove handles linear families of CN and SCN",
                    if theorem.scope() == nimlab_theory::Scope::Partial {
                        "a partial result: it decides only some positions"
                    } else {
                        "its P-set needs xor or is not about a circle"
                    }
                )))
            }
        }
    };
    let c = Conjecture {
        game,
        reading: ReadingRule::Any,
        families,
        source: format!("theorem {id}"),
    };
    c.validate()?;
    Ok(c)
}
