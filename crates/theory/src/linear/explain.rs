//! The explanation text of a family verdict: which reading puts a circle in which family.

use super::relations::{Family, Reading};

/// Describes the reading `r` of `p` as a sentence: which stack it starts at and the slot values.
pub fn describe_reading(f: &Family, r: Reading, p: &[u64]) -> String {
    if f.len == 0 {
        return "the empty circle".to_string();
    }
    let t = r.read(p);
    let names: Vec<String> = (0..f.len)
        .map(|i| format!("{}={}", (b'a' + i as u8) as char, t[i]))
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
        format!("; the relations {} hold", f.relations.join(", "))
    };
    format!(
        "family {} {} ({}{})",
        f.label,
        f.shape,
        describe_reading(f, r, p),
        rel
    )
}
