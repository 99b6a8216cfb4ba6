//! Complexes made of parts that share no stack, each answered by a complete result.

use super::{cached, gcd, simplices::disjoint_facets, Cache};
use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::complex::{Complex, ComplexKind};
use std::sync::{Arc, OnceLock};

/// A complex whose facets fall into two or more parts that share no stack (connected components),
/// each of which is answered by a complete result (a relabeling of CN(n,k) or Moore's Nim_k with a
/// complete result, or a single facet), in normal play. The game is the sum of the parts. A sum of
/// P-positions is P; a sum where exactly one part is N is N, won by that part's winning move; with two
/// or more N parts the P-sets do not decide (Grundy values would), and the result says nothing.
/// For ECN(m,S,k) with g = gcd(m, S) > 1 the parts are the circles ECN(m/g, S/g, k) on the residue
/// classes mod g. See docs/rules.md#theorem-complex-components.
pub struct Components;

/// One part of a split complex: its stacks (0-based, increasing) and the part as a game of its own.
struct Part {
    stacks: Vec<usize>,
    game: Complex,
}

/// The parts of a complex, when it has two or more and each is decided by a complete result.
struct Split {
    parts: Vec<Part>,
    /// How the parts were named, for the explanation.
    words: String,
}

fn split_of(game: &dyn Game) -> Option<Arc<Split>> {
    static CACHE: Cache<Split> = OnceLock::new();
    cached(&CACHE, game, build_split)
}

fn build_split(c: &Complex) -> Option<Split> {
    if disjoint_facets(c).is_some() || c.facets().iter().all(|f| f.len() == 1) {
        // A sum of single facets: complex-simplices (or, single stacks, Nim) decides every position.
        return None;
    }
    let n = c.stacks();
    let facets = c.facets();
    // Components by union-find over the facets.
    let mut root: Vec<usize> = (0..n).collect();
    fn find(r: &mut [usize], x: usize) -> usize {
        let mut x = x;
        while r[x] != x {
            r[x] = r[r[x]];
            x = r[x];
        }
        x
    }
    for f in facets {
        for w in f.windows(2) {
            let (a, b) = (find(&mut root, w[0]), find(&mut root, w[1]));
            root[a] = b;
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for v in 0..n {
        let r = find(&mut root, v);
        groups.entry(r).or_default().push(v);
    }
    if groups.len() < 2 {
        return None;
    }
    let mut parts: Vec<Part> = Vec::new();
    let ecn = match c.kind() {
        ComplexKind::Ecn { steps, k } => Some((steps.clone(), *k)),
        ComplexKind::Simplicial => None,
    };
    let g = ecn
        .as_ref()
        .map_or(0, |(steps, _)| steps.iter().fold(n, |a, &b| gcd(a, b)));
    let mut stacks_of: Vec<Vec<usize>> = groups.into_values().collect();
    stacks_of.sort();
    for stacks in stacks_of {
        let game = match &ecn {
            // The class r, r+g, ... is the circle ECN(m/g, S/g, k): stack r + jg is its stack j.
            Some((steps, k)) if g > 1 && stacks.len() == n / g => {
                let small: Vec<usize> = steps.iter().map(|s| s / g).collect();
                Complex::ecn(n / g, &small, (*k).min(n / g)).ok()?
            }
            _ => {
                let index = |v: usize| stacks.iter().position(|&w| w == v);
                let local: Vec<Vec<usize>> = facets
                    .iter()
                    .filter(|f| stacks.contains(&f[0]))
                    .map(|f| f.iter().map(|&v| index(v).map(|i| i + 1)).collect())
                    .collect::<Option<_>>()?;
                Complex::simplicial(&local).ok()?
            }
        };
        if !crate::covering(&game, Play::Normal)
            .iter()
            .any(|t| t.scope() == Scope::Complete)
        {
            return None;
        }
        parts.push(Part { stacks, game });
    }
    let names: Vec<String> = parts
        .iter()
        .map(|p| {
            let v: Vec<String> = p.stacks.iter().map(|i| (i + 1).to_string()).collect();
            format!("stacks {} = {}", v.join(","), p.game.id())
        })
        .collect();
    let mut words = format!("{} is the sum of {}", c.id(), names.join(" + "));
    if let (Some((steps, _)), true) = (&ecn, g > 1) {
        words.push_str(&format!(
            " (the residue classes mod gcd({n},{{{}}}) = {g})",
            steps
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ));
    }
    Some(Split { parts, words })
}

impl Theorem for Components {
    fn id(&self) -> &'static str {
        "complex-components"
    }
    fn games(&self) -> &'static str {
        "simplicial(...), ECN(m,S,k) made of two or more parts that share no stack, each answered by a complete result, e.g. ECN(6,{2},2) = CN(3,2) + CN(3,2), ECN(8,{2},2..3) (partial: every part P, or exactly one part N)"
    }
    fn statement(&self) -> &'static str {
        "A complex whose stacks fall into parts that no facet joins is the sum of the parts. When every part with tokens is a P-position of its own game, the position is P; when exactly one part is N, it is N and the winning moves of that part (from its own result) win. With two or more N parts the parts' P-sets do not decide the sum. For ECN(m,S,k) with g = gcd(m, S) > 1 the parts are g copies of ECN(m/g, S/g, k) on the residue classes mod g."
    }
    fn source(&self) -> &'static str {
        "Sums of impartial games (Sprague–Grundy: Grundy values add by xor, P + P = P, N + P = N); Nim on a complex: R. Ehrenborg & E. Steingrímsson, Electronic J. Combin. 3 (1996); ECN splitting into circles mod gcd(m, S): K. Suetsugu, Extended circular nim, arXiv:2501.12045 (2025); each part by its own result; see docs/rules.md#theorem-complex-components"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Partial
    }
    fn covers(&self, game: &dyn Game) -> bool {
        split_of(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let split = split_of(game)?;
        if game.validate(p).is_err() {
            return None;
        }
        let mut n_part: Option<(usize, Verdict)> = None;
        let mut said = Vec::new();
        for (i, part) in split.parts.iter().enumerate() {
            let q: Pos = part.stacks.iter().map(|&s| p[s]).collect();
            let (th, v) = crate::find(&part.game, &q, Play::Normal)?;
            said.push(format!(
                "{} {} is {} by {}{}",
                part.game.id(),
                part.game.format_position(&q),
                if v.is_p { "P" } else { "N" },
                th.id(),
                v.reason
                    .as_ref()
                    .map(|r| format!(" [{r}]"))
                    .unwrap_or_default()
            ));
            if !v.is_p {
                if n_part.is_some() {
                    return None; // two N parts: their Grundy values would decide
                }
                n_part = Some((i, v));
            }
        }
        let reason = format!("{}; {}", split.words, said.join(", "));
        let Some((i, v)) = n_part else {
            return Some(Verdict {
                all_winning_moves: true,
                is_p: true,
                grundy: Some(0),
                winning_moves: Some(Vec::new()),
                family: None,
                reason: Some(format!("{reason}: a sum of P-positions is P")),
            });
        };
        let part = &split.parts[i];
        let moves = v.winning_moves.map(|ms| {
            ms.iter()
                .map(|m| {
                    let mut q = p.to_vec();
                    for (j, &s) in part.stacks.iter().enumerate() {
                        q[s] = m[j];
                    }
                    q
                })
                .collect::<Vec<Pos>>()
        });
        // The reason names the move it gives, so that an explanation quoting the first winning move
        // quotes the one the reasoning leads to (a move in the N part), not another winning move.
        let named = moves
            .as_ref()
            .and_then(|m| m.first())
            .map(|q| {
                format!(
                    ": move to {} (stacks {} of the N part {})",
                    game.format_position(q),
                    part.stacks
                        .iter()
                        .map(|i| (i + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(","),
                    part.game.id()
                )
            })
            .unwrap_or_default();
        Some(Verdict {
            all_winning_moves: false,
            is_p: false,
            grundy: None,
            winning_moves: moves,
            family: None,
            reason: Some(format!(
                "{reason}: one N part and the others P, so N; win in the N part{named}"
            )),
        })
    }
}
