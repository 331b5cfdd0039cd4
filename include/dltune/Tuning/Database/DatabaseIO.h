//===- DatabaseIO.h - Export and import of tuning records -------*- C++ -*-===//
//
// JSON lines export/import (format in docs/database.md) and imports of
// other tuners' logs as history records of their own workloads: AutoTVM
// (TopHub) logs and Kernel Tuner caches. Every import runs in one
// transaction: a malformed input imports nothing.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_DATABASE_DATABASEIO_H
#define DLTUNE_TUNING_DATABASE_DATABASEIO_H

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/Replay/KernelTunerCache.h"

#include <istream>
#include <ostream>

namespace mlir::dltune {

struct ImportStats {
  int64_t tasks = 0;         // distinct tasks seen
  int64_t inserted = 0;      // records added
  int64_t skipped = 0;       // records the database already had
  int64_t confirmations = 0; // confirmation candidates added
  int64_t baselines = 0;     // untuned times added (where none was stored)
  int64_t notes = 0;         // tuner notes added (where the same was not stored)
  int64_t modelLatencies = 0; // end-to-end timings added (likewise)
  int64_t studies = 0;        // studies added (one already there, the same, is kept)
  int64_t studyIntervals = 0; // study interval latencies added (the database's stand)
  int64_t studyStops = 0;     // stopped study models added (likewise)
};

struct ExportStats {
  int64_t records = 0, confirmations = 0, baselines = 0, notes = 0, modelLatencies = 0,
          studies = 0, studyIntervals = 0, studyStops = 0;
};

/// Writes every record, every confirmation (each run's candidates) and
/// every untuned time, every tuner note, every end-to-end model timing and
/// every study (its models and options, each device's interval latencies
/// and stopped models; not its workers' rows) as
/// one JSON object per line: a database imported
/// from it picks the same best configurations.
llvm::Error exportJsonLines(Database &db, std::ostream &out, ExportStats *stats = nullptr);

// Imports check every field of every record (type, range, a config inside
// its task's space) and import nothing from a file with an invalid record;
// the error lists the invalid records as `name:line: problem`.

/// Reads what exportJsonLines wrote.
llvm::Expected<ImportStats> importJsonLines(Database &db, const std::string &path);
llvm::Expected<ImportStats> importJsonLines(Database &db, std::istream &in,
                                            const std::string &name);
/// AutoTVM log lines ({"input": [target, task, args, kwargs], "config": ...,
/// "result": [[costs], error_no, ...]}); '#' lines are comments.
llvm::Expected<ImportStats> importAutoTVMLog(Database &db, const std::string &path);
llvm::Expected<ImportStats> importAutoTVMLog(Database &db, std::istream &in,
                                             const std::string &name);
/// A Kernel Tuner cache: one task (kernel, problem size, knobs) on its device.
llvm::Expected<ImportStats> importKernelTunerCache(Database &db, const std::string &path);
llvm::Expected<ImportStats> importKernelTunerCache(Database &db,
                                                   const KernelTunerCache &cache);

/// Hex form of stableHash, used for task and device keys.
std::string hashHex(llvm::StringRef text);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_DATABASE_DATABASEIO_H
