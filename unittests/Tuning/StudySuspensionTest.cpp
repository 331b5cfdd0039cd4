//===- StudySuspensionTest.cpp - Trimmer's suspension across a live study ===//

#include "dltune/Tuning/TaskScheduler/StudySuspension.h"

#include "gtest/gtest.h"

#include <cmath>
#include <memory>

using namespace mlir::dltune;

namespace {
/// Rows of model `position` for intervals 0.. with these latencies.
void addIntervals(std::vector<StudyInterval> &rows, int64_t position,
                  std::vector<double> latencies) {
  for (size_t k = 0; k < latencies.size(); ++k)
    rows.push_back({position, static_cast<int64_t>(k), latencies[k],
                    static_cast<int64_t>(10 * k), 0});
}
} // namespace

TEST(StudySuspension, CollectsIntervalsWithoutGapsAndTheStops) {
  std::vector<StudyInterval> rows;
  addIntervals(rows, 1, {10, 9, 8});
  rows.push_back({0, 1, 5, 10, 0}); // model 0 has no interval 0: a gap
  rows.push_back({1, 4, 7, 40, 0}); // model 1 lacks interval 3
  rows.push_back({7, 0, 1, 0, 0});  // no such model
  std::vector<StudyModelIntervals> models =
      collectStudyIntervals(rows, {{1, "done", 2, "budget", 0}}, 3);
  ASSERT_EQ(models.size(), 3u);
  EXPECT_EQ(models[0].getCompletedIntervals(), 0);
  EXPECT_TRUE(models[0].latencies.empty());
  EXPECT_EQ(models[1].latencies, (IntervalLatencies{10, 9, 8}));
  EXPECT_EQ(models[1].measured, (std::vector<int64_t>{0, 10, 20}));
  EXPECT_EQ(models[1].getCompletedIntervals(), 2);
  ASSERT_TRUE(models[1].stop);
  EXPECT_EQ(models[1].stop->state, "done");
  EXPECT_FALSE(models[2].stop);
}

TEST(StudySuspension, WaitsForEveryActiveModelThenSuspendsTheWorstPlateau) {
  ModelSuspensionOptions o; // 2 intervals below 1% each
  std::vector<StudyInterval> rows;
  addIntervals(rows, 0, {10, 9, 8.99, 8.985});  // plateau from interval 2
  addIntervals(rows, 1, {10, 9, 8.98, 8.97});   // plateau too, improving more
  addIntervals(rows, 2, {10, 9, 8});            // model 2 has not finished interval 3
  std::vector<StudyModelIntervals> models = collectStudyIntervals(rows, {}, 3);
  // Synchronisation 3 waits for model 2; 1 and 2 had no plateau yet.
  EXPECT_TRUE(decideStudySuspensions(models, o).empty());
  addIntervals(rows, 2, {10, 9, 8, 7}); // interval 3 of model 2 (duplicates are ignored)
  models = collectStudyIntervals(rows, {}, 3);
  std::vector<StudyModelStop> decided = decideStudySuspensions(models, o);
  ASSERT_EQ(decided.size(), 1u);
  EXPECT_EQ(decided[0].position, 0); // its last interval improved least
  EXPECT_EQ(decided[0].state, "suspended");
  EXPECT_EQ(decided[0].interval, 3);
  EXPECT_NE(decided[0].reason.find("plateau"), std::string::npos);
  // Decided once: with the suspension stored, nothing more at 3.
  models = collectStudyIntervals(rows, decided, 3);
  EXPECT_TRUE(decideStudySuspensions(models, o).empty());
}

TEST(StudySuspension, ASuspendedModelIsNotWaitedForAndLaterSyncsGoOn) {
  ModelSuspensionOptions o;
  o.plateauIntervals = 1;
  std::vector<StudyInterval> rows;
  addIntervals(rows, 0, {10, 9.999, 9.998}); // suspended at 1, never tuned again
  addIntervals(rows, 1, {10, 8, 7.999});     // plateau at 2
  addIntervals(rows, 2, {10, 8, 6});
  std::vector<StudyModelIntervals> models = collectStudyIntervals(rows, {}, 3);
  std::vector<StudyModelStop> decided = decideStudySuspensions(models, o);
  ASSERT_EQ(decided.size(), 2u);
  EXPECT_EQ(decided[0].position, 0);
  EXPECT_EQ(decided[0].interval, 1);
  // At 2 model 0 (suspended at 1) takes no part, whatever its rows say.
  EXPECT_EQ(decided[1].position, 1);
  EXPECT_EQ(decided[1].interval, 2);
  // With model 0 stopped at 1 and model 1 not at 3 yet, model 2 alone
  // cannot pass synchronisation 3.
  rows.clear();
  addIntervals(rows, 1, {10, 8, 7});
  addIntervals(rows, 2, {10, 8, 7, 6.99999});
  models = collectStudyIntervals(rows, {{0, "suspended", 1, "", 0}}, 3);
  EXPECT_TRUE(decideStudySuspensions(models, o).empty());
}

TEST(StudySuspension, AModelDoneAtASyncIsNotSuspendedThere) {
  ModelSuspensionOptions o;
  o.plateauIntervals = 1;
  std::vector<StudyInterval> rows;
  addIntervals(rows, 0, {10, 10}); // no improvement, but done at 1 (budget)
  addIntervals(rows, 1, {10, 9.95});
  std::vector<StudyModelIntervals> models =
      collectStudyIntervals(rows, {{0, "done", 1, "budget spent", 0}}, 2);
  std::vector<StudyModelStop> decided = decideStudySuspensions(models, o);
  ASSERT_EQ(decided.size(), 1u);
  EXPECT_EQ(decided[0].position, 1);
  // The last active model may be suspended: a model-level early stop.
  models = collectStudyIntervals(rows, {{0, "done", 1, "budget spent", 0}, decided[0]}, 2);
  EXPECT_FALSE(pickNextStudyModel(models, {}));
}

TEST(StudySuspension, NextModelIsTheFurthestBehindThenTheLeastBusy) {
  std::vector<StudyInterval> rows;
  addIntervals(rows, 0, {10, 9, 8});
  addIntervals(rows, 1, {10, 9});
  addIntervals(rows, 2, {10, 9});
  std::vector<StudyModelIntervals> models = collectStudyIntervals(rows, {}, 4);
  EXPECT_EQ(pickNextStudyModel(models, {}), 3u); // not started: 0 intervals
  models = collectStudyIntervals(rows, {{3, "done", 0, "nothing to measure", 0}}, 4);
  EXPECT_EQ(pickNextStudyModel(models, {}), 1u);
  EXPECT_EQ(pickNextStudyModel(models, {0, 1, 0, 0}), 2u);
  EXPECT_EQ(pickNextStudyModel(models, {0, 1, 1, 0}), 1u);
}

TEST(StudySuspension, AModelWithoutALatencyTakesNoPart) {
  ModelSuspensionOptions o;
  o.plateauIntervals = 1;
  std::vector<StudyInterval> rows;
  addIntervals(rows, 0, {NAN, NAN}); // a task without a usable record yet
  addIntervals(rows, 1, {10, 9.99});
  std::vector<StudyModelStop> decided =
      decideStudySuspensions(collectStudyIntervals(rows, {}, 2), o);
  ASSERT_EQ(decided.size(), 1u);
  EXPECT_EQ(decided[0].position, 1);
}

TEST(StudySuspension, LatencyIsTheRecordsBestWhateverWasConfirmed) {
  std::unique_ptr<Database> db = createMemoryDatabase();
  TaskRecord task;
  task.hash = "t1";
  int64_t t = llvm::cantFail(db->getOrCreateTask(task));
  int64_t d = llvm::cantFail(db->getOrCreateDevice({0, "fp", "cpu", "{}"}));
  auto record = [](const std::string &config, double ms) {
    MeasureRecord r;
    r.config = config;
    r.timeMs = r.minMs = r.maxMs = ms;
    r.repeats = 3;
    return r;
  };
  llvm::cantFail(db->commitRecord(t, d, record("a=1", 4.0)));
  llvm::cantFail(db->commitRecord(t, d, record("a=2", 3.0)));
  llvm::cantFail(db->setBaseline(t, d, 10.0));
  Confirmation c;
  c.config = "a=2";
  c.rounds = 3;
  c.medianMs = c.minMs = c.maxMs = 3.5;
  llvm::cantFail(db->commitConfirmations(t, d, {c}));
  // Found after the confirmation, by an interval that did not confirm.
  llvm::cantFail(db->commitRecord(t, d, record("a=3", 2.0)));
  StudyModel model{"m.mlir", "module {}", {{"t1", 2}, {"missing", 1}}};
  StudyModelLatency l = llvm::cantFail(readStudyModelLatency(*db, model, d));
  EXPECT_TRUE(std::isnan(l.latencyMs)); // the task "missing" has no best
  EXPECT_EQ(l.measured, 3);
  model.tasks.pop_back();
  l = llvm::cantFail(readStudyModelLatency(*db, model, d));
  EXPECT_EQ(l.latencyMs, 4.0); // 2 x the record's 2.0, not the confirmed 3.5
  EXPECT_EQ(l.untunedMs, 20.0);
}
