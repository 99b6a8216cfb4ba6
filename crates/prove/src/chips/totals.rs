//! The redistribution games (EABO, ER, SER, EJR) read through their set of P-totals, and the chip
//! families file that states it.
//!
//! **Why the set of totals decides everything.** In a redistribution game with k boxes a move keeps
//! a set K of boxes whose size the game allows, with total n = Σ_{i∈K} x_i ≥ k, and redistributes
//! those n chips over the k boxes, each box getting at least one chip. Every partition of n into k
//! positive parts is such a redistribution, so the options reached by keeping K are exactly the
//! positions of total n (as multisets). Let T be the set of totals n ≥ k of the P-positions (in
//! misère play, of the misère P-positions). Then:
//!
//! - a position x with a move has a P-option exactly when some allowed kept set has its total in T:
//!   the options of kept total n are all the positions of total n, and one of them is P exactly when
//!   n ∈ T (by the definition of T);
//! - so, in normal play, x is P exactly when no allowed kept set of x has its total in T (a terminal
//!   position has no kept set of total ≥ k, and it is P);
//! - in misère play a terminal position is N (the player to move has won), and a non-terminal
//!   position is P exactly when none of its options is P: x is P exactly when x is not terminal and
//!   no allowed kept set has its total in T.
//!
//! So the P-set is a function of T alone, and T can be computed total by total: n ∈ T exactly when
//! some partition y of n into k positive parts satisfies the criterion above, and every kept total
//! of y is below n (a move discards at least one box, which holds a chip).
//!
//! [`Totals`] is an ultimately periodic T (finite exceptions below a threshold, residues modulo a
//! period from it on); [`claim`] turns it into the [`ChipClaim`] "no allowed kept set has its total
//! in T", a formula of the relation language ([`Totals::formula`]: "n ∈ T", read on the boxes'
//! residues modulo the period); [`parse`] and [`render`] read and
//! write the chip families file (documented in the README, section on families files).

use super::queries::{call, declare_x};
use super::registry::{boxes, modulo, num, rel, slot};
use super::{ChipClaim, ChipGame, ChipKind, ChipSet, Moves};
use crate::expr::{Cmp, Expr, Formula};
use nimlab_core::{Error, Play, Result};
use nimlab_games::Redistribute;
use std::fmt::Write;

/// The largest threshold and period a claim takes: (II)'s witnesses are searched for each total
/// below the threshold and each residue of the period.
pub const MAX_THRESHOLD: u64 = 2000;
/// See [`MAX_THRESHOLD`].
pub const MAX_PERIOD: u64 = 2000;

/// An ultimately periodic set of totals: the `exceptions` (its members below `threshold`) and, from
/// `threshold` on, every n with `n mod period` in `residues`. Only totals n ≥ k count (a move keeps
/// at least k chips), so membership also asks n ≥ k.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    pub threshold: u64,
    pub period: u64,
    /// Sorted residues of n modulo `period`, each below it.
    pub residues: Vec<u64>,
    /// Sorted members below `threshold`.
    pub exceptions: Vec<u64>,
}

impl Totals {
    /// Whether total `n` is in the set (of a game with `k` boxes).
    pub fn contains(&self, k: usize, n: u128) -> bool {
        if n < k as u128 {
            return false;
        }
        if n < u128::from(self.threshold) {
            return u64::try_from(n).is_ok_and(|n| self.exceptions.binary_search(&n).is_ok());
        }
        let r = n % u128::from(self.period.max(1));
        u64::try_from(r).is_ok_and(|r| self.residues.binary_search(&r).is_ok())
    }

    /// Checks the description (a period of at least 1, residues below it, exceptions from k to
    /// below the threshold) and sorts its lists; `Err` says what is wrong in one line.
    pub fn normalize(&mut self, k: usize) -> std::result::Result<(), String> {
        if self.period == 0 {
            return Err("the period must be at least 1".into());
        }
        self.residues.sort_unstable();
        self.residues.dedup();
        self.exceptions.sort_unstable();
        self.exceptions.dedup();
        if let Some(r) = self.residues.iter().find(|&&r| r >= self.period) {
            return Err(format!(
                "residue {r} is not below the period {}",
                self.period
            ));
        }
        if let Some(e) = self
            .exceptions
            .iter()
            .find(|&&e| e >= self.threshold || e < k as u64)
        {
            return Err(format!(
                "exception {e} is not between k = {k} and below the threshold {}",
                self.threshold
            ));
        }
        Ok(())
    }

    /// The set in words: `T = {5, 7} ∪ {n ≥ 10 : n ≡ 1, 3 (mod 4)}`.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if !self.exceptions.is_empty() {
            parts.push(format!(
                "{{{}}}",
                self.exceptions
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if self.residues.len() as u64 == self.period {
            parts.push(format!("{{n ≥ {}}}", self.threshold));
        } else if !self.residues.is_empty() {
            parts.push(format!(
                "{{n ≥ {} : n ≡ {} (mod {})}}",
                self.threshold,
                self.residues
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                self.period
            ));
        }
        if parts.is_empty() {
            "T = ∅".into()
        } else {
            format!("T = {}", parts.join(" ∪ "))
        }
    }

    /// "n ∈ T" as a formula (of a game with `k` boxes), where `m` is any term congruent to n modulo
    /// the period (the sum of the boxes' residues: the queries then decide the set on residues, see
    /// `hint` in the chip prover).
    pub fn formula(&self, k: usize, n: &Expr, m: &Expr) -> Formula {
        let mut cases: Vec<Formula> = self
            .exceptions
            .iter()
            .map(|&e| rel(n.clone(), Cmp::Eq, num(e)))
            .collect();
        if !self.residues.is_empty() {
            cases.push(Formula::And(vec![
                rel(n.clone(), Cmp::Ge, num(self.threshold)),
                Formula::Or(
                    self.residues
                        .iter()
                        .map(|&r| rel(modulo(m.clone(), self.period), Cmp::Eq, num(r)))
                        .collect(),
                ),
            ]));
        }
        Formula::And(vec![
            rel(n.clone(), Cmp::Ge, num(k as u64)),
            Formula::Or(cases),
        ])
    }

    /// "n ∈ T" for the total n of the boxes `kept` (slots), read on their residues modulo the
    /// period.
    pub(super) fn holds_on(&self, k: usize, kept: &[usize]) -> Formula {
        let m = Expr::Sum(
            kept.iter()
                .map(|&i| (1, modulo(slot(i), self.period)))
                .collect(),
        );
        self.formula(k, &boxes(kept.iter().copied()), &m)
    }
}

/// The chip families file: a game, a play convention and its set of P-totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChipFamilies {
    pub game: String,
    pub play: Play,
    pub totals: Totals,
}

/// The chip families file of `game` (its id), with `note` as comment lines at its head.
pub fn render(game: &str, play: Play, t: &Totals, note: &[String]) -> String {
    let mut out = format!(
        "# nimlab chip families file: the P-positions of {game}, {} play.\n# A position is P exactly when no set of boxes a move may keep has its total in T{}.\n# {}\n",
        play.name(),
        if play == Play::Misere {
            ", and it is not terminal"
        } else {
            ""
        },
        t.words()
    );
    for line in note {
        let _ = writeln!(out, "# {line}");
    }
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    let _ = write!(
        out,
        "game = {game}\nplay = {}\nthreshold = {}\nperiod = {}\nresidues = {}\nexceptions = {}\n",
        play.name(),
        t.threshold,
        t.period,
        list(&t.residues),
        list(&t.exceptions)
    );
    out
}

/// Reads a chip families file (`name`: the file's name in messages). Every error is one line that
/// names the line.
pub fn parse(text: &str, name: &str) -> Result<ChipFamilies> {
    let bad = |line: usize, what: String| Error::Unsupported(format!("{name} line {line}: {what}"));
    let mut game = None;
    let mut play = None;
    let mut threshold = None;
    let mut period = None;
    let mut residues = None;
    let mut exceptions = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let Some((key, value)) = content.split_once('=') else {
            return Err(bad(
                line,
                format!("expected KEY = VALUE, found '{content}'"),
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        let number = |v: &str| -> Result<u64> {
            if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad(line, format!("'{v}' is not a whole number")));
            }
            v.parse::<u64>()
                .map_err(|_| bad(line, format!("{v} is too large (the most is 2^64 - 1)")))
        };
        let numbers = |v: &str| -> Result<Vec<u64>> {
            v.split([' ', ',', '\t'])
                .filter(|s| !s.is_empty())
                .map(number)
                .collect()
        };
        let slot_taken = |taken: bool| -> Result<()> {
            if taken {
                Err(bad(line, format!("{key} is given twice")))
            } else {
                Ok(())
            }
        };
        match key {
            "game" => {
                slot_taken(game.is_some())?;
                if value.is_empty() {
                    return Err(bad(line, "the game is empty".into()));
                }
                game = Some(value.to_string());
            }
            "play" => {
                slot_taken(play.is_some())?;
                play = Some(match value {
                    "normal" => Play::Normal,
                    "misere" | "misère" => Play::Misere,
                    _ => {
                        return Err(bad(
                            line,
                            format!("play is normal or misere, not '{value}'"),
                        ))
                    }
                });
            }
            "threshold" => {
                slot_taken(threshold.is_some())?;
                threshold = Some(number(value)?);
            }
            "period" => {
                slot_taken(period.is_some())?;
                period = Some(number(value)?);
            }
            "residues" => {
                slot_taken(residues.is_some())?;
                residues = Some(numbers(value)?);
            }
            "exceptions" => {
                slot_taken(exceptions.is_some())?;
                exceptions = Some(numbers(value)?);
            }
            _ => {
                return Err(bad(
                    line,
                    format!("unknown key '{key}' (the keys are game, play, threshold, period, residues, exceptions)"),
                ))
            }
        }
    }
    let missing = |what: &str| {
        Error::Unsupported(format!(
            "{name}: no '{what} = ...' line (a chip families file gives game, play, threshold, period, residues and exceptions)"
        ))
    };
    Ok(ChipFamilies {
        game: game.ok_or_else(|| missing("game"))?,
        play: play.ok_or_else(|| missing("play"))?,
        totals: Totals {
            threshold: threshold.ok_or_else(|| missing("threshold"))?,
            period: period.ok_or_else(|| missing("period"))?,
            residues: residues.ok_or_else(|| missing("residues"))?,
            exceptions: exceptions.ok_or_else(|| missing("exceptions"))?,
        },
    })
}

/// Whether `text` looks like a chip families file (a `game = ` line with no TOML quotes).
pub fn looks_like_chip_file(text: &str) -> bool {
    text.lines()
        .any(|l| l.trim_start().starts_with("threshold") && l.contains('='))
}

/// A chip families file's text (`name` for the messages) read for `game`: refused in one line when
/// it is not one, does not parse, or is about another game. The caller checks its play.
pub fn read_file(text: &str, name: &str, game: &ChipGame) -> Result<ChipFamilies> {
    if !looks_like_chip_file(text) {
        return Err(Error::Unsupported(format!(
            "{name} is not a chip families file (lines game = ..., play = ..., threshold = ..., period = ..., residues = ..., exceptions = ...; `nimlab discover '{}' --out FILE` writes one)",
            game.id()
        )));
    }
    let file = parse(text, name)?;
    let file_game = nimlab_games::parse_game(&file.game)
        .map_err(|e| Error::Unsupported(format!("{name}: the game: {e}")))?
        .id();
    if file_game != game.id() {
        return Err(Error::Unsupported(format!(
            "{name} is about {file_game}, not {}",
            game.id()
        )));
    }
    Ok(file)
}

/// The claim "the P-set of `game_text` in `play` is the set of positions none of whose allowed kept
/// sets has its total in `t`" (misère: and not terminal), to prove with [`super::prove_chips`].
pub fn claim(game_text: &str, play: Play, t: &Totals, source: String) -> Result<ChipClaim> {
    let game = ChipGame::parse(game_text)?.ok_or_else(|| {
        Error::Unsupported(format!("{game_text} is not one of Ferguson's chip games"))
    })?;
    let Some(g) = game.game.downcast_ref::<Redistribute>().copied() else {
        return Err(Error::Unsupported(format!(
            "{}: a set of P-totals describes the redistribution games EABO, ER, SER and EJR only",
            game.id()
        )));
    };
    let k = game.k;
    let mut t = t.clone();
    t.normalize(k)
        .map_err(|e| Error::Unsupported(format!("{}: {e}", game.id())))?;
    if t.threshold > MAX_THRESHOLD || t.period > MAX_PERIOD {
        return Err(Error::Unsupported(format!(
            "{}: the prover takes a threshold and a period of at most {MAX_THRESHOLD} (given {} and {})",
            game.id(),
            t.threshold,
            t.period
        )));
    }
    debug_assert!(matches!(game.moves, Moves::Redistribute(_)));
    let kept_sets = game.kept_sets();
    let mut parts: Vec<Formula> = kept_sets.iter().map(|kept| !t.holds_on(k, kept)).collect();
    if play == Play::Misere {
        // Not terminal: some kept set holds at least k chips.
        parts.push(Formula::Or(
            kept_sets
                .iter()
                .map(|kept| rel(boxes(kept.iter().copied()), Cmp::Ge, num(k as u64)))
                .collect(),
        ));
    }
    let period = t.period;
    let exact_t_copy = t.clone();
    let exact_t = t;
    let exact: super::Exact = Box::new(move |p: &[u64]| {
        let kept = g.kept_totals(p);
        (play == Play::Normal || !kept.is_empty()) && kept.iter().all(|&n| !exact_t.contains(k, n))
    });
    Ok(ChipClaim {
        game,
        play,
        kind: ChipKind::PSet,
        source,
        set: ChipSet {
            member: Some(Formula::And(parts)),
            exact,
            period,
            residues: true,
        },
        target: None,
        bits: None,
        totals: Some(exact_t_copy),
    })
}

/// The lemma tried first for (I) of a claim read from T: "a member x whose total is not in T" (its
/// query `Ia`). Unsatisfiable, it proves (I): if x is a member and y a member option of x, y's total
/// is the total of an allowed kept set of x, and it is in T by the lemma, so x is not a member.
pub(crate) fn lemma_i(c: &ChipClaim, t: &Totals) -> super::ChipQuery {
    let k = c.game.k;
    let mut text = c.set.define("member", k);
    let x = declare_x(c, &mut text, true);
    let all: Vec<usize> = (0..k).collect();
    let outside = !t.holds_on(k, &all);
    let (member, outside) = if c.set.hint_period() > 1 {
        let r: Vec<String> = x.iter().map(|v| format!("{v}_r")).collect();
        (c.set.of(&x, Some(&r)), c.set.write(&outside, &x, Some(&r)))
    } else {
        (call("member", &x), c.set.write(&outside, &x, None))
    };
    let _ = writeln!(text, "(assert {member})\n(assert {outside})");
    super::ChipQuery {
        condition: nimlab_core::partition::Condition::I,
        label: "Ia",
        vars: x,
        quantified: false,
        bv: false,
        states: "a member x whose total is not in T (unsat proves (I): a member's option of total n in T is never a member's)".into(),
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_round_trips_and_bad_lines_are_named() {
        let t = Totals {
            threshold: 10,
            period: 4,
            residues: vec![1, 3],
            exceptions: vec![5, 7],
        };
        let text = render("EJR(4,2)", Play::Misere, &t, &["a note".into()]);
        let back = parse(&text, "f").unwrap();
        assert_eq!(back.game, "EJR(4,2)");
        assert_eq!(back.play, Play::Misere);
        assert_eq!(back.totals, t);
        assert!(looks_like_chip_file(&text));
        let big = text.replace("period = 4", "period = 99999999999999999999");
        let e = parse(&big, "f").unwrap_err().to_string();
        assert!(e.contains("line") && e.contains("too large"), "{e}");
        let e = parse("game = ER(3)\nwhat = 1\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f line 2: unknown key"), "{e}");
        let e = parse("game = ER(3)\n", "f").unwrap_err().to_string();
        assert!(e.contains("no 'play"), "{e}");
        assert!(t.contains(4, 5) && !t.contains(4, 6) && t.contains(4, 11) && !t.contains(4, 12));
        assert_eq!(t.words(), "T = {5, 7} ∪ {n ≥ 10 : n ≡ 1, 3 (mod 4)}");
    }
}
