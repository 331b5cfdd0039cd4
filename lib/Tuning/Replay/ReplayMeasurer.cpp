//===- ReplayMeasurer.cpp - Answering from recorded measurements ----------===//

#include "dltune/Tuning/Replay/ReplayMeasurer.h"

#include <algorithm>

using namespace mlir::dltune;

std::vector<MeasureRecord> ReplayMeasurer::measure(const std::vector<Config> &configs) {
  std::vector<MeasureRecord> out;
  for (const Config &c : configs) {
    MeasureRecord r;
    r.source = "replay";
    const RecordedMeasurement *m = cache.find(c);
    if (!m) {
      r.status = MeasureStatus::InvalidConfig;
      r.error = "not in the recorded search space";
      out.push_back(r);
      continue;
    }
    r.status = m->status;
    r.buildSeconds = m->compileMs / 1000.0;
    r.runSeconds = (m->benchmarkMs + m->verificationMs + m->frameworkMs) / 1000.0;
    clock += r.buildSeconds + r.runSeconds;
    if (m->status != MeasureStatus::Ok) {
      r.error = "recorded failure";
      out.push_back(r);
      continue;
    }
    r.timeMs = m->timeMs;
    if (!m->repeatsMs.empty()) {
      auto [lo, hi] = std::minmax_element(m->repeatsMs.begin(), m->repeatsMs.end());
      r.minMs = *lo;
      r.maxMs = *hi;
      r.repeats = static_cast<int>(m->repeatsMs.size());
      if (stochastic) {
        std::uniform_int_distribution<size_t> pick(0, m->repeatsMs.size() - 1);
        r.timeMs = m->repeatsMs[pick(rng)];
      }
    }
    out.push_back(r);
  }
  return out;
}
