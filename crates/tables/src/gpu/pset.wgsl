// One slab of one tier of the P-set recurrence (see crates/tables/src/tiers.rs): one invocation per
// line; tiers.wgsl comes first, and before it the host's `const L: u32`, the 64-bit words of a line
// (ceil(r / 64), 1 to 4: the kernel is compiled once per L, so its loops over a line's words have a
// constant bound, one step for lines of one word). Constants: c0, c1 the halves of the last word of
// `full` (the bits of a line; the words before it are full), c2 the origin is N (misère), c3 the run
// is a circle length of SCN whose moves that empty piles are answered by `scn`, the shorter lengths'
// tables (packed by ShrinkOracle::packed in pset/shrink_oracle.rs).
//
// The mirror (the kernel compiled with MIRROR). With an involution rho of the axes that fixes the
// bit axis and maps the windows onto the windows (and SCN's moves that empty piles onto themselves),
// D_w(x) = D_{rho w}(rho x) and P(x) = P(rho x). The host numbers the tuple's entries so that rho
// swaps (0,1), (2,3), ... and fixes the rest; `wins` holds after the nw window masks: rho on the tuple
// indices (n entries), the index of each window's image (nw), and for each entry of the box's own
// order its index here (n), which SCN's oracle reads by. Tiers are ranked lexicographically, so a
// line x and its mirror y = rho x (same tier) compare as tuples, and with this numbering long runs of
// ranks are all on one side. When every tier is one slab (P.mirror = 1: the whole tier below is
// bound), only the lower of x and y runs: it ranks y and its neighbours, reads each look-up x - e_a,
// or when that one's mirror y - e_{rho a} has the lower rank (it ran in the tier below), that one's
// record through the mirrored window; and it lists its P-position for y too.

// The L words of a line (a window's D, or a mask), bit b in word b / 64.
alias Line = array<vec2<u32>, L>;

// D of the previous tier's lines base..: nw windows per line, L words per window.
@group(0) @binding(3) var<storage, read> prev: array<vec2<u32>>;
// D of the slab's lines, nw windows of L words per line.
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
const ONES: vec2<u32> = vec2<u32>(0xffffffffu, 0xffffffffu);

// Every bit from the lowest set one on (a window along the bit axis), within `full`.
fn prefix(e: ptr<function, Line>, full: ptr<function, Line>) {
    var on = false;
    for (var k = 0u; k < L; k++) {
        let w = (*e)[k];
        let f = (*full)[k];
        if (on) {
            (*e)[k] = f;
        } else if (w.x != 0u) {
            (*e)[k] = vec2<u32>((0xffffffffu << countTrailingZeros(w.x)) & f.x, f.y);
            on = true;
        } else if (w.y != 0u) {
            (*e)[k] = vec2<u32>(0u, (0xffffffffu << countTrailingZeros(w.y)) & f.y);
            on = true;
        }
    }
}

// Sets bit `b` of a line.
fn set_bit(out: ptr<function, Line>, b: u32) {
    let o = b & 63u;
    if (o < 32u) {
        (*out)[b / 64u].x |= 1u << o;
    } else {
        (*out)[b / 64u].y |= 1u << (o - 32u);
    }
}

// Sets every bit of a line from bit `b` on (bits past the line's own are ignored by the caller).
fn set_from(out: ptr<function, Line>, b: u32) {
    for (var k = 0u; k < L; k++) {
        let lo = k * 64u;
        if (b <= lo) {
            (*out)[k] = ONES;
        } else if (b < lo + 32u) {
            (*out)[k] |= vec2<u32>(0xffffffffu << (b - lo), 0xffffffffu);
        } else if (b < lo + 64u) {
            (*out)[k].y |= 0xffffffffu << (b - lo - 32u);
        }
    }
}

// Entry `idx` of a table of two-byte entries at word `at` of `scn`.
fn half_at(at: u32, idx: u32) -> u32 {
    return (scn[at + idx / 2u] >> ((idx & 1u) * 16u)) & 0xffffu;
}

const NONE: u32 = 0xffffu;

// The positions of the line at `xs` (its entries in the box's own order) with a move that empties
// piles into a P-position of a shorter circle (the moves ShrinkOracle::n_at of
// pset/shrink_oracle.rs asks about), OR-ed into `out` as a mask of the line. Tuple index i is line
// axis n - 1 - i.
fn scn_mask(xs: ptr<function, array<u32, 32>>, full: ptr<function, Line>, out: ptr<function, Line>) {
    if (scn[1] != 0u) {
        *out = *full;
        return;
    }
    for (var z = 0u; z < scn[0]; z++) {
        let d = scn[2u + z];
        let kind = scn[d];
        let at = scn[d + 1u];
        let bit_from = scn[d + 2u];
        let nc = scn[d + 3u];
        var idx = 0u;
        for (var c = 0u; c < nc; c++) {
            idx += (*xs)[P.n - 1u - scn[d + 4u + 2u * c]] * scn[d + 5u + 2u * c];
        }
        // Least entries (kind 3): the entry compared, and the stride of the offset asked about.
        var xi = 0u;
        var s = 0u;
        if (kind == 3u) {
            xi = (*xs)[P.n - 1u - scn[d + 4u + 2u * nc]];
            s = scn[d + 5u + 2u * nc];
        }
        if (bit_from != 0xffffffffu) {
            // The last pile is emptied: the whole line reaches a P-position, or none of it does.
            let j = (*xs)[P.n - 1u - bit_from];
            var hit = false;
            if (kind == 0u) {
                hit = half_at(at, idx) == j;
            } else if (kind == 1u) {
                let st = half_at(at, idx);
                hit = st != NONE && st <= j;
            } else if (kind == 2u) {
                let w = scn[at + 2u * (L * idx + j / 64u) + select(0u, 1u, (j & 63u) >= 32u)];
                hit = ((w >> (j & 31u)) & 1u) == 1u;
            } else {
                let least = half_at(at, idx + j * s);
                hit = least != NONE && least <= xi;
            }
            if (hit) {
                *out = *full;
                return;
            }
        } else if (kind == 0u) {
            let o = half_at(at, idx);
            if (o != NONE) {
                set_bit(out, o);
            }
        } else if (kind == 1u) {
            let st = half_at(at, idx);
            if (st != NONE) {
                set_from(out, st);
            }
        } else if (kind == 2u) {
            let w = at + 2u * L * idx;
            for (var k = 0u; k < L; k++) {
                (*out)[k] |= vec2<u32>(scn[w + 2u * k], scn[w + 2u * k + 1u]);
            }
        } else {
            // Bit j of the line: the least entry at the line whose offset is j, against x_i.
            for (var j = 0u; j < P.r; j++) {
                let least = half_at(at, idx + j * s);
                if (least != NONE && least <= xi) {
                    set_bit(out, j);
                }
            }
        }
    }
}

// Whether the tuple u comes before v lexicographically (in the tier: has the lower rank).
fn lower(u: ptr<function, array<u32, 32>>, v: ptr<function, array<u32, 32>>) -> bool {
    for (var p = 0u; p < P.n; p++) {
        if ((*u)[p] != (*v)[p]) {
            return (*u)[p] < (*v)[p];
        }
    }
    return false;
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
    // The mirror line y = rho x, its rank and its neighbours' indices in `prev`.
    var y: array<u32, 32>;
    var nby: array<u32, 32>;
    var rank_y = P.first + id;
    if (MIRROR && P.mirror != 0u) {
        for (var a = 0u; a < P.n; a++) {
            y[wins[P.nw + a]] = x[a];
        }
        if (lower(&y, &x)) {
            return;
        }
        rank_y = rank_of(&y, &nby);
    }
    var full: Line;
    for (var k = 0u; k < L; k++) {
        full[k] = select(ONES, vec2<u32>(P.c0, P.c1), k + 1u == L);
    }
    var nmask: Line;
    if (P.c2 != 0u && P.tier == 0u) {
        nmask[0].x = 1u;
    }
    if (P.c3 != 0u) {
        if (MIRROR) {
            var xs: array<u32, 32>;
            for (var a = 0u; a < P.n; a++) {
                xs[a] = x[wins[P.nw + P.n + P.nw + a]];
            }
            scn_mask(&xs, &full, &nmask);
        } else {
            scn_mask(&x, &full, &nmask);
        }
    }
    let rec = id * P.nw;
    for (var w = 0u; w < P.nw; w++) {
        let code = wins[w];
        var axes = code & ~HOLDS_BIT_AXIS;
        var e: Line;
        while (axes != 0u) {
            let a = countTrailingZeros(axes);
            axes &= axes - 1u;
            if (x[a] > 0u) {
                var at = (nb[a] * P.nw + w) * L;
                if (MIRROR && P.mirror != 0u) {
                    let ra = wins[P.nw + a];
                    if (nby[ra] < nb[a]) {
                        at = (nby[ra] * P.nw + wins[P.nw + P.n + w]) * L;
                    }
                }
                for (var k = 0u; k < L; k++) {
                    e[k] |= prev[at + k];
                }
            }
        }
        if ((code & HOLDS_BIT_AXIS) != 0u) {
            prefix(&e, &full);
        }
        let at = (rec + w) * L;
        for (var k = 0u; k < L; k++) {
            cur[at + k] = e[k];
            nmask[k] |= e[k];
        }
    }
    // The P-position of the line: its lowest position with no move into the P-set.
    var pb: Line;
    var bit = 0u;
    for (var k = 0u; k < L; k++) {
        let free = ~nmask[k] & full[k];
        if (bit != 0u) {
            break;
        }
        if (free.x != 0u) {
            pb[k].x = free.x & (0u - free.x);
            bit = countTrailingZeros(free.x) + 1u + 64u * k;
        } else if (free.y != 0u) {
            pb[k].y = free.y & (0u - free.y);
            bit = countTrailingZeros(free.y) + 33u + 64u * k;
        }
    }
    if (bit != 0u) {
        let k = atomicAdd(&found.count, 1u) * 3u;
        found.items[k] = P.tier;
        found.items[k + 1u] = P.first + id;
        found.items[k + 2u] = bit - 1u;
        if (MIRROR && rank_y != P.first + id) {
            // The mirror line, which does not run: its P-position is at the same bit.
            let k2 = atomicAdd(&found.count, 1u) * 3u;
            found.items[k2] = P.tier;
            found.items[k2 + 1u] = rank_y;
            found.items[k2 + 2u] = bit - 1u;
        }
        for (var w = 0u; w < P.nw; w++) {
            let at = (rec + w) * L;
            var d: Line;
            for (var q = 0u; q < L; q++) {
                d[q] = cur[at + q] | pb[q];
            }
            if ((wins[w] & HOLDS_BIT_AXIS) != 0u) {
                prefix(&d, &full);
            }
            for (var q = 0u; q < L; q++) {
                cur[at + q] = d[q];
            }
        }
    }
}
