//! Ferguson's chip-transfer games (T. S. Ferguson, *Some Chip Transfer Games*; rules in docs/rules.md).
//!
//! Every game is played with `k` boxes of chips and a position is a multiset, stored as a sorted
//! vector of box contents:
//!
//! | type | name | move |
//! |---|---|---|
//! | [`EmptyTransfer`] | `ET(k)` | empty a box, then move `1 <= t < x_j` chips from another box into it |
//! | [`Redistribute`] (`eabo`) | `EABO(k)` | keep one box with `>= k` chips, empty the others, redistribute it over the `k` boxes |
//! | [`Redistribute`] (`er`) | `ER(k)` | discard one box, redistribute the rest over the `k` boxes |
//! | [`Redistribute`] (`ser`) | `SER(k)` | discard any `1..=k-1` boxes, redistribute the rest |
//! | [`Redistribute`] (`ejr`) | `EJR(k,j)` | discard exactly `j` boxes, redistribute the rest |
//! | [`EntropyReduction`] | `ENTROPY(k)` | move `1 <= t <= a-b-1` chips from a box of `a` to a box of `b < a` |
//!
//! "Redistribute" always means: every box ends with at least one chip. Positions are read either as a
//! list (`1,1,1,2,3,3,5`) or in Ferguson's multiplicative notation (`1^3 2 3^2 5`), see
//! [`parse_chips`] and [`format_power`].
//!
//! `table` for these games bounds the total number of chips ([`positions_with_sum_at_most`]); for
//! Entropy Reduction it bounds max − min ([`entropy::EntropyReduction::positions_with_spread_at_most`]).
//! [`table_positions`] does the right one for any game and answers `None` for a game that is not a
//! chip game ([`is_chip_game`]).

pub mod count;
pub mod entropy;
pub mod et;
pub mod redistribute;

pub use entropy::EntropyReduction;
pub use et::EmptyTransfer;
pub use redistribute::{RedistKind, Redistribute};

use nimlab_core::{Error, Game, Pos, Result, TableBound};
use std::ops::ControlFlow;

/// The largest number of boxes accepted (positions are vectors of this length).
pub const MAX_BOXES: usize = 4096;

/// True when `game` is one of the chip games (tabulated by total chips or by spread).
pub fn is_chip_game(game: &dyn Game) -> bool {
    matches!(
        game.table_bound(),
        TableBound::TotalChips | TableBound::Spread
    )
}

/// The number of boxes `k` of a chip game.
pub fn boxes_of(game: &dyn Game) -> Option<usize> {
    if let Some(g) = game.downcast_ref::<EmptyTransfer>() {
        return Some(g.k);
    }
    if let Some(g) = game.downcast_ref::<Redistribute>() {
        return Some(g.k);
    }
    game.downcast_ref::<EntropyReduction>().map(|g| g.k)
}

/// The positions `table` lists for a chip game with bound `bound`: for Entropy Reduction every sorted
/// position with minimum 0 and max − min <= `bound`; for the other games every multiset of k boxes
/// (each within the game's rules) with total at most `bound`. `None` when `game` is not a chip game.
pub fn table_positions(game: &dyn Game, bound: u64) -> Option<Vec<Pos>> {
    let k = boxes_of(game)?;
    if game.table_bound() == TableBound::Spread {
        Some(entropy::spread_positions(k, bound))
    } else {
        Some(positions_with_sum_at_most(k, 1, bound))
    }
}

/// Every sorted k-tuple of integers `>= min_box` whose sum is at most `s`, in increasing order of sum
/// and then lexicographically.
pub fn positions_with_sum_at_most(k: usize, min_box: u64, s: u64) -> Vec<Pos> {
    let mut out = Vec::new();
    let lowest = min_box.saturating_mul(k as u64);
    if k == 0 || lowest > s {
        return out;
    }
    for n in lowest..=s {
        let _ = partitions(n, k, min_box, &mut |q| {
            out.push(q.to_vec());
            ControlFlow::Continue(())
        });
    }
    out
}

/// Calls `f` with every partition of `n` into exactly `k` parts, each `>= lo`, as an ascending vector.
pub fn partitions(
    n: u64,
    k: usize,
    lo: u64,
    f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    fn rec(
        n: u64,
        k: usize,
        lo: u64,
        cur: &mut Vec<u64>,
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if k == 1 {
            if n >= lo {
                cur.push(n);
                let r = f(cur);
                cur.pop();
                return r;
            }
            return ControlFlow::Continue(());
        }
        let mut a = lo;
        while a.saturating_mul(k as u64) <= n {
            cur.push(a);
            let r = rec(n - a, k - 1, a, cur, f);
            cur.pop();
            r?;
            a += 1;
        }
        ControlFlow::Continue(())
    }
    if k == 0 {
        return if n == 0 {
            f(&[])
        } else {
            ControlFlow::Continue(())
        };
    }
    let mut cur = Vec::with_capacity(k);
    rec(n, k, lo, &mut cur, f)
}

/// Number of partitions of each `m <= n` into parts of size at most `k` (equivalently into at most
/// `k` parts), as `f64` so that large counts do not overflow.
fn partition_counts(n: usize, k: usize) -> Vec<f64> {
    let mut dp = vec![0.0f64; n + 1];
    dp[0] = 1.0;
    for part in 1..=k.min(n.max(1)) {
        for m in part..=n {
            dp[m] += dp[m - part];
        }
    }
    dp
}

/// Largest total for which the counting bounds are computed exactly (by a dynamic programme).
const EXACT_COUNT_LIMIT: u64 = 4096;

fn ln_factorial(k: usize) -> f64 {
    (1..=k).map(|i| (i as f64).ln()).sum()
}

/// An upper estimate of the number of multisets of k positive integers with sum at most `total`.
pub(crate) fn multisets_up_to(k: usize, total: u64) -> f64 {
    if (total as u128) < k as u128 {
        return 1.0;
    }
    let r = total - k as u64;
    if r <= EXACT_COUNT_LIMIT {
        partition_counts(r as usize, k).iter().sum::<f64>().max(1.0)
    } else {
        // At most the number of compositions of a total <= r into k non-negative parts,
        // C(r + k, k) <= (r + k)^k / k!.
        let kf = k as f64;
        ((kf * ((r as f64) + kf).ln()) - ln_factorial(k))
            .exp()
            .max(1.0)
    }
}

/// An upper estimate of the number of partitions of `n` into exactly `k` positive parts.
pub(crate) fn partitions_of(n: u64, k: usize) -> f64 {
    if (n as u128) < k as u128 {
        return 0.0;
    }
    let r = n - k as u64;
    if r <= EXACT_COUNT_LIMIT {
        partition_counts(r as usize, k)[r as usize]
    } else {
        // At most the number of compositions, C(n - 1, k - 1) <= (r + k)^(k-1) / (k-1)!.
        let kf = k as f64;
        (((kf - 1.0) * ((r as f64) + kf).ln()) - ln_factorial(k.saturating_sub(1)))
            .exp()
            .max(1.0)
    }
}

/// Sum of the entries, without overflow.
pub fn total(p: &[u64]) -> u128 {
    p.iter().map(|&x| x as u128).sum()
}

/// Parses a chip position: a list (`1,1,1,2,3,3,5`, `(1,2,3)`, `1 2 3`) or Ferguson's multiplicative
/// notation (`1^3 2 3^2 5`; `v^e` stands for e boxes of v chips). Entries may be negative (only
/// Entropy Reduction accepts them); `max_len` caps the number of boxes before anything is allocated.
pub fn parse_chips(text: &str, max_len: usize) -> Result<Vec<i128>> {
    let t = text.trim();
    let inner = {
        let mut s = t;
        for (open, close) in [('(', ')'), ('[', ']')] {
            if s.len() >= 2 && s.starts_with(open) && s.ends_with(close) {
                s = &s[1..s.len() - 1];
            }
        }
        s
    };
    if inner.contains(",,")
        || inner.trim_start().starts_with(',')
        || inner.trim_end().ends_with(',')
    {
        return Err(Error::BadPosition(format!(
            "position '{text}' has an empty entry between commas"
        )));
    }
    let mut out: Vec<i128> = Vec::new();
    for tok in inner.split(|c: char| c == ',' || c.is_whitespace()) {
        if tok.is_empty() {
            continue;
        }
        let (base, exp) = match tok.split_once('^') {
            Some((b, e)) => (b, Some(e)),
            None => (tok, None),
        };
        let value = parse_int(base, text)?;
        let count = match exp {
            None => 1usize,
            Some(e) => {
                if e.is_empty() || !e.chars().all(|c| c.is_ascii_digit()) {
                    return Err(Error::BadPosition(format!(
                        "'{tok}': the exponent in v^e must be a positive integer (e boxes of v chips)"
                    )));
                }
                match e.parse::<usize>() {
                    Ok(0) => {
                        return Err(Error::BadPosition(format!(
                            "'{tok}': the exponent in v^e must be at least 1"
                        )))
                    }
                    Ok(c) if c <= max_len => c,
                    _ => {
                        return Err(Error::BadPosition(format!(
                            "'{tok}' has more boxes than the game has ({max_len})"
                        )))
                    }
                }
            }
        };
        if out.len() + count > max_len {
            return Err(Error::BadPosition(format!(
                "position '{text}' has more than {max_len} boxes"
            )));
        }
        out.extend(std::iter::repeat_n(value, count));
    }
    Ok(out)
}

fn parse_int(tok: &str, text: &str) -> Result<i128> {
    let digits = tok.strip_prefix('-').unwrap_or(tok);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(Error::BadPosition(format!(
            "'{tok}' in '{text}' is not an integer"
        )));
    }
    match tok.parse::<i128>() {
        Ok(v) if v.unsigned_abs() <= u64::MAX as u128 => Ok(v),
        _ => Err(Error::BadPosition(format!(
            "'{tok}' is too large (at most {} chips in a box)",
            u64::MAX
        ))),
    }
}

/// Parses a position of a game whose boxes hold non-negative counts (negative entries are refused).
pub(crate) fn parse_nonnegative(text: &str, max_len: usize) -> Result<Pos> {
    let v = parse_chips(text, max_len)?;
    v.into_iter()
        .map(|x| {
            if x < 0 {
                Err(Error::BadPosition(format!(
                    "negative count '{x}': boxes hold a non-negative number of chips"
                )))
            } else {
                Ok(x as u64)
            }
        })
        .collect()
}

/// True when `text` is written in the multiplicative notation (contains `^`), so that output can be
/// printed in the notation the user used.
pub fn uses_power_notation(text: &str) -> bool {
    text.contains('^')
}

/// Prints a position in Ferguson's multiplicative notation, boxes in increasing order:
/// `[1,1,1,2,3,3,5]` becomes `1^3 2 3^2 5`. The empty position prints as `()`.
pub fn format_power(p: &[u64]) -> String {
    let mut s = p.to_vec();
    s.sort_unstable();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let mut j = i;
        while j < s.len() && s[j] == s[i] {
            j += 1;
        }
        if j - i == 1 {
            parts.push(s[i].to_string());
        } else {
            parts.push(format!("{}^{}", s[i], j - i));
        }
        i = j;
    }
    if parts.is_empty() {
        "()".to_string()
    } else {
        parts.join(" ")
    }
}

/// Checks the number of boxes and the least allowed content of each box.
pub(crate) fn validate_boxes(id: &str, k: usize, min_box: u64, p: &[u64]) -> Result<()> {
    if p.len() != k {
        return Err(Error::BadPosition(format!(
            "{id} is played with exactly {k} boxes, got {}",
            p.len()
        )));
    }
    if let Some(&x) = p.iter().find(|&&x| x < min_box) {
        return Err(Error::BadPosition(format!(
            "{id}: every box must hold at least {min_box} chip{} (got {x})",
            if min_box == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

pub(crate) fn sorted(p: &[u64]) -> Pos {
    let mut q = p.to_vec();
    q.sort_unstable();
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_notation_round_trips() {
        let p = parse_chips("1^3 2 3^2 5", 7).unwrap();
        assert_eq!(p, vec![1, 1, 1, 2, 3, 3, 5]);
        assert_eq!(format_power(&[5, 3, 1, 2, 1, 3, 1]), "1^3 2 3^2 5");
        assert_eq!(
            parse_chips("1,1,1,2,3,3,5", 7).unwrap(),
            parse_chips("(1^3, 2, 3^2, 5)", 7).unwrap()
        );
        assert_eq!(parse_chips("-3^2 4", 3).unwrap(), vec![-3, -3, 4]);
    }

    #[test]
    fn bad_chip_positions_get_one_line_errors() {
        for bad in [
            "1^0 2",
            "1^ 2",
            "1^x",
            "a",
            "1,,2",
            "1^99999999999999999999",
            "1^8",
            "99999999999999999999999",
            "1^2^3",
        ] {
            let e = parse_chips(bad, 7).unwrap_err().to_string();
            assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
        }
        assert!(parse_nonnegative("1 -2 3", 3).is_err());
    }

    #[test]
    fn sum_bounded_enumeration_counts_partitions() {
        // Multisets of 3 positive integers with sum <= 6: sums 3 (1), 4 (1), 5 (2), 6 (3).
        let v = positions_with_sum_at_most(3, 1, 6);
        assert_eq!(v.len(), 7);
        assert!(v.iter().all(|p| p.windows(2).all(|w| w[0] <= w[1])));
        assert_eq!(multisets_up_to(3, 6), 7.0);
        assert_eq!(partitions_of(6, 3), 3.0);
    }
}
