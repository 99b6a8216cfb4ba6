// One slab of one tier of the P-set recurrence (see crates/tables/src/tiers.rs): one invocation per
// line; tiers.wgsl comes first. Constants: c0, c1 the halves of `full` (the bits of a line), c2 the
// origin is N (misère), c3 the run is a circle length of SCN whose moves that empty piles are
// answered by `scn`, the shorter lengths' tables (packed by ShrinkOracle::packed in pset/shrink_oracle.rs).

// D words of the previous tier's lines base.., nw per line.
@group(0) @binding(3) var<storage, read> prev: array<vec2<u32>>;
// D words of the slab's lines, nw per line.
@group(0) @binding(4) var<storage, read_write> cur: array<vec2<u32>>;
// The P-lines found since the host last read them: `count` of them, each as three words (tier, rank
// of the line in its tier, bit). The host reads them before they could pass the buffer's capacity
// (a line has at most one P-position), so what crosses to the host grows with the P-positions only.
struct Found {
    count: atomic<u32>,
    items: array<u32>,
}
@group(0) @binding(5) var<storage, read_write> found: Found;
// When c3 is set: SCN's oracle, the moves that empty piles (see ShrinkOracle::packed).
@group(0) @binding(6) var<storage, read> scn: array<u32>;

const HOLDS_BIT_AXIS: u32 = 0x80000000u;

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

// Entry `idx` of a table of two-byte entries at word `at` of `scn`.
fn half_at(at: u32, idx: u32) -> u32 {
    return (scn[at + idx / 2u] >> ((idx & 1u) * 16u)) & 0xffffu;
}

const NONE: u32 = 0xffffu;

// The positions of the line at `x` with a move that empties piles into a P-position of a shorter
// circle (the moves ShrinkOracle::n_at of pset/shrink_oracle.rs asks about, as a mask of the line).
// Tuple index i is line axis n - 1 - i.
fn scn_mask(x: ptr<function, array<u32, 32>>, full: vec2<u32>) -> vec2<u32> {
    if (scn[1] != 0u) {
        return full;
    }
    var out = vec2<u32>(0u, 0u);
    for (var z = 0u; z < scn[0]; z++) {
        let d = scn[2u + z];
        let kind = scn[d];
        let at = scn[d + 1u];
        let bit_from = scn[d + 2u];
        var idx = 0u;
        for (var c = 0u; c < scn[d + 3u]; c++) {
            idx += (*x)[P.n - 1u - scn[d + 4u + 2u * c]] * scn[d + 5u + 2u * c];
        }
        if (bit_from != 0xffffffffu) {
            // The last pile is emptied: the whole line reaches a P-position, or none of it does.
            let j = (*x)[P.n - 1u - bit_from];
            var hit = false;
            if (kind == 0u) {
                hit = half_at(at, idx) == j;
            } else if (kind == 1u) {
                let st = half_at(at, idx);
                hit = st != NONE && st <= j;
            } else {
                let w = vec2<u32>(scn[at + 2u * idx], scn[at + 2u * idx + 1u]);
                hit = select((w.y >> (j - 32u)) & 1u, (w.x >> j) & 1u, j < 32u) == 1u;
            }
            if (hit) {
                return full;
            }
        } else if (kind == 0u) {
            let o = half_at(at, idx);
            if (o != NONE) {
                if (o < 32u) {
                    out.x |= 1u << o;
                } else {
                    out.y |= 1u << (o - 32u);
                }
            }
        } else if (kind == 1u) {
            let st = half_at(at, idx);
            if (st != NONE) {
                if (st < 32u) {
                    out |= vec2<u32>(0xffffffffu << st, 0xffffffffu);
                } else {
                    out.y |= 0xffffffffu << (st - 32u);
                }
            }
        } else {
            out |= vec2<u32>(scn[at + 2u * idx], scn[at + 2u * idx + 1u]);
        }
    }
    return out;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let id = line_id(gid, groups);
    if (id >= P.lines) {
        return;
    }
    var x: array<u32, 32>;
    var nb: array<u32, 32>;
    locate(P.first + id, &x, &nb);
    let full = vec2<u32>(P.c0, P.c1);
    var nmask = vec2<u32>(0u, 0u);
    if (P.c2 != 0u && P.tier == 0u) {
        nmask.x = 1u;
    }
    if (P.c3 != 0u) {
        nmask |= scn_mask(&x, full);
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
    if (bit != 0u) {
        let k = atomicAdd(&found.count, 1u) * 3u;
        found.items[k] = P.tier;
        found.items[k + 1u] = P.first + id;
        found.items[k + 2u] = bit - 1u;
        for (var w = 0u; w < P.nw; w++) {
            var d = cur[rec + w] | pb;
            if ((wins[w] & HOLDS_BIT_AXIS) != 0u) {
                d = prefix(d, full);
            }
            cur[rec + w] = d;
        }
    }
}
