//===- LearningCurve.cpp - Bayesian log-power learning curves -------------===//

#include "dltune/Tuning/TaskScheduler/LearningCurve.h"
#include "dltune/Tuning/TaskScheduler/EnsembleSampler.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace mlir::dltune;

double mlir::dltune::logPowerCurve(const CurveParams &p, double x) {
  return p[0] / (1 + std::pow(x / std::exp(p[1]), p[2]));
}

CurveParams CurvePosterior::mean() const {
  CurveParams m{};
  for (const CurveParams &s : samples)
    for (size_t i = 0; i < 4; ++i)
      m[i] += s[i] / samples.size();
  return m;
}

CurveParams CurvePosterior::stddev() const {
  CurveParams m = mean(), v{};
  for (const CurveParams &s : samples)
    for (size_t i = 0; i < 4; ++i)
      v[i] += (s[i] - m[i]) * (s[i] - m[i]) / samples.size();
  for (double &e : v)
    e = std::sqrt(e);
  return v;
}

std::vector<double> CurvePosterior::predict(double x) const {
  std::vector<double> out;
  out.reserve(samples.size());
  for (const CurveParams &s : samples)
    out.push_back(logPowerCurve(s, x));
  return out;
}

size_t mlir::dltune::lastSegmentStart(llvm::ArrayRef<double> y, double jump, size_t minPoints) {
  size_t start = 0;
  for (size_t i = 1; i < y.size(); ++i)
    if (y[i - 1] > 0 && y[i] > y[i - 1] * (1 + jump))
      start = i;
  if (y.size() - start < minPoints)
    start = y.size() > minPoints ? y.size() - minPoints : 0;
  return start;
}

namespace {
struct Problem {
  std::vector<double> x, y;
  double yMax = 0, xMax = 0;
  const CurveFitOptions &options;

  double sse(const CurveParams &p) const {
    double s = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      double r = y[i] - logPowerCurve(p, x[i]);
      s += r * r;
    }
    return s;
  }

  /// The uniform box: the asymptote between 0 and 100x the best seen, the
  /// half-way point within 1e-3 .. 1e3 x the trace length, c below
  /// maxShape (rising) and no steeper than a step, the noise above 0 and
  /// below the data.
  bool inBox(const CurveParams &p) const {
    return p[0] > 0 && p[0] < 100 * yMax && p[1] > std::log(xMax) - 7 &&
           p[1] < std::log(xMax) + 7 && p[2] < options.maxShape && p[2] > -20 &&
           p[3] > std::log(1e-9 * yMax) && p[3] < std::log(yMax);
  }

  double logPosterior(const CurveParams &p) const {
    if (!inBox(p))
      return -INFINITY;
    if (options.notBelowAt && logPowerCurve(p, *options.notBelowAt) < y.back())
      return -INFINITY;
    double s2 = std::exp(2 * p[3]);
    double lp = -0.5 * sse(p) / s2 - x.size() * p[3];
    if (options.prior) {
      const CurvePrior &q = *options.prior;
      lp -= 0.5 * std::pow((p[1] - q.meanB) / q.sdB, 2);
      lp -= 0.5 * std::pow((p[2] - q.meanC) / q.sdC, 2);
    }
    return lp;
  }
};

/// Nelder-Mead on the sum of squares over (a, b, c).
CurveParams leastSquares(const Problem &prob, CurveParams start) {
  auto cost = [&](const std::array<double, 3> &v) -> double {
    CurveParams p{v[0], v[1], v[2], 0};
    if (p[0] <= 0 || p[2] >= prob.options.maxShape || p[2] < -20)
      return INFINITY;
    return prob.sse(p);
  };
  std::array<std::array<double, 3>, 4> simplex;
  simplex[0] = {start[0], start[1], start[2]};
  for (int i = 0; i < 3; ++i) {
    simplex[i + 1] = simplex[0];
    simplex[i + 1][i] += i == 0 ? 0.1 * start[0] : (i == 1 ? 0.5 : -0.3);
  }
  std::array<double, 4> f;
  for (int i = 0; i < 4; ++i)
    f[i] = cost(simplex[i]);
  for (int iter = 0; iter < 400; ++iter) {
    std::array<int, 4> order{0, 1, 2, 3};
    std::sort(order.begin(), order.end(), [&](int l, int r) { return f[l] < f[r]; });
    auto sorted = simplex;
    auto fs = f;
    for (int i = 0; i < 4; ++i) {
      simplex[i] = sorted[order[i]];
      f[i] = fs[order[i]];
    }
    std::array<double, 3> centroid{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        centroid[j] += simplex[i][j] / 3;
    auto along = [&](double t) {
      std::array<double, 3> p;
      for (int j = 0; j < 3; ++j)
        p[j] = centroid[j] + t * (simplex[3][j] - centroid[j]);
      return p;
    };
    auto r = along(-1);
    double fr = cost(r);
    if (fr < f[0]) {
      auto e = along(-2);
      double fe = cost(e);
      simplex[3] = fe < fr ? e : r;
      f[3] = std::min(fe, fr);
    } else if (fr < f[2]) {
      simplex[3] = r;
      f[3] = fr;
    } else {
      auto c = along(0.5);
      double fc = cost(c);
      if (fc < f[3]) {
        simplex[3] = c;
        f[3] = fc;
      } else {
        for (int i = 1; i < 4; ++i) {
          for (int j = 0; j < 3; ++j)
            simplex[i][j] = simplex[0][j] + 0.5 * (simplex[i][j] - simplex[0][j]);
          f[i] = cost(simplex[i]);
        }
      }
    }
  }
  int best = static_cast<int>(std::min_element(f.begin(), f.end()) - f.begin());
  return {simplex[best][0], simplex[best][1], simplex[best][2], 0};
}
} // namespace

CurvePosterior mlir::dltune::fitLearningCurve(llvm::ArrayRef<double> x, llvm::ArrayRef<double> y,
                                              const CurveFitOptions &options) {
  Problem prob{{}, {}, 0, 0, options};
  // Evenly spaced points, the last always kept.
  size_t n = x.size();
  size_t keep = std::min(n, std::max<size_t>(2, options.maxPoints));
  for (size_t k = 0; k < keep; ++k) {
    size_t i = keep == 1 ? n - 1 : (k * (n - 1)) / (keep - 1);
    prob.x.push_back(x[i]);
    prob.y.push_back(y[i]);
  }
  prob.yMax = *std::max_element(prob.y.begin(), prob.y.end());
  prob.xMax = prob.x.back();

  // Least squares from a few starts; the best one centres the walkers.
  CurveParams best{};
  double bestSse = INFINITY;
  double xMid = std::log(std::max(prob.x.front(), prob.xMax / 4));
  for (double c : {std::min(-0.5, options.maxShape - 0.05), -1.5, -4.0})
    for (double b : {xMid, std::log(prob.xMax)}) {
      CurveParams p = leastSquares(prob, {prob.yMax * 1.05, b, c, 0});
      double s = prob.sse(p);
      if (s < bestSse) {
        bestSse = s;
        best = p;
      }
    }
  double sigma = std::sqrt(bestSse / prob.x.size());
  best[3] = std::log(std::max(sigma, 1e-3 * prob.yMax));
  // Respect the box and the not-below constraint at the centre (the curve
  // is linear in a).
  best[0] = std::max(best[0], prob.yMax * 1e-3);
  if (options.notBelowAt) {
    double at = logPowerCurve(best, *options.notBelowAt);
    if (at < prob.y.back())
      best[0] *= prob.y.back() / at * (1 + 1e-3);
  }
  best[1] = std::clamp(best[1], std::log(prob.xMax) - 6.9, std::log(prob.xMax) + 6.9);
  best[2] = std::clamp(best[2], -19.9, options.maxShape - 1e-3);

  CurvePosterior post;
  post.leastSquares = best;
  std::mt19937_64 rng(options.seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> start;
  for (int w = 0; w < options.walkers; ++w) {
    std::vector<double> p(best.begin(), best.end());
    for (int attempt = 0; attempt < 100; ++attempt) {
      CurveParams q;
      for (size_t i = 0; i < 4; ++i)
        q[i] = best[i] + 1e-3 * normal(rng) * (i == 0 ? std::abs(best[0]) : 1.0);
      if (options.notBelowAt)
        q[0] = std::max(q[0], best[0]); // keep the constraint in the ball
      if (std::isfinite(prob.logPosterior(q))) {
        p.assign(q.begin(), q.end());
        break;
      }
    }
    start.push_back(p);
  }
  EnsembleOptions eo;
  eo.steps = options.steps;
  eo.seed = options.seed + 1;
  EnsembleChain chain = runEnsembleSampler(
      [&](llvm::ArrayRef<double> v) {
        return prob.logPosterior({v[0], v[1], v[2], v[3]});
      },
      start, eo);
  post.acceptanceFraction = chain.acceptanceFraction;
  // Burn-in: the first half. Samples evenly spread over the second half.
  size_t steps = chain.steps(), burn = steps / 2;
  size_t pool = (steps - burn) * chain.walkers;
  size_t want = std::min<size_t>(pool, std::max(1, options.samples));
  for (size_t k = 0; k < want; ++k) {
    size_t idx = (k * pool) / want;
    const double *p = chain.at(burn + idx / chain.walkers, idx % chain.walkers);
    post.samples.push_back({p[0], p[1], p[2], p[3]});
  }
  return post;
}
