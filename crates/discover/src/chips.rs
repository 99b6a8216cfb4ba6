//! `nimlab discover` for the redistribution chip games EABO(k), ER(k), SER(k) and EJR(k,j), normal
//! and misère play.
//!
//! In these games the P-set is a function of one set of integers: T, the totals n ≥ k of the
//! P-positions (misère play: of the misère P-positions). A position is P exactly when no set of
//! boxes a move may keep has its total in T (misère play: and it is not terminal); the proof is in
//! [`nimlab_prove::chips::totals`]. So the pipeline works on T:
//!
//! 1. compute T on the totals `k..=S` exactly, total by total: n ∈ T when some partition of n into
//!    k positive parts satisfies the criterion above (its kept totals are all below n, so already
//!    known). The partitions are searched part by part, smallest first, and a branch is cut as soon
//!    as one of its kept sets is known to have its total in T (a kept set is known once its boxes,
//!    or the boxes it discards, are chosen), with the candidates for each part read from T as a bit
//!    set; the search stops at the first P-position of each total ([`TotalsTable::extend`]);
//! 2. read off the simplest ultimately periodic description of T on `k..=S`: exceptions below a
//!    threshold a, residues modulo a period q from a on, the periodic part observed for at least two
//!    full periods and at least 2k totals (`S + 1 - a >= max(2q, 2k)`); among those, the least
//!    `a + q`, then the least q;
//! 3. check it on a larger box of totals (T computed there exactly); on a mismatch, learn again from
//!    the larger box;
//! 4. **check it as far as is cheap** before it is proved or reported: T is extended exactly up to
//!    [`CHECK_TOTALS`] chips, or for [`CHECK_SECONDS`], whichever comes first (never less than the
//!    box of step 3), and compared with the description. When they differ, the description is
//!    neither proved nor reported: the run records where it fails (the least total, and the least
//!    position it classifies wrongly, [`TotalsTable::least_wrong_position`]) and learns again on the
//!    longer range, steps 2 and 3 now bounded by that range instead of `S` (as they are when step 2
//!    finds nothing periodic up to `S`). A description read from the whole range has no totals left
//!    to be checked on, so it is not reported: the verdict is then none ("no period up to N
//!    chips"), as when nothing periodic shows on the whole range. (Only when the check went no
//!    further than `S` itself, in a dear game, is a description read from all of it still proved,
//!    as before, its box being the totals it was read from);
//! 5. prove "no allowed kept set has its total in T" for every box size with the chip prover
//!    ([`nimlab_prove::chips::prove_chips`], which re-checks every counterexample and every
//!    "proved" by exact search); a counterexample beyond the checked totals but inside `S` grows the
//!    box to its total and T is learned again.
//!
//! The verdicts are those of [`crate::discover`]: proved, conjecture (T's description equals T on the
//! checked totals, the proof was refuted beyond them or gave no answer), none. The JSON's
//! `totals_check` ([`Check`]) says how far T was computed and compared, and which description the
//! check refuted.

use crate::{Discovery, Options, Stopper, TableUse, Verdict};
use nimlab_core::{Arg, Error, Play, Refusal, Result};
use nimlab_games::Redistribute;
use nimlab_prove::chips::totals::{self, Totals};
use nimlab_prove::chips::{prove_chips, ChipGame, Moves};
use nimlab_prove::{Solver, Status};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The most positions (of total at most S) a box may hold: the limit of the chip games' tables.
pub const MAX_POSITIONS: f64 = 2.0e7;
/// The default largest box: the largest S whose positions are at most this many (the limit).
pub const DEFAULT_POSITIONS: f64 = MAX_POSITIONS;
/// The first box: about this many positions (at least k + 12 chips).
const FIRST_POSITIONS: f64 = 2.0e4;

/// The cheap check (step 4 of the module's doc) extends T up to this many chips at most: the chip
/// prover takes thresholds and periods up to [`totals::MAX_THRESHOLD`] (2000), so a description
/// read past it could not be proved anyway. EJR(5,2) reaches it in about 0.2 s (opt-level 3).
pub const CHECK_TOTALS: u64 = totals::MAX_THRESHOLD;
/// ... or for this long at most (wall time of the extension; the run's time limit still applies).
/// Where the search of a total is dear (ER(8): every partition of an odd total into 8 parts has to
/// be refuted) T then ends earlier, a few hundred chips; the report says where. The search for the
/// least position a refuted description classifies wrongly gets as long again, once per run.
pub const CHECK_SECONDS: Duration = Duration::from_secs(3);

/// The number of positions of k boxes (each ≥ 1) with total at most `s` (a float estimate, exact
/// while it is below 2^53).
pub fn positions_up_to(k: usize, s: u64) -> f64 {
    if s < k as u64 {
        return 0.0;
    }
    // Far past every limit (k >= 2 boxes give about s^2 / 4 positions).
    if s > 1_000_000 {
        return f64::INFINITY;
    }
    // Partitions of m = n - k into at most k parts, summed over m <= s - k.
    let m = (s - k as u64) as usize;
    let mut ways = vec![0f64; m + 1];
    ways[0] = 1.0;
    for part in 1..=k {
        for v in part..=m {
            ways[v] += ways[v - part];
        }
    }
    ways.iter().sum()
}

/// The largest total whose box holds at most `limit` positions (at least k + 2).
fn largest_sum(k: usize, limit: f64) -> u64 {
    let mut s = k as u64 + 2;
    while s < 100_000 && positions_up_to(k, s + 1) <= limit {
        s += 1;
    }
    s
}

/// A set of totals as bits (bit n in word n / 64).
#[derive(Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn push_at(&mut self, n: u64, on: bool) {
        if n.is_multiple_of(64) {
            self.0.push(0);
        }
        if on {
            self.0[(n / 64) as usize] |= 1 << (n % 64);
        }
    }
}

fn bit(words: &[u64], x: u64) -> bool {
    words
        .get((x / 64) as usize)
        .is_some_and(|w| (w >> (x % 64)) & 1 == 1)
}

/// `cand[w] &= ` the bits `s + 64w ..= s + 64w + 63` of `src` (bits past its end are off).
fn and_shifted(cand: &mut [u64], src: &[u64], s: u64) {
    let (q, r) = ((s / 64) as usize, s % 64);
    let word = |i: usize| src.get(i).copied().unwrap_or(0);
    for (w, c) in cand.iter_mut().enumerate() {
        let v = if r == 0 {
            word(q + w)
        } else {
            (word(q + w) >> r) | (word(q + w + 1) << (64 - r))
        };
        *c &= v;
    }
}

/// The total of the boxes of `y` in `mask`.
fn total(y: &[u64], mask: u32) -> u64 {
    let mut s = 0;
    let mut bits = mask;
    while bits != 0 {
        s += y[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    s
}

/// What a search of the positions of one total gave.
enum Found {
    /// The first position (sorted, least in lexicographic order) that passed.
    Yes(Vec<u64>),
    No,
    /// `stop` fired first.
    Stopped,
}

/// The search of the positions of total `n` (sorted, k positive parts, chosen smallest first)
/// whose every allowed kept total is in `free`, for the first one that `leaf` accepts.
struct Search<'a> {
    k: usize,
    kept: &'a [Vec<u32>],
    discarded: &'a [Vec<u32>],
    /// Bit x: a kept total x does not cut (every total a kept set of these positions can have, all
    /// below n, is covered).
    free: &'a [u64],
    /// Bit x (1 ≤ x ≤ n): bit n - x of `free`, read through the discarded boxes.
    rev: Vec<u64>,
    leaf: &'a dyn Fn(&[u64]) -> bool,
    stop: &'a dyn Fn() -> bool,
    nodes: u64,
    stopped: bool,
    y: Vec<u64>,
    cand: Vec<Vec<u64>>,
}

impl Search<'_> {
    /// Chooses part `i` (at least `lo`; `rem` chips left for parts `i..k`).
    fn dfs(&mut self, i: usize, rem: u64, lo: u64) -> bool {
        let k = self.k;
        if i == k - 1 {
            // Every kept set was cut on by depth k - 2: a set or the boxes it discards lacks box k - 1.
            self.y[i] = rem;
            return (self.leaf)(&self.y);
        }
        let hi = rem / (k - i) as u64;
        if hi < lo {
            return false;
        }
        let mut cand = std::mem::take(&mut self.cand[i]);
        cand.clear();
        cand.resize((hi / 64 + 1) as usize, !0);
        for &m in &self.kept[i] {
            and_shifted(&mut cand, self.free, total(&self.y, m));
        }
        for &m in &self.discarded[i] {
            and_shifted(&mut cand, &self.rev, total(&self.y, m));
        }
        let mut found = false;
        let first = (lo / 64) as usize;
        'scan: for (w, &word) in cand.iter().enumerate().skip(first) {
            let mut bits = if w == first {
                word & (!0u64 << (lo % 64))
            } else {
                word
            };
            while bits != 0 {
                let x = w as u64 * 64 + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                if x > hi {
                    break 'scan;
                }
                self.nodes += 1;
                if self.nodes.is_multiple_of(4096) && (self.stop)() {
                    self.stopped = true;
                    break 'scan;
                }
                self.y[i] = x;
                if self.dfs(i + 1, rem - x, x) {
                    found = true;
                    break 'scan;
                }
                if self.stopped {
                    break 'scan;
                }
            }
        }
        self.cand[i] = cand;
        found
    }
}

/// T on the totals `0..in_t.len()`, computed exactly and extended on demand.
pub struct TotalsTable {
    k: usize,
    play: Play,
    /// The masks of the sets of boxes a move may keep.
    masks: Vec<u32>,
    /// The search's cuts at each part i (parts chosen smallest first): `kept[i]`, the kept sets
    /// whose last box is i (as the mask of their other boxes; their total is then known);
    /// `discarded[i]`, those whose discarded boxes end at i first (as the mask of the other
    /// discarded boxes; their total is n minus the discarded chips).
    kept: Vec<Vec<u32>>,
    discarded: Vec<Vec<u32>>,
    /// `in_t[n]`: n ∈ T.
    pub in_t: Vec<bool>,
    /// Bit n: n < k or n ∉ T, the kept totals that let a position be P.
    free: Bits,
}

impl TotalsTable {
    pub fn new(g: &Redistribute, play: Play) -> TotalsTable {
        let k = g.k;
        let (lo, hi) = g.discard_range();
        let masks: Vec<u32> = (1u32..(1u32 << k))
            .filter(|m| {
                let kept = m.count_ones() as usize;
                kept >= k - hi && kept <= k - lo
            })
            .collect();
        let top = |m: u32| (31 - m.leading_zeros()) as usize;
        let full = (1u32 << k) - 1;
        let (mut kept, mut discarded) = (vec![Vec::new(); k], vec![Vec::new(); k]);
        for &m in &masks {
            let d = full & !m;
            if top(m) <= top(d) {
                kept[top(m)].push(m & !(1 << top(m)));
            } else {
                discarded[top(d)].push(d & !(1 << top(d)));
            }
        }
        TotalsTable {
            k,
            play,
            masks,
            kept,
            discarded,
            in_t: Vec::new(),
            free: Bits::default(),
        }
    }

    /// Whether some allowed kept set of `y` has at least k chips and a total `inside` takes.
    fn keeps(&self, y: &[u64], inside: &dyn Fn(u64) -> bool) -> bool {
        let k = self.k as u64;
        self.masks.iter().any(|&m| {
            let s = total(y, m);
            s >= k && inside(s)
        })
    }

    /// The first position of total `n` (least in lexicographic order, sorted) whose allowed kept
    /// totals all have their bit in `free` and that `leaf` accepts.
    fn first(
        &self,
        n: u64,
        free: &[u64],
        leaf: &dyn Fn(&[u64]) -> bool,
        stop: &dyn Fn() -> bool,
    ) -> Found {
        let mut rev = vec![0u64; (n / 64 + 1) as usize];
        for x in 1..=n {
            if bit(free, n - x) {
                rev[(x / 64) as usize] |= 1 << (x % 64);
            }
        }
        let mut s = Search {
            k: self.k,
            kept: &self.kept,
            discarded: &self.discarded,
            free,
            rev,
            leaf,
            stop,
            nodes: 0,
            stopped: false,
            y: vec![0; self.k],
            cand: vec![Vec::new(); self.k],
        };
        if s.dfs(0, n, 1) {
            Found::Yes(s.y)
        } else if s.stopped {
            Found::Stopped
        } else {
            Found::No
        }
    }

    /// Computes T up to `s`; `false` when `stop` fired first (T then ends where it was complete).
    pub fn extend(&mut self, s: u64, stop: &dyn Fn() -> bool) -> bool {
        let k = self.k as u64;
        while (self.in_t.len() as u64) <= s {
            if stop() {
                return false;
            }
            let n = self.in_t.len() as u64;
            let mut found = false;
            if n >= k {
                // A P-position of total n: no allowed kept total in T (misère: and a move).
                let leaf = |y: &[u64]| self.play == Play::Normal || self.keeps(y, &|_| true);
                match self.first(n, &self.free.0, &leaf, stop) {
                    Found::Yes(_) => found = true,
                    Found::No => {}
                    Found::Stopped => return false,
                }
            }
            self.in_t.push(found);
            self.free.push_at(n, n < k || !found);
        }
        true
    }

    /// The largest total T is computed to.
    pub fn computed(&self) -> u64 {
        (self.in_t.len() as u64).saturating_sub(1)
    }

    /// The first total in `k..=s` where `t` and T differ.
    pub fn mismatch(&self, t: &Totals, s: u64) -> Option<u64> {
        (self.k as u64..=s).find(|&n| t.contains(self.k, u128::from(n)) != self.in_t[n as usize])
    }

    /// The totals in `k..=s` where `t` and T differ, the first `most` of them.
    pub fn differences(&self, t: &Totals, s: u64, most: usize) -> Vec<u64> {
        (self.k as u64..=s)
            .filter(|&n| t.contains(self.k, u128::from(n)) != self.in_t[n as usize])
            .take(most)
            .collect()
    }

    /// The least position (the least total, then the least sorted tuple) that the P-set and the
    /// set `t` gives (no allowed kept total in `t`; misère: and a move) classify differently, with
    /// whether it is P; the totals searched are those whose kept totals T covers. `None` when `t`
    /// equals T there, when no such position is found there, or when `stop` fires first.
    ///
    /// Such a position has a kept total where `t` and T differ, so its total is at least the first
    /// of those plus the chips of the boxes a move must discard (at least one a box).
    pub fn least_wrong_position(
        &self,
        t: &Totals,
        stop: &dyn Fn() -> bool,
    ) -> Option<(Vec<u64>, bool)> {
        let k = self.k as u64;
        let last = self.computed();
        let n0 = self.mismatch(t, last)?;
        let fewest_discarded = self
            .masks
            .iter()
            .map(|m| k - u64::from(m.count_ones()))
            .min()?;
        let mut free_t = Bits::default();
        for n in 0..=last {
            free_t.push_at(n, n < k || !t.contains(self.k, u128::from(n)));
        }
        let in_t = |s: u64| self.in_t[s as usize];
        let in_desc = |s: u64| t.contains(self.k, u128::from(s));
        for n in n0 + fewest_discarded..=last + fewest_discarded {
            // P (no kept total in T), but a kept total in t.
            let p = |y: &[u64]| self.keeps(y, &in_desc);
            // In t's set, but a kept total in T (so N).
            let n_pos = |y: &[u64]| self.keeps(y, &in_t);
            let a = match self.first(n, &self.free.0, &p, stop) {
                Found::Yes(y) => Some(y),
                Found::No => None,
                Found::Stopped => return None,
            };
            let b = match self.first(n, &free_t.0, &n_pos, stop) {
                Found::Yes(y) => Some(y),
                Found::No => None,
                Found::Stopped => return None,
            };
            match (a, b) {
                (Some(a), Some(b)) if b < a => return Some((b, false)),
                (Some(a), _) => return Some((a, true)),
                (None, Some(b)) => return Some((b, false)),
                (None, None) => {}
            }
        }
        None
    }
    /// The simplest ultimately periodic description of T on `k..=s` (see the module's doc), or
    /// `None` when no period has two full periods (and 2k totals) observed.
    pub fn learn(&self, s: u64) -> Option<Totals> {
        let k = self.k as u64;
        let at = |n: u64| self.in_t[n as usize];
        let mut best: Option<(u64, u64)> = None;
        let span = s + 1 - k;
        for q in 1..=span / 2 {
            // The least a from which T is q-periodic up to s.
            let mut a = k;
            let mut n = s - q;
            loop {
                if at(n) != at(n + q) {
                    a = n + 1;
                    break;
                }
                if n == k {
                    break;
                }
                n -= 1;
            }
            // Two full periods, and at least 2k totals, observed past the threshold.
            if s + 1 - a < (2 * q).max(2 * k) {
                continue;
            }
            if best.is_none_or(|(ba, bq)| a + q < ba + bq) {
                best = Some((a, q));
            }
        }
        let (a, q) = best?;
        let mut residues: Vec<u64> = (a..a + q).filter(|&n| at(n)).map(|n| n % q).collect();
        residues.sort_unstable();
        Some(Totals {
            threshold: a,
            period: q,
            residues,
            exceptions: (k..a).filter(|&n| at(n)).collect(),
        })
    }
}

/// How far the cheap check (step 4 of the module's doc) computed T and compared it with the
/// descriptions read from it.
#[derive(Debug, Clone)]
pub struct Check {
    /// T was computed exactly on the totals `from..=to` (`from` = k).
    pub from: u64,
    pub to: u64,
    /// What ended the extension: `totals` ([`CHECK_TOTALS`] reached, or T already computed that
    /// far), `seconds` ([`CHECK_SECONDS`]) or `time limit` (the run's).
    pub stopped_by: &'static str,
    /// Wall seconds the extension took.
    pub seconds: f64,
    /// The first description the check refuted (the one the box alone would have given).
    pub refuted: Option<Refuted>,
}

/// A description of T that equalled T on its box and failed the cheap check.
#[derive(Debug, Clone)]
pub struct Refuted {
    pub totals: Totals,
    /// It was read from the totals `k..=read` and equalled T on `k..=checked`.
    pub read: u64,
    pub checked: u64,
    /// The least total where it and T differ, and whether that total is in T.
    pub fails_at: u64,
    pub fails_at_in_t: bool,
    /// The first [`DIFFERENCES_SHOWN`] totals (up to the check's end) where it and T differ, and
    /// whether there are more.
    pub differences: Vec<u64>,
    pub more: bool,
    /// The least position it classifies wrongly (the least total, then the least sorted tuple),
    /// with whether it is P; `None` when none was found within the check's totals and time.
    pub position: Option<(Vec<u64>, bool)>,
}

/// How many totals where a refuted description and T differ are reported.
pub const DIFFERENCES_SHOWN: usize = 12;

/// The periodic part of a description in words: "every total from 175 on", "from 23 on, the
/// totals n with n mod 12 in {0, 1}", with the number of exceptions below its threshold.
pub fn tail_words(t: &Totals) -> String {
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let tail = if t.residues.len() as u64 == t.period {
        format!("every total from {} on", t.threshold)
    } else if t.residues.is_empty() {
        format!("no total from {} on", t.threshold)
    } else {
        format!(
            "from {} on, the totals n with n mod {} in {{{}}}",
            t.threshold,
            t.period,
            list(&t.residues)
        )
    };
    match t.exceptions.len() {
        0 => tail,
        e if e <= 6 => format!("{tail}; below it {{{}}}", list(&t.exceptions)),
        e => format!("{tail}; below it {e} totals"),
    }
}

/// A description in words for the progress lines: [`Totals::words`], or [`tail_words`] when that
/// is long.
fn short_words(t: &Totals) -> String {
    let words = t.words();
    if words.chars().count() <= 200 {
        words
    } else {
        tail_words(t)
    }
}

impl Check {
    /// The object `totals_check` of `discover --json`.
    pub fn to_json(&self) -> Value {
        json!({
            "min": self.from,
            "max": self.to,
            "limit": {"totals": CHECK_TOTALS, "seconds": CHECK_SECONDS.as_secs_f64()},
            "stopped_by": self.stopped_by,
            "seconds": (self.seconds * 1000.0).round() / 1000.0,
            "refuted": self.refuted.as_ref().map(|r| json!({
                "words": r.totals.words(),
                "threshold": r.totals.threshold,
                "period": r.totals.period,
                "residues": r.totals.residues,
                "exceptions": r.totals.exceptions,
                "read": {"min": self.from, "max": r.read},
                "checked": {"min": self.from, "max": r.checked},
                "fails_at": r.fails_at,
                "fails_at_in_t": r.fails_at_in_t,
                "differences": r.differences,
                "more_differences": r.more,
                "position": r.position.as_ref().map(|(y, _)| y),
                "position_is_p": r.position.as_ref().map(|(_, p)| p),
            })),
        })
    }

    /// The lines `discover` prints about the check.
    pub fn text(&self) -> String {
        let mut out = format!(
            "T computed exactly and compared on the totals {}..{} (the check stops at {} chips or after {} s, here: {}; {:.2} s)\n",
            self.from,
            self.to,
            CHECK_TOTALS,
            CHECK_SECONDS.as_secs(),
            self.stopped_by,
            self.seconds
        );
        if let Some(r) = &self.refuted {
            let list = r
                .differences
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            out.push_str(&format!(
                "refuted by the check: the description read from the totals {}..{} ({}), equal to T on {}..{}, fails at the total {} ({} in T); T and it differ at {list}{}",
                self.from,
                r.read,
                tail_words(&r.totals),
                self.from,
                r.checked,
                r.fails_at,
                if r.fails_at_in_t { "it is" } else { "it is not" },
                if r.more { ", …" } else { "" }
            ));
            match &r.position {
                Some((y, is_p)) => out.push_str(&format!(
                    "; the least position it classifies wrongly is {}, {}\n",
                    nimlab_core::position::format_tuple(y),
                    if *is_p {
                        "a P-position outside the set it gives"
                    } else {
                        "an N-position inside the set it gives"
                    }
                )),
                None => out.push_str(
                    "; no position it classifies wrongly was found within the check's totals and time\n",
                ),
            }
        }
        out
    }
}
/// What a move keeps, in words: "box", "set of 3 boxes", "set of 1 to 3 boxes".
fn kept_words(moves: &Moves) -> String {
    let Moves::Redistribute(sizes) = moves else {
        return "boxes".into();
    };
    let (lo, hi) = (
        sizes.iter().min().copied().unwrap_or(1),
        sizes.iter().max().copied().unwrap_or(1),
    );
    match (lo, hi) {
        (1, 1) => "box".into(),
        (a, b) if a == b => format!("set of {a} boxes"),
        (a, b) => format!("set of {a} to {b} boxes"),
    }
}

/// The criterion in words, for T described by `t`.
pub fn criterion(game: &ChipGame, play: Play, t: &Totals) -> String {
    format!(
        "a position is P exactly when no {} it may keep has its total in T{}, where {}",
        kept_words(&game.moves),
        if play == Play::Misere {
            " and it is not terminal"
        } else {
            ""
        },
        t.words()
    )
}

/// The refusal of `discover` for the chip games it does not cover (ET, ENTROPY).
pub fn not_covered(game: &ChipGame) -> Error {
    let id = game.id();
    let bound = if game.moves == Moves::Entropy {
        "--max H"
    } else {
        "--max-sum S"
    };
    Error::Unsupported(format!(
        "discover covers the redistribution chip games (EABO, ER, SER, EJR) and, by automata, ET(3) and ENTROPY(3), not {id}: its P-set is not read through a set of totals; `nimlab patterns '{id}' {bound}` groups its P-positions by shape, `nimlab verify '{id}' {bound} --theorem ID` checks a registry result on a box, and `nimlab prove '{id}' --theorem ID` proves one"
    ))
}

/// Discovers and proves the P-set of a redistribution chip game (`opts.max` must be `None`: the box
/// is bounded by `opts.max_sum`, the most chips in all).
pub fn discover_chips(game_text: &str, opts: &Options) -> Result<Discovery> {
    let start = Instant::now();
    let game = ChipGame::parse(game_text)?.ok_or_else(|| {
        Error::Unsupported(format!("{game_text} is not one of Ferguson's chip games"))
    })?;
    if let Some(moves) = crate::chip_automaton::covered(&game) {
        return crate::chip_automaton::discover_transfer(&game, moves, opts);
    }
    let Some(g) = game.game.downcast_ref::<Redistribute>().copied() else {
        return Err(not_covered(&game));
    };
    let id = game.id();
    if opts.max.is_some() {
        return Err(Error::refused(
            Refusal::new(format!(
                "{id} is bounded by its total number of chips: use "
            ))
            .given(Arg::MaxSum)
            .text(", not ")
            .name(Arg::Max),
        ));
    }
    let k = g.k;
    let kk = k as u64;
    let max_s = match opts.max_sum {
        Some(s) => {
            if s < kk + 4 {
                return Err(Error::refused(Refusal::new("").value(Arg::MaxSum, s).text(
                    format!(": discover on {id} needs at least k + 4 = {} chips", kk + 4),
                )));
            }
            let count = positions_up_to(k, s);
            if count > MAX_POSITIONS {
                return Err(Error::TooLarge(format!(
                    "{id} with --max-sum {s} has about {count:.1e} positions, more than the {MAX_POSITIONS:.0e} the chip games' tables take; use a smaller --max-sum"
                )));
            }
            s
        }
        None => largest_sum(k, DEFAULT_POSITIONS),
    };
    let play = opts.play;
    let stopper = Stopper::new(opts.cancel.clone(), start + opts.timeout);
    let say = |s: &str| {
        if let Some(p) = &opts.progress {
            p(s)
        }
    };
    let mut d = Discovery::empty(id.clone(), play, kk);
    let mut table = TotalsTable::new(&g, play);
    let stop = || stopper.stop();
    let halted = |d: Discovery, what: &str| -> Result<Discovery> {
        if stopper.cancelled() {
            return Err(Error::Interrupted);
        }
        Ok(crate::out_of_time(d, start, what))
    };
    let mut s = largest_sum(k, FIRST_POSITIONS).max(kk + 12).min(max_s);
    // The largest total the learning and the box checks use: `max_s`, then, once the cheap check
    // has refuted a description or nothing periodic showed up to `max_s`, the end of that check.
    let mut cap = max_s;
    loop {
        say(&format!(
            "computing the P-totals T of {id} on the totals {kk}..{s}"
        ));
        if !table.extend(s, &stop) {
            return halted(d, &format!("T was being computed up to {s}"));
        }
        d.tables.push(TableUse {
            max: s,
            p_positions: table.in_t[..=s as usize].iter().filter(|&&b| b).count(),
            source: "totals",
        });
        let Some(t) = table.learn(s) else {
            if s >= cap && d.totals_check.is_none() {
                // Nothing periodic in the largest box: T as far as is cheap, and learning goes on
                // there.
                d.totals_check = Some(cheap_check(&mut table, kk, &stopper, &say)?);
                cap = cap.max(table.computed());
            }
            if s >= cap {
                d.reason = Some(format!(
                    "no period up to {s} chips: no ultimately periodic description of T with two full periods (and 2k totals) observed on the totals {kk}..{s}{}",
                    if d.totals_check.as_ref().is_some_and(|c| c.to > max_s) {
                        ", T computed exactly there (the end of the cheap check)"
                    } else {
                        " (raise --max-sum)"
                    }
                ));
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            s = (s + s / 2).min(cap);
            say("no period observed twice: a larger box");
            continue;
        };
        say(&format!("read from {kk}..{s}: {}", short_words(&t)));
        // The check on a larger box.
        let c = (s + (2 * t.period).max(s / 2)).min(cap);
        if c > s {
            if !table.extend(c, &stop) {
                d.verdict = Verdict::Conjecture;
                d.box_max = Some(s);
                d.totals = Some(t.clone());
                d.toml = Some(file(&id, play, &t, s, s));
                d.reason = Some(format!(
                    "the time limit was reached before the check on the totals up to {c}"
                ));
                d.seconds = start.elapsed().as_secs_f64();
                if stopper.cancelled() {
                    return Err(Error::Interrupted);
                }
                return Ok(d);
            }
            if let Some(n) = table.mismatch(&t, c) {
                say(&format!(
                    "the description fails at the total {n} (checked up to {c}); learning again from {kk}..{c}"
                ));
                s = c;
                continue;
            }
        }
        // The cheap check: T as far as it is cheap, once; every later description is compared on
        // the same range.
        if d.totals_check.is_none() {
            d.totals_check = Some(cheap_check(&mut table, kk, &stopper, &say)?);
        }
        let reach = table.computed();
        if s >= reach {
            // Read from every total computed: nothing is left to check it on.
            if s > max_s {
                d.reason = Some(format!(
                    "no period up to {reach} chips: no description of T read from the totals {kk}..s with s < {reach} holds on the totals up to {reach} (T computed exactly there), and the one read from all of them ({}) has no total left to be checked on",
                    tail_words(&t)
                ));
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            // The cheap check went no further than the largest box (a dear game, or a large
            // --max-sum): the description is proved as before, its box being the totals it was
            // read from.
        }
        if let Some(n) = table.mismatch(&t, reach) {
            let check = d.totals_check.as_mut().expect("the cheap check ran");
            if check.refuted.is_none() {
                let until = Instant::now() + CHECK_SECONDS;
                let position =
                    table.least_wrong_position(&t, &|| stopper.stop() || Instant::now() >= until);
                let mut differences = table.differences(&t, reach, DIFFERENCES_SHOWN + 1);
                let more = differences.len() > DIFFERENCES_SHOWN;
                differences.truncate(DIFFERENCES_SHOWN);
                check.refuted = Some(Refuted {
                    totals: t.clone(),
                    read: s,
                    checked: c,
                    fails_at: n,
                    fails_at_in_t: table.in_t[n as usize],
                    differences,
                    more,
                    position,
                });
                if stopper.cancelled() {
                    return Err(Error::Interrupted);
                }
            }
            say(&format!(
                "the description fails at the total {n} (T checked up to {reach}); learning again on the totals up to {reach}"
            ));
            cap = reach;
            s = c.max(n).min(reach);
            continue;
        }
        let checked = reach.max(c);
        d.totals = Some(t.clone());
        d.box_max = Some(checked);
        d.toml = Some(file(&id, play, &t, s, checked));
        if stopper.stop() {
            if stopper.cancelled() {
                return Err(Error::Interrupted);
            }
            d.verdict = Verdict::Conjecture;
            d.reason = Some("the time limit was reached before the proof".into());
            d.seconds = start.elapsed().as_secs_f64();
            return Ok(d);
        }
        say(&format!(
            "T's description equals T on the totals {kk}..{checked}; proving the P-set it gives for every box size"
        ));
        let claim = match totals::claim(&id, play, &t, "discovered".into()) {
            Ok(c) => c,
            Err(e) => {
                d.verdict = Verdict::Conjecture;
                d.reason = Some(format!("not proved: {e}"));
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
        };
        let left = stopper.deadline.saturating_duration_since(Instant::now());
        let solver = Solver {
            path: opts.solver.clone(),
            timeout: left.max(Duration::from_secs(1)),
            deadline: Some(stopper.deadline),
        };
        // The proof stops at the time limit as at Ctrl-C (the watchdog's flag).
        let report = match nimlab_core::interrupt::scope(stopper.halt.clone(), || {
            prove_chips(&claim, &[solver])
        }) {
            Err(Error::Interrupted) if !stopper.cancelled() => {
                d.verdict = Verdict::Conjecture;
                d.reason = Some("the time limit was reached during the proof".into());
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            r => r?,
        };
        d.prover = Some(report.method);
        d.proof = Some(report.to_json());
        match report.verdict {
            Status::Proved => {
                d.verdict = Verdict::Proved;
                d.reason = None;
                d.counterexample = None;
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            Status::Unknown => {
                if stopper.cancelled() {
                    return Err(Error::Interrupted);
                }
                d.verdict = Verdict::Conjecture;
                d.reason = Some(crate::no_answer(&report));
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            Status::Refuted => {
                let cond = report
                    .conditions
                    .iter()
                    .find(|c| c.status == Status::Refuted)
                    .ok_or_else(|| Error::Unsupported("a refutation names no condition".into()))?;
                let Some(cx) = cond.counterexample.clone() else {
                    return Err(Error::Unsupported(
                        "a refutation without its counterexample".into(),
                    ));
                };
                let total = |p: &[u64]| p.iter().map(|&v| u128::from(v)).sum::<u128>();
                let top = total(&cx.position).max(cx.move_to.as_deref().map_or(0, total));
                let shown = nimlab_core::position::format_tuple(&cx.position);
                d.counterexample = Some(json!({
                    "condition": cond.condition.name(),
                    "position": cx.position,
                    "move_to": cx.move_to,
                }));
                // Beyond the checked totals but inside the largest box: T there, and learn again.
                let largest = max_s.max(checked);
                if top > u128::from(checked) && top <= u128::from(largest) {
                    say(&format!(
                        "condition ({}) refuted at {shown}: growing the box to the total {top}",
                        cond.condition.name()
                    ));
                    s = top as u64;
                    cap = cap.max(s);
                    continue;
                }
                d.verdict = Verdict::Conjecture;
                d.reason = Some(if top > u128::from(largest) {
                    format!(
                        "condition ({}) is refuted at {shown} (total {top}), beyond the checked totals, {kk}..{checked}, and the largest box allowed, total {max_s} (raise --max-sum)",
                        cond.condition.name()
                    )
                } else {
                    format!(
                        "condition ({}) is refuted at {shown} (total {top}), inside the checked totals (not expected: please report)",
                        cond.condition.name()
                    )
                });
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
        }
    }
}

/// The cheap check's extension of T (step 4 of the module's doc): up to [`CHECK_TOTALS`] chips or
/// for [`CHECK_SECONDS`], whichever comes first, within the run's time limit. `Err` only on the
/// cancel flag.
fn cheap_check(
    table: &mut TotalsTable,
    from: u64,
    stopper: &Stopper,
    say: &dyn Fn(&str),
) -> Result<Check> {
    say(&format!(
        "computing T as far as is cheap: up to {CHECK_TOTALS} chips or for {} s",
        CHECK_SECONDS.as_secs()
    ));
    let begin = Instant::now();
    let until = begin + CHECK_SECONDS;
    let _ = table.extend(CHECK_TOTALS, &|| stopper.stop() || Instant::now() >= until);
    if stopper.cancelled() {
        return Err(Error::Interrupted);
    }
    let to = table.computed();
    Ok(Check {
        from,
        to,
        stopped_by: if to >= CHECK_TOTALS {
            "totals"
        } else if stopper.stop() {
            "time limit"
        } else {
            "seconds"
        },
        seconds: begin.elapsed().as_secs_f64(),
        refuted: None,
    })
}

/// The chip families file of a discovery: T read from the totals up to `read`, checked up to
/// `checked`.
fn file(id: &str, play: Play, t: &Totals, read: u64, checked: u64) -> String {
    let checked = if checked > read {
        format!("checked equal to T on the totals up to {checked}")
    } else {
        "not checked past them (T was computed no further)".into()
    };
    totals::render(
        id,
        play,
        t,
        &[format!(
            "Found by nimlab discover on the totals up to {read} (the periodic part observed for at least two full periods and 2k totals) and {checked}."
        )],
    )
}
