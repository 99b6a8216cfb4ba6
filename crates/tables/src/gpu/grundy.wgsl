// One slab of one tier of the Grundy recurrence (see crates/tables/src/grundy.rs): one invocation per
// position (a "line" of tiers.wgsl is a whole position here: every axis is ranked); tiers.wgsl comes
// first. For a window w, G_w(p) is the set of values of the positions q <= p equal to p outside w;
// the options of p have the values U_{w, a in w, p_a > 0} G_w(p - e_a), every one of them in the tier
// below; g(p) is their mex and G_w(p) = {g(p)} U U_{a in w, p_a > 0} G_w(p - e_a). Sets are bit sets
// of c0 64-bit words (values below 64 c0); a value that does not fit is reported as 0xffffffff and
// the host goes on from this tier with twice the words (the sets of the tier below are exact).
// When c1 is set, the host also hands each position the set of values of its options out of the box
// (SCN's moves that empty piles, whose values the shorter circles give), c0 words, OR-ed in before the
// mex; they do not enter the sets G_w, which hold values inside the box.

// Value sets of the previous tier's positions base.., nw sets of c0 words per position.
@group(0) @binding(3) var<storage, read> prev: array<vec2<u32>>;
// Value sets of the slab's positions.
@group(0) @binding(4) var<storage, read_write> cur: array<vec2<u32>>;
// The Grundy value of each position of the slab, or 0xffffffff when it needs more words.
@group(0) @binding(5) var<storage, read_write> value: array<u32>;
// Per position of the slab (when c1 is set): the values of its options out of the box, c0 words.
@group(0) @binding(6) var<storage, read> extra: array<vec2<u32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let id = line_id(gid, groups);
    if (id >= P.lines) {
        return;
    }
    var x: array<u32, 32>;
    var nb: array<u32, 32>;
    locate(P.first + id, &x, &nb);
    let words = P.c0;
    let nw = P.nw;
    let rec = id * nw * words;
    for (var w = 0u; w < nw; w++) {
        let axes0 = wins[w];
        for (var k = 0u; k < words; k++) {
            var e = vec2<u32>(0u, 0u);
            var axes = axes0;
            while (axes != 0u) {
                let a = countTrailingZeros(axes);
                axes &= axes - 1u;
                if (x[a] > 0u) {
                    e |= prev[(nb[a] * nw + w) * words + k];
                }
            }
            cur[rec + w * words + k] = e;
        }
    }
    // The mex of the options' values.
    var g = 0xffffffffu;
    for (var k = 0u; k < words; k++) {
        var o = vec2<u32>(0u, 0u);
        if (P.c1 != 0u) {
            o = extra[id * words + k];
        }
        for (var w = 0u; w < nw; w++) {
            o |= cur[rec + w * words + k];
        }
        if (o.x != 0xffffffffu) {
            g = k * 64u + countTrailingZeros(~o.x);
            break;
        }
        if (o.y != 0xffffffffu) {
            g = k * 64u + 32u + countTrailingZeros(~o.y);
            break;
        }
    }
    value[id] = g;
    if (g == 0xffffffffu) {
        return;
    }
    let b = g % 64u;
    var bit = vec2<u32>(0u, 0u);
    if (b < 32u) {
        bit.x = 1u << b;
    } else {
        bit.y = 1u << (b - 32u);
    }
    for (var w = 0u; w < nw; w++) {
        cur[rec + w * words + g / 64u] |= bit;
    }
}
