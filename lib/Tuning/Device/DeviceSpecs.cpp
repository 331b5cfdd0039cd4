//===- DeviceSpecs.cpp - Published specifications of recorded devices -----===//

#include "dltune/Tuning/Device/DeviceSpecs.h"

#include "Support/JsonFields.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cctype>
#include <cmath>

using namespace mlir::dltune;

std::vector<std::string> mlir::dltune::getDeviceFeatureNames() {
  return {"device_log2_fp32_gflops", "device_log2_memory_gbs", "device_log2_compute_units",
          "device_log2_clock_mhz",   "device_log2_l2_mb",      "device_nvidia"};
}

std::vector<float> mlir::dltune::getDeviceFeatures(const DeviceSpec &spec) {
  return {static_cast<float>(std::log2(spec.fp32Gflops)),
          static_cast<float>(std::log2(spec.memoryGBs)),
          static_cast<float>(std::log2(spec.computeUnits)),
          static_cast<float>(std::log2(spec.clockMhz)),
          static_cast<float>(std::log2(spec.l2MB)),
          spec.vendor == "nvidia" ? 1.0f : 0.0f};
}

// Vendors' published figures (data sheets and product pages), boost clock,
// FP32 without sparsity. The MI250X is one of its two dies (the unit a
// kernel runs on); the W7800's FP32 counts RDNA3's dual issue, the
// RTX 30 and A-series figures Ampere's doubled FP32 rate, as their vendors
// do. The RTX 3060 Laptop GPU's figures are NVIDIA's top of its range.
const std::vector<DeviceSpec> &mlir::dltune::getKnownDeviceSpecs() {
  static const std::vector<DeviceSpec> specs = {
      {"NVIDIA A100-PCIE-40GB", {"A100"}, 19500, 1555, 108, 1410, 40, "nvidia"},
      {"NVIDIA RTX A4000", {"A4000"}, 19200, 448, 48, 1560, 4, "nvidia"},
      {"NVIDIA RTX A6000", {"A6000"}, 38700, 768, 84, 1800, 6, "nvidia"},
      {"AMD Instinct MI250X", {"MI250X"}, 23950, 1638, 110, 1700, 8, "amd"},
      {"AMD Radeon PRO W6600", {"W6600"}, 10400, 224, 28, 2900, 2, "amd"},
      {"AMD Radeon PRO W7800", {"W7800"}, 45200, 576, 70, 2499, 6, "amd"},
      {"NVIDIA GeForce RTX 2080 Ti", {"RTX 2080 Ti"}, 13450, 616, 68, 1545, 5.5, "nvidia"},
      {"NVIDIA GeForce RTX 3060 Laptop GPU",
       {"RTX 3060 laptop"}, 13070, 336, 30, 1703, 3, "nvidia"},
      {"NVIDIA GeForce RTX 3090", {"RTX 3090"}, 35580, 936, 82, 1695, 6, "nvidia"},
      {"NVIDIA TITAN RTX", {"RTX Titan", "Titan RTX"}, 16310, 672, 72, 1770, 6, "nvidia"},
  };
  return specs;
}

static std::string normalise(llvm::StringRef name) {
  std::string key;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)))
      key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return key;
}

std::optional<DeviceSpec> mlir::dltune::findDeviceSpec(llvm::StringRef name,
                                                       const std::vector<DeviceSpec> &extra) {
  std::string key = normalise(name);
  if (key.empty())
    return std::nullopt;
  for (const std::vector<DeviceSpec> *table : {&extra, &getKnownDeviceSpecs()})
    for (const DeviceSpec &spec : *table) {
      if (normalise(spec.name) == key)
        return spec;
      for (const std::string &alias : spec.aliases)
        if (normalise(alias) == key)
          return spec;
    }
  return std::nullopt;
}

llvm::Expected<std::vector<DeviceSpec>> mlir::dltune::loadDeviceSpecs(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("cannot open '" + path + "': " + buffer.getError().message());
  llvm::Expected<json> doc = parseJson((*buffer)->getBuffer());
  if (!doc)
    return makeError("'" + path + "': " + llvm::toString(doc.takeError()));
  if (!doc->is_object())
    return makeError("'" + path + "': must be an object from device name to its specs, not " +
                     describeJson(*doc));
  std::vector<DeviceSpec> specs;
  for (auto it = doc->begin(); it != doc->end(); ++it) {
    DeviceSpec spec;
    spec.name = it.key();
    FieldReader read(it.value(), "'" + path + "': \"" + it.key() + "\"");
    read.number("fp32_gflops", spec.fp32Gflops, FieldReader::Required);
    read.number("memory_gbs", spec.memoryGBs, FieldReader::Required);
    read.number("compute_units", spec.computeUnits, FieldReader::Required);
    read.number("clock_mhz", spec.clockMhz, FieldReader::Required);
    read.number("l2_mb", spec.l2MB, FieldReader::Required);
    read.string("vendor", spec.vendor, FieldReader::Required, /*nonEmpty=*/true);
    const std::pair<const char *, double> amounts[] = {
        {"fp32_gflops", spec.fp32Gflops}, {"memory_gbs", spec.memoryGBs},
        {"compute_units", spec.computeUnits}, {"clock_mhz", spec.clockMhz},
        {"l2_mb", spec.l2MB}};
    for (auto [key, amount] : amounts)
      if (read.ok() && amount <= 0)
        read.failField(key, "must be positive");
    if (const json *aliases = read.get("aliases", FieldReader::Optional)) {
      if (!aliases->is_array())
        read.failField("aliases", "must be a list of strings, not " + describeJson(*aliases));
      else
        for (const json &alias : *aliases) {
          if (!alias.is_string()) {
            read.failField("aliases", "must hold strings, not " + describeJson(alias));
            break;
          }
          spec.aliases.push_back(alias.get<std::string>());
        }
    }
    if (llvm::Error e = read.takeError())
      return std::move(e);
    for (char &c : spec.vendor)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    specs.push_back(std::move(spec));
  }
  return specs;
}
