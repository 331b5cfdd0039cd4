// Item 4 and 11: buffers sized by the input are checked; a failed
// allocation is out of memory, said clearly, never a segfault; a task whose
// reference cannot run is not tuned and the exit status says so.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c 'ulimit -v 3000000; exec dltune run %s --entry huge' > %t/run.txt 2>&1; test $? = 1
// RUN: FileCheck %s --check-prefix=ALLOC < %t/run.txt
// RUN: not dltune tune %s --db %t/x.db --trials 2 --threads 1 --mem-limit-mb 1024 > %t/tune.txt 2>&1
// RUN: FileCheck %s --check-prefix=TUNE < %t/tune.txt

// ALLOC: dltune: error: out of memory: cannot allocate a 100000x100000xf32 buffer (40000000000 bytes)
// TUNE: not tuned: the untuned reference failed (out_of_memory)
// TUNE: error: 1 of 1 tasks could not be tuned

func.func @huge(%a: tensor<100000x100000xf32>, %b: tensor<100000x100000xf32>, %c: tensor<100000x100000xf32>) -> tensor<100000x100000xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<100000x100000xf32>, tensor<100000x100000xf32>)
                     outs(%c : tensor<100000x100000xf32>) -> tensor<100000x100000xf32>
  return %r : tensor<100000x100000xf32>
}
