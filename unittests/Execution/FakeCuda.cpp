//===- FakeCuda.cpp - A libcuda stand-in for host-side tests --------------===//
//
// Test-only shared library with the CUDA driver entry points dltune binds.
// "Device" memory is host memory, copies are memcpy, events read the host
// clock, and kernel launches are counted but never execute anything: it
// checks what the host side does (how often it uploads, downloads, launches,
// which stream the timing events and the launches use), never what a GPU
// computes. dltuneFakeCudaCounters() exposes the counts.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
struct Counters {
  int allocs = 0, frees = 0, htod = 0, dtoh = 0, dtod = 0, launches = 0;
  int streamsCreated = 0, streamsDestroyed = 0, eventRecords = 0, syncs = 0;
  void *lastLaunchStream = nullptr;
  void *lastEventStream = nullptr;
  int asyncMemsets = 0;
  void *lastMemsetStream = nullptr;
  int lastMemsetEventRecords = 0; // eventRecords when the last memset was queued
};
Counters counters;
struct Event {
  double ms = 0;
};
int streamStorage[64];
int nextStream = 0;
char moduleStorage, functionStorage;

double nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
} // namespace

#define FAKE extern "C" __attribute__((visibility("default")))
using CUresult = int;
using CUdeviceptr = unsigned long long;

FAKE Counters *dltuneFakeCudaCounters() { return &counters; }

FAKE CUresult cuInit(unsigned) { return 0; }
FAKE CUresult cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return ordinal == 0 ? 0 : 101; // CUDA_ERROR_INVALID_DEVICE
}
FAKE CUresult cuDeviceGetCount(int *n) {
  *n = 1;
  return 0;
}
FAKE CUresult cuDeviceGetName(char *name, int len, int) {
  std::strncpy(name, "dltune fake GPU (host memory, kernels never run)", len - 1);
  name[len - 1] = 0;
  return 0;
}
/// An H100's answers; DLTUNE_FAKE_CUDA_CC (e.g. 80) and
/// DLTUNE_FAKE_CUDA_REGISTERS_PER_BLOCK change them for tests.
static int fromEnv(const char *name, int dflt) {
  const char *v = std::getenv(name);
  return v && *v ? std::atoi(v) : dflt;
}
FAKE CUresult cuDeviceGetAttribute(int *v, int attr, int) {
  int cc = fromEnv("DLTUNE_FAKE_CUDA_CC", 90);
  switch (attr) {
  case 75: *v = cc / 10; break; // compute capability major
  case 76: *v = cc % 10; break; // minor
  case 16: *v = 132; break;     // multiprocessors
  case 1: *v = 1024; break;     // max threads per block
  case 8: *v = 49152; break;    // max shared memory per block
  case 12: *v = fromEnv("DLTUNE_FAKE_CUDA_REGISTERS_PER_BLOCK", 65536); break;
  case 81: *v = 233472; break;  // max shared memory per multiprocessor
  case 38: *v = fromEnv("DLTUNE_FAKE_CUDA_L2_BYTES", 52428800); break; // L2 cache
  default: *v = 0; break;
  }
  return 0;
}
FAKE CUresult cuDeviceTotalMem_v2(size_t *bytes, int) {
  *bytes = size_t(80) << 30;
  return 0;
}
FAKE CUresult cuDevicePrimaryCtxRetain(void **ctx, int) {
  static char context;
  *ctx = &context;
  return 0;
}
FAKE CUresult cuCtxSetCurrent(void *) { return 0; }
FAKE CUresult cuCtxSynchronize() {
  ++counters.syncs;
  return 0;
}
FAKE CUresult cuModuleLoadData(void **module, const void *) {
  *module = &moduleStorage;
  return 0;
}
FAKE CUresult cuModuleUnload(void *) { return 0; }
FAKE CUresult cuModuleGetFunction(void **fn, void *, const char *) {
  *fn = &functionStorage;
  return 0;
}
// As the driver: more than 48 KiB of dynamic shared memory needs the
// kernel's opt-in first (attribute 8, MAX_DYNAMIC_SHARED_SIZE_BYTES; one
// fake function, so one value).
int maxDynamicShared = 48 * 1024;
FAKE CUresult cuFuncSetAttribute(void *, int attribute, int value) {
  if (attribute != 8 || value < 0 || value > 227 * 1024)
    return 1; // CUDA_ERROR_INVALID_VALUE
  maxDynamicShared = value;
  return 0;
}
FAKE CUresult cuLaunchKernel(void *, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned sharedBytes, void *stream, void **, void **) {
  if (static_cast<int>(sharedBytes) > maxDynamicShared)
    return 1; // CUDA_ERROR_INVALID_VALUE
  ++counters.launches;
  counters.lastLaunchStream = stream;
  return 0;
}
FAKE CUresult cuStreamCreate(void **stream, unsigned) {
  *stream = &streamStorage[nextStream++ % 64];
  ++counters.streamsCreated;
  return 0;
}
FAKE CUresult cuStreamSynchronize(void *) {
  ++counters.syncs;
  return 0;
}
FAKE CUresult cuStreamDestroy_v2(void *) {
  ++counters.streamsDestroyed;
  return 0;
}
FAKE CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) {
  void *m = std::malloc(bytes);
  if (!m)
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  ++counters.allocs;
  *p = reinterpret_cast<CUdeviceptr>(m);
  return 0;
}
FAKE CUresult cuMemFree_v2(CUdeviceptr p) {
  ++counters.frees;
  std::free(reinterpret_cast<void *>(p));
  return 0;
}
FAKE CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
  ++counters.htod;
  std::memcpy(reinterpret_cast<void *>(dst), src, n);
  return 0;
}
FAKE CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
  ++counters.dtoh;
  std::memcpy(dst, reinterpret_cast<const void *>(src), n);
  return 0;
}
FAKE CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  ++counters.dtod;
  std::memmove(reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src), n);
  return 0;
}
FAKE CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned v, size_t n) {
  auto *p = reinterpret_cast<unsigned *>(dst);
  for (size_t i = 0; i < n; ++i)
    p[i] = v;
  return 0;
}
/// Counted (asyncMemsets, the stream in lastMemsetStream) and, with
/// DLTUNE_FAKE_CUDA_LOG set, logged as "memset-async BYTES" to that file:
/// the tuner's measuring workers are processes of their own.
FAKE CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned v, size_t n, void *stream) {
  ++counters.asyncMemsets;
  counters.lastMemsetStream = stream;
  counters.lastMemsetEventRecords = counters.eventRecords;
  auto *p = reinterpret_cast<unsigned *>(dst);
  for (size_t i = 0; i < n; ++i)
    p[i] = v;
  if (const char *log = std::getenv("DLTUNE_FAKE_CUDA_LOG"); log && *log)
    if (FILE *f = std::fopen(log, "a")) {
      std::fprintf(f, "memset-async %zu\n", n * 4);
      std::fclose(f);
    }
  return 0;
}
FAKE CUresult cuEventCreate(void **event, unsigned) {
  *event = new Event();
  return 0;
}
FAKE CUresult cuEventRecord(void *event, void *stream) {
  ++counters.eventRecords;
  counters.lastEventStream = stream;
  static_cast<Event *>(event)->ms = nowMs();
  return 0;
}
FAKE CUresult cuEventSynchronize(void *) { return 0; }
/// DLTUNE_FAKE_CUDA_EVENT_MS: every event interval reads this many ms, so
/// that a test can tell a time measured with events from any other.
FAKE CUresult cuEventElapsedTime(float *ms, void *start, void *stop) {
  if (const char *fixed = std::getenv("DLTUNE_FAKE_CUDA_EVENT_MS"); fixed && *fixed) {
    *ms = static_cast<float>(std::atof(fixed));
    return 0;
  }
  *ms = static_cast<float>(static_cast<Event *>(stop)->ms - static_cast<Event *>(start)->ms);
  return 0;
}
FAKE CUresult cuEventDestroy_v2(void *event) {
  delete static_cast<Event *>(event);
  return 0;
}
/// Checks what the driver documents for a tiled tensor map (rank, 16-byte
/// aligned start and strides, boxes of 1-256 elements whose rows are whole
/// 16-byte units within the swizzle span) and, instead of the driver's
/// opaque encoding, writes the fields a test decodes: FakeTensorMap.
struct FakeTensorMap {
  unsigned long long address, dims[5], strides[4];
  unsigned rank, dataType, box[5], swizzle;
};
static_assert(sizeof(FakeTensorMap) <= 128, "a CUtensorMap has 128 bytes");
FAKE CUresult cuTensorMapEncodeTiled(void *map, int dataType, unsigned rank, void *address,
                                     const unsigned long long *dims,
                                     const unsigned long long *strides, const unsigned *box,
                                     const unsigned *elementStrides, int interleave,
                                     int swizzle, int, int) {
  static const int bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  const CUresult invalid = 1; // CUDA_ERROR_INVALID_VALUE
  if (!map || dataType < 0 || dataType > 12 || rank < 1 || rank > 5 || interleave != 0 ||
      reinterpret_cast<unsigned long long>(address) % 16)
    return invalid;
  int elem = bytes[dataType];
  int span = swizzle == 1 ? 32 : swizzle == 2 ? 64 : swizzle == 3 ? 128 : 0;
  if ((box[0] * elem) % 16 || (span && static_cast<int>(box[0]) * elem > span))
    return invalid;
  for (unsigned i = 0; i < rank; ++i)
    if (dims[i] == 0 || dims[i] > (1ull << 32) || box[i] == 0 || box[i] > 256 ||
        elementStrides[i] != 1)
      return invalid;
  for (unsigned i = 0; i + 1 < rank; ++i)
    if (strides[i] % 16 || strides[i] >= (1ull << 40))
      return invalid;
  FakeTensorMap m{};
  m.address = reinterpret_cast<unsigned long long>(address);
  m.rank = rank;
  m.dataType = static_cast<unsigned>(dataType);
  m.swizzle = static_cast<unsigned>(swizzle);
  for (unsigned i = 0; i < rank; ++i) {
    m.dims[i] = dims[i];
    m.box[i] = box[i];
    if (i + 1 < rank)
      m.strides[i] = strides[i];
  }
  std::memset(map, 0, 128);
  std::memcpy(map, &m, sizeof(m));
  return 0;
}
FAKE CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "fake CUDA error";
  return 0;
}
