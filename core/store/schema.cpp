// Schema version 1 and the migration list; every later version appends a step, never edits an old one.
#include "core/store/schema.h"

namespace gpuf::store {
namespace {

QStringList version1()
{
    return {
        QStringLiteral(R"(CREATE TABLE problems (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            description TEXT NOT NULL DEFAULT '',
            family TEXT NOT NULL DEFAULT '',
            reference_kernel_id INTEGER REFERENCES kernels(id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
            cases_json TEXT NOT NULL DEFAULT '[]',
            tolerances_json TEXT NOT NULL DEFAULT '{}',
            backend TEXT NOT NULL DEFAULT 'cuda' CHECK (backend IN ('cuda', 'triton', 'pytorch')),
            created_at TEXT NOT NULL))"),
        QStringLiteral(R"(CREATE TABLE kernels (
            id INTEGER PRIMARY KEY,
            problem_id INTEGER NOT NULL REFERENCES problems(id) ON DELETE CASCADE,
            parent_id INTEGER REFERENCES kernels(id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
            name TEXT NOT NULL DEFAULT '',
            language TEXT NOT NULL,
            source TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            origin TEXT NOT NULL,
            parameters_json TEXT NOT NULL DEFAULT '{}',
            notes TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            UNIQUE (problem_id, content_hash)))"),
        QStringLiteral("CREATE INDEX kernels_parent ON kernels(parent_id)"),
        QStringLiteral(R"(CREATE TABLE hardware (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            compute_capability TEXT NOT NULL DEFAULT '',
            sm_count INTEGER NOT NULL DEFAULT 0,
            max_threads_per_sm INTEGER NOT NULL DEFAULT 0,
            clock_ghz REAL NOT NULL DEFAULT 0,
            memory_clock_ghz REAL NOT NULL DEFAULT 0,
            bus_width_bits INTEGER NOT NULL DEFAULT 0,
            global_memory_gb REAL NOT NULL DEFAULT 0,
            l2_bytes INTEGER NOT NULL DEFAULT 0,
            shared_memory_per_sm INTEGER NOT NULL DEFAULT 0,
            driver_version TEXT NOT NULL DEFAULT '',
            toolkit_version TEXT NOT NULL DEFAULT ''))"),
        QStringLiteral(R"(CREATE TABLE measurements (
            id INTEGER PRIMARY KEY,
            kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
            hardware_id INTEGER NOT NULL REFERENCES hardware(id),
            case_name TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL CHECK (status IN ('ok', 'compile_failed', 'runtime_error', 'incorrect', 'timeout',
                                                   'infrastructure_failure')),
            error_text TEXT NOT NULL DEFAULT '',
            median_ns REAL, mean_ns REAL, min_ns REAL, std_ns REAL, rel_std_err REAL, samples INTEGER,
            timing_method TEXT NOT NULL DEFAULT '',
            l2_flush INTEGER NOT NULL DEFAULT 1,
            registers INTEGER, shared_memory_bytes INTEGER, local_memory_bytes INTEGER, occupancy REAL,
            counters_json TEXT NOT NULL DEFAULT '{}',
            provenance_json TEXT NOT NULL DEFAULT '{}',
            source TEXT NOT NULL CHECK (source IN ('local', 'replay', 'import')),
            created_at TEXT NOT NULL,
            CHECK (status <> 'ok' OR median_ns IS NOT NULL)))"),
        QStringLiteral("CREATE INDEX measurements_kernel ON measurements(kernel_id, hardware_id)"),
        QStringLiteral(R"(CREATE TABLE pair_labels (
            id INTEGER PRIMARY KEY,
            reference_kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
            candidate_kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
            hardware_id INTEGER REFERENCES hardware(id),
            speedup REAL CHECK (speedup IS NULL OR speedup > 0),
            true_bin INTEGER CHECK (true_bin IS NULL OR true_bin BETWEEN 1 AND 8),
            kind TEXT NOT NULL,
            external_id TEXT NOT NULL DEFAULT '',
            source TEXT NOT NULL DEFAULT '',
            extra_json TEXT NOT NULL DEFAULT '{}'))"),
        QStringLiteral("CREATE INDEX pair_labels_pair ON pair_labels(reference_kernel_id, candidate_kernel_id)"),
        QStringLiteral("CREATE INDEX pair_labels_external ON pair_labels(kind, external_id)"),
        QStringLiteral(R"(CREATE TABLE forecasters (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL CHECK (kind IN ('llm', 'costmodel', 'import')),
            display_name TEXT NOT NULL DEFAULT '',
            config_json TEXT NOT NULL DEFAULT '{}'))"),
        QStringLiteral(R"(CREATE TABLE forecasts (
            id INTEGER PRIMARY KEY,
            reference_kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
            candidate_kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
            hardware_id INTEGER REFERENCES hardware(id),
            forecaster_id INTEGER NOT NULL REFERENCES forecasters(id) ON DELETE CASCADE,
            repeat INTEGER NOT NULL DEFAULT 0,
            p1 REAL NOT NULL, p2 REAL NOT NULL, p3 REAL NOT NULL, p4 REAL NOT NULL,
            p5 REAL NOT NULL, p6 REAL NOT NULL, p7 REAL NOT NULL, p8 REAL NOT NULL,
            predicted_bin INTEGER CHECK (predicted_bin IS NULL OR predicted_bin BETWEEN 1 AND 8),
            raw_probability_sum REAL,
            reasoning TEXT NOT NULL DEFAULT '',
            response TEXT NOT NULL DEFAULT '',
            messages TEXT NOT NULL DEFAULT '',
            tokens_in INTEGER, tokens_out INTEGER, latency_s REAL,
            status TEXT NOT NULL CHECK (status IN ('ok', 'parse_failed', 'error')),
            error_text TEXT NOT NULL DEFAULT '',
            cache_key TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL))"),
        QStringLiteral("CREATE INDEX forecasts_pair ON forecasts(candidate_kernel_id, forecaster_id)"),
        QStringLiteral("CREATE INDEX forecasts_cache ON forecasts(cache_key)"),
        QStringLiteral(R"(CREATE TABLE searches (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            problem_id INTEGER REFERENCES problems(id) ON DELETE SET NULL,
            mode TEXT NOT NULL,
            config_json TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL))"),
        QStringLiteral(R"(CREATE TABLE search_events (
            id INTEGER PRIMARY KEY,
            search_id INTEGER NOT NULL REFERENCES searches(id) ON DELETE CASCADE,
            sequence INTEGER NOT NULL,
            kind TEXT NOT NULL,
            payload_json TEXT NOT NULL DEFAULT '{}',
            time TEXT NOT NULL,
            UNIQUE (search_id, sequence)))"),
    };
}

// Version 2: lessons (an ordered walk through kernel pairs, each step with its teaching note) and students, who are
// forecasters of kind 'human' whose answers are ordinary forecasts. SQLite cannot widen a CHECK in place and renaming
// a parent table rewrites its children's foreign keys, so both forecasters and forecasts are copied into new tables
// (the new forecasts already naming the new forecasters), the old ones dropped children first (no cascade can reach a
// forecast), and the new ones renamed into place.
QStringList forecastersWithHumanKind()
{
    return {
        QStringLiteral(R"(CREATE TABLE forecasters_v2 (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL CHECK (kind IN ('llm', 'costmodel', 'import', 'human')),
            display_name TEXT NOT NULL DEFAULT '',
            config_json TEXT NOT NULL DEFAULT '{}'))"),
        QStringLiteral("INSERT INTO forecasters_v2 (id, name, kind, display_name, config_json)"
                       " SELECT id, name, kind, display_name, config_json FROM forecasters"),
        QStringLiteral(R"(CREATE TABLE forecasts_v2 (
            id INTEGER PRIMARY KEY,
            reference_kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
            candidate_kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
            hardware_id INTEGER REFERENCES hardware(id),
            forecaster_id INTEGER NOT NULL REFERENCES forecasters_v2(id) ON DELETE CASCADE,
            repeat INTEGER NOT NULL DEFAULT 0,
            p1 REAL NOT NULL, p2 REAL NOT NULL, p3 REAL NOT NULL, p4 REAL NOT NULL,
            p5 REAL NOT NULL, p6 REAL NOT NULL, p7 REAL NOT NULL, p8 REAL NOT NULL,
            predicted_bin INTEGER CHECK (predicted_bin IS NULL OR predicted_bin BETWEEN 1 AND 8),
            raw_probability_sum REAL,
            reasoning TEXT NOT NULL DEFAULT '',
            response TEXT NOT NULL DEFAULT '',
            messages TEXT NOT NULL DEFAULT '',
            tokens_in INTEGER, tokens_out INTEGER, latency_s REAL,
            status TEXT NOT NULL CHECK (status IN ('ok', 'parse_failed', 'error')),
            error_text TEXT NOT NULL DEFAULT '',
            cache_key TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL))"),
        QStringLiteral("INSERT INTO forecasts_v2 SELECT * FROM forecasts"),
        QStringLiteral("DROP TABLE forecasts"),
        QStringLiteral("DROP TABLE forecasters"),
        QStringLiteral("ALTER TABLE forecasters_v2 RENAME TO forecasters"),
        QStringLiteral("ALTER TABLE forecasts_v2 RENAME TO forecasts"),
        QStringLiteral("CREATE INDEX forecasts_pair ON forecasts(candidate_kernel_id, forecaster_id)"),
        QStringLiteral("CREATE INDEX forecasts_cache ON forecasts(cache_key)"),
    };
}

QStringList version2()
{
    QStringList statements = forecastersWithHumanKind();
    statements += {
        QStringLiteral(R"(CREATE TABLE lessons (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL DEFAULT '',
            kind TEXT NOT NULL CHECK (kind IN ('operation', 'family', 'custom')),
            source TEXT NOT NULL DEFAULT '',
            description TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL))"),
        QStringLiteral(R"(CREATE TABLE lesson_steps (
            id INTEGER PRIMARY KEY,
            lesson_id INTEGER NOT NULL REFERENCES lessons(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            reference_kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
            kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
            note TEXT NOT NULL DEFAULT '',
            UNIQUE (lesson_id, position)))"),
        QStringLiteral("CREATE INDEX lesson_steps_kernel ON lesson_steps(kernel_id)"),
    };
    return statements;
}

// Version 3: jobs submitted to a Slurm cluster (docs/cluster.md): one row per sbatch submission, one per array task
// with the requests it carries, so jobs still running when the program closed are collected when the store is opened
// again.
QStringList version3()
{
    return {
        QStringLiteral(R"(CREATE TABLE cluster_jobs (
            id INTEGER PRIMARY KEY,
            profile TEXT NOT NULL,
            job_id TEXT NOT NULL,
            batch_dir TEXT NOT NULL,
            array_spec TEXT NOT NULL,
            submitted_at TEXT NOT NULL))"),
        QStringLiteral(R"(CREATE TABLE cluster_tasks (
            id INTEGER PRIMARY KEY,
            profile TEXT NOT NULL,
            batch_dir TEXT NOT NULL,
            array_index INTEGER NOT NULL,
            job_id TEXT NOT NULL DEFAULT '',
            state TEXT NOT NULL,
            node TEXT NOT NULL DEFAULT '',
            attempts INTEGER NOT NULL DEFAULT 0,
            requests_json TEXT NOT NULL DEFAULT '[]',
            results_json TEXT NOT NULL DEFAULT '{}',
            message TEXT NOT NULL DEFAULT '',
            open INTEGER NOT NULL DEFAULT 1,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (batch_dir, array_index)))"),
        QStringLiteral("CREATE INDEX cluster_tasks_open ON cluster_tasks(open, profile)"),
    };
}

// Version 4: the user's verdicts on measurements (issue 28): a quarantined measurement stays in the store with its
// evidence, but the pairs whose speedup rests on it leave the metrics and searches' bests. Verdicts computed from the
// evidence (clean, suspicious) are not stored; only what a person decided is.
QStringList version4()
{
    return {
        QStringLiteral(R"(CREATE TABLE measurement_verdicts (
            measurement_id INTEGER PRIMARY KEY REFERENCES measurements(id) ON DELETE CASCADE,
            verdict TEXT NOT NULL CHECK (verdict IN ('quarantined')),
            note TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL))"),
    };
}

// Version 5: the local measurements by the SHA-256 of the binary that ran (issue 25, free evaluations): a search on
// this machine's GPU looks each compiled proposal up by its cubin's hash before it measures, and without an index that
// read scans every measurement's provenance (about 69 ms a lookup at 200 000 measurements). The expression and the
// condition are exactly MeasurementRepo::localRunsOfBinary's, so SQLite can use the partial index.
QStringList version5()
{
    return {
        QStringLiteral("CREATE INDEX measurements_local_binary ON measurements("
                       "json_extract(provenance_json, '$.binary_sha256'), hardware_id) WHERE source = 'local'"),
    };
}

} // namespace

QStringList migrationStatements(int toVersion)
{
    switch (toVersion) {
    case 1:
        return version1();
    case 2:
        return version2();
    case 3:
        return version3();
    case 4:
        return version4();
    case 5:
        return version5();
    default:
        return {};
    }
}

} // namespace gpuf::store
