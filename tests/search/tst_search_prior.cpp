// The physics prior as a search's forecaster (issue 25, item 6): `--forecaster roofline` is made on first use, as
// `gpuf forecast` makes it, so a search (and `gpuf search compare`) can run its modes on the roofline alone — the
// baseline a learned or LLM forecaster's search is compared with.
#include "core/forecasters/roofline_prior.h"
#include "core/store/forecast_repo.h"
#include "search_fixture.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace gpuf;
using namespace gpuf::search;

class TestSearchPrior : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rooflineForecastsASearch()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("prior.gpuf"));
        const QString error = testing::makeCorpusStore(path);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY(store);
        auto before = ForecasterRepo(**store).findByName(QLatin1StringView(kRooflineForecasterName));
        QVERIFY(before && !before->has_value()); // never used in this store
        SearchConfig config;
        config.mode = Mode::Surrogate;
        config.problem = QStringLiteral("axpy");
        config.steps = 2;
        config.parentsPerStep = 1;
        config.measurementsPerParent = 1;
        config.proposalsPerParent = 3;
        config.seed = 3;
        config.gpu = GpuSource::replay();
        config.forecaster = QLatin1StringView(kRooflineForecasterName);
        auto id = createSearch(**store, QStringLiteral("prior"), config);
        QVERIFY2(id, qPrintable(id.error()));
        QVERIFY(testing::runToEnd(**store, QStringLiteral("prior")));
        auto state = foldStoredSearch(**store, QStringLiteral("prior"));
        QVERIFY2(state, qPrintable(state.error()));
        QVERIFY(state->forecastsDone > 0);
        auto forecaster = ForecasterRepo(**store).findByName(QLatin1StringView(kRooflineForecasterName));
        QVERIFY(forecaster && forecaster->has_value());
        // The proposals' forecasts are the roofline's, stored like any other.
        auto forecasts = ForecastRepo(**store).list();
        QVERIFY(forecasts);
        const auto byPrior = std::count_if(forecasts->cbegin(), forecasts->cend(),
            [&](const Forecast &f) { return f.forecasterId == (*forecaster)->id; });
        QVERIFY(byPrior >= state->forecastsDone);
    }
};

QTEST_GUILESS_MAIN(TestSearchPrior)
#include "tst_search_prior.moc"
