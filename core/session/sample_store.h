// The sample store: made once from the bundle shipped in the resources, so a new user opens real content.
#pragma once

#include <QString>

namespace gpuf {

class StoreSession;

// Resource path of the bundled sample data (a gpuf bundle).
QString sampleBundleResource();
// Where the sample store lives: the application data folder's sample.gpuf.
QString sampleStorePath();
// Opens the sample store in `session`, building it first (in the background) when it does not exist yet or was
// built from an older bundle.
void openSampleStore(StoreSession *session);

} // namespace gpuf
