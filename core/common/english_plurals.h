// English plurals for counted strings without a catalog: tr("%n kernel(s)", nullptr, n) reads "1 kernel" and
// "3 kernels" instead of "3 kernel(s)". Installed first, so every real catalog (German, …) still wins where it has the
// string; the source language needs no .ts file of its own.
#pragma once

#include <QTranslator>

namespace gpuf {

// "(s)" and "(es)" made singular (n = 1) or plural (any other n); text without them comes back unchanged.
QString englishPlural(const QString &text, int n);

class EnglishPlurals : public QTranslator
{
    Q_OBJECT

public:
    using QTranslator::QTranslator;
    bool isEmpty() const override { return false; }
    QString translate(
        const char *context, const char *sourceText, const char *disambiguation = nullptr, int n = -1) const override;
};

// Installs one EnglishPlurals on the application (owned by it); repeated calls install nothing more.
void installEnglishPlurals();

} // namespace gpuf
