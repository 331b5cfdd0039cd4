//===- TuningReportTest.cpp - dltune report's data, charts and page -------===//

#include "dltune/Tuning/Report/HtmlReport.h"
#include "dltune/Tuning/Report/SvgChart.h"
#include "dltune/Tuning/Report/TuningReport.h"

#include "DatabaseTestSupport.h"

#include "gtest/gtest.h"

#include <regex>

using namespace mlir::dltune;
using namespace mlir::dltune::testing;

namespace {

MeasureRecord at(MeasureRecord r, double createdAt, double build = 1, double run = 1) {
  r.createdAt = createdAt;
  r.buildSeconds = build;
  r.runSeconds = run;
  return r;
}

MeasureRecord failed(const std::string &config, MeasureStatus status, double createdAt) {
  MeasureRecord r;
  r.config = config;
  r.status = status;
  r.error = "x";
  return at(r, createdAt);
}

std::string render(const SvgChart &chart) {
  std::string text;
  llvm::raw_string_ostream os(text);
  chart.render(os);
  return text;
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

/// Task "t" (weight given by the model) with 5 -> 4 -> fail -> 12 (cold) -> 3,
/// task "u" with 2 -> 1, interleaved in time.
std::unique_ptr<Database> makeDatabase() {
  std::unique_ptr<Database> db = createMemoryDatabase();
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t u = llvm::cantFail(db->getOrCreateTask(task("u")));
  llvm::cantFail(db->getOrCreateTask(task("never-measured")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  // Committed out of time order: the report sorts by time.
  llvm::cantFail(db->commitRecord(t, d, at(okRecord("a=3", 12.0), 105)));
  llvm::cantFail(db->commitRecord(t, d, at(okRecord("a=1", 5.0), 100)));
  llvm::cantFail(db->commitRecord(t, d, at(okRecord("a=2", 4.0), 102)));
  llvm::cantFail(db->commitRecord(t, d, failed("a=9", MeasureStatus::CompileError, 104)));
  llvm::cantFail(db->commitRecord(t, d, at(okRecord("a=4", 3.0), 106)));
  llvm::cantFail(db->commitRecord(u, d, at(okRecord("b=1", 2.0), 101)));
  llvm::cantFail(db->commitRecord(u, d, at(okRecord("b=2", 1.0), 103)));
  llvm::cantFail(db->setBaseline(t, d, 50));
  llvm::cantFail(db->addTaskNote(t, d, {"note", "transfer: from u", 100.5}));
  return db;
}

} // namespace

void expectTicks(const std::vector<double> &ticks, const std::vector<double> &expected) {
  ASSERT_EQ(ticks.size(), expected.size());
  for (size_t i = 0; i < ticks.size(); ++i)
    EXPECT_NEAR(ticks[i], expected[i], 1e-12) << i;
}

TEST(SvgChart, TicksAreOneTwoFiveSteps) {
  expectTicks(getLinearTicks(0, 10, 6), {0, 2, 4, 6, 8, 10});
  expectTicks(getLinearTicks(0.3, 0.9, 4), {0.4, 0.6, 0.8});
  expectTicks(getLinearTicks(0, 95, 3), {0, 50});
  expectTicks(getLinearTicks(1, 1), {1});
}

TEST(SvgChart, EscapesMarkup) {
  EXPECT_EQ(escapeHtml("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
}

TEST(SvgChart, SeriesCarryTheirData) {
  SvgChart chart("c1", {"title <x>", "x", "ms", true});
  chart.addSeries({"pts", ChartSeries::Style::Points,
                   {{1, 2.5, "ok", false}, {2, NAN, "failed compile_error", true},
                    {3, -1, "", false}, {4, 0.125, "cold", false}},
                   0, false});
  chart.addSeries({"best", ChartSeries::Style::Step, {{1, 2.5, "", false}, {4, 0.125, "", false}},
                   1, true});
  chart.addInterval({"spread", 4, 0.1, 0.125, 0.2, 2});
  std::string svg = render(chart);
  EXPECT_NE(svg.find("id=\"c1\""), std::string::npos);
  EXPECT_NE(svg.find("data-log-y=\"true\""), std::string::npos);
  EXPECT_NE(svg.find("title &lt;x&gt;"), std::string::npos);
  EXPECT_NE(svg.find("<g class=\"series\" data-series=\"pts\" data-count=\"4\">"),
            std::string::npos);
  EXPECT_NE(svg.find("class=\"point ok\" data-x=\"1\" data-y=\"2.5\""), std::string::npos);
  EXPECT_NE(svg.find("class=\"point failed compile_error\" data-x=\"2\" data-y=\"\""),
            std::string::npos);
  EXPECT_NE(svg.find("class=\"point cold\" data-x=\"4\" data-y=\"0.125\""), std::string::npos);
  // A negative time has no place on a log axis: drawn nowhere.
  EXPECT_EQ(svg.find("data-x=\"3\""), std::string::npos);
  // The step line goes across, then down.
  EXPECT_NE(svg.find(" H"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
  EXPECT_NE(svg.find("data-low=\"0.1\" data-y=\"0.125\" data-high=\"0.2\""), std::string::npos);
  EXPECT_EQ(count(svg, "<svg"), 1u);
  EXPECT_EQ(count(svg, "</svg>"), 1u);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

TEST(SvgChart, EmptyAndFlatChartsStillRender) {
  SvgChart empty("e", {"empty", "x", "y", false});
  EXPECT_TRUE(empty.isEmpty());
  std::string svg = render(empty);
  EXPECT_EQ(count(svg, "</svg>"), 1u);
  SvgChart flat("f", {"flat", "x", "y", true});
  flat.addSeries({"one", ChartSeries::Style::Line, {{5, 3, "", false}}, 0, false});
  svg = render(flat);
  EXPECT_NE(svg.find("data-x=\"5\" data-y=\"3\""), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(TuningReport, CollectsRecordsInTimeOrderWithTheirLabels) {
  std::unique_ptr<Database> db = makeDatabase();
  TuningReport report = llvm::cantFail(collectTuningReport(*db, "x.db"));
  ASSERT_EQ(report.tasks.size(), 2u); // the task without records is left out
  const TaskReport &t = report.tasks[0];
  EXPECT_EQ(t.task.hash, "t");
  ASSERT_EQ(t.records.size(), 5u);
  std::vector<std::string> configs;
  for (const MeasureRecord &r : t.records)
    configs.push_back(r.config);
  EXPECT_EQ(configs, (std::vector<std::string>{"a=1", "a=2", "a=9", "a=3", "a=4"}));
  EXPECT_EQ(t.cold, (std::vector<bool>{false, false, false, true, false}));
  EXPECT_EQ(t.improved, (std::vector<bool>{true, true, false, false, true}));
  EXPECT_EQ(t.firstMs, 5.0);
  EXPECT_EQ(t.firstConfig, "a=1");
  EXPECT_EQ(t.bestMs, 3.0);
  EXPECT_EQ(t.failuresByClass.at("compile_error"), 1);
  EXPECT_EQ(t.neverImprovedSeconds, 4.0); // the failure and the cold one, 2 s each
  EXPECT_EQ(t.untunedMs, std::optional<double>(50));
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_EQ(t.notes[0].message, "transfer: from u");
  EXPECT_EQ(report.recordCount, 7);
  EXPECT_EQ(report.firstRecordAt, 100);
  EXPECT_EQ(report.lastRecordAt, 106);
}

TEST(TuningReport, ModelLatencyFollowsEachTasksBestWeighted) {
  std::unique_ptr<Database> db = makeDatabase();
  TuningReportOptions options;
  options.modelTaskWeights = {{"t", 2}, {"u", 1}, {"missing", 3}};
  TuningReport report = llvm::cantFail(collectTuningReport(*db, "x.db", options));
  EXPECT_EQ(report.modelTasksWithoutRecords, std::vector<std::string>{"missing"});
  std::vector<ModelLatencyPoint> curve = getModelLatencyCurve(report);
  // 2 x 5 + 2, then in time: t 5, u 2, t 4, u 1, t fails, t 12, t 3.
  std::vector<double> expected = {12, 12, 12, 10, 9, 9, 9, 7};
  ASSERT_EQ(curve.size(), expected.size());
  for (size_t i = 0; i < curve.size(); ++i) {
    EXPECT_EQ(curve[i].latencyMs, expected[i]) << i;
    EXPECT_EQ(curve[i].measurements, static_cast<int64_t>(i));
  }
  EXPECT_EQ(curve.back().seconds, 6);
}

TEST(TuningReport, RefusesDatabasesWithNothingToShow) {
  std::unique_ptr<Database> empty = createMemoryDatabase();
  llvm::Expected<TuningReport> none = collectTuningReport(*empty, "e.db");
  ASSERT_FALSE(static_cast<bool>(none));
  EXPECT_EQ(llvm::toString(none.takeError()), "'e.db' holds no measurements: nothing to report");
  std::unique_ptr<Database> db = makeDatabase();
  TuningReportOptions options;
  options.modelTaskWeights = {{"other", 1}};
  options.modelName = "m.mlir";
  llvm::Expected<TuningReport> foreign = collectTuningReport(*db, "x.db", options);
  ASSERT_FALSE(static_cast<bool>(foreign));
  EXPECT_NE(llvm::toString(foreign.takeError()).find("no measurements of the 1 tasks of m.mlir"),
            std::string::npos);
}

TEST(HtmlReport, PageHoldsEverySectionAndComparesSharedTasks) {
  std::unique_ptr<Database> db = makeDatabase();
  TuningReport report = llvm::cantFail(collectTuningReport(*db, "a<1>.db"));
  std::unique_ptr<Database> other = createMemoryDatabase();
  int64_t t = llvm::cantFail(other->getOrCreateTask(task("t")));
  int64_t d = llvm::cantFail(other->getOrCreateDevice({0, "fp2", "gpu", "{}"}));
  llvm::cantFail(other->commitRecord(t, d, at(okRecord("a=1", 1.5), 10)));
  TuningReport compare = llvm::cantFail(collectTuningReport(*other, "b.db"));
  std::string page;
  llvm::raw_string_ostream os(page);
  writeHtmlReport(report, &compare, os);
  for (const char *section : {"id=\"model\"", "id=\"cost\"", "id=\"failures\"", "id=\"tasks\"",
                              "id=\"transfer\"", "id=\"compare\"", "id=\"task-1\"",
                              "id=\"task-2\"", "id=\"model-allocation\"",
                              "id=\"compare-task-1\""})
    EXPECT_NE(page.find(section), std::string::npos) << section;
  EXPECT_NE(page.find("a&lt;1&gt;.db"), std::string::npos);
  EXPECT_EQ(page.find("a<1>.db"), std::string::npos);
  EXPECT_EQ(count(page, "<svg"), count(page, "</svg>"));
  // t: 3 ms here, 1.5 ms there.
  EXPECT_NE(page.find("<td>2.000</td></tr>"), std::string::npos);
  EXPECT_NE(page.find("transfer: from u"), std::string::npos);
  EXPECT_EQ(page.find("script"), std::string::npos);
  EXPECT_EQ(page.rfind("</html>\n"), page.size() - 8);
}
