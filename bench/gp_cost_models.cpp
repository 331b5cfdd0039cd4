//===- gp_cost_models.cpp - Training and prediction time of the GP models -===//
//
// Fits "dgp" and "gp" (default options) on synthetic tuning records (a
// smooth log-throughput surface over 12 features, about 3.5% failed configs) and
// predicts as many unseen candidates, printing one table row per model:
// fit and predict seconds, and held-out quality on the feasible rows.
// Usage: dltune-bench-gp [rows=10000] [features=12] [json-output-path]
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/CostModel/GaussianProcessCostModel.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <numeric>
#include <random>

using namespace mlir::dltune;

namespace {
struct Records {
  FeatureMatrix x;
  std::vector<double> throughput; // 0: failed
};

Records makeRecords(size_t rows, size_t features, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> u(0, 1);
  Records r;
  r.x.cols = features;
  for (size_t i = 0; i < rows; ++i) {
    std::vector<float> row(features);
    double logTime = 0;
    for (size_t j = 0; j < features; ++j) {
      row[j] = static_cast<float>(u(rng));
      double centre = 0.2 + 0.6 * j / features, weight = 1.0 / (1 + j);
      logTime += weight * 4 * (row[j] - centre) * (row[j] - centre);
    }
    logTime += 0.5 * std::sin(6 * row[0]) * row[1];
    bool fails = row[0] + row[1] > 1.9 || u(rng) < 0.03;
    r.x.append(row);
    r.throughput.push_back(fails ? 0 : std::exp(-logTime));
  }
  return r;
}

/// Wall and CPU seconds: the CPU figure stays meaningful when other jobs
/// share the machine (the models run on one thread).
struct Timer {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  std::clock_t cpu = std::clock();
  double wallSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  }
  double cpuSeconds() const { return double(std::clock() - cpu) / CLOCKS_PER_SEC; }
};

} // namespace

int main(int argc, char **argv) {
  size_t rows = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
  size_t features = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 12;
  std::mt19937_64 rng(0);
  Records train = makeRecords(rows, features, rng), test = makeRecords(rows, features, rng);
  double best = *std::max_element(train.throughput.begin(), train.throughput.end());
  std::vector<double> labels;
  for (double t : train.throughput)
    labels.push_back(t / best);
  std::printf("%zu training records, %zu candidates, %zu features\n", rows, rows, features);
  std::printf("%-6s %9s %9s %12s %12s %12s %9s %7s\n", "model", "fit [s]", "fit cpu", "predict [s]",
              "predict cpu", "log-tp RMSE", "Spearman", "jitter");
  std::string json = "[";
  for (const char *name : {"dgp", "gp"}) {
    auto model = createCostModel(name, 0);
    if (!model) {
      std::fprintf(stderr, "%s\n", llvm::toString(model.takeError()).c_str());
      return 1;
    }
    Timer fitTimer;
    if (llvm::Error e = (*model)->fit(train.x, labels)) {
      std::fprintf(stderr, "%s fit: %s\n", name, llvm::toString(std::move(e)).c_str());
      return 1;
    }
    double fitSeconds = fitTimer.wallSeconds(), fitCpu = fitTimer.cpuSeconds();
    Timer predictTimer;
    llvm::Expected<std::vector<double>> predicted = (*model)->predict(test.x);
    double predictSeconds = predictTimer.wallSeconds(), predictCpu = predictTimer.cpuSeconds();
    if (!predicted) {
      std::fprintf(stderr, "%s\n", llvm::toString(predicted.takeError()).c_str());
      return 1;
    }
    std::vector<double> p, truth;
    double squared = 0;
    for (size_t i = 0; i < rows; ++i)
      if (test.throughput[i] > 0) {
        double pred = std::max((*predicted)[i], 1e-300);
        p.push_back(pred);
        truth.push_back(test.throughput[i]);
        double d = std::log(pred) - std::log(test.throughput[i] / best);
        squared += d * d;
      }
    double logRmse = std::sqrt(squared / p.size()), rho = spearmanRankCorrelation(p, truth);
    size_t jitter = getGaussianProcessRegressor(**model)->getJitterReport().jitterEvents;
    std::printf("%-6s %9.2f %9.2f %12.3f %12.3f %12.3f %9.3f %7zu\n", name, fitSeconds, fitCpu,
                predictSeconds, predictCpu, logRmse, rho, jitter);
    json += std::string(json.size() > 1 ? "," : "") + "{\"model\":\"" + name +
            "\",\"rows\":" + std::to_string(rows) + ",\"features\":" + std::to_string(features) +
            ",\"fit_s\":" + std::to_string(fitSeconds) +
            ",\"fit_cpu_s\":" + std::to_string(fitCpu) +
            ",\"predict_s\":" + std::to_string(predictSeconds) +
            ",\"predict_cpu_s\":" + std::to_string(predictCpu) +
            ",\"log_throughput_rmse\":" + std::to_string(logRmse) +
            ",\"spearman\":" + std::to_string(rho) + "}";
  }
  json += "]\n";
  if (argc > 3)
    std::ofstream(argv[3]) << json;
  return 0;
}
