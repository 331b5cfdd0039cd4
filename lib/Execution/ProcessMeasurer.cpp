//===- ProcessMeasurer.cpp - Building and timing in child processes -------===//

#include "dltune/Execution/ProcessMeasurer.h"
#include "dltune/Execution/AnchoredTiming.h"
#include "dltune/Execution/CpuKernel.h"
#include "dltune/Tuning/Process/WorkerProtocol.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstring>
#include <sys/statvfs.h>
#include <unistd.h>

using namespace mlir::dltune;

ProcessMeasurer::ProcessMeasurer(const SearchSpace &space, ProcessMeasurerOptions options,
                                 double bestMs)
    : space(space), options(std::move(options)), start(std::chrono::steady_clock::now()),
      bestMs(bestMs) {}

double ProcessMeasurer::getClockSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

static std::string lastLines(const std::string &text, size_t maxChars = 2000) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' '))
    t.pop_back();
  return t.size() > maxChars ? "..." + t.substr(t.size() - maxChars) : t;
}

/// The worker's JSON line, if it printed one.
static std::optional<llvm::json::Object> parseReport(const std::string &out) {
  size_t end = out.find_last_not_of("\n ");
  if (end == std::string::npos)
    return std::nullopt;
  size_t begin = out.rfind('\n', end);
  std::string line = out.substr(begin == std::string::npos ? 0 : begin + 1,
                                end - (begin == std::string::npos ? 0 : begin + 1) + 1);
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(line);
  if (!v) {
    llvm::consumeError(v.takeError());
    return std::nullopt;
  }
  if (llvm::json::Object *o = v->getAsObject())
    return std::move(*o);
  return std::nullopt;
}

MeasureRecord mlir::dltune::classifyWorkerResult(const ChildResult &r, bool building) {
  MeasureRecord rec;
  std::optional<llvm::json::Object> report = parseReport(r.out);
  std::string message;
  if (report)
    if (std::optional<llvm::StringRef> e = report->getString("error"))
      message = e->str();
  if (message.empty())
    message = lastLines(r.err);
  if (r.timedOut) {
    rec.status = building ? MeasureStatus::CompileTimeout : MeasureStatus::RunTimeout;
    rec.error = "killed after " + std::to_string(r.wallSeconds).substr(0, 6) +
                " s (wall-time limit)";
    return rec;
  }
  if (r.signal) {
    // SIGKILL without our timeout is the kernel's OOM killer.
    if (r.signal == SIGKILL) {
      rec.status = MeasureStatus::OutOfMemory;
      rec.error = "killed (SIGKILL), most likely out of memory";
    } else {
      rec.status = building ? MeasureStatus::CompileError : MeasureStatus::RuntimeCrash;
      rec.error = std::string(building ? "compiler crashed: " : "crashed: ") +
                  strsignal(r.signal) + " (signal " + std::to_string(r.signal) + ")";
    }
    if (!message.empty())
      rec.error += "\n" + message;
    return rec;
  }
  switch (r.exitCode) {
  case worker::kOk:
    rec.status = MeasureStatus::Ok;
    break;
  case worker::kInvalidConfig:
    rec.status = MeasureStatus::InvalidConfig;
    break;
  case worker::kCompileError:
    rec.status = MeasureStatus::CompileError;
    break;
  case worker::kWrongResult:
    rec.status = MeasureStatus::WrongResult;
    break;
  case worker::kOutOfMemory:
    rec.status = MeasureStatus::OutOfMemory;
    break;
  default:
    rec.status = building ? MeasureStatus::CompileError : MeasureStatus::RuntimeCrash;
    message = "worker exited with code " + std::to_string(r.exitCode) +
              (message.empty() ? "" : ": " + message);
    break;
  }
  // GPU builds report ptxas's resource usage (also when over the limits).
  if (building && report)
    if (const llvm::json::Value *v = report->get("gpu_resources")) {
      llvm::Expected<std::vector<GpuKernelResources>> parsed = gpuResourcesFromJSON(*v);
      if (parsed) {
        rec.gpuResources = std::move(*parsed);
      } else {
        // Our own worker wrote it: a malformed report is a build failure.
        rec.status = MeasureStatus::CompileError;
        message += (message.empty() ? "" : "\n") + std::string("malformed build report: ") +
                   llvm::toString(parsed.takeError());
      }
    }
  if (rec.status != MeasureStatus::Ok) {
    rec.error = message;
    return rec;
  }
  if (!building) {
    if (!report) {
      rec.status = MeasureStatus::RuntimeCrash;
      rec.error = "the worker printed no report: " + lastLines(r.out + r.err);
      return rec;
    }
    rec.timeMs = report->getNumber("median_ms").value_or(NAN);
    rec.minMs = report->getNumber("min_ms").value_or(NAN);
    rec.maxMs = report->getNumber("max_ms").value_or(NAN);
    rec.stddevMs = report->getNumber("stddev_ms").value_or(NAN);
    rec.repeats = static_cast<int>(report->getInteger("repeats").value_or(0));
    rec.cutOff = report->getBoolean("cut_off").value_or(false);
    if (std::optional<double> e = report->getNumber("energy_j"))
      rec.energyJ = *e;
    // Noisy: spread large against the median (another process, frequency
    // changes); the median still counts, the flag warns.
    rec.noisy = !rec.cutOff && rec.repeats > 1 && rec.timeMs > 0 &&
                (rec.stddevMs / rec.timeMs > 0.1 || rec.minMs < 0.8 * rec.timeMs);
    // Timed in a slow phase of the machine that did not end in time, or
    // no two blocks between fast anchors agreed.
    rec.noisy |= report->getBoolean("slow_phase").value_or(false) ||
                 !report->getBoolean("settled").value_or(true);
    rec.anchorMs = report->getNumber("anchor_ms").value_or(NAN);
    rec.anchorSlowdown = report->getNumber("anchor_slowdown").value_or(NAN);
    if (std::isnan(rec.timeMs)) {
      rec.status = MeasureStatus::RuntimeCrash;
      rec.error = "the worker reported no time";
    }
  }
  return rec;
}

void mlir::dltune::noteFullDisk(MeasureRecord &record, const std::string &dir,
                                const std::string &childStderr) {
  if (record.isOk() || isEnvironmentFailure(record))
    return;
  // What a compiler, linker or kernel needs at most to write its output.
  constexpr double kMinFreeBytes = 64.0 * (1 << 20);
  struct statvfs fs;
  bool full = ::statvfs(dir.c_str(), &fs) == 0 &&
              static_cast<double>(fs.f_bavail) * fs.f_frsize < kMinFreeBytes;
  if (full)
    record.error += llvm::formatv("\nNo space left on device: {0:f1} MB free in '{1}'",
                                  static_cast<double>(fs.f_bavail) * fs.f_frsize / (1 << 20), dir)
                        .str();
  else if (llvm::StringRef(childStderr).contains("No space left on device"))
    record.error += "\nNo space left on device (said by the worker's tools)";
}

std::vector<bool> ProcessMeasurer::claim(const std::vector<Config> &configs) {
  if (!options.claim)
    return Measurer::claim(configs);
  return options.claim(configs);
}

std::vector<std::pair<Config, MeasureRecord>>
ProcessMeasurer::collectOthersResults(const TuningHistory &history) {
  if (!options.othersResults)
    return {};
  return options.othersResults(history);
}

std::vector<MeasureRecord> ProcessMeasurer::measure(const std::vector<Config> &configs) {
  return measureEach(configs, [](size_t, const MeasureRecord &) {});
}

std::vector<std::string> ProcessMeasurer::buildCandidates(const std::vector<Config> &configs,
                                                          std::vector<MeasureRecord> &records,
                                                          const ResultHandler &onFailure) {
  std::vector<std::string> soPaths;
  std::vector<std::vector<std::string>> builds;
  for (const Config &c : configs) {
    soPaths.push_back(options.workDir + "/cand-" + std::to_string(::getpid()) + "-" +
                      std::to_string(counter++) + ".so");
    builds.push_back({options.workerPath, "worker", "build", "--kernel", options.kernelPath,
                      "--config", space.formatConfig(c), "--out", soPaths.back()});
    for (auto [flag, value] : {std::pair<const char *, const std::string &>{"--chip", options.gpuChip},
                               {"--gpu-limits", options.gpuLimits}})
      if (!value.empty()) {
        builds.back().push_back(flag);
        builds.back().push_back(value);
      }
  }
  (void)readEnergy(); // the meter's reading from here on
  std::vector<llvm::Expected<ChildResult>> built =
      runChildren(builds, options.buildLimits, options.jobs);
  std::optional<double> buildJoules = readEnergy();
  std::vector<double> buildSeconds;
  for (llvm::Expected<ChildResult> &b : built)
    buildSeconds.push_back(b ? b->wallSeconds : 0.0);
  std::vector<double> buildShares = splitBySeconds(buildSeconds);
  for (size_t i = 0; i < configs.size(); ++i) {
    if (!built[i]) {
      records[i].status = MeasureStatus::CompileError;
      records[i].error = "cannot start the build worker: " + llvm::toString(built[i].takeError());
    } else {
      records[i] = classifyWorkerResult(*built[i], /*building=*/true);
      records[i].buildSeconds = built[i]->wallSeconds;
      noteFullDisk(records[i], options.workDir, built[i]->err);
    }
    if (buildJoules)
      records[i].candidateEnergyJ = *buildJoules * buildShares[i];
    if (!records[i].isOk()) {
      llvm::sys::fs::remove(soPaths[i]);
      onFailure(i, records[i]);
    }
  }
  return soPaths;
}

std::optional<double> ProcessMeasurer::readEnergy() {
  std::optional<double> joules =
      options.readEnergyJoules ? options.readEnergyJoules() : std::nullopt;
  // A counter reset (an NVML restart, a wrap without a known range) is no
  // reading: nothing rather than a negative or infinite figure.
  if (joules && !(std::isfinite(*joules) && *joules >= 0))
    return std::nullopt;
  return joules;
}

std::vector<double> mlir::dltune::splitBySeconds(const std::vector<double> &seconds) {
  double total = 0;
  for (double s : seconds)
    total += std::max(s, 0.0);
  std::vector<double> shares;
  for (double s : seconds)
    shares.push_back(total > 0 ? std::max(s, 0.0) / total : 1.0 / seconds.size());
  return shares;
}

MeasureRecord ProcessMeasurer::runMeasureWorker(const Config &config, const std::string &so,
                                                bool allowCutoff) {
  std::vector<std::string> argv = {
      options.workerPath, "worker", "measure", "--kernel", options.kernelPath, "--so", so,
      "--reference", options.referencePath, "--reference-key", options.referenceKey,
      "--config", space.formatConfig(config), "--min-time-ms", std::to_string(options.minTimeMs)};
  if (options.flushCaches)
    argv.push_back("--flush-caches");
  if (options.rtol >= 0)
    argv.insert(argv.end(), {"--rtol", std::to_string(options.rtol)});
  if (options.atol >= 0)
    argv.insert(argv.end(), {"--atol", std::to_string(options.atol)});
  if (allowCutoff && options.cutoffFactor > 0 && std::isfinite(bestMs))
    argv.insert(argv.end(), {"--cutoff-ms", std::to_string(options.cutoffFactor * bestMs)});
  double knownAnchorMs = getFastPhaseTime(anchorReports);
  if (ensureAnchor())
    argv.insert(argv.end(),
                {"--anchor-so", anchorSo, "--anchor-ms",
                 std::to_string(std::isfinite(knownAnchorMs) ? knownAnchorMs : 0.0),
                 "--phase-tolerance",
                 std::to_string(options.anchorTolerance), "--max-phase-wait-s",
                 std::to_string(options.maxPhaseWaitSeconds)});
  MeasureRecord rec;
  llvm::Expected<ChildResult> run = runChild(argv, options.runLimits);
  if (!run) {
    rec.status = MeasureStatus::RuntimeCrash;
    rec.error = "cannot start the measure worker: " + llvm::toString(run.takeError());
    return rec;
  }
  rec = classifyWorkerResult(*run, /*building=*/false);
  rec.runSeconds = run->wallSeconds;
  noteFullDisk(rec, options.workDir, run->err);
  if (std::isfinite(rec.anchorMs))
    anchorReports.push_back(rec.anchorMs);
  return rec;
}

bool ProcessMeasurer::ensureAnchor() {
  if (anchorTried)
    return !anchorSo.empty();
  anchorTried = true;
  if (options.anchorConfig.empty() || options.anchorTolerance <= 0)
    return false;
  llvm::Expected<Config> config = space.parseConfig(options.anchorConfig);
  auto warn = [&](const std::string &why) {
    if (options.warn)
      options.warn("timing without an anchor: " + why);
  };
  if (!config) {
    warn(llvm::toString(config.takeError()));
    return false;
  }
  std::vector<MeasureRecord> built(1);
  std::string so = buildCandidates({*config}, built, [](size_t, const MeasureRecord &) {})[0];
  if (!built[0].isOk()) {
    warn("its build failed (" + toString(built[0].status).str() + "): " + built[0].error);
    return false;
  }
  anchorSo = so; // kept until the measurer goes
  return true;
}

ProcessMeasurer::~ProcessMeasurer() {
  if (!anchorSo.empty())
    llvm::sys::fs::remove(anchorSo);
}

std::vector<MeasureRecord> ProcessMeasurer::measureEach(const std::vector<Config> &configs,
                                                        const ResultHandler &onResult) {
  std::vector<MeasureRecord> records(configs.size());
  // A failure of the machine is not the candidate's: it is not reported
  // (so never recorded), and measuring stops.
  auto report = [&](size_t i, const MeasureRecord &r) {
    if (!stopReason.empty())
      return;
    if (isEnvironmentFailure(r)) {
      stop("candidate " + space.formatConfig(configs[i]) + " could not be " +
           (r.status == MeasureStatus::CompileError || r.status == MeasureStatus::CompileTimeout
                ? "built"
                : "measured") +
           " for a reason outside it, so it was not recorded: " + r.error);
      return;
    }
    onResult(i, r);
  };
  // Failed builds are final at once; they are reported before any timing.
  std::vector<std::string> soPaths = buildCandidates(configs, records, report);
  // One measurement at a time: nothing else of ours runs beside it.
  for (size_t i = 0; i < configs.size(); ++i) {
    if (!records[i].isOk())
      continue;
    if (!stopReason.empty()) {
      llvm::sys::fs::remove(soPaths[i]);
      records[i].status = MeasureStatus::RuntimeCrash;
      records[i].error = "not measured: " + stopReason;
      continue;
    }
    double buildSeconds = records[i].buildSeconds;
    std::optional<double> buildJoules = records[i].candidateEnergyJ;
    std::vector<GpuKernelResources> resources = std::move(records[i].gpuResources);
    // The anchor is built (once) before the measurement's reading starts:
    // its build belongs to no candidate.
    (void)ensureAnchor();
    (void)readEnergy();
    records[i] = runMeasureWorker(configs[i], soPaths[i], /*allowCutoff=*/true);
    std::optional<double> runJoules = readEnergy();
    if (buildJoules && runJoules)
      records[i].candidateEnergyJ = *buildJoules + *runJoules;
    if (records[i].isOk() && records[i].repeats > 1 && !records[i].noisy)
      bestMs = std::min(bestMs, records[i].timeMs);
    records[i].buildSeconds = buildSeconds;
    records[i].gpuResources = std::move(resources);
    llvm::sys::fs::remove(soPaths[i]);
    report(i, records[i]);
  }
  return records;
}

std::vector<Confirmation> ProcessMeasurer::confirm(const std::vector<Config> &configs,
                                                   unsigned maxRounds,
                                                   std::vector<std::string> &notes,
                                                   llvm::function_ref<bool()> outOfTime) {
  std::vector<Confirmation> out(configs.size());
  std::vector<MeasureRecord> built(configs.size());
  std::vector<std::string> soPaths =
      buildCandidates(configs, built, [](size_t, const MeasureRecord &) {});
  std::vector<std::vector<double>> medians(configs.size());
  std::vector<bool> failed(configs.size(), false);
  for (size_t i = 0; i < configs.size(); ++i) {
    out[i].config = space.formatConfig(configs[i]);
    if (!built[i].isOk()) {
      failed[i] = true;
      notes.push_back(out[i].config + ": rebuild failed (" + toString(built[i].status).str() +
                      "): " + built[i].error);
    }
  }
  for (unsigned round = 0; round < maxRounds; ++round) {
    // Interleaved, in a rotating order, so that a slow phase of the machine
    // hits every candidate alike rather than one of them.
    for (size_t k = 0; k < configs.size(); ++k) {
      size_t i = (k + round) % configs.size();
      if (failed[i])
        continue;
      MeasureRecord r = runMeasureWorker(configs[i], soPaths[i], /*allowCutoff=*/false);
      if (!r.isOk()) {
        failed[i] = true;
        notes.push_back(out[i].config + ": re-measurement failed (" +
                        toString(r.status).str() + "): " + r.error);
        continue;
      }
      medians[i].push_back(r.timeMs);
    }
    if (outOfTime && outOfTime() && round + 1 < maxRounds) {
      notes.push_back("time budget reached: confirmed with " + std::to_string(round + 1) +
                      " round(s) of " + std::to_string(maxRounds));
      break;
    }
    // Separated: the fastest candidate's slowest process still beats every
    // other candidate's fastest one. Three rounds at least, so that one
    // lucky process cannot decide.
    if (round + 1 < std::min(3u, maxRounds))
      continue;
    std::vector<TimingStats> stats(configs.size());
    size_t best = configs.size();
    for (size_t i = 0; i < configs.size(); ++i) {
      if (failed[i] || medians[i].empty())
        continue;
      stats[i] = summarizeTimes(medians[i]);
      if (best == configs.size() || stats[i].medianMs < stats[best].medianMs)
        best = i;
    }
    if (best == configs.size())
      break;
    bool separated = true;
    for (size_t i = 0; i < configs.size(); ++i)
      if (i != best && stats[i].repeats > 0 && stats[i].minMs <= stats[best].maxMs)
        separated = false;
    if (separated)
      break;
  }
  for (size_t i = 0; i < configs.size(); ++i) {
    llvm::sys::fs::remove(soPaths[i]);
    if (failed[i] || medians[i].empty())
      continue;
    TimingStats t = summarizeTimes(medians[i]);
    out[i].rounds = t.repeats;
    out[i].medianMs = t.medianMs;
    out[i].minMs = t.minMs;
    out[i].maxMs = t.maxMs;
  }
  return out;
}

llvm::Expected<double> ProcessMeasurer::makeReference(const ProcessMeasurerOptions &options,
                                                      double flops, std::string *how) {
  ChildLimits limits = options.runLimits;
  // The untuned loops run at 0.1-1 GFLOP/s: allow 20 MFLOP/s plus start-up,
  // and never less than ten times a candidate's budget. (A scheduled
  // reference may fall back to them.)
  limits.wallSeconds = std::max({limits.wallSeconds * 10, options.buildLimits.wallSeconds,
                                 30 + flops / 2e7});
  std::vector<std::string> argv = {options.workerPath, "worker", "reference", "--kernel",
                                   options.kernelPath, "--out", options.referencePath,
                                   "--reference-key", options.referenceKey};
  if (options.scheduledReference)
    argv.push_back("--scheduled-reference");
  llvm::Expected<ChildResult> r = runChild(argv, limits);
  if (!r)
    return r.takeError();
  MeasureRecord rec = classifyWorkerResult(*r, /*building=*/true);
  // The reference worker builds and runs: a signal is most likely the
  // untuned kernel's (a compile failure exits with its own code).
  if (r->signal && r->signal != SIGKILL && !r->timedOut) {
    rec.status = MeasureStatus::RuntimeCrash;
    rec.error = std::string("crashed: ") + strsignal(r->signal) + " (signal " +
                std::to_string(r->signal) + ")";
  }
  const char *kind = options.scheduledReference ? "reference" : "untuned reference";
  if (r->timedOut)
    rec.error = std::string("the ") + kind + " ran past its limit of " +
                std::to_string(static_cast<int>(limits.wallSeconds)) + " s";
  if (!rec.isOk())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the %s failed (%s): %s",
                                   kind, toString(rec.status).str().c_str(),
                                   rec.error.c_str());
  std::optional<llvm::json::Object> report = parseReport(r->out);
  if (how && report)
    if (std::optional<llvm::StringRef> said = report->getString("reference"))
      *how = said->str();
  return report ? report->getNumber("untuned_ms").value_or(NAN) : NAN;
}

std::optional<std::string>
ProcessMeasurer::readReferenceKind(const ProcessMeasurerOptions &options) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> kind =
      llvm::MemoryBuffer::getFile(options.referencePath + ".kind");
  if (!kind)
    return std::nullopt;
  return (*kind)->getBuffer().trim().str();
}

bool ProcessMeasurer::hasReference(const ProcessMeasurerOptions &options) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> key =
      llvm::MemoryBuffer::getFile(options.referencePath + ".key");
  return key && (*key)->getBuffer().trim() == options.referenceKey &&
         llvm::sys::fs::exists(options.referencePath);
}
