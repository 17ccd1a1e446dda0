/* Float VIF kernels: the GPU twin of libvmaf's CPU float_vif, bit for bit. Each kernel is a
 * thin loop-free wrapper over a function of kernels/float_vif.cuh at one index, so the host
 * build of that header runs the same bodies. Taps arrive by value from the host routine that
 * derives them (no tap is stored here).
 *
 * Compiled by NVRTC with --fmad=false, after kernels/binade.cuh and kernels/float_vif.cuh
 * (the host passes the three texts as one source, FVIF_SINGLE_SOURCE defined).
 *
 * Replay switches, besides the header's: FVIF_SEGMENTS (threads per row of the row-parallel
 * sum, default 128). */
#ifndef FVIF_SINGLE_SOURCE
#include "binade.cuh"
#include "float_vif.cuh"
#endif

#ifndef FVIF_SEGMENTS
#define FVIF_SEGMENTS 128
#endif

/* Filter then decimate, vertical step: row oi of the (h/2) x w output is the vertical pass
 * at source row 2 oi. Grid: x over columns, y over output rows. */
extern "C" __global__ void fvif_filter_dec_v(const float *src, int w, int h, struct fvif_taps t, float *tmp) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int oi = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= w || oi >= h / 2) return;
    tmp[(long long)oi * w + j] = fvif_vertical(&t, src, src, FVIF_PLAIN, w, h, 2 * oi, j);
}

/* Filter then decimate, horizontal step: output (oi, oj) is the horizontal pass of tmp's row
 * oi at column 2 oj. */
extern "C" __global__ void fvif_filter_dec_h(const float *tmp, int w, int oh, struct fvif_taps t, float *dst) {
    int ow = w / 2;
    int oj = blockIdx.x * blockDim.x + threadIdx.x;
    int oi = blockIdx.y * blockDim.y + threadIdx.y;
    if (oj >= ow || oi >= oh) return;
    dst[(long long)oi * ow + oj] = fvif_horizontal(&t, tmp + (long long)oi * w, w, 2 * oj);
}

/* The five vertical passes of a scale into five consecutive w x h planes. */
extern "C" __global__ void fvif_vertical5(const float *r, const float *d, int w, int h, struct fvif_taps t, float *v) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= w || i >= h) return;
    fvif_vertical5_at(&t, r, d, w, h, i, j, v);
}

/* The horizontal passes and the statistic: every pixel's num and den terms, fp32, stored in
 * `layout` (0 column by column, 1 row by row). */
extern "C" __global__ void fvif_compute(const float *v, int w, int h, struct fvif_taps t, struct fvif_params p,
                                        int layout, float *num, float *den) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= w || i >= h) return;
    long long at = fvif_term_index(layout, w, h, i, j);
    fvif_compute_at(&t, &p, v, w, h, i, j, num + at, den + at);
}

/* One thread per row: the row's terms left to right into one fp32 accumulator, as the CPU.
 * Terms column by column, so neighbouring threads read neighbouring addresses. */
extern "C" __global__ void fvif_row_sums(const float *num, const float *den, int w, int h, float *row_num,
                                         float *row_den) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= h) return;
    row_num[i] = fvif_row_sum(num + i, w, h);
    row_den[i] = fvif_row_sum(den + i, w, h);
}

#if defined(FVIF_WITH_BINADE)
#if FVIF_SEGMENTS % 32 != 0
#error "the warp walk takes FVIF_SEGMENTS a multiple of 32"
#endif
#define FVIF_PER_LANE (FVIF_SEGMENTS / 32)

/* The plan and the walk of the row-parallel sum by warp 0 instead of thread 0. Lane l holds
 * segments l * FVIF_PER_LANE.. (est, plan and units in shared memory, formed by the block).
 * The plan: the exclusive prefix of the estimates by a warp scan (another association of the
 * same doubles than thread 0's loop: a plan, so no bit depends on it). The walk, from s at
 * segment u (+0 at 0 for a whole row; fvif_warp_walk_from takes any u and the left-to-right
 * sum of the segments before it), in rounds: with b the binade of s, the segments from u on
 * planned for b form a run (up to the first that is not); their units, composed in order by a
 * warp scan, give each position's end from s, and the positions whose end applies
 * (binade_apply_f32: s in b, the end at most 2^(e+1)) form a prefix of the run, since the
 * terms of a usable unit are non-negative (a negative term's unit never applies) so the ends
 * only grow. s moves to the last applying end; where none applies, segment u is added term by term from s (lane 0,
 * the CPU's fp32 adds). A composed run equals its units applied one after another (the
 * algebra's composition), so the row's sum is the left-to-right fp32 sum's bits, as with
 * thread 0's walk. Every lane passes the same u and start. */
static __device__ __forceinline__ void fvif_warp_plan(const double *est, unsigned int *plan) {
    const unsigned int lane = threadIdx.x & 31u;
    double mine = 0.0;
#pragma unroll
    for (int j = 0; j < FVIF_PER_LANE; ++j) mine = __dadd_rn(mine, est[lane * FVIF_PER_LANE + j]);
    double incl = mine;
    for (unsigned int d = 1; d < 32; d *= 2) {
        const double o = __shfl_up_sync(0xffffffffu, incl, d);
        if (lane >= d) incl = __dadd_rn(o, incl);
    }
    double prefix = __dsub_rn(incl, mine); /* a plan: any rounding of the prefix will do */
    if (lane == 0) prefix = 0.0;
#pragma unroll
    for (int j = 0; j < FVIF_PER_LANE; ++j) {
        plan[lane * FVIF_PER_LANE + j] = fvif_plan_binade(prefix);
        prefix = __dadd_rn(prefix, est[lane * FVIF_PER_LANE + j]);
    }
}

static __device__ __forceinline__ binade_unit fvif_shfl_up_unit(binade_unit u, unsigned int d) {
    return binade_unit_make(__shfl_up_sync(0xffffffffu, u.even, d), __shfl_up_sync(0xffffffffu, u.odd, d));
}

static __device__ __forceinline__ float fvif_warp_walk_from(unsigned int u, float start, const unsigned int *plan,
                                                             const binade_unit *units, const float *row, int w,
                                                             int interleaved, unsigned long long *fell_back) {
    const unsigned int lane = threadIdx.x & 31u;
    unsigned int s = fvif_f2u(start);
    unsigned long long fb = 0ull;
    while (u < FVIF_SEGMENTS) {
        const unsigned int b = binade_of_f32(s);
        /* The run: positions u.. planned for b, up to the first that is not. */
        unsigned int stop = FVIF_SEGMENTS;
#pragma unroll
        for (int j = FVIF_PER_LANE - 1; j >= 0; --j) {
            const unsigned int p = lane * FVIF_PER_LANE + (unsigned int)j;
            if (p >= u && !(b != 0u && plan[p] == b)) stop = p;
        }
        const unsigned int e = __reduce_min_sync(0xffffffffu, stop);
        /* This lane's positions of the run composed in order, each prefix kept. */
        binade_unit pre[FVIF_PER_LANE];
        binade_unit mine = binade_unit_zero();
#pragma unroll
        for (int j = 0; j < FVIF_PER_LANE; ++j) {
            const unsigned int p = lane * FVIF_PER_LANE + (unsigned int)j;
            if (p >= u && p < e) mine = binade_compose(mine, units[p]);
            pre[j] = mine;
        }
        binade_unit incl = mine;
        for (unsigned int d = 1; d < 32; d *= 2) {
            const binade_unit o = fvif_shfl_up_unit(incl, d);
            if (lane >= d) incl = binade_compose(o, incl);
        }
        binade_unit excl = fvif_shfl_up_unit(incl, 1);
        if (lane == 0) excl = binade_unit_zero();
        /* The first position of the run whose end does not apply, and each position's end. */
        unsigned int fail = e;
        unsigned int ends[FVIF_PER_LANE];
#pragma unroll
        for (int j = 0; j < FVIF_PER_LANE; ++j) {
            const unsigned int p = lane * FVIF_PER_LANE + (unsigned int)j;
            ends[j] = 0u;
#if defined(FVIF_WARP_RUN_END_UNCHECKED)
            /* The mutant: a run's ends taken without checking that they stay in the binade. */
            if (p >= u && p < e) {
                const binade_unit c = binade_compose(excl, pre[j]);
                const unsigned int m = (s & 0x007fffffu) | 0x00800000u;
                ends[j] = (unsigned int)(((unsigned long long)b << 23) + (m + binade_pick(c, m) - 0x00800000u));
            }
#else
            if (p >= u && p < e && !binade_apply_f32(binade_compose(excl, pre[j]), b, s, &ends[j]) && p < fail)
                fail = p;
#endif
        }
        const unsigned int g = __reduce_min_sync(0xffffffffu, fail);
        if (g > u) {
            /* Positions u..g-1 apply: s is position g-1's end. */
            const unsigned int last = g - 1u;
            unsigned int end = 0u;
#pragma unroll
            for (int j = 0; j < FVIF_PER_LANE; ++j)
                if (lane * FVIF_PER_LANE + (unsigned int)j == last) end = ends[j];
            s = __shfl_sync(0xffffffffu, end, last / FVIF_PER_LANE);
            u = g;
            continue;
        }
        /* Segment u applies in no way from s: its terms added to s in order (in
         * segment-interleaved rows, layout 2, its k-th term is FVIF_SEGMENTS * k after its
         * first, which is at u). */
        int lo, hi;
        fvif_segment((int)u, FVIF_SEGMENTS, w, &lo, &hi);
        const float *first = row + lo;
        long long step = 1;
#if !defined(FVIF_INTERLEAVED_FALLBACK_ROW_MAJOR)
        if (interleaved) {
            first = row + u;
            step = FVIF_SEGMENTS;
        }
#endif
        unsigned int next = 0u;
        if (lane == 0) next = fvif_f2u(fvif_add_run(fvif_u2f(s), first, hi - lo, step));
        s = __shfl_sync(0xffffffffu, next, 0);
        u += 1u;
        fb += 1ull;
    }
    *fell_back = fb;
    return fvif_u2f(s);
}

/* The walk of a whole row: from +0 at segment 0. */
static __device__ __forceinline__ float fvif_warp_walk(const unsigned int *plan, const binade_unit *units,
                                                        const float *row, int w, int interleaved,
                                                        unsigned long long *fell_back) {
    return fvif_warp_walk_from(0u, 0.0f, plan, units, row, w, interleaved, fell_back);
}

/* How the row-parallel sum forms its units and walks them. */
#define FVIF_ROWS_PAIRS 0 /* pair units, thread 0's plan and walk (the kernel before the fast units) */
#define FVIF_ROWS_FAST 1  /* fast units, thread 0's plan and walk */
#define FVIF_ROWS_WARP 2  /* fast units, the plan and the walk by warp 0 */
#define FVIF_ROWS_PAIRED 3 /* fast units, the num row by warp 0 and the den row by warp 1 at once */

/* One block of FVIF_SEGMENTS threads per row (terms row by row): each thread estimates its
 * segment; the segments' binades are planned from the estimated prefix (by thread 0, or by
 * warp 0's scan); each thread composes its segment's unit (fast: fvif_segment_unit_fast, the
 * pair composition only for a segment with a tie or a negative term; else the pair
 * composition for every segment); the units are walked in order (by thread 0, or by warp 0 a
 * run at a time), adding term by term where a unit does not apply. The result is the
 * left-to-right fp32 sum's bits in every mode. `fallbacks` counts the segments added term by
 * term. `mode` is one of FVIF_ROWS_* (a constant in each kernel, so the others fold away). */
static __device__ __forceinline__ void fvif_row_sums_segments(const float *num, const float *den, int w, int h,
                                                              float *row_num, float *row_den,
                                                              unsigned long long *fallbacks, int mode) {
    __shared__ double est[FVIF_SEGMENTS];
    __shared__ unsigned int plan[FVIF_SEGMENTS];
    __shared__ binade_unit units[FVIF_SEGMENTS];
    int i = blockIdx.x;
    int t = threadIdx.x;
    if (i >= h) return;
    for (int which = 0; which < 2; ++which) {
        const float *row = (which == 0 ? num : den) + (long long)i * w;
        int lo, hi;
        fvif_segment(t, FVIF_SEGMENTS, w, &lo, &hi);
        est[t] = fvif_segment_estimate(row, lo, hi, 1);
        __syncthreads();
        if (mode == FVIF_ROWS_WARP) {
            if (t < 32) fvif_warp_plan(est, plan);
        } else if (t == 0) {
            double prefix = 0.0;
            for (int u = 0; u < FVIF_SEGMENTS; ++u) {
                plan[u] = fvif_plan_binade(prefix);
                prefix = __dadd_rn(prefix, est[u]);
            }
        }
        __syncthreads();
        units[t] = mode == FVIF_ROWS_PAIRS ? fvif_segment_unit(row, lo, hi, 1, plan[t])
                                           : fvif_segment_unit_fast(row, lo, hi, 1, plan[t]);
        __syncthreads();
        if (mode == FVIF_ROWS_WARP) {
            if (t < 32) {
                unsigned long long fb = 0ull;
                const float s = fvif_warp_walk(plan, units, row, w, 0, &fb);
                if (t == 0) {
                    (which == 0 ? row_num : row_den)[i] = s;
                    atomicAdd(fallbacks, fb);
                }
            }
        } else if (t == 0) {
            float s = 0.0f;
            unsigned long long fb = 0ull;
            for (int u = 0; u < FVIF_SEGMENTS; ++u) {
                int a, b, fell = 0;
                fvif_segment(u, FVIF_SEGMENTS, w, &a, &b);
                s = fvif_walk_step(s, units[u], plan[u], row, a, b, 1, &fell);
                fb += (unsigned long long)fell;
            }
            (which == 0 ? row_num : row_den)[i] = s;
            atomicAdd(fallbacks, fb);
        }
        __syncthreads();
    }
}

/* The paired rows (FVIF_ROWS_PAIRED): row i of num and of den in one pass, each thread
 * estimating and then forming the units of its segment of both, warp 0 planning and walking
 * the num row while warp 1 does the den row, so a block's chain of steps is one row's long
 * rather than two rows' in turn. Each row's sum is the warp walk's, which is the
 * left-to-right fp32 sum's bits (fvif_warp_walk). Mutants of its own shortcut, the two rows'
 * arrays side by side: FVIF_PAIRED_UNITS_CROSSED, the den row walked with the num row's units
 * (a wrong sum); FVIF_PAIRED_PLANS_CROSSED, the den row walked on the num row's plan, which
 * must keep the bits (the walk composes only units planned for its sum's binade and adds
 * the rest term by term: on the H200 at fcadd8d it kept the CPU's bits on every fixture). */
#if FVIF_SEGMENTS < 64
#error "the paired rows take two warps"
#endif
/* The head of the headed rows (fvif_row_sums_binade_headed): the first n terms of row i's
 * num and den added left to right from +0 in fp32, the CPU's adds, by the block's fifth warp
 * while the other four form the segments' estimates and units. The terms
 * pass through shared memory a chunk at a time (each lane loads FVIF_HEAD_CHUNK / 32 of a
 * chunk's terms of both rows, coalesced, the next chunk's loads issued before the current
 * chunk's adds); lane 0 adds the num row's chunk and lane 1 the den row's, in order. The sums
 * are heads[0] and heads[1]. Mutant of its own shortcut, FVIF_HEAD_ONE_SHORT: the head's last
 * term is never added while the walk starts after it, a wrong sum wherever that term counts. */
#define FVIF_HEAD_CHUNK 128
#if FVIF_HEAD_CHUNK % 32 != 0
#error "a head chunk is whole warps' loads"
#endif
static __device__ __forceinline__ void fvif_head_load(const float *const rows[2], int at, int n, unsigned int lane,
                                                      float next[2][FVIF_HEAD_CHUNK / 32]) {
#pragma unroll
    for (int q = 0; q < FVIF_HEAD_CHUNK / 32; ++q) {
        const int k = at + q * 32 + (int)lane;
        next[0][q] = k < n ? rows[0][k] : 0.0f; /* beyond n: never added */
        next[1][q] = k < n ? rows[1][k] : 0.0f;
    }
}

static __device__ __forceinline__ void fvif_head_sums(const float *const rows[2], int n, float heads[2]) {
    __shared__ float chunk[2][FVIF_HEAD_CHUNK + 1]; /* + 1: lanes 0 and 1 read different banks */
    const unsigned int lane = threadIdx.x & 31u;
#if defined(FVIF_HEAD_ONE_SHORT)
    n = n > 0 ? n - 1 : 0;
#endif
    float next[2][FVIF_HEAD_CHUNK / 32];
    fvif_head_load(rows, 0, n, lane, next);
    float acc = 0.0f; /* lane r < 2: row r's sum so far, from +0 as the CPU's */
    for (int base = 0; base < n; base += FVIF_HEAD_CHUNK) {
        __syncwarp(); /* lanes 0 and 1 are done with the previous chunk */
#pragma unroll
        for (int q = 0; q < FVIF_HEAD_CHUNK / 32; ++q) {
            chunk[0][q * 32 + lane] = next[0][q];
            chunk[1][q * 32 + lane] = next[1][q];
        }
        __syncwarp();
        fvif_head_load(rows, base + FVIF_HEAD_CHUNK, n, lane, next);
        if (lane < 2u) {
            const int m = n - base < FVIF_HEAD_CHUNK ? n - base : FVIF_HEAD_CHUNK;
#pragma unroll 8
            for (int k = 0; k < m; ++k) acc = FV_FADD(acc, chunk[lane][k]);
        }
    }
    if (lane < 2u) heads[lane] = acc;
}

/* A barrier of the threads that form the segments: the whole block, or in the headed rows the
 * first FVIF_SEGMENTS threads (named barrier 1), so the head's warp runs past it. `headed` is
 * a constant in each kernel. */
static __device__ __forceinline__ void fvif_formers_sync(int headed) {
    if (headed)
        asm volatile("bar.sync 1, %0;" ::"n"(FVIF_SEGMENTS) : "memory");
    else
        __syncthreads();
}

/* The paired rows' work on row i, whose num and den terms are rows[0] and rows[1] (global
 * memory for the paired rows, shared memory for the staged rows), row by row, or
 * segment-interleaved where `interleaved` (layout 2: segment t's k-th term at
 * t + FVIF_SEGMENTS * k, so a warp's 32 threads read 32 neighbouring terms at each k where row
 * by row they read 32 terms w / FVIF_SEGMENTS apart). `interleaved` and `headed` are
 * constants in each kernel. Headed (row by row only; FVIF_SEGMENTS + 32 threads): the first
 * `head` segments (0 <= head <= FVIF_SEGMENTS) are added term by term by the head's warp
 * (fvif_head_sums) while the others estimate every segment and form the units of the rest, and
 * the two walks start at segment `head` from the head's sums. The head is the CPU's loop over
 * the row's first terms, and a walk from segment u at the left-to-right sum of the segments
 * before u gives the left-to-right sum of the row (fvif_warp_walk_from), so the bits are the
 * paired rows'. Where a row's sum starts from +0 it crosses a binade near segments 1, 2, 4, 8,
 * ..., each crossing two rounds of the walk; the head replaces the first of those rounds. */
static __device__ __forceinline__ void fvif_paired_rows_of(const float *const rows[2], int i, int w, float *row_num,
                                                           float *row_den, unsigned long long *fallbacks,
                                                           int interleaved, int headed, int head) {
    __shared__ double est[2][FVIF_SEGMENTS];
    __shared__ unsigned int plan[2][FVIF_SEGMENTS];
    __shared__ binade_unit units[2][FVIF_SEGMENTS];
    __shared__ float heads[2];
    const int t = threadIdx.x;
    const int warp = t >> 5;
    if (!headed) head = 0;
    head = head < 0 ? 0 : (head > FVIF_SEGMENTS ? FVIF_SEGMENTS : head);
    if (t < FVIF_SEGMENTS) {
        int lo, hi;
        fvif_segment(t, FVIF_SEGMENTS, w, &lo, &hi);
        if (interleaved) {
            est[0][t] = fvif_segment_estimate(rows[0] + t, 0, hi - lo, FVIF_SEGMENTS);
            est[1][t] = fvif_segment_estimate(rows[1] + t, 0, hi - lo, FVIF_SEGMENTS);
        } else {
            est[0][t] = fvif_segment_estimate(rows[0], lo, hi, 1);
            est[1][t] = fvif_segment_estimate(rows[1], lo, hi, 1);
        }
        fvif_formers_sync(headed);
        if (warp < 2) fvif_warp_plan(est[warp], plan[warp]);
        fvif_formers_sync(headed);
        if (t >= head) { /* the walk reads no unit before segment `head` */
            if (interleaved) {
                units[0][t] = fvif_segment_unit_fast(rows[0] + t, 0, hi - lo, FVIF_SEGMENTS, plan[0][t]);
                units[1][t] = fvif_segment_unit_fast(rows[1] + t, 0, hi - lo, FVIF_SEGMENTS, plan[1][t]);
            } else {
                units[0][t] = fvif_segment_unit_fast(rows[0], lo, hi, 1, plan[0][t]);
                units[1][t] = fvif_segment_unit_fast(rows[1], lo, hi, 1, plan[1][t]);
            }
        }
    } else if (headed && warp == FVIF_SEGMENTS / 32) {
        int n, end;
        fvif_segment(head, FVIF_SEGMENTS, w, &n, &end); /* the head: terms [0, n), n = segment head's start */
        fvif_head_sums(rows, n, heads);
    }
    __syncthreads();
    if (warp < 2) {
#if defined(FVIF_PAIRED_PLANS_CROSSED)
        const unsigned int *walk_plan = plan[0];
#else
        const unsigned int *walk_plan = plan[warp];
#endif
#if defined(FVIF_PAIRED_UNITS_CROSSED)
        const binade_unit *walk_units = units[0];
#else
        const binade_unit *walk_units = units[warp];
#endif
        unsigned long long fb = 0ull;
        const float start = headed ? heads[warp] : 0.0f;
        const float sum =
            fvif_warp_walk_from((unsigned int)head, start, walk_plan, walk_units, rows[warp], w, interleaved, &fb);
        if ((t & 31) == 0) {
            (warp == 0 ? row_num : row_den)[i] = sum;
            atomicAdd(fallbacks, fb);
        }
    }
}

static __device__ __forceinline__ void fvif_row_sums_paired(const float *num, const float *den, int w, int h,
                                                            float *row_num, float *row_den,
                                                            unsigned long long *fallbacks) {
    const int i = blockIdx.x;
    if (i >= h) return;
    const float *const rows[2] = {num + (long long)i * w, den + (long long)i * w};
    fvif_paired_rows_of(rows, i, w, row_num, row_den, fallbacks, 0, 0, 0);
}

/* The staged rows (FVIF_STAGED): the paired rows after the block has copied row i of num and
 * of den into shared memory, thread t taking terms t, t + FVIF_SEGMENTS, ... (a warp's load
 * is 32 consecutive floats, one transaction of 128 bytes). The segments' two passes (the
 * estimate, then the unit) and the walk's term-by-term adds then read shared memory, where
 * the paired rows have each thread read its own run of w / FVIF_SEGMENTS terms from global
 * memory twice (a warp's load touching 32 lines). A copy moves bits (no arithmetic: -0, NaN
 * payloads and subnormals are kept), so every sum is the paired rows' and so the
 * left-to-right fp32 sum's. Launched with 2 * w * sizeof(float) bytes of dynamic shared
 * memory. Mutant of its own shortcut, FVIF_STAGED_LAST_UNSTAGED: the copy stops one term
 * short and the row's last term reads as +0, a wrong sum wherever that term is not zero. */
extern __shared__ float fvif_stage[];
static __device__ __forceinline__ void fvif_row_sums_staged(const float *num, const float *den, int w, int h,
                                                            float *row_num, float *row_den,
                                                            unsigned long long *fallbacks) {
    const int i = blockIdx.x, t = threadIdx.x;
    if (i >= h) return;
    const float *src_num = num + (long long)i * w, *src_den = den + (long long)i * w;
    float *stage_num = fvif_stage, *stage_den = fvif_stage + w;
#if defined(FVIF_STAGED_LAST_UNSTAGED)
    const int staged = w - 1;
    if (t == 0 && w > 0) {
        stage_num[w - 1] = 0.0f;
        stage_den[w - 1] = 0.0f;
    }
#else
    const int staged = w;
#endif
    for (int k = t; k < staged; k += FVIF_SEGMENTS) {
        stage_num[k] = src_num[k];
        stage_den[k] = src_den[k];
    }
    __syncthreads();
    const float *const rows[2] = {stage_num, stage_den};
    fvif_paired_rows_of(rows, i, w, row_num, row_den, fallbacks, 0, 0, 0);
}

/* The row-parallel sums with the fast units, thread 0's plan and walk. */
extern "C" __global__ void fvif_row_sums_binade(const float *num, const float *den, int w, int h, float *row_num,
                                                float *row_den, unsigned long long *fallbacks) {
    fvif_row_sums_segments(num, den, w, h, row_num, row_den, fallbacks, FVIF_ROWS_FAST);
}

/* The row-parallel sums with every segment's unit by the pair composition (the kernel before
 * the fast units; for timing and the replay). */
extern "C" __global__ void fvif_row_sums_binade_pairs(const float *num, const float *den, int w, int h,
                                                      float *row_num, float *row_den, unsigned long long *fallbacks) {
    fvif_row_sums_segments(num, den, w, h, row_num, row_den, fallbacks, FVIF_ROWS_PAIRS);
}

/* The row-parallel sums with the fast units, the plan and the walk by warp 0 (the scorer's). */
extern "C" __global__ void fvif_row_sums_binade_warp(const float *num, const float *den, int w, int h, float *row_num,
                                                     float *row_den, unsigned long long *fallbacks) {
    fvif_row_sums_segments(num, den, w, h, row_num, row_den, fallbacks, FVIF_ROWS_WARP);
}

/* The row-parallel sums with the fast units, the num and den rows planned and walked at once
 * by two warps (the scorer's). */
extern "C" __global__ void fvif_row_sums_binade_paired(const float *num, const float *den, int w, int h,
                                                       float *row_num, float *row_den, unsigned long long *fallbacks) {
    fvif_row_sums_paired(num, den, w, h, row_num, row_den, fallbacks);
}

/* The headed rows: the paired rows with the first `head` segments of each row added term by
 * term by a fifth warp (launched with FVIF_SEGMENTS + 32 threads; fvif_paired_rows_of). */
extern "C" __global__ void fvif_row_sums_binade_headed(const float *num, const float *den, int w, int h,
                                                       float *row_num, float *row_den, unsigned long long *fallbacks,
                                                       int head) {
    const int i = blockIdx.x;
    if (i >= h) return;
    const float *const rows[2] = {num + (long long)i * w, den + (long long)i * w};
    fvif_paired_rows_of(rows, i, w, row_num, row_den, fallbacks, 0, 1, head);
}

/* The staged rows: the paired rows reading a copy of the row in shared memory (launched with
 * 2 * w * sizeof(float) bytes of it). */
extern "C" __global__ void fvif_row_sums_binade_staged(const float *num, const float *den, int w, int h,
                                                       float *row_num, float *row_den, unsigned long long *fallbacks) {
    fvif_row_sums_staged(num, den, w, h, row_num, row_den, fallbacks);
}

/* The interleaved rows: the paired rows on terms in segment-interleaved rows (layout 2,
 * fvif_term_index), row i at i * fvif_interleaved_pitch(w). Only the terms' places differ from
 * the paired rows': every segment's estimate, unit and term-by-term adds read the same terms
 * in the same order, so every sum is the paired rows' and so the left-to-right fp32 sum's.
 * Mutant of its own shortcut, FVIF_INTERLEAVED_FALLBACK_ROW_MAJOR: the walk's term-by-term
 * adds read a segment as if its row were row by row, a wrong sum wherever a segment is added
 * term by term (every row's first is, from +0) and its terms differ from those read. */
extern "C" __global__ void fvif_row_sums_binade_interleaved(const float *num, const float *den, int w, int h,
                                                            float *row_num, float *row_den,
                                                            unsigned long long *fallbacks) {
    const int i = blockIdx.x;
    if (i >= h) return;
    const long long at = (long long)i * fvif_interleaved_pitch(w);
    const float *const rows[2] = {num + at, den + at};
    fvif_paired_rows_of(rows, i, w, row_num, row_den, fallbacks, 1, 0, 0);
}

#endif /* FVIF_WITH_BINADE */

/* The former reduction (replay only): each 16 x 16 block of terms (row by row) reduced in
 * fp32, a tree per warp (shuffles) then the warps' sums in a tree; one partial per block,
 * which the host adds in fp64. Launch with 16 x 16 threads. */
extern "C" __global__ void fvif_tree_sums(const float *num, const float *den, int w, int h, float *part_num,
                                          float *part_den) {
    __shared__ float warp_num[8];
    __shared__ float warp_den[8];
    int j = blockIdx.x * 16 + threadIdx.x;
    int i = blockIdx.y * 16 + threadIdx.y;
    int lane = (threadIdx.y * 16 + threadIdx.x) & 31;
    int warp = (threadIdx.y * 16 + threadIdx.x) >> 5;
    float a = 0.0f, b = 0.0f;
    if (j < w && i < h) {
        a = num[(long long)i * w + j];
        b = den[(long long)i * w + j];
    }
    for (int off = 16; off > 0; off >>= 1) {
        a = __fadd_rn(a, __shfl_down_sync(0xffffffffu, a, off));
        b = __fadd_rn(b, __shfl_down_sync(0xffffffffu, b, off));
    }
    if (lane == 0) {
        warp_num[warp] = a;
        warp_den[warp] = b;
    }
    __syncthreads();
    if (warp == 0) {
        a = lane < 8 ? warp_num[lane] : 0.0f;
        b = lane < 8 ? warp_den[lane] : 0.0f;
        for (int off = 4; off > 0; off >>= 1) {
            a = __fadd_rn(a, __shfl_down_sync(0xffffffffu, a, off));
            b = __fadd_rn(b, __shfl_down_sync(0xffffffffu, b, off));
        }
        if (lane == 0) {
            long long blk = (long long)blockIdx.y * gridDim.x + blockIdx.x;
            part_num[blk] = a;
            part_den[blk] = b;
        }
    }
}
