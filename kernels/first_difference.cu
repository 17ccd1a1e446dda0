/* first_difference.cu: where two arrays of doubles first differ in bits, on the device (the
 * check of a running sum against the CPU's at every position, without copying 8 GB back).
 * Two values agree when their bits are equal or both are NaN (a NaN's payload is not part of
 * what a loop's NaN promises). *first must hold n before the launch; it ends holding the
 * least index that differs, or n; *count the number of differing positions. */
typedef unsigned long long u64;

extern "C" __global__ void first_difference(const u64 *__restrict__ a, const u64 *__restrict__ b, u64 n,
                                            u64 *first, u64 *count) {
    u64 local_first = n, local_count = 0ull;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        u64 x = a[i], y = b[i];
        int x_nan = (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
        int y_nan = (y & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
        if (x != y && !(x_nan && y_nan)) {
            if (i < local_first) local_first = i;
            local_count++;
        }
    }
    if (local_count) {
        atomicMin(first, local_first);
        atomicAdd(count, local_count);
    }
}
