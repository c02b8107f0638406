// The store's schema version and its forward migrations (DESIGN §3).
#pragma once

#include <QStringList>

namespace gpuf::store {

// PRAGMA application_id of every gpuf store: "GPUF" in ASCII.
inline constexpr int kApplicationId = 0x47505546;
// PRAGMA user_version this program writes; files with a larger one are refused.
// 2: lessons and human forecasters; 3: cluster_jobs, cluster_tasks; 4: measurement_verdicts; 5: the local
// measurements by binary hash (an index)
inline constexpr int kSchemaVersion = 5;

// Statements that bring a store from version `toVersion - 1` to `toVersion` (1 = create from empty).
QStringList migrationStatements(int toVersion);

} // namespace gpuf::store
