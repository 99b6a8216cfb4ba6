//! Ranks of one distributed computation, and the messages the engine sends between them.
//!
//! The line engine ([`crate::lines`]) runs on `R` ranks: each rank owns a contiguous range of the
//! blocks of every anti-diagonal, fetches from its neighbours the few blocks of the previous diagonal
//! that it reads but did not compute, and sends its P-lines to rank 0, which alone writes output,
//! store entries and checkpoints. A [`Cluster`] is what the engine needs of the ranks: who it is, and
//! point-to-point messages of bytes. Three implementations:
//! - [`Solo`]: one process, no messages (the default everywhere);
//! - [`Threads`]: `R` ranks as threads of one process over channels, so the distributed schedule is
//!   tested in every build;
//! - `mpi_world::World` (feature `mpi`): the ranks of an MPI job (`mpirun -np R nimlab ...`).
//!
//! Messages between two ranks arrive in the order they were sent. Every rank of a cluster is assumed
//! to run the same build on the same kind of machine (words are sent in native byte order).

use std::cell::Cell;
use std::sync::mpsc::{channel, Receiver, Sender};

#[cfg(feature = "mpi")]
pub mod mpi_world;

/// What a message carries, for the traffic counts ([`Cluster::traffic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// Blocks of the previous diagonal that another rank reads (the boundary data).
    Boundary,
    /// P-lines sent to rank 0.
    Lines,
    /// Decisions (go, cancel, checkpoint now) and tables every rank needs (shorter SCN circles).
    Control,
    /// Blocks sent to rank 0 for a checkpoint, or from rank 0 when resuming.
    Checkpoint,
}

/// Bytes this rank sent, by [`Topic`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traffic {
    pub boundary: u64,
    pub lines: u64,
    pub control: u64,
    pub checkpoint: u64,
}

impl Traffic {
    fn add(&mut self, topic: Topic, bytes: u64) {
        match topic {
            Topic::Boundary => self.boundary += bytes,
            Topic::Lines => self.lines += bytes,
            Topic::Control => self.control += bytes,
            Topic::Checkpoint => self.checkpoint += bytes,
        }
    }

    /// All bytes sent.
    pub fn total(&self) -> u64 {
        self.boundary + self.lines + self.control + self.checkpoint
    }

    fn to_bytes(self) -> Vec<u8> {
        [self.boundary, self.lines, self.control, self.checkpoint]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect()
    }

    fn from_bytes(b: &[u8]) -> Traffic {
        let w = |i: usize| {
            b.get(8 * i..8 * i + 8)
                .map_or(0, |s| u64::from_le_bytes(s.try_into().expect("8 bytes")))
        };
        Traffic {
            boundary: w(0),
            lines: w(1),
            control: w(2),
            checkpoint: w(3),
        }
    }
}

/// The ranks of a computation, seen from one of them.
pub trait Cluster {
    /// This rank, `0..size()`; rank 0 writes the output.
    fn rank(&self) -> usize;

    /// The number of ranks.
    fn size(&self) -> usize;

    /// Sends every message of `out` (to its rank) without waiting, then receives one message from
    /// each rank of `from`, in that order, and returns them; returns once every send has completed.
    /// A rank never sends to itself.
    fn exchange(&self, topic: Topic, out: &[(usize, &[u8])], from: &[usize]) -> Vec<Vec<u8>>;

    /// Bytes this rank has sent so far.
    fn traffic(&self) -> Traffic;

    /// Ends every rank of the computation at once with exit status `code`, for an error on one
    /// rank that the others cannot learn of (they would wait for it forever). Does nothing where
    /// the ranks are not separate processes.
    fn abort(&self, code: i32) {
        let _ = code;
    }

    /// A short name for messages ("1 process", "3 MPI ranks").
    fn describe(&self) -> String {
        match self.size() {
            1 => "1 rank".into(),
            n => format!("{n} ranks"),
        }
    }

    /// True on rank 0.
    fn is_root(&self) -> bool {
        self.rank() == 0
    }

    /// Rank 0's `data`, on every rank (the argument is ignored elsewhere).
    fn broadcast(&self, topic: Topic, data: Vec<u8>) -> Vec<u8> {
        if self.size() == 1 {
            return data;
        }
        if self.is_root() {
            let out: Vec<(usize, &[u8])> = (1..self.size()).map(|q| (q, &data[..])).collect();
            self.exchange(topic, &out, &[]);
            data
        } else {
            self.exchange(topic, &[], &[0]).pop().unwrap_or_default()
        }
    }

    /// Every rank's `data`, in rank order, on rank 0 (empty elsewhere).
    fn gather(&self, topic: Topic, data: Vec<u8>) -> Vec<Vec<u8>> {
        if self.is_root() {
            let from: Vec<usize> = (1..self.size()).collect();
            let mut all = vec![data];
            all.extend(self.exchange(topic, &[], &from));
            all
        } else {
            self.exchange(topic, &[(0, &data[..])], &[]);
            Vec::new()
        }
    }

    /// The bitwise or of every rank's `flags`, on every rank.
    fn any(&self, flags: u8) -> u8 {
        if self.size() == 1 {
            return flags;
        }
        let all = self.gather(Topic::Control, vec![flags]);
        let or = all.iter().flatten().fold(0u8, |a, &b| a | b);
        self.broadcast(Topic::Control, vec![or])
            .first()
            .copied()
            .unwrap_or(0)
    }

    /// Every rank's [`Cluster::traffic`], in rank order, on rank 0 (empty elsewhere).
    fn all_traffic(&self) -> Vec<Traffic> {
        let mine = self.traffic().to_bytes();
        self.gather(Topic::Control, mine)
            .iter()
            .map(|b| Traffic::from_bytes(b))
            .collect()
    }
}

/// One process: rank 0 of 1.
#[derive(Debug, Default, Clone, Copy)]
pub struct Solo;

impl Cluster for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn exchange(&self, _: Topic, out: &[(usize, &[u8])], from: &[usize]) -> Vec<Vec<u8>> {
        assert!(
            out.is_empty() && from.is_empty(),
            "a single process has no one to talk to"
        );
        Vec::new()
    }
    fn traffic(&self) -> Traffic {
        Traffic::default()
    }
}

/// One rank of `R` threads of this process, joined by channels (see [`Threads::run`]).
pub struct Threads {
    rank: usize,
    to: Vec<Sender<Vec<u8>>>,
    from: Vec<Receiver<Vec<u8>>>,
    sent: Cell<Traffic>,
}

impl Threads {
    /// Runs `f` on `ranks` threads, each with its own rank; returns their results in rank order.
    pub fn run<T: Send>(ranks: usize, f: impl Fn(&Threads) -> T + Sync) -> Vec<T> {
        assert!(ranks >= 1);
        // channels[i][j]: from rank i to rank j.
        let mut senders: Vec<Vec<Option<Sender<Vec<u8>>>>> =
            (0..ranks).map(|_| vec![None; ranks]).collect();
        let mut receivers: Vec<Vec<Option<Receiver<Vec<u8>>>>> = (0..ranks)
            .map(|_| (0..ranks).map(|_| None).collect())
            .collect();
        for (i, row) in senders.iter_mut().enumerate() {
            for (j, s) in row.iter_mut().enumerate() {
                let (tx, rx) = channel();
                *s = Some(tx);
                receivers[j][i] = Some(rx);
            }
        }
        let nodes: Vec<Threads> = senders
            .into_iter()
            .zip(receivers)
            .enumerate()
            .map(|(rank, (to, from))| Threads {
                rank,
                to: to.into_iter().map(|s| s.expect("made above")).collect(),
                from: from.into_iter().map(|r| r.expect("made above")).collect(),
                sent: Cell::new(Traffic::default()),
            })
            .collect();
        let f = &f;
        std::thread::scope(|s| {
            let handles: Vec<_> = nodes
                .into_iter()
                .map(|node| s.spawn(move || f(&node)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a rank thread panicked"))
                .collect()
        })
    }
}

impl Cluster for Threads {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.to.len()
    }
    fn exchange(&self, topic: Topic, out: &[(usize, &[u8])], from: &[usize]) -> Vec<Vec<u8>> {
        let mut t = self.sent.get();
        for &(q, m) in out {
            assert_ne!(q, self.rank, "a rank never sends to itself");
            t.add(topic, m.len() as u64);
            // A closed channel means the other rank ended (its thread panicked); the join reports it.
            let _ = self.to[q].send(m.to_vec());
        }
        self.sent.set(t);
        from.iter()
            .map(|&q| {
                self.from[q].recv().unwrap_or_else(|_| {
                    panic!(
                        "rank {q} ended before sending what rank {} waits for",
                        self.rank
                    )
                })
            })
            .collect()
    }
    fn traffic(&self) -> Traffic {
        self.sent.get()
    }
    fn describe(&self) -> String {
        format!("{} threads as ranks", self.size())
    }
}

/// The words of `w` as bytes (native order), without copying.
pub fn words_as_bytes(w: &[u64]) -> &[u8] {
    // SAFETY: u8 has alignment 1 and every byte of a u64 is initialised.
    unsafe { std::slice::from_raw_parts(w.as_ptr().cast::<u8>(), std::mem::size_of_val(w)) }
}

/// The bytes of 16-bit values, in this machine's byte order (every rank runs on the same kind).
pub fn halves_as_bytes(h: &[u16]) -> &[u8] {
    // SAFETY: u8 has alignment 1 and every byte of a u16 is initialised.
    unsafe { std::slice::from_raw_parts(h.as_ptr().cast::<u8>(), std::mem::size_of_val(h)) }
}

/// Fills `h` from bytes written by [`halves_as_bytes`]; false when the lengths differ.
pub fn bytes_into_halves(b: &[u8], h: &mut [u16]) -> bool {
    if b.len() != h.len() * 2 {
        return false;
    }
    for (x, c) in h.iter_mut().zip(b.chunks_exact(2)) {
        *x = u16::from_ne_bytes(c.try_into().expect("2 bytes"));
    }
    true
}

/// Fills `w` from bytes written by [`words_as_bytes`]; false when the lengths differ.
pub fn bytes_into_words(b: &[u8], w: &mut [u64]) -> bool {
    if b.len() != w.len() * 8 {
        return false;
    }
    for (x, c) in w.iter_mut().zip(b.chunks_exact(8)) {
        *x = u64::from_ne_bytes(c.try_into().expect("8 bytes"));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_exchange_in_order_and_count_bytes() {
        let got = Threads::run(3, |c| {
            let me = c.rank() as u8;
            // Everyone sends two messages to the next rank, in order, and receives from the previous.
            let next = (c.rank() + 1) % 3;
            let prev = (c.rank() + 2) % 3;
            let a = [me, 1];
            let b = [me, 2, 2];
            let r = c.exchange(Topic::Boundary, &[(next, &a), (next, &b)], &[prev, prev]);
            let or = c.any(1 << me);
            let g = c.gather(Topic::Lines, vec![me * 10]);
            let bc = c.broadcast(Topic::Control, vec![me + 7]);
            (r, or, g, bc, c.traffic())
        });
        for (rank, (r, or, g, bc, t)) in got.iter().enumerate() {
            let prev = ((rank + 2) % 3) as u8;
            assert_eq!(r, &vec![vec![prev, 1], vec![prev, 2, 2]]);
            assert_eq!(*or, 0b111);
            assert_eq!(bc, &vec![7]);
            assert_eq!(t.boundary, 5);
            if rank == 0 {
                assert_eq!(g, &vec![vec![0], vec![10], vec![20]]);
            } else {
                assert!(g.is_empty());
                assert_eq!(t.lines, 1);
            }
        }
    }

    #[test]
    fn words_round_trip_through_bytes() {
        let w = [1u64, u64::MAX, 0x0102_0304_0506_0708];
        let mut back = [0u64; 3];
        assert!(bytes_into_words(words_as_bytes(&w), &mut back));
        assert_eq!(back, w);
        assert!(!bytes_into_words(&[0u8; 7], &mut back));
    }
}
