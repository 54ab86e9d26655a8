package io.loadlab.load;

/**
 * The dynamic table of an {@link H2StatusDecoder} (RFC 7541 section 2.3.2): a ring of entries, newest
 * first, evicted oldest first when the table is over its capacity. An entry keeps only its size, its
 * name's length, its kind (the decoder's {@code :status}, {@code content-length} or other) and, for
 * those two, its value. Arrays only: adding an entry allocates nothing.
 */
final class H2StatusTable {

    private int capacity;
    private long size;
    // The ring: slot head-1 holds the newest entry, count entries back from it.
    private int[] sizes;
    private int[] nameLengths;
    private byte[] kinds;
    private long[] values;
    private int head;
    private int count;

    /** @param capacity in bytes */
    H2StatusTable(int capacity) {
        allocate(Math.max(1, capacity / 32));
        this.capacity = capacity;
    }

    int capacity() {
        return capacity;
    }

    /** Bytes held, by RFC 7541's measure. */
    long size() {
        return size;
    }

    /** Sets the capacity in bytes, evicting what no longer fits. */
    void capacity(int bytes) {
        capacity = bytes;
        evictTo(bytes);
        int slots = Math.max(1, bytes / 32);
        if (slots > sizes.length) {
            // Keep the entries in order, the newest at slot count-1 of the new ring.
            int[] s = new int[count], n = new int[count];
            byte[] k = new byte[count];
            long[] v = new long[count];
            for (int i = 0; i < count; i++) {
                int slot = slot(count - i);
                s[i] = sizes[slot];
                n[i] = nameLengths[slot];
                k[i] = kinds[slot];
                v[i] = values[slot];
            }
            allocate(slots);
            System.arraycopy(s, 0, sizes, 0, count);
            System.arraycopy(n, 0, nameLengths, 0, count);
            System.arraycopy(k, 0, kinds, 0, count);
            System.arraycopy(v, 0, values, 0, count);
            head = count % slots;
        }
    }

    /** Adds an entry; one larger than the capacity empties the table (RFC 7541 section 4.4). */
    void add(int entrySize, int nameLength, int kind, long value) {
        if (entrySize > capacity) {
            evictTo(0);
            return;
        }
        evictTo(capacity - entrySize);
        sizes[head] = entrySize;
        nameLengths[head] = nameLength;
        kinds[head] = (byte) kind;
        values[head] = value;
        head = (head + 1) % sizes.length;
        count++;
        size += entrySize;
    }

    /** The slot of the entry at a 1-based dynamic index (1 is the newest), or -1 beyond the table. */
    int entry(long index) {
        return index >= 1 && index <= count ? slot((int) index) : -1;
    }

    int size(int slot) {
        return sizes[slot];
    }

    int nameLength(int slot) {
        return nameLengths[slot];
    }

    int kind(int slot) {
        return kinds[slot];
    }

    long value(int slot) {
        return values[slot];
    }

    private int slot(int index) {
        return Math.floorMod(head - index, sizes.length);
    }

    private void evictTo(long bytes) {
        while (size > bytes) {
            int oldest = slot(count);
            size -= sizes[oldest];
            count--;
        }
    }

    private void allocate(int slots) {
        sizes = new int[slots];
        nameLengths = new int[slots];
        kinds = new byte[slots];
        values = new long[slots];
    }
}
