package io.loadlab.subject;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A subject found under {@code subjects/}: its manifest and whether it can run here.
 *
 * @param manifest          the checked manifest
 * @param unavailableReason why it cannot run here (a missing command), empty when it can
 */
public record Subject(SubjectManifest manifest, Optional<String> unavailableReason) {

    public String name() {
        return manifest.name();
    }

    public boolean available() {
        return unavailableReason.isEmpty();
    }

    /**
     * A subject's name as one file or folder name: a project's revision subjects carry their
     * revision in their name ({@code api@feature/x}, {@code api@HEAD~1}), so every character outside
     * {@code [A-Za-z0-9._@-]} becomes {@code _}. Every path made from a subject name goes through here.
     */
    public static String pathSegment(String name) {
        String s = name.replaceAll("[^A-Za-z0-9._@-]", "_");
        return s.equals(".") || s.equals("..") || s.isEmpty() ? "_" + s : s;
    }

    /** Every combination of variant values, the default (first values) first. */
    public List<Map<String, String>> variantCombinations() {
        List<Map<String, String>> out = new java.util.ArrayList<>();
        out.add(new java.util.LinkedHashMap<>());
        for (Map.Entry<String, List<String>> v : manifest.variants().entrySet()) {
            List<Map<String, String>> next = new java.util.ArrayList<>();
            for (Map<String, String> partial : out) {
                for (String value : v.getValue()) {
                    Map<String, String> m = new java.util.LinkedHashMap<>(partial);
                    m.put(v.getKey(), value);
                    next.add(m);
                }
            }
            out = next;
        }
        return out;
    }

    /**
     * A variant as written in the data: {@code durability=fsync}; empty for a subject without variants.
     * The protocol {@code h1} is left out: it is what every subject served before protocol variants
     * existed, so runs over h1 keep the labels of the experiments recorded before them, and
     * {@code compare}, {@code rerun} and reconcile still pair them.
     */
    public static String label(Map<String, String> variant) {
        return join(variant, true);
    }

    /** Every value of a variant, {@code protocol=h1} included: what {@code --variants} patterns match. */
    public static String fullLabel(Map<String, String> variant) {
        return join(variant, false);
    }

    private static String join(Map<String, String> variant, boolean omitH1) {
        StringBuilder sb = new StringBuilder();
        variant.forEach((k, v) -> {
            if (!(omitH1 && k.equals(ServedProtocol.VARIANT) && v.equals(ServedProtocol.H1.label()))) {
                sb.append(sb.length() == 0 ? "" : ",").append(k).append('=').append(v);
            }
        });
        return sb.toString();
    }
}
