//===- DatabaseHistory.cpp - Other tasks' records as transfer sources -----===//

#include "dltune/Tuning/Transfer/DatabaseHistory.h"

using namespace mlir::dltune;

std::string mlir::dltune::getTaskOpName(const std::string &opKind) {
  return opKind.substr(0, opKind.find(' '));
}

llvm::Expected<std::vector<KernelTunerCache>>
mlir::dltune::loadSimilarTaskHistory(Database &db, const TaskRecord &target,
                                     size_t minOkRecords, std::vector<std::string> &names) {
  llvm::Expected<std::vector<TaskRecord>> tasks = db.listTasks();
  if (!tasks)
    return tasks.takeError();
  std::string op = getTaskOpName(target.opKind);
  std::vector<KernelTunerCache> sources;
  for (const TaskRecord &t : *tasks) {
    if (t.hash == target.hash || t.target != target.target || t.space.empty() ||
        getTaskOpName(t.opKind) != op)
      continue;
    llvm::Expected<SearchSpace> space = SearchSpace::parseCanonicalString(t.space);
    if (!space) {
      llvm::consumeError(space.takeError()); // an imported task without a usable space
      continue;
    }
    llvm::Expected<std::vector<MeasureRecord>> records = db.getRecords(t.id);
    if (!records)
      return records.takeError();
    KernelTunerCache source;
    source.kernelName = t.opKind + " " + t.shapes;
    source.knobs.assign(space->getKnobs().begin(), space->getKnobs().end());
    size_t ok = 0;
    for (const MeasureRecord &r : *records) {
      llvm::Expected<Config> config = space->parseConfig(r.config);
      if (!config) {
        llvm::consumeError(config.takeError());
        continue;
      }
      if (!space->isValid(*config))
        continue; // outside its own space (an invalid-config record)
      if (source.index.count(*config))
        continue; // the same config on another device: the first stands
      RecordedMeasurement m;
      m.config = *config;
      m.status = r.status;
      m.timeMs = r.isOk() ? r.timeMs : NAN;
      ok += r.isOk();
      source.index[m.config] = source.entries.size();
      source.entries.push_back(std::move(m));
    }
    if (ok < minOkRecords)
      continue;
    names.push_back(t.hash + " " + t.opKind + " " + t.shapes);
    sources.push_back(std::move(source));
  }
  return sources;
}
