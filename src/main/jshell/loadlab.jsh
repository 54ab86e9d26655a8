// Loadlab's JShell start-up (loaded by `loadlab jshell` after JShell's DEFAULT imports).
import io.loadlab.Loadlab;
import io.loadlab.data.*;
import io.loadlab.engine.*;
import io.loadlab.experiment.*;
import io.loadlab.format.*;
import io.loadlab.importer.*;
import io.loadlab.load.*;
import io.loadlab.plot.*;
import io.loadlab.stats.*;
import io.loadlab.workload.*;
import tech.tablesaw.api.*;
import org.HdrHistogram.Histogram;
import java.nio.file.*;
import java.time.Duration;

/** Shows a chart in a window, or writes it to data/tmp/charts/ when there is no display, and says where. */
void show(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart) {
    System.out.println(ChartWindow.show(chart));
}

/** Prints a table as aligned text, its numbers rounded for reading (rps 117,541, ratio 0.614, p 0.043), 50 rows at most. */
void show(tech.tablesaw.api.Table table) {
    System.out.print(io.loadlab.format.ShownTable.of(table, io.loadlab.format.ShownTable.MAX_ROWS).text());
}

System.out.println("Loadlab JShell: try  var results = Loadlab.load(\"data/sample\");  results.compare(\"go-nethttp\")  results.summary(\"rps\")  results.latency(\"java-netty\", \"json\").p(99.9)");
