package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadSpecTest {

    /**
     * Two specs that between them give every field a value other than the builder's default (a warm-up
     * and a request count cannot go together, so one spec cannot). A field added to {@link LoadSpec}
     * fails the first check until it is set here, and the second until {@link LoadSpec#toBuilder()}
     * copies it (the agents' copies once dropped the protocol, the streams and TLS this way).
     */
    @Test
    void toBuilderCopiesEveryField(@TempDir Path dir) throws IOException {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "not read here\n");
        LoadSpec windowed = LoadSpec.builder()
                .request(new RequestTemplate("PUT", Target.parse("https://localhost:8443/kv/{rand:0-9}"),
                        List.of("X-Test: yes"), 16))
                .model(new LoadModel.FixedRate(500, Duration.ofMillis(1))).connections(8).threads(2)
                .duration(Duration.ofSeconds(3)).warmup(new Warmup.Steady(Duration.ofSeconds(1), Duration.ofSeconds(4)))
                .requestTimeout(Duration.ofSeconds(2)).connectTimeout(Duration.ofSeconds(1)).transport(Transport.NIO)
                .expect(new Expectation(Set.of(204), OptionalLong.of(0))).seed(7).protocol(Protocol.H2).streams(4)
                .tls(new TlsOptions(Optional.of(ca), false, false, Optional.empty(),
                        List.of("ECDHE-RSA-AES128-GCM-SHA256"), List.of("TLS_AES_128_GCM_SHA256"),
                        TlsOptions.Provider.JDK))
                .build();
        LoadSpec counted = LoadSpec.builder().url("http://127.0.0.1:8080/").requests(500)
                .duration(Duration.ofSeconds(3)).protocol(Protocol.H2C).build();
        LoadSpec defaults = LoadSpec.builder().url("http://127.0.0.1:8080/").build();
        for (RecordComponent c : LoadSpec.class.getRecordComponents()) {
            Object d = value(c, defaults);
            assertTrue(!value(c, windowed).equals(d) || !value(c, counted).equals(d),
                    c.getName() + " has its default in both specs: give it another value in this test");
        }
        assertEquals(windowed, windowed.toBuilder().build());
        assertEquals(counted, counted.toBuilder().build());
    }

    @Test
    void toBuilderChangesOnlyWhatIsSet() {
        LoadSpec h2c = LoadSpec.builder().url("http://127.0.0.1:8080/").protocol(Protocol.H2C).streams(8)
                .connections(4).build();
        LoadSpec fewer = h2c.toBuilder().connections(2).build();
        assertEquals(2, fewer.connections());
        assertEquals(Protocol.H2C, fewer.protocol());
        assertEquals(8, fewer.streams());
        assertNotEquals(h2c, fewer);
    }

    private static Object value(RecordComponent c, LoadSpec s) {
        try {
            return c.getAccessor().invoke(s);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
