//! The ranks of an MPI job (feature `mpi`), through the system's MPI library and the `mpi` crate.

use super::{Cluster, Topic, Traffic};
use ::mpi::environment::Universe;
use ::mpi::topology::SimpleCommunicator;
use ::mpi::traits::*;
use ::mpi::Threading;
use std::cell::Cell;

/// Messages go in pieces of at most this many bytes (MPI counts are 32-bit); a message ends with a
/// piece shorter than this (possibly empty).
const PIECE: usize = 1 << 30;

/// This process's rank in `MPI_COMM_WORLD`. MPI is initialised by [`World::init`] and finalised when
/// the value is dropped; only the thread that initialised it sends messages.
pub struct World {
    world: SimpleCommunicator,
    sent: Cell<Traffic>,
    // Dropped last: finalises MPI.
    _universe: Universe,
}

impl World {
    /// Initialises MPI (a process started without `mpirun` is rank 0 of 1).
    pub fn init() -> Result<World, String> {
        let (universe, _level) = ::mpi::initialize_with_threading(Threading::Funneled)
            .ok_or_else(|| "MPI was already initialised in this process".to_string())?;
        Ok(World {
            world: universe.world(),
            sent: Cell::new(Traffic::default()),
            _universe: universe,
        })
    }
}

impl Cluster for World {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn exchange(&self, topic: Topic, out: &[(usize, &[u8])], from: &[usize]) -> Vec<Vec<u8>> {
        let mut t = self.sent.get();
        // Every message as its pieces; the empty piece that ends a message of a multiple of PIECE.
        let mut pieces: Vec<(usize, &[u8])> = Vec::new();
        for &(q, m) in out {
            assert_ne!(q, self.rank(), "a rank never sends to itself");
            t.add(topic, m.len() as u64);
            pieces.extend(m.chunks(PIECE).map(|c| (q, c)));
            if m.len() % PIECE == 0 {
                pieces.push((q, &[]));
            }
        }
        self.sent.set(t);
        ::mpi::request::scope(|scope| {
            let sends: Vec<_> = pieces
                .iter()
                .map(|&(q, c)| {
                    self.world
                        .process_at_rank(q as i32)
                        .immediate_send(scope, c)
                })
                .collect();
            let got = from
                .iter()
                .map(|&q| {
                    let p = self.world.process_at_rank(q as i32);
                    let mut msg = Vec::new();
                    loop {
                        let (piece, _) = p.receive_vec::<u8>();
                        let last = piece.len() < PIECE;
                        msg.extend_from_slice(&piece);
                        if last {
                            break msg;
                        }
                    }
                })
                .collect();
            for s in sends {
                s.wait();
            }
            got
        })
    }

    fn traffic(&self) -> Traffic {
        self.sent.get()
    }

    fn describe(&self) -> String {
        match self.size() {
            1 => "1 MPI rank".into(),
            n => format!("{n} MPI ranks"),
        }
    }

    fn abort(&self, code: i32) {
        if self.size() > 1 {
            self.world.abort(code);
        }
    }

    fn any(&self, flags: u8) -> u8 {
        let mut or = 0u8;
        self.world.all_reduce_into(
            &flags,
            &mut or,
            ::mpi::collective::SystemOperation::bitwise_or(),
        );
        or
    }
}
