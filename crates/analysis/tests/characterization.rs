//! Proved characterizations kept in the store answer positions of any size: the outcome by
//! membership, a winning move by a search in the set's automaton, the explanation, all naming the
//! characterization. Checked against Nim's xor rule and CN(4,2)'s hand rule on huge positions, against
//! a plain exhaustive search (written here) and the registry's results on boxes; a characterization
//! of another game or convention is not used.

use nimlab_analysis::proved::{save_proved, CharacterizationFormat};
use nimlab_analysis::{Analyzer, Limits, Method, StoreHandle, Want};
use nimlab_core::Play;
use nimlab_games::parse_game;
use nimlab_tables::store::Store;
use std::collections::HashMap;
use std::path::PathBuf;

/// CN(4,2)'s P-positions written as a families file here (Dufour & Heubach's theorem: opposite
/// stacks equal), not taken from nimlab's output.
const CN42: &str = r#"
game = "CN(4,2)"
reading = "any"
[[family]]
name = "opposite stacks equal"
relations = ["a = c", "b = d"]
"#;

fn nim3() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/automata/nim-3.txt"
    );
    std::fs::read_to_string(path).unwrap()
}

/// A store holding both characterizations (normal play), and an analyzer without the registry.
fn setup(name: &str) -> (Analyzer, PathBuf, i64, i64) {
    let dir = std::env::temp_dir().join(format!("nimlab-char-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("t.sqlite3");
    let mut s = Store::open(&path).unwrap();
    let cn = save_proved(
        &mut s,
        "CN(4,2)",
        Play::Normal,
        CharacterizationFormat::Families,
        CN42,
        "smt",
    )
    .unwrap();
    let nim = save_proved(
        &mut s,
        "CN(3,1)",
        Play::Normal,
        CharacterizationFormat::Automaton,
        &nim3(),
        "automata",
    )
    .unwrap();
    drop(s);
    let mut an = Analyzer::new(StoreHandle::at(Some(path.clone())), Limits::CLI);
    an.theory = false;
    (an, dir, cn, nim)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number in the top quarter of u64 (at least 2^63 + 2^62).
    fn huge(&mut self) -> u64 {
        self.next() | (3 << 62)
    }
}

fn is_char(m: &Method, id: i64) -> bool {
    matches!(m, Method::Characterization { id: i, .. } if *i == id)
}

/// `q` is an option of `p` in CN(n,k): entries lowered inside one window of k consecutive stacks
/// (at least one), the others kept.
fn legal_cn(p: &[u64], q: &[u64], k: usize) -> bool {
    let n = p.len();
    q.len() == n
        && q != p
        && (0..n).any(|s| {
            (0..n).all(|i| {
                let inside = (i + n - s) % n < k;
                if inside {
                    q[i] <= p[i]
                } else {
                    q[i] == p[i]
                }
            })
        })
}

fn cn42_rule(p: &[u64]) -> bool {
    p[0] == p[2] && p[1] == p[3]
}

#[test]
fn huge_positions_are_answered_by_the_characterization() {
    let (an, dir, cn, nim) = setup("huge");
    let mut r = Rng(7);
    let nimg = parse_game("CN(3,1)").unwrap();
    let cng = parse_game("CN(4,2)").unwrap();
    for round in 0..40 {
        // Nim: half the positions are P by construction.
        let (a, b) = (r.huge(), r.huge());
        let c = if round % 2 == 0 { a ^ b } else { r.huge() };
        let p = vec![a, b, c];
        let x = an
            .analyse(nimg.as_ref(), &p, Play::Normal, Want::explain())
            .unwrap();
        assert!(is_char(&x.method, nim), "{:?}", x.method);
        assert_eq!(x.outcome.is_p(), a ^ b ^ c == 0, "{p:?}");
        let e = x.explanation.unwrap();
        assert!(
            e.reason.contains(&format!("characterization #{nim}")),
            "{}",
            e.reason
        );
        if !x.outcome.is_p() {
            let q = e.winning_move.expect("a winning move");
            assert!(legal_cn(&p, &q, 1), "{p:?} -> {q:?}");
            assert_eq!(q[0] ^ q[1] ^ q[2], 0, "{p:?} -> {q:?}");
            assert!(is_char(x.moves_method.as_ref().unwrap(), nim));
        }
        // CN(4,2): P when opposite stacks are equal.
        let (a, b) = (r.huge(), r.huge());
        let p = if round % 2 == 0 {
            vec![a, b, a, b]
        } else {
            vec![a, b, r.huge(), r.huge()]
        };
        let x = an
            .analyse(cng.as_ref(), &p, Play::Normal, Want::moves())
            .unwrap();
        assert!(is_char(&x.method, cn), "{:?}", x.method);
        assert_eq!(x.outcome.is_p(), cn42_rule(&p), "{p:?}");
        let w = x.winning_moves.unwrap();
        if x.outcome.is_p() {
            assert!(w.is_empty());
        } else {
            assert_eq!(w.len(), 1);
            assert!(legal_cn(&p, &w[0], 2), "{p:?} -> {:?}", w[0]);
            assert!(cn42_rule(&w[0]), "{p:?} -> {:?}", w[0]);
        }
    }
    // No Grundy value for an N-position: a note says why.
    let p = [u64::MAX, 5, 9];
    let x = an
        .analyse(nimg.as_ref(), &p, Play::Normal, Want::outcome())
        .unwrap();
    assert!(x.grundy.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The P-set of CN(n,k) on the box [0..=h]^n by a plain memoized search.
fn brute_p(n: usize, k: usize, h: u64) -> HashMap<Vec<u64>, bool> {
    fn is_p(p: &[u64], k: usize, memo: &mut HashMap<Vec<u64>, bool>) -> bool {
        if let Some(&v) = memo.get(p) {
            return v;
        }
        let n = p.len();
        let mut any_p_option = false;
        'outer: for s in 0..n {
            let w: Vec<usize> = (0..k.min(n)).map(|j| (s + j) % n).collect();
            // Every way to lower entries of the window (odometer over the window's values).
            let mut q = p.to_vec();
            loop {
                let mut j = 0;
                loop {
                    if j == w.len() {
                        break;
                    }
                    let i = w[j];
                    if q[i] == 0 {
                        q[i] = p[i];
                        j += 1;
                    } else {
                        q[i] -= 1;
                        break;
                    }
                }
                if j == w.len() {
                    break;
                }
                if is_p(&q.clone(), k, memo) {
                    any_p_option = true;
                    break 'outer;
                }
            }
        }
        memo.insert(p.to_vec(), !any_p_option);
        !any_p_option
    }
    let mut memo = HashMap::new();
    let mut out = HashMap::new();
    let total = (h + 1).pow(n as u32);
    for idx in 0..total {
        let p: Vec<u64> = (0..n)
            .map(|i| (idx / (h + 1).pow(i as u32)) % (h + 1))
            .collect();
        let v = is_p(&p, k, &mut memo);
        out.insert(p, v);
    }
    out
}

#[test]
fn a_box_agrees_with_search_and_with_the_registry() {
    let (an, dir, cn, nim) = setup("box");
    for (name, n, k, h, id, theorem) in [
        ("CN(4,2)", 4, 2, 9u64, cn, "cn-4-2"),
        ("CN(3,1)", 3, 1, 15, nim, "bouton"),
    ] {
        let g = parse_game(name).unwrap();
        let t = nimlab_theory::by_id(theorem).unwrap();
        let truth = brute_p(n, k, h);
        assert!(truth.len() >= 4096);
        let chain = an.chain(g.as_ref(), &vec![h; n], Play::Normal);
        let proved = chain.proved();
        assert_eq!(proved.len(), 1);
        let c = &proved[0];
        for (p, &is_p) in &truth {
            let k = chain.root(p, Play::Normal).unwrap();
            assert!(is_char(&k.method, id), "{name} {p:?}: {:?}", k.method);
            assert_eq!(k.outcome.is_p(), is_p, "{name} {p:?}");
            assert_eq!(t.decide(g.as_ref(), p).unwrap().is_p, is_p, "{name} {p:?}");
            // The automaton's winning move: legal and into the P-set; none from a P-position.
            match c.winning_move(g.as_ref(), p) {
                Some(q) => {
                    assert!(!is_p, "{name} {p:?} is P but a move was found");
                    assert!(legal_cn(p, &q, k_of(name)), "{name} {p:?} -> {q:?}");
                    assert!(truth[&q], "{name} {p:?} -> {q:?} is not P");
                }
                None => assert!(is_p, "{name} {p:?} is N but no move was found"),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn k_of(name: &str) -> usize {
    if name == "CN(4,2)" {
        2
    } else {
        1
    }
}

#[test]
fn another_game_or_convention_does_not_use_it() {
    let (an, dir, _, _) = setup("other");
    for (name, p, play) in [
        ("CN(4,2)", vec![2, 3, 2, 3], Play::Misere),
        ("CN(3,1)", vec![1, 2, 3], Play::Misere),
        ("CN(4,3)", vec![2, 3, 2, 3], Play::Normal),
        ("nim", vec![1, 2, 3], Play::Normal),
    ] {
        let g = parse_game(name).unwrap();
        let x = an.analyse(g.as_ref(), &p, play, Want::outcome()).unwrap();
        assert!(
            !matches!(x.method, Method::Characterization { .. }),
            "{name} {play:?}: {:?}",
            x.method
        );
    }
    // With the registry, its result answers first.
    let mut an = an;
    an.theory = true;
    let g = parse_game("CN(4,2)").unwrap();
    let x = an
        .analyse(g.as_ref(), &[5, 6, 5, 6], Play::Normal, Want::outcome())
        .unwrap();
    assert_eq!(x.method.id(), "cn-4-2");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_characterizations_are_refused_in_one_line() {
    let dir = std::env::temp_dir().join(format!("nimlab-char-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut s = Store::open(&dir.join("t.sqlite3")).unwrap();
    let wrong_game = save_proved(
        &mut s,
        "CN(5,2)",
        Play::Normal,
        CharacterizationFormat::Families,
        CN42,
        "smt",
    );
    assert!(wrong_game.unwrap_err().to_string().contains("CN(4,2)"));
    assert!(save_proved(
        &mut s,
        "CN(4,2)",
        Play::Normal,
        CharacterizationFormat::Families,
        CN42,
        "guess"
    )
    .is_err());
    assert!(save_proved(
        &mut s,
        "CN(4,2)",
        Play::Normal,
        CharacterizationFormat::Automaton,
        &nim3(),
        "automata"
    )
    .is_err());
    assert!(save_proved(
        &mut s,
        "CN(3,1)",
        Play::Normal,
        CharacterizationFormat::Automaton,
        "nonsense",
        "automata"
    )
    .is_err());
    assert!(s.characterizations().unwrap().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_learned_automaton_agrees_with_the_registry_on_random_huge_positions() {
    let dir = std::env::temp_dir().join(format!("nimlab-char-cn64-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("t.sqlite3");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/automata/cn-6-4.txt"
    ))
    .unwrap();
    let mut s = Store::open(&path).unwrap();
    let id = save_proved(
        &mut s,
        "CN(6,4)",
        Play::Normal,
        CharacterizationFormat::Automaton,
        &text,
        "automata",
    )
    .unwrap();
    drop(s);
    let mut an = Analyzer::new(StoreHandle::at(Some(path)), Limits::CLI);
    an.theory = false;
    let g = parse_game("CN(6,4)").unwrap();
    let t = nimlab_theory::by_id("cn-6-4").unwrap();
    let mut r = Rng(64);
    let mut seen = [0usize; 2];
    for round in 0..300 {
        // Entries of mixed sizes, some equal, so that both outcomes occur.
        let p: Vec<u64> = (0..6)
            .map(|i| match (round + i) % 4 {
                0 => r.huge(),
                1 => r.next() >> (r.next() % 64),
                2 => r.next() % 8,
                _ => r.next(),
            })
            .collect();
        let x = an
            .analyse(g.as_ref(), &p, Play::Normal, Want::moves())
            .unwrap();
        assert!(is_char(&x.method, id), "{:?}", x.method);
        let truth = t.decide(g.as_ref(), &p).unwrap().is_p;
        assert_eq!(x.outcome.is_p(), truth, "{p:?}");
        seen[usize::from(truth)] += 1;
        if !truth {
            let q = &x.winning_moves.unwrap()[0];
            assert!(legal_cn(&p, q, 4), "{p:?} -> {q:?}");
            assert!(t.decide(g.as_ref(), q).unwrap().is_p, "{p:?} -> {q:?}");
            // The P-position reached is answered by the characterization too.
            let y = an
                .analyse(g.as_ref(), q, Play::Normal, Want::outcome())
                .unwrap();
            assert!(y.outcome.is_p() && is_char(&y.method, id), "{q:?}");
            seen[1] += 1;
        }
    }
    assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
