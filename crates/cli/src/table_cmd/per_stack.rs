//! `table --max 3,4,5,30,30`: the P-positions of a box with one bound per stack, by the line engine.
//! Such a box is a down-set (a move never raises a stack), so its P-positions are those of any
//! larger box that contain them; it is not closed under the game's symmetries, so every ordered
//! P-position is listed, and the table is neither stored nor checkpointed.

use super::{format_of, parse_fix_in, Backend, MethodArg, TableArgs};
use nimlab_core::{Error, Hooks, Play};
use nimlab_tables::sink::SinkFormat;
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// The values `--max` takes: one bound for every stack, or one per stack (`3,4,5,30,30`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaxArg {
    One(u64),
    PerStack(Vec<u64>),
}

impl MaxArg {
    /// The one bound, when `--max` gave one.
    pub fn one(&self) -> Option<u64> {
        match self {
            MaxArg::One(h) => Some(*h),
            MaxArg::PerStack(_) => None,
        }
    }
}

/// Parses `--max H` or `--max H1,H2,...`.
pub fn parse_max(text: &str) -> Result<MaxArg, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("'{t}' is not a whole number from 0 to {}", u64::MAX))
    };
    if !text.contains(',') {
        return number(text).map(MaxArg::One);
    }
    text.split(',')
        .map(number)
        .collect::<Result<Vec<u64>, String>>()
        .map(MaxArg::PerStack)
}

/// `table --fix` when the whole box is too large (`refused`): a move never raises a stack, so the
/// slice's P-positions are those of the box below it (each fixed stack at most its value, the others
/// at most `--max`), which the engine tabulates when it covers the game; else `refused` stands.
pub fn below_the_slice(a: &TableArgs, refused: Error) -> Result<ExitCode, Error> {
    let one = a.max.as_ref().and_then(MaxArg::one);
    let (Some(max), true, false, false) = (
        one,
        refused.is_too_large() && !a.fix.is_empty(),
        a.grundy || a.count_only || a.remoteness,
        a.resume || a.restart,
    ) else {
        return Err(refused);
    };
    let Ok(game) = nimlab_games::parse_game(&a.game) else {
        return Err(refused);
    };
    let Ok(d) = game.table_domain(max, a.heaps) else {
        return Err(refused);
    };
    let (width, lo) = (d.lengths.iter().copied().max().unwrap_or(0), d.lo);
    let Ok(fix) = parse_fix_in(&a.fix, width, lo, max) else {
        return Err(refused);
    };
    let tops: Vec<u64> = (0..width)
        .map(|i| fix.iter().find(|f| f.0 == i).map_or(max, |f| f.1))
        .collect();
    if lo != 0 || nimlab_tables::pset::bytes_below(game.as_ref(), &tops, 1).is_none() {
        return Err(refused);
    }
    eprintln!(
        "nimlab: the whole box is too large ({}), so the slice comes from the box below it",
        refused.render(&nimlab_core::arg::CommandLine)
    );
    run(a, &tops)
}

/// Runs `table` on the box below `tops`.
pub fn run(a: &TableArgs, tops: &[u64]) -> Result<ExitCode, Error> {
    let refuse = |what: &str| {
        Err(Error::Unsupported(format!(
            "--max with one bound per stack lists the P-positions of that box by the engine; {what}"
        )))
    };
    if a.grundy {
        return refuse(
            "--grundy is not taken there (Grundy values of a slice: --fix on a box with one bound)",
        );
    }
    if a.remoteness || a.count_only {
        return refuse("--remoteness and --count-only are not taken there");
    }
    if a.resume || a.restart {
        return refuse("such tables are not checkpointed: leave out --resume and --restart");
    }
    if a.max_sum.is_some() {
        return refuse("--max-sum bounds chip games, which have no stacks to bound one by one");
    }
    if a.method == MethodArg::Naive || matches!(a.backend, Backend::Gpu | Backend::Mpi) {
        return refuse("the plain search, the GPU and MPI ranks are not taken there");
    }
    if a.heaps.is_some_and(|h| h != tops.len()) {
        return refuse(&format!(
            "it gives {} bounds, so --heaps {} contradicts it",
            tops.len(),
            a.heaps.unwrap_or(0)
        ));
    }
    let format = format_of(a)?;
    let game = nimlab_games::parse_game(&a.game)?;
    let play = Play::from_misere(a.misere);
    let hi = tops.iter().copied().max().unwrap_or(0);
    let fix = parse_fix_in(&a.fix, tops.len(), 0, hi)?;
    if let Some(&(i, v)) = fix.iter().find(|&&(i, v)| v > tops[i]) {
        return Err(Error::Unsupported(format!(
            "--fix {}={v}: stack {} is at most {} in this box",
            i + 1,
            i + 1,
            tops[i]
        )));
    }
    if let Ok(d) = game.table_domain(hi, None) {
        if let [w] = d.lengths[..] {
            if w != tops.len() {
                return Err(Error::Unsupported(format!(
                    "{} has {w} stacks, so --max takes {w} bounds (or one for every stack), not {}",
                    game.id(),
                    tops.len()
                )));
            }
        }
    }
    let size: f64 = tops.iter().map(|&t| t as f64 + 1.0).product();
    if size > a.common.limit {
        return Err(Error::TooLarge(format!(
            "the box holds about {size:.1e} positions, more than --limit {:.1e}",
            a.common.limit
        )));
    }
    let threads = rayon::current_num_threads();
    let uncovered = || {
        Error::Unsupported(format!(
            "the engine takes boxes with one bound per stack for its window games (CN, Nim, Moore's Nim, complexes) with {} stacks (values up to 65534), not {} here",
            tops.len(),
            game.id()
        ))
    };
    let bytes =
        nimlab_tables::pset::bytes_below(game.as_ref(), tops, threads).ok_or_else(uncovered)?;
    let allowed = nimlab_tables::memory_allowed();
    if bytes > allowed {
        return Err(Error::TooLarge(format!(
            "the engine would keep about {:.1} GiB for this box, more than the {:.1} GiB allowed",
            bytes / (1u64 << 30) as f64,
            allowed / (1u64 << 30) as f64
        )));
    }
    let cancel = crate::interrupt::cancel_flag();
    let start = Instant::now();
    let mut found: Vec<Vec<u64>> = Vec::new();
    let keeps = |p: &[u64]| fix.iter().all(|&(i, v)| p[i] == v);
    let mut count = 0u64;
    nimlab_tables::pset::every_p_position_below(
        game.as_ref(),
        tops,
        play,
        Hooks::new(Some(&cancel), None),
        &mut |p| {
            count += 1;
            if keeps(p) {
                found.push(p.to_vec());
            }
        },
    )
    .ok_or_else(uncovered)?
    .map_err(|_| Error::Interrupted)?;
    found.sort_unstable();
    let seconds = start.elapsed().as_secs_f64();
    let shape = tops
        .iter()
        .map(|t| format!("[0..{t}]"))
        .collect::<Vec<_>>()
        .join("x");
    let listed = if fix.is_empty() {
        "every ordered P-position (a box with one bound per stack is not closed under the game's symmetries)".to_string()
    } else {
        format!(
            "the {} ordered P-positions with {}",
            found.len(),
            fixed_text(&fix)
        )
    };
    let head = format!(
        "{}, {} play, the box {shape}: {size} positions; P-positions: {count} ordered tuples by the engine, complete ({seconds:.3} s)",
        game.id(),
        play.name()
    );
    let m = tops.len();
    let written = crate::output::write_out(a.output.as_deref(), |out| {
        write(out, format, &head, &listed, &found, m, || {
            json!({
                "game": game.id(),
                "play": play.name(),
                "max": tops,
                "positions_in_box": size,
                "count": count,
                "listed": if fix.is_empty() { "ordered" } else { "slice" },
                "method": "engine",
                "complete": true,
                "seconds": seconds,
                "positions": found,
            })
        })
    })?;
    if format.lists_rows() {
        eprintln!("{head}");
    }
    if let (Some(rows), Some(path)) = (written, &a.output) {
        eprintln!("nimlab: wrote {rows} positions to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn fixed_text(fix: &[(usize, u64)]) -> String {
    fix.iter()
        .map(|(i, v)| format!("p{} = {v}", i + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes the positions in `format`; returns how many.
fn write(
    out: &mut dyn Write,
    format: SinkFormat,
    head: &str,
    listed: &str,
    found: &[Vec<u64>],
    m: usize,
    as_json: impl FnOnce() -> serde_json::Value,
) -> std::io::Result<usize> {
    let joined = |p: &[u64], sep: &str| {
        p.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(sep)
    };
    match format {
        SinkFormat::Text => {
            writeln!(out, "{head}")?;
            writeln!(out, "listed: {listed}")?;
            for p in found {
                writeln!(out, "({})", joined(p, ","))?;
            }
        }
        SinkFormat::Csv => {
            let names: Vec<String> = (1..=m).map(|i| format!("p{i}")).collect();
            writeln!(out, "{}", names.join(","))?;
            for p in found {
                writeln!(out, "{}", joined(p, ","))?;
            }
        }
        SinkFormat::Jsonl => {
            for p in found {
                writeln!(out, "[{}]", joined(p, ","))?;
            }
        }
        SinkFormat::Json => writeln!(out, "{}", as_json())?,
    }
    Ok(found.len())
}
