// The per-format importers behind importFiles(); each reads one file into the open transaction and reports
// through the context. Errors read "FILE:LINE: field 'x': what is wrong".
#pragma once

#include "core/common/result.h"
#include "core/interop/interop.h"

namespace gpuf::interop {

class ImportContext;

Status importBundle(ImportContext &context, const QString &file);
// Eval set, discovery pairs or RL pool: kernel pairs with a published speedup label.
Status importPairRows(ImportContext &context, const QString &file, FileFormat format);
Status importPredictions(ImportContext &context, const QString &file);
Status importEventLog(ImportContext &context, const QString &file);
Status importHfSearchEvents(ImportContext &context, const QString &file);

} // namespace gpuf::interop
