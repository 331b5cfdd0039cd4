/* Loads a library written by `dltune compile` whose `_mlir_ciface_f`
 * (tensor<1024x1024xf32>) -> tensor<1024x1024xf32> allocates a 4 MiB
 * intermediate and a 4 MiB result per call, calls it 10 times after a
 * warm-up (freeing each result as a caller does) and reports whether the
 * calls page-faulted their buffers in again (they should reuse freed
 * memory: docs/import.md, "A model as a library"). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2D;

static long minorFaults(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

int main(int argc, char **argv) {
  void *library = argc == 2 ? dlopen(argv[1], RTLD_NOW) : NULL;
  if (!library)
    return 1;
  void (*f)(Memref2D *, Memref2D *) =
      (void (*)(Memref2D *, Memref2D *))dlsym(library, "_mlir_ciface_f");
  if (!f)
    return 1;
  float *x = calloc(1024 * 1024, sizeof(float));
  Memref2D in = {x, x, 0, {1024, 1024}, {1024, 1}}, out;
  f(&out, &in);
  free(out.allocated);
  long before = minorFaults();
  for (int i = 0; i < 10; ++i) {
    f(&out, &in);
    free(out.allocated);
  }
  long perCall = (minorFaults() - before) / 10;
  /* 4 MiB of fresh pages is 1024 faults; reused memory takes none. */
  printf("%s\n", perCall < 64 ? "freed memory reused" : "buffers faulted in on every call");
  fprintf(stderr, "minor faults per call: %ld\n", perCall);
  return 0;
}
