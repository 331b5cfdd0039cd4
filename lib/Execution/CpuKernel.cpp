//===- CpuKernel.cpp - JIT-compiled CPU kernels ---------------------------===//

#include "dltune/Execution/CpuKernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <set>

using namespace mlir;
using namespace mlir::dltune;

#ifndef DLTUNE_RUNNER_UTILS_LIB
#define DLTUNE_RUNNER_UTILS_LIB "libmlir_c_runner_utils.so"
#endif

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

static llvm::Expected<BufferType> toBufferType(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape() ||
      !(isa<RankedTensorType>(type) || isa<MemRefType>(type)))
    return makeError("unsupported argument type (need a statically shaped "
                     "tensor or memref)");
  BufferType t;
  t.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  Type e = shaped.getElementType();
  if (e.isF16())
    t.element = ElementKind::F16;
  else if (e.isF32())
    t.element = ElementKind::F32;
  else if (e.isF64())
    t.element = ElementKind::F64;
  else if (e.isInteger(8))
    t.element = ElementKind::I8;
  else if (e.isInteger(16))
    t.element = ElementKind::I16;
  else if (e.isInteger(32))
    t.element = ElementKind::I32;
  else if (e.isInteger(64))
    t.element = ElementKind::I64;
  else
    return makeError("unsupported element type");
  return t;
}

llvm::Expected<KernelSignature>
mlir::dltune::getKernelSignature(ModuleOp module, StringRef entry) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal())
    return makeError("no function '" + entry + "' with a body in the module");
  KernelSignature sig;
  sig.name = entry.str();
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    llvm::Expected<BufferType> t = toBufferType(type);
    if (!t)
      return makeError("argument #" + llvm::Twine(i) + " of '" + entry +
                       "': " + llvm::toString(t.takeError()));
    sig.args.push_back(*t);
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    llvm::Expected<BufferType> t = toBufferType(type);
    if (!t)
      return makeError("result #" + llvm::Twine(i) + " of '" + entry +
                       "': " + llvm::toString(t.takeError()));
    sig.results.push_back(*t);
  }
  return sig;
}

double mlir::dltune::countFlops(ModuleOp module, StringRef entry) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func)
    return 0;
  double flops = 0;
  func.walk([&](linalg::LinalgOp op) {
    double iterations = 1;
    for (int64_t s : op.getStaticLoopRanges())
      iterations *= ShapedType::isDynamic(s) ? 0 : s;
    int arith = 0;
    for (Operation &inner : op->getRegion(0).front())
      if (inner.getDialect() &&
          (inner.getDialect()->getNamespace() == "arith" ||
           inner.getDialect()->getNamespace() == "math") &&
          !isa<arith::ConstantOp>(inner) && inner.getNumOperands() > 0 &&
          !isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp,
               arith::TruncIOp, arith::SIToFPOp, arith::FPToSIOp>(inner))
        ++arith;
    flops += iterations * arith;
  });
  return flops;
}

llvm::Expected<OwningOpRef<ModuleOp>>
mlir::dltune::runPipelineOnClone(ModuleOp source, StringRef pipeline) {
  OwningOpRef<ModuleOp> clone(cast<ModuleOp>(source->clone()));
  MLIRContext *ctx = source.getContext();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += "\n  " + diag.str();
    return success();
  });
  PassManager pm(ctx, ModuleOp::getOperationName());
  std::string parseError;
  llvm::raw_string_ostream os(parseError);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    return makeError("bad pipeline '" + pipeline + "': " + parseError);
  if (failed(pm.run(*clone)))
    return makeError("pipeline '" + pipeline + "' failed:" + diagnostics);
  return clone;
}

CpuKernel::~CpuKernel() = default;

llvm::Expected<std::unique_ptr<CpuKernel>>
CpuKernel::compile(ModuleOp lowered, KernelSignature signature) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  DialectRegistry registry;
  registerAllToLLVMIRTranslations(registry);
  lowered.getContext()->appendDialectRegistry(registry);

  auto transformer = makeOptimizingTransformer(3, 0, nullptr);
  ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  SmallVector<StringRef> libs = {DLTUNE_RUNNER_UTILS_LIB};
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(lowered, options);
  if (!engine)
    return makeError("JIT compilation failed: " +
                     llvm::toString(engine.takeError()));
  std::unique_ptr<CpuKernel> kernel(new CpuKernel());
  kernel->engine = std::move(*engine);
  kernel->engine->initialize();
  auto fn = kernel->engine->lookupPacked(signature.name);
  if (!fn)
    return makeError("entry '" + signature.name + "' not found in the JIT: " +
                     llvm::toString(fn.takeError()));
  kernel->packed = *fn;
  kernel->signature = std::move(signature);
  return kernel;
}

/// Row-major strides of `shape`.
static std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

llvm::Error CpuKernel::run(std::vector<HostBuffer> &args,
                           std::vector<HostBuffer> *results) {
  if (args.size() != signature.args.size())
    return makeError("expected " + llvm::Twine(signature.args.size()) +
                     " arguments, got " + llvm::Twine(args.size()));
  // One word per descriptor field: allocated, aligned, offset, sizes, strides.
  size_t words = 0;
  for (const BufferType &t : signature.args)
    words += 3 + 2 * t.shape.size();
  std::vector<int64_t> storage(words);
  std::vector<void *> packedArgs;
  size_t w = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const BufferType &t = signature.args[i];
    if (args[i].getType().shape != t.shape)
      return makeError("argument #" + llvm::Twine(i) + " has the wrong shape");
    std::vector<int64_t> strides = rowMajorStrides(t.shape);
    auto push = [&](int64_t v) {
      storage[w] = v;
      packedArgs.push_back(&storage[w++]);
    };
    int64_t ptr = reinterpret_cast<int64_t>(args[i].data());
    push(ptr);
    push(ptr);
    push(0);
    for (int64_t d : t.shape)
      push(d);
    for (int64_t s : strides)
      push(s);
  }
  size_t resultWords = 0;
  for (const BufferType &t : signature.results)
    resultWords += 3 + 2 * t.shape.size();
  std::vector<int64_t> resultStorage(std::max<size_t>(resultWords, 1));
  if (!signature.results.empty())
    packedArgs.push_back(resultStorage.data());
  packed(packedArgs.data());

  // Copy results out; free what the kernel allocated (never an argument or
  // a global, which lowered code marks with 0xdeadbeef).
  std::set<int64_t> argPtrs;
  for (HostBuffer &a : args)
    argPtrs.insert(reinterpret_cast<int64_t>(a.data()));
  std::set<int64_t> freed;
  size_t r = 0;
  for (const BufferType &t : signature.results) {
    int64_t allocated = resultStorage[r], aligned = resultStorage[r + 1],
            offset = resultStorage[r + 2];
    size_t rank = t.shape.size();
    std::vector<int64_t> strides(resultStorage.begin() + r + 3 + rank,
                                 resultStorage.begin() + r + 3 + 2 * rank);
    if (results) {
      HostBuffer out(t);
      size_t eb = t.getElementBytes();
      const char *base = reinterpret_cast<const char *>(aligned) + offset * eb;
      std::vector<int64_t> idx(rank, 0);
      int64_t n = t.getNumElements();
      for (int64_t lin = 0; lin < n; ++lin) {
        int64_t off = 0;
        for (size_t d = 0; d < rank; ++d)
          off += idx[d] * strides[d];
        std::memcpy(static_cast<char *>(out.data()) + lin * eb, base + off * eb, eb);
        for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
          if (++idx[d] < t.shape[d])
            break;
          idx[d] = 0;
        }
      }
      results->push_back(std::move(out));
    }
    if (allocated != 0xdeadbeef && !argPtrs.count(allocated) &&
        freed.insert(allocated).second)
      std::free(reinterpret_cast<void *>(allocated));
    r += 3 + 2 * rank;
  }
  return llvm::Error::success();
}

llvm::Expected<TimingStats>
mlir::dltune::timeRepeated(const std::function<llvm::Error()> &fn, int warmup,
                           int repeats) {
  for (int i = 0; i < warmup; ++i)
    if (llvm::Error err = fn())
      return std::move(err);
  std::vector<double> times;
  for (int i = 0; i < std::max(1, repeats); ++i) {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error err = fn())
      return std::move(err);
    auto end = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  TimingStats s;
  s.repeats = times.size();
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  s.medianMs = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  s.minMs = sorted.front();
  s.maxMs = sorted.back();
  double sum = 0, sq = 0;
  for (double t : times)
    sum += t;
  s.meanMs = sum / n;
  for (double t : times)
    sq += (t - s.meanMs) * (t - s.meanMs);
  s.stddevMs = n > 1 ? std::sqrt(sq / (n - 1)) : 0;
  return s;
}
