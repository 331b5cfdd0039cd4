//===- DatabaseIOTest.cpp - JSON lines export and import ------------------===//
//
// An export must carry everything that decides what a database answers:
// records with their generator, cut-off mark and GPU resources, every
// confirmation run and the untuned times. Checked on each Database
// implementation as source and as destination.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/Database/DatabaseIO.h"

#include "DatabaseTestSupport.h"

#include "gtest/gtest.h"

#include <sstream>

using namespace mlir::dltune;
using namespace mlir::dltune::testing;

namespace {
using OpenFn = std::unique_ptr<Database> (*)();

std::unique_ptr<Database> openSqlite() { return llvm::cantFail(Database::openInMemory()); }

class DatabaseIO : public ::testing::TestWithParam<OpenFn> {
protected:
  void SetUp() override {
    source = GetParam()();
    fill(*source);
  }

  /// A task whose fastest record ("a=1") is not its confirmed best ("a=2").
  void fill(Database &db) {
    t = llvm::cantFail(db.getOrCreateTask(task("t")));
    d = llvm::cantFail(db.getOrCreateDevice(testDevice()));
    MeasureRecord fast = okRecord("a=1", 1.0);
    fast.generator = "dltune 1; LLVM 22; schedules 9";
    llvm::cantFail(db.commitRecord(t, d, fast));
    MeasureRecord confirmed = okRecord("a=2", 2.0);
    GpuKernelResources kernel;
    kernel.kernel = "mm_kernel";
    kernel.registers = 96;
    kernel.sharedBytes = 16384;
    kernel.threadsPerBlock = 256;
    confirmed.gpuResources = {kernel};
    confirmed.candidateEnergyJ = 12.5;
    llvm::cantFail(db.commitRecord(t, d, confirmed));
    MeasureRecord cut = okRecord("a=3", 0.5);
    cut.cutOff = true;
    llvm::cantFail(db.commitRecord(t, d, cut));
    // An older run that ranked a=1 first, then the latest: a=2 first, and
    // a candidate that was not timed.
    llvm::cantFail(db.commitConfirmations(t, d, {{"a=1", 3, 1.1, 1.0, 1.2, "g", 50}}));
    llvm::cantFail(db.commitConfirmations(t, d,
                                          {{"a=1", 3, 2.5, 2.4, 2.6, "g", 100},
                                           {"a=2", 3, 1.8, 1.7, 1.9, "g", 100},
                                           {"a=4", 0, NAN, NAN, NAN, "g", 100}}));
    llvm::cantFail(db.setBaseline(t, d, 40.0));
    llvm::cantFail(db.addTaskNote(t, d, {"note", "transfer: 2 sources", 60}));
    llvm::cantFail(db.addTaskNote(t, d, {"warning", "a \"quoted\"\nline", 70}));
    llvm::cantFail(db.addModelLatency(d, {"m.mlir", "main", 9.0, 6.0, true, 80}));
    int64_t study = llvm::cantFail(db.createStudy(nightStudy()));
    // Model 0's untuned latency (NaN: no best yet) and first interval, model
    // 1's first interval and its suspension.
    llvm::cantFail(db.addStudyInterval(study, d, {0, 0, NAN, 0, 91}));
    llvm::cantFail(db.addStudyInterval(study, d, {0, 1, 5.0, 4, 92}));
    llvm::cantFail(db.addStudyInterval(study, d, {1, 1, 3.0, 2, 93}));
    llvm::cantFail(db.stopStudyModel(study, d, {1, "suspended", 1, "plateau", 94}));
  }

  static Study nightStudy() {
    return {0, "night", R"({"trials":10})",
            {{"a.mlir", "module {}", {{"abc", 2}, {"def", 1}}}, {"b.mlir", "module {\n}", {{"abc", 1}}}},
            90};
  }

  std::string exportText(Database &db, ExportStats *stats = nullptr) {
    std::ostringstream out;
    llvm::cantFail(exportJsonLines(db, out, stats));
    return out.str();
  }

  ImportStats importText(Database &db, const std::string &text) {
    std::istringstream in(text);
    return llvm::cantFail(importJsonLines(db, in, "export.jsonl"));
  }

  std::unique_ptr<Database> source; // filled, in the implementation under test
  int64_t t = 0, d = 0;
};

TEST_P(DatabaseIO, RebuiltDatabasePicksTheSameConfirmedBest) {
  ExportStats exported;
  std::string text = exportText(*source, &exported);
  EXPECT_EQ(exported.records, 3);
  EXPECT_EQ(exported.confirmations, 4);
  EXPECT_EQ(exported.baselines, 1);
  EXPECT_EQ(exported.notes, 2);
  EXPECT_EQ(exported.modelLatencies, 1);
  EXPECT_EQ(exported.studies, 1);
  EXPECT_EQ(exported.studyIntervals, 3);
  EXPECT_EQ(exported.studyStops, 1);

  for (OpenFn open : {&openSqlite, &createMemoryDatabase}) {
    std::unique_ptr<Database> copy = open();
    ImportStats stats = importText(*copy, text);
    EXPECT_EQ(stats.inserted, 3);
    EXPECT_EQ(stats.confirmations, 4);
    EXPECT_EQ(stats.baselines, 1);
    EXPECT_EQ(stats.notes, 2);
    EXPECT_EQ(stats.modelLatencies, 1);
    EXPECT_EQ(stats.studies, 1);
    std::optional<Study> study = llvm::cantFail(copy->findStudy("night"));
    ASSERT_TRUE(study.has_value());
    EXPECT_EQ(study->options, R"({"trials":10})");
    EXPECT_EQ(study->createdAt, 90);
    ASSERT_EQ(study->models.size(), 2u);
    EXPECT_EQ(study->models[0].name, "a.mlir");
    EXPECT_EQ(study->models[1].module, "module {\n}");
    EXPECT_EQ(study->models[0].tasks, nightStudy().models[0].tasks);
    EXPECT_EQ(stats.studyIntervals, 3);
    EXPECT_EQ(stats.studyStops, 1);
    int64_t ct = llvm::cantFail(copy->getOrCreateTask(task("t")));
    int64_t cd = llvm::cantFail(copy->getOrCreateDevice(testDevice()));
    std::optional<MeasureRecord> best = llvm::cantFail(copy->getBest(ct, cd));
    ASSERT_TRUE(best.has_value());
    EXPECT_EQ(best->config, "a=2");
    EXPECT_TRUE(best->confirmed);
    EXPECT_EQ(best->timeMs, 1.8);
    ASSERT_TRUE(best->candidateEnergyJ.has_value());
    EXPECT_EQ(*best->candidateEnergyJ, 12.5);
    ASSERT_EQ(best->gpuResources.size(), 1u);
    EXPECT_EQ(best->gpuResources[0].kernel, "mm_kernel");
    EXPECT_EQ(best->gpuResources[0].registers, 96);
    EXPECT_EQ(best->gpuResources[0].sharedBytes, 16384);
    EXPECT_EQ(best->gpuResources[0].threadsPerBlock, 256);

    std::vector<Confirmation> runs = llvm::cantFail(copy->listConfirmations(ct, cd));
    std::vector<Confirmation> original = llvm::cantFail(source->listConfirmations(t, d));
    ASSERT_EQ(runs.size(), original.size());
    for (size_t i = 0; i < runs.size(); ++i) {
      EXPECT_EQ(runs[i].config, original[i].config);
      EXPECT_EQ(runs[i].createdAt, original[i].createdAt);
      EXPECT_EQ(runs[i].rounds, original[i].rounds);
      EXPECT_EQ(std::isnan(runs[i].medianMs), std::isnan(original[i].medianMs));
    }
    std::vector<MeasureRecord> records = llvm::cantFail(copy->getRecords(ct, cd));
    ASSERT_EQ(records.size(), 3u);
    EXPECT_EQ(records[0].generator, "dltune 1; LLVM 22; schedules 9");
    EXPECT_FALSE(records[0].cutOff);
    EXPECT_TRUE(records[2].cutOff);
    EXPECT_EQ(llvm::cantFail(copy->getBaseline(ct, cd)), std::optional<double>(40.0));
    std::vector<TaskNote> notes = llvm::cantFail(copy->listTaskNotes(ct, cd));
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(notes[0].kind, "note");
    EXPECT_EQ(notes[0].message, "transfer: 2 sources");
    EXPECT_EQ(notes[0].createdAt, 60);
    EXPECT_EQ(notes[1].message, "a \"quoted\"\nline");
    std::vector<ModelLatency> latencies = llvm::cantFail(copy->listModelLatencies(cd));
    ASSERT_EQ(latencies.size(), 1u);
    EXPECT_EQ(latencies[0].model, "m.mlir");
    EXPECT_EQ(latencies[0].tunedMs, 6.0);
    EXPECT_TRUE(latencies[0].checked);
    // The study's intervals and stops: without them an imported study would
    // tune its suspended model again.
    std::vector<StudyInterval> intervals = llvm::cantFail(copy->listStudyIntervals(study->id, cd));
    ASSERT_EQ(intervals.size(), 3u);
    EXPECT_TRUE(std::isnan(intervals[0].latencyMs));
    EXPECT_EQ(intervals[1].interval, 1);
    EXPECT_EQ(intervals[1].latencyMs, 5.0);
    EXPECT_EQ(intervals[1].measured, 4);
    EXPECT_EQ(intervals[2].position, 1);
    EXPECT_EQ(intervals[2].createdAt, 93);
    std::vector<StudyModelStop> stops = llvm::cantFail(copy->listStudyModelStops(study->id, cd));
    ASSERT_EQ(stops.size(), 1u);
    EXPECT_EQ(stops[0].position, 1);
    EXPECT_EQ(stops[0].state, "suspended");
    EXPECT_EQ(stops[0].interval, 1);
    EXPECT_EQ(stops[0].reason, "plateau");
    EXPECT_EQ(stops[0].createdAt, 94);
    // And out again: the same text.
    EXPECT_EQ(exportText(*copy), text);
    // A second import adds no note twice.
    ImportStats twice = importText(*copy, text);
    EXPECT_EQ(twice.notes, 0);
    EXPECT_EQ(twice.modelLatencies, 0);
    EXPECT_EQ(twice.studies, 0); // the same study is kept
    EXPECT_EQ(twice.studyIntervals, 0);
    EXPECT_EQ(twice.studyStops, 0);
    EXPECT_EQ(llvm::cantFail(copy->listTaskNotes(ct, cd)).size(), 2u);
  }
}

TEST_P(DatabaseIO, ImportingTwiceAddsNothing) {
  std::string text = exportText(*source);
  std::unique_ptr<Database> copy = GetParam()();
  importText(*copy, text);
  ImportStats again = importText(*copy, text);
  EXPECT_EQ(again.inserted, 0);
  EXPECT_EQ(again.skipped, 3);
  EXPECT_EQ(again.confirmations, 0);
  EXPECT_EQ(again.baselines, 0);
  EXPECT_EQ(exportText(*copy), text);
}

TEST_P(DatabaseIO, ImportedOlderRunsDoNotOverrideNewerOnes) {
  std::string text = exportText(*source);
  // The destination confirmed a=1 later (at 200) and knows another untuned time.
  std::unique_ptr<Database> dest = GetParam()();
  int64_t dt = llvm::cantFail(dest->getOrCreateTask(task("t")));
  int64_t dd = llvm::cantFail(dest->getOrCreateDevice(testDevice()));
  llvm::cantFail(dest->commitRecord(dt, dd, okRecord("a=1", 1.0)));
  llvm::cantFail(dest->commitConfirmations(dt, dd, {{"a=1", 5, 0.9, 0.8, 1.0, "h", 200}}));
  llvm::cantFail(dest->setBaseline(dt, dd, 30.0));
  ImportStats stats = importText(*dest, text);
  EXPECT_EQ(stats.inserted, 2);
  EXPECT_EQ(stats.confirmations, 4);
  EXPECT_EQ(stats.baselines, 0);
  std::optional<MeasureRecord> best = llvm::cantFail(dest->getBest(dt, dd));
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->config, "a=1");
  EXPECT_EQ(best->timeMs, 0.9);
  EXPECT_EQ(llvm::cantFail(dest->getBaseline(dt, dd)), std::optional<double>(30.0));
}

TEST_P(DatabaseIO, ImportedStudyRowsDoNotOverrideTheDatabasesOwn) {
  std::string text = exportText(*source);
  // The destination has the same study, where model 1 ended done and
  // model 0's first interval measured another latency.
  std::unique_ptr<Database> dest = GetParam()();
  int64_t study = llvm::cantFail(dest->createStudy(nightStudy()));
  int64_t dd = llvm::cantFail(dest->getOrCreateDevice(testDevice()));
  llvm::cantFail(dest->addStudyInterval(study, dd, {0, 1, 7.0, 4, 50}));
  llvm::cantFail(dest->stopStudyModel(study, dd, {1, "done", 1, "budget", 50}));
  ImportStats stats = importText(*dest, text);
  EXPECT_EQ(stats.studies, 0);
  EXPECT_EQ(stats.studyIntervals, 2); // model 0's interval 0, model 1's interval 1
  EXPECT_EQ(stats.studyStops, 0);
  std::vector<StudyInterval> intervals = llvm::cantFail(dest->listStudyIntervals(study, dd));
  ASSERT_EQ(intervals.size(), 3u);
  EXPECT_EQ(intervals[1].latencyMs, 7.0);
  std::vector<StudyModelStop> stops = llvm::cantFail(dest->listStudyModelStops(study, dd));
  ASSERT_EQ(stops.size(), 1u);
  EXPECT_EQ(stops[0].state, "done");
}

TEST_P(DatabaseIO, AnotherStudyOfTheSameNameIsRefused) {
  std::string text = exportText(*source);
  std::unique_ptr<Database> dest = GetParam()();
  Study other = nightStudy();
  other.options = R"({"trials":20})";
  llvm::cantFail(dest->createStudy(other));
  std::istringstream in(text);
  llvm::Expected<ImportStats> stats = importJsonLines(*dest, in, "export.jsonl");
  ASSERT_FALSE(static_cast<bool>(stats));
  EXPECT_NE(llvm::toString(stats.takeError())
                .find("a study named 'night' is in the database with other models or options"),
            std::string::npos);
  // Nothing of the file was imported.
  EXPECT_TRUE(llvm::cantFail(dest->listTasks()).empty());
}

TEST_P(DatabaseIO, BadStudyLinesAreRefusedWithTheirReason) {
  std::unique_ptr<Database> dest = GetParam()();
  auto refuse = [&](const std::string &line, const std::string &why) {
    std::istringstream in(line + "\n");
    llvm::Expected<ImportStats> stats = importJsonLines(*dest, in, "bad.jsonl");
    ASSERT_FALSE(static_cast<bool>(stats)) << line;
    std::string message = llvm::toString(stats.takeError());
    EXPECT_NE(message.find(why), std::string::npos) << message;
  };
  std::string model = R"({"name":"a.mlir","module":"module {}","tasks":[{"hash":"abc","count":1}]})";
  auto study = [&](const std::string &models, const std::string &options = R"("{}")") {
    return R"({"format":"dltune-study-v1","study":{"name":"s","options":)" + options +
           R"(,"created_at":5,"models":)" + models + "}}";
  };
  refuse(study("[]"), "study.models must be a non-empty list");
  refuse(study("[" + model + "," + model + "]"), "study.models[1].name 'a.mlir' is given twice");
  refuse(study(R"([{"name":"a","module":"m","tasks":[{"hash":"abc","count":0}]}])"),
         "study.models[0].tasks[0].count");
  refuse(study(R"([{"name":"a","module":"m","tasks":[]}])"),
         "study.models[0].tasks must be a non-empty list");
  refuse(study("[" + model + "]", R"("[1]")"), "study.options must be the text of a JSON object");
  refuse(study(R"([{"name":"a","module":"m","tasks":[{"hash":"a b","count":1}]}])"),
         "study.models[0].tasks[0].hash must not contain blanks or line breaks");
  refuse(study("[" + model + "]") + "\n" + study("[" + model + "]"),
         "study 's' is on line 1 already");
  refuse(R"({"format":"dltune-study-v1","study":{"options":"{}","created_at":5,"models":[]}})",
         "study.name");
  std::string device = R"("device":{"fingerprint":"f","name":"n","json":"{}"})";
  auto interval = [&](const std::string &body, const std::string &name = "s") {
    return R"({"format":"dltune-study-interval-v1","study_name":")" + name + R"(",)" + device +
           R"(,"interval":)" + body + "}";
  };
  auto stop = [&](const std::string &body) {
    return R"({"format":"dltune-study-stop-v1","study_name":"s",)" + device + R"(,"stop":)" +
           body + "}";
  };
  std::string good = study("[" + model + "]") + "\n";
  std::string okInterval = R"({"position":0,"interval":1,"latency_ms":2,"measured":3,"created_at":9})";
  refuse(interval(okInterval), "study 's' is not on an earlier line");
  refuse(good + interval(okInterval, "other"), "study 'other' is not on an earlier line");
  refuse(good + interval(R"({"position":1,"interval":1,"latency_ms":2,"measured":3,"created_at":9})"),
         "position 1 is not a model of study 's' (it has 1)");
  refuse(good + interval(R"({"position":0,"interval":-1,"latency_ms":2,"measured":3,"created_at":9})"),
         "interval.interval must be an integer");
  refuse(good + interval(R"({"position":0,"interval":1,"latency_ms":-2,"measured":3,"created_at":9})"),
         "interval.latency_ms must not be negative");
  refuse(good + interval(R"({"position":0,"interval":1,"measured":3,"created_at":0})"),
         "interval.created_at must be a positive number");
  refuse(good + interval(R"({"position":0,"interval":1,"latency_ms":0,"measured":3,"created_at":9})"),
         "interval.latency_ms must be a positive number or null");
  refuse(good + interval(okInterval) + "\n" + interval(okInterval),
         "interval 1 of model 0 of study 's' on this device is on line 2 already");
  std::string twoModels = study("[" + model + R"(,{"name":"b.mlir","module":"m","tasks":[{"hash":"abc","count":1}]}])") + "\n";
  std::string suspendAt1 = R"({"position":0,"state":"suspended","interval":1,"reason":"","created_at":9})";
  refuse(twoModels + stop(suspendAt1) + "\n" + stop(suspendAt1),
         "the stop of model 0 of study 's' on this device is on line 2 already");
  refuse(twoModels + stop(suspendAt1) + "\n" +
             stop(R"({"position":1,"state":"suspended","interval":1,"reason":"","created_at":9})"),
         "another model of study 's' on this device is suspended at interval 1 on line 2");
  refuse(good + stop(R"({"position":0,"state":"paused","interval":1,"reason":"","created_at":9})"),
         "stop.state must be 'suspended' or 'done', not 'paused'");
  refuse(good + stop(R"({"position":2,"state":"done","interval":1,"reason":"","created_at":9})"),
         "position 2 is not a model of study 's'");
  refuse(good + stop(R"({"position":0,"state":"done","interval":1,"created_at":9})"),
         "stop.reason is missing");
  refuse(good + R"({"format":"dltune-study-stop-v1",)" + device +
             R"(,"stop":{"position":0,"state":"done","interval":1,"reason":"","created_at":9}})",
         "study_name is missing");
  EXPECT_TRUE(llvm::cantFail(dest->listStudies()).empty());
}

INSTANTIATE_TEST_SUITE_P(Implementations, DatabaseIO,
                         ::testing::Values(&openSqlite, &createMemoryDatabase),
                         [](const ::testing::TestParamInfo<OpenFn> &info) {
                           return info.index == 0 ? "Sqlite" : "Memory";
                         });
} // namespace
