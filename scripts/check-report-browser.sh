#!/usr/bin/env bash
# Opens a `dltune report` page in headless Chromium: the page must load
# without console messages, its SVG charts must be well-formed XML, it must
# reference nothing on the network, and its screenshot must not be blank.
# Chromium is installed with apt-get where this runs as root and it is
# missing; where it cannot be had the check is skipped (exit 77, which ctest
# reports as skipped).
#   scripts/check-report-browser.sh BUILD_DIR [OUT_DIR]
set -euo pipefail
build=$(cd "$1" && pwd)
out=${2:-$build/report-browser}
src=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] && [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
  echo "installing Debian's chromium for this check"
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q --no-install-recommends \
    chromium > "$build/chromium-install.log" 2>&1 || true
  browser=$(command -v chromium || true)
fi
[ -n "$browser" ] || skip "no chromium (install Debian's chromium package to run this check)"

rm -rf "$out" && mkdir -p "$out"
"$build/bin/dltune" db import "$src/test/Report/Inputs/report-two-tasks.jsonl" --db "$out/a.db" > /dev/null
"$build/bin/dltune" db import "$src/test/Report/Inputs/report-other-device.jsonl" --db "$out/b.db" > /dev/null
"$build/bin/dltune" report --db "$out/a.db" --compare "$out/b.db" -o "$out/report.html"

# Nothing from the network: the only URL is the SVG namespace.
if grep -o 'https\?://[^"]*' "$out/report.html" | grep -v '^http://www.w3.org/2000/svg$'; then
  echo "FAIL: the page references the network"; exit 1
fi

timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --enable-logging=stderr --v=0 --window-size=1280,2400 \
  --screenshot="$out/report.png" "file://$out/report.html" > "$out/chromium.log" 2>&1 || {
  cat "$out/chromium.log"; echo "FAIL: chromium did not render the page"; exit 1; }
if grep -F ':CONSOLE' "$out/chromium.log"; then
  echo "FAIL: the page logged to the console"; exit 1
fi
[ -s "$out/report.png" ] || { echo "FAIL: no screenshot"; exit 1; }

python3 - "$out/report.html" "$out/report.png" <<'PY'
import re, struct, sys, zlib
import xml.etree.ElementTree as ET

html = open(sys.argv[1], encoding="utf-8").read()
svgs = re.findall(r"<svg .*?</svg>", html, re.S)
if len(svgs) < 5:
    sys.exit(f"FAIL: {len(svgs)} charts in the page, expected at least 5")
for svg in svgs:
    ET.fromstring(svg)  # raises on malformed SVG, which browsers render silently broken

# Decode the PNG (8-bit RGB/RGBA, not interlaced, as Chromium writes it) and
# count the pixels that are not the background.
data = open(sys.argv[2], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width = 8, b"", 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        assert depth == 8 and colour in (2, 6) and interlace == 0, "unexpected PNG format"
        bpp = 4 if colour == 6 else 3
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
stride = width * bpp
prev = bytearray(stride)
inked = 0
for y in range(height):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    inked += sum(1 for x in range(0, stride, bpp) if line[x:x + 3] != b"\xff\xff\xff")
    prev = line
share = inked / (width * height)
print(f"screenshot {width}x{height}: {share:.1%} of the pixels not white; {len(svgs)} charts")
if share < 0.02:
    sys.exit("FAIL: the screenshot is (nearly) blank")
PY
echo "PASS: $out/report.png"
