//! Nim with any number of heaps: a move lowers one heap. Symmetry: any permutation of the heaps.
//! Every heap is an independent game, so [`Game::split`] separates them (Grundy values XOR).

use nimlab_core::{BoxDomain, Error, Game, MoveStructure, Pos, Result, Rng, TableBound};
use std::ops::ControlFlow;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Nim;

/// Most heaps nimlab accepts in a Nim or Moore's Nim position.
pub const MAX_HEAPS: usize = 64;

pub(crate) fn validate_heaps(id: &str, p: &[u64]) -> Result<()> {
    if p.len() > MAX_HEAPS {
        return Err(Error::BadPosition(format!(
            "{id}: at most {MAX_HEAPS} heaps, got {}",
            p.len()
        )));
    }
    Ok(())
}

pub(crate) fn heaps_domain(id: &str, hi: u64, len: Option<usize>) -> Result<BoxDomain> {
    let Some(m) = len else {
        return Err(Error::refused(
            nimlab_core::Refusal::new(format!(
                "{id} takes any number of heaps: give the number to tabulate with "
            ))
            .given(nimlab_core::Arg::Heaps),
        ));
    };
    if m == 0 || m > MAX_HEAPS {
        return Err(Error::refused(
            nimlab_core::Refusal::new("")
                .name(nimlab_core::Arg::Heaps)
                .text(format!(" must be between 1 and {MAX_HEAPS}")),
        ));
    }
    Ok(BoxDomain {
        lengths: vec![m],
        lo: 0,
        hi,
    })
}

pub(crate) fn sorted(p: &[u64]) -> Pos {
    let mut q = p.to_vec();
    q.sort_unstable();
    q
}

impl Game for Nim {
    fn id(&self) -> String {
        "nim".into()
    }
    fn validate(&self, p: &[u64]) -> Result<()> {
        validate_heaps("nim", p)
    }
    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        let mut buf = p.to_vec();
        for i in 0..p.len() {
            for v in (0..p[i]).rev() {
                buf[i] = v;
                if f(&buf).is_break() {
                    return Ok(());
                }
            }
            buf[i] = p[i];
        }
        Ok(())
    }
    fn move_structure(&self, len: usize) -> Option<MoveStructure> {
        Some(MoveStructure::Faces((0..len).map(|i| vec![i]).collect()))
    }
    fn table_bound(&self) -> TableBound {
        TableBound::Box { heaps: true }
    }
    fn random_position(&self, rng: &mut Rng, hi: u64) -> Option<Pos> {
        let len = rng.range(3, 4) as usize;
        Some((0..len).map(|_| rng.range(1, hi.max(1))).collect())
    }
    fn canonical(&self, p: &[u64]) -> Pos {
        sorted(p)
    }
    fn split(&self, p: &[u64]) -> Option<Vec<Pos>> {
        let heaps: Vec<Pos> = p.iter().filter(|&&a| a > 0).map(|&a| vec![a]).collect();
        (heaps.len() >= 2 || (heaps.len() == 1 && p.len() > 1)).then_some(heaps)
    }
    fn branching_bound(&self, p: &[u64]) -> f64 {
        p.iter().map(|&a| a as f64).sum()
    }
    fn table_domain(&self, hi: u64, len: Option<usize>) -> Result<BoxDomain> {
        heaps_domain("nim", hi, len)
    }
    fn rules(&self) -> String {
        "Heaps of tokens; a move takes any number of tokens from one heap.".into()
    }
}
