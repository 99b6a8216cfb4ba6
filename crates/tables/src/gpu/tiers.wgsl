// Shared by the kernels (prepended to pset.wgsl and grundy.wgsl): the parameters of one slab of one
// tier (see crates/tables/src/tiers.rs and schedule.rs), the ranking table, and the unranking of a
// line with the ranks of its neighbours in the tier below. A 64-bit word is held as vec2<u32>
// (x: bits 0..31, y: bits 32..63), so no 64-bit integers are needed in the shaders.

struct Params {
    tier: u32,
    first: u32,     // rank of the slab's first line in its tier
    lines: u32,     // lines in the slab
    base: u32,      // rank of the first line of the previous tier held in `prev`
    n: u32,         // axes of a line
    nw: u32,        // windows
    r: u32,         // values per axis
    stride_s: u32,  // n (r - 1) + 1: sums per row of `skip`
    c0: u32,        // the kernel's own constants
    c1: u32,
    c2: u32,
    c3: u32,
    mirror: u32,    // P-sets: 1 when the lines are read through the game's mirror (see pset.wgsl)
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
// skipped(j, s, v) at (j * stride_s + s) * (r + 1) + v (see schedule.rs).
@group(0) @binding(1) var<storage, read> skip: array<u32>;
// Per window: its axes as a mask (the P-set kernel keeps bit 31 for the bit axis).
@group(0) @binding(2) var<storage, read> wins: array<u32>;

const MAX_AXES: u32 = 32u;

fn skipped(j: u32, s: u32, v: u32) -> u32 {
    return skip[(j * P.stride_s + s) * (P.r + 1u) + v];
}

// The invocation's line in the slab, or P.lines when it has none.
fn line_id(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    let id = gid.x + gid.y * groups.x * 64u;
    return select(P.lines, id, id < P.lines);
}

// Line `rank` of tier P.tier: its coordinates into x, and for each axis a with x[a] > 0 the rank of
// x - e_a in the tier below, minus P.base (its index in `prev`), into nb.
fn locate(rank0: u32, x: ptr<function, array<u32, 32>>, nb: ptr<function, array<u32, 32>>) {
    let n = P.n;
    // The sums s_p = tier - (x_0 + ... + x_{p-1}), by unranking.
    var sums: array<u32, 32>;
    var rank = rank0;
    var s = P.tier;
    for (var p = 0u; p < n; p++) {
        let j = n - p - 1u;
        sums[p] = s;
        // The largest v <= min(r - 1, s) with skipped(j, s, v) <= rank.
        var lo = 0u;
        var hi = min(P.r - 1u, s);
        while (lo < hi) {
            let mid = (lo + hi + 1u) / 2u;
            if (skipped(j, s, mid) <= rank) {
                lo = mid;
            } else {
                hi = mid - 1u;
            }
        }
        rank -= skipped(j, s, lo);
        (*x)[p] = lo;
        s -= lo;
    }
    neighbours(x, &sums, nb);
}

// The rank in tier P.tier of the tuple `x` (whose entries sum to P.tier), and into nb, as `locate`
// does, the index in `prev` of each x - e_a.
fn rank_of(x: ptr<function, array<u32, 32>>, nb: ptr<function, array<u32, 32>>) -> u32 {
    var sums: array<u32, 32>;
    var s = P.tier;
    var rank = 0u;
    for (var p = 0u; p < P.n; p++) {
        sums[p] = s;
        rank += skipped(P.n - p - 1u, s, (*x)[p]);
        s -= (*x)[p];
    }
    neighbours(x, &sums, nb);
    return rank;
}

// For each axis a with x[a] > 0, the rank of x - e_a in the tier below minus P.base, into nb; `sums`:
// sums[p] = P.tier - (x_0 + ... + x_{p-1}).
fn neighbours(x: ptr<function, array<u32, 32>>, sums: ptr<function, array<u32, 32>>, nb: ptr<function, array<u32, 32>>) {
    let n = P.n;
    // Rank of x - e_a in the tier below: entries before a see the sum one lower, a itself one lower,
    // entries after a unchanged. Suffix sums of the unchanged terms first.
    var after: array<u32, 33>;
    after[n] = 0u;
    for (var p = n; p > 0u; p--) {
        let q = p - 1u;
        after[q] = after[p] + skipped(n - q - 1u, (*sums)[q], (*x)[q]);
    }
    var before = 0u;
    for (var a = 0u; a < n; a++) {
        let j = n - a - 1u;
        let xa = (*x)[a];
        if (xa > 0u) {
            (*nb)[a] = before + skipped(j, (*sums)[a] - 1u, xa - 1u) + after[a + 1u] - P.base;
            before += skipped(j, (*sums)[a] - 1u, xa);
        } else if ((*sums)[a] > 0u) {
            before += skipped(j, (*sums)[a] - 1u, xa);
        }
    }
}
