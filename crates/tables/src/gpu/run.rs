//! The driver: the tiers of a box, slab by slab, through a kernel (P-sets or Grundy values).
//!
//! The records (`D` words or value sets) of two tiers stay on the device, slab by slab, one buffer
//! per slab (as many buffers as the tiers need, each within the adapter's largest binding). A slab
//! reads the span of the tier below that its lines need: bound directly when one buffer of the tier
//! below holds it, else gathered by device-side copies into one span buffer. No record crosses to the
//! host. What comes back:
//! - P-sets: the P-lines found, which the kernel appends (tier, rank, bit) to one list on the device;
//!   the host reads the list when it could fill up and at the end, so the bytes read back grow with
//!   the P-positions, and the host waits once per tier (progress and Ctrl-C), not once per slab;
//! - Grundy values: each slab's values (the table itself), read back while the next slab runs.
//!
//! SCN P-sets: the moves that empty piles are answered on the device from the shorter circles' tables,
//! uploaded once per circle length. SCN Grundy values: the host uploads with each slab a value set per
//! position (its moves that empty piles), as many words as the run's sets, computed while the device
//! runs the slab before. [`Device::traffic`] counts every byte that crosses.

use super::device::{Device, Kernel};
use super::schedule::{self, Slab};
use super::{GpuError, Options};
use crate::lines::{Hooks, LineSpec, PLine};
use crate::plan::{GPU_MAX_GRUNDY_RADIX, GPU_MAX_RADIX};
use crate::tiers::Ranking;
use nimlab_core::{Arg, Refusal};
use rayon::prelude::*;
use wgpu::BufferUsages as U;

/// Bytes of one 64-bit word (a word of a line's `D`, or one word of a value set).
const WORD: u64 = 8;
/// Invocations per workgroup (the kernels' `@workgroup_size`).
const GROUP: u64 = 64;
/// Most workgroups per dispatch dimension.
const MAX_GROUPS: u64 = 65_535;
/// Most words per Grundy value set: values up to 65535, as the tables store them.
const MAX_SET_WORDS: usize = 1024;
/// P-lines the device's list holds between two reads by the host (12 bytes each), at most.
const FOUND_LINES: u64 = 1 << 22;

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
    /// Most values per axis the kernel takes, and what it computes (for the refusal).
    max_r: (u64, &'static str),
    /// Per window: its axes as a mask (kernel-specific).
    wins: Vec<u32>,
    /// Bytes of a line's record (all windows).
    record: u64,
    /// The kernel's own constants (`c0..c3`).
    consts: [u32; 4],
    /// Per line, `extra_words` 64-bit words from the host (SCN's moves out of the box, Grundy values).
    extra: Option<Fill<'a>>,
    extra_words: usize,
    /// Words the kernel reads whole, uploaded once (SCN's oracle for P-sets), in the `extra` binding.
    table: Option<&'a [u32]>,
    /// Positions per line (for progress).
    per_line: u64,
    /// The kernel's results: P-lines appended to a list (the P-set kernel), or a word per line (the
    /// Grundy kernel: a value, `u32::MAX` when it does not fit the sets, which stops the sweep).
    grundy: bool,
    /// P-sets: the mirror's words (see [`mirror_words`]); the kernel reads lines through it when
    /// every tier is one slab, and the tuple's entries are numbered for it in any case.
    mirror: Option<Vec<u32>>,
}

/// What a sweep hands back as it goes.
enum Results<'a> {
    /// P-lines found, as (tier, rank in the tier, bit) triples, in no particular order.
    Found(&'a mut dyn FnMut(&[u32])),
    /// A slab's word per line (Grundy values), with its tier and slab.
    Words(&'a mut dyn FnMut(usize, &Slab, &[u32])),
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

/// The records of one tier on the device, one buffer per slab.
type TierOnDevice = Vec<(Slab, wgpu::Buffer)>;

/// Runs `sw` tier by tier from tier `from.0` (whose tier below has the records `from.1`), or from tier
/// 0, handing its results to `results`.
fn sweep(
    dev: &Device,
    sw: &Sweep,
    from: Option<(usize, Vec<u32>)>,
    opts: &Options,
    hooks: Hooks,
    mut results: Results,
) -> Result<Swept, GpuError> {
    let (n, r) = (sw.n, sw.r);
    let (max_r, what) = sw.max_r;
    if n > 32 || r == 0 || r as u64 > max_r {
        return Err(GpuError::too_large(format!(
            "the GPU back end takes up to 32 ranked axes with 1 to {max_r} values each for {what}, not {n} and {r}"
        )));
    }
    if (r as f64).powi(n as i32) > 1e18 {
        return Err(GpuError::too_large(
            Refusal::new(format!(
                "a box of {r}^{n} lines is beyond the GPU back end; use a smaller "
            ))
            .name(Arg::Max),
        ));
    }
    let rk = Ranking::new(n, r);
    let widest = (0..rk.tiers()).map(|t| rk.size(t)).max().unwrap_or(0);
    if widest >= 1 << 32 {
        return Err(GpuError::too_large(
            Refusal::new(format!(
                "a tier of this box has {widest} lines, more than the GPU back end ranks in 32 bits; use a smaller "
            ))
            .name(Arg::Max),
        ));
    }
    let record = sw.record;
    let limit = dev.max_binding.min(dev.max_buffer);
    if record > limit {
        return Err(GpuError::too_large(format!(
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
            GpuError::too_large(
                Refusal::new(format!(
                    "one line of this box reads {} MiB of the tier below, above the {} MiB this adapter binds at once; use a smaller ",
                    (span * record) >> 20,
                    limit >> 20
                ))
                .name(Arg::Max),
            )
        })?);
    }
    let most_lines = plan.iter().flatten().map(|s| s.lines).max().unwrap_or(1);
    let most_span = plan.iter().flatten().map(|s| s.span).max().unwrap_or(1);
    let one_slab = plan.iter().all(|s| s.len() == 1);
    if opts.require_resident && !one_slab {
        return Err(GpuError::too_large(
            "a tier of this box does not fit one slab of this GPU, and tiers of one slab were required",
        ));
    }
    // Two tiers of records, the most a tier holds: refused up front when a buffer cannot be had.
    let tier_bytes = plan
        .iter()
        .map(|s| s.iter().map(|x| x.lines).sum::<u64>() * record)
        .max()
        .unwrap_or(0);
    let no_room = || {
        GpuError::too_large(
            Refusal::new(format!(
                "the GPU has no room for two tiers of this box ({:.2} GiB of records each at most); use a smaller ",
                tier_bytes as f64 / (1u64 << 30) as f64
            ))
            .name(Arg::Max)
            .text(" or ")
            .value(Arg::Backend, "cpu"),
        )
    };
    let skip = schedule::skip_table(&rk);
    // P-sets: the list of P-lines found holds at least one slab's lines (tests, with small slabs, make
    // the host read it often).
    let found_lines = if opts.slab_bytes.is_some() {
        2 * most_lines
    } else {
        FOUND_LINES.min(limit / 12 - 1).max(most_lines)
    };
    // The mirror's words go after the windows; the mirror runs when the whole tier below is bound.
    let wins: Vec<u32> = sw
        .wins
        .iter()
        .chain(sw.mirror.iter().flatten())
        .copied()
        .collect();
    let mirror = sw.mirror.is_some() && one_slab;
    let b = Buffers::new(
        dev,
        &skip,
        &wins,
        // Grundy: the word per line out; P-sets: the list of P-lines.
        if sw.grundy {
            most_lines * 4
        } else {
            4 + found_lines * 12
        },
        match sw.table {
            Some(t) => t.len() as u64 * 4,
            None => most_lines * extra_bytes,
        },
        // The span buffer: the part of the tier below a slab reads when no one buffer holds it.
        if one_slab { 16 } else { most_span * record },
    );
    if let Some(t) = sw.table {
        if t.len() as u64 * 4 > limit {
            return Err(GpuError::too_large(
                Refusal::new(format!(
                    "the shorter circles' tables take {} MiB, above the {} MiB this adapter binds at once; use a smaller ",
                    (t.len() as u64 * 4) >> 20,
                    limit >> 20
                ))
                .name(Arg::Max),
            ));
        }
        dev.write(&b.extra, 0, as_bytes(t));
    }
    dev.check()?;
    let words = (record / 4) as usize;
    let slab_bytes = most_lines * record;
    // Slab buffers no longer read, for the next tiers.
    let mut pool: Vec<wgpu::Buffer> = Vec::new();
    let take = |pool: &mut Vec<wgpu::Buffer>| -> Result<wgpu::Buffer, GpuError> {
        match pool.pop() {
            Some(b) => Ok(b),
            None => dev
                .try_buffer(
                    "records",
                    slab_bytes,
                    U::STORAGE | U::COPY_DST | U::COPY_SRC,
                )
                .ok_or_else(no_room),
        }
    };
    let total = (r as u64).pow(n as u32) * sw.per_line;
    let (start, prev_host) = from.unwrap_or_default();
    // The tier below the current one, on the device.
    let mut below: TierOnDevice = Vec::new();
    if start > 0 {
        for s in &plan[start - 1] {
            let buf = take(&mut pool)?;
            let at = s.first as usize * words;
            dev.write(
                &buf,
                0,
                as_bytes(&prev_host[at..at + s.lines as usize * words]),
            );
            below.push((*s, buf));
        }
    }
    drop(prev_host);
    let mut done: u64 = (0..start).map(|t| rk.size(t) * sw.per_line).sum();
    // P-sets: lines run since the list was last read (an upper bound on its length).
    let mut unread: u64 = 0;
    // Grundy values: the last slab's words, handed on while the next slab runs.
    let mut waiting: Option<(usize, Slab, Vec<u32>)> = None;
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
    let order: Vec<Slab> = plan[start..].iter().flatten().copied().collect();
    let mut masks = order.first().map(|s| masks_of(s.tier, s));
    let mut current: TierOnDevice = Vec::new();
    for (i, slab) in order.iter().enumerate() {
        let t = slab.tier;
        if hooks.cancelled() {
            return Err(GpuError::Interrupted);
        }
        if !matches!(results, Results::Found(_)) && slab.first == 0 && t > start {
            // Grundy: the last tier is done (its values were waited for).
            done += rk.size(t - 1) * sw.per_line;
            if let Some(p) = hooks.progress {
                p(done, total);
            }
        }
        if slab.first == 0 && t > start {
            // A new tier: the one below the last is no longer read.
            pool.extend(std::mem::take(&mut below).into_iter().map(|(_, b)| b));
            below = std::mem::take(&mut current);
        }
        // P-sets: read the list before it could overflow.
        if let Results::Found(f) = &mut results {
            if unread + slab.lines > found_lines {
                read_found(dev, &b, f)?;
                unread = 0;
            }
            unread += slab.lines;
        }
        let cur = take(&mut pool)?;
        let mut enc = dev
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("slab"),
            });
        // The span of the tier below: one buffer of it, or gathered into the span buffer.
        let (prev, base) = if t == 0 || slab.span == 0 {
            (&b.span, 0)
        } else {
            let end = slab.base + slab.span;
            let k = below.partition_point(|(s, _)| s.first + s.lines <= slab.base);
            match below.get(k) {
                Some((s, buf)) if end <= s.first + s.lines => (buf, s.first),
                _ => {
                    for (s, buf) in &below[k..] {
                        if s.first >= end {
                            break;
                        }
                        let lo = slab.base.max(s.first);
                        let hi = end.min(s.first + s.lines);
                        enc.copy_buffer_to_buffer(
                            buf,
                            (lo - s.first) * record,
                            &b.span,
                            (lo - slab.base) * record,
                            (hi - lo) * record,
                        );
                    }
                    (&b.span, slab.base)
                }
            }
        };
        let params: [u32; 16] = [
            t as u32,
            slab.first as u32,
            slab.lines as u32,
            base as u32,
            n as u32,
            sw.wins.len() as u32,
            r as u32,
            (n * (r - 1) + 1) as u32,
            sw.consts[0],
            sw.consts[1],
            sw.consts[2],
            sw.consts[3],
            mirror as u32,
            0,
            0,
            0,
        ];
        dev.write(&b.params, 0, as_bytes(&params));
        if sw.extra.is_some() {
            let m = masks.take().unwrap_or_else(|| masks_of(t, slab));
            dev.write(&b.extra, 0, as_bytes64(&m));
        }
        let all = [&b.params, &b.skip, &b.wins, prev, &cur, &b.out, &b.extra];
        let entries: Vec<wgpu::BindGroupEntry> = all[..sw.kernel.bindings as usize]
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        let bind = dev.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("slab"),
            layout: &sw.kernel.layout,
            entries: &entries,
        });
        dispatch(&mut enc, sw.kernel, &bind, slab.lines);
        let staged = if sw.grundy {
            enc.copy_buffer_to_buffer(&b.out, 0, &b.staging, 0, slab.lines * 4);
            dev.submit(enc.finish());
            Some(map(&b.staging, slab.lines * 4))
        } else {
            dev.submit(enc.finish());
            None
        };
        current.push((*slab, cur));
        // The host's share while the device runs: the last slab's values, the next slab's value sets.
        if let (Some((pt, ps, out)), Results::Words(f)) = (waiting.take(), &mut results) {
            f(pt, &ps, &out);
        }
        if let Some(next) = order.get(i + 1) {
            masks = sw.extra.map(|_| masks_of(next.tier, next));
        }
        if let Some(staged) = staged {
            let mut out = vec![0u32; slab.lines as usize];
            collect(dev, staged, &mut out)?;
            if out.contains(&u32::MAX) {
                let prev = if t > 0 {
                    read_tier(dev, &below, record)?
                } else {
                    Vec::new()
                };
                return Ok(Swept::Overflow { tier: t, prev });
            }
            waiting = Some((t, *slab, out));
        } else if order.get(i + 1).is_some_and(|s| s.tier != t) {
            // P-sets: the end of a tier (not the last), waited for (progress, Ctrl-C).
            dev.wait()?;
            done += rk.size(t) * sw.per_line;
            if let Some(p) = hooks.progress {
                p(done, total);
            }
        }
    }
    match &mut results {
        Results::Words(f) => {
            if let Some((pt, ps, out)) = waiting.take() {
                f(pt, &ps, &out);
            }
        }
        Results::Found(f) => read_found(dev, &b, f)?,
    }
    if hooks.cancelled() {
        return Err(GpuError::Interrupted);
    }
    if let Some(p) = hooks.progress {
        p(total, total);
    }
    Ok(Swept::Done)
}

/// Records one dispatch of `kernel` over `lines` invocations.
fn dispatch(enc: &mut wgpu::CommandEncoder, kernel: &Kernel, bind: &wgpu::BindGroup, lines: u64) {
    let groups = lines.div_ceil(GROUP);
    let gx = groups.min(MAX_GROUPS);
    let gy = groups.div_ceil(gx);
    let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some("tiers"),
        timestamp_writes: None,
    });
    pass.set_pipeline(&kernel.pipeline);
    pass.set_bind_group(0, bind, &[]);
    pass.dispatch_workgroups(gx as u32, gy as u32, 1);
}

/// Reads the device's list of P-lines into `f` and empties it: its length first, then that many
/// triples.
fn read_found(dev: &Device, b: &Buffers, f: &mut dyn FnMut(&[u32])) -> Result<(), GpuError> {
    let mut count = [0u32];
    copy_back(dev, &b.out, 0, 4, &b.staging, &mut count)?;
    if count[0] > 0 {
        let mut items = vec![0u32; count[0] as usize * 3];
        copy_back(dev, &b.out, 4, count[0] as u64 * 12, &b.staging, &mut items)?;
        f(&items);
        dev.write(&b.out, 0, as_bytes(&[0u32]));
    }
    Ok(())
}

/// The records of a tier on the device, read back in rank order.
fn read_tier(dev: &Device, tier: &TierOnDevice, record: u64) -> Result<Vec<u32>, GpuError> {
    let mut all = Vec::new();
    for (s, buf) in tier {
        let bytes = s.lines * record;
        let staging = dev.buffer("read back", bytes, U::MAP_READ | U::COPY_DST);
        let mut words = vec![0u32; (bytes / 4) as usize];
        copy_back(dev, buf, 0, bytes, &staging, &mut words)?;
        all.extend(words);
    }
    Ok(all)
}

/// Copies `bytes` of `buf` from `offset` through `staging` into `out`, and waits for them.
fn copy_back(
    dev: &Device,
    buf: &wgpu::Buffer,
    offset: u64,
    bytes: u64,
    staging: &wgpu::Buffer,
    out: &mut [u32],
) -> Result<(), GpuError> {
    let mut enc = dev
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("read back"),
        });
    enc.copy_buffer_to_buffer(buf, offset, staging, 0, bytes);
    dev.submit(enc.finish());
    collect(dev, map(staging, bytes), out)
}

/// The tuple numbering for the mirror `rho` (engine axes, `rho[0] == 0`; engine axis `a + 1` is entry
/// `a` of the box's own tuple): `from[j]`, the box's entry at position `j`, with the pairs `rho` swaps
/// first, side by side, then the entries it fixes; and what the P-set kernel reads after the window
/// masks (see pset.wgsl): `rho` in that numbering, the index of each window's image, and each entry's
/// position (`from` inverted). `None` when `rho` is not an involution or does not map the windows onto
/// windows.
fn mirror_words(windows: &[Vec<usize>], rho: &[usize]) -> Option<(Vec<usize>, Vec<u32>)> {
    if rho.first() != Some(&0) || rho.iter().any(|&a| a >= rho.len()) {
        return None;
    }
    let n = rho.len() - 1;
    let r: Vec<usize> = rho[1..]
        .iter()
        .map(|&a| a.checked_sub(1))
        .collect::<Option<_>>()?;
    if (0..n).any(|s| r[r[s]] != s) {
        return None;
    }
    let mut from: Vec<usize> = Vec::with_capacity(n);
    for (s, &rs) in r.iter().enumerate() {
        if rs > s {
            from.extend([s, rs]);
        }
    }
    from.extend((0..n).filter(|&s| r[s] == s));
    if from.len() != n {
        return None;
    }
    let mut to = vec![0usize; n];
    for (j, &s) in from.iter().enumerate() {
        to[s] = j;
    }
    let set = |w: &mut dyn Iterator<Item = usize>| -> Vec<usize> {
        let mut v: Vec<usize> = w.collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let mut out: Vec<u32> = from.iter().map(|&s| to[r[s]] as u32).collect();
    for w in windows {
        let image = set(&mut w.iter().map(|&a| rho[a]));
        let at = windows
            .iter()
            .position(|v| set(&mut v.iter().copied()) == image)?;
        out.push(at as u32);
    }
    out.extend(to.iter().map(|&j| j as u32));
    Some((from, out))
}

/// The index `sum_p x_p weights_p` of the tuple of rank `rank` in tier `t`.
fn index_of(rk: &Ranking, rank: u64, t: usize, weights: &[u64]) -> u64 {
    let mut x = [0u32; 32];
    let x = &mut x[..weights.len()];
    rk.unrank(rank, t, x);
    x.iter().zip(weights).map(|(&v, &w)| v as u64 * w).sum()
}

/// The P-lines of a window game (see [`crate::tiers::solve`], which this equals on lines of one word,
/// and [`crate::lines::solve`]): (global line index, bit), sorted, on lines of `ceil(r / 64)` words.
/// `scn`: the moves out of the box (SCN's oracle, packed by `ShrinkOracle::packed`). `rho`: an
/// involution of the engine's axes that fixes axis 0 and maps the windows (and the moves out of the
/// box) onto themselves; the kernel then runs one line of each mirror pair when the tiers fit one slab.
pub fn solve(
    dev: &Device,
    spec: &LineSpec,
    scn: Option<&[u32]>,
    rho: Option<&[usize]>,
    opts: &Options,
    hooks: Hooks,
) -> Result<Vec<PLine>, GpuError> {
    let (m, r) = (spec.m, spec.r);
    if spec.radix.is_some() {
        return Err(GpuError::too_large(
            "the GPU back end takes boxes with one bound for every stack",
        ));
    }
    if m == 0 || m > 32 {
        return Err(GpuError::too_large(format!(
            "the GPU back end takes 1 to 32 stacks, not {m}"
        )));
    }
    let n = m - 1;
    if r == 0 || r as u64 > GPU_MAX_RADIX {
        return Err(GpuError::too_large(format!(
            "the GPU back end takes P-sets of boxes of 1 to {GPU_MAX_RADIX} values per entry, not {r}"
        )));
    }
    // Lines of `words` 64-bit words; the bits of the last one.
    let words = r.div_ceil(64);
    let bits = r - 64 * (words - 1);
    let last = if bits == 64 {
        !0u64
    } else {
        (1u64 << bits) - 1
    };
    // With a mirror the tuple's entries are numbered for it: `from[j]` is the box's entry at `j`.
    let mirror = rho.and_then(|rho| mirror_words(&spec.windows, rho));
    let from: Vec<usize> = mirror
        .as_ref()
        .map_or_else(|| (0..n).collect(), |(from, _)| from.clone());
    let mut to = vec![0usize; n];
    for (j, &s) in from.iter().enumerate() {
        to[s] = j;
    }
    let wins: Vec<u32> = spec
        .windows
        .iter()
        .map(|w| {
            w.iter().fold(0u32, |acc, &a| {
                if a == 0 {
                    acc | 1 << 31
                } else {
                    acc | 1 << to[a - 1]
                }
            })
        })
        .collect();
    let sw = Sweep {
        kernel: dev.pset(words, mirror.is_some()),
        n,
        r,
        max_r: (GPU_MAX_RADIX, "P-sets"),
        record: wins.len() as u64 * words as u64 * WORD,
        wins,
        consts: [
            last as u32,
            (last >> 32) as u32,
            spec.origin_n as u32,
            scn.is_some() as u32,
        ],
        extra: None,
        extra_words: 0,
        table: scn,
        per_line: r as u64,
        grundy: false,
        mirror: mirror.map(|(_, words)| words),
    };
    let rk = Ranking::new(n, r);
    // The global line index is `sum_s x_s r^s` over the box's entries, as in crate::lines.
    let weights: Vec<u64> = from.iter().map(|&s| (r as u64).pow(s as u32)).collect();
    let mut out = Vec::new();
    let mut found = |items: &[u32]| {
        let lines: Vec<PLine> = items
            .par_chunks_exact(3)
            .map(|f| {
                let line = index_of(&rk, f[1] as u64, f[0] as usize, &weights);
                (line, f[2])
            })
            .collect();
        out.extend(lines);
    };
    sweep(dev, &sw, None, opts, hooks, Results::Found(&mut found))?;
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
        return Err(GpuError::too_large(format!(
            "the GPU back end takes 1 to 32 stacks, not {m}"
        )));
    }
    let total = (r as f64).powi(m as i32);
    if total > usize::MAX as f64 / 2.0 {
        return Err(GpuError::too_large(format!(
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
            max_r: (GPU_MAX_GRUNDY_RADIX, "Grundy values"),
            wins: wins.clone(),
            record: wins.len() as u64 * words as u64 * WORD,
            consts: [words as u32, extra.is_some() as u32, 0, 0],
            extra: extra.map(|_| &fill as Fill),
            extra_words: words,
            table: None,
            per_line: 1,
            grundy: true,
            mirror: None,
        };
        let mut got = |t: usize, slab: &Slab, got: &[u32]| {
            let at: Vec<(u64, u16)> = got
                .par_iter()
                .enumerate()
                .map(|(i, &v)| (index_of(&rk, slab.first + i as u64, t, &weights), v as u16))
                .collect();
            for (i, v) in at {
                values[i as usize] = v;
            }
        };
        let swept = sweep(dev, &sw, from.take(), opts, hooks, Results::Words(&mut got))?;
        let Swept::Overflow { tier, prev } = swept else {
            let top = values.iter().copied().max().unwrap_or(0) as usize;
            return Ok((values, top / 64 + 1));
        };
        if words >= MAX_SET_WORDS {
            return Err(GpuError::too_large(
                "a Grundy value passes 65535, beyond what the tables store",
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

/// A copy on its way to a staging buffer, mapped for reading once the device has made it.
struct Staged<'b> {
    slice: wgpu::BufferSlice<'b>,
    staging: &'b wgpu::Buffer,
    mapped: std::sync::mpsc::Receiver<Result<(), wgpu::BufferAsyncError>>,
}

/// Asks for the first `bytes` of `staging` to be mapped when the copies submitted into it are done.
fn map(staging: &wgpu::Buffer, bytes: u64) -> Staged<'_> {
    let slice = staging.slice(0..bytes);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    Staged {
        slice,
        staging,
        mapped: rx,
    }
}

/// Waits for a mapped copy and reads it into `out` (as many words as `out` holds).
fn collect(dev: &Device, s: Staged, out: &mut [u32]) -> Result<(), GpuError> {
    dev.wait()?;
    s.mapped
        .recv()
        .map_err(|e| GpuError::Device(e.to_string()))?
        .map_err(|e| GpuError::Device(e.to_string()))?;
    {
        let view = s
            .slice
            .get_mapped_range()
            .map_err(|e| GpuError::Device(e.to_string()))?;
        for (dst, src) in out.iter_mut().zip(view.chunks_exact(4)) {
            *dst = u32::from_le_bytes([src[0], src[1], src[2], src[3]]);
        }
    }
    dev.downloaded(out.len() as u64 * 4);
    s.staging.unmap();
    Ok(())
}

/// The device buffers of a run besides the tiers' records.
struct Buffers {
    params: wgpu::Buffer,
    skip: wgpu::Buffer,
    wins: wgpu::Buffer,
    /// The span of the tier below a slab reads, when no one buffer holds it.
    span: wgpu::Buffer,
    /// The kernel's results: Grundy values, or the list of P-lines found.
    out: wgpu::Buffer,
    extra: wgpu::Buffer,
    staging: wgpu::Buffer,
}

impl Buffers {
    fn new(dev: &Device, skip: &[u32], wins: &[u32], out: u64, extra: u64, span: u64) -> Buffers {
        let table = |label: &str, data: &[u32]| {
            let b = dev.buffer(label, data.len() as u64 * 4, U::STORAGE | U::COPY_DST);
            dev.write(&b, 0, as_bytes(data));
            b
        };
        Buffers {
            params: dev.buffer("params", 64, U::UNIFORM | U::COPY_DST),
            skip: table("skip", skip),
            wins: table("wins", wins),
            span: dev.buffer("span", span, U::STORAGE | U::COPY_DST),
            out: dev.buffer("out", out, U::STORAGE | U::COPY_SRC | U::COPY_DST),
            extra: dev.buffer("extra", extra, U::STORAGE | U::COPY_DST),
            staging: dev.buffer("staging", out, U::MAP_READ | U::COPY_DST),
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
