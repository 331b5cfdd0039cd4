//===- ColdFilterPrior.cpp - Candidates measured elsewhere, for the filter -===//

#include "dltune/Tuning/ColdFilter/ColdFilterPrior.h"
#include "dltune/Tuning/Transfer/KnobMatching.h"

using namespace mlir::dltune;

llvm::Expected<std::vector<ColdFilterPrior>>
mlir::dltune::buildColdFilterPrior(llvm::ArrayRef<KernelTunerCache> sources,
                                   llvm::ArrayRef<std::string> names,
                                   llvm::ArrayRef<Knob> targetKnobs,
                                   std::vector<std::string> &notes) {
  std::vector<ColdFilterPrior> prior;
  for (size_t s = 0; s < sources.size(); ++s) {
    const KernelTunerCache &source = sources[s];
    std::string name = s < names.size() ? names[s] : source.deviceName;
    llvm::Expected<KnobMatch> match = matchKnobsByName(source.knobs, targetKnobs, name);
    if (!match)
      return match.takeError();
    for (const std::string &knob : match->droppedSourceKnobs)
      notes.push_back("'" + name + "': knob '" + knob + "' is not in the target space; dropped");
    double best = source.getOptimumMs();
    if (!(best > 0) || !std::isfinite(best)) {
      notes.push_back("'" + name + "': no configuration ran; not used");
      continue;
    }
    for (const RecordedMeasurement &e : source.entries) {
      bool ok = e.status == MeasureStatus::Ok && e.timeMs > 0 && std::isfinite(e.timeMs);
      prior.push_back({match->toTarget(e.config), ok ? e.timeMs / best : NAN});
    }
  }
  return prior;
}
