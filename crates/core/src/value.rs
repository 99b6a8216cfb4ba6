//! Play conventions and the values of a position.

use std::fmt;

/// The play convention: in normal play the player who cannot move loses, in misère play they win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Play {
    Normal,
    Misere,
}

impl Play {
    pub fn from_misere(misere: bool) -> Play {
        if misere {
            Play::Misere
        } else {
            Play::Normal
        }
    }
    /// The name used in JSON output: `normal` or `misere`.
    pub fn name(self) -> &'static str {
        match self {
            Play::Normal => "normal",
            Play::Misere => "misere",
        }
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Outcome class of a position: `P` (the previous player, who just moved, wins) or `N` (the next
/// player, who is to move, wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    P,
    N,
}

impl Outcome {
    pub fn is_p(self) -> bool {
        self == Outcome::P
    }
    pub fn from_is_p(is_p: bool) -> Outcome {
        if is_p {
            Outcome::P
        } else {
            Outcome::N
        }
    }
    /// The outcome in words, from the point of view of the player to move.
    pub fn in_words(self) -> &'static str {
        match self {
            Outcome::P => "the player to move loses with perfect play (P-position)",
            Outcome::N => "the player to move wins with perfect play (N-position)",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::P => "P",
            Outcome::N => "N",
        })
    }
}

/// The minimum excludant: the least non-negative integer not in `values`.
pub fn mex(values: &mut Vec<u64>) -> u64 {
    values.sort_unstable();
    values.dedup();
    let mut m = 0;
    for &v in values.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn mex_small_cases() {
        assert_eq!(mex(&mut vec![]), 0);
        assert_eq!(mex(&mut vec![1, 2]), 0);
        assert_eq!(mex(&mut vec![0, 2, 1, 4]), 3);
        assert_eq!(mex(&mut vec![0, 0, 1, 1]), 2);
    }
}
