//! `nimlab plot`: pictures of a table, as SVG or PNG (plotters): a 2-D slice of a box (every stack
//! but two fixed with `--fix`), its P-positions or its Grundy values; or, with `--counts`, the
//! P-positions counted against the size of the box. The table comes from the store or the engine,
//! as `table` computes it.

use crate::args::Common;
use crate::store_cmd::StoreArgs;
use crate::table_cmd::{parse_fix, parse_fix_in};
use clap::Args;
use nimlab_core::{Error, Game, Hooks, Play};
use nimlab_games::parse_game;
use nimlab_tables::plan::{self, Bounds, Domain, Request, Solved, TableKind};
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Game name, e.g. CN(3,2).
    game: String,
    /// Largest stack, pile or heap size in the box.
    #[arg(long)]
    max: Option<u64>,
    /// Number of heaps (Nim and Moore's Nim, which take any number).
    #[arg(long)]
    heaps: Option<usize>,
    /// Misère play.
    #[arg(long)]
    misere: bool,
    /// Colour each position of the slice by its Grundy value (normal play) instead of marking the
    /// P-positions.
    #[arg(long)]
    grundy: bool,
    /// Fix stack I (1-based) at the value V; all stacks but two must be fixed (e.g. --fix 1=7 for a
    /// 3-stack game).
    #[arg(long, value_name = "I=V")]
    fix: Vec<String>,
    /// Plot the number of P-positions (ordered tuples) of the box [lo..h] for every h up to --max,
    /// and print the counts as CSV on stdout.
    #[arg(long)]
    counts: bool,
    /// Plot the Grundy values g(n) of single heaps n = 0..=--max of a one-heap game (octal,
    /// subtraction, Grundy's game) as points, as `nimlab sequence` computes them, with the
    /// preperiod marked by a vertical line and the period in the caption.
    #[arg(long)]
    sequence: bool,
    /// The picture to write: FILE.svg or FILE.png.
    #[arg(long, short)]
    output: PathBuf,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    common: Common,
}

/// The colour of a P-position in a slice.
const P_COLOUR: RGBColor = RGBColor(31, 58, 147);
/// Pixels per cell of a slice (at most; large boxes get smaller cells).
const CELL: u32 = 24;

/// Picture formats.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Picture {
    Svg,
    Png,
}

pub fn run(a: &PlotArgs) -> Result<ExitCode, Error> {
    let picture = match a.output.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("svg") => Picture::Svg,
        Some(e) if e.eq_ignore_ascii_case("png") => Picture::Png,
        _ => {
            return Err(Error::Unsupported(format!(
                "{}: plot writes FILE.svg or FILE.png",
                a.output.display()
            )))
        }
    };
    if a.sequence {
        if a.counts || a.grundy || a.misere || !a.fix.is_empty() || a.heaps.is_some() {
            return Err(Error::Unsupported(
                "--sequence plots the values of single heaps; it does not combine with --counts, --grundy, --misere, --fix or --heaps".into(),
            ));
        }
        return plot_sequence(a, picture);
    }
    if a.counts && (a.grundy || !a.fix.is_empty()) {
        return Err(Error::Unsupported(format!(
            "--counts plots the P-positions of whole boxes; it does not combine with {}",
            if a.grundy { "--grundy" } else { "--fix" }
        )));
    }
    if a.grundy && a.misere {
        return Err(Error::Unsupported(
            "--grundy gives normal-play values; leave out --misere".into(),
        ));
    }
    let game = parse_game(&a.game)?;
    let req = Request {
        bounds: Bounds {
            max: a.max,
            max_sum: None,
            heaps: a.heaps,
        },
        play: Play::from_misere(a.misere),
        kind: if a.grundy {
            TableKind::Grundy
        } else {
            TableKind::PSet
        },
        method: plan::TableMethod::Auto,
        backend: plan::Backend::Auto,
        remoteness: false,
        limit: a.common.limit,
        resume: plan::ResumeMode::Auto,
    };
    let plan = match plan::plan(game.as_ref(), &req) {
        Ok(p) => p,
        // A slice needs only the positions below it (moves never raise a stack): when the whole
        // box's table is too large, the slice's cells are searched from themselves.
        Err(e) if e.is_too_large() && !a.counts && !a.fix.is_empty() => {
            let Some(max) = a.max else { return Err(e) };
            let d = game.table_domain(max, a.heaps)?;
            let width = d.lengths.iter().copied().max().unwrap_or(0);
            let fix = parse_fix_in(&a.fix, width, d.lo, d.hi)?;
            let below = plan::down_set_size(width, d.lo, d.hi, &fix);
            let (sl, method) = plan::slice_by_search(
                game.as_ref(),
                Play::from_misere(a.misere),
                a.grundy,
                width,
                d.lo,
                d.hi,
                &fix,
                nimlab_core::Budget {
                    limit: a.common.limit,
                    ..Default::default()
                },
                None,
            )
            .map_err(|s| {
                if s.is_too_large() {
                    Error::TooLarge(format!(
                        "{e}; and the slice alone: {}",
                        s.render(&nimlab_core::arg::CommandLine)
                    ))
                } else {
                    s
                }
            })?;
            let how = match method {
                plan::SliceMethod::Engine => "tabulated by the engine on the box below its cells",
                plan::SliceMethod::Search => "searched from its cells",
            };
            eprintln!(
                "nimlab: the box's table is too large, so the slice was {how}: {below:.0} positions lie below them"
            );
            return draw_the_slice(a, game.as_ref(), picture, &fix, &sl);
        }
        Err(e) => return Err(e),
    };
    let Domain::Box(d) = &plan.domain else {
        return Err(Error::Unsupported(format!(
            "plot draws boxes of stacks; {} is bounded by its chips (use table)",
            game.id()
        )));
    };
    let d = d.clone();
    let fix = parse_fix(&a.fix, &plan)?;
    let width = d.lengths.iter().copied().max().unwrap_or(0);
    let free: Vec<usize> = (0..width)
        .filter(|i| !fix.iter().any(|f| f.0 == *i))
        .collect();
    if !a.counts && free.len() != 2 {
        return Err(Error::Unsupported(format!(
            "plot draws a 2-D slice: fix every stack but two ({} has {width} stacks, so give {} --fix options, e.g. --fix 1={}); --counts plots counts instead",
            game.id(),
            width.saturating_sub(2),
            d.lo
        )));
    }
    let mut db = a.store.open()?;
    let answer = plan::run(game.as_ref(), &plan, db.as_mut(), Hooks::default())?;
    // Text needs a font's metrics, in an SVG as in a PNG.
    let labels = register_font();
    let said = if a.counts {
        let counts = counts(game.as_ref(), &answer.solved, d.lo, d.hi);
        println!("max,p_positions");
        for (h, c) in &counts {
            println!("{h},{c}");
        }
        let c = Counts {
            labels,
            game: &game.id(),
            lo: d.lo,
            misere: a.misere,
            counts: &counts,
        };
        draw_counts(&a.output, picture, &c).map_err(|e| draw_error(&a.output, e))?;
        format!(
            "P-positions of {} in the boxes [{}..h] for h up to {}",
            game.id(),
            d.lo,
            d.hi
        )
    } else {
        let sl = plan::slice(game.as_ref(), &plan, &answer.solved, &fix)?;
        return draw_the_slice(a, game.as_ref(), picture, &fix, &sl);
    };
    eprintln!("nimlab: wrote {} ({said})", a.output.display());
    if !labels {
        eprintln!(
            "nimlab: no font found for the picture's labels, so it has none (set NIMLAB_FONT to a .ttf file)"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Draws a slice (from the box's table or searched from its cells) and says what was written.
fn draw_the_slice(
    a: &PlotArgs,
    game: &dyn Game,
    picture: Picture,
    fix: &[(usize, u64)],
    sl: &plan::Slice,
) -> Result<ExitCode, Error> {
    let labels = register_font();
    let slice: Vec<String> = fix
        .iter()
        .map(|&(i, v)| format!("p{} = {v}", i + 1))
        .collect();
    let what = if a.grundy {
        "Grundy values"
    } else if a.misere {
        "P-positions (misère)"
    } else {
        "P-positions"
    };
    let title = format!("{} {what}, {}", game.id(), slice.join(", "));
    let axes = (format!("p{}", sl.x + 1), format!("p{}", sl.y + 1));
    let s = Slice {
        labels,
        title: &title,
        axes: &axes,
        lo: sl.lo,
        hi: sl.hi,
        cells: &sl.cells,
        grundy: a.grundy,
    };
    draw_slice(&a.output, picture, &s).map_err(|e| draw_error(&a.output, e))?;
    let said = if a.grundy {
        format!("{title}: {} positions", sl.cells.len())
    } else {
        format!("{title}: {} P-positions", sl.cells.len())
    };
    eprintln!("nimlab: wrote {} ({said})", a.output.display());
    if !labels {
        eprintln!(
            "nimlab: no font found for the picture's labels, so it has none (set NIMLAB_FONT to a .ttf file)"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `plot --sequence`: g(0..=max) of a one-heap game as points, the preperiod as a vertical line.
fn plot_sequence(a: &PlotArgs, picture: Picture) -> Result<ExitCode, Error> {
    use nimlab_analysis::sequence;
    let game = sequence::one_heap(&a.game)?;
    let Some(max) = a.max else {
        return Err(Error::Unsupported(
            "--sequence needs --max N (the values of heaps 0..=N)".into(),
        ));
    };
    // One point a heap: a picture of more points than this is a blur and a huge SVG.
    const MOST: u64 = 100_000;
    if max > MOST {
        return Err(Error::TooLarge(format!(
            "--max {max}: --sequence draws one point a heap, at most {MOST}; `nimlab sequence` computes further"
        )));
    }
    let cancel = crate::interrupt::cancel_flag();
    let seq = nimlab_core::interrupt::scope(cancel, || {
        sequence::compute(&game, &sequence::Request::new(max, a.common.limit))
    })?;
    let period = seq.period_caption();
    let labels = register_font();
    let s = SequencePicture {
        labels,
        caption: format!("{}: g(n), {period}", game.id()),
        values: &seq.values,
        preperiod: seq.periodicity.as_ref().map(|p| p.preperiod),
    };
    draw_sequence(&a.output, picture, &s).map_err(|e| draw_error(&a.output, e))?;
    eprintln!(
        "nimlab: wrote {} ({}: g(0..={max}), {period})",
        a.output.display(),
        game.id()
    );
    if !labels {
        eprintln!(
            "nimlab: no font found for the picture's labels, so it has none (set NIMLAB_FONT to a .ttf file)"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What a sequence picture shows.
struct SequencePicture<'a> {
    labels: bool,
    caption: String,
    values: &'a [u32],
    preperiod: Option<u64>,
}

/// The colour of the preperiod's line.
const PRE_COLOUR: RGBColor = RGBColor(200, 40, 40);

fn draw_sequence(path: &Path, picture: Picture, s: &SequencePicture) -> DrawResult {
    match picture {
        Picture::Svg => sequence_on(SVGBackend::new(path, (800, 420)).into_drawing_area(), s),
        Picture::Png => sequence_on(BitMapBackend::new(path, (800, 420)).into_drawing_area(), s),
    }
}

fn sequence_on<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    s: &SequencePicture,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let n1 = (s.values.len() as u64).saturating_sub(1).max(1);
    let top = s.values.iter().copied().max().unwrap_or(0).max(1);
    root.fill(&WHITE)?;
    let mut b = ChartBuilder::on(&root);
    b.margin(15);
    if s.labels {
        b.caption(&s.caption, ("sans-serif", 16))
            .x_label_area_size(35)
            .y_label_area_size(40);
    }
    let mut chart = b.build_cartesian_2d(0..n1, 0..top + 1)?;
    if s.labels {
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("n")
            .y_desc("g(n)")
            .draw()?;
    }
    if let Some(pre) = s.preperiod.filter(|&p| p > 0) {
        chart.draw_series(LineSeries::new([(pre, 0), (pre, top + 1)], PRE_COLOUR))?;
    }
    let r = if s.values.len() > 2000 { 1 } else { 2 };
    chart.draw_series(
        s.values
            .iter()
            .enumerate()
            .map(|(n, &v)| Circle::new((n as u64, v), r, P_COLOUR.filled())),
    )?;
    root.present()?;
    Ok(())
}

fn draw_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Unsupported(format!("writing {}: {e}", path.display()))
}

/// Registers a system font for the picture's text: `NIMLAB_FONT`, else DejaVu Sans or Liberation Sans
/// where Debian puts them. False when none is found (the picture then has no text).
fn register_font() -> bool {
    let mut paths: Vec<PathBuf> = std::env::var_os("NIMLAB_FONT")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    paths.extend(
        [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
            "/usr/share/fonts/TTF/DejaVuSans.ttf",
        ]
        .map(PathBuf::from),
    );
    for p in paths {
        if let Ok(bytes) = std::fs::read(&p) {
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return true;
            }
        }
    }
    false
}

/// The number of ordered P-positions in each box [lo..h], h = lo..=hi, from the table of [lo..hi].
fn counts(game: &dyn Game, solved: &Solved, lo: u64, hi: u64) -> Vec<(u64, u64)> {
    let mut by_max = vec![0u64; (hi - lo + 1) as usize];
    for p in solved.positions() {
        let top = p.iter().copied().max().unwrap_or(lo).max(lo);
        let mut n = 0u64;
        plan::for_each_in_class(game, &p, &mut |_| n += 1);
        by_max[(top - lo) as usize] += n;
    }
    let mut total = 0;
    by_max
        .iter()
        .enumerate()
        .map(|(i, c)| {
            total += c;
            (lo + i as u64, total)
        })
        .collect()
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// What a slice picture shows.
struct Slice<'a> {
    labels: bool,
    title: &'a str,
    axes: &'a (String, String),
    lo: u64,
    hi: u64,
    /// (x, y, value): P-positions (value unused), or every position with its Grundy value.
    cells: &'a [(u64, u64, u32)],
    grundy: bool,
}

/// Pixels of the colour scale beside a picture of Grundy values.
const LEGEND: u32 = 110;

/// The colour of Grundy value `v` in a picture whose largest value is `top` (at least 1): 0 black,
/// the others around the colour wheel.
fn value_colour(v: u32, top: u32) -> RGBAColor {
    if v == 0 {
        BLACK.to_rgba()
    } else {
        HSLColor(0.8 * f64::from(v) / f64::from(top), 0.7, 0.55).to_rgba()
    }
}

/// The values the colour scale shows: every value up to `top` when there are at most 24, else
/// 0, a round step (1, 2 or 5 times a power of ten: at most 12 of them) and `top` itself.
fn legend_values(top: u32) -> Vec<u32> {
    if top < 24 {
        return (0..=top).collect();
    }
    let step = legend_step(top);
    let mut v: Vec<u32> = (0..=top).step_by(step as usize).collect();
    if v.last() != Some(&top) {
        v.push(top);
    }
    v
}

/// A round step (1, 2 or 5 times a power of ten) with at most 12 multiples in `0..=top`.
fn legend_step(top: u32) -> u32 {
    for scale in [1u32, 10, 100, 1000, 10_000, 100_000, 1_000_000] {
        for m in [1u32, 2, 5] {
            let step = m.saturating_mul(scale);
            if top / step < 12 {
                return step;
            }
        }
    }
    u32::MAX
}

/// A slice as a grid of cells: P-positions filled, or every position coloured by its value (with
/// a colour scale beside it).
fn draw_slice(path: &Path, picture: Picture, s: &Slice) -> DrawResult {
    let r = (s.hi - s.lo + 1) as u32;
    let cell = (CELL * 40 / r.max(40)).max(2);
    let side = (cell * r + 90).max(240);
    let width = side + if s.grundy { LEGEND } else { 0 };
    match picture {
        Picture::Svg => slice_on(SVGBackend::new(path, (width, side)).into_drawing_area(), s),
        Picture::Png => slice_on(
            BitMapBackend::new(path, (width, side)).into_drawing_area(),
            s,
        ),
    }
}

/// The colour scale of a picture of Grundy values: a swatch and its value for each of
/// [`legend_values`], under a title.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    top: u32,
    labels: bool,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let values = legend_values(top);
    let (_, h) = area.dim_in_pixel();
    let rows = values.len() as i32 + 1;
    let row = ((h as i32 - 60) / rows).clamp(6, 22);
    if labels {
        area.draw(&Text::new("Grundy value", (6, 30), ("sans-serif", 13)))?;
    }
    for (i, &v) in values.iter().enumerate() {
        let y = 50 + i as i32 * row;
        area.draw(&Rectangle::new(
            [(8, y), (28, y + row - 2)],
            value_colour(v, top).filled(),
        ))?;
        if labels {
            area.draw(&Text::new(
                v.to_string(),
                (36, y + (row - 2) / 2 - 6),
                ("sans-serif", 12),
            ))?;
        }
    }
    Ok(())
}

fn slice_on<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    s: &Slice,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let top = s.cells.iter().map(|c| c.2).max().unwrap_or(0).max(1);
    let (w, _) = root.dim_in_pixel();
    let (root, legend) = root.split_horizontally(if s.grundy { w - LEGEND } else { w });
    if s.grundy {
        draw_legend(&legend, top, s.labels)?;
    }
    let mut b = ChartBuilder::on(&root);
    b.margin(10);
    if s.labels {
        b.caption(s.title, ("sans-serif", 16))
            .x_label_area_size(30)
            .y_label_area_size(40);
    }
    // Each value a segment of the axis, labelled at its middle, so that every cell is whole; the
    // labels at a round step (1, 2 or 5 times a power of ten, at most about 12 of them).
    let mut chart =
        b.build_cartesian_2d((s.lo..s.hi).into_segmented(), (s.lo..s.hi).into_segmented())?;
    if s.labels {
        let step = u64::from(legend_step(u32::try_from(s.hi - s.lo).unwrap_or(u32::MAX)));
        let lo = s.lo;
        let shown = move |v: &SegmentValue<u64>| match v {
            SegmentValue::CenterOf(x) | SegmentValue::Exact(x)
                if x.saturating_sub(lo).is_multiple_of(step) =>
            {
                x.to_string()
            }
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels((s.hi - s.lo + 1) as usize)
            .y_labels((s.hi - s.lo + 1) as usize)
            .x_label_formatter(&shown)
            .y_label_formatter(&shown)
            .x_desc(s.axes.0.as_str())
            .y_desc(s.axes.1.as_str())
            .draw()?;
    }
    let grundy = s.grundy;
    chart.draw_series(s.cells.iter().map(|&(x, y, v)| {
        let colour = if grundy {
            value_colour(v, top)
        } else {
            P_COLOUR.to_rgba()
        };
        Rectangle::new(
            [
                (SegmentValue::Exact(x), SegmentValue::Exact(y)),
                (SegmentValue::Exact(x + 1), SegmentValue::Exact(y + 1)),
            ],
            colour.filled(),
        )
    }))?;
    root.present()?;
    legend.present()?;
    Ok(())
}

/// What a counts picture shows.
struct Counts<'a> {
    labels: bool,
    game: &'a str,
    lo: u64,
    misere: bool,
    counts: &'a [(u64, u64)],
}

/// The counts against the box's bound, as a line with points.
fn draw_counts(path: &Path, picture: Picture, c: &Counts) -> DrawResult {
    match picture {
        Picture::Svg => counts_on(SVGBackend::new(path, (640, 420)).into_drawing_area(), c),
        Picture::Png => counts_on(BitMapBackend::new(path, (640, 420)).into_drawing_area(), c),
    }
}

fn counts_on<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    c: &Counts,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let counts = c.counts;
    let (x0, x1) = (
        counts.first().map_or(0, |c| c.0),
        counts.last().map_or(1, |c| c.0),
    );
    let y1 = counts.iter().map(|c| c.1).max().unwrap_or(1).max(1);
    root.fill(&WHITE)?;
    let mut b = ChartBuilder::on(&root);
    b.margin(15);
    if c.labels {
        let play = if c.misere { " (misère)" } else { "" };
        b.caption(
            format!("{}: P-positions{play} in [{}..h]", c.game, c.lo),
            ("sans-serif", 16),
        )
        .x_label_area_size(35)
        .y_label_area_size(60);
    }
    let mut chart = b.build_cartesian_2d(x0..x1.max(x0 + 1), 0..y1 + y1 / 20 + 1)?;
    if c.labels {
        chart
            .configure_mesh()
            .x_desc("h")
            .y_desc("P-positions (ordered)")
            .draw()?;
    }
    chart.draw_series(LineSeries::new(counts.iter().copied(), P_COLOUR))?;
    chart.draw_series(
        counts
            .iter()
            .map(|&(x, y)| Circle::new((x, y), 3, P_COLOUR.filled())),
    )?;
    root.present()?;
    Ok(())
}
