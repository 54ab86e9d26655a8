package io.loadlab.project;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed access to one YAML mapping of a project file, with one-line errors that begin with
 * {@code where} ({@code loadlab.yaml: workload 'create-order':}) and name the field.
 */
record Fields(String where, String prefix, JsonNode node) {

    Fields(String where, JsonNode node) {
        this(where, "", node);
    }

    ProjectException error(String field, String what) {
        return new ProjectException(where + " field '" + prefix + field + "' " + what);
    }

    /** Refuses a field not in {@code known}, listing the known ones. */
    Fields only(Set<String> known, String of) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                throw error(f, "is not a field of " + of + "; the fields are " + String.join(", ", new TreeSet<>(known)));
            }
        }
        return this;
    }

    boolean has(String field) {
        JsonNode n = node.get(field);
        return n != null && !n.isNull();
    }

    /** The field's text, which must be non-blank when present. */
    Optional<String> text(String field) {
        if (!has(field)) {
            return Optional.empty();
        }
        JsonNode n = node.get(field);
        if (!n.isTextual() || n.asText().isBlank()) {
            throw error(field, "must be non-empty text, got " + n);
        }
        return Optional.of(n.asText());
    }

    String required(String field, String example) {
        return text(field).orElseThrow(() -> error(field, "is missing (such as " + example + ")"));
    }

    /** A list of text values; empty when the field is absent. */
    List<String> texts(String field) {
        if (!has(field)) {
            return List.of();
        }
        JsonNode n = node.get(field);
        if (!n.isArray()) {
            throw error(field, "must be a list such as [a, b], got " + n);
        }
        List<String> out = new ArrayList<>();
        for (JsonNode e : n) {
            if (!e.isTextual() || e.asText().isBlank()) {
                throw error(field, "must hold non-empty text values, got " + e
                        + (e.isValueNode() && !e.isTextual() ? " (quote it: '" + e.asText() + "')" : ""));
            }
            out.add(e.asText());
        }
        return out;
    }

    /** The field as a mapping, which must be one when present. */
    Optional<Fields> mapping(String field, String example) {
        if (!has(field)) {
            return Optional.empty();
        }
        JsonNode n = node.get(field);
        if (!n.isObject()) {
            throw error(field, "must be a mapping such as " + example + ", got " + n);
        }
        return Optional.of(new Fields(where, prefix + field + ".", n));
    }

    /** The mapping's entries, in file order. */
    List<Map.Entry<String, JsonNode>> entries() {
        List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
        node.fields().forEachRemaining(out::add);
        return out;
    }
}
