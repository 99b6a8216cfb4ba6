//! Moves on a window of stacks (lower any of them, at least one token in all), shared by Circular Nim,
//! Shrinking Circular Nim and the simplicial-complex games.

use nimlab_core::{Error, Result};
use std::ops::ControlFlow;

/// Checks that a position of the game `id` played on `n` stacks has exactly `n` entries.
pub fn check_stacks(id: &str, n: usize, p: &[u64]) -> Result<()> {
    if p.len() != n {
        return Err(Error::BadPosition(format!(
            "{id} needs exactly {n} stacks, got {}",
            p.len()
        )));
    }
    Ok(())
}

/// Calls `f` with every position obtained from `p` by lowering the stacks at `idx` (distinct indices),
/// with at least one token removed in total. With `first_strict`, the stack `idx[0]` must be lowered;
/// this generates each move of a circle once from the window that starts at its first lowered stack.
/// `buf` must have the length of `p`; `f` sees it filled with the option.
pub fn for_each_lowering(
    p: &[u64],
    idx: &[usize],
    first_strict: bool,
    buf: &mut [u64],
    f: &mut dyn FnMut(&mut [u64]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    buf.copy_from_slice(p);
    if first_strict {
        if p[idx[0]] == 0 {
            return ControlFlow::Continue(());
        }
        buf[idx[0]] -= 1;
    }
    // `buf` now holds the first candidate; enumerate the others like an odometer, the last index
    // turning fastest. A candidate equal to `p` (possible only without `first_strict`) is skipped.
    loop {
        if first_strict || buf != p {
            f(buf)?;
        }
        let mut j = idx.len();
        loop {
            if j == 0 {
                return ControlFlow::Continue(());
            }
            j -= 1;
            let i = idx[j];
            if buf[i] > 0 {
                buf[i] -= 1;
                break;
            }
            // Wrap this digit back to its start and carry into the previous one.
            buf[i] = if first_strict && j == 0 {
                p[i] - 1
            } else {
                p[i]
            };
        }
    }
}

/// Number of positions reachable by lowering the stacks at `idx`, plus one (an upper bound on options).
pub fn window_product(p: &[u64], idx: &[usize]) -> f64 {
    idx.iter().map(|&i| p[i] as f64 + 1.0).product()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn enumerates_every_lowering_once() {
        let p = [2u64, 1, 3];
        let mut buf = [0u64; 3];
        let mut seen = Vec::new();
        let _ = for_each_lowering(&p, &[0, 1], false, &mut buf, &mut |q| {
            seen.push(q.to_vec());
            ControlFlow::Continue(())
        });
        // (a,b) with a <= 2, b <= 1, not both unchanged: 3*2 - 1 = 5 options.
        assert_eq!(seen.len(), 5);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 5);
        assert!(seen.iter().all(|q| q[2] == 3));
        let mut strict = Vec::new();
        let _ = for_each_lowering(&p, &[0, 1], true, &mut buf, &mut |q| {
            strict.push(q.to_vec());
            ControlFlow::Continue(())
        });
        // First stack lowered by 1 or 2, second anything: 2*2 = 4.
        assert_eq!(strict.len(), 4);
        assert!(strict.iter().all(|q| q[0] < 2));
    }
}
