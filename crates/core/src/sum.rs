//! Disjunctive sums of games: a move is a move in exactly one component.
//!
//! [`SumGame`] is itself a [`Game`], so every solver works on it (misère play and remoteness of a sum
//! are found by searching the sum). A position of the sum is encoded as the components' positions one
//! after the other, each preceded by its length; [`SumGame::encode`] and [`SumGame::decode`] convert.

use crate::error::{Error, Result};
use crate::game::{Game, Pos};
use std::ops::ControlFlow;

pub struct SumGame {
    parts: Vec<Box<dyn Game>>,
}

impl SumGame {
    pub fn new(parts: Vec<Box<dyn Game>>) -> Result<SumGame> {
        if parts.is_empty() {
            return Err(Error::BadGame("a sum needs at least one component".into()));
        }
        Ok(SumGame { parts })
    }

    pub fn parts(&self) -> &[Box<dyn Game>] {
        &self.parts
    }

    /// The sum position made of the components' positions.
    pub fn encode(positions: &[Pos]) -> Pos {
        let mut out = Vec::new();
        for p in positions {
            out.push(p.len() as u64);
            out.extend_from_slice(p);
        }
        out
    }

    /// The components' positions of a sum position (`None` when `p` is not a valid encoding).
    pub fn decode(&self, p: &[u64]) -> Option<Vec<Pos>> {
        let mut out = Vec::with_capacity(self.parts.len());
        let mut i = 0usize;
        for _ in 0..self.parts.len() {
            // A length past the end (even one near 2^64) is no encoding: checked, never wrapped.
            let len = usize::try_from(*p.get(i)?).ok()?;
            let end = (i + 1).checked_add(len)?;
            let part = p.get(i + 1..end)?;
            out.push(part.to_vec());
            i = end;
        }
        (i == p.len()).then_some(out)
    }

    fn parts_of(&self, p: &[u64]) -> Vec<Pos> {
        self.decode(p)
            .expect("a sum position encoded by SumGame::encode")
    }
}

impl Game for SumGame {
    fn id(&self) -> String {
        self.parts
            .iter()
            .map(|g| g.id())
            .collect::<Vec<_>>()
            .join(" + ")
    }
    fn validate(&self, p: &[u64]) -> Result<()> {
        let parts = self
            .decode(p)
            .ok_or_else(|| Error::BadPosition("not a position of this sum".into()))?;
        for (g, q) in self.parts.iter().zip(&parts) {
            g.validate(q)?;
        }
        Ok(())
    }
    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        let parts = self.parts_of(p);
        let mut cur = parts.clone();
        for (i, g) in self.parts.iter().enumerate() {
            let mut flow = ControlFlow::Continue(());
            g.for_each_option(&parts[i], &mut |q| {
                cur[i] = q.to_vec();
                flow = f(&SumGame::encode(&cur));
                flow
            })?;
            cur[i] = parts[i].clone();
            if flow.is_break() {
                break;
            }
        }
        Ok(())
    }
    fn canonical(&self, p: &[u64]) -> Pos {
        let parts = self.parts_of(p);
        let canon: Vec<Pos> = self
            .parts
            .iter()
            .zip(&parts)
            .map(|(g, q)| g.canonical(q))
            .collect();
        SumGame::encode(&canon)
    }
    fn state_bound(&self, p: &[u64]) -> f64 {
        let parts = self.parts_of(p);
        self.parts
            .iter()
            .zip(&parts)
            .map(|(g, q)| g.state_bound(q))
            .product()
    }
    fn branching_bound(&self, p: &[u64]) -> f64 {
        let parts = self.parts_of(p);
        self.parts
            .iter()
            .zip(&parts)
            .map(|(g, q)| g.branching_bound(q))
            .sum()
    }
    fn format_position(&self, p: &[u64]) -> String {
        match self.decode(p) {
            Some(parts) => self
                .parts
                .iter()
                .zip(&parts)
                .map(|(g, q)| format!("{}{}", g.id(), g.format_position(q)))
                .collect::<Vec<_>>()
                .join(" + "),
            None => crate::position::format_tuple(p),
        }
    }
    fn rules(&self) -> String {
        "A disjunctive sum: each move is made in exactly one component.".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-heap game for the encoding test (any game would do).
    struct Heap;
    impl Game for Heap {
        fn id(&self) -> String {
            "heap".into()
        }
        fn validate(&self, _p: &[u64]) -> Result<()> {
            Ok(())
        }
        fn for_each_option(
            &self,
            _p: &[u64],
            _f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
        ) -> Result<()> {
            Ok(())
        }
    }

    #[test]
    fn decoding_refuses_lengths_past_the_end_without_wrapping() {
        let g = SumGame::new(vec![Box::new(Heap), Box::new(Heap)]).unwrap();
        let p = SumGame::encode(&[vec![3], vec![4, 5]]);
        assert_eq!(g.decode(&p), Some(vec![vec![3], vec![4, 5]]));
        for bad in [vec![u64::MAX, 1], vec![1, 3, u64::MAX - 1, 4], vec![2, 3]] {
            assert_eq!(g.decode(&bad), None, "{bad:?}");
        }
    }
}
