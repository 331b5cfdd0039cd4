// dltune report on a database a real tuning run wrote: with --model the
// model's two tasks are shown weighted by their occurrences (the 32x32
// matmul twice) with the model's end-to-end timing, the tuner's notes were kept in the database, and a later
// run of another shape with transfer has its history and its guard's
// decisions in the page's transfer table.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune tune %s --threads 1 --trials 8 --min-time-ms 1 --entry two --db %t/a.db 2> %t/tune.log
// RUN: dltune tune %S/Inputs/matmul-32x48.mlir --threads 1 --trials 40 --min-time-ms 1 --transfer lms --strategy sa --cost-model xgb --db %t/a.db 2> %t/transfer.log
// RUN: dltune report --db %t/a.db --model %s --threads 1 -o %t/model.html
// RUN: FileCheck %s --check-prefix=MODEL --input-file %t/model.html
// RUN: dltune report --db %t/a.db -o %t/all.html
// RUN: FileCheck %s --check-prefix=ALL --input-file %t/all.html
// RUN: dltune db export --db %t/a.db -o %t/a.jsonl 2>&1 | FileCheck %s --check-prefix=EXPORT

// MODEL: <th class="text">model</th><td class="text">{{.*}}report-tuned.mlir</td>
// MODEL: <th class="text">records</th><td class="text">16</td>
// The model timed end to end after tuning (--entry), checked.
// MODEL: <tr data-model="{{.*}}report-tuned.mlir"><td class="text">{{.*}}report-tuned.mlir</td><td class="text">two</td>{{.*}}x</td><td class="text">ok</td>
// MODEL: <tr data-task="{{[0-9a-f]+}}"><td><a href="#task-1">1</a></td><td class="text">linalg.matmul 32x32 32x32 32x32</td><td class="text">{{.*}}</td><td>2</td>
// MODEL: <tr data-task="{{[0-9a-f]+}}"><td><a href="#task-2">2</a></td><td class="text">linalg.matmul 32x32 32x16 32x16</td><td class="text">{{.*}}</td><td>1</td>
// MODEL-NOT: 32x48
// MODEL: <li class="note">note: running the untuned reference</li>
// MODEL: <p class="transfer-none">
// MODEL-NOT: 32x48

// ALL: <th class="text">records</th><td class="text">{{[0-9]+}}</td>
// ALL: <h2 id="transfer">Transfer</h2>
// ALL: <tr data-task="{{[0-9a-f]+}}"><td>3</td><td class="text">linalg.matmul 32x32 32x48 32x48</td><td class="text">transfer: history of 2 other task(s){{.*}}transfer (lms): xgb pretrained on 16 configurations{{.*}}transfer guard: {{[0-9]+}} decision(s)

// EXPORT: exported {{[0-9]+}} records, {{[0-9]+}} confirmations, 3 baselines, {{[1-9][0-9]*}} notes, 1 model latencies

func.func @two(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>, %c: tensor<32x32xf32>, %d: tensor<32x16xf32>, %e: tensor<32x16xf32>) -> (tensor<32x32xf32>, tensor<32x16xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = linalg.matmul ins(%0, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %2 = linalg.matmul ins(%1, %d : tensor<32x32xf32>, tensor<32x16xf32>) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %1, %2 : tensor<32x32xf32>, tensor<32x16xf32>
}
