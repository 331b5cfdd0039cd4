//===- GuidedSampling.cpp - Stepwise regression and the guided sampler ----===//

#include "dltune/Tuning/Transfer/GuidedSampling.h"

#include "dltune/Tuning/Support/Error.h"
#include "dltune/Tuning/Transfer/KnobMatching.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace mlir::dltune;

namespace {
/// The continued fraction of the regularised incomplete beta function
/// (modified Lentz); it converges fast for x < (a + 1) / (a + b + 2).
double incompleteBetaFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300, kTolerance = 1e-15;
  auto guard = [](double v) { return std::abs(v) < kTiny ? kTiny : v; };
  double c = 1, d = 1 / guard(1 - (a + b) * x / (a + 1)), fraction = d;
  // About sqrt(max(a, b)) steps are needed: a few thousand covers a
  // million degrees of freedom.
  for (int m = 1; m <= 5000; ++m) {
    double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 / guard(1 + even * d);
    c = guard(1 + even / c);
    fraction *= d * c;
    double odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 / guard(1 + odd * d);
    c = guard(1 + odd / c);
    fraction *= d * c;
    if (std::abs(d * c - 1) < kTolerance)
      break;
  }
  return fraction;
}

/// I_x(a, b).
double regularizedIncompleteBeta(double a, double b, double x) {
  if (x <= 0)
    return 0;
  if (x >= 1)
    return 1;
  double logFront = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) +
                    b * std::log1p(-x);
  if (x < (a + 1) / (a + b + 2))
    return std::exp(logFront) * incompleteBetaFraction(a, b, x) / a;
  return 1 - std::exp(logFront) * incompleteBetaFraction(b, a, 1 - x) / b;
}
} // namespace

double mlir::dltune::studentTTwoSidedPValue(double t, double degreesOfFreedom) {
  if (std::isnan(t) || !(degreesOfFreedom > 0))
    return NAN;
  if (std::isinf(t))
    return 0;
  return regularizedIncompleteBeta(degreesOfFreedom / 2, 0.5,
                                   degreesOfFreedom / (degreesOfFreedom + t * t));
}

std::vector<size_t> StepwiseRegression::getInfluentialKnobs() const {
  std::set<size_t> knobs;
  for (const RegressionTerm &term : terms) {
    knobs.insert(term.first);
    knobs.insert(term.second);
  }
  return std::vector<size_t>(knobs.begin(), knobs.end());
}

std::string StepwiseRegression::formatTerms(llvm::ArrayRef<Knob> knobs) const {
  if (terms.empty())
    return "none";
  std::string text;
  for (const RegressionTerm &term : terms) {
    if (!text.empty())
      text += ", ";
    text += knobs[term.first].name;
    if (term.isInteraction())
      text += ":" + knobs[term.second].name;
  }
  return text;
}

namespace {
/// Forward selection and backward elimination over the Gram matrix of all
/// candidate columns: every subset fit is a small LDLT solve, so trying each
/// move costs nothing that grows with the number of rows.
class StepwiseSearch {
public:
  StepwiseSearch(const Eigen::MatrixXd &knobValues, const Eigen::VectorXd &labels,
                 const StepwiseOptions &options)
      : options(options), rows(knobValues.rows()) {
    Eigen::Index knobCount = knobValues.cols();
    std::vector<Eigen::VectorXd> mains(knobCount);
    mainTermOfKnob.assign(knobCount, -1);
    std::vector<Eigen::VectorXd> columns;
    for (Eigen::Index k = 0; k < knobCount; ++k) {
      if (std::optional<Eigen::VectorXd> z = standardise(knobValues.col(k))) {
        mains[k] = *z;
        mainTermOfKnob[k] = static_cast<int>(terms.size());
        terms.push_back({static_cast<size_t>(k), static_cast<size_t>(k)});
        columns.push_back(*z);
      }
    }
    for (Eigen::Index i = 0; i < knobCount; ++i)
      for (Eigen::Index j = i + 1; j < knobCount; ++j) {
        if (mainTermOfKnob[i] < 0 || mainTermOfKnob[j] < 0)
          continue;
        if (std::optional<Eigen::VectorXd> z = standardise(mains[i].cwiseProduct(mains[j]))) {
          terms.push_back({static_cast<size_t>(i), static_cast<size_t>(j)});
          columns.push_back(*z);
        }
      }
    Eigen::MatrixXd design(rows, static_cast<Eigen::Index>(columns.size()));
    for (size_t c = 0; c < columns.size(); ++c)
      design.col(static_cast<Eigen::Index>(c)) = columns[c];
    Eigen::VectorXd centred = labels.array() - labels.mean();
    gram = design.transpose() * design;
    cross = design.transpose() * centred;
    totalSquares = centred.squaredNorm();
  }

  StepwiseRegression run() {
    StepwiseRegression result;
    result.rows = static_cast<size_t>(rows);
    if (!(totalSquares > 0) || terms.empty())
      return result; // nothing to explain, or nothing to explain it with
    std::vector<size_t> model;
    std::vector<bool> barred(terms.size(), false);
    double residual = totalSquares;
    while (true) {
      // Gains are per added term: more columns always fit better, and an
      // interaction with its parents must not win on the parents' gain.
      std::vector<size_t> bestMove;
      double bestResidual = residual, bestGain = 0;
      for (size_t t = 0; t < terms.size(); ++t) {
        std::optional<std::vector<size_t>> move = forwardMove(t, model, barred);
        if (!move)
          continue;
        std::vector<size_t> candidate = model;
        candidate.insert(candidate.end(), move->begin(), move->end());
        std::optional<SubsetFit> fit = fitSubset(candidate, /*withPValues=*/false);
        if (!fit)
          continue;
        double gain = (residual - fit->residual) / totalSquares / move->size();
        if (gain > bestGain) {
          bestGain = gain;
          bestResidual = fit->residual;
          bestMove = *move;
        }
      }
      if (bestMove.empty() || bestGain < options.minRSquaredGain)
        break;
      model.insert(model.end(), bestMove.begin(), bestMove.end());
      residual = bestResidual;
      eliminateBackward(model, barred, residual);
    }
    // The paper's exclusion of negligible terms, then the final fit.
    if (std::optional<SubsetFit> fit = fitSubset(model, false)) {
      std::vector<size_t> kept;
      for (size_t i = 0; i < model.size(); ++i)
        if (std::abs(fit->coefficients(static_cast<Eigen::Index>(i))) >= options.minAbsCoefficient)
          kept.push_back(model[i]);
      model = std::move(kept);
    }
    std::optional<SubsetFit> fit = fitSubset(model, /*withPValues=*/true);
    if (!fit)
      return result;
    for (size_t i = 0; i < model.size(); ++i) {
      result.terms.push_back(terms[model[i]]);
      result.coefficients.push_back(fit->coefficients(static_cast<Eigen::Index>(i)));
      result.pValues.push_back(fit->pValues[i]);
    }
    result.rSquared = 1 - fit->residual / totalSquares;
    return result;
  }

private:
  struct SubsetFit {
    Eigen::VectorXd coefficients;
    double residual = 0;
    std::vector<double> pValues;
  };

  /// Centred and scaled to unit standard deviation; nullopt when constant.
  std::optional<Eigen::VectorXd> standardise(const Eigen::VectorXd &column) const {
    Eigen::VectorXd centred = column.array() - column.mean();
    double scale = std::sqrt(centred.squaredNorm() / rows);
    if (!(scale > 1e-12 * (1 + std::abs(column.mean()))))
      return std::nullopt;
    return Eigen::VectorXd(centred / scale);
  }

  /// Term `t` with whichever main effects it needs that are not in the
  /// model yet; nullopt when it is in, barred, or needs a barred parent.
  std::optional<std::vector<size_t>> forwardMove(size_t t, const std::vector<size_t> &model,
                                                 const std::vector<bool> &barred) const {
    auto inModel = [&](size_t term) { return llvm::is_contained(model, term); };
    if (barred[t] || inModel(t))
      return std::nullopt;
    std::vector<size_t> move;
    if (terms[t].isInteraction())
      for (size_t knob : {terms[t].first, terms[t].second}) {
        size_t parent = static_cast<size_t>(mainTermOfKnob[knob]);
        if (barred[parent])
          return std::nullopt;
        if (!inModel(parent))
          move.push_back(parent);
      }
    move.push_back(t);
    return move;
  }

  /// Drops the least significant removable term while its p-value is above
  /// the threshold; a main effect under a retained interaction stays.
  void eliminateBackward(std::vector<size_t> &model, std::vector<bool> &barred,
                         double &residual) const {
    while (!model.empty()) {
      std::optional<SubsetFit> fit = fitSubset(model, /*withPValues=*/true);
      if (!fit)
        return;
      residual = fit->residual;
      double worstP = options.maxPValue;
      std::optional<size_t> worst;
      for (size_t i = 0; i < model.size(); ++i) {
        const RegressionTerm &term = terms[model[i]];
        bool isParent = !term.isInteraction() && llvm::any_of(model, [&](size_t other) {
          const RegressionTerm &o = terms[other];
          return o.isInteraction() && (o.first == term.first || o.second == term.first);
        });
        if (!isParent && fit->pValues[i] > worstP) {
          worstP = fit->pValues[i];
          worst = i;
        }
      }
      if (!worst)
        return;
      barred[model[*worst]] = true;
      model.erase(model.begin() + static_cast<std::ptrdiff_t>(*worst));
    }
    residual = totalSquares;
  }

  /// Least squares on the columns `subset` (LDLT of their Gram block);
  /// nullopt when the block is singular or badly conditioned (a move that
  /// repeats what the model already has).
  std::optional<SubsetFit> fitSubset(const std::vector<size_t> &subset, bool withPValues) const {
    SubsetFit fit;
    fit.residual = totalSquares;
    if (subset.empty())
      return fit;
    std::vector<Eigen::Index> index(subset.begin(), subset.end());
    Eigen::MatrixXd block = gram(index, index);
    Eigen::VectorXd rhs = cross(index);
    Eigen::LDLT<Eigen::MatrixXd> ldlt(block);
    if (ldlt.info() != Eigen::Success || !(ldlt.rcond() > 1e-10))
      return std::nullopt;
    fit.coefficients = ldlt.solve(rhs);
    fit.residual = std::max(0.0, totalSquares - fit.coefficients.dot(rhs));
    if (!withPValues)
      return fit;
    // The intercept is the label mean, one more parameter.
    double degrees = static_cast<double>(rows) - static_cast<double>(subset.size()) - 1;
    Eigen::MatrixXd inverse =
        ldlt.solve(Eigen::MatrixXd::Identity(block.rows(), block.cols()));
    for (Eigen::Index i = 0; i < fit.coefficients.size(); ++i) {
      if (degrees < 1) {
        fit.pValues.push_back(NAN); // an exact fit: nothing to test against
        continue;
      }
      double variance = fit.residual / degrees * inverse(i, i);
      double t = variance > 0 ? fit.coefficients(i) / std::sqrt(variance) : INFINITY;
      fit.pValues.push_back(studentTTwoSidedPValue(t, degrees));
    }
    return fit;
  }

  const StepwiseOptions &options;
  Eigen::Index rows;
  std::vector<RegressionTerm> terms;
  std::vector<int> mainTermOfKnob;
  Eigen::MatrixXd gram;
  Eigen::VectorXd cross;
  double totalSquares = 0;
};
} // namespace

llvm::Expected<StepwiseRegression>
mlir::dltune::fitStepwiseRegression(const Eigen::MatrixXd &knobValues,
                                    const Eigen::VectorXd &labels,
                                    const StepwiseOptions &options) {
  if (knobValues.rows() != labels.size())
    return makeError("stepwise regression: " + llvm::Twine(knobValues.rows()) + " rows, " +
                     llvm::Twine(labels.size()) + " labels");
  if (labels.size() < 3)
    return makeError("stepwise regression: " + llvm::Twine(labels.size()) +
                     " rows; at least 3 are needed");
  if (!knobValues.allFinite() || !labels.allFinite())
    return makeError("stepwise regression: the rows hold a non-finite value");
  return StepwiseSearch(knobValues, labels, options).run();
}

llvm::Expected<StepwiseRegression> mlir::dltune::fitGuidedSamplingRegression(
    llvm::ArrayRef<KernelTunerCache> sources, llvm::ArrayRef<std::string> names,
    llvm::ArrayRef<Knob> targetKnobs, std::vector<std::string> &notes,
    const StepwiseOptions &options) {
  std::vector<Config> configs;
  std::vector<double> labels;
  for (size_t s = 0; s < sources.size(); ++s) {
    llvm::Expected<TimedConfigs> measured =
        getValidMeasurementsFor(sources[s], targetKnobs, names[s], notes);
    if (!measured)
      return measured.takeError();
    if (measured->size() == 0)
      continue;
    double meanLog = 0;
    for (double time : measured->timesMs)
      meanLog += std::log(time);
    meanLog /= measured->size();
    for (size_t i = 0; i < measured->size(); ++i) {
      configs.push_back(measured->configs[i]);
      labels.push_back(std::log(measured->timesMs[i]) - meanLog);
    }
  }
  Eigen::MatrixXd knobValues(static_cast<Eigen::Index>(configs.size()),
                             static_cast<Eigen::Index>(targetKnobs.size()));
  for (size_t r = 0; r < configs.size(); ++r)
    for (size_t k = 0; k < targetKnobs.size(); ++k)
      knobValues(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) =
          static_cast<double>(configs[r][k]);
  llvm::Expected<StepwiseRegression> model = fitStepwiseRegression(
      knobValues, Eigen::Map<const Eigen::VectorXd>(labels.data(), labels.size()), options);
  if (!model)
    return makeError("guided sampling on the history: " + llvm::toString(model.takeError()));
  return model;
}

std::vector<Config> mlir::dltune::sampleGuidedConfigs(const SearchSpace &space,
                                                      const StepwiseRegression &model,
                                                      size_t count, std::mt19937_64 &rng) {
  std::vector<Config> out;
  std::set<Config> picked;
  auto take = [&](const Config &c) {
    if (out.size() < count && picked.insert(c).second)
      out.push_back(c);
  };
  llvm::ArrayRef<Knob> knobs = space.getKnobs();
  // A round in which no block adds anything means the terms' knobs are
  // exhausted around every base drawn; a few such rounds end the blocks.
  for (int fruitlessRounds = 0; !model.terms.empty() && out.size() < count &&
                                fruitlessRounds < 8;) {
    size_t before = out.size();
    for (const RegressionTerm &term : model.terms) {
      if (out.size() >= count)
        break;
      std::optional<Config> base = space.sample(rng);
      if (!base)
        return out; // no valid configuration at all
      std::vector<Config> block;
      for (int64_t first : knobs[term.first].values) {
        Config c = *base;
        c[term.first] = first;
        if (!term.isInteraction()) {
          if (space.isValid(c) && !picked.count(c))
            block.push_back(c);
          continue;
        }
        for (int64_t second : knobs[term.second].values) {
          c[term.second] = second;
          if (space.isValid(c) && !picked.count(c))
            block.push_back(c);
        }
      }
      std::shuffle(block.begin(), block.end(), rng);
      for (const Config &c : block)
        take(c);
    }
    fruitlessRounds = out.size() == before ? fruitlessRounds + 1 : 0;
  }
  for (size_t attempt = 0; out.size() < count && attempt < 100 * count; ++attempt) {
    std::optional<Config> c = space.sample(rng);
    if (!c)
      break;
    take(*c);
  }
  return out;
}
