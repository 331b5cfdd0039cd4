//===- Ptxas.cpp - ptxas and the kernel resources it reports --------------===//
//
// With format=bin, --dltune-lower-gpu assembles the PTX of every kernel with
// `ptxas -v` itself (upstream's serializer runs ptxas too but keeps its report
// to itself) and records registers, shared memory, stack, spills and barriers
// on each gpu.binary.
//
//===----------------------------------------------------------------------===//

#include "LoweringPipeline.h"

#include "dltune/Transforms/LowerGpu.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::dltune;

std::string mlir::dltune::getPtxFeaturesForChip(StringRef chip) {
  unsigned sm = 0;
  StringRef digits = chip;
  if (!digits.consume_front("sm_"))
    return "+ptx80";
  digits = digits.take_while([](char c) { return llvm::isDigit(c); });
  if (digits.getAsInteger(10, sm) || sm <= 90)
    return "+ptx80";
  if (sm == 100 || sm == 101)
    return "+ptx86";
  if (sm == 120)
    return "+ptx87";
  return "+ptx88";
}

std::string mlir::dltune::findPtxas() {
  if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName("ptxas"))
    return *p;
  SmallVector<StringRef, 2> dirs;
  std::string cudaHome;
  if (const char *home = std::getenv("CUDA_HOME")) {
    cudaHome = std::string(home) + "/bin";
    dirs.push_back(cudaHome);
  }
  dirs.push_back("/usr/local/cuda/bin");
  if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName("ptxas", dirs))
    return *p;
  return "";
}

std::string mlir::dltune::exportCudaToolkitForLibdevice() {
  // Once a process (the tools call it first thing, single-threaded):
  // setenv is not safe against concurrent getenv calls.
  static const std::string toolkit = []() -> std::string {
    for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
      if (const char *set = std::getenv(var); set && *set)
        return set; // the serializer's own choice

    auto hasLibdevice = [](StringRef dir) {
      SmallString<128> bc(dir);
      llvm::sys::path::append(bc, "nvvm", "libdevice", "libdevice.10.bc");
      return !dir.empty() && llvm::sys::fs::exists(bc);
    };
    SmallVector<std::string, 2> candidates;
    if (std::string ptxas = findPtxas(); !ptxas.empty()) {
      SmallString<128> real;
      if (llvm::sys::fs::real_path(ptxas, real))
        real = ptxas;
      candidates.push_back(
          llvm::sys::path::parent_path(llvm::sys::path::parent_path(real)).str());
    }
    candidates.push_back("/usr/local/cuda");
    for (const std::string &dir : candidates)
      if (hasLibdevice(dir)) {
        ::setenv("CUDA_HOME", dir.c_str(), /*overwrite=*/0);
        return dir;
      }
    return std::string();
  }();
  return toolkit;
}

/// Threads per block and dynamic shared bytes of each kernel launched from
/// `module` (0 threads when the launch's block size is not a constant).
static llvm::StringMap<std::pair<int64_t, int64_t>> getLaunchSizes(ModuleOp module) {
  llvm::StringMap<std::pair<int64_t, int64_t>> sizes;
  module.walk([&](gpu::LaunchFuncOp launch) {
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    int64_t n = 1;
    for (Value v : {block.x, block.y, block.z}) {
      APInt c;
      n = matchPattern(v, m_ConstantInt(&c)) ? n * c.getSExtValue() : 0;
    }
    int64_t dynamicBytes = 0;
    APInt c;
    if (Value smem = launch.getDynamicSharedMemorySize();
        smem && matchPattern(smem, m_ConstantInt(&c)))
      dynamicBytes = c.getSExtValue();
    // Outlined kernels of different modules share names (every kernel of
    // a function outlines to <function>_kernel): key by module and name.
    auto &[threads, bytes] =
        sizes[(launch.getKernelModuleName().getValue() + "::" + launch.getKernelName().getValue())
                  .str()];
    threads = std::max(threads, n);
    bytes = std::max(bytes, dynamicBytes);
  });
  return sizes;
}

static DictionaryAttr toAttr(MLIRContext *ctx, const GpuKernelResources &k) {
  Builder b(ctx);
  return b.getDictionaryAttr(
      {b.getNamedAttr("kernel", b.getStringAttr(k.kernel)),
       b.getNamedAttr("registers", b.getI64IntegerAttr(k.registers)),
       b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(k.sharedBytes)),
       b.getNamedAttr("stack_bytes", b.getI64IntegerAttr(k.stackBytes)),
       b.getNamedAttr("spill_store_bytes", b.getI64IntegerAttr(k.spillStoreBytes)),
       b.getNamedAttr("spill_load_bytes", b.getI64IntegerAttr(k.spillLoadBytes)),
       b.getNamedAttr("barriers", b.getI64IntegerAttr(k.barriers)),
       b.getNamedAttr("threads_per_block", b.getI64IntegerAttr(k.threadsPerBlock)),
       b.getNamedAttr("dynamic_shared_bytes", b.getI64IntegerAttr(k.dynamicSharedBytes))});
}

llvm::Expected<std::vector<GpuKernelResources>>
mlir::dltune::getGpuKernelResources(ModuleOp lowered) {
  std::vector<GpuKernelResources> out;
  WalkResult walk = lowered.walk([&](gpu::BinaryOp binary) {
    auto list = binary->getAttrOfType<ArrayAttr>(kKernelResourcesAttrName);
    if (!list)
      return WalkResult::advance();
    for (Attribute a : list) {
      auto dict = dyn_cast<DictionaryAttr>(a);
      auto name = dict ? dict.getAs<StringAttr>("kernel") : StringAttr();
      if (!name)
        return WalkResult::interrupt();
      GpuKernelResources k;
      k.kernel = name.str();
      auto get = [&](StringRef key) -> int64_t {
        auto v = dict.getAs<IntegerAttr>(key);
        return v ? v.getInt() : 0;
      };
      k.registers = get("registers");
      k.sharedBytes = get("shared_bytes");
      k.stackBytes = get("stack_bytes");
      k.spillStoreBytes = get("spill_store_bytes");
      k.spillLoadBytes = get("spill_load_bytes");
      k.barriers = get("barriers");
      k.threadsPerBlock = get("threads_per_block");
      k.dynamicSharedBytes = get("dynamic_shared_bytes");
      out.push_back(std::move(k));
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "malformed %s attribute",
                                   kKernelResourcesAttrName.data());
  return out;
}

/// Removes a temporary file when it goes out of scope.
namespace {
struct TempFile {
  SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};
} // namespace

static LogicalResult createTemp(gpu::BinaryOp at, StringRef suffix, TempFile &file) {
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("dltune-kernel", suffix, fd, file.path))
    return at.emitError() << "cannot create a temporary file: " << ec.message();
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  return success();
}

LogicalResult mlir::dltune::assembleWithPtxas(ModuleOp module, int optLevel) {
  SmallVector<gpu::BinaryOp> binaries;
  module.walk([&](gpu::BinaryOp b) { binaries.push_back(b); });
  if (binaries.empty())
    return success();
  std::string ptxas = findPtxas();
  if (ptxas.empty())
    return module.emitError()
           << "dltune-lower-gpu: format=bin needs ptxas (on PATH, in "
              "$CUDA_HOME/bin or /usr/local/cuda/bin); format=isa gives PTX";
  llvm::StringMap<std::pair<int64_t, int64_t>> launches = getLaunchSizes(module);
  MLIRContext *ctx = module.getContext();
  for (gpu::BinaryOp binary : binaries) {
    SmallVector<Attribute> objects, resources;
    for (Attribute a : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(a);
      auto target = object ? dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget())
                           : NVVM::NVVMTargetAttr();
      if (!target || object.getFormat() != gpu::CompilationTarget::Assembly) {
        objects.push_back(a);
        continue;
      }
      TempFile ptx, cubin, log;
      if (failed(createTemp(binary, "ptx", ptx)) ||
          failed(createTemp(binary, "cubin", cubin)) ||
          failed(createTemp(binary, "log", log)))
        return failure();
      {
        std::error_code ec;
        llvm::raw_fd_ostream os(ptx.path, ec);
        if (ec)
          return binary.emitError() << "cannot write " << ptx.path << ": " << ec.message();
        os << object.getObject().getValue();
      }
      std::string opt = "--opt-level=" + std::to_string(optLevel);
      std::string arch = "-arch=" + target.getChip().str();
      SmallVector<StringRef> args = {ptxas, "-v", arch, opt, ptx.path, "-o", cubin.path};
      std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log.path),
                                              StringRef(log.path)};
      std::string execError;
      int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0,
                                         &execError);
      auto logText = llvm::MemoryBuffer::getFile(log.path);
      std::string report = logText ? (*logText)->getBuffer().trim().str() : "";
      if (rc != 0)
        return binary.emitError()
               << "ptxas failed for " << target.getChip() << " (exit " << rc << ")"
               << (execError.empty() ? "" : ": " + execError) << "\n"
               << report;
      llvm::Expected<std::vector<GpuKernelResources>> kernels =
          parsePtxasVerboseLog(report);
      if (!kernels)
        return binary.emitError() << llvm::toString(kernels.takeError());
      auto bytes = llvm::MemoryBuffer::getFile(cubin.path, /*IsText=*/false);
      if (!bytes)
        return binary.emitError() << "cannot read the cubin ptxas wrote";
      for (GpuKernelResources &k : *kernels) {
        std::tie(k.threadsPerBlock, k.dynamicSharedBytes) =
            launches.lookup((binary.getName() + "::" + k.kernel).str());
        resources.push_back(toAttr(ctx, k));
      }
      objects.push_back(gpu::ObjectAttr::get(
          ctx, target, gpu::CompilationTarget::Binary,
          StringAttr::get(ctx, (*bytes)->getBuffer()), object.getProperties(),
          object.getKernels()));
    }
    binary.setObjectsAttr(ArrayAttr::get(ctx, objects));
    binary->setAttr(kKernelResourcesAttrName, ArrayAttr::get(ctx, resources));
  }
  return success();
}
