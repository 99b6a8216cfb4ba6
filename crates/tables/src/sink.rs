//! Writing a table: one writer for every front end and format, streamed row by row.
//!
//! - `Text`: a summary, then one position per line in the game's notation (chip games in Ferguson's
//!   multiplicative notation), with its value where there is one;
//! - `Json`: one object; the counts first, the positions (or values) last, streamed;
//! - `Csv`: a header row, then one row per position: the entries `p1..pn` (positions of several
//!   lengths, as SCN's circles, start with their `length` and leave the missing entries empty, so the
//!   empty circle is `0,,,`), then `grundy` or `remoteness,suspense` when asked;
//! - `Jsonl`: one JSON value per line: a position, or an object with its values.

use crate::plan::{Answer, Domain, Plan, Solved, TableKind};
use nimlab_core::{Game, Pos};
use nimlab_games::chip;
use serde_json::{json, Value};
use std::io::{self, Write};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinkFormat {
    Text,
    Json,
    Csv,
    Jsonl,
}

impl SinkFormat {
    /// True for the formats that list rows (one position per line).
    pub fn lists_rows(self) -> bool {
        matches!(self, SinkFormat::Csv | SinkFormat::Jsonl)
    }
}

/// What [`write()`] prints besides the table.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Counts only (with Grundy tables: the histogram), no positions.
    pub count_only: bool,
    /// P-sets: list every ordered P-position of the box, not one per symmetry class.
    pub ordered: bool,
    /// List only the positions with these entries (0-based index, value): a slice of the box, every
    /// ordered position of it.
    pub fix: Vec<(usize, u64)>,
}

impl Options {
    /// True when a position is in the slice.
    fn keeps(&self, p: &[u64]) -> bool {
        self.fix.iter().all(|&(i, v)| p.get(i) == Some(&v))
    }

    /// The slice in words, e.g. "p3 = 5, p4 = 0".
    fn slice_words(&self) -> String {
        let parts: Vec<String> = self
            .fix
            .iter()
            .map(|&(i, v)| format!("p{} = {v}", i + 1))
            .collect();
        parts.join(", ")
    }

    /// What the rows list, for the JSON head and the text.
    fn listed_words(&self) -> &'static str {
        if self.ordered || !self.fix.is_empty() {
            "ordered"
        } else {
            "canonical"
        }
    }
}

/// The one-line summary of a P-set table, for a caller that prints rows on stdout and the summary
/// elsewhere.
pub fn summary(plan: &Plan, a: &Answer) -> String {
    match &a.solved {
        Solved::PSet {
            count,
            canonical_count,
            ..
        } => format!(
            "{}, {} play, {}: {} P-positions as ordered tuples, {canonical_count} up to symmetry",
            plan.game,
            plan.play,
            bound_words(plan),
            count_text(*count)
        ),
        Solved::Grundy { .. } => format!(
            "{}, Grundy values (normal play), {}: {} positions",
            plan.game,
            bound_words(plan),
            plan.positions
        ),
    }
}

/// "back end: gpu (ADAPTER)", "back end: mpi (R ranks)" or "back end: cpu" for a computed table;
/// none for a stored one.
fn backend_line(a: &Answer) -> Option<String> {
    let b = a.backend?;
    Some(match (&a.adapter, a.ranks) {
        (Some(ad), _) => match &a.traffic {
            Some(t) => format!(
                "back end: {b} ({ad}; {} bytes up, {} bytes down, {} submissions, {} waits)",
                t.uploaded_bytes, t.downloaded_bytes, t.submissions, t.waits
            ),
            None => format!("back end: {b} ({ad})"),
        },
        (None, Some(1)) => format!("back end: {b} (1 rank)"),
        (None, Some(n)) => format!("back end: {b} ({n} ranks)"),
        (None, None) => format!("back end: {b}"),
    })
}

fn bound_words(plan: &Plan) -> String {
    match &plan.domain {
        Domain::Box(d) => format!("entries in {}..={}, lengths {:?}", d.lo, d.hi, d.lengths),
        Domain::Chips { max_sum } => format!("total chips at most {max_sum}"),
        Domain::Spread { max } => format!("spread max - min at most {max}"),
    }
}

fn count_text(c: Option<u128>) -> String {
    c.map_or_else(|| "too many to count".into(), |c| c.to_string())
}

fn count_json(c: Option<u128>) -> Value {
    // A number, or a decimal string when it does not fit in 64 bits.
    match c {
        Some(c) => u64::try_from(c).map_or_else(|_| json!(c.to_string()), |x| json!(x)),
        None => Value::Null,
    }
}

fn join(xs: &[u64]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn show(game: &dyn Game, plan: &Plan, p: &[u64]) -> String {
    if plan.is_chips() {
        chip::format_power(p)
    } else {
        game.format_position(p)
    }
}

/// Several lengths in one table (SCN's circles): CSV rows start with the length.
fn several_lengths(plan: &Plan) -> bool {
    matches!(&plan.domain, Domain::Box(d) if d.lengths.len() > 1)
}

fn csv_header(plan: &Plan, extra: &[&str]) -> String {
    let mut cols: Vec<String> = Vec::new();
    if several_lengths(plan) {
        cols.push("length".into());
    }
    cols.extend((1..=plan.width()).map(|i| format!("p{i}")));
    cols.extend(extra.iter().map(|s| s.to_string()));
    cols.join(",") + "\n"
}

fn csv_row(plan: &Plan, p: &[u64], extra: &[u64]) -> String {
    let mut cells: Vec<String> = Vec::new();
    if several_lengths(plan) {
        cells.push(p.len().to_string());
        cells.extend(p.iter().map(|x| x.to_string()));
        cells.extend((p.len()..plan.width()).map(|_| String::new()));
    } else {
        cells.extend(p.iter().map(|x| x.to_string()));
    }
    cells.extend(extra.iter().map(|x| x.to_string()));
    cells.join(",") + "\n"
}

/// [`json_head`] with what the rows list: `listed` (`canonical` or `ordered`) and, for a slice, `fix`
/// (the fixed entries by column name, e.g. `{"p3": 5}`).
fn json_head_with(plan: &Plan, a: &Answer, opt: &Options) -> Value {
    let mut v = json_head(plan, a);
    if !opt.count_only {
        v["listed"] = json!(if matches!(a.solved, Solved::Grundy { .. }) {
            "ordered"
        } else {
            opt.listed_words()
        });
    }
    if !opt.fix.is_empty() {
        let fix: serde_json::Map<String, Value> = opt
            .fix
            .iter()
            .map(|&(i, x)| (format!("p{}", i + 1), json!(x)))
            .collect();
        v["fix"] = Value::Object(fix);
    }
    v
}

/// The head of the JSON object: everything but the positions or values.
fn json_head(plan: &Plan, a: &Answer) -> Value {
    let mut v = json!({
        "game": plan.game,
        "play": plan.play.name(),
        "positions_in_box": plan.positions as u64,
        "seconds": a.seconds,
        "method": a.source.name(),
        "backend": a.backend,
        "adapter": a.adapter,
    });
    if let Some(r) = a.ranks {
        v["ranks"] = json!(r);
    }
    if let Some(t) = &a.traffic {
        v["gpu_traffic"] = json!({
            "uploaded_bytes": t.uploaded_bytes,
            "downloaded_bytes": t.downloaded_bytes,
            "submissions": t.submissions,
            "waits": t.waits,
        });
    }
    match &plan.domain {
        Domain::Box(_) => v["max"] = json!(plan.bounds.max),
        Domain::Chips { max_sum } => v["max_sum"] = json!(max_sum),
        Domain::Spread { max } => v["max"] = json!(max),
    }
    if let Some(h) = plan.bounds.heaps {
        v["heaps"] = json!(h);
    }
    if let Some(i) = a.store_id {
        v["store_id"] = json!(i);
    }
    if plan.values_on_disk.is_some() {
        // Grundy values past memory, kept in a mapped file while the table was computed.
        v["values_on_disk"] = json!(true);
    }
    if let Some(hi) = a.within {
        // Read from the stored table of a larger box, entries up to `hi`.
        v["store_box_hi"] = json!(hi);
    }
    match &a.solved {
        Solved::PSet {
            count,
            canonical_count,
            by_length,
            ..
        } => {
            v["count"] = count_json(*count);
            v["canonical_count"] = json!(canonical_count);
            if !plan.is_chips() {
                v["by_length"] = by_length
                    .iter()
                    .map(|&(m, c, cc)| json!({"length": m, "count": c, "canonical_count": cc}))
                    .collect();
            }
        }
        Solved::Grundy { .. } => {
            let h = a.solved.histogram();
            v["kind"] = json!("grundy");
            v["count"] = json!(h.first().copied().unwrap_or(0));
            v["max_value"] = json!(h.len().saturating_sub(1));
            v["histogram"] = json!(h);
        }
    }
    v
}

/// Writes the table in `format`; returns the number of positions (rows) written.
pub fn write(
    out: &mut dyn Write,
    game: &dyn Game,
    plan: &Plan,
    a: &Answer,
    format: SinkFormat,
    opt: Options,
) -> io::Result<u64> {
    match &a.solved {
        Solved::PSet { .. } => write_pset(out, game, plan, a, format, opt),
        Solved::Grundy { values } => write_grundy(out, game, plan, a, values, format, opt),
    }
}

fn write_pset(
    out: &mut dyn Write,
    game: &dyn Game,
    plan: &Plan,
    a: &Answer,
    format: SinkFormat,
    opt: Options,
) -> io::Result<u64> {
    let Solved::PSet {
        count,
        canonical_count,
        by_length,
        ..
    } = &a.solved
    else {
        return Ok(0);
    };
    // The rows: the canonical P-positions, or every ordered one (of the slice), each with its
    // remoteness and suspense when asked for.
    let canonical = if opt.count_only {
        Vec::new()
    } else {
        a.solved.positions()
    };
    let mut rows: Vec<(Pos, Option<(u64, u64)>)> = Vec::new();
    for (i, p) in canonical.into_iter().enumerate() {
        let values = a.listed.as_ref().map(|v| v[i]);
        if opt.ordered || !opt.fix.is_empty() {
            crate::plan::for_each_in_class(game, &p, &mut |q| {
                if opt.keeps(q) {
                    rows.push((q.to_vec(), values));
                }
            });
        } else {
            rows.push((p, values));
        }
    }
    if opt.ordered || !opt.fix.is_empty() {
        rows.sort_by(|x, y| (x.0.len(), &x.0).cmp(&(y.0.len(), &y.0)));
    }
    let positions: Vec<&Pos> = rows.iter().map(|r| &r.0).collect();
    let listed = |i: usize| rows[i].1;
    match format {
        SinkFormat::Text => {
            let what = match &plan.domain {
                Domain::Box(_) => "positions in the box",
                _ => "positions (multisets)",
            };
            writeln!(
                out,
                "{}, {} play, {}: {} {what}",
                plan.game,
                plan.play,
                bound_words(plan),
                plan.positions
            )?;
            if plan.is_chips() {
                writeln!(
                    out,
                    "P-positions: {canonical_count} multisets, {} as ordered tuples ({:.3} s)",
                    count_text(*count),
                    a.seconds
                )?;
            } else {
                writeln!(
                    out,
                    "P-positions: {} as ordered tuples, {canonical_count} up to symmetry ({:.3} s)",
                    count_text(*count),
                    a.seconds
                )?;
            }
            if let Some(line) = backend_line(a) {
                writeln!(out, "{line}")?;
            }
            if several_lengths(plan) {
                for &(m, c, cc) in by_length {
                    writeln!(out, "  length {m}: {c} ordered, {cc} up to symmetry")?;
                }
            }
            if !opt.fix.is_empty() {
                writeln!(
                    out,
                    "listed: the {} ordered P-positions with {}",
                    rows.len(),
                    opt.slice_words()
                )?;
            } else if opt.ordered && !opt.count_only {
                writeln!(out, "listed: every ordered P-position ({})", rows.len())?;
            }
            for (i, p) in positions.iter().enumerate() {
                write!(out, "{}", show(game, plan, p))?;
                if let Some((r, s)) = listed(i) {
                    write!(out, "  remoteness {r}, suspense {s}")?;
                }
                writeln!(out)?;
            }
        }
        SinkFormat::Json => {
            let head = json_head_with(plan, a, &opt).to_string();
            if opt.count_only {
                writeln!(out, "{head}")?;
            } else {
                // The positions stream as the last keys of the object.
                write!(out, "{},\"positions\":[", &head[..head.len() - 1])?;
                for (i, p) in positions.iter().enumerate() {
                    if i > 0 {
                        write!(out, ",")?;
                    }
                    write!(out, "[{}]", join(p))?;
                }
                write!(out, "]")?;
                if a.listed.is_some() {
                    let r: Vec<u64> = rows.iter().filter_map(|x| x.1).map(|x| x.0).collect();
                    let s: Vec<u64> = rows.iter().filter_map(|x| x.1).map(|x| x.1).collect();
                    write!(
                        out,
                        ",\"remoteness\":{},\"suspense\":{}",
                        json!(r),
                        json!(s)
                    )?;
                }
                writeln!(out, "}}")?;
            }
        }
        SinkFormat::Csv => {
            let extra: &[&str] = if a.listed.is_some() {
                &["remoteness", "suspense"]
            } else {
                &[]
            };
            write!(out, "{}", csv_header(plan, extra))?;
            for (i, p) in positions.iter().enumerate() {
                let e = listed(i).map_or(vec![], |(r, s)| vec![r, s]);
                write!(out, "{}", csv_row(plan, p, &e))?;
            }
        }
        SinkFormat::Jsonl => {
            for (i, p) in positions.iter().enumerate() {
                match listed(i) {
                    None => writeln!(out, "[{}]", join(p))?,
                    Some((r, s)) => writeln!(
                        out,
                        "{{\"position\":[{}],\"remoteness\":{r},\"suspense\":{s}}}",
                        join(p)
                    )?,
                }
            }
        }
    }
    Ok(positions.len() as u64)
}

/// Writes one row: the output, the position and its value.
type RowFn<'a> = dyn FnMut(&mut dyn Write, &[u64], u16) -> io::Result<()> + 'a;

fn write_grundy(
    out: &mut dyn Write,
    game: &dyn Game,
    plan: &Plan,
    a: &Answer,
    values: &[u16],
    format: SinkFormat,
    opt: Options,
) -> io::Result<u64> {
    debug_assert_eq!(plan.kind, TableKind::Grundy);
    let h = a.solved.histogram();
    let mut rows = 0u64;
    let mut each = |out: &mut dyn Write, f: &mut RowFn| -> io::Result<()> {
        let mut i = 0usize;
        let mut err = Ok(());
        plan.for_each_position(&mut |p| {
            if err.is_ok() && opt.keeps(p) {
                err = f(out, p, values[i]);
                rows += 1;
            }
            i += 1;
        });
        err
    };
    match format {
        SinkFormat::Text => {
            writeln!(
                out,
                "{}, Grundy values (normal play), {}: {} positions ({:.3} s)",
                plan.game,
                bound_words(plan),
                plan.positions,
                a.seconds
            )?;
            if let Some(line) = backend_line(a) {
                writeln!(out, "{line}")?;
            }
            if let Some(dir) = &plan.values_on_disk {
                writeln!(
                    out,
                    "the values were kept on disk, past memory (a file in {}, removed)",
                    dir.display()
                )?;
            }
            writeln!(
                out,
                "values 0..={}; positions with each value:",
                h.len().saturating_sub(1)
            )?;
            for (v, c) in h.iter().enumerate() {
                writeln!(out, "  {v}: {c}")?;
            }
            if !opt.fix.is_empty() && !opt.count_only {
                writeln!(out, "listed: the positions with {}", opt.slice_words())?;
            }
            if !opt.count_only {
                each(out, &mut |o, p, g| {
                    writeln!(o, "{} {g}", show(game, plan, p))
                })?;
            }
        }
        SinkFormat::Json => {
            let head = json_head_with(plan, a, &opt).to_string();
            if opt.count_only {
                writeln!(out, "{head}")?;
            } else {
                write!(out, "{},\"values\":[", &head[..head.len() - 1])?;
                let mut first = true;
                each(out, &mut |o, p, g| {
                    let comma = if first { "" } else { "," };
                    first = false;
                    write!(o, "{comma}{{\"position\":[{}],\"grundy\":{g}}}", join(p))
                })?;
                writeln!(out, "]}}")?;
            }
        }
        SinkFormat::Csv => {
            write!(out, "{}", csv_header(plan, &["grundy"]))?;
            each(out, &mut |o, p, g| {
                write!(o, "{}", csv_row(plan, p, &[g as u64]))
            })?;
        }
        SinkFormat::Jsonl => {
            each(out, &mut |o, p, g| {
                writeln!(o, "{{\"position\":[{}],\"grundy\":{g}}}", join(p))
            })?;
        }
    }
    Ok(if opt.count_only { 0 } else { rows })
}
