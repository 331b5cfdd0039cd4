//===- Database.cpp - The tuning database interface -----------------------===//
//
// The factories of the SQLite and PostgreSQL implementations (chosen by
// the path: a postgresql:// URL or a file) (the in-memory one is
// createMemoryDatabase, MemoryDatabase.cpp) and what both implementations
// share.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/Database/PostgresDatabase.h"
#include "dltune/Tuning/Database/SqliteDatabase.h"

using namespace mlir::dltune;

Database::~Database() = default;

llvm::Expected<std::unique_ptr<Database>> Database::open(const std::string &path,
                                                         bool create) {
  if (isPostgresUrl(path))
    return PostgresDatabase::open(path, create);
  return SqliteDatabase::open(path, create);
}

llvm::Expected<std::unique_ptr<Database>> Database::openReadOnly(const std::string &path) {
  if (isPostgresUrl(path))
    return PostgresDatabase::openReadOnly(path);
  return SqliteDatabase::openReadOnly(path);
}

llvm::Expected<std::unique_ptr<Database>> Database::openInMemory() {
  return SqliteDatabase::openInMemory();
}

llvm::Error Database::checkPath(const std::string &path) {
  // A server's database is checked when it is connected to.
  if (isPostgresUrl(path))
    return llvm::Error::success();
  return SqliteDatabase::checkPath(path);
}

MeasureRecord Database::makeConfirmedBest(MeasureRecord stored, const Confirmation &c) {
  stored.config = c.config;
  stored.status = MeasureStatus::Ok;
  stored.timeMs = c.medianMs;
  stored.minMs = c.minMs;
  stored.maxMs = c.maxMs;
  stored.repeats = c.rounds;
  stored.noisy = stored.cutOff = false;
  stored.confirmed = true;
  return stored;
}
