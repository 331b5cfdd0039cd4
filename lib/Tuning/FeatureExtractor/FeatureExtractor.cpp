//===- FeatureExtractor.cpp - Features of configurations ------------------===//

#include "dltune/Tuning/FeatureExtractor/FeatureExtractor.h"

#include <cmath>

using namespace mlir::dltune;

FeatureMatrix FeatureExtractor::extractAll(const std::vector<Config> &configs) const {
  FeatureMatrix m;
  m.cols = getNames().size();
  m.data.reserve(m.cols * configs.size());
  std::vector<float> row;
  for (const Config &c : configs) {
    row.clear();
    extract(c, row);
    m.append(row);
  }
  return m;
}

static float lg(double v) { return static_cast<float>(std::log2(1.0 + std::fabs(v))); }

namespace {
class KnobFeatures : public FeatureExtractor {
public:
  explicit KnobFeatures(const SearchSpace &space) : space(space) {}
  std::vector<std::string> getNames() const override {
    std::vector<std::string> names;
    for (const Knob &k : space.getKnobs()) {
      names.push_back(k.name);
      names.push_back("log2_" + k.name);
    }
    return names;
  }
  void extract(const Config &c, std::vector<float> &out) const override {
    for (int64_t v : c) {
      out.push_back(static_cast<float>(v));
      out.push_back(lg(static_cast<double>(v)));
    }
  }

protected:
  const SearchSpace &space;
};

class ScheduleFeatures : public KnobFeatures {
public:
  ScheduleFeatures(const SearchSpace &space, ScheduleShape shape)
      : KnobFeatures(space), shape(std::move(shape)) {
    auto index = [&](const std::string &name) -> int {
      std::optional<size_t> i = space.getKnobIndex(name);
      return i ? static_cast<int>(*i) : -1;
    };
    for (size_t l = 0; l < this->shape.loopSizes.size(); ++l) {
      cacheIdx.push_back(this->shape.cacheTile[l].empty() ? -1 : index(this->shape.cacheTile[l]));
      regIdx.push_back(this->shape.registerTile[l].empty() ? -1 : index(this->shape.registerTile[l]));
    }
    threadsIdx = index("threads");
    unrollIdx = index("unroll");
    vectorizeIdx = index("vectorize");
  }

  std::vector<std::string> getNames() const override {
    std::vector<std::string> names = KnobFeatures::getNames();
    for (const char *n :
         {"log2_flops", "log2_bytes", "arith_intensity", "log2_loop_product",
          "log2_cache_footprint", "cache_fp_over_l1", "cache_fp_over_l2", "cache_fp_over_l3",
          "log2_cache_tiles", "log2_reg_footprint", "reg_fp_over_l1", "log2_reg_tiles",
          "vector_length", "log2_unrolled_body", "threads", "threads_over_cores",
          "log2_work_per_thread"})
      names.push_back(n);
    for (size_t l = 0; l < shape.loopSizes.size(); ++l)
      names.push_back("log2_loop" + std::to_string(l));
    for (const std::string &d : shape.deviceFeatureNames)
      names.push_back("device_" + d);
    return names;
  }

  void extract(const Config &c, std::vector<float> &out) const override {
    KnobFeatures::extract(c, out);
    size_t n = shape.loopSizes.size();
    auto value = [&](int idx, int64_t dflt) { return idx >= 0 ? c[idx] : dflt; };
    std::vector<double> cache(n), reg(n);
    for (size_t l = 0; l < n; ++l) {
      double size = static_cast<double>(shape.loopSizes[l]);
      double ct = static_cast<double>(value(cacheIdx[l], shape.cacheConst[l]));
      cache[l] = ct <= 0 ? size : std::min(ct, size);
      double rt = static_cast<double>(value(regIdx[l], shape.registerConst[l]));
      reg[l] = rt <= 0 ? cache[l] : std::min(rt, cache[l]);
    }
    auto footprint = [&](const std::vector<double> &tile) {
      double bytes = 0;
      for (const std::vector<int> &loops : shape.operandLoops) {
        double elems = 1;
        for (int l : loops)
          elems *= tile[l];
        bytes += elems * shape.elementBytes;
      }
      return bytes;
    };
    // A partial tile runs as a whole one (a GPU grid's last row of blocks
    // where block_m does not divide M; a CPU loop's remainder).
    double loopProduct = 1, cacheTiles = 1, regTiles = 1;
    for (size_t l = 0; l < n; ++l) {
      loopProduct *= shape.loopSizes[l];
      cacheTiles *= std::ceil(shape.loopSizes[l] / cache[l]);
      regTiles *= std::ceil(cache[l] / reg[l]);
    }
    double cacheFp = footprint(cache), regFp = footprint(reg);
    double threads = static_cast<double>(value(threadsIdx, 1));
    double vectorize = static_cast<double>(value(vectorizeIdx, 1));
    // The register tile of the innermost parallel loop is the vector.
    double vectorLength = 1;
    for (size_t l = n; l-- > 0;)
      if (!shape.isReduction[l]) {
        vectorLength = vectorize ? reg[l] : 1;
        break;
      }
    double body = 1;
    for (size_t l = 0; l < n; ++l)
      body *= shape.isReduction[l] ? 1 : reg[l];
    body *= static_cast<double>(value(unrollIdx, 1));
    double ai = shape.bytes > 0 ? shape.flops / shape.bytes : 0;
    for (double v : {static_cast<double>(lg(shape.flops)), static_cast<double>(lg(shape.bytes)), ai,
                     static_cast<double>(lg(loopProduct)), static_cast<double>(lg(cacheFp)),
                     cacheFp / shape.l1Bytes, cacheFp / shape.l2Bytes, cacheFp / shape.l3Bytes,
                     static_cast<double>(lg(cacheTiles)), static_cast<double>(lg(regFp)),
                     regFp / shape.l1Bytes, static_cast<double>(lg(regTiles)),
                     vectorLength / shape.simdLanes, static_cast<double>(lg(body)), threads,
                     threads / shape.cores, static_cast<double>(lg(loopProduct / threads))})
      out.push_back(static_cast<float>(v));
    for (size_t l = 0; l < n; ++l)
      out.push_back(lg(static_cast<double>(shape.loopSizes[l])));
    for (double d : shape.deviceFeatures)
      out.push_back(static_cast<float>(d));
  }

private:
  ScheduleShape shape;
  std::vector<int> cacheIdx, regIdx;
  int threadsIdx, unrollIdx, vectorizeIdx;
};
} // namespace

std::unique_ptr<FeatureExtractor>
mlir::dltune::createKnobFeatureExtractor(const SearchSpace &space) {
  return std::make_unique<KnobFeatures>(space);
}

std::unique_ptr<FeatureExtractor>
mlir::dltune::createScheduleFeatureExtractor(const SearchSpace &space, ScheduleShape shape) {
  return std::make_unique<ScheduleFeatures>(space, std::move(shape));
}
