<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>QObject</name>
    <message>
        <location filename="../widgets/diff/kernel_pair_loader.cpp" line="+57"/>
        <source>kernel %1 is not in the store</source>
        <translation>Kernel %1 ist nicht in der Datenbank</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>parent</source>
        <translation>Vorgänger</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>baseline</source>
        <translation>Basis</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>candidate</source>
        <translation>Kandidat</translation>
    </message>
    <message>
        <location filename="../widgets/session/sample_store.cpp" line="+53"/>
        <source>cannot move the sample store into place at %1</source>
        <translation>die Beispieldatenbank kann nicht nach %1 verschoben werden</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>this build has no sample data</source>
        <translation>dieser Build enthält keine Beispieldaten</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Building the sample store</source>
        <translation>Beispieldatenbank wird erstellt</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/session/transfer_jobs.cpp" line="+49"/>
        <source>Importing %n file(s)</source>
        <translation>
            <numerusform>%n Datei wird importiert</numerusform>
            <numerusform>%n Dateien werden importiert</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1

Nothing was imported.</source>
        <translation>%1

Es wurde nichts importiert.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Exporting to %1</source>
        <translation>Export nach %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Exported to %1.</source>
        <translation>Nach %1 exportiert.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
</context>
<context>
    <name>gpuf</name>
    <message>
        <location filename="../core/forecasters/explanation.cpp" line="+133"/>
        <source>the GPU </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>each kernel </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>candidate %1, the reference %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>candidate %1 instead of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>against</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>toward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../widgets/diff/forecast_annotations.cpp" line="+57"/>
        <source>%1 (pushes toward faster)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (pushes toward slower)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gpuf::AddKernelDialog</name>
    <message>
        <location filename="../widgets/candidates/add_kernel_dialog.cpp" line="+43"/>
        <source>Pasted code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+82"/>
        <source>Add Kernel</source>
        <translation>Kernel hinzufügen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Optional: what this kernel changes and why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optional name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Problem:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>P&amp;arent:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>N&amp;otes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>Reading %n input(s) and the store&apos;s problems…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Cannot read the store: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This store has no problems yet: import a bundle or a corpus first; a kernel always belongs to a problem.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+31"/>
        <source>%n input(s) will be skipped:</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>(no parent)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source> — reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Storing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Adding kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1: not added — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: added as kernel #%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: already in the store as kernel #%2 (same source); nothing changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gpuf::BudgetCurvePlot</name>
    <message>
        <location filename="../widgets/calibration/budget_curve_plot.cpp" line="+20"/>
        <source>Show each &amp;problem</source>
        <translation>Jede &amp;Aufgabe zeigen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ranking utility</source>
        <translation>Ranking-Nutzen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Thin lines: the curve of each problem&apos;s pools; thick: every pool pooled</source>
        <translation>Dünne Linien: die Kurve der Pools jeder Aufgabe; dick: alle Pools zusammen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>fraction of each pool measured</source>
        <translation>gemessener Anteil jedes Pools</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>best found ÷ pool best</source>
        <translation>bestes gefundenes ÷ bestes im Pool</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Ranking utility by measurement budget (app-side reconstruction; pools ranked by expected bin)</source>
        <translation>Ranking-Nutzen nach Messbudget (in der Anwendung rekonstruiert; Pools nach erwarteter Klasse geordnet)</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+39"/>
        <source>problem %1</source>
        <translation>Aufgabe %1</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>random order</source>
        <translation>zufällige Reihenfolge</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1, pooled (utility@10% %2)</source>
        <translation>%1, zusammengefasst (utility@10% %2)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: %2 pools in %3 problems, utility@10% %4</source>
        <translation>%1: %2 Pools in %3 Aufgaben, utility@10% %4</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>every pool</source>
        <translation>alle Pools</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>top %1% by expected bin in %2 (%3)</source>
        <translation>oberste %1 % nach erwarteter Klasse in %2 (%3)</translation>
    </message>
</context>
<context>
    <name>gpuf::CalibrationView</name>
    <message>
        <location filename="../widgets/calibration/calibration_view.cpp" line="+72"/>
        <source>Calibration</source>
        <translation>Kalibrierung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>each on all its pairs</source>
        <translation>jedes auf all seinen Paaren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>on the pairs both forecast</source>
        <translation>auf den Paaren, die beide prognostiziert haben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare forecasters on the same pairs, so neither is judged on easier ones</source>
        <translation>Prognosemodelle auf denselben Paaren vergleichen, damit keines an leichteren gemessen wird</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Forecaster:</source>
        <translation>&amp;Prognosemodell:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare &amp;with:</source>
        <translation>&amp;Vergleichen mit:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Pairs:</source>
        <translation>P&amp;aare:</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Reliability</source>
        <translation>Zuverlässigkeit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Confusion</source>
        <translation>Konfusionsmatrix</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Risk–coverage</source>
        <translation>Risiko–Abdeckung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ranking utility</source>
        <translation>Ranking-Nutzen</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Loading forecasts…</source>
        <translation>Prognosen werden geladen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No store open.</source>
        <translation>Keine Datenbank geöffnet.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Could not load the forecasts: %1</source>
        <translation>Die Prognosen konnten nicht geladen werden: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No forecast in this store has a measured truth yet.</source>
        <translation>Noch keine Prognose in dieser Datenbank hat einen gemessenen Wahrheitswert.</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>↺ %n scored forecast(s) have a truth replayed from stored runtimes, not measured here.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>(none)</source>
        <translation>(keines)</translation>
    </message>
</context>
<context>
    <name>gpuf::CandidateBrowser</name>
    <message>
        <location filename="../widgets/candidates/candidate_browser.cpp" line="+68"/>
        <source>Show all</source>
        <translation>Alle zeigen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Leave the drill-down and show every kernel of the scope again</source>
        <translation>Die Detailansicht verlassen und wieder alle Kernel des Bereichs zeigen</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>Loading kernels…</source>
        <translation>Kernel werden geladen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 of %2 kernels</source>
        <translation>%1 von %2 Kerneln</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>updating…</source>
        <translation>wird aktualisiert…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>drill-down: %1</source>
        <translation>Detailansicht: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>lines changed: computing…</source>
        <translation>geänderte Zeilen: wird berechnet…</translation>
    </message>
</context>
<context>
    <name>gpuf::CandidateFilterBar</name>
    <message>
        <location filename="../widgets/candidates/candidate_filter_bar.cpp" line="+47"/>
        <source>Filter kernels: name, hash, problem, origin, language</source>
        <translation>Kernel filtern: Name, Hash, Aufgabe, Herkunft, Sprache</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Smallest confidence (probability of the predicted bin) shown</source>
        <translation>Kleinste angezeigte Konfidenz (Wahrscheinlichkeit der vorhergesagten Klasse)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Largest confidence shown</source>
        <translation>Größte angezeigte Konfidenz</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>τ: a forecast whose confidence is at least τ is trusted instead of measured</source>
        <translation>τ: Einer Prognose mit einer Konfidenz von mindestens τ wird vertraut, statt zu messen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The hardware whose measurements the speedup columns show</source>
        <translation>Die Hardware, deren Messungen die Beschleunigungsspalten zeigen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The forecaster whose newest forecasts the prediction columns show</source>
        <translation>Das Prognosemodell, dessen neueste Prognosen die Vorhersagespalten zeigen</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+92"/>
        <source>Any origin</source>
        <translation>Jede Herkunft</translation>
    </message>
    <message>
        <location line="-82"/>
        <source>Hardware</source>
        <translation>Hardware</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Forecaster</source>
        <translation>Prognosemodell</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Confidence</source>
        <translation>Konfidenz</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Trust τ</source>
        <translation>Vertrauen τ</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Any bin</source>
        <translation>Jede Klasse</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measured %1 · %2</source>
        <translation>Gemessen %1 · %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measured: failed</source>
        <translation>Gemessen: fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Predicted %1 · %2</source>
        <translation>Vorhergesagt %1 · %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Any status</source>
        <translation>Jeder Status</translation>
    </message>
    <message numerus="yes">
        <location line="+26"/>
        <source>%1 (%n measured)</source>
        <translation>
            <numerusform>%1 (%n gemessen)</numerusform>
            <numerusform>%1 (%n gemessen)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>%1 (%n forecast(s))</source>
        <translation>
            <numerusform>%1 (%n Prognose)</numerusform>
            <numerusform>%1 (%n Prognosen)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpuf::CandidateSource</name>
    <message>
        <location filename="../widgets/candidates/candidate_source.cpp" line="+128"/>
        <source>Lines changed could not be computed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gpuf::CandidateTableModel</name>
    <message>
        <location filename="../widgets/candidates/candidate_table_model.cpp" line="+298"/>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Kernel %1%2
SHA-256 %3</source>
        <translation>Kernel %1%2
SHA-256 %3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (reference)</source>
        <translation> (Referenz)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Lines changed against kernel %1</source>
        <translation>Geänderte Zeilen gegenüber Kernel %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No reference kernel to compare with</source>
        <translation>Kein Referenzkernel zum Vergleichen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not computed yet</source>
        <translation>Noch nicht berechnet</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not measured on this hardware</source>
        <translation>Auf dieser Hardware nicht gemessen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Imported label (published speedup) against kernel %1</source>
        <translation>Importiertes Label (veröffentlichte Beschleunigung) gegenüber Kernel %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Measured, but the reference has no ok measurement of the same cases</source>
        <translation>Gemessen, aber die Referenz hat keine erfolgreiche Messung derselben Fälle</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A case failed: %1</source>
        <translation>Ein Fall ist fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Geometric mean over %n case(s) against kernel %1</source>
        <translation>
            <numerusform>Geometrisches Mittel über %n Fall gegenüber Kernel %1</numerusform>
            <numerusform>Geometrisches Mittel über %n Fälle gegenüber Kernel %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No forecast by this forecaster</source>
        <translation>Keine Prognose dieses Prognosemodells</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forecast %1 against kernel %2; expected bin %3</source>
        <translation>Prognose %1 gegenüber Kernel %2; erwartete Klasse %3</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>↺ Replayed from runtimes recorded earlier on %1, not measured here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>↺ Replayed from runtimes recorded on %1 (%2), not measured here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Problem</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Origin</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Parent</source>
        <translation>Vorgänger</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Lines changed</source>
        <translation>Geänderte Zeilen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Speedup</source>
        <translation>Beschleunigung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measured bin</source>
        <translation>Gemessene Klasse</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Predicted bin</source>
        <translation>Vorhergesagte Klasse</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Confidence</source>
        <translation>Konfidenz</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Expected speedup</source>
        <translation>Erwartete Beschleunigung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
</context>
<context>
    <name>gpuf::ConfusionPlot</name>
    <message>
        <location filename="../widgets/calibration/confusion_plot.cpp" line="+35"/>
        <source>Confusion matrix</source>
        <translation>Konfusionsmatrix</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Counts</source>
        <translation>Anzahlen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share of each true bin (rows)</source>
        <translation>Anteil je wahrer Klasse (Zeilen)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of each predicted bin (columns)</source>
        <translation>Anteil je vorhergesagter Klasse (Spalten)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share of all forecasts</source>
        <translation>Anteil an allen Prognosen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cells:</source>
        <translation>&amp;Zellen:</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Confusion matrix: true bin (rows) × predicted bin (columns)</source>
        <translation>Konfusionsmatrix: wahre Klasse (Zeilen) × vorhergesagte Klasse (Spalten)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1: %2 parsed forecasts, %3 on the diagonal</source>
        <translation>%1: %2 auswertbare Prognosen, %3 auf der Diagonale</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>predicted bin — %1</source>
        <translation>vorhergesagte Klasse — %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>true bin</source>
        <translation>wahre Klasse</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>forecasts</source>
        <translation>Prognosen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>share</source>
        <translation>Anteil</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>true bin %1, predicted bin %2 (%3)</source>
        <translation>wahre Klasse %1, vorhergesagte Klasse %2 (%3)</translation>
    </message>
</context>
<context>
    <name>gpuf::CostModelRetrainer</name>
    <message>
        <location filename="../widgets/forecast/costmodel_retrainer.cpp" line="+38"/>
        <source>Re&amp;train Cost Model from This Store…</source>
        <translation>Kostenmodell aus dieser Datenbank neu &amp;trainieren…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use &amp;Built-in Cost Model</source>
        <translation>Eingebautes &amp;Kostenmodell verwenden</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Train the cost model on this store&apos;s measured pairs in the background and forecast with it</source>
        <translation>Das Kostenmodell im Hintergrund an den gemessenen Paaren dieser Datenbank trainieren und damit prognostizieren</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>No store is open: open the store to retrain from first.</source>
        <translation>Keine Datenbank geöffnet: Zuerst die Datenbank öffnen, aus der trainiert werden soll.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Starting…</source>
        <translation>Wird gestartet…</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Retraining was cancelled; the cost model is unchanged.</source>
        <translation>Das Neutrainieren wurde abgebrochen; das Kostenmodell ist unverändert.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cost model not retrained: %1</source>
        <translation>Kostenmodell nicht neu trainiert: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>Cost model retrained on %n measured pair(s); the costmodel forecaster now uses it</source>
        <translation>
            <numerusform>Kostenmodell an %n gemessenen Paar neu trainiert; das Prognosemodell costmodel verwendet es jetzt</numerusform>
            <numerusform>Kostenmodell an %n gemessenen Paaren neu trainiert; das Prognosemodell costmodel verwendet es jetzt</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The costmodel forecaster uses the built-in model again</source>
        <translation>Das Prognosemodell costmodel verwendet wieder das eingebaute Modell</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>A retraining is running</source>
        <translation>Ein Neutraining läuft</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Train the cost model on %1&apos;s measured pairs</source>
        <translation>Das Kostenmodell an den gemessenen Paaren von %1 trainieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open a store with measured kernels first</source>
        <translation>Zuerst eine Datenbank mit gemessenen Kerneln öffnen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The costmodel forecaster already uses the built-in model</source>
        <translation>Das Prognosemodell costmodel verwendet bereits das eingebaute Modell</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The costmodel forecaster now uses %1</source>
        <translation>Das Prognosemodell costmodel verwendet jetzt %1</translation>
    </message>
</context>
<context>
    <name>gpuf::DevicePanel</name>
    <message>
        <location filename="../widgets/measure/device_panel.cpp" line="+22"/>
        <source>Check again</source>
        <translation>Erneut prüfen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Compute capability</source>
        <translation>Compute Capability</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Multiprocessors</source>
        <translation>Multiprozessoren</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>SM clock</source>
        <translation>SM-Takt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory clock</source>
        <translation>Speichertakt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>L2 cache</source>
        <translation>L2-Cache</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Peak bandwidth</source>
        <translation>Spitzenbandbreite</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Driver</source>
        <translation>Treiber</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Worker</source>
        <translation>Messprozess</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Looking for the GPU…</source>
        <translation>GPU wird gesucht…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No GPU to measure on: %1</source>
        <translation>Keine GPU zum Messen: %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> (+%1 more)</source>
        <translation> (+%1 weitere)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+2"/>
        <source>%1 MHz now, %2 MHz max</source>
        <translation>%1 MHz aktuell, %2 MHz max.</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>%1 MHz max (current: %2)</source>
        <translation>%1 MHz max. (aktuell: %2)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 MHz max</source>
        <translation>%1 MHz max.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 GiB, %2-bit bus</source>
        <translation>%1 GiB, %2-Bit-Bus</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 (gpuf-measure %2, NVRTC %3)</source>
        <translation>%1 (gpuf-measure %2, NVRTC %3)</translation>
    </message>
</context>
<context>
    <name>gpuf::DiffOverviewBar</name>
    <message>
        <location filename="../widgets/diff/diff_overview_bar.cpp" line="+22"/>
        <source>Overview of the changes: click to jump</source>
        <translation>Übersicht der Änderungen: zum Springen klicken</translation>
    </message>
</context>
<context>
    <name>gpuf::DiffPane</name>
    <message numerus="yes">
        <location filename="../widgets/diff/diff_pane.cpp" line="+43"/>
        <source>⋯ show %n unchanged line(s)</source>
        <translation>
            <numerusform>⋯ %n unveränderte Zeile zeigen</numerusform>
            <numerusform>⋯ %n unveränderte Zeilen zeigen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+183"/>
        <source>Forecast annotations on hidden lines (click to show them):</source>
        <translation>Prognoseanmerkungen auf ausgeblendeten Zeilen (zum Anzeigen klicken):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>line %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
    <message numerus="yes">
        <location line="+116"/>
        <source>◆ %n annotated line(s)</source>
        <translation>
            <numerusform>◆ %n Zeile mit Anmerkungen</numerusform>
            <numerusform>◆ %n Zeilen mit Anmerkungen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpuf::DiffView</name>
    <message>
        <location filename="../widgets/diff/diff_view.cpp" line="+103"/>
        <source>Previous Change</source>
        <translation>Vorherige Änderung</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next Change</source>
        <translation>Nächste Änderung</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Ignore Whitespace</source>
        <translation>Leerraum ignorieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show Unchanged Lines</source>
        <translation>Unveränderte Zeilen zeigen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Swap Sides</source>
        <translation>Seiten tauschen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show Forecast Annotations</source>
        <translation>Prognoseanmerkungen zeigen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Annotations</source>
        <translation>Anmerkungen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy as Patch</source>
        <translation>Als Patch kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export Patch…</source>
        <translation>Patch exportieren…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open Left Source</source>
        <translation>Linke Quelle öffnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open Right Source</source>
        <translation>Rechte Quelle öffnen</translation>
    </message>
    <message>
        <location line="+147"/>
        <source>Comparing…</source>
        <translation>Wird verglichen…</translation>
    </message>
    <message>
        <location line="+178"/>
        <source>Mark the lines that carry the features behind forecast #%1: violet pushes toward a faster candidate, orange toward a slower one</source>
        <translation>Die Zeilen markieren, die die Merkmale hinter Prognose #%1 tragen: Violett spricht für einen schnelleren Kandidaten, Orange für einen langsameren</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No cost-model forecast explains this pair</source>
        <translation>Keine Kostenmodell-Prognose erklärt dieses Paar</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>The diff is not ready yet.</source>
        <translation>Der Vergleich ist noch nicht fertig.</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+3"/>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+5"/>
        <source>Export Unified Patch</source>
        <translation>Unified-Patch exportieren</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Patches (*.patch *.diff);;All files (*)</source>
        <translation>Patches (*.patch *.diff);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>No changes</source>
        <translation>Keine Änderungen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change %1 of %2</source>
        <translation>Änderung %1 von %2</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n Änderung</numerusform>
            <numerusform>%n Änderungen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Baseline</source>
        <translation>Basis</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Candidate</source>
        <translation>Kandidat</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Identical</source>
        <translation>Identisch</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>+%1 −%2 ~%3 lines</source>
        <translation>+%1 −%2 ~%3 Zeilen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 added, %2 removed, %3 changed lines</source>
        <translation>%1 hinzugefügte, %2 entfernte, %3 geänderte Zeilen</translation>
    </message>
</context>
<context>
    <name>gpuf::DistributionPlot</name>
    <message>
        <location filename="../widgets/forecast/distribution_plot.cpp" line="+37"/>
        <source>probability</source>
        <translation>Wahrscheinlichkeit</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>other bins</source>
        <translation>andere Klassen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>predicted bin</source>
        <translation>vorhergesagte Klasse</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Bin probabilities · %1 → bin %2 (shaded)</source>
        <translation>Klassenwahrscheinlichkeiten · %1 → Klasse %2 (schattiert)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bin probabilities (speedup of the candidate over the baseline)</source>
        <translation>Klassenwahrscheinlichkeiten (Beschleunigung des Kandidaten gegenüber der Basis)</translation>
    </message>
</context>
<context>
    <name>gpuf::EndpointForm</name>
    <message>
        <location filename="../widgets/forecast/endpoint_form.cpp" line="+52"/>
        <location line="+1"/>
        <location line="+1"/>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stream the answer (server-sent events)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool calling (forced tool choice)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+13"/>
        <source>not sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>One per line, e.g.
X-Title: gpuf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>default (the true bin geometry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>paper (the authors&apos; bins table)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>OS keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The keychain entry (service &quot;%1&quot;) that holds the key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>typed keys go to the keychain only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type the key to store it in the OS keychain under the entry above; leave it empty to keep the key already stored there. It is never written to the store or the settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base &amp;URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Temperature:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max &amp;tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reasoning effort:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Prompt profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Extra &amp;headers:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Concurrency:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Total timeout:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Idle timeout:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connect timeout:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Retries:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API &amp;key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Variable:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keychain entry:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+85"/>
        <source>extra headers, line %1: write &quot;Name: value&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>extra headers, line %1: &quot;%2&quot; looks like a credential, and headers are stored with the profile; give the API key below instead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+38"/>
        <source>the profile needs a name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>name the environment variable that holds the API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>name the keychain entry that holds the API key</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gpuf::EndpointsDialog</name>
    <message>
        <location filename="../widgets/forecast/endpoints_dialog.cpp" line="+73"/>
        <source>a forecaster named &quot;%1&quot; already exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>✓ yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>✗ no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>– skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;New Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+216"/>
        <source>&amp;Test Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-213"/>
        <source>Endpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>LLM forecasters in this store:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reachable:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Model listed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tool calling:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Streaming:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+106"/>
        <source>not tested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-75"/>
        <source>A new profile: fill in at least a name, the base URL and the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+72"/>
        <source>Open a store first: profiles are kept in the store (never their keys).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Cannot read the store&apos;s forecasters: %1</source>
        <translation>Die Prognosemodelle der Datenbank können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <location line="+40"/>
        <location line="+31"/>
        <source>Not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-16"/>
        <location line="+52"/>
        <source>The API key is in the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-52"/>
        <location line="+54"/>
        <source>The API key was not stored: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-35"/>
        <source>The API key was not stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Cancel &amp;Test</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gpuf::ExplanationModel</name>
    <message>
        <location filename="../widgets/forecast/explanation_model.cpp" line="+45"/>
        <source>%1 (GPU)</source>
        <translation>%1 (GPU)</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Feature</source>
        <translation>Merkmal</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Candidate</source>
        <translation>Kandidat</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Contribution</source>
        <translation>Beitrag</translation>
    </message>
</context>
<context>
    <name>gpuf::ForecastController</name>
    <message>
        <location filename="../widgets/forecast/forecast_controller.cpp" line="+85"/>
        <source>no forecaster named &quot;%1&quot; in the store</source>
        <translation>kein Prognosemodell namens „%1“ in der Datenbank</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 (built-in cost model, offline)</source>
        <translation>%1 (eingebautes Kostenmodell, offline)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Forecast Selected</source>
        <translation>Auswahl &amp;prognostizieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forecast &amp;Problem</source>
        <translation>&amp;Aufgabe prognostizieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Re-forecast Selected</source>
        <translation>Auswahl &amp;erneut prognostizieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel Forecasts</source>
        <translation>Prognosen a&amp;bbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fore&amp;caster</source>
        <translation>Prognose&amp;modell</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Hardware Shown to Forecasters</source>
        <translation>&amp;Hardware für die Prognosemodelle</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Forecasts could not run: %1</source>
        <translation>Prognosen konnten nicht ausgeführt werden: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n forecast(s) requested: %1 ok, %2 parse failed, %3 error(s), %4 cached, %5 cancelled</source>
        <translation>
            <numerusform>%n Prognose angefordert: %1 ok, %2 nicht lesbar, %3 Fehler, %4 aus dem Zwischenspeicher, %5 abgebrochen</numerusform>
            <numerusform>%n Prognosen angefordert: %1 ok, %2 nicht lesbar, %3 Fehler, %4 aus dem Zwischenspeicher, %5 abgebrochen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+96"/>
        <source>Open a store first.</source>
        <translation>Zuerst eine Datenbank öffnen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to forecast: select candidates that have a baseline.</source>
        <translation>Nichts zu prognostizieren: Kandidaten mit einer Basis auswählen.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cannot forecast with %1: %2</source>
        <translation>Prognose mit %1 nicht möglich: %2</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>Forecasting %n pair(s) with %1…</source>
        <translation>
            <numerusform>%n Paar wird mit %1 prognostiziert…</numerusform>
            <numerusform>%n Paare werden mit %1 prognostiziert…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Cannot read the store&apos;s forecasters: %1</source>
        <translation>Die Prognosemodelle der Datenbank können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>%1 (not in this store)</source>
        <translation>%1 (nicht in dieser Datenbank)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>None (the prompt names no GPU)</source>
        <translation>Keine (der Prompt nennt keine GPU)</translation>
    </message>
    <message numerus="yes">
        <location line="+16"/>
        <source>Forecast %n selected pair(s) with %1 (cached forecasts are reused)</source>
        <translation>
            <numerusform>%n ausgewähltes Paar mit %1 prognostizieren (zwischengespeicherte Prognosen werden wiederverwendet)</numerusform>
            <numerusform>%n ausgewählte Paare mit %1 prognostizieren (zwischengespeicherte Prognosen werden wiederverwendet)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+4"/>
        <source>Select candidates that have a baseline to forecast them</source>
        <translation>Kandidaten mit einer Basis auswählen, um sie zu prognostizieren</translation>
    </message>
    <message numerus="yes">
        <location line="-2"/>
        <source>Ask %1 again for %n selected pair(s), even where a forecast is cached</source>
        <translation>
            <numerusform>%1 erneut zu %n ausgewählten Paar fragen, auch wenn eine Prognose zwischengespeichert ist</numerusform>
            <numerusform>%1 erneut zu %n ausgewählten Paaren fragen, auch wo eine Prognose zwischengespeichert ist</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Forecast every candidate of the problem against its reference with %1 (%n pair(s))</source>
        <translation>
            <numerusform>Jeden Kandidaten der Aufgabe gegenüber ihrer Referenz mit %1 prognostizieren (%n Paar)</numerusform>
            <numerusform>Jeden Kandidaten der Aufgabe gegenüber ihrer Referenz mit %1 prognostizieren (%n Paare)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose a problem (or a candidate of one) first</source>
        <translation>Zuerst eine Aufgabe (oder einen ihrer Kandidaten) wählen</translation>
    </message>
</context>
<context>
    <name>gpuf::ForecastDetail</name>
    <message>
        <location filename="../widgets/forecast/forecast_detail.cpp" line="+41"/>
        <source> ↺ replayed from runtimes recorded earlier, not measured here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source> ↺ replayed from runtimes recorded on %1, not measured here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>no GPU named</source>
        <translation>keine GPU genannt</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Predicted bin:</source>
        <translation>Vorhergesagte Klasse:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Confidence:</source>
        <translation>Konfidenz:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expected speedup:</source>
        <translation>Erwartete Beschleunigung:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Entropy:</source>
        <translation>Entropie:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Raw sum:</source>
        <translation>Rohsumme:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Usage:</source>
        <translation>Verbrauch:</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Measured:</source>
        <translation>Gemessen:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deferral:</source>
        <translation>Zurückstellung:</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Select a candidate to see its forecasts.</source>
        <translation>Einen Kandidaten auswählen, um seine Prognosen zu sehen.</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Reasoning (streaming as it arrives)</source>
        <translation>Begründung (erscheint, während sie eintrifft)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rationales of the samples</source>
        <translation>Begründungen der Stichproben</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sample %1: %2</source>
        <translation>Stichprobe %1: %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rationale</source>
        <translation>Begründung</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(the forecast carries no rationale)</source>
        <translation>(die Prognose enthält keine Begründung)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>— Reasoning as it streamed —</source>
        <translation>— Begründung, wie sie eintraf —</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Reasoning</source>
        <translation>Überlegungen</translation>
    </message>
    <message numerus="yes">
        <location line="+27"/>
        <source>%1 · mean of %n parsed sample(s) · predicted bin = most probable bin of the mean</source>
        <translation>
            <numerusform>%1 · Mittel aus %n auswertbaren Stichprobe · vorhergesagte Klasse = wahrscheinlichste Klasse des Mittels</numerusform>
            <numerusform>%1 · Mittel aus %n auswertbaren Stichproben · vorhergesagte Klasse = wahrscheinlichste Klasse des Mittels</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 · sample %2 · %3</source>
        <translation>%1 · Stichprobe %2 · %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 · sample %2 · %3 · %4</source>
        <translation>%1 · Stichprobe %2 · %3 · %4</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 is forecasting this pair; its reasoning streams on the right.</source>
        <translation>%1 prognostiziert dieses Paar; seine Überlegungen erscheinen rechts, während sie eintreffen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queued for %1; it starts when a slot of the endpoint is free.</source>
        <translation>Für %1 eingereiht; die Prognose beginnt, sobald beim Endpunkt ein Platz frei ist.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>measured %1 ↺ (replay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>measured %1</source>
        <translation>gemessen %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no reason was recorded</source>
        <translation>kein Grund aufgezeichnet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The answer could not be parsed: %1</source>
        <translation>Die Antwort konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The forecast failed: %1</source>
        <translation>Die Prognose ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The forecast holds no usable predicted bin.</source>
        <translation>Die Prognose enthält keine verwendbare vorhergesagte Klasse.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 (max_prob) · neg_entropy %2 · top2_margin %3</source>
        <translation>%1 (max_prob) · neg_entropy %2 · top2_margin %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (expected bin %2)</source>
        <translation>%1 (erwartete Klasse %2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 nats</source>
        <translation>%1 nats</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (the distribution was renormalised by it)</source>
        <translation>%1 (die Verteilung wurde damit renormiert)</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+7"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>%1 tokens in, %2 out</source>
        <translation>%1 Tokens hinein, %2 heraus</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+7"/>
        <source>not measured</source>
        <translation>nicht gemessen</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>hardware #%1</source>
        <translation>Hardware #%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the candidate failed on %1 (%2): a failure, not a bin</source>
        <translation>der Kandidat ist auf %1 fehlgeschlagen (%2): ein Fehlschlag, keine Klasse</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the candidate was measured on %1, the baseline was not: no speedup yet</source>
        <translation>der Kandidat wurde auf %1 gemessen, die Basis nicht: noch keine Beschleunigung</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%1 on %2 (bin %3, %n case(s))</source>
        <translation>
            <numerusform>%1 auf %2 (Klasse %3, %n Fall)</numerusform>
            <numerusform>%1 auf %2 (Klasse %3, %n Fälle)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+15"/>
        <source>deferred to the GPU: the forecast gave no distribution (τ = %1)</source>
        <translation>an die GPU übergeben: die Prognose lieferte keine Verteilung (τ = %1)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>deferred to the GPU: confidence %1 &lt; τ = %2</source>
        <translation>an die GPU übergeben: Konfidenz %1 &lt; τ = %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>trusted: confidence %1 ≥ τ = %2</source>
        <translation>vertraut: Konfidenz %1 ≥ τ = %2</translation>
    </message>
</context>
<context>
    <name>gpuf::ForecastEngine</name>
    <message>
        <location filename="../core/forecasters/forecast_engine.cpp" line="+99"/>
        <source>Forecasts cannot be stored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+14"/>
        <source>no forecaster with id %1 in the store</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+27"/>
        <location line="+142"/>
        <source>no store is open</source>
        <translation>keine Datenbank geöffnet</translation>
    </message>
    <message>
        <location line="-140"/>
        <source>the number of samples must be at least 1 (got %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+19"/>
        <source>reference kernel %1 is not in the store</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>candidate kernel %1 is not in the store</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+78"/>
        <source>Nothing forecast: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+43"/>
        <source>forecast made but not stored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+98"/>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
</context>
<context>
    <name>gpuf::ForecastPanel</name>
    <message>
        <location filename="../widgets/forecast/forecast_panel.cpp" line="+67"/>
        <source>Measure on GPU</source>
        <translation>Auf der GPU messen</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>samples: </source>
        <translation>Stichproben: </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Independent samples per pair; each is stored, and the table shows their mean</source>
        <translation>Unabhängige Stichproben je Paar; jede wird gespeichert, die Tabelle zeigt ihren Mittelwert</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Forecast</source>
        <translation>Prognose</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What the forecaster saw</source>
        <translation>Was das Prognosemodell sah</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Explanation</source>
        <translation>Erklärung</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Cannot read the forecasts of this pair: %1</source>
        <translation>Die Prognosen dieses Paars können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <location line="+65"/>
        <location line="+128"/>
        <source>Reading the forecasts of this pair…</source>
        <translation>Die Prognosen dieses Paars werden gelesen…</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Select a candidate to see its forecasts.</source>
        <translation>Einen Kandidaten auswählen, um seine Prognosen zu sehen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No forecast of this pair yet. &quot;Forecast Selected&quot; asks %1; the built-in cost model answers offline.</source>
        <translation>Noch keine Prognose für dieses Paar. „Auswahl prognostizieren“ fragt %1; das eingebaute Kostenmodell antwortet offline.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The messages and the response are stored with the forecast when it finishes.</source>
        <translation>Die Nachrichten und die Antwort werden mit der Prognose gespeichert, sobald sie fertig ist.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose one sample to see what it was given.</source>
        <translation>Eine Stichprobe wählen, um zu sehen, was ihr vorgelegt wurde.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Choose a cost-model forecast to see the features that decided it.</source>
        <translation>Eine Kostenmodell-Prognose wählen, um die Merkmale zu sehen, die sie entschieden haben.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This cost-model forecast carries no explanation: %1</source>
        <translation>Diese Kostenmodell-Prognose enthält keine Erklärung: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only the cost model explains its forecasts feature by feature; a language model&apos;s reasoning is on the Forecast tab.</source>
        <translation>Nur das Kostenmodell erklärt seine Prognosen Merkmal für Merkmal; die Begründung eines Sprachmodells steht im Reiter „Prognose“.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1
Top contributions toward bin %2 (%3), in log-odds; reference value → candidate value.</source>
        <translation>%1
Stärkste Beiträge zu Klasse %2 (%3), in Log-Odds; Referenzwert → Kandidatenwert.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No pair selected</source>
        <translation>Kein Paar ausgewählt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Candidate %1 against kernel %2</source>
        <translation>Kandidat %1 gegenüber Kernel %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;%1&lt;/b&gt; against &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; gegenüber &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>forecaster: %1</source>
        <translation>Prognosemodell: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>no store is open</source>
        <translation>keine Datenbank geöffnet</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>select a candidate first</source>
        <translation>zuerst einen Kandidaten auswählen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>measuring on the GPU is unavailable: %1</source>
        <translation>Messen auf der GPU ist nicht möglich: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>looking for the GPU…</source>
        <translation>GPU wird gesucht…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Measure this candidate on %1</source>
        <translation>Diesen Kandidaten auf %1 messen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measure this candidate and its baseline on %1</source>
        <translation>Diesen Kandidaten und seine Basis auf %1 messen</translation>
    </message>
    <message>
        <location filename="../widgets/forecast/pair_forecasts.cpp" line="+137"/>
        <source>kernel %1 is not in the store</source>
        <translation>Kernel %1 ist nicht in der Datenbank</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>hit</source>
        <translation>Treffer</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>miss, off by %n bin(s) (predicted faster than measured)</source>
        <translation>
            <numerusform>verfehlt um %n Klasse (schneller vorhergesagt als gemessen)</numerusform>
            <numerusform>verfehlt um %n Klassen (schneller vorhergesagt als gemessen)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>miss, off by %n bin(s) (predicted slower than measured)</source>
        <translation>
            <numerusform>verfehlt um %n Klasse (langsamer vorhergesagt als gemessen)</numerusform>
            <numerusform>verfehlt um %n Klassen (langsamer vorhergesagt als gemessen)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpuf::ForecastRowsModel</name>
    <message numerus="yes">
        <location filename="../widgets/forecast/forecast_rows_model.cpp" line="+116"/>
        <source>mean of %n parsed sample(s)</source>
        <translation>
            <numerusform>Mittel aus %n auswertbaren Stichprobe</numerusform>
            <numerusform>Mittel aus %n auswertbaren Stichproben</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>queued</source>
        <translation>wartet</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ok, but no usable bin</source>
        <translation>ok, aber keine verwendbare Klasse</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>parse failed: %1</source>
        <translation>nicht lesbar: %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>max_prob %1 · neg_entropy %2 · top2_margin %3</source>
        <translation>max_prob %1 · neg_entropy %2 · top2_margin %3</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Forecaster</source>
        <translation>Prognosemodell</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hardware</source>
        <translation>Hardware</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sample</source>
        <translation>Stichprobe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Predicted bin</source>
        <translation>Vorhergesagte Klasse</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Confidence</source>
        <translation>Konfidenz</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Expected speedup</source>
        <translation>Erwartete Beschleunigung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
</context>
<context>
    <name>gpuf::ForecasterInputView</name>
    <message>
        <location filename="../widgets/forecast/forecaster_input_view.cpp" line="+38"/>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the whole text to the clipboard</source>
        <translation>Den ganzen Text in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Exact JSON</source>
        <translation>Genaues JSON</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show the messages exactly as stored (the JSON array that was sent)</source>
        <translation>Die Nachrichten genau so zeigen, wie sie gespeichert sind (das gesendete JSON-Array)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Messages sent</source>
        <translation>Gesendete Nachrichten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Raw response</source>
        <translation>Rohe Antwort</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Choose a forecast to see what it was given.</source>
        <translation>Eine Prognose wählen, um zu sehen, was ihr vorgelegt wurde.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This forecaster was given no chat messages: the cost model reads features of both kernels (see Explanation). Its response is the explanation it stored.</source>
        <translation>Dieses Prognosemodell erhielt keine Chat-Nachrichten: Das Kostenmodell liest Merkmale beider Kernel (siehe Erklärung). Seine Antwort ist die gespeicherte Erklärung.</translation>
    </message>
</context>
<context>
    <name>gpuf::KernelDropTarget</name>
    <message>
        <location filename="../widgets/candidates/kernel_drop_target.cpp" line="+65"/>
        <source>Not added: %1 — only .cu, .cuh and .py files can be added as kernels.</source>
        <translation>Nicht hinzugefügt: %1 — nur .cu-, .cuh- und .py-Dateien können als Kernel hinzugefügt werden.</translation>
    </message>
</context>
<context>
    <name>gpuf::MainWindow</name>
    <message>
        <location filename="../app/explorer/main_window.cpp" line="+77"/>
        <source>Cannot open store</source>
        <translation>Datenbank kann nicht geöffnet werden</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Problems</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Store</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Candidates</source>
        <translation>Kandidaten</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Measurements</source>
        <translation>Messungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Metrics</source>
        <translation>Metriken</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Calibration</source>
        <translation>Kalibrierung</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Forecast</source>
        <translation>Prognose</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New Store…</source>
        <translation>&amp;Neue Datenbank…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open Store…</source>
        <translation>Datenbank ö&amp;ffnen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open &amp;Sample Store</source>
        <translation>Bei&amp;spieldatenbank öffnen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Import…</source>
        <translation>&amp;Importieren…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Export Bundle…</source>
        <translation>Bundle e&amp;xportieren…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add &amp;Kernel from File…</source>
        <translation>&amp;Kernel aus Datei hinzufügen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add Kernel from Clip&amp;board</source>
        <translation>Kernel aus der Zwischen&amp;ablage hinzufügen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Close Store</source>
        <translation>Datenbank s&amp;chließen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Measure</source>
        <translation>&amp;Messen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>F&amp;orecast</source>
        <translation>&amp;Prognose</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Endpoints…</source>
        <translation>E&amp;ndpunkte…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Diff</source>
        <translation>&amp;Vergleich</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Compare with &amp;Reference</source>
        <translation>Mit &amp;Referenz vergleichen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compare with &amp;Parent</source>
        <translation>Mit &amp;Vorgänger vergleichen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Reload Store</source>
        <translation>Datenbank &amp;neu laden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restore &amp;Default Layout</source>
        <translation>&amp;Standardanordnung wiederherstellen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Color Scheme</source>
        <translation>&amp;Farbschema</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;System</source>
        <translation>&amp;System</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Light</source>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Dark</source>
        <translation>&amp;Dunkel</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About GPU Forecaster Explorer</source>
        <translation>&amp;Über GPU Forecaster Explorer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About GPU Forecaster Explorer</source>
        <translation>Über GPU Forecaster Explorer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;GPU Forecaster Explorer&lt;/b&gt; %1&lt;br&gt;Forecast, explain and measure GPU kernel speedups.&lt;br&gt;Syntax highlighting: %2.</source>
        <translation>&lt;b&gt;GPU Forecaster Explorer&lt;/b&gt; %1&lt;br&gt;Beschleunigungen von GPU-Kerneln prognostizieren, erklären und messen.&lt;br&gt;Syntaxhervorhebung: %2.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>off (built without it)</source>
        <translation>aus (ohne sie gebaut)</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>GPU Forecaster Explorer</source>
        <translation>GPU Forecaster Explorer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No store open</source>
        <translation>Keine Datenbank geöffnet</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 — GPU Forecaster Explorer</source>
        <translation>%1 — GPU Forecaster Explorer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · %2 kernels · %3 measurements · %4 forecasts</source>
        <translation>%1 · %2 Kernel · %3 Messungen · %4 Prognosen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Open Store</source>
        <translation>Datenbank öffnen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>gpuf stores (*.gpuf *.sqlite *.db);;All files (*)</source>
        <translation>gpuf-Datenbanken (*.gpuf *.sqlite *.db);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>New Store</source>
        <translation>Neue Datenbank</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>gpuf stores (*.gpuf)</source>
        <translation>gpuf-Datenbanken (*.gpuf)</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+4"/>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Open or create a store first.</source>
        <translation>Zuerst eine Datenbank öffnen oder anlegen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>JSON Lines (*.jsonl *.json *.ndjson);;All files (*)</source>
        <translation>JSON Lines (*.jsonl *.json *.ndjson);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Export Bundle</source>
        <translation>Bundle exportieren</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>gpuf bundles (*.jsonl)</source>
        <translation>gpuf-Bundles (*.jsonl)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Add Kernel</source>
        <translation>Kernel hinzufügen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kernel sources (*.cu *.cuh *.py);;All files (*)</source>
        <translation>Kernel-Quellen (*.cu *.cuh *.py);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The clipboard holds no text to add as a kernel.</source>
        <translation>Die Zwischenablage enthält keinen Text, der als Kernel hinzugefügt werden kann.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Open or create a store first: a kernel is added to one of its problems.</source>
        <translation>Zuerst eine Datenbank öffnen oder anlegen: Ein Kernel wird einer ihrer Aufgaben hinzugefügt.</translation>
    </message>
</context>
<context>
    <name>gpuf::MeasureEngine</name>
    <message>
        <location filename="../core/measure/measure_engine.cpp" line="+38"/>
        <source>Measurements cannot be stored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+127"/>
        <source>kernel %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+170"/>
        <location line="+49"/>
        <source>no store is open</source>
        <translation>keine Datenbank geöffnet</translation>
    </message>
    <message>
        <location line="-192"/>
        <source>No store is open.</source>
        <translation>Keine Datenbank geöffnet.</translation>
    </message>
    <message numerus="yes">
        <location line="+27"/>
        <source>%n candidate(s) with forecast confidence below %1 queued</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; skipped: %1 already measured here, %2 without a kernel spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <source>cancelled before it ran</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cancelled while running; gpuf-measure was killed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+38"/>
        <location line="+11"/>
        <source>the queue was shut down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+73"/>
        <source>replay could not be stored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>replayed from %n stored measurement(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>the worker did not describe its device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+39"/>
        <source>measured, but not stored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+44"/>
        <source>gpuf-measure does not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gpuf::MeasurePanel</name>
    <message>
        <location filename="../widgets/measure/measure_panel.cpp" line="+48"/>
        <source>Measure on GPU</source>
        <translation>Auf der GPU messen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel all</source>
        <translation>Alle abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re-measure</source>
        <translation>Erneut messen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Clear finished</source>
        <translation>Abgeschlossene entfernen</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>confidence &lt; </source>
        <translation>Konfidenz &lt; </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Candidates whose forecast confidence (probability of the predicted bin) is below this are measured by &quot;Measure low-confidence&quot; (kept in the settings).</source>
        <translation>Kandidaten, deren Prognosekonfidenz (Wahrscheinlichkeit der vorhergesagten Klasse) darunter liegt, misst „Unsichere Prognosen messen“ (wird in den Einstellungen gespeichert).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%v of %m finished</source>
        <translation>%v von %m abgeschlossen</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>looking for the GPU…</source>
        <translation>GPU wird gesucht…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>no store is open</source>
        <translation>keine Datenbank geöffnet</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>queue empty</source>
        <translation>Warteschlange leer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%v of %m finished (%1 running, %2 queued)</source>
        <translation>%v von %m abgeschlossen (%1 laufen, %2 warten)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Measuring on the GPU is unavailable: %1</source>
        <translation>Messen auf der GPU ist nicht möglich: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Select candidates to measure</source>
        <translation>Kandidaten zum Messen auswählen</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Measure %n selected candidate(s) on %1</source>
        <translation>
            <numerusform>%n ausgewählten Kandidaten auf %1 messen</numerusform>
            <numerusform>%n ausgewählte Kandidaten auf %1 messen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measure low-confidence (&lt; %1)</source>
        <translation>Unsichere Prognosen messen (&lt; %1)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Measure every candidate whose forecast confidence is below %1 and that has no local measurement yet</source>
        <translation>Jeden Kandidaten messen, dessen Prognosekonfidenz unter %1 liegt und der noch keine lokale Messung hat</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Measure the selected finished items again</source>
        <translation>Die ausgewählten abgeschlossenen Einträge erneut messen</translation>
    </message>
</context>
<context>
    <name>gpuf::MeasureQueueModel</name>
    <message>
        <location filename="../widgets/measure/measure_queue_model.cpp" line="+47"/>
        <source>queued</source>
        <translation>wartet</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>replayed: %1</source>
        <translation>aus Aufzeichnung: %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>done: %1</source>
        <translation>fertig: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>timeout</source>
        <translation>Zeitüberschreitung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>%1/%2 ok</source>
        <translation>%1/%2 ok</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>replay</source>
        <translation>Aufzeichnung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>local GPU</source>
        <translation>lokale GPU</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Priority</source>
        <translation>Priorität</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cases</source>
        <translation>Fälle</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Median</source>
        <translation>Median</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
</context>
<context>
    <name>gpuf::MetricsTable</name>
    <message>
        <location filename="../widgets/calibration/metrics_table.cpp" line="+116"/>
        <source>The forecasters to compare</source>
        <translation>Die zu vergleichenden Prognosemodelle</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only candidates of this problem</source>
        <translation>Nur Kandidaten dieser Aufgabe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only forecasts for this hardware</source>
        <translation>Nur Prognosen für diese Hardware</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Same pairs only</source>
        <translation>Nur gleiche Paare</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare the forecasters only on the pairs every one of them forecast</source>
        <translation>Die Prognosemodelle nur auf den Paaren vergleichen, die jedes von ihnen prognostiziert hat</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no intervals</source>
        <translation>keine Intervalle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> resamples</source>
        <translation> Ziehungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bootstrap resamples for the 95% intervals</source>
        <translation>Bootstrap-Ziehungen für die 95-%-Intervalle</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>All problems</source>
        <translation>Alle Aufgaben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All hardware</source>
        <translation>Alle Hardware</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>All %n forecaster(s)</source>
        <translation>
            <numerusform>%n Prognosemodell (alle)</numerusform>
            <numerusform>Alle %n Prognosemodelle</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 forecasters</source>
        <translation>%1 von %2 Prognosemodellen</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Computing metrics…</source>
        <translation>Metriken werden berechnet…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The metrics could not be computed: %1</source>
        <translation>Die Metriken konnten nicht berechnet werden: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open a store to evaluate its forecasts.</source>
        <translation>Eine Datenbank öffnen, um ihre Prognosen auszuwerten.</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n scored forecast(s) on pairs every forecaster shown forecast</source>
        <translation>
            <numerusform>%n bewertete Prognose auf Paaren, die jedes gezeigte Prognosemodell prognostiziert hat</numerusform>
            <numerusform>%n bewertete Prognosen auf Paaren, die jedes gezeigte Prognosemodell prognostiziert hat</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n scored forecast(s)</source>
        <translation>
            <numerusform>%n bewertete Prognose</numerusform>
            <numerusform>%n bewertete Prognosen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n forecast(s) have no measured truth</source>
        <translation>
            <numerusform>%n Prognose hat keinen gemessenen Wahrheitswert</numerusform>
            <numerusform>%n Prognosen haben keinen gemessenen Wahrheitswert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n forecast(s) are of failed candidates (not scored)</source>
        <translation>
            <numerusform>%n Prognose gehört zu fehlgeschlagenen Kandidaten (nicht bewertet)</numerusform>
            <numerusform>%n Prognosen gehören zu fehlgeschlagenen Kandidaten (nicht bewertet)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+22"/>
        <source>Candidates scored for %1 (%n pair(s))</source>
        <translation>
            <numerusform>Für %1 bewertete Kandidaten (%n Paar)</numerusform>
            <numerusform>Für %1 bewertete Kandidaten (%n Paare)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+4"/>
        <source>Export metrics</source>
        <translation>Metriken exportieren</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV-Dateien (*.csv);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>gpuf::MetricsTableModel</name>
    <message>
        <location filename="../widgets/calibration/metrics_table_model.cpp" line="+145"/>
        <source>%1 (%2)
%3 forecasts: %4 scored, %5 without measured truth, %6 failed candidates, %7 errors</source>
        <translation>%1 (%2)
%3 Prognosen: %4 bewertet, %5 ohne gemessenen Wahrheitswert, %6 fehlgeschlagene Kandidaten, %7 Fehler</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Higher is better.</source>
        <translation>Höher ist besser.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Lower is better.</source>
        <translation>Niedriger ist besser.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>95% bootstrap interval over %1 resamples.</source>
        <translation>95-%-Bootstrap-Intervall über %1 Ziehungen.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Forecaster</source>
        <translation>Prognosemodell</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The forecaster (display name)</source>
        <translation>Das Prognosemodell (Anzeigename)</translation>
    </message>
</context>
<context>
    <name>gpuf::PlotWidget</name>
    <message>
        <location filename="../widgets/plots/plot_widget.cpp" line="+39"/>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save this plot as PNG, SVG or PDF</source>
        <translation>Dieses Diagramm als PNG, SVG oder PDF speichern</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>PNG image…</source>
        <translation>PNG-Bild…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SVG drawing…</source>
        <translation>SVG-Zeichnung…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PDF document…</source>
        <translation>PDF-Dokument…</translation>
    </message>
    <message numerus="yes">
        <location line="+25"/>
        <source> · %n with a truth replayed from stored runtimes ↺</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Cannot tell the format of &quot;%1&quot;: use .png, .svg or .pdf.</source>
        <translation>Das Format von „%1“ ist nicht erkennbar: .png, .svg oder .pdf verwenden.</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Could not write &quot;%1&quot;.</source>
        <translation>„%1“ konnte nicht geschrieben werden.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>PNG image (*.png)</source>
        <translation>PNG-Bild (*.png)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>SVG drawing (*.svg)</source>
        <translation>SVG-Zeichnung (*.svg)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PDF document (*.pdf)</source>
        <translation>PDF-Dokument (*.pdf)</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+7"/>
        <source>Export plot</source>
        <translation>Diagramm exportieren</translation>
    </message>
</context>
<context>
    <name>gpuf::ProblemCountsModel</name>
    <message>
        <location filename="../widgets/overview/problem_counts_model.cpp" line="+65"/>
        <source>Problem</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kernels</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measurements</source>
        <translation>Messungen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Forecasts</source>
        <translation>Prognosen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pair labels</source>
        <translation>Paar-Labels</translation>
    </message>
</context>
<context>
    <name>gpuf::ProblemTreeModel</name>
    <message>
        <location filename="../widgets/candidates/problem_tree_model.cpp" line="+230"/>
        <source>All kernels</source>
        <translation>Alle Kernel</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 (reference)</source>
        <translation>%1 (Referenz)</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Problem / search / kernel</source>
        <translation>Aufgabe / Suche / Kernel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kernels</source>
        <translation>Kernel</translation>
    </message>
</context>
<context>
    <name>gpuf::ReliabilityPlot</name>
    <message>
        <location filename="../widgets/calibration/reliability_plot.cpp" line="+34"/>
        <source>Reliability diagram</source>
        <translation>Zuverlässigkeitsdiagramm</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>accuracy</source>
        <translation>Trefferquote</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>confidence (max_prob)</source>
        <translation>Konfidenz (max_prob)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>forecasts</source>
        <translation>Prognosen</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>perfect calibration</source>
        <translation>perfekte Kalibrierung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reliability (confidence = max_prob, %1 buckets)</source>
        <translation>Zuverlässigkeit (Konfidenz = max_prob, %1 Intervalle)</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>%1: ECE %2 · %3 parsed of %4%5</source>
        <translation>%1: ECE %2 · %3 auswertbar von %4%5</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · whiskers: %1 bootstrap resamples</source>
        <translation> · Fehlerbalken: %1 Bootstrap-Ziehungen</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>max_prob %1–%2 (%3)</source>
        <translation>max_prob %1–%2 (%3)</translation>
    </message>
</context>
<context>
    <name>gpuf::RetrainDialog</name>
    <message>
        <location filename="../widgets/forecast/retrain_dialog.cpp" line="+50"/>
        <source>&amp;Cancel Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Retrain Cost Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Held-out operation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Pairs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each operation is predicted by a model that never saw it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Training the cost model in the background; you can close this window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>Trained on %1 measured pairs of %2 kernels in %n operation(s) (%3 s); temperature %4. Saved to %5; the costmodel forecaster now forecasts with it (Forecast ▸ Use Built-in Cost Model switches back).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Nothing was retrained: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+15"/>
        <source>pooled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gpuf::RiskCoveragePlot</name>
    <message>
        <location filename="../widgets/calibration/risk_coverage_plot.cpp" line="+43"/>
        <source>Risk–coverage</source>
        <translation>Risiko–Abdeckung</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>binary mismatch</source>
        <translation>falsche Klasse</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>regret</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Threshold τ: forecasts whose confidence is below τ are deferred to a GPU measurement</source>
        <translation>Schwelle τ: Prognosen mit einer Konfidenz unter τ werden an eine GPU-Messung übergeben</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Score:</source>
        <translation>&amp;Maß:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Risk:</source>
        <translation>&amp;Risiko:</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>coverage (share of forecasts trusted)</source>
        <translation>Abdeckung (Anteil vertrauter Prognosen)</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Risk–coverage (confidence = %1, risk = %2)</source>
        <translation>Risiko–Abdeckung (Konfidenz = %1, Risiko = %2)</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 (AURC %2)</source>
        <translation>%1 (AURC %2)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: AURC %2</source>
        <translation>%1: AURC %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>regret (speedup given up)</source>
        <translation>Verlust (entgangene Beschleunigung)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>risk (share of trusted forecasts in a wrong bin)</source>
        <translation>Risiko (Anteil vertrauter Prognosen in einer falschen Klasse)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>τ = %1</source>
        <translation>τ = %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1: coverage %2%, risk %3, %4 GPU measurements (forecasts deferred, of %5)</source>
        <translation>%1: Abdeckung %2 %, Risiko %3, %4 GPU-Messungen (übergebene Prognosen, von %5)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No forecasts to threshold.</source>
        <translation>Keine Prognosen für eine Schwelle.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>forecasts trusted at %1 ≥ %2 (%3)</source>
        <translation>vertraute Prognosen bei %1 ≥ %2 (%3)</translation>
    </message>
</context>
<context>
    <name>gpuf::SourceViewer</name>
    <message>
        <location filename="../widgets/diff/source_viewer.cpp" line="+48"/>
        <source>Kernel source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
</context>
<context>
    <name>gpuf::StoreOverview</name>
    <message>
        <location filename="../widgets/overview/store_overview.cpp" line="+41"/>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet…</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+4"/>
        <source>No store is open.</source>
        <translation>Keine Datenbank geöffnet.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 (%2 replayed ↺)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 problems · %3 kernels · %4 measurements · %5 forecasts by %6 forecasters · %7 pair labels · %8 searches (%9 events)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 Aufgaben · %3 Kernel · %4 Messungen · %5 Prognosen von %6 Prognosemodellen · %7 Paar-Labels · %8 Suchläufe (%9 Ereignisse)</translation>
    </message>
</context>
<context>
    <name>gpuf::StoreSession</name>
    <message>
        <location filename="../widgets/session/store_session.cpp" line="+40"/>
        <source>Opening %1</source>
        <translation>%1 wird geöffnet</translation>
    </message>
</context>
<context>
    <name>gpuf::bins</name>
    <message>
        <location filename="../core/bins/bins.cpp" line="+18"/>
        <source>severe slowdown</source>
        <translation>erhebliche Verlangsamung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>significant slowdown</source>
        <translation>deutliche Verlangsamung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>slight slowdown</source>
        <translation>leichte Verlangsamung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>slight speedup</source>
        <translation>leichte Beschleunigung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>moderate speedup</source>
        <translation>mäßige Beschleunigung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>significant speedup</source>
        <translation>deutliche Beschleunigung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>high speedup</source>
        <translation>hohe Beschleunigung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>extreme speedup</source>
        <translation>extreme Beschleunigung</translation>
    </message>
</context>
<context>
    <name>gpuf::candidates</name>
    <message>
        <location filename="../widgets/candidates/candidate_query.cpp" line="+16"/>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>measured (replay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>forecast trusted</source>
        <translation>Prognose akzeptiert</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not measured</source>
        <translation>nicht gemessen</translation>
    </message>
</context>
<context>
    <name>gpuf::costmodel</name>
    <message>
        <location filename="../core/forecasters/costmodel/costmodel_explain.cpp" line="+75"/>
        <source>Predicted %1 (%2, p = %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+16"/>
        <source> from the model&apos;s prior: no feature stood out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/forecasters/costmodel/costmodel_retrain.cpp" line="+26"/>
        <source>This store has %n measured pair(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source> in %n operation(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; retraining needs at least %1 pairs in at least %2 operations, since each operation is held out in turn and predicted by a model trained on the others. A pair is two kernels of one problem measured ok on the same GPU: measure more kernels, or open a store with more measurements.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Reading the measured pairs of %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 measured pairs of %2 kernels in %3 operations: training with leave-one-operation-out validation…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Saving the model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cannot create the folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the saved model cannot be read back: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Done: the model is saved.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gpuf::explorer</name>
    <message>
        <location filename="../app/explorer/main.cpp" line="+21"/>
        <source>The interface language, e.g. de or en (default: the system&apos;s; the GPUF_LANG variable works too).</source>
        <translation>Die Sprache der Oberfläche, z. B. de oder en (Standard: die des Systems; die Variable GPUF_LANG wirkt ebenso).</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>GPU Forecaster Explorer</source>
        <translation>GPU Forecaster Explorer</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open the bundled sample store.</source>
        <translation>Die mitgelieferte Beispieldatenbank öffnen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>system, light or dark (remembered for later starts).</source>
        <translation>system, light oder dark (wird für spätere Starts gemerkt).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the store to open (created when missing), or a case file (*.gpufcase) to open in a store of its own</source>
        <translation>die zu öffnende Datenbank (wird angelegt, wenn sie fehlt) oder eine Falldatei (*.gpufcase), die in einer eigenen Datenbank geöffnet wird</translation>
    </message>
</context>
<context>
    <name>gpuf::features</name>
    <message>
        <location filename="../core/features/feature_catalog.cpp" line="+16"/>
        <source>loads %1 bytes per thread access</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 line%s of vector (8/16-byte) loads or stores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 __ldg read-only load%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>marks %1 pointer%s __restrict__</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 coalesced global access%s (lanes one element apart)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 strided global access%s (lanes a stride apart)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>declares %1 shared-memory array%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>uses %1 bytes of static shared memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pads %1 shared array%s against bank conflicts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 column-wise access%s to an unpadded shared tile (bank conflicts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>uses dynamic shared memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>uses no dynamic shared memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 __syncthreads() barrier%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 __syncthreads() barrier%s inside loops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 __syncwarp() call%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 atomic operation%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 warp shuffle%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 warp-level reduce intrinsic%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 cooperative-groups call%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 tensor-core operation%s (wmma/mma/tl.dot)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 asynchronous copy instruction%s (cp.async)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 loop%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>nests loops %1 deep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 unroll pragma%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 grid-stride loop%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 block-stride loop%s (threads of a block share a row)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 branch%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 warp-divergent branch%s (lane modulo tests)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>defines %1 kernel%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>makes %1 kernel launch%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>declares __launch_bounds__</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>declares no __launch_bounds__</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>runs %1 thread%s per block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>launches about %1 threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>launches about %1 blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>asks for %1 bytes of dynamic shared memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>keeps %1 element%s in per-thread arrays (register tiles)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>uses fp16 in %1 place%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>uses bf16 in %1 place%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>uses fp64 in %1 place%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>uses int8 in %1 place%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>uses fp8 in %1 place%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>uses %1 fast-math intrinsic%s (__expf, rsqrtf, …)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>calls %1 precise math function%s (expf, sqrtf, …)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>makes %1 library call%s (cuBLAS/cuDNN/torch ops)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>calls %1 torch op%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>uses Triton blocks of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>runs Triton with %1 warp%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pipelines Triton loads over %1 stage%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 tl.dot call%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 tl.load call%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 masked tl.load call%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 line%s of code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>uses %1 register%s per thread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>spills %1 bytes to local memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>compiles to %1 bytes of static shared memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>uses %1 bytes of local memory per thread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 ld.global.v4 instruction%s in PTX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 ld.global.v2 instruction%s in PTX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 global load%s in PTX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 global store%s in PTX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 mma/wgmma instruction%s in PTX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 cp.async instruction%s in PTX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 bar.sync barrier%s in PTX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 atom/red instruction%s in PTX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 shfl instruction%s in PTX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compiles to %1 PTX instruction%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>has compute capability %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 SM%s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>runs up to %1 threads per SM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>clocks at %1 GHz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>clocks memory at %1 GHz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has a %1-bit memory bus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has %1 MB of L2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>has %1 KB of shared memory per SM</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gpuf::llm::EndpointProbe</name>
    <message>
        <location filename="../core/llm/endpoint_probe.cpp" line="+162"/>
        <source>connection refused to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no answer from %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 cannot be reached: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>skipped: the endpoint cannot be reached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>HTTP %1 from %2 in %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1/models answered HTTP %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>&quot;%1&quot; is listed (%n model(s) in all)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>&quot;%1&quot; is not among the %n listed model(s): %2</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+45"/>
        <source>the model called %1(%2) in %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the model called &quot;%1&quot; instead of the forced tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the model answered without calling the tool (finish reason &quot;%1&quot;): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the server answered with one JSON body instead of server-sent events</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n streamed piece(s), the first after %1, all in %2</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+41"/>
        <source>skipped: the profile is incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <source>skipped: no API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+18"/>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
</context>
</TS>
