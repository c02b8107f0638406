// Ranks of the candidate table's texts, for sorting without comparing strings; see candidate_rows.h.
#include "core/store/candidate_rows.h"

#include <QHash>

#include <algorithm>
#include <numeric>

namespace gpuf {

QList<int> denseTextRanks(const QStringList &texts)
{
    QList<int> order(texts.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
        [&texts](int a, int b) { return QString::compare(texts[a], texts[b], Qt::CaseInsensitive) < 0; });
    QList<int> ranks(texts.size(), 0);
    int rank = 0;
    for (qsizetype i = 0; i < order.size(); ++i) {
        if (i > 0 && QString::compare(texts[order[i - 1]], texts[order[i]], Qt::CaseInsensitive) != 0)
            ++rank;
        ranks[order[i]] = rank;
    }
    return ranks;
}

void applyCandidateRanks(CandidateTable &table, const QList<int> &nameRanks)
{
    QStringList problemNames;
    for (const CandidateProblem &p : std::as_const(table.problems))
        problemNames.append(p.name);
    const QList<int> problemRanks = denseTextRanks(problemNames);

    QHash<QString, int> languageRank, originRank;
    for (const CandidateRow &row : std::as_const(table.rows)) {
        languageRank.insert(row.language, 0);
        originRank.insert(row.origin, 0);
    }
    for (QHash<QString, int> *ranks : {&languageRank, &originRank}) {
        const QStringList keys = ranks->keys();
        const QList<int> r = denseTextRanks(keys);
        for (qsizetype i = 0; i < keys.size(); ++i)
            ranks->insert(keys[i], r[i]);
    }
    for (qsizetype i = 0; i < table.rows.size(); ++i) {
        CandidateRow &row = table.rows[i];
        row.nameRank = nameRanks[i];
        row.problemRank = row.problemIndex >= 0 ? problemRanks[row.problemIndex] : -1;
        row.languageRank = languageRank.value(row.language);
        row.originRank = originRank.value(row.origin);
    }
    table.origins = originRank.keys();
    std::sort(table.origins.begin(), table.origins.end());
}

void rankCandidateRows(CandidateTable &table)
{
    QStringList names;
    names.reserve(table.rows.size());
    for (const CandidateRow &row : std::as_const(table.rows))
        names.append(row.displayName());
    applyCandidateRanks(table, denseTextRanks(names));
}

} // namespace gpuf
