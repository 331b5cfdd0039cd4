//===- SearchSpace.cpp - Knobs, constraints and configurations -----------===//

#include "dltune/Tuning/Space/SearchSpace.h"
#include "dltune/Tuning/Support/Error.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <functional>

using namespace mlir::dltune;
using llvm::StringRef;

/// Config text ("a=1,b=2") and the canonical space text use these as
/// separators: a name holding one could not be read back.
static llvm::Error checkName(const char *what, const std::string &name) {
  for (char c : name)
    if (llvm::StringRef(",=;[]{}").contains(c) ||
        std::isspace(static_cast<unsigned char>(c)) ||
        std::iscntrl(static_cast<unsigned char>(c)))
      return makeError(llvm::Twine(what) + " name '" + name +
                       "' may not contain spaces, control characters or any of , = ; [ ] { }");
  return llvm::Error::success();
}

llvm::Expected<SearchSpace>
SearchSpace::create(std::vector<Knob> knobs, std::vector<SpaceParam> params,
                    std::vector<std::string> constraintTexts) {
  SearchSpace space;
  llvm::StringSet<> names;
  for (const Knob &k : knobs) {
    if (k.name.empty())
      return makeError("knob with an empty name");
    if (llvm::Error e = checkName("knob", k.name))
      return std::move(e);
    if (!names.insert(k.name).second)
      return makeError("knob '" + k.name + "' is declared twice");
    if (k.values.empty())
      return makeError("knob '" + k.name + "' has no candidate values");
    std::vector<int64_t> sorted = k.values;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return makeError("knob '" + k.name + "' lists a candidate value twice");
  }
  for (const SpaceParam &p : params) {
    if (llvm::Error e = checkName("parameter", p.first))
      return std::move(e);
    if (!names.insert(p.first).second)
      return makeError("parameter '" + p.first +
                       "' has the same name as a knob or another parameter");
  }
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

bool SearchSpace::enumerate(llvm::function_ref<bool(const Config &)> visit,
                            uint64_t maxSteps) const {
  uint64_t steps = 0;
  if (allowedSet) {
    // Keep the lexicographic candidate order of the unrestricted walk.
    std::vector<std::pair<std::vector<size_t>, const Config *>> order;
    for (const Config &c : *allowedSet)
      if (std::optional<std::vector<size_t>> idx = toIndices(c))
        order.push_back({std::move(*idx), &c});
    std::sort(order.begin(), order.end());
    for (auto &entry : order) {
      if (++steps > maxSteps)
        return false;
      if (!findViolatedConstraint(*entry.second) && !visit(*entry.second))
        return true;
    }
    return true;
  }
  // Constraints grouped by the depth at which they become checkable.
  std::vector<std::vector<const BoundConstraint *>> byDepth(knobs.size() + 1);
  for (const BoundConstraint &c : constraints)
    byDepth[c.lastKnob + 1].push_back(&c);
  Config config(knobs.size(), 0);
  for (const BoundConstraint *c : byDepth[0])
    if (!holds(*c, config))
      return true; // a constraint over parameters alone is false

  bool stop = false, truncated = false;
  std::function<void(size_t)> rec = [&](size_t depth) {
    if (depth == knobs.size()) {
      stop = !visit(config);
      return;
    }
    for (int64_t v : knobs[depth].values) {
      if (++steps > maxSteps) {
        stop = truncated = true;
        return;
      }
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
    return true;
  }
  rec(0);
  return !truncated;
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
  constexpr uint64_t kMaxEnumerated = 1'000'000; // ~100 MB of configs
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

llvm::Expected<SearchSpace> SearchSpace::parseCanonicalString(StringRef text) {
  StringRef rest = text;
  auto bad = [&](const char *why) {
    return makeError("space '" + text + "' is not in canonical form: " + why);
  };
  // Each section is `name{item;item;...}`; no item holds ';' or '}' except
  // through a knob name, which stops at its "=[" anyway.
  auto section = [&](StringRef name, llvm::SmallVectorImpl<StringRef> &items) {
    if (!rest.consume_front(name) || !rest.consume_front("{"))
      return false;
    while (!rest.consume_front("}")) {
      size_t end = rest.find(';');
      if (end == StringRef::npos)
        return false;
      items.push_back(rest.take_front(end));
      rest = rest.drop_front(end + 1);
    }
    return true;
  };
  llvm::SmallVector<StringRef> knobItems, paramItems, constraintItems;
  if (!section("knobs", knobItems) || !section("params", paramItems) ||
      !section("constraints", constraintItems) || !rest.empty())
    return bad("expected knobs{...}params{...}constraints{...}");
  std::vector<Knob> knobs;
  for (StringRef item : knobItems) {
    size_t open = item.rfind("=[");
    if (open == StringRef::npos || !item.ends_with("]"))
      return bad("a knob is not name=[values]");
    Knob k{item.take_front(open).str(), {}};
    llvm::SmallVector<StringRef> values;
    item.drop_front(open + 2).drop_back().split(values, ',');
    for (StringRef v : values) {
      int64_t value;
      if (v.getAsInteger(10, value))
        return bad("a knob value is not an integer");
      k.values.push_back(value);
    }
    knobs.push_back(std::move(k));
  }
  std::vector<SpaceParam> params;
  for (StringRef item : paramItems) {
    size_t eq = item.rfind('=');
    int64_t value;
    if (eq == StringRef::npos || item.drop_front(eq + 1).getAsInteger(10, value))
      return bad("a parameter is not name=integer");
    params.push_back({item.take_front(eq).str(), value});
  }
  std::vector<std::string> constraintTexts;
  for (StringRef item : constraintItems)
    constraintTexts.push_back(item.str());
  return create(std::move(knobs), std::move(params), std::move(constraintTexts));
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
