//! `nimlab sequence`: the Grundy values of single heaps 0..=N of an octal, hexadecimal or
//! subtraction game or of Grundy's game (computed by the mex over each heap's options, or by the
//! sparse-space method for games that split a heap in two; not by search), the period and
//! preperiod seen, whether the period is proved for every heap size (Guy–Smith, or a repeated
//! window for games that never split a heap; see docs/rules.md), and the rare values.
//!
//! The values are kept in the store ([`nimlab_analysis::kept_sequence`]): a run extends the stored
//! prefix of its game instead of starting over, a shorter request is answered from it at once,
//! and a long run saves its prefix every few seconds and when Ctrl-C stops it (marked not
//! complete), so that the same command (or `--resume`) continues it; `--restart` discards it.

use crate::args::Common;
use crate::store_cmd::StoreArgs;
use clap::Args;
use nimlab_analysis::kept_sequence::{compute_kept, Resume};
use nimlab_analysis::sequence;
use nimlab_core::arg::CommandLine;
use nimlab_core::{Error, Game};
use nimlab_games::octal::{Method, OctalGame};
use std::process::ExitCode;

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
    /// Continue from the values kept in the store (an error when there are none). A plain rerun of
    /// the same command continues from them as well.
    #[arg(long, conflicts_with = "restart")]
    pub resume: bool,
    /// Discard the values of this game kept in the store, and compute from heap 0.
    #[arg(long)]
    pub restart: bool,
    #[command(flatten)]
    pub store: StoreArgs,
    #[command(flatten)]
    pub common: Common,
}

/// The store for `sequence`, refusing `--resume`/`--restart` without one.
fn open_store(args: &SequenceArgs) -> Result<Option<nimlab_tables::store::Store>, Error> {
    let flag = if args.resume {
        Some("--resume")
    } else if args.restart {
        Some("--restart")
    } else {
        None
    };
    match flag {
        Some(f) if args.store.no_store => Err(Error::Unsupported(format!(
            "{f} works on the values kept in the store; it does not combine with --no-store"
        ))),
        Some(f) => args.store.require(f).map(Some),
        None => args.store.open(),
    }
}

/// Runs `nimlab sequence`; exit status 130 when Ctrl-C stopped it (after saying what is kept).
pub fn run(args: &SequenceArgs) -> Result<ExitCode, Error> {
    let game = sequence::one_heap(&args.game)?;
    let max = args.max;
    let req = sequence::Request {
        max,
        method: Method::parse(&args.method)?,
        mask: args.mask.as_deref().map(parse_mask).transpose()?,
        limit: args.common.limit,
    };
    if req.mask.is_some() {
        let sparse = match req.method {
            Method::Plain => false,
            Method::Sparse => true,
            Method::Auto => game.sparse_refusal().is_none(),
        };
        if !sparse {
            return Err(Error::Unsupported(format!(
                "--mask is for the sparse-space method, and {} runs the plain mex here (--method sparse needs a game that splits a heap into two)",
                game.id()
            )));
        }
    }
    if max > nimlab_games::octal::MAX_SEQUENCE {
        // Refused at once; the plain mex's visits are checked once the stored prefix is known.
        sequence::check(&game, &req)?;
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
    let mut db = open_store(args)?;
    let resume = if args.resume {
        Resume::Require
    } else if args.restart {
        Resume::Restart
    } else {
        Resume::Auto
    };
    let cancel = crate::interrupt::cancel_flag();
    let kept =
        nimlab_core::interrupt::scope(cancel, || compute_kept(&game, &req, db.as_mut(), resume));
    let kept = match kept {
        Err(Error::Interrupted) => {
            let n = db
                .as_ref()
                .and_then(|s| s.sequence(&game.sequence_key()).ok().flatten())
                .map(|e| e.n);
            match n {
                Some(n) => eprintln!(
                    "nimlab: interrupted at n = {n} of {max}; g(0..={n}) is kept in the store (not complete): run the same command again (or with --resume) to continue"
                ),
                None => eprintln!("nimlab: interrupted; no values are kept (no store)"),
            }
            return Ok(ExitCode::from(130));
        }
        k => k?,
    };
    if let Some(e) = &kept.store_error {
        eprintln!("nimlab: the values were not all stored: {e}");
    }
    let s = kept.values;
    if args.common.json {
        crate::output::print_json(&s.to_json());
        return Ok(ExitCode::SUCCESS);
    }
    let g = &s.values;
    let name = game
        .common_name()
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    println!(
        "{}{name}: Grundy values of single heaps 0..={max} ({:.3} s)",
        game.id(),
        s.seconds
    );
    match (&s.ran, s.origin_words()) {
        (None, Some(w)) => println!("{w}"),
        (_, Some(w)) => println!("method: {}; {w}", s.method_words()),
        (_, None) => println!("method: {}", s.method_words()),
    }
    let (largest, largest_at) = s.largest;
    println!("largest value: {largest} (first at n = {largest_at})");
    if let Some((m, heaps)) = &s.rare {
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
    println!("{}", s.period_words(&CommandLine));
    let show = |label: &str, from: usize, to: usize| {
        if from < to {
            println!("{label} (n = {from}..{}): {}", to - 1, list(&g[from..to]));
        }
    };
    if args.values {
        show("values", 0, g.len());
    } else if let Some(p) = s.periodicity.as_ref().filter(|p| p.saltus == 0) {
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
    Ok(ExitCode::SUCCESS)
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

fn list(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}
