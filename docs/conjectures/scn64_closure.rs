//! SCN(6,4): how much of the P-set a proof of the slice rule by the subset condition (C) needs
//! (docs/findings.md section 1.3). Reads `nimlab table 'SCN(6,4)' --max H --format csv` on stdin
//! (canonical circles, one a line: length, piles), expands every rotation and reflection, and takes
//! S0 = {(), (a,a,a,a,a), (a,b,c,a,b,c) with (a-1) xor (b-1) xor (c-1) = 0 other than (1,1,1)}.
//! Prints: whether the slice rule holds on the box; the moves x -> y from slice members of S0 after
//! which y has no move into S0 (so (C) fails for S0), and among them those after which every winning
//! reply has opposite differences of spread >= 1 (an exception to the paper's form (ii)); then a set
//! closed under (C) inside the box, built greedily from S0 (a missing reply is the P-option of least
//! spread, then least |q|, then least sum), with the positions it had to add.
//! Build: rustc -O docs/conjectures/scn64_closure.rs -o scn64_closure (no dependencies).
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::BufRead;

type C = Vec<u32>;

fn canon(z: &[u32]) -> C {
    let mut best = z.to_vec();
    for s in 0..z.len() {
        let mut u = z.to_vec();
        u.rotate_left(s);
        best = best.min(u.clone());
        u.reverse();
        best = best.min(u);
    }
    best
}

/// (spread of the three opposite differences p4-p1, p2-p5, p6-p3; |p4-p1|).
fn ode(z: &[u32]) -> (i64, i64) {
    let d = [
        z[3] as i64 - z[0] as i64,
        z[1] as i64 - z[4] as i64,
        z[5] as i64 - z[2] as i64,
    ];
    (d.iter().max().unwrap() - d.iter().min().unwrap(), d[0].abs())
}

/// Every option of the circle x (windows of 4; the whole circle when it has at most 4 piles);
/// emptied piles vanish.
fn options(x: &[u32], f: &mut dyn FnMut(Vec<u32>)) {
    let m = x.len();
    let wins: Vec<Vec<usize>> = if m <= 4 {
        vec![(0..m).collect()]
    } else {
        (0..m).map(|s| (0..4).map(|j| (s + j) % m).collect()).collect()
    };
    for w in wins {
        let k = w.len();
        let mut vals = vec![0u32; k];
        loop {
            let mut y = x.to_vec();
            let mut changed = false;
            for j in 0..k {
                y[w[j]] = vals[j];
                changed |= vals[j] != x[w[j]];
            }
            if changed {
                f(y.into_iter().filter(|&v| v > 0).collect());
            }
            let mut j = 0;
            while j < k && vals[j] == x[w[j]] {
                vals[j] = 0;
                j += 1;
            }
            if j == k {
                break;
            }
            vals[j] += 1;
        }
    }
}

fn main() {
    let h: u32 = std::env::args().nth(1).expect("H").parse().unwrap();
    let mut p6: HashSet<C> = HashSet::new();
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let r: Vec<&str> = line.split(',').collect();
        if r[0] != "6" {
            continue;
        }
        let t: C = r[1..=6].iter().map(|s| s.parse().unwrap()).collect();
        for s in 0..6 {
            let mut u = t.clone();
            u.rotate_left(s);
            p6.insert(u.clone());
            u.reverse();
            p6.insert(u);
        }
    }
    // The P-options of a 6-circle y that are 6-circles, by the two piles outside the window.
    let mut idx: HashMap<(usize, u32, u32), Vec<C>> = HashMap::new();
    for z in &p6 {
        for s in 0..6 {
            idx.entry((s, z[(s + 4) % 6], z[(s + 5) % 6])).or_default().push(z.clone());
        }
    }
    let p_options = |y: &[u32]| -> (bool, Vec<C>) {
        // (a move to some (v,v,v,v,v), the 6-circle P-options)
        let mut five = false;
        let mut out = Vec::new();
        for s in 0..6 {
            let (o1, o2) = ((s + 4) % 6, (s + 5) % 6);
            let w = [s, (s + 1) % 6, (s + 2) % 6, (s + 3) % 6];
            if y[o1] == y[o2] {
                let v = y[o1];
                five |= w.iter().any(|&p| w.iter().all(|&q| q == p || y[q] >= v));
            }
            if let Some(l) = idx.get(&(s, y[o1], y[o2])) {
                for z in l {
                    if w.iter().all(|&i| z[i] <= y[i]) && z.as_slice() != y {
                        out.push(z.clone());
                    }
                }
            }
        }
        (five, out)
    };
    let rule = |a: u32, b: u32, c: u32| ((a - 1) ^ (b - 1) ^ (c - 1)) == 0 && (a, b, c) != (1, 1, 1);
    let mut slice = Vec::new();
    let mut wrong = 0;
    for a in 1..=h {
        for b in 1..=h {
            for c in 1..=h {
                let x = vec![a, b, c, a, b, c];
                if p6.contains(&x) != rule(a, b, c) {
                    wrong += 1;
                }
                if rule(a, b, c) {
                    slice.push(x);
                }
            }
        }
    }
    println!(
        "box: piles 1..={h}; {} ordered 6-circle P-positions; slice positions where the rule and the table differ: {wrong}",
        p6.len()
    );
    let in_s0 = |z: &[u32]| z.len() == 6 && z[0] == z[3] && z[1] == z[4] && z[2] == z[5] && rule(z[0], z[1], z[2]);
    let (mut fails, mut forced) = (0u64, 0u64);
    let mut example = None;
    for x in &slice {
        options(x, &mut |y| {
            if y.len() != 6 {
                return; // 5-circles: a move to (v^5) or none (then y is P: impossible below a P x)
            }
            let (five, zs) = p_options(&y);
            if five || zs.iter().any(|z| in_s0(z)) {
                return;
            }
            fails += 1;
            if zs.iter().all(|z| ode(z).0 >= 1) {
                forced += 1;
                if example.is_none() {
                    example = Some((x.clone(), y.clone(), zs.clone()));
                }
            }
        });
    }
    println!("S0: {} slice members; moves after which (C) fails: {fails}; of them, moves whose every winning reply is an exception (spread >= 1): {forced}", slice.len());
    if let Some((x, y, zs)) = example {
        println!("  e.g. {x:?} -> {y:?}, winning replies {zs:?}");
    }
    // The greedy closure.
    let mut set: HashSet<C> = slice.iter().cloned().collect();
    let mut work: VecDeque<C> = slice.iter().cloned().collect();
    let mut added: HashMap<(i64, i64), usize> = HashMap::new();
    while let Some(x) = work.pop_front() {
        let mut new: Vec<C> = Vec::new();
        options(&x, &mut |y| {
            if y.len() != 6 {
                return;
            }
            let (five, zs) = p_options(&y);
            if five || zs.iter().any(|z| set.contains(z) || new.contains(z)) {
                return;
            }
            let best = zs
                .iter()
                .min_by_key(|z| (ode(z), z.iter().sum::<u32>()))
                .expect("an option of a P-position is N");
            new.push(best.clone());
        });
        for z in new {
            if set.insert(z.clone()) {
                *added.entry(ode(&z)).or_default() += 1;
                work.push_back(z);
            }
        }
    }
    let canon_set: HashSet<C> = set.iter().map(|z| canon(z)).collect();
    let canon_p: HashSet<C> = p6.iter().map(|z| canon(z)).collect();
    let extra: usize = added.values().sum();
    println!(
        "closed set: {} ordered 6-circles ({} up to symmetry, of the box's {}), {extra} added to the slice",
        set.len(),
        canon_set.len(),
        canon_p.len()
    );
    let mut k: Vec<_> = added.into_iter().collect();
    k.sort();
    for ((spread, q), n) in k {
        println!("  added with spread {spread}, |q| = {q}: {n}");
    }
}
