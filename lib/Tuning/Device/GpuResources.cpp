//===- GpuResources.cpp - What a GPU kernel uses, and device limits -------===//

#include "dltune/Tuning/Device/GpuResources.h"
#include "dltune/Tuning/Support/Error.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir::dltune;

/// The integer just before `unit` in `line` ("40 registers" -> 40), or -1.
static int64_t numberBefore(llvm::StringRef line, llvm::StringRef unit) {
  size_t at = line.find(unit);
  if (at == llvm::StringRef::npos)
    return -1;
  llvm::StringRef head = line.take_front(at).rtrim();
  size_t start = head.find_last_not_of("0123456789");
  llvm::StringRef digits = start == llvm::StringRef::npos ? head : head.drop_front(start + 1);
  int64_t v;
  if (digits.empty() || digits.getAsInteger(10, v))
    return -1;
  return v;
}

llvm::Expected<std::vector<GpuKernelResources>>
mlir::dltune::parsePtxasVerboseLog(llvm::StringRef log) {
  // ptxas info    : Compiling entry function 'k' for 'sm_90'
  // ptxas info    : Function properties for k
  //     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  // ptxas info    : Used 40 registers, used 1 barriers, 8192 bytes smem, ...
  std::vector<GpuKernelResources> kernels;
  bool sawUsage = true;
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim();
    if (line.contains("Compiling entry function")) {
      if (!sawUsage)
        return makeError("ptxas log: no register usage for entry function '" +
                         kernels.back().kernel + "'");
      size_t open = line.find('\'');
      size_t close = open == llvm::StringRef::npos ? open : line.find('\'', open + 1);
      if (close == llvm::StringRef::npos)
        return makeError("ptxas log: cannot read the function name in '" + line + "'");
      GpuKernelResources k;
      k.kernel = line.slice(open + 1, close).str();
      kernels.push_back(std::move(k));
      sawUsage = false;
      continue;
    }
    if (kernels.empty())
      continue;
    GpuKernelResources &k = kernels.back();
    if (line.contains("bytes stack frame")) {
      k.stackBytes = std::max<int64_t>(0, numberBefore(line, "bytes stack frame"));
      k.spillStoreBytes = std::max<int64_t>(0, numberBefore(line, "bytes spill stores"));
      k.spillLoadBytes = std::max<int64_t>(0, numberBefore(line, "bytes spill loads"));
    } else if (line.contains("Used ") && line.contains("registers")) {
      k.registers = numberBefore(line, "registers");
      if (k.registers < 0)
        return makeError("ptxas log: cannot read the register count in '" + line + "'");
      k.barriers = std::max<int64_t>(0, numberBefore(line, "barriers"));
      k.sharedBytes = std::max<int64_t>(0, numberBefore(line, "bytes smem"));
      sawUsage = true;
    }
  }
  if (!sawUsage)
    return makeError("ptxas log: no register usage for entry function '" +
                     kernels.back().kernel + "'");
  return kernels;
}

namespace {
struct LimitField {
  const char *name;
  int64_t GpuLimits::*field;
};
constexpr LimitField kLimitFields[] = {
    {"threads", &GpuLimits::maxThreadsPerBlock},
    {"registers_per_thread", &GpuLimits::maxRegistersPerThread},
    {"registers_per_block", &GpuLimits::maxRegistersPerBlock},
    {"shared_per_block", &GpuLimits::maxStaticSharedBytesPerBlock},
    {"shared_optin_per_block", &GpuLimits::maxSharedBytesPerBlockOptIn},
    {"shared_per_sm", &GpuLimits::maxSharedBytesPerMultiprocessor}};
} // namespace

std::string mlir::dltune::formatGpuLimits(const GpuLimits &limits) {
  std::string out;
  for (const LimitField &f : kLimitFields)
    out += (out.empty() ? "" : ",") + std::string(f.name) + "=" +
           std::to_string(limits.*f.field);
  return out;
}

llvm::Expected<GpuLimits> mlir::dltune::parseGpuLimits(llvm::StringRef text) {
  GpuLimits limits;
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    auto [name, value] = item.trim().split('=');
    const LimitField *field = nullptr;
    for (const LimitField &f : kLimitFields)
      if (name == f.name)
        field = &f;
    if (!field)
      return makeError("GPU limits: unknown limit '" + name + "'");
    int64_t v;
    if (value.getAsInteger(10, v) || v <= 0)
      return makeError("GPU limits: '" + name + "' needs a positive integer, got '" + value +
                       "'");
    limits.*(field->field) = v;
  }
  return limits;
}

int64_t mlir::dltune::getRegistersPerBlock(const GpuKernelResources &kernel) {
  int64_t perWarp = (kernel.registers * 32 + 255) / 256 * 256;
  int64_t warps = (kernel.threadsPerBlock + 31) / 32;
  return perWarp * warps;
}

llvm::Error mlir::dltune::checkGpuLimits(const GpuKernelResources &k,
                                         const GpuLimits &limits) {
  std::string where = "kernel '" + k.kernel + "'";
  if (k.threadsPerBlock > limits.maxThreadsPerBlock)
    return makeError(where + " exceeds the device's limits: " +
                     llvm::Twine(k.threadsPerBlock) + " threads per block (limit " +
                     llvm::Twine(limits.maxThreadsPerBlock) + ")");
  if (k.registers > limits.maxRegistersPerThread)
    return makeError(where + " exceeds the device's limits: " + llvm::Twine(k.registers) +
                     " registers per thread (limit " +
                     llvm::Twine(limits.maxRegistersPerThread) + ")");
  if (k.threadsPerBlock > 0 && getRegistersPerBlock(k) > limits.maxRegistersPerBlock)
    return makeError(where + " exceeds the device's limits: " + llvm::Twine(k.registers) +
                     " registers per thread x " + llvm::Twine(k.threadsPerBlock) +
                     " threads = " + llvm::Twine(getRegistersPerBlock(k)) +
                     " registers per block (limit " +
                     llvm::Twine(limits.maxRegistersPerBlock) + ")");
  if (k.sharedBytes > limits.maxStaticSharedBytesPerBlock)
    return makeError(where + " exceeds the device's limits: " + llvm::Twine(k.sharedBytes) +
                     " bytes of static shared memory per block (limit " +
                     llvm::Twine(limits.maxStaticSharedBytesPerBlock) + ")");
  int64_t shared = k.sharedBytes + k.dynamicSharedBytes;
  if (k.dynamicSharedBytes > 0 && shared > limits.maxSharedBytesPerBlockOptIn)
    return makeError(where + " exceeds the device's limits: " + llvm::Twine(k.sharedBytes) +
                     " bytes of static and " + llvm::Twine(k.dynamicSharedBytes) +
                     " of dynamic shared memory per block (limit " +
                     llvm::Twine(limits.maxSharedBytesPerBlockOptIn) + ")");
  if (shared > limits.maxSharedBytesPerMultiprocessor)
    return makeError(where + " exceeds the device's limits: " + llvm::Twine(shared) +
                     " bytes of shared memory (limit per multiprocessor " +
                     llvm::Twine(limits.maxSharedBytesPerMultiprocessor) + ")");
  return llvm::Error::success();
}

llvm::Error mlir::dltune::checkGpuLimits(const std::vector<GpuKernelResources> &kernels,
                                         const GpuLimits &limits) {
  for (const GpuKernelResources &k : kernels)
    if (llvm::Error e = checkGpuLimits(k, limits))
      return e;
  return llvm::Error::success();
}

llvm::json::Array mlir::dltune::toJSON(const std::vector<GpuKernelResources> &kernels) {
  llvm::json::Array out;
  for (const GpuKernelResources &k : kernels)
    out.push_back(llvm::json::Object{{"kernel", k.kernel},
                                     {"registers", k.registers},
                                     {"shared_bytes", k.sharedBytes},
                                     {"stack_bytes", k.stackBytes},
                                     {"spill_store_bytes", k.spillStoreBytes},
                                     {"spill_load_bytes", k.spillLoadBytes},
                                     {"barriers", k.barriers},
                                     {"threads_per_block", k.threadsPerBlock},
                                     {"dynamic_shared_bytes", k.dynamicSharedBytes}});
  return out;
}

llvm::Expected<std::vector<GpuKernelResources>>
mlir::dltune::gpuResourcesFromJSON(const llvm::json::Value &value) {
  const llvm::json::Array *array = value.getAsArray();
  if (!array)
    return makeError("GPU resources: expected a JSON array");
  std::vector<GpuKernelResources> out;
  for (const llvm::json::Value &v : *array) {
    const llvm::json::Object *o = v.getAsObject();
    std::optional<llvm::StringRef> name = o ? o->getString("kernel") : std::nullopt;
    if (!name)
      return makeError("GPU resources: every entry needs a \"kernel\" name");
    GpuKernelResources k;
    k.kernel = name->str();
    struct Field {
      const char *key;
      int64_t *dst;
    };
    for (Field f : {Field{"registers", &k.registers}, Field{"shared_bytes", &k.sharedBytes},
                    Field{"stack_bytes", &k.stackBytes},
                    Field{"spill_store_bytes", &k.spillStoreBytes},
                    Field{"spill_load_bytes", &k.spillLoadBytes},
                    Field{"barriers", &k.barriers},
                    Field{"threads_per_block", &k.threadsPerBlock},
                    Field{"dynamic_shared_bytes", &k.dynamicSharedBytes}}) {
      const llvm::json::Value *field = o->get(f.key);
      if (!field)
        continue;
      std::optional<int64_t> n = field->getAsInteger();
      if (!n || *n < 0)
        return makeError("GPU resources: \"" + llvm::Twine(f.key) + "\" of kernel '" +
                         k.kernel + "' is not a non-negative integer");
      *f.dst = *n;
    }
    out.push_back(std::move(k));
  }
  return out;
}
