//===- SchedulePlan.cpp - Default spaces and plans for linalg ops ---------===//

#include "dltune/Transforms/SchedulePlan.h"
#include "dltune/Transforms/EpilogueFusion.h"

#include "dltune/Tuning/Device/HostCpu.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

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

struct OpLoops {
  SmallVector<int64_t> sizes;
  SmallVector<std::string> names;
  SmallVector<bool> reduction;
};

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
    addTiledLoop(b, "m", M, 256, 64, {1, 2, 4, 6, 8, 12, 16}, regM);
    addTiledLoop(b, "n", N, 512, tileN, {1, 4, 8, 16, 32, 48, 64}, regN);
    addTiledLoop(b, "k", K, 1024, tileK, {}, 1);
    b.knob("unroll", {1, 2, 4, 8}, unroll);
    b.require("tile_k % unroll == 0");
    b.knob("pack_a", {0, 1}, packByDefault ? 1 : 0);
    b.knob("pack_b", {0, 1}, packByDefault ? 1 : 0);
    b.param("max_acc", 512);
    b.require("reg_m * reg_n <= max_acc");
    // Threads split M, or N when M does not divide among them (M = 1 for a
    // classifier's final layer).
    bool splitN = M % maxThreads != 0 && N % maxThreads == 0;
    addThreads(b, splitN ? "n" : "m", maxThreads, maxThreads);
    plan.parallelDim = off + (splitN ? 1 : 0);
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
    // vectors by up to 5 pixels, unless the row count that divides the
    // width is small (7x7 maps: 7 divides, 2 and 4 do not): then one vector
    // by more pixels holds more accumulators (7x1 beats 1x2).
    // Odd widths (SqueezeNet's 27 and 13) need odd row counts: 9 or 13 rows
    // of one vector (as many as the registers hold) rather than 1; widths
    // of 5 x 11 (55) take 5 rows of two vectors (measured: 93 GFLOP/s
    // against 30 with one row and 81 with 11 rows of one vector).
    const std::initializer_list<int64_t> rowCounts = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 14};
    std::vector<int64_t> owOptions = dividing(s[2], rowCounts), upToFive;
    for (int64_t rows : owOptions)
      if (rows <= 5)
        upToFive.push_back(rows);
    int64_t regOW = pickRegisterRows(upToFive, 2, cpu);
    int64_t regF = 2 * cpu.lanes;
    int64_t singleRows = pickRegisterRows(owOptions, 1, cpu);
    if (singleRows > 2 * regOW && regOW != 5 && s[3] % cpu.lanes == 0) {
      regOW = singleRows;
      regF = cpu.lanes;
    }
    // Partial register rows: a row count that does not divide the width
    // leaves a last, shorter register tile, which the packed schedule pads
    // to full size (emitPackedRegisterTiles), so it needs pack_f = 1. The
    // pad copies the tile's input window each time, so it pays only where
    // no divisor gives 3 rows or more (a prime width such as SqueezeNet's
    // 109: 4 rows of two vectors run its 7x7 stem 1.6x faster than 1 row;
    // 14 = 4 + 4 + 4 + 2 padded ran 1.7x slower than 7 rows of one vector).
    std::vector<int64_t> regOWOptions = owOptions;
    const int64_t partialRows = 4;
    if (s[2] > partialRows && s[2] % partialRows != 0) {
      regOWOptions.push_back(partialRows);
      std::sort(regOWOptions.begin(), regOWOptions.end());
      if (regOW < 3 && singleRows < 3) {
        regOW = partialRows;
        regF = 2 * cpu.lanes;
      }
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
    b.require("tile_ow % reg_ow == 0 || (pack_f == 1 && reg_ow < tile_ow && tile_ow == D_ow)");
    addTiledLoop(b, "f", s[3], 512, 64, {1, 4, 8, 16, 32, 64}, regF);
    addTiledLoop(b, "c", s[6], 512, 64, {1, 2, 4, 8}, 1);
    // The channel loop inside the register tile is unrolled by 4 where the
    // channel tile allows: one loop branch per 4 steps of reg_ow broadcasts
    // and reg_f / lanes filter loads (measured 1.03-1.3x on ResNet-18's
    // 3x3 convs against no unrolling, bench/README.md, ninth session).
    b.knob("unroll", {1, 2, 4}, 4);
    b.require("(tile_c / reg_c) % unroll == 0");
    // Filter packing (emitPackedRegisterTiles): unpacked, a register tile
    // reads filter rows F floats apart.
    b.knob("pack_f", {0, 1}, 1);
    b.param("max_acc", 512);
    b.require("reg_ow * reg_f <= max_acc");
    // Threads split the output rows, or the filters when the rows do not
    // divide among them (7 rows, 2 threads).
    bool splitF = s[1] % maxThreads != 0 && s[3] % maxThreads == 0;
    addThreads(b, splitF ? "f" : "oh", maxThreads, maxThreads);
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

  llvm::Expected<SearchSpace> space =
      SearchSpace::create(b.knobs, b.params, b.constraints);
  if (!space) {
    whyNot = llvm::toString(space.takeError());
    return failure();
  }
  plan.space = std::move(*space);
  plan.preferred = b.preferred;
  return plan;
}

static FailureOr<SchedulePlan> buildGpuPlan(const std::string &kind,
                                            const OpLoops &loops,
                                            std::string &whyNot) {
  if (kind != "matmul" && kind != "batch_matmul") {
    whyNot = "no GPU schedule for this op kind yet";
    return failure();
  }
  SchedulePlan plan;
  plan.target = ScheduleTarget::GPU;
  plan.opKind = kind;
  plan.loopSizes = loops.sizes;
  bool batched = kind == "batch_matmul";
  int off = batched ? 1 : 0;
  SpaceBuilder b;
  const auto &s = loops.sizes;
  b.param("D_m", s[off]);
  b.param("D_n", s[off + 1]);
  b.param("D_k", s[off + 2]);
  b.param("max_threads", 1024);
  b.param("smem_bytes", 49152);
  b.param("elem_bytes", 4);
  b.knob("block_m", dividing(s[off], {8, 16, 32, 64, 128, 256}), 64);
  b.knob("block_n", dividing(s[off + 1], {8, 16, 32, 64, 128, 256}), 64);
  b.knob("thread_m", {1, 2, 4, 8}, 4);
  b.knob("thread_n", {1, 2, 4, 8}, 4);
  b.knob("tile_k", dividing(s[off + 2], {4, 8, 16, 32, 64}), 16);
  b.knob("promote", {0, 1}, 0);
  b.knob("unroll", {1, 2, 4}, 1);
  b.require("D_m % block_m == 0");
  b.require("D_n % block_n == 0");
  b.require("D_k % tile_k == 0");
  b.require("block_m % thread_m == 0");
  b.require("block_n % thread_n == 0");
  b.require("(block_m / thread_m) * (block_n / thread_n) <= max_threads");
  b.require("(block_m / thread_m) * (block_n / thread_n) >= 32");
  b.require("promote * (block_m + block_n) * tile_k * elem_bytes <= smem_bytes");
  b.require("tile_k % unroll == 0");
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
  llvm::Expected<SearchSpace> space =
      SearchSpace::create(b.knobs, b.params, b.constraints);
  if (!space) {
    whyNot = llvm::toString(space.takeError());
    return failure();
  }
  plan.space = std::move(*space);
  plan.preferred = b.preferred;
  return plan;
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

FailureOr<SchedulePlan> mlir::dltune::buildSchedulePlan(linalg::LinalgOp op,
                                                        ScheduleTarget target,
                                                        int64_t maxThreads,
                                                        std::string &whyNot) {
  return buildSchedulePlan(op, target, CpuTarget::getHost(maxThreads), whyNot);
}

FailureOr<SchedulePlan> mlir::dltune::buildSchedulePlan(linalg::LinalgOp op,
                                                        ScheduleTarget target,
                                                        const CpuTarget &cpu,
                                                        std::string &whyNot) {
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
          ? buildGpuPlan(kind, loops, whyNot)
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
    std::string text;
    llvm::raw_string_ostream os(text);
    os << builder.getZeroAttr(getElementTypeOrSelf(operand.getType()));
    plan->operandZeros.push_back(text);
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
  // earlier-enumerated (smaller) config. Enumeration is bounded.
  std::optional<Config> best;
  double bestDistance = INFINITY;
  uint64_t visited = 0;
  // 0 (an "off" switch) sits one step below 1.
  auto lg = [](int64_t v) {
    return v <= 0 ? -1.0 : std::log2(static_cast<double>(v));
  };
  llvm::ArrayRef<Knob> knobs = space.getKnobs();
  std::vector<double> target(knobs.size());
  for (size_t i = 0; i < knobs.size(); ++i) {
    auto it = preferred.find(knobs[i].name);
    target[i] = lg(it == preferred.end() ? knobs[i].values.front() : it->second);
  }
  space.enumerate([&](const Config &c) {
    double d = 0;
    for (size_t i = 0; i < c.size(); ++i) {
      double delta = lg(c[i]) - target[i];
      d += delta * delta;
    }
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
    return ++visited < 20'000'000;
  });
  return best;
}

//===----------------------------------------------------------------------===//
// Transform script generation
//===----------------------------------------------------------------------===//

namespace {
struct ScriptWriter {
  std::string text;
  llvm::raw_string_ostream os{text};
  int counter = 0;
  std::string fresh(const char *prefix) {
    return "%" + std::string(prefix) + std::to_string(counter++);
  }
};
} // namespace

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

static std::string joinTiles(ArrayRef<int64_t> tiles) {
  std::string s = "[";
  for (size_t i = 0; i < tiles.size(); ++i)
    s += (i ? ", " : "") + std::to_string(tiles[i]);
  return s + "]";
}

/// Emits a tile_using_for; returns the tiled op handle and loop handles
/// (outermost first; `interchange`, if given, orders the loops).
static std::string emitTileFor(ScriptWriter &w, const std::string &target,
                               ArrayRef<int64_t> tiles,
                               SmallVectorImpl<std::string> &loops,
                               ArrayRef<int64_t> interchange = {}) {
  int numLoops = llvm::count_if(tiles, [](int64_t t) { return t != 0; });
  std::string tiled = w.fresh("tiled");
  if (numLoops == 0)
    return target;
  std::string loopVar = w.fresh("loops");
  w.os << "    " << tiled << ", " << loopVar << ":" << numLoops
       << " = transform.structured.tile_using_for " << target << " tile_sizes "
       << joinTiles(tiles);
  if (!interchange.empty())
    w.os << " interchange = " << joinTiles(interchange);
  w.os << " : (!transform.any_op) -> (!transform.any_op";
  for (int i = 0; i < numLoops; ++i)
    w.os << ", !transform.any_op";
  w.os << ")\n";
  for (int i = 0; i < numLoops; ++i)
    loops.push_back(loopVar + "#" + std::to_string(i));
  return tiled;
}

/// The per-thread tile of each loop for `threads` threads (0: not split).
static SmallVector<int64_t> getThreadTiles(const SchedulePlan &plan, ArrayRef<int64_t> cache,
                                           int64_t threads, bool packed) {
  SmallVector<int64_t> forall(plan.loopSizes.size(), 0);
  forall[plan.parallelDim] = plan.loopSizes[plan.parallelDim] / threads;
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

/// Tiles `op` into an scf.forall with `tiles` and fixes its team size;
/// returns the tiled op and sets `loop` to the forall.
static std::string emitThreadForall(ScriptWriter &w, const std::string &op,
                                    ArrayRef<int64_t> tiles, int64_t threads,
                                    std::string &loop) {
  std::string tiled = w.fresh("par");
  loop = w.fresh("forall");
  w.os << "    " << tiled << ", " << loop << " = transform.structured.tile_using_forall " << op
       << " tile_sizes " << joinTiles(tiles)
       << " : (!transform.any_op) -> (!transform.any_op, !transform.any_op)\n";
  // The team size travels with the loop down to its omp.parallel
  // (dltune-forall-to-openmp), so OMP_NUM_THREADS cannot change it.
  std::string count = w.fresh("nthreads");
  w.os << "    " << count << " = transform.param.constant " << threads
       << " : i64 -> !transform.param<i64>\n";
  w.os << "    transform.annotate " << loop << " \"dltune.num_threads\" = " << count
       << " : !transform.any_op, !transform.param<i64>\n";
  return tiled;
}

/// Decomposes and vectorizes the (register-tiled) root and the epilogue
/// tile if any, lowers contractions to FMAs, keeps accumulators in
/// registers across the register loops and unrolls the innermost one.
static void emitVectorizeAndFinish(ScriptWriter &w, const SchedulePlan &plan,
                                   const std::map<std::string, int64_t> &values,
                                   std::string op, ArrayRef<std::string> regLoops,
                                   const std::string &epilogue) {
  bool vectorize = !values.count("vectorize") || values.at("vectorize") != 0;
  if (plan.decompose) {
    std::string dec = w.fresh("dec");
    w.os << "    " << dec << " = transform.structured.decompose " << op
         << " : (!transform.any_op) -> !transform.any_op\n";
    op = dec;
  }
  if (vectorize) {
    w.os << "    transform.structured.vectorize " << op
         << (plan.namedContraction ? " {create_named_contraction}" : "")
         << " : !transform.any_op\n";
    if (!epilogue.empty())
      w.os << "    transform.structured.vectorize " << epilogue << " : !transform.any_op\n";
    // Reductions (kind "reduction") vectorize to vector.multi_reduction,
    // which the LLVM conversion does not take: with the vector loop a
    // reduction, each register tile becomes a vector.reduction; with it
    // parallel (a global pool over channels), elementwise vector adds.
    bool innerParallel = !plan.isReduction.empty() && !plan.isReduction.back();
    w.os << "    transform.apply_patterns to %root {\n"
            "      transform.apply_patterns.vector.lower_contraction "
            "lowering_strategy = \"outerproduct\"\n"
            "      transform.apply_patterns.vector.lower_outerproduct\n"
            "      transform.apply_patterns.vector.lower_multi_reduction "
            "lowering_strategy = \""
         << (innerParallel ? "innerparallel" : "innerreduction") << "\"\n"
            "    } : !transform.any_op\n";
    // Canonicalization in its own block: with shape_cast lowering in the
    // same block it can loop without bound.
    w.os << "    transform.apply_patterns to %root {\n"
            "      transform.apply_patterns.canonicalization\n"
            "    } : !transform.any_op\n";
  }
  // Keep the accumulator tile in registers across the innermost loops.
  for (auto it = regLoops.rbegin(); it != regLoops.rend(); ++it)
    w.os << "    transform.loop.hoist_loop_invariant_subsets " << *it
         << " : !transform.any_op\n";
  int64_t unroll = values.count("unroll") ? values.at("unroll") : 1;
  if (unroll > 1 && !regLoops.empty())
    w.os << "    transform.loop.unroll " << regLoops.back() << " {factor = "
         << unroll << "} : !transform.any_op\n";
}

/// How a plan packs operands into panels (emitPackedRegisterTiles): which
/// register loops tile the panels (the row loop streams, the column loop
/// stays: n/m of a matmul, f/ow of a convolution), and which operands are
/// packed - those marked `reused` are hoisted above the cache loops they do
/// not depend on (the block is copied once and reused across them).
struct Packing {
  int rowLoop = -1, colLoop = -1;
  struct Panel {
    int operand;
    bool reused;
  };
  SmallVector<Panel> panels;

  static Packing of(const SchedulePlan &plan, const std::map<std::string, int64_t> &values) {
    auto on = [&](const char *knob) { return values.count(knob) && values.at(knob) != 0; };
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
    return reused && llvm::is_contained(plan.operandLoops[*reused], static_cast<int>(loop));
  }
  /// An order for `count` loops (the op's own, or an epilogue's, mapped to
  /// the op's by `opLoop`): those the reused operand depends on first, so
  /// the others (matmul: m, as in BLIS's n, k, m; conv: the pixels, after
  /// f and c) run inside its block.
  SmallVector<int64_t> orderDependentFirst(const SchedulePlan &plan, size_t count,
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
  SmallVector<std::string> getIndependentLoops(const SchedulePlan &plan,
                                               ArrayRef<int64_t> order,
                                               ArrayRef<int64_t> tiles,
                                               ArrayRef<std::string> loops,
                                               function_ref<int64_t(int64_t)> opLoop) const {
    SmallVector<std::string> independent;
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

/// Whether a register tile `reg` leaves a partial last tile in a cache tile
/// `cache` (0: the whole loop of `loopSize`).
static bool leavesPartialTile(int64_t cache, int64_t reg, int64_t loopSize) {
  return reg && (cache ? cache : loopSize) % reg != 0;
}

/// Whether a cache tile splits one of the op's parallel (output) loops.
static bool tilesAnOutputLoop(const SchedulePlan &plan, ArrayRef<int64_t> cache) {
  return llvm::any_of(llvm::seq<size_t>(0, cache.size()),
                      [&](size_t i) { return !plan.isReduction[i] && cache[i] != 0; });
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
static std::string emitPackedRegisterTiles(ScriptWriter &w, const SchedulePlan &plan,
                                           std::string op, ArrayRef<int64_t> cache,
                                           ArrayRef<int64_t> reg,
                                           ArrayRef<std::string> reusedPast,
                                           const Packing &pack, bool mergeSlices,
                                           SmallVectorImpl<std::string> &regLoops) {
  size_t n = plan.loopSizes.size();
  SmallVector<int64_t> rowCol(n, 0), rest(reg.begin(), reg.end()), order;
  for (int l : {pack.rowLoop, pack.colLoop}) {
    rowCol[l] = reg[l];
    rest[l] = 0;
  }
  for (size_t i = 0; i < n; ++i)
    order.push_back(i);
  std::swap(order[pack.rowLoop], order[pack.colLoop]);
  op = emitTileFor(w, op, rowCol, regLoops, order);
  int regTiled = (rowCol[pack.rowLoop] ? 1 : 0) + (rowCol[pack.colLoop] ? 1 : 0);
  SmallVector<std::pair<int, int>> hoists; // operand, loops to hoist above
  for (const Packing::Panel &p : pack.panels) {
    // An operand that no tile so far slices is read whole and in order:
    // nothing to pack (and hoist_pad needs a slice to start from).
    bool sliced = llvm::any_of(plan.operandLoops[p.operand],
                               [&](int l) { return cache[l] || rowCol[l]; });
    int loops = regTiled + (p.reused ? static_cast<int>(reusedPast.size()) : 0);
    if (sliced && loops > 0)
      hoists.push_back({p.operand, loops});
  }
  // A partial last row tile (allowed for the packed conv, see
  // buildTransformScript) is padded to static shapes even when no operand
  // needs copying into panels (e.g. the whole filter in one block).
  bool partialRows = leavesPartialTile(cache[pack.rowLoop], reg[pack.rowLoop],
                                       plan.loopSizes[pack.rowLoop]);
  if (hoists.empty() && !partialRows)
    return emitTileFor(w, op, rest, regLoops);
  // A fused root's operand is a slice of a slice of the whole tensor; as
  // one slice its panel can be hoisted past the reduction loop too.
  if (mergeSlices)
    w.os << "    transform.apply_patterns to %root {\n"
            "      transform.apply_patterns.tensor.merge_consecutive_insert_extract_slice\n"
            "    } : !transform.any_op\n";
  std::string padded = w.fresh("padded"), pad = w.fresh("pad"), copy = w.fresh("copy");
  w.os << "    " << padded << ", " << pad << ", " << copy << " = transform.structured.pad "
       << op << " {padding_values = [";
  for (size_t i = 0; i < plan.operandZeros.size(); ++i)
    w.os << (i ? ", " : "") << plan.operandZeros[i];
  w.os << "], padding_dimensions = [";
  for (size_t i = 0; i < n; ++i)
    w.os << (i ? ", " : "") << i;
  w.os << "], nofold_flags = [";
  for (size_t i = 0; i < plan.operandZeros.size(); ++i)
    w.os << (i ? ", " : "")
         << llvm::any_of(hoists, [&](auto h) { return h.first == static_cast<int>(i); });
  w.os << "], copy_back_op = \"none\"} : (!transform.any_op) -> (!transform.any_op, "
          "!transform.any_op, !transform.any_op)\n";
  op = padded;
  // A reused block's slice is taken inside loops it does not depend on:
  // move it out for its panel copy to be hoisted past them.
  for (auto it = reusedPast.rbegin(); it != reusedPast.rend(); ++it)
    w.os << "    transform.apply_licm to " << *it << " : !transform.any_op\n";
  for (auto [operand, loops] : hoists) {
    std::string producer = w.fresh("panel");
    w.os << "    " << producer << " = transform.get_producer_of_operand " << op << "["
         << operand << "] : (!transform.any_op) -> !transform.any_op\n";
    w.os << "    " << w.fresh("hoisted") << " = transform.structured.hoist_pad " << producer
         << " by " << loops << " loops : (!transform.any_op) -> !transform.any_op\n";
  }
  return emitTileFor(w, op, rest, regLoops);
}

static void emitCpuScript(ScriptWriter &w, const SchedulePlan &plan,
                          const std::map<std::string, int64_t> &values,
                          ArrayRef<int64_t> cache, ArrayRef<int64_t> reg) {
  std::string op = "%op";
  int64_t threads = values.count("threads") ? values.at("threads") : 1;
  Packing pack = Packing::of(plan, values);
  if (threads > 1) {
    std::string loop;
    op = emitThreadForall(w, op, getThreadTiles(plan, cache, threads, pack.any()), threads,
                          loop);
  }
  SmallVector<std::string> cacheLoops, regLoops;
  if (pack.any()) {
    auto self = [](int64_t l) { return l; };
    SmallVector<int64_t> order = pack.orderDependentFirst(plan, cache.size(), self);
    op = emitTileFor(w, op, cache, cacheLoops, order);
    // The reused panel is hoisted above the cache loops it does not depend
    // on, which `order` put innermost.
    SmallVector<std::string> reusedPast;
    if (pack.getReusedOperand())
      reusedPast = pack.getIndependentLoops(plan, order, cache, cacheLoops, self);
    op = emitPackedRegisterTiles(w, plan, op, cache, reg, reusedPast, pack, false, regLoops);
  } else {
    op = emitTileFor(w, op, cache, cacheLoops);
    op = emitTileFor(w, op, reg, regLoops);
  }
  emitVectorizeAndFinish(w, plan, values, op, regLoops, "");
}

/// The CPU schedule with an elementwise epilogue: the epilogue's loops are
/// tiled (threads, then the cache tiles of the root's parallel loops) and
/// the root, with its fill, is fused into them, so each cache tile is
/// computed and finished while it is in cache. The root's reduction and
/// register tiles then apply to the fused root as without an epilogue; the
/// epilogue's tile is split into vectors along its innermost dimension.
static void emitFusedCpuScript(ScriptWriter &w, const SchedulePlan &plan,
                               const std::map<std::string, int64_t> &values,
                               ArrayRef<int64_t> cache, ArrayRef<int64_t> reg,
                               const FusedEpilogue &epilogue) {
  auto project = [&](ArrayRef<int64_t> rootTiles) {
    SmallVector<int64_t> tiles;
    for (int64_t loop : epilogue.rootLoopOfDim)
      tiles.push_back(rootTiles[loop]);
    return tiles;
  };
  std::string root = "%op", fill = epilogue.fuseFill ? "%fill" : "", tail = "%epi";
  auto fuseInto = [&](const std::string &loop) {
    for (std::string *producer : {&root, &fill}) {
      if (producer->empty())
        continue;
      std::string fused = w.fresh("fused"), container = w.fresh("container");
      w.os << "    " << fused << ", " << container
           << " = transform.structured.fuse_into_containing_op " << *producer << " into "
           << loop
           << " : (!transform.any_op, !transform.any_op) -> (!transform.any_op, "
              "!transform.any_op)\n";
      *producer = fused;
    }
  };
  size_t n = plan.loopSizes.size();
  SmallVector<int64_t> extent(plan.loopSizes.begin(), plan.loopSizes.end());
  int64_t threads = values.count("threads") ? values.at("threads") : 1;
  Packing pack = Packing::of(plan, values);
  if (threads > 1) {
    SmallVector<int64_t> forall = getThreadTiles(plan, cache, threads, pack.any());
    for (size_t i = 0; i < n; ++i)
      if (forall[i])
        extent[i] = forall[i];
    std::string loop;
    tail = emitThreadForall(w, tail, project(forall), threads, loop);
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
      if (plan.isReduction[i] || extent[i] % 2 != 0 || pack.reusedDependsOn(plan, i) ||
          reg[i] == 0 || half % reg[i] != 0 || half <= reg[i])
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
  SmallVector<std::string> tailLoops, cacheLoops, regLoops;
  bool reused = pack.getReusedOperand().has_value();
  auto rootLoop = [&](int64_t d) { return epilogue.rootLoopOfDim[d]; };
  // With a reused panel, the epilogue's loops the panel depends on go
  // first (matmul: n; conv: f), so its block is copied once per iteration
  // of those and reused across the others (m; the pixels) and the
  // reductions inside them.
  SmallVector<int64_t> tailOrder;
  if (reused)
    tailOrder = pack.orderDependentFirst(plan, epilogue.rootLoopOfDim.size(), rootLoop);
  SmallVector<int64_t> tailTiles = project(parallelCache);
  tail = emitTileFor(w, tail, tailTiles, tailLoops, tailOrder);
  if (!tailLoops.empty()) {
    fuseInto(tailLoops.back());
    root = emitTileFor(w, root, reductionCache, cacheLoops);
    if (pack.any()) {
      SmallVector<std::string> reusedPast;
      if (reused) {
        reusedPast = pack.getIndependentLoops(plan, tailOrder, tailTiles, tailLoops, rootLoop);
        // The reductions become a dimension of the packed block.
        reusedPast.append(cacheLoops.begin(), cacheLoops.end());
      }
      root = emitPackedRegisterTiles(w, plan, root, cacheTiles, reg, reusedPast, pack, true,
                                     regLoops);
    } else {
      root = emitTileFor(w, root, reg, regLoops);
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
    SmallVector<std::string> tailRegLoops;
    tail = emitTileFor(w, tail, project(parallelReg), tailRegLoops);
    if (!tailRegLoops.empty())
      fuseInto(tailRegLoops.back());
    root = emitTileFor(w, root, reductionCache, regLoops);
    root = emitTileFor(w, root, tailRegLoops.empty() ? ArrayRef<int64_t>(reg)
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
  SmallVector<std::string> tailVectorLoops;
  tail = emitTileFor(w, tail, tailVector, tailVectorLoops);
  emitVectorizeAndFinish(w, plan, values, root, regLoops, tail);
}

static void emitGpuScript(ScriptWriter &w, const SchedulePlan &plan,
                          const std::map<std::string, int64_t> &values,
                          ArrayRef<int64_t> cache, ArrayRef<int64_t> reg) {
  // Block level over the parallel loops, then the reduction loop, then the
  // thread level; scf.forall mappings are turned into gpu.launch later by
  // --dltune-lower-gpu once the IR is bufferized.
  size_t n = plan.loopSizes.size();
  SmallVector<int64_t> blockTiles(cache.begin(), cache.end());
  blockTiles[n - 1] = 0;
  SmallVector<int64_t> kTiles(n, 0);
  kTiles[n - 1] = cache[n - 1];
  bool batched = n == 4;
  std::string blockMap = batched
      ? "[#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]"
      : "[#gpu.block<y>, #gpu.block<x>]";
  blockTiles.pop_back();
  std::string t0 = w.fresh("blk"), f0 = w.fresh("forall");
  w.os << "    " << t0 << ", " << f0
       << " = transform.structured.tile_using_forall %op tile_sizes "
       << joinTiles(blockTiles) << " (mapping = " << blockMap
       << ") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)\n";
  SmallVector<std::string> kLoops;
  std::string op = emitTileFor(w, t0, kTiles, kLoops);
  // Shared-memory promotion of the block's A and B tiles, on tensors: each
  // operand of the k-tiled op gets a workgroup-memory copy
  // (bufferization.alloc_tensor + materialize_in_destination). The copies
  // are spread over the block's threads, and barriers put around them, by
  // --dltune-lower-gpu once the IR is bufferized.
  if (values.count("promote") && values.at("promote")) {
    for (int operand : {0, 1}) {
      std::string v = w.fresh("opnd"), p = w.fresh("prom");
      w.os << "    " << v << " = transform.get_operand " << op << "[" << operand
           << "] : (!transform.any_op) -> !transform.any_value\n";
      w.os << "    " << p
           << " = transform.structured.promote_tensor to "
              "#gpu.address_space<workgroup> "
           << v << " : !transform.any_value\n";
    }
  }
  SmallVector<int64_t> threadTiles;
  for (size_t i = 0; i + 1 < n; ++i)
    threadTiles.push_back(batched && i == 0 ? 0 : reg[i]);
  std::string t1 = w.fresh("thr"), f1 = w.fresh("forall");
  w.os << "    " << t1 << ", " << f1
       << " = transform.structured.tile_using_forall " << op << " tile_sizes "
       << joinTiles(threadTiles)
       << " (mapping = [#gpu.thread<y>, #gpu.thread<x>]) : "
          "(!transform.any_op) -> (!transform.any_op, !transform.any_op)\n";
  int64_t unroll = values.count("unroll") ? values.at("unroll") : 1;
  if (unroll > 1 && !kLoops.empty())
    w.os << "    transform.loop.unroll " << kLoops.back() << " {factor = "
         << unroll << "} : !transform.any_op\n";
}

FailureOr<std::string>
mlir::dltune::buildTransformScript(const SchedulePlan &plan,
                                   const std::map<std::string, int64_t> &values,
                                   std::string &error, const FusedEpilogue *epilogue) {
  SmallVector<int64_t> cache, reg;
  if (!resolveTiles(plan.cacheTiles, values, cache, error) ||
      !resolveTiles(plan.registerTiles, values, reg, error))
    return failure();
  // With filter packing, a convolution's row register loop may leave a
  // partial last tile: the packed register tile is padded to full size
  // (emitPackedRegisterTiles).
  int partialRowLoop = -1;
  if (plan.target == ScheduleTarget::CPU && plan.opKind == "conv_2d_nhwc_hwcf") {
    Packing pack = Packing::of(plan, values);
    if (pack.any())
      partialRowLoop = pack.rowLoop;
  }
  for (size_t i = 0; i < cache.size(); ++i) {
    int64_t size = plan.loopSizes[i];
    bool partialOk = static_cast<int>(i) == partialRowLoop && reg[i] < (cache[i] ? cache[i] : size);
    if (cache[i] < 0 || (cache[i] && size % cache[i]) ||
        (!partialOk && reg[i] && cache[i] && cache[i] % reg[i]) || reg[i] < 0) {
      error = "tile sizes of loop '" + plan.loopNames[i] +
              "' do not divide its extent " + std::to_string(size);
      return failure();
    }
  }
  // A tile as large as its loop makes a one-iteration loop, which
  // canonicalization folds away under the handles that track it: leave such
  // loops untiled instead.
  if (plan.target == ScheduleTarget::CPU) {
    int64_t threads = values.count("threads") ? values.at("threads") : 1;
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
  // The fused schedule pads a partial row tile only where it packs, which
  // needs a tiled output loop to fuse the root into.
  if (partialRowLoop >= 0 && epilogue &&
      leavesPartialTile(cache[partialRowLoop], reg[partialRowLoop],
                        plan.loopSizes[partialRowLoop]) &&
      !tilesAnOutputLoop(plan, cache)) {
    error = "partial register rows of loop '" + plan.loopNames[partialRowLoop] +
            "' need a cache tile that splits an output loop when an epilogue is fused";
    return failure();
  }
  ScriptWriter w;
  if (plan.target == ScheduleTarget::CPU && epilogue)
    emitFusedCpuScript(w, plan, values, cache, reg, *epilogue);
  else if (plan.target == ScheduleTarget::CPU)
    emitCpuScript(w, plan, values, cache, reg);
  else
    emitGpuScript(w, plan, values, cache, reg);
  return w.text;
}
