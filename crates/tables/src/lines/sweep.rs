//! The schedule of a sweep: the blocks of each anti-diagonal shared among the ranks of a
//! [`Cluster`], the blocks of the previous diagonal received from the ranks that computed them (and
//! handed back to a pool once read), the P-lines sent to rank 0 and emitted slab by slab, and the
//! checkpoints gathered at rank 0. [`Sweep`]'s methods are the steps of [`super::solve_on`].

use super::geometry::{Geometry, Store};
use super::kernel::solve_any_width;
use super::wire::{
    lines_message, lines_of_message, read_head, read_store, read_tail, store_messages, store_of,
    write_head, write_store, write_tail,
};
use super::{mirror, Hooks, LineOracle, LineSpec, PLine, Stop};
use crate::checkpoint::{Progress, Saver};
use crate::cluster::{self as cl, Cluster, Topic};
use rayon::prelude::*;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};

/// Blocks whose stores are smaller than this many bytes are not handed back one by one (the
/// diagonal is small); see [`hand_back_from`].
static HAND_BACK_BYTES: AtomicUsize = AtomicUsize::new(1 << 20);

/// Sets the store size from which blocks of the previous diagonal are handed back one by one (1 MiB
/// unless set): tests set 0 to run that path on small boxes. Both paths give the same tables and
/// checkpoints.
#[doc(hidden)]
pub fn hand_back_from(bytes: usize) {
    HAND_BACK_BYTES.store(bytes, Ordering::Relaxed);
}

pub(super) fn hands_back(g: &Geometry) -> bool {
    g.store_bytes() >= HAND_BACK_BYTES.load(Ordering::Relaxed)
}

/// A block of the previous diagonal that a block reads, or the empty block outside the box.
fn held<'s>(s: Option<&'s Option<Store>>, nothing: &'s Store) -> &'s Store {
    s.map_or(nothing, |s| s.as_ref().expect("the blocks read are held"))
}

/// The blocks `a` of diagonal `d` (with `b = d - a`).
fn diagonal(d: usize, ra: usize, rb: usize) -> (usize, usize) {
    (d.saturating_sub(rb - 1), d.min(ra - 1))
}

/// The blocks `a` of diagonal `d` that the sweep computes: all of them, or with the symmetry those
/// with `a <= b` ([`super::mirror`]).
pub(super) fn blocks(g: &Geometry, d: usize) -> (usize, usize) {
    let (lo, hi) = diagonal(d, g.ra, g.rb);
    if g.mirror.is_some() {
        (lo, hi.min(d / 2))
    } else {
        (lo, hi)
    }
}

/// Positions in the blocks of diagonals `0..d`.
pub(super) fn done_before(g: &Geometry, d: usize) -> u64 {
    (0..d)
        .map(|e| {
            let (lo, hi) = diagonal(e, g.ra, g.rb);
            ((hi - lo + 1) * g.block * g.r) as u64
        })
        .sum()
}

/// The blocks `a` of diagonal `d` owned by rank `q` of `ranks`: an equal share of the diagonal,
/// the ranks in order.
fn owned(g: &Geometry, d: usize, q: usize, ranks: usize) -> std::ops::Range<usize> {
    let (lo, hi) = blocks(g, d);
    let len = hi - lo + 1;
    lo + q * len / ranks..lo + (q + 1) * len / ranks
}

/// The rank that owns block `a` of diagonal `d` (which must lie on it).
fn owner(g: &Geometry, d: usize, a: usize, ranks: usize) -> usize {
    (0..ranks)
        .find(|&q| owned(g, d, q, ranks).contains(&a))
        .expect("the block lies on the diagonal")
}

/// True when block `a` lies on diagonal `d`.
fn on_diagonal(g: &Geometry, d: usize, a: usize) -> bool {
    let (lo, hi) = blocks(g, d);
    (lo..=hi).contains(&a)
}

/// Decision bits shared by all ranks before each diagonal.
pub(super) const CANCEL: u8 = 1;
pub(super) const SAVE_DUE: u8 = 2;
pub(super) const CAN_SAVE: u8 = 4;

/// One rank's part of a sweep: the geometry, the stores of the previous diagonal it holds, and (on
/// rank 0) the P-lines of the slabs not yet emitted. Its methods are the steps of [`super::solve_on`], and
/// every rank calls each of them together.
pub(super) struct Sweep<'a, O> {
    cluster: &'a dyn Cluster,
    origin_n: bool,
    oracle: &'a O,
    pub(super) g: Geometry,
    me: usize,
    ranks: usize,
    pub(super) root: bool,
    /// Positions in the box.
    total: u64,
    /// Positions in the diagonals done so far.
    pub(super) done: u64,
    pub(super) n_diag: usize,
    /// The store of a block outside the box (every line empty).
    nothing: Store,
    /// The stores of the previous diagonal held here (computed here or received), by block.
    prev: Vec<Option<Store>>,
    spare: Vec<Store>,
    /// Scratch stores of the threads, kept from diagonal to diagonal ([`Geometry::scratch`]).
    scratch: Vec<Store>,
    /// Rank 0: the P-lines of each slab not yet emitted, and the next slab to emit.
    pending: Vec<Vec<PLine>>,
    next_emit: usize,
}

impl<'a, O: LineOracle> Sweep<'a, O> {
    /// The state of this rank before the first diagonal: nothing held yet.
    pub(super) fn new(cluster: &'a dyn Cluster, spec: &LineSpec, oracle: &'a O) -> Self {
        let g = match mirror::find(spec, oracle) {
            Some(mr) => Geometry::mirrored(&mr.internal(spec), &mr),
            None => Geometry::new(spec),
        };
        Sweep {
            cluster,
            origin_n: spec.origin_n,
            oracle,
            me: cluster.rank(),
            ranks: cluster.size(),
            root: cluster.is_root(),
            total: (g.block * g.ra * g.rb * g.r) as u64,
            done: 0,
            n_diag: g.ra + g.rb - 1,
            nothing: g.store(),
            prev: (0..g.ra).map(|_| None).collect(),
            spare: Vec::new(),
            scratch: Vec::new(),
            pending: vec![Vec::new(); g.rb],
            next_emit: 0,
            g,
        }
    }

    /// A store to fill: a spare one, or a new one.
    fn fresh_store(&mut self) -> Store {
        self.spare.pop().unwrap_or_else(|| self.g.store())
    }

    /// With the symmetry, before the even diagonal `2t`: block `(t, t)`, when this rank computes it,
    /// reads block `(t, t-1)` of the previous diagonal, the mirror of the stored `(t-1, t)`.
    fn materialize_mirror(&mut self, d: usize) {
        let t = d / 2;
        if d % 2 == 1 || t == 0 || !owned(&self.g, d, self.me, self.ranks).contains(&t) {
            return;
        }
        let Some(mm) = self.g.mirror.as_ref() else {
            return;
        };
        let mut s = self.spare.pop().unwrap_or_else(|| self.g.store());
        let src = self.prev[t - 1]
            .as_ref()
            .expect("block t-1 of the previous diagonal is held");
        mm.mirror_store(&self.g, src, &mut s);
        self.prev[t] = Some(s);
    }

    /// Files the P-lines of block `(d - b, b)` under slab `b`, and with the symmetry those of its
    /// mirror `(b, d - b)` under slab `d - b`.
    fn file_lines(&mut self, d: usize, b: usize, lines: Vec<PLine>) {
        let a = d - b;
        if let Some(mm) = self.g.mirror.as_ref() {
            if a < b {
                let r = &self.g.radix;
                let mirrored = lines.iter().map(|&(l, bit)| (mm.mirror_line(r, l), bit));
                self.pending[a].extend(mirrored);
            }
        }
        self.pending[b].extend(lines);
    }

    /// Where to start, the first diagonal to compute: rank 0 reads the checkpoint's diagonal from
    /// `from` (when resuming) and tells every rank, which then receives its blocks.
    pub(super) fn start<'r>(
        &mut self,
        mut from: Option<&mut (dyn Read + 'r)>,
    ) -> Result<usize, Stop> {
        let damaged =
            |e: String| Stop::Damaged(format!("the checkpoint does not fit this table ({e})"));
        let mut head = vec![0u8; 9];
        let mut refusal = None;
        if let Some(r) = from.as_deref_mut() {
            match read_head(r, &self.g) {
                Ok(d) => {
                    head[0] = 1;
                    head[1..].copy_from_slice(&(d as u64).to_le_bytes());
                }
                Err(e) => {
                    head[0] = 2;
                    refusal = Some(e.to_string());
                }
            }
        }
        let head = self.cluster.broadcast(Topic::Control, head);
        match head.first() {
            Some(1) => {
                let d = u64::from_le_bytes(head[1..9].try_into().expect("8 bytes")) as usize;
                self.load(d, from).map_err(damaged)?;
                Ok(d + 1)
            }
            Some(2) => Err(damaged(
                refusal.unwrap_or_else(|| "rank 0 refused it".into()),
            )),
            _ => Ok(0),
        }
    }

    /// The state after diagonal `d` from rank 0's checkpoint: rank 0 reads every block and sends
    /// each to the rank that owns it, then reads the P-lines not yet emitted. A failure on any rank
    /// fails all of them, with the reason where this rank knows it.
    fn load<'r>(&mut self, d: usize, mut from: Option<&mut (dyn Read + 'r)>) -> Result<(), String> {
        let mut failed = 0u8;
        let mut refusal = None;
        let (lo, hi) = blocks(&self.g, d);
        for a in lo..=hi {
            let q = owner(&self.g, d, a, self.ranks);
            if self.root {
                let mut s = self.fresh_store();
                let r = from.as_deref_mut().expect("rank 0 resumes from a reader");
                if failed == 0 {
                    if let Err(e) = read_store(r, &mut s) {
                        failed = 1;
                        refusal = Some(e.to_string());
                    }
                }
                if q == 0 {
                    self.prev[a] = Some(s);
                } else {
                    let empty: [(usize, &[u8]); 2] = [(q, &[]), (q, &[])];
                    let msgs = if failed == 0 {
                        store_messages(q, &s)
                    } else {
                        empty
                    };
                    self.cluster.exchange(Topic::Checkpoint, &msgs, &[]);
                    self.spare.push(s);
                }
            } else if q == self.me {
                let mut m = self.cluster.exchange(Topic::Checkpoint, &[], &[0, 0]);
                let b = m.pop().unwrap_or_default();
                match store_of(&self.g, &m.pop().unwrap_or_default(), &b, &mut self.spare) {
                    Some(s) => self.prev[a] = Some(s),
                    None => failed = 1,
                }
            }
        }
        if self.root && failed == 0 {
            let r = from.expect("reader");
            match read_tail(r, &self.g, &mut self.pending) {
                Ok(ne) => self.next_emit = ne,
                Err(e) => {
                    failed = 1;
                    refusal = Some(e.to_string());
                }
            }
        }
        if self.cluster.any(failed) != 0 {
            return Err(
                refusal.unwrap_or_else(|| "rank 0 could not hand this rank its blocks".into())
            );
        }
        Ok(())
    }

    /// One decision for all ranks before diagonal `d`: stop (any rank cancelled) and write a
    /// checkpoint of `d - 1`, as the flags [`CANCEL`], [`SAVE_DUE`] and [`CAN_SAVE`].
    pub(super) fn decide(
        &self,
        d: usize,
        first: usize,
        hooks: &Hooks,
        saver: Option<&mut (dyn Saver + '_)>,
    ) -> u8 {
        let mut flags = if hooks.cancelled() { CANCEL } else { 0 };
        if let Some(s) = saver {
            flags |= CAN_SAVE;
            if d > first && flags & CANCEL == 0 && s.due() {
                flags |= SAVE_DUE;
            }
        }
        self.cluster.any(flags)
    }

    /// The progress line of a checkpoint written after diagonal `d`.
    fn stage(&self, d: usize) -> String {
        format!(
            "diagonal {} of {}, {} of {} slabs emitted",
            d + 1,
            self.n_diag,
            self.next_emit,
            self.g.rb
        )
    }

    /// Writes the state after diagonal `d` through rank 0's `saver`: its own blocks, then every
    /// other rank's, received one block at a time.
    pub(super) fn save_state(&self, d: usize, saver: Option<&mut (dyn Saver + '_)>) {
        let (g, cluster, ranks) = (&self.g, self.cluster, self.ranks);
        let held = |a: usize| self.prev[a].as_ref().expect("an owned block is held");
        if !self.root {
            let out: Vec<(usize, &[u8])> = owned(g, d, self.me, ranks)
                .flat_map(|a| store_messages(0, held(a)))
                .collect();
            cluster.exchange(Topic::Checkpoint, &out, &[]);
            return;
        }
        let progress = Progress {
            done: self.done,
            total: self.total,
            stage: self.stage(d),
        };
        // The other ranks' blocks, in order: (rank, block).
        let theirs: Vec<(usize, usize)> = (1..ranks)
            .flat_map(|q| owned(g, d, q, ranks).map(move |a| (q, a)))
            .collect();
        let mut received = 0;
        if let Some(s) = saver {
            let mut body = |w: &mut dyn Write| -> io::Result<()> {
                write_head(w, g, d)?;
                for a in owned(g, d, 0, ranks) {
                    write_store(w, held(a))?;
                }
                let mut block = g.store();
                for &(q, _) in &theirs {
                    let mut m = cluster.exchange(Topic::Checkpoint, &[], &[q, q]);
                    received += 1;
                    let b = m.pop().unwrap_or_default();
                    let w_ = m.pop().unwrap_or_default();
                    if !cl::bytes_into_words(&w_, &mut block.w)
                        || !cl::bytes_into_halves(&b, &mut block.b)
                    {
                        return Err(io::Error::other("a rank sent a block of another size"));
                    }
                    write_store(w, &block)?;
                }
                write_tail(w, &self.pending, self.next_emit)
            };
            s.save(progress, &mut body);
        }
        // What was not read because writing stopped early.
        for &(q, _) in &theirs[received..] {
            cluster.exchange(Topic::Checkpoint, &[], &[q, q]);
        }
    }

    /// The blocks of diagonal `d - 1` that another rank reads: sent to it; and those this rank
    /// reads but another computed: received from it.
    pub(super) fn receive_boundary(&mut self, d: usize) {
        if d == 0 || self.ranks == 1 {
            return;
        }
        let (g, me, ranks) = (&self.g, self.me, self.ranks);
        let mine = owned(g, d, me, ranks);
        let before = owned(g, d - 1, me, ranks);
        let mut out = Vec::new();
        for a in before.clone() {
            let mut to: Vec<usize> = [a, a + 1]
                .into_iter()
                .filter(|&x| on_diagonal(g, d, x))
                .map(|x| owner(g, d, x, ranks))
                .filter(|&q| q != me)
                .collect();
            to.dedup();
            let s = self.prev[a].as_ref().expect("an owned block is held");
            for q in to {
                out.extend(store_messages(q, s));
            }
        }
        let mut need: Vec<usize> = mine
            .flat_map(|a| [a.wrapping_sub(1), a])
            .filter(|&x| x < g.ra && on_diagonal(g, d - 1, x) && !before.contains(&x))
            .collect();
        need.dedup();
        let from: Vec<usize> = need
            .iter()
            .flat_map(|&x| {
                let q = owner(g, d - 1, x, ranks);
                [q, q]
            })
            .collect();
        let got = self.cluster.exchange(Topic::Boundary, &out, &from);
        let mut got = got.into_iter();
        for x in need {
            let (w, b) = (
                got.next().unwrap_or_default(),
                got.next().unwrap_or_default(),
            );
            let s = store_of(&self.g, &w, &b, &mut self.spare)
                .expect("a neighbour's block has this geometry (every rank runs the same build)");
            self.prev[x] = Some(s);
        }
    }

    /// This rank's blocks of diagonal `d`, computed in parallel: their stores, by block, and their
    /// P-lines, by slab `b`. Each thread takes the next block not yet taken, in increasing `a`, and
    /// keeps one scratch store from block to block. Block `x` of diagonal `d - 1` is read by blocks
    /// `x` and `x + 1` of `d`, so it is handed back as soon as both are done (a count of readers per
    /// block), and its store is reused for the next block taken: the sweep holds about one diagonal
    /// of blocks and two more per thread, not two diagonals.
    #[allow(clippy::type_complexity)]
    pub(super) fn compute_diagonal(
        &mut self,
        d: usize,
    ) -> (Vec<(usize, Store)>, Vec<(usize, Vec<PLine>)>) {
        self.materialize_mirror(d);
        if !hands_back(&self.g) {
            return self.compute_small_blocks(d);
        }
        let mine = owned(&self.g, d, self.me, self.ranks);
        let (g, nothing) = (&self.g, &self.nothing);
        let (origin_n, oracle) = (self.origin_n, self.oracle);
        let prev: Vec<RwLock<Option<Store>>> = std::mem::take(&mut self.prev)
            .into_iter()
            .map(RwLock::new)
            .collect();
        let spare = Mutex::new(std::mem::take(&mut self.spare));
        let scratch = Mutex::new(std::mem::take(&mut self.scratch));
        let blocks: Vec<usize> = mine.collect();
        // Block x of the previous diagonal is read by blocks x and x + 1 of this one: it goes back
        // to the pool when the last of those computed here is done.
        let readers: Vec<AtomicUsize> = (0..prev.len())
            .map(|x| AtomicUsize::new(blocks.iter().filter(|&&y| y == x || y == x + 1).count()))
            .collect();
        let next = AtomicUsize::new(0);
        let done = Mutex::new(Vec::with_capacity(blocks.len()));
        let workers = rayon::current_num_threads().clamp(1, blocks.len().max(1));
        (0..workers).into_par_iter().for_each(|_| {
            let mut local = scratch
                .lock()
                .expect("no task panics holding the pool")
                .pop()
                .unwrap_or_else(|| g.scratch());
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&a) = blocks.get(i) else {
                    break;
                };
                let b = d - a;
                let mut store = spare
                    .lock()
                    .expect("no task panics holding the pool")
                    .pop()
                    .unwrap_or_else(|| g.store());
                let found = {
                    let ga = (a > 0).then(|| prev[a - 1].read().expect("not poisoned"));
                    let gb = (b > 0).then(|| prev[a].read().expect("not poisoned"));
                    let pa = held(ga.as_deref(), nothing);
                    let pb = held(gb.as_deref(), nothing);
                    solve_any_width(g, origin_n, oracle, a, b, &mut store, &mut local, pa, pb)
                };
                for x in [a.wrapping_sub(1), a] {
                    if x < readers.len() && readers[x].fetch_sub(1, Ordering::AcqRel) == 1 {
                        let freed = prev[x].write().expect("not poisoned").take();
                        if let Some(s) = freed {
                            spare.lock().expect("not poisoned").push(s);
                        }
                    }
                }
                done.lock()
                    .expect("not poisoned")
                    .push((a, store, b, found));
            }
            scratch.lock().expect("not poisoned").push(local);
        });
        self.spare = spare.into_inner().expect("not poisoned");
        self.scratch = scratch.into_inner().expect("not poisoned");
        self.prev = prev
            .into_iter()
            .map(|s| s.into_inner().expect("not poisoned"))
            .collect();
        let mut done = done.into_inner().expect("not poisoned");
        done.sort_unstable_by_key(|t| t.0);
        let mut cur = Vec::with_capacity(blocks.len());
        let mut results = Vec::with_capacity(blocks.len());
        for (a, store, b, found) in done {
            cur.push((a, store));
            results.push((b, found));
        }
        (cur, results)
    }

    /// [`Sweep::compute_diagonal`] for blocks too small to be worth handing back one by one (games
    /// of three stacks or fewer, whose blocks are single lines): one task per block, the previous
    /// diagonal kept whole until the end.
    #[allow(clippy::type_complexity)]
    fn compute_small_blocks(
        &mut self,
        d: usize,
    ) -> (Vec<(usize, Store)>, Vec<(usize, Vec<PLine>)>) {
        let mine = owned(&self.g, d, self.me, self.ranks);
        let mut cur: Vec<(usize, Store)> = mine.map(|a| (a, self.fresh_store())).collect();
        let (g, prev, nothing) = (&self.g, &self.prev, &self.nothing);
        let (origin_n, oracle) = (self.origin_n, self.oracle);
        let results = cur
            .par_iter_mut()
            .map(|(a, store)| {
                let (a, b) = (*a, d - *a);
                let pa = held((a > 0).then(|| &prev[a - 1]), nothing);
                let pb = held((b > 0).then(|| &prev[a]), nothing);
                let found =
                    solve_any_width(g, origin_n, oracle, a, b, store, &mut g.scratch(), pa, pb);
                (b, found)
            })
            .collect();
        (cur, results)
    }

    /// Every rank's P-lines of diagonal `d` to rank 0, which reports progress and emits every slab
    /// that is complete.
    pub(super) fn send_lines(
        &mut self,
        d: usize,
        results: Vec<(usize, Vec<PLine>)>,
        hooks: &Hooks,
        emit: &mut dyn FnMut(usize, Vec<PLine>),
    ) {
        let ranks = self.ranks;
        if !self.root {
            self.cluster
                .exchange(Topic::Lines, &[(0, &lines_message(&results))], &[]);
            return;
        }
        for (b, lines) in results {
            self.file_lines(d, b, lines);
        }
        let from: Vec<usize> = (1..ranks).collect();
        let got = self.cluster.exchange(Topic::Lines, &[], &from);
        for (q, m) in (1..ranks).zip(got) {
            let theirs = owned(&self.g, d, q, ranks);
            for (a, lines) in theirs.clone().zip(lines_of_message(&m, theirs.len())) {
                self.file_lines(d, d - a, lines);
            }
        }
        let g = &self.g;
        let (a_min, a_max) = diagonal(d, g.ra, g.rb);
        self.done += ((a_max - a_min + 1) * g.block * g.r) as u64;
        if let Some(p) = hooks.progress {
            p(self.done, self.total);
        }
        // Slab b is complete once the diagonal b + ra - 1 is done.
        while self.next_emit < g.rb && self.next_emit + g.ra - 1 <= d {
            let mut all = std::mem::take(&mut self.pending[self.next_emit]);
            if let Some(mm) = g.mirror.as_ref() {
                for line in &mut all {
                    line.0 = mm.to_caller(&g.radix, line.0);
                }
            }
            all.sort_unstable();
            emit(self.next_emit, all);
            self.next_emit += 1;
        }
    }

    /// Diagonal `d` (the stores `cur`) becomes the previous one; the stores of `d - 1` are reused.
    pub(super) fn advance(&mut self, cur: Vec<(usize, Store)>) {
        for s in self.prev.iter_mut() {
            if let Some(s) = s.take() {
                self.spare.push(s);
            }
        }
        for (a, s) in cur {
            self.prev[a] = Some(s);
        }
    }
}
