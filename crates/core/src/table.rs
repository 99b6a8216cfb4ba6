//! Bounded tabulation: every P-position of a whole box.
//!
//! The box ([`BoxDomain`]) is swept so that every position comes after all of its options: shorter
//! positions first, then by increasing coordinate sum. Positions of one length and one sum cannot
//! reach each other, so each such tier is solved in parallel. A position is P when none of its options
//! is P (and, in misère play, when it is not terminal). One bit per position is kept.
//!
//! This is the straightforward method: it enumerates the options of each position (stopping at the
//! first P-option). It is exact for every game with a box.

use crate::arg::{Arg, Refusal};
use crate::error::{Error, Result};
use crate::game::{BoxDomain, Game, Pos};
use crate::hooks::Hooks;
use crate::value::Play;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The P-positions of a box.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub game: String,
    pub domain: BoxDomain,
    pub play: Play,
    /// Number of P-positions counted as ordered tuples.
    pub count: u64,
    /// Number of P-positions up to the game's symmetries.
    pub canonical_count: u64,
    /// Per length (in the order of `domain.lengths`): (length, ordered count, canonical count).
    pub by_length: Vec<(usize, u64, u64)>,
    /// The canonical P-positions (least tuple of each class), shortest first, then lexicographically.
    /// Empty when only counts were asked for.
    pub positions: Vec<Pos>,
}

/// Largest box the straightforward method accepts (positions).
pub const MAX_BOX: f64 = 4.0e9;

/// Options for a tabulation run.
pub struct TableRun<'a> {
    pub play: Play,
    /// Keep the canonical positions (otherwise count only).
    pub keep_positions: bool,
    /// Progress (positions done, positions in all) and cancellation ([`Error::Interrupted`]).
    pub hooks: Hooks<'a>,
}

struct Indexer {
    lengths: Vec<usize>,
    offsets: Vec<u64>,
    lo: u64,
    radix: u64,
}

impl Indexer {
    fn new(d: &BoxDomain) -> Indexer {
        let mut offsets = Vec::new();
        let mut acc = 0u64;
        for &m in &d.lengths {
            offsets.push(acc);
            acc += d.radix().pow(m as u32);
        }
        offsets.push(acc);
        Indexer {
            lengths: d.lengths.clone(),
            offsets,
            lo: d.lo,
            radix: d.radix(),
        }
    }
    fn total(&self) -> u64 {
        *self.offsets.last().unwrap()
    }
    /// Index of `q`, or `None` when `q` is outside the box.
    fn index(&self, q: &[u64]) -> Option<u64> {
        let li = self.lengths.iter().position(|&m| m == q.len())?;
        let mut idx = 0u64;
        for &x in q {
            if x < self.lo || x - self.lo >= self.radix {
                return None;
            }
            idx = idx * self.radix + (x - self.lo);
        }
        Some(self.offsets[li] + idx)
    }
    /// The local indices of the positions of length number `li`, grouped by coordinate sum (counting
    /// sort), and where each sum starts (one more entry than there are sums).
    fn by_sum(&self, li: usize) -> (Vec<u64>, Vec<usize>) {
        let m = self.lengths[li];
        let count = self.offsets[li + 1] - self.offsets[li];
        let max_sum = (m as u64) * (self.radix - 1);
        let sums: Vec<u32> = (0..count)
            .map(|l| {
                let mut s = 0u64;
                let mut v = l;
                for _ in 0..m {
                    s += v % self.radix;
                    v /= self.radix;
                }
                s as u32
            })
            .collect();
        let mut starts = vec![0usize; max_sum as usize + 2];
        for &s in &sums {
            starts[s as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut order = vec![0u64; count as usize];
        let mut fill = starts.clone();
        for (l, &s) in sums.iter().enumerate() {
            order[fill[s as usize]] = l as u64;
            fill[s as usize] += 1;
        }
        (order, starts)
    }

    /// True when `q` (a position of the box) lies in a tier solved before the tier of length number
    /// `li` and coordinate sum `s` (entries minus `lo`): a shorter length earlier in the box's order,
    /// or the same length with a smaller sum.
    fn earlier(&self, q: &[u64], li: usize, s: u64) -> bool {
        let Some(lq) = self.lengths.iter().position(|&m| m == q.len()) else {
            return false;
        };
        lq < li || (lq == li && q.iter().map(|&x| x - self.lo).sum::<u64>() < s)
    }

    fn position(&self, li: usize, mut local: u64) -> Pos {
        let m = self.lengths[li];
        let mut p = vec![0u64; m];
        for i in (0..m).rev() {
            p[i] = self.lo + local % self.radix;
            local /= self.radix;
        }
        p
    }
}

struct Bits(Vec<AtomicU64>);
impl Bits {
    fn new(n: u64) -> Bits {
        Bits((0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }
    fn get(&self, i: u64) -> bool {
        self.0[(i / 64) as usize].load(Ordering::Relaxed) >> (i % 64) & 1 == 1
    }
    fn set(&self, i: u64) {
        self.0[(i / 64) as usize].fetch_or(1 << (i % 64), Ordering::Relaxed);
    }
}

/// The one-line refusal of a move that leaves the box (`left`) or does not lower the tier.
fn bad_move_error(game: &dyn Game, d: &BoxDomain, p: &[u64], q: &[u64], left: bool) -> Error {
    let mv = format!(
        "the move {} -> {}",
        game.format_position(p),
        game.format_position(q)
    );
    let single = "`nimlab outcome`, `grundy` and `moves` answer single positions of such a game";
    if left {
        Error::Unsupported(format!(
            "{}: {mv} leaves the box {}, so a table of it would not be exact: `nimlab table` needs a box closed under moves; {single}",
            game.id(),
            d.describe()
        ))
    } else {
        Error::Unsupported(format!(
            "{}: {mv} does not lower the coordinate sum: `nimlab table` solves a box by increasing sum and needs every move to lower it; {single}",
            game.id()
        ))
    }
}

/// Tabulates the P-positions of `game` in `domain` under `run.play`.
pub fn tabulate(game: &dyn Game, domain: &BoxDomain, run: &TableRun) -> Result<Table> {
    let size = domain.size_f64();
    if domain.hi < domain.lo {
        return Err(Error::refused(
            Refusal::new(format!(
                "the box is empty: its largest entry {} is below its least {}; use a larger ",
                domain.hi, domain.lo
            ))
            .name(Arg::Max),
        ));
    }
    if size > MAX_BOX {
        return Err(Error::too_large(
            Refusal::new(format!(
                "the box holds {size:.2e} positions, more than the {MAX_BOX:.0e} the tabulation accepts; use a smaller "
            ))
            .name(Arg::Max),
        ));
    }
    let ix = Indexer::new(domain);
    let total = ix.total();
    let is_p = Bits::new(total);
    let done = AtomicU64::new(0);
    let misere = run.play == Play::Misere;
    // The first move found that leaves the box, or that does not lead to an earlier tier (which
    // would read a bit not computed yet): (position, option, left the box).
    let bad_move: std::sync::Mutex<Option<(Pos, Pos, bool)>> = std::sync::Mutex::new(None);
    let any_bad = AtomicBool::new(false);
    let failed: std::sync::Mutex<Option<Error>> = std::sync::Mutex::new(None);

    for li in 0..domain.lengths.len() {
        let (order, starts) = ix.by_sum(li);
        let max_sum = starts.len() - 2;
        for s in 0..=max_sum {
            if run.hooks.cancelled() {
                return Err(Error::Interrupted);
            }
            let tier = &order[starts[s]..starts[s + 1]];
            tier.par_iter().for_each(|&local| {
                let p = ix.position(li, local);
                let mut any_option = false;
                let mut reaches_p = false;
                let r = game.for_each_option(&p, &mut |q| {
                    any_option = true;
                    let j = ix.index(q);
                    if j.is_none() || !ix.earlier(q, li, s as u64) {
                        any_bad.store(true, Ordering::Relaxed);
                        let mut b = bad_move.lock().unwrap_or_else(|x| x.into_inner());
                        b.get_or_insert((p.clone(), q.to_vec(), j.is_none()));
                        return ControlFlow::Break(());
                    }
                    match j {
                        Some(j) if is_p.get(j) => {
                            reaches_p = true;
                            ControlFlow::Break(())
                        }
                        _ => ControlFlow::Continue(()),
                    }
                });
                if let Err(e) = r {
                    failed.lock().unwrap().get_or_insert(e);
                    return;
                }
                let p_pos = !reaches_p && (!misere || any_option);
                if p_pos {
                    is_p.set(ix.offsets[li] + local);
                }
            });
            if let Some(e) = failed.lock().unwrap().take() {
                return Err(e);
            }
            if any_bad.load(Ordering::Relaxed) {
                if let Some((p, q, left)) = bad_move.lock().unwrap().take() {
                    return Err(bad_move_error(game, domain, &p, &q, left));
                }
            }
            let d = done.fetch_add(tier.len() as u64, Ordering::Relaxed) + tier.len() as u64;
            run.hooks.report(d, total);
        }
    }

    // Count, and collect canonical representatives.
    let mut table = Table {
        game: game.id(),
        domain: domain.clone(),
        play: run.play,
        count: 0,
        canonical_count: 0,
        by_length: Vec::new(),
        positions: Vec::new(),
    };
    for (li, &m) in domain.lengths.iter().enumerate() {
        let (mut c, mut cc) = (0u64, 0u64);
        for local in 0..ix.offsets[li + 1] - ix.offsets[li] {
            if is_p.get(ix.offsets[li] + local) {
                c += 1;
                let p = ix.position(li, local);
                if game.canonical(&p) == p {
                    cc += 1;
                    if run.keep_positions {
                        table.positions.push(p);
                    }
                }
            }
        }
        table.count += c;
        table.canonical_count += cc;
        table.by_length.push((m, c, cc));
    }
    // A representative the game refused while counting (a script's canonical) is reported, not
    // silently replaced by the position itself.
    game.deferred_error()?;
    Ok(table)
}

/// Grundy values of every position of `d` by plain search: every option of every position, values
/// in a flat array (lengths in the order of `d.lengths`, each in lexicographic order of the entries
/// minus `d.lo`). Positions are visited in the order [`tabulate`] uses (shorter lengths first, then by
/// coordinate sum); an option that leaves the box, or whose value is not known yet, is an error.
pub fn grundy_values(game: &dyn Game, d: &BoxDomain, hooks: Hooks) -> Result<Vec<u16>> {
    /// Not computed yet.
    const UNKNOWN: u16 = u16::MAX;
    let ix = Indexer::new(d);
    let total = ix.total();
    let mut values = vec![UNKNOWN; total as usize];
    let mut seen: Vec<u32> = Vec::new();
    let mut stamp = 0u32;
    let mut done = 0u64;
    for li in 0..d.lengths.len() {
        let (order, _) = ix.by_sum(li);
        for &local in &order {
            if done.is_multiple_of(4096) {
                if hooks.cancelled() {
                    return Err(Error::Interrupted);
                }
                hooks.report(done, total);
            }
            done += 1;
            let p = ix.position(li, local);
            stamp += 1;
            let mut bad = None;
            game.for_each_option(&p, &mut |q| match ix.index(q) {
                Some(j) if values[j as usize] != UNKNOWN => {
                    let g = values[j as usize] as usize;
                    if seen.len() <= g {
                        seen.resize(g + 1, 0);
                    }
                    seen[g] = stamp;
                    ControlFlow::Continue(())
                }
                j => {
                    bad = Some((q.to_vec(), j.is_none()));
                    ControlFlow::Break(())
                }
            })?;
            if let Some((q, left)) = bad {
                return Err(bad_move_error(game, d, &p, &q, left));
            }
            let g = (0..)
                .find(|&g| seen.get(g).is_none_or(|&s| s != stamp))
                .unwrap();
            if g >= UNKNOWN as usize {
                return Err(Error::Unsupported(format!(
                    "{}: a Grundy value reaches {g}, beyond what the table stores",
                    game.id()
                )));
            }
            values[(ix.offsets[li] + local) as usize] = g as u16;
        }
    }
    Ok(values)
}
