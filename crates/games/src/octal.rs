//! One-heap games played on a list of heaps: octal games (Guy–Smith codes such as `0.07`, `0.77`,
//! `4.7`), take-and-break codes with hexadecimal digits (`0.F`, `4.8`: a move may leave three heaps),
//! finite subtraction games `subtraction(1,3,4)` and Grundy's game (`grundy`).
//!
//! A position is a list of heaps, the disjunctive sum of the heaps; [`Game::split`] separates them,
//! so a position's Grundy value is the XOR of its heaps' values. A move acts on one heap of n
//! tokens: it removes j tokens where the code's digit d_j allows it, and then
//!
//! - bit 1 of d_j: may take the whole heap (j = n; the heap becomes 0, the list keeps its length);
//! - bit 2: may leave one non-empty heap (n - j >= 1, in the heap's place);
//! - bit 4: may leave two non-empty heaps (a in the heap's place, n - j - a appended at the end);
//! - bit 8 (hexadecimal digits 8-F): may leave three non-empty heaps a <= b <= c (a in the heap's
//!   place, b and c appended).
//!
//! The digit before the point is d_0: only its bits 4 and 8 (split a heap without removing a token)
//! mean a move. A subtraction game S is the octal game with d_s = 3 for every s in S. Grundy's game
//! splits a heap into two non-empty heaps of different sizes (d_0 = 4 with unequal parts).
//!
//! [`OctalGame::sequence`] computes the values of single heaps 0..=N by the mex over their options
//! (a stamp array, no search); [`OctalGame::sequence_by`] may instead use the sparse-space method
//! ([`crate::sparse`]) for games whose moves leave at most two heaps. [`OctalGame::periodicity`]
//! finds the period and proves it where the Guy–Smith periodicity theorem (with 3·n0 + 2p + t for
//! codes that leave three heaps), or for games that never split a heap the repeat of a window of t
//! values, applies (docs/rules.md states them).

mod mex;
mod period;

pub(crate) use mex::Mex;

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
/// Heaps between two calls of the callback of [`OctalGame::extend_sequence`].
pub const SAVE_EVERY: usize = 1024;

/// Which family the game was written in (the rules are the digits either way).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Family {
    /// An octal code, kept as its digits `d_0, d_1, ..., d_t` (trailing zeros removed).
    Octal,
    /// A subtraction set, sorted, without repeats.
    Subtraction(Vec<u64>),
    /// Grundy's game: split a heap into two non-empty heaps of different sizes.
    Grundy,
}

/// An octal game or a finite subtraction game, played on a list of heaps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OctalGame {
    family: Family,
    /// d_0 (0, 4, 8 or 12) and the digits after the point (0-15), without trailing zeros (codes
    /// only).
    digits: Vec<u8>,
    /// The non-zero digits as (j, d_j), increasing in j.
    moves: Vec<(u64, u8)>,
}

/// Which way [`OctalGame::sequence_by`] computes the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The sparse-space method where it applies (some move leaves two heaps, none three), else
    /// the plain mex.
    Auto,
    /// The mex over every option of every heap.
    Plain,
    /// The sparse-space method; refused for games that never leave two heaps or may leave three.
    Sparse,
}

impl Method {
    /// `auto`, `plain` or `sparse`.
    pub fn parse(text: &str) -> Result<Method> {
        match text.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Method::Auto),
            "plain" => Ok(Method::Plain),
            "sparse" => Ok(Method::Sparse),
            other => Err(Error::Unsupported(format!(
                "method '{other}': give plain, sparse or auto"
            ))),
        }
    }
}

/// How the values were computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ran {
    /// The plain mex for every heap.
    Plain,
    /// The sparse-space method.
    Sparse(crate::sparse::SparseRun),
}

/// The values of single heaps 0..=N and how they were computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sequence {
    pub values: Vec<u32>,
    pub ran: Ran,
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
    /// Parses a take-and-break code: `0.07`, `.07`, `4.7`, `0.137`, `4` (d_0 only), and
    /// hexadecimal digits 8-F (`0.F`, `4.8`; bit 8: the move may leave three non-empty heaps).
    /// Refused: a digit past F, a digit before the point other than 0, 4, 8 or C, more than
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
            match c.to_digit(16) {
                Some(d) => Ok(d as u8),
                None if c.is_ascii_alphanumeric() => Err(bad(format!(
                    "digit '{c}' is past F: digits are 0-7 (octal) or 0-F (hexadecimal, bit 8: leave three heaps); a move leaving four or more heaps is not supported"
                ))),
                None => Err(bad(format!(
                    "'{c}' is not a code digit; codes read like 0.07, 0.137, 4.7 or 0.F"
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
        if d0 & 3 != 0 {
            return Err(bad(format!(
                "the digit before the point is d_0 (moves that remove nothing) and may only be 0 or 4 (or 8, C: split into three heaps), got {}",
                char::from_digit(u32::from(d0), 16).unwrap_or('?').to_ascii_uppercase()
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

    /// Grundy's game: a move splits one heap into two non-empty heaps of different sizes (heaps
    /// of 1 and 2 have no move).
    pub fn grundy() -> OctalGame {
        OctalGame {
            family: Family::Grundy,
            digits: Vec::new(),
            moves: vec![(0, 4)],
        }
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
                let hex = |d: u8| {
                    char::from_digit(u32::from(d), 16)
                        .unwrap_or('?')
                        .to_ascii_uppercase()
                };
                let frac: String = self.digits[1..].iter().map(|&d| hex(d)).collect();
                format!(
                    "{}.{}",
                    hex(self.digits[0]),
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
            Family::Grundy => "grundy".into(),
        }
    }

    fn set_text(&self) -> String {
        match &self.family {
            Family::Subtraction(s) => s.iter().map(u64::to_string).collect::<Vec<_>>().join(","),
            Family::Octal | Family::Grundy => String::new(),
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

    /// True when some move leaves two or more heaps.
    pub fn splits(&self) -> bool {
        self.moves.iter().any(|&(_, d)| d & 12 != 0)
    }

    /// The most heaps a move leaves of one heap: 0, 1, 2 or 3.
    pub fn most_parts(&self) -> u8 {
        let all = self.moves.iter().fold(0u8, |b, &(_, d)| b | d);
        if all & 8 != 0 {
            3
        } else if all & 4 != 0 {
            2
        } else if all & 2 != 0 {
            1
        } else {
            0
        }
    }

    /// True for Grundy's game: the two heaps a split leaves must differ in size.
    pub fn unequal_splits(&self) -> bool {
        self.family == Family::Grundy
    }

    /// True for Grundy's game.
    pub fn is_grundy(&self) -> bool {
        self.family == Family::Grundy
    }

    /// Why the sparse-space method does not apply to this game; `None` when it does (some move
    /// leaves two heaps and none leaves three).
    pub fn sparse_refusal(&self) -> Option<String> {
        match self.most_parts() {
            2 => None,
            3 => Some(format!(
                "{}: the sparse-space method covers moves that leave at most two heaps, and this code may leave three; use --method plain (or auto)",
                self.id()
            )),
            _ => Some(format!(
                "{}: the sparse-space method is for games whose moves split a heap into two, and this one never does; use --method plain (or auto)",
                self.id()
            )),
        }
    }

    /// True for a game written as a subtraction set.
    pub fn is_subtraction(&self) -> bool {
        matches!(self.family, Family::Subtraction(_))
    }

    /// The common name of a few well-known codes.
    pub fn common_name(&self) -> Option<&'static str> {
        if self.family == Family::Grundy {
            return Some("Grundy's game");
        }
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
                let three = if d & 8 != 0 {
                    left * left * left / 36.0
                } else {
                    0.0
                };
                one + two + three
            })
            .sum::<f64>()
            + n
    }

    /// The bytes [`OctalGame::sequence`] holds for `max`: one 4-byte value per heap size.
    pub fn sequence_bytes(max: u64) -> u128 {
        (u128::from(max) + 1) * 4
    }

    /// The Grundy values of single heaps 0..=`max` by the plain mex: each the mex of its options'
    /// values (a heap left, or the XOR of the two or three heaps left), marked in a stamp array.
    /// Polls the thread's cancel scope ([`nimlab_core::interrupt`]). Refuses `max` above
    /// [`MAX_SEQUENCE`].
    pub fn sequence(&self, max: u64) -> Result<Vec<u32>> {
        Ok(self
            .sequence_by(max, Method::Plain, None, f64::INFINITY)?
            .values)
    }

    /// The Grundy values of single heaps 0..=`max` by `method`, with the sparse-space `mask`
    /// given (else chosen from the first values; see [`crate::sparse`]). Stops with
    /// [`Error::TooLarge`] once more than `limit` option values have been visited.
    pub fn sequence_by(
        &self,
        max: u64,
        method: Method,
        mask: Option<u32>,
        limit: f64,
    ) -> Result<Sequence> {
        let mut values = Vec::new();
        let ran = self.extend_sequence(&mut values, max, method, mask, limit, &mut |_| Ok(()))?;
        Ok(Sequence { values, ran })
    }

    /// Extends the prefix `g` = g(0..L) (any valid prefix, empty included: a heap's value does not
    /// depend on the largest heap asked for) to g(0..=`max`) by `method`, as
    /// [`OctalGame::sequence_by`] does. `every` is called with the values so far after each
    /// [`SAVE_EVERY`] heaps (to keep them, or to stop the run with an error). On any error `g` still
    /// holds a valid prefix: every value pushed is final. The sparse-space method restarts its state
    /// (mask, rare heaps) from the prefix, so the values equal those of an uninterrupted run.
    pub fn extend_sequence(
        &self,
        g: &mut Vec<u32>,
        max: u64,
        method: Method,
        mask: Option<u32>,
        limit: f64,
        every: &mut dyn FnMut(&[u32]) -> Result<()>,
    ) -> Result<Ran> {
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
        let sparse = match method {
            Method::Plain => false,
            Method::Auto => self.sparse_refusal().is_none(),
            Method::Sparse => match self.sparse_refusal() {
                Some(why) => return Err(Error::Unsupported(why)),
                None => true,
            },
        };
        if mask.is_some() && !sparse {
            return Err(Error::Unsupported(format!(
                "{}: a mask is for the sparse-space method, which is not the one used here",
                self.id()
            )));
        }
        let len = max as usize + 1;
        g.truncate(len);
        g.reserve(len - g.len());
        if sparse {
            let run = crate::sparse::run(self, g, max, mask, limit, every)?;
            return Ok(Ran::Sparse(run));
        }
        let mut mex = Mex::new(limit);
        mex.widen(g);
        for n in g.len()..len {
            let v = mex.plain_value(self, g, n)?;
            mex.push(g, v)?;
            if (n + 1) % SAVE_EVERY == 0 {
                every(g)?;
            }
        }
        Ok(Ran::Plain)
    }

    /// The key of this game's values in a store: the canonical code (`octal(0.33)` for
    /// `subtraction(1,2)` too, the same game), or `grundy`.
    pub fn sequence_key(&self) -> String {
        match &self.family {
            Family::Grundy => "grundy".into(),
            _ => match self.code() {
                c if c.starts_with('(') => format!("subtraction({})", self.set_text()),
                c => format!("octal({c})"),
            },
        }
    }
}

impl Game for OctalGame {
    fn id(&self) -> String {
        match &self.family {
            Family::Octal => format!("octal({})", self.code()),
            Family::Subtraction(_) => format!("subtraction({})", self.set_text()),
            Family::Grundy => "grundy".into(),
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
                        if self.unequal_splits() && 2 * a == r {
                            continue;
                        }
                        buf[i] = a;
                        buf.push(r - a);
                        let stop = f(&buf).is_break();
                        buf.pop();
                        if stop {
                            return Ok(());
                        }
                    }
                }
                if d & 8 != 0 && r >= 3 {
                    for a in 1..=r / 3 {
                        for b in a..=(r - a) / 2 {
                            buf[i] = a;
                            buf.push(b);
                            buf.push(r - a - b);
                            let stop = f(&buf).is_break();
                            buf.truncate(p.len());
                            if stop {
                                return Ok(());
                            }
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
                let r = u128::from(r);
                let two = if d & 4 == 0 {
                    0
                } else if self.unequal_splits() {
                    (r - 1) / 2
                } else {
                    r / 2
                };
                // Partitions of r into three positive parts: round(r^2 / 12).
                let three = if d & 8 != 0 { (r * r + 6) / 12 } else { 0 };
                let here = u128::from(d & 1 != 0 && r == 0)
                    + u128::from(d & 2 != 0 && r >= 1)
                    + two
                    + three;
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
                            + if d & 8 != 0 { r * r / 12.0 + 1.0 } else { 0.0 }
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
        let least = (1..=self.t() + 3).find(|&n| {
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
            Family::Grundy => "Heaps of tokens; Grundy's game: a move splits one heap into two non-empty heaps of different sizes (heaps of 1 and 2 have no move).".into(),
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
                    if d & 8 != 0 {
                        how.push("leave three non-empty heaps");
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
            ("0.f", "octal(0.F)"),
            ("4.8", "octal(4.8)"),
            ("c.1a0", "octal(C.1A)"),
        ] {
            assert_eq!(OctalGame::octal(text).unwrap().id(), id, "{text}");
        }
        for bad in [
            "0.0G", "0.Z", "1.7", "3.7", "12.7", "0.0.7", "x", "", ".", "0.7g", "-0.7", "2.7",
            "F.1",
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
        // Three heaps: a in place, b <= c appended; Grundy's game: unequal parts only.
        let hex = OctalGame::octal("0.8").unwrap();
        assert_eq!(
            hex.options(&[6]).unwrap(),
            vec![vec![1, 1, 3], vec![1, 2, 2]]
        );
        assert_eq!(hex.count_options(&[6]), Some(2));
        let grundy = OctalGame::grundy();
        assert_eq!(grundy.options(&[6]).unwrap(), vec![vec![1, 5], vec![2, 4]]);
        assert_eq!(grundy.count_options(&[6, 7]), Some(5));
        assert!(grundy.options(&[2]).unwrap().is_empty());
    }
}
