//===- SchedulePlan.h - How a linalg op is scheduled from knobs -*- C++ -*-===//
//
// A SchedulePlan ties an op's loops to knob names: which knob gives the
// cache-level and register-level tile of each loop, which loop is split
// across threads (CPU) or blocks (GPU), whether the op is decomposed or
// contracted before vectorization. The default search space, the default
// configuration and the schedule (ScheduleBuilder.h) are all derived from
// the plan, so the three cannot drift apart.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_SCHEDULEPLAN_H
#define DLTUNE_TRANSFORMS_SCHEDULEPLAN_H

#include "dltune/Tuning/FeatureExtractor/FeatureExtractor.h"
#include "dltune/Tuning/Space/SearchSpace.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Support/LLVM.h"

#include <map>
#include <optional>
#include <string>

namespace mlir::dltune {

enum class ScheduleTarget { CPU, GPU };

/// A tile size: a knob name or a constant (0 = do not tile this loop).
struct TileEntry {
  std::string knob;
  int64_t constant = 0;
  static TileEntry fixed(int64_t c) { return {"", c}; }
  static TileEntry of(std::string k) { return {std::move(k), 0}; }
};

struct SchedulePlan {
  ScheduleTarget target = ScheduleTarget::CPU;
  std::string opKind;             // "matmul", "conv_2d_nhwc_hwcf", ...
  SmallVector<int64_t> loopSizes; // static loop ranges
  SmallVector<std::string> loopNames;
  // CPU: thread level (parallelDim split by `threads`), cache level, register
  // level. GPU: block level (cacheTiles of parallel loops), reduction tile,
  // thread level (registerTiles).
  int parallelDim = 0;
  SmallVector<TileEntry> cacheTiles;
  SmallVector<TileEntry> registerTiles;
  bool decompose = false;        // conv/pool: to 1-D before vectorizing
  bool namedContraction = false; // vectorize to vector.contract (FMA)
  // Which loops index each operand (from the indexing maps), for features.
  std::vector<std::vector<int>> operandLoops;
  std::vector<bool> isReduction;
  int64_t elementBytes = 4;
  // Each operand's zero (0.0 : f32), the value pads are filled with.
  SmallVector<Attribute> operandZeros;
  // Operands that are splat constants (a stripped model's weights). They
  // are never packed: every panel would hold the same values, and once the
  // schedule's patterns fold a slice of one into a smaller constant,
  // hoist_pad has no slice to pack from and fails.
  std::vector<bool> splatOperands;
  // The search space with preferred values for the default config.
  SearchSpace space;
  std::map<std::string, int64_t> preferred;

  /// The configuration closest (in log2 distance) to `preferred` among the
  /// valid ones; nullopt if the space is empty.
  std::optional<Config> getDefaultConfig() const;
};

/// The plan as cost-model features see it (FLOPs and bytes from the op).
ScheduleShape getScheduleShape(const SchedulePlan &plan, double flops, double bytes);

/// What the CPU default configuration is derived from: vector width and
/// register count bound the register tile (accumulators must not spill),
/// cache sizes bound the cache tiles.
struct CpuTarget {
  int64_t maxThreads = 1;
  int lanes = 8;            // f32 lanes per vector register
  int vectorRegisters = 16; // architectural vector registers
  int64_t l1Bytes = 32 << 10, l2Bytes = 512 << 10; // per core
  /// The machine this process runs on (HostCpu), with `maxThreads`.
  static CpuTarget getHost(int64_t maxThreads);
  /// What a pass's `threads` option asks for: `requested`, or for 0 every
  /// core of this machine (at least 1).
  static int64_t resolveThreads(int64_t requested);
};

/// What the GPU default configuration is derived from.
struct GpuPlanTarget {
  /// An H100 SXM's SM count, assumed where the device is not known.
  static constexpr int64_t kDefaultMultiprocessors = 132;
  /// Streaming multiprocessors: a matmul whose grid of 128 x 128 blocks
  /// still gives each of them a block gets the large default tiles. The
  /// GPU space records it as its param `sms`.
  int64_t multiprocessors = kDefaultMultiprocessors;
  /// Compute capability x 10 (90: an H100's, assumed where the device is
  /// not known): warpgroup MMA is offered at 90 only. The space records it
  /// as its param `cc` (f16 tensor-core spaces only).
  int64_t computeCapability = 90;
  /// Whether the TMA can surely read a matmul's A and B (the space's param
  /// `tma`, recorded only where it cannot): unset, the op's operands say
  /// (areGpuMatmulOperandsSurelyTensorMapReadable). A tuning task's op
  /// reads arguments, so its space must carry what the model's op reads.
  std::optional<bool> tensorMapsReadOperands;
  /// The target a GPU space was built for (its `sms` and `cc` params; the
  /// defaults where it has none).
  static GpuPlanTarget fromSpace(const SearchSpace &space);
  /// The compute capability x 10 a chip name means ("sm_80": 80, "sm_90a":
  /// 90); 0 for anything else. Where a chip is chosen by hand, the spaces
  /// must be built for it (wgmma is offered, and the default, at 90 only).
  static int64_t getComputeCapabilityOfChip(StringRef chip);
};

/// Builds the plan (and default space) for a supported op with static
/// shapes, or fails with a reason (the op is then left alone). The space
/// and the preferred (default) values of CPU plans follow `cpu`, of GPU
/// plans `gpu`.
FailureOr<SchedulePlan> buildSchedulePlan(linalg::LinalgOp op, ScheduleTarget target,
                                          const CpuTarget &cpu, std::string &whyNot,
                                          const GpuPlanTarget &gpu = GpuPlanTarget());
/// The same for this machine (CpuTarget::getHost(maxThreads)).
FailureOr<SchedulePlan> buildSchedulePlan(linalg::LinalgOp op,
                                          ScheduleTarget target,
                                          int64_t maxThreads,
                                          std::string &whyNot,
                                          const GpuPlanTarget &gpu = GpuPlanTarget());

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_SCHEDULEPLAN_H
