//! `nimlab sequence`: the Grundy values of single heaps 0..=N of an octal, hexadecimal or
//! subtraction game or of Grundy's game (computed by the mex over each heap's options, or by the
//! sparse-space method for games that split a heap in two; not by search), the period and
//! preperiod seen, whether the period is proved for every heap size (Guy–Smith, or a repeated
//! window for games that never split a heap; see docs/rules.md), and the rare values.

use crate::args::Common;
use clap::Args;
use nimlab_core::{Error, Game};
use nimlab_games::octal::{Method, OctalGame, Periodicity, Ran, MAX_SEQUENCE};
use nimlab_games::sparse::{choose_mask, rare_heaps};
use serde_json::json;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct SequenceArgs {
    /// A one-heap game, e.g. octal(0.07), octal(4.7), octal(0.F), subtraction(1,3,4), grundy.
    pub game: String,
    /// The largest heap: values of heaps 0..=N.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max: u64,
    /// Print every value (text; JSON always holds them all).
    #[arg(long)]
    pub values: bool,
    /// How to compute the values: sparse (the sparse-space method; games whose moves split a heap
    /// into two), plain (the mex over every option), auto (sparse where it applies).
    #[arg(long, value_name = "plain|sparse|auto", default_value = "auto")]
    pub method: String,
    /// The sparse-space mask (a number; 0x.. and 0b.. accepted); chosen from the values when not
    /// given. The values are exact for any mask; only the time depends on it.
    #[arg(long, value_name = "M")]
    pub mask: Option<String>,
    #[command(flatten)]
    pub common: Common,
}

/// Runs `nimlab sequence`.
pub fn run(args: &SequenceArgs) -> Result<(), Error> {
    let boxed = nimlab_games::parse_game(&args.game)?;
    let Some(game) = boxed.downcast_ref::<OctalGame>() else {
        return Err(Error::Unsupported(format!(
            "sequence takes a one-heap game, octal(CODE), subtraction(S) or grundy; {} is not one",
            boxed.id()
        )));
    };
    let max = args.max;
    if max > MAX_SEQUENCE {
        return Err(Error::TooLarge(format!(
            "--max {max} would hold {} MiB of values; at most --max {MAX_SEQUENCE} (1024 MiB)",
            OctalGame::sequence_bytes(max) >> 20
        )));
    }
    if let Some(avail) = available_memory() {
        let need = OctalGame::sequence_bytes(max);
        if need > avail {
            return Err(Error::TooLarge(format!(
                "--max {max} would hold {} MiB of values, and this machine has {} MiB available; lower --max",
                need >> 20,
                avail >> 20
            )));
        }
    }
    let method = Method::parse(&args.method)?;
    let mask = args.mask.as_deref().map(parse_mask).transpose()?;
    if method == Method::Sparse {
        if let Some(why) = game.sparse_refusal() {
            return Err(Error::Unsupported(why));
        }
    }
    let sparse = match method {
        Method::Plain => false,
        Method::Sparse => true,
        Method::Auto => game.sparse_refusal().is_none(),
    };
    if mask.is_some() && !sparse {
        return Err(Error::Unsupported(format!(
            "--mask is for the sparse-space method, and {} runs the plain mex here (--method sparse needs a game that splits a heap into two)",
            game.id()
        )));
    }
    let work = game.sequence_work(max);
    if !sparse && work > args.common.limit {
        return Err(Error::TooLarge(format!(
            "{} up to --max {max} visits about {work:.1e} options (over --limit {:.1e}); lower --max or pass --limit {}",
            game.id(),
            args.common.limit,
            nimlab_core::solver::limit_above(work)
        )));
    }
    let start = Instant::now();
    let cancel = crate::interrupt::cancel_flag();
    let limit = args.common.limit;
    let seq = nimlab_core::interrupt::scope(cancel, || game.sequence_by(max, method, mask, limit))?;
    let seconds = start.elapsed().as_secs_f64();
    let g = seq.values;
    let per = game.periodicity(&g);
    // Rare values: for games whose moves leave at most two heaps, with the run's mask (else the
    // mask chosen from all the values).
    let rare_mask = match &seq.ran {
        Ran::Sparse(r) => Some(r.mask),
        Ran::Plain => (game.most_parts() == 2).then(|| choose_mask(&g)),
    };
    let rare = rare_mask.map(|m| (m, rare_heaps(&g, m)));
    let (largest, largest_at) =
        g.iter().enumerate().fold(
            (0u32, 0usize),
            |(b, at), (n, &v)| if v > b { (v, n) } else { (b, at) },
        );
    if args.common.json {
        crate::output::print_json(&json!({
            "game": game.id(),
            "name": game.common_name(),
            "code": game.code(),
            "t": game.t(),
            "splits": game.splits(),
            "max": max,
            "method": method_json(&seq.ran),
            "largest": {"value": largest, "at": largest_at},
            "rare": rare.as_ref().map(|(m, heaps)| json!({
                "mask": m,
                "count": heaps.len(),
                "last": heaps.last(),
                "heaps": heaps.iter().map(|&n| json!([n, g[n as usize]])).collect::<Vec<_>>(),
            })),
            "values": g,
            "periodicity": per.as_ref().map(periodicity_json),
            "seconds": seconds,
        }));
        return Ok(());
    }
    let name = game
        .common_name()
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    println!(
        "{}{name}: Grundy values of single heaps 0..={max} ({seconds:.3} s)",
        game.id()
    );
    println!(
        "method: {}",
        describe_method(&seq.ran, rare.as_ref().map_or(0, |(_, h)| h.len()))
    );
    println!("largest value: {largest} (first at n = {largest_at})");
    if let Some((m, heaps)) = &rare {
        let shown: Vec<String> = heaps
            .iter()
            .take(40)
            .map(|&n| format!("{n}:{}", g[n as usize]))
            .collect();
        println!(
            "rare values (popcount(g & {m:#b}) even): {} of {} heaps; last at n = {}; n:g(n) {}{}",
            heaps.len(),
            g.len(),
            heaps.last().map_or("none".into(), u64::to_string),
            shown.join(" "),
            if heaps.len() > shown.len() {
                " ... (--json lists them all)"
            } else {
                ""
            }
        );
    }
    match &per {
        Some(p) => println!("{}", describe(game, p)),
        None => println!("no period found up to n = {max} (evidence)"),
    }
    let show = |label: &str, from: usize, to: usize| {
        if from < to {
            println!("{label} (n = {from}..{}): {}", to - 1, list(&g[from..to]));
        }
    };
    if args.values {
        show("values", 0, g.len());
    } else if let Some(p) = per.as_ref().filter(|p| p.saltus == 0) {
        let pre = p.preperiod as usize;
        show("preperiod", 0, pre);
        show("period", pre, pre + p.period as usize);
    } else {
        let end = g.len().min(100);
        show("values", 0, end);
        if end < g.len() {
            println!("(--values prints all {} values)", g.len());
        }
    }
    Ok(())
}

/// The free memory the kernel reports (MemAvailable), if it can be read.
fn available_memory() -> Option<u128> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u128 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// A mask as typed: decimal, 0x.. or 0b...
fn parse_mask(text: &str) -> Result<u32, Error> {
    let t = text.trim().to_ascii_lowercase();
    let parsed = if let Some(h) = t.strip_prefix("0x") {
        u32::from_str_radix(h, 16)
    } else if let Some(b) = t.strip_prefix("0b") {
        u32::from_str_radix(b, 2)
    } else {
        t.parse::<u32>()
    };
    parsed.map_err(|_| {
        Error::Unsupported(format!(
            "--mask '{text}' is not a number below 2^32 (decimal, 0x.. or 0b..)"
        ))
    })
}

/// The method that ran, in words.
fn describe_method(ran: &Ran, rare: usize) -> String {
    match ran {
        Ran::Plain => "plain mex".into(),
        Ran::Sparse(r) => {
            let how = if r.mask_given {
                "given"
            } else {
                "chosen from the values"
            };
            match r.plain_from {
                None => format!(
                    "sparse space (mask {:#b} = {}, {rare} rare values; mask {how}; {} option values visited)",
                    r.mask, r.mask, r.visits
                ),
                Some(from) => format!(
                    "sparse space (mask {:#b} = {}, mask {how}) up to n = {}, then plain mex (the rare values were not rare: {rare} rare values); {} option values visited",
                    r.mask,
                    r.mask,
                    from - 1,
                    r.visits
                ),
            }
        }
    }
}

fn method_json(ran: &Ran) -> serde_json::Value {
    match ran {
        Ran::Plain => json!({"name": "plain"}),
        Ran::Sparse(r) => json!({
            "name": "sparse",
            "mask": r.mask,
            "mask_given": r.mask_given,
            "mask_from": r.mask_from,
            "plain_from": r.plain_from,
            "visits": r.visits,
        }),
    }
}

fn list(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

/// One line: the period, from where, and whether it is proved.
fn describe(game: &OctalGame, p: &Periodicity) -> String {
    let last = if p.preperiod > 0 {
        format!("; last exceptional value at n = {}", p.preperiod - 1)
    } else {
        String::new()
    };
    let what = if p.saltus == 0 {
        format!("period {} from n = {}{last}", p.period, p.preperiod)
    } else {
        format!(
            "arithmetic period {} with saltus {} (g(n+{}) = g(n) + {}) from n = {}",
            p.period, p.saltus, p.period, p.saltus, p.preperiod
        )
    };
    match (p.proof, p.proof_needs) {
        (Some(proof), _) => format!(
            "{what}: proved periodic ({}; checked up to n = {})",
            proof.name(),
            game.proof_needs(proof, p.preperiod, p.period)
                .unwrap_or(p.preperiod + p.period)
        ),
        (None, Some(need)) => format!(
            "{what}: period seen in the computed prefix (evidence); a proof needs --max {need}"
        ),
        (None, None) => format!("{what}: period seen in the computed prefix (evidence)"),
    }
}

fn periodicity_json(p: &Periodicity) -> serde_json::Value {
    json!({
        "preperiod": p.preperiod,
        "period": p.period,
        "saltus": p.saltus,
        "last_exceptional": p.preperiod.checked_sub(1),
        "status": if p.proof.is_some() { "proved" } else { "evidence" },
        "proof": p.proof.map(|x| x.id()),
        "proof_needs_max": p.proof_needs,
    })
}
