// One slab of one tier of the P-set recurrence (see crates/tables/src/tiers.rs): one invocation per
// line. A line is a 64-bit word held as vec2<u32> (x: bits 0..31, y: bits 32..63), so no 64-bit
// integers are needed in the shader.

struct Params {
    tier: u32,
    first: u32,     // rank of the slab's first line in its tier
    lines: u32,     // lines in the slab
    base: u32,      // rank of the first line of the previous tier held in `prev`
    n: u32,         // axes of a line (the game's axes but the bit axis)
    nw: u32,        // windows
    r: u32,         // values per axis
    stride_s: u32,  // n (r - 1) + 1: sums per row of `skip`
    full_lo: u32,
    full_hi: u32,
    origin_n: u32,  // misère: the all-zero position is N
    pad: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
// skipped(j, s, v) at (j * stride_s + s) * (r + 1) + v (see schedule.rs).
@group(0) @binding(1) var<storage, read> skip: array<u32>;
// Per window: its axes as a mask (bits 0..30); bit 31: the window holds the bit axis.
@group(0) @binding(2) var<storage, read> wins: array<u32>;
// D words of the previous tier's lines base.., nw per line.
@group(0) @binding(3) var<storage, read> prev: array<vec2<u32>>;
// D words of the slab's lines, nw per line.
@group(0) @binding(4) var<storage, read_write> cur: array<vec2<u32>>;
// Per line of the slab: 1 + the bit of its P-position, or 0 when it has none.
@group(0) @binding(5) var<storage, read_write> pbit: array<u32>;

const MAX_AXES: u32 = 31u;
const HOLDS_BIT_AXIS: u32 = 0x80000000u;

fn skipped(j: u32, s: u32, v: u32) -> u32 {
    return skip[(j * P.stride_s + s) * (P.r + 1u) + v];
}

// Every bit from the lowest set one on (a window along the bit axis), within `full`.
fn prefix(e: vec2<u32>, full: vec2<u32>) -> vec2<u32> {
    if (e.x != 0u) {
        return vec2<u32>((0xffffffffu << countTrailingZeros(e.x)) & full.x, full.y);
    }
    if (e.y != 0u) {
        return vec2<u32>(0u, (0xffffffffu << countTrailingZeros(e.y)) & full.y);
    }
    return vec2<u32>(0u, 0u);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let id = gid.x + gid.y * groups.x * 64u;
    if (id >= P.lines) {
        return;
    }
    let n = P.n;
    // The line's coordinates x and the sums s_p = tier - (x_0 + ... + x_{p-1}), by unranking.
    var x: array<u32, MAX_AXES>;
    var sums: array<u32, MAX_AXES>;
    var rank = P.first + id;
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
        x[p] = lo;
        s -= lo;
    }
    // Rank of x - e_a in the tier below: entries before a see the sum one lower, a itself one lower,
    // entries after a unchanged. Suffix sums of the unchanged terms first.
    var after: array<u32, 32>;
    after[n] = 0u;
    for (var p = n; p > 0u; p--) {
        let q = p - 1u;
        after[q] = after[p] + skipped(n - q - 1u, sums[q], x[q]);
    }
    var nb: array<u32, MAX_AXES>;
    var before = 0u;
    for (var a = 0u; a < n; a++) {
        let j = n - a - 1u;
        if (x[a] > 0u) {
            nb[a] = before + skipped(j, sums[a] - 1u, x[a] - 1u) + after[a + 1u] - P.base;
            before += skipped(j, sums[a] - 1u, x[a]);
        } else if (sums[a] > 0u) {
            before += skipped(j, sums[a] - 1u, x[a]);
        }
    }
    let full = vec2<u32>(P.full_lo, P.full_hi);
    var nmask = vec2<u32>(0u, 0u);
    if (P.origin_n != 0u && P.tier == 0u) {
        nmask.x = 1u;
    }
    let rec = id * P.nw;
    for (var w = 0u; w < P.nw; w++) {
        let code = wins[w];
        var axes = code & ~HOLDS_BIT_AXIS;
        var e = vec2<u32>(0u, 0u);
        while (axes != 0u) {
            let a = countTrailingZeros(axes);
            axes &= axes - 1u;
            if (x[a] > 0u) {
                e |= prev[nb[a] * P.nw + w];
            }
        }
        if ((code & HOLDS_BIT_AXIS) != 0u) {
            e = prefix(e, full);
        }
        cur[rec + w] = e;
        nmask |= e;
    }
    // The P-position of the line: its lowest position with no move into the P-set.
    let free = ~nmask & full;
    var pb = vec2<u32>(0u, 0u);
    var bit = 0u;
    if (free.x != 0u) {
        pb.x = free.x & (0u - free.x);
        bit = countTrailingZeros(free.x) + 1u;
    } else if (free.y != 0u) {
        pb.y = free.y & (0u - free.y);
        bit = countTrailingZeros(free.y) + 33u;
    }
    pbit[id] = bit;
    if (bit != 0u) {
        for (var w = 0u; w < P.nw; w++) {
            var d = cur[rec + w] | pb;
            if ((wins[w] & HOLDS_BIT_AXIS) != 0u) {
                d = prefix(d, full);
            }
            cur[rec + w] = d;
        }
    }
}
