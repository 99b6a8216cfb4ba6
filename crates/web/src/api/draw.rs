//! How the page draws a game: the drawing kind and largest window from the game's layout and move
//! structure, and for complexes the geometry of the graph (vertices, edges, shaded faces, facets).

use nimlab_core::{Game, Layout, MoveStructure, Rng};
use serde_json::{json, Value};

/// How the page draws a game, from its layout and move structure: `circle` (stacks on a circle,
/// moves inside windows), `shrinking` (a circle whose emptied piles vanish), `heaps` (a row, moves
/// inside faces of at most `window` heaps), `boxes` (moves chosen from the list of options), with the
/// largest window (null for `boxes`). Complexes (`simplicial(...)`, `ECN(...)`) are drawn as `graph`
/// instead, from [`graph_json`].
pub(crate) fn drawing(game: &dyn Game) -> (&'static str, Value) {
    let len = game
        .random_position(&mut Rng::new(1), 3)
        .map_or(0, |p| p.len());
    match (game.layout(), game.move_structure(len)) {
        (Layout::Circle, Some(MoveStructure::ShrinkingWindows { k, .. })) => {
            ("shrinking", json!(k))
        }
        (layout, Some(MoveStructure::Faces(f))) => (
            if layout == Layout::Circle {
                "circle"
            } else {
                "heaps"
            },
            json!(f.iter().map(|w| w.len()).max().unwrap_or(1)),
        ),
        _ => ("boxes", Value::Null),
    }
}

/// The geometry of a complex's drawing (`drawing` = `graph`), computed from its facets: the stacks as
/// vertices on a unit circle (vertex i at angle -90° + 360° i / n, so every facet's polygon is
/// convex), the edges, the faces of 3 or more vertices (shaded on the page) and every facet (a move
/// lowers stacks inside one of them).
///
/// For ECN(m,S,k) (`kind` = `ecn`) the edges are the step chords {i, i+s} for each s in S whose
/// facets hold two or more stacks (m chords per step, m/2 when 2s = m), each with its `step`, and no
/// face is shaded (the chords show the facets). For any other complex (`kind` = `complex`) the
/// edges are the pairs inside a facet (`step` null) and the faces are the facets of 3 or more stacks,
/// their vertices in order around the circle.
pub fn graph_json(game: &dyn Game) -> Option<Value> {
    use nimlab_games::complex::{Complex, ComplexKind};
    let c = game.downcast_ref::<Complex>()?;
    let n = c.stacks();
    let round = |v: f64| (v * 10_000.0).round() / 10_000.0;
    let vertices: Vec<Value> = (0..n)
        .map(|i| {
            let a = -std::f64::consts::FRAC_PI_2 + 2.0 * std::f64::consts::PI * i as f64 / n as f64;
            json!({"id": i, "x": round(a.cos()), "y": round(a.sin())})
        })
        .collect();
    let facets = c.facets();
    let (kind, steps, edges, faces) = match c.kind() {
        ComplexKind::Ecn { steps, k } => {
            let mut edges = Vec::new();
            // A step's facets hold min(k, m / gcd(m, s)) >= min(k, 2) stacks: chords when k >= 2.
            for &s in steps.iter().filter(|_| *k >= 2) {
                let mut seen = std::collections::BTreeSet::new();
                for i in 0..n {
                    let (a, b) = (i, (i + s) % n);
                    if seen.insert((a.min(b), a.max(b))) {
                        edges.push(json!({"a": a, "b": b, "step": s}));
                    }
                }
            }
            ("ecn", json!(steps), edges, Vec::new())
        }
        ComplexKind::Simplicial => {
            let mut pairs = std::collections::BTreeSet::new();
            for f in facets {
                for (x, &a) in f.iter().enumerate() {
                    for &b in &f[x + 1..] {
                        pairs.insert((a, b));
                    }
                }
            }
            let edges = pairs
                .into_iter()
                .map(|(a, b)| json!({"a": a, "b": b, "step": null}))
                .collect();
            // Facets are sorted, and sorted stacks lie in order around the circle.
            let faces = facets.iter().filter(|f| f.len() >= 3).cloned().collect();
            ("complex", Value::Null, edges, faces)
        }
    };
    Some(json!({
        "kind": kind,
        "stacks": n,
        "steps": steps,
        "vertices": vertices,
        "edges": edges,
        "faces": faces,
        "facets": facets,
    }))
}
