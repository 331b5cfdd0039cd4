//===- DeviceInfo.cpp - Device fingerprints and energy meters -------------===//

#include "dltune/Execution/DeviceInfo.h"
#include "dltune/Tuning/Device/HostCpu.h"
#include "dltune/Tuning/Space/SearchSpace.h"
#include "dltune/Tuning/Support/Error.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <dirent.h>
#include <dlfcn.h>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

using namespace mlir::dltune;

DeviceInfo DeviceInfo::detect(const std::string &target) {
  DeviceInfo d;
  d.target = target;
  HostCpu host = HostCpu::detect();
  d.cores = host.cores;
  d.cpuModel = host.model;
  d.isaFlags = host.isaFlags;
  d.frequencyMHz = host.frequencyMHz;
  d.l1dBytes = host.l1dBytes;
  d.l2Bytes = host.l2Bytes;
  d.l3Bytes = host.l3Bytes;
  if (target == "gpu") {
    llvm::Expected<CudaDriver &> driver = CudaDriver::get();
    if (driver) {
      llvm::Expected<GpuDeviceInfo> g = driver->getDeviceInfo(0);
      if (g)
        d.gpu = *g;
      else
        llvm::consumeError(g.takeError());
    } else {
      llvm::consumeError(driver.takeError());
    }
  }
  return d;
}

std::string DeviceInfo::toJson() const {
  llvm::json::Array flags;
  for (const std::string &f : isaFlags)
    flags.push_back(f);
  llvm::json::Object o{{"target", target},          {"cpu_model", cpuModel},
                       {"isa_flags", std::move(flags)}, {"cores", cores},
                       {"frequency_mhz", frequencyMHz}, {"l1d_bytes", l1dBytes},
                       {"l2_bytes", l2Bytes},        {"l3_bytes", l3Bytes}};
  if (gpu)
    o["gpu"] = llvm::json::Object{{"name", gpu->name},
                                  {"compute_capability",
                                   std::to_string(gpu->computeMajor) + "." +
                                       std::to_string(gpu->computeMinor)},
                                  {"multiprocessors", gpu->multiprocessors},
                                  {"memory_bytes", static_cast<int64_t>(gpu->totalMemoryBytes)}};
  if (cachesFlushed)
    o["timing"] = "caches flushed";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::json::Value(std::move(o));
  return s;
}

llvm::Expected<DeviceInfo> DeviceInfo::fromJson(llvm::StringRef json) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return makeError("device record: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *o = parsed->getAsObject();
  if (!o)
    return makeError("device record: not a JSON object");
  DeviceInfo d;
  std::string bad;
  auto text = [&](const llvm::json::Object &obj, llvm::StringRef key, std::string &out) {
    if (const llvm::json::Value *v = obj.get(key)) {
      if (std::optional<llvm::StringRef> s = v->getAsString())
        out = s->str();
      else
        bad = key.str();
    }
  };
  auto number = [&](const llvm::json::Object &obj, llvm::StringRef key, auto &out) {
    if (const llvm::json::Value *v = obj.get(key)) {
      // Within what the fields hold (a cast of 1e300 to int is undefined).
      if (std::optional<double> n = v->getAsNumber(); n && *n >= 0 && *n <= 1e15)
        out = static_cast<std::remove_reference_t<decltype(out)>>(*n);
      else
        bad = key.str();
    }
  };
  text(*o, "target", d.target);
  text(*o, "cpu_model", d.cpuModel);
  number(*o, "cores", d.cores);
  number(*o, "frequency_mhz", d.frequencyMHz);
  number(*o, "l1d_bytes", d.l1dBytes);
  number(*o, "l2_bytes", d.l2Bytes);
  number(*o, "l3_bytes", d.l3Bytes);
  std::string timing;
  text(*o, "timing", timing);
  if (timing == "caches flushed")
    d.cachesFlushed = true;
  else if (!timing.empty())
    bad = "timing";
  if (const llvm::json::Value *flags = o->get("isa_flags")) {
    const llvm::json::Array *a = flags->getAsArray();
    if (!a)
      bad = "isa_flags";
    else
      for (const llvm::json::Value &f : *a) {
        if (std::optional<llvm::StringRef> s = f.getAsString())
          d.isaFlags.push_back(s->str());
        else
          bad = "isa_flags";
      }
  }
  if (const llvm::json::Value *gpu = o->get("gpu")) {
    const llvm::json::Object *g = gpu->getAsObject();
    if (!g) {
      bad = "gpu";
    } else {
      GpuDeviceInfo info;
      text(*g, "name", info.name);
      std::string cc;
      text(*g, "compute_capability", cc);
      number(*g, "multiprocessors", info.multiprocessors);
      number(*g, "memory_bytes", info.totalMemoryBytes);
      if (!cc.empty() && sscanf(cc.c_str(), "%d.%d", &info.computeMajor, &info.computeMinor) != 2)
        bad = "compute_capability";
      d.gpu = info;
    }
  }
  if (!bad.empty())
    return makeError("device record: field '" + bad + "' has the wrong type or is out of range");
  return d;
}

std::string DeviceInfo::getFingerprint() const {
  std::string key = target + "|" + cpuModel + "|" + std::to_string(cores) + "|" +
                    std::to_string(l1dBytes) + "|" + std::to_string(l2Bytes) + "|" +
                    std::to_string(l3Bytes) + "|";
  for (const std::string &f : isaFlags)
    key += f + ",";
  if (gpu)
    key += "|" + gpu->name + "|" + std::to_string(gpu->computeMajor) + "." +
           std::to_string(gpu->computeMinor);
  if (cachesFlushed)
    key += "|caches flushed";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << target << "-" << llvm::format_hex_no_prefix(stableHash(key), 16);
  return s;
}

std::string DeviceInfo::getName() const {
  std::string name = gpu ? gpu->name : cpuModel + " (" + std::to_string(cores) + " cores)";
  return cachesFlushed ? name + ", caches flushed" : name;
}

std::vector<std::string> DeviceInfo::getFeatureNames() {
  return {"cores", "frequency_mhz", "l1d_kib", "l2_kib", "l3_kib", "has_avx2",
          "has_avx512", "has_fma", "f32_simd_lanes", "gpu_sms", "gpu_cc", "gpu_mem_gib"};
}

std::vector<double> DeviceInfo::getFeatures() const {
  auto has = [&](const char *f) {
    return std::find(isaFlags.begin(), isaFlags.end(), f) != isaFlags.end() ? 1.0 : 0.0;
  };
  double lanes = has("avx512f") ? 16 : has("avx2") || has("avx") ? 8 : 4;
  return {static_cast<double>(cores), frequencyMHz, l1dBytes / 1024.0, l2Bytes / 1024.0,
          l3Bytes / 1024.0, has("avx2"), has("avx512f"), has("fma"), lanes,
          gpu ? static_cast<double>(gpu->multiprocessors) : 0.0,
          gpu ? gpu->computeMajor + gpu->computeMinor / 10.0 : 0.0,
          gpu ? gpu->totalMemoryBytes / double(1ull << 30) : 0.0};
}

EnergyMeter::EnergyMeter(Source source, std::string powercapRoot) {
  if (source == Source::Gpu) {
    // NVML's total energy counter (Volta and newer).
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return;
    auto init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
    auto byIndex = reinterpret_cast<int (*)(unsigned, void **)>(
        dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
    nvmlEnergy = reinterpret_cast<int (*)(void *, unsigned long long *)>(
        dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption"));
    unsigned long long mj = 0;
    if (!init || !byIndex || !nvmlEnergy || init() != 0 || byIndex(0, &nvmlDevice) != 0 ||
        nvmlEnergy(nvmlDevice, &mj) != 0) {
      nvmlEnergy = nullptr;
      nvmlDevice = nullptr;
      return;
    }
    nvmlLast = static_cast<double>(mj);
    return;
  }
  if (powercapRoot.empty()) {
    const char *env = std::getenv("DLTUNE_POWERCAP_ROOT");
    powercapRoot = env && *env ? env : "/sys/class/powercap";
  }
  DIR *dir = opendir(powercapRoot.c_str());
  if (!dir)
    return;
  while (dirent *e = readdir(dir)) {
    std::string name = e->d_name;
    // Package domains only ("intel-rapl:0"), not their subzones.
    if (name.rfind("intel-rapl:", 0) != 0 || name.find(':', 11) != std::string::npos)
      continue;
    std::string base = powercapRoot + "/" + name + "/";
    // Intel client CPUs add a top-level "psys" domain (the whole platform,
    // packages included): counting it too would count the package twice.
    std::string domain = readSmallTextFile(base + "name");
    if (!domain.empty() && domain.rfind("package", 0) != 0)
      continue;
    std::string value = readSmallTextFile(base + "energy_uj");
    if (value.empty())
      continue; // not readable (permissions)
    paths.push_back(base + "energy_uj");
    last.push_back(std::atof(value.c_str()));
    std::string r = readSmallTextFile(base + "max_energy_range_uj");
    range.push_back(r.empty() ? 0 : std::atof(r.c_str()));
  }
  closedir(dir);
}

std::optional<double> EnergyMeter::readNvmlJoules() {
  unsigned long long mj = 0;
  if (nvmlEnergy(nvmlDevice, &mj) != 0)
    return std::nullopt;
  double delta = static_cast<double>(mj) - nvmlLast;
  nvmlLast = static_cast<double>(mj);
  return delta / 1000.0;
}

std::optional<double> EnergyMeter::readJoulesSinceLast() {
  if (nvmlEnergy)
    return readNvmlJoules();
  if (paths.empty())
    return std::nullopt;
  // Every counter is read before any is taken as the new start, so that
  // one unreadable domain leaves all of them where they were.
  std::vector<double> now;
  for (const std::string &path : paths) {
    std::string value = readSmallTextFile(path);
    if (value.empty())
      return std::nullopt;
    now.push_back(std::atof(value.c_str()));
  }
  double total = 0;
  for (size_t i = 0; i < paths.size(); ++i) {
    double delta = now[i] - last[i];
    if (delta < 0 && range[i] > 0) // the counter wrapped
      delta += range[i];
    total += delta;
  }
  last = std::move(now);
  return total / 1e6;
}
