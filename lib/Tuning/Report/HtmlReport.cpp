//===- HtmlReport.cpp - A tuning database as one self-contained HTML page -===//

#include "dltune/Tuning/Report/HtmlReport.h"
#include "dltune/Tuning/Report/SvgChart.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <set>

using namespace mlir::dltune;

namespace {

std::string ms(double v) {
  if (!std::isfinite(v))
    return "-";
  if (v >= 100)
    return llvm::formatv("{0:f1}", v).str();
  if (v >= 1)
    return llvm::formatv("{0:f3}", v).str();
  return llvm::formatv("{0:f4}", v).str();
}

std::string fixed(double v, int digits) {
  if (!std::isfinite(v))
    return "-";
  return llvm::formatv(("{0:f" + std::to_string(digits) + "}").c_str(), v).str();
}

std::string utc(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0)
    return "-";
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buffer;
}

/// The colour of a failure class in every chart (failures are drawn as
/// crosses on the top edge, one series per class).
int getFailureColour(MeasureStatus status) {
  switch (status) {
  case MeasureStatus::Ok:
    return 0;
  case MeasureStatus::InvalidConfig:
    return 4;
  case MeasureStatus::CompileError:
    return 3;
  case MeasureStatus::CompileTimeout:
    return 5;
  case MeasureStatus::RuntimeCrash:
    return 8;
  case MeasureStatus::RunTimeout:
    return 6;
  case MeasureStatus::WrongResult:
    return 7;
  case MeasureStatus::OutOfMemory:
    return 9;
  }
  return 9;
}

/// Records of a task as points over measurements (x = 1-based index) or
/// seconds since the task's first record: the timed ones (cold ones marked),
/// then one series of crosses per failure class.
std::vector<ChartSeries> getMeasurementPoints(const TaskReport &t, bool bySeconds, int colour) {
  ChartSeries timed{"measurements", ChartSeries::Style::Points, {}, colour, false};
  std::map<MeasureStatus, ChartSeries> failed;
  double start = t.records.empty() ? 0 : t.records.front().createdAt;
  for (size_t i = 0; i < t.records.size(); ++i) {
    const MeasureRecord &r = t.records[i];
    double x = bySeconds ? std::max(0.0, r.createdAt - start) : static_cast<double>(i + 1);
    if (!r.isOk()) {
      std::string name = toString(r.status).str();
      auto [it, fresh] = failed.try_emplace(r.status);
      if (fresh)
        it->second = {"failed: " + name, ChartSeries::Style::Points, {},
                      getFailureColour(r.status), false};
      it->second.points.push_back({x, NAN, "failed " + name, true});
      continue;
    }
    if (!r.hasUsableTime())
      continue;
    timed.points.push_back({x, r.timeMs, t.cold[i] ? "cold" : "ok", false});
  }
  std::vector<ChartSeries> out{std::move(timed)};
  for (auto &[status, series] : failed)
    out.push_back(std::move(series));
  return out;
}

ChartSeries getBestSoFar(const TaskReport &t, bool bySeconds, std::string name, int colour) {
  ChartSeries s{std::move(name), ChartSeries::Style::Step, {}, colour, false};
  double start = t.records.empty() ? 0 : t.records.front().createdAt;
  double best = NAN;
  for (size_t i = 0; i < t.records.size(); ++i) {
    const MeasureRecord &r = t.records[i];
    if (r.hasUsableTime() && (std::isnan(best) || r.timeMs < best))
      best = r.timeMs;
    if (std::isnan(best))
      continue;
    double x = bySeconds ? std::max(0.0, r.createdAt - start) : static_cast<double>(i + 1);
    s.points.push_back({x, best, "", false});
  }
  return s;
}

ChartSeries getConstant(std::string name, double y, double x0, double x1, int colour) {
  ChartSeries s{std::move(name), ChartSeries::Style::Line, {}, colour, true};
  if (std::isfinite(y) && y > 0)
    s.points = {{x0, y, "", false}, {x1, y, "", false}};
  return s;
}

const char *kStyle = R"(
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 20px auto; max-width: 1260px;
       color: #222; font-size: 14px; }
h1 { font-size: 22px; } h2 { font-size: 18px; border-bottom: 1px solid #ccc; margin-top: 28px; }
h3 { font-size: 15px; margin-bottom: 4px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 12.5px; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: right; vertical-align: top; }
th { background: #f2f2f2; } td.text, th.text { text-align: left; }
td.config { font-family: "DejaVu Sans Mono", monospace; font-size: 11.5px; text-align: left;
            max-width: 420px; word-break: break-all; }
.charts { display: flex; flex-wrap: wrap; gap: 6px; }
.note { color: #555; font-size: 12.5px; }
ul.notes { font-size: 12.5px; margin: 4px 0; }
li.warning, li.failed { color: #a00; }
section.task { page-break-inside: avoid; }
@media print { body { max-width: none; margin: 0; } .charts { gap: 0; } }
)";

class PageWriter {
public:
  PageWriter(const TuningReport &report, const TuningReport *compare, llvm::raw_ostream &os)
      : report(report), compare(compare), os(os) {}

  void write() {
    os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<title>dltune report: " << escapeHtml(report.databasePath) << "</title>\n"
       << "<style>" << kStyle << "</style>\n</head>\n<body>\n";
    writeHeader();
    writeModel();
    writeCost();
    writeFailures();
    writeTasks();
    writeTransfer();
    if (compare)
      writeCompare();
    os << "</body>\n</html>\n";
  }

private:
  const TuningReport &report;
  const TuningReport *compare;
  llvm::raw_ostream &os;

  void writeHeader() {
    os << "<h1>dltune tuning report</h1>\n<table class=\"meta\">\n";
    auto row = [&](const std::string &k, const std::string &v) {
      os << "<tr><th class=\"text\">" << escapeHtml(k) << "</th><td class=\"text\">"
         << escapeHtml(v) << "</td></tr>\n";
    };
    row("database", report.databasePath);
    if (!report.modelName.empty())
      row("model", report.modelName);
    row("schema version", std::to_string(report.schemaVersion));
    for (const DeviceRecord &d : report.devices)
      row("device", d.name + " (" + d.fingerprint + ")");
    row("tasks (task, device pairs)", std::to_string(report.tasks.size()));
    row("records", std::to_string(report.recordCount));
    row("first and last record", utc(report.firstRecordAt) + " .. " + utc(report.lastRecordAt));
    for (const auto &[generator, count] : report.generators)
      row("generator", generator + " (" + std::to_string(count) + " records)");
    if (compare)
      row("compared with", compare->databasePath);
    os << "</table>\n";
    if (!report.modelTasksWithoutRecords.empty())
      os << "<p class=\"note\">" << report.modelTasksWithoutRecords.size()
         << " task(s) of the model have no records in this database; the model's latency "
            "below leaves them out.</p>\n";
  }

  void writeModel() {
    std::vector<ModelLatencyPoint> curve = getModelLatencyCurve(report);
    os << "<h2 id=\"model\">Model</h2>\n<p class=\"note\">Latency = the sum over tasks of "
          "occurrences x best time so far; before a task's first better measurement its first "
          "measurement (dltune tune measures the default configuration first) stands for it."
          "</p>\n";
    double defaults = curve.front().latencyMs, bestNow = curve.back().latencyMs;
    double untuned = 0;
    bool allUntuned = true;
    for (const TaskReport &t : report.tasks) {
      if (!t.untunedMs || std::isnan(t.firstMs)) {
        allUntuned = false;
        break;
      }
      untuned += static_cast<double>(t.weight) * *t.untunedMs;
    }
    os << "<table class=\"model-summary\"><tr><th>defaults ms</th><th>best ms</th>"
          "<th>defaults / best</th>"
       << (allUntuned ? "<th>untuned lowering ms</th>" : "") << "<th>measurements</th>"
       << "<th>tuning span s</th></tr>\n<tr><td>" << ms(defaults) << "</td><td>" << ms(bestNow)
       << "</td><td>" << fixed(defaults / bestNow, 3) << "x</td>"
       << (allUntuned ? "<td>" + ms(untuned) + "</td>" : "") << "<td>" << curve.back().measurements
       << "</td><td>" << fixed(curve.back().seconds, 1) << "</td></tr></table>\n";

    writeEndToEnd();
    os << "<div class=\"charts\">\n";
    for (bool bySeconds : {true, false}) {
      SvgChart chart(bySeconds ? "model-latency-time" : "model-latency-measurements",
                     {bySeconds ? "Model latency over tuning time"
                                : "Model latency over measurements",
                      bySeconds ? "seconds since the first record" : "measurements", "ms", true});
      ChartSeries best{"best so far", ChartSeries::Style::Step, {}, 0, false};
      for (const ModelLatencyPoint &p : curve)
        best.points.push_back({bySeconds ? p.seconds : static_cast<double>(p.measurements),
                               p.latencyMs, "", false});
      double x1 = bySeconds ? curve.back().seconds : static_cast<double>(curve.back().measurements);
      // The untuned lowering (in the table) is left out: often 100x slower,
      // it would flatten the curve the chart is about.
      chart.addSeries(getConstant("defaults", defaults, 0, x1, 1));
      chart.addSeries(std::move(best));
      chart.render(os);
    }
    writeAllocation();
    os << "</div>\n";
  }

  /// The whole model timed after tuning (`dltune tune --entry`): every op,
  /// tuned or not, unlike the sum of tasks above.
  void writeEndToEnd() {
    if (report.modelLatencies.empty())
      return;
    os << "<table class=\"end-to-end\"><tr><th class=\"text\">model, timed end to end</th>"
          "<th class=\"text\">entry</th><th class=\"text\">device</th><th>default configs "
          "ms</th><th>tuned ms</th><th>default / tuned</th><th class=\"text\">tuned output "
          "checked</th><th class=\"text\">when</th></tr>\n";
    for (const auto &[device, m] : report.modelLatencies)
      os << "<tr data-model=\"" << escapeHtml(m.model) << "\"><td class=\"text\">"
         << escapeHtml(m.model) << "</td><td class=\"text\">" << escapeHtml(m.entry)
         << "</td><td class=\"text\">" << escapeHtml(device.name) << "</td><td>"
         << ms(m.defaultMs) << "</td><td>" << ms(m.tunedMs) << "</td><td>"
         << fixed(m.defaultMs / m.tunedMs, 3) << "x</td><td class=\"text\">"
         << (m.checked ? "ok" : "FAILED") << "</td><td class=\"text\">" << utc(m.createdAt)
         << "</td></tr>\n";
    os << "</table>\n";
  }

  /// Cumulative measurements per task over time, stacked.
  void writeAllocation() {
    if (report.tasks.size() < 2)
      return;
    double start = report.firstRecordAt, end = report.lastRecordAt;
    if (!std::isfinite(start) || !std::isfinite(end))
      return;
    constexpr int kSteps = 120;
    std::vector<double> xs;
    for (int i = 0; i <= kSteps; ++i)
      xs.push_back((end - start) * i / kSteps);
    SvgChart chart("model-allocation",
                   {"Measurements per task over tuning time (stacked)",
                    "seconds since the first record", "measurements", false});
    std::vector<double> lower(xs.size(), 0);
    for (size_t ti = 0; ti < report.tasks.size(); ++ti) {
      const TaskReport &t = report.tasks[ti];
      ChartBand band{"#" + std::to_string(ti + 1) + " " + t.task.opKind, xs, lower, lower,
                     static_cast<int>(ti)};
      size_t k = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        while (k < t.records.size() && t.records[k].createdAt - start <= xs[i] + 1e-9)
          ++k;
        band.upper[i] = lower[i] + static_cast<double>(k);
      }
      lower = band.upper;
      chart.addBand(std::move(band));
    }
    chart.render(os);
  }

  void writeCost() {
    bool measuredEnergy = false;
    for (const TaskReport &t : report.tasks)
      for (const MeasureRecord &r : t.records)
        measuredEnergy |= r.energyJ.has_value();
    TaskCost total;
    for (const TaskReport &t : report.tasks)
      total.add(t.cost);
    // Metered where the records carry a reading (RAPL/NVML), else modelled.
    std::string energy =
        total.meteredCandidates == 0
            ? std::string("<b>modelled</b>: ")
            : llvm::formatv("<b>metered</b> (RAPL/NVML: a candidate's share of its batch's builds "
                            "by build seconds, and its measurement) for {0} of {1} candidates, "
                            "<b>modelled</b> for the rest: ",
                            total.meteredCandidates, total.candidates)
                  .str();
    os << "<h2 id=\"cost\">Cost</h2>\n<p class=\"note\">Seconds are build plus run seconds of "
          "the candidates measured (records of other sources are not counted). Energy is "
       << energy << fixed(report.costOptions.power.busyWattsPerCore, 1)
       << " W per busy core x (build seconds + run seconds x threads). A candidate is cold when "
          "it is slower than "
       << fixed(report.costOptions.coldFactor, 1)
       << "x the best measured before it; 'never improved' counts every measurement that did "
          "not set a new best.</p>\n";
    os << "<table class=\"cost\"><tr><th>#</th><th class=\"text\">task</th><th>candidates</th>"
          "<th>failed</th><th>cold</th><th>build s</th><th>run s</th><th>energy J "
       << (total.meteredCandidates == 0 ? "(modelled)" : "(metered + modelled)")
       << "</th><th>cold share of s</th><th>never-improved share of s</th>"
       << (measuredEnergy ? "<th>best's measured J per call</th>" : "") << "</tr>\n";
    double neverImproved = 0;
    for (size_t i = 0; i < report.tasks.size(); ++i) {
      const TaskReport &t = report.tasks[i];
      neverImproved += t.neverImprovedSeconds;
      double seconds = t.cost.getSeconds();
      os << "<tr data-task=\"" << escapeHtml(t.task.hash) << "\"><td>" << i + 1
         << "</td><td class=\"text\">" << escapeHtml(t.getName()) << "</td><td>"
         << t.cost.candidates << "</td><td>" << t.cost.failed << "</td><td>" << t.cost.cold
         << "</td><td>" << fixed(t.cost.buildSeconds, 1) << "</td><td>"
         << fixed(t.cost.runSeconds, 1) << "</td><td>" << fixed(t.cost.joules, 0) << "</td><td>"
         << percent(t.cost.coldSeconds, seconds) << "</td><td>"
         << percent(t.neverImprovedSeconds, seconds) << "</td>";
      if (measuredEnergy)
        os << "<td>"
           << (t.best && t.best->energyJ ? llvm::formatv("{0:e2}", *t.best->energyJ).str()
                                         : std::string("-"))
           << "</td>";
      os << "</tr>\n";
    }
    os << "<tr class=\"total\"><td></td><td class=\"text\"><b>total</b></td><td>"
       << total.candidates << "</td><td>" << total.failed << "</td><td>" << total.cold
       << "</td><td>" << fixed(total.buildSeconds, 1) << "</td><td>"
       << fixed(total.runSeconds, 1) << "</td><td>" << fixed(total.joules, 0) << "</td><td>"
       << percent(total.coldSeconds, total.getSeconds()) << "</td><td>"
       << percent(neverImproved, total.getSeconds()) << "</td>"
       << (measuredEnergy ? "<td></td>" : "") << "</tr>\n</table>\n";
  }

  static std::string percent(double part, double whole) {
    if (!(whole > 0))
      return "-";
    return llvm::formatv("{0:f0}%", 100.0 * part / whole).str();
  }

  void writeFailures() {
    std::map<std::string, int64_t> total;
    for (const TaskReport &t : report.tasks)
      for (const auto &[status, n] : t.failuresByClass)
        total[status] += n;
    os << "<h2 id=\"failures\">Failures by class</h2>\n";
    if (total.empty()) {
      os << "<p class=\"failures-none\">No candidate failed.</p>\n";
      return;
    }
    os << "<table class=\"failures\"><tr><th class=\"text\">class</th><th>candidates</th>"
          "<th class=\"text\">tasks</th></tr>\n";
    for (const auto &[status, n] : total) {
      std::string tasks;
      for (size_t i = 0; i < report.tasks.size(); ++i) {
        auto it = report.tasks[i].failuresByClass.find(status);
        if (it != report.tasks[i].failuresByClass.end())
          tasks += (tasks.empty() ? "#" : ", #") + std::to_string(i + 1) + " (" +
                   std::to_string(it->second) + ")";
      }
      os << "<tr data-class=\"" << escapeHtml(status) << "\" data-count=\"" << n
         << "\"><td class=\"text\">" << escapeHtml(status) << "</td><td>" << n
         << "</td><td class=\"text\">" << escapeHtml(tasks) << "</td></tr>\n";
    }
    os << "</table>\n";
  }

  void writeTasks() {
    os << "<h2 id=\"tasks\">Tasks</h2>\n<table class=\"tasks\"><tr><th>#</th><th "
          "class=\"text\">task</th><th class=\"text\">device</th><th>occurrences</th>"
          "<th>untuned ms</th><th>default ms</th><th>best ms</th><th>default / best</th>"
          "<th>confirmed median ms [min, max] (rounds)</th><th class=\"text\">chosen "
          "configuration (the confirmed best where one was confirmed)</th></tr>\n";
    for (size_t i = 0; i < report.tasks.size(); ++i) {
      const TaskReport &t = report.tasks[i];
      double best = t.bestMs;
      std::string confirmed = "-";
      if (t.best && t.best->confirmed)
        for (const Confirmation &c : t.confirmations)
          if (c.config == t.best->config)
            confirmed = ms(c.medianMs) + " [" + ms(c.minMs) + ", " + ms(c.maxMs) + "] (" +
                        std::to_string(c.rounds) + ")";
      os << "<tr data-task=\"" << escapeHtml(t.task.hash) << "\"><td><a href=\"#task-" << i + 1
         << "\">" << i + 1 << "</a></td><td class=\"text\">" << escapeHtml(t.getName())
         << "</td><td class=\"text\">" << escapeHtml(t.device.name) << "</td><td>" << t.weight
         << "</td><td>" << (t.untunedMs ? ms(*t.untunedMs) : "-") << "</td><td>" << ms(t.firstMs)
         << "</td><td>" << ms(best) << "</td><td>" << fixed(t.firstMs / best, 2) << "x</td><td>"
         << confirmed << "</td><td class=\"config\">"
         << escapeHtml(t.best ? t.best->config : "-") << "</td></tr>\n";
    }
    os << "</table>\n";
    for (size_t i = 0; i < report.tasks.size(); ++i)
      writeTask(i);
  }

  void writeTask(size_t index) {
    const TaskReport &t = report.tasks[index];
    std::string id = "task-" + std::to_string(index + 1);
    os << "<section class=\"task\" id=\"" << id << "\" data-task=\"" << escapeHtml(t.task.hash)
       << "\">\n<h3>#" << index + 1 << " " << escapeHtml(t.getName()) << " on "
       << escapeHtml(t.device.name) << "</h3>\n<p class=\"note\">" << t.records.size()
       << " records; " << t.cost.cold << " cold (grey), " << t.cost.failed
       << " failed (crosses on the top edge, a colour per class). Task " << escapeHtml(t.task.hash)
       << ".</p>\n<div class=\"charts\">\n";
    for (bool bySeconds : {false, true}) {
      SvgChart chart(id + (bySeconds ? "-by-seconds" : "-by-measurement"),
                     {bySeconds ? "Best so far over seconds" : "Best so far over measurements",
                      bySeconds ? "seconds since the task's first record" : "measurements", "ms",
                      true});
      double x1 = t.records.empty() ? 1
                  : bySeconds       ? t.records.back().createdAt - t.records.front().createdAt
                                    : static_cast<double>(t.records.size());
      for (ChartSeries &series : getMeasurementPoints(t, bySeconds, 0))
        chart.addSeries(std::move(series));
      chart.addSeries(getConstant("default", t.firstMs, 0, x1, 1));
      chart.addSeries(getBestSoFar(t, bySeconds, "best so far", 2));
      if (!bySeconds && t.best && t.best->confirmed)
        for (const Confirmation &c : t.confirmations)
          if (c.config == t.best->config && std::isfinite(c.minMs) && std::isfinite(c.maxMs))
            chart.addInterval({"confirmed best (median, min-max)", x1, c.minMs, c.medianMs,
                               c.maxMs, 2});
      chart.render(os);
    }
    os << "</div>\n";
    if (!t.notes.empty()) {
      os << "<ul class=\"notes\">\n";
      for (const TaskNote &n : t.notes)
        os << "<li class=\"" << escapeHtml(n.kind) << "\">" << escapeHtml(n.kind) << ": "
           << escapeHtml(n.message) << "</li>\n";
      os << "</ul>\n";
    }
    os << "</section>\n";
  }

  static bool isTransferNote(const TaskNote &n) {
    return llvm::StringRef(n.message).starts_with("transfer") ||
           llvm::StringRef(n.message).contains("guard");
  }

  void writeTransfer() {
    os << "<h2 id=\"transfer\">Transfer</h2>\n";
    bool any = false;
    for (size_t i = 0; i < report.tasks.size(); ++i) {
      const TaskReport &t = report.tasks[i];
      std::vector<const TaskNote *> notes;
      for (const TaskNote &n : t.notes)
        if (isTransferNote(n))
          notes.push_back(&n);
      if (notes.empty())
        continue;
      if (!any)
        os << "<table class=\"transfer\"><tr><th>#</th><th class=\"text\">task</th><th "
              "class=\"text\">history used and the guard's decisions</th></tr>\n";
      any = true;
      os << "<tr data-task=\"" << escapeHtml(t.task.hash) << "\"><td>" << i + 1
         << "</td><td class=\"text\">" << escapeHtml(t.getName()) << "</td><td class=\"text\">";
      for (const TaskNote *n : notes)
        os << escapeHtml(n->message) << "<br>";
      os << "</td></tr>\n";
    }
    if (any)
      os << "</table>\n";
    else
      os << "<p class=\"transfer-none\">No task of this database recorded a transfer note: "
            "it was tuned without transfer (or by a dltune older than schema version 5, which "
            "kept no notes).</p>\n";
  }

  void writeCompare() {
    os << "<h2 id=\"compare\">Compared with " << escapeHtml(compare->databasePath) << "</h2>\n";
    std::map<std::string, size_t> other;
    for (size_t i = 0; i < compare->tasks.size(); ++i)
      other.try_emplace(compare->tasks[i].task.hash, i);
    std::vector<std::pair<size_t, size_t>> shared;
    std::set<std::string> seen;
    for (size_t i = 0; i < report.tasks.size(); ++i) {
      auto it = other.find(report.tasks[i].task.hash);
      if (it != other.end() && seen.insert(report.tasks[i].task.hash).second)
        shared.push_back({i, it->second});
    }
    if (shared.empty()) {
      os << "<p class=\"compare-none\">The two databases share no task.</p>\n";
      return;
    }
    os << "<table class=\"compare\"><tr><th>#</th><th class=\"text\">task</th><th "
          "class=\"text\">device A</th><th>A best ms</th><th>A records</th><th "
          "class=\"text\">device B</th><th>B best ms</th><th>B records</th><th>A / B</th></tr>\n";
    for (auto [a, b] : shared) {
      const TaskReport &ta = report.tasks[a], &tb = compare->tasks[b];
      os << "<tr data-task=\"" << escapeHtml(ta.task.hash) << "\"><td>" << a + 1
         << "</td><td class=\"text\">" << escapeHtml(ta.getName()) << "</td><td class=\"text\">"
         << escapeHtml(ta.device.name) << "</td><td>" << ms(ta.bestMs) << "</td><td>"
         << ta.records.size() << "</td><td class=\"text\">" << escapeHtml(tb.device.name)
         << "</td><td>" << ms(tb.bestMs) << "</td><td>" << tb.records.size() << "</td><td>"
         << fixed(ta.bestMs / tb.bestMs, 3) << "</td></tr>\n";
    }
    os << "</table>\n<div class=\"charts\">\n";
    for (auto [a, b] : shared) {
      SvgChart chart("compare-task-" + std::to_string(a + 1),
                     {"#" + std::to_string(a + 1) + " " + report.tasks[a].task.opKind +
                          ": best so far, A and B",
                      "measurements", "ms", true});
      chart.addSeries(getBestSoFar(report.tasks[a], false, "A: " + report.databasePath, 0));
      chart.addSeries(getBestSoFar(compare->tasks[b], false, "B: " + compare->databasePath, 1));
      chart.render(os);
    }
    os << "</div>\n";
  }
};

} // namespace

void mlir::dltune::writeHtmlReport(const TuningReport &report, const TuningReport *compare,
                                   llvm::raw_ostream &os) {
  PageWriter(report, compare, os).write();
}
