//===- GpuResourceFeatures.cpp - ptxas resource usage as features ---------===//

#include "dltune/Tuning/FeatureExtractor/GpuResourceFeatures.h"

#include <cmath>

using namespace mlir::dltune;

void GpuResourceTable::record(const Config &config,
                              const std::vector<GpuKernelResources> &kernels) {
  if (!kernels.empty())
    table[config] = kernels;
}

const std::vector<GpuKernelResources> *GpuResourceTable::find(const Config &config) const {
  auto it = table.find(config);
  return it == table.end() ? nullptr : &it->second;
}

namespace {
class GpuResourceFeatures : public FeatureExtractor {
public:
  GpuResourceFeatures(std::shared_ptr<const FeatureExtractor> base,
                      std::shared_ptr<const GpuResourceTable> table)
      : base(std::move(base)), table(std::move(table)) {}

  std::vector<std::string> getNames() const override {
    std::vector<std::string> names = base->getNames();
    for (const char *n : {"gpu_resources_known", "gpu_max_registers", "gpu_log2_shared_bytes",
                          "gpu_log2_spill_bytes", "gpu_log2_stack_bytes",
                          "gpu_regs_per_block_over_64k"})
      names.push_back(n);
    return names;
  }

  void extract(const Config &config, std::vector<float> &out) const override {
    base->extract(config, out);
    const std::vector<GpuKernelResources> *kernels = table->find(config);
    if (!kernels) {
      out.push_back(0);
      for (int i = 0; i < 5; ++i)
        out.push_back(-1);
      return;
    }
    double regs = 0, shared = 0, spill = 0, stack = 0, perBlock = 0;
    for (const GpuKernelResources &k : *kernels) {
      regs = std::max(regs, static_cast<double>(k.registers));
      shared = std::max(shared, static_cast<double>(k.sharedBytes + k.dynamicSharedBytes));
      spill += static_cast<double>(k.spillStoreBytes + k.spillLoadBytes);
      stack = std::max(stack, static_cast<double>(k.stackBytes));
      perBlock = std::max(perBlock, static_cast<double>(getRegistersPerBlock(k)));
    }
    for (double v : {1.0, regs, std::log2(1 + shared), std::log2(1 + spill),
                     std::log2(1 + stack), perBlock / 65536.0})
      out.push_back(static_cast<float>(v));
  }

private:
  std::shared_ptr<const FeatureExtractor> base;
  std::shared_ptr<const GpuResourceTable> table;
};
} // namespace

std::unique_ptr<FeatureExtractor>
mlir::dltune::createGpuResourceFeatureExtractor(std::shared_ptr<const FeatureExtractor> base,
                                                std::shared_ptr<const GpuResourceTable> table) {
  return std::make_unique<GpuResourceFeatures>(std::move(base), std::move(table));
}
