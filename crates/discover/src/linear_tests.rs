//! Tests of the linear conjecturer.
use super::*;

#[test]
fn hull_of_a_plane_and_its_relations() {
    // Points (m, x, y, m, M) with x + y = m + M: hull a = d, b + c = d + e.
    let mut pts = Vec::new();
    for m in 0..3i64 {
        for x in m..6 {
            for y in x..6 {
                let big = x + y - m;
                if big >= y {
                    pts.push(vec![m, x, y, m, big]);
                }
            }
        }
    }
    let f = Fam::of(5, pts.clone(), Vec::new(), 0);
    assert_eq!(f.dim(), 3);
    for p in &pts {
        assert!(f.holds(p));
    }
    assert!(!f.holds(&[0, 1, 1, 0, 3]));
    let rels = f.relations();
    assert!(rels.contains(&"a = d".to_string()), "{rels:?}");
}

#[test]
fn equations_read_as_written() {
    assert_eq!(equation(&[1, 0, -1], 0), "a = c");
    assert_eq!(equation(&[2, -1, 0], -1), "2a + 1 = b");
    assert_eq!(equation(&[0, 1, 0], 3), "b = 3");
    assert_eq!(equation(&[1, 1, -1], 0), "a + b = c");
}
