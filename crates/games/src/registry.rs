//! Game names on the command line, and the catalogue shown by `nimlab games`.

use crate::{CircularNim, MooreNim, Nim, ShrinkingCircularNim};
use crate::{EmptyTransfer, EntropyReduction, Redistribute};
use nimlab_core::{Error, Game, Result};

/// One family in the catalogue.
#[derive(Debug, Clone)]
pub struct GameEntry {
    /// The name pattern, e.g. `CN(n,k)`.
    pub name: &'static str,
    pub title: &'static str,
    pub parameters: &'static str,
    pub position: &'static str,
    pub example: &'static str,
    pub rules: &'static str,
    pub source: &'static str,
    /// Instances offered as ready-made choices (the web page's menu), the first the most typical.
    pub presets: &'static [&'static str],
}

/// Every game family nimlab knows.
pub fn catalogue() -> Vec<GameEntry> {
    vec![
        GameEntry {
            name: "nim",
            title: "Nim",
            parameters: "none; any number of heaps",
            position: "heap sizes, e.g. 3,5,7",
            example: "nimlab outcome nim 3,5,7",
            rules: "a move takes any number of tokens from one heap",
            source: "Bouton (1901)",
            presets: &["nim"],
        },
        GameEntry {
            name: "octal(d0.d1d2...)",
            title: "Octal game (Guy–Smith code)",
            parameters: "a finite octal code such as 0.07 (Dawson's Kayles), 0.77 (Kayles), 0.137, 0.6 or 4.7: digit d_j (0-7) says how a move removing j tokens may leave the heap: 1 none, 2 one heap, 4 two non-empty heaps (added up); hexadecimal digits 8-F add 8, three non-empty heaps (0.F, 4.8); d_0 before the point may be 0, 4, 8 or C; refused: digits past F, other d_0, more than 64 digits after the point",
            position: "heap sizes, e.g. 5,7 (a sum of heaps)",
            example: "nimlab sequence 'octal(0.07)' --max 200",
            rules: "a move takes j tokens from one heap as d_j allows, leaving no heap, one heap or two heaps; the value of a list of heaps is the XOR of the heaps' values",
            source: "Guy & Smith, The G-values of various games, Proc. Cambridge Philos. Soc. 52 (1956); Berlekamp, Conway & Guy, Winning Ways, ch. 4",
            presets: &["octal(0.77)", "octal(0.07)"],
        },
        GameEntry {
            name: "subtraction(s1,s2,...)",
            title: "Subtraction game",
            parameters: "the amounts a move may remove, positive, at most 1000 of them, each at most 1000000",
            position: "heap sizes, e.g. 10,12 (a sum of heaps)",
            example: "nimlab sequence 'subtraction(1,3,4)' --max 50",
            rules: "a move removes s tokens from one heap, s in the set (the octal game with d_s = 3 for s in the set)",
            source: "Berlekamp, Conway & Guy, Winning Ways, ch. 4",
            presets: &["subtraction(1,3,4)"],
        },
        GameEntry {
            name: "grundy",
            title: "Grundy's game",
            parameters: "none (also written \"Grundy's game\")",
            position: "heap sizes, e.g. 5,7 (a sum of heaps)",
            example: "nimlab sequence grundy --max 100000",
            rules: "a move splits one heap into two non-empty heaps of different sizes; heaps of 1 and 2 have no move; the value of a list of heaps is the XOR of the heaps' values",
            source: "P. M. Grundy, Mathematics and games, Eureka 2 (1939); Berlekamp, Conway & Guy, Winning Ways, ch. 4; OEIS A002188",
            presets: &["grundy"],
        },
        GameEntry {
            name: "moore(k)",
            title: "Moore's Nim_k",
            parameters: "k >= 1: the most heaps one move may touch",
            position: "heap sizes, e.g. 1,2,3,4",
            example: "nimlab outcome 'moore(2)' 1,2,3",
            rules: "a move takes tokens from at least one and at most k heaps",
            source: "Moore (1910)",
            presets: &["moore(2)"],
        },
        GameEntry {
            name: "CN(n,k)",
            title: "Circular Nim",
            parameters: "1 <= k <= n: n stacks on a circle, windows of k consecutive stacks",
            position: "n stack heights in circle order, e.g. 1,7,5,6,2,3,6 for CN(7,4)",
            example: "nimlab outcome 'CN(7,4)' 1,7,5,6,2,3,6",
            rules: "a move picks k consecutive stacks and lowers any of them (at least one token in all)",
            source: "Dufour & Heubach (2013); Dufour, Heubach & Vo, Integers 21B (2021)",
            presets: &["CN(5,3)", "CN(4,2)", "CN(6,3)", "CN(7,4)"],
        },
        GameEntry {
            name: "SCN(n,k)",
            title: "Shrinking Circular Nim",
            parameters: "1 <= k <= n: a circle of at most n positive piles, windows of k piles",
            position: "the positive piles in circle order (at most n), e.g. 1,6,2,3,3,6; () is the empty circle",
            example: "nimlab outcome 'SCN(6,3)' 1,6,2,3,3,6",
            rules: "as Circular Nim, but emptied piles vanish and the circle closes up; with at most k piles left, any of them may be lowered",
            source: "Oginuma & Shinoda (2024)",
            presets: &["SCN(6,3)", "SCN(5,2)"],
        },
        GameEntry {
            name: "simplicial({..},..)",
            title: "Nim on a simplicial complex",
            parameters: "the facets in braces, stacks numbered 1..n (n the largest named), e.g. simplicial({1,2,3},{3,4},{4,1})",
            position: "n stack heights, stack 1 first, e.g. 1,2,3,4",
            example: "nimlab outcome 'simplicial({1,2,3},{3,4},{4,1})' 1,2,3,4",
            rules: "a move lowers any stacks inside one facet (at least one token in all); CN(n,k) is the complex of the windows, moore(k) that of all k-sets",
            source: "Ehrenborg & Steingrímsson, Playing Nim on a simplicial complex, Electronic J. Combin. 3 (1996)",
            presets: &["simplicial({1,2,3},{3,4},{4,1})"],
        },
        GameEntry {
            name: "ECN(m,{s1,..},k)",
            title: "Extended Circular Nim",
            parameters: "m >= 2 stacks on a circle, steps 1 <= s <= m/2, 1 <= k <= m (also written ECN(m_{s1,..},k))",
            position: "m stack heights in circle order, e.g. 1,2,3,4,5,6,7,8 for ECN(8,{1,2},3)",
            example: "nimlab outcome 'ECN(8,{1,2},3)' 1,2,3,4,5,6,7,8",
            rules: "a move picks s in S, a start i and j <= k, and lowers any of the stacks i, i+s, ..., i+(j-1)s (mod m), at least one token in all; ECN(m,{1},k) is CN(m,k)",
            source: "K. Suetsugu, Extended circular nim, arXiv:2501.12045 (2025)",
            presets: &["ECN(8,{1,2},3)", "ECN(5,{2},2)"],
        },
        GameEntry {
            name: "ET(k)",
            title: "Empty & Transfer",
            parameters: "k >= 2 boxes (alias empty-transfer(k))",
            position: "k box contents, each >= 1, as a list or in Ferguson's notation, e.g. 1^3 2 3^2 5",
            example: "nimlab outcome 'ET(4)' 1000000000000000000,3,5,7",
            rules: "empty one box, then move at least one but not all chips of another box into it; ends at 1^k",
            source: "Ferguson, Some Chip Transfer Games, §2",
            presets: &["ET(3)"],
        },
        GameEntry {
            name: "EABO(k)",
            title: "Empty-All-But-One",
            parameters: "k >= 2 boxes (alias empty-all-but-one(k))",
            position: "k box contents, each >= 1, e.g. 1^2 7",
            example: "nimlab outcome 'EABO(3)' 1,1,7",
            rules: "keep one box with at least k chips, empty the others, redistribute it over the k boxes (each >= 1)",
            source: "Ferguson, Some Chip Transfer Games, §3",
            presets: &["EABO(3)"],
        },
        GameEntry {
            name: "ER(k)",
            title: "Empty & Redistribute",
            parameters: "k >= 2 boxes (alias empty-redistribute(k))",
            position: "k box contents, each >= 1, e.g. 1^6 10",
            example: "nimlab outcome 'ER(7)' 1^6 10",
            rules: "discard one box, redistribute the other chips over the k boxes (each >= 1); ends at 1^k",
            source: "Ferguson, Some Chip Transfer Games, §4",
            presets: &["ER(4)"],
        },
        GameEntry {
            name: "SER(k)",
            title: "Selective-Empty & Redistribute",
            parameters: "k >= 2 boxes (alias selective-empty-redistribute(k))",
            position: "k box contents, each >= 1",
            example: "nimlab outcome 'SER(4)' 1,2,3,4",
            rules: "discard any 1 to k-1 boxes, redistribute the rest over the k boxes (each >= 1); ends at 1^k",
            source: "Ferguson, Some Chip Transfer Games, §4",
            presets: &[],
        },
        GameEntry {
            name: "EJR(k,j)",
            title: "Empty-j & Redistribute",
            parameters: "k >= 2 boxes, 1 <= j <= k-1 boxes discarded (alias empty-j-redistribute(k,j))",
            position: "k box contents, each >= 1",
            example: "nimlab outcome 'EJR(5,2)' 1,2,3,4,5",
            rules: "discard exactly j boxes, redistribute the rest over the k boxes (each >= 1); EJR(k,1) = ER(k), EJR(k,k-1) = EABO(k)",
            source: "Ferguson, Some Chip Transfer Games, §1 (open problem)",
            presets: &[],
        },
        GameEntry {
            name: "ENTROPY(k)",
            title: "Entropy Reduction",
            parameters: "k >= 2 boxes (alias entropy-reduction(k))",
            position: "k integers (negative allowed; the minimum is subtracted), e.g. 0,3,10",
            example: "nimlab outcome 'ENTROPY(3)' 0,3,10",
            rules: "move t chips from a box of a to a box of b < a, 1 <= t <= a-b-1; ends when max - min <= 1",
            source: "Ferguson, Some Chip Transfer Games, §5",
            presets: &["ENTROPY(3)"],
        },
    ]
}

/// The ready-made instances of every family, in catalogue order (the web page's menu).
pub fn presets() -> Vec<&'static str> {
    catalogue()
        .iter()
        .flat_map(|e| e.presets.iter().copied())
        .collect()
}

/// The family names, e.g. `nim, moore(k), CN(n,k), ...` (help texts and error messages).
pub fn family_names() -> String {
    known()
}

fn known() -> String {
    catalogue()
        .iter()
        .map(|e| e.name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn params(name: &str, inner: &str, want: usize) -> Result<Vec<usize>> {
    let parts: Vec<&str> = inner.split(',').collect();
    if parts.len() != want {
        return Err(Error::BadGame(format!(
            "{name} takes {want} parameter{}, got '{inner}'",
            if want == 1 { "" } else { "s" }
        )));
    }
    parts
        .iter()
        .map(|s| {
            s.parse::<usize>().map_err(|_| {
                Error::BadGame(format!(
                    "{name}: parameter '{s}' is not a non-negative integer"
                ))
            })
        })
        .collect()
}

/// True when `text` names a disjunctive sum such as `CN(7,4)[1,2,3,4,5,6,7] + nim[5]`.
pub fn is_sum(text: &str) -> bool {
    text.contains('[')
}

/// Parses a disjunctive sum `GAME[POSITION] + GAME[POSITION] + ...` into the sum game and the
/// components' positions.
pub fn parse_sum(text: &str) -> Result<(nimlab_core::SumGame, Vec<nimlab_core::Pos>)> {
    // Split at '+' outside brackets and parentheses.
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            '+' if depth == 0 => {
                pieces.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&text[start..]);
    let mut games: Vec<Box<dyn Game>> = Vec::new();
    let mut positions = Vec::new();
    for piece in pieces {
        let piece = piece.trim();
        let (name, rest) = piece.split_once('[').ok_or_else(|| {
            Error::BadGame(format!(
                "sum component '{piece}' needs a position in brackets, e.g. nim[5] or CN(4,2)[1,2,3,4]"
            ))
        })?;
        let pos = rest
            .strip_suffix(']')
            .ok_or_else(|| Error::BadGame(format!("sum component '{piece}' must end with ']'")))?;
        let g = parse_game(name)?;
        let p = g.parse_position(pos)?;
        games.push(g);
        positions.push(p);
    }
    Ok((nimlab_core::SumGame::new(games)?, positions))
}

/// Turns a game name (case-insensitive, spaces ignored) into a game. A path ending in `.rhai` names a
/// scripted game (see [`crate::script`]).
pub fn parse_game(text: &str) -> Result<Box<dyn Game>> {
    if text.trim().ends_with(".rhai") {
        return Ok(Box::new(crate::script::ScriptedGame::load(text.trim())?));
    }
    let s: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let call = |prefix: &str| -> Option<String> {
        s.strip_prefix(prefix)
            .and_then(|r| r.strip_prefix('('))
            .and_then(|r| r.strip_suffix(')'))
            .map(|r| r.to_string())
    };
    let count = |c: char| s.chars().filter(|&x| x == c).count();
    if count('(') != count(')') || count('{') != count('}') {
        return Err(Error::BadGame(unknown(text.trim())));
    }
    if s == "nim" {
        return Ok(Box::new(Nim));
    }
    if s == "grundy" || s == "grundy'sgame" || s == "grundysgame" {
        return Ok(Box::new(crate::octal::OctalGame::grundy()));
    }
    if let Some(inner) = call("octal") {
        return Ok(Box::new(crate::octal::OctalGame::octal(&inner)?));
    }
    if let Some(inner) = call("subtraction") {
        let set = inner
            .split(',')
            .map(|v| {
                v.parse::<u64>().map_err(|_| {
                    Error::BadGame(format!(
                        "subtraction(s1,s2,...): '{v}' is not a positive integer"
                    ))
                })
            })
            .collect::<Result<Vec<u64>>>()?;
        return Ok(Box::new(crate::octal::OctalGame::subtraction(&set)?));
    }
    if let Some(inner) = call("moore") {
        let v = params("moore(k)", &inner, 1)?;
        return Ok(Box::new(MooreNim::new(v[0])?));
    }
    if let Some(inner) = call("scn") {
        let v = params("SCN(n,k)", &inner, 2)?;
        return Ok(Box::new(ShrinkingCircularNim::new(v[0], v[1])?));
    }
    if let Some(inner) = call("cn") {
        let v = params("CN(n,k)", &inner, 2)?;
        return Ok(Box::new(CircularNim::new(v[0], v[1])?));
    }
    if let Some(inner) = call("simplicial") {
        return Ok(Box::new(crate::complex::parse_simplicial(&inner)?));
    }
    if let Some(inner) = call("ecn") {
        return Ok(Box::new(crate::complex::parse_ecn(&inner)?));
    }
    if let Some(inner) = call("et").or_else(|| call("empty-transfer")) {
        let v = params("ET(k)", &inner, 1)?;
        return Ok(Box::new(EmptyTransfer::new(v[0])?));
    }
    if let Some(inner) = call("eabo").or_else(|| call("empty-all-but-one")) {
        let v = params("EABO(k)", &inner, 1)?;
        return Ok(Box::new(Redistribute::eabo(v[0])?));
    }
    if let Some(inner) = call("er").or_else(|| call("empty-redistribute")) {
        let v = params("ER(k)", &inner, 1)?;
        return Ok(Box::new(Redistribute::er(v[0])?));
    }
    if let Some(inner) = call("ser").or_else(|| call("selective-empty-redistribute")) {
        let v = params("SER(k)", &inner, 1)?;
        return Ok(Box::new(Redistribute::ser(v[0])?));
    }
    if let Some(inner) = call("ejr").or_else(|| call("empty-j-redistribute")) {
        let v = params("EJR(k,j)", &inner, 2)?;
        return Ok(Box::new(Redistribute::ejr(v[0], v[1])?));
    }
    if let Some(inner) = call("entropy").or_else(|| call("entropy-reduction")) {
        let v = params("ENTROPY(k)", &inner, 1)?;
        return Ok(Box::new(EntropyReduction::new(v[0])?));
    }
    Err(Error::BadGame(unknown(text.trim())))
}

/// The names a game's text may start with, each with the spelling a suggestion uses.
const HEADS: &[(&str, &str)] = &[
    ("nim", "nim"),
    ("moore", "moore"),
    ("cn", "CN"),
    ("scn", "SCN"),
    ("simplicial", "simplicial"),
    ("ecn", "ECN"),
    ("et", "ET"),
    ("empty-transfer", "empty-transfer"),
    ("eabo", "EABO"),
    ("empty-all-but-one", "empty-all-but-one"),
    ("er", "ER"),
    ("empty-redistribute", "empty-redistribute"),
    ("ser", "SER"),
    (
        "selective-empty-redistribute",
        "selective-empty-redistribute",
    ),
    ("ejr", "EJR"),
    ("empty-j-redistribute", "empty-j-redistribute"),
    ("entropy", "ENTROPY"),
    ("entropy-reduction", "entropy-reduction"),
];

/// Edit distance (insertions, deletions, substitutions) between two short names.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != b[j]))
                .min(row[j] + 1)
                .min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The message for a name no family matches: the missing bracket when the brackets do not balance,
/// else the nearest family name with the user's parameters, else the list of families.
fn unknown(text: &str) -> String {
    if is_sum(text) {
        return format!(
            "'{text}' is a sum of games, which `nimlab outcome`, `grundy` and `moves` answer; this command takes one game (e.g. CN(7,4)) and its position apart"
        );
    }
    let count = |c: char| text.chars().filter(|&x| x == c).count();
    for (open, close) in [('(', ')'), ('{', '}')] {
        let (o, c) = (count(open), count(close));
        if o > c {
            let fixed = format!("{text}{}", close.to_string().repeat(o - c));
            let hint = if parse_game(&fixed).is_ok() {
                format!("; did you mean '{fixed}'?")
            } else {
                String::new()
            };
            return format!(
                "unknown game '{text}': the closing bracket '{close}' is missing{hint}"
            );
        }
        if c > o {
            return format!("unknown game '{text}': a '{close}' has no opening '{open}'");
        }
    }
    let (head, rest) = match text.find('(') {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    };
    let h = head.trim().to_ascii_lowercase();
    let best = HEADS
        .iter()
        .map(|(name, spelling)| (distance(&h, name), *spelling))
        .min_by_key(|(d, _)| *d);
    if let Some((d, spelling)) = best {
        // A near miss: at most two edits, and fewer than the name's own length.
        if d > 0 && d <= 2 && d < h.len().max(2) {
            let guess = format!("{spelling}{rest}");
            if parse_game(&guess).is_ok() || rest.is_empty() {
                return format!("unknown game '{text}'; did you mean '{guess}'?");
            }
        }
    }
    format!(
        "unknown game '{text}'; known games: {} (see `nimlab games`)",
        known()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn names_are_case_insensitive() {
        assert_eq!(parse_game("cn(7,4)").unwrap().id(), "CN(7,4)");
        assert_eq!(parse_game("CN( 7, 4 )").unwrap().id(), "CN(7,4)");
        assert_eq!(parse_game("Scn(6,3)").unwrap().id(), "SCN(6,3)");
        assert_eq!(parse_game("NIM").unwrap().id(), "nim");
        assert_eq!(parse_game("Moore(2)").unwrap().id(), "moore(2)");
    }
    #[test]
    fn chip_game_names() {
        for (name, id) in [
            ("et(4)", "ET(4)"),
            ("Empty-Transfer(3)", "ET(3)"),
            ("EABO(5)", "EABO(5)"),
            ("empty-all-but-one(2)", "EABO(2)"),
            ("er(7)", "ER(7)"),
            ("Empty-Redistribute(7)", "ER(7)"),
            ("ser(4)", "SER(4)"),
            ("selective-empty-redistribute(4)", "SER(4)"),
            ("EJR(5, 2)", "EJR(5,2)"),
            ("empty-j-redistribute(5,4)", "EJR(5,4)"),
            ("entropy(3)", "ENTROPY(3)"),
            ("Entropy-Reduction(3)", "ENTROPY(3)"),
        ] {
            assert_eq!(parse_game(name).unwrap().id(), id, "{name}");
        }
        for bad in [
            "ET(1)",
            "ET(0)",
            "ER(1)",
            "EABO(1)",
            "SER(1)",
            "EJR(5,0)",
            "EJR(5,5)",
            "EJR(5)",
            "ENTROPY(1)",
            "ET(x)",
            "ET(-2)",
            "EJR(1,1)",
        ] {
            let e = parse_game(bad).err().unwrap().to_string();
            assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
        }
    }
    #[test]
    fn typos_get_the_nearest_name_or_the_missing_bracket() {
        let msg = |t: &str| parse_game(t).err().unwrap().to_string();
        assert_eq!(
            msg("CM(6,2)"),
            "unknown game 'CM(6,2)'; did you mean 'CN(6,2)'?"
        );
        assert!(
            msg("CN(6,2").contains("the closing bracket ')' is missing; did you mean 'CN(6,2)'?")
        );
        assert!(msg("CN6,2)").contains("a ')' has no opening '('"));
        assert!(msg("CN(6,2))").contains("a ')' has no opening '('"));
        assert!(msg("nmi").contains("did you mean 'nim'?"));
        assert!(msg("mooore(2)").contains("did you mean 'moore(2)'?"));
        assert!(msg("entropi(3)").contains("did you mean 'ENTROPY(3)'?"));
        assert!(msg("chess").contains("known games:"));
        assert!(msg("nim[3]+nim[4]").contains("`nimlab outcome`, `grundy` and `moves` answer"));
    }
    #[test]
    fn bad_names_get_one_line_errors() {
        for bad in [
            "CN(3,4)", "CN(3,0)", "CN(3)", "CN(a,b)", "chess", "moore(0)", "SCN(2,3)", "CN(-1,2)",
        ] {
            let e = parse_game(bad).err().unwrap().to_string();
            assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
        }
    }
}
