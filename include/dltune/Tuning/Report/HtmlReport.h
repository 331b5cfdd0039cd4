//===- HtmlReport.h - A tuning database as one self-contained HTML page -*- C++ -*-===//
//
// The page of `dltune report`: inline SVG charts (SvgChart.h) and tables, no
// script, no network, readable at 1,280 px and printable. Sections: the
// model's latency over tuning time and measurements with the allocation of
// measurements to tasks, the cost, failures by class, each task's search and
// its confirmed best, the transfer notes, and optionally a second database
// side by side on the tasks both hold.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_REPORT_HTMLREPORT_H
#define DLTUNE_TUNING_REPORT_HTMLREPORT_H

#include "dltune/Tuning/Report/TuningReport.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::dltune {

/// Writes the page; `compare` (may be null) is shown beside `report` on the
/// tasks they share.
void writeHtmlReport(const TuningReport &report, const TuningReport *compare,
                     llvm::raw_ostream &os);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_REPORT_HTMLREPORT_H
