#!/usr/bin/env node
// Times one ONNX model in ONNX Runtime (onnxruntime-node) on the CPU, for
// bench/models.py's `ort` column:
//
//   node bench/ort_runner.js MODEL.onnx INPUT.npy [--threads N] [--warmup W]
//        [--repeat R] [--save-output OUT.npy] [--profile PREFIX]
//        [--graph-optimization disabled|basic|extended|all]
//
// The InferenceSession is set up as a user who wants one model's latency would set it
// up: intraOpNumThreads = N, interOpNumThreads = 1, sequential execution, all
// graph optimisations. INPUT.npy (float32, C order; the input the bench gives
// dltune) feeds the model's first input. W untimed calls, then R timed calls;
// prints one JSON line: median/min/max ms, the output's shape, sum and sum of
// absolute values, and with --save-output the output as float32 .npy.
// --profile PREFIX turns on ONNX Runtime's profiler (enableProfiling,
// profileFilePrefix = PREFIX) for the warm-up and timed calls; the trace (Chrome
// trace format JSON, one "Node" event per kernel call) is written when the
// InferenceSession ends profiling and its path is printed as "profile" in the JSON line
// (bench/layer_breakdown.py reads it). Without it nothing changes.
// Install (not needed by CI): `npm install --ignore-scripts --no-save
// --no-package-lock --prefix bench onnxruntime-node` (bench/README.md).
'use strict';

const fs = require('fs');
const ort = require('onnxruntime-node');

function usage(msg) {
  process.stderr.write(`ort_runner.js: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const a = {threads: 1, warmup: 1, repeat: 3, saveOutput: null, profile: null,
             graphOptimization: 'all', positional: []};
  for (let i = 0; i < argv.length; ++i) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${flag} needs a value`);
      return argv[++i];
    };
    const count = (min) => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < min) usage(`${flag} needs an integer >= ${min}`);
      return n;
    };
    if (flag === '--threads') a.threads = count(1);
    else if (flag === '--warmup') a.warmup = count(0);
    else if (flag === '--repeat') a.repeat = count(1);
    else if (flag === '--save-output') a.saveOutput = value();
    else if (flag === '--profile') a.profile = value();
    else if (flag === '--graph-optimization') {
      // 'extended' leaves out the NCHWc layout transformer ('all' only).
      a.graphOptimization = value();
      if (!['disabled', 'basic', 'extended', 'all'].includes(a.graphOptimization))
        usage(`${flag} must be disabled, basic, extended or all`);
    }
    else if (flag.startsWith('--')) usage(`unknown option ${flag}`);
    else a.positional.push(flag);
  }
  if (a.positional.length !== 2) usage('expected MODEL.onnx INPUT.npy');
  return a;
}

// Reads a float32 little-endian C-order .npy (format versions 1-3).
function readNpy(path) {
  const buf = fs.readFileSync(path);
  if (buf.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${path}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12);
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const order = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !order || !shape) throw new Error(`${path}: unreadable header ${header}`);
  if (descr[1] !== '<f4') throw new Error(`${path}: dtype ${descr[1]}, expected <f4`);
  if (order[1] !== 'False') throw new Error(`${path}: Fortran order is not supported`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  const count = dims.reduce((p, d) => p * d, 1);
  const offset = start + headerLen;
  if (buf.length - offset !== 4 * count)
    throw new Error(`${path}: ${buf.length - offset} data bytes for shape (${dims})`);
  // Copy into an aligned buffer: the file's data need not be 4-byte aligned.
  const data = new Float32Array(count);
  Buffer.from(data.buffer).set(buf.subarray(offset, offset + 4 * count));
  return {dims, data};
}

function writeNpy(path, dims, data) {
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`;
  // Pad so that the data starts on a 64-byte boundary, ending with '\n'.
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header = header.padEnd(total - 10 - 1, ' ') + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  fs.writeFileSync(path, Buffer.concat([
    head, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

function median(values) {
  const s = [...values].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const [modelPath, inputPath] = a.positional;
  const input = readNpy(inputPath);
  const options = {
    executionProviders: ['cpu'],
    intraOpNumThreads: a.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: a.graphOptimization,
  };
  const path = require('path');
  const profileDir = a.profile ? path.dirname(path.resolve(a.profile)) : null;
  const profileBase = a.profile ? path.basename(a.profile) : null;
  const filesBefore = a.profile ? new Set(fs.readdirSync(profileDir)) : null;
  if (a.profile) {
    options.enableProfiling = true;
    options.profileFilePrefix = a.profile;
  }
  const session = await ort.InferenceSession.create(modelPath, options);
  if (session.inputNames.length !== 1)
    throw new Error(`${modelPath}: ${session.inputNames.length} inputs, expected 1`);
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', input.data, input.dims)};
  const outputName = session.outputNames[0];
  let result;
  for (let i = 0; i < a.warmup; ++i) result = await session.run(feeds);
  const times = [];
  for (let i = 0; i < a.repeat; ++i) {
    const t = process.hrtime.bigint();
    result = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const out = result[outputName];
  if (out.type !== 'float32') throw new Error(`output ${outputName} is ${out.type}, expected float32`);
  let sum = 0;
  let absSum = 0;
  for (const v of out.data) {
    sum += v;
    absSum += Math.abs(v);
  }
  if (a.saveOutput) writeNpy(a.saveOutput, out.dims, out.data);
  let profile;
  if (a.profile) {
    // The session writes PREFIX_<date>.json; endProfiling() completes it.
    session.endProfiling();
    const written = fs.readdirSync(profileDir).filter(
        (f) => f.startsWith(profileBase) && f.endsWith('.json') && !filesBefore.has(f));
    if (written.length !== 1)
      throw new Error(`--profile: expected one new ${profileBase}*.json in ${profileDir}, ` +
                      `found ${written.length}`);
    profile = path.join(profileDir, written[0]);
  }
  process.stdout.write(JSON.stringify({
    ort_version: require('onnxruntime-node/package.json').version,
    threads: a.threads,
    warmup: a.warmup,
    repeat: a.repeat,
    median_ms: median(times),
    min_ms: Math.min(...times),
    max_ms: Math.max(...times),
    times_ms: times,
    output: {name: outputName, shape: out.dims, sum, abs_sum: absSum},
    ...(profile ? {profile} : {}),
  }) + '\n');
  await session.release();
}

main().catch((e) => {
  process.stderr.write(`ort_runner.js: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
