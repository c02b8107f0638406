// The shipped kernel families; see shipped_families.h.
#include "core/mutators/shipped_families.h"

namespace gpuf::families {

QString shippedFamiliesDir() { return QStringLiteral(":/gpuf/families"); }

QString shippedCorpusDir() { return QStringLiteral(":/gpuf/corpus"); }

Result<QList<KernelFamily>> shippedFamilies() { return loadFamilies(shippedFamiliesDir(), shippedCorpusDir()); }

Result<KernelFamily> findFamily(const QString &name, const QString &dir, const QString &corpusDir)
{
    auto all = loadFamilies(
        dir.isEmpty() ? shippedFamiliesDir() : dir, corpusDir.isEmpty() ? shippedCorpusDir() : corpusDir);
    if (!all)
        return Error {all.error()};
    QStringList names;
    for (const KernelFamily &f : std::as_const(*all)) {
        if (f.name == name)
            return f;
        names.append(f.name);
    }
    return Error {QStringLiteral("no kernel family named '%1' (there are: %2)")
                      .arg(name, names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", ")))};
}

} // namespace gpuf::families
