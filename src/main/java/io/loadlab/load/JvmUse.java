package io.loadlab.load;

/**
 * What the engine's JVM did in the measured window besides sending and answering: its
 * collections, and what the event-loop threads allocated (which should be next to nothing: the
 * hot path allocates nothing per request).
 *
 * @param gcSeconds          time the JVM's collectors report for the window
 *                           ({@code GarbageCollectorMXBean.getCollectionTime}, summed: the pauses of
 *                           a stop-the-world collector), s
 * @param gcCount            collections in the window
 * @param loopAllocatedBytes bytes the event-loop threads allocated in the window
 *                           ({@code com.sun.management.ThreadMXBean.getThreadAllocatedBytes}); -1
 *                           where this JVM cannot say
 */
public record JvmUse(double gcSeconds, long gcCount, long loopAllocatedBytes) {

    /** Nothing measured (a JVM without the beans). */
    public static final JvmUse UNKNOWN = new JvmUse(0, 0, -1);

    public JvmUse {
        if (gcSeconds < 0 || gcCount < 0 || loopAllocatedBytes < -1) {
            throw new IllegalArgumentException("JVM figures cannot be negative: gc " + gcSeconds + " s, " + gcCount
                    + " collections, " + loopAllocatedBytes + " bytes allocated");
        }
    }
}
