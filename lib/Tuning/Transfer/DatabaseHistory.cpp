//===- DatabaseHistory.cpp - A database's records as transfer sources -----===//

#include "dltune/Tuning/Transfer/DatabaseHistory.h"

#include <cmath>

using namespace mlir::dltune;

std::string mlir::dltune::getTaskOpName(const std::string &opKind) {
  return opKind.substr(0, opKind.find(' '));
}

llvm::Expected<std::vector<TaskHistorySource>>
mlir::dltune::loadTaskHistory(Database &db, const TaskRecord &target, int64_t ownDeviceId,
                              size_t minOkRecords) {
  llvm::Expected<std::vector<TaskRecord>> tasks = db.listTasks();
  if (!tasks)
    return tasks.takeError();
  llvm::Expected<std::vector<DeviceRecord>> devices = db.listDevices();
  if (!devices)
    return devices.takeError();
  std::string op = getTaskOpName(target.opKind);
  std::vector<TaskHistorySource> sources;
  for (const TaskRecord &t : *tasks) {
    if (t.target != target.target || t.space.empty() || getTaskOpName(t.opKind) != op)
      continue;
    llvm::Expected<SearchSpace> space = SearchSpace::parseCanonicalString(t.space);
    if (!space) {
      llvm::consumeError(space.takeError()); // an imported task without a usable space
      continue;
    }
    for (const DeviceRecord &device : *devices) {
      if (t.hash == target.hash && device.id == ownDeviceId)
        continue;
      llvm::Expected<std::vector<MeasureRecord>> records = db.getRecords(t.id, device.id);
      if (!records)
        return records.takeError();
      if (records->size() < minOkRecords)
        continue;
      TaskHistorySource source;
      source.records.kernelName = t.opKind + " " + t.shapes;
      source.records.deviceName = device.name;
      source.records.knobs.assign(space->getKnobs().begin(), space->getKnobs().end());
      size_t ok = 0;
      for (const MeasureRecord &r : *records) {
        llvm::Expected<Config> config = space->parseConfig(r.config);
        if (!config) {
          llvm::consumeError(config.takeError());
          continue;
        }
        if (!space->isValid(*config) || source.records.index.count(*config))
          continue; // outside its own space (an invalid-config record)
        RecordedMeasurement m;
        m.config = *config;
        m.status = r.status;
        // An ok record without a positive time (damaged) says nothing.
        bool usable = r.hasUsableTime();
        if (r.isOk() && !usable)
          continue;
        m.timeMs = usable ? r.timeMs : NAN;
        ok += usable;
        source.records.index[m.config] = source.records.entries.size();
        source.records.entries.push_back(std::move(m));
      }
      if (ok < minOkRecords)
        continue;
      source.task = t;
      source.device = device;
      source.name = t.hash + " " + t.opKind + " " + t.shapes + " on " + device.name;
      sources.push_back(std::move(source));
    }
  }
  return sources;
}
