// A strict unified-patch applier written for the tests, independent of the diff engine's own line splitting.
#pragma once

#include <QString>

#include <optional>

namespace gpuf::test {

// Applies a patch of one file to original; std::nullopt when the patch is malformed or a hunk does not match.
std::optional<QString> applyUnifiedPatch(const QString &original, const QString &patch);

} // namespace gpuf::test
