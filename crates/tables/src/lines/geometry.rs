//! The box in blocks: which lines a block holds, how they are laid out in a block's [`Store`] (in
//! lexicographic order, axis 1 fastest), and, for each window, where its `D` is kept and which
//! records its look-ups read ([`Plan`]).

use super::mirror::{Mirror, MirrorMap};
use super::{LineSpec, MAX_RADIX, NONE};

/// Where a look-up reads: the current block, the block's scratch, or the previous blocks on A or B.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Src {
    Cur,
    Local,
    PrevA,
    PrevB,
}

/// One look-up `D_w(line - e_i)`: in `src`, the window's record of the line `back` places before the
/// line (the line's own place in the previous blocks on A or B: `back` 0; one step back along an
/// inner axis `i`: its stride). Such a look-up reads nothing when the line's entry `i` is 0: `zero`
/// is then `1 << i` (0 for the look-ups into the previous blocks, which always read). `along_row`:
/// the look-up is along axis 1, the axis of a row ([`super::kernel`]: it reads the line just
/// computed).
#[derive(Clone, Copy, Debug)]
pub(super) struct Look {
    pub(super) src: Src,
    pub(super) back: usize,
    pub(super) zero: u32,
    pub(super) along_row: bool,
}

/// A window: where its own `D` is stored and what it reads. A store keeps each window's records
/// together, line after line: the record of the line `idx` of a block is record `first + idx`.
pub(super) struct Plan {
    /// Stored in the diagonal buffers (the window contains A or B) or in the block's scratch.
    pub(super) persistent: bool,
    /// The window's place among those of its store times the lines of a block.
    pub(super) first: usize,
    pub(super) looks: Vec<Look>,
    /// One of the look-ups is along the row.
    pub(super) row_look: bool,
}

/// Storage of one block: words for windows without axis 0 (`l` per line and window), prefix starts
/// for the others, window after window and in each window line after line. A start takes one byte when the line has at most 255 values
/// (every offset and [`NONE`]'s one-byte form, 255, fit), else two: `b` holds them in two-byte units
/// either way (all ones is "nothing" in both widths).
pub(super) struct Store {
    pub(super) w: Vec<u64>,
    pub(super) b: Vec<u16>,
}

impl Store {
    /// `sb`: bytes per start (1 or 2); `wb`: bytes per word (4 or 8).
    pub(super) fn new(lines: usize, nw: usize, nb: usize, l: usize, sb: usize, wb: usize) -> Store {
        Store {
            w: vec![0; (lines * nw * l * wb).div_ceil(8)],
            b: vec![NONE; (lines * nb * sb).div_ceil(2)],
        }
    }

    /// The words as 32-bit words (two a 64-bit word, in the machine's order).
    pub(super) fn half_words(&self) -> &[u32] {
        // SAFETY: u32 has no invalid bit patterns and an alignment below u64's.
        unsafe { std::slice::from_raw_parts(self.w.as_ptr().cast(), self.w.len() * 2) }
    }

    pub(super) fn half_words_mut(&mut self) -> &mut [u32] {
        // SAFETY: as above.
        unsafe { std::slice::from_raw_parts_mut(self.w.as_mut_ptr().cast(), self.w.len() * 2) }
    }

    /// The starts as bytes (two a start when they take two bytes, in the machine's order).
    pub(super) fn start_bytes(&self) -> &[u8] {
        // SAFETY: u16 has no invalid bit patterns and u8's alignment is 1.
        unsafe { std::slice::from_raw_parts(self.b.as_ptr().cast(), self.b.len() * 2) }
    }

    pub(super) fn start_bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above.
        unsafe { std::slice::from_raw_parts_mut(self.b.as_mut_ptr().cast(), self.b.len() * 2) }
    }
}

/// The blocks of a box and the windows' plans (see the module notes).
pub(super) struct Geometry {
    pub(super) m: usize,
    /// Values on the line axis (bits per line).
    pub(super) r: usize,
    /// Values on each axis (`r` on axis 0).
    pub(super) radix: Vec<usize>,
    /// Words per line.
    pub(super) l: usize,
    /// Bytes per word: 4 when a line has at most 32 values (a line is then one 32-bit word), else 8.
    pub(super) wb: usize,
    pub(super) n_inner: usize,
    /// Lines per block.
    pub(super) block: usize,
    /// Stride of each inner axis in a block (index = axis).
    pub(super) stride: Vec<usize>,
    pub(super) ra: usize,
    pub(super) rb: usize,
    pub(super) stride_a: u64,
    pub(super) stride_b: u64,
    pub(super) words: Vec<Plan>,
    pub(super) prefixes: Vec<Plan>,
    /// Record widths: persistent words, persistent starts, local words, local starts.
    pub(super) pw: usize,
    pub(super) pb: usize,
    pub(super) lw: usize,
    pub(super) lb: usize,
    /// Bytes per prefix start: 1 when the line has at most 255 values, else 2.
    pub(super) sb: usize,
    /// The symmetry the sweep uses, when it uses one ([`super::mirror`]).
    pub(super) mirror: Option<MirrorMap>,
}

impl Geometry {
    /// The geometry of `spec` in internal axes (`mirror`'s numbering), with the symmetry.
    pub(super) fn mirrored(spec: &LineSpec, mirror: &Mirror) -> Geometry {
        let mut g = Geometry::new(spec);
        let persistent: Vec<(bool, usize, Vec<usize>)> = spec
            .windows
            .iter()
            // Persistent: the window holds A or B (m >= 3 here).
            .filter(|w| w.iter().any(|&i| i + 2 >= g.m))
            .map(|w| {
                let prefix = w.contains(&0);
                (prefix, 0, w.clone())
            })
            .collect();
        // Slots in the order Geometry::new gave them: per kind, in the order of the windows.
        let (mut nw, mut nb) = (0, 0);
        let persistent: Vec<(bool, usize, Vec<usize>)> = persistent
            .into_iter()
            .map(|(prefix, _, w)| {
                let c = if prefix { &mut nb } else { &mut nw };
                *c += 1;
                (prefix, *c - 1, w)
            })
            .collect();
        debug_assert_eq!((nw, nb), (g.pw, g.pb));
        g.mirror = Some(MirrorMap::new(mirror, &g.radix, &persistent));
        g
    }

    pub(super) fn new(spec: &LineSpec) -> Geometry {
        let (m, r) = (spec.m, spec.r);
        let radix: Vec<usize> = (0..m).map(|i| spec.values_on(i)).collect();
        assert!(m >= 1 && radix[0] == r);
        assert!(radix.iter().all(|v| (1..=MAX_RADIX).contains(v)));
        let n_inner = m.saturating_sub(3);
        let a_axis = if m >= 3 { Some(m - 2) } else { None };
        let b_axis = if m >= 2 { Some(m - 1) } else { None };
        let block = radix[1..=n_inner].iter().product();
        let mut stride = vec![0usize; m.max(1)];
        let mut step = 1;
        for (st, v) in stride[1..=n_inner].iter_mut().zip(&radix[1..=n_inner]) {
            *st = step;
            step *= v;
        }
        let ra = a_axis.map_or(1, |a| radix[a]);
        let rb = b_axis.map_or(1, |b| radix[b]);
        let mut covered = vec![false; m];
        let (mut pw, mut pb, mut lw, mut lb) = (0, 0, 0, 0);
        let mut classes: Vec<(bool, bool, usize, &Vec<usize>)> = Vec::new();
        for w in &spec.windows {
            for &i in w {
                covered[i] = true;
            }
            let prefix = w.contains(&0);
            let persistent = w.iter().any(|&i| Some(i) == a_axis || Some(i) == b_axis);
            let counter = match (prefix, persistent) {
                (false, true) => &mut pw,
                (true, true) => &mut pb,
                (false, false) => &mut lw,
                (true, false) => &mut lb,
            };
            classes.push((prefix, persistent, *counter, w));
            *counter += 1;
        }
        assert!(
            covered.iter().all(|&c| c),
            "every axis must lie in a window"
        );
        let (mut words, mut prefixes) = (Vec::new(), Vec::new());
        for (prefix, persistent, slot, w) in classes {
            let looks: Vec<Look> = w
                .iter()
                .filter(|&&i| i != 0)
                .map(|&i| {
                    let src = if Some(i) == a_axis {
                        Src::PrevA
                    } else if Some(i) == b_axis {
                        Src::PrevB
                    } else if persistent {
                        Src::Cur
                    } else {
                        Src::Local
                    };
                    let inner = src == Src::Cur || src == Src::Local;
                    Look {
                        src,
                        back: if inner { stride[i] } else { 0 },
                        zero: if inner { 1 << i } else { 0 },
                        along_row: inner && i == 1,
                    }
                })
                .collect();
            let plan = Plan {
                persistent,
                first: slot * block,
                row_look: looks.iter().any(|lk| lk.along_row),
                looks,
            };
            if prefix {
                prefixes.push(plan);
            } else {
                words.push(plan);
            }
        }
        Geometry {
            m,
            r,
            radix,
            l: r.div_ceil(64),
            wb: if r <= 32 { 4 } else { 8 },
            n_inner,
            block,
            stride,
            ra,
            rb,
            stride_a: block as u64,
            stride_b: (block * ra) as u64,
            words,
            prefixes,
            pw,
            pb,
            lw,
            lb,
            sb: if r <= u8::MAX as usize { 1 } else { 2 },
            mirror: None,
        }
    }

    pub(super) fn store(&self) -> Store {
        Store::new(self.block, self.pw, self.pb, self.l, self.sb, self.wb)
    }

    /// A scratch store: the records of the windows that hold neither `A` nor `B`.
    pub(super) fn scratch(&self) -> Store {
        Store::new(self.block, self.lw, self.lb, self.l, self.sb, self.wb)
    }

    /// Bytes of one block's store.
    pub(super) fn store_bytes(&self) -> usize {
        self.block * (self.pw * self.l * self.wb + self.pb * self.sb)
    }
}
