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

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cctype>
#include <set>

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

std::string
Database::encodeStudyTasks(const std::vector<std::pair<std::string, int64_t>> &tasks) {
  std::string text;
  for (const auto &[hash, occurrences] : tasks)
    text += hash + " " + std::to_string(occurrences) + "\n";
  return text;
}

llvm::Error Database::checkNewStudy(const Study &study) {
  std::set<std::string> names;
  for (const StudyModel &m : study.models) {
    if (!names.insert(m.name).second)
      return llvm::createStringError("the study '" + study.name + "' names the model '" +
                                     m.name + "' twice");
    for (const auto &[hash, occurrences] : m.tasks) {
      if (hash.empty() || llvm::any_of(hash, [](char c) {
            return std::isspace(static_cast<unsigned char>(c));
          }))
        return llvm::createStringError("the study '" + study.name + "' has a task hash '" +
                                       hash + "' (model '" + m.name +
                                       "') that is empty or holds a blank or line break");
      if (occurrences < 1)
        return llvm::createStringError("the study '" + study.name + "' counts a task of model '" +
                                       m.name + "' " + std::to_string(occurrences) +
                                       " times (at least 1)");
    }
  }
  return llvm::Error::success();
}

llvm::Error Database::checkStudyModelStop(const StudyModelStop &stop) {
  if (stop.state != "suspended" && stop.state != "done")
    return llvm::createStringError("a study model stops 'suspended' or 'done', not '" +
                                   stop.state + "'");
  if (stop.position < 0 || stop.interval < 0)
    return llvm::createStringError("a study model's position and interval are not negative");
  return llvm::Error::success();
}

llvm::Expected<std::vector<std::pair<std::string, int64_t>>>
Database::decodeStudyTasks(const std::string &text) {
  std::vector<std::pair<std::string, int64_t>> tasks;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(text).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    auto [hash, count] = line.split(' ');
    int64_t occurrences = 0;
    if (hash.empty() || count.getAsInteger(10, occurrences) || occurrences < 1)
      return llvm::createStringError("a study model's task list has a damaged line '" +
                                     line.str() + "'");
    tasks.emplace_back(hash.str(), occurrences);
  }
  return tasks;
}
