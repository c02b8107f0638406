// Case files (issue 28): a gpuf bundle of one pair that ends with the view it was seen in (a case_view record). What
// the explorer needs to open one: whether a file is one, and its view.
#pragma once

#include "core/common/result.h"
#include "core/interop/bundle_records.h"

#include <QString>

namespace gpuf::interop {

// The suffix a case file is named with (the MIME type application/x-gpuf-case matches it).
inline constexpr const char *kCaseFileSuffix = "gpufcase";

// True when `file` is named as a case file (*.gpufcase, any case of the letters).
bool isCaseFileName(const QString &file);

// The view of the case file `file`: its header must be a gpuf bundle's and one case_view record must follow; the
// error names the file and line and says what is wrong.
Result<bundle::CaseViewRecord> readCaseView(const QString &file);

} // namespace gpuf::interop
