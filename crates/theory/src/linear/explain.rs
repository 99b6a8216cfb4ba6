//! The explanation text of a family verdict: which reading puts a circle in which family.

use super::relations::{Family, Reading};

/// True when the family's shape is a pattern with letters of its own, such as `(x, 0, x, a, b)`: its
/// `a` is not the reading's first slot, so the reading is written with other names (`p1, p2, ...`).
fn shape_has_own_letters(f: &Family) -> bool {
    f.shape.trim_start().starts_with('(')
}

/// The name of slot `i` of a reading: `a, b, c, ...`, or `p1, p2, ...` when the shape's own letters
/// would clash with them.
fn slot(f: &Family, i: usize) -> String {
    if shape_has_own_letters(f) {
        format!("p{}", i + 1)
    } else {
        ((b'a' + i as u8) as char).to_string()
    }
}

/// A relation as written (over the slots `a, b, c, ...`) in the slot names of [`slot`].
fn relation_in_slots(f: &Family, rel: &str) -> String {
    if !shape_has_own_letters(f) {
        return rel.to_string();
    }
    let chars: Vec<char> = rel.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let alone = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_none_or(|x| !x.is_alphanumeric())
        };
        let slot_index = (c as usize).wrapping_sub('a' as usize);
        if c.is_ascii_lowercase()
            && slot_index < f.len
            && alone(i.checked_sub(1))
            && alone(Some(i + 1))
        {
            out.push_str(&slot(f, slot_index));
        } else {
            out.push(c);
        }
    }
    out
}

/// Describes the reading `r` of `p` as a sentence: which stack it starts at and the slot values.
pub fn describe_reading(f: &Family, r: Reading, p: &[u64]) -> String {
    if f.len == 0 {
        return "the empty circle".to_string();
    }
    let t = r.read(p);
    let names: Vec<String> = (0..f.len)
        .map(|i| format!("{}={}", slot(f, i), t[i]))
        .collect();
    let dir = if f.len <= 2 {
        String::new()
    } else if r.forward {
        " going forward".to_string()
    } else {
        " going backward".to_string()
    };
    format!(
        "read from stack {}{}: {}",
        r.start + 1,
        dir,
        names.join(", ")
    )
}

/// "family S4 (shape) (read from stack 3 going forward: a=1, ...; the relations ... hold)".
pub(super) fn family_sentence(f: &Family, r: Reading, p: &[u64]) -> String {
    let rel = if f.relations.is_empty() {
        String::new()
    } else {
        let rels: Vec<String> = f
            .relations
            .iter()
            .map(|r| relation_in_slots(f, r))
            .collect();
        format!("; the relations {} hold", rels.join(", "))
    };
    // A pattern shape such as `(x, 0, x, a, b) with ...` names itself; its label only repeats it.
    let name = if shape_has_own_letters(f) {
        f.shape.to_string()
    } else {
        format!("{} {}", f.label, f.shape)
    };
    format!("family {name} ({}{})", describe_reading(f, r, p), rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_with_its_own_letters_reads_slots_as_p1_p2() {
        let f = Family::new(
            "(x,0,x,a,b)",
            "(x, 0, x, a, b) with x = a + b",
            5,
            &["b = 0", "a = c", "a = d + e"],
        );
        assert_eq!(relation_in_slots(&f, "a = d + e"), "p1 = p4 + p5");
        assert_eq!(relation_in_slots(&f, "a < min(b, e)"), "p1 < min(p2, p5)");
        let g = Family::new("S2", "all stacks equal", 3, &["a = b", "b = c"]);
        assert_eq!(relation_in_slots(&g, "a = b"), "a = b");
    }
}
