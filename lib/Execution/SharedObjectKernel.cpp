//===- SharedObjectKernel.cpp - Kernels built into shared objects ---------===//

#include "dltune/Execution/SharedObjectKernel.h"
#include "dltune/Tuning/Support/Error.h"
#include "dltune/Execution/GpuKernel.h"
#include "dltune/Execution/MallocPolicy.h"
#include "dltune/Execution/MemRefDescriptors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::dltune;

#ifndef DLTUNE_LLVM_LIBRARY_DIR
#define DLTUNE_LLVM_LIBRARY_DIR "/usr/lib/llvm-22/lib"
#endif

llvm::Error mlir::dltune::buildSharedObjectWith(ModuleOp module, StringRef entry,
                                                StringRef schedulePipeline,
                                                StringRef loweringPipeline,
                                                const std::string &outPath,
                                                BuildPhases *phases,
                                                llvm::function_ref<llvm::Error(ModuleOp)> inspect) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  BuildPhases local;
  if (!phases)
    phases = &local;
  auto t0 = Clock::now();
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
  auto func = copy->lookupSymbol<func::FuncOp>(entry);
  if (!func)
    return makeError("no function '" + entry + "' in the module");
  func->setAttr("llvm.emit_c_interface", UnitAttr::get(module.getContext()));
  std::string pipeline = schedulePipeline.str();
  if (!pipeline.empty())
    pipeline += ",";
  pipeline += loweringPipeline.str();
  llvm::Expected<OwningOpRef<ModuleOp>> lowered = runPipelineOnClone(*copy, pipeline);
  if (!lowered)
    return lowered.takeError();
  if (inspect)
    if (llvm::Error e = inspect(**lowered))
      return e;
  auto t1 = Clock::now();
  phases->scheduleAndLower = seconds(t0, t1);

  addKeepFreedMemoryConstructor(**lowered);
  prepareForCodegen(module.getContext());
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(**lowered, llvmContext);
  if (!llvmModule)
    return makeError("translation to LLVM IR failed");

  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = builder->createTargetMachine();
  if (!tm)
    return tm.takeError();
  llvmModule->setDataLayout((*tm)->createDataLayout());
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  if (llvm::Error e = makeOptimizingTransformer(3, 0, tm->get())(llvmModule.get()))
    return e;

  // Absolute, so that no path reaches the linker as an option ("-x.so"
  // would be read as the language flag -x).
  llvm::SmallString<256> absoluteOut(outPath);
  if (std::error_code ec = llvm::sys::fs::make_absolute(absoluteOut))
    return makeError("cannot resolve '" + outPath + "': " + ec.message());
  std::string objPath = absoluteOut.str().str() + ".o";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(objPath, ec, llvm::sys::fs::OF_None);
    if (ec)
      return makeError("cannot write '" + objPath + "': " + ec.message());
    llvm::legacy::PassManager pm;
    if ((*tm)->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile))
      return makeError("the target cannot emit object files");
    pm.run(*llvmModule);
  }
  auto t2 = Clock::now();
  phases->codegen = seconds(t1, t2);
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return makeError("no C compiler driver ('cc') on PATH to link the kernel");
  std::string libDir = DLTUNE_LLVM_LIBRARY_DIR;
  std::vector<std::string> args = {*cc,        "-shared",       "-o",
                                   absoluteOut.str().str(), objPath, "-L" + libDir,
                                   "-Wl,-rpath," + libDir, "-lomp", "-lmlir_c_runner_utils"};
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::string errMsg;
  int rc = llvm::sys::ExecuteAndWait(*cc, argRefs, std::nullopt, {}, 0, 0, &errMsg);
  llvm::sys::fs::remove(objPath);
  phases->link = seconds(t2, Clock::now());
  if (rc != 0)
    return makeError("linking the kernel failed (cc exit " + llvm::Twine(rc) + ") " + errMsg);
  return llvm::Error::success();
}

SharedObjectKernel::~SharedObjectKernel() {
  if (handle)
    dlclose(handle);
  // The device copies of its constants are keyed by host addresses that a
  // library loaded later may reuse.
  if (onDevice)
    releaseGpuRuntimeMemory();
}

llvm::Expected<std::unique_ptr<SharedObjectKernel>>
SharedObjectKernel::load(const std::string &path, KernelSignature signature, bool onDevice) {
  std::unique_ptr<SharedObjectKernel> k(new SharedObjectKernel());
  k->handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!k->handle)
    return makeError("cannot load kernel '" + path + "': " + dlerror());
  std::string symbol = "_mlir_ciface_" + signature.name;
  k->function = dlsym(k->handle, symbol.c_str());
  if (!k->function)
    return makeError("kernel '" + path + "' has no symbol " + symbol);
  if (signature.args.size() + (signature.results.empty() ? 0 : 1) > 12)
    return makeError("kernels with more than 12 memref parameters are not supported");
  k->signature = std::move(signature);
  k->onDevice = onDevice;
  return k;
}

/// Calls `fn` with `n` pointer arguments (the C interface passes every
/// memref descriptor, and the result, by pointer).
static void callWithPointers(void *fn, void **p, size_t n) {
  using V = void *;
  switch (n) {
  case 0: reinterpret_cast<void (*)()>(fn)(); break;
  case 1: reinterpret_cast<void (*)(V)>(fn)(p[0]); break;
  case 2: reinterpret_cast<void (*)(V, V)>(fn)(p[0], p[1]); break;
  case 3: reinterpret_cast<void (*)(V, V, V)>(fn)(p[0], p[1], p[2]); break;
  case 4: reinterpret_cast<void (*)(V, V, V, V)>(fn)(p[0], p[1], p[2], p[3]); break;
  case 5: reinterpret_cast<void (*)(V, V, V, V, V)>(fn)(p[0], p[1], p[2], p[3], p[4]); break;
  case 6: reinterpret_cast<void (*)(V, V, V, V, V, V)>(fn)(p[0], p[1], p[2], p[3], p[4], p[5]); break;
  case 7: reinterpret_cast<void (*)(V, V, V, V, V, V, V)>(fn)(p[0], p[1], p[2], p[3], p[4], p[5], p[6]); break;
  case 8: reinterpret_cast<void (*)(V, V, V, V, V, V, V, V)>(fn)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]); break;
  case 9: reinterpret_cast<void (*)(V, V, V, V, V, V, V, V, V)>(fn)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8]); break;
  case 10: reinterpret_cast<void (*)(V, V, V, V, V, V, V, V, V, V)>(fn)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9]); break;
  case 11: reinterpret_cast<void (*)(V, V, V, V, V, V, V, V, V, V, V)>(fn)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10]); break;
  default: reinterpret_cast<void (*)(V, V, V, V, V, V, V, V, V, V, V, V)>(fn)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11]); break;
  }
}

void SharedObjectKernel::callPacked(PackedDescriptors &desc, int64_t *resultWords) {
  std::vector<void *> pointers;
  if (!signature.results.empty())
    pointers.push_back(resultWords);
  for (size_t i = 0; i < signature.args.size(); ++i)
    pointers.push_back(desc.get(i));
  callWithPointers(function, pointers.data(), pointers.size());
}

llvm::Error SharedObjectKernel::run(std::vector<HostBuffer> &args,
                                    std::vector<HostBuffer> *results) {
  if (onDevice)
    return runWithDeviceBuffers(signature, args, results,
                                [&](PackedDescriptors &desc, int64_t *resultWords) {
                                  callPacked(desc, resultWords);
                                });
  llvm::Expected<PackedDescriptors> packed = packArguments(signature, args);
  if (!packed)
    return packed.takeError();
  std::vector<int64_t> resultWords(getResultWords(signature));
  std::vector<void *> pointers;
  if (!signature.results.empty())
    pointers.push_back(resultWords.data());
  for (size_t i = 0; i < args.size(); ++i)
    pointers.push_back(packed->get(i));
  callWithPointers(function, pointers.data(), pointers.size());
  takeResults(signature, resultWords.data(), args, results);
  return llvm::Error::success();
}
