//===- KernelTunerCache.cpp - Kernel Tuner cache files --------------------===//

#include "dltune/Tuning/KernelTunerCache.h"
#include "dltune/Tuning/Error.h"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <fstream>
#include <sstream>

using namespace mlir::dltune;
using json = nlohmann::json;

llvm::Expected<std::string> mlir::dltune::readMaybeGzipped(const std::string &path) {
  std::ifstream probe(path, std::ios::binary);
  if (!probe)
    return makeError("cannot open '" + path + "'");
  char magic[2] = {0, 0};
  probe.read(magic, 2);
  if (static_cast<unsigned char>(magic[0]) != 0x1f ||
      static_cast<unsigned char>(magic[1]) != 0x8b) {
    probe.clear();
    probe.seekg(0);
    std::stringstream ss;
    ss << probe.rdbuf();
    return ss.str();
  }
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz)
    return makeError("cannot open '" + path + "' as gzip");
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(gz, buf, sizeof(buf))) > 0)
    out.append(buf, n);
  int errnum = 0;
  const char *msg = gzerror(gz, &errnum);
  gzclose(gz);
  if (n < 0 || (errnum != Z_OK && errnum != Z_STREAM_END))
    return makeError("'" + path + "': corrupt gzip data (" + msg + ")");
  return out;
}

llvm::Expected<KernelTunerCache> KernelTunerCache::load(const std::string &path) {
  llvm::Expected<std::string> text = readMaybeGzipped(path);
  if (!text)
    return text.takeError();
  json doc = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    // A cache written by a run that did not finish ends in "},": close it.
    std::string fixed = *text;
    while (!fixed.empty() && std::isspace(static_cast<unsigned char>(fixed.back())))
      fixed.pop_back();
    if (!fixed.empty() && fixed.back() == ',')
      fixed.pop_back();
    fixed += "}}";
    doc = json::parse(fixed, nullptr, false);
    if (doc.is_discarded())
      return makeError("'" + path + "' is not a Kernel Tuner cache (invalid JSON)");
  }
  if (!doc.is_object() || !doc.contains("tune_params") ||
      !doc.contains("tune_params_keys") || !doc.contains("cache"))
    return makeError("'" + path + "' is not a Kernel Tuner cache (no tune_params, "
                     "tune_params_keys or cache)");
  KernelTunerCache c;
  c.deviceName = doc.value("device_name", "");
  c.kernelName = doc.value("kernel_name", "");
  if (doc.contains("problem_size") && doc["problem_size"].is_array())
    for (const json &v : doc["problem_size"])
      if (v.is_number_integer())
        c.problemSize.push_back(v.get<int64_t>());
  for (const json &key : doc["tune_params_keys"]) {
    if (!key.is_string())
      return makeError("'" + path + "': tune_params_keys must be strings");
    std::string name = key.get<std::string>();
    const json &values = doc["tune_params"][name];
    Knob k{name, {}};
    for (const json &v : values) {
      if (!v.is_number_integer())
        return makeError("'" + path + "': knob '" + name +
                         "' has a non-integer value (not supported)");
      k.values.push_back(v.get<int64_t>());
    }
    c.knobs.push_back(std::move(k));
  }
  for (auto &[key, entry] : doc["cache"].items()) {
    RecordedMeasurement m;
    bool ok = true;
    for (const Knob &k : c.knobs) {
      if (!entry.contains(k.name) || !entry[k.name].is_number_integer()) {
        ok = false;
        break;
      }
      m.config.push_back(entry[k.name].get<int64_t>());
    }
    if (!ok)
      return makeError("'" + path + "': entry '" + key + "' lacks a knob value");
    const json &t = entry.contains("time") ? entry["time"] : json();
    if (t.is_number()) {
      m.timeMs = t.get<double>();
      // Kernel Tuner also marks failures with huge times in old caches.
      if (m.timeMs >= 1e20)
        m.status = MeasureStatus::RuntimeCrash;
    } else if (t.is_string()) {
      std::string s = t.get<std::string>();
      m.status = s == "CompilationFailedConfig" ? MeasureStatus::CompileError
                 : s == "InvalidConfig"         ? MeasureStatus::InvalidConfig
                                                : MeasureStatus::RuntimeCrash;
    } else {
      m.status = MeasureStatus::RuntimeCrash;
    }
    if (entry.contains("times") && entry["times"].is_array())
      for (const json &r : entry["times"])
        if (r.is_number())
          m.repeatsMs.push_back(r.get<double>());
    auto num = [&](const char *field) {
      return entry.contains(field) && entry[field].is_number() ? entry[field].get<double>()
                                                               : 0.0;
    };
    m.compileMs = num("compile_time");
    m.benchmarkMs = num("benchmark_time");
    m.verificationMs = num("verification_time");
    m.frameworkMs = num("framework_time");
    c.index[m.config] = c.entries.size();
    c.entries.push_back(std::move(m));
  }
  if (c.entries.empty())
    return makeError("'" + path + "': the cache holds no configurations");
  if (llvm::Expected<SearchSpace> s = SearchSpace::create(c.knobs, {}, {}); !s)
    return makeError("'" + path + "': " + llvm::toString(s.takeError()));
  return c;
}

SearchSpace KernelTunerCache::getSpace() const {
  llvm::Expected<SearchSpace> space = SearchSpace::create(knobs, {}, {});
  SearchSpace s = llvm::cantFail(std::move(space));
  std::vector<Config> allowed;
  for (const RecordedMeasurement &m : entries)
    allowed.push_back(m.config);
  s.restrictTo(std::move(allowed));
  return s;
}

double KernelTunerCache::getOptimumMs() const {
  double best = INFINITY;
  for (const RecordedMeasurement &m : entries)
    if (m.status == MeasureStatus::Ok)
      best = std::min(best, m.timeMs);
  return best;
}

const RecordedMeasurement *KernelTunerCache::find(const Config &config) const {
  auto it = index.find(config);
  return it == index.end() ? nullptr : &entries[it->second];
}
