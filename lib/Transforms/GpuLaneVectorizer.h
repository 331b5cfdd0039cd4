//===- GpuLaneVectorizer.h - A linalg body over a vector of lanes -*- C++ -*-===//
//
// Private to lib/Transforms: a GPU kernel that computes `lanes` consecutive
// points of a linalg op along one of its loops (a vector of channels) can
// often run the op's scalar body once, on vectors, with its index
// arithmetic done once: where the body's loads then read `lanes`
// consecutive elements, each is one vector load. Used by the implicit GEMM
// (the patch gather's body, GpuGatheredOperand) and by the window kernels
// (depthwise convolutions and pooling, GpuWindowKernel).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPULANEVECTORIZER_H
#define DLTUNE_LIB_TRANSFORMS_GPULANEVECTORIZER_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::dltune {

/// How a value of the body varies over the lanes (points x0 + l of the lane
/// loop, x0 a multiple of the lanes, l < lanes).
enum class LaneShape {
  Uniform,     // the same in every lane: a scalar
  Consecutive, // an index x0 + l: x0
  Varying,     // anything else: a vector, one element a lane
};

/// A vector the body loads whole (GpuGatheredOperand's cp.async): the
/// buffer and the indices of its first element, and where it is valid
/// (null: always; where false the vector is zeros, +0.0: the padding).
struct LaneCopySource {
  Value buffer;
  SmallVector<Value> indices;
  Value valid;
};

/// A linalg op's body evaluated for a vector of points along `laneDim`
/// with its index arithmetic done once. Rules (c a constant multiple of the
/// lanes; a Consecutive x is x0 + l):
///   linalg.index laneDim                 Consecutive
///   linalg.index of another loop         Uniform
///   a block argument                     as declared (Uniform by default)
///   ops of Uniform operands              Uniform
///   x / c                                Uniform     (x0 / c)
///   x % c, x + c, c + x, x - c           Consecutive (the same of x0)
///   x < c, x >= c (signed or unsigned)   Uniform     (the same of x0)
///   select(Uniform, x, y), y Consecutive Consecutive
///   load(Uniform.., x), unit last stride Varying     (one vector load)
///   elementwise ops of Uniform/Varying   Varying
/// Anything else is refused (the caller then runs the body once a lane).
class LaneVectorizer {
public:
  LaneVectorizer(Block *body, int64_t lanes, unsigned laneDim)
      : body(body), lanes(lanes), laneDim(laneDim) {}

  /// Declares how block argument `arg` varies; call before analyze. A
  /// Varying argument is given to emit as a vector, any other as a scalar.
  void setArgumentShape(BlockArgument arg, LaneShape shape) { shapes[arg] = shape; }

  /// Whether the rules cover every op of the body (and its value is not an
  /// index that moves along the lanes).
  bool analyze();

  /// The body's value (a vector) at the loop indices `indices` (one a loop
  /// of the op; laneDim's is x0); `map` holds the block arguments' values.
  Value emit(OpBuilder &b, Location loc, ArrayRef<Value> indices, IRMapping &map);

  /// After analyze: whether the yield is one vector load of `elemType`,
  /// perhaps through selects of it or zero under uniform conditions (the
  /// bounds checks of padding): a copy that zero-fills where a condition
  /// fails. Fills `copyChain` (the load and the selects).
  bool isZeroFilledCopy(Type elemType);
  /// The copy's source and its validity at `indices`: every op of the body
  /// but the chain.
  LaneCopySource emitCopySource(OpBuilder &b, Location loc, ArrayRef<Value> indices);

private:
  LaneShape shapeOf(Value v) const {
    auto it = shapes.find(v);
    return it == shapes.end() ? LaneShape::Uniform : it->second; // defined above
  }
  std::optional<int64_t> constantMultiple(Value v) const;
  std::optional<LaneShape> shapeOfOp(Operation &op) const;

  /// The ops emit() runs, the chain's skipped.
  void emitOps(OpBuilder &b, Location loc, ArrayRef<Value> indices, IRMapping &map,
               const SmallPtrSetImpl<Operation *> &skip);

  Block *body;
  int64_t lanes;
  unsigned laneDim;
  DenseMap<Value, LaneShape> shapes;
  SmallPtrSet<Operation *, 4> copyChain;
  memref::LoadOp copyLoad;
  SmallVector<Value> copyConditions;
};

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPULANEVECTORIZER_H
