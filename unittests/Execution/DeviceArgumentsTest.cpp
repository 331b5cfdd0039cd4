//===- DeviceArgumentsTest.cpp - GPU host logic against a fake driver -----===//
//
// Runs DeviceArguments and the mgpu* runtime against FakeCuda.cpp, a
// libcuda stand-in that keeps "device" memory on the host and never runs a
// kernel: what is checked is the host side - arguments uploaded once, calls
// timed with events on the stream the launches go to, results copied back
// on request - not anything a GPU computes.
//
//===----------------------------------------------------------------------===//

#include "dltune/Execution/CudaDriver.h"
#include "dltune/Execution/GpuKernel.h"
#include "dltune/Execution/MemRefDescriptors.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <vector>

using namespace mlir::dltune;

extern "C" {
void *mgpuStreamCreate();
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuLaunchKernel(void *function, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx,
                      intptr_t by, intptr_t bz, int32_t smem, void *stream, void **params,
                      void **extra, size_t);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
void *dltuneDeviceConstant(void *host, int64_t bytes);
void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *rankedDescriptor, int64_t dataType,
                                     int64_t interleave, int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *boxDims);
}

namespace {
struct Counters {
  int allocs, frees, htod, dtoh, dtod, launches;
  int streamsCreated, streamsDestroyed, eventRecords, syncs;
  void *lastLaunchStream;
  void *lastEventStream;
  int asyncMemsets;
  void *lastMemsetStream;
  int lastMemsetEventRecords;
};

class FakeCudaTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    // Before the first CudaDriver::get() of this process.
    setenv("DLTUNE_CUDA_DRIVER", DLTUNE_FAKE_CUDA_PATH, 1);
  }
  Counters &counters() {
    llvm::Expected<CudaDriver &> d = CudaDriver::get(); // loads the fake
    EXPECT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
    void *lib = dlopen(DLTUNE_FAKE_CUDA_PATH, RTLD_NOW | RTLD_NOLOAD);
    EXPECT_NE(lib, nullptr);
    auto get = reinterpret_cast<Counters *(*)()>(dlsym(lib, "dltuneFakeCudaCounters"));
    return *get();
  }
};
} // namespace

TEST_F(FakeCudaTest, DriverReportsTheFakeDeviceAndItsChip) {
  llvm::Expected<CudaDriver &> d = CudaDriver::get();
  ASSERT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
  GpuTarget t = selectGpuTarget("");
  EXPECT_EQ(t.chip, "sm_90");
  EXPECT_EQ(t.origin, "driver");
  EXPECT_EQ(t.limits.maxRegistersPerBlock, 65536);
  EXPECT_EQ(t.limits.maxSharedBytesPerMultiprocessor, 233472);
  t = selectGpuTarget("sm_80");
  EXPECT_EQ(t.chip, "sm_80");
  EXPECT_EQ(t.origin, "option");
}

TEST_F(FakeCudaTest, UploadsOnceTimesWithEventsOnTheLaunchStreamDownloadsOnRequest) {
  KernelSignature sig;
  sig.name = "k";
  sig.args = {BufferType{ElementKind::F32, {4, 4}}, BufferType{ElementKind::F32, {4, 4}},
              BufferType{ElementKind::F32, {4}}};
  std::vector<HostBuffer> args;
  for (const BufferType &t : sig.args) {
    args.emplace_back(t);
    args.back().fillRandom(7);
  }
  Counters &c = counters();
  Counters before = c;
  llvm::Expected<std::unique_ptr<DeviceArguments>> dev = DeviceArguments::upload(sig, args);
  ASSERT_TRUE(static_cast<bool>(dev)) << llvm::toString(dev.takeError());
  EXPECT_EQ(c.allocs - before.allocs, 3);
  EXPECT_EQ(c.htod - before.htod, 3);

  // What lowered host code does per launch: create a stream, launch on it,
  // wait, destroy it. The "kernel" here writes the output on the host side
  // (the fake's device memory is host memory) so the round trip is visible.
  int calls = 0;
  void *launchStream = nullptr;
  auto entry = [&](PackedDescriptors &desc, int64_t *) {
    ++calls;
    void *stream = mgpuStreamCreate();
    launchStream = stream;
    static char fn;
    mgpuLaunchKernel(&fn, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr, 0);
    mgpuStreamSynchronize(stream);
    mgpuStreamDestroy(stream);
    auto *out = reinterpret_cast<float *>(static_cast<int64_t *>(desc.get(2))[1]);
    out[0] = static_cast<float>(calls);
  };
  ASSERT_FALSE(static_cast<bool>((*dev)->call(entry)));
  for (int i = 0; i < 5; ++i) {
    Counters beforeCall = c;
    llvm::Expected<double> ms = (*dev)->timedCall(entry);
    ASSERT_TRUE(static_cast<bool>(ms)) << llvm::toString(ms.takeError());
    EXPECT_GE(*ms, 0.0);
    // Two events around the call, on the very stream the launch used; that
    // stream outlives the entry's destroy call.
    EXPECT_EQ(c.eventRecords - beforeCall.eventRecords, 2);
    EXPECT_EQ(c.lastEventStream, c.lastLaunchStream);
    EXPECT_EQ(c.lastLaunchStream, launchStream);
    EXPECT_EQ(c.streamsDestroyed, beforeCall.streamsDestroyed);
  }
  // Nothing was copied while calling and timing.
  EXPECT_EQ(c.htod - before.htod, 3);
  EXPECT_EQ(c.dtoh - before.dtoh, 0);
  EXPECT_EQ(c.launches - before.launches, 6);

  std::vector<HostBuffer> results;
  ASSERT_FALSE(static_cast<bool>((*dev)->download(args, &results)));
  EXPECT_EQ(c.dtoh - before.dtoh, 3);
  EXPECT_EQ(static_cast<const float *>(args[2].data())[0], 6.0f);
  dev->reset();
  EXPECT_EQ(c.frees - before.frees, 3);
}

// With a cache flush, each timed call first writes a buffer of that size on
// the timing stream, before the start event (so untimed); untimed calls and
// calls timed hot write nothing.
TEST_F(FakeCudaTest, FlushedTimedCallsWriteTheFlushBufferBeforeTheStartEvent) {
  KernelSignature sig{"k", {BufferType{ElementKind::F32, {16}}}, {}};
  std::vector<HostBuffer> args(1, HostBuffer(sig.args[0]));
  Counters &c = counters();
  llvm::Expected<std::unique_ptr<DeviceArguments>> dev = DeviceArguments::upload(sig, args);
  ASSERT_TRUE(static_cast<bool>(dev)) << llvm::toString(dev.takeError());
  auto entry = [&](PackedDescriptors &, int64_t *) {
    void *stream = mgpuStreamCreate();
    static char fn;
    mgpuLaunchKernel(&fn, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr, 0);
    mgpuStreamDestroy(stream);
  };
  Counters before = c;
  ASSERT_TRUE(static_cast<bool>((*dev)->timedCall(entry)));
  EXPECT_EQ(c.asyncMemsets, before.asyncMemsets); // hot by default
  (*dev)->setCacheFlushBytes(size_t(1) << 20);
  for (int i = 0; i < 3; ++i) {
    Counters beforeCall = c;
    llvm::Expected<double> ms = (*dev)->timedCall(entry);
    ASSERT_TRUE(static_cast<bool>(ms)) << llvm::toString(ms.takeError());
    EXPECT_EQ(c.asyncMemsets - beforeCall.asyncMemsets, 1);
    EXPECT_EQ(c.lastMemsetStream, c.lastEventStream);
    // Queued before the call's two events.
    EXPECT_EQ(c.lastMemsetEventRecords, beforeCall.eventRecords);
    EXPECT_EQ(c.eventRecords - beforeCall.eventRecords, 2);
  }
  // Allocated once, for the first flushed call.
  EXPECT_EQ(c.allocs - before.allocs, 1);
  Counters beforeUntimed = c;
  ASSERT_FALSE(static_cast<bool>((*dev)->call(entry)));
  EXPECT_EQ(c.asyncMemsets, beforeUntimed.asyncMemsets);
  int freesBefore = c.frees;
  dev->reset();
  EXPECT_EQ(c.frees - freesBefore, 2); // the argument and the flush buffer
}

// Twice the driver's L2, at least 32 MiB.
TEST_F(FakeCudaTest, DefaultFlushIsTwiceL2) {
  counters();
  EXPECT_EQ(DeviceArguments::getDefaultFlushBytes(), size_t(2) * 52428800);
  setenv("DLTUNE_FAKE_CUDA_L2_BYTES", "4194304", 1);
  EXPECT_EQ(DeviceArguments::getDefaultFlushBytes(), size_t(32) << 20);
  unsetenv("DLTUNE_FAKE_CUDA_L2_BYTES");
}

TEST_F(FakeCudaTest, RunWithDeviceBuffersCopiesEachWayOnce) {
  KernelSignature sig;
  sig.name = "k";
  sig.args = {BufferType{ElementKind::F32, {8}}};
  std::vector<HostBuffer> args;
  args.emplace_back(sig.args[0]);
  std::memset(args[0].data(), 0, args[0].getType().getBytes());
  Counters &c = counters();
  Counters before = c;
  llvm::Error e = runWithDeviceBuffers(sig, args, nullptr, [&](PackedDescriptors &desc, int64_t *) {
    reinterpret_cast<float *>(static_cast<int64_t *>(desc.get(0))[1])[3] = 2.5f;
  });
  ASSERT_FALSE(static_cast<bool>(e)) << llvm::toString(std::move(e));
  EXPECT_EQ(c.htod - before.htod, 1);
  EXPECT_EQ(c.dtoh - before.dtoh, 1);
  EXPECT_EQ(static_cast<const float *>(args[0].data())[3], 2.5f);
}

// A model's host code allocates its intermediate buffers and reads its
// weights on every call: the second call must allocate and upload nothing.
TEST_F(FakeCudaTest, BuffersAreReusedAndConstantsUploadedOnce) {
  Counters &c = counters();
  Counters before = c;
  void *a = mgpuMemAlloc(4096, nullptr, false);
  void *b = mgpuMemAlloc(128, nullptr, false);
  ASSERT_NE(a, nullptr);
  mgpuMemFree(a, nullptr);
  mgpuMemFree(b, nullptr);
  EXPECT_EQ(mgpuMemAlloc(4096, nullptr, false), a); // same size: the same block
  EXPECT_EQ(mgpuMemAlloc(128, nullptr, false), b);
  void *c3 = mgpuMemAlloc(256, nullptr, false); // no free block of this size
  EXPECT_EQ(c.allocs - before.allocs, 3);
  EXPECT_EQ(c.frees - before.frees, 0);

  static float weights[4] = {1, 2, 3, 4};
  void *w = dltuneDeviceConstant(weights, sizeof(weights));
  ASSERT_NE(w, nullptr);
  EXPECT_NE(w, static_cast<void *>(weights));
  EXPECT_EQ(dltuneDeviceConstant(weights, sizeof(weights)), w);
  EXPECT_EQ(c.htod - before.htod, 1);
  EXPECT_EQ(static_cast<float *>(w)[2], 3.0f); // the fake's device memory is host memory
  ASSERT_FALSE(static_cast<bool>(takeGpuRuntimeError()));

  for (void *p : {a, b, c3})
    mgpuMemFree(p, nullptr);
  releaseGpuRuntimeMemory(); // the three pooled blocks and the constant
  EXPECT_EQ(c.frees - before.frees, 4);
  dltuneDeviceConstant(weights, sizeof(weights)); // uploaded again after a release
  EXPECT_EQ(c.htod - before.htod, 2);
  releaseGpuRuntimeMemory();
}

// An entry that returns a buffer of its own (a model's output): download
// copies it out, and each call's buffer goes back to the pool at the next
// call, so that timing many calls allocates once.
TEST_F(FakeCudaTest, ReturnedBuffersAreCopiedOutAndReused) {
  KernelSignature sig;
  sig.name = "model";
  sig.args = {BufferType{ElementKind::F32, {4}}};
  sig.results = {BufferType{ElementKind::F32, {2, 3}}};
  std::vector<HostBuffer> args;
  args.emplace_back(sig.args[0]);
  args.back().fillRandom(3);
  Counters &c = counters();
  Counters before = c;
  llvm::Expected<std::unique_ptr<DeviceArguments>> dev = DeviceArguments::upload(sig, args);
  ASSERT_TRUE(static_cast<bool>(dev)) << llvm::toString(dev.takeError());
  int calls = 0;
  auto entry = [&](PackedDescriptors &, int64_t *result) {
    ++calls;
    auto *out = static_cast<float *>(mgpuMemAlloc(6 * sizeof(float), nullptr, false));
    for (int i = 0; i < 6; ++i)
      out[i] = static_cast<float>(10 * calls + i);
    int64_t words[] = {reinterpret_cast<int64_t>(out), reinterpret_cast<int64_t>(out), 0, 2, 3, 3, 1};
    std::memcpy(result, words, sizeof(words));
  };
  for (int i = 0; i < 4; ++i) {
    llvm::Expected<double> ms = (*dev)->timedCall(entry);
    ASSERT_TRUE(static_cast<bool>(ms)) << llvm::toString(ms.takeError());
  }
  // One upload of the argument, one allocation for all four results.
  EXPECT_EQ(c.allocs - before.allocs, 2);
  std::vector<HostBuffer> results;
  ASSERT_FALSE(static_cast<bool>((*dev)->download(args, &results)));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].getType().str(), "2x3xf32");
  EXPECT_EQ(static_cast<const float *>(results[0].data())[5], 45.0f);
  dev->reset();
  releaseGpuRuntimeMemory();
  EXPECT_EQ(c.frees - before.frees, 2);
}

// The warpgroup kernels' tensor maps: the runtime turns a memref descriptor
// (a view: an offset and a row stride wider than the row) into CUDA's
// innermost-first dimensions, byte strides and box, from the view's start,
// and copies each distinct map to the device once.
TEST_F(FakeCudaTest, TensorMapsDescribeTheViewAndAreCopiedOnce) {
  struct FakeTensorMap { // FakeCuda.cpp's layout
    unsigned long long address, dims[5], strides[4];
    unsigned rank, dataType, box[5], swizzle;
  };
  Counters &c = counters();
  std::vector<uint16_t> storage(64 * 200 + 64);
  // memref<64x192xf16, strided<[200, 1], offset: 8>>: 16-byte aligned start.
  int64_t desc[7] = {reinterpret_cast<int64_t>(storage.data()),
                     reinterpret_cast<int64_t>(storage.data()), 8, 64, 192, 200, 1};
  int64_t box[2] = {32, 64}; // 32 rows of 64 elements
  Counters before = c;
  void *map = mgpuTensorMapEncodeTiledMemref(2, desc, /*FLOAT16=*/6, 0, /*128B=*/3, 0, 0, box);
  llvm::Error e = takeGpuRuntimeError();
  ASSERT_FALSE(static_cast<bool>(e)) << llvm::toString(std::move(e));
  ASSERT_NE(map, nullptr);
  EXPECT_EQ(c.htod - before.htod, 1);
  FakeTensorMap m;
  std::memcpy(&m, map, sizeof(m)); // fake device memory is host memory
  EXPECT_EQ(m.address, reinterpret_cast<unsigned long long>(storage.data() + 8));
  EXPECT_EQ(m.rank, 2u);
  EXPECT_EQ(m.dataType, 6u);
  EXPECT_EQ(m.swizzle, 3u);
  EXPECT_EQ(m.dims[0], 192u); // innermost first
  EXPECT_EQ(m.dims[1], 64u);
  EXPECT_EQ(m.strides[0], 400u); // bytes of a row
  EXPECT_EQ(m.box[0], 64u); // innermost first
  EXPECT_EQ(m.box[1], 32u);
  // The same map again: the same device copy, nothing uploaded.
  before = c;
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(2, desc, 6, 0, 3, 0, 0, box), map);
  EXPECT_EQ(c.htod - before.htod, 0);
  // A box row wider than the 128-byte swizzle is refused, with the error.
  int64_t wide[2] = {32, 128};
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(2, desc, 6, 0, 3, 0, 0, wide), nullptr);
  llvm::Error refused = takeGpuRuntimeError();
  ASSERT_TRUE(static_cast<bool>(refused));
  EXPECT_NE(llvm::toString(std::move(refused)).find("cuTensorMapEncodeTiled"), std::string::npos);
}
