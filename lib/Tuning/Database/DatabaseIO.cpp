//===- DatabaseIO.cpp - Export and import of tuning records ---------------===//

#include "dltune/Tuning/Database/DatabaseIO.h"
#include "dltune/Tuning/Support/Error.h"
#include "dltune/Tuning/Replay/KernelTunerCache.h"
#include "dltune/Tuning/Device/GpuResources.h"

#include "Support/JsonFields.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

using namespace mlir::dltune;

std::string mlir::dltune::hashHex(llvm::StringRef text) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format_hex_no_prefix(stableHash(text), 16);
  return s;
}

static json numberOrNull(double v) { return std::isnan(v) ? json() : json(v); }

/// GPU kernel resources as the JSON the database stores (records.gpu_resources).
static json gpuResourcesJson(const std::vector<GpuKernelResources> &kernels) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(toJSON(kernels));
  return json::parse(text);
}

llvm::Error mlir::dltune::exportJsonLines(Database &db, std::ostream &out, ExportStats *stats) {
  llvm::Expected<std::vector<DeviceRecord>> devices = db.listDevices();
  if (!devices)
    return devices.takeError();
  llvm::Expected<std::vector<TaskRecord>> tasks = db.listTasks();
  if (!tasks)
    return tasks.takeError();
  ExportStats n;
  for (const TaskRecord &t : *tasks) {
    json task = {{"hash", t.hash},       {"op_kind", t.opKind},
                 {"target", t.target},   {"shapes", t.shapes},
                 {"element_types", t.elementTypes}, {"space", t.space},
                 {"source", t.source}};
    for (const DeviceRecord &d : *devices) {
      json device = {{"fingerprint", d.fingerprint}, {"name", d.name}, {"json", d.json}};
      auto write = [&](const char *format, const char *key, json value) {
        json line = {{"format", format}, {"task", task}, {"device", device}, {key, value}};
        out << line.dump() << "\n";
      };
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
                    {"cut_off", r.cutOff},
                    {"energy_j", r.energyJ ? json(*r.energyJ) : json()},
                    {"candidate_energy_j",
                     r.candidateEnergyJ ? json(*r.candidateEnergyJ) : json()},
                    {"error", r.error},
                    {"build_s", numberOrNull(r.buildSeconds)},
                    {"run_s", numberOrNull(r.runSeconds)},
                    {"source", r.source},
                    {"created_at", r.createdAt},
                    {"generator", r.generator}};
        if (!r.gpuResources.empty())
          rec["gpu_resources"] = gpuResourcesJson(r.gpuResources);
        write("dltune-record-v1", "record", std::move(rec));
        ++n.records;
      }
      // Confirmations decide which record is the best (Database::getBest):
      // without them a rebuilt database ranks unconfirmed times.
      llvm::Expected<std::vector<Confirmation>> confirmations = db.listConfirmations(t.id, d.id);
      if (!confirmations)
        return confirmations.takeError();
      for (const Confirmation &c : *confirmations) {
        write("dltune-confirmation-v1", "confirmation",
              {{"config", c.config},
               {"rounds", c.rounds},
               {"median_ms", numberOrNull(c.medianMs)},
               {"min_ms", numberOrNull(c.minMs)},
               {"max_ms", numberOrNull(c.maxMs)},
               {"generator", c.generator},
               {"created_at", c.createdAt}});
        ++n.confirmations;
      }
      llvm::Expected<std::optional<double>> baseline = db.getBaseline(t.id, d.id);
      if (!baseline)
        return baseline.takeError();
      if (*baseline) {
        write("dltune-baseline-v1", "baseline", {{"untuned_ms", numberOrNull(**baseline)}});
        ++n.baselines;
      }
      llvm::Expected<std::vector<TaskNote>> notes = db.listTaskNotes(t.id, d.id);
      if (!notes)
        return notes.takeError();
      for (const TaskNote &note : *notes) {
        write("dltune-note-v1", "note",
              {{"kind", note.kind}, {"message", note.message}, {"created_at", note.createdAt}});
        ++n.notes;
      }
    }
  }
  for (const DeviceRecord &d : *devices) {
    llvm::Expected<std::vector<ModelLatency>> latencies = db.listModelLatencies(d.id);
    if (!latencies)
      return latencies.takeError();
    for (const ModelLatency &m : *latencies) {
      json line = {{"format", "dltune-model-latency-v1"},
                   {"device", {{"fingerprint", d.fingerprint}, {"name", d.name}, {"json", d.json}}},
                   {"model_latency",
                    {{"model", m.model},
                     {"entry", m.entry},
                     {"default_ms", numberOrNull(m.defaultMs)},
                     {"tuned_ms", numberOrNull(m.tunedMs)},
                     {"checked", m.checked},
                     {"created_at", m.createdAt}}}};
      out << line.dump() << "\n";
      ++n.modelLatencies;
    }
  }
  // Studies: what workers need to join them (their workers' rows are
  // state of the machines that ran them, not results).
  llvm::Expected<std::vector<Study>> studies = db.listStudies();
  if (!studies)
    return studies.takeError();
  for (const Study &st : *studies) {
    json models = json::array();
    for (const StudyModel &m : st.models) {
      json tasks = json::array();
      for (const auto &[hash, count] : m.tasks)
        tasks.push_back({{"hash", hash}, {"count", count}});
      models.push_back({{"name", m.name}, {"module", m.module}, {"tasks", std::move(tasks)}});
    }
    json line = {{"format", "dltune-study-v1"},
                 {"study",
                  {{"name", st.name},
                   {"options", st.options},
                   {"created_at", st.createdAt},
                   {"models", std::move(models)}}}};
    out << line.dump() << "\n";
    ++n.studies;
    // Each device's intervals and stops of the study after its line, so an
    // import meets the study first: without them an imported study tunes
    // its suspended models again.
    for (const DeviceRecord &d : *devices) {
      json device = {{"fingerprint", d.fingerprint}, {"name", d.name}, {"json", d.json}};
      auto write = [&](const char *format, const char *key, json value) {
        json l = {{"format", format}, {"study_name", st.name}, {"device", device}, {key, value}};
        out << l.dump() << "\n";
      };
      llvm::Expected<std::vector<StudyInterval>> intervals = db.listStudyIntervals(st.id, d.id);
      if (!intervals)
        return intervals.takeError();
      for (const StudyInterval &i : *intervals) {
        write("dltune-study-interval-v1", "interval",
              {{"position", i.position},
               {"interval", i.interval},
               {"latency_ms", numberOrNull(i.latencyMs)},
               {"measured", i.measured},
               {"created_at", i.createdAt}});
        ++n.studyIntervals;
      }
      llvm::Expected<std::vector<StudyModelStop>> stops = db.listStudyModelStops(st.id, d.id);
      if (!stops)
        return stops.takeError();
      for (const StudyModelStop &s : *stops) {
        write("dltune-study-stop-v1", "stop",
              {{"position", s.position},
               {"state", s.state},
               {"interval", s.interval},
               {"reason", s.reason},
               {"created_at", s.createdAt}});
        ++n.studyStops;
      }
    }
  }
  if (stats)
    *stats = n;
  return llvm::Error::success();
}

namespace {
/// Reads a file line by line inside one transaction, caching task/device ids.
struct Importer {
  explicit Importer(Database &db) : db(db) {}

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
    llvm::Expected<std::pair<int64_t, int64_t>> ids = taskAndDevice(t, d);
    if (!ids)
      return ids.takeError();
    return record(ids->first, ids->second, r);
  }
  llvm::Error record(int64_t t, int64_t d, const MeasureRecord &r) {
    llvm::Expected<bool> inserted = db.commitRecord(t, d, r);
    if (!inserted)
      return inserted.takeError();
    ++(*inserted ? stats.inserted : stats.skipped);
    return llvm::Error::success();
  }

  /// The confirmation `c` of `t` on `d`, unless the database has it (the
  /// same config in a run of the same time): importing a file twice adds
  /// nothing. Lines of one run share its time, so they form one run again.
  llvm::Error confirmation(const TaskRecord &t, const DeviceRecord &d, const Confirmation &c) {
    llvm::Expected<std::pair<int64_t, int64_t>> ids = taskAndDevice(t, d);
    if (!ids)
      return ids.takeError();
    auto [known, first] = confirmationKeys.try_emplace(*ids);
    if (first) {
      llvm::Expected<std::vector<Confirmation>> stored =
          db.listConfirmations(ids->first, ids->second);
      if (!stored)
        return stored.takeError();
      for (const Confirmation &s : *stored)
        known->second.insert({s.config, s.createdAt});
    }
    if (!known->second.insert({c.config, c.createdAt}).second)
      return llvm::Error::success();
    ++stats.confirmations;
    return db.commitConfirmations(ids->first, ids->second, {c});
  }

  /// The untuned time of `t` on `d`, unless the database has one: as for
  /// records, what is there stands.
  llvm::Error baseline(const TaskRecord &t, const DeviceRecord &d, double untunedMs) {
    llvm::Expected<std::pair<int64_t, int64_t>> ids = taskAndDevice(t, d);
    if (!ids)
      return ids.takeError();
    llvm::Expected<std::optional<double>> stored = db.getBaseline(ids->first, ids->second);
    if (!stored)
      return stored.takeError();
    if (*stored)
      return llvm::Error::success();
    ++stats.baselines;
    return db.setBaseline(ids->first, ids->second, untunedMs);
  }

  /// A tuner note of `t` on `d`, unless the database has the same one (kind,
  /// message and time): importing a file twice adds nothing.
  llvm::Error note(const TaskRecord &t, const DeviceRecord &d, const TaskNote &n) {
    llvm::Expected<std::pair<int64_t, int64_t>> ids = taskAndDevice(t, d);
    if (!ids)
      return ids.takeError();
    auto [known, first] = noteKeys.try_emplace(*ids);
    if (first) {
      llvm::Expected<std::vector<TaskNote>> stored = db.listTaskNotes(ids->first, ids->second);
      if (!stored)
        return stored.takeError();
      for (const TaskNote &s : *stored)
        known->second.insert({s.kind, s.message, s.createdAt});
    }
    if (!known->second.insert({n.kind, n.message, n.createdAt}).second)
      return llvm::Error::success();
    ++stats.notes;
    return db.addTaskNote(ids->first, ids->second, n);
  }

  /// A study is added once; one of the same name already in the database
  /// is kept when it is the same study, and refused when it differs.
  llvm::Error study(const Study &st) {
    llvm::Expected<std::optional<Study>> found = db.findStudy(st.name);
    if (!found)
      return found.takeError();
    if (!*found) {
      llvm::Expected<int64_t> id = db.createStudy(st);
      if (!id)
        return id.takeError();
      ++stats.studies;
      return llvm::Error::success();
    }
    const Study &have = **found;
    bool same = have.options == st.options && have.models.size() == st.models.size();
    for (size_t i = 0; same && i < st.models.size(); ++i)
      same = have.models[i].name == st.models[i].name &&
             have.models[i].module == st.models[i].module &&
             have.models[i].tasks == st.models[i].tasks;
    if (!same)
      return makeError("a study named '" + st.name +
                       "' is in the database with other models or options");
    return llvm::Error::success();
  }

  /// A model's latency after an interval of study `name` on `d`; the
  /// database's figure for that interval, if any, stands (the first word).
  llvm::Error studyInterval(const std::string &name, const DeviceRecord &d,
                            const StudyInterval &i) {
    llvm::Expected<std::pair<int64_t, int64_t>> ids = studyAndDevice(name, d);
    if (!ids)
      return ids.takeError();
    llvm::Expected<bool> stored = db.addStudyInterval(ids->first, ids->second, i);
    if (!stored)
      return stored.takeError();
    stats.studyIntervals += *stored;
    return llvm::Error::success();
  }

  /// A stopped model of study `name` on `d`, unless the database stopped it
  /// already (or suspended another at that synchronisation): what is there
  /// stands.
  llvm::Error studyStop(const std::string &name, const DeviceRecord &d, const StudyModelStop &s) {
    llvm::Expected<std::pair<int64_t, int64_t>> ids = studyAndDevice(name, d);
    if (!ids)
      return ids.takeError();
    llvm::Expected<bool> stored = db.stopStudyModel(ids->first, ids->second, s);
    if (!stored)
      return stored.takeError();
    stats.studyStops += *stored;
    return llvm::Error::success();
  }

  /// An end-to-end timing on `d`, unless the database has the same one.
  llvm::Error modelLatency(const DeviceRecord &d, const ModelLatency &m) {
    llvm::Expected<int64_t> did = device(d);
    if (!did)
      return did.takeError();
    auto [known, first] = latencyKeys.try_emplace(*did);
    if (first) {
      llvm::Expected<std::vector<ModelLatency>> stored = db.listModelLatencies(*did);
      if (!stored)
        return stored.takeError();
      for (const ModelLatency &s : *stored)
        known->second.insert({s.model, s.entry, s.createdAt});
    }
    if (!known->second.insert({m.model, m.entry, m.createdAt}).second)
      return llvm::Error::success();
    ++stats.modelLatencies;
    return db.addModelLatency(*did, m);
  }

private:
  /// The study was imported on an earlier line or is in the database
  /// (ExportLineChecker refuses a line before its study's).
  llvm::Expected<std::pair<int64_t, int64_t>> studyAndDevice(const std::string &name,
                                                             const DeviceRecord &d) {
    auto it = studyIds.find(name);
    if (it == studyIds.end()) {
      llvm::Expected<std::optional<Study>> found = db.findStudy(name);
      if (!found)
        return found.takeError();
      if (!*found)
        return makeError("study '" + name + "' is not in the database");
      it = studyIds.emplace(name, (*found)->id).first;
    }
    llvm::Expected<int64_t> did = device(d);
    if (!did)
      return did.takeError();
    return std::make_pair(it->second, *did);
  }
  std::map<std::string, int64_t> studyIds;
  llvm::Expected<std::pair<int64_t, int64_t>> taskAndDevice(const TaskRecord &t,
                                                            const DeviceRecord &d) {
    llvm::Expected<int64_t> tid = task(t);
    if (!tid)
      return tid.takeError();
    llvm::Expected<int64_t> did = device(d);
    if (!did)
      return did.takeError();
    return std::make_pair(*tid, *did);
  }
  std::map<std::pair<int64_t, int64_t>, std::set<std::pair<std::string, double>>>
      confirmationKeys;
  std::map<std::pair<int64_t, int64_t>, std::set<std::tuple<std::string, std::string, double>>>
      noteKeys;
  std::map<int64_t, std::set<std::tuple<std::string, std::string, double>>> latencyKeys;
};

/// Calls `fn` with every line that is not blank or a '#' comment.
llvm::Error forEachLine(std::istream &in,
                        llvm::function_ref<llvm::Error(const std::string &, int64_t)> fn) {
  std::string line;
  int64_t lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#')
      continue;
    if (llvm::Error e = fn(line, lineNo))
      return e;
  }
  if (in.bad())
    return makeError("read error");
  return llvm::Error::success();
}

/// Runs `readLine` on every line inside one transaction. A line it rejects
/// is collected (with its number) and the others are still checked; any
/// rejected line rolls the whole file back.
llvm::Error importLines(Database &db, std::istream &in, const std::string &name,
                        llvm::function_ref<llvm::Error(const std::string &, int64_t,
                                                       bool commit)>
                            readLine) {
  ImportErrors errors(name);
  llvm::Error err = db.transaction([&]() -> llvm::Error {
    if (llvm::Error e = forEachLine(in, [&](const std::string &line, int64_t lineNo) {
          // Once a line failed nothing will be committed: only check the rest.
          if (llvm::Error lineErr = readLine(line, lineNo, errors.empty()))
            errors.addLine(lineNo, std::move(lineErr));
          return llvm::Error::success();
        }))
      return makeError(name + ": " + llvm::toString(std::move(e)));
    return errors.take();
  });
  return err;
}

/// One checked line of a JSON lines export: a record, a confirmation or
/// the untuned time of a task on a device.
struct ExportLine {
  enum class Kind {
    Record,
    Confirmation,
    Baseline,
    Note,
    ModelLatency,
    Study,
    StudyInterval,
    StudyStop
  };
  Kind kind = Kind::Record;
  TaskRecord task;
  DeviceRecord device;
  MeasureRecord record;      // Kind::Record
  Confirmation confirmation; // Kind::Confirmation
  double untunedMs = NAN;    // Kind::Baseline
  TaskNote note;             // Kind::Note
  ModelLatency modelLatency; // Kind::ModelLatency (no task)
  Study study;               // Kind::Study (no task, no device)
  std::string studyName;     // Kind::StudyInterval, StudyStop (no task)
  StudyInterval studyInterval;
  StudyModelStop studyStop;
  /// The configuration the line names (none for a baseline).
  const std::string *config() const {
    return kind == Kind::Record         ? &record.config
           : kind == Kind::Confirmation ? &confirmation.config
                                        : nullptr;
  }
};

llvm::Error parseRecord(const json &r, MeasureRecord &rec) {
  rec.source = "imported";
  FieldReader rr(r, "record");
  std::string status;
  rr.string("config", rec.config, FieldReader::Required);
  rr.string("status", status, FieldReader::Required);
  std::optional<MeasureStatus> parsedStatus;
  if (rr.ok() && !(parsedStatus = parseMeasureStatus(status)))
    rr.failField("status", "'" + status + "' is not a known status");
  rr.number("time_ms", rec.timeMs, FieldReader::Nullable, /*nonNegative=*/true);
  rr.number("min_ms", rec.minMs, FieldReader::Nullable, true);
  rr.number("max_ms", rec.maxMs, FieldReader::Nullable, true);
  rr.number("stddev_ms", rec.stddevMs, FieldReader::Nullable, true);
  int64_t repeats = 0;
  rr.integer("repeats", repeats, FieldReader::Optional, 0, INT32_MAX);
  rec.repeats = static_cast<int>(repeats);
  rr.boolean("noisy", rec.noisy);
  rr.boolean("cut_off", rec.cutOff);
  double energy = NAN;
  rr.number("energy_j", energy, FieldReader::Nullable, true);
  if (!std::isnan(energy))
    rec.energyJ = energy;
  // Exports made before schema 8 have no such field: unmetered.
  double candidateEnergy = NAN;
  rr.number("candidate_energy_j", candidateEnergy, FieldReader::Nullable, true);
  if (!std::isnan(candidateEnergy))
    rec.candidateEnergyJ = candidateEnergy;
  rr.string("error", rec.error);
  rr.number("build_s", rec.buildSeconds, FieldReader::Nullable, true);
  rr.number("run_s", rec.runSeconds, FieldReader::Nullable, true);
  rr.string("source", rec.source);
  rr.number("created_at", rec.createdAt, FieldReader::Optional, true);
  rr.string("generator", rec.generator);
  if (const json *g = rr.get("gpu_resources", FieldReader::Nullable)) {
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(g->dump());
    llvm::Expected<std::vector<GpuKernelResources>> kernels =
        value ? gpuResourcesFromJSON(*value)
              : llvm::Expected<std::vector<GpuKernelResources>>(value.takeError());
    if (!kernels)
      rr.failField("gpu_resources", llvm::toString(kernels.takeError()));
    else
      rec.gpuResources = std::move(*kernels);
  }
  if (!rr.ok())
    return rr.takeError();
  rec.status = *parsedStatus;
  // getBest ranks ok records by time: one without a real time must not win.
  if (rec.isOk() && !(rec.timeMs > 0))
    return makeError("record.time_ms of an ok record must be a positive number");
  return llvm::Error::success();
}

llvm::Error parseConfirmation(const json &j, Confirmation &c) {
  FieldReader r(j, "confirmation");
  r.string("config", c.config, FieldReader::Required);
  int64_t rounds = 0;
  r.integer("rounds", rounds, FieldReader::Optional, 0, INT32_MAX);
  c.rounds = static_cast<int>(rounds);
  r.number("median_ms", c.medianMs, FieldReader::Nullable, /*nonNegative=*/true);
  r.number("min_ms", c.minMs, FieldReader::Nullable, true);
  r.number("max_ms", c.maxMs, FieldReader::Nullable, true);
  r.string("generator", c.generator);
  r.number("created_at", c.createdAt, FieldReader::Required, true);
  if (!r.ok())
    return r.takeError();
  // The fastest median of the latest run is the task's best: a zero would
  // always win; created_at names the run (0 would mean "now" on commit).
  if (!std::isnan(c.medianMs) && !(c.medianMs > 0))
    return makeError("confirmation.median_ms must be a positive number or null");
  if (!(c.createdAt > 0))
    return makeError("confirmation.created_at must be a positive number of seconds");
  return llvm::Error::success();
}

llvm::Error parseStudy(const json &j, Study &st) {
  FieldReader r(j, "study");
  r.string("name", st.name, FieldReader::Required, /*nonEmpty=*/true);
  r.string("options", st.options, FieldReader::Required);
  r.number("created_at", st.createdAt, FieldReader::Required, /*nonNegative=*/true);
  const json *models = r.get("models", FieldReader::Required);
  if (!r.ok())
    return r.takeError();
  if (!(st.createdAt > 0))
    return makeError("study.created_at must be a positive number of seconds");
  llvm::Expected<json> options = parseJson(st.options);
  if (!options || !options->is_object()) {
    if (!options)
      llvm::consumeError(options.takeError());
    return makeError("study.options must be the text of a JSON object");
  }
  if (!models->is_array() || models->empty())
    return makeError("study.models must be a non-empty list");
  std::set<std::string> names;
  for (size_t i = 0; i < models->size(); ++i) {
    std::string prefix = "study.models[" + std::to_string(i) + "]";
    const json &m = (*models)[i];
    if (!m.is_object())
      return makeError(prefix + " must be an object");
    StudyModel model;
    FieldReader mr(m, prefix);
    mr.string("name", model.name, FieldReader::Required, /*nonEmpty=*/true);
    mr.string("module", model.module, FieldReader::Required, /*nonEmpty=*/true);
    const json *tasks = mr.get("tasks", FieldReader::Required);
    if (!mr.ok())
      return mr.takeError();
    if (!names.insert(model.name).second)
      return makeError(prefix + ".name '" + model.name + "' is given twice");
    if (!tasks->is_array() || tasks->empty())
      return makeError(prefix + ".tasks must be a non-empty list");
    for (size_t k = 0; k < tasks->size(); ++k) {
      std::string taskPrefix = prefix + ".tasks[" + std::to_string(k) + "]";
      if (!(*tasks)[k].is_object())
        return makeError(taskPrefix + " must be an object");
      FieldReader tr((*tasks)[k], taskPrefix);
      std::string hash;
      int64_t count = 0;
      tr.string("hash", hash, FieldReader::Required, /*nonEmpty=*/true);
      tr.integer("count", count, FieldReader::Required, 1, INT32_MAX);
      if (!tr.ok())
        return tr.takeError();
      // Stored as "hash count" lines (encodeStudyTasks): a blank inside
      // would damage the study for every later reader.
      if (llvm::any_of(hash, [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
        return makeError(taskPrefix + ".hash must not contain blanks or line breaks");
      model.tasks.emplace_back(std::move(hash), count);
    }
    st.models.push_back(std::move(model));
  }
  return llvm::Error::success();
}

llvm::Expected<ExportLine> parseExportLine(llvm::StringRef line) {
  llvm::Expected<json> parsed = parseJson(line);
  if (!parsed)
    return parsed.takeError();
  const json &j = *parsed;
  if (!j.is_object())
    return makeError("not a JSON object");
  FieldReader top(j, "");
  std::string format;
  top.string("format", format, FieldReader::Required);
  ExportLine out;
  const char *body = "record";
  if (top.ok()) {
    if (format == "dltune-record-v1") {
      out.kind = ExportLine::Kind::Record;
    } else if (format == "dltune-confirmation-v1") {
      out.kind = ExportLine::Kind::Confirmation;
      body = "confirmation";
    } else if (format == "dltune-baseline-v1") {
      out.kind = ExportLine::Kind::Baseline;
      body = "baseline";
    } else if (format == "dltune-note-v1") {
      out.kind = ExportLine::Kind::Note;
      body = "note";
    } else if (format == "dltune-model-latency-v1") {
      out.kind = ExportLine::Kind::ModelLatency;
      body = "model_latency";
    } else if (format == "dltune-study-v1") {
      out.kind = ExportLine::Kind::Study;
      body = "study";
    } else if (format == "dltune-study-interval-v1") {
      out.kind = ExportLine::Kind::StudyInterval;
      body = "interval";
    } else if (format == "dltune-study-stop-v1") {
      out.kind = ExportLine::Kind::StudyStop;
      body = "stop";
    } else {
      top.failField("format", "is '" + format +
                                  "', not 'dltune-record-v1', 'dltune-confirmation-v1', "
                                  "'dltune-baseline-v1', 'dltune-note-v1', "
                                  "'dltune-model-latency-v1', 'dltune-study-v1', "
                                  "'dltune-study-interval-v1' or 'dltune-study-stop-v1'");
    }
  }
  if (top.ok() && out.kind == ExportLine::Kind::Study) {
    const json *b = top.child(body);
    if (!top.ok())
      return top.takeError();
    if (llvm::Error e = parseStudy(*b, out.study))
      return std::move(e);
    return out;
  }
  // A model's timing and a study's rows belong to a device, not to a task.
  bool hasTask = out.kind != ExportLine::Kind::ModelLatency &&
                 out.kind != ExportLine::Kind::StudyInterval &&
                 out.kind != ExportLine::Kind::StudyStop;
  if (!hasTask && out.kind != ExportLine::Kind::ModelLatency)
    top.string("study_name", out.studyName, FieldReader::Required, /*nonEmpty=*/true);
  const json *t = hasTask && top.ok() ? top.child("task") : nullptr;
  const json *d = top.child("device"), *b = top.child(body);
  if (!top.ok())
    return top.takeError();

  FieldReader dev(*d, "device");
  dev.string("fingerprint", out.device.fingerprint, FieldReader::Required,
             /*nonEmpty=*/true);
  dev.string("name", out.device.name);
  dev.string("json", out.device.json);
  if (!dev.ok())
    return dev.takeError();

  if (out.kind == ExportLine::Kind::StudyInterval) {
    FieldReader r(*b, "interval");
    StudyInterval &i = out.studyInterval;
    r.integer("position", i.position, FieldReader::Required, 0, INT32_MAX);
    r.integer("interval", i.interval, FieldReader::Required, 0, INT32_MAX);
    r.number("latency_ms", i.latencyMs, FieldReader::Nullable, /*nonNegative=*/true);
    r.integer("measured", i.measured, FieldReader::Required, 0);
    r.number("created_at", i.createdAt, FieldReader::Required, true);
    if (!r.ok())
      return r.takeError();
    // The suspension rule divides by it.
    if (i.latencyMs == 0)
      return makeError("interval.latency_ms must be a positive number or null");
    if (!(i.createdAt > 0))
      return makeError("interval.created_at must be a positive number of seconds");
    return out;
  }
  if (out.kind == ExportLine::Kind::StudyStop) {
    FieldReader r(*b, "stop");
    StudyModelStop &s = out.studyStop;
    r.integer("position", s.position, FieldReader::Required, 0, INT32_MAX);
    r.string("state", s.state, FieldReader::Required, /*nonEmpty=*/true);
    r.integer("interval", s.interval, FieldReader::Required, 0, INT32_MAX);
    r.string("reason", s.reason, FieldReader::Required);
    r.number("created_at", s.createdAt, FieldReader::Required, true);
    if (!r.ok())
      return r.takeError();
    // stopStudyModel refuses it too, but only once the file is committed.
    if (s.state != "suspended" && s.state != "done")
      return makeError("stop.state must be 'suspended' or 'done', not '" + s.state + "'");
    if (!(s.createdAt > 0))
      return makeError("stop.created_at must be a positive number of seconds");
    return out;
  }
  if (!hasTask) {
    FieldReader r(*b, "model_latency");
    ModelLatency &m = out.modelLatency;
    r.string("model", m.model, FieldReader::Required, /*nonEmpty=*/true);
    r.string("entry", m.entry, FieldReader::Required, /*nonEmpty=*/true);
    r.number("default_ms", m.defaultMs, FieldReader::Nullable, /*nonNegative=*/true);
    r.number("tuned_ms", m.tunedMs, FieldReader::Nullable, true);
    r.boolean("checked", m.checked);
    r.number("created_at", m.createdAt, FieldReader::Required, true);
    if (!r.ok())
      return r.takeError();
    if (!(m.createdAt > 0))
      return makeError("model_latency.created_at must be a positive number of seconds");
    return out;
  }

  FieldReader task(*t, "task");
  task.string("hash", out.task.hash, FieldReader::Required, /*nonEmpty=*/true);
  task.string("op_kind", out.task.opKind);
  task.string("target", out.task.target);
  task.string("shapes", out.task.shapes);
  task.string("element_types", out.task.elementTypes);
  task.string("space", out.task.space);
  task.string("source", out.task.source);
  if (!task.ok())
    return task.takeError();

  switch (out.kind) {
  case ExportLine::Kind::Record:
    if (llvm::Error e = parseRecord(*b, out.record))
      return std::move(e);
    break;
  case ExportLine::Kind::Confirmation:
    if (llvm::Error e = parseConfirmation(*b, out.confirmation))
      return std::move(e);
    break;
  case ExportLine::Kind::Baseline: {
    FieldReader r(*b, "baseline");
    r.number("untuned_ms", out.untunedMs, FieldReader::Required, /*nonNegative=*/true);
    if (!r.ok())
      return r.takeError();
    if (!(out.untunedMs > 0))
      return makeError("baseline.untuned_ms must be a positive number");
    break;
  }
  case ExportLine::Kind::Note: {
    FieldReader r(*b, "note");
    r.string("kind", out.note.kind, FieldReader::Required, /*nonEmpty=*/true);
    r.string("message", out.note.message, FieldReader::Required);
    r.number("created_at", out.note.createdAt, FieldReader::Required, /*nonNegative=*/true);
    if (!r.ok())
      return r.takeError();
    if (!(out.note.createdAt > 0))
      return makeError("note.created_at must be a positive number of seconds");
    break;
  }
  }
  return out;
}

/// Remembers what each task hash and device fingerprint stood for, so that
/// a file cannot describe one key two ways, and the parsed space of each
/// task, to check configs against.
struct ExportLineChecker {
  std::map<std::string, std::pair<int64_t, TaskRecord>> tasks;
  std::map<std::string, std::pair<int64_t, DeviceRecord>> devices;
  std::map<std::string, std::shared_ptr<SearchSpace>> spaces;

  /// Each study's line and number of models.
  std::map<std::string, std::pair<int64_t, size_t>> studies;
  /// The line of each study interval, stop and suspension per device.
  std::map<std::string, int64_t> studyRows;

  llvm::Error check(const ExportLine &l, int64_t lineNo) {
    if (l.kind == ExportLine::Kind::Study) {
      auto [at, first] = studies.try_emplace(l.study.name, lineNo, l.study.models.size());
      if (!first)
        return makeError("study '" + l.study.name + "' is on line " +
                         llvm::Twine(at->second.first) + " already");
      return llvm::Error::success();
    }
    if (l.kind == ExportLine::Kind::StudyInterval || l.kind == ExportLine::Kind::StudyStop) {
      // An export writes a study's rows after its line; a row without it
      // cannot be told apart from one of another study of that name.
      auto at = studies.find(l.studyName);
      if (at == studies.end())
        return makeError("study '" + l.studyName + "' is not on an earlier line");
      int64_t position = l.kind == ExportLine::Kind::StudyInterval ? l.studyInterval.position
                                                                  : l.studyStop.position;
      if (position >= static_cast<int64_t>(at->second.second))
        return makeError("position " + llvm::Twine(position) + " is not a model of study '" +
                         l.studyName + "' (it has " + llvm::Twine(at->second.second) + ")");
      // The database keeps one row of each (the first word): a second in
      // the file would be dropped without a word.
      std::string where = l.studyName + "\n" + l.device.fingerprint + "\n";
      bool interval = l.kind == ExportLine::Kind::StudyInterval;
      std::string key = where + (interval ? "i" : "s") + std::to_string(position) +
                        (interval ? "/" + std::to_string(l.studyInterval.interval) : "");
      auto [seen, first] = studyRows.try_emplace(key, lineNo);
      if (!first)
        return makeError(llvm::Twine(interval ? "interval " + std::to_string(
                                                                  l.studyInterval.interval) +
                                                    " of model "
                                              : std::string("the stop of model ")) +
                         llvm::Twine(position) + " of study '" + l.studyName +
                         "' on this device is on line " + llvm::Twine(seen->second) +
                         " already");
      if (!interval && l.studyStop.state == "suspended") {
        auto [other, firstAtSync] = studyRows.try_emplace(
            where + "sync" + std::to_string(l.studyStop.interval), lineNo);
        if (!firstAtSync)
          return makeError("another model of study '" + l.studyName +
                           "' on this device is suspended at interval " +
                           llvm::Twine(l.studyStop.interval) + " on line " +
                           llvm::Twine(other->second) +
                           " (one suspension per synchronisation)");
      }
    } else if (l.kind != ExportLine::Kind::ModelLatency) {
      auto [t, newTask] = tasks.try_emplace(l.task.hash, lineNo, l.task);
      const TaskRecord &first = t->second.second;
      if (!newTask && (first.opKind != l.task.opKind || first.target != l.task.target ||
                       first.shapes != l.task.shapes ||
                       first.elementTypes != l.task.elementTypes ||
                       first.space != l.task.space || first.source != l.task.source))
        return makeError("task " + l.task.hash +
                         " differs from the task with the same hash on line " +
                         llvm::Twine(t->second.first));
    }
    auto [d, newDevice] = devices.try_emplace(l.device.fingerprint, lineNo, l.device);
    const DeviceRecord &firstDev = d->second.second;
    if (!newDevice && (firstDev.name != l.device.name || firstDev.json != l.device.json))
      return makeError("device " + l.device.fingerprint +
                       " differs from the device with the same fingerprint on line " +
                       llvm::Twine(d->second.first));
    // Imported tasks of other tuners have no space; their configs are free text.
    const std::string *configText = l.config();
    if (l.task.space.empty() || !configText)
      return llvm::Error::success();
    const char *field = l.kind == ExportLine::Kind::Record ? "record.config" : "confirmation.config";
    auto [s, newSpace] = spaces.try_emplace(l.task.space);
    if (newSpace) {
      llvm::Expected<SearchSpace> space = SearchSpace::parseCanonicalString(l.task.space);
      if (!space)
        return makeError("task.space: " + llvm::toString(space.takeError()));
      s->second = std::make_shared<SearchSpace>(std::move(*space));
    }
    if (!s->second) // reported on the line that first used it
      return makeError("task.space does not parse (see above)");
    const SearchSpace &space = *s->second;
    llvm::Expected<Config> config = space.parseConfig(*configText);
    if (!config)
      return makeError(llvm::Twine(field) + ": " + llvm::toString(config.takeError()));
    if (llvm::Error e = space.checkValid(*config))
      return makeError(llvm::Twine(field) + " '" + *configText +
                       "' is outside the task's space: " + llvm::toString(std::move(e)));
    // Configs are compared as text (history, the UNIQUE key, the confirmed
    // best): one spelling.
    std::string canonical = space.formatConfig(*config);
    if (canonical != *configText)
      return makeError(llvm::Twine(field) + " '" + *configText +
                       "' is not in canonical form (expected '" + canonical + "')");
    return llvm::Error::success();
  }
};
} // namespace

llvm::Expected<ImportStats> mlir::dltune::importJsonLines(Database &db, std::istream &in,
                                                          const std::string &name) {
  Importer imp{db};
  ExportLineChecker checker;
  llvm::Error err =
      importLines(db, in, name,
                  [&](const std::string &line, int64_t lineNo, bool commit) -> llvm::Error {
        llvm::Expected<ExportLine> l = parseExportLine(line);
        if (!l)
          return l.takeError();
        if (llvm::Error e = checker.check(*l, lineNo))
          return e;
        if (!commit)
          return llvm::Error::success();
        switch (l->kind) {
        case ExportLine::Kind::Record:
          return imp.add(l->task, l->device, l->record);
        case ExportLine::Kind::Confirmation:
          return imp.confirmation(l->task, l->device, l->confirmation);
        case ExportLine::Kind::Baseline:
          return imp.baseline(l->task, l->device, l->untunedMs);
        case ExportLine::Kind::Note:
          return imp.note(l->task, l->device, l->note);
        case ExportLine::Kind::ModelLatency:
          return imp.modelLatency(l->device, l->modelLatency);
        case ExportLine::Kind::Study:
          return imp.study(l->study);
        case ExportLine::Kind::StudyInterval:
          return imp.studyInterval(l->studyName, l->device, l->studyInterval);
        case ExportLine::Kind::StudyStop:
          return imp.studyStop(l->studyName, l->device, l->studyStop);
        }
        llvm_unreachable("every line kind is handled");
      });
  if (err)
    return std::move(err);
  return imp.stats;
}

/// AutoTVM's MeasureErrorNo values (0-8).
static std::optional<MeasureStatus> fromAutoTVMError(int64_t e) {
  switch (e) {
  case 0:
    return MeasureStatus::Ok;
  case 1: // INSTANTIATION_ERROR
    return MeasureStatus::InvalidConfig;
  case 2: // COMPILE_HOST
  case 3: // COMPILE_DEVICE
    return MeasureStatus::CompileError;
  case 4: // RUNTIME_DEVICE
    return MeasureStatus::RuntimeCrash;
  case 5: // WRONG_ANSWER
    return MeasureStatus::WrongResult;
  case 6: // BUILD_TIMEOUT
    return MeasureStatus::CompileTimeout;
  case 7: // RUN_TIMEOUT
    return MeasureStatus::RunTimeout;
  case 8: // UNKNOWN_ERROR: the run failed somehow
    return MeasureStatus::RuntimeCrash;
  default:
    return std::nullopt;
  }
}

namespace {
/// One checked AutoTVM log record.
struct AutoTVMLine {
  TaskRecord task;
  DeviceRecord device;
  MeasureRecord record;
};

llvm::Expected<AutoTVMLine> parseAutoTVMLine(llvm::StringRef line) {
  auto bad = [](const std::string &why) {
    return makeError("not an AutoTVM log record: " + why);
  };
  llvm::Expected<json> parsed = parseJson(line);
  if (!parsed)
    return bad(llvm::toString(parsed.takeError()));
  const json &j = *parsed;
  if (!j.is_object())
    return bad("not a JSON object");
  auto in = j.find("input"), cfg = j.find("config"), res = j.find("result");
  if (in == j.end() || cfg == j.end() || res == j.end())
    return bad("needs input, config and result");
  if (!in->is_array() || in->size() < 3 || !(*in)[0].is_string() || !(*in)[1].is_string() ||
      !(*in)[2].is_array())
    return bad("input must be [target, task name, [arguments], ...]");
  const std::string &target = (*in)[0].get_ref<const std::string &>();
  const std::string &taskName = (*in)[1].get_ref<const std::string &>();
  if (target.empty() || taskName.empty() || target.find('\0') != std::string::npos ||
      taskName.find('\0') != std::string::npos)
    return bad("input target and task name must be non-empty text");
  auto entity = cfg->is_object() ? cfg->find("entity") : cfg->end();
  if (entity == cfg->end() || !entity->is_array())
    return bad("config must be an object with an 'entity' list");
  if (!res->is_array() || res->size() < 2 || !(*res)[0].is_array())
    return bad("result must be [[costs], error number, ...]");
  std::optional<int64_t> errorNo = FieldReader::toInteger((*res)[1]);
  std::optional<MeasureStatus> status = errorNo ? fromAutoTVMError(*errorNo) : std::nullopt;
  if (!status)
    return bad("result[1] must be an AutoTVM error number (0-8), not " +
               describeJson((*res)[1]));

  AutoTVMLine out;
  std::string args = (*in)[2].dump();
  out.task.hash = hashHex("autotvm|" + target + "|" + taskName + "|" + args);
  out.task.opKind = taskName;
  out.task.target = target;
  out.task.shapes = args;
  out.task.source = "autotvm";
  out.device = {0, "autotvm:" + target, target, json({{"target", target}}).dump()};
  MeasureRecord &rec = out.record;
  rec.source = "imported";
  rec.config = entity->dump();
  rec.status = *status;
  const json &costs = (*res)[0];
  double sum = 0, lo = INFINITY, hi = 0;
  for (const json &c : costs) {
    if (!c.is_number())
      return bad("costs must be numbers, not " + describeJson(c));
    double ms = c.get<double>() * 1e3; // AutoTVM records seconds
    if (!std::isfinite(ms) || ms < 0)
      return bad("costs must be finite and not negative");
    sum += ms;
    lo = std::min(lo, ms);
    hi = std::max(hi, ms);
  }
  if (rec.isOk()) {
    if (costs.empty() || !(lo > 0))
      return bad("an ok result needs positive costs");
    rec.timeMs = sum / costs.size();
    rec.minMs = lo;
    rec.maxMs = hi;
    rec.repeats = static_cast<int>(std::min<size_t>(costs.size(), INT32_MAX));
  }
  if (res->size() > 3) {
    const json &stamp = (*res)[3];
    if (!stamp.is_number() || !std::isfinite(stamp.get<double>()) || stamp.get<double>() < 0)
      return bad("result[3] (timestamp) must be a number of seconds, not " +
                 describeJson(stamp));
    rec.createdAt = stamp.get<double>();
  }
  return out;
}
} // namespace

llvm::Expected<ImportStats> mlir::dltune::importAutoTVMLog(Database &db, std::istream &in,
                                                           const std::string &name) {
  Importer imp{db};
  llvm::Error err =
      importLines(db, in, name, [&](const std::string &line, int64_t, bool commit) {
        llvm::Expected<AutoTVMLine> l = parseAutoTVMLine(line);
        if (!l)
          return l.takeError();
        return commit ? imp.add(l->task, l->device, l->record) : llvm::Error::success();
      });
  if (err)
    return std::move(err);
  return imp.stats;
}

/// Opens `path` for one of the line-based imports.
static llvm::Expected<ImportStats>
importFile(Database &db, const std::string &path,
           llvm::Expected<ImportStats> (*import)(Database &, std::istream &,
                                                 const std::string &)) {
  std::ifstream in(path);
  if (!in)
    return makeError("cannot open '" + path + "'");
  return import(db, in, path);
}

llvm::Expected<ImportStats> mlir::dltune::importJsonLines(Database &db, const std::string &path) {
  return importFile(db, path, importJsonLines);
}

llvm::Expected<ImportStats> mlir::dltune::importAutoTVMLog(Database &db,
                                                           const std::string &path) {
  return importFile(db, path, importAutoTVMLog);
}

llvm::Expected<ImportStats> mlir::dltune::importKernelTunerCache(Database &db,
                                                                 const std::string &path) {
  llvm::Expected<KernelTunerCache> cache = KernelTunerCache::load(path);
  if (!cache)
    return cache.takeError();
  return importKernelTunerCache(db, *cache);
}

llvm::Expected<ImportStats> mlir::dltune::importKernelTunerCache(Database &db,
                                                                 const KernelTunerCache &cache) {
  SearchSpace space = cache.getSpace();
  Importer imp{db};
  std::string problem;
  for (int64_t p : cache.problemSize)
    problem += (problem.empty() ? "" : "x") + std::to_string(p);
  TaskRecord task;
  task.opKind = cache.kernelName;
  task.target = "gpu";
  task.shapes = problem;
  task.space = space.getCanonicalString();
  task.hash = hashHex("kernel_tuner|" + cache.kernelName + "|" + problem + "|" + task.space);
  task.source = "kernel_tuner";
  DeviceRecord dev{0, "kernel_tuner:" + cache.deviceName, cache.deviceName,
                   json({{"name", cache.deviceName}}).dump()};
  llvm::Error err = db.transaction([&]() -> llvm::Error {
    llvm::Expected<int64_t> tid = imp.task(task);
    if (!tid)
      return tid.takeError();
    llvm::Expected<int64_t> did = imp.device(dev);
    if (!did)
      return did.takeError();
    for (const RecordedMeasurement &m : cache.entries) {
      MeasureRecord rec;
      rec.source = "imported";
      rec.config = space.formatConfig(m.config);
      rec.status = m.status;
      rec.timeMs = m.status == MeasureStatus::Ok ? m.timeMs : NAN;
      if (!m.repeatsMs.empty() && rec.isOk()) {
        rec.minMs = *std::min_element(m.repeatsMs.begin(), m.repeatsMs.end());
        rec.maxMs = *std::max_element(m.repeatsMs.begin(), m.repeatsMs.end());
        rec.repeats = static_cast<int>(std::min<size_t>(m.repeatsMs.size(), INT32_MAX));
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
