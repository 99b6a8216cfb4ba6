//! The shared position syntax: `1,7,5`, `(1,7,5)`, `[1, 7, 5]` or `"1 7 5"`.

use crate::error::{Error, Result};

/// Parses a list of non-negative integers separated by commas and/or white space, optionally
/// enclosed in parentheses or brackets. `()` is the empty position.
pub fn parse_list(text: &str) -> Result<Vec<u64>> {
    let t = text.trim();
    let inner = strip_brackets(t);
    let mut out = Vec::new();
    for tok in inner.split(|c: char| c == ',' || c.is_whitespace()) {
        if tok.is_empty() {
            continue;
        }
        out.push(parse_entry(tok)?);
    }
    if out.is_empty() && !inner.trim().is_empty() {
        return Err(Error::BadPosition(format!("cannot read position '{text}'")));
    }
    if inner.contains(",,")
        || inner.trim_start().starts_with(',')
        || inner.trim_end().ends_with(',')
    {
        return Err(Error::BadPosition(format!(
            "position '{text}' has an empty entry between commas"
        )));
    }
    Ok(out)
}

fn strip_brackets(t: &str) -> &str {
    for (open, close) in [('(', ')'), ('[', ']')] {
        if t.starts_with(open) && t.ends_with(close) && t.len() >= 2 {
            return &t[1..t.len() - 1];
        }
    }
    t
}

/// Parses one entry: a non-negative decimal integer that fits in 64 bits.
pub fn parse_entry(tok: &str) -> Result<u64> {
    if tok.starts_with('-') && tok[1..].chars().all(|c| c.is_ascii_digit()) && tok.len() > 1 {
        return Err(Error::BadPosition(format!(
            "negative height '{tok}': heights must be non-negative integers"
        )));
    }
    if !tok.chars().all(|c| c.is_ascii_digit()) {
        return Err(Error::BadPosition(format!(
            "'{tok}' is not a non-negative integer"
        )));
    }
    tok.parse::<u64>()
        .map_err(|_| Error::BadPosition(format!("'{tok}' is too large (at most {})", u64::MAX)))
}

/// Prints a position as `(a,b,c)`.
pub fn format_tuple(p: &[u64]) -> String {
    let parts: Vec<String> = p.iter().map(|x| x.to_string()).collect();
    format!("({})", parts.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn accepts_the_documented_forms() {
        let want = vec![1, 7, 5, 6, 2, 3, 6];
        assert_eq!(parse_list("1,7,5,6,2,3,6").unwrap(), want);
        assert_eq!(parse_list("(1,7,5,6,2,3,6)").unwrap(), want);
        assert_eq!(parse_list("1 7 5 6 2 3 6").unwrap(), want);
        assert_eq!(parse_list("[1, 7, 5, 6, 2, 3, 6]").unwrap(), want);
        assert_eq!(parse_list("()").unwrap(), Vec::<u64>::new());
        assert_eq!(parse_list("").unwrap(), Vec::<u64>::new());
    }
    #[test]
    fn rejects_bad_entries_with_a_message() {
        assert!(parse_list("1,-2,3")
            .unwrap_err()
            .to_string()
            .contains("negative"));
        assert!(parse_list("1,x,3")
            .unwrap_err()
            .to_string()
            .contains("not a non-negative"));
        assert!(parse_list("1,,3").is_err());
        assert!(parse_list("99999999999999999999999")
            .unwrap_err()
            .to_string()
            .contains("too large"));
        assert!(parse_list("1.5").is_err());
    }
}
