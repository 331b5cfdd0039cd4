//===- SearchSpace.h - Knobs, constraints and configurations ----*- C++ -*-===//
//
// The MLIR-independent model of a tuning search space: named knobs with
// candidate values, named integer parameters (op dims, target limits) and
// constraints over both. Search strategies, cost models and the dialect's
// verifier all go through this class.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_SPACE_SEARCHSPACE_H
#define DLTUNE_TUNING_SPACE_SEARCHSPACE_H

#include "dltune/Tuning/Space/ConstraintExpr.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <optional>
#include <random>
#include <set>
#include <utility>

namespace mlir::dltune {

/// A tunable knob and its candidate values (distinct, in the given order).
struct Knob {
  std::string name;
  std::vector<int64_t> values;
};

/// One value per knob, in the space's knob order.
using Config = std::vector<int64_t>;

/// A named integer constant that constraints may reference.
using SpaceParam = std::pair<std::string, int64_t>;

class SearchSpace {
public:
  /// Validates and builds a space. Fails on empty or duplicate knobs, empty
  /// or repeated candidate lists, names used twice or holding separators of
  /// the config text (spaces, , = ; [ ] { }), unparsable constraints and
  /// constraints that reference unknown names.
  static llvm::Expected<SearchSpace> create(std::vector<Knob> knobs,
                                            std::vector<SpaceParam> params,
                                            std::vector<std::string> constraints);

  llvm::ArrayRef<Knob> getKnobs() const { return knobs; }
  llvm::ArrayRef<SpaceParam> getParams() const { return params; }
  size_t getNumConstraints() const { return constraints.size(); }
  const ConstraintExpr &getConstraint(size_t i) const { return constraints[i].expr; }
  std::optional<size_t> getKnobIndex(llvm::StringRef name) const;

  /// Product of the candidate-list sizes (saturates at UINT64_MAX).
  uint64_t getCartesianSize() const;

  /// True when every value is a candidate of its knob and all constraints hold.
  bool isValid(const Config &config) const;
  /// Like isValid, but says why not: the knob whose value is not a candidate
  /// or the violated constraint with the values of the knobs it reads.
  llvm::Error checkValid(const Config &config) const;
  /// Index of the first violated constraint, if any (candidates not checked).
  std::optional<size_t> findViolatedConstraint(const Config &config) const;

  /// Work bound of enumerate(): candidate values tried (about a second).
  static constexpr uint64_t kDefaultEnumerationSteps = uint64_t(1) << 25;

  /// Visits valid configs in lexicographic candidate order, pruning partial
  /// assignments as soon as a constraint's knobs are all fixed. Stops early
  /// when `visit` returns false. Huge spaces whose constraints reject most
  /// configs could otherwise take forever, so at most `maxSteps` candidate
  /// values are tried; returns false when that bound cut the walk short.
  bool enumerate(llvm::function_ref<bool(const Config &)> visit,
                 uint64_t maxSteps = kDefaultEnumerationSteps) const;
  /// Number of valid configs, counting at most `limit` (and only those the
  /// bounded enumeration reaches).
  uint64_t countValid(uint64_t limit = UINT64_MAX) const;

  /// A uniformly random valid config, or nullopt if none was found.
  /// Rejection sampling from the product; spaces with a low valid fraction
  /// fall back to picking from their (bounded) enumeration, which is
  /// uniform only when that enumeration was complete.
  std::optional<Config> sample(std::mt19937_64 &rng) const;

  /// Valid configs that differ from `config` in exactly one knob, moved to
  /// an adjacent candidate (previous or next in the candidate list).
  std::vector<Config> getNeighbours(const Config &config) const;

  /// Index of each value within its knob's candidates, or nullopt.
  std::optional<std::vector<size_t>> toIndices(const Config &config) const;

  /// Restricts the space to an explicit set of configurations (e.g. the ones
  /// a recorded dataset holds); constraints still apply on top.
  void restrictTo(std::vector<Config> configs);
  bool isRestricted() const { return allowedSet != nullptr; }

  /// Parses "knob=value,..." (any order, every knob once) into a config.
  llvm::Expected<Config> parseConfig(llvm::StringRef text) const;

  /// A canonical text form, stable across runs and platforms, used to hash.
  std::string getCanonicalString() const;
  /// Reads what getCanonicalString wrote (imports check configs with it).
  static llvm::Expected<SearchSpace> parseCanonicalString(llvm::StringRef text);
  /// "tile_m=32,tile_n=64" in knob order.
  std::string formatConfig(const Config &config) const;

private:
  struct BoundConstraint {
    ConstraintExpr expr;
    // For each identifier: knob index (>= 0) or -1 - param index.
    std::vector<int> bindings;
    // The highest knob index read; the constraint can be checked once the
    // enumeration has fixed this knob.
    int lastKnob = -1;
  };
  bool holds(const BoundConstraint &c, const Config &config) const;

  std::vector<Knob> knobs;
  std::vector<SpaceParam> params;
  std::vector<BoundConstraint> constraints;
  bool isAllowed(const Config &config) const {
    return !allowedSet || allowedSet->count(config);
  }
  std::shared_ptr<const std::set<Config>> allowedSet;
  // Valid configs of a small sparse space, filled on first sample().
  mutable std::optional<std::vector<Config>> enumerated;
};

/// 64-bit FNV-1a: stable across platforms and runs, unlike std::hash.
uint64_t stableHash(llvm::StringRef text);

/// What identifies a tuning task: the computation (the op in canonical
/// generic form) and the target. Two ops with equal descriptors share
/// measurements and configs; the search space is deliberately not part of
/// the identity, since its ranges may depend on the machine.
struct TaskDescriptor {
  std::string opKind;                       // readable: "linalg.matmul", "elementwise maximumf 1x28x28x128"
  std::vector<std::vector<int64_t>> shapes; // operand shapes (for reports)
  std::vector<std::string> elementTypes;    // operand element types (for reports)
  std::string target;                       // "cpu" or "gpu"
  std::string computation;                  // canonical text of the computation

  std::string getCanonicalString() const;
  uint64_t getHash() const;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_SPACE_SEARCHSPACE_H
