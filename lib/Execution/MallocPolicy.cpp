//===- MallocPolicy.cpp - Keep freed heap memory between kernel calls -----===//

#include "dltune/Execution/MallocPolicy.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <malloc.h>

using namespace mlir;

static_assert(mlir::dltune::kMallocTrimThresholdParam == M_TRIM_THRESHOLD);
static_assert(mlir::dltune::kMallocMmapThresholdParam == M_MMAP_THRESHOLD);

void mlir::dltune::keepFreedMemoryInProcess() {
  mallopt(kMallocTrimThresholdParam, kKeptTrimThreshold);
  mallopt(kMallocMmapThresholdParam, kKeptMmapThreshold);
}

void mlir::dltune::addKeepFreedMemoryConstructor(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  Type i32 = b.getI32Type();
  if (!module.lookupSymbol("mallopt"))
    LLVM::LLVMFuncOp::create(b, loc, "mallopt", LLVM::LLVMFunctionType::get(i32, {i32, i32}));
  const char *name = "__dltune_keep_freed_memory";
  if (module.lookupSymbol(name))
    return;
  auto ctor = LLVM::LLVMFuncOp::create(
      b, loc, name, LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}),
      LLVM::Linkage::Internal);
  OpBuilder body = OpBuilder::atBlockBegin(ctor.addEntryBlock(b));
  for (auto [param, value] : {std::pair{kMallocTrimThresholdParam, kKeptTrimThreshold},
                              std::pair{kMallocMmapThresholdParam, kKeptMmapThreshold}}) {
    Value p = LLVM::ConstantOp::create(body, loc, i32, body.getI32IntegerAttr(param));
    Value v = LLVM::ConstantOp::create(body, loc, i32, body.getI32IntegerAttr(value));
    LLVM::CallOp::create(body, loc, TypeRange{i32}, "mallopt", ValueRange{p, v});
  }
  LLVM::ReturnOp::create(body, loc, ValueRange{});
  LLVM::GlobalCtorsOp::create(b, loc, b.getArrayAttr({FlatSymbolRefAttr::get(ctor)}),
                              b.getI32ArrayAttr({65535}),
                              b.getArrayAttr({LLVM::ZeroAttr::get(ctx)}));
}
