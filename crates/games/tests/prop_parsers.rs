//! Property tests for the text parsers: game names, positions (lists and Ferguson's multiplicative
//! notation) and sums. Whatever the input, a parser never panics, and it either succeeds or returns an
//! error whose message is one non-empty line. Where printing and parsing should be inverse, they are.
//! These tests only parse: nothing is solved.

use nimlab_core::position::{format_tuple, parse_entry, parse_list};
use nimlab_core::{Game, Pos, Result};
use nimlab_games::chip::{format_power, parse_chips};
use nimlab_games::{catalogue, is_chip_game, parse_game, parse_sum};
use proptest::prelude::*;

/// One ruleset of every family, with small and extreme parameters.
const GAMES: &[&str] = &[
    "nim",
    "moore(1)",
    "moore(3)",
    "CN(1,1)",
    "CN(4,2)",
    "CN(7,4)",
    "CN(64,64)",
    "SCN(1,1)",
    "SCN(6,3)",
    "simplicial({1,2,3},{3,4},{4,1})",
    "simplicial({64})",
    "ECN(8,{1,2},3)",
    "ECN(64,{1,32},64)",
    "ET(2)",
    "ET(4)",
    "EABO(3)",
    "ER(7)",
    "SER(4)",
    "EJR(5,2)",
    "ENTROPY(2)",
    "ENTROPY(3)",
    "octal(0.77)",
    "octal(4.7)",
    "octal(0.F)",
    "grundy",
    "subtraction(1,3,4)",
];

fn games() -> Vec<Box<dyn Game>> {
    GAMES.iter().map(|g| parse_game(g).unwrap()).collect()
}

/// The message of a failed parse is one non-empty line.
fn one_line<T>(what: &str, input: &str, r: &Result<T>) -> std::result::Result<(), TestCaseError> {
    if let Err(e) = r {
        let m = e.to_string();
        prop_assert!(
            !m.trim().is_empty() && !m.contains(['\n', '\r']),
            "{what}({input:?}) gave the message {m:?}"
        );
    }
    Ok(())
}

/// Every parser on `text`, without a panic, errors in one line.
fn parse_everything(text: &str) -> std::result::Result<(), TestCaseError> {
    one_line("parse_list", text, &parse_list(text))?;
    one_line("parse_entry", text, &parse_entry(text))?;
    one_line("parse_chips", text, &parse_chips(text, 7))?;
    one_line("parse_game", text, &parse_game(text))?;
    one_line("parse_sum", text, &parse_sum(text))?;
    for g in games() {
        one_line(
            &format!("{} parse_position", g.id()),
            text,
            &g.parse_position(text),
        )?;
    }
    Ok(())
}

/// A number as a user might type it, or nearly: small, huge, overflowing, negative, malformed.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0u64..12).prop_map(|n| n.to_string()),
        1 => (0u64..100).prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => Just(u64::MAX.to_string()),
        1 => Just("18446744073709551616".to_string()),
        1 => "[1-9][0-9]{19,40}",
        1 => (1u64..1000).prop_map(|n| format!("-{n}")),
        1 => Just("-".to_string()),
        1 => "[+-]?[0-9]{0,3}[.eEx_]?[0-9]{0,3}",
        1 => "\\PC{0,2}",
    ]
}

/// A game name as a user might type it, or nearly: `CN(7,4)`, `cn( 7 ,4`, `EJR(5,-2)`, ...
fn game_spec() -> impl Strategy<Value = String> {
    let family = prop::sample::select(vec![
        "nim",
        "NIM",
        "moore",
        "Moore",
        "CN",
        "cn",
        "SCN",
        "scn",
        "ET",
        "EABO",
        "ER",
        "SER",
        "EJR",
        "ENTROPY",
        "empty-transfer",
        "empty-all-but-one",
        "empty-redistribute",
        "selective-empty-redistribute",
        "empty-j-redistribute",
        "entropy-reduction",
        "C N",
        "chess",
        "",
    ]);
    let sep = prop::sample::select(vec![",", ", ", " , ", ",,", ";", " ", ""]);
    let open = prop::sample::select(vec!["(", "", "((", "[", " ( "]);
    let close = prop::sample::select(vec![")", "", "))", "]", ") ", ")x"]);
    (
        family,
        open,
        prop::collection::vec(number(), 0..4),
        sep,
        close,
    )
        .prop_map(|(f, o, nums, s, c)| format!("{f}{o}{}{c}", nums.join(s)))
}

/// A position as a user might type it, or nearly: random separators and brackets, negative and
/// overflowing entries, and Ferguson's `v^e` with random exponents.
fn position_text() -> impl Strategy<Value = String> {
    let entry = prop_oneof![
        6 => number(),
        2 => (number(), number()).prop_map(|(v, e)| format!("{v}^{e}")),
        1 => number().prop_map(|v| format!("{v}^")),
        1 => number().prop_map(|e| format!("^{e}")),
        1 => (0u64..5, 0u64..5000).prop_map(|(v, e)| format!("{v}^{e}")),
    ];
    let sep = prop::sample::select(vec![",", " ", ", ", ",,", "\t", ";", "  ", " ,", "^"]);
    let wrap = prop::sample::select(vec![
        ("", ""),
        ("(", ")"),
        ("[", "]"),
        ("(", ""),
        ("", "]"),
        ("((", "))"),
        ("[", ")"),
        (" ", " "),
    ]);
    (prop::collection::vec(entry, 0..10), sep, wrap)
        .prop_map(|(es, s, (o, c))| format!("{o}{}{c}", es.join(s)))
}

/// A sum as a user might type it, or nearly: `G[..] + H[..]` with unbalanced brackets.
fn sum_text() -> impl Strategy<Value = String> {
    let component = (
        prop_oneof![
            game_spec(),
            prop::sample::select(GAMES.to_vec()).prop_map(String::from)
        ],
        prop::sample::select(vec!["[", "", "[[", "(", "]"]),
        position_text(),
        prop::sample::select(vec!["]", "", "]]", ")", "["]),
    )
        .prop_map(|(g, o, p, c)| format!("{g}{o}{p}{c}"));
    let plus = prop::sample::select(vec![" + ", "+", " ++ ", " - ", "+ +"]);
    (prop::collection::vec(component, 0..4), plus).prop_map(|(cs, p)| cs.join(p))
}

/// A position of length `0..=max_len` with entries in `lo..` (small, large and extreme values).
fn entries(lo: u64, max_len: usize) -> impl Strategy<Value = Pos> {
    let e = prop_oneof![
        4 => lo..lo + 10,
        1 => lo..=u64::MAX,
        1 => Just(u64::MAX),
    ];
    prop::collection::vec(e, 0..=max_len)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Arbitrary single-line strings (any characters but line breaks, which are tested below).
    #[test]
    fn arbitrary_lines_never_panic(text in "[^\n\r]{0,60}") {
        parse_everything(&text)?;
    }

    #[test]
    fn near_miss_game_names(text in game_spec()) {
        parse_everything(&text)?;
        if let Ok(g) = parse_game(&text) {
            // The canonical name of a game names the same game.
            prop_assert_eq!(parse_game(&g.id()).unwrap().id(), g.id());
        }
    }

    #[test]
    fn near_miss_positions(text in position_text()) {
        parse_everything(&text)?;
    }

    #[test]
    fn near_miss_sums(text in sum_text()) {
        parse_everything(&text)?;
    }

    /// Printing a valid position and parsing it gives it back, in both notations for chip games.
    #[test]
    fn positions_round_trip(i in 0..GAMES.len(), p in entries(0, 9), q in entries(1, 9)) {
        let g = parse_game(GAMES[i]).unwrap();
        for p in [p, q] {
            if g.validate(&p).is_err() {
                continue;
            }
            let text = g.format_position(&p);
            prop_assert_eq!(g.parse_position(&text).unwrap(), p.clone(), "{}: {}", g.id(), text);
            prop_assert_eq!(parse_list(&format_tuple(&p)).unwrap(), p.clone());
            if is_chip_game(g.as_ref()) {
                let mut sorted = p.clone();
                sorted.sort_unstable();
                let power = format_power(&p);
                prop_assert_eq!(g.parse_position(&power).unwrap(), sorted, "{}: {}", g.id(), power);
            }
        }
    }

    /// A sum written from valid components parses into those components.
    #[test]
    fn sums_round_trip(parts in prop::collection::vec((0..GAMES.len(), entries(0, 8), entries(1, 8)), 1..4)) {
        let mut written = Vec::new();
        let mut want = Vec::new();
        for (i, p, q) in parts {
            let g = parse_game(GAMES[i]).unwrap();
            if let Some(p) = [p, q].into_iter().find(|p| g.validate(p).is_ok()) {
                let pos = format_tuple(&p);
                written.push(format!("{}[{}]", g.id(), &pos[1..pos.len() - 1]));
                want.push((g.id(), p));
            }
        }
        prop_assume!(!want.is_empty());
        let text = written.join(" + ");
        let (sum, positions) = parse_sum(&text).unwrap();
        let ids: Vec<String> = sum.parts().iter().map(|g| g.id()).collect();
        prop_assert_eq!(ids, want.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>());
        prop_assert_eq!(positions, want.into_iter().map(|(_, p)| p).collect::<Vec<_>>());
    }
}

/// Arbitrary strings with line breaks (`\n`, `\r`): an error message that quotes the input must not
/// carry its line breaks into the one-line message. One property per parser, so that each reports its
/// own smallest failing input.
fn with_line_breaks() -> impl Strategy<Value = String> {
    prop_oneof![
        "(?s).{0,40}",
        "[0-9a,^ \n\r()\\[\\]+-]{0,12}",
        "[0-9, \n\r]{0,8}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn line_breaks_parse_list(text in with_line_breaks()) {
        one_line("parse_list", &text, &parse_list(&text))?;
    }

    #[test]
    fn line_breaks_parse_entry(text in with_line_breaks()) {
        one_line("parse_entry", &text, &parse_entry(&text))?;
    }

    #[test]
    fn line_breaks_parse_chips(text in with_line_breaks()) {
        one_line("parse_chips", &text, &parse_chips(&text, 7))?;
    }

    #[test]
    fn line_breaks_parse_game(text in with_line_breaks()) {
        one_line("parse_game", &text, &parse_game(&text))?;
    }

    #[test]
    fn line_breaks_parse_sum(text in with_line_breaks()) {
        one_line("parse_sum", &text, &parse_sum(&text))?;
    }

    #[test]
    fn line_breaks_parse_position(i in 0..GAMES.len(), text in with_line_breaks()) {
        let g = parse_game(GAMES[i]).unwrap();
        one_line(&format!("{} parse_position", g.id()), &text, &g.parse_position(&text))?;
    }
}

/// The games above cover every family of the catalogue.
#[test]
fn every_family_is_covered() {
    // The id's name part (before the parameters) names the family.
    let families: Vec<String> = games()
        .iter()
        .map(|g| g.id().split('(').next().unwrap().to_ascii_lowercase())
        .collect();
    for e in catalogue() {
        let family = e.name.split('(').next().unwrap().to_ascii_lowercase();
        assert!(families.contains(&family), "{} is not tested", e.name);
    }
}
