// One slab of one tier of the P-set recurrence (see crates/tables/src/tiers.rs): one invocation per
// line; tiers.wgsl comes first. Constants: c0, c1 the halves of `full` (the bits of a line), c2 the
// origin is N (misère), c3 the slab has an `extra` mask per line (SCN's moves that empty piles).

// D words of the previous tier's lines base.., nw per line.
@group(0) @binding(3) var<storage, read> prev: array<vec2<u32>>;
// D words of the slab's lines, nw per line.
@group(0) @binding(4) var<storage, read_write> cur: array<vec2<u32>>;
// Per line of the slab: 1 + the bit of its P-position, or 0 when it has none.
@group(0) @binding(5) var<storage, read_write> pbit: array<u32>;
// Per line of the slab (when c3 is set): the positions of the line with a winning move out of the box.
@group(0) @binding(6) var<storage, read> extra: array<vec2<u32>>;

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
        nmask |= extra[id];
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
