//! The registry's linear theorems as conjectures ([`from_theorem`]): each read from its own families
//! templates (the relations of the theory crate), on its own game, or carried over to a relabeled
//! complex through the map of its stacks.

use super::{readings, Conjecture, PFamily, ReadingRule, Ruleset, RulesetKind};
use crate::expr::{parse_relation, Atom, Cmp, Expr};
use nimlab_core::{Arg, Error, Play, Refusal, Result};
use nimlab_theory::linear::Family;
use std::sync::Arc;

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
            slots: None,
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
///
/// For a complex that is a relabeling of CN(n,k), `id` may name a result about CN(n,k) (or be
/// `relabeled`, which takes the first linear one): its families are carried over through the
/// relabeling (slot j of a family is the complex's stack that CN's stack j corresponds to) and read
/// under the complex's automorphisms.
pub fn from_theorem(id: &str, game: Ruleset) -> Result<Conjecture> {
    if game.kind == RulesetKind::Complex {
        return from_relabeled_theorem(id, game);
    }
    from_circle_theorem(id, game)
}

fn from_relabeled_theorem(id: &str, game: Ruleset) -> Result<Conjecture> {
    let rules = game
        .complex
        .clone()
        .expect("a complex ruleset has its rules");
    let no = |why: String| Error::Unsupported(format!("{}: {why}", rules.id));
    let (target, map) = rules.relabeling.clone().ok_or_else(|| {
        Error::refused(
            Refusal::new(format!(
                "{}: not a relabeling of CN(n,k) or Moore's Nim, so no built-in result applies; give the families with ",
                rules.id
            ))
            .given(Arg::Families),
        )
    })?;
    // Moore's Nim_k: every binary digit's count of ones is a multiple of k + 1 (colsum; the
    // automata prover decides it). The relation is symmetric, so the stacks are read as they are.
    let moore_k = target
        .strip_prefix("moore(")
        .and_then(|t| t.strip_suffix(')'))
        .and_then(|t| t.parse::<u64>().ok());
    if let (Some(k), "moore" | "relabeled") = (moore_k, id) {
        let n = map.len();
        let family = PFamily::parse(
            "column sums divisible by k+1",
            n,
            &[format!("colsum({}, {}) = 0", k + 1, letters(n).join(", "))],
        )?;
        let c = Conjecture {
            game,
            reading: ReadingRule::Plain,
            families: vec![family],
            source: format!(
                "theorem moore through the relabeling {}",
                describe_map(&map, &target)
            ),
            bits: None,
            play: Play::Normal,
        };
        c.validate_shape()?;
        return Ok(c);
    }
    let cn = match Ruleset::parse(&target) {
        Ok(r) if r.kind == RulesetKind::Cn => r,
        _ => {
            return Err(Error::refused(
                Refusal::new(format!(
                    "{}: a relabeling of {target}, whose P-set is not a union of linear families (xor); give the families with ",
                    rules.id
                ))
                .given(Arg::Families),
            ))
        }
    };
    let ids: Vec<&str> = if id == "relabeled" {
        nimlab_theory::covering(cn.game().as_ref(), nimlab_core::Play::Normal)
            .iter()
            .map(|t| t.id())
            .collect()
    } else {
        vec![id]
    };
    let mut last = no(format!(
        "no result about {target} is a union of linear families"
    ));
    for tid in ids {
        match from_circle_theorem(tid, cn.clone()) {
            Ok(c) => {
                // CN stack j is the complex's stack inv[j].
                let mut inv = vec![0; map.len()];
                for (i, &j) in map.iter().enumerate() {
                    inv[j] = i;
                }
                // Read under the complex's automorphisms; when that group is too large to list, under
                // CN's rotations and reflections carried over (a subgroup of it: the theorem's own
                // reading, and still a group of automorphisms, so the symmetry breaking stays sound).
                let mut game = game.clone();
                if rules.automorphisms.is_none() {
                    let mut r = (*rules).clone();
                    r.automorphisms = Some(
                        readings(map.len())
                            .iter()
                            .map(|d| map.iter().map(|&j| inv[d[j]]).collect())
                            .collect(),
                    );
                    game.complex = Some(Arc::new(r));
                }
                let families = c
                    .families
                    .into_iter()
                    .map(|mut f| {
                        f.slots = Some(inv.clone());
                        f
                    })
                    .collect();
                let out = Conjecture {
                    game,
                    reading: ReadingRule::Any,
                    families,
                    source: format!(
                        "theorem {tid} through the relabeling {}",
                        describe_map(&map, &target)
                    ),
                    bits: c.bits,
                    play: c.play,
                };
                out.validate_shape()?;
                return Ok(out);
            }
            Err(e) => last = e,
        }
    }
    Err(no(format!(
        "a relabeling of {target} ({}), but {}",
        describe_map(&map, &target),
        last
    )))
}

/// `stacks 1,2,3 -> CN(3,2) stacks 2,1,3`.
fn describe_map(map: &[usize], target: &str) -> String {
    let from: Vec<String> = (1..=map.len()).map(|i| i.to_string()).collect();
    let to: Vec<String> = map.iter().map(|j| (j + 1).to_string()).collect();
    format!(
        "stacks {} -> {target} stacks {}",
        from.join(","),
        to.join(",")
    )
}

fn from_circle_theorem(id: &str, game: Ruleset) -> Result<Conjecture> {
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
            // Opposite stacks differ by the same q >= 0 with alternating sign; the smaller stacks of
            // the three opposite pairs (a, e, c) have nim-sum 0. Needs xor: proved below 2^w only.
            "cn-6-4" => vec![one(
                "(a,b+q,c,a+q,b,c+q)",
                6,
                ["d - a = b - e", "b - e = f - c", "a <= d", "xor(a, c, e) = 0"]
                    .map(String::from)
                    .to_vec(),
            )?],
            "bouton" => vec![one(
                "nim-sum 0",
                n,
                vec![format!("xor({}) = 0", letters(n).join(", "))],
            )?],
            // Bouton's misère rule: every heap at most 1 and an odd number of 1s, or some heap of 2
            // or more and nim-sum 0; a result about misère play (the conjecture's `play`).
            "bouton-misere" => {
                let all = letters(n).join(", ");
                let sum = letters(n).join(" + ");
                vec![
                    one(
                        "every heap at most 1, an odd number of 1s",
                        n,
                        vec![format!("max({all}) <= 1"), format!("mod({sum}, 2) = 1")],
                    )?,
                    one(
                        "some heap of 2 or more, nim-sum 0",
                        n,
                        vec![format!("max({all}) >= 2"), format!("xor({all}) = 0")],
                    )?,
                ]
            }
            // Lemma 5 of the CN(7,4) paper, on CN(2l+1, l+1): (x, 0^(l-1), x, a1, ..., al) with
            // a1 + ... + al = x. A partial result: its members are P-positions, not all of them
            // (proved as a subset, `prove_subset`).
            "cn-lemma5-s1" if n % 2 == 1 && n >= 3 => {
                let l = n / 2;
                let v = letters(n);
                let mut rel = vec![format!("a = {}", v[l])];
                rel.extend((1..l).map(|i| format!("{} = 0", v[i])));
                rel.push(format!("{} = a", v[l + 1..].join(" + ")));
                vec![one("(x, 0^(l-1), x, a1..al), a1 + ... + al = x", n, rel)?]
            }
            // SCN(n,1) is Nim on the piles: the circles of every length 0..=n with nim-sum 0 (a
            // single positive pile never has it). Needs xor: --automata, or --bits W.
            "scn-n-1" => {
                let mut fams = vec![one("()", 0, vec![])?];
                for len in 2..=n {
                    fams.push(one(
                        &format!("nim-sum 0, {len} piles"),
                        len,
                        vec![format!("xor({}) = 0", letters(len).join(", "))],
                    )?);
                }
                fams
            }
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
        bits: None,
        // The result's own convention (misère for bouton-misere).
        play: theorem.play(),
    };
    c.validate_shape()?;
    Ok(c)
}
