//===- ModelEvalCommand.cpp - dltune model-eval ---------------------------===//
//
//   dltune model-eval --train FILE[,FILE...] --test FILE
//                     [--model dgp,gp,xgb,rf] [--target-samples 0,10,30,100]
//                     [--seeds K] [--dgp-iterations N] [--dgp-inducing M]
//                     [--dgp-hidden H] [--report OUT.csv]
//                     [--device-features [--device-mean] [--device-specs FILE]]
//                     [--transfer cold,dm,lms,nlms,gs [--samples-out FILE]]
//
// How well a cost model trained on other devices' recorded spaces (matched
// to the test space by knob names) predicts the test space, with 0 or a few
// random test configurations added to the training rows: transfer's
// zero-shot and few-shot accuracy, one CSV row per model, count and seed.
// With --device-features every row also carries its device's published
// specifications (DeviceSpecs), so that a model can tell devices apart;
// --device-mean adds a linear mean in them (DeviceMean). With --transfer,
// OpML'19's strategies are compared instead (TransferEvaluation.h): each
// count of --target-samples is the strategy's measuring budget on the test
// space.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Tuning/Device/DeviceSpecs.h"
#include "dltune/Tuning/CostModel/ModelEvaluation.h"
#include "dltune/Tuning/Transfer/TransferEvaluation.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <map>

using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand modelEvalCmd("model-eval",
                            "Score cost models trained on recorded spaces on another space");
static cl::opt<std::string> trainFiles("train",
                                       cl::desc("Kernel Tuner caches to train on (comma-separated)"),
                                       cl::sub(modelEvalCmd));
static cl::opt<std::string> testFile("test", cl::desc("Kernel Tuner cache to predict"),
                                     cl::sub(modelEvalCmd));
static cl::opt<std::string> modelNames("model", cl::desc("dgp, gp, xgb, rf (comma-separated)"),
                                       cl::init("dgp"), cl::sub(modelEvalCmd));
static cl::opt<std::string>
    targetSamples("target-samples",
                  cl::desc("Random test configurations added to the training rows "
                           "(comma-separated counts)"),
                  cl::init("0"), cl::sub(modelEvalCmd));
static cl::opt<int> evalSeeds("seeds", cl::desc("Seeds 0..K-1 per model and count"),
                              cl::init(1), cl::sub(modelEvalCmd));
static cl::opt<int> evalDgpIterations("dgp-iterations",
                                      cl::desc("Adam steps of the deep GP (0: its default, 2000)"),
                                      cl::init(0), cl::sub(modelEvalCmd));
static cl::opt<int> evalDgpInducing("dgp-inducing",
                                    cl::desc("Inducing points of the deep GP (0: its default, "
                                             "100; fewer when there are fewer rows)"),
                                    cl::init(0), cl::sub(modelEvalCmd));
static cl::opt<int> evalDgpHidden("dgp-hidden",
                                  cl::desc("Inner layer width of the deep GP (0: min(features, "
                                           "30))"),
                                  cl::init(0), cl::sub(modelEvalCmd));
static cl::opt<std::string> evalReport("report", cl::desc("CSV with one row per case"),
                                       cl::sub(modelEvalCmd));
static cl::opt<bool> evalDeviceFeatures(
    "device-features",
    cl::desc("Give models each row's device specifications (by the cache's device_name, "
             "or the file name when it has none) as inputs"),
    cl::sub(modelEvalCmd));
static cl::opt<bool> evalDeviceMean(
    "device-mean",
    cl::desc("With --device-features: models learn log-time relative to a linear mean in "
             "the device features fitted across the training devices"),
    cl::sub(modelEvalCmd));
static cl::opt<bool> evalCalibrate(
    "calibrate",
    cl::desc("The transfer case: train on --train only and use the target samples to "
             "calibrate the predictions (median shift, conformal scale of the deviation); "
             "prints each model before and after (MODEL+cal) with the shift and scale"),
    cl::sub(modelEvalCmd));
static cl::opt<std::string> evalDeviceSpecs(
    "device-specs", cl::desc("JSON file with specifications of devices not built in"),
    cl::sub(modelEvalCmd));

static cl::opt<std::string> evalTransfer(
    "transfer",
    cl::desc("Compare transfer strategies (OpML'19): cold (the model on the target samples "
             "only), dm, lms, nlms, gs (comma-separated); the target samples are each "
             "strategy's measuring budget"),
    cl::sub(modelEvalCmd));
static cl::opt<std::string> evalSamplesOut(
    "samples-out",
    cl::desc("With --transfer: CSV of the configurations each strategy measured "
             "(strategy, samples, seed, config), for other learners to train on"),
    cl::sub(modelEvalCmd));

/// The device features of a cache's rows, or an error naming the device.
static llvm::Expected<std::vector<float>>
getDeviceFeaturesOf(const KernelTunerCache &cache, const std::string &file,
                    const std::vector<DeviceSpec> &extra) {
  std::string name = cache.deviceName;
  if (name.empty()) {
    llvm::StringRef stem = llvm::sys::path::filename(file);
    for (llvm::StringRef suffix : {".gz", ".json"})
      stem.consume_back(suffix);
    name = stem.str();
  }
  std::optional<DeviceSpec> spec = findDeviceSpec(name, extra);
  if (!spec)
    return llvm::createStringError("no specifications for device '" + name + "' (of '" + file +
                                   "'); give them with --device-specs FILE");
  llvm::outs() << "device: " << file << " -> " << spec->name << "\n";
  return getDeviceFeatures(*spec);
}

static std::vector<std::string> splitList(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',', -1, /*KeepEmpty=*/false);
  std::vector<std::string> out;
  for (llvm::StringRef p : parts)
    out.push_back(p.trim().str());
  return out;
}

static std::string optionalNumber(const std::optional<double> &v) {
  return v ? formatNumber(*v) : std::string();
}

/// --transfer: every strategy x model x count x seed, MAPE and ranks on the
/// target rows each strategy did not measure.
static int compareTransferStrategies(const std::vector<std::string> &trains,
                                     const KernelTunerCache &test, const TimedConfigs &target,
                                     const TimedConfigs &history,
                                     const std::vector<std::string> &models,
                                     const std::vector<size_t> &counts) {
  if (evalDeviceFeatures || evalCalibrate)
    return fail("--transfer compares strategies without --device-features or --calibrate");
  if (evalDgpInducing > 0 || evalDgpHidden > 0)
    return fail("--transfer compares strategies at the deep GP's default sizes; --dgp-inducing "
                "and --dgp-hidden are for the models' scores");
  std::vector<TransferStrategyKind> kinds;
  for (const std::string &name : splitList(evalTransfer)) {
    std::optional<TransferStrategyKind> kind = parseTransferStrategyKind(name);
    if (!kind)
      return fail("--transfer: unknown strategy '" + name + "' (known: cold, dm, lms, nlms, gs)");
    kinds.push_back(*kind);
  }
  if (kinds.empty())
    return fail("--transfer needs at least one strategy");
  for (TransferStrategyKind kind : kinds)
    for (size_t count : counts)
      if (kind != TransferStrategyKind::Direct && count < 3)
        return fail("--transfer " + getTransferStrategyName(kind) +
                    " measures target configurations: --target-samples must be at least 3, "
                    "not " + llvm::Twine(count));
  SearchSpace space = test.getSpace();
  std::unique_ptr<FeatureExtractor> features = createKnobFeatureExtractor(space);
  std::optional<StepwiseRegression> guided;
  if (llvm::is_contained(kinds, TransferStrategyKind::GuidedSampling)) {
    std::vector<KernelTunerCache> sources;
    for (const std::string &f : trains) {
      llvm::Expected<KernelTunerCache> c = KernelTunerCache::load(f);
      if (!c)
        return fail(llvm::toString(c.takeError()));
      sources.push_back(std::move(*c));
    }
    std::vector<std::string> notes;
    llvm::Expected<StepwiseRegression> fitted =
        fitGuidedSamplingRegression(sources, trains, space.getKnobs(), notes);
    if (!fitted)
      return fail("gs: " + llvm::toString(fitted.takeError()));
    guided = std::move(*fitted);
    llvm::outs() << llvm::formatv("gs: stepwise regression on {0} source configurations, R^2 "
                                  "{1:f3}, terms: {2}\n",
                                  guided->rows, guided->rSquared,
                                  guided->formatTerms(space.getKnobs()));
  }
  std::ofstream report, samplesOut;
  if (!evalReport.empty()) {
    report.open(evalReport);
    if (!report)
      return fail("cannot write '" + evalReport + "'");
    report << "strategy,model,samples,seed,test_rows,rmse,mape,spearman,kendall,top1_recall\n";
  }
  if (!evalSamplesOut.empty()) {
    samplesOut.open(evalSamplesOut);
    if (!samplesOut)
      return fail("cannot write '" + evalSamplesOut + "'");
    samplesOut << "strategy,samples,seed,config\n";
  }
  llvm::outs() << llvm::formatv("train: {0} configurations from {1} file(s); test: {2} "
                                "configurations of {3}\n",
                                history.size(), trains.size(), target.size(), testFile);
  llvm::outs() << llvm::formatv("{0,-8} {1,-6} {2,7} {3,8} {4,8} {5,8} {6,8}\n", "strategy",
                                "model", "samples", "mape%", "rmse", "spearman", "top1%rec");
  for (TransferStrategyKind kind : kinds)
    for (const std::string &model : models)
      for (size_t count : counts) {
        double mape = 0, rmse = 0, rho = 0, top = 0;
        for (int seed = 0; seed < evalSeeds; ++seed) {
          llvm::Expected<TransferEvalCase> result =
              evaluateTransferStrategy(kind, model, history, guided ? &*guided : nullptr, space,
                                       target, *features, count, seed, evalDgpIterations);
          if (!result)
            return fail(getTransferStrategyName(kind) + " " + model + " with " +
                        llvm::Twine(count) + " samples, seed " + llvm::Twine(seed) + ": " +
                        llvm::toString(result.takeError()));
          const PredictionMetrics &m = result->metrics;
          mape += m.mape;
          rmse += m.rmse;
          rho += m.spearman;
          top += m.top1Recall;
          if (report)
            report << getTransferStrategyName(kind).str() << "," << model << "," << count << ","
                   << seed << "," << result->testRows << "," << formatNumber(m.rmse) << ","
                   << formatNumber(m.mape) << "," << formatNumber(m.spearman) << ","
                   << formatNumber(m.kendall) << "," << formatNumber(m.top1Recall) << "\n";
          // The configurations depend on the strategy and seed, not on the
          // learner: written once.
          if (samplesOut && model == models.front())
            for (size_t row : result->measuredRows)
              samplesOut << getTransferStrategyName(kind).str() << "," << count << "," << seed
                         << ",\"" << space.formatConfig(target.configs[row]) << "\"\n";
        }
        double k = evalSeeds;
        llvm::outs() << llvm::formatv("{0,-8} {1,-6} {2,7} {3,8:f1} {4,8:f3} {5,8:f3} {6,8:f3}\n",
                                      getTransferStrategyName(kind), model, count, mape / k,
                                      rmse / k, rho / k, top / k);
      }
  for (std::ofstream *f : {&report, &samplesOut})
    if (f->is_open()) {
      f->close();
      if (!*f)
        return fail("writing the --report or --samples-out file failed");
    }
  return 0;
}

int modelEvalCommand() {
  std::vector<std::string> trains = splitList(trainFiles);
  if (trains.empty())
    return fail("model-eval needs --train FILE[,FILE...]");
  if (testFile.empty())
    return fail("model-eval needs --test FILE");
  if (evalSeeds < 1)
    return fail("--seeds must be at least 1");
  if (evalDgpIterations < 0 || evalDgpInducing < 0 || evalDgpHidden < 0)
    return fail("--dgp-iterations, --dgp-inducing and --dgp-hidden must not be negative "
                "(0: the deep GP's default)");
  std::vector<std::string> models = splitList(modelNames);
  if (models.empty())
    return fail("--model needs at least one of dgp, gp, xgb, rf");
  for (const std::string &m : models)
    if (m != "dgp" && m != "gp" && m != "xgb" && m != "rf")
      return fail("unknown model '" + m + "' (known: dgp, gp, xgb, rf)");
  std::vector<size_t> counts;
  for (const std::string &c : splitList(targetSamples)) {
    unsigned long long n;
    if (llvm::getAsUnsignedInteger(c, 10, n))
      return fail("--target-samples: '" + c + "' is not a count");
    counts.push_back(n);
  }
  if (counts.empty())
    return fail("--target-samples needs at least one count");

  if (evalDeviceMean && !evalDeviceFeatures)
    return fail("--device-mean needs --device-features");
  std::vector<DeviceSpec> extraSpecs;
  if (!evalDeviceSpecs.empty()) {
    llvm::Expected<std::vector<DeviceSpec>> loaded = loadDeviceSpecs(evalDeviceSpecs);
    if (!loaded)
      return fail(llvm::toString(loaded.takeError()));
    extraSpecs = std::move(*loaded);
  }

  llvm::Expected<KernelTunerCache> test = KernelTunerCache::load(testFile);
  if (!test)
    return fail(llvm::toString(test.takeError()));
  TimedConfigs target = getValidMeasurements(*test);
  if (evalDeviceFeatures) {
    llvm::Expected<std::vector<float>> device = getDeviceFeaturesOf(*test, testFile, extraSpecs);
    if (!device)
      return fail(llvm::toString(device.takeError()));
    target.setContext(*device);
  }
  TimedConfigs history;
  std::vector<std::string> notes;
  for (const std::string &file : trains) {
    llvm::Expected<KernelTunerCache> source = KernelTunerCache::load(file);
    if (!source)
      return fail(llvm::toString(source.takeError()));
    llvm::Expected<TimedConfigs> rows = getValidMeasurementsFor(*source, test->knobs, file, notes);
    if (!rows)
      return fail(llvm::toString(rows.takeError()));
    if (evalDeviceFeatures) {
      llvm::Expected<std::vector<float>> device = getDeviceFeaturesOf(*source, file, extraSpecs);
      if (!device)
        return fail(llvm::toString(device.takeError()));
      rows->setContext(*device);
    }
    if (llvm::Error e = history.append(*rows))
      return fail(llvm::toString(std::move(e)));
  }
  for (size_t count : counts)
    if (count >= target.size())
      return fail("--target-samples " + llvm::Twine(count) + ": the test space has only " +
                  llvm::Twine(target.size()) + " valid configurations");

  if (!evalTransfer.empty())
    return compareTransferStrategies(trains, *test, target, history, models, counts);
  if (!evalSamplesOut.empty())
    return fail("--samples-out needs --transfer");

  std::ofstream file;
  if (!evalReport.empty()) {
    file.open(evalReport);
    if (!file)
      return fail("cannot write '" + evalReport + "'");
    file << "model,samples,seed,rmse,mape,spearman,kendall,top1_recall,nll,coverage90\n";
  }
  for (const std::string &note : notes)
    llvm::outs() << "note: " << note << "\n";
  llvm::outs() << llvm::formatv("train: {0} valid configurations from {1} file(s); test: {2} "
                                "({3} on {4}), {5} valid configurations\n",
                                history.size(), trains.size(), testFile, test->kernelName,
                                test->deviceName, target.size());

  SearchSpace space = test->getSpace();
  std::unique_ptr<FeatureExtractor> features = createKnobFeatureExtractor(space);
  llvm::outs() << llvm::formatv("{0,-9} {1,7} {2,7} {3,8} {4,8} {5,8} {6,8} {7,8} {8,8} {9,8}\n",
                                "model", "samples", "rmse", "mape%", "spearman", "kendall",
                                "top1%rec", "nll", "cov90", "fit_s");
  ModelEvalOptions options;
  options.dgpIterations = evalDgpIterations;
  options.dgpInducing = evalDgpInducing;
  options.dgpHidden = evalDgpHidden;
  options.deviceMean = evalDeviceMean;
  options.calibrate = evalCalibrate;
  if (evalCalibrate)
    for (size_t count : counts)
      if (count == 0)
        return fail("--calibrate needs target samples to calibrate on (a count of 0 was given)");
  /// Means over seeds of one table row; NaN sums stay NaN for models
  /// without a variance and print as "-".
  struct Row {
    double rmse = 0, mape = 0, rho = 0, tau = 0, top = 0, nll = 0, cover = 0, fit = 0;
    double shift = 0, scale = 0;
    bool hasVariance = true;
    void add(const PredictionMetrics &m) {
      rmse += m.rmse;
      mape += m.mape;
      rho += m.spearman;
      tau += m.kendall;
      top += m.top1Recall;
      hasVariance = hasVariance && m.nll.has_value();
      if (m.nll) {
        nll += *m.nll;
        cover += *m.coverage90;
      }
    }
  };
  auto writeCsv = [&](const std::string &model, size_t count, int seed,
                      const PredictionMetrics &m) {
    if (file)
      file << model << "," << count << "," << seed << "," << formatNumber(m.rmse) << ","
           << formatNumber(m.mape) << "," << formatNumber(m.spearman) << ","
           << formatNumber(m.kendall) << "," << formatNumber(m.top1Recall) << ","
           << optionalNumber(m.nll) << "," << optionalNumber(m.coverage90) << "\n";
  };
  auto printRow = [&](const std::string &name, size_t count, const Row &r, bool calibrated) {
    double k = evalSeeds;
    auto orDash = [&](double v) {
      return r.hasVariance ? llvm::formatv("{0:f3}", v / k).str() : std::string("-");
    };
    llvm::outs() << llvm::formatv(
        "{0,-9} {1,7} {2,7:f3} {3,8:f1} {4,8:f3} {5,8:f3} {6,8:f3} {7,8} {8,8} {9,8:f2}", name,
        count, r.rmse / k, r.mape / k, r.rho / k, r.tau / k, r.top / k, orDash(r.nll),
        orDash(r.cover), r.fit / k);
    if (calibrated)
      llvm::outs() << llvm::formatv("  shift {0:f3} scale {1}", r.shift / k,
                                    r.hasVariance ? llvm::formatv("{0:f2}", r.scale / k).str()
                                                  : std::string("-"));
    llvm::outs() << "\n";
  };
  for (const std::string &model : models)
    for (size_t count : counts) {
      Row base, calibrated;
      for (int seed = 0; seed < evalSeeds; ++seed) {
        llvm::Expected<ModelEvalCase> result =
            evaluateModelOnTarget(model, history, target, *features, count, seed, options);
        if (!result)
          return fail(model + " with " + llvm::Twine(count) + " target samples, seed " +
                      llvm::Twine(seed) + ": " + llvm::toString(result.takeError()));
        writeCsv(model, count, seed, result->metrics);
        base.add(result->metrics);
        base.fit += result->fitSeconds;
        if (result->calibrated) {
          writeCsv(model + "+cal", count, seed, *result->calibrated);
          calibrated.add(*result->calibrated);
          calibrated.fit += result->fitSeconds;
          calibrated.shift += result->calibration.meanShift;
          calibrated.scale += result->calibration.scale;
        }
      }
      printRow(model, count, base, false);
      if (evalCalibrate)
        printRow(model + "+cal", count, calibrated, true);
    }
  if (file) {
    file.close();
    if (!file)
      return fail("writing '" + evalReport + "' failed");
  }
  return 0;
}

} // namespace dltune_tool
