//===- KernelTunerCache.cpp - Kernel Tuner cache files --------------------===//

#include "dltune/Tuning/Replay/KernelTunerCache.h"
#include "dltune/Tuning/Support/Error.h"

#include "Support/JsonFields.h"

#include <zlib.h>

#include <algorithm>

#include <fstream>
#include <sstream>

using namespace mlir::dltune;

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
  // A few bytes of gzip can expand without bound; no real cache is this big.
  constexpr size_t kMaxBytes = size_t(1) << 30;
  while ((n = gzread(gz, buf, sizeof(buf))) > 0) {
    out.append(buf, n);
    if (out.size() > kMaxBytes) {
      gzclose(gz);
      return makeError("'" + path + "' is larger than 1 GiB uncompressed");
    }
  }
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
  return parse(*text, path);
}

/// The measurement of one cache entry, or why it is not one.
static llvm::Expected<RecordedMeasurement>
parseEntry(const json &entry, llvm::ArrayRef<Knob> knobs) {
  if (!entry.is_object())
    return makeError("must be an object, not " + describeJson(entry));
  RecordedMeasurement m;
  for (const Knob &k : knobs) {
    auto v = entry.find(k.name);
    std::optional<int64_t> value =
        v == entry.end() ? std::nullopt : FieldReader::toInteger(*v);
    if (!value)
      return makeError("has no integer value for knob '" + k.name + "'");
    if (std::find(k.values.begin(), k.values.end(), *value) == k.values.end())
      return makeError("value " + llvm::Twine(*value) + " of knob '" + k.name +
                       "' is not in tune_params");
    m.config.push_back(*value);
  }
  auto t = entry.find("time");
  if (t == entry.end())
    return makeError("has no time");
  if (t->is_number()) {
    m.timeMs = t->get<double>();
    if (!std::isfinite(m.timeMs) || m.timeMs <= 0)
      return makeError("time must be a positive number, not " + describeJson(*t));
    // Kernel Tuner also marks failures with huge times in old caches.
    if (m.timeMs >= 1e20)
      m.status = MeasureStatus::RuntimeCrash;
  } else if (t->is_string()) {
    // Kernel Tuner's ErrorConfig classes.
    const std::string &s = t->get_ref<const std::string &>();
    if (s == "CompilationFailedConfig")
      m.status = MeasureStatus::CompileError;
    else if (s == "RuntimeFailedConfig")
      m.status = MeasureStatus::RuntimeCrash;
    else if (s == "InvalidConfig")
      m.status = MeasureStatus::InvalidConfig;
    else
      return makeError("time '" + s + "' is neither a number nor a Kernel Tuner "
                       "failure (CompilationFailedConfig, RuntimeFailedConfig, "
                       "InvalidConfig)");
    m.timeMs = NAN;
  } else {
    return makeError("time must be a number or a failure name, not " + describeJson(*t));
  }
  if (auto times = entry.find("times"); times != entry.end() && !times->is_null()) {
    // Repeats are numbers; some Kernel Tuner versions write [x, time] pairs
    // instead, whose meaning varies: those are checked but not used.
    auto isTime = [](const json &v) {
      return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0;
    };
    auto isPair = [&](const json &v) {
      return v.is_array() && v.size() == 2 && v[0].is_number() && isTime(v[1]);
    };
    if (!times->is_array())
      return makeError("times must be a list, not " + describeJson(*times));
    bool pairs = !times->empty() && isPair((*times)[0]);
    for (const json &r : *times) {
      if (pairs ? !isPair(r) : !isTime(r))
        return makeError("times must be a list of non-negative numbers (or of [x, time] "
                         "pairs), not holding " + describeJson(r));
      if (!pairs)
        m.repeatsMs.push_back(r.get<double>());
    }
  }
  FieldReader fields(entry, "");
  fields.number("compile_time", m.compileMs, FieldReader::Nullable, /*nonNegative=*/true);
  fields.number("benchmark_time", m.benchmarkMs, FieldReader::Nullable, true);
  fields.number("verification_time", m.verificationMs, FieldReader::Nullable, true);
  fields.number("framework_time", m.frameworkMs, FieldReader::Nullable, true);
  fields.number("GFLOP/s", m.gflopPerSecond, FieldReader::Nullable, true);
  if (!fields.ok())
    return fields.takeError();
  return m;
}

llvm::Expected<KernelTunerCache> KernelTunerCache::parse(llvm::StringRef text,
                                                         const std::string &name) {
  llvm::Expected<json> parsed = parseJson(text);
  if (!parsed) {
    // A cache written by a run that did not finish ends in "},": close it.
    llvm::consumeError(parsed.takeError());
    llvm::StringRef trimmed = text.rtrim();
    trimmed.consume_back(",");
    parsed = parseJson(trimmed.str() + "}}");
    if (!parsed)
      return makeError("'" + name + "' is not a Kernel Tuner cache (" +
                       llvm::toString(parsed.takeError()) + ")");
  }
  const json &doc = *parsed;
  if (!doc.is_object() || !doc.contains("tune_params") || !doc.contains("tune_params_keys") ||
      !doc.contains("cache"))
    return makeError("'" + name + "' is not a Kernel Tuner cache (no tune_params, "
                                  "tune_params_keys or cache)");
  auto bad = [&](const std::string &why) { return makeError("'" + name + "': " + why); };
  KernelTunerCache c;
  FieldReader top(doc, "");
  top.string("device_name", c.deviceName, FieldReader::Nullable);
  top.string("kernel_name", c.kernelName, FieldReader::Nullable);
  if (!top.ok())
    return bad(llvm::toString(top.takeError()));
  // problem_size is an integer or a list of integers.
  if (auto ps = doc.find("problem_size"); ps != doc.end() && !ps->is_null()) {
    json sizes = ps->is_array() ? *ps : json::array({*ps});
    for (const json &v : sizes) {
      std::optional<int64_t> size = FieldReader::toInteger(v);
      if (!size)
        return bad("problem_size must be an integer or a list of integers, not holding " +
                   describeJson(v));
      c.problemSize.push_back(*size);
    }
  }
  const json &keys = doc["tune_params_keys"], &params = doc["tune_params"];
  if (!keys.is_array() || !params.is_object())
    return bad("tune_params_keys must be a list and tune_params an object");
  for (const json &key : keys) {
    if (!key.is_string())
      return bad("tune_params_keys must be strings, not " + describeJson(key));
    const std::string &knob = key.get_ref<const std::string &>();
    auto values = params.find(knob);
    if (values == params.end() || !values->is_array())
      return bad("tune_params has no list of values for '" + knob + "'");
    Knob k{knob, {}};
    for (const json &v : *values) {
      std::optional<int64_t> value = FieldReader::toInteger(v);
      if (!value)
        return bad("knob '" + knob + "' has a non-integer value " + describeJson(v) +
                   " (not supported)");
      k.values.push_back(*value);
    }
    c.knobs.push_back(std::move(k));
  }
  // getSpace() relies on these being a valid space.
  if (llvm::Expected<SearchSpace> s = SearchSpace::create(c.knobs, {}, {}); !s)
    return bad(llvm::toString(s.takeError()));
  const json &cache = doc["cache"];
  if (!cache.is_object())
    return bad("cache must be an object");
  ImportErrors errors(name);
  for (auto it = cache.begin(); it != cache.end(); ++it) {
    std::string where = ": cache entry '" + it.key() + "'";
    llvm::Expected<RecordedMeasurement> m = parseEntry(it.value(), c.knobs);
    if (!m) {
      errors.add(where, llvm::toString(m.takeError()));
      continue;
    }
    auto [pos, inserted] = c.index.try_emplace(m->config, c.entries.size());
    if (!inserted) {
      errors.add(where, "repeats the configuration of another entry");
      continue;
    }
    c.entries.push_back(std::move(*m));
  }
  if (llvm::Error e = errors.take())
    return std::move(e);
  if (c.entries.empty())
    return bad("the cache holds no configurations");
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

llvm::Expected<std::vector<KernelTunerCache>>
KernelTunerCache::loadList(llvm::StringRef paths, std::vector<std::string> &names) {
  llvm::SmallVector<llvm::StringRef> parts;
  paths.split(parts, ',', -1, /*KeepEmpty=*/false);
  std::vector<KernelTunerCache> caches;
  for (llvm::StringRef part : parts) {
    llvm::Expected<KernelTunerCache> cache = load(part.trim().str());
    if (!cache)
      return cache.takeError();
    caches.push_back(std::move(*cache));
    names.push_back(part.trim().str());
  }
  return caches;
}

/// The median of non-empty `values`.
static double getMedian(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double KernelTunerCache::getMedianMs() const {
  std::vector<double> times;
  for (const RecordedMeasurement &m : entries)
    if (m.status == MeasureStatus::Ok)
      times.push_back(m.timeMs);
  return times.empty() ? NAN : getMedian(std::move(times));
}

std::optional<double> KernelTunerCache::getFlopsPerCall() const {
  std::vector<double> flops;
  for (const RecordedMeasurement &m : entries)
    if (m.status == MeasureStatus::Ok && std::isfinite(m.gflopPerSecond) && m.gflopPerSecond > 0)
      flops.push_back(m.gflopPerSecond * 1e9 * m.timeMs * 1e-3);
  if (flops.empty())
    return std::nullopt;
  return getMedian(std::move(flops));
}

const RecordedMeasurement *KernelTunerCache::find(const Config &config) const {
  auto it = index.find(config);
  return it == index.end() ? nullptr : &entries[it->second];
}
