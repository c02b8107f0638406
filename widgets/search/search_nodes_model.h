// SearchNodesModel: every node of one search (seeds, proposals, injected kernels) as a table row — its step, parent,
// status, forecast, why it was or was not measured, its speedup and the user's marks (pinned, vetoed). It reads the
// folded SearchState it is given and follows it incrementally: rows are only ever appended (the fold never removes a
// candidate), and the rows an event batch touched are repainted.
#pragma once

#include "core/search/search_state.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QHash>
#include <QIcon>

namespace gpuf {

class SearchNodesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        NodeColumn,
        StepColumn,
        ParentColumn,
        StatusColumn,
        ForecastColumn,
        DecisionColumn,
        SpeedupColumn,
        MarksColumn,
        ColumnCount
    };
    enum Role { NodeIdRole = Qt::UserRole, KernelIdRole, SortRole };

    explicit SearchNodesModel(QObject *parent = nullptr);

    // The state to show (owned by the caller, alive while shown); null clears the table.
    void setState(const search::SearchState *state);
    // The state grew or changed by `events`: new candidates become rows, touched ones are repainted.
    void applyEvents(const QList<SearchEvent> &events);
    int rowOfNode(const QString &nodeId) const;
    const search::Candidate *candidateAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The short form of a node id shown everywhere (a ULID's last eight characters are its distinguishing part).
    static QString shortId(const QString &nodeId);
    // How a node is named for a person: its readable name in `names` (a configuration, a kernel's name), else its
    // short id.
    static QString label(const QString &nodeId, const QHash<QString, QString> *names);
    // The nodes' readable names (the follower's, kept current as the log grows); null shows short ids.
    void setNodeNames(const QHash<QString, QString> *names) { m_names = names; }
    // What a node's status means for a person: "measured 1.42×", "deferred: ranked below the GPU budget", …
    static QString statusText(const search::Candidate &c);
    // The status with a failure's reason: "measurement failed: no recorded runtime of this kernel".
    static QString statusWithReason(const search::Candidate &c);
    static QVariant forecastCell(const search::Candidate &c, int role);
    static QString marksText(const search::SearchState &state, const search::Candidate &c);

private:
    QString nodeToolTip(const search::Candidate &c) const;
    QIcon pinIcon() const; // the lineage's pin mark, beside a pinned node's name

    const search::SearchState *m_state = nullptr;
    mutable QIcon m_pinIcon;
    mutable QColor m_pinIconColor;
    const QHash<QString, QString> *m_names = nullptr;
    int m_rows = 0;
    QString m_lastBest; // the best node when last shown (its marks change when another takes its place)
};

} // namespace gpuf
