// The environment the application gives the processes it starts for measurements (gpuf-measure, and sbatch, squeue
// and sacct, whose jobs inherit it): an allow-list of what they need, never a variable that looks like a secret, so
// an API key exported for the forecasters reaches neither a worker nor a cluster job.
#pragma once

#include <QProcessEnvironment>

namespace gpuf::measure {

// Whether the variable `name` is passed on.
bool passesToWorker(const QString &name);

// `from` reduced to the variables that pass.
QProcessEnvironment workerEnvironment(const QProcessEnvironment &from = QProcessEnvironment::systemEnvironment());

} // namespace gpuf::measure
