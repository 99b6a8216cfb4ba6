//! The driver: the tiers of a box, slab by slab, through a kernel (P-sets or Grundy values).
//!
//! When every tier fits one slab, the records (`D` words or value sets) of two tiers stay on the device
//! and only one word per line (the P-bit or the Grundy value) comes back. Otherwise the host keeps the
//! records of two tiers; for each slab it uploads the span of the tier below that the slab reads, runs
//! one invocation per line, and reads back the slab's records and words. The device then holds one
//! slab, one span and the ranking table, whatever the size of the box. Either way, for SCN, the host
//! uploads with each slab its lines' moves out of the box: a 64-bit mask per line (P-sets) or a value
//! set per position, as many words as the run's sets (Grundy values).

use super::device::{Device, Kernel};
use super::schedule::{self, Slab};
use super::{GpuError, Options};
use crate::lines::{Hooks, LineSpec, PLine};
use crate::tiers::Ranking;
use rayon::prelude::*;
use wgpu::BufferUsages as U;

/// Bytes of one 64-bit word (a `D` word, or one word of a value set).
const WORD: u64 = 8;
/// Invocations per workgroup (the kernels' `@workgroup_size`).
const GROUP: u64 = 64;
/// Most workgroups per dispatch dimension.
const MAX_GROUPS: u64 = 65_535;
/// Most words per Grundy value set: values up to 65535, as the tables store them.
const MAX_SET_WORDS: usize = 1024;

/// A mask per line of positions with a winning move out of the box (SCN), from the line's
/// coordinates (engine axes 1..m).
pub type Extra<'a> = &'a (dyn Fn(&[u32]) -> u64 + Sync);

/// The Grundy values of a position's options out of the box (SCN's moves that empty piles), from
/// its tuple entries: OR their set into the words (as many as the run's value sets).
pub type GrundyExtra<'a> = &'a (dyn Fn(&[u32], &mut [u64]) + Sync);

/// What the host uploads per line of a slab: from `x` (the line's coordinates in `x[1..]`), fill the
/// line's 64-bit words.
type Fill<'a> = &'a (dyn Fn(&[u32], &mut [u64]) + Sync);

/// One run of a kernel over the tiers of `[0, r)^n`.
struct Sweep<'a> {
    kernel: &'a Kernel,
    n: usize,
    r: usize,
    /// Per window: its axes as a mask (kernel-specific).
    wins: Vec<u32>,
    /// Bytes of a line's record (all windows).
    record: u64,
    /// The kernel's own constants (`c0..c3`).
    consts: [u32; 4],
    /// Per line, `extra_words` 64-bit words from the host (SCN's moves out of the box).
    extra: Option<Fill<'a>>,
    extra_words: usize,
    /// Positions per line (for progress).
    per_line: u64,
    /// Stop at the first slab with a word `u32::MAX` (a Grundy value that does not fit the sets).
    overflow: bool,
}

/// How a sweep ended.
enum Swept {
    Done,
    /// A slab of `tier` overflowed; `prev`: the records of the tier below, all complete.
    Overflow {
        tier: usize,
        prev: Vec<u32>,
    },
}

/// Runs `sw` tier by tier from tier `from.0` (whose tier below has the records `from.1`), or from tier
/// 0; `on_slab(tier, slab, out)` gets each slab's word per line, except that of a slab that overflowed.
fn sweep(
    dev: &Device,
    sw: &Sweep,
    from: Option<(usize, Vec<u32>)>,
    opts: &Options,
    hooks: Hooks,
    on_slab: &mut dyn FnMut(usize, &Slab, &[u32]),
) -> Result<Swept, GpuError> {
    let (n, r) = (sw.n, sw.r);
    if n > 32 || !(1..=64).contains(&r) {
        return Err(GpuError::TooLarge(format!(
            "the GPU back end takes up to 32 ranked axes with 1 to 64 values each, not {n} and {r}"
        )));
    }
    if (r as f64).powi(n as i32) > 1e18 {
        return Err(GpuError::TooLarge(format!(
            "a box of {r}^{n} lines is beyond the GPU back end; use a smaller --max"
        )));
    }
    let rk = Ranking::new(n, r);
    let widest = (0..rk.tiers()).map(|t| rk.size(t)).max().unwrap_or(0);
    if widest >= 1 << 32 {
        return Err(GpuError::TooLarge(format!(
            "a tier of this box has {widest} lines, more than the GPU back end ranks in 32 bits; use a smaller --max"
        )));
    }
    let record = sw.record;
    let limit = dev.max_binding.min(dev.max_buffer);
    if record > limit {
        return Err(GpuError::TooLarge(format!(
            "one line's record takes {record} bytes, above the {} MiB this adapter binds at once",
            limit >> 20
        )));
    }
    let extra_bytes = if sw.extra.is_some() {
        sw.extra_words as u64 * WORD
    } else {
        0
    };
    let max_lines = opts
        .slab_bytes
        .unwrap_or(limit)
        .min(limit)
        // A line's record, its word out and its extra words (SCN).
        .checked_div(record + 4 + extra_bytes)
        .unwrap_or(1)
        .max(1);
    let max_span = limit / record;
    let mut plan: Vec<Vec<Slab>> = Vec::with_capacity(rk.tiers());
    for t in 0..rk.tiers() {
        plan.push(schedule::slabs(&rk, t, max_lines, max_span).map_err(|span| {
            GpuError::TooLarge(format!(
                "one line of this box reads {} MiB of the tier below, above the {} MiB this adapter binds at once; use a smaller --max",
                (span * record) >> 20,
                limit >> 20
            ))
        })?);
    }
    let most_lines = plan.iter().flatten().map(|s| s.lines).max().unwrap_or(1);
    let most_span = plan.iter().flatten().map(|s| s.span).max().unwrap_or(1);
    // Resident: every tier is one slab, so two tiers of records fit the device and stay there (the
    // buffers swap roles from one tier to the next); only the word per line comes back. Otherwise the
    // records stream: the host keeps two tiers and uploads each slab's span.
    let resident = opts.slab_bytes.is_none() && plan.iter().all(|s| s.len() == 1);
    if opts.require_resident && !resident {
        return Err(GpuError::TooLarge(
            "a tier of this box does not fit the GPU in one slab, and streaming slabs through the host is slower than the CPU engine".into(),
        ));
    }
    let (prev_bytes, cur_bytes) = if resident {
        (most_lines * record, most_lines * record)
    } else {
        (most_span * record, most_lines * record)
    };
    let skip = schedule::skip_table(&rk);
    let buffers = Buffers::new(
        dev,
        &skip,
        &sw.wins,
        cur_bytes,
        prev_bytes,
        most_lines * 4,
        most_lines * extra_bytes,
        resident,
    );
    let group = |prev: &wgpu::Buffer, cur: &wgpu::Buffer| {
        let all = [
            &buffers.params,
            &buffers.skip,
            &buffers.wins,
            prev,
            cur,
            &buffers.out,
            &buffers.extra,
        ];
        let entries: Vec<wgpu::BindGroupEntry> = all[..sw.kernel.bindings as usize]
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        dev.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("tiers"),
            layout: &sw.kernel.layout,
            entries: &entries,
        })
    };
    // Resident, tier t runs with binds[t % 2] (reading one buffer and writing the other); streaming,
    // always with binds[0].
    let binds = [
        group(&buffers.prev, &buffers.cur),
        group(&buffers.cur, &buffers.prev),
    ];
    let prev_of = |t: usize| -> &wgpu::Buffer {
        if resident && t % 2 == 1 {
            &buffers.cur
        } else {
            &buffers.prev
        }
    };
    dev.check()?;
    let words = (record / 4) as usize;
    let total = (r as u64).pow(n as u32) * sw.per_line;
    let (start, mut prev) = from.unwrap_or_default();
    if resident && start > 0 {
        dev.queue.write_buffer(prev_of(start), 0, as_bytes(&prev));
    }
    let mut done: u64 = (0..start).map(|t| rk.size(t) * sw.per_line).sum();
    // The host's work overlaps the device's: while the kernel runs on one slab, the host hands the
    // previous slab's words to `on_slab` (unranking, the caller's own work) and computes the next
    // slab's words of moves out of the box. Only the records, which the next tier reads, are waited for.
    let masks_of = |t: usize, slab: &Slab| -> Vec<u64> {
        let Some(f) = sw.extra else {
            return Vec::new();
        };
        let mut words = vec![0u64; slab.lines as usize * sw.extra_words];
        words
            .par_chunks_mut(sw.extra_words)
            .enumerate()
            .for_each(|(i, out)| {
                let mut x = [0u32; 33];
                rk.unrank(slab.first + i as u64, t, &mut x[1..=n]);
                f(&x[..=n], out);
            });
        words
    };
    let order: Vec<(usize, &Slab)> = plan
        .iter()
        .enumerate()
        .skip(start)
        .flat_map(|(t, slabs)| slabs.iter().map(move |s| (t, s)))
        .collect();
    let mut masks = order.first().map(|&(t, s)| masks_of(t, s));
    let mut waiting: Option<(usize, &Slab, Vec<u32>)> = None;
    let mut cur: Vec<u32> = Vec::new();
    for (i, &(t, slab)) in order.iter().enumerate() {
        if hooks.cancelled() {
            return Err(GpuError::Interrupted);
        }
        if slab.first == 0 {
            // A new tier: the last one's records are all on the host (or, resident, on the device).
            if t > start {
                prev = std::mem::take(&mut cur);
                done += rk.size(t - 1) * sw.per_line;
                if let Some(p) = hooks.progress {
                    p(done, total);
                }
            }
            if !resident {
                cur = vec![0u32; rk.size(t) as usize * words];
            }
        }
        let params: [u32; 12] = [
            t as u32,
            slab.first as u32,
            slab.lines as u32,
            // Resident: the whole tier below is in `prev`.
            if resident { 0 } else { slab.base as u32 },
            n as u32,
            sw.wins.len() as u32,
            r as u32,
            (n * (r - 1) + 1) as u32,
            sw.consts[0],
            sw.consts[1],
            sw.consts[2],
            sw.consts[3],
        ];
        dev.queue
            .write_buffer(&buffers.params, 0, as_bytes(&params));
        if slab.span > 0 && !resident {
            let from = slab.base as usize * words;
            let to = from + slab.span as usize * words;
            dev.queue
                .write_buffer(&buffers.prev, 0, as_bytes(&prev[from..to]));
        }
        if sw.extra.is_some() {
            let m = masks.take().unwrap_or_else(|| masks_of(t, slab));
            dev.queue.write_buffer(&buffers.extra, 0, as_bytes64(&m));
        }
        let back = if resident { 0 } else { record };
        let bind = &binds[if resident { t % 2 } else { 0 }];
        let staged = submit_slab(dev, sw.kernel, &buffers, bind, slab, back);
        // The host's share while the device runs.
        if let Some((pt, ps, out)) = waiting.take() {
            on_slab(pt, ps, &out);
        }
        if let Some(&(nt, ns)) = order.get(i + 1) {
            masks = sw.extra.map(|_| masks_of(nt, ns));
        }
        let out = if resident {
            collect_slab(dev, staged, &mut [])?
        } else {
            let at = slab.first as usize * words;
            collect_slab(dev, staged, &mut cur[at..at + slab.lines as usize * words])?
        };
        if sw.overflow && out.contains(&u32::MAX) {
            if resident && t > 0 {
                prev = read_back(dev, prev_of(t), rk.size(t - 1) * record)?;
            }
            return Ok(Swept::Overflow { tier: t, prev });
        }
        waiting = Some((t, slab, out));
    }
    if let Some((pt, ps, out)) = waiting.take() {
        on_slab(pt, ps, &out);
    }
    if hooks.cancelled() {
        return Err(GpuError::Interrupted);
    }
    if let Some(p) = hooks.progress {
        p(total, total);
    }
    Ok(Swept::Done)
}

/// The first `bytes` of a device buffer, as words.
fn read_back(dev: &Device, buf: &wgpu::Buffer, bytes: u64) -> Result<Vec<u32>, GpuError> {
    let staging = dev.buffer("read back", bytes, U::MAP_READ | U::COPY_DST);
    let mut enc = dev
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("read back"),
        });
    enc.copy_buffer_to_buffer(buf, 0, &staging, 0, bytes);
    dev.queue.submit([enc.finish()]);
    let slice = staging.slice(0..bytes);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    let mut words = vec![0u32; (bytes / 4) as usize];
    collect_slab(
        dev,
        Staged {
            slice,
            staging: &staging,
            records: bytes,
            mapped: rx,
        },
        &mut words,
    )?;
    Ok(words)
}

/// The index `sum_p x_p weights_p` of the tuple of rank `rank` in tier `t`.
fn index_of(rk: &Ranking, rank: u64, t: usize, weights: &[u64]) -> u64 {
    let mut x = [0u32; 32];
    let x = &mut x[..weights.len()];
    rk.unrank(rank, t, x);
    x.iter().zip(weights).map(|(&v, &w)| v as u64 * w).sum()
}

/// The P-lines of a window game (see [`crate::tiers::solve`], which this equals): (global line index,
/// bit), sorted. `extra`: moves out of the box (SCN).
pub fn solve(
    dev: &Device,
    spec: &LineSpec,
    extra: Option<Extra>,
    opts: &Options,
    hooks: Hooks,
) -> Result<Vec<PLine>, GpuError> {
    let (m, r) = (spec.m, spec.r);
    if m == 0 || m > 32 {
        return Err(GpuError::TooLarge(format!(
            "the GPU back end takes 1 to 32 stacks, not {m}"
        )));
    }
    let n = m - 1;
    let full = if r == 64 { !0u64 } else { (1u64 << r) - 1 };
    let wins: Vec<u32> = spec
        .windows
        .iter()
        .map(|w| {
            w.iter().fold(0u32, |acc, &a| {
                if a == 0 {
                    acc | 1 << 31
                } else {
                    acc | 1 << (a - 1)
                }
            })
        })
        .collect();
    let fill = |x: &[u32], out: &mut [u64]| {
        if let Some(f) = extra {
            out[0] = f(x);
        }
    };
    let sw = Sweep {
        kernel: &dev.pset,
        n,
        r,
        record: wins.len() as u64 * WORD,
        wins,
        consts: [
            full as u32,
            (full >> 32) as u32,
            spec.origin_n as u32,
            extra.is_some() as u32,
        ],
        extra: extra.map(|_| &fill as Fill),
        extra_words: 1,
        per_line: r as u64,
        overflow: false,
    };
    let rk = Ranking::new(n, r);
    // The global line index is `sum_j x_j r^j`, as in crate::lines.
    let weights: Vec<u64> = (0..n).map(|j| (r as u64).pow(j as u32)).collect();
    let mut out = Vec::new();
    sweep(dev, &sw, None, opts, hooks, &mut |t, slab, bits| {
        let found: Vec<PLine> = bits
            .par_iter()
            .enumerate()
            .filter(|&(_, &b)| b != 0)
            .map(|(i, &b)| {
                let line = index_of(&rk, slab.first + i as u64, t, &weights);
                (line, b - 1)
            })
            .collect();
        out.extend(found);
    })?;
    out.par_sort_unstable();
    Ok(out)
}

/// The Grundy value of every position of the window game on `[0, r)^m` with `windows` (tuple
/// indices), by lexicographic index of the tuple: equal to [`crate::grundy::solve`]. `extra`: the
/// values of options out of the box (SCN), OR-ed into each position's options before the mex. Value
/// sets start with `min_words` 64-bit words; also returns the words the values need.
#[allow(clippy::too_many_arguments)]
pub fn grundy(
    dev: &Device,
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    extra: Option<GrundyExtra>,
    min_words: usize,
    opts: &Options,
    hooks: Hooks,
) -> Result<(Vec<u16>, usize), GpuError> {
    if m == 0 || m > 32 {
        return Err(GpuError::TooLarge(format!(
            "the GPU back end takes 1 to 32 stacks, not {m}"
        )));
    }
    let total = (r as f64).powi(m as i32);
    if total > usize::MAX as f64 / 2.0 {
        return Err(GpuError::TooLarge(format!(
            "a Grundy table of {total:.1e} positions is beyond this machine"
        )));
    }
    // Every axis is ranked; axis p is tuple index p, so rank order within a tier is the tuple's
    // lexicographic order.
    let wins: Vec<u32> = windows
        .iter()
        .map(|w| w.iter().fold(0u32, |acc, &i| acc | 1 << i))
        .collect();
    let rk = Ranking::new(m, r);
    let weights: Vec<u64> = (0..m).map(|p| (r as u64).pow((m - 1 - p) as u32)).collect();
    let mut values = vec![0u16; r.pow(m as u32)];
    let mut words = min_words.clamp(1, MAX_SET_WORDS);
    let mut from = None;
    // The sweep hands the tuple entries in x[1..].
    let fill = |x: &[u32], out: &mut [u64]| {
        if let Some(f) = extra {
            f(&x[1..], out);
        }
    };
    loop {
        let sw = Sweep {
            kernel: &dev.grundy,
            n: m,
            r,
            wins: wins.clone(),
            record: wins.len() as u64 * words as u64 * WORD,
            consts: [words as u32, extra.is_some() as u32, 0, 0],
            extra: extra.map(|_| &fill as Fill),
            extra_words: words,
            per_line: 1,
            overflow: true,
        };
        let swept = sweep(dev, &sw, from.take(), opts, hooks, &mut |t, slab, got| {
            let at: Vec<(u64, u16)> = got
                .par_iter()
                .enumerate()
                .map(|(i, &v)| (index_of(&rk, slab.first + i as u64, t, &weights), v as u16))
                .collect();
            for (i, v) in at {
                values[i as usize] = v;
            }
        })?;
        let Swept::Overflow { tier, prev } = swept else {
            let top = values.iter().copied().max().unwrap_or(0) as usize;
            return Ok((values, top / 64 + 1));
        };
        if words >= MAX_SET_WORDS {
            return Err(GpuError::TooLarge(
                "a Grundy value passes 65535, beyond what the tables store".into(),
            ));
        }
        // Every value below `tier` fits the sets, so the sets of the tier below are exact: widen them
        // with zero words and go on from the tier that overflowed.
        let sets = prev.len() / (words * 2);
        let mut wide = vec![0u32; sets * words * 4];
        for (dst, src) in wide
            .chunks_exact_mut(words * 4)
            .zip(prev.chunks_exact(words * 2))
        {
            dst[..words * 2].copy_from_slice(src);
        }
        words *= 2;
        from = Some((tier, wide));
    }
}

/// A slab submitted to the device, its records and words on their way to the staging buffer.
struct Staged<'b> {
    slice: wgpu::BufferSlice<'b>,
    staging: &'b wgpu::Buffer,
    records: u64,
    mapped: std::sync::mpsc::Receiver<Result<(), wgpu::BufferAsyncError>>,
}

/// Runs one slab: the kernel, then its records and words copied to the staging buffer.
fn submit_slab<'b>(
    dev: &Device,
    kernel: &Kernel,
    b: &'b Buffers,
    bind: &wgpu::BindGroup,
    slab: &Slab,
    record: u64,
) -> Staged<'b> {
    // Records come back only when the host keeps them (`record` 0: they stay on the device).
    let records = slab.lines * record;
    let words = slab.lines * 4;
    let groups = slab.lines.div_ceil(GROUP);
    let gx = groups.min(MAX_GROUPS);
    let gy = groups.div_ceil(gx);
    let mut enc = dev
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("slab"),
        });
    {
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("tiers"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&kernel.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(gx as u32, gy as u32, 1);
    }
    if records > 0 {
        enc.copy_buffer_to_buffer(&b.cur, 0, &b.staging, 0, records);
    }
    enc.copy_buffer_to_buffer(&b.out, 0, &b.staging, records, words);
    dev.queue.submit([enc.finish()]);
    let slice = b.staging.slice(0..records + words);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    Staged {
        slice,
        staging: &b.staging,
        records,
        mapped: rx,
    }
}

/// Waits for a submitted slab and reads back its records into `cur`; returns its word per line.
fn collect_slab(dev: &Device, s: Staged, cur: &mut [u32]) -> Result<Vec<u32>, GpuError> {
    dev.wait()?;
    s.mapped
        .recv()
        .map_err(|e| GpuError::Device(e.to_string()))?
        .map_err(|e| GpuError::Device(e.to_string()))?;
    let out = {
        let view = s
            .slice
            .get_mapped_range()
            .map_err(|e| GpuError::Device(e.to_string()))?;
        let (records, words) = view.split_at(s.records as usize);
        for (dst, src) in cur.iter_mut().zip(records.chunks_exact(4)) {
            *dst = u32::from_le_bytes([src[0], src[1], src[2], src[3]]);
        }
        words
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    s.staging.unmap();
    Ok(out)
}

/// The device buffers of a run, sized for its largest slab and span.
struct Buffers {
    params: wgpu::Buffer,
    skip: wgpu::Buffer,
    wins: wgpu::Buffer,
    prev: wgpu::Buffer,
    cur: wgpu::Buffer,
    out: wgpu::Buffer,
    extra: wgpu::Buffer,
    staging: wgpu::Buffer,
}

impl Buffers {
    #[allow(clippy::too_many_arguments)]
    fn new(
        dev: &Device,
        skip: &[u32],
        wins: &[u32],
        cur: u64,
        prev: u64,
        out: u64,
        extra: u64,
        resident: bool,
    ) -> Buffers {
        let table = |label: &str, data: &[u32]| {
            let b = dev.buffer(label, data.len() as u64 * 4, U::STORAGE | U::COPY_DST);
            dev.queue.write_buffer(&b, 0, as_bytes(data));
            b
        };
        Buffers {
            params: dev.buffer("params", 48, U::UNIFORM | U::COPY_DST),
            skip: table("skip", skip),
            wins: table("wins", wins),
            // Resident, the two swap roles (and either may be read back).
            prev: dev.buffer("prev", prev, U::STORAGE | U::COPY_DST | U::COPY_SRC),
            cur: dev.buffer("cur", cur, U::STORAGE | U::COPY_DST | U::COPY_SRC),
            out: dev.buffer("out", out, U::STORAGE | U::COPY_SRC),
            extra: dev.buffer("extra", extra, U::STORAGE | U::COPY_DST),
            staging: dev.buffer(
                "staging",
                if resident { out } else { cur + out },
                U::MAP_READ | U::COPY_DST,
            ),
        }
    }
}

/// The bytes of a slice of 64-bit words, in the device's (little-endian) order: each word as two
/// 32-bit words, low half first (the kernels' vec2<u32>).
fn as_bytes64(words: &[u64]) -> &[u8] {
    // SAFETY: as for `as_bytes`.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), std::mem::size_of_val(words)) }
}

/// The bytes of a slice of words, in the device's (little-endian) order.
fn as_bytes(words: &[u32]) -> &[u8] {
    // SAFETY: u32 has no padding and every byte pattern is a valid u8; the length covers exactly
    // the words. Every adapter wgpu runs on is little-endian, as is the data the kernel reads.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), std::mem::size_of_val(words)) }
}
