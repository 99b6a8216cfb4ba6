//! Rules a person can read, recognised in an automaton: when the automaton checks each binary place
//! (column) of the stacks on its own, the set of allowed columns is often a linear subspace of GF(2)
//! (relations "x1 xor x3 = 0": the XOR of some stacks is 0) or "the number of stacks with a 1 in the
//! column is a multiple of m" (Moore's Nim). [`readable`] finds such a rule and re-checks it: the
//! automaton the rule defines must accept exactly the words of the given one.

use super::dfa::Dfa;

/// Most tracks a rule is looked for on (the search runs over every column, 2^tracks of them).
const MAX_RULE_TRACKS: usize = 16;

/// A rule on the binary digits of the stacks, equivalent to an automaton.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// In every binary place, the number of stacks with a 1 there is a multiple of `modulus`.
    ColumnSums { modulus: u32 },
    /// Each relation (a set of stacks, 0-based) says: the XOR of these stacks is 0. Every binary
    /// column then lies in the subspace of GF(2)^tracks the relations cut out.
    Xor { relations: Vec<Vec<usize>> },
}

impl Rule {
    /// The rule in words, stacks numbered from 1 as in positions.
    pub fn text(&self, tracks: usize) -> String {
        match self {
            Rule::ColumnSums { modulus } => format!(
                "in every binary place, the number of the {tracks} stacks with a 1 there is a multiple of {modulus}"
            ),
            Rule::Xor { relations } if relations.len() == 1 && relations[0].len() == tracks => {
                "the XOR of all the stacks is 0 (Bouton's rule: every binary place has an even number of 1s)".into()
            }
            Rule::Xor { relations } => {
                let eqs: Vec<String> = relations
                    .iter()
                    .map(|r| {
                        let names: Vec<String> = r.iter().map(|i| format!("x{}", i + 1)).collect();
                        match names.len() {
                            1 => format!("{} = 0", names[0]),
                            2 => format!("{} = {}", names[0], names[1]),
                            _ => format!("{} = 0", names.join(" xor ")),
                        }
                    })
                    .collect();
                format!(
                    "{} (as binary numbers, bit by bit; x1 is the first stack)",
                    eqs.join(", and ")
                )
            }
        }
    }

    /// True when the rule allows the column `c` (bit `i` of `c` is stack `i`'s digit).
    fn allows(&self, c: u32) -> bool {
        match self {
            Rule::ColumnSums { modulus } => c.count_ones().is_multiple_of(*modulus),
            Rule::Xor { relations } => relations
                .iter()
                .all(|r| r.iter().filter(|&&i| c >> i & 1 == 1).count() % 2 == 0),
        }
    }

    /// The automaton of the rule: one accepting state that reads allowed columns, and a dead state.
    pub fn dfa(&self, tracks: usize) -> Dfa {
        let letters = 1u32 << tracks;
        let mut trans = Vec::with_capacity(2 * letters as usize);
        for l in 0..letters {
            trans.push(if self.allows(l) { 0 } else { 1 });
        }
        trans.extend(std::iter::repeat_n(1, letters as usize));
        match Dfa::from_parts(tracks, trans, vec![true, false]) {
            Ok(d) => d,
            Err(_) => unreachable!("a rule is looked for on at most MAX_RULE_TRACKS tracks"),
        }
    }
}

/// A readable rule equivalent to `d`, when there is one: `d` must read each column on its own (its
/// minimal automaton is one accepting state and a dead one), and the allowed columns must be those
/// with a column sum divisible by some m, or a linear subspace of GF(2). The rule found is checked
/// against `d` before it is returned.
pub fn readable(d: &Dfa) -> Option<Rule> {
    let k = d.tracks;
    if k == 0 || k > MAX_RULE_TRACKS {
        return None;
    }
    let m = d.minimize();
    if !m.is_final(0) || m.states() > 2 {
        return None;
    }
    let letters = 1u32 << k;
    let allowed: Vec<u32> = (0..letters).filter(|&l| m.step(0, l) == 0).collect();
    let rule = xor_rule(&allowed, k).or_else(|| column_sum_rule(&allowed, k))?;
    // Checked, whatever the reasoning above: the rule's automaton accepts exactly d's words.
    rule.dfa(k).differs_from(d).is_none().then_some(rule)
}

/// Column sums divisible by one modulus from 2 to `tracks`.
fn column_sum_rule(allowed: &[u32], k: usize) -> Option<Rule> {
    (2..=k as u32).find_map(|modulus| {
        let want: Vec<u32> = (0..1u32 << k)
            .filter(|c| c.count_ones() % modulus == 0)
            .collect();
        (want == allowed).then_some(Rule::ColumnSums { modulus })
    })
}

/// The relations (reduced row echelon form) of a linear subspace of GF(2)^k, when `allowed` is one.
fn xor_rule(allowed: &[u32], k: usize) -> Option<Rule> {
    if allowed.first() != Some(&0) || allowed.len() == 1 << k {
        return None;
    }
    // Closed under XOR (with 0 in it): a subspace.
    let set: std::collections::HashSet<u32> = allowed.iter().copied().collect();
    let basis = span_basis(allowed);
    if 1usize << basis.len() != allowed.len() || !basis.iter().all(|b| set.contains(b)) {
        return None;
    }
    for &a in allowed {
        for &b in &basis {
            if !set.contains(&(a ^ b)) {
                return None;
            }
        }
    }
    // The relations: every r with an even overlap with each basis vector, then a reduced basis of
    // them (the sparsest rows first after reduction).
    let dual: Vec<u32> = (1..1u32 << k)
        .filter(|r| basis.iter().all(|b| (r & b).count_ones() % 2 == 0))
        .collect();
    let mut rows = span_basis(&dual);
    reduce(&mut rows, k);
    rows.sort_by_key(|r| (r.count_ones(), r.trailing_zeros()));
    let relations = rows
        .iter()
        .map(|r| (0..k).filter(|i| r >> i & 1 == 1).collect())
        .collect();
    Some(Rule::Xor { relations })
}

/// A basis of the span of `vs` over GF(2).
fn span_basis(vs: &[u32]) -> Vec<u32> {
    let mut basis: Vec<u32> = Vec::new();
    for &v in vs {
        let mut x = v;
        for &b in &basis {
            x = x.min(x ^ b);
        }
        if x != 0 {
            basis.push(x);
            basis.sort_unstable_by(|a, b| b.cmp(a));
        }
    }
    basis
}

/// Reduced row echelon form (pivots at the highest bits), in place.
fn reduce(rows: &mut [u32], k: usize) {
    let mut r = 0;
    for bit in (0..k).rev() {
        let Some(p) = (r..rows.len()).find(|&i| rows[i] >> bit & 1 == 1) else {
            continue;
        };
        rows.swap(r, p);
        for i in 0..rows.len() {
            if i != r && rows[i] >> bit & 1 == 1 {
                rows[i] ^= rows[r];
            }
        }
        r += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The automaton that checks every column with `ok`, built column by column (not from a rule).
    fn columns(k: usize, ok: impl Fn(u32) -> bool) -> Dfa {
        let letters = 1u32 << k;
        let mut trans: Vec<u32> = (0..letters).map(|l| if ok(l) { 0 } else { 1 }).collect();
        trans.extend(std::iter::repeat_n(1, letters as usize));
        Dfa::from_parts(k, trans, vec![true, false]).unwrap()
    }

    /// Every tuple of `k` entries below 2^bits, by the rule and by the automaton.
    fn agree_on_a_box(rule: &Rule, d: &Dfa, k: usize, bits: u32) {
        let r = rule.dfa(k);
        let n = 1u128 << bits;
        let mut v = vec![0u128; k];
        loop {
            assert_eq!(r.accepts(&v), d.accepts(&v), "{v:?}");
            let mut i = 0;
            while i < k {
                v[i] += 1;
                if v[i] < n {
                    break;
                }
                v[i] = 0;
                i += 1;
            }
            if i == k {
                break;
            }
        }
    }

    #[test]
    fn nim_is_bouton() {
        // P iff the XOR of the heaps is 0: checked against that rule position by position.
        let d = columns(3, |c| c.count_ones() % 2 == 0);
        let r = readable(&d).unwrap();
        assert_eq!(
            r,
            Rule::Xor {
                relations: vec![vec![0, 1, 2]]
            }
        );
        assert!(r.text(3).contains("XOR of all the stacks is 0"));
        for a in 0..16u128 {
            for b in 0..16u128 {
                for c in 0..16u128 {
                    assert_eq!(d.accepts(&[a, b, c]), a ^ b ^ c == 0);
                }
            }
        }
    }

    #[test]
    fn moore_is_column_sums() {
        // Moore's Nim_2 on 4 heaps: column sums divisible by 3 (not a subspace).
        let d = columns(4, |c| c.count_ones() % 3 == 0);
        let r = readable(&d).unwrap();
        assert_eq!(r, Rule::ColumnSums { modulus: 3 });
        agree_on_a_box(&r, &d, 4, 3);
    }

    #[test]
    fn pairs_of_equal_stacks() {
        // CN(4,2): x1 = x3 and x2 = x4.
        let d = columns(4, |c| {
            (c & 1) == (c >> 2 & 1) && (c >> 1 & 1) == (c >> 3 & 1)
        });
        let r = readable(&d).unwrap();
        assert_eq!(
            r,
            Rule::Xor {
                relations: vec![vec![0, 2], vec![1, 3]]
            }
        );
        assert_eq!(
            r.text(4),
            "x1 = x3, and x2 = x4 (as binary numbers, bit by bit; x1 is the first stack)"
        );
        agree_on_a_box(&r, &d, 4, 3);
    }

    #[test]
    fn no_rule_for_what_is_neither() {
        // Columns with at most one 1: neither a subspace nor column sums.
        assert_eq!(readable(&columns(3, |c| c.count_ones() <= 1)), None);
        // A language that remembers across columns (the first stack is even): no column rule.
        let letters = 1u32 << 2;
        let mut trans = Vec::new();
        // State 0: nothing read yet or last digit of stack 1 was 0; state 1: it was 1.
        for s in 0..2u32 {
            let _ = s;
            for l in 0..letters {
                trans.push(l & 1);
            }
        }
        let d = Dfa::from_parts(2, trans, vec![true, false]).unwrap();
        assert_eq!(readable(&d), None);
    }
}
