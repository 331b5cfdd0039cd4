//===- SvgChart.h - Line, step, point and band charts as inline SVG -*- C++ -*-===//
//
// The charts of `dltune report`. Each series is one <g> with data-series and
// data-count attributes and each point carries its data-x/data-y values, so
// that tests check a page's data rather than its pixels. Colours are inline
// attributes: the page prints and needs no stylesheet or script.
//
// Written here rather than taken from a library: Cairo's and PLplot's SVG
// back-ends (the C++-usable plotting libraries in Debian) emit text as glyph
// paths and have no way to attach data attributes to a point or a series.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_REPORT_SVGCHART_H
#define DLTUNE_TUNING_REPORT_SVGCHART_H

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::dltune {

struct ChartPoint {
  double x = 0, y = 0;
  /// Extra class of a point's marker ("failed compile_error", "cold").
  std::string kind;
  /// Drawn as a cross on the plot's top edge (a failed measurement has no
  /// y); data-y is then empty.
  bool atTop = false;
};

struct ChartSeries {
  enum class Style { Line, Step, Points };
  std::string name; // data-series, and the legend's label
  Style style = Style::Line;
  std::vector<ChartPoint> points;
  /// A palette index (the same index, the same colour in every chart).
  int colour = 0;
  bool dashed = false;
};

/// A band between two curves sharing x, drawn filled (stacked allocation).
struct ChartBand {
  std::string name;
  std::vector<double> x, lower, upper;
  int colour = 0;
};

/// A vertical interval with a centre mark (a confirmed best's spread).
struct ChartInterval {
  std::string name;
  double x = 0, low = 0, centre = 0, high = 0;
  int colour = 0;
};

struct ChartAxes {
  std::string title, xLabel, yLabel;
  bool logY = false;
};

class SvgChart {
public:
  SvgChart(std::string id, ChartAxes axes, int width = 620, int height = 300)
      : id(std::move(id)), axes(std::move(axes)), width(width), height(height) {}

  void addSeries(ChartSeries series) { series_.push_back(std::move(series)); }
  void addBand(ChartBand band) { bands.push_back(std::move(band)); }
  void addInterval(ChartInterval interval) { intervals.push_back(std::move(interval)); }
  bool isEmpty() const { return series_.empty() && bands.empty() && intervals.empty(); }

  /// One <svg> element (no XML prolog: it is meant to be inlined in HTML).
  void render(llvm::raw_ostream &os) const;

  /// The fill/stroke colour of a palette index.
  static const char *getColour(int index);

private:
  std::string id;
  ChartAxes axes;
  int width, height;
  std::vector<ChartSeries> series_;
  std::vector<ChartBand> bands;
  std::vector<ChartInterval> intervals;
};

/// Escapes &, <, >, " and ' for HTML text and attribute values.
std::string escapeHtml(const std::string &text);

/// "Nice" axis ticks (1, 2, 5 x 10^k steps) covering [low, high].
std::vector<double> getLinearTicks(double low, double high, int maxTicks = 6);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_REPORT_SVGCHART_H
