// Imports type-check every field: an invalid record is reported as
// file:line (every one of them) and nothing is imported from that file.
// RUN: rm -rf %t && split-file %s %t
//
// JSON lines: a non-string space used to abort, "abc" times and configs
// outside the space used to be imported.
// RUN: not dltune db import %t/space-not-string.jsonl --db %t/a.db 2>&1 | FileCheck %s --check-prefix=SPACE
// RUN: not dltune db import %t/time-abc.jsonl --db %t/a.db 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: not dltune db import %t/outside.jsonl --db %t/a.db 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: not dltune db import %t/mixed.jsonl --db %t/a.db 2>&1 | FileCheck %s --check-prefix=MIXED
// Confirmations and baselines (a zero median would always be the best).
// RUN: not dltune db import %t/confirmations.jsonl --db %t/a.db 2>&1 | FileCheck %s --check-prefix=CONFIRM
// Tuner notes and end-to-end model timings (these have no task).
// RUN: not dltune db import %t/notes.jsonl --db %t/a.db 2>&1 | FileCheck %s --check-prefix=NOTES
// A failed import into a new database leaves no database behind.
// RUN: not dltune db summary --db %t/a.db 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: dltune db import %t/good.jsonl --db %t/a.db | FileCheck %s --check-prefix=GOOD
//
// TopHub logs and Kernel Tuner caches.
// RUN: not dltune db import-tophub %t/tophub.log --db %t/a.db 2>&1 | FileCheck %s --check-prefix=TOPHUB
// RUN: not dltune db import-kt %t/kt-device.json --db %t/a.db 2>&1 | FileCheck %s --check-prefix=KTDEVICE
// RUN: not dltune db import-kt %t/kt-entries.json --db %t/a.db 2>&1 | FileCheck %s --check-prefix=KTENTRIES
// RUN: dltune db summary --db %t/a.db | FileCheck %s --check-prefix=ONE
// Repeats written as [x, time] pairs (some Kernel Tuner versions) are accepted.
// RUN: dltune db import-kt %t/kt-pairs.json --db %t/a.db | FileCheck %s --check-prefix=PAIRS

// SPACE: dltune: error: {{.*}}space-not-string.jsonl:1: task.space must be a string, not number 42 (nothing was imported)
// TIME: dltune: error: {{.*}}time-abc.jsonl:1: record.time_ms must be a number, not string "abc" (nothing was imported)
// OUTSIDE: dltune: error: {{.*}}outside.jsonl:1: record.config 'tile=3' is outside the task's space: value 3 of knob 'tile' is not among its candidates (nothing was imported)

// MIXED: dltune: error: {{.*}}mixed.jsonl:2: invalid JSON
// MIXED-NEXT: {{.*}}mixed.jsonl:3: record.status 'fast' is not a known status
// MIXED-NEXT: {{.*}}mixed.jsonl:4: record.time_ms of an ok record must be a positive number
// MIXED-NEXT: {{.*}}mixed.jsonl:5: record.config 'tile=8' is outside the task's space: violates constraint 'tile <= N' (tile = 8, N = 4)
// MIXED-NEXT: {{.*}}mixed.jsonl:6: record.config 'tile = 2' is not in canonical form (expected 'tile=2')
// MIXED-NEXT: {{.*}}mixed.jsonl:7: record.repeats must be an integer in [0, 2147483647], not number 2.5
// MIXED-NEXT: {{.*}}mixed.jsonl:8: task 00000000000000aa differs from the task with the same hash on line 1
// MIXED-NEXT: {{.*}}mixed.jsonl:9: device.fingerprint is missing
// MIXED-NEXT: {{.*}}mixed.jsonl:10: format is 'v0', not 'dltune-record-v1', 'dltune-confirmation-v1', 'dltune-baseline-v1', 'dltune-note-v1', 'dltune-model-latency-v1', 'dltune-study-v1', 'dltune-study-interval-v1' or 'dltune-study-stop-v1'
// MIXED-NEXT: {{.*}}mixed.jsonl: 9 invalid records (nothing was imported)

// CONFIRM: dltune: error: {{.*}}confirmations.jsonl:2: confirmation.median_ms must be a positive number or null
// CONFIRM-NEXT: {{.*}}confirmations.jsonl:3: confirmation.created_at is missing
// CONFIRM-NEXT: {{.*}}confirmations.jsonl:4: confirmation.config 'tile=8' is outside the task's space: violates constraint 'tile <= N' (tile = 8, N = 4)
// CONFIRM-NEXT: {{.*}}confirmations.jsonl:5: confirmation.rounds must be an integer in [0, 2147483647], not number -1
// CONFIRM-NEXT: {{.*}}confirmations.jsonl:6: baseline.untuned_ms must be a positive number
// CONFIRM-NEXT: {{.*}}confirmations.jsonl:7: baseline.untuned_ms is missing
// CONFIRM-NEXT: {{.*}}confirmations.jsonl:8: confirmation is missing
// CONFIRM-NEXT: {{.*}}confirmations.jsonl: 7 invalid records (nothing was imported)

// NOTES: dltune: error: {{.*}}notes.jsonl:2: note.kind must not be empty
// NOTES-NEXT: {{.*}}notes.jsonl:3: note.created_at must be a positive number of seconds
// NOTES-NEXT: {{.*}}notes.jsonl:4: note.message must be a string, not number 7
// NOTES-NEXT: {{.*}}notes.jsonl:6: model_latency.entry is missing
// NOTES-NEXT: {{.*}}notes.jsonl:7: model_latency.tuned_ms must not be negative
// NOTES-NEXT: {{.*}}notes.jsonl:8: device is missing
// NOTES-NEXT: {{.*}}notes.jsonl: 6 invalid records (nothing was imported)

// EMPTY: database '{{.*}}a.db' does not exist
// GOOD: imported 2 records (0 already present) in 1 tasks

// TOPHUB: dltune: error: {{.*}}tophub.log:2: not an AutoTVM log record: result[1] must be an AutoTVM error number (0-8), not number 9
// TOPHUB-NEXT: {{.*}}tophub.log:3: not an AutoTVM log record: costs must be numbers, not string "fast"
// TOPHUB-NEXT: {{.*}}tophub.log:4: not an AutoTVM log record: input must be [target, task name, [arguments], ...]
// TOPHUB-NEXT: {{.*}}tophub.log:5: not an AutoTVM log record: an ok result needs positive costs
// TOPHUB-NEXT: {{.*}}tophub.log: 4 invalid records (nothing was imported)

// KTDEVICE: dltune: error: '{{.*}}kt-device.json': device_name must be a string, not number 3090 (nothing was imported)
// KTENTRIES: dltune: error: {{.*}}kt-entries.json: cache entry '32,3': value 3 of knob 'tile' is not in tune_params
// KTENTRIES-NEXT: {{.*}}kt-entries.json: cache entry '64,1': time 'Slow' is neither a number nor a Kernel Tuner failure (CompilationFailedConfig, RuntimeFailedConfig, InvalidConfig)
// KTENTRIES-NEXT: {{.*}}kt-entries.json: cache entry '64,2': has no integer value for knob 'block_x'
// KTENTRIES-NEXT: {{.*}}kt-entries.json: cache entry '64,2b': repeats the configuration of another entry
// KTENTRIES-NEXT: {{.*}}kt-entries.json: 4 invalid records (nothing was imported)

// ONE: 1 tasks, 1 devices
// ONE: 2 records
// PAIRS: imported 2 records (0 already present) in 1 tasks

//--- space-not-string.jsonl
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "space": 42}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile=2", "status": "ok", "time_ms": 1.0}}
//--- time-abc.jsonl
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile=2", "status": "ok", "time_ms": "abc"}}
//--- outside.jsonl
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile=3", "status": "ok", "time_ms": 1.0}}
//--- mixed.jsonl
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile=1", "status": "ok", "time_ms": 1.0}}
{"format": "dltune-record-v1", "task": {
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile=2", "status": "fast", "time_ms": 1.0}}
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile=2", "status": "ok", "time_ms": null}}
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile=8", "status": "ok", "time_ms": 1.0}}
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile = 2", "status": "ok", "time_ms": 1.0}}
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile=2", "status": "ok", "time_ms": 1.0, "repeats": 2.5}}
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "op_kind": "other", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile=2", "status": "ok", "time_ms": 1.0}}
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa"}, "device": {"name": "x"}, "record": {"config": "tile=2", "status": "ok", "time_ms": 1.0}}
{"format": "v0", "task": {}, "device": {}, "record": {}}
//--- notes.jsonl
{"format": "dltune-note-v1", "task": {"hash": "00000000000000aa"}, "device": {"fingerprint": "cpu-1"}, "note": {"kind": "note", "message": "transfer: x", "created_at": 100}}
{"format": "dltune-note-v1", "task": {"hash": "00000000000000aa"}, "device": {"fingerprint": "cpu-1"}, "note": {"kind": "", "message": "x", "created_at": 100}}
{"format": "dltune-note-v1", "task": {"hash": "00000000000000aa"}, "device": {"fingerprint": "cpu-1"}, "note": {"kind": "note", "message": "x", "created_at": 0}}
{"format": "dltune-note-v1", "task": {"hash": "00000000000000aa"}, "device": {"fingerprint": "cpu-1"}, "note": {"kind": "note", "message": 7, "created_at": 100}}
{"format": "dltune-model-latency-v1", "device": {"fingerprint": "cpu-1"}, "model_latency": {"model": "m.mlir", "entry": "main", "default_ms": 2.0, "tuned_ms": 1.0, "checked": true, "created_at": 100}}
{"format": "dltune-model-latency-v1", "device": {"fingerprint": "cpu-1"}, "model_latency": {"model": "m.mlir", "default_ms": 2.0, "tuned_ms": 1.0, "checked": true, "created_at": 100}}
{"format": "dltune-model-latency-v1", "device": {"fingerprint": "cpu-1"}, "model_latency": {"model": "m.mlir", "entry": "main", "default_ms": 2.0, "tuned_ms": -1, "checked": true, "created_at": 100}}
{"format": "dltune-model-latency-v1", "model_latency": {"model": "m.mlir", "entry": "main", "created_at": 100}}
//--- confirmations.jsonl
{"format": "dltune-confirmation-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "confirmation": {"config": "tile=1", "rounds": 3, "median_ms": 1.0, "created_at": 100}}
{"format": "dltune-confirmation-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "confirmation": {"config": "tile=2", "rounds": 3, "median_ms": 0, "created_at": 100}}
{"format": "dltune-confirmation-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "confirmation": {"config": "tile=2", "rounds": 3, "median_ms": 1.0}}
{"format": "dltune-confirmation-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "confirmation": {"config": "tile=8", "rounds": 3, "median_ms": 1.0, "created_at": 100}}
{"format": "dltune-confirmation-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "confirmation": {"config": "tile=4", "rounds": -1, "median_ms": null, "created_at": 100}}
{"format": "dltune-baseline-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "baseline": {"untuned_ms": 0}}
{"format": "dltune-baseline-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "baseline": {}}
{"format": "dltune-confirmation-v1", "task": {"hash": "00000000000000aa", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1"}, "record": {"config": "tile=1", "status": "ok", "time_ms": 1.0}}
//--- good.jsonl
# A comment line, then two records of one task.
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "op_kind": "linalg.matmul", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1", "name": "cpu"}, "record": {"config": "tile=1", "status": "ok", "time_ms": 1.0, "min_ms": 0.9, "max_ms": 1.1, "repeats": 3, "noisy": false, "energy_j": null}}
{"format": "dltune-record-v1", "task": {"hash": "00000000000000aa", "op_kind": "linalg.matmul", "space": "knobs{tile=[1,2,4,8];}params{N=4;}constraints{tile <= N;}"}, "device": {"fingerprint": "cpu-1", "name": "cpu"}, "record": {"config": "tile=4", "status": "compile_error", "time_ms": null, "error": "boom"}}
//--- tophub.log
{"input": ["llvm", "dense.x86", [["TENSOR", [1, 8], "float32"]], {}], "config": {"index": 1, "entity": [["tile_x", "sp", [-1, 8]]]}, "result": [[0.0001], 0, 1.5, 1600000000.0]}
{"input": ["llvm", "dense.x86", [["TENSOR", [1, 8], "float32"]], {}], "config": {"index": 2, "entity": [["tile_x", "sp", [-1, 4]]]}, "result": [[0.0001], 9, 1.5, 1600000000.0]}
{"input": ["llvm", "dense.x86", [["TENSOR", [1, 8], "float32"]], {}], "config": {"index": 3, "entity": [["tile_x", "sp", [-1, 2]]]}, "result": [["fast"], 0, 1.5, 1600000000.0]}
{"input": [1, "dense.x86", [["TENSOR", [1, 8], "float32"]], {}], "config": {"index": 4, "entity": []}, "result": [[0.0001], 0, 1.5, 1600000000.0]}
{"input": ["llvm", "dense.x86", [["TENSOR", [1, 8], "float32"]], {}], "config": {"index": 5, "entity": []}, "result": [[], 0, 1.5, 1600000000.0]}
//--- kt-device.json
{"device_name": 3090, "kernel_name": "k", "problem_size": 1024, "tune_params_keys": ["block_x"],
 "tune_params": {"block_x": [32, 64]}, "cache": {"32": {"block_x": 32, "time": 1.0}}}
//--- kt-entries.json
{"device_name": "GPU", "kernel_name": "k", "problem_size": [1024, 1024],
 "tune_params_keys": ["block_x", "tile"], "tune_params": {"block_x": [32, 64], "tile": [1, 2]},
 "cache": {
  "32,1": {"block_x": 32, "tile": 1, "time": 1.0},
  "32,3": {"block_x": 32, "tile": 3, "time": 1.0},
  "64,1": {"block_x": 64, "tile": 1, "time": "Slow"},
  "64,2": {"block_x": "64", "tile": 2, "time": 1.0},
  "32,2": {"block_x": 32, "tile": 2, "time": "CompilationFailedConfig"},
  "64,2b": {"block_x": 32, "tile": 1, "time": 2.0}
 }}
//--- kt-pairs.json
{"device_name": "GPU", "kernel_name": "k", "problem_size": 64, "tune_params_keys": ["block_x"],
 "tune_params": {"block_x": [32, 64]},
 "cache": {"32": {"block_x": 32, "time": 1.0, "times": [[0, 1.5], [0, 1.4]]},
           "64": {"block_x": 64, "time": 2.0, "times": [2.0, 2.1]}}}
