//! The driver: the tiers of a window game, slab by slab, through the P-set kernel.
//!
//! The host keeps the `D` words of two tiers; for each slab it uploads the span of the tier below that
//! the slab reads, runs one invocation per line, and reads back the slab's `D` words and P-bits. The
//! device holds one slab, one span and the ranking table, whatever the size of the box.

use super::device::Device;
use super::schedule::{self, Slab};
use super::{GpuError, Options};
use crate::lines::{Hooks, LineSpec};
use crate::tiers::Ranking;
use rayon::prelude::*;
use wgpu::BufferUsages as U;

/// Words (u32) per line and window: a 64-bit `D` word as two halves.
const HALVES: usize = 2;
/// Bytes of one line's record of `D` words, per window.
const WORD: u64 = 8;
/// Invocations per workgroup (the kernel's `@workgroup_size`).
const GROUP: u64 = 64;
/// Most workgroups per dispatch dimension.
const MAX_GROUPS: u64 = 65_535;

/// The P-lines of a window game (see [`crate::tiers::solve`], which this equals): (global line index,
/// bit), sorted.
pub fn solve(
    dev: &Device,
    spec: &LineSpec,
    opts: &Options,
    hooks: Hooks,
) -> Result<Vec<(u64, u8)>, GpuError> {
    let (m, r) = (spec.m, spec.r);
    if m == 0 || m > 32 || !(1..=64).contains(&r) {
        return Err(GpuError::TooLarge(format!(
            "the GPU back end takes 1 to 32 stacks with 1 to 64 values each, not {m} and {r}"
        )));
    }
    let n = m - 1;
    let nw = spec.windows.len();
    if (r as f64).powi(n as i32) > 1e18 {
        return Err(GpuError::TooLarge(format!(
            "a box of {r}^{m} positions is beyond the GPU back end; use a smaller --max"
        )));
    }
    let rk = Ranking::new(n, r);
    let widest = (0..rk.tiers()).map(|t| rk.size(t)).max().unwrap_or(0);
    if widest >= 1 << 32 {
        return Err(GpuError::TooLarge(format!(
            "a tier of this box has {widest} lines, more than the GPU back end ranks in 32 bits; use a smaller --max"
        )));
    }
    let record = nw as u64 * WORD;
    let limit = dev.max_binding.min(dev.max_buffer);
    let max_lines = opts
        .slab_bytes
        .unwrap_or(limit)
        .min(limit)
        // A line's D words and its P-bit, read back through one staging buffer.
        .checked_div(record + 4)
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
    let skip = schedule::skip_table(&rk);
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
    let buffers = Buffers::new(
        dev,
        &skip,
        &wins,
        most_lines * record,
        most_span * record,
        most_lines * 4,
    );
    let bind = dev.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("pset"),
        layout: &dev.layout,
        entries: &[
            entry(0, &buffers.params),
            entry(1, &buffers.skip),
            entry(2, &buffers.wins),
            entry(3, &buffers.prev),
            entry(4, &buffers.cur),
            entry(5, &buffers.pbit),
        ],
    });
    dev.check()?;
    let full = if r == 64 { !0u64 } else { (1u64 << r) - 1 };
    let weights: Vec<u64> = (0..n).map(|j| (r as u64).pow(j as u32)).collect();
    // Progress in positions, as the CPU engine reports it.
    let total = (r as u64).pow(m as u32);
    let mut done = 0u64;
    let mut prev: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    for (t, slabs) in plan.iter().enumerate() {
        if hooks.cancelled() {
            return Err(GpuError::Interrupted);
        }
        let size = rk.size(t) as usize;
        let mut cur = vec![0u32; size * nw * HALVES];
        for slab in slabs {
            let params: [u32; 12] = [
                t as u32,
                slab.first as u32,
                slab.lines as u32,
                slab.base as u32,
                n as u32,
                nw as u32,
                r as u32,
                (n * (r - 1) + 1) as u32,
                full as u32,
                (full >> 32) as u32,
                spec.origin_n as u32,
                0,
            ];
            dev.queue
                .write_buffer(&buffers.params, 0, as_bytes(&params));
            if slab.span > 0 {
                let words = nw * HALVES;
                let from = slab.base as usize * words;
                let to = from + slab.span as usize * words;
                dev.queue
                    .write_buffer(&buffers.prev, 0, as_bytes(&prev[from..to]));
            }
            let at = slab.first as usize * nw * HALVES;
            let bits = run_slab(
                dev,
                &buffers,
                &bind,
                slab,
                record,
                &mut cur[at..at + slab.lines as usize * nw * HALVES],
            )?;
            let first = slab.first;
            let found: Vec<(u64, u8)> = bits
                .par_iter()
                .enumerate()
                .filter(|&(_, &b)| b != 0)
                .map(|(i, &b)| {
                    let mut x = vec![0u32; n];
                    rk.unrank(first + i as u64, t, &mut x);
                    let line: u64 = x.iter().zip(&weights).map(|(&v, &w)| v as u64 * w).sum();
                    (line, (b - 1) as u8)
                })
                .collect();
            out.extend(found);
            if hooks.cancelled() {
                return Err(GpuError::Interrupted);
            }
        }
        prev = cur;
        done += size as u64 * r as u64;
        if let Some(p) = hooks.progress {
            p(done, total);
        }
    }
    out.par_sort_unstable();
    Ok(out)
}

/// Runs one slab and reads back its `D` words into `cur`; returns its P-bits (1 + bit, or 0).
fn run_slab(
    dev: &Device,
    b: &Buffers,
    bind: &wgpu::BindGroup,
    slab: &Slab,
    record: u64,
    cur: &mut [u32],
) -> Result<Vec<u32>, GpuError> {
    let words_bytes = slab.lines * record;
    let bits_bytes = slab.lines * 4;
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
            label: Some("pset"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&dev.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(gx as u32, gy as u32, 1);
    }
    enc.copy_buffer_to_buffer(&b.cur, 0, &b.staging, 0, words_bytes);
    enc.copy_buffer_to_buffer(&b.pbit, 0, &b.staging, words_bytes, bits_bytes);
    dev.queue.submit([enc.finish()]);
    let slice = b.staging.slice(0..words_bytes + bits_bytes);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    dev.wait()?;
    let mapped = rx
        .recv()
        .map_err(|e| GpuError::Device(e.to_string()))?
        .map_err(|e| GpuError::Device(e.to_string()));
    mapped?;
    let bits = {
        let view = slice
            .get_mapped_range()
            .map_err(|e| GpuError::Device(e.to_string()))?;
        let (words, bits) = view.split_at(words_bytes as usize);
        for (dst, src) in cur.iter_mut().zip(words.chunks_exact(4)) {
            *dst = u32::from_le_bytes([src[0], src[1], src[2], src[3]]);
        }
        bits.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    b.staging.unmap();
    Ok(bits)
}

/// The device buffers of a run, sized for its largest slab and span.
struct Buffers {
    params: wgpu::Buffer,
    skip: wgpu::Buffer,
    wins: wgpu::Buffer,
    prev: wgpu::Buffer,
    cur: wgpu::Buffer,
    pbit: wgpu::Buffer,
    staging: wgpu::Buffer,
}

impl Buffers {
    fn new(dev: &Device, skip: &[u32], wins: &[u32], cur: u64, prev: u64, bits: u64) -> Buffers {
        let table = |label: &str, data: &[u32]| {
            let b = dev.buffer(label, data.len() as u64 * 4, U::STORAGE | U::COPY_DST);
            dev.queue.write_buffer(&b, 0, as_bytes(data));
            b
        };
        Buffers {
            params: dev.buffer("params", 48, U::UNIFORM | U::COPY_DST),
            skip: table("skip", skip),
            wins: table("wins", wins),
            prev: dev.buffer("prev", prev, U::STORAGE | U::COPY_DST),
            cur: dev.buffer("cur", cur, U::STORAGE | U::COPY_SRC),
            pbit: dev.buffer("pbit", bits, U::STORAGE | U::COPY_SRC),
            staging: dev.buffer("staging", cur + bits, U::MAP_READ | U::COPY_DST),
        }
    }
}

fn entry(binding: u32, b: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: b.as_entire_binding(),
    }
}

/// The bytes of a slice of words, in the device's (little-endian) order.
fn as_bytes(words: &[u32]) -> &[u8] {
    // SAFETY: u32 has no padding and every byte pattern is a valid u8; the length covers exactly
    // the words. Every adapter wgpu runs on is little-endian, as is the data the kernel reads.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), std::mem::size_of_val(words)) }
}
