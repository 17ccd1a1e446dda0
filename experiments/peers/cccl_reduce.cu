// Times CUB's device-wide sum of doubles on the data the gpu-timing experiment times its own kernels on.
//
// Two calls are timed per size, each with CUDA events around the single call, on the legacy default stream:
//   deterministic: cub::DeviceReduce::Sum(d_in, d_out, n, env) with
//                  env = cuda::execution::require(cuda::execution::determinism::gpu_to_gpu), the
//                  environment overload (CCCL >= 3.1) that selects the reproducible (RFA) sum. It takes no
//                  temporary storage: CUB allocates and frees it inside every call (cudaMallocAsync /
//                  cudaFreeAsync on the call's stream), so that cost is in the times, as a user gets it.
//   default:       the two-phase cub::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, n), run-to-run
//                  deterministic only, temporary storage allocated once outside the timing.
//
// Data (identical to experiments/peers/cupy_sum.py): a pool of P = max(N, pool) doubles,
// x[i] = (splitmix64(seed + (i + 1) * 0x9e3779b97f4a7c15) >> 11) * 2^-53, made on the device; repetition r
// sums x[(r mod K) * N .. + N] with K = max(1, min(P / N, 256)). The checksum is the sum modulo 2^64 of the
// pool's bit patterns. The result bits reported are those of each call on the first window (offset 0).
//
// Usage: cccl_reduce --sizes N1,N2,... --pool P --seed S [--warmup W] [--reps R]
// Prints one JSON object on stdout; on error, one line on stderr and a non-zero exit status.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#if !defined(CCCL_VERSION) || CCCL_VERSION < 3001000
#  error "CCCL >= 3.1 is needed for cub::DeviceReduce::Sum with cuda::execution::determinism::gpu_to_gpu"
#endif

using u64 = unsigned long long;

[[noreturn]] static void die(const std::string& msg) {
  std::fprintf(stderr, "cccl_reduce: %s\n", msg.c_str());
  std::exit(1);
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) die(std::string(what) + ": " + cudaGetErrorString(e));
}

__global__ void fill_pool(double* x, u64 count, u64 seed) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < count; i += (u64)gridDim.x * blockDim.x) {
    u64 z = seed + (i + 1) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z = z ^ (z >> 31);
    x[i] = (double)(z >> 11) * 0x1.0p-53;
  }
}

// Wrapping integer addition is exact and order-free, so atomics give the same checksum every time.
__global__ void bit_checksum(const double* x, u64 count, u64* out) {
  u64 s = 0;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < count; i += (u64)gridDim.x * blockDim.x)
    s += (u64)__double_as_longlong(x[i]);
  atomicAdd(out, s);
}

static double median(std::vector<float> t) {
  std::sort(t.begin(), t.end());
  size_t m = t.size() / 2;
  return t.size() % 2 ? t[m] : 0.5 * ((double)t[m - 1] + (double)t[m]);
}

static std::string json_times(const std::vector<float>& t) {
  std::string s = "[";
  char buf[32];
  for (size_t i = 0; i < t.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.9g", i ? ", " : "", t[i]);
    s += buf;
  }
  return s + "]";
}

// Runs both sums on each window; NumT is the item-count type a caller would pass (int where it fits).
template <typename NumT>
static std::string time_size(u64 n, u64 pool_min, u64 seed, int warmup, int reps) {
  const u64 count = std::max(n, pool_min);
  const u64 k = std::max<u64>(1, std::min<u64>(count / n, 256));
  double* x = nullptr;
  double* out = nullptr;
  u64* sum_bits = nullptr;
  check(cudaMalloc(&x, count * sizeof(double)), "cudaMalloc pool");
  check(cudaMalloc(&out, sizeof(double)), "cudaMalloc out");
  check(cudaMalloc(&sum_bits, sizeof(u64)), "cudaMalloc checksum");
  fill_pool<<<4096, 256>>>(x, count, seed);
  check(cudaGetLastError(), "fill_pool");
  check(cudaMemset(sum_bits, 0, sizeof(u64)), "cudaMemset");
  bit_checksum<<<1024, 256>>>(x, count, sum_bits);
  check(cudaGetLastError(), "bit_checksum");
  u64 checksum = 0;
  check(cudaMemcpy(&checksum, sum_bits, sizeof checksum, cudaMemcpyDeviceToHost), "checksum copy");

  const auto env = cuda::execution::require(cuda::execution::determinism::gpu_to_gpu);
  const NumT num = (NumT)n;
  size_t temp_bytes = 0;
  check(cub::DeviceReduce::Sum(nullptr, temp_bytes, x, out, num), "Sum size query");
  void* temp = nullptr;
  check(cudaMalloc(&temp, std::max<size_t>(temp_bytes, 1)), "cudaMalloc temp");

  auto det = [&](const double* in) { check(cub::DeviceReduce::Sum(in, out, num, env), "deterministic Sum"); };
  auto dflt = [&](const double* in) { check(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, num), "default Sum"); };

  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  auto time_one = [&](auto&& call) {
    std::vector<float> times;
    for (int r = 0; r < warmup + reps; ++r) {
      const double* in = x + (u64)(r % k) * n;
      check(cudaEventRecord(start, 0), "cudaEventRecord");
      call(in);
      check(cudaEventRecord(stop, 0), "cudaEventRecord");
      check(cudaEventSynchronize(stop), "cudaEventSynchronize");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      if (r >= warmup) times.push_back(ms);
    }
    return times;
  };
  auto first_window_bits = [&](auto&& call) {
    call(x);
    u64 bits = 0;  // the f64 result's bit pattern
    check(cudaMemcpy(&bits, out, sizeof bits, cudaMemcpyDeviceToHost), "result copy");
    return bits;
  };

  const std::vector<float> det_t = time_one(det);
  const std::vector<float> def_t = time_one(dflt);
  const u64 det_bits = first_window_bits(det);
  const u64 def_bits = first_window_bits(dflt);

  check(cudaEventDestroy(start), "cudaEventDestroy");
  check(cudaEventDestroy(stop), "cudaEventDestroy");
  for (void* p : {temp, (void*)sum_bits, (void*)out, (void*)x}) check(cudaFree(p), "cudaFree");

  char head[512];
  std::snprintf(head, sizeof head,
                "{\"n\": %llu, \"pool\": %llu, \"checksum\": \"%llu\", \"deterministic_median_ms\": %.9g, "
                "\"default_median_ms\": %.9g, \"deterministic_bits\": \"%llu\", \"default_bits\": \"%llu\", ",
                n, count, checksum, median(det_t), median(def_t), det_bits, def_bits);
  return std::string(head) + "\"deterministic_times_ms\": " + json_times(det_t) +
         ", \"default_times_ms\": " + json_times(def_t) + "}";
}

static u64 parse_u64(const char* s, const char* name) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (!*s || *end || errno || s[0] == '-') die(std::string("bad value for ") + name + ": '" + s + "'");
  return v;
}

int main(int argc, char** argv) {
  std::vector<u64> sizes;
  u64 pool = 0, seed = 0, warmup = 3, reps = 21;
  bool have_sizes = false, have_pool = false, have_seed = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) die("missing value after " + a);
    const char* v = argv[++i];
    if (a == "--sizes") {
      std::string list = v;
      for (size_t p = 0; p <= list.size();) {
        size_t q = list.find(',', p);
        if (q == std::string::npos) q = list.size();
        if (q > p) sizes.push_back(parse_u64(list.substr(p, q - p).c_str(), "--sizes"));
        p = q + 1;
      }
      have_sizes = true;
    } else if (a == "--pool") { pool = parse_u64(v, "--pool"); have_pool = true; }
    else if (a == "--seed") { seed = parse_u64(v, "--seed"); have_seed = true; }
    else if (a == "--warmup") warmup = parse_u64(v, "--warmup");
    else if (a == "--reps") reps = parse_u64(v, "--reps");
    else die("unknown argument " + a);
  }
  if (!have_sizes || !have_pool || !have_seed) die("usage: --sizes N1,N2,... --pool P --seed S [--warmup W] [--reps R]");
  if (sizes.empty()) die("--sizes is empty");
  if (reps < 1 || reps > 1000000 || warmup > 1000000) die("--reps must be in 1..1e6 and --warmup at most 1e6");
  for (u64 n : sizes)
    if (n == 0) die("sizes must be positive");

  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::string device;
  for (const char* c = prop.name; *c; ++c)
    if (*c != '"' && *c != '\\' && (unsigned char)*c >= 0x20) device += *c;

  std::string rows;
  for (u64 n : sizes) {
    if (!rows.empty()) rows += ", ";
    if (n <= (u64)INT_MAX) {
      rows += time_size<int>(n, pool, seed, (int)warmup, (int)reps);
    } else {
#if CCCL_VERSION >= 3002000
      rows += time_size<long long>(n, pool, seed, (int)warmup, (int)reps);
#else
      die("sizes over INT_MAX need CCCL >= 3.2 (the 3.1 deterministic sum takes 32-bit counts only)");
#endif
    }
  }
  std::printf("{\"cccl\": \"%d.%d.%d\", \"device\": \"%s\", "
              "\"note\": \"deterministic = Sum(d_in, d_out, n, require(determinism::gpu_to_gpu)), which allocates "
              "and frees its temporary storage inside every call (cudaMallocAsync/cudaFreeAsync, default memory "
              "pool settings); those costs are in its times. default = two-phase Sum with temporary storage "
              "allocated once outside the timing. Both on the legacy default stream; item count passed as int "
              "where n fits.\", \"sizes\": [%s]}\n",
              (int)CCCL_MAJOR_VERSION, (int)CCCL_MINOR_VERSION, (int)CCCL_PATCH_VERSION, device.c_str(), rows.c_str());
  return 0;
}
