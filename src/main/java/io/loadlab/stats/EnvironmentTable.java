package io.loadlab.stats;

import io.loadlab.data.ExperimentRecord;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The environment and set-up of several experiments side by side: what each experiment.json
 * records (machine, versions, sources, engines, settings), then what the runs themselves say
 * (connections, CPUs, engine, warm-up used, steady and load-bound runs, noise and steal), one
 * column per experiment and a {@code differs} column: {@code yes} where the values differ,
 * {@code unknown} where one experiment did not record it (never read as "same"), empty where all agree.
 */
final class EnvironmentTable {

    private EnvironmentTable() {
    }

    static Table of(List<ExperimentRecord> records, List<RunData> data, List<String> labels) {
        StringColumn item = StringColumn.create(StatsColumn.ITEM.id());
        List<StringColumn> values = new ArrayList<>();
        labels.forEach(l -> values.add(StringColumn.create(l)));
        StringColumn differs = StringColumn.create(StatsColumn.DIFFERS.id());
        Set<String> names = new LinkedHashSet<>();
        records.forEach(r -> names.addAll(r.facts().keySet()));
        for (String name : names) {
            item.append(name);
            List<String> texts = new ArrayList<>();
            for (int i = 0; i < records.size(); i++) {
                String v = records.get(i).fact(name);
                values.get(i).append(v);
                texts.add(v);
            }
            differs.append(mark(texts.stream().anyMatch(ExperimentRecord::isUnknown),
                    texts.stream().distinct().count() > 1));
        }
        List<List<SetupFacts.Fact>> runFacts = new ArrayList<>();
        for (RunData d : data) {
            List<Integer> ok = new ArrayList<>();
            d.okRows().values().forEach(ok::addAll);
            runFacts.add(SetupFacts.of(d, ok));
        }
        for (int f = 0; f < runFacts.get(0).size(); f++) {
            item.append("runs: " + runFacts.get(0).get(f).name());
            boolean unknown = false;
            boolean differ = false;
            for (int i = 0; i < runFacts.size(); i++) {
                SetupFacts.Fact fact = runFacts.get(i).get(f);
                values.get(i).append(fact.text());
                unknown |= !fact.known();
                differ |= fact.known() && runFacts.get(0).get(f).known() && fact.differs(runFacts.get(0).get(f));
            }
            differs.append(mark(unknown, differ));
        }
        Table t = Table.create("environment and set-up", item);
        values.forEach(t::addColumns);
        return t.addColumns(differs);
    }

    private static String mark(boolean unknown, boolean differ) {
        return unknown ? "unknown" : differ ? "yes" : "";
    }
}
