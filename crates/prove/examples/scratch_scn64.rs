use nimlab_prove::learn::{learn_table, Table};
use std::collections::HashSet;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let maxbits: u32 = std::env::args().nth(2).unwrap().parse().unwrap();
    let mut p: HashSet<Vec<u64>> = HashSet::new();
    for line in std::fs::read_to_string(path).unwrap().lines().skip(1) {
        let r: Vec<&str> = line.split(',').collect();
        if r[0] != "6" {
            continue;
        }
        let t: Vec<u64> = r[1..=6].iter().map(|s| s.parse().unwrap()).collect();
        for s in 0..6 {
            let mut u = t.clone();
            u.rotate_left(s);
            p.insert(u.clone());
            u.reverse();
            p.insert(u);
        }
    }
    // ODE graph: (a,b,c,q) -> (a, b+q, c, a+q, b, c+q), a,b,c >= 1
    for bits in 2..=maxbits {
        let t = Table::from_fn(4, bits, |x| {
            let (a, b, c, q) = (x[0], x[1], x[2], x[3]);
            a >= 1 && b >= 1 && c >= 1 && p.contains(&vec![a, b + q, c, a + q, b, c + q])
        })
        .unwrap();
        match learn_table(&t, 2_000_000) {
            Ok(l) => println!("ODE bits {bits}: {} states", l.dfa.states()),
            Err(e) => println!("ODE bits {bits}: {e}"),
        }
        // shifted: (a-1,b-1,c-1,q)
        let t = Table::from_fn(4, bits, |x| {
            let (a, b, c, q) = (x[0] + 1, x[1] + 1, x[2] + 1, x[3]);
            p.contains(&vec![a, b + q, c, a + q, b, c + q])
        })
        .unwrap();
        match learn_table(&t, 2_000_000) {
            Ok(l) => println!("ODE-1 bits {bits}: {} states", l.dfa.states()),
            Err(e) => println!("ODE-1 bits {bits}: {e}"),
        }
    }
}
