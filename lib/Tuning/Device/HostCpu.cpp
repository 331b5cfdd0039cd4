//===- HostCpu.cpp - What the host CPU offers code generation -------------===//

#include "dltune/Tuning/Device/HostCpu.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

using namespace mlir::dltune;

std::string mlir::dltune::readSmallTextFile(const std::string &path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

static int64_t parseSize(const std::string &s) {
  if (s.empty())
    return 0;
  int64_t v = std::atoll(s.c_str());
  char unit = s.back();
  return unit == 'K' ? v * 1024 : unit == 'M' ? v * 1024 * 1024 : v;
}

HostCpu HostCpu::detect() {
  HostCpu d;
  d.cores = static_cast<int>(std::thread::hardware_concurrency());
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  static const std::set<std::string> interesting = {
      "sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_bf16",
      "avx512_fp16", "amx_tile", "neon", "asimd", "sve"};
  while (std::getline(cpuinfo, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    std::string key = line.substr(0, colon), value = line.substr(colon + 1);
    key.erase(key.find_last_not_of(" \t") + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (key == "model name" && d.model.empty())
      d.model = value;
    else if (key == "cpu MHz" && d.frequencyMHz == 0)
      d.frequencyMHz = std::atof(value.c_str());
    else if ((key == "flags" || key == "Features") && d.isaFlags.empty()) {
      std::istringstream is(value);
      std::string f;
      while (is >> f)
        if (interesting.count(f))
          d.isaFlags.push_back(f);
      std::sort(d.isaFlags.begin(), d.isaFlags.end());
    }
  }
  std::string maxFreq = readSmallTextFile("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  if (!maxFreq.empty())
    d.frequencyMHz = std::atof(maxFreq.c_str()) / 1000.0;
  for (int i = 0; i < 8; ++i) {
    std::string base = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::string level = readSmallTextFile(base + "level"), type = readSmallTextFile(base + "type");
    if (level.empty())
      continue;
    int64_t size = parseSize(readSmallTextFile(base + "size"));
    if (level == "1" && type == "Data")
      d.l1dBytes = size;
    else if (level == "2")
      d.l2Bytes = size;
    else if (level == "3")
      d.l3Bytes = size;
  }
  return d;
}

bool HostCpu::hasFlag(const std::string &flag) const {
  return std::binary_search(isaFlags.begin(), isaFlags.end(), flag);
}

int HostCpu::getF32Lanes() const {
  if (hasFlag("avx512f"))
    return 16;
  if (hasFlag("avx2") || hasFlag("avx"))
    return 8;
  return 4;
}

int HostCpu::getVectorRegisters() const {
  if (hasFlag("avx512f") || hasFlag("asimd") || hasFlag("neon"))
    return 32;
  return 16;
}
