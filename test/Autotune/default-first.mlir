// The tuner measures dltune's heuristic default configuration first, so a
// short run never ends worse than no tuning: with one trial, the one
// measured configuration is the one --dltune-annotate's default-config
// attaches (compared knob by knob).
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true" -o %t/default.mlir
// RUN: grep -o '#dltune.config<[^>]*>' %t/default.mlir | sed -e 's/#dltune.config<//' -e 's/>//' -e 's/ = /=/g' | tr -d ' ' | tr ',' '\n' | sort > %t/default.txt
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/d.db trials=1 confirm-top=0 quiet=true" -o /dev/null
// RUN: dltune db records --db %t/d.db > %t/records.txt
// RUN: wc -l < %t/records.txt | FileCheck %s
// CHECK: {{^}}1{{$}}
// RUN: cut -d' ' -f2 %t/records.txt | tr ',' '\n' | sort > %t/measured.txt
// RUN: diff %t/default.txt %t/measured.txt

func.func @mm(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
                     outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}
