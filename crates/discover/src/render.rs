//! The text of a [`Discovery`], as `nimlab discover` prints it: the method, the verdict with the
//! description and the box it equals the P-set (or T) on, and the file or the description itself.

use crate::{Discovery, DiscoveryVerdict};
use nimlab_core::arg::CommandLine;
use nimlab_core::Play;
use nimlab_prove::chips::ChipGame;
use nimlab_prove::CharacterizationFormat;

impl Discovery {
    /// The answer in words, several lines ending in a newline (the store's id when it was saved).
    pub fn text(&self) -> String {
        let chip = ChipGame::parse(&self.game).ok().flatten();
        let mut out = match &chip {
            Some(c) if self.totals.is_some() || crate::chip_automaton::covered(c).is_none() => {
                chips_text(self, c)
            }
            Some(_) => transfer_text(self),
            None => stacks_text(self),
        };
        if let Some(id) = self.saved {
            out.push_str(&format!(
                "saved in the store as characterization #{id} (proved:{id}): outcome, moves and explain answer from it\n"
            ));
        }
        out
    }
}

/// The text of discover on ET(3) or ENTROPY(3): the automaton route.
fn transfer_text(d: &Discovery) -> String {
    let file = d.file.as_deref();
    let boxed = d
        .box_max
        .map(|h| format!("[{}..{h}]^3", d.box_min))
        .unwrap_or_else(|| "-".into());
    let what = format!(
        "the positions the automaton below accepts ({} states{})",
        d.states.unwrap_or(0),
        d.rule
            .as_deref()
            .map(|r| format!("; the P-positions are those where {r}"))
            .unwrap_or_default()
    );
    let mut out = String::from(
        "method: an exact table of the box (search); an automaton learned from its boxes 2^b and checked on the whole box; proved for every box size by automata (the P-set is the set of positions with no option in it)\n",
    );
    out.push_str(&match d.verdict {
        DiscoveryVerdict::Proved => format!(
            "{}: proved for every box size: {what} (equal to the P-set on the box {boxed}) ({:.2} s)\n",
            d.game, d.seconds
        ),
        DiscoveryVerdict::Conjecture => format!(
            "{}: conjecture: {what} (equal to the P-set on the box {boxed}); not proved: {} ({:.2} s)\n",
            d.game,
            d.reason_spelled(&CommandLine).as_deref().unwrap_or("-"),
            d.seconds
        ),
        DiscoveryVerdict::None => format!(
            "{}: none: {} ({:.2} s)\n",
            d.game,
            d.reason_spelled(&CommandLine).as_deref().unwrap_or("no automaton found"),
            d.seconds
        ),
    });
    if let Some(c) = &d.counterexample {
        out.push_str(&format!(
            "counterexample (re-checked on the exact table): {c}\n"
        ));
    }
    match (file, d.walnut.as_ref()) {
        (Some(f), _) => out.push_str(&format!("wrote the automaton to {f} (Walnut's format)\n")),
        (None, Some(t)) => out.push_str(t),
        _ => {}
    }
    out
}

fn chips_text(d: &Discovery, chip: &ChipGame) -> String {
    let file = d.file.as_deref();
    let game = if d.play == Play::Misere {
        format!("{} (misère play)", d.game)
    } else {
        d.game.clone()
    };
    let boxed = d
        .box_max
        .map(|s| format!("the totals {}..{s}", d.box_min))
        .unwrap_or_else(|| "-".into());
    let what = d
        .totals
        .as_ref()
        .map(|t| crate::chips::criterion(chip, d.play, t))
        .unwrap_or_default();
    let mut out = String::from(
        "method: T, the totals of the P-positions, computed exactly total by total; its simplest ultimately periodic description (two full periods and 2k totals observed); checked on a larger box, then as far as is cheap; proved by the SMT chip prover\n"
    );
    out.push_str(&match d.verdict {
        DiscoveryVerdict::Proved => format!(
            "{game}: proved for every box size: {what} (equal to T on {boxed}, proved by {}) ({:.2} s)\n",
            d.prover.unwrap_or("smt"),
            d.seconds
        ),
        DiscoveryVerdict::Conjecture => format!(
            "{game}: conjecture: {what} (equal to T on {boxed}); not proved: {} ({:.2} s)\n",
            d.reason_spelled(&CommandLine).as_deref().unwrap_or("-"),
            d.seconds
        ),
        DiscoveryVerdict::None => format!(
            "{game}: none: {} ({:.2} s)\n",
            d.reason_spelled(&CommandLine).as_deref().unwrap_or("no description found"),
            d.seconds
        ),
    });
    if let Some(c) = &d.totals_check {
        out.push_str(&c.text());
    }
    match (file, d.toml.as_ref()) {
        (Some(f), _) => out.push_str(&format!("wrote the chip families file {f}\n")),
        (None, Some(t)) => out.push_str(t),
        _ => {}
    }
    out
}

fn stacks_text(d: &Discovery) -> String {
    let file = d.file.as_deref();
    let boxed = d
        .box_max
        .map(|h| format!("[{}..{h}]", d.box_min))
        .unwrap_or_else(|| "-".into());
    let what = match d.states {
        Some(n) if d.format == CharacterizationFormat::Automaton && !d.lengths.is_empty() => {
            format!(
                "automata of {n} states in all (one per circle length: {})",
                d.lengths
                    .iter()
                    .map(|l| l.states().map_or("-".into(), |s| s.to_string()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        Some(n) if d.format == CharacterizationFormat::Automaton => {
            format!("automaton of {n} states")
        }
        _ => count(d.families.len()),
    };
    let game = if d.play == Play::Misere {
        format!("{} (misère play)", d.game)
    } else {
        d.game.clone()
    };
    let head = match d.verdict {
        DiscoveryVerdict::Proved => format!(
            "{game}: proved for every stack size: the P-positions are the {what} below (equal to the P-set on the box {boxed}, proved by {}) ({:.2} s)",
            d.prover.unwrap_or("smt"),
            d.seconds
        ),
        DiscoveryVerdict::Conjecture => format!(
            "{game}: conjecture: the {what} below equal the P-set on the box {boxed}; not proved: {} ({:.2} s)",
            d.reason_spelled(&CommandLine).as_deref().unwrap_or("-"),
            d.seconds
        ),
        DiscoveryVerdict::None => format!(
            "{game}: none: {} ({:.2} s)",
            d.reason_spelled(&CommandLine).as_deref().unwrap_or("no description found"),
            d.seconds
        ),
    };
    let mut out = head + "\n";
    if let Some(r) = &d.rule {
        out.push_str(&format!("rule: {r} (checked against the automaton)\n"));
    }
    let kind = if d.format == CharacterizationFormat::Automaton {
        "automaton (Walnut's format)"
    } else {
        "families file"
    };
    match (file, d.toml.as_ref().or(d.walnut.as_ref())) {
        (Some(f), _) => out.push_str(&format!("wrote the {kind} {f}\n")),
        (None, Some(t)) => out.push_str(t),
        _ => {}
    }
    out
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 family".into()
    } else {
        format!("{n} families")
    }
}
