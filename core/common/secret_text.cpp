// Credential-shaped text; see secret_text.h.
#include "core/common/secret_text.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

namespace gpuf {

namespace secret_detail {

// Prefixes of keys and tokens as their issuers print them (OpenAI, Anthropic, Hugging Face, GitHub, GitLab, Google,
// Slack, AWS access key ids, Groq, xAI, Replicate, Perplexity).
bool hasKeyPrefix(const QString &text)
{
    static const QStringList prefixes {QStringLiteral("sk-"), QStringLiteral("sk_"), QStringLiteral("hf_"),
        QStringLiteral("ghp_"), QStringLiteral("gho_"), QStringLiteral("ghs_"), QStringLiteral("github_pat_"),
        QStringLiteral("glpat-"), QStringLiteral("AIza"), QStringLiteral("xoxb-"), QStringLiteral("xoxp-"),
        QStringLiteral("AKIA"), QStringLiteral("gsk_"), QStringLiteral("xai-"), QStringLiteral("r8_"),
        QStringLiteral("pplx-")};
    return std::any_of(prefixes.cbegin(), prefixes.cend(),
        [&text](const QString &prefix) { return text.startsWith(prefix) && text.size() > prefix.size() + 8; });
}

// A long stretch (between '_' or '-') mixing lower- and upper-case letters and digits, as keys are made; names of
// variables, even with a random suffix (GPUF_TEST_KEY_1a2b3c4d), have none.
bool looksRandom(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[_\\-.]"));
    const QStringList parts = text.split(separators, Qt::SkipEmptyParts);
    return std::any_of(parts.cbegin(), parts.cend(), [](const QString &part) {
        const auto count = [&part](auto test) { return std::count_if(part.cbegin(), part.cend(), test); };
        return part.size() >= 16 && count([](QChar c) { return c.isLower(); }) > 0
            && count([](QChar c) { return c.isUpper(); }) > 0 && count([](QChar c) { return c.isDigit(); }) >= 2;
    });
}

} // namespace secret_detail

bool looksLikeSecret(const QString &text)
{
    const QString t = text.trimmed();
    return secret_detail::hasKeyPrefix(t) || secret_detail::looksRandom(t);
}

} // namespace gpuf
