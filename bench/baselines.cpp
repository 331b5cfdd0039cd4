//===- baselines.cpp - OpenBLAS, oneDNN and FMA-peak measurements ---------===//
//
// One measurement per process, so that each library runs with its own
// threading runtime (OpenBLAS pthreads, oneDNN's OpenMP) sized by the
// environment (OPENBLAS_NUM_THREADS / OMP_NUM_THREADS) and nothing else.
//
//   dltune-bench-baselines peak THREADS
//   dltune-bench-baselines openblas-matmul M N K REPEAT
//   dltune-bench-baselines onednn-matmul M N K REPEAT
//   dltune-bench-baselines onednn-conv H W C F KH REPEAT      (NHWC, valid, stride 1)
//   dltune-bench-baselines onednn-dwconv H W C KH REPEAT
//   dltune-bench-baselines onednn-conv2d N IH IW C F KH KW SH SW GROUPS REPEAT
//       (NHWC, the input already padded, as dltune's importer makes it;
//        GROUPS = C for depthwise)
//   dltune-bench-baselines onednn-batch-matmul B M N K REPEAT
//
// Prints one JSON object: {"median_ms": .., "gflops": ..}.
//
//===----------------------------------------------------------------------===//

#include <cblas.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double timeMedianMs(const std::function<void()> &fn, int repeat) {
  fn(); // warm-up: page faults, JIT kernels, thread pools
  fn();
  std::vector<double> t;
  for (int i = 0; i < repeat; ++i) {
    auto s = std::chrono::steady_clock::now();
    fn();
    auto e = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(e - s).count());
  }
  return median(t);
}

static std::vector<float> randomVector(size_t n, unsigned seed) {
  std::vector<float> v(n);
  unsigned s = seed;
  for (float &x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(s >> 8) / static_cast<float>(1 << 24) * 2.f - 1.f;
  }
  return v;
}

static void report(double ms, double flops) {
  std::printf("{\"median_ms\": %.6f, \"gflops\": %.3f}\n", ms, flops / (ms * 1e6));
}

// 12 independent FMA chains per thread hide the FMA latency on current cores.
__attribute__((target("avx512f"))) static double fmaLoop512(long iters) {
  __m512 acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm512_set1_ps(0.001f * i);
  const __m512 a = _mm512_set1_ps(0.9999f), b = _mm512_set1_ps(0.0001f);
  for (long it = 0; it < iters; ++it)
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  float sum = 0;
  for (int i = 0; i < 12; ++i)
    sum += _mm512_reduce_add_ps(acc[i]);
  return sum; // returned so the loop is not optimised away
}

__attribute__((target("avx2,fma"))) static double fmaLoop256(long iters) {
  __m256 acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm256_set1_ps(0.001f * i);
  const __m256 a = _mm256_set1_ps(0.9999f), b = _mm256_set1_ps(0.0001f);
  for (long it = 0; it < iters; ++it)
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm256_fmadd_ps(acc[i], a, b);
  alignas(32) float out[8];
  float sum = 0;
  for (int i = 0; i < 12; ++i) {
    _mm256_store_ps(out, acc[i]);
    for (float f : out)
      sum += f;
  }
  return sum;
}

static int peak(int threads) {
  bool avx512 = __builtin_cpu_supports("avx512f");
  int lanes = avx512 ? 16 : 8;
  const long iters = 50'000'000;
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    auto s = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    std::vector<double> sink(threads);
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] { sink[t] = avx512 ? fmaLoop512(iters) : fmaLoop256(iters); });
    for (auto &th : pool)
      th.join();
    auto e = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(e - s).count());
    if (sink[0] == 12345.0)
      std::printf("#");
  }
  double flops = 2.0 * 12 * lanes * iters * threads;
  std::printf("{\"median_ms\": %.6f, \"gflops\": %.3f, \"isa\": \"%s\"}\n", best,
              flops / (best * 1e6), avx512 ? "avx512" : "avx2");
  return 0;
}

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

/// Times oneDNN's matmul of row-major a x b = c (2-D, or 3-D batched).
static int onednnMatmulOf(dnnl::memory::dims aDims, dnnl::memory::dims bDims,
                          dnnl::memory::dims cDims, tag layout, double flops, int repeat) {
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream s(eng);
  dnnl::memory::desc a(aDims, dt::f32, layout), b(bDims, dt::f32, layout),
      c(cDims, dt::f32, layout);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, c), eng);
  dnnl::matmul prim(pd);
  std::vector<float> A = randomVector(a.get_size() / sizeof(float), 1),
                     B = randomVector(b.get_size() / sizeof(float), 2),
                     C(c.get_size() / sizeof(float));
  dnnl::memory ma(a, eng, A.data()), mb(b, eng, B.data()), mc(c, eng, C.data());
  double ms = timeMedianMs([&] {
    prim.execute(s, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
    s.wait();
  }, repeat);
  report(ms, flops);
  return 0;
}

static int onednnMatmul(long M, long N, long K, int repeat) {
  return onednnMatmulOf({M, K}, {K, N}, {M, N}, tag::ab, 2.0 * M * N * K, repeat);
}

static int onednnBatchMatmul(long B, long M, long N, long K, int repeat) {
  return onednnMatmulOf({B, M, K}, {B, K, N}, {B, M, N}, tag::abc, 2.0 * B * M * N * K, repeat);
}

/// A model's conv layer as dltune imports it: NHWC input padded beforehand,
/// any stride and group count; weights reordered once to oneDNN's choice.
static int onednnConv2d(long N, long IH, long IW, long C, long F, long KH, long KW, long SH,
                        long SW, long G, int repeat) {
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream s(eng);
  long OH = (IH - KH) / SH + 1, OW = (IW - KW) / SW + 1;
  dnnl::memory::desc src({N, C, IH, IW}, dt::f32, tag::nhwc);
  dnnl::memory::desc dst({N, F, OH, OW}, dt::f32, tag::nhwc);
  dnnl::memory::dims wDims = G == 1 ? dnnl::memory::dims{F, C, KH, KW}
                                    : dnnl::memory::dims{G, F / G, C / G, KH, KW};
  dnnl::memory::desc wAny(wDims, dt::f32, tag::any);
  dnnl::memory::desc wUser(wDims, dt::f32, G == 1 ? tag::oihw : tag::goihw);
  dnnl::convolution_forward::desc cd(dnnl::prop_kind::forward_inference,
                                     dnnl::algorithm::convolution_direct, src, wAny, dst,
                                     {SH, SW}, {0, 0}, {0, 0});
  dnnl::convolution_forward::primitive_desc pd(cd, eng);
  dnnl::convolution_forward prim(pd);
  std::vector<float> in = randomVector(N * IH * IW * C, 1),
                     w = randomVector(F * (C / G) * KH * KW, 2), out(N * OH * OW * F);
  dnnl::memory mi(src, eng, in.data()), mo(dst, eng, out.data());
  dnnl::memory mwUser(wUser, eng, w.data());
  dnnl::memory mw = mwUser;
  if (pd.weights_desc() != wUser) { // weights are reordered once, untimed
    mw = dnnl::memory(pd.weights_desc(), eng);
    dnnl::reorder(mwUser, mw).execute(s, mwUser, mw);
    s.wait();
  }
  double ms = timeMedianMs([&] {
    prim.execute(s, {{DNNL_ARG_SRC, mi}, {DNNL_ARG_WEIGHTS, mw}, {DNNL_ARG_DST, mo}});
    s.wait();
  }, repeat);
  report(ms, 2.0 * N * OH * OW * F * (C / G) * KH * KW);
  return 0;
}

static int openblasMatmul(long M, long N, long K, int repeat) {
  std::vector<float> A = randomVector(M * K, 1), B = randomVector(K * N, 2), C(M * N);
  double ms = timeMedianMs([&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A.data(),
                K, B.data(), N, 0.0f, C.data(), N);
  }, repeat);
  report(ms, 2.0 * M * N * K);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: see the header of bench/baselines.cpp\n");
    return 1;
  }
  std::string what = argv[1];
  auto arg = [&](int i) { return i < argc ? std::atol(argv[i]) : 0L; };
  try {
    if (what == "peak")
      return peak(std::max(1L, arg(2)));
    if (what == "openblas-matmul")
      return openblasMatmul(arg(2), arg(3), arg(4), arg(5));
    if (what == "onednn-matmul")
      return onednnMatmul(arg(2), arg(3), arg(4), arg(5));
    if (what == "onednn-conv") // H W C F KH: valid, stride 1
      return onednnConv2d(1, arg(2) + arg(6) - 1, arg(3) + arg(6) - 1, arg(4), arg(5), arg(6),
                          arg(6), 1, 1, 1, arg(7));
    if (what == "onednn-conv2d")
      return onednnConv2d(arg(2), arg(3), arg(4), arg(5), arg(6), arg(7), arg(8), arg(9),
                          arg(10), std::max(1L, arg(11)), arg(12));
    if (what == "onednn-batch-matmul")
      return onednnBatchMatmul(arg(2), arg(3), arg(4), arg(5), arg(6));
    if (what == "onednn-dwconv") // H W C KH: valid, stride 1
      return onednnConv2d(1, arg(2) + arg(5) - 1, arg(3) + arg(5) - 1, arg(4), arg(4), arg(5),
                          arg(5), 1, 1, arg(4), arg(6));
  } catch (const dnnl::error &e) {
    std::fprintf(stderr, "oneDNN error: %s\n", e.what());
    return 2;
  }
  std::fprintf(stderr, "unknown measurement '%s'\n", what.c_str());
  return 1;
}
