//===- GpuHostMemory.cpp - A GPU module's host data on the device ---------===//
//
// See GpuHostMemory.h. Before these steps, a whole model lowered for the GPU
// kept its intermediate buffers in host malloc memory, copied padded inputs
// with the host's memrefCopy and handed host addresses of its weights to the
// kernels (MobileNet-v2: 93 mallocs, 18 copies; the JIT did not even find
// memrefCopy).
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/GpuHostMemory.h"
#include "GpuMemRefLayout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::dltune;

/// Host code: outside kernels, whether still inline (gpu.launch) or
/// outlined (gpu.module).
static bool isHostOp(Operation *op) {
  return !op->getParentOfType<gpu::LaunchOp>() && !op->getParentOfType<gpu::GPUModuleOp>();
}

void mlir::dltune::turnHostCopiesIntoLinalg(ModuleOp module) {
  SmallVector<memref::CopyOp> copies;
  module.walk([&](memref::CopyOp copy) {
    if (isHostOp(copy))
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies) {
    OpBuilder b(copy);
    linalg::CopyOp::create(b, copy.getLoc(), ValueRange{copy.getSource()},
                           ValueRange{copy.getTarget()});
    copy.erase();
  }
}

FailureOr<llvm::StringSet<>> mlir::dltune::collectHostConstants(ModuleOp module) {
  llvm::StringSet<> names;
  SymbolTable symbols(module);
  WalkResult walk = module.walk([&](memref::GetGlobalOp get) {
    if (!isHostOp(get))
      return WalkResult::advance();
    auto global = symbols.lookup<memref::GlobalOp>(get.getName());
    if (!global || !global.getConstant()) {
      get.emitError() << "GPU lowering: host code reads the mutable global @" << get.getName()
                      << "; only constants can be kept on the device";
      return WalkResult::interrupt();
    }
    names.insert(get.getName());
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return names;
}

/// The runtime's tensor-map encoder, which nvgpu-to-nvvm calls for
/// nvgpu.tma.create.descriptor.
static constexpr llvm::StringLiteral kTensorMapEncoder = "mgpuTensorMapEncodeTiledMemref";

static bool isTensorMapEncoding(Operation *op) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && call.getCallee() && *call.getCallee() == kTensorMapEncoder;
}

/// Whether `user` (of an unranked view of a buffer) only hands the buffer's
/// descriptor to the runtime's tensor-map encoder in its block (as the
/// nvgpu-to-nvvm conversion lowers a warpgroup kernel's tensor map): the
/// encoder reads the address and strides when it is called; the map goes
/// to the block's launches.
static bool onlyEncodesTensorMaps(Operation *user) {
  if (!isa<UnrealizedConversionCastOp>(user))
    return false;
  Block *block = user->getBlock();
  auto inBlock = [&](Operation *op) { return op->getBlock() == block; };
  return llvm::all_of(user->getUsers(), [&](Operation *extract) {
    return isa<LLVM::ExtractValueOp>(extract) && inBlock(extract) &&
           llvm::all_of(extract->getUsers(), [&](Operation *call) {
             // ... and the map goes only to launches in the block, queued
             // before the free.
             return isTensorMapEncoding(call) && inBlock(call) &&
                    llvm::all_of(call->getUsers(), [&](Operation *launch) {
                      return isa<gpu::LaunchFuncOp>(launch) && inBlock(launch);
                    });
           });
  });
}

/// Whether `buffer` may go back at the end of its block: every use of it,
/// or of a view of it, is a kernel launch, a view or a tensor-map encoding
/// in that same block.
/// Anything else - a result, a call, a store, a loop's argument, a use in a
/// nested region or another block - may outlive the block, and the buffer
/// is then not freed (a leak, not a use after free).
static bool canFreeAtEndOfBlock(Value buffer) {
  Block *block = buffer.getParentBlock();
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user->getBlock() != block)
        return false;
      if (isa<gpu::LaunchFuncOp>(user) || onlyEncodesTensorMaps(user))
        continue;
      if (getViewedMemRef(user) == v || isa<memref::CastOp>(user)) {
        llvm::append_range(worklist, user->getResults());
        continue;
      }
      return false;
    }
  }
  return true;
}

/// Host ops that read, write or free a memref, or hand one to an external
/// function: after the allocations moved to the device, any such op would
/// touch GPU memory from the host.
static Operation *findHostMemoryAccess(func::FuncOp func) {
  Operation *found = nullptr;
  func.walk([&](Operation *op) {
    if (isa<gpu::GPUDialect>(op->getDialect()) || !isHostOp(op))
      return WalkResult::advance();
    // An external function given a buffer would read it on the host.
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, call.getCalleeAttr());
      if ((!callee || callee.isExternal()) &&
          llvm::any_of(call.getOperandTypes(), llvm::IsaPred<MemRefType>)) {
        found = op;
        return WalkResult::interrupt();
      }
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list) {
      Value v = e.getValue();
      if (v && isa<MemRefType>(v.getType()) &&
          isa<MemoryEffects::Read, MemoryEffects::Write, MemoryEffects::Free>(e.getEffect())) {
        found = op;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return found;
}

LogicalResult mlir::dltune::allocateHostBuffersOnDevice(ModuleOp module) {
  SmallVector<func::FuncOp> funcs;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      funcs.push_back(func);
  for (func::FuncOp func : funcs) {
    SmallVector<Operation *> allocs;
    func.walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::AllocaOp>(op) && isHostOp(op))
        allocs.push_back(op);
    });
    for (Operation *op : allocs) {
      auto type = cast<MemRefType>(op->getResult(0).getType());
      if (type.getMemorySpace())
        return op->emitError() << "GPU lowering: host allocation in memory space "
                               << type.getMemorySpace();
      OpBuilder b(op);
      Location loc = op->getLoc();
      ValueRange dynamicSizes = isa<memref::AllocOp>(op)
                                    ? cast<memref::AllocOp>(op).getDynamicSizes()
                                    : cast<memref::AllocaOp>(op).getDynamicSizes();
      ValueRange symbols = isa<memref::AllocOp>(op)
                               ? cast<memref::AllocOp>(op).getSymbolOperands()
                               : cast<memref::AllocaOp>(op).getSymbolOperands();
      // Synchronous here; upstream's gpu-async-region then puts the
      // allocations, launches and frees of the function on one stream.
      Value buffer = gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(), ValueRange{},
                                          dynamicSizes, symbols, /*hostShared=*/false)
                         .getMemref();
      op->getResult(0).replaceAllUsesWith(buffer);
      op->erase();
      // The end of the block is after every launch that uses it, in stream
      // order too: a later allocation that reuses the block (the runtime's
      // pool) is used by launches queued after these.
      if (!canFreeAtEndOfBlock(buffer))
        continue;
      b.setInsertionPoint(buffer.getParentBlock()->getTerminator());
      gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{}, buffer);
    }
    if (Operation *access = findHostMemoryAccess(func))
      return access->emitError()
             << "GPU lowering: host code would read, write or free GPU memory here; only "
                "kernels and the GPU runtime may (is this op left outside every kernel?)";
  }
  return success();
}

/// The ops of `call`'s block that compute its arguments and may move with
/// it, in block order: those without effects, and allocas it reads with the
/// stores that fill them (directly or through a GEP); nullopt where such
/// an alloca has another use. Producers with effects or regions are not
/// part of it.
static std::optional<SmallVector<Operation *>> getEncodingSlice(Operation *call) {
  Block *block = call->getBlock();
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist(call->getOperands());
  auto take = [&](Operation *op) {
    if (slice.insert(op))
      llvm::append_range(worklist, op->getOperands());
  };
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != block || slice.contains(def))
      continue;
    // Ops with regions or effects (the buffer's gpu.alloc) stay: the slice
    // goes after them.
    if (def->getNumRegions() != 0)
      continue;
    if (isa<LLVM::AllocaOp>(def)) {
      // Its users: the call, stores into it, GEPs into it and their stores.
      for (Operation *user : def->getUsers()) {
        if (user == call)
          continue;
        if (isa<LLVM::StoreOp>(user)) {
          take(user);
        } else if (isa<LLVM::GEPOp>(user)) {
          take(user);
          for (Operation *gepUser : user->getUsers()) {
            if (!isa<LLVM::StoreOp>(gepUser))
              return std::nullopt;
            take(gepUser);
          }
        } else {
          return std::nullopt;
        }
      }
    } else if (!isMemoryEffectFree(def)) {
      continue;
    }
    take(def);
  }
  SmallVector<Operation *> ordered = slice.takeVector();
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

void mlir::dltune::hoistTensorMapEncodes(ModuleOp module) {
  SmallVector<Operation *> calls;
  module.walk([&](Operation *op) {
    if (isTensorMapEncoding(op) && !op->getParentOfType<gpu::GPUModuleOp>())
      calls.push_back(op);
  });
  for (Operation *call : calls) {
    std::optional<SmallVector<Operation *>> movable = getEncodingSlice(call);
    if (!movable)
      continue;
    SmallVector<Operation *> slice = std::move(*movable);
    Block *block = call->getBlock();
    llvm::SmallPtrSet<Operation *, 16> inSlice(slice.begin(), slice.end());
    // The last op in the block defining something the slice or the call
    // reads from outside it (or the stores write into).
    Operation *after = nullptr;
    auto consider = [&](Operation *op) {
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (def && def->getBlock() == block && !inSlice.contains(def) &&
            (!after || after->isBeforeInBlock(def)))
          after = def;
      }
    };
    llvm::for_each(slice, consider);
    consider(call);
    slice.push_back(call);
    // Ops already above that point (shared with an encoding hoisted
    // before) stay; the others follow it in their order.
    Operation *cursor = after;
    for (Operation *op : slice) {
      if (after && op->isBeforeInBlock(after))
        continue;
      if (cursor)
        op->moveAfter(cursor);
      else if (op != &block->front())
        op->moveBefore(&block->front());
      cursor = op;
    }
  }
}

LogicalResult mlir::dltune::redirectHostConstantsToDevice(ModuleOp module,
                                                          const llvm::StringSet<> &constants) {
  if (constants.empty())
    return success();
  MLIRContext *ctx = module.getContext();
  SymbolTable symbols(module);
  DataLayout layout(module);
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  auto fnType = LLVM::LLVMFunctionType::get(ptr, {ptr, i64});
  SmallVector<LLVM::AddressOfOp> addresses;
  module.walk([&](LLVM::AddressOfOp address) {
    if (isHostOp(address) && constants.contains(address.getGlobalName()))
      addresses.push_back(address);
  });
  if (addresses.empty())
    return success();
  auto existing = symbols.lookup<LLVM::LLVMFuncOp>(kDeviceConstantFunction);
  if (existing && existing.getFunctionType() != fnType)
    return existing.emitError() << "GPU lowering: @" << kDeviceConstantFunction
                                << " is declared with another type";
  if (!existing) {
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    LLVM::LLVMFuncOp::create(b, module.getLoc(), kDeviceConstantFunction, fnType);
  }
  for (LLVM::AddressOfOp address : addresses) {
    auto global = symbols.lookup<LLVM::GlobalOp>(address.getGlobalName());
    if (!global)
      return address.emitError() << "GPU lowering: no LLVM global @" << address.getGlobalName();
    int64_t bytes = static_cast<int64_t>(layout.getTypeSize(global.getGlobalType()));
    OpBuilder b(ctx);
    b.setInsertionPointAfter(address);
    Location loc = address.getLoc();
    Value size = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(bytes));
    auto call = LLVM::CallOp::create(b, loc, fnType, kDeviceConstantFunction,
                                     ValueRange{address.getResult(), size});
    address.getResult().replaceAllUsesExcept(call.getResult(), call);
  }
  return success();
}
