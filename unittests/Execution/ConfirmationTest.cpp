//===- ConfirmationTest.cpp - Which candidates a task re-measures ---------===//

#include "dltune/Execution/ModuleTuner.h"

#include "gtest/gtest.h"

using namespace mlir::dltune;

static void add(TuningHistory &h, Config c, double ms, MeasureStatus status = MeasureStatus::Ok,
                bool cutOff = false) {
  MeasureRecord r;
  r.status = status;
  r.timeMs = ms;
  r.cutOff = cutOff;
  h.configs.push_back(c);
  h.records.push_back(r);
  h.measured.insert(c);
}

// The default config, measured once in a slow moment, is re-measured with
// the top candidates so that its sampled time cannot decide against it.
TEST(Confirmation, DefaultIsConfirmedWhateverItsSampledTime) {
  TuningHistory h;
  add(h, {1}, 4.7); // the default, sampled in a slow phase
  add(h, {2}, 3.0);
  add(h, {3}, 2.0);
  add(h, {4}, 9.0, MeasureStatus::Ok, /*cutOff=*/true);
  add(h, {5}, 1.0, MeasureStatus::WrongResult);
  EXPECT_EQ(getConfirmationCandidates(h, 2, std::nullopt), (std::vector<size_t>{2, 1}));
  EXPECT_EQ(getConfirmationCandidates(h, 2, Config{1}), (std::vector<size_t>{2, 1, 0}));
  // Already among the top: not twice.
  EXPECT_EQ(getConfirmationCandidates(h, 3, Config{1}), (std::vector<size_t>{2, 1, 0}));
  // Not measured, cut off or failed: nothing to add.
  EXPECT_EQ(getConfirmationCandidates(h, 1, Config{9}), (std::vector<size_t>{2}));
  EXPECT_EQ(getConfirmationCandidates(h, 1, Config{4}), (std::vector<size_t>{2}));
  EXPECT_EQ(getConfirmationCandidates(h, 1, Config{5}), (std::vector<size_t>{2}));
  EXPECT_TRUE(getConfirmationCandidates(TuningHistory{}, 3, Config{1}).empty());
}
