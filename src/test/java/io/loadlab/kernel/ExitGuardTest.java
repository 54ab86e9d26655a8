package io.loadlab.kernel;

import static io.loadlab.kernel.KernelFixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Cells that call {@code System.exit}, {@code Runtime.exit} or {@code Runtime.halt}, in every
 * form javac compiles differently, fail with a one-line {@link SecurityException} and the kernel
 * keeps its variables. The kernel runs in this test JVM: if a call got through, the JVM would end
 * and the run would fail.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExitGuardTest {

    private static KernelFixture fixture;
    private static LoadlabKernel kernel;

    @BeforeAll
    static void start() throws Exception {
        fixture = new KernelFixture();
        kernel = fixture.kernel;
        kernel.eval("int kept = 41;");
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void systemExitInACellFailsWithOneLineAndTheKernelKeepsItsState() throws Exception {
        CellError e = refused("System.exit(0);");
        assertEquals("System.exit(0) was refused: it would end the kernel and lose every variable; restart the kernel "
                + "from the notebook instead", e.evalue());
        assertEquals("java.lang.SecurityException: " + e.evalue(), e.traceback().get(0));
        assertTrue(e.traceback().get(1).contains("cell line 1"), String.join("\n", e.traceback()));
        assertEquals("42", text(kernel.eval("kept + 1"), "text/plain"));
    }

    @Test
    void runtimeExitAndHaltAreRefused() throws Exception {
        assertTrue(refused("Runtime.getRuntime().exit(3);").evalue().startsWith("Runtime.exit(3) was refused"));
        assertTrue(refused("Runtime r = Runtime.getRuntime();\nr.halt(1);").evalue().startsWith("Runtime.halt(1) was refused"));
        assertEquals("41", text(kernel.eval("kept"), "text/plain"));
    }

    @Test
    void methodReferencesLambdasAndDeclaredMethodsAreRefused() throws Exception {
        assertTrue(refused("java.util.function.IntConsumer e = System::exit;\ne.accept(4);").evalue()
                .startsWith("System.exit(4) was refused"));
        assertTrue(refused("java.util.function.IntConsumer h = Runtime.getRuntime()::halt;\nh.accept(5);").evalue()
                .startsWith("Runtime.halt(5) was refused"));
        assertTrue(refused("Runnable r = () -> System.exit(6);\nr.run();").evalue().startsWith("System.exit(6) was refused"));
        kernel.eval("class Quitter { static void quit() { System.exit(7); } }");
        assertTrue(refused("Quitter.quit();").evalue().startsWith("System.exit(7) was refused"));
    }

    /** Switches before the call: the rewriter must step over their padded operands to find it. */
    @Test
    void aCallAfterSwitchesAndWideInstructionsIsFound() throws Exception {
        kernel.eval("void stopAfter(int k) {\n"
                + "    long big = 123_456_789_012L; double d = 2.5;\n"
                + "    switch (k) { case 1 -> k++; case 2 -> k--; case 3 -> k += 2; default -> k = 0; }\n"
                + "    switch (k * 1000) { case 1000 -> k++; case 50_000 -> k--; default -> { } }\n"
                + "    int[] many = new int[300]; for (int i = 0; i < 300; i++) { many[i] = i; }\n"
                + "    if (big > 0 && d > 0) { Runtime.getRuntime().halt(k + 8); }\n"
                + "}");
        assertTrue(refused("stopAfter(0);").evalue().startsWith("Runtime.halt(8) was refused"));
    }

    @Test
    void aClassWithoutExitCallsIsLeftAsItIs() {
        byte[] bytes = {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 61, 0, 1};
        assertSame(bytes, ExitCallRewriter.rewrite(bytes));
        assertThrows(IllegalArgumentException.class, () -> ExitCallRewriter.rewrite(new byte[] {1, 2, 3}));
    }

    private static CellError refused(String code) {
        CellError e = assertThrows(CellError.class, () -> kernel.eval(code));
        assertEquals("java.lang.SecurityException", e.ename(), String.join("\n", e.traceback()));
        return e;
    }
}
