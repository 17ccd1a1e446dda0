/* numpy_pairwise.cu: the bits of np.sum on a contiguous float64 or float32 array, on the
 * device. np.sum's order is numpy's pairwise recursion (src/order.rs states it; the Rust
 * reference is order::loop_sum_in with CpuOrder::Numpy):
 *
 *   P(a, n) = the loop from +0 over a[0..n)                              if n < LANES
 *           = eight accumulators r[j] = a[j] + a[j+8] + ... (below n - n%8, each a loop),
 *             ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then a[n - n%8 ..] added in order
 *                                                                      if n <= LEAF
 *           = P(a, h) + P(a + h, n - h), h = n/2 rounded down to a multiple of 8   otherwise
 *   np.sum = +0 + P(terms, n).
 *
 * The recursion is a fixed binary tree of adds over the terms; every add of it is done here
 * as numpy does it, once, in the terms' type (no FMA: there are no multiplies), so the result
 * has numpy's bits wherever its adds do (a NaN result is a NaN, not numpy's payload). The
 * tree is cut into levels of tiles:
 *
 *   - A node of the recursion is (off, len). Its children are (off, h) and (off + h, len - h).
 *     For a node longer than a power of two B >= 16, both children are at least B/2 long:
 *     h = 8 floor(len/16) >= 8 floor((B+1)/16) = B/2, and len - h >= len/2.
 *   - A level-L tile is a node no longer than its bound B_L whose parent is longer (or the
 *     root). So it is at least B_L/2 long (unless it is the root), and the lattice of
 *     positions m * G_L, G_L = B_L/2, puts at least one point in it. The tile's value lives in
 *     the slot of its first lattice point, ceil(off / G_L).
 *   - Level 0 is numpy's leaves (B_0 = LEAF = 128, G_0 = 64): eight threads form one, one
 *     accumulator each, and combine the eight by shuffles in numpy's tree (xor 1, 2, 4 pair
 *     them exactly as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)); an add commutes bit for bit).
 *   - A block forms one tile of level L >= 1 from the values of the level-(L-1) tiles inside
 *     it, in shared memory: each internal node's value goes to the slot of its first lattice
 *     point, which is its left child's, so a node's combine is slot[own] += slot[its right
 *     child's first point]. Rounds go from the deepest possible depth up, one barrier apart,
 *     so both children are final when their parent adds them. A thread finds the node on its
 *     slot's path at a depth by walking down from the tile's root (a few steps).
 *   - A block that is not its tile's first lattice point does nothing (another block forms
 *     that tile). The last level has one tile, the root: its block writes +0 + its value,
 *     the sum.
 *
 * Defines: BINADE_NP_F32 (0: double terms, 1: float), BINADE_NP_LANES and BINADE_NP_LEAF
 * (numpy's 8 and 128, from order::NUMPY_LANES and NUMPY_BLOCK), BINADE_NP_TILE_LOG2 (B_1),
 * the launch's bounds B_L = B_1 * 2^(FAN (L - 1)) (FAN at most 11), BINADE_NP_MAX_SLOTS (values a block
 * holds in shared memory), BINADE_NP_PAIRED (1: f64 leaves read as 16-byte pairs, four
 * threads a leaf), BINADE_NP_ALL_FIRST (1: a leaf's rows all loaded before its first add),
 * all from gpu::numpy_sum, BINADE_NP_MUTANT (0: numpy's order;
 * the others are the kill matrix's deliberate defects, gpu::numpy_sum::NumpyMutant). */

#ifndef BINADE_NP_F32
#error "compile with BINADE_NP_F32 0 (f64) or 1 (f32)"
#endif
#if BINADE_NP_F32
typedef float np_t;
#else
typedef double np_t;
#endif

#define NP_LANES ((unsigned long long)BINADE_NP_LANES)
#define NP_LEAF ((unsigned long long)BINADE_NP_LEAF)
#define NP_LEAF_STRIDE (NP_LEAF / 2ull)

/* The mutants. */
#define NP_SPLIT_UNALIGNED 1 /* h = n/2, not rounded down to a multiple of 8 */
#define NP_LANES_IN_ORDER 2  /* a leaf's accumulators added left to right */
#define NP_TAIL_FIRST 3      /* a leaf's last n%8 terms added into r0 before the tree */
#define NP_ROUNDS_TOP_DOWN 4 /* combine rounds from the root down: parents before children */
#define NP_NO_PLUS_ZERO 5    /* the result is P itself, not +0 + P */

/* The length of a node's left child. */
__device__ static inline unsigned long long np_split(unsigned long long len) {
    unsigned long long h = len / 2ull;
#if BINADE_NP_MUTANT == NP_SPLIT_UNALIGNED
    return h;
#else
    return h - h % NP_LANES;
#endif
}

/* The node no longer than `bound` on the path from (off, len) to position q (inside it),
 * or the node at `depth` steps down if that comes first; returns the steps taken. */
__device__ static inline int np_descend(unsigned long long *off, unsigned long long *len,
                                        unsigned long long q, unsigned long long bound,
                                        int depth) {
    int d = 0;
    while (*len > bound && d < depth) {
        const unsigned long long h = np_split(*len);
        if (q < *off + h) {
            *len = h;
        } else {
            *off += h;
            *len -= h;
        }
        ++d;
    }
    return d;
}

/* An upper bound on the depth of any node longer than `inner` below a node no longer than
 * `bound`: every child is at most ceil(len/2) + 7 long. */
__device__ static inline int np_max_depth(unsigned long long bound, unsigned long long inner) {
    int d = 0;
    while (bound > inner) {
        bound = (bound + 1ull) / 2ull + (NP_LANES - 1ull);
        ++d;
    }
    return d;
}

/* ceil(x / g) */
__device__ static inline unsigned long long np_ceil_div(unsigned long long x,
                                                        unsigned long long g) {
    return (x + g - 1ull) / g;
}

/* Combines the tile (toff, tlen) from the values of its inner tiles (nodes no longer than
 * `inner`, each in slot[ceil(off / g) - first], g the inner lattice's spacing). The tile's
 * value ends in slot[0]. Every thread of the block calls it. */
__device__ static void np_combine(np_t *slot, unsigned long long toff, unsigned long long tlen,
                                  unsigned long long inner, unsigned long long g,
                                  unsigned long long bound) {
    const unsigned long long first = np_ceil_div(toff, g);
    const unsigned long long slots = np_ceil_div(toff + tlen, g) - first;
    const int rounds = np_max_depth(bound, inner);
    for (int r = 0; r < rounds; ++r) {
#if BINADE_NP_MUTANT == NP_ROUNDS_TOP_DOWN
        const int depth = r;
#else
        const int depth = rounds - 1 - r;
#endif
        for (unsigned long long j = threadIdx.x; j < slots; j += blockDim.x) {
            const unsigned long long q = (first + j) * g;
            unsigned long long off = toff, len = tlen;
            const int d = np_descend(&off, &len, q, inner, depth);
            /* The node at `depth` on q's path, internal, whose first lattice point is q. */
            if (d == depth && len > inner && off + g > q) {
                const unsigned long long right = np_ceil_div(off + np_split(len), g) - first;
                slot[j] = slot[j] + slot[right];
            }
        }
        __syncthreads();
    }
}

/* Threads a leaf: one accumulator each, or (the paired f64 build, BINADE_NP_PAIRED) two
 * adjacent accumulators each, loaded as one 16-byte pair. */
#if BINADE_NP_PAIRED
#if BINADE_NP_F32 || BINADE_NP_LANES != 8
#error "the paired build is for f64 terms and numpy's eight lanes"
#endif
#define NP_GROUP 4u
#else
#define NP_GROUP ((unsigned int)NP_LANES)
#endif
/* Loads a leaf takes past its first row of LANES terms. */
#define NP_ROWS (NP_LEAF / NP_LANES)

/* The tail of a leaf, a[whole..len), added in order to v (lane 0's). */
__device__ static inline np_t np_tail(const np_t *__restrict__ a, unsigned long long off,
                                      unsigned long long whole, unsigned long long len,
                                      np_t v) {
    for (unsigned long long i = whole; i < len; ++i) v = v + a[off + i];
    return v;
}

/* One numpy leaf (off, len <= LEAF) by the NP_GROUP threads of a group (`lane` 0.., `mask`
 * the group's threads in the warp); the value is lane 0's. With BINADE_NP_ALL_FIRST every
 * row's loads are issued before the first add (a row past `whole` is loaded as nothing and
 * never added: +0 would turn a -0 accumulator into +0); else each row is loaded and added in
 * turn. */
__device__ static np_t np_leaf(const np_t *__restrict__ a, unsigned long long off,
                               unsigned long long len, unsigned int lane, unsigned int mask) {
    if (len < NP_LANES) {
        np_t s = (np_t)0;
        if (lane == 0) s = np_tail(a, off, 0, len, s);
        return s;
    }
    const unsigned long long whole = len - len % NP_LANES;
#if BINADE_NP_PAIRED
    /* Lane l holds accumulators 2l and 2l+1 (leaf offsets are multiples of 8 terms and the
     * launch checks the array is 16-byte aligned, so each pair is). */
    const double2 *p = reinterpret_cast<const double2 *>(a + off);
#if BINADE_NP_ALL_FIRST
    double2 x[NP_ROWS];
#pragma unroll
    for (unsigned int k = 0; k < NP_ROWS; ++k)
        if (k * NP_LANES < whole) x[k] = p[k * (NP_LANES / 2) + lane];
    double r0 = x[0].x, r1 = x[0].y;
#pragma unroll
    for (unsigned int k = 1; k < NP_ROWS; ++k)
        if (k * NP_LANES < whole) {
            r0 = r0 + x[k].x;
            r1 = r1 + x[k].y;
        }
#else
    const double2 x0 = p[lane];
    double r0 = x0.x, r1 = x0.y;
#pragma unroll
    for (unsigned int k = 1; k < NP_ROWS; ++k)
        if (k * NP_LANES < whole) {
            const double2 xk = p[k * (NP_LANES / 2) + lane];
            r0 = r0 + xk.x;
            r1 = r1 + xk.y;
        }
#endif
#if BINADE_NP_MUTANT == NP_TAIL_FIRST
    if (lane == 0) r0 = np_tail(a, off, whole, len, r0);
#endif
#if BINADE_NP_MUTANT == NP_LANES_IN_ORDER
    double v = r0;
    for (unsigned int k = 0; k < NP_GROUP; ++k) {
        const double e = __shfl_sync(mask, r0, (int)k, (int)NP_GROUP);
        const double o = __shfl_sync(mask, r1, (int)k, (int)NP_GROUP);
        if (lane == 0) v = (k == 0 ? v : v + e) + o;
    }
#else
    double v = r0 + r1;
    v = v + __shfl_xor_sync(mask, v, 1, (int)NP_GROUP);
    v = v + __shfl_xor_sync(mask, v, 2, (int)NP_GROUP);
#endif
#else
#if BINADE_NP_ALL_FIRST
    np_t x[NP_ROWS];
#pragma unroll
    for (unsigned int k = 0; k < NP_ROWS; ++k)
        if (k * NP_LANES < whole) x[k] = a[off + k * NP_LANES + lane];
    np_t r = x[0];
#pragma unroll
    for (unsigned int k = 1; k < NP_ROWS; ++k)
        if (k * NP_LANES < whole) r = r + x[k];
#else
    np_t r = a[off + lane];
#pragma unroll
    for (unsigned int k = 1; k < NP_ROWS; ++k)
        if (k * NP_LANES < whole) r = r + a[off + k * NP_LANES + lane];
#endif
#if BINADE_NP_MUTANT == NP_TAIL_FIRST
    if (lane == 0) r = np_tail(a, off, whole, len, r);
#endif
#if BINADE_NP_MUTANT == NP_LANES_IN_ORDER
    np_t v = r;
    for (unsigned int k = 1; k < NP_LANES; ++k) {
        const np_t rk = __shfl_sync(mask, r, (int)k, (int)NP_LANES);
        if (lane == 0) v = v + rk;
    }
#else
    np_t v = r + __shfl_xor_sync(mask, r, 1, (int)NP_LANES);
    v = v + __shfl_xor_sync(mask, v, 2, (int)NP_LANES);
    v = v + __shfl_xor_sync(mask, v, 4, (int)NP_LANES);
#endif
#endif
#if BINADE_NP_MUTANT != NP_TAIL_FIRST
    if (lane == 0) v = np_tail(a, off, whole, len, v);
#endif
    return v;
}

/* The first lattice point (spacing g) of the tile no longer than `bound` that holds position
 * b * g, if b * g is that point: its (off, len); else false (another block forms it). */
__device__ static inline bool np_own_tile(unsigned long long n, unsigned long long b,
                                          unsigned long long g, unsigned long long bound,
                                          unsigned long long *off, unsigned long long *len) {
    const unsigned long long q = b * g;
    if (q >= n) return false;
    *off = 0;
    *len = n;
    np_descend(off, len, q, bound, 1 << 30);
    return *off + g > q;
}

#define NP_MAX_SLOTS BINADE_NP_MAX_SLOTS

/* Level 1's tile bound B_1 and its lattice's spacing. */
#define NP_TILE_BOUND (1ull << BINADE_NP_TILE_LOG2)
/* A tile of at most B_1 terms holds at most B_1 / 64 leaves' first points. */
#define NP_TILE_SLOTS (NP_TILE_BOUND / NP_LEAF_STRIDE)

/* The level-1 tile whose first lattice point (spacing B_1 / 2) is b, formed by the calling
 * block from its numpy leaves into out[b]; nothing where b is not its tile's first point
 * (another block forms that tile). Every thread of the block calls it with the same b; it
 * ends with `slot` read by thread 0, so a caller that reuses `slot` waits at a barrier
 * first. Returns whether it formed a tile. */
__device__ static bool np_tile_at(const np_t *__restrict__ a, unsigned long long n,
                                  unsigned long long b, np_t *__restrict__ out, np_t *slot) {
    const unsigned long long g = NP_LEAF_STRIDE;
    const unsigned int lane = threadIdx.x % NP_GROUP;
    const unsigned int mask = ((1u << NP_GROUP) - 1u) << (threadIdx.x % 32u / NP_GROUP * NP_GROUP);
    const unsigned int groups = blockDim.x / NP_GROUP;
    unsigned long long toff, tlen;
    if (!np_own_tile(n, b, NP_TILE_BOUND / 2ull, NP_TILE_BOUND, &toff, &tlen)) return false;
    const unsigned long long first = np_ceil_div(toff, g);
    const unsigned long long slots = np_ceil_div(toff + tlen, g) - first;
    /* Slots are taken by whole groups, so a group's threads agree on every branch. */
    for (unsigned long long j = threadIdx.x / NP_GROUP; j < slots; j += groups) {
        const unsigned long long q = (first + j) * g;
        unsigned long long off = toff, len = tlen;
        np_descend(&off, &len, q, NP_LEAF, 1 << 30);
        if (off + g > q) {
            const np_t v = np_leaf(a, off, len, lane, mask);
            if (lane == 0) slot[j] = v;
        }
    }
    __syncthreads();
    np_combine(slot, toff, tlen, NP_LEAF, g, NP_TILE_BOUND);
    if (threadIdx.x == 0) out[b] = slot[0];
    return true;
}

/* Level 1, a block per lattice point (gpu::numpy_sum::TileGrid::PerPoint): block b forms the
 * tile whose first point is b, if it is. blockDim.x is a multiple of 32. */
extern "C" __global__ void np_tiles_point(const np_t *__restrict__ a, unsigned long long n,
                                          np_t *__restrict__ out) {
    __shared__ np_t slot[NP_TILE_SLOTS];
    if (blockIdx.x < np_ceil_div(n, NP_TILE_BOUND / 2ull)) np_tile_at(a, n, blockIdx.x, out, slot);
}

/* Level 1, resident blocks (TileGrid::Resident): each block takes the lattice points from
 * blockIdx.x in steps of gridDim.x. blockDim.x is a multiple of 32. */
extern "C" __global__ void np_tiles(const np_t *__restrict__ a, unsigned long long n,
                                    np_t *__restrict__ out) {
    __shared__ np_t slot[NP_TILE_SLOTS];
    const unsigned long long points = np_ceil_div(n, NP_TILE_BOUND / 2ull);
    for (unsigned long long b = blockIdx.x; b < points; b += gridDim.x) {
        /* slot[0] is read before the next tile writes its slots (block-uniform). */
        if (np_tile_at(a, n, b, out, slot) && b + gridDim.x < points) __syncthreads();
    }
}

/* np.sum's last add: +0 + the root's value (its reduction starts from its identity +0). */
__device__ static inline np_t np_plus_zero(np_t root) {
#if BINADE_NP_MUTANT == NP_NO_PLUS_ZERO
    return root;
#else
    return (np_t)0 + root;
#endif
}

/* Level L >= 2: block b forms the tile no longer than `bound` (B_L) whose first lattice
 * point (spacing bound / 2) is b, from the level-(L-1) values `in` (spacing `inner` / 2),
 * into out[b]; at the root's level (`bound` >= n, one tile) it writes the sum to `sum`
 * instead. At most NP_MAX_SLOTS inner slots a tile (2 * 2^FAN). */
extern "C" __global__ void np_levels(const np_t *__restrict__ in, unsigned long long n,
                                     unsigned long long bound, unsigned long long inner,
                                     np_t *__restrict__ out, np_t *__restrict__ sum) {
    __shared__ np_t slot[NP_MAX_SLOTS];
    unsigned long long toff, tlen;
    if (!np_own_tile(n, blockIdx.x, bound / 2ull, bound, &toff, &tlen)) return;
    const unsigned long long g = inner / 2ull;
    const unsigned long long first = np_ceil_div(toff, g);
    const unsigned long long slots = np_ceil_div(toff + tlen, g) - first;
    for (unsigned long long j = threadIdx.x; j < slots; j += blockDim.x) slot[j] = in[first + j];
    __syncthreads();
    np_combine(slot, toff, tlen, inner, g, bound);
    if (threadIdx.x == 0) {
        if (bound >= n)
            sum[0] = np_plus_zero(slot[0]);
        else
            out[blockIdx.x] = slot[0];
    }
}

/* The sum of an array that level 1 alone forms (n <= B_1): +0 + its value. */
extern "C" __global__ void np_finish(const np_t *__restrict__ root, np_t *__restrict__ sum) {
    if (threadIdx.x == 0 && blockIdx.x == 0) sum[0] = np_plus_zero(root[0]);
}
