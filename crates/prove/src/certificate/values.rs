//! The certificate of `nimlab prove 'ET(3)'|'ENTROPY(3)' --grundy-value V --automata`: each value
//! set proved, `G_u.txt`, as an automaton in Walnut's text format.

use super::{Certificate, File, Role};
use crate::automata::{Dfa, Transfer};
use serde_json::json;

/// A run of the value sets: what was asked, what was decided, and the sets proved
/// (`ValueSets::proved`: `G_0`, ..., in order).
pub struct ValueSetsRun<'a> {
    pub game: &'a str,
    pub moves: Transfer,
    /// `--grundy-value`: the last value asked for.
    pub value: u16,
    /// `--grundy-bits`: the box of the exact table the sets were learned from.
    pub bits: u32,
    /// `proved`, `refuted` or `unknown`.
    pub verdict: &'a str,
    /// The report's lines, one per value decided.
    pub lines: &'a [String],
    pub proved: &'a [Dfa],
}

/// The file of the set of value `u`.
pub fn file_name(u: usize) -> String {
    format!("G_{u}.txt")
}

/// `G_0 and G_1`, `G_0, ..., G_v`.
fn sets(v: usize) -> String {
    match v {
        0 => "G_0".into(),
        1 => "G_0 and G_1".into(),
        _ => format!("G_0, ..., G_{v}"),
    }
}

/// The certificate of a run of the value sets.
pub fn of_value_sets(run: &ValueSetsRun) -> Certificate {
    let files: Vec<File> = run
        .proved
        .iter()
        .enumerate()
        .map(|(u, d)| File {
            name: file_name(u),
            role: Role::Automaton,
            text: crate::walnut::to_walnut(d),
            about: format!(
                "G_{u}, the positions of Grundy value {u}, as an automaton in Walnut's text format"
            ),
        })
        .collect();
    let names: Vec<String> = (0..run.proved.len()).map(file_name).collect();
    let about = vec![
        ("game".to_string(), json!(run.game)),
        ("claim".into(), json!("Grundy value sets")),
        ("play".into(), json!("normal")),
        ("method".into(), json!("automata")),
        ("grundy_value".into(), json!(run.value)),
        ("grundy_bits".into(), json!(run.bits)),
        ("verdict".into(), json!(run.verdict)),
        ("proved".into(), json!(run.proved.len())),
        ("automata".into(), json!(names)),
        ("lines".into(), json!(run.lines)),
    ];
    let (domain, moves) = match run.moves {
        Transfer::Et => (
            "every box at least 1",
            "empty box i and move chips of box j into it: y_i + y_j = x_j, y_i >= 1, y_j >= 1, the other boxes equal",
        ),
        Transfer::Entropy => (
            "entries at least 0; a translate of a position has the same value",
            "move chips from box i to box j: y_i + y_j = x_i + x_j, x_j + 1 <= y_j <= x_i - 1, the other boxes equal",
        ),
    };
    let proved = match run.proved.len() {
        0 => "no value set was proved".to_string(),
        1 => "G_0 is proved for every box size".to_string(),
        n => format!("{} are proved for every box size", sets(n - 1)),
    };
    let summary = vec![
        format!(
            "Claim: in {} (normal play) {} of the positions of each Grundy value up to {}, for every box size; nimlab's verdict: **{}** ({proved}).",
            run.game,
            if run.value == 0 { "the set G_0".to_string() } else { format!("the sets {}", sets(run.value.into())) },
            run.value,
            run.verdict
        ),
        format!(
            "Each `G_u.txt` is the set of the positions of Grundy value u as an automaton in Walnut's text format: three msd_2 inputs (input i = box i), read in binary, most significant digit first, on the domain ({domain}). Each was learned from an exact table of the box below 2^{} per box and proved for every box size by the value equation: a set S of the domain is G_v exactly when S = dom ∩ Pre(G_0) ∩ ... ∩ Pre(G_(v-1)) minus Pre(S), where Pre(A) is the set of positions with an option in A (by induction along the moves). With the sets below v proved, both sides are automata, and nimlab decided their equality. The option relation: {moves}. With Walnut, the equation can be stated again on these files.",
            run.bits
        ),
    ];
    Certificate {
        title: format!("the Grundy value sets of {}, by automata", run.game),
        about,
        summary,
        notes: vec![format!(
            "## What was decided\n\n{}",
            run.lines
                .iter()
                .map(|l| format!("- {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        )],
        files,
        conditions: Vec::new(),
    }
}
