//===- NpyFile.cpp - NumPy .npy files as host buffers ---------------------===//
//
// The format (numpy/lib/format.py): the magic "\x93NUMPY", a major and a
// minor version byte, a little-endian header length (2 bytes in 1.0, 4 in
// 2.0/3.0), and an ASCII Python dict literal with 'descr', 'fortran_order'
// and 'shape', padded so that the data starts 64-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "dltune/Execution/NpyFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir::dltune;

namespace {
llvm::Error npyError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "npy: " + msg);
}

struct DescrName {
  const char *descr;
  ElementKind kind;
};
// '|' (not applicable) is what NumPy writes for one-byte types.
const DescrName kDescrs[] = {{"<f2", ElementKind::F16}, {"<f4", ElementKind::F32},
                             {"<f8", ElementKind::F64}, {"|i1", ElementKind::I8},
                             {"<i1", ElementKind::I8},  {"<i2", ElementKind::I16},
                             {"<i4", ElementKind::I32}, {"<i8", ElementKind::I64}};

/// The value of `key` in the header dict: the text after "'key':" up to
/// the next top-level ',' or '}' (a tuple's commas are inside parentheses).
llvm::Expected<llvm::StringRef> dictValue(llvm::StringRef header, llvm::StringRef key) {
  std::string quoted = "'" + key.str() + "'";
  size_t at = header.find(quoted);
  if (at == llvm::StringRef::npos)
    return npyError("header has no " + quoted + ": " + header);
  llvm::StringRef rest = header.drop_front(at + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return npyError("header: no ':' after " + quoted);
  rest = rest.ltrim();
  int depth = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      return rest.take_front(i).trim();
    if (depth < 0)
      break;
  }
  return npyError("header: unterminated value of " + quoted);
}
} // namespace

llvm::Expected<HostBuffer> mlir::dltune::parseNpy(llvm::StringRef bytes) {
  if (bytes.size() < 10 || !bytes.starts_with(llvm::StringRef("\x93NUMPY", 6)))
    return npyError("not a .npy file (no \\x93NUMPY magic)");
  unsigned major = uint8_t(bytes[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = uint8_t(bytes[8]) | (size_t(uint8_t(bytes[9])) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return npyError("truncated header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
    headerStart = 12;
  } else {
    return npyError("format version " + llvm::Twine(major) + " is not supported");
  }
  if (headerLen > bytes.size() - headerStart)
    return npyError("header runs past the end of the file");
  llvm::StringRef header = bytes.substr(headerStart, headerLen);
  llvm::Expected<llvm::StringRef> descr = dictValue(header, "descr");
  if (!descr)
    return descr.takeError();
  llvm::Expected<llvm::StringRef> order = dictValue(header, "fortran_order");
  if (!order)
    return order.takeError();
  llvm::Expected<llvm::StringRef> shapeText = dictValue(header, "shape");
  if (!shapeText)
    return shapeText.takeError();
  BufferType type;
  bool found = false;
  llvm::StringRef d = descr->trim("'\"");
  for (const DescrName &n : kDescrs)
    if (d == n.descr) {
      type.element = n.kind;
      found = true;
    }
  if (!found)
    return npyError("element type '" + d +
                    "' is not supported (little-endian f2/f4/f8/i1/i2/i4/i8 are)");
  if (*order != "False")
    return npyError("Fortran-order arrays are not supported (save with C order)");
  llvm::StringRef dims = *shapeText;
  if (!dims.consume_front("(") || !dims.consume_back(")"))
    return npyError("shape is not a tuple: " + *shapeText);
  llvm::SmallVector<llvm::StringRef> parts;
  dims.split(parts, ',');
  int64_t elements = 1;
  for (llvm::StringRef p : parts) {
    p = p.trim();
    if (p.empty())
      continue; // "(3,)" and "()"
    uint64_t v;
    if (p.getAsInteger(10, v) || v > (uint64_t(1) << 40))
      return npyError("bad dimension '" + p + "' in shape " + *shapeText);
    type.shape.push_back(int64_t(v));
    if (v && elements > (int64_t(1) << 40) / int64_t(v))
      return npyError("shape " + *shapeText + " is too large");
    elements *= int64_t(v);
  }
  size_t dataStart = headerStart + headerLen;
  size_t want = size_t(elements) * type.getElementBytes();
  if (bytes.size() - dataStart != want)
    return npyError(llvm::Twine(bytes.size() - dataStart) + " bytes of data for shape " +
                    *shapeText + " of " + d + " (" + llvm::Twine(want) + " expected)");
  HostBuffer buffer(type);
  if (want)
    std::memcpy(buffer.data(), bytes.data() + dataStart, want);
  return buffer;
}

llvm::Expected<HostBuffer> mlir::dltune::readNpyFile(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!file)
    return npyError("cannot read '" + path + "': " + file.getError().message());
  llvm::Expected<HostBuffer> b = parseNpy((*file)->getBuffer());
  if (!b)
    return npyError("'" + path + "': " + llvm::toString(b.takeError()));
  return b;
}

llvm::Expected<std::string> mlir::dltune::serializeNpy(const HostBuffer &buffer) {
  const BufferType &t = buffer.getType();
  const char *descr = nullptr;
  for (const DescrName &n : kDescrs)
    if (n.kind == t.element && !descr)
      descr = n.descr;
  if (!descr)
    return npyError("bf16 has no NumPy element type");
  std::string shape = "(";
  for (int64_t d : t.shape)
    shape += std::to_string(d) + ",";
  if (t.shape.size() > 1)
    shape.pop_back();
  shape += ")";
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces and a newline so that the data is 64-byte aligned.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  out += header;
  out.append(static_cast<const char *>(buffer.data()), t.getBytes());
  return out;
}

llvm::Error mlir::dltune::writeNpyFile(const std::string &path, const HostBuffer &buffer) {
  llvm::Expected<std::string> bytes = serializeNpy(buffer);
  if (!bytes)
    return bytes.takeError();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return npyError("cannot write '" + path + "': " + ec.message());
  os << *bytes;
  return llvm::Error::success();
}
