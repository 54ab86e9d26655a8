package io.loadlab.importer;

/** The load tools whose text output {@link Importers} reads; {@link #label()} is the engine column. */
public enum Tool {
    WRK("wrk"), WRK2("wrk2"), OHA("oha"), HEY("hey"), H2LOAD("h2load"), AB("ab");

    private final String label;

    Tool(String label) {
        this.label = label;
    }

    /** The tool's name as users type it; the value of the {@code engine} column. */
    public String label() {
        return label;
    }
}
