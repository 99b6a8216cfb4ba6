//! `nimlab plot`: the cells of a slice picture against Bouton's theorem worked out here, the counts
//! against the same brute force, a valid PNG, and the refusals.

mod common;

use common::{fails, nimlab, TempDir};

/// The rectangles of an SVG with this fill.
fn rects(svg: &str, fill: &str) -> usize {
    svg.lines()
        .filter(|l| l.starts_with("<rect") && l.contains(&format!("fill=\"{fill}\"")))
        .count()
}

#[test]
fn a_slice_picture_has_one_cell_per_p_position() {
    let dir = TempDir::new("plot-slice");
    let svg = dir.path().join("nim.svg");
    let out = nimlab(&[
        "plot",
        "nim",
        "--heaps",
        "3",
        "--max",
        "15",
        "--fix",
        "1=5",
        "-o",
        svg.to_str().unwrap(),
        "--no-store",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    // (5, b, c) is P iff 5 ^ b ^ c = 0 (Bouton): one c for each b.
    let want = (0..=15u64)
        .flat_map(|b| (0..=15u64).map(move |c| (b, c)))
        .filter(|&(b, c)| 5 ^ b ^ c == 0)
        .count();
    assert_eq!(rects(&text, "#1F3A93"), want);
    // Grundy values: every position a cell, the zeros black (the same positions).
    let g = dir.path().join("grundy.svg");
    let out = nimlab(&[
        "plot",
        "nim",
        "--heaps",
        "3",
        "--max",
        "15",
        "--fix",
        "1=5",
        "--grundy",
        "-o",
        g.to_str().unwrap(),
        "--no-store",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&g).unwrap();
    // The values 5 ^ b ^ c of the slice are 0..=15: the colour scale shows each with a swatch,
    // value 0 black like its cells.
    assert_eq!(rects(&text, "#000000"), want + 1);
    let cells = text
        .lines()
        .filter(|l| l.starts_with("<rect") && !l.contains("#FFFFFF"))
        .count();
    assert_eq!(cells, 16 * 16 + 16);
    // With a font for the labels: the scale's title, and the axes labelled at the cells' middles.
    if text.contains("<text") {
        assert!(text.contains("Grundy value"), "{text}");
    }
}

/// The colour scale of a large range of values shows a round step, not every value.
#[test]
fn the_colour_scale_of_many_values_shows_round_steps() {
    let dir = TempDir::new("plot-scale");
    let g = dir.path().join("g.svg");
    let out = nimlab(&[
        "plot",
        "nim",
        "--heaps",
        "3",
        "--max",
        "63",
        "--fix",
        "1=0",
        "--grundy",
        "-o",
        g.to_str().unwrap(),
        "--no-store",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&g).unwrap();
    // b ^ c for b, c <= 63 takes the values 0..=63: a step of 10 (at most 12 multiples), so the
    // swatches of 0, 10, ..., 60 and of 63 itself: 8 rectangles beside the 64 * 64 cells.
    let cells = text
        .lines()
        .filter(|l| l.starts_with("<rect") && !l.contains("#FFFFFF"))
        .count();
    assert_eq!(cells, 64 * 64 + 8);
    if text.contains("<text") {
        for v in ["10", "60", "63"] {
            assert!(text.lines().any(|l| l.trim() == v), "{v}");
        }
    }
}

#[test]
fn counts_and_png() {
    let dir = TempDir::new("plot-counts");
    let png = dir.path().join("counts.png");
    let out = nimlab(&[
        "plot",
        "nim",
        "--heaps",
        "3",
        "--max",
        "9",
        "--counts",
        "-o",
        png.to_str().unwrap(),
        "--no-store",
    ]);
    assert!(out.status.success(), "{out:?}");
    let csv = String::from_utf8(out.stdout).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("max,p_positions"));
    for h in 0..=9u64 {
        let n = (0..=h)
            .flat_map(|a| (0..=h).flat_map(move |b| (0..=h).map(move |c| a ^ b ^ c)))
            .filter(|&x| x == 0)
            .count();
        assert_eq!(lines.next(), Some(format!("{h},{n}").as_str()));
    }
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[12..16], b"IHDR");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((w, h), (640, 420));
}

#[test]
fn plots_are_refused_with_one_line() {
    fails(
        &["plot", "CN(3,2)", "--max", "9", "-o", "x.gif", "--no-store"],
        "FILE.svg or FILE.png",
    );
    fails(
        &[
            "plot",
            "CN(4,2)",
            "--max",
            "9",
            "--fix",
            "1=2",
            "-o",
            "x.svg",
            "--no-store",
        ],
        "fix every stack but two",
    );
    fails(
        &[
            "plot",
            "CN(3,2)",
            "--max",
            "9",
            "--counts",
            "--grundy",
            "-o",
            "x.svg",
            "--no-store",
        ],
        "does not combine with --grundy",
    );
    fails(
        &["plot", "ER(3)", "--max", "9", "-o", "x.svg", "--no-store"],
        "",
    );
}

/// Kayles (octal 0.77) by the mex over its options, from the rules: remove 1 or 2 adjacent pins,
/// leaving zero, one or two rows.
fn kayles(max: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=max {
        let mut opts = Vec::new();
        for j in 1..=2usize.min(n) {
            let r = n - j;
            for a in 0..=r / 2 {
                opts.push(g[a] ^ g[r - a]);
            }
        }
        g.push((0..).find(|v| !opts.contains(v)).unwrap());
    }
    g
}

#[test]
fn a_sequence_picture_has_one_point_per_heap_and_names_the_period() {
    let dir = TempDir::new("plot-sequence");
    for max in [100usize, 200] {
        let svg = dir.path().join(format!("kayles{max}.svg"));
        let out = nimlab(&[
            "plot",
            "octal(0.77)",
            "--sequence",
            "--max",
            &max.to_string(),
            "-o",
            svg.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{out:?}");
        let text = std::fs::read_to_string(&svg).unwrap();
        let circles: Vec<&str> = text.lines().filter(|l| l.starts_with("<circle")).collect();
        assert_eq!(circles.len(), max + 1);
        // The points at each height: as many as heaps with that value, by the brute force.
        let g = kayles(max);
        let mut by_y: std::collections::BTreeMap<i64, usize> = Default::default();
        for c in &circles {
            let cy = c.split("cy=\"").nth(1).unwrap().split('"').next().unwrap();
            *by_y.entry(cy.parse().unwrap()).or_default() += 1;
        }
        let mut want: Vec<usize> = (0..=8)
            .map(|v| g.iter().filter(|&&x| x == v).count())
            .filter(|&c| c > 0)
            .collect();
        // Higher values are drawn higher up: smaller y first, so the largest value first.
        want.reverse();
        assert_eq!(by_y.values().copied().collect::<Vec<_>>(), want);
        let err = String::from_utf8_lossy(&out.stderr);
        // Kayles is periodic with period 12 from n = 71 (g(71..82) = 7 4 1 2 8 1 4 7 2 1 8 2,
        // repeated): 200 heaps prove it (Guy–Smith needs n up to 2·71 + 12 + 2 - 1 + 12 = 167); 100 heaps
        // hold fewer than three periods after 71, so no period is reported there.
        let said = if max == 200 {
            "period 12 from 71 (proved)"
        } else {
            "no period up to 100"
        };
        assert!(err.contains(said), "{err}");
        if text.contains("<text") {
            assert!(text.contains(said), "the caption: {text}");
            // The preperiod as a vertical line (red), only where there is one.
            assert_eq!(text.contains("stroke=\"#C82828\""), max == 200);
        }
    }
    fails(
        &["plot", "nim", "--sequence", "--max", "10", "-o", "x.svg"],
        "one-heap game",
    );
}

/// `table --max H1,H2,...`: the P-positions of a box with one bound per stack, by the engine, against
/// Bouton's and Moore's theorems worked out here; a slice whose cube is too large is tabulated on
/// the box below it; the refusals.
#[test]
fn boxes_with_one_bound_per_stack() {
    let rows = |args: &[&str]| -> std::collections::BTreeSet<Vec<u64>> {
        let out = common::ok(args);
        out.lines()
            .skip(1)
            .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
            .collect()
    };
    // Nim: P iff the XOR is 0 (Bouton).
    let got = rows(&[
        "table",
        "nim",
        "--max",
        "5,9,100",
        "--format",
        "csv",
        "--no-store",
    ]);
    let want: std::collections::BTreeSet<Vec<u64>> = (0..=5u64)
        .flat_map(|a| (0..=9u64).map(move |b| vec![a, b, a ^ b]))
        .filter(|p| p[2] <= 100)
        .collect();
    assert_eq!(got, want);
    // Moore's Nim_2 on 4 heaps: P iff every binary digit is set in a multiple of 3 heaps (Moore).
    let got = rows(&[
        "table",
        "moore(2)",
        "--max",
        "6,7,9,70",
        "--format",
        "csv",
        "--no-store",
    ]);
    let mut want = std::collections::BTreeSet::new();
    for a in 0..=6u64 {
        for b in 0..=7u64 {
            for c in 0..=9u64 {
                for d in 0..=70u64 {
                    let ones = |i: u64| (a >> i & 1) + (b >> i & 1) + (c >> i & 1) + (d >> i & 1);
                    if (0..7).all(|i| ones(i) % 3 == 0) {
                        want.insert(vec![a, b, c, d]);
                    }
                }
            }
        }
    }
    assert!(want.len() > 10);
    assert_eq!(got, want);
    // A slice of 5 heaps up to 300 (a cube of 2.5e12 positions, too large to tabulate): the engine
    // tabulates the 8.7e6 positions below it; (5, 7, 1, c, d) is P iff d = 3 ^ c.
    let dir = TempDir::new("plot-per-stack");
    let svg = dir.path().join("nim5.svg");
    let out = nimlab(&[
        "plot",
        "nim",
        "--heaps",
        "5",
        "--max",
        "300",
        "--fix",
        "1=5",
        "--fix",
        "2=7",
        "--fix",
        "3=1",
        "-o",
        svg.to_str().unwrap(),
        "--no-store",
    ]);
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("tabulated by the engine"), "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    let want = (0..=300u64).filter(|c| c ^ 3 <= 300).count();
    assert_eq!(rects(&text, "#1F3A93"), want);
    // `table --fix` on a box too large to tabulate (CN(5,2) up to 300, 2.5e12 positions): the slice
    // comes from the box below it, and its cells up to 30 are those of the box up to 30.
    let slice = |max: &str| {
        let out = nimlab(&[
            "table",
            "CN(5,2)",
            "--max",
            max,
            "--fix",
            "1=3",
            "--fix",
            "2=4",
            "--fix",
            "4=6",
            "--format",
            "csv",
            "--no-store",
        ]);
        assert!(out.status.success(), "{out:?}");
        let rows: Vec<Vec<u64>> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .skip(1)
            .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
            .collect();
        (rows, String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (big, err) = slice("300");
    assert!(err.contains("the box below it"), "{err}");
    let (small, _) = slice("30");
    assert!(!small.is_empty());
    let low: Vec<Vec<u64>> = big
        .into_iter()
        .filter(|p| p.iter().all(|&x| x <= 30))
        .collect();
    assert_eq!(low, small);
    let per_stack = |more: &[&str], needle: &str| {
        let mut args = vec!["table", "CN(4,2)", "--max", "3,4,5,6", "--no-store"];
        args.extend_from_slice(more);
        fails(&args, needle);
    };
    per_stack(&["--grundy"], "--grundy");
    per_stack(&["--resume"], "not checkpointed");
    per_stack(&["--method", "naive"], "plain search");
    per_stack(&["--fix", "1=4"], "at most 3");
    fails(
        &["table", "CN(5,2)", "--max", "3,4,5,6", "--no-store"],
        "takes 5 bounds",
    );
    fails(
        &["table", "SCN(4,2)", "--max", "3,4,5,6", "--no-store"],
        "window games",
    );
    fails(
        &["table", "nim", "--max", "3,x,5", "--no-store"],
        "not a whole number",
    );
}
