//===- SearchSpace.cpp - Knobs, constraints and configurations -----------===//

#include "dltune/Tuning/SearchSpace.h"
#include "dltune/Tuning/Error.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>

using namespace mlir::dltune;
using llvm::StringRef;

llvm::Expected<SearchSpace>
SearchSpace::create(std::vector<Knob> knobs, std::vector<SpaceParam> params,
                    std::vector<std::string> constraintTexts) {
  SearchSpace space;
  llvm::StringSet<> names;
  for (const Knob &k : knobs) {
    if (k.name.empty())
      return makeError("knob with an empty name");
    if (!names.insert(k.name).second)
      return makeError("knob '" + k.name + "' is declared twice");
    if (k.values.empty())
      return makeError("knob '" + k.name + "' has no candidate values");
    std::vector<int64_t> sorted = k.values;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return makeError("knob '" + k.name + "' lists a candidate value twice");
  }
  for (const SpaceParam &p : params)
    if (!names.insert(p.first).second)
      return makeError("parameter '" + p.first +
                       "' has the same name as a knob or another parameter");
  space.knobs = std::move(knobs);
  space.params = std::move(params);

  for (const std::string &text : constraintTexts) {
    llvm::Expected<ConstraintExpr> expr = ConstraintExpr::parse(text);
    if (!expr)
      return expr.takeError();
    BoundConstraint bound{std::move(*expr), {}, -1};
    for (const std::string &id : bound.expr.getIdentifiers()) {
      if (std::optional<size_t> k = space.getKnobIndex(id)) {
        bound.bindings.push_back(static_cast<int>(*k));
        bound.lastKnob = std::max(bound.lastKnob, static_cast<int>(*k));
        continue;
      }
      auto it = std::find_if(space.params.begin(), space.params.end(),
                             [&](const SpaceParam &p) { return p.first == id; });
      if (it == space.params.end())
        return makeError("constraint '" + text + "' uses unknown name '" + id +
                         "' (neither a knob nor a parameter)");
      bound.bindings.push_back(-1 - static_cast<int>(it - space.params.begin()));
    }
    space.constraints.push_back(std::move(bound));
  }
  return space;
}

std::optional<size_t> SearchSpace::getKnobIndex(StringRef name) const {
  for (size_t i = 0; i < knobs.size(); ++i)
    if (knobs[i].name == name)
      return i;
  return std::nullopt;
}

uint64_t SearchSpace::getCartesianSize() const {
  uint64_t size = 1;
  for (const Knob &k : knobs) {
    if (size > UINT64_MAX / k.values.size())
      return UINT64_MAX;
    size *= k.values.size();
  }
  return size;
}

bool SearchSpace::holds(const BoundConstraint &c, const Config &config) const {
  int64_t values[32];
  std::vector<int64_t> heap;
  int64_t *v = values;
  if (c.bindings.size() > 32) {
    heap.resize(c.bindings.size());
    v = heap.data();
  }
  for (size_t i = 0; i < c.bindings.size(); ++i) {
    int b = c.bindings[i];
    v[i] = b >= 0 ? config[b] : params[-1 - b].second;
  }
  return c.expr.holds(llvm::ArrayRef<int64_t>(v, c.bindings.size()));
}

std::optional<size_t>
SearchSpace::findViolatedConstraint(const Config &config) const {
  for (size_t i = 0; i < constraints.size(); ++i)
    if (!holds(constraints[i], config))
      return i;
  return std::nullopt;
}

std::optional<std::vector<size_t>>
SearchSpace::toIndices(const Config &config) const {
  if (config.size() != knobs.size())
    return std::nullopt;
  std::vector<size_t> indices(knobs.size());
  for (size_t i = 0; i < knobs.size(); ++i) {
    auto it = std::find(knobs[i].values.begin(), knobs[i].values.end(), config[i]);
    if (it == knobs[i].values.end())
      return std::nullopt;
    indices[i] = it - knobs[i].values.begin();
  }
  return indices;
}

bool SearchSpace::isValid(const Config &config) const {
  return toIndices(config) && isAllowed(config) && !findViolatedConstraint(config);
}

void SearchSpace::restrictTo(std::vector<Config> configs) {
  allowedSet = std::make_shared<const std::set<Config>>(configs.begin(), configs.end());
  enumerated.reset();
}

llvm::Expected<Config> SearchSpace::parseConfig(StringRef text) const {
  Config config(knobs.size(), 0);
  std::vector<bool> seen(knobs.size(), false);
  llvm::SmallVector<StringRef> parts;
  text.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    auto [name, value] = part.split('=');
    name = name.trim();
    std::optional<size_t> k = getKnobIndex(name);
    int64_t v;
    if (!k)
      return makeError("unknown knob '" + name + "' in config '" + text + "'");
    if (value.trim().getAsInteger(10, v))
      return makeError("bad value for knob '" + name + "' in config '" + text + "'");
    if (seen[*k])
      return makeError("knob '" + name + "' set twice in config '" + text + "'");
    seen[*k] = true;
    config[*k] = v;
  }
  for (size_t i = 0; i < knobs.size(); ++i)
    if (!seen[i])
      return makeError("config '" + text + "' has no value for knob '" + knobs[i].name + "'");
  return config;
}

llvm::Error SearchSpace::checkValid(const Config &config) const {
  if (config.size() != knobs.size())
    return makeError("config has " + llvm::Twine(config.size()) +
                     " values but the space has " + llvm::Twine(knobs.size()) +
                     " knobs");
  for (size_t i = 0; i < knobs.size(); ++i)
    if (std::find(knobs[i].values.begin(), knobs[i].values.end(), config[i]) ==
        knobs[i].values.end())
      return makeError("value " + llvm::Twine(config[i]) + " of knob '" +
                       knobs[i].name + "' is not among its candidates");
  if (!isAllowed(config))
    return makeError("is not one of the recorded configurations");
  if (std::optional<size_t> bad = findViolatedConstraint(config)) {
    const BoundConstraint &c = constraints[*bad];
    std::string detail;
    llvm::raw_string_ostream os(detail);
    llvm::ArrayRef<std::string> ids = c.expr.getIdentifiers();
    for (size_t i = 0; i < ids.size(); ++i) {
      int b = c.bindings[i];
      os << (i ? ", " : "") << ids[i] << " = "
         << (b >= 0 ? config[b] : params[-1 - b].second);
    }
    return makeError("violates constraint '" + c.expr.getText() + "' (" +
                     detail + ")");
  }
  return llvm::Error::success();
}

void SearchSpace::enumerate(llvm::function_ref<bool(const Config &)> visit) const {
  if (allowedSet) {
    // Keep the lexicographic candidate order of the unrestricted walk.
    std::vector<std::pair<std::vector<size_t>, const Config *>> order;
    for (const Config &c : *allowedSet)
      if (std::optional<std::vector<size_t>> idx = toIndices(c))
        order.push_back({std::move(*idx), &c});
    std::sort(order.begin(), order.end());
    for (auto &entry : order)
      if (!findViolatedConstraint(*entry.second) && !visit(*entry.second))
        return;
    return;
  }
  // Constraints grouped by the depth at which they become checkable.
  std::vector<std::vector<const BoundConstraint *>> byDepth(knobs.size() + 1);
  for (const BoundConstraint &c : constraints)
    byDepth[c.lastKnob + 1].push_back(&c);
  Config config(knobs.size(), 0);
  for (const BoundConstraint *c : byDepth[0])
    if (!holds(*c, config))
      return; // a constraint over parameters alone is false

  bool stop = false;
  std::function<void(size_t)> rec = [&](size_t depth) {
    if (depth == knobs.size()) {
      stop = !visit(config);
      return;
    }
    for (int64_t v : knobs[depth].values) {
      config[depth] = v;
      bool ok = true;
      for (const BoundConstraint *c : byDepth[depth + 1])
        if (!holds(*c, config)) {
          ok = false;
          break;
        }
      if (ok)
        rec(depth + 1);
      if (stop)
        return;
    }
  };
  if (knobs.empty()) {
    visit(config);
    return;
  }
  rec(0);
}

uint64_t SearchSpace::countValid(uint64_t limit) const {
  uint64_t count = 0;
  enumerate([&](const Config &) { return ++count < limit; });
  return count;
}

std::optional<Config> SearchSpace::sample(std::mt19937_64 &rng) const {
  // Rejection sampling is exactly uniform over valid configs.
  constexpr int kAttempts = 2000;
  if (allowedSet && !enumerated) {
    std::vector<Config> all;
    enumerate([&](const Config &c) {
      all.push_back(c);
      return true;
    });
    enumerated = std::move(all);
  }
  if (allowedSet) {
    if (enumerated->empty())
      return std::nullopt;
    std::uniform_int_distribution<size_t> pick(0, enumerated->size() - 1);
    return (*enumerated)[pick(rng)];
  }
  Config config(knobs.size());
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    for (size_t i = 0; i < knobs.size(); ++i) {
      std::uniform_int_distribution<size_t> pick(0, knobs[i].values.size() - 1);
      config[i] = knobs[i].values[pick(rng)];
    }
    if (!findViolatedConstraint(config))
      return config;
  }
  // Sparse space: enumerate once (bounded) and pick from the list.
  constexpr uint64_t kMaxEnumerated = 4'000'000;
  if (!enumerated) {
    std::vector<Config> all;
    enumerate([&](const Config &c) {
      all.push_back(c);
      return all.size() < kMaxEnumerated;
    });
    enumerated = std::move(all);
  }
  if (enumerated->empty())
    return std::nullopt;
  std::uniform_int_distribution<size_t> pick(0, enumerated->size() - 1);
  return (*enumerated)[pick(rng)];
}

std::vector<Config> SearchSpace::getNeighbours(const Config &config) const {
  std::vector<Config> result;
  std::optional<std::vector<size_t>> indices = toIndices(config);
  if (!indices)
    return result;
  for (size_t k = 0; k < knobs.size(); ++k) {
    for (int delta : {-1, 1}) {
      int64_t j = static_cast<int64_t>((*indices)[k]) + delta;
      if (j < 0 || j >= static_cast<int64_t>(knobs[k].values.size()))
        continue;
      Config next = config;
      next[k] = knobs[k].values[j];
      if (isAllowed(next) && !findViolatedConstraint(next))
        result.push_back(std::move(next));
    }
  }
  return result;
}

std::string SearchSpace::getCanonicalString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "knobs{";
  for (const Knob &k : knobs) {
    os << k.name << "=[";
    for (size_t i = 0; i < k.values.size(); ++i)
      os << (i ? "," : "") << k.values[i];
    os << "];";
  }
  os << "}params{";
  for (const SpaceParam &p : params)
    os << p.first << "=" << p.second << ";";
  os << "}constraints{";
  for (const BoundConstraint &c : constraints)
    os << c.expr.getText() << ";";
  os << "}";
  return s;
}

std::string SearchSpace::formatConfig(const Config &config) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (size_t i = 0; i < knobs.size() && i < config.size(); ++i)
    os << (i ? "," : "") << knobs[i].name << "=" << config[i];
  return s;
}

uint64_t mlir::dltune::stableHash(StringRef text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string TaskDescriptor::getCanonicalString() const {
  // Version prefix: keys of the first schema (op kind, shapes and space)
  // can never collide with these.
  return "task-v3|" + target + "|" + computation;
}

uint64_t TaskDescriptor::getHash() const { return stableHash(getCanonicalString()); }
