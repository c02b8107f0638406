// The shipped sample store's Python kernels with both figures (issue 29): the H200 measurements of the Python problems
// re-recorded with harness 1.3 (resources/measurements/python-h200-2026-11-29.jsonl) reach the Candidates table's
// "Device · call time" column with the figures of that file, the references too, and no Python problem mixes runs that
// have both figures with runs that have one (its speedups would then set one figure against the other).
#include "core/interop/interop.h"
#include "core/store/candidate_rows.h"
#include "core/store/store.h"
#include "widgets/candidates/candidate_table_model.h"

#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>
#include <utility>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

const QString kRecorded = QStringLiteral(GPUF_SOURCE_DIR "/resources/measurements/python-h200-2026-11-29.jsonl");

// What the file holds of one candidate: each case's device and call median, and whether a case is launch-bound.
struct Recorded
{
    double logDevice = 0.0;
    double logCall = 0.0;
    int cases = 0;
    bool launchBound = false;
    QString speedupTime;
};

QString micro(double us) { return QString::number(us, 'f', us < 10.0 ? 2 : 1) + u" µs"_s; }

// The column's text worked out from the file: geometric means over the cases, the speedup's figure in brackets.
QString expectedText(const Recorded &r)
{
    const QString device = u"device "_s + micro(std::exp(r.logDevice / r.cases));
    const QString call = u"call "_s + micro(std::exp(r.logCall / r.cases));
    QString text = r.speedupTime == u"call"_s ? QString(device + u" · ["_s + call + u']')
                                              : QString(u'[' + device + u"] · "_s + call);
    if (r.launchBound)
        text += u" · launch-bound"_s;
    return text;
}

} // namespace

class TestSampleTimes : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    QHash<QString, Recorded> m_recorded; // "problem/variant"

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(u"sample.gpuf"_s);
        auto store = Store::open(m_path);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        const QString bundle = QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl");
        QVERIFY(interop::importFiles(**store, {bundle}).ok());
        QFile file(kRecorded);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(kRecorded));
        while (!file.atEnd()) {
            const QJsonObject row = QJsonDocument::fromJson(file.readLine()).object();
            QCOMPARE(row.value(u"status"_s).toString(), u"ok"_s);
            Recorded &r = m_recorded[row.value(u"operation"_s).toString() + u'/' + row.value(u"variant"_s).toString()];
            r.logDevice += std::log(row.value(u"timing"_s).toObject().value(u"median_us"_s).toDouble());
            r.logCall += std::log(row.value(u"call_timing"_s).toObject().value(u"median_us"_s).toDouble());
            r.launchBound = r.launchBound || row.value(u"launch_bound"_s).toBool();
            r.speedupTime = row.value(u"speedup_time"_s).toString();
            ++r.cases;
        }
        QCOMPARE(m_recorded.size(), 27); // three problems of nine variants, three cases each
    }

    // Every kernel of a problem the file re-recorded, the reference included, shows both figures on the H200 in every
    // case; each candidate's cell reads what the file holds.
    void sampleShowsBothFiguresOnTheH200()
    {
        auto store = Store::open(m_path, Store::Mode::ReadOnly);
        QVERIFY(store);
        auto loaded = loadCandidateTable(**store);
        QVERIFY2(loaded, qPrintable(loaded.error()));
        auto table = std::make_shared<const CandidateTable>(std::move(*loaded));
        int h200 = -1;
        for (int i = 0; i < table->hardware.size(); ++i) {
            if (table->hardware[i].name.contains(u"H200"_s))
                h200 = i;
        }
        QVERIFY(h200 >= 0);
        CandidateTableModel model;
        QSignalSpy applied(&model, &CandidateTableModel::orderApplied);
        model.setTable(table);
        QVERIFY(applied.wait(10000));
        model.setHardwareIndex(h200);
        QTRY_VERIFY(!model.isUpdating());

        QHash<QString, int> withBoth; // problem -> Python kernels measured on the H200 with both figures
        QHash<QString, int> withOne;
        QList<std::pair<QString, QString>> references; // problem, the cell's text where both figures are in every case
        int candidatesChecked = 0;
        int referencesChecked = 0;
        for (int i = 0; i < table->rows.size(); ++i) {
            const CandidateRow &row = table->rows[i];
            const MeasuredCell &cell = table->measured[qsizetype(i) * table->hardware.size() + h200];
            const bool python = row.language == u"python"_s || row.language == u"triton"_s; // the harness's kernels
            if (!python || cell.runs == 0 || row.problemIndex < 0)
                continue;
            const QString problem = table->problems[row.problemIndex].name;
            const bool both = cell.timesCases == cell.runs && cell.deviceUs > 0.0F && cell.callUs > 0.0F;
            (both ? withBoth : withOne)[problem] += 1;
            const QString shown = model.index(model.viewRowOf(row.id), TimesColumn).data().toString();
            const auto recorded = m_recorded.constFind(problem + u'/' + row.name);
            if (recorded != m_recorded.cend()) {
                QVERIFY2(both, qPrintable(problem + u'/' + row.name));
                QCOMPARE(cell.timesCases, 3);
                QCOMPARE(shown, expectedText(*recorded));
                ++candidatesChecked;
            } else if (row.isReference) {
                references.append({problem, both && cell.timesCases == 3 ? shown : QString()});
            }
        }
        QCOMPARE(candidatesChecked, 27);
        for (const auto &[problem, shown] : std::as_const(references)) {
            if (!withBoth.contains(problem))
                continue;
            QVERIFY2(shown.startsWith(u"[device "_s), qPrintable(problem + u": "_s + shown));
            ++referencesChecked;
        }
        QCOMPARE(referencesChecked, 3);
        for (auto it = withBoth.cbegin(); it != withBoth.cend(); ++it)
            QVERIFY2(!withOne.contains(it.key()), qPrintable(it.key() + u" mixes harness versions on the H200"_s));
    }
};

QTEST_MAIN(TestSampleTimes)
#include "tst_sample_times.moc"
