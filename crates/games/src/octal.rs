//! One-heap games played on a list of heaps: octal games (Guy–Smith codes such as `0.07`, `0.77`,
//! `4.7`) and finite subtraction games `subtraction(1,3,4)`.
//!
//! A position is a list of heaps, the disjunctive sum of the heaps; [`Game::split`] separates them,
//! so a position's Grundy value is the XOR of its heaps' values. A move acts on one heap of n
//! tokens: it removes j tokens where the code's digit d_j allows it, and then
//!
//! - bit 1 of d_j: may take the whole heap (j = n; the heap becomes 0, the list keeps its length);
//! - bit 2: may leave one non-empty heap (n - j >= 1, in the heap's place);
//! - bit 4: may leave two non-empty heaps (a in the heap's place, n - j - a appended at the end).
//!
//! The digit before the point is d_0: only 0 or 4 (split a heap without removing a token) mean a
//! move. A subtraction game S is the octal game with d_s = 3 for every s in S.
//!
//! [`OctalGame::sequence`] computes the values of single heaps 0..=N by the mex over their options
//! (a stamp array, no search), and [`OctalGame::periodicity`] finds the period and proves it where
//! the Guy–Smith periodicity theorem, or for games that never split a heap the repeat of a window
//! of t values, applies (docs/rules.md states both).

use crate::nim::sorted;
use nimlab_core::{BoxDomain, Error, Game, Pos, Result, Rng, TableBound};
use std::ops::ControlFlow;

/// Most code digits after the point (and so the largest j of an octal code).
pub const MAX_CODE_DIGITS: usize = 64;
/// Largest element of a subtraction set.
pub const MAX_SUBTRACTION: u64 = 1_000_000;
/// Most elements of a subtraction set.
pub const MAX_SUBTRACTION_SET: usize = 1000;
/// Largest N of [`OctalGame::sequence`]: 2^28 heaps, 1 GiB of values.
pub const MAX_SEQUENCE: u64 = 1 << 28;

/// Which family the game was written in (the rules are the digits either way).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Family {
    /// An octal code, kept as its digits `d_0, d_1, ..., d_t` (trailing zeros removed).
    Octal,
    /// A subtraction set, sorted, without repeats.
    Subtraction(Vec<u64>),
}

/// An octal game or a finite subtraction game, played on a list of heaps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OctalGame {
    family: Family,
    /// d_0 (0 or 4) and the digits after the point, without trailing zeros (octal games only).
    digits: Vec<u8>,
    /// The non-zero digits as (j, d_j), increasing in j.
    moves: Vec<(u64, u8)>,
}

/// How a period was established.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// The Guy–Smith periodicity theorem: g(n + p) = g(n) for pre <= n < 2·max(pre,1) + p + t.
    GuySmith,
    /// A game that never splits a heap: the values of n depend only on the t values before n once
    /// n is past the code's special cases, so a repeated window of t values repeats for ever.
    Window,
}

impl Proof {
    /// The words the front ends print after "proved periodic".
    pub fn name(self) -> &'static str {
        match self {
            Proof::GuySmith => "Guy–Smith",
            Proof::Window => "a window of t values repeats",
        }
    }
    /// The JSON id.
    pub fn id(self) -> &'static str {
        match self {
            Proof::GuySmith => "guy-smith",
            Proof::Window => "window",
        }
    }
}

/// The periodicity found in a computed prefix g(0..=N).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Periodicity {
    /// The least n from which g(n + period) = g(n) + saltus holds throughout the prefix.
    pub preperiod: u64,
    /// The least period seen.
    pub period: u64,
    /// 0 for a periodic sequence; otherwise arithmetic periodicity g(n + p) = g(n) + saltus.
    pub saltus: i64,
    /// How the period is proved for every n >= preperiod; `None`: seen in the prefix only.
    pub proof: Option<Proof>,
    /// For a period seen but not proved (saltus 0): the least N for which the check would prove
    /// it, when one applies.
    pub proof_needs: Option<u64>,
}

impl OctalGame {
    /// Parses an octal code: `0.07`, `.07`, `4.7`, `0.137`, `4` (d_0 only). Refused: digits 8 and
    /// 9 (hexadecimal games), a digit before the point other than 0 or 4, more than
    /// [`MAX_CODE_DIGITS`] digits after it, and anything that is not a finite code.
    pub fn octal(code: &str) -> Result<OctalGame> {
        let bad = |why: String| Error::BadGame(format!("octal({code}): {why}"));
        let (int, frac) = match code.split_once('.') {
            Some((i, f)) => (i, f),
            None => (code, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return Err(bad(
                "give a code such as 0.07 (Dawson's Kayles) or 0.77 (Kayles)".into(),
            ));
        }
        if frac.contains('.') {
            return Err(bad("a code has at most one point".into()));
        }
        let digit = |c: char| -> Result<u8> {
            match c.to_digit(10) {
                Some(d) if d <= 7 => Ok(d as u8),
                Some(_) => Err(bad(format!(
                    "digit {c} is not octal: hexadecimal codes (leaving three or more heaps) are not supported; digits are 0-7"
                ))),
                None => Err(bad(format!(
                    "'{c}' is not a code digit; codes read like 0.07, 0.137 or 4.7"
                ))),
            }
        };
        let d0 = match int {
            "" => 0,
            s if s.chars().count() == 1 => digit(s.chars().next().unwrap_or('0'))?,
            s => {
                return Err(bad(format!(
                    "'{s}' before the point: the code has one digit there (0, or 4 to split a heap without removing tokens)"
                )))
            }
        };
        if d0 != 0 && d0 != 4 {
            return Err(bad(format!(
                "the digit before the point is d_0 (moves that remove nothing) and may only be 0 or 4, got {d0}"
            )));
        }
        let mut digits = vec![d0];
        for c in frac.chars() {
            digits.push(digit(c)?);
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() > MAX_CODE_DIGITS + 1 {
            return Err(bad(format!(
                "at most {MAX_CODE_DIGITS} digits after the point, got {}",
                digits.len() - 1
            )));
        }
        let moves = digits
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d != 0)
            .map(|(j, &d)| (j as u64, d))
            .collect();
        Ok(OctalGame {
            family: Family::Octal,
            digits,
            moves,
        })
    }

    /// A subtraction game: a move removes s tokens from one heap, s in `set` (positive, at most
    /// [`MAX_SUBTRACTION`], at most [`MAX_SUBTRACTION_SET`] of them).
    pub fn subtraction(set: &[u64]) -> Result<OctalGame> {
        let mut s = set.to_vec();
        s.sort_unstable();
        s.dedup();
        let name = format!(
            "subtraction({})",
            set.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
        );
        if s.is_empty() {
            return Err(Error::BadGame(format!(
                "{name}: give at least one amount, e.g. subtraction(1,3,4)"
            )));
        }
        if s[0] == 0 {
            return Err(Error::BadGame(format!(
                "{name}: amounts are positive (removing 0 tokens is not a move)"
            )));
        }
        if s.len() > MAX_SUBTRACTION_SET || s[s.len() - 1] > MAX_SUBTRACTION {
            return Err(Error::BadGame(format!(
                "{name}: at most {MAX_SUBTRACTION_SET} amounts, each at most {MAX_SUBTRACTION}"
            )));
        }
        let moves = s.iter().map(|&j| (j, 3u8)).collect();
        Ok(OctalGame {
            family: Family::Subtraction(s),
            digits: Vec::new(),
            moves,
        })
    }

    /// The code as written in the id: `0.07`, `4.7`, `0.0` for the game without moves.
    pub fn code(&self) -> String {
        match &self.family {
            Family::Octal => {
                let frac: String = self.digits[1..]
                    .iter()
                    .map(|d| char::from(b'0' + d))
                    .collect();
                format!(
                    "{}.{}",
                    self.digits[0],
                    if frac.is_empty() { "0" } else { &frac }
                )
            }
            Family::Subtraction(s) => {
                // d_s = 3 for s in S: the octal code of the same game.
                let t = s[s.len() - 1];
                if t > MAX_CODE_DIGITS as u64 {
                    return format!("(digits 3 at {})", self.set_text());
                }
                let mut frac = vec![b'0'; t as usize];
                for &j in s {
                    frac[j as usize - 1] = b'3';
                }
                format!("0.{}", String::from_utf8_lossy(&frac))
            }
        }
    }

    fn set_text(&self) -> String {
        match &self.family {
            Family::Subtraction(s) => s.iter().map(u64::to_string).collect::<Vec<_>>().join(","),
            Family::Octal => String::new(),
        }
    }

    /// The largest number of tokens a move removes (the position t of the last non-zero digit;
    /// 0 for a game without moves, or whose only digit is d_0).
    pub fn t(&self) -> u64 {
        self.moves.last().map_or(0, |&(j, _)| j)
    }

    /// The non-zero digits as (j, d_j), increasing in j: the moves that remove j tokens.
    pub fn digit_moves(&self) -> impl Iterator<Item = (u64, u8)> + '_ {
        self.moves.iter().copied()
    }

    /// True when some move leaves two heaps.
    pub fn splits(&self) -> bool {
        self.moves.iter().any(|&(_, d)| d & 4 != 0)
    }

    /// True for a game written as a subtraction set.
    pub fn is_subtraction(&self) -> bool {
        matches!(self.family, Family::Subtraction(_))
    }

    /// The common name of a few well-known codes.
    pub fn common_name(&self) -> Option<&'static str> {
        if self.family != Family::Octal {
            return None;
        }
        Some(match self.code().as_str() {
            "0.77" => "Kayles",
            "0.07" => "Dawson's Kayles",
            "0.137" => "Dawson's Chess",
            "0.6" => "Officers",
            "0.15" => "Guiles",
            "0.3" => "Nim with one token a move",
            _ => return None,
        })
    }

    /// The estimated number of option visits of [`OctalGame::sequence`] up to `max`.
    pub fn sequence_work(&self, max: u64) -> f64 {
        let n = max as f64 + 1.0;
        self.moves
            .iter()
            .map(|&(j, d)| {
                let left = (n - j as f64).max(0.0);
                let one = if d & 3 != 0 { left } else { 0.0 };
                let two = if d & 4 != 0 { left * left / 4.0 } else { 0.0 };
                one + two
            })
            .sum::<f64>()
            + n
    }

    /// The bytes [`OctalGame::sequence`] holds for `max`: one 4-byte value per heap size.
    pub fn sequence_bytes(max: u64) -> u128 {
        (u128::from(max) + 1) * 4
    }

    /// The Grundy values of single heaps 0..=`max`: each the mex of its options' values (a
    /// heap left, or the XOR of two heaps left), marked in a stamp array. Polls the thread's
    /// cancel scope ([`nimlab_core::interrupt`]). Refuses `max` above [`MAX_SEQUENCE`].
    pub fn sequence(&self, max: u64) -> Result<Vec<u32>> {
        if max > MAX_SEQUENCE {
            return Err(Error::too_large(
                nimlab_core::Refusal::new("")
                    .value(nimlab_core::Arg::Max, max)
                    .text(format!(
                        " needs {} MiB of values; at most {MAX_SEQUENCE} (1024 MiB)",
                        Self::sequence_bytes(max) >> 20
                    )),
            ));
        }
        let len = max as usize + 1;
        let mut g: Vec<u32> = Vec::with_capacity(len);
        // stamp[v] == mark: v is the value of an option of the heap being computed. Every value so
        // far is below `width` (a power of two), so XORs of two are too; the mex is at most
        // `width`.
        let mut width: usize = 1;
        let mut stamp: Vec<u32> = vec![0; 2];
        let mut since_poll: u64 = 0;
        for n in 0..len {
            let mark = n as u32 + 1;
            for &(j, d) in &self.moves {
                let j = j as usize;
                if j > n {
                    break;
                }
                let r = n - j;
                if d & 1 != 0 && r == 0 {
                    stamp[0] = mark;
                }
                if d & 2 != 0 && r >= 1 {
                    stamp[g[r] as usize] = mark;
                }
                if d & 4 != 0 && r >= 2 {
                    for a in 1..=r / 2 {
                        stamp[(g[a] ^ g[r - a]) as usize] = mark;
                    }
                    since_poll += r as u64 / 2;
                }
            }
            let mut v = 0usize;
            while stamp[v] == mark {
                v += 1;
            }
            let v32 =
                u32::try_from(v).map_err(|_| Error::TooLarge("a Grundy value past 2^32".into()))?;
            g.push(v32);
            if v >= width {
                width = (v + 1).next_power_of_two();
                stamp.resize(width + 1, 0);
            }
            since_poll += 1;
            if since_poll >= 1 << 22 {
                since_poll = 0;
                nimlab_core::interrupt::check()?;
            }
        }
        Ok(g)
    }

    /// The least index a proof of period `p` from `pre` needs computed (the prefix must reach it),
    /// by `proof`; `None` when that proof does not apply to this game.
    pub fn proof_needs(&self, proof: Proof, pre: u64, p: u64) -> Option<u64> {
        let t = self.t();
        match proof {
            // g(n + p) = g(n) for pre <= n < 2·max(pre,1) + p + t: the last index read is
            // 2·max(pre,1) + p + t - 1 + p.
            Proof::GuySmith => (2u64
                .checked_mul(pre.max(1))?
                .checked_add(p)?
                .checked_add(t)?
                - 1)
            .checked_add(p),
            Proof::Window => {
                if self.splits() || self.digits.first().is_some_and(|&d| d != 0) {
                    return None;
                }
                // The values of n >= u depend on the t values before n alone: u = t when every
                // non-zero digit is 3 (a take-all move is the same as leaving an empty heap),
                // else t + 1. A window pre..pre+t repeated p later repeats for ever when its
                // successor pre + t is at least u.
                let all_three = self.moves.iter().all(|&(_, d)| d == 3);
                let start = if all_three { pre } else { pre.max(1) };
                // g(n + p) = g(n) for pre <= n < start + t: the last index read is
                // start + t - 1 + p (with t = 0, no move: every value is 0 from the start).
                let end = start.checked_add(t)?.checked_add(p)?;
                Some((end - 1).max(pre.checked_add(p)?))
            }
        }
    }

    /// The proofs tried, in order: subtraction games by their window; octal games by Guy–Smith,
    /// then (games that never split a heap) by their window.
    fn proofs(&self) -> &'static [Proof] {
        if self.is_subtraction() {
            &[Proof::Window]
        } else {
            &[Proof::GuySmith, Proof::Window]
        }
    }

    /// The period of the values `g` = g(0..=N): for p = 1, 2, ... the least pre from which
    /// g(n + p) = g(n) + s throughout the prefix (s = g(N) - g(N - p)). The first p that a proof
    /// covers is returned proved. Otherwise the first p seen with at least three periods after its
    /// preperiod, over at least the last quarter of the prefix, is returned as evidence (with the
    /// N a proof would need). `None` when no period is seen.
    pub fn periodicity(&self, g: &[u32]) -> Option<Periodicity> {
        let len = g.len() as u64;
        if len < 2 {
            return None;
        }
        let last = len - 1;
        let mut seen: Option<Periodicity> = None;
        for p in 1..=len / 2 {
            if let Some(e) = &seen {
                // A multiple of the period seen is the same pattern: nothing new to prove there.
                if p % e.period == 0 {
                    continue;
                }
            }
            let s = i64::from(g[last as usize]) - i64::from(g[(last - p) as usize]);
            // Least pre: scan down from the top to the first break.
            let mut pre = 0u64;
            let mut n = last - p;
            loop {
                if i64::from(g[(n + p) as usize]) - i64::from(g[n as usize]) != s {
                    pre = n + 1;
                    break;
                }
                if n == 0 {
                    break;
                }
                n -= 1;
            }
            if s == 0 {
                for &proof in self.proofs() {
                    if self
                        .proof_needs(proof, pre, p)
                        .is_some_and(|need| need <= last)
                    {
                        return Some(Periodicity {
                            preperiod: pre,
                            period: p,
                            saltus: 0,
                            proof: Some(proof),
                            proof_needs: None,
                        });
                    }
                }
            }
            let tail = len - pre;
            if seen.is_none() && tail >= 3 * p && tail >= len / 4 {
                let proof_needs = (s == 0)
                    .then(|| {
                        self.proofs()
                            .iter()
                            .filter_map(|&pr| self.proof_needs(pr, pre, p))
                            .min()
                    })
                    .flatten();
                seen = Some(Periodicity {
                    preperiod: pre,
                    period: p,
                    saltus: s,
                    proof: None,
                    proof_needs,
                });
            }
        }
        seen
    }
}

impl Game for OctalGame {
    fn id(&self) -> String {
        match &self.family {
            Family::Octal => format!("octal({})", self.code()),
            Family::Subtraction(_) => format!("subtraction({})", self.set_text()),
        }
    }
    fn validate(&self, _p: &[u64]) -> Result<()> {
        Ok(())
    }
    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        let mut buf = p.to_vec();
        for i in 0..p.len() {
            let n = p[i];
            for &(j, d) in &self.moves {
                if j > n {
                    break;
                }
                let r = n - j;
                if d & 1 != 0 && r == 0 {
                    buf[i] = 0;
                    if f(&buf).is_break() {
                        return Ok(());
                    }
                }
                if d & 2 != 0 && r >= 1 {
                    buf[i] = r;
                    if f(&buf).is_break() {
                        return Ok(());
                    }
                }
                if d & 4 != 0 && r >= 2 {
                    for a in 1..=r / 2 {
                        buf[i] = a;
                        buf.push(r - a);
                        let stop = f(&buf).is_break();
                        buf.pop();
                        if stop {
                            return Ok(());
                        }
                    }
                }
            }
            buf[i] = n;
        }
        Ok(())
    }
    fn canonical(&self, p: &[u64]) -> Pos {
        // Games that split heaps have no box to keep a length for: empty heaps are dropped, so
        // that the taken heaps of a long game do not multiply the positions a full search keeps.
        if self.splits() {
            sorted(p).into_iter().filter(|&a| a > 0).collect()
        } else {
            sorted(p)
        }
    }
    fn split(&self, p: &[u64]) -> Option<Vec<Pos>> {
        let heaps: Vec<Pos> = p.iter().filter(|&&a| a > 0).map(|&a| vec![a]).collect();
        (heaps.len() >= 2 || (heaps.len() == 1 && p.len() > 1)).then_some(heaps)
    }
    fn count_options(&self, p: &[u64]) -> Option<u128> {
        // Options of different heaps, moves or splits are different lists (each changes one
        // heap to a smaller size, a split also appends), so the count is a sum.
        let mut count: u128 = 0;
        for &n in p {
            for &(j, d) in &self.moves {
                if j > n {
                    break;
                }
                let r = n - j;
                let here = u128::from(d & 1 != 0 && r == 0)
                    + u128::from(d & 2 != 0 && r >= 1)
                    + if d & 4 != 0 { u128::from(r / 2) } else { 0 };
                count = count.saturating_add(here);
            }
        }
        Some(count)
    }
    fn full_state_bound(&self, p: &[u64]) -> f64 {
        if !self.splits() {
            return self.state_bound(p);
        }
        // Every position reached is, up to its canonical form (sorted, empty heaps dropped), a
        // partition of a number up to S, the total of p: counted exactly up to S = 1000 and past
        // that by the Hardy–Ramanujan estimate (far above any budget either way).
        let total = p.iter().fold(0f64, |s, &a| s + a as f64);
        let parts = if total <= 1000.0 {
            let s = total as usize;
            let mut count = vec![0f64; s + 1];
            count[0] = 1.0;
            for k in 1..=s {
                for m in k..=s {
                    count[m] += count[m - k];
                }
            }
            count.iter().sum::<f64>()
        } else {
            let hr = (std::f64::consts::PI * (2.0 * total / 3.0).sqrt()).exp()
                / (4.0 * total * 3f64.sqrt());
            (hr * total).min(1e300)
        };
        parts.max(self.state_bound(p))
    }
    fn branching_bound(&self, p: &[u64]) -> f64 {
        p.iter()
            .map(|&n| {
                self.moves
                    .iter()
                    .map(|&(j, d)| {
                        let r = n.saturating_sub(j) as f64;
                        (if d & 3 != 0 { 1.0 } else { 0.0 })
                            + if d & 4 != 0 { r / 2.0 } else { 0.0 }
                    })
                    .sum::<f64>()
            })
            .sum::<f64>()
            .max(1.0)
    }
    fn table_bound(&self) -> TableBound {
        // A box of N heaps is closed under moves only when no move adds a heap.
        if self.splits() {
            TableBound::None
        } else {
            TableBound::Box { heaps: true }
        }
    }
    fn table_domain(&self, hi: u64, len: Option<usize>) -> Result<BoxDomain> {
        if self.splits() {
            return Err(Error::Unsupported(format!(
                "{} splits heaps, so no box of heaps is closed under its moves; `nimlab sequence '{}' --max N` gives the values of single heaps, whose XOR is a position's value",
                self.id(),
                self.id()
            )));
        }
        crate::nim::heaps_domain(&self.id(), hi, len)
    }
    fn random_position(&self, rng: &mut Rng, hi: u64) -> Option<Pos> {
        // Heaps of at least the least size that has a move, so that the start is never terminal.
        let least = (1..=self.t() + 2).find(|&n| {
            let mut any = false;
            let _ = self.for_each_option(&[n], &mut |_| {
                any = true;
                ControlFlow::Break(())
            });
            any
        })?;
        let len = rng.range(1, 3) as usize;
        Some((0..len).map(|_| rng.range(least, hi.max(least))).collect())
    }
    fn rules(&self) -> String {
        match &self.family {
            Family::Subtraction(_) => format!(
                "Heaps of tokens; a move removes s tokens from one heap, s in {{{}}} (the octal game {}).",
                self.set_text(),
                self.code()
            ),
            Family::Octal => {
                let mut parts = Vec::new();
                for &(j, d) in &self.moves {
                    let mut how = Vec::new();
                    if d & 1 != 0 {
                        how.push("take the whole heap");
                    }
                    if d & 2 != 0 {
                        how.push("leave one heap");
                    }
                    if d & 4 != 0 {
                        how.push("leave two non-empty heaps");
                    }
                    parts.push(format!("removing {j}: {}", how.join(" or ")));
                }
                if parts.is_empty() {
                    parts.push("no move".into());
                }
                format!(
                    "Heaps of tokens; octal code {}: {}.",
                    self.code(),
                    parts.join("; ")
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_parse_and_normalise() {
        for (text, id) in [
            ("0.07", "octal(0.07)"),
            (".07", "octal(0.07)"),
            ("0.070", "octal(0.07)"),
            ("4.7", "octal(4.7)"),
            ("4", "octal(4.0)"),
            ("0.0", "octal(0.0)"),
            ("0.137", "octal(0.137)"),
        ] {
            assert_eq!(OctalGame::octal(text).unwrap().id(), id, "{text}");
        }
        for bad in [
            "0.08", "0.9", "1.7", "3.7", "12.7", "0.0.7", "x", "", ".", "0.7a", "-0.7",
        ] {
            let e = OctalGame::octal(bad).err().unwrap().to_string();
            assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
        }
        let long = format!("0.{}", "7".repeat(MAX_CODE_DIGITS + 1));
        assert!(OctalGame::octal(&long).is_err());
        assert_eq!(
            OctalGame::subtraction(&[4, 1, 3]).unwrap().id(),
            "subtraction(1,3,4)"
        );
        assert_eq!(OctalGame::subtraction(&[1, 3, 4]).unwrap().code(), "0.3033");
        for bad in [&[][..], &[0, 1], &[MAX_SUBTRACTION + 1]] {
            assert!(OctalGame::subtraction(bad).is_err());
        }
    }

    #[test]
    fn a_split_appends_the_second_heap() {
        let kayles = OctalGame::octal("0.77").unwrap();
        let opts = kayles.options(&[4]).unwrap();
        assert_eq!(opts, vec![vec![3], vec![1, 2], vec![2], vec![1, 1]]);
        // Take-all leaves a 0 in place.
        assert_eq!(kayles.options(&[1]).unwrap(), vec![vec![0]]);
    }
}
