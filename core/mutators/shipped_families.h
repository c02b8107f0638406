// The kernel families that ship with gpuf (resources/families), compiled in as Qt resources together with the
// corpus problems they belong to, so `gpuf search families` and a family search work from any build or install.
#pragma once

#include "core/mutators/kernel_family.h"

namespace gpuf::families {

QString shippedFamiliesDir(); // ":/gpuf/families"
QString shippedCorpusDir(); // ":/gpuf/corpus": the problem folders the shipped families name (reference included)

Result<QList<KernelFamily>> shippedFamilies();

// A family by name from `dir` (default: the shipped ones), with the problems of `corpusDir` (default: shipped).
// The error lists the names there are.
Result<KernelFamily> findFamily(const QString &name, const QString &dir = {}, const QString &corpusDir = {});

} // namespace gpuf::families
