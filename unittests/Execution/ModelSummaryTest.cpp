//===- ModelSummaryTest.cpp - The model latency line after tuning ---------===//

#include "dltune/Execution/ModuleTuner.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mlir::dltune;

static TaskSummary summary(int64_t weight, double untuned, double defaults, double best) {
  TaskSummary t;
  t.description = "task";
  t.weight = weight;
  t.untunedMs = untuned;
  t.defaultMs = defaults;
  t.bestMs = best;
  t.newTrials = 1;
  return t;
}

static std::string print(llvm::ArrayRef<TaskSummary> tasks) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printModelSummary(tasks, os);
  return text;
}

// A task with no clean record (every candidate noisy: no best) runs at its
// default configuration, which apply-best gives it, not at the unscheduled
// lowering's latency. The old rule printed "now 2.040 ms (0.10x over the
// defaults)" for this model, whose defaults run 0.2 ms.
TEST(ModelSummary, ATaskWithoutABestCountsAtItsDefault) {
  std::vector<TaskSummary> tasks = {summary(2, 1.0, 0.05, NAN), summary(1, 0.1, 0.1, 0.04)};
  std::string text = print(tasks);
  EXPECT_NE(text.find("untuned 2.100 ms, dltune's defaults 0.200 ms, now 0.140 ms (15.00x; "
                      "1.43x over the defaults)"),
            std::string::npos)
      << text;
  // Neither a best nor a default: the task runs unscheduled.
  tasks[0].defaultMs = NAN;
  text = print(tasks);
  EXPECT_NE(text.find("untuned 2.100 ms, dltune's defaults 2.100 ms, now 2.040 ms"),
            std::string::npos)
      << text;
  // A default slower than the unscheduled lowering still is what the op
  // runs: no gain over the defaults is claimed for it.
  tasks = {summary(1, 1.0, 1.5, NAN)};
  text = print(tasks);
  EXPECT_NE(text.find("untuned 1.000 ms, dltune's defaults 1.500 ms, now 1.500 ms (0.67x; "
                      "1.00x over the defaults)"),
            std::string::npos)
      << text;
}

// A GPU task's unscheduled reference runs on the CPU (seconds for a large
// matmul): the model line's baseline for it is its default configuration on
// the GPU, and the task table claims no speed-up over the CPU time. The old
// table printed a 10,638x "speed-up" for a tuned 2048^3 matmul.
TEST(ModelSummary, AGpuTaskIsComparedWithItsDefaultNotTheCpuReference) {
  TaskSummary gpu = summary(1, 42000.0, 0.5, 0.4);
  gpu.referenceOnOtherDevice = true;
  std::string text = print({gpu});
  EXPECT_NE(text.find("untuned 0.500 ms, dltune's defaults 0.500 ms, now 0.400 ms (1.25x; "
                      "1.25x over the defaults)"),
            std::string::npos)
      << text;
  std::string table;
  llvm::raw_string_ostream os(table);
  printTaskTable({gpu}, os);
  EXPECT_NE(table.find("cpu 42000.000"), std::string::npos) << table;
  EXPECT_EQ(table.find("105000.0x"), std::string::npos) << table;
  EXPECT_NE(table.find("1.25x"), std::string::npos) << table;
}
