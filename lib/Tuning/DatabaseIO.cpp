//===- DatabaseIO.cpp - Export and import of tuning records ---------------===//

#include "dltune/Tuning/DatabaseIO.h"
#include "dltune/Tuning/Error.h"
#include "dltune/Tuning/KernelTunerCache.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <set>

using namespace mlir::dltune;
using json = nlohmann::json;

std::string mlir::dltune::hashHex(llvm::StringRef text) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format_hex_no_prefix(stableHash(text), 16);
  return s;
}

static json numberOrNull(double v) { return std::isnan(v) ? json() : json(v); }
static double numberOr(const json &o, const char *k, double dflt) {
  return o.contains(k) && o[k].is_number() ? o[k].get<double>() : dflt;
}

llvm::Error mlir::dltune::exportJsonLines(Database &db, std::ostream &out, int64_t *count) {
  llvm::Expected<std::vector<DeviceRecord>> devices = db.listDevices();
  if (!devices)
    return devices.takeError();
  llvm::Expected<std::vector<TaskRecord>> tasks = db.listTasks();
  if (!tasks)
    return tasks.takeError();
  int64_t n = 0;
  for (const TaskRecord &t : *tasks) {
    json task = {{"hash", t.hash},       {"op_kind", t.opKind},
                 {"target", t.target},   {"shapes", t.shapes},
                 {"element_types", t.elementTypes}, {"space", t.space},
                 {"source", t.source}};
    for (const DeviceRecord &d : *devices) {
      llvm::Expected<std::vector<MeasureRecord>> records = db.getRecords(t.id, d.id);
      if (!records)
        return records.takeError();
      for (const MeasureRecord &r : *records) {
        json rec = {{"config", r.config},
                    {"status", toString(r.status).str()},
                    {"time_ms", numberOrNull(r.timeMs)},
                    {"min_ms", numberOrNull(r.minMs)},
                    {"max_ms", numberOrNull(r.maxMs)},
                    {"stddev_ms", numberOrNull(r.stddevMs)},
                    {"repeats", r.repeats},
                    {"noisy", r.noisy},
                    {"energy_j", r.energyJ ? json(*r.energyJ) : json()},
                    {"error", r.error},
                    {"build_s", numberOrNull(r.buildSeconds)},
                    {"run_s", numberOrNull(r.runSeconds)},
                    {"source", r.source},
                    {"created_at", r.createdAt}};
        json line = {{"format", "dltune-record-v1"},
                     {"task", task},
                     {"device", {{"fingerprint", d.fingerprint}, {"name", d.name}, {"json", d.json}}},
                     {"record", rec}};
        out << line.dump() << "\n";
        ++n;
      }
    }
  }
  if (count)
    *count = n;
  return llvm::Error::success();
}

namespace {
/// Reads a file line by line inside one transaction, caching task/device ids.
struct Importer {
  Database &db;
  ImportStats stats;
  std::map<std::string, int64_t> taskIds, deviceIds;

  llvm::Expected<int64_t> task(const TaskRecord &t) {
    auto it = taskIds.find(t.hash);
    if (it != taskIds.end())
      return it->second;
    llvm::Expected<int64_t> id = db.getOrCreateTask(t);
    if (!id)
      return id.takeError();
    ++stats.tasks;
    return taskIds[t.hash] = *id;
  }
  llvm::Expected<int64_t> device(const DeviceRecord &d) {
    auto it = deviceIds.find(d.fingerprint);
    if (it != deviceIds.end())
      return it->second;
    llvm::Expected<int64_t> id = db.getOrCreateDevice(d);
    if (!id)
      return id.takeError();
    return deviceIds[d.fingerprint] = *id;
  }
  /// The record of `t` on `d`, creating both as needed.
  llvm::Error add(const TaskRecord &t, const DeviceRecord &d, const MeasureRecord &r) {
    llvm::Expected<int64_t> tid = task(t);
    if (!tid)
      return tid.takeError();
    llvm::Expected<int64_t> did = device(d);
    if (!did)
      return did.takeError();
    return record(*tid, *did, r);
  }
  llvm::Error record(int64_t t, int64_t d, const MeasureRecord &r) {
    llvm::Expected<bool> inserted = db.commitRecord(t, d, r);
    if (!inserted)
      return inserted.takeError();
    ++(*inserted ? stats.inserted : stats.skipped);
    return llvm::Error::success();
  }
};

llvm::Error forEachLine(const std::string &path,
                        const std::function<llvm::Error(const std::string &, int)> &fn) {
  std::ifstream in(path);
  if (!in)
    return makeError("cannot open '" + path + "'");
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#')
      continue;
    if (llvm::Error e = fn(line, lineNo))
      return e;
  }
  return llvm::Error::success();
}
} // namespace

llvm::Expected<ImportStats> mlir::dltune::importJsonLines(Database &db, const std::string &path) {
  Importer imp{db};
  llvm::Error err = db.transaction([&]() {
    return forEachLine(path, [&](const std::string &line, int lineNo) -> llvm::Error {
      json j = json::parse(line, nullptr, false);
      auto bad = [&](const char *why) {
        return makeError("'" + path + "' line " + llvm::Twine(lineNo) + ": " + why);
      };
      if (j.is_discarded())
        return bad("not JSON");
      if (!j.is_object() || j.value("format", "") != "dltune-record-v1" ||
          !j.contains("task") || !j.contains("device") || !j.contains("record"))
        return bad("not a dltune-record-v1 line");
      const json &t = j["task"], &d = j["device"], &r = j["record"];
      if (!t.contains("hash") || !t["hash"].is_string() || !d.contains("fingerprint") ||
          !r.contains("config") || !r["config"].is_string() || !r.contains("status"))
        return bad("missing task hash, device fingerprint, config or status");
      std::optional<MeasureStatus> status = parseMeasureStatus(r.value("status", ""));
      if (!status)
        return bad("unknown status");
      TaskRecord task{0, t["hash"], t.value("op_kind", ""), t.value("target", ""),
                      t.value("shapes", ""), t.value("element_types", ""),
                      t.value("space", ""), t.value("source", "dltune")};
      DeviceRecord dev{0, d.value("fingerprint", ""), d.value("name", ""), d.value("json", "")};
      MeasureRecord rec;
      rec.config = r["config"];
      rec.status = *status;
      rec.timeMs = numberOr(r, "time_ms", NAN);
      rec.minMs = numberOr(r, "min_ms", NAN);
      rec.maxMs = numberOr(r, "max_ms", NAN);
      rec.stddevMs = numberOr(r, "stddev_ms", NAN);
      rec.repeats = static_cast<int>(numberOr(r, "repeats", 0));
      rec.noisy = r.value("noisy", false);
      if (r.contains("energy_j") && r["energy_j"].is_number())
        rec.energyJ = r["energy_j"].get<double>();
      rec.error = r.value("error", "");
      rec.buildSeconds = numberOr(r, "build_s", 0);
      rec.runSeconds = numberOr(r, "run_s", 0);
      rec.source = r.value("source", "imported");
      rec.createdAt = numberOr(r, "created_at", 0);
      return imp.add(task, dev, rec);
    });
  });
  if (err)
    return std::move(err);
  return imp.stats;
}

/// AutoTVM's MeasureErrorNo values.
static MeasureStatus fromAutoTVMError(int64_t e) {
  switch (e) {
  case 0:
    return MeasureStatus::Ok;
  case 1:
    return MeasureStatus::InvalidConfig;
  case 2:
  case 3:
    return MeasureStatus::CompileError;
  case 4:
    return MeasureStatus::RuntimeCrash;
  case 5:
    return MeasureStatus::WrongResult;
  case 6:
    return MeasureStatus::CompileTimeout;
  case 7:
    return MeasureStatus::RunTimeout;
  default:
    return MeasureStatus::RuntimeCrash;
  }
}

llvm::Expected<ImportStats> mlir::dltune::importAutoTVMLog(Database &db,
                                                           const std::string &path) {
  Importer imp{db};
  llvm::Error err = db.transaction([&]() {
    return forEachLine(path, [&](const std::string &line, int lineNo) -> llvm::Error {
      auto bad = [&](const char *why) {
        return makeError("'" + path + "' line " + llvm::Twine(lineNo) +
                         ": not an AutoTVM log record (" + why + ")");
      };
      json j = json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object())
        return bad("not JSON");
      if (!j.contains("input") || !j["input"].is_array() || j["input"].size() < 3 ||
          !j.contains("config") || !j.contains("result") || !j["result"].is_array() ||
          j["result"].size() < 2)
        return bad("needs input, config and result");
      const json &in = j["input"];
      if (!in[0].is_string() || !in[1].is_string())
        return bad("input must start with target and task name");
      std::string target = in[0], taskName = in[1];
      std::string args = in[2].dump();
      TaskRecord task;
      task.hash = hashHex("autotvm|" + target + "|" + taskName + "|" + args);
      task.opKind = taskName;
      task.target = target;
      task.shapes = args;
      task.source = "autotvm";
      DeviceRecord dev{0, "autotvm:" + target, target, json({{"target", target}}).dump()};
      MeasureRecord rec;
      rec.source = "imported";
      const json &cfg = j["config"];
      rec.config = cfg.contains("entity") ? cfg["entity"].dump() : cfg.dump();
      const json &res = j["result"];
      if (!res[1].is_number_integer())
        return bad("result[1] must be an error number");
      rec.status = fromAutoTVMError(res[1].get<int64_t>());
      if (rec.status == MeasureStatus::Ok) {
        if (!res[0].is_array() || res[0].empty())
          return bad("an ok result needs costs");
        double sum = 0, lo = INFINITY, hi = 0;
        for (const json &c : res[0]) {
          if (!c.is_number())
            return bad("costs must be numbers");
          double ms = c.get<double>() * 1e3; // AutoTVM records seconds
          sum += ms;
          lo = std::min(lo, ms);
          hi = std::max(hi, ms);
        }
        rec.timeMs = sum / res[0].size();
        rec.minMs = lo;
        rec.maxMs = hi;
        rec.repeats = static_cast<int>(res[0].size());
      }
      if (res.size() > 3 && res[3].is_number())
        rec.createdAt = res[3].get<double>();
      return imp.add(task, dev, rec);
    });
  });
  if (err)
    return std::move(err);
  return imp.stats;
}

llvm::Expected<ImportStats> mlir::dltune::importKernelTunerCache(Database &db,
                                                                 const std::string &path) {
  llvm::Expected<KernelTunerCache> cache = KernelTunerCache::load(path);
  if (!cache)
    return cache.takeError();
  SearchSpace space = cache->getSpace();
  Importer imp{db};
  std::string problem;
  for (int64_t p : cache->problemSize)
    problem += (problem.empty() ? "" : "x") + std::to_string(p);
  TaskRecord task;
  task.opKind = cache->kernelName;
  task.target = "gpu";
  task.shapes = problem;
  task.space = space.getCanonicalString();
  task.hash = hashHex("kernel_tuner|" + cache->kernelName + "|" + problem + "|" + task.space);
  task.source = "kernel_tuner";
  DeviceRecord dev{0, "kernel_tuner:" + cache->deviceName, cache->deviceName,
                   json({{"name", cache->deviceName}}).dump()};
  llvm::Error err = db.transaction([&]() -> llvm::Error {
    llvm::Expected<int64_t> tid = imp.task(task);
    if (!tid)
      return tid.takeError();
    llvm::Expected<int64_t> did = imp.device(dev);
    if (!did)
      return did.takeError();
    for (const RecordedMeasurement &m : cache->entries) {
      MeasureRecord rec;
      rec.source = "imported";
      rec.config = space.formatConfig(m.config);
      rec.status = m.status;
      rec.timeMs = m.status == MeasureStatus::Ok ? m.timeMs : NAN;
      if (!m.repeatsMs.empty() && rec.isOk()) {
        rec.minMs = *std::min_element(m.repeatsMs.begin(), m.repeatsMs.end());
        rec.maxMs = *std::max_element(m.repeatsMs.begin(), m.repeatsMs.end());
        rec.repeats = static_cast<int>(m.repeatsMs.size());
      }
      rec.buildSeconds = m.compileMs / 1000.0;
      rec.runSeconds = m.benchmarkMs / 1000.0;
      if (llvm::Error e = imp.record(*tid, *did, rec))
        return e;
    }
    return llvm::Error::success();
  });
  if (err)
    return std::move(err);
  return imp.stats;
}
