/* Loads a library written by `dltune compile` and calls its
 * `_mlir_ciface_mm` (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
 * through the C interface: descriptors by pointer, the result's descriptor
 * first. A[i][k] = i + k, B = the 8x4 identity, so C[i][j] = i + j. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2D;

static Memref2D describe(float *data, int64_t rows, int64_t cols) {
  Memref2D m = {data, data, 0, {rows, cols}, {cols, 1}};
  return m;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void *library = dlopen(argv[1], RTLD_NOW);
  if (!library) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  void (*mm)(Memref2D *, Memref2D *, Memref2D *) =
      (void (*)(Memref2D *, Memref2D *, Memref2D *))dlsym(library, "_mlir_ciface_mm");
  if (!mm) {
    fprintf(stderr, "no _mlir_ciface_mm\n");
    return 1;
  }
  float a[4 * 8], b[8 * 4];
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 8; ++k)
      a[i * 8 + k] = (float)(i + k);
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 4; ++j)
      b[k * 4 + j] = k == j ? 1.0f : 0.0f;
  Memref2D ma = describe(a, 4, 8), mb = describe(b, 8, 4), result;
  mm(&result, &ma, &mb);
  printf("result %lldx%lld:", (long long)result.sizes[0], (long long)result.sizes[1]);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      printf(" %g", result.aligned[result.offset + i * result.strides[0] + j * result.strides[1]]);
  printf("\n");
  free(result.allocated);
  return 0;
}
