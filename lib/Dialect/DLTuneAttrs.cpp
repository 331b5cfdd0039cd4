//===- DLTuneAttrs.cpp - dltune attributes --------------------------------===//

#include "dltune/Dialect/DLTuneAttrs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dltune;

#define GET_ATTRDEF_CLASSES
#include "dltune/Dialect/DLTuneAttrs.cpp.inc"

void DLTuneDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dltune/Dialect/DLTuneAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Candidate lists: `[a, b]`, `pow2<lo, hi>`, `range<start, stop, step>`.
//===----------------------------------------------------------------------===//

static ParseResult parseCandidates(AsmParser &parser,
                                   SmallVectorImpl<int64_t> &values) {
  if (succeeded(parser.parseOptionalLSquare())) {
    if (succeeded(parser.parseOptionalRSquare()))
      return success(); // empty: the verifier reports it with the knob name
    return parser.parseCommaSeparatedList([&]() -> ParseResult {
      int64_t v;
      if (parser.parseInteger(v))
        return failure();
      values.push_back(v);
      return success();
    }) ? failure() : parser.parseRSquare();
  }
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("pow2"))) {
    int64_t lo, hi;
    if (parser.parseLess() || parser.parseInteger(lo) || parser.parseComma() ||
        parser.parseInteger(hi) || parser.parseGreater())
      return failure();
    if (lo <= 0 || !llvm::isPowerOf2_64(lo) || hi < lo)
      return parser.emitError(loc, "pow2<lo, hi> needs a power of two lo > 0 "
                                   "and hi >= lo");
    // Doubling past hi could overflow: stop before it.
    for (int64_t v = lo;; v *= 2) {
      values.push_back(v);
      if (v > hi / 2)
        break;
    }
    return success();
  }
  if (succeeded(parser.parseOptionalKeyword("range"))) {
    int64_t start, stop, step;
    if (parser.parseLess() || parser.parseInteger(start) ||
        parser.parseComma() || parser.parseInteger(stop) ||
        parser.parseComma() || parser.parseInteger(step) ||
        parser.parseGreater())
      return failure();
    if (step <= 0 || stop < start)
      return parser.emitError(loc, "range<start, stop, step> needs step > 0 "
                                   "and stop >= start");
    // Unsigned arithmetic: stop - start and start + i * step may not fit
    // int64_t, but the values themselves do.
    uint64_t steps = (static_cast<uint64_t>(stop) - static_cast<uint64_t>(start)) /
                     static_cast<uint64_t>(step);
    if (steps >= 100000)
      return parser.emitError(loc, "range has more than 100000 values");
    for (uint64_t i = 0; i <= steps; ++i)
      values.push_back(static_cast<int64_t>(static_cast<uint64_t>(start) +
                                            i * static_cast<uint64_t>(step)));
    return success();
  }
  return parser.emitError(loc, "expected candidate values: [..], pow2<lo, hi> "
                               "or range<start, stop, step>");
}

static void printCandidates(AsmPrinter &printer, ArrayRef<int64_t> values) {
  bool isPow2Run = values.size() >= 3 && values[0] > 0 &&
                   llvm::isPowerOf2_64(values[0]);
  for (size_t i = 1; isPow2Run && i < values.size(); ++i)
    isPow2Run = values[i - 1] <= INT64_MAX / 2 && values[i] == values[i - 1] * 2;
  if (isPow2Run) {
    printer << "pow2<" << values.front() << ", " << values.back() << ">";
    return;
  }
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

static LogicalResult verifyCandidates(function_ref<InFlightDiagnostic()> emitError,
                                      StringRef name, ArrayRef<int64_t> values) {
  if (name.empty())
    return emitError() << "knob name must not be empty";
  if (values.empty())
    return emitError() << "knob '" << name << "' has no candidate values";
  SmallVector<int64_t> sorted(values);
  llvm::sort(sorted);
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return emitError() << "knob '" << name << "' lists a candidate value twice";
  return success();
}

//===----------------------------------------------------------------------===//
// KnobAttr
//===----------------------------------------------------------------------===//

Attribute KnobAttr::parse(AsmParser &parser, Type) {
  std::string name;
  SmallVector<int64_t> values;
  if (parser.parseLess() || parser.parseString(&name) || parser.parseComma() ||
      parseCandidates(parser, values) || parser.parseGreater())
    return {};
  return KnobAttr::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                              parser.getContext(),
                              StringAttr::get(parser.getContext(), name), values);
}

void KnobAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getName().getValue());
  printer << ", ";
  printCandidates(printer, getValues());
  printer << ">";
}

LogicalResult KnobAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               StringAttr name, ArrayRef<int64_t> values) {
  return verifyCandidates(emitError, name ? name.getValue() : "", values);
}

KnobAttr mlir::dltune::getKnobAttr(MLIRContext *context, const Knob &knob) {
  return KnobAttr::get(context, StringAttr::get(context, knob.name), knob.values);
}

//===----------------------------------------------------------------------===//
// SpaceAttr
//===----------------------------------------------------------------------===//

Attribute SpaceAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<KnobAttr> knobs;
  SmallVector<NamedAttribute> params;
  SmallVector<StringAttr> constraints;
  if (parser.parseLess() || parser.parseKeyword("knobs") || parser.parseLBrace())
    return {};
  if (failed(parser.parseOptionalRBrace())) {
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          std::string name;
          SmallVector<int64_t> values;
          SMLoc loc = parser.getCurrentLocation();
          if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
              parseCandidates(parser, values))
            return failure();
          // get() on values its verifier rejects would build an invalid
          // attribute (and assert): check here, pointing at the knob.
          KnobAttr knob = KnobAttr::getChecked([&] { return parser.emitError(loc); },
                                               ctx, StringAttr::get(ctx, name), values);
          if (!knob)
            return failure();
          knobs.push_back(knob);
          return success();
        }) ||
        parser.parseRBrace())
      return {};
  }
  if (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("params"))) {
      if (parser.parseLBrace())
        return {};
      if (failed(parser.parseOptionalRBrace())) {
        if (parser.parseCommaSeparatedList([&]() -> ParseResult {
              std::string name;
              int64_t value;
              if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
                  parser.parseInteger(value))
                return failure();
              params.push_back(NamedAttribute(
                  StringAttr::get(ctx, name),
                  IntegerAttr::get(IntegerType::get(ctx, 64), value)));
              return success();
            }) ||
            parser.parseRBrace())
          return {};
      }
      if (failed(parser.parseOptionalComma()))
        goto done;
    }
    if (parser.parseKeyword("constraints") || parser.parseLSquare())
      return {};
    if (failed(parser.parseOptionalRSquare())) {
      if (parser.parseCommaSeparatedList([&]() -> ParseResult {
            std::string text;
            if (parser.parseString(&text))
              return failure();
            constraints.push_back(StringAttr::get(ctx, text));
            return success();
          }) ||
          parser.parseRSquare())
        return {};
    }
  }
done:
  if (parser.parseGreater())
    return {};
  // A repeated parameter would silently collapse in the dictionary.
  llvm::StringSet<> seen;
  for (NamedAttribute p : params)
    if (!seen.insert(p.getName().getValue()).second) {
      parser.emitError(parser.getNameLoc())
          << "parameter '" << p.getName().getValue() << "' is given twice";
      return {};
    }
  return SpaceAttr::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                               ctx, knobs, DictionaryAttr::get(ctx, params),
                               constraints);
}

void SpaceAttr::print(AsmPrinter &printer) const {
  printer << "<knobs {";
  llvm::interleaveComma(getKnobs(), printer, [&](KnobAttr knob) {
    printer.printKeywordOrString(knob.getName().getValue());
    printer << " = ";
    printCandidates(printer, knob.getValues());
  });
  printer << "}";
  if (!getParams().empty()) {
    printer << ", params {";
    llvm::interleaveComma(getParams(), printer, [&](NamedAttribute p) {
      printer.printKeywordOrString(p.getName().getValue());
      printer << " = " << cast<IntegerAttr>(p.getValue()).getInt();
    });
    printer << "}";
  }
  if (!getConstraints().empty()) {
    printer << ", constraints [";
    llvm::interleaveComma(getConstraints(), printer, [&](StringAttr c) {
      printer.printString(c.getValue());
    });
    printer << "]";
  }
  printer << ">";
}

static llvm::Expected<SearchSpace>
buildSearchSpace(ArrayRef<KnobAttr> knobAttrs, DictionaryAttr paramAttrs,
                 ArrayRef<StringAttr> constraintAttrs) {
  std::vector<Knob> knobs;
  for (KnobAttr k : knobAttrs)
    knobs.push_back({k.getName().getValue().str(),
                     std::vector<int64_t>(k.getValues().begin(), k.getValues().end())});
  std::vector<SpaceParam> params;
  if (paramAttrs)
    for (NamedAttribute p : paramAttrs) {
      auto value = dyn_cast<IntegerAttr>(p.getValue());
      if (!value)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "parameter '%s' is not an integer",
                                       p.getName().getValue().str().c_str());
      params.push_back({p.getName().getValue().str(), value.getInt()});
    }
  std::vector<std::string> constraints;
  for (StringAttr c : constraintAttrs)
    constraints.push_back(c.getValue().str());
  return SearchSpace::create(std::move(knobs), std::move(params),
                             std::move(constraints));
}

LogicalResult SpaceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<KnobAttr> knobs, DictionaryAttr params,
                                ArrayRef<StringAttr> constraints) {
  if (knobs.empty())
    return emitError() << "space has no knobs";
  for (KnobAttr k : knobs)
    if (!k)
      return emitError() << "space has a null knob";
  llvm::Expected<SearchSpace> space = buildSearchSpace(knobs, params, constraints);
  if (!space)
    return emitError() << llvm::toString(space.takeError());
  return success();
}

llvm::Expected<SearchSpace> SpaceAttr::getSearchSpace() const {
  return buildSearchSpace(getKnobs(), getParams(), getConstraints());
}

SpaceAttr mlir::dltune::getSpaceAttr(MLIRContext *context,
                                     const SearchSpace &space) {
  SmallVector<KnobAttr> knobs;
  for (const Knob &k : space.getKnobs())
    knobs.push_back(getKnobAttr(context, k));
  SmallVector<NamedAttribute> params;
  for (const SpaceParam &p : space.getParams())
    params.push_back(NamedAttribute(
        StringAttr::get(context, p.first),
        IntegerAttr::get(IntegerType::get(context, 64), p.second)));
  SmallVector<StringAttr> constraints;
  for (size_t i = 0; i < space.getNumConstraints(); ++i)
    constraints.push_back(
        StringAttr::get(context, space.getConstraint(i).getText()));
  return SpaceAttr::get(context, knobs, DictionaryAttr::get(context, params),
                        constraints);
}

//===----------------------------------------------------------------------===//
// ConfigAttr
//===----------------------------------------------------------------------===//

Attribute ConfigAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<NamedAttribute> values;
  llvm::StringSet<> seen;
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          std::string name;
          int64_t value;
          SMLoc loc = parser.getCurrentLocation();
          if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
              parser.parseInteger(value))
            return failure();
          if (!seen.insert(name).second)
            return parser.emitError(loc) << "knob '" << name << "' is set twice";
          values.push_back(NamedAttribute(
              StringAttr::get(ctx, name),
              IntegerAttr::get(IntegerType::get(ctx, 64), value)));
          return success();
        }) ||
        parser.parseGreater())
      return {};
  }
  return ConfigAttr::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                                ctx, DictionaryAttr::get(ctx, values));
}

void ConfigAttr::print(AsmPrinter &printer) const {
  printer << "<";
  llvm::interleaveComma(getValues(), printer, [&](NamedAttribute v) {
    printer.printKeywordOrString(v.getName().getValue());
    printer << " = " << cast<IntegerAttr>(v.getValue()).getInt();
  });
  printer << ">";
}

LogicalResult ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 DictionaryAttr values) {
  if (!values)
    return emitError() << "config needs a dictionary of values";
  for (NamedAttribute v : values)
    if (!isa<IntegerAttr>(v.getValue()))
      return emitError() << "value of knob '" << v.getName().getValue()
                         << "' is not an integer";
  return success();
}

std::optional<int64_t> ConfigAttr::getValue(StringRef name) const {
  if (auto v = getValues().getAs<IntegerAttr>(name))
    return v.getInt();
  return std::nullopt;
}

llvm::Expected<Config> ConfigAttr::toConfig(const SearchSpace &space) const {
  Config config;
  for (const Knob &k : space.getKnobs()) {
    std::optional<int64_t> v = getValue(k.name);
    if (!v)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "has no value for knob '%s'", k.name.c_str());
    config.push_back(*v);
  }
  for (NamedAttribute v : getValues())
    if (!space.getKnobIndex(v.getName().getValue()))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "sets unknown knob '%s'",
                                     v.getName().getValue().str().c_str());
  return config;
}

ConfigAttr ConfigAttr::get(MLIRContext *context, const SearchSpace &space,
                           const Config &config) {
  SmallVector<NamedAttribute> values;
  for (size_t i = 0; i < space.getKnobs().size(); ++i)
    values.push_back(NamedAttribute(
        StringAttr::get(context, space.getKnobs()[i].name),
        IntegerAttr::get(IntegerType::get(context, 64), config[i])));
  return ConfigAttr::get(context, DictionaryAttr::get(context, values));
}
