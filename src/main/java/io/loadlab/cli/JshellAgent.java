package io.loadlab.cli;

import io.loadlab.format.ShownTable;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.Socket;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import jdk.jshell.execution.RemoteExecutionControl;
import jdk.jshell.execution.Util;
import tech.tablesaw.api.Table;

/**
 * The JVM in which {@code loadlab jshell} runs its snippets: JShell's own remote agent, except that
 * a Tablesaw table a snippet yields is shown as {@code show(table)} shows it, its numbers rounded by
 * {@link ShownTable}, where JShell would print {@code Table.toString()} at full precision. Started by
 * JShell (JDI's {@code remoteAgent}), with the port to call back on as its one argument; JShell's
 * stop (Ctrl-C) still finds it, as it looks for the agent class's {@code invoke} frames and the
 * fields this class inherits.
 */
public final class JshellAgent extends RemoteExecutionControl {

    /** Connects back to JShell as {@link RemoteExecutionControl#main} does, serving this agent. */
    public static void main(String[] args) throws Exception {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0]));
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        Map<String, Consumer<OutputStream>> outputs = new HashMap<>();
        outputs.put("out", st -> System.setOut(new PrintStream(st, true)));
        outputs.put("err", st -> System.setErr(new PrintStream(st, true)));
        Map<String, Consumer<InputStream>> input = new HashMap<>();
        input.put("in", System::setIn);
        Util.forwardExecutionControlAndIO(new JshellAgent(), in, out, outputs, input);
    }

    @Override
    protected String invoke(Method doitMethod) throws Exception {
        Object value = doitMethod.invoke(null);
        return value instanceof Table t ? shown(t) : valueString(value);
    }

    @Override
    public String varValue(String className, String varName) throws RunException, EngineTerminationException,
            InternalException {
        try {
            Field f = findClass(className).getField(varName);
            f.setAccessible(true);
            if (f.get(null) instanceof Table t) {
                return shown(t);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Not ours to explain: JShell's own lookup below reports it as it always has.
        }
        return super.varValue(className, varName);
    }

    /** A table as {@code show(table)} prints it, at most {@link ShownTable#MAX_ROWS} rows, after a line break. */
    static String shown(Table table) {
        return "\n" + ShownTable.of(table, ShownTable.MAX_ROWS).text().stripTrailing();
    }
}
