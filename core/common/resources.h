// Qt-side access to gpuf's shared data (see resource_dir.h for where it is looked up).
#pragma once

#include <QString>

namespace gpuf {

// The root of the shared data as a Qt path.
QString resourceDirectoryPath();

// The absolute path of a file or folder under the shared data (e.g. "corpus", "python/harness.py"), or an empty
// string when this installation has none.
QString resourcePath(const QString &relative);

} // namespace gpuf
