package io.loadlab.experiment;

import io.loadlab.subject.ServedProtocol;
import io.loadlab.subject.Subject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which variant combinations of a subject an experiment runs, from {@code --variants} and
 * {@code --protocols}.
 *
 * <ul>
 * <li>Neither given: each subject's default combination (every variant at its first value).</li>
 * <li>{@code --variants RE} matches the whole label ({@code durability=fsync,protocol=h2c}), except
 *     that a pattern naming only some of a subject's variants ({@code key=} in its text) is matched
 *     against the label of those variants, the others at their first value: {@code protocol=.*}
 *     runs go-nethttp's protocols with durability memory, {@code durability=.*} its durabilities over
 *     h1, as before protocols existed.</li>
 * <li>{@code --protocols RE} matches the protocol's value ({@code h1|h2-tls}; a subject without a
 *     protocol variant serves {@code h1}); {@code --variants} then speaks of the other variants only
 *     ({@code durability=fsync}), and without it they stay at their first values.</li>
 * </ul>
 */
final class VariantChoice {

    private final Optional<String> variantsText;
    private final Optional<Pattern> variants;
    private final Optional<Pattern> protocols;

    private VariantChoice(Optional<String> variantsText, Optional<Pattern> protocols) {
        this.variantsText = variantsText;
        this.variants = variantsText.map(Pattern::compile);
        this.protocols = protocols;
    }

    static VariantChoice of(ExperimentSpec spec) {
        return new VariantChoice(spec.selection().variants(), spec.selection().protocols().map(Pattern::compile));
    }

    /** The chosen combinations of {@code s}, in its order (the default first). */
    List<Map<String, String>> chosen(Subject s) {
        List<Map<String, String>> all = s.variantCombinations();
        if (variants.isEmpty() && protocols.isEmpty()) {
            return all.isEmpty() ? all : List.of(all.get(0));
        }
        return all.stream().filter(v -> variantsMatch(s, v) && protocolMatches(v)).toList();
    }

    private boolean protocolMatches(Map<String, String> v) {
        return protocols.map(p -> p.matcher(ServedProtocol.of(v).label()).matches()).orElse(true);
    }

    /** Whether {@code key} is left to {@code --protocols} (then {@code --variants} speaks of the others). */
    private boolean byProtocols(String key) {
        return protocols.isPresent() && key.equals(ServedProtocol.VARIANT);
    }

    private boolean variantsMatch(Subject s, Map<String, String> v) {
        Map<String, List<String>> declared = s.manifest().variants();
        List<String> keys = declared.keySet().stream().filter(k -> !byProtocols(k)).toList();
        List<String> named = variantsText.map(t -> keys.stream().filter(k -> t.contains(k + "=")).toList())
                .orElse(List.of());
        // Unnamed variants stay at their first value, unless the pattern names none (a whole-label pattern).
        boolean partial = variants.isEmpty() || !named.isEmpty() && named.size() < keys.size();
        Map<String, String> part = new LinkedHashMap<>();
        for (String k : keys) {
            if (!partial || named.contains(k)) {
                part.put(k, v.get(k));
            } else if (!v.get(k).equals(declared.get(k).get(0))) {
                return false;
            }
        }
        return variants.map(p -> p.matcher(Subject.fullLabel(part)).matches()).orElse(true);
    }
}
