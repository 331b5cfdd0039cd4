//===- CpuKernel.cpp - JIT-compiled CPU kernels ---------------------------===//

#include "dltune/Execution/CpuKernel.h"
#include "dltune/Transforms/TuningTasks.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "dltune/Tuning/Support/Error.h"
#include "dltune/Execution/MemRefDescriptors.h"

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
  else if (e.isBF16())
    t.element = ElementKind::BF16;
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
    sig.argIsOutput.push_back(isa<MemRefType>(type));
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
    // An op in a loop (an imported grouped convolution) runs per iteration.
    double iterations = static_cast<double>(getExecutionsPerCall(op));
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

void mlir::dltune::prepareForCodegen(MLIRContext *context) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  DialectRegistry registry;
  registerAllToLLVMIRTranslations(registry);
  context->appendDialectRegistry(registry);
}

llvm::Expected<std::unique_ptr<CpuKernel>>
CpuKernel::compile(ModuleOp lowered, KernelSignature signature) {
  prepareForCodegen(lowered.getContext());

  // The optimizer needs the host's target machine, exactly as the tuner's
  // shared-object builds have it: without it LLVM's vectorizers and cost
  // models assume a generic target, and `dltune run` timed the tuner's best
  // matmul 1024 config 2.5x slower than its worker had (bench/tuning.py).
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm = builder->createTargetMachine();
  if (!tm)
    return tm.takeError();
  auto transformer = makeOptimizingTransformer(3, 0, tm->get());
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

llvm::Error CpuKernel::run(std::vector<HostBuffer> &args,
                           std::vector<HostBuffer> *results) {
  llvm::Expected<PackedDescriptors> packedArgs = packArguments(signature, args);
  if (!packedArgs)
    return packedArgs.takeError();
  // The packed wrapper takes a pointer to each scalar field, then (for
  // functions with results) a pointer to the result storage.
  std::vector<void *> pointers;
  for (int64_t &w : packedArgs->words)
    pointers.push_back(&w);
  std::vector<int64_t> resultStorage(getResultWords(signature));
  if (!signature.results.empty())
    pointers.push_back(resultStorage.data());
  packed(pointers.data());
  takeResults(signature, resultStorage.data(), args, results);
  return llvm::Error::success();
}

llvm::Expected<TimingStats>
mlir::dltune::timeRepeated(const std::function<llvm::Error()> &fn, int warmup,
                           int repeats, const std::function<void()> &beforeEach) {
  for (int i = 0; i < warmup; ++i)
    if (llvm::Error err = fn())
      return std::move(err);
  std::vector<double> times;
  for (int i = 0; i < std::max(1, repeats); ++i) {
    if (beforeEach)
      beforeEach();
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error err = fn())
      return std::move(err);
    auto end = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  return summarizeTimes(std::move(times));
}

TimingStats mlir::dltune::summarizeTimes(std::vector<double> times) {
  TimingStats s;
  if (times.empty())
    return s;
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
