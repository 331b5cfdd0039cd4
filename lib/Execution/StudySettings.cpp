//===- StudySettings.cpp - What a study fixes for all its workers ---------===//

#include "dltune/Execution/StudySettings.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

#include <limits>
#include <type_traits>

using namespace mlir::dltune;

bool mlir::dltune::isWorkerOption(llvm::StringRef name) {
  static const llvm::StringSet<> own = {"db",          "jobs",     "build-timeout",
                                        "run-timeout", "mem-limit-mb", "worker",
                                        "work-dir",    "quiet",    "chip"};
  return own.contains(name);
}

bool mlir::dltune::isStudyOption(llvm::StringRef name) { return name != "entry"; }

std::string mlir::dltune::encodeStudySettings(const StudySettings &settings) {
  llvm::json::Object o;
  ModuleTunerOptions tuner = settings.tuner;
  forEachTunerOption(tuner, [&](llvm::StringRef name, auto &field, llvm::StringRef, bool) {
    using T = std::decay_t<decltype(field)>;
    if (isWorkerOption(name) || !isStudyOption(name))
      return;
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string> ||
                  std::is_floating_point_v<T>)
      o[name] = field;
    else if constexpr (std::is_unsigned_v<T>)
      o[name] = static_cast<uint64_t>(field);
    else
      o[name] = static_cast<int64_t>(field);
  });
  o["threads"] = settings.threads;
  o["winograd"] = settings.winograd;
  o["tf32"] = settings.tf32;
  if (settings.suspension.enabled) {
    o["suspend"] = true;
    o["plateau"] = settings.suspension.plateauIntervals;
    o["min-improvement"] = settings.suspension.minImprovement;
    o["suspend-interval"] = settings.suspension.intervalTrials;
  }
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(std::move(o));
  return text;
}

llvm::Expected<StudySettings> mlir::dltune::decodeStudySettings(llvm::StringRef json,
                                                                StudySettings base) {
  auto bad = [](const llvm::Twine &why) {
    return llvm::createStringError("the study's options are damaged: " + why);
  };
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return bad(llvm::toString(parsed.takeError()));
  const llvm::json::Object *o = parsed->getAsObject();
  if (!o)
    return bad("not a JSON object");
  llvm::StringSet<> known = {"threads",  "winograd",        "tf32",
                             "suspend", "plateau", "min-improvement", "suspend-interval"};
  std::string error;
  forEachTunerOption(base.tuner, [&](llvm::StringRef name, auto &field, llvm::StringRef, bool) {
    using T = std::decay_t<decltype(field)>;
    if (isWorkerOption(name) || !isStudyOption(name))
      return;
    known.insert(name);
    const llvm::json::Value *v = o->get(name);
    if (!v || !error.empty())
      return;
    bool ok = false;
    if constexpr (std::is_same_v<T, bool>) {
      if (std::optional<bool> b = v->getAsBoolean())
        field = *b, ok = true;
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (std::optional<llvm::StringRef> s = v->getAsString())
        field = s->str(), ok = true;
    } else if constexpr (std::is_floating_point_v<T>) {
      if (std::optional<double> d = v->getAsNumber())
        field = *d, ok = true;
    } else if constexpr (std::is_unsigned_v<T>) {
      std::optional<uint64_t> u = v->getAsUINT64();
      if (u && *u <= std::numeric_limits<T>::max())
        field = static_cast<T>(*u), ok = true;
    } else {
      std::optional<int64_t> i = v->getAsInteger();
      if (i && *i >= std::numeric_limits<T>::min() && *i <= std::numeric_limits<T>::max())
        field = static_cast<T>(*i), ok = true;
    }
    if (!ok)
      error = "'" + name.str() + "' has a value of the wrong type";
  });
  if (!error.empty())
    return bad(error);
  for (const auto &[key, value] : *o)
    if (!known.contains(key.str()))
      return bad("no option is called '" + key.str() + "' (a newer dltune's study?)");
  if (const llvm::json::Value *v = o->get("threads")) {
    std::optional<int64_t> t = v->getAsInteger();
    if (!t || *t < 0)
      return bad("'threads' is not a thread count");
    base.threads = static_cast<int>(*t);
  }
  for (auto [key, field] : {std::pair<const char *, bool *>{"winograd", &base.winograd},
                            {"tf32", &base.tf32}})
    if (const llvm::json::Value *v = o->get(key)) {
      std::optional<bool> b = v->getAsBoolean();
      if (!b)
        return bad(llvm::Twine("'") + key + "' is not true or false");
      *field = *b;
    }
  StudySuspensionSettings &suspension = base.suspension;
  suspension = StudySuspensionSettings();
  if (const llvm::json::Value *v = o->get("suspend")) {
    std::optional<bool> b = v->getAsBoolean();
    if (!b)
      return bad("'suspend' is not true or false");
    suspension.enabled = *b;
  }
  if (const llvm::json::Value *v = o->get("plateau")) {
    std::optional<int64_t> p = v->getAsInteger();
    if (!p || *p < 1 || *p > 1000000)
      return bad("'plateau' is not a count of intervals");
    suspension.plateauIntervals = static_cast<int>(*p);
  }
  if (const llvm::json::Value *v = o->get("min-improvement")) {
    std::optional<double> d = v->getAsNumber();
    if (!d)
      return bad("'min-improvement' is not a number");
    suspension.minImprovement = *d;
  }
  if (const llvm::json::Value *v = o->get("suspend-interval")) {
    std::optional<int64_t> n = v->getAsInteger();
    if (!n || *n < 0)
      return bad("'suspend-interval' is not a count of measurements");
    suspension.intervalTrials = *n;
  }
  if (llvm::Error e = validateStudySuspension(base))
    return bad(llvm::toString(std::move(e)));
  return base;
}

llvm::Error mlir::dltune::validateStudySuspension(const StudySettings &settings) {
  const StudySuspensionSettings &s = settings.suspension;
  if (!s.enabled)
    return llvm::Error::success();
  if (settings.tuner.scheduler.empty())
    return llvm::createStringError("--suspend needs a --scheduler: the models are tuned an "
                                   "interval at a time, each on the scheduler's model budget");
  if (s.plateauIntervals < 1)
    return llvm::createStringError("--plateau is at least 1 interval");
  if (!(s.minImprovement >= 0 && s.minImprovement < 1))
    return llvm::createStringError("--min-improvement is a relative latency reduction in "
                                   "[0, 1)");
  if (s.intervalTrials < 0)
    return llvm::createStringError("--suspend-interval is a count of measurements (0: one "
                                   "epoch)");
  return llvm::Error::success();
}
