//===- SvgChart.cpp - Line, step, point and band charts as inline SVG -----===//

#include "dltune/Tuning/Report/SvgChart.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace mlir::dltune;

std::string mlir::dltune::escapeHtml(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default: out += c;
    }
  }
  return out;
}

const char *SvgChart::getColour(int index) {
  // Tableau-like colours that stay apart in print and for common colour
  // blindness; more tasks than colours repeat them.
  static const char *const palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                        "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
                                        "#9c755f", "#bab0ac"};
  constexpr int n = sizeof(palette) / sizeof(palette[0]);
  return palette[((index % n) + n) % n];
}

std::vector<double> mlir::dltune::getLinearTicks(double low, double high, int maxTicks) {
  if (!(high > low) || !std::isfinite(low) || !std::isfinite(high))
    return {low};
  double raw = (high - low) / std::max(1, maxTicks - 1);
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw * (1 - 1e-9)) { // 0.6 / 3 is a hair above 0.2
      step = m * magnitude;
      break;
    }
  std::vector<double> ticks;
  // Multiples of the step counted, not summed, so that no error accumulates.
  for (double k = std::ceil(low / step - 1e-9); k * step <= high + step * 1e-9; k += 1) {
    double t = k * step;
    ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : std::round(t / step * 1e6) / 1e6 * step);
  }
  return ticks;
}

namespace {
/// Maps data to plot coordinates.
struct Frame {
  double left, top, plotWidth, plotHeight;
  double x0, x1, y0, y1; // data range (log10 of y when logY)
  bool logY;
  double toX(double x) const { return left + (x - x0) / (x1 - x0) * plotWidth; }
  double toY(double y) const {
    double v = logY ? std::log10(y) : y;
    return top + plotHeight - (v - y0) / (y1 - y0) * plotHeight;
  }
  bool inRange(double y) const { return std::isfinite(y) && (!logY || y > 0); }
};

/// A data attribute's value: 9 significant digits, shortest form.
std::string number(double v) {
  if (!std::isfinite(v))
    return "";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.9g", v);
  return buffer;
}

std::string tickLabel(double v) {
  double a = std::abs(v);
  if (a == 0)
    return "0";
  if (a >= 1e5 || a < 1e-3)
    return llvm::formatv("{0:e1}", v).str();
  // Ticks are 1, 2 or 5 times a power of ten: the shortest text of the value.
  std::string text = llvm::formatv("{0:f4}", v).str();
  while (text.back() == '0')
    text.pop_back();
  if (text.back() == '.')
    text.pop_back();
  return text;
}
} // namespace

void SvgChart::render(llvm::raw_ostream &os) const {
  // Data ranges.
  double xMin = std::numeric_limits<double>::infinity(), xMax = -xMin;
  double yMin = xMin, yMax = -xMin;
  auto seeY = [&](double y) {
    if (std::isfinite(y) && (!axes.logY || y > 0)) {
      yMin = std::min(yMin, y);
      yMax = std::max(yMax, y);
    }
  };
  auto seeX = [&](double x) {
    if (std::isfinite(x)) {
      xMin = std::min(xMin, x);
      xMax = std::max(xMax, x);
    }
  };
  for (const ChartSeries &s : series_)
    for (const ChartPoint &p : s.points) {
      seeX(p.x);
      if (!p.atTop)
        seeY(p.y);
    }
  for (const ChartBand &b : bands) {
    for (double x : b.x)
      seeX(x);
    for (double y : b.lower)
      seeY(y);
    for (double y : b.upper)
      seeY(y);
  }
  for (const ChartInterval &i : intervals) {
    seeX(i.x);
    seeY(i.low);
    seeY(i.high);
  }
  if (!std::isfinite(xMin)) {
    xMin = 0;
    xMax = 1;
  }
  if (!std::isfinite(yMin)) {
    yMin = axes.logY ? 1 : 0;
    yMax = axes.logY ? 10 : 1;
  }
  if (xMax <= xMin)
    xMax = xMin + 1;

  // Legend entries, laid out in rows under the x label.
  struct LegendEntry {
    std::string name;
    int colour;
    bool dashed;
  };
  std::vector<LegendEntry> legend;
  for (const ChartSeries &s : series_)
    legend.push_back({s.name, s.colour, s.dashed});
  for (const ChartBand &b : bands)
    legend.push_back({b.name, b.colour, false});
  for (const ChartInterval &i : intervals)
    legend.push_back({i.name, i.colour, false});
  const double left = 66, right = 14, top = 26;
  std::vector<std::pair<double, int>> legendPlaces; // x, row
  double lx = left;
  int rows = legend.empty() ? 0 : 1;
  for (const LegendEntry &e : legend) {
    double w = 26 + 6.5 * static_cast<double>(e.name.size()) + 14;
    if (lx + w > width - right && lx > left) {
      lx = left;
      ++rows;
    }
    legendPlaces.push_back({lx, rows - 1});
    lx += w;
  }
  const double legendHeight = rows * 16.0;
  const double bottom = 44 + legendHeight;
  const int totalHeight = height + static_cast<int>(legendHeight);

  Frame f;
  f.left = left;
  f.top = top;
  f.plotWidth = width - left - right;
  f.plotHeight = totalHeight - top - bottom;
  f.x0 = xMin;
  f.x1 = xMax;
  f.logY = axes.logY;
  if (axes.logY) {
    f.y0 = std::log10(yMin);
    f.y1 = std::log10(yMax);
    // At least a factor of 2 of range, with some air around the data.
    if (f.y1 - f.y0 < std::log10(2.0)) {
      double mid = (f.y0 + f.y1) / 2;
      f.y0 = mid - std::log10(2.0) / 2;
      f.y1 = mid + std::log10(2.0) / 2;
    }
    double pad = (f.y1 - f.y0) * 0.04;
    f.y0 -= pad;
    f.y1 += pad;
  } else {
    if (yMax <= yMin) {
      yMax = yMin + (yMin == 0 ? 1 : std::abs(yMin) * 0.1);
    }
    double pad = (yMax - yMin) * 0.04;
    f.y0 = yMin >= 0 && yMin - pad < 0 ? 0 : yMin - pad;
    f.y1 = yMax + pad;
  }

  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"{0}\" class=\"chart\" "
                      "width=\"{1}\" height=\"{2}\" viewBox=\"0 0 {1} {2}\" role=\"img\" "
                      "aria-label=\"{3}\" data-log-y=\"{4}\">\n",
                      escapeHtml(id), width, totalHeight, escapeHtml(axes.title),
                      axes.logY ? "true" : "false");
  os << llvm::formatv("<text x=\"{0}\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{1}</text>\n",
                      left, escapeHtml(axes.title));
  // Grid and ticks.
  os << "<g class=\"axes\" font-size=\"10\" fill=\"#333\">\n";
  std::vector<double> yTicks;
  if (axes.logY) {
    double lo = std::pow(10.0, f.y0), hi = std::pow(10.0, f.y1);
    double decades = f.y1 - f.y0;
    for (double d = std::floor(f.y0); d <= std::ceil(f.y1); d += 1)
      for (double m : decades > 2.5 ? std::vector<double>{1} : std::vector<double>{1, 2, 5}) {
        double t = m * std::pow(10.0, d);
        if (t >= lo && t <= hi)
          yTicks.push_back(t);
      }
    // Less than a decade or so: evenly spaced round values read better.
    if (yTicks.size() < 3) {
      yTicks.clear();
      for (double t : getLinearTicks(lo, hi, 5))
        if (t > 0)
          yTicks.push_back(t);
    }
  } else {
    yTicks = getLinearTicks(f.y0, f.y1);
  }
  for (double t : yTicks) {
    if (!f.inRange(t))
      continue;
    double y = f.toY(t);
    if (y < f.top - 0.5 || y > f.top + f.plotHeight + 0.5)
      continue;
    os << llvm::formatv("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:f1}\" y2=\"{2:f1}\" stroke=\"#ddd\"/>"
                        "<text x=\"{3}\" y=\"{4:f1}\" text-anchor=\"end\">{5}</text>\n",
                        left, left + f.plotWidth, y, left - 4, y + 3, tickLabel(t));
  }
  for (double t : getLinearTicks(f.x0, f.x1, 7)) {
    double x = f.toX(t);
    if (x < left - 0.5 || x > left + f.plotWidth + 0.5)
      continue;
    os << llvm::formatv("<line x1=\"{0:f1}\" x2=\"{0:f1}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#eee\"/>"
                        "<text x=\"{0:f1}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
                        x, f.top, f.top + f.plotHeight, f.top + f.plotHeight + 13, tickLabel(t));
  }
  os << llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" fill=\"none\" "
                      "stroke=\"#888\"/>\n",
                      left, f.top, f.plotWidth, f.plotHeight);
  os << llvm::formatv("<text x=\"{0:f1}\" y=\"{1}\" text-anchor=\"middle\" font-size=\"11\">{2}</text>\n",
                      left + f.plotWidth / 2, f.top + f.plotHeight + 28, escapeHtml(axes.xLabel));
  os << llvm::formatv("<text transform=\"translate(12,{0:f1}) rotate(-90)\" text-anchor=\"middle\" "
                      "font-size=\"11\">{1}</text>\n",
                      f.top + f.plotHeight / 2, escapeHtml(axes.yLabel + (axes.logY ? " (log)" : "")));
  os << "</g>\n";

  // Bands first, so that lines and points stay on top.
  for (const ChartBand &b : bands) {
    os << llvm::formatv("<g class=\"band\" data-series=\"{0}\" data-count=\"{1}\">", escapeHtml(b.name),
                        b.x.size());
    std::string d;
    size_t n = std::min({b.x.size(), b.lower.size(), b.upper.size()});
    for (size_t i = 0; i < n; ++i)
      d += llvm::formatv("{0}{1:f1},{2:f1} ", i ? "L" : "M", f.toX(b.x[i]), f.toY(b.upper[i])).str();
    for (size_t i = n; i-- > 0;)
      d += llvm::formatv("L{0:f1},{1:f1} ", f.toX(b.x[i]), f.toY(b.lower[i])).str();
    if (n)
      os << llvm::formatv("<path d=\"{0}Z\" fill=\"{1}\" fill-opacity=\"0.75\" stroke=\"none\"/>", d,
                          getColour(b.colour));
    os << "</g>\n";
  }

  for (const ChartSeries &s : series_) {
    const char *colour = getColour(s.colour);
    os << llvm::formatv("<g class=\"series\" data-series=\"{0}\" data-count=\"{1}\">\n",
                        escapeHtml(s.name), s.points.size());
    if (s.style != ChartSeries::Style::Points) {
      std::string d;
      bool started = false;
      for (const ChartPoint &p : s.points) {
        if (p.atTop || !f.inRange(p.y) || !std::isfinite(p.x))
          continue;
        double x = f.toX(p.x), y = f.toY(p.y);
        if (!started)
          d += llvm::formatv("M{0:f1},{1:f1}", x, y).str();
        else if (s.style == ChartSeries::Style::Step)
          d += llvm::formatv(" H{0:f1} V{1:f1}", x, y).str();
        else
          d += llvm::formatv(" L{0:f1},{1:f1}", x, y).str();
        started = true;
      }
      if (started)
        os << llvm::formatv("<path d=\"{0}\" fill=\"none\" stroke=\"{1}\" stroke-width=\"1.8\"{2}/>\n",
                            d, colour, s.dashed ? " stroke-dasharray=\"5,3\"" : "");
    }
    for (const ChartPoint &p : s.points) {
      if (!std::isfinite(p.x))
        continue;
      std::string cls = p.kind.empty() ? "point" : "point " + p.kind;
      if (p.atTop) {
        double x = f.toX(p.x), y = f.top + 4;
        os << llvm::formatv("<path class=\"{0}\" data-x=\"{1}\" data-y=\"\" d=\"M{2:f1},{3:f1} "
                            "l6,6 m0,-6 l-6,6\" stroke=\"{4}\" stroke-width=\"1.6\"/>\n",
                            escapeHtml(cls), number(p.x), x - 3, y - 3, colour);
        continue;
      }
      if (!f.inRange(p.y))
        continue;
      if (s.style == ChartSeries::Style::Points)
        os << llvm::formatv("<circle class=\"{0}\" data-x=\"{1}\" data-y=\"{2}\" cx=\"{3:f1}\" "
                            "cy=\"{4:f1}\" r=\"2.6\" fill=\"{5}\" fill-opacity=\"{6}\"/>\n",
                            escapeHtml(cls), number(p.x), number(p.y), f.toX(p.x), f.toY(p.y),
                            p.kind == "cold" ? "#999" : colour, p.kind == "cold" ? "0.6" : "0.8");
      else
        os << llvm::formatv("<circle class=\"{0}\" data-x=\"{1}\" data-y=\"{2}\" cx=\"{3:f1}\" "
                            "cy=\"{4:f1}\" r=\"0\"/>\n",
                            escapeHtml(cls), number(p.x), number(p.y), f.toX(p.x), f.toY(p.y));
    }
    os << "</g>\n";
  }

  for (const ChartInterval &i : intervals) {
    if (!f.inRange(i.low) || !f.inRange(i.high) || !f.inRange(i.centre))
      continue;
    double x = f.toX(i.x);
    os << llvm::formatv("<g class=\"interval\" data-series=\"{0}\" data-x=\"{1}\" data-low=\"{2}\" "
                        "data-y=\"{3}\" data-high=\"{4}\" stroke=\"{5}\" stroke-width=\"2\">"
                        "<line x1=\"{6:f1}\" x2=\"{6:f1}\" y1=\"{7:f1}\" y2=\"{8:f1}\"/>"
                        "<line x1=\"{9:f1}\" x2=\"{10:f1}\" y1=\"{11:f1}\" y2=\"{11:f1}\"/></g>\n",
                        escapeHtml(i.name), number(i.x), number(i.low), number(i.centre),
                        number(i.high), getColour(i.colour), x, f.toY(i.low), f.toY(i.high), x - 5,
                        x + 5, f.toY(i.centre));
  }

  // Legend.
  os << "<g class=\"legend\" font-size=\"11\">\n";
  for (size_t i = 0; i < legend.size(); ++i) {
    double x = legendPlaces[i].first;
    double y = f.top + f.plotHeight + 42 + legendPlaces[i].second * 16;
    os << llvm::formatv("<line x1=\"{0:f1}\" x2=\"{1:f1}\" y1=\"{2:f1}\" y2=\"{2:f1}\" stroke=\"{3}\" "
                        "stroke-width=\"4\"{4}/><text x=\"{5:f1}\" y=\"{6:f1}\">{7}</text>\n",
                        x, x + 20, y - 4, getColour(legend[i].colour),
                        legend[i].dashed ? " stroke-dasharray=\"5,3\"" : "", x + 25, y,
                        escapeHtml(legend[i].name));
  }
  os << "</g>\n</svg>\n";
}
