package io.loadlab.plot;

import java.util.Comparator;
import java.util.Objects;

/**
 * What one series of a chart stands for: a subject and its variant ({@code ""} for none).
 * Ordered as every chart lists them: bundled subjects in {@link Palette#BUNDLED} order, then other
 * subjects by name, each with its plain form before its variants.
 */
record SeriesKey(String subject, String variant) implements Comparable<SeriesKey> {

    private static final Comparator<SeriesKey> ORDER = Comparator
            .comparingInt((SeriesKey k) -> Palette.rank(k.subject()))
            .thenComparing(SeriesKey::subject)
            .thenComparing(SeriesKey::variant);

    SeriesKey {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(variant, "variant");
        if (subject.isBlank()) {
            throw new PlotException("a row has an empty subject");
        }
    }

    /** The key of a series label such as {@code "java-netty [epoll]"}. */
    static SeriesKey ofLabel(String label) {
        String subject = Palette.subjectOf(label);
        String rest = label.substring(subject.length());
        String variant = rest.startsWith(" [") && rest.endsWith("]") ? rest.substring(2, rest.length() - 1) : "";
        return new SeriesKey(subject, variant);
    }

    /** The legend text: the subject, plus {@code " [variant]"} when there is a variant. */
    String label() {
        return variant.isEmpty() ? subject : subject + " [" + variant + "]";
    }

    @Override
    public int compareTo(SeriesKey other) {
        return ORDER.compare(this, other);
    }
}
