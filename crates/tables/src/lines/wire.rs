//! A sweep's state as bytes: the checkpoint section of the line engine (the geometry it was taken
//! with, the diagonal, every block's store, the P-lines of the slabs not yet emitted) and the
//! messages between ranks (a block's store, a rank's P-lines of one diagonal).

use super::geometry::{Geometry, Store};
use super::PLine;
use crate::checkpoint as ck;
use crate::cluster as cl;
use std::io::{self, Read, Write};

/// The geometry fields a checkpoint starts with, and its diagonal.
/// The geometry as the checkpoint records it: the axes (with bit 32 set when the sweep keeps one
/// block of each mirror pair, [`super::mirror`], bit 33 when prefix starts take one byte, bit 34,
/// always set, for stores that keep each window's records together (older checkpoints kept a line's
/// records together, and are refused), and bit 35 when words take 4 bytes), the
/// values per line, the lines of a block, the persistent records and the words per line.
fn head_fields(g: &Geometry) -> [u64; 6] {
    let axes = g.m as u64
        | u64::from(g.mirror.is_some()) << 32
        | u64::from(g.sb == 1) << 33
        | 1 << 34
        | u64::from(g.wb == 4) << 35;
    [
        axes,
        g.r as u64,
        g.block as u64,
        g.pw as u64,
        g.pb as u64,
        g.l as u64,
    ]
}

pub(super) fn write_head(w: &mut dyn Write, g: &Geometry, d: usize) -> io::Result<()> {
    for x in head_fields(g) {
        ck::put_u64(w, x)?;
    }
    ck::put_u64(w, d as u64)
}

pub(super) fn read_head(r: &mut dyn Read, g: &Geometry) -> io::Result<usize> {
    for (x, what) in head_fields(g).into_iter().zip([
        "axes, symmetry, width of starts and layout",
        "radix",
        "block",
        "words",
        "starts",
        "words per line",
    ]) {
        ck::expect(r, x, what)?;
    }
    ck::get_len(r, g.ra + g.rb - 2)
}

pub(super) fn write_store(w: &mut dyn Write, s: &Store) -> io::Result<()> {
    ck::put_u64s(w, &s.w)?;
    ck::put_u16s(w, &s.b)
}

pub(super) fn read_store(r: &mut dyn Read, s: &mut Store) -> io::Result<()> {
    ck::get_u64s_into(r, &mut s.w)?;
    ck::get_u16s_into(r, &mut s.b)
}

/// The P-lines of the slabs not yet emitted, and the next slab to emit.
pub(super) fn write_tail(
    w: &mut dyn Write,
    pending: &[Vec<PLine>],
    next_emit: usize,
) -> io::Result<()> {
    ck::put_u64(w, next_emit as u64)?;
    for p in &pending[next_emit..] {
        ck::put_lines(w, p)?;
    }
    Ok(())
}

pub(super) fn read_tail(
    r: &mut dyn Read,
    g: &Geometry,
    pending: &mut [Vec<PLine>],
) -> io::Result<usize> {
    let next_emit = ck::get_len(r, g.rb)?;
    let max_lines = g.block * g.ra;
    for p in &mut pending[next_emit..] {
        *p = ck::get_lines(r, max_lines)?;
    }
    Ok(next_emit)
}

/// A block's store as the two messages that carry it.
pub(super) fn store_messages(to: usize, s: &Store) -> [(usize, &[u8]); 2] {
    [
        (to, cl::words_as_bytes(&s.w)),
        (to, cl::halves_as_bytes(&s.b)),
    ]
}

/// A block's store from its two messages; `None` when they do not fit this geometry.
pub(super) fn store_of(g: &Geometry, w: &[u8], b: &[u8], spare: &mut Vec<Store>) -> Option<Store> {
    let mut s = spare.pop().unwrap_or_else(|| g.store());
    (cl::bytes_into_words(w, &mut s.w) && cl::bytes_into_halves(b, &mut s.b)).then_some(s)
}

/// The P-lines of a rank's blocks of one diagonal, as one message (rank 0 knows which blocks).
pub(super) fn lines_message(blocks: &[(usize, Vec<PLine>)]) -> Vec<u8> {
    let mut m = Vec::new();
    for (_, lines) in blocks {
        m.extend_from_slice(&(lines.len() as u64).to_le_bytes());
        for &(l, bit) in lines {
            m.extend_from_slice(&l.to_le_bytes());
            m.extend_from_slice(&bit.to_le_bytes());
        }
    }
    m
}

pub(super) fn lines_of_message(m: &[u8], blocks: usize) -> Vec<Vec<PLine>> {
    let mut at = 0;
    let word = |at: &mut usize| {
        let x = u64::from_le_bytes(m[*at..*at + 8].try_into().expect("8 bytes"));
        *at += 8;
        x
    };
    (0..blocks)
        .map(|_| {
            let n = word(&mut at) as usize;
            (0..n)
                .map(|_| {
                    let l = word(&mut at);
                    at += 4;
                    let bit = u32::from_le_bytes(m[at - 4..at].try_into().expect("4 bytes"));
                    (l, bit)
                })
                .collect()
        })
        .collect()
}
