//! Automata in Walnut's text format (the files of Walnut's `Automata Library/`), so that a Walnut user
//! and nimlab can exchange the automaton of a P-set.
//!
//! The format, as nimlab reads and writes it:
//!
//! ```text
//! msd_2 msd_2 msd_2      # one number system per input; nimlab takes msd_2 (or msd) only
//!
//! 0 1                    # a state: its number and its output (1 accepting, 0 not)
//! 0 0 0 -> 0             # a transition: one digit per input, then the state it leads to
//! 0 1 1 -> 0
//! 1 0 1 -> 0
//! 1 1 0 -> 0
//! ```
//!
//! The first state written is the initial one; the states are numbered `0..Q` (in any order). A
//! letter with no transition leads to a rejecting dead state (Walnut's convention, and what
//! [`to_walnut`] leaves out). A digit may be `*` (every digit). A letter with several targets (one
//! line `... -> s t`, or two lines with the same digits) makes the automaton nondeterministic; it is
//! determinised on reading. `#` starts a comment; blank lines are skipped. A file holding only
//! `true` or `false` is the automaton accepting every tuple or none.
//!
//! nimlab's convention: input `i` is stack `i` of the position (the first input the first stack, as
//! nimlab writes positions); a word is read most significant digit first, all stacks in parallel,
//! each letter holding one binary digit of every stack; a position is accepted when its word is, with
//! leading zero letters or without (the automaton must give the same answer either way, as Walnut's
//! msd automata do; [`crate::prove_members`] refuses one that does not).
//!
//! ## SCN: one automaton per circle length
//!
//! A set of positions of SCN(n,k) is written as one file of sections, one per circle length L = 0..n,
//! each headed by the comment line `# length L` (exactly that: `#`, the word `length`, the number).
//! The section of length 0 (the empty circle) holds `true` (in the set) or `false`; the section of
//! length L ≥ 1 is an automaton in the format above with L msd_2 inputs, input i = pile i of the
//! circle. Every pile of a circle is at least 1: what an automaton accepts with a zero pile is not a
//! circle and is ignored. Lines before the first section may only be comments or blank. The set
//! must be one of circles (each automaton invariant under rotation and reflection;
//! [`crate::prove_scn_members`] refuses it otherwise). [`scn_to_walnut`] writes such a file and
//! [`scn_from_walnut`] reads it, naming the file's line in every error:
//!
//! ```text
//! # SCN(3,1): the P-positions (Nim's on every circle)
//! # length 0
//! true
//! # length 1
//! false
//! # length 2
//! msd_2 msd_2
//!
//! 0 1
//! 0 0 -> 0
//! 1 1 -> 0
//! # length 3
//! msd_2 msd_2 msd_2
//! ...
//! ```

use crate::automata::Dfa;
use nimlab_core::{Error, Result};
use std::collections::{BTreeSet, HashMap};

/// Most states a file may declare.
pub const MAX_STATES: usize = 10_000_000;

/// The automaton in Walnut's text format (msd_2 on every input). States that cannot lead to
/// acceptance are left out with the transitions into them (Walnut's dead state), except the initial
/// state, which is always written.
pub fn to_walnut(d: &Dfa) -> String {
    let m = d.tracks;
    let n = d.states() as u32;
    // States from which an accepting state can be reached.
    let mut live: Vec<bool> = (0..n).map(|s| d.is_final(s)).collect();
    loop {
        let mut changed = false;
        for s in 0..n {
            if !live[s as usize] && (0..1u32 << m).any(|l| live[d.step(s, l) as usize]) {
                live[s as usize] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Number the written states in order of discovery from the initial one.
    let mut id: HashMap<u32, usize> = HashMap::from([(0, 0)]);
    let mut order = vec![0u32];
    let mut i = 0;
    while i < order.len() {
        let s = order[i];
        for l in 0..1u32 << m {
            let t = d.step(s, l);
            if live[t as usize] && !id.contains_key(&t) {
                id.insert(t, order.len());
                order.push(t);
            }
        }
        i += 1;
    }
    let mut out = vec!["msd_2"; m].join(" ");
    out.push('\n');
    for (k, &s) in order.iter().enumerate() {
        out.push_str(&format!("\n{k} {}\n", d.is_final(s) as u8));
        // Letters in the order of their digits read as a binary number, the first input first.
        for x in 0..1u32 << m {
            let l: u32 = (0..m).map(|b| ((x >> (m - 1 - b)) & 1) << b).sum();
            let t = d.step(s, l);
            if let Some(&j) = id.get(&t).filter(|_| live[t as usize]) {
                let digits: Vec<String> = (0..m).map(|b| ((l >> b) & 1).to_string()).collect();
                out.push_str(&format!("{} -> {j}\n", digits.join(" ")));
            }
        }
    }
    out
}

fn bad(line: usize, what: impl std::fmt::Display) -> Error {
    Error::Unsupported(format!("line {line}: {what}"))
}

/// Reads an automaton in Walnut's text format with `tracks` inputs (the stacks of the game), all
/// msd_2; the result is complete, deterministic and minimal. A file that does not parse gives one
/// line naming the line number.
pub fn from_walnut(text: &str, tracks: usize) -> Result<Dfa> {
    if tracks > crate::automata::MAX_TRACKS {
        return Err(Error::Unsupported(format!(
            "{tracks} inputs; automata here have at most {}",
            crate::automata::MAX_TRACKS
        )));
    }
    let letters = 1usize << tracks;
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((first, header)) = lines.next() else {
        return Err(Error::Unsupported(
            "the automaton file is empty (no msd_2 header line)".into(),
        ));
    };
    if header == "true" || header == "false" {
        if let Some((i, _)) = lines.next() {
            return Err(bad(i, "nothing may follow a `true` or `false` automaton"));
        }
        let accept = header == "true";
        return Ok(Dfa::from_parts(tracks, vec![0; letters], vec![accept]).expect("one state"));
    }
    let systems: Vec<&str> = header.split_whitespace().collect();
    for s in &systems {
        if *s != "msd_2" && *s != "msd" {
            return Err(bad(
                first,
                format!(
                    "input number system `{s}`: nimlab reads msd_2 only (binary, most significant digit first)"
                ),
            ));
        }
    }
    if systems.len() != tracks {
        return Err(bad(
            first,
            format!(
                "{} inputs in the header; the game's positions have {tracks} stacks",
                systems.len()
            ),
        ));
    }
    // Per declared state: its output and, per letter, the targets (a set: the file may be an NFA).
    let mut order: Vec<usize> = Vec::new();
    let mut output: HashMap<usize, bool> = HashMap::new();
    let mut targets: HashMap<usize, Vec<BTreeSet<usize>>> = HashMap::new();
    let mut used: Vec<(usize, usize)> = Vec::new();
    let mut current: Option<usize> = None;
    for (i, line) in lines {
        if let Some((lhs, rhs)) = line.split_once("->") {
            let Some(s) = current else {
                return Err(bad(i, "a transition before any state"));
            };
            let digits: Vec<&str> = lhs.split_whitespace().collect();
            if digits.len() != tracks {
                return Err(bad(
                    i,
                    format!(
                        "{} digits; a letter has one per input ({tracks})",
                        digits.len()
                    ),
                ));
            }
            let mut choices: Vec<Vec<u32>> = Vec::with_capacity(tracks);
            for d in &digits {
                choices.push(match *d {
                    "0" => vec![0],
                    "1" => vec![1],
                    "*" => vec![0, 1],
                    other => {
                        return Err(bad(
                            i,
                            format!("digit `{other}`: msd_2 digits are 0, 1 or *"),
                        ))
                    }
                });
            }
            let to: Vec<usize> = rhs
                .split_whitespace()
                .map(|t| {
                    t.parse::<usize>()
                        .map_err(|_| bad(i, format!("target state `{t}` is not a state number")))
                })
                .collect::<Result<_>>()?;
            if to.is_empty() {
                return Err(bad(i, "a transition names no target state"));
            }
            for &t in &to {
                used.push((i, t));
            }
            let mut ls = vec![0u32];
            for (b, c) in choices.iter().enumerate() {
                ls = ls
                    .iter()
                    .flat_map(|&l| c.iter().map(move |&d| l | (d << b)))
                    .collect();
            }
            let row = targets.get_mut(&s).expect("declared");
            for l in ls {
                row[l as usize].extend(to.iter().copied());
            }
        } else {
            let parts: Vec<&str> = line.split_whitespace().collect();
            let (Some(s), Some(o), None) = (parts.first(), parts.get(1), parts.get(2)) else {
                return Err(bad(
                    i,
                    format!("`{line}` is neither a state (`number output`) nor a transition (`digits -> state`)"),
                ));
            };
            let s: usize = s
                .parse()
                .map_err(|_| bad(i, format!("state `{s}` is not a state number")))?;
            let o = match *o {
                "0" => false,
                "1" => true,
                other => {
                    return Err(bad(
                        i,
                        format!("output `{other}`: an automaton's states output 0 or 1 (word automata with other outputs are not P-sets)"),
                    ))
                }
            };
            if output.insert(s, o).is_some() {
                return Err(bad(i, format!("state {s} is declared twice")));
            }
            if output.len() > MAX_STATES {
                return Err(bad(i, format!("more than {MAX_STATES} states")));
            }
            targets.insert(s, vec![BTreeSet::new(); letters]);
            order.push(s);
            current = Some(s);
        }
    }
    let q = order.len();
    if q == 0 {
        return Err(Error::Unsupported(
            "the automaton file declares no state".into(),
        ));
    }
    if let Some(s) = (0..q).find(|s| !output.contains_key(s)) {
        return Err(Error::Unsupported(format!(
            "the states must be numbered 0 to {}; state {s} is not declared",
            q - 1
        )));
    }
    if let Some((i, t)) = used.iter().find(|(_, t)| !output.contains_key(t)) {
        return Err(bad(*i, format!("state {t} is not declared")));
    }
    // The subset construction from the first declared state (the empty set is the dead state).
    let start: Vec<usize> = vec![order[0]];
    let mut index: HashMap<Vec<usize>, u32> = HashMap::from([(start.clone(), 0)]);
    let mut sets = vec![start];
    let mut trans: Vec<u32> = Vec::new();
    let mut k = 0;
    while k < sets.len() {
        for l in 0..letters {
            let next: BTreeSet<usize> = sets[k]
                .iter()
                .flat_map(|s| targets[s].get(l).into_iter().flatten().copied())
                .collect();
            let next: Vec<usize> = next.into_iter().collect();
            let id = match index.get(&next) {
                Some(&id) => id,
                None => {
                    if sets.len() >= MAX_STATES {
                        return Err(Error::TooLarge(format!(
                            "determinising the automaton gives more than {MAX_STATES} states"
                        )));
                    }
                    let id = sets.len() as u32;
                    index.insert(next.clone(), id);
                    sets.push(next);
                    id
                }
            };
            trans.push(id);
        }
        k += 1;
    }
    let fin = sets
        .iter()
        .map(|set| set.iter().any(|s| output[s]))
        .collect();
    let d =
        Dfa::from_parts(tracks, trans, fin).map_err(|e| Error::Unsupported(format!("{e:?}")))?;
    Ok(d.minimize())
}

/// The header of a section of an SCN file: `# length L`.
fn section_header(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix('#')?.trim_start();
    let num = rest.strip_prefix("length")?;
    if !num.starts_with(char::is_whitespace) {
        return None;
    }
    let num = num.trim();
    (!num.is_empty() && num.bytes().all(|b| b.is_ascii_digit())).then_some(num)
}

/// The sets of an SCN(n,k) characterization in the SCN file format (module notes): `empty` (the
/// empty circle in the set or not) and `per_length[L - 1]`, the automaton of circles of L piles.
pub fn scn_to_walnut(empty: bool, per_length: &[Dfa]) -> String {
    let mut out = format!("# length 0\n{empty}\n");
    for (i, d) in per_length.iter().enumerate() {
        out.push_str(&format!("# length {}\n{}", i + 1, to_walnut(d)));
    }
    out
}

/// Reads a file in the SCN format (module notes) for circles of at most `n` piles: whether the empty
/// circle is in the set, and the automaton of each length 1..=n (index L - 1), each complete,
/// deterministic and minimal. Errors are one line naming the file's line.
pub fn scn_from_walnut(text: &str, n: usize) -> Result<(bool, Vec<Dfa>)> {
    // (length, header line, body lines).
    let mut sections: Vec<(usize, usize, Vec<&str>)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let no = i + 1;
        if let Some(num) = section_header(line) {
            let len: usize = num.parse().ok().filter(|&l| l <= n).ok_or_else(|| {
                bad(
                    no,
                    format!("`{}`: circles have 0 to {n} piles", line.trim()),
                )
            })?;
            if let Some((_, at, _)) = sections.iter().find(|s| s.0 == len) {
                return Err(bad(
                    no,
                    format!("a second section for length {len} (the first is at line {at})"),
                ));
            }
            sections.push((len, no, Vec::new()));
            continue;
        }
        match sections.last_mut() {
            Some(s) => s.2.push(line),
            None => {
                let t = line.split('#').next().unwrap_or("").trim();
                if !t.is_empty() {
                    return Err(bad(
                        no,
                        "text before the first section: an SCN file is sections headed `# length L` (L = 0 to n)",
                    ));
                }
            }
        }
    }
    if let Some(len) = (0..=n).find(|l| !sections.iter().any(|s| s.0 == *l)) {
        return Err(Error::Unsupported(format!(
            "no section `# length {len}`: an SCN file has one section per circle length 0 to {n}"
        )));
    }
    sections.sort_by_key(|s| s.0);
    let mut empty = false;
    let mut per_length = Vec::with_capacity(n);
    for (len, at, body) in sections {
        if len == 0 {
            let words: Vec<(usize, &str)> = body
                .iter()
                .enumerate()
                .map(|(j, l)| (at + 1 + j, l.split('#').next().unwrap_or("").trim()))
                .filter(|(_, l)| !l.is_empty())
                .collect();
            empty = match words.as_slice() {
                [(_, "true")] => true,
                [(_, "false")] => false,
                [] => {
                    return Err(bad(
                        at,
                        "the section of the empty circle holds `true` or `false`, and is empty",
                    ))
                }
                [(j, w), ..] => {
                    return Err(bad(
                        *j,
                        format!(
                        "`{w}`: the section of the empty circle holds one line, `true` or `false`"
                    ),
                    ))
                }
            };
            continue;
        }
        // Blank lines in front, so that the errors name the file's lines.
        let padded = format!("{}{}", "\n".repeat(at), body.join("\n"));
        let d = from_walnut(&padded, len).map_err(|e| {
            Error::Unsupported(format!("the section of length {len} (line {at}): {}", e))
        })?;
        per_length.push(d);
    }
    Ok((empty, per_length))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NIM3: &str = "msd_2 msd_2 msd_2\n\n0 1\n0 0 0 -> 0\n0 1 1 -> 0\n1 0 1 -> 0\n1 1 0 -> 0\n";

    fn tuples(m: usize, hi: u128) -> Vec<Vec<u128>> {
        let mut out = vec![vec![]];
        for _ in 0..m {
            out = out
                .into_iter()
                .flat_map(|v: Vec<u128>| {
                    (0..=hi).map(move |x| {
                        let mut v = v.clone();
                        v.push(x);
                        v
                    })
                })
                .collect();
        }
        out
    }

    #[test]
    fn nim_file_is_bouton_and_round_trips() {
        let d = from_walnut(NIM3, 3).unwrap();
        for v in tuples(3, 20) {
            assert_eq!(d.accepts(&v), v[0] ^ v[1] ^ v[2] == 0, "{v:?}");
        }
        let text = to_walnut(&d);
        assert_eq!(text, NIM3);
        let back = from_walnut(&text, 3).unwrap();
        assert!(back.differs_from(&d).is_none());
    }

    #[test]
    fn wildcards_comments_and_nondeterminism() {
        // x >= y over two inputs, hand-written as an NFA with a wildcard: state 1 = "x already larger".
        let text =
            "# x >= y\nmsd_2 msd\n0 1\n0 0 -> 0\n1 1 -> 0\n1 0 -> 1\n1 1\n* * -> 1\n0 0 -> 1 1\n";
        let d = from_walnut(text, 2).unwrap();
        for v in tuples(2, 20) {
            assert_eq!(d.accepts(&v), v[0] >= v[1], "{v:?}");
        }
        let back = from_walnut(&to_walnut(&d), 2).unwrap();
        assert!(back.differs_from(&d).is_none());
        assert!(from_walnut("true\n", 2).unwrap().accepts(&[3, 9]));
        assert!(!from_walnut("false", 2).unwrap().accepts(&[0, 0]));
    }

    #[test]
    fn bad_files_name_the_line() {
        let cases = [
            ("", "empty"),
            ("lsd_2 lsd_2 lsd_2\n0 1\n", "line 1"),
            ("msd_2 msd_2\n0 1\n", "line 1"),
            ("msd_2 msd_2 msd_2\n0 1\n0 0 -> 0\n", "line 3"),
            ("msd_2 msd_2 msd_2\n0 1\n0 0 2 -> 0\n", "line 3"),
            ("msd_2 msd_2 msd_2\n0 1\n0 0 0 -> 5\n", "line 3"),
            ("msd_2 msd_2 msd_2\n0 0 0 -> 0\n", "line 2"),
            ("msd_2 msd_2 msd_2\n0 2\n", "line 2"),
            ("msd_2 msd_2 msd_2\n0 1\n0 1\n", "line 3"),
            ("msd_2 msd_2 msd_2\n0 1\nhello\n", "line 3"),
            ("msd_2 msd_2 msd_2\n1 1\n", "numbered"),
            ("true\n0 1\n", "line 2"),
        ];
        for (text, want) in cases {
            let e = from_walnut(text, 3).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
