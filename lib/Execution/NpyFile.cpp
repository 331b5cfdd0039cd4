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

namespace {
/// What the header says: the buffer type and where its data starts.
struct NpyHeader {
  BufferType type;
  size_t dataStart = 0, dataBytes = 0;
  std::string description; // "shape (2, 3) of <f4", for errors
};

/// The largest header dltune reads; NumPy's own are under 100 bytes.
constexpr size_t kMaxHeaderBytes = 1 << 20;

/// Where the header dict starts and ends, from the first 12 bytes (or all
/// there are).
llvm::Expected<std::pair<size_t, size_t>> locateHeader(llvm::StringRef bytes) {
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
  if (headerLen > kMaxHeaderBytes)
    return npyError("a header of " + llvm::Twine(headerLen) + " bytes is not a NumPy header");
  return std::make_pair(headerStart, headerLen);
}

/// Parses the header in `bytes` (which holds at least the whole header).
llvm::Expected<NpyHeader> parseHeader(llvm::StringRef bytes) {
  llvm::Expected<std::pair<size_t, size_t>> at = locateHeader(bytes);
  if (!at)
    return at.takeError();
  auto [headerStart, headerLen] = *at;
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
  NpyHeader h;
  bool found = false;
  llvm::StringRef d = descr->trim("'\"");
  for (const DescrName &n : kDescrs)
    if (d == n.descr) {
      h.type.element = n.kind;
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
    h.type.shape.push_back(int64_t(v));
    if (v && elements > (int64_t(1) << 40) / int64_t(v))
      return npyError("shape " + *shapeText + " is too large");
    elements *= int64_t(v);
  }
  h.dataStart = headerStart + headerLen;
  h.dataBytes = size_t(elements) * h.type.getElementBytes();
  h.description = ("shape " + *shapeText + " of " + d).str();
  return h;
}
} // namespace

llvm::Expected<HostBuffer> mlir::dltune::parseNpy(llvm::StringRef bytes) {
  llvm::Expected<NpyHeader> h = parseHeader(bytes);
  if (!h)
    return h.takeError();
  if (bytes.size() - h->dataStart != h->dataBytes)
    return npyError(llvm::Twine(bytes.size() - h->dataStart) + " bytes of data for " +
                    h->description + " (" + llvm::Twine(h->dataBytes) + " expected)");
  HostBuffer buffer(h->type);
  if (h->dataBytes)
    std::memcpy(buffer.data(), bytes.data() + h->dataStart, h->dataBytes);
  return buffer;
}

llvm::Expected<HostBuffer> mlir::dltune::readNpyFile(const std::string &path) {
  // Read as far as the header says and no further: a device or a pipe
  // (/dev/zero) never makes this read without end.
  llvm::Expected<llvm::sys::fs::file_t> fd = llvm::sys::fs::openNativeFileForRead(path);
  if (!fd)
    return npyError("cannot read '" + path + "': " + llvm::toString(fd.takeError()));
  struct Closer {
    llvm::sys::fs::file_t fd;
    ~Closer() { llvm::sys::fs::closeFile(fd); }
  } closer{*fd};
  auto readExactly = [&](char *into, size_t n) -> llvm::Expected<size_t> {
    size_t got = 0;
    while (got < n) {
      llvm::Expected<size_t> r = llvm::sys::fs::readNativeFile(
          *fd, llvm::MutableArrayRef<char>(into + got, std::min<size_t>(n - got, 1 << 30)));
      if (!r)
        return r.takeError();
      if (*r == 0)
        break;
      got += *r;
    }
    return got;
  };
  auto fail = [&](llvm::Error e) {
    return npyError("'" + path + "': " + llvm::toString(std::move(e)));
  };
  std::string prefix(12, '\0');
  llvm::Expected<size_t> got = readExactly(prefix.data(), prefix.size());
  if (!got)
    return fail(got.takeError());
  prefix.resize(*got);
  llvm::Expected<std::pair<size_t, size_t>> at = locateHeader(prefix);
  if (!at)
    return fail(at.takeError());
  size_t headerEnd = at->first + at->second;
  if (headerEnd > prefix.size()) {
    size_t had = prefix.size();
    prefix.resize(headerEnd);
    llvm::Expected<size_t> more = readExactly(prefix.data() + had, headerEnd - had);
    if (!more)
      return fail(more.takeError());
    prefix.resize(had + *more);
  }
  llvm::Expected<NpyHeader> h = parseHeader(prefix);
  if (!h)
    return fail(h.takeError());
  // Bytes read past the header already belong to the data.
  size_t early = prefix.size() - std::min(prefix.size(), h->dataStart);
  if (early > h->dataBytes)
    return fail(npyError("more data than " + h->description + " holds"));
  HostBuffer buffer(h->type);
  char *data = static_cast<char *>(buffer.data());
  std::memcpy(data, prefix.data() + h->dataStart, early);
  llvm::Expected<size_t> body = readExactly(data + early, h->dataBytes - early);
  if (!body)
    return fail(body.takeError());
  if (early + *body != h->dataBytes)
    return fail(npyError(llvm::Twine(early + *body) + " bytes of data for " + h->description +
                         " (" + llvm::Twine(h->dataBytes) + " expected)"));
  char extra;
  llvm::Expected<size_t> tail = readExactly(&extra, 1);
  if (!tail)
    return fail(tail.takeError());
  if (*tail)
    return fail(npyError("more data than " + h->description + " holds"));
  return buffer;
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
  os.close();
  if (os.has_error()) {
    std::error_code error = os.error();
    os.clear_error();
    return npyError("cannot write '" + path + "': " + error.message());
  }
  return llvm::Error::success();
}
