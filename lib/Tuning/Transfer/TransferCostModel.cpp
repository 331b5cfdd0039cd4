//===- TransferCostModel.cpp - Pretrained model, adaptation or shift, guard ===//

#include "dltune/Tuning/Transfer/TransferCostModel.h"

#include "dltune/Tuning/Support/Error.h"
#include "dltune/Tuning/CostModel/GaussianProcessCostModel.h"
#include "dltune/Tuning/Transfer/ModelShift.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

using namespace mlir::dltune;

std::optional<TransferMode> mlir::dltune::parseTransferMode(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<TransferMode>>(name)
      .Case("none", TransferMode::None)
      .Case("dm", TransferMode::DirectReuse)
      .Case("map", TransferMode::Map)
      .Case("lms", TransferMode::LinearShift)
      .Case("nlms", TransferMode::NonLinearShift)
      .Case("gs", TransferMode::GuidedSampling)
      .Default(std::nullopt);
}

void mlir::dltune::extendGuardSplit(std::vector<bool> &heldOut, size_t rows,
                                    std::mt19937_64 &rng) {
  if (heldOut.size() > rows)
    heldOut.clear(); // not the same rows: split afresh
  std::vector<size_t> fresh;
  for (size_t r = heldOut.size(); r < rows; ++r)
    fresh.push_back(r);
  std::shuffle(fresh.begin(), fresh.end(), rng);
  size_t want = std::max<size_t>(rows / 4, 4);
  size_t have = static_cast<size_t>(std::count(heldOut.begin(), heldOut.end(), true));
  heldOut.resize(rows, false);
  for (size_t k = 0; k < fresh.size() && have < want; ++k, ++have)
    heldOut[fresh[k]] = true;
}

namespace {
FeatureMatrix selectRows(const FeatureMatrix &x, const std::vector<size_t> &rows) {
  FeatureMatrix out;
  out.cols = x.cols;
  for (size_t r : rows)
    out.data.insert(out.data.end(), x.row(r), x.row(r) + x.cols);
  return out;
}

std::vector<double> selectLabels(const std::vector<double> &y, const std::vector<size_t> &rows) {
  std::vector<double> out;
  for (size_t r : rows)
    out.push_back(y[r]);
  return out;
}

/// Mean Gaussian negative log density of the feasible rows' log labels.
llvm::Expected<double> heldOutNll(const CostModel &model, const FeatureMatrix &x,
                                  const std::vector<double> &y) {
  std::vector<double> mean, variance;
  if (llvm::Error e = predictLogLabel(model, x, mean, variance, /*includeNoise=*/true))
    return std::move(e);
  double nll = 0;
  size_t count = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    if (!(y[i] > 0))
      continue;
    double v = std::max(variance[i], 1e-12), e = std::log(y[i]) - mean[i];
    nll += 0.5 * (std::log(2 * M_PI * v) + e * e / v);
    ++count;
  }
  return count ? nll / count : 0.0;
}

class TransferCostModel : public CostModel {
public:
  TransferCostModel(std::shared_ptr<const CostModel> pretrained, TransferOptions options,
                    std::shared_ptr<TransferLog> log)
      : pretrained(std::move(pretrained)), options(std::move(options)), log(std::move(log)),
        rng(this->options.seed) {}

  llvm::StringRef getName() const override {
    return pretrained ? pretrained->getName() : llvm::StringRef(options.targetOnlyModel);
  }
  bool isTrained() const override { return current || pretrained; }
  bool hasVariance() const override { return isTrained() && active().hasVariance(); }
  llvm::Expected<std::vector<double>> predict(const FeatureMatrix &x) const override {
    if (!isTrained())
      return makeError("transfer cost model: no pretrained model and no fit yet");
    return active().predict(x);
  }
  llvm::Error predictWithVariance(const FeatureMatrix &x, std::vector<double> &mean,
                                  std::vector<double> &variance) const override {
    if (!isTrained())
      return makeError("transfer cost model: no pretrained model and no fit yet");
    return active().predictWithVariance(x, mean, variance);
  }
  llvm::Error save(const std::string &path) const override {
    if (!isTrained())
      return makeError("transfer cost model: nothing to save before the first fit");
    return active().save(path);
  }
  llvm::Error load(const std::string &) override {
    return makeError("a transfer cost model is built from its pretrained model, not loaded");
  }

  llvm::Error fit(const FeatureMatrix &x, const std::vector<double> &y) override {
    fitStart = std::chrono::steady_clock::now();
    TransferDecision decision;
    decision.rows = x.rows();
    if (options.mode == TransferMode::None || options.mode == TransferMode::DirectReuse ||
        options.mode == TransferMode::GuidedSampling) {
      llvm::Expected<std::unique_ptr<CostModel>> cold = fitTargetOnly(x, y);
      if (!cold)
        return cold.takeError();
      current = std::move(*cold);
      decision.usedTransfer = false;
      decision.reason = std::string(options.mode == TransferMode::GuidedSampling ? "gs" : "dm") +
                        ": target-only " + options.targetOnlyModel + " refit";
      record(std::move(decision));
      return llvm::Error::success();
    }
    if (x.rows() < options.guardMinRows) {
      llvm::Expected<std::unique_ptr<CostModel>> transferred =
          fitTransferred(x, y, initialPriorStrength(), lastAdapted.get());
      if (!transferred)
        return transferred.takeError();
      decision.priorStrength = isMap() ? initialPriorStrength() : 0;
      decision.reason = "too few rows to hold out; " +
                        (isMap() ? std::string("adapted") : lastShift) +
                        " without a check";
      current = std::move(*transferred);
      if (isMap())
        lastAdapted = current;
      record(std::move(decision));
      return llvm::Error::success();
    }

    // The guard: fit both on 75% of the rows, rank the other 25%.
    std::vector<size_t> trainRows, heldRows;
    splitRows(x.rows(), trainRows, heldRows);
    FeatureMatrix xTrain = selectRows(x, trainRows), xHeld = selectRows(x, heldRows);
    std::vector<double> yTrain = selectLabels(y, trainRows), yHeld = selectLabels(y, heldRows);

    std::shared_ptr<CostModel> transferOnSplit;
    if (isMap() && priorStrength == 0 && options.priorStrength == 0) {
      // First adaptation: the strength with the best held-out likelihood.
      // Every candidate starts from one adaptation at the middle strength
      // (1) with the same refitIterations steps, so they compete on equal
      // budgets; only that common start pays the full adaptIterations.
      std::shared_ptr<CostModel> start = lastSplitAdapted;
      if (!start) {
        llvm::Expected<std::unique_ptr<CostModel>> common =
            fitTransferred(xTrain, yTrain, 1.0, nullptr);
        if (!common)
          return common.takeError();
        start = std::move(*common);
      }
      double bestNll = INFINITY;
      for (double candidate : kPriorStrengthCandidates) {
        llvm::Expected<std::unique_ptr<CostModel>> adapted =
            fitTransferred(xTrain, yTrain, candidate, start.get());
        if (!adapted)
          return adapted.takeError();
        llvm::Expected<double> nll = heldOutNll(**adapted, xHeld, yHeld);
        if (!nll)
          return nll.takeError();
        if (*nll < bestNll) {
          bestNll = *nll;
          priorStrength = candidate;
          transferOnSplit = std::move(*adapted);
        }
      }
      if (!transferOnSplit)
        return makeError("MAP adaptation: no prior strength gave a finite held-out likelihood");
    } else {
      if (isMap() && priorStrength == 0)
        priorStrength = options.priorStrength;
      llvm::Expected<std::unique_ptr<CostModel>> transferred =
          fitTransferred(xTrain, yTrain, priorStrength, lastSplitAdapted.get());
      if (!transferred)
        return transferred.takeError();
      transferOnSplit = std::move(*transferred);
    }
    llvm::Expected<std::unique_ptr<CostModel>> coldOnSplit = fitTargetOnly(xTrain, yTrain);
    if (!coldOnSplit)
      return coldOnSplit.takeError();
    llvm::Expected<std::vector<double>> transferPrediction = transferOnSplit->predict(xHeld);
    if (!transferPrediction)
      return transferPrediction.takeError();
    llvm::Expected<std::vector<double>> coldPrediction = (*coldOnSplit)->predict(xHeld);
    if (!coldPrediction)
      return coldPrediction.takeError();
    decision.transferRho = spearmanRankCorrelation(*transferPrediction, yHeld);
    decision.targetOnlyRho = spearmanRankCorrelation(*coldPrediction, yHeld);
    decision.priorStrength = priorStrength;
    decision.usedTransfer = !(decision.targetOnlyRho > decision.transferRho + options.guardMargin);
    decision.reason = decision.usedTransfer ? "transfer ranks held-out rows as well or better"
                                            : "target-only ranks held-out rows better: fall back";
    // The adaptation on every row starts from the one on 75% of them.
    llvm::Expected<std::unique_ptr<CostModel>> chosen =
        decision.usedTransfer ? fitTransferred(x, y, priorStrength, transferOnSplit.get())
                              : fitTargetOnly(x, y);
    if (!chosen)
      return chosen.takeError();
    if (decision.usedTransfer && !isMap())
      decision.reason += "; " + lastShift;
    current = std::move(*chosen);
    if (isMap())
      lastSplitAdapted = transferOnSplit;
    record(std::move(decision));
    return llvm::Error::success();
  }

private:
  const CostModel &active() const { return current ? *current : *pretrained; }
  bool isMap() const { return options.mode == TransferMode::Map; }

  void splitRows(size_t rows, std::vector<size_t> &train, std::vector<size_t> &held) {
    extendGuardSplit(heldOut, rows, rng);
    for (size_t r = 0; r < rows; ++r)
      (heldOut[r] ? held : train).push_back(r);
  }

  /// The prior strength before one has been chosen: the option, else 1.
  double initialPriorStrength() const {
    if (priorStrength)
      return priorStrength;
    return options.priorStrength ? options.priorStrength : 1.0;
  }

  /// The MAP-adapted deep GP or the shifted pretrained model on `x`, `y`.
  /// An adaptation starts from `warmStart` (an earlier adaptation) when
  /// given, with refitIterations steps: refits with a few more rows than
  /// the last one then cost a quarter of the first (a 400-measurement
  /// replay at the default sizes took ~145 s per seed with every adaptation
  /// from the pretrained parameters, docs/cost-models.md).
  llvm::Expected<std::unique_ptr<CostModel>> fitTransferred(const FeatureMatrix &x,
                                                            const std::vector<double> &y,
                                                            double strength,
                                                            const CostModel *warmStart) {
    if (isMap()) {
      int refit = options.refitIterations > 0 ? options.refitIterations
                                              : std::max(1, options.adaptIterations / 4);
      return adaptDeepGPCostModel(*pretrained, x, y, strength,
                                  warmStart ? refit : options.adaptIterations, warmStart);
    }
    auto shifted = std::make_unique<ShiftedCostModel>(
        pretrained,
        options.mode == TransferMode::LinearShift ? ShiftKind::Linear : ShiftKind::NonLinear,
        options.seed);
    if (llvm::Error e = shifted->fit(x, y))
      return std::move(e);
    lastShift = shifted->describe();
    return std::unique_ptr<CostModel>(std::move(shifted));
  }

  llvm::Expected<std::unique_ptr<CostModel>> fitTargetOnly(const FeatureMatrix &x,
                                                           const std::vector<double> &y) {
    llvm::Expected<std::unique_ptr<CostModel>> model =
        createCostModel(options.targetOnlyModel, options.seed);
    if (!model)
      return model.takeError();
    if (llvm::Error e = (*model)->fit(x, y))
      return std::move(e);
    return std::move(*model);
  }

  void record(TransferDecision decision) {
    decision.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - fitStart).count();
    if (log)
      log->push_back(std::move(decision));
  }

  std::shared_ptr<const CostModel> pretrained;
  TransferOptions options;
  std::shared_ptr<TransferLog> log;
  std::shared_ptr<CostModel> current;
  /// Where the next adaptation starts (warm starts): the latest one without
  /// a guard (fewer than guardMinRows rows), and the latest one on the
  /// guard's training side. A guarded fit never starts from a model that saw
  /// its held-out rows: the split is kept between refits (splitRows) and
  /// only the training side's adaptation is carried on.
  std::shared_ptr<CostModel> lastAdapted, lastSplitAdapted;
  /// Per row: on the guard's held-out side. Rows keep their side between
  /// refits (rows only grow: they are the history in measurement order);
  /// new rows fill the held-out side up to max(rows / 4, 4) at random.
  std::vector<bool> heldOut;
  double priorStrength = 0;
  std::chrono::steady_clock::time_point fitStart;
  /// The latest shift's ShiftedCostModel::describe(), for the log.
  std::string lastShift;
  std::mt19937_64 rng;
};
} // namespace

std::unique_ptr<CostModel>
mlir::dltune::createTransferCostModel(std::shared_ptr<const CostModel> pretrained,
                                      const TransferOptions &options,
                                      std::shared_ptr<TransferLog> log) {
  return std::make_unique<TransferCostModel>(std::move(pretrained), options, std::move(log));
}

std::string mlir::dltune::summarizeTransferLog(const TransferLog &log) {
  if (log.empty())
    return "transfer guard: no decision";
  size_t kept = 0;
  for (const TransferDecision &d : log)
    kept += d.usedTransfer;
  const TransferDecision &last = log.back();
  std::string rho;
  if (!std::isnan(last.transferRho) || !std::isnan(last.targetOnlyRho))
    rho = llvm::formatv("; held-out Spearman {0:f2} with transfer, {1:f2} target-only",
                        last.transferRho, last.targetOnlyRho)
              .str();
  return llvm::formatv("transfer guard: {0} decision(s), transfer kept in {1}, target-only "
                       "model in {2}; last at {3} rows: {4} ({5}){6}",
                       log.size(), kept, log.size() - kept, last.rows,
                       last.usedTransfer ? "kept" : "abandoned", last.reason, rho)
      .str();
}
