//===- SchedulePlan.cpp - Default spaces and plans for linalg ops ---------===//

#include "dltune/Transforms/SchedulePlan.h"
#include "dltune/Transforms/GpuMatmulKernel.h"
#include "dltune/Transforms/GpuRowReduction.h"
#include "dltune/Transforms/GpuWindowKernel.h"
#include "dltune/Transforms/EpilogueFusion.h"

#include "dltune/Tuning/Device/HostCpu.h"

#include "mlir/IR/Matchers.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <thread>

using namespace mlir;
using namespace mlir::dltune;

namespace {

std::vector<int64_t> divisorsUpTo(int64_t n, int64_t cap) {
  std::vector<int64_t> out;
  for (int64_t d = 1; d <= std::min(n, cap); ++d)
    if (n % d == 0)
      out.push_back(d);
  return out;
}

/// Candidates from `wanted` that divide `n`; {1} if none does.
std::vector<int64_t> dividing(int64_t n, std::initializer_list<int64_t> wanted) {
  std::vector<int64_t> out;
  for (int64_t v : wanted)
    if (v <= n && n % v == 0)
      out.push_back(v);
  if (out.empty())
    out.push_back(1);
  return out;
}

std::vector<int64_t> threadCandidates(int64_t maxThreads) {
  std::vector<int64_t> out;
  for (int64_t t = 1; t <= maxThreads; t *= 2)
    out.push_back(t);
  if (out.back() != maxThreads)
    out.push_back(maxThreads);
  return out;
}

/// Accumulates knobs, params and constraints, then builds the space.
struct SpaceBuilder {
  std::vector<Knob> knobs;
  std::vector<SpaceParam> params;
  std::vector<std::string> constraints;
  std::map<std::string, int64_t> preferred;

  void knob(const std::string &name, std::vector<int64_t> values,
            int64_t prefer) {
    knobs.push_back({name, std::move(values)});
    preferred[name] = prefer;
  }
  void param(const std::string &name, int64_t value) {
    params.push_back({name, value});
  }
  void require(const std::string &c) { constraints.push_back(c); }
};

/// `plan` with the space of `b`'s knobs, parameters and constraints.
static FailureOr<SchedulePlan> withSpace(SchedulePlan plan, const SpaceBuilder &b,
                                         std::string &whyNot) {
  llvm::Expected<SearchSpace> space = SearchSpace::create(b.knobs, b.params, b.constraints);
  if (!space) {
    whyNot = llvm::toString(space.takeError());
    return failure();
  }
  plan.space = std::move(*space);
  plan.preferred = b.preferred;
  return plan;
}



/// Adds a two-level (cache, register) tiling of one loop named `dim`:
/// knobs tile_<dim> and reg_<dim>, with divisibility constraints.
void addTiledLoop(SpaceBuilder &b, const std::string &dim, int64_t size,
                  int64_t cacheCap, int64_t cachePrefer,
                  std::initializer_list<int64_t> regs, int64_t regPrefer) {
  std::string param = "D_" + dim;
  b.param(param, size);
  b.knob("tile_" + dim, divisorsUpTo(size, cacheCap), cachePrefer);
  b.require(param + " % tile_" + dim + " == 0");
  if (regs.size() == 0)
    return;
  b.knob("reg_" + dim, dividing(size, regs), regPrefer);
  b.require("tile_" + dim + " % reg_" + dim + " == 0");
}

/// `options` with 4 and 6 rows added where they are shorter than `extent`
/// and do not divide it: register tiles that leave a partial last tile,
/// which the packed schedule splits off (ScheduleEmitter::packRegisterTiles).
std::vector<int64_t> withPartialRows(std::vector<int64_t> options, int64_t extent) {
  for (int64_t rows : {int64_t(4), int64_t(6)})
    if (extent > rows && extent % rows != 0)
      options.push_back(rows);
  std::sort(options.begin(), options.end());
  return options;
}

struct OpLoops {
  SmallVector<int64_t> sizes;
  SmallVector<std::string> names;
  SmallVector<bool> reduction;
};

/// A GPU plan of op kind `kind` over `loops`, its space to come.
static SchedulePlan startGpuPlan(const std::string &kind, const OpLoops &loops) {
  SchedulePlan plan;
  plan.target = ScheduleTarget::GPU;
  plan.opKind = kind;
  plan.loopSizes = loops.sizes;
  return plan;
}

} // namespace

/// A linalg.generic with reduction loops, one result and projected
/// permutation maps (a 0 standing for a kept unit dimension, as ONNX's
/// keepdims reductions import): what gets the "reduction" space.
static bool isReductionGeneric(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op) || op.getNumReductionLoops() == 0 ||
      op.getNumDpsInits() != 1)
    return false;
  return llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return map.isProjectedPermutation(/*allowZeroInResults=*/true);
  });
}

static LogicalResult getStaticLoops(linalg::LinalgOp op, OpLoops &loops,
                                    std::string &whyNot) {
  loops.sizes = op.getStaticLoopRanges();
  for (utils::IteratorType t : op.getIteratorTypesArray())
    loops.reduction.push_back(t == utils::IteratorType::reduction);
  for (int64_t s : loops.sizes)
    if (ShapedType::isDynamic(s)) {
      whyNot = "has dynamic loop bounds";
      return failure();
    }
  return success();
}

/// The CPU plan shared by all kinds: `threads` splits `parallelDim`;
/// the constraint ties the per-thread chunk to the cache tile.
static void addThreads(SpaceBuilder &b, const std::string &parDim,
                       int64_t maxThreads, int64_t preferThreads) {
  b.knob("threads", threadCandidates(maxThreads), preferThreads);
  b.require("D_" + parDim + " % threads == 0");
  b.require("(D_" + parDim + " / threads) % tile_" + parDim + " == 0");
}

/// The largest option whose register tile leaves the accumulators, one
/// row of B vectors and a broadcast in registers (no spills).
static int64_t pickRegisterRows(const std::vector<int64_t> &options, int64_t vectorsPerRow,
                                const CpuTarget &cpu) {
  int64_t best = options.front();
  for (int64_t v : options)
    if (v * vectorsPerRow + vectorsPerRow + 2 <= cpu.vectorRegisters)
      best = std::max(best, v);
  return best;
}

/// The largest power of two <= x (at least 1).
static int64_t floorPow2(int64_t x) {
  int64_t p = 1;
  while (p * 2 <= x)
    p *= 2;
  return p;
}

static FailureOr<SchedulePlan> buildCpuPlan(const std::string &kind, const OpLoops &loops,
                                            const CpuTarget &cpu, std::string &whyNot) {
  int64_t maxThreads = std::max<int64_t>(1, cpu.maxThreads);
  SchedulePlan plan;
  plan.target = ScheduleTarget::CPU;
  plan.opKind = kind;
  plan.loopSizes = loops.sizes;
  SpaceBuilder b;
  auto T = TileEntry::of;
  auto C = TileEntry::fixed;
  const auto &s = loops.sizes;

  if (kind == "matmul" || kind == "batch_matmul") {
    bool batched = kind == "batch_matmul";
    int off = batched ? 1 : 0;
    int64_t M = s[off], N = s[off + 1], K = s[off + 2];
    if (batched)
      plan.loopNames.push_back("b");
    plan.loopNames.append({"m", "n", "k"});
    // Register tile: two vectors of N per row (B loads amortised over the
    // rows), as many rows as the register file holds; cache tiles: a B
    // micro-panel (tile_k x reg_n) fills L1 - but tile_k stays <= 256:
    // unpacked B rows with a power-of-two stride share cache sets, and
    // longer panels only add conflict misses (measured on AVX2: 512 is 20%
    // slower than 128-256) - and the B block (tile_k x tile_n) a quarter
    // of L2.
    // Packed, the B block may take half of L2 (its panels are contiguous,
    // so it holds no conflict misses) and the k loop, reading both panels
    // contiguously, is unrolled by 4 (one loop branch per 4 FMA rows).
    // Operand packing (emitPackedRegisterTiles) copies B once per call
    // (K x N floats for 2MNK FLOPs): worth it unless M is a few rows.
    bool packByDefault = M >= 16;
    int64_t regN = 2 * cpu.lanes;
    std::vector<int64_t> regMOptions = dividing(M, {1, 2, 4, 6, 8, 12, 16});
    int64_t regM = std::min<int64_t>(8, pickRegisterRows(regMOptions, 2, cpu));
    int64_t tileK = std::clamp<int64_t>(floorPow2(cpu.l1Bytes / (regN * 4)), 64, 256);
    int64_t l2Share = packByDefault ? 2 : 4;
    int64_t tileN =
        std::clamp<int64_t>(floorPow2(cpu.l2Bytes / l2Share / (tileK * 4)), regN, 512);
    int64_t unroll = packByDefault ? 4 : 1;
    // One row (a batch-1 fully connected layer) reads every element of B
    // once, so it runs at memory bandwidth only if B streams: k tiles of 8
    // rows, unrolled, four vectors wide, so that each k step reads 128
    // contiguous bytes of B per register tile (measured on AVX2, 1x4096 by
    // 4096x4096: 4.1-4.4 ms, ~15 GB/s, against 10-12 ms with the GEMM's
    // 256-deep k tile of two vectors, a 64-byte read per 16 KB-strided row).
    if (M == 1) {
      regN = 4 * cpu.lanes;
      tileK = 8;
      tileN = 512;
      unroll = 8;
    }
    // Partial register rows: with a packed operand, 4 and 6 rows are also
    // candidates where they do not divide M (MobileNet-v2's 196 and 49
    // pixels, Winograd's 784 tiles): the packed schedule splits each cache
    // tile into whole register tiles and one shorter last tile
    // (ScheduleEmitter::packRegisterTiles). They are in the space, not the
    // default: the rows that divide (4 on AVX2) ran as fast or faster,
    // paired in-process (2026-11-26): 6 rows made ResNet-18 (its Winograd
    // GEMMs, 16 x 784 x 64 x 64, ...) 0.82x as fast, the encoder's 64-row
    // matmuls 0.89x, a 196 x 64 x 384 matmul 1.00x. The default cache tile
    // is the divisor of M nearest 64 (in ratio) that the default's whole
    // register tiles fill, as before partial tiles were in the space.
    std::vector<int64_t> tileMOptions = divisorsUpTo(M, 256);
    int64_t tileM = 64;
    double bestDistance = 1e30;
    for (int64_t d : tileMOptions)
      if (d % regM == 0 && std::fabs(std::log(double(d) / 64.0)) < bestDistance) {
        bestDistance = std::fabs(std::log(double(d) / 64.0));
        tileM = d;
      }
    b.param("D_m", M);
    b.knob("tile_m", tileMOptions, tileM);
    b.require("D_m % tile_m == 0");
    b.knob("reg_m", withPartialRows(regMOptions, M), regM);
    // (A fused epilogue needs a cache tile that splits an output loop for
    // the root to be packed in: see buildSchedule.)
    b.require("tile_m % reg_m == 0 || ((pack_a == 1 || pack_b == 1) && reg_m < tile_m && "
              "(tile_m < D_m || tile_n < D_n))");
    addTiledLoop(b, "n", N, 512, tileN, {1, 4, 8, 16, 32, 48, 64}, regN);
    addTiledLoop(b, "k", K, 1024, tileK, {}, 1);
    b.knob("unroll", {1, 2, 4, 8}, unroll);
    b.require("tile_k % unroll == 0");
    b.knob("pack_a", {0, 1}, packByDefault ? 1 : 0);
    b.knob("pack_b", {0, 1}, packByDefault ? 1 : 0);
    b.param("max_acc", 512);
    b.require("reg_m * reg_n <= max_acc");
    // Threads split the batch where it divides among them: each thread
    // reads only its own batches' B (Winograd's 16 tile positions each
    // have their own filter matrix; a split of M made every thread stream
    // all of B), and M stays whole for the cache tile (with M = 16, the
    // split left too few rows, and the default chose one thread).
    // Otherwise M, or N when M does not divide among them (M = 1 for a
    // classifier's final layer).
    if (batched && maxThreads > 1 && s[0] % maxThreads == 0) {
      b.param("D_b", s[0]);
      b.knob("threads", threadCandidates(maxThreads), maxThreads);
      b.require("D_b % threads == 0");
      plan.parallelDim = 0;
    } else {
      bool splitN = M % maxThreads != 0 && N % maxThreads == 0;
      addThreads(b, splitN ? "n" : "m", maxThreads, maxThreads);
      plan.parallelDim = off + (splitN ? 1 : 0);
    }
    if (batched) {
      plan.cacheTiles.push_back(C(1));
      plan.registerTiles.push_back(C(1));
    }
    plan.cacheTiles.append({T("tile_m"), T("tile_n"), T("tile_k")});
    plan.registerTiles.append({T("reg_m"), T("reg_n"), C(1)});
    plan.namedContraction = true;
  } else if (kind == "conv_2d_nhwc_hwcf") {
    // Loops: n, oh, ow, f, kh, kw, c.
    plan.loopNames = {"n", "oh", "ow", "f", "kh", "kw", "c"};
    // As for matmul: reg_f vectors of filters per output pixel row. Two
    // vectors by up to 6 pixels (12 accumulators, two filter vectors and a
    // broadcast: the 16 AVX2 registers; SqueezeNet's 54-wide 1x1 convs ran
    // 1.08-1.2x faster with 6 x 2 than with 9 rows of one vector, paired
    // in-process, 2026-11-26), unless the row count that divides the
    // width is small (7x7 maps: 7 divides, 2 and 4 do not): then one vector
    // by more pixels holds more accumulators (7x1 beats 1x2).
    // Odd widths (SqueezeNet's 27 and 13) need odd row counts: 9 or 13 rows
    // of one vector (as many as the registers hold) rather than 1; widths
    // of 5 x 11 (55) take 5 rows of two vectors (measured: 93 GFLOP/s
    // against 30 with one row and 81 with 11 rows of one vector).
    const std::initializer_list<int64_t> rowCounts = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 14};
    std::vector<int64_t> owOptions = dividing(s[2], rowCounts), upToSix;
    for (int64_t rows : owOptions)
      if (rows <= 6)
        upToSix.push_back(rows);
    int64_t regOW = pickRegisterRows(upToSix, 2, cpu);
    int64_t regF = 2 * cpu.lanes;
    int64_t singleRows = pickRegisterRows(owOptions, 1, cpu);
    if (singleRows > 2 * regOW && regOW != 5 && s[3] % cpu.lanes == 0) {
      regOW = singleRows;
      regF = cpu.lanes;
    }
    // Partial register rows: 4 or 6 rows that do not divide the width leave
    // a last, shorter register tile, which the packed schedule splits off
    // (ScheduleEmitter::packRegisterTiles), so it needs pack_f = 1. By
    // default only where no divisor gives 3 rows or more (a prime width
    // such as SqueezeNet's 109: 4 rows of two vectors ran its 7x7 stem 1.6x
    // faster than 1 row): 6 x 16 with a short last tile against 7 rows of
    // one vector was 1.02-1.05x on 14-wide and 0.93-0.98x on 7-wide 1x1
    // convs (paired in-process, 2026-11-26), within the noise.
    std::vector<int64_t> regOWOptions = withPartialRows(owOptions, s[2]);
    const int64_t partialRows = 4;
    if (s[2] > partialRows && s[2] % partialRows != 0 && regOW < 3 && singleRows < 3) {
      regOW = partialRows;
      regF = 2 * cpu.lanes;
    }
    b.param("D_ow", s[2]);
    addTiledLoop(b, "oh", s[1], 64, 1, {}, 1);
    // The whole row is also a cache tile: a prime width has no other
    // divisor for partial register rows to work in.
    std::vector<int64_t> tileOWOptions = divisorsUpTo(s[2], 64);
    if (s[2] > 64)
      tileOWOptions.push_back(s[2]);
    b.knob("tile_ow", tileOWOptions, 64);
    b.require("D_ow % tile_ow == 0");
    b.knob("reg_ow", regOWOptions, regOW);
    // Partial register rows: packed only, and not one whole register row
    // plus a partial one in a cache tile narrower than the row, where the
    // packed schedule's pad hoisting fails (tile_ow 7 with reg_ow 4 or 6 of
    // a 28-wide conv, 2026-11-27; the whole row of a 7-wide conv applies).
    b.require("tile_ow % reg_ow == 0 || (pack_f == 1 && reg_ow < tile_ow && "
              "(tile_ow == D_ow || 2 * reg_ow <= tile_ow))");
    addTiledLoop(b, "f", s[3], 512, 64, {1, 4, 8, 16, 32, 64}, regF);
    addTiledLoop(b, "c", s[6], 512, 64, {1, 2, 4, 8}, 1);
    // The channel loop inside the register tile is unrolled by 4 where the
    // channel tile allows: one loop branch per 4 steps of reg_ow broadcasts
    // and reg_f / lanes filter loads (measured 1.03-1.3x on ResNet-18's
    // 3x3 convs against no unrolling, 2026-11-23 at d506299).
    b.knob("unroll", {1, 2, 4}, 4);
    b.require("(tile_c / reg_c) % unroll == 0");
    // Filter packing (emitPackedRegisterTiles): unpacked, a register tile
    // reads filter rows F floats apart.
    b.knob("pack_f", {0, 1}, 1);
    b.param("max_acc", 512);
    b.require("reg_ow * reg_f <= max_acc");
    // Threads split the output rows, or the filters when the rows do not
    // divide among them (7 rows, 2 threads) and each thread's filters are
    // whole vectors. Otherwise the rows split unevenly (13 = 7 + 6) with
    // one row per cache tile, so that every tile inside stays static:
    // SqueezeNet's 13x13 classifier split its 1000 filters into 500 per
    // thread, which left half-vector register tiles.
    bool rowsDivide = s[1] % maxThreads == 0;
    bool splitF = !rowsDivide && s[3] % (maxThreads * cpu.lanes) == 0;
    if (rowsDivide || splitF) {
      addThreads(b, splitF ? "f" : "oh", maxThreads, maxThreads);
    } else {
      b.knob("threads", threadCandidates(maxThreads), maxThreads);
      b.require("threads == 1 || tile_oh == 1");
    }
    plan.parallelDim = splitF ? 3 : 1;
    plan.cacheTiles = {C(1), T("tile_oh"), T("tile_ow"), T("tile_f"), C(0), C(0), T("tile_c")};
    // The window goes one tap at a time (kw tiled by 1, not unrolled in the
    // channel loop): each channel step is then one FMA per accumulator, not
    // three dependent ones (7x7x512: 34 -> 53 GFLOP/s; 56x56x64: 82 -> 94).
    plan.registerTiles = {C(1), C(1), T("reg_ow"), T("reg_f"), C(1), C(1), T("reg_c")};
    plan.decompose = true;
  } else if (kind == "conv_2d_nchw_fchw") {
    // Loops: n, f, oh, ow, c, kh, kw.
    plan.loopNames = {"n", "f", "oh", "ow", "c", "kh", "kw"};
    // Output pixels along the vector, filters as register rows.
    int64_t regOW = cpu.lanes;
    int64_t regF = std::min<int64_t>(
        8, pickRegisterRows(dividing(s[1], {1, 4, 8, 16, 32}), 1, cpu));
    addTiledLoop(b, "f", s[1], 512, 64, {1, 4, 8, 16, 32}, regF);
    addTiledLoop(b, "oh", s[2], 64, 1, {}, 1);
    addTiledLoop(b, "ow", s[3], 64, 64, {1, 2, 4, 7, 8, 14, 16}, regOW);
    addTiledLoop(b, "c", s[4], 512, 64, {1, 2, 4, 8}, 1);
    b.knob("unroll", {1}, 1);
    b.param("max_acc", 512);
    b.require("reg_ow * reg_f <= max_acc");
    addThreads(b, "f", maxThreads, maxThreads);
    plan.parallelDim = 1;
    plan.cacheTiles = {C(1), T("tile_f"), T("tile_oh"), T("tile_ow"), T("tile_c"), C(0), C(0)};
    plan.registerTiles = {C(1), T("reg_f"), C(1), T("reg_ow"), T("reg_c"), C(1), C(0)};
    plan.decompose = true;
  } else if (kind == "depthwise_conv_2d_nhwc_hwc" || kind.rfind("pooling_nhwc", 0) == 0) {
    // Loops: n, oh, ow, c, kh, kw.
    plan.loopNames = {"n", "oh", "ow", "c", "kh", "kw"};
    addTiledLoop(b, "oh", s[1], 64, 1, {}, 1);
    addTiledLoop(b, "ow", s[2], 128, 56, {1, 2, 4, 7, 8, 14}, 4);
    addTiledLoop(b, "c", s[3], 512, 32, {1, 4, 8, 16, 32, 64}, 16);
    b.knob("unroll", {1}, 1);
    b.param("max_acc", 512);
    b.require("reg_ow * reg_c <= max_acc");
    bool splitC = s[1] % maxThreads != 0 && s[3] % maxThreads == 0;
    addThreads(b, splitC ? "c" : "oh", maxThreads, maxThreads);
    plan.parallelDim = splitC ? 3 : 1;
    plan.cacheTiles = {C(1), T("tile_oh"), T("tile_ow"), T("tile_c"), C(0), C(0)};
    plan.registerTiles = {C(1), C(1), T("reg_ow"), T("reg_c"), C(1), C(0)};
    plan.decompose = true;
  } else if (kind == "elementwise") {
    int64_t rank = s.size();
    for (int64_t i = 0; i < rank; ++i)
      plan.loopNames.push_back("d" + std::to_string(i));
    // Outer and inner loops are tiled; leading ones go one at a time.
    std::string inner = "d" + std::to_string(rank - 1);
    addTiledLoop(b, inner, s[rank - 1], 4096, 512, {1, 4, 8, 16, 32, 64}, 16);
    std::string outer = inner;
    if (rank >= 2) {
      outer = "d" + std::to_string(rank - 2);
      addTiledLoop(b, outer, s[rank - 2], 256, 8, {}, 1);
    }
    b.knob("unroll", {1}, 1);
    // Threads split the outermost loop that has a knob.
    addThreads(b, outer, maxThreads, maxThreads);
    plan.parallelDim = rank >= 2 ? rank - 2 : 0;
    for (int64_t i = 0; i + 2 < rank; ++i) {
      plan.cacheTiles.push_back(C(1));
      plan.registerTiles.push_back(C(1));
    }
    if (rank >= 2) {
      plan.cacheTiles.push_back(T("tile_" + outer));
      plan.registerTiles.push_back(C(1));
    }
    plan.cacheTiles.push_back(T("tile_" + inner));
    plan.registerTiles.push_back(T("reg_" + inner));
  } else if (kind == "reduction") {
    // A generic reduction (softmax's max and sum, layer norm's moments,
    // global pooling). The innermost loop is the vector loop, reduction or
    // not: the operands are contiguous along it (a row reduction reduces
    // vectors and then lanes; an NHWC global pool adds channel vectors).
    // Other reduction loops run whole, one step at a time, with the
    // accumulator tile kept in registers; the innermost other parallel
    // loop is cache-tiled and split among threads.
    int64_t rank = s.size();
    for (int64_t i = 0; i < rank; ++i)
      plan.loopNames.push_back("d" + std::to_string(i));
    int64_t vec = rank - 1, par = -1;
    for (int64_t i = rank - 2; i >= 0 && par < 0; --i)
      if (!loops.reduction[i] && s[i] > 1)
        par = i;
    if (par < 0 && !loops.reduction[vec])
      par = vec;
    std::string v = "d" + std::to_string(vec);
    std::vector<int64_t> vecTiles = divisorsUpTo(s[vec], 4096);
    int64_t lanes = dividing(s[vec], {16, 8, 4, 1}).front();
    addTiledLoop(b, v, s[vec], 4096, vecTiles.back(), {1, 4, 8, 16, 32, 64},
                 std::min<int64_t>(lanes, 2 * cpu.lanes));
    b.knob("unroll", {1}, 1);
    if (par >= 0) {
      std::string p = "d" + std::to_string(par);
      if (par != vec) {
        std::vector<int64_t> parTiles = divisorsUpTo(s[par], 256);
        addTiledLoop(b, p, s[par], 256, parTiles[std::min<size_t>(3, parTiles.size() - 1)], {},
                     1);
      }
      addThreads(b, p, maxThreads, maxThreads);
      plan.parallelDim = par;
    } else {
      b.knob("threads", {1}, 1);
      plan.parallelDim = 0;
    }
    for (int64_t i = 0; i < rank; ++i) {
      std::string d = "d" + std::to_string(i);
      if (i == vec) {
        plan.cacheTiles.push_back(T("tile_" + d));
        plan.registerTiles.push_back(T("reg_" + d));
      } else if (i == par) {
        plan.cacheTiles.push_back(T("tile_" + d));
        plan.registerTiles.push_back(C(1));
      } else {
        plan.cacheTiles.push_back(loops.reduction[i] ? C(0) : C(1));
        plan.registerTiles.push_back(C(1));
      }
    }
  } else {
    whyNot = "no CPU schedule for this op kind";
    return failure();
  }
  b.knob("vectorize", {0, 1}, 1);

  return withSpace(std::move(plan), b, whyNot);
}

/// The space of a window kernel (GpuWindowKernel.h): a depthwise
/// convolution or a pooling op (loops n, oh, ow, c, kh, kw), or a generic
/// reduction whose innermost loop is parallel (global average pooling:
/// d0 .. d3, channels last). Its lanes run along the innermost parallel
/// loop, its outputs along the next one.
static FailureOr<SchedulePlan> buildGpuWindowPlan(linalg::LinalgOp op, const std::string &kind,
                                                  const OpLoops &loops, const GpuPlanTarget &gpu,
                                                  std::string &whyNot) {
  if (std::string why = whyNotGpuWindowOp(op); !why.empty()) {
    whyNot = "no GPU schedule for this op: " + why;
    return failure();
  }
  SchedulePlan plan = startGpuPlan(kind, loops);
  const auto &s = loops.sizes;
  int64_t rank = s.size();
  if (kind == "reduction")
    for (int64_t i = 0; i < rank; ++i)
      plan.loopNames.push_back("d" + std::to_string(i));
  else
    plan.loopNames = {"n", "oh", "ow", "c", "kh", "kw"};
  SmallVector<int64_t> parallel;
  for (int64_t i = 0; i < rank; ++i)
    if (!loops.reduction[i])
      parallel.push_back(i);
  int64_t lane = parallel.back();
  int64_t out = parallel.size() >= 2 ? parallel[parallel.size() - 2] : -1;
  int64_t elemBytes = std::max<int64_t>(
      1, getElementTypeOrSelf(op.getDpsInits()[0].getType()).getIntOrFloatBitWidth() / 8);
  SpaceBuilder b;
  std::string laneSize = "D_" + plan.loopNames[lane];
  if (out >= 0)
    b.param("D_" + plan.loopNames[out], s[out]);
  b.param(laneSize, s[lane]);
  b.param("elem_bytes", elemBytes);
  b.param("sms", gpu.multiprocessors);
  // Channels a thread: vectors of up to 16 bytes (one global load each);
  // the widest is the default.
  std::vector<int64_t> vectors;
  for (int64_t v : {1, 2, 4, 8, 16})
    if (v * elemBytes <= 16 && s[lane] % v == 0)
      vectors.push_back(v);
  b.knob("vector", vectors, vectors.back());
  // Output columns a thread (a ragged last group is clamped): at most the
  // row's width.
  std::vector<int64_t> outputs;
  for (int64_t v : {1, 2, 4})
    if (v == 1 || (out >= 0 && v <= s[out]))
      outputs.push_back(v);
  b.knob("outputs", outputs, 1);
  // Blocks of 256 threads, fewer where that leaves under two blocks an SM
  // (MobileNet's late layers at batch 1: 7 x 7 x 960 outputs).
  int64_t items = 1;
  for (int64_t i : parallel)
    items *= s[i];
  items /= vectors.back();
  int64_t preferThreads = 256;
  while (preferThreads > 64 && llvm::divideCeil(items, preferThreads) < 2 * gpu.multiprocessors)
    preferThreads /= 2;
  b.knob("block_threads", {32, 64, 128, 256, 512}, preferThreads);
  b.require(laneSize + " % vector == 0");
  b.require("vector * elem_bytes <= 16");
  auto T = TileEntry::of;
  auto C = TileEntry::fixed;
  // A thread's tile: its outputs and channels, the whole window.
  for (int64_t i = 0; i < rank; ++i)
    plan.cacheTiles.push_back(i == lane  ? T("vector")
                              : i == out ? T("outputs")
                                         : C(loops.reduction[i] ? 0 : 1));
  plan.registerTiles = plan.cacheTiles;
  // The outputs' loop may end in a partial group.
  plan.parallelDim = out >= 0 ? out : lane;
  return withSpace(std::move(plan), b, whyNot);
}

/// The space of a row kernel (GpuRowReduction.h): the first row reduction
/// of a run (softmax's max, layer norm's mean) chooses the frame of the
/// kernel its run becomes: lanes a row, rows a block and the widest vector
/// a lane takes. Later reductions of the run get no space (the kernel
/// takes the first one's frame).
static FailureOr<SchedulePlan> buildGpuRowPlan(linalg::LinalgOp op, const std::string &kind,
                                               const OpLoops &loops, std::string &whyNot) {
  if (std::string why = whyNotGpuRowReductionOp(op); !why.empty()) {
    whyNot = "no GPU schedule for this op: " + why;
    return failure();
  }
  if (linalg::LinalgOp earlier = getEarlierRowReductionOfRun(op)) {
    whyNot = "its row kernel takes the frame of the reduction before it over the same rows";
    return failure();
  }
  SchedulePlan plan = startGpuPlan(kind, loops);
  const auto &s = loops.sizes;
  int64_t rank = s.size();
  for (int64_t i = 0; i < rank; ++i)
    plan.loopNames.push_back("d" + std::to_string(i));
  int64_t rowLength = s.back(), rows = 1;
  for (int64_t i = 0; i + 1 < rank; ++i)
    rows *= s[i];
  // The widest element moving along the row sets the vectors' lengths (as
  // the kernel's chooseVector has it: an f16 softmax accumulating in f32
  // takes 8 halves at once).
  int64_t elemBytes = 1;
  unsigned rowDim = rank - 1;
  for (OpOperand &operand : op->getOpOperands()) {
    Type element = getElementTypeOrSelf(operand.get().getType());
    if (element.isIntOrFloat() && op.getMatchingIndexingMap(&operand).isFunctionOfDim(rowDim))
      elemBytes = std::max<int64_t>(elemBytes, element.getIntOrFloatBitWidth() / 8);
  }
  GpuRowTiles preferred = GpuRowTiles::getDefault(rowLength, rows, elemBytes);
  SpaceBuilder b;
  b.param("D_row", rowLength);
  b.param("rows_total", rows);
  b.param("elem_bytes", elemBytes);
  // Lanes a row: from 4 up to a warp, no more than the row rounded up
  // (more would idle).
  std::vector<int64_t> lanes;
  for (int64_t v : {4, 8, 16, 32})
    if (v <= static_cast<int64_t>(llvm::PowerOf2Ceil(rowLength)))
      lanes.push_back(v);
  b.knob("lanes", lanes, preferred.lanes);
  // Rows a block: up to 1024 threads, no more rows than the op has
  // (rounded up), at least a warp's.
  std::vector<int64_t> rowOptions;
  for (int64_t v = 1; v <= 256; v *= 2)
    if (v <= std::max<int64_t>(llvm::PowerOf2Ceil(rows), 8))
      rowOptions.push_back(v);
  b.knob("rows", rowOptions, preferred.rows);
  // Elements a lane takes at once: up to 16 bytes dividing the row (each
  // step may take fewer: GpuRowReduction.cpp's chooseVector).
  std::vector<int64_t> vectors;
  for (int64_t v : {1, 2, 4, 8, 16})
    if (v * elemBytes <= 16 && rowLength % v == 0)
      vectors.push_back(v);
  b.knob("vector", vectors, std::min(preferred.vector, vectors.back()));
  b.require("lanes * rows >= 32");
  b.require("lanes * rows <= 1024");
  auto C = TileEntry::fixed;
  for (int64_t i = 0; i < rank; ++i) {
    plan.cacheTiles.push_back(C(loops.reduction[i] ? 0 : 1));
    plan.registerTiles.push_back(C(loops.reduction[i] ? 0 : 1));
  }
  plan.parallelDim = rank >= 2 ? rank - 2 : 0;
  return withSpace(std::move(plan), b, whyNot);
}

static FailureOr<SchedulePlan> buildGpuPlan(linalg::LinalgOp op, const std::string &kind,
                                            const OpLoops &loops, const GpuPlanTarget &gpu,
                                            std::string &whyNot) {
  if (kind == "depthwise_conv_2d_nhwc_hwc" || kind.rfind("pooling_nhwc", 0) == 0)
    return buildGpuWindowPlan(op, kind, loops, gpu, whyNot);
  // A reduction along the innermost loop is a row kernel's
  // (GpuRowReduction.h); others reduce columns, as windows.
  if (kind == "reduction" && !loops.reduction.back())
    return buildGpuWindowPlan(op, kind, loops, gpu, whyNot);
  if (kind == "reduction")
    return buildGpuRowPlan(op, kind, loops, whyNot);
  if (kind != "matmul" && kind != "batch_matmul") {
    whyNot = "no GPU schedule for this op kind yet";
    return failure();
  }
  if (std::string why = whyNotGpuMatmulOp(op); !why.empty()) {
    whyNot = "no GPU schedule for this op: " + why;
    return failure();
  }
  SchedulePlan plan = startGpuPlan(kind, loops);
  bool batched = kind == "batch_matmul";
  int off = batched ? 1 : 0;
  SpaceBuilder b;
  const auto &s = loops.sizes;
  b.param("D_m", s[off]);
  b.param("D_n", s[off + 1]);
  b.param("D_k", s[off + 2]);
  int64_t elemBytes =
      getElementTypeOrSelf(op.getDpsInputs()[0].getType()).getIntOrFloatBitWidth() / 8;
  b.param("max_threads", 1024);
  b.param("smem_bytes", kStaticSharedBytes);
  b.param("elem_bytes", elemBytes);
  // Defaults: 128x128 blocks of 256 threads with 8x8 register tiles when
  // the grid still has a block for every SM, smaller blocks otherwise
  // (wave quantisation matters more than reuse on small problems).
  b.param("sms", gpu.multiprocessors);
  int64_t batch = batched ? s[0] : 1;
  int64_t m = s[off], n = s[off + 1];
  bool large = batch * (m / 128) * (n / 128) >= gpu.multiprocessors;
  int64_t preferBlock = large ? 128 : 64, preferThread = large ? 8 : 4;
  // Tensor cores where the op may use them (f16 inputs, or f32 with
  // the TF32 opt-in): then they are the default, with warps of 64x64 (large)
  // or 32x32 C tiles, 4 warps a block.
  Type inType = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  bool mmaAvailable = whyNotGpuMatmulMma(op).empty();
  int64_t mmaK = getMmaK(inType);
  int64_t preferWarp = large ? 64 : 32;
  // Warpgroup MMA (GpuWarpgroupMatmul.h) for f16 and, as TF32, f32 on
  // compute capability 9.0: warpgroups of 128 threads own warp_m (64 or
  // 128) rows and all block_n columns, k slices of 128 bytes (64 f16, 32
  // f32) come by TMA. Offered only where the TMA can surely read A and B (a
  // view it cannot take would fail to build). The default for f16 on large
  // grids of 128 x 128 blocks: on an H200 (2026-11-30, 7e305fe,
  // docs/gpu.md) two warpgroups of 64 rows ran the large bench shapes at
  // 1.00-1.04x cuBLAS, where the mma.sync default ran at 0.48-0.72x. TF32
  // (which reads B transposed) is offered to the tuner, which checks each
  // result, but is no default until a GPU has measured it.
  bool warpgroupInputs = inType.isF16() || inType.isF32();
  bool tensorMapsRead = gpu.tensorMapsReadOperands.value_or(
      mmaAvailable && warpgroupInputs && areGpuMatmulOperandsSurelyTensorMapReadable(op));
  int64_t warpgroupSlice = kWarpgroupSliceBytes / elemBytes;
  bool wgmmaAvailable = mmaAvailable && warpgroupInputs && gpu.computeCapability == 90 &&
                        s[off + 2] % warpgroupSlice == 0 && tensorMapsRead;
  bool wgmmaDefault =
      wgmmaAvailable && inType.isF16() && large && m % 128 == 0 && n % 128 == 0;
  int64_t preferTileK =
      wgmmaDefault ? 64 : mmaAvailable ? (elemBytes == 4 ? 16 : 32) : (large ? 8 : 16);
  // An M that 64 does not divide (a convolution's pixels: 14 x 14 = 196)
  // takes any block_m: the kernel's last row of blocks reads clamped rows
  // and stores only those inside (no padded copy of A). Other Ms keep the
  // dividing tiles.
  bool raggedM = m % 64 != 0;
  std::vector<int64_t> blockMs = dividing(m, {8, 16, 32, 64, 128, 256});
  if (raggedM) {
    blockMs.clear();
    for (int64_t v : {8, 16, 32, 64, 128, 256})
      if (v == 8 || v / 2 < m)
        blockMs.push_back(v);
  }
  // The default block_m of a ragged M computes at most 15% extra rows: the
  // largest such tile up to the preferred one (196 rows: 32, 12.5%; 96
  // rows: 32, exact, as when only dividing tiles were offered).
  int64_t preferBlockM = preferBlock;
  if (raggedM) {
    preferBlockM = blockMs.front();
    for (int64_t v : blockMs)
      if (v <= preferBlock && (llvm::divideCeil(m, v) * v - m) * 100 <= 15 * m)
        preferBlockM = v;
  }
  b.knob("block_m", blockMs, preferBlockM);
  b.knob("block_n", dividing(n, {8, 16, 32, 64, 128, 256}), preferBlock);
  b.knob("thread_m", {1, 2, 4, 8}, preferThread);
  b.knob("thread_n", {1, 2, 4, 8}, preferThread);
  b.knob("tile_k",
         mmaAvailable ? dividing(s[off + 2], {4, 8, 16, 32, 64})
                      : dividing(s[off + 2], {4, 8, 16, 32}),
         preferTileK);
  // 16-byte global loads: 8 elements of a 2-byte type.
  if (elemBytes == 2)
    b.knob("vector", {1, 2, 4, 8}, 8);
  else
    b.knob("vector", {1, 2, 4}, 4);
  b.knob("pad", {0, 4}, mmaAvailable ? 0 : 4);
  // Three and four stages only with tensor cores and cp.async (the copies
  // of stages - 1 slices in flight); SIMT spaces keep {1, 2}. Three are the
  // tensor-core default for large grids: on an H200 (77f8d99, docs/gpu.md)
  // they were 0-10% faster than two on every large bench shape but one
  // (TF32 4096 x 768 x 768, 3% slower), four no better than three.
  if (mmaAvailable)
    b.knob("stages", {1, 2, 3, 4}, large ? 3 : 2);
  else
    b.knob("stages", {1, 2}, 2);
  b.knob("interleave", {0, 1}, mmaAvailable ? 0 : 1);
  // Constraints of one kind of kernel hold only where mma selects it; a
  // space without tensor cores reads as the SIMT kernel's alone.
  auto simtOnly = [&](const std::string &c) {
    return mmaAvailable ? "mma == 1 || (" + c + ")" : c;
  };
  std::string simtThreads = "((block_m / thread_m) * (block_n / thread_n))";
  std::string threads = simtThreads;
  // Registers: a thread holds its accumulators, the slice it stages
  // (loaded before it is stored to shared memory) and the fragments ptxas
  // hoists out of the unrolled k slice (about half of them), plus ~40 for
  // addresses; this must fit the 255 a thread may have and the 64K of an
  // SM for one block. Sampled configurations beyond these bounds spilled
  // (dltune-lower-gpu-sweep.mlir). With mma: a lane's share of the warp's
  // accumulators, one k step's A and B fragments, the staged slice.
  std::string registers = "(thread_m * thread_n + tile_k * (thread_m + thread_n) / 2 + "
                          "(block_m + block_n) * tile_k / " + threads + " + 40)";
  if (mmaAvailable) {
    b.knob("mma", {0, 1}, 1);
    b.knob("warp_m", {16, 32, 64, 128}, preferWarp);
    // 256 (block_n 256, one m64n256 wgmma a k step) only with wgmma: the
    // 128 x 256 tiles Hopper's GEMMs commonly use.
    b.knob("warp_n",
           wgmmaAvailable ? std::vector<int64_t>{8, 16, 32, 64, 128, 256}
                          : std::vector<int64_t>{8, 16, 32, 64, 128},
           wgmmaDefault ? 128 : preferWarp);
    if (wgmmaAvailable)
      b.require("warp_n <= 128 || wgmma == 1");
    // cp.async copies (tensor-core kernel only).
    b.knob("async_copy", {0, 1}, 1);
    b.require("mma == 1 || async_copy == 0");
    b.require("async_copy == 0 || vector * elem_bytes >= 4");
    b.param("mma_k", mmaK);
    b.param("mma_pad_a", getMmaPadA(elemBytes));
    // With wgmma (f16 and f32, below): 128 threads per warp_m rows.
    std::string warpgroupThreads =
        warpgroupInputs ? " + wgmma * (128 * (block_m / warp_m) - 32 * (block_m / warp_m) * "
                         "(block_n / warp_n))"
                       : "";
    threads = "(mma * 32 * (block_m / warp_m) * (block_n / warp_n)" + warpgroupThreads +
              " + (1 - mma) * " + simtThreads + ")";
    // cp.async copies hold no staged slice in registers.
    // With wgmma: warp_m x block_n / 128 accumulators a thread.
    std::string warpgroupRegisters =
        warpgroupInputs ? " - wgmma * (warp_m * warp_n / 32 + warp_m / 4 + warp_n / 4 - "
                         "warp_m * warp_n / 128)"
                       : "";
    registers = "(mma * (warp_m * warp_n / 32 + warp_m / 4 + warp_n / 4)" + warpgroupRegisters +
                " + (1 - mma) * "
                "(thread_m * thread_n + tile_k * (thread_m + thread_n) / 2) + (1 - async_copy) * "
                "(block_m + block_n) * tile_k * elem_bytes / (4 * " + threads + ") + 40)";
    // Knobs one kind of kernel does not read keep their default, so that
    // no two configurations build the same kernel.
    b.require("mma == 1 || (warp_m == " + std::to_string(preferWarp) +
              " && warp_n == " + std::to_string(preferWarp) + ")");
    b.require("mma == 0 || (thread_m == " + std::to_string(preferThread) +
              " && thread_n == " + std::to_string(preferThread) +
              " && pad == 0 && interleave == 0)");
    b.require("mma == 0 || (block_m % warp_m == 0 && block_n % warp_n == 0 && "
              "tile_k % mma_k == 0)");
    // Tensor-core tiles above 48 KiB live in dynamic shared memory, up to
    // what a block may opt into (compute capability 9.0; 128 bytes for
    // aligning B's tile behind A's).
    b.param("smem_optin_bytes", kMaxSharedBytesOptIn);
    b.require(std::string(warpgroupInputs ? "wgmma == 1 || " : "") +
              "mma == 0 || stages * elem_bytes * (block_m * (tile_k + mma_pad_a) + "
              "tile_k * (block_n + " + std::to_string(kMmaPadB) + ")) + 128 <= smem_optin_bytes");
    b.require("stages <= 2 || (mma == 1 && async_copy == 1)");
    // More stages than slices build the same kernel as one more than slices.
    b.require("stages <= D_k / tile_k + 1");
  }
  // Warpgroup MMA where the device has it (wgmmaDefault, above).
  if (mmaAvailable && warpgroupInputs) {
    b.param("cc", gpu.computeCapability);
    if (!tensorMapsRead)
      b.param("tma", 0);
    b.knob("wgmma", wgmmaAvailable ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0},
           wgmmaDefault ? 1 : 0);
    if (wgmmaAvailable) {
      // Knobs the kernel does not read (vector, async_copy) keep their
      // largest value; the f16 kernel's accumulator store (MLIR's) pairs
      // warp_m 128 with block_n 128 only.
      std::string slice = std::to_string(warpgroupSlice);
      b.require("wgmma == 0 || (D_m % block_m == 0 && mma == 1 && tile_k == " + slice +
                " && async_copy == 1 && vector == " + std::to_string(16 / elemBytes) +
                " && (warp_m == 64 || warp_m == 128) && block_m % warp_m == 0 && "
                "warp_n == block_n && block_n % " + slice + " == 0 && "
                "warp_m * block_n <= 16384" +
                (inType.isF16() ? " && (warp_m == 64 || block_n == 128))" : ")"));
      b.require("wgmma == 0 || stages * (block_m * 128 + tile_k * block_n * elem_bytes) + 1024 "
                "<= smem_optin_bytes");
      b.require("wgmma == 0 || block_m * (block_n + 8) * 4 + 1024 <= smem_optin_bytes");
    }
  }
  // Split-K (GpuSplitK.h) where C has fewer 64 x 64 tiles than the GPU has
  // SMs and K is long: slices of K in blocks of their own, summed by a
  // second kernel. The default doubles the slices while the default blocks
  // are fewer than two an SM, up to 8 slices of at least 512: on an H200
  // (2026-11-30, 7e305fe, docs/gpu.md) 8 slices ran ResNet-18's 49 x 512 x
  // 4608 and 64 x 512 x 4608 GEMMs 2.7x and 4.3x faster than none (0.95x
  // and 1.40x cuBLAS), 2 and 4 in between; the rule gives what 48 trials
  // of tuning ResNet-18 at batch 1 chose for 6 of its 8 such tasks (256 in
  // place of 512: 1 of 8).
  int64_t cTiles = batch * llvm::divideCeil(m, 64) * llvm::divideCeil(n, 64);
  if (!batched && cTiles < gpu.multiprocessors && s[off + 2] >= 512) {
    int64_t k = s[off + 2], preferSplitK = 1;
    // The default block_n: the preferred one, or the largest dividing
    // tile below it (N = 1000: 8).
    std::vector<int64_t> blockNs = dividing(n, {8, 16, 32, 64, 128, 256});
    int64_t defaultBlockN = blockNs.empty() ? preferBlock : blockNs.front();
    for (int64_t v : blockNs)
      if (v <= preferBlock)
        defaultBlockN = v;
    int64_t defaultBlocks = llvm::divideCeil(m, preferBlockM) * (n / defaultBlockN);
    while (!wgmmaDefault && preferSplitK < 8 &&
           defaultBlocks * preferSplitK < 2 * gpu.multiprocessors &&
           k / (2 * preferSplitK) >= 512 && k % (2 * preferSplitK * preferTileK) == 0)
      preferSplitK *= 2;
    b.knob("split_k", {1, 2, 4, 8, 16}, preferSplitK);
    b.require("D_k % (split_k * tile_k) == 0");
    if (wgmmaAvailable)
      b.require("wgmma == 0 || split_k == 1");
    // Slices of at least two tile_k steps.
    b.require("D_k >= 2 * split_k * tile_k");
  }
  if (!raggedM)
    b.require("D_m % block_m == 0");
  b.require("D_n % block_n == 0");
  b.require("D_k % tile_k == 0");
  if (mmaAvailable)
    b.require(simtOnly("block_m % thread_m == 0 && block_n % thread_n == 0"));
  else {
    b.require("block_m % thread_m == 0");
    b.require("block_n % thread_n == 0");
  }
  b.require(threads + " <= max_threads");
  b.require(threads + " >= 32");
  b.require("tile_k % vector == 0");
  b.require("block_n % vector == 0");
  b.require("(block_m * tile_k) % (vector * " + threads + ") == 0");
  b.require("(block_n * tile_k) % (vector * " + threads + ") == 0");
  b.require(simtOnly("stages * tile_k * (block_m + block_n + 2 * pad) * elem_bytes <= smem_bytes"));
  b.require("thread_m * thread_n <= 64");
  b.require(simtOnly("(block_m + block_n) * tile_k <= 32 * " + simtThreads));
  b.require(registers + " <= 255");
  b.require(threads + " * " + registers + " <= 65536");
  // A SIMT thread whose rows straddle a ragged M's end (M % thread_m != 0)
  // guards its rows apart, and ptxas then holds all of the unrolled k
  // slice's fragments, not about half: on 49 x 4608 x 512 (sm_90), 4 x 4
  // threads with tile_k 32 used 255 registers and spilled 136-252 bytes
  // where 64 or 100 rows (a multiple of thread_m) used 96-138; tile_k 16
  // used 154; 512 such threads (64 x 128, tile_k 16, capped at 128
  // registers) spilled 136.
  if (raggedM) {
    std::string straddling = "(thread_m * thread_n + tile_k * (thread_m + thread_n) + "
                             "(block_m + block_n) * tile_k / " + simtThreads + " + 40)";
    b.require(simtOnly("D_m % thread_m == 0 || " + straddling + " <= 255"));
    b.require(simtOnly("D_m % thread_m == 0 || " + simtThreads + " * " + straddling +
                       " <= 65536"));
    // With a ragged M, split-K slices of only two tile_k steps are unrolled
    // whole: both steps' fragments are live (split_k 8 of K = 512, tile_k
    // 32: 255 registers and spills with 2 x 2 and 1 x 8 threads, 64-72
    // with 64 rows; four steps were not unrolled). Unsplit Ks are not
    // measured: not constrained.
    if (cTiles < gpu.multiprocessors && !batched && s[off + 2] >= 512)
      b.require(simtOnly("split_k == 1 || D_k / (split_k * tile_k) > 2 || "
                         "(thread_m * thread_n + 2 * tile_k * (thread_m + thread_n) + "
                       "(block_m + block_n) * tile_k / " + simtThreads + " + 40) <= 255"));
  }
  if (batched)
    plan.loopNames.push_back("b");
  plan.loopNames.append({"m", "n", "k"});
  auto T = TileEntry::of;
  auto C = TileEntry::fixed;
  if (batched) {
    plan.cacheTiles.push_back(C(1));
    plan.registerTiles.push_back(C(0));
  }
  plan.cacheTiles.append({T("block_m"), T("block_n"), T("tile_k")});
  plan.registerTiles.append({T("thread_m"), T("thread_n"), C(0)});
  plan.parallelDim = off;
  return withSpace(std::move(plan), b, whyNot);
}

int64_t CpuTarget::resolveThreads(int64_t requested) {
  return requested > 0 ? requested
                       : std::max<int64_t>(1, std::thread::hardware_concurrency());
}

CpuTarget CpuTarget::getHost(int64_t maxThreads) {
  // Read once: the annotate pass asks for every op.
  static const HostCpu host = HostCpu::detect();
  CpuTarget t;
  t.maxThreads = maxThreads;
  t.lanes = host.getF32Lanes();
  t.vectorRegisters = host.getVectorRegisters();
  if (host.l1dBytes > 0)
    t.l1Bytes = host.l1dBytes;
  if (host.l2Bytes > 0)
    t.l2Bytes = host.l2Bytes;
  return t;
}

int64_t GpuPlanTarget::getComputeCapabilityOfChip(StringRef chip) {
  int64_t cc = 0;
  if (!chip.consume_front("sm_"))
    return 0;
  chip.consume_back("a");
  if (chip.getAsInteger(10, cc) || cc <= 0)
    return 0;
  return cc;
}

GpuPlanTarget GpuPlanTarget::fromSpace(const SearchSpace &space) {
  GpuPlanTarget t;
  for (const auto &[name, value] : space.getParams())
    if (name == "sms" && value > 0)
      t.multiprocessors = value;
    else if (name == "cc" && value > 0)
      t.computeCapability = value;
    else if (name == "tma")
      t.tensorMapsReadOperands = value != 0;
  return t;
}

FailureOr<SchedulePlan> mlir::dltune::buildSchedulePlan(linalg::LinalgOp op,
                                                        ScheduleTarget target,
                                                        int64_t maxThreads,
                                                        std::string &whyNot,
                                                        const GpuPlanTarget &gpu) {
  return buildSchedulePlan(op, target, CpuTarget::getHost(maxThreads), whyNot, gpu);
}

FailureOr<SchedulePlan> mlir::dltune::buildSchedulePlan(linalg::LinalgOp op,
                                                        ScheduleTarget target,
                                                        const CpuTarget &cpu,
                                                        std::string &whyNot,
                                                        const GpuPlanTarget &gpu) {
  StringRef name = op->getName().getStringRef();
  std::string kind;
  if (name.consume_front("linalg.") &&
      (name == "matmul" || name == "batch_matmul" ||
       name == "conv_2d_nhwc_hwcf" || name == "conv_2d_nchw_fchw" ||
       name == "depthwise_conv_2d_nhwc_hwc" || name == "pooling_nhwc_sum" ||
       name == "pooling_nhwc_max" || name == "pooling_nhwc_min"))
    kind = name.str();
  else if (isElementwiseGeneric(op))
    kind = "elementwise";
  else if (isReductionGeneric(op))
    kind = "reduction";
  else {
    whyNot = "op kind is not supported";
    return failure();
  }
  if (!op.hasPureTensorSemantics()) {
    whyNot = "op is not on tensors";
    return failure();
  }
  OpLoops loops;
  if (failed(getStaticLoops(op, loops, whyNot)))
    return failure();
  FailureOr<SchedulePlan> plan =
      target == ScheduleTarget::GPU
          ? buildGpuPlan(op, kind, loops, gpu, whyNot)
          : buildCpuPlan(kind, loops, cpu, whyNot);
  if (failed(plan))
    return failure();
  for (AffineMap map : op.getIndexingMapsArray()) {
    std::vector<int> dims;
    for (unsigned d = 0; d < map.getNumDims(); ++d)
      if (map.isFunctionOfDim(d))
        dims.push_back(static_cast<int>(d));
    plan->operandLoops.push_back(std::move(dims));
  }
  plan->isReduction.assign(loops.reduction.begin(), loops.reduction.end());
  // Packing copies a transposed operand's panels in its own layout, which
  // the register loops then read with a stride: pack by default only
  // operands in (m, k) and (k, n) order.
  if (plan->namedContraction && target == ScheduleTarget::CPU) {
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    unsigned m = maps[0].getNumDims() - 3;
    auto inOrder = [&](AffineMap map, unsigned outer, unsigned inner) {
      unsigned r = map.getNumResults();
      return r >= 2 && map.getResult(r - 2) == getAffineDimExpr(outer, op->getContext()) &&
             map.getResult(r - 1) == getAffineDimExpr(inner, op->getContext());
    };
    if (!inOrder(maps[0], m, m + 2))
      plan->preferred["pack_a"] = 0;
    if (!inOrder(maps[1], m + 2, m + 1))
      plan->preferred["pack_b"] = 0;
  }
  if (auto shaped = dyn_cast<ShapedType>(op->getOperand(0).getType()))
    plan->elementBytes = std::max<int64_t>(1, shaped.getElementTypeBitWidth() / 8);
  Builder builder(op->getContext());
  for (Value operand : op->getOperands()) {
    plan->operandZeros.push_back(builder.getZeroAttr(getElementTypeOrSelf(operand.getType())));
    SplatElementsAttr splat;
    plan->splatOperands.push_back(matchPattern(operand, m_Constant(&splat)));
  }
  return plan;
}

ScheduleShape mlir::dltune::getScheduleShape(const SchedulePlan &plan, double flops,
                                             double bytes) {
  ScheduleShape s;
  s.opKind = plan.opKind;
  s.loopSizes.assign(plan.loopSizes.begin(), plan.loopSizes.end());
  s.isReduction = plan.isReduction;
  for (const TileEntry &e : plan.cacheTiles) {
    s.cacheTile.push_back(e.knob);
    s.cacheConst.push_back(e.constant);
  }
  for (const TileEntry &e : plan.registerTiles) {
    s.registerTile.push_back(e.knob);
    s.registerConst.push_back(e.constant);
  }
  s.parallelDim = plan.parallelDim;
  s.operandLoops = plan.operandLoops;
  s.elementBytes = plan.elementBytes;
  s.flops = flops;
  s.bytes = bytes;
  return s;
}

std::optional<Config> SchedulePlan::getDefaultConfig() const {
  // Log2 distance to the preferred value of each knob; ties go to the
  // earlier-enumerated (smaller) config. Enumeration is bounded. The
  // thread count comes first: a config on fewer threads than preferred is
  // taken only where none on more fits (the tile distances alone traded a
  // core for a tile size: ResNet-18's 16 x 16 x 512 x 512 Winograd GEMM
  // and SqueezeNet's 27-wide 1x1 convs ran on one of two threads).
  std::optional<Config> best;
  double bestDistance = INFINITY;
  uint64_t visited = 0;
  // 0 (an "off" switch) sits one step below 1.
  auto lg = [](int64_t v) {
    return v <= 0 ? -1.0 : std::log2(static_cast<double>(v));
  };
  llvm::ArrayRef<Knob> knobs = space.getKnobs();
  std::vector<double> target(knobs.size());
  std::vector<double> weight(knobs.size(), 1.0);
  for (size_t i = 0; i < knobs.size(); ++i) {
    auto it = preferred.find(knobs[i].name);
    target[i] = lg(it == preferred.end() ? knobs[i].values.front() : it->second);
    if (knobs[i].name == "threads")
      weight[i] = 1e6;
  }
  space.enumerate([&](const Config &c) {
    double d = 0;
    for (size_t i = 0; i < c.size(); ++i) {
      double delta = lg(c[i]) - target[i];
      d += weight[i] * delta * delta;
    }
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
    return ++visited < 20'000'000;
  });
  return best;
}
