//! `nimlab atlas`: every code of a family of octal games (`0.dd`, `0.ddd`, `4.d`, `4.dd`) computed
//! to N heaps as `nimlab sequence` computes one (the sparse-space method where it applies, else the
//! plain mex), one row per code: its period and preperiod, last exceptional value, largest value,
//! whether the period is proved, and the method. The codes run in parallel (rayon); the total work
//! is estimated up front with the plain mex's count of option visits, an upper bound.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use nimlab_core::{Budget, Error};
use nimlab_games::octal::{Method, OctalGame, Periodicity, Ran, MAX_SEQUENCE};
use rayon::prelude::*;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct AtlasArgs {
    /// The family: 0.dd (every two-digit octal code 0.d1d2), 0.ddd (three digits), 4.d or 4.dd
    /// (d_0 = 4: a heap may also be split in two without removing a token).
    pub family: String,
    /// The largest heap: every code's values of heaps 0..=N.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max: u64,
    /// text (an aligned table), csv (with a header) or json (an array of objects).
    #[arg(long, value_name = "text|csv|json", default_value = "text")]
    pub format: String,
    /// Write the atlas to FILE instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Most estimated option visits, all codes together (the plain mex's count), before the
    /// atlas is refused.
    #[arg(long, default_value_t = Budget::default().limit, value_name = "N")]
    pub limit: f64,
}

/// The codes of a family, in order: digits after the point run over 0..=7, the code without
/// any move left out (`0.0`; `4.0` has moves, a heap split in two).
pub fn family_codes(family: &str) -> Result<Vec<String>, Error> {
    let (head, digits) = match family.trim() {
        "0.dd" | ".dd" => ("0", 2),
        "0.ddd" | ".ddd" => ("0", 3),
        "4.d" => ("4", 1),
        "4.dd" => ("4", 2),
        other => {
            return Err(Error::Unsupported(format!(
                "atlas family '{other}': give 0.dd, 0.ddd, 4.d or 4.dd"
            )))
        }
    };
    let count = 8usize.pow(digits);
    let mut codes = Vec::with_capacity(count);
    for k in 0..count {
        let frac: String = (0..digits)
            .rev()
            .map(|i| char::from(b'0' + ((k >> (3 * i)) & 7) as u8))
            .collect();
        if head == "0" && k == 0 {
            continue;
        }
        codes.push(format!("{head}.{frac}"));
    }
    Ok(codes)
}

/// One code of the atlas.
#[derive(Debug, Clone)]
pub struct Row {
    /// The code as in the family (`0.70`, not the normalised `0.7`).
    pub code: String,
    pub name: Option<&'static str>,
    pub periodicity: Option<Periodicity>,
    pub largest: u32,
    pub method: String,
}

impl Row {
    fn status(&self) -> &'static str {
        match &self.periodicity {
            Some(p) if p.proof.is_some() => "proved",
            Some(_) => "evidence",
            None => "none",
        }
    }
    fn json(&self) -> Value {
        let p = self.periodicity.as_ref();
        json!({
            "code": self.code,
            "name": self.name,
            "period": p.map(|p| p.period),
            "saltus": p.map(|p| p.saltus),
            "preperiod": p.map(|p| p.preperiod),
            "last_exceptional": p.and_then(|p| p.preperiod.checked_sub(1)),
            "largest": self.largest,
            "status": self.status(),
            "proof_needs_max": p.and_then(|p| p.proof_needs),
            "method": self.method,
        })
    }
    /// The cells of the text and CSV tables, in the order of [`HEADER`].
    fn cells(&self, csv: bool) -> Vec<String> {
        let p = self.periodicity.as_ref();
        let opt =
            |v: Option<String>| v.unwrap_or_else(|| if csv { String::new() } else { "-".into() });
        vec![
            self.code.clone(),
            opt(self.name.map(str::to_string)),
            opt(p.map(|p| p.period.to_string())),
            opt(p.map(|p| p.saltus.to_string())),
            opt(p.map(|p| p.preperiod.to_string())),
            opt(p
                .and_then(|p| p.preperiod.checked_sub(1))
                .map(|v| v.to_string())),
            self.largest.to_string(),
            self.status().into(),
            self.method.clone(),
        ]
    }
}

const HEADER: [&str; 9] = [
    "code",
    "name",
    "period",
    "saltus",
    "preperiod",
    "last_exceptional",
    "largest",
    "status",
    "method",
];

/// Computes one code to `max`.
pub fn row(code: &str, max: u64, limit: f64) -> Result<Row, Error> {
    let game = OctalGame::octal(code)?;
    let seq = game.sequence_by(max, Method::Auto, None, limit)?;
    let largest = seq.values.iter().copied().max().unwrap_or(0);
    let periodicity = game.periodicity(&seq.values);
    let method = match &seq.ran {
        Ran::Plain => "plain".to_string(),
        Ran::Sparse(r) => match r.plain_from {
            None => format!("sparse (mask {})", r.mask),
            Some(from) => format!("sparse (mask {}), plain from {from}", r.mask),
        },
    };
    Ok(Row {
        code: code.to_string(),
        name: game.common_name(),
        periodicity,
        largest,
        method,
    })
}

/// Runs `nimlab atlas`.
pub fn run(args: &AtlasArgs) -> Result<(), Error> {
    let format = match args.format.trim().to_ascii_lowercase().as_str() {
        f @ ("text" | "csv" | "json") => f.to_string(),
        other => {
            return Err(Error::Unsupported(format!(
                "--format {other}: give text, csv or json"
            )))
        }
    };
    let codes = family_codes(&args.family)?;
    let max = args.max;
    if max > MAX_SEQUENCE {
        return Err(Error::TooLarge(format!(
            "--max {max}: at most {MAX_SEQUENCE} heaps a code"
        )));
    }
    let games: Vec<OctalGame> = codes
        .iter()
        .map(|c| OctalGame::octal(c))
        .collect::<Result<_, _>>()?;
    let work: f64 = games.iter().map(|g| g.sequence_work(max)).sum();
    if work > args.limit {
        return Err(Error::TooLarge(format!(
            "atlas {} up to --max {max}: {} codes visit about {work:.1e} options by the plain mex (over --limit {:.1e}); lower --max or pass --limit {}",
            args.family.trim(),
            codes.len(),
            args.limit,
            nimlab_core::solver::limit_above(work)
        )));
    }
    let cancel = crate::interrupt::cancel_flag();
    let start = Instant::now();
    let done = AtomicU64::new(0);
    let bar = ProgressBar::hidden();
    let shown = AtomicBool::new(false);
    let total = codes.len() as u64;
    let rows: Result<Vec<Row>, Error> = codes
        .par_iter()
        .map(|code| {
            if cancel.load(Ordering::Relaxed) {
                return Err(Error::Interrupted);
            }
            let r = nimlab_core::interrupt::scope(cancel.clone(), || row(code, max, args.limit))
                .map_err(|e| match e {
                    Error::Interrupted => e,
                    e => Error::Unsupported(format!("{code}: {e}")),
                });
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            if start.elapsed() > Duration::from_secs(1) {
                if !shown.swap(true, Ordering::Relaxed) {
                    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                    bar.set_style(
                        ProgressStyle::with_template(
                            "{bar:40} {pos}/{len} codes, {elapsed} (eta {eta})",
                        )
                        .unwrap(),
                    );
                    bar.set_length(total);
                }
                bar.set_position(d);
            }
            r
        })
        .collect();
    bar.finish_and_clear();
    let rows = rows?;
    let seconds = start.elapsed().as_secs_f64();
    let text = match format.as_str() {
        "json" => {
            let all: Vec<Value> = rows.iter().map(Row::json).collect();
            let mut s = serde_json::to_string(&Value::Array(all)).unwrap_or_default();
            s.push('\n');
            s
        }
        "csv" => {
            let mut s = HEADER.join(",");
            s.push('\n');
            for r in &rows {
                let cells: Vec<String> = r.cells(true).into_iter().map(|c| csv_cell(&c)).collect();
                s.push_str(&cells.join(","));
                s.push('\n');
            }
            s
        }
        _ => text_table(&args.family, max, &rows, seconds),
    };
    crate::output::write_out(args.output.as_deref(), |w| w.write_all(text.as_bytes()))?;
    if let Some(path) = &args.output {
        eprintln!(
            "nimlab: wrote {} ({} codes of {} to n = {max}, {seconds:.1} s)",
            path.display(),
            rows.len(),
            args.family.trim()
        );
    }
    Ok(())
}

fn csv_cell(c: &str) -> String {
    if c.contains([',', '"', '\n']) {
        format!("\"{}\"", c.replace('"', "\"\""))
    } else {
        c.to_string()
    }
}

/// The rows as an aligned table under a title line, with a count of each status after it.
fn text_table(family: &str, max: u64, rows: &[Row], seconds: f64) -> String {
    let cells: Vec<Vec<String>> = rows.iter().map(|r| r.cells(false)).collect();
    let mut width: Vec<usize> = HEADER.iter().map(|h| h.chars().count()).collect();
    for row in &cells {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |row: &[String]| -> String {
        let parts: Vec<String> = row
            .iter()
            .zip(&width)
            .enumerate()
            .map(|(i, (c, &w))| {
                let pad = w - c.chars().count();
                // Numbers to the right, words to the left.
                if (2..=6).contains(&i) {
                    format!("{}{c}", " ".repeat(pad))
                } else {
                    format!("{c}{}", " ".repeat(pad))
                }
            })
            .collect();
        parts.join("  ").trim_end().to_string()
    };
    let mut s = format!(
        "atlas {}: {} codes, Grundy values of single heaps 0..={max} ({seconds:.1} s)\n",
        family.trim(),
        rows.len()
    );
    let header: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
    s.push_str(&line(&header));
    s.push('\n');
    for row in &cells {
        s.push_str(&line(row));
        s.push('\n');
    }
    let count = |st: &str| rows.iter().filter(|r| r.status() == st).count();
    s.push_str(&format!(
        "{} proved periodic, {} periodic on the evidence of n <= {max} only, {} with no period up to n = {max}\n",
        count("proved"),
        count("evidence"),
        count("none")
    ));
    s
}
