/**
 * Byte search for the loops that look at every byte: {@link io.loadlab.bytes.Bytes#indexOf} finds one
 * byte in a range of an array. The engine's response parser finds each LF and colon of an answer's
 * lines with it, and {@code data} each line of an hlog ({@code LineChunks}) and each tag of a stored
 * log ({@code StoreRepair}).
 *
 * <p>It uses nothing of Loadlab's: {@code load} and {@code data} use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>Eight bytes are tested at a time: the array is read as little-endian {@code long}s through a
 *       {@code VarHandle}, and a word XORed with the byte sought in every position has a zero byte where
 *       that byte was (Mycroft's zero-byte test; its lowest flagged byte is exact). The last few bytes
 *       are tested one by one. Plain Java 17, no native code and no incubator module. A loop over
 *       single bytes took a tenth of the engine's CPU with pipelined answers; the parser's rework
 *       this belongs to is measured in {@code load}'s package documentation.</li>
 *   <li>A package of its own, below both of its users: one search, written and tested once, for
 *       the engine's parser and the readers of stored logs.</li>
 * </ul>
 */
package io.loadlab.bytes;
