// Loadlab's JShell start-up (loaded by `loadlab jshell` after JShell's DEFAULT imports).
import io.loadlab.data.*;
import io.loadlab.engine.*;
import io.loadlab.experiment.*;
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

System.out.println("Loadlab JShell: try  var r = Results.load(Path.of(\"data/sample\"));  r.runs().first(5)");
