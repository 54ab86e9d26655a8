package io.loadlab.plot;

import java.awt.Color;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The colour of each subject, the same in every chart so that a reader learns it once.
 *
 * <p>The subjects of {@link #BUNDLED} get fixed colours from the Okabe–Ito palette, which stays
 * distinguishable under the common forms of colour blindness. Any other subject gets a colour
 * derived from a hash of its name: stable across runs and machines, but not guaranteed to differ
 * from every other colour. Stateless and thread-safe.
 */
public final class Palette {

    /** The bundled subjects in the order charts list them. */
    public static final List<String> BUNDLED = List.of(
            "java-netty", "java-httpserver", "go-nethttp", "node-http",
            "python-asyncio", "nginx", "rust-std", "cpp-beast");

    // Okabe & Ito (2008), unaltered: darkening its yellow for contrast on white brings it within
    // reach of the orange, which is worse for readers with deuteranopia. Black goes to nginx, the
    // usual reference server.
    private static final Map<String, Color> FIXED = Map.of(
            "java-netty", new Color(0x0072B2),
            "java-httpserver", new Color(0x56B4E9),
            "go-nethttp", new Color(0x009E73),
            "node-http", new Color(0xE69F00),
            "python-asyncio", new Color(0xF0E442),
            "nginx", new Color(0x000000),
            "rust-std", new Color(0xD55E00),
            "cpp-beast", new Color(0xCC79A7));

    private Palette() {
    }

    /**
     * The colour of a subject.
     *
     * @param subject a subject name such as {@code "go-nethttp"} (not a series label with a
     *                variant; see {@link #subjectOf(String)})
     * @return a fixed colour for a bundled subject, otherwise a stable colour from the name's hash
     * @throws NullPointerException if {@code subject} is null
     */
    public static Color colorFor(String subject) {
        Objects.requireNonNull(subject, "subject");
        Color fixed = FIXED.get(subject);
        return fixed != null ? fixed : hashed(subject);
    }

    /**
     * The subject of a series label: {@code "java-netty [epoll]"} gives {@code "java-netty"}.
     *
     * @param label a subject name, optionally followed by {@code " [variant]"}
     * @return the part before {@code " ["}, or the whole label when there is none
     */
    public static String subjectOf(String label) {
        int bracket = label.indexOf(" [");
        return bracket < 0 ? label : label.substring(0, bracket);
    }

    /** Sort rank: bundled subjects first in {@link #BUNDLED} order, then everything else. */
    static int rank(String subject) {
        int i = BUNDLED.indexOf(subject);
        return i < 0 ? BUNDLED.size() : i;
    }

    /**
     * A lighter tint of a colour, for the second and later variants of one subject in a bar chart,
     * where a line style cannot tell them apart.
     *
     * @param step 0 for the colour itself; each step mixes in 30% more white, at most 70%
     */
    static Color tint(Color base, int step) {
        double white = Math.min(0.7, 0.3 * step);
        return new Color(
                mix(base.getRed(), white), mix(base.getGreen(), white), mix(base.getBlue(), white));
    }

    private static int mix(int channel, double white) {
        return (int) Math.round(channel + (255 - channel) * white);
    }

    private static Color hashed(String subject) {
        // FNV-1a over UTF-8: String.hashCode would do as well, but spreads short similar names
        // (a "-v2" suffix) into neighbouring hues.
        int hash = 0x811C9DC5;
        for (byte b : subject.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xFF;
            hash *= 0x01000193;
        }
        float hue = Integer.toUnsignedLong(hash) % 360 / 360f;
        // Muted, darker tones: readable on white, and apart from both the vivid Okabe–Ito colours
        // and the lighter tints that mark variants.
        return Color.getHSBColor(hue, 0.5f, 0.5f);
    }
}
