//===- ScheduleBuilder.cpp - Transform IR for a SchedulePlan --------------===//
//
// The schedule is built with the Transform dialect's op builders, so a
// mistake in it is a compile error or a verifier message here, not a parse
// error when a pass runs.
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/ScheduleBuilder.h"
#include "dltune/Transforms/GpuMatmulKernel.h"
#include "dltune/Transforms/GpuRowReduction.h"
#include "dltune/Transforms/GpuWindowKernel.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Tensor/TransformOps/TensorTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/LoopExtension/LoopExtensionOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::dltune;

static bool resolveTiles(ArrayRef<TileEntry> entries,
                         const std::map<std::string, int64_t> &values,
                         SmallVectorImpl<int64_t> &out, std::string &error) {
  for (const TileEntry &e : entries) {
    if (e.knob.empty()) {
      out.push_back(e.constant);
      continue;
    }
    auto it = values.find(e.knob);
    if (it == values.end()) {
      error = "configuration has no value for knob '" + e.knob + "'";
      return false;
    }
    out.push_back(it->second);
  }
  return true;
}

static int64_t getValueOr(const std::map<std::string, int64_t> &values,
                          const char *knob, int64_t otherwise) {
  auto it = values.find(knob);
  return it == values.end() ? otherwise : it->second;
}

/// The per-thread tile of each loop for `threads` threads (0: not split).
static SmallVector<int64_t> getThreadTiles(const SchedulePlan &plan,
                                           ArrayRef<int64_t> cache,
                                           int64_t threads, bool packed) {
  SmallVector<int64_t> forall(plan.loopSizes.size(), 0);
  // Rounded up: a conv's rows may split unevenly (its space then tiles
  // them by one row, so the last thread's shorter share stays static).
  forall[plan.parallelDim] = llvm::divideCeil(plan.loopSizes[plan.parallelDim], threads);
  // Leading unit-tiled loops (batch) also spread over threads - unless an
  // operand is packed: its panels are copied inside each forall iteration,
  // so a 7-row conv whose threads split the filters would copy each filter
  // block once per output row (measured: 2-thread 7x7x512 convs 3-4x slower
  // than one thread).
  if (!packed)
    for (int i = 0; i < plan.parallelDim; ++i)
      if (cache[i] == 1 && plan.loopSizes[i] > 1)
        forall[i] = 1;
  return forall;
}

/// The extent of `loop` inside its cache tile: `cache[loop]`, or where that
/// is 0 the whole loop, each thread's share of it where threads split it.
static int64_t getCacheExtent(const SchedulePlan &plan, int64_t threads,
                              ArrayRef<int64_t> cache, int loop) {
  if (cache[loop])
    return cache[loop];
  if (threads > 1 && loop == plan.parallelDim)
    return llvm::divideCeil(plan.loopSizes[loop], threads);
  return plan.loopSizes[loop];
}

/// Whether a cache tile splits one of the op's parallel (output) loops.
static bool tilesAnOutputLoop(const SchedulePlan &plan,
                              ArrayRef<int64_t> cache) {
  return llvm::any_of(llvm::seq<size_t>(0, cache.size()), [&](size_t i) {
    return !plan.isReduction[i] && cache[i] != 0;
  });
}

namespace {
/// How a plan packs operands into panels (ScheduleEmitter::packRegisterTiles):
/// which register loops tile the panels (the row loop streams, the column
/// loop stays: n/m of a matmul, f/ow of a convolution), and which operands
/// are packed - those marked `reused` are hoisted above the cache loops they
/// do not depend on (the block is copied once and reused across them).
struct Packing {
  int rowLoop = -1, colLoop = -1;
  struct Panel {
    int operand;
    bool reused;
  };
  SmallVector<Panel> panels;

  static Packing of(const SchedulePlan &plan,
                    const std::map<std::string, int64_t> &values) {
    auto on = [&](const char *knob) {
      return getValueOr(values, knob, 0) != 0;
    };
    Packing p;
    if (plan.namedContraction) {
      p.rowLoop = static_cast<int>(plan.loopSizes.size()) - 3; // [b,] m, n, k
      p.colLoop = p.rowLoop + 1;
      if (on("pack_a"))
        p.panels.push_back({0, false});
      if (on("pack_b"))
        p.panels.push_back({1, true});
    } else if (plan.opKind == "conv_2d_nhwc_hwcf") {
      p.rowLoop = 2; // ow
      p.colLoop = 3; // f
      if (on("pack_f"))
        p.panels.push_back({1, true});
    }
    return p;
  }
  bool any() const { return !panels.empty(); }
  /// The operand whose panels are reused across cache loops, if any.
  std::optional<int> getReusedOperand() const {
    for (const Panel &p : panels)
      if (p.reused)
        return p.operand;
    return std::nullopt;
  }
  /// Whether the reused operand depends on the op's loop `loop`.
  bool reusedDependsOn(const SchedulePlan &plan, int64_t loop) const {
    std::optional<int> reused = getReusedOperand();
    return reused && llvm::is_contained(plan.operandLoops[*reused],
                                        static_cast<int>(loop));
  }
  /// An order for `count` loops (the op's own, or an epilogue's, mapped to
  /// the op's by `opLoop`): those the reused operand depends on first, so
  /// the others (matmul: m, as in BLIS's n, k, m; conv: the pixels, after
  /// f and c) run inside its block.
  SmallVector<int64_t>
  orderDependentFirst(const SchedulePlan &plan, size_t count,
                      function_ref<int64_t(int64_t)> opLoop) const {
    SmallVector<int64_t> order;
    for (bool dependent : {true, false})
      for (size_t i = 0; i < count; ++i)
        if (reusedDependsOn(plan, opLoop(i)) == dependent)
          order.push_back(i);
    return order;
  }
  /// Of the loop handles `loops` made by tiling with `tiles` in `order`
  /// (one handle per nonzero tile), those the reused panel is hoisted
  /// above: the loops its operand does not depend on.
  SmallVector<Value>
  getIndependentLoops(const SchedulePlan &plan, ArrayRef<int64_t> order,
                      ArrayRef<int64_t> tiles, ArrayRef<Value> loops,
                      function_ref<int64_t(int64_t)> opLoop) const {
    SmallVector<Value> independent;
    int handle = 0;
    for (int64_t l : order) {
      if (!tiles[l])
        continue;
      if (!reusedDependsOn(plan, opLoop(l)))
        independent.push_back(loops[handle]);
      ++handle;
    }
    return independent;
  }
};

/// Builds the schedule's ops, one method per step; every handle is of type
/// !transform.any_op (operand values: !transform.any_value).
struct ScheduleEmitter {
  ImplicitLocOpBuilder &b;
  const SchedulePlan &plan;
  const std::map<std::string, int64_t> &values;
  Value root;
  Type anyOp = b.getType<transform::AnyOpType>();

  /// A tile_using_for; returns the tiled op handle and appends the loop
  /// handles (outermost first; `interchange`, if given, orders the loops).
  Value tileFor(Value target, ArrayRef<int64_t> tiles,
                SmallVectorImpl<Value> &loops,
                ArrayRef<int64_t> interchange = {});
  /// Tiles `op` into an scf.forall with `tiles` and fixes its team size;
  /// returns the tiled op and sets `loop` to the forall.
  Value threadForall(Value op, ArrayRef<int64_t> tiles, int64_t threads,
                     Value &loop);
  /// A tile_using_forall with static tile sizes and `mapping` (if any).
  transform::TileUsingForallOp tileForall(Value target, ArrayRef<int64_t> tiles,
                                          ArrayAttr mapping = {});
  void vectorizeAndFinish(Value op, ArrayRef<Value> regLoops, Value epilogue);
  Value packRegisterTiles(Value op, ArrayRef<int64_t> cache,
                          ArrayRef<int64_t> reg, ArrayRef<Value> reusedPast,
                          const Packing &pack, bool mergeSlices,
                          SmallVectorImpl<Value> &regLoops);
  /// packRegisterTiles for an op whose rows divide into register tiles.
  Value packRegisterTilesOf(Value op, ArrayRef<int64_t> cache,
                            ArrayRef<int64_t> rowCol, ArrayRef<int64_t> rest,
                            ArrayRef<int64_t> order, ArrayRef<Value> reusedPast,
                            const Packing &pack, bool mergeSlices,
                            SmallVectorImpl<Value> &regLoops);
  void cpuSchedule(Value op, ArrayRef<int64_t> cache, ArrayRef<int64_t> reg);
  void fusedCpuSchedule(Value op, Value epilogueOp, Value fillOp,
                        ArrayRef<int64_t> cache, ArrayRef<int64_t> reg,
                        const FusedEpilogue &epilogue);
  void gpuSchedule(Value op, ArrayRef<int64_t> cache, ArrayRef<int64_t> reg);
};
} // namespace

Value ScheduleEmitter::tileFor(Value target, ArrayRef<int64_t> tiles,
                               SmallVectorImpl<Value> &loops,
                               ArrayRef<int64_t> interchange) {
  int numLoops = llvm::count_if(tiles, [](int64_t t) { return t != 0; });
  if (numLoops == 0)
    return target;
  SmallVector<Type> loopTypes(numLoops, anyOp);
  auto tiled = transform::TileUsingForOp::create(b, loopTypes, target, tiles,
                                                 interchange);
  // The builder stores an empty interchange; without one the op is the
  // same as its textual form `tile_sizes [...]`.
  if (interchange.empty())
    tiled.removeInterchangeAttr();
  llvm::append_range(loops, tiled.getLoops());
  return tiled.getTiledLinalgOp();
}

Value ScheduleEmitter::threadForall(Value op, ArrayRef<int64_t> tiles,
                                    int64_t threads, Value &loop) {
  transform::TileUsingForallOp tiled = tileForall(op, tiles);
  loop = tiled.getForallOp();
  // The team size travels with the loop down to its omp.parallel
  // (dltune-forall-to-openmp), so OMP_NUM_THREADS cannot change it.
  Value count =
      transform::ParamConstantOp::create(
          b, transform::ParamType::get(b.getContext(), b.getI64Type()),
          b.getI64IntegerAttr(threads))
          .getParam();
  transform::AnnotateOp::create(b, loop, "dltune.num_threads", count);
  return tiled.getTiledOp();
}

transform::TileUsingForallOp
ScheduleEmitter::tileForall(Value target, ArrayRef<int64_t> tiles,
                            ArrayAttr mapping) {
  auto tiled = transform::TileUsingForallOp::create(
      b, target, tiles, transform::TileSizesSpec(), mapping);
  // As for tile_using_for: the builder stores an empty thread count that
  // the textual form leaves out.
  tiled.removeStaticNumThreadsAttr();
  return tiled;
}

/// Decomposes and vectorizes the (register-tiled) root and the epilogue
/// tile if any, lowers contractions to FMAs, keeps accumulators in
/// registers across the register loops and unrolls the innermost one.
void ScheduleEmitter::vectorizeAndFinish(Value op, ArrayRef<Value> regLoops,
                                         Value epilogue) {
  bool vectorize = getValueOr(values, "vectorize", 1) != 0;
  if (plan.decompose)
    op = transform::DecomposeOp::create(b, anyOp, op).getTransformed();
  if (vectorize) {
    // vectorize_nd_extract: a generic reading with tensor.extract (a
    // gather, e.g. the patch gather of a convolution's implicit GEMM) is
    // refused by the vectorizer without it; ops without one are unaffected.
    transform::VectorizeOp::create(
        b, op, ValueRange(), DenseI64ArrayAttr(), b.getUnitAttr(), UnitAttr(),
        plan.namedContraction ? b.getUnitAttr() : UnitAttr(),
        DenseBoolArrayAttr());
    if (epilogue)
      transform::VectorizeOp::create(
          b, epilogue, ValueRange(), DenseI64ArrayAttr(), UnitAttr(),
          UnitAttr(), UnitAttr(), DenseBoolArrayAttr());
    // Reductions (kind "reduction") vectorize to vector.multi_reduction,
    // which the LLVM conversion does not take: with the vector loop a
    // reduction, each register tile becomes a vector.reduction; with it
    // parallel (a global pool over channels), elementwise vector adds.
    bool innerParallel = !plan.isReduction.empty() && !plan.isReduction.back();
    transform::ApplyPatternsOp::create(
        b, root, [&](OpBuilder &nested, Location loc) {
          transform::ApplyLowerContractionPatternsOp::create(
              nested, loc, vector::VectorContractLowering::OuterProduct);
          transform::ApplyLowerOuterProductPatternsOp::create(nested, loc);
          transform::ApplyLowerMultiReductionPatternsOp::create(
              nested, loc,
              innerParallel
                  ? vector::VectorMultiReductionLowering::InnerParallel
                  : vector::VectorMultiReductionLowering::InnerReduction);
        });
    // Canonicalization in its own block: with shape_cast lowering in the
    // same block it can loop without bound.
    transform::ApplyPatternsOp::create(
        b, root, [](OpBuilder &nested, Location loc) {
          transform::ApplyCanonicalizationPatternsOp::create(nested, loc);
        });
  }
  // Keep the accumulator tile in registers across the innermost loops.
  for (Value loop : llvm::reverse(regLoops))
    transform::HoistLoopInvariantSubsetsOp::create(b, loop);
  int64_t unroll = getValueOr(values, "unroll", 1);
  if (unroll > 1 && !regLoops.empty())
    transform::LoopUnrollOp::create(b, regLoops.back(),
                                    b.getI64IntegerAttr(unroll));
}

/// Register-tiles a cache tile and copies the packed operands into panels
/// that the register loops read contiguously. `reusedPast` are the loops
/// (outermost first) between the cache block and the register tile that a
/// reused panel is hoisted above; the others are hoisted above the register
/// loops only. Unpacked, a matmul's B panel rows are N floats apart (with N
/// a multiple of 1024 all in one L1 set), a conv filter's rows F floats
/// apart. The column register loop runs outside the row loop so that a
/// panel stays in L1 while rows stream. Returns the op to vectorize;
/// appends the register loops.
Value ScheduleEmitter::packRegisterTiles(Value op, ArrayRef<int64_t> cache,
                                         ArrayRef<int64_t> reg,
                                         ArrayRef<Value> reusedPast,
                                         const Packing &pack, bool mergeSlices,
                                         SmallVectorImpl<Value> &regLoops) {
  size_t n = plan.loopSizes.size();
  SmallVector<int64_t> rowCol(n, 0), rest(reg.begin(), reg.end()), order;
  for (int l : {pack.rowLoop, pack.colLoop}) {
    rowCol[l] = reg[l];
    rest[l] = 0;
  }
  for (size_t i = 0; i < n; ++i)
    order.push_back(i);
  std::swap(order[pack.rowLoop], order[pack.colLoop]);
  // A row count that does not divide the cache tile (6 rows on a 14-wide
  // conv, a 196-row matmul): the op is split along the row loop into the
  // rows that whole register tiles cover and the rest, which runs as one
  // shorter register tile, unpacked (a few rows read the unpacked panel
  // rows from cache). Both parts keep static shapes, so the full tiles
  // vectorize as if the rows divided.
  Value remainder;
  SmallVector<Value> remainderLoops;
  int64_t rowExtent =
      getCacheExtent(plan, getValueOr(values, "threads", 1), cache, pack.rowLoop);
  if (reg[pack.rowLoop] && rowExtent % reg[pack.rowLoop] != 0) {
    int64_t fullRows = rowExtent / reg[pack.rowLoop] * reg[pack.rowLoop];
    auto split = transform::SplitOp::create(
        b, anyOp, op, static_cast<uint64_t>(pack.rowLoop), Value(),
        static_cast<uint64_t>(fullRows));
    auto parts = transform::SplitHandleOp::create(b, split.getSplitList(), 2);
    op = parts.getResult(0);
    // One full tile: its loop would have one iteration (see buildSchedule).
    if (fullRows == reg[pack.rowLoop])
      rowCol[pack.rowLoop] = 0;
    SmallVector<int64_t> remainderTiles(reg.begin(), reg.end());
    remainderTiles[pack.rowLoop] = 0;
    remainder = tileFor(parts.getResult(1), remainderTiles, remainderLoops);
  }
  size_t firstLoop = regLoops.size();
  op = packRegisterTilesOf(op, cache, rowCol, rest, order, reusedPast, pack,
                           mergeSlices, regLoops);
  if (!remainder)
    return op;
  // Both parts go on as one: their innermost loops (the reductions, with
  // the same tiles) pair up from the inside out.
  size_t mainCount = regLoops.size() - firstLoop;
  for (size_t i = 0; i < remainderLoops.size() && i < mainCount; ++i) {
    Value &main = regLoops[regLoops.size() - 1 - i];
    main = transform::MergeHandlesOp::create(
        b, ValueRange{main, remainderLoops[remainderLoops.size() - 1 - i]}, false);
  }
  return transform::MergeHandlesOp::create(b, ValueRange{op, remainder}, false);
}

Value ScheduleEmitter::packRegisterTilesOf(
    Value op, ArrayRef<int64_t> cache, ArrayRef<int64_t> rowCol,
    ArrayRef<int64_t> rest, ArrayRef<int64_t> order, ArrayRef<Value> reusedPast,
    const Packing &pack, bool mergeSlices, SmallVectorImpl<Value> &regLoops) {
  size_t n = plan.loopSizes.size();
  op = tileFor(op, rowCol, regLoops, order);
  int regTiled =
      (rowCol[pack.rowLoop] ? 1 : 0) + (rowCol[pack.colLoop] ? 1 : 0);
  SmallVector<std::pair<int, int>> hoists; // operand, loops to hoist above
  for (const Packing::Panel &p : pack.panels) {
    // An operand that no tile so far slices is read whole and in order:
    // nothing to pack (and hoist_pad needs a slice to start from).
    bool sliced = llvm::any_of(plan.operandLoops[p.operand],
                               [&](int l) { return cache[l] || rowCol[l]; });
    int loops = regTiled + (p.reused ? static_cast<int>(reusedPast.size()) : 0);
    bool splat = p.operand < static_cast<int>(plan.splatOperands.size()) &&
                 plan.splatOperands[p.operand];
    if (sliced && loops > 0 && !splat)
      hoists.push_back({p.operand, loops});
  }
  if (hoists.empty())
    return tileFor(op, rest, regLoops);
  // A fused root's operand is a slice of a slice of the whole tensor; as
  // one slice its panel can be hoisted past the reduction loop too.
  if (mergeSlices)
    transform::ApplyPatternsOp::create(
        b, root, [](OpBuilder &nested, Location loc) {
          transform::ApplyMergeConsecutiveInsertExtractSlicePatternsOp::create(
              nested, loc);
        });
  SmallVector<int64_t> dims, nofold;
  for (size_t i = 0; i < n; ++i)
    dims.push_back(i);
  for (size_t i = 0; i < plan.operandZeros.size(); ++i)
    nofold.push_back(llvm::any_of(
        hoists, [&](auto h) { return h.first == static_cast<int>(i); }));
  auto padded = transform::PadOp::create(
      b, anyOp, anyOp, anyOp, op, b.getArrayAttr(plan.operandZeros),
      b.getI64ArrayAttr(dims), ValueRange(), DenseI64ArrayAttr(),
      b.getI64ArrayAttr(nofold), ArrayAttr(),
      b.getStringAttr(transform::PadOp::kCopyOpNone));
  op = padded.getPadded();
  // A reused block's slice is taken inside loops it does not depend on:
  // move it out for its panel copy to be hoisted past them.
  for (Value loop : llvm::reverse(reusedPast))
    transform::ApplyLoopInvariantCodeMotionOp::create(b, loop);
  for (auto [operand, loops] : hoists) {
    Value producer = transform::GetProducerOfOperand::create(
                         b, anyOp, op, static_cast<uint64_t>(operand))
                         .getProducer();
    transform::HoistPadOp::create(b, anyOp, producer,
                                  b.getI64IntegerAttr(loops));
  }
  return tileFor(op, rest, regLoops);
}

void ScheduleEmitter::cpuSchedule(Value op, ArrayRef<int64_t> cache,
                                  ArrayRef<int64_t> reg) {
  int64_t threads = getValueOr(values, "threads", 1);
  Packing pack = Packing::of(plan, values);
  if (threads > 1) {
    Value loop;
    op = threadForall(op, getThreadTiles(plan, cache, threads, pack.any()),
                      threads, loop);
  }
  SmallVector<Value> cacheLoops, regLoops;
  if (pack.any()) {
    auto self = [](int64_t l) { return l; };
    SmallVector<int64_t> order =
        pack.orderDependentFirst(plan, cache.size(), self);
    op = tileFor(op, cache, cacheLoops, order);
    // The reused panel is hoisted above the cache loops it does not depend
    // on, which `order` put innermost.
    SmallVector<Value> reusedPast;
    if (pack.getReusedOperand())
      reusedPast =
          pack.getIndependentLoops(plan, order, cache, cacheLoops, self);
    op = packRegisterTiles(op, cache, reg, reusedPast, pack, false, regLoops);
  } else {
    op = tileFor(op, cache, cacheLoops);
    op = tileFor(op, reg, regLoops);
  }
  vectorizeAndFinish(op, regLoops, Value());
}

/// The CPU schedule with an elementwise epilogue: the epilogue's loops are
/// tiled (threads, then the cache tiles of the root's parallel loops) and
/// the root, with its fill, is fused into them, so each cache tile is
/// computed and finished while it is in cache. The root's reduction and
/// register tiles then apply to the fused root as without an epilogue; the
/// epilogue's tile is split into vectors along its innermost dimension.
void ScheduleEmitter::fusedCpuSchedule(Value op, Value epilogueOp, Value fillOp,
                                       ArrayRef<int64_t> cache,
                                       ArrayRef<int64_t> reg,
                                       const FusedEpilogue &epilogue) {
  auto project = [&](ArrayRef<int64_t> rootTiles) {
    SmallVector<int64_t> tiles;
    for (int64_t loop : epilogue.rootLoopOfDim)
      tiles.push_back(rootTiles[loop]);
    return tiles;
  };
  Value rootOp = op, fill = epilogue.fuseFill ? fillOp : Value(),
        tail = epilogueOp;
  auto fuseInto = [&](Value loop) {
    for (Value *producer : {&rootOp, &fill}) {
      if (!*producer)
        continue;
      *producer = transform::FuseIntoContainingOp::create(b, anyOp, anyOp,
                                                          *producer, loop)
                      .getFusedOp();
    }
  };
  size_t n = plan.loopSizes.size();
  SmallVector<int64_t> extent(plan.loopSizes.begin(), plan.loopSizes.end());
  int64_t threads = getValueOr(values, "threads", 1);
  Packing pack = Packing::of(plan, values);
  if (threads > 1) {
    SmallVector<int64_t> forall =
        getThreadTiles(plan, cache, threads, pack.any());
    for (size_t i = 0; i < n; ++i)
      if (forall[i])
        extent[i] = forall[i];
    Value loop;
    tail = threadForall(tail, project(forall), threads, loop);
    fuseInto(loop);
  }
  SmallVector<int64_t> cacheTiles(cache.begin(), cache.end());
  // Packing needs a loop of the epilogue to fuse the root into (below,
  // without one the root is fused at the register tile, unpacked). When
  // every parallel cache tile is the whole loop (a 64-row matmul with
  // tile_m = 64), halve the first parallel loop that the reused panel does
  // not depend on, so that its block is still packed once and reused
  // (measured: a 64x256x1024 matmul + bias + residual, 0.70 -> 0.41 ms).
  if (pack.any() && !tilesAnOutputLoop(plan, cacheTiles)) {
    for (size_t i = 0; i < n; ++i) {
      int64_t half = extent[i] / 2;
      // reg[i] == 0: the register tile is the whole loop; halving it
      // would change the register tile.
      if (plan.isReduction[i] || extent[i] % 2 != 0 ||
          pack.reusedDependsOn(plan, i) || reg[i] == 0 || half % reg[i] != 0 ||
          half <= reg[i])
        continue;
      cacheTiles[i] = half;
      break;
    }
  }
  SmallVector<int64_t> parallelCache(n, 0), reductionCache(n, 0);
  for (size_t i = 0; i < n; ++i) {
    (plan.isReduction[i] ? reductionCache : parallelCache)[i] = cacheTiles[i];
    if (!plan.isReduction[i] && cacheTiles[i])
      extent[i] = cacheTiles[i];
  }
  SmallVector<Value> tailLoops, cacheLoops, regLoops;
  bool reused = pack.getReusedOperand().has_value();
  auto rootLoop = [&](int64_t d) { return epilogue.rootLoopOfDim[d]; };
  // With a reused panel, the epilogue's loops the panel depends on go
  // first (matmul: n; conv: f), so its block is copied once per iteration
  // of those and reused across the others (m; the pixels) and the
  // reductions inside them.
  SmallVector<int64_t> tailOrder;
  if (reused)
    tailOrder =
        pack.orderDependentFirst(plan, epilogue.rootLoopOfDim.size(), rootLoop);
  SmallVector<int64_t> tailTiles = project(parallelCache);
  tail = tileFor(tail, tailTiles, tailLoops, tailOrder);
  if (!tailLoops.empty()) {
    fuseInto(tailLoops.back());
    rootOp = tileFor(rootOp, reductionCache, cacheLoops);
    if (pack.any()) {
      SmallVector<Value> reusedPast;
      if (reused) {
        reusedPast = pack.getIndependentLoops(plan, tailOrder, tailTiles,
                                              tailLoops, rootLoop);
        // The reductions become a dimension of the packed block.
        reusedPast.append(cacheLoops.begin(), cacheLoops.end());
      }
      rootOp = packRegisterTiles(rootOp, cacheTiles, reg, reusedPast, pack,
                                 true, regLoops);
    } else {
      rootOp = tileFor(rootOp, reg, regLoops);
    }
  } else {
    // No cache tile splits a parallel loop: fuse at the register tile, the
    // reduction loops then run inside it with the accumulator in registers
    // (the operands are not packed).
    SmallVector<int64_t> parallelReg(n, 0), reductionReg(n, 0);
    for (size_t i = 0; i < n; ++i) {
      (plan.isReduction[i] ? reductionReg : parallelReg)[i] = reg[i];
      if (!plan.isReduction[i] && reg[i])
        extent[i] = reg[i];
    }
    SmallVector<Value> tailRegLoops;
    tail = tileFor(tail, project(parallelReg), tailRegLoops);
    if (!tailRegLoops.empty())
      fuseInto(tailRegLoops.back());
    rootOp = tileFor(rootOp, reductionCache, regLoops);
    rootOp = tileFor(rootOp,
                     tailRegLoops.empty() ? ArrayRef<int64_t>(reg)
                                          : ArrayRef<int64_t>(reductionReg),
                     regLoops);
  }
  // The epilogue in vectors of up to 64 elements along its innermost
  // dimension (a divisor of the tile, so shapes stay static).
  SmallVector<int64_t> tailVector(epilogue.rootLoopOfDim.size(), 1);
  int64_t inner = extent[epilogue.rootLoopOfDim.back()];
  int64_t width = 1;
  for (int64_t v = std::min<int64_t>(inner, 64); v >= 1; --v)
    if (inner % v == 0) {
      width = v;
      break;
    }
  tailVector.back() = width == inner ? 0 : width;
  for (size_t j = 0; j + 1 < tailVector.size(); ++j)
    if (extent[epilogue.rootLoopOfDim[j]] == 1)
      tailVector[j] = 0;
  SmallVector<Value> tailVectorLoops;
  tail = tileFor(tail, tailVector, tailVectorLoops);
  vectorizeAndFinish(rootOp, regLoops, tail);
}

void ScheduleEmitter::gpuSchedule(Value op, ArrayRef<int64_t>, ArrayRef<int64_t>) {
  // The kernel is built op by op by --dltune-lower-gpu once the IR is
  // bufferized (GpuMatmulKernel.h): the schedule only hands it the tiles.
  // Window spaces (depthwise convolutions, pooling, column reductions)
  // have block_threads, row spaces (reductions along rows) lanes; matmul
  // spaces neither.
  DictionaryAttr tiles =
      values.count("lanes")           ? GpuRowTiles::fromValues(values).toAttr(b.getContext())
      : values.count("block_threads") ? GpuWindowTiles::fromValues(values).toAttr(b.getContext())
                                      : GpuMatmulTiles::fromValues(values).toAttr(b.getContext());
  Value param = transform::ParamConstantOp::create(
      b, b.getType<transform::AnyParamType>(), tiles);
  transform::AnnotateOp::create(b, op, DLTuneDialect::kGpuKernelAttrName, param);
}

LogicalResult
mlir::dltune::buildSchedule(OpBuilder &builder, Location loc, Value root,
                            Value op, Value epilogueOp, Value fill,
                            const SchedulePlan &plan,
                            const std::map<std::string, int64_t> &values,
                            std::string &error, const FusedEpilogue *epilogue) {
  SmallVector<int64_t> cache, reg;
  if (!resolveTiles(plan.cacheTiles, values, cache, error) ||
      !resolveTiles(plan.registerTiles, values, reg, error))
    return failure();
  // With packing (a convolution's filter, a matmul's A or B), the row
  // register loop may leave a partial last tile: the op is split into full
  // tiles and a shorter last one (ScheduleEmitter::packRegisterTiles).
  int partialRowLoop = -1;
  if (plan.target == ScheduleTarget::CPU) {
    Packing pack = Packing::of(plan, values);
    if (pack.any())
      partialRowLoop = pack.rowLoop;
  }
  for (size_t i = 0; i < cache.size(); ++i) {
    int64_t size = plan.loopSizes[i];
    bool partialOk = static_cast<int>(i) == partialRowLoop &&
                     reg[i] < (cache[i] ? cache[i] : size);
    // The GPU matmul kernel takes a block_m that does not divide M (its
    // last row of blocks clamps its loads and guards its stores).
    bool raggedOk = plan.target == ScheduleTarget::GPU && static_cast<int>(i) == plan.parallelDim;
    if (cache[i] < 0 || (cache[i] && size % cache[i] && !raggedOk) ||
        (!partialOk && reg[i] && cache[i] && cache[i] % reg[i]) || reg[i] < 0) {
      error = "tile sizes of loop '" + plan.loopNames[i] +
              "' do not divide its extent " + std::to_string(size);
      return failure();
    }
  }
  // A tile as large as its loop makes a one-iteration loop, which
  // canonicalization folds away under the handles that track it: leave such
  // loops untiled instead.
  int64_t threads = getValueOr(values, "threads", 1);
  if (plan.target == ScheduleTarget::CPU) {
    for (size_t i = 0; i < cache.size(); ++i) {
      int64_t extent = plan.loopSizes[i];
      if (threads > 1 && static_cast<int>(i) == plan.parallelDim)
        extent /= threads;
      if (cache[i] == extent)
        cache[i] = 0;
      if (reg[i] == (cache[i] ? cache[i] : extent))
        reg[i] = 0;
    }
  }
  // The fused schedule splits off a partial row tile only where it packs,
  // which needs a tiled output loop to fuse the root into.
  if (partialRowLoop >= 0 && epilogue && reg[partialRowLoop] &&
      getCacheExtent(plan, threads, cache, partialRowLoop) % reg[partialRowLoop] != 0 &&
      !tilesAnOutputLoop(plan, cache)) {
    error = "partial register rows of loop '" + plan.loopNames[partialRowLoop] +
            "' need a cache tile that splits an output loop when an epilogue "
            "is fused";
    return failure();
  }
  if (epilogue && plan.target == ScheduleTarget::CPU &&
      (!epilogueOp || (epilogue->fuseFill && !fill))) {
    error = "a fused epilogue needs handles to the epilogue and its fill";
    return failure();
  }
  ImplicitLocOpBuilder b(loc, builder);
  ScheduleEmitter emitter{b, plan, values, root};
  if (plan.target == ScheduleTarget::CPU && epilogue)
    emitter.fusedCpuSchedule(op, epilogueOp, fill, cache, reg, *epilogue);
  else if (plan.target == ScheduleTarget::CPU)
    emitter.cpuSchedule(op, cache, reg);
  else
    emitter.gpuSchedule(op, cache, reg);
  return success();
}

/// Whether `ctx` can hold a schedule: the dialects of the attributes it
/// uses loaded and the Transform extensions of its ops registered.
static LogicalResult checkScheduleDialects(MLIRContext *ctx,
                                           std::string &error) {
  if (!ctx->getLoadedDialect<transform::TransformDialect>() ||
      !ctx->getLoadedDialect<gpu::GPUDialect>() ||
      !ctx->getLoadedDialect<vector::VectorDialect>()) {
    error = "the Transform, GPU and Vector dialects must be loaded to build a "
            "schedule";
    return failure();
  }
  for (StringRef name :
       {transform::TileUsingForOp::getOperationName(),
        transform::LoopUnrollOp::getOperationName(),
        transform::ApplyLowerContractionPatternsOp::getOperationName(),
        transform::ApplyMergeConsecutiveInsertExtractSlicePatternsOp::
            getOperationName(),
        transform::HoistLoopInvariantSubsetsOp::getOperationName()})
    if (!RegisteredOperationName::lookup(name, ctx)) {
      error =
          "'" + name.str() +
          "' is not registered: the context needs registerScheduleExtensions";
      return failure();
    }
  return success();
}

FailureOr<OwningOpRef<ModuleOp>> mlir::dltune::buildScheduleModule(
    MLIRContext *ctx, Location loc, const SchedulePlan &plan,
    const std::map<std::string, int64_t> &values,
    const ScheduleMarkers &markers, std::string &error,
    const FusedEpilogue *fused) {
  if (failed(checkScheduleDialects(ctx, error)))
    return failure();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b, loc);
  module->getOperation()->setAttr(
      transform::TransformDialect::kWithNamedSequenceAttrName, b.getUnitAttr());
  b.setInsertionPointToEnd(module->getBody());
  Type anyOp = b.getType<transform::AnyOpType>();
  DictionaryAttr readOnly = b.getDictionaryAttr(b.getNamedAttr(
      transform::TransformDialect::kArgReadOnlyAttrName, b.getUnitAttr()));
  auto sequence = transform::NamedSequenceOp::create(
      b, loc, transform::TransformDialect::kTransformEntryPointSymbolName,
      anyOp, TypeRange(), [](OpBuilder &, Location, BlockArgument) {});
  // The builder takes no argument attributes.
  sequence.setArgAttrsAttr(b.getArrayAttr({readOnly}));
  Block &body = sequence.getBody().front();
  b.setInsertionPointToEnd(&body);
  Value root = body.getArgument(0);
  auto match = [&](StringRef marker) -> Value {
    return transform::MatchOp::create(
               b, loc, anyOp, root, ArrayAttr(),
               transform::MatchInterfaceEnumAttr(),
               b.getDictionaryAttr(b.getNamedAttr(marker, b.getUnitAttr())),
               TypeAttr(), ArrayAttr())
        .getResults();
  };
  Value op = match(markers.op);
  Value epilogue = fused ? match(markers.epilogue) : Value();
  Value fill = fused && fused->fuseFill ? match(markers.fill) : Value();
  if (failed(buildSchedule(b, loc, root, op, epilogue, fill, plan, values,
                           error, fused)))
    return failure();
  transform::YieldOp::create(b, loc);
  std::string messages;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      messages += (messages.empty() ? "" : "; ") + diag.str();
      return success();
    });
    if (failed(verify(*module))) {
      error = "the built schedule does not verify: " + messages;
      return failure();
    }
  }
  return module;
}
