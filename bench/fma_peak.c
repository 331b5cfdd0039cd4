// One core's f32 FMA peak: 12 independent chains of 8-wide AVX2 FMAs (more
// than latency x pipes on current x86 cores), so the loop is bound by FMA
// throughput alone. The bound that README/bench figures compare against.
//   clang -O2 -mavx2 -mfma bench/fma_peak.c -o /tmp/fma_peak && /tmp/fma_peak
// (clang: GCC 12 keeps the 12 accumulators in memory and measures a
// quarter of the peak). Prints GFLOP/s of five runs.
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(void) {
  for (int run = 0; run < 5; ++run) {
    __m256 acc[12];
    for (int j = 0; j < 12; ++j)
      acc[j] = _mm256_set1_ps(0.001f * j);
    const __m256 a = _mm256_set1_ps(0.9999f), b = _mm256_set1_ps(0.0001f);
    const long iterations = 100000000;
    double start = now();
    for (long i = 0; i < iterations; ++i)
      for (int j = 0; j < 12; ++j)
        acc[j] = _mm256_fmadd_ps(acc[j], a, b);
    double seconds = now() - start;
    float sink = 0;
    for (int j = 0; j < 12; ++j)
      sink += _mm256_cvtss_f32(acc[j]);
    printf("run %d: %.1f GFLOP/s (checksum %g)\n", run, iterations * 12 * 16 / seconds / 1e9,
           sink);
  }
  return 0;
}
