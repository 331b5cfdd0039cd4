//===- GpuResourceFeatures.h - ptxas resource usage as features -*- C++ -*-===//
//
// What ptxas reports for a GPU candidate (registers, shared memory, spills,
// registers per block) is known only once the candidate has been built. A
// GpuResourceTable collects it as build results arrive (GpuResourceRecorder,
// a MeasureCallback); the extractor appends it to another extractor's row.
// Configurations not built yet get -1 for every resource feature and 0 for
// `gpu_resources_known`, so a model can tell "unknown" from "none".
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_FEATUREEXTRACTOR_GPURESOURCEFEATURES_H
#define DLTUNE_TUNING_FEATUREEXTRACTOR_GPURESOURCEFEATURES_H

#include "dltune/Tuning/FeatureExtractor/FeatureExtractor.h"
#include "dltune/Tuning/Device/GpuResources.h"
#include "dltune/Tuning/MeasureCallback/TuningLoop.h"

#include <map>

namespace mlir::dltune {

class GpuResourceTable {
public:
  /// Keeps `kernels` for `config` (ignored when empty).
  void record(const Config &config, const std::vector<GpuKernelResources> &kernels);
  const std::vector<GpuKernelResources> *find(const Config &config) const;
  size_t size() const { return table.size(); }

private:
  std::map<Config, std::vector<GpuKernelResources>> table;
};

/// `base`'s features, then: gpu_resources_known, gpu_max_registers,
/// gpu_log2_shared_bytes, gpu_log2_spill_bytes (stores + loads, all kernels),
/// gpu_log2_stack_bytes, gpu_regs_per_block_over_64k (largest kernel).
std::unique_ptr<FeatureExtractor>
createGpuResourceFeatureExtractor(std::shared_ptr<const FeatureExtractor> base,
                                  std::shared_ptr<const GpuResourceTable> table);

/// Records every result's resource usage in a table.
class GpuResourceRecorder : public MeasureCallback {
public:
  explicit GpuResourceRecorder(std::shared_ptr<GpuResourceTable> table)
      : table(std::move(table)) {}
  void onResult(const Config &config, const MeasureRecord &record,
                const TuningProgress &) override {
    table->record(config, record.gpuResources);
  }

private:
  std::shared_ptr<GpuResourceTable> table;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_FEATUREEXTRACTOR_GPURESOURCEFEATURES_H
