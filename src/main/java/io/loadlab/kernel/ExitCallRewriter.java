package io.loadlab.kernel;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * Rewrites a class file so that its calls to {@code System.exit(int)}, {@code Runtime.exit(int)}
 * and {@code Runtime.halt(int)} call {@link ExitGuard} instead (JVMS chapter 4; any class file
 * version, so it needs no bytecode library that must know the newest Java). Only the constant
 * pool and the opcode of those calls change, never the length of an instruction, so branch
 * offsets and stack map frames stay valid:
 * <ul>
 * <li>the {@code Methodref} of {@code System.exit} gets {@code ExitGuard} as its class (a static
 * method of the same name and type);</li>
 * <li>each {@code invokevirtual} of {@code Runtime.exit} or {@code halt} becomes an
 * {@code invokestatic} of {@code ExitGuard}'s method that takes the {@code Runtime} as its first
 * argument (the same operand stack), and a method handle of them ({@code Runtime.getRuntime()::exit})
 * an {@code invokeStatic} handle of that method.</li>
 * </ul>
 * A class without such calls comes back as the same array. Stateless and thread-safe.
 */
final class ExitCallRewriter {

    private static final String GUARD = ExitGuard.class.getName().replace('.', '/');
    private static final String RUNTIME_CALL = "(Ljava/lang/Runtime;I)V";

    private static final int UTF8 = 1;
    private static final int LONG = 5;
    private static final int DOUBLE = 6;
    private static final int CLASS = 7;
    private static final int METHODREF = 10;
    private static final int NAME_AND_TYPE = 12;
    private static final int METHOD_HANDLE = 15;
    private static final int REF_INVOKE_VIRTUAL = 5;
    private static final int REF_INVOKE_STATIC = 6;
    private static final int INVOKEVIRTUAL = 0xb6;
    private static final int INVOKESTATIC = 0xb8;

    private ExitCallRewriter() {
    }

    /**
     * The class file with its exit calls redirected.
     *
     * @param classFile a valid class file (JShell's compiler made it)
     * @return {@code classFile} itself when it calls none of them, else a new array
     * @throws IllegalArgumentException when the bytes are not a class file
     */
    static byte[] rewrite(byte[] classFile) {
        Pool pool = Pool.read(classFile);
        Map<Integer, String> systemExits = new HashMap<>();
        Map<Integer, String> runtimeCalls = new HashMap<>();
        for (int i = 1; i < pool.count; i++) {
            if (pool.tags[i] == METHODREF) {
                String owner = pool.className(pool.u2(i, 1));
                int nat = pool.u2(i, 3);
                String name = pool.utf8(pool.u2(nat, 1));
                boolean intToVoid = "(I)V".equals(pool.utf8(pool.u2(nat, 3)));
                if (intToVoid && "java/lang/System".equals(owner) && name.equals("exit")) {
                    systemExits.put(i, name);
                } else if (intToVoid && "java/lang/Runtime".equals(owner) && (name.equals("exit") || name.equals("halt"))) {
                    runtimeCalls.put(i, name);
                }
            }
        }
        if (systemExits.isEmpty() && runtimeCalls.isEmpty()) {
            return classFile;
        }
        byte[] out = classFile.clone();
        Appender added = new Appender(pool.count);
        int guardClass = added.classEntry(GUARD);
        for (int ref : systemExits.keySet()) {
            put2(out, pool.offsets[ref] + 1, guardClass);
        }
        Map<Integer, Integer> replacements = new HashMap<>();
        if (!runtimeCalls.isEmpty()) {
            int descriptor = added.utf8(RUNTIME_CALL);
            for (Map.Entry<Integer, String> call : runtimeCalls.entrySet()) {
                int oldName = pool.u2(pool.u2(call.getKey(), 3), 1);
                replacements.put(call.getKey(), added.methodref(guardClass, added.nameAndType(oldName, descriptor)));
            }
            redirectHandles(pool, out, replacements);
            new CodeWalker(out, pool, replacements).run();
        }
        return added.splice(out, pool.end);
    }

    /** {@code REF_invokeVirtual} handles of the replaced methods become {@code REF_invokeStatic} ones of the new. */
    private static void redirectHandles(Pool pool, byte[] out, Map<Integer, Integer> replacements) {
        for (int i = 1; i < pool.count; i++) {
            if (pool.tags[i] == METHOD_HANDLE && pool.u1(i, 1) == REF_INVOKE_VIRTUAL) {
                Integer to = replacements.get(pool.u2(i, 2));
                if (to != null) {
                    out[pool.offsets[i] + 1] = (byte) REF_INVOKE_STATIC;
                    put2(out, pool.offsets[i] + 2, to);
                }
            }
        }
    }

    static void put2(byte[] b, int at, int value) {
        b[at] = (byte) (value >>> 8);
        b[at + 1] = (byte) value;
    }

    /** The constant pool of a class file: where each entry starts, its tag, and where the pool ends. */
    static final class Pool {
        final byte[] bytes;
        final int count;
        final int[] offsets;
        final int[] tags;
        int end;

        private Pool(byte[] bytes, int count) {
            this.bytes = bytes;
            this.count = count;
            this.offsets = new int[count];
            this.tags = new int[count];
        }

        static Pool read(byte[] b) {
            if (b.length < 10 || ByteBuffer.wrap(b).getInt() != 0xCAFEBABE) {
                throw new IllegalArgumentException("not a class file (no 0xCAFEBABE at its start)");
            }
            Pool p = new Pool(b, u2(b, 8));
            int at = 10;
            for (int i = 1; i < p.count; i++) {
                p.offsets[i] = at;
                p.tags[i] = b[at] & 0xff;
                at += size(b, at);
                if (p.tags[i] == LONG || p.tags[i] == DOUBLE) {
                    i++;
                }
            }
            p.end = at;
            return p;
        }

        /** Bytes of the entry at {@code at}, its tag included. */
        private static int size(byte[] b, int at) {
            int tag = b[at] & 0xff;
            return switch (tag) {
                case UTF8 -> 3 + u2(b, at + 1);
                case 3, 4, 9, METHODREF, 11, NAME_AND_TYPE, 17, 18 -> 5;
                case LONG, DOUBLE -> 9;
                case CLASS, 8, 16, 19, 20 -> 3;
                case METHOD_HANDLE -> 4;
                default -> throw new IllegalArgumentException("unknown constant pool tag " + tag + " at byte " + at);
            };
        }

        int u1(int entry, int offset) {
            return bytes[offsets[entry] + offset] & 0xff;
        }

        int u2(int entry, int offset) {
            return u2(bytes, offsets[entry] + offset);
        }

        static int u2(byte[] b, int at) {
            return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
        }

        String utf8(int entry) {
            if (tags[entry] != UTF8) {
                throw new IllegalArgumentException("constant pool entry " + entry + " is not UTF-8");
            }
            try {
                return new DataInputStream(new ByteArrayInputStream(bytes, offsets[entry] + 1, u2(entry, 1) + 2)).readUTF();
            } catch (IOException e) {
                throw new IllegalArgumentException("constant pool entry " + entry + " is not modified UTF-8", e);
            }
        }

        String className(int entry) {
            return utf8(u2(entry, 1));
        }
    }

    /** Entries added at the end of the constant pool. */
    private static final class Appender {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final DataOutputStream data = new DataOutputStream(bytes);
        private int next;

        Appender(int next) {
            this.next = next;
        }

        int utf8(String s) {
            return entry(() -> {
                data.writeByte(UTF8);
                data.writeUTF(s);
            });
        }

        int classEntry(String internalName) {
            int name = utf8(internalName);
            return entry(() -> {
                data.writeByte(CLASS);
                data.writeShort(name);
            });
        }

        int nameAndType(int name, int descriptor) {
            return entry(() -> {
                data.writeByte(NAME_AND_TYPE);
                data.writeShort(name);
                data.writeShort(descriptor);
            });
        }

        int methodref(int owner, int nameAndType) {
            return entry(() -> {
                data.writeByte(METHODREF);
                data.writeShort(owner);
                data.writeShort(nameAndType);
            });
        }

        /** The class file with the added entries at the pool's end and the pool's count raised. */
        byte[] splice(byte[] classFile, int poolEnd) {
            if (next > 0xffff) {
                throw new IllegalArgumentException("the constant pool would exceed 65535 entries");
            }
            byte[] added = bytes.toByteArray();
            byte[] out = new byte[classFile.length + added.length];
            System.arraycopy(classFile, 0, out, 0, poolEnd);
            System.arraycopy(added, 0, out, poolEnd, added.length);
            System.arraycopy(classFile, poolEnd, out, poolEnd + added.length, classFile.length - poolEnd);
            put2(out, 8, next);
            return out;
        }

        private interface Write {
            void write() throws IOException;
        }

        private int entry(Write write) {
            try {
                write.write();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return next++;
        }
    }

    /** Finds the {@code Code} attributes of a class file's methods and patches the replaced calls in them. */
    private static final class CodeWalker {
        private final byte[] b;
        private final Pool pool;
        private final Map<Integer, Integer> replacements;

        CodeWalker(byte[] b, Pool pool, Map<Integer, Integer> replacements) {
            this.b = b;
            this.pool = pool;
            this.replacements = replacements;
        }

        void run() {
            int at = pool.end + 6;
            at += 2 + 2 * Pool.u2(b, at);
            at = members(at, false);
            members(at, true);
        }

        /** Skips the fields (or walks the methods) that start at {@code at}; returns where they end. */
        private int members(int at, boolean methods) {
            int count = Pool.u2(b, at);
            at += 2;
            for (int m = 0; m < count; m++) {
                at += 6;
                int attributes = Pool.u2(b, at);
                at += 2;
                for (int a = 0; a < attributes; a++) {
                    int length = ByteBuffer.wrap(b).getInt(at + 2);
                    if (methods && "Code".equals(pool.utf8(Pool.u2(b, at)))) {
                        int codeLength = ByteBuffer.wrap(b).getInt(at + 10);
                        code(at + 14, codeLength);
                    }
                    at += 6 + length;
                }
            }
            return at;
        }

        private void code(int start, int length) {
            int pc = 0;
            while (pc < length) {
                int op = b[start + pc] & 0xff;
                if (op == INVOKEVIRTUAL) {
                    Integer to = replacements.get(Pool.u2(b, start + pc + 1));
                    if (to != null) {
                        b[start + pc] = (byte) INVOKESTATIC;
                        put2(b, start + pc + 1, to);
                    }
                }
                pc += instructionLength(b, start, pc);
            }
        }
    }

    /**
     * The length in bytes of the instruction at {@code pc} of the code that starts at {@code start}
     * (JVMS 6.5; switches are padded to a multiple of 4 from the code's start).
     */
    static int instructionLength(byte[] b, int start, int pc) {
        int op = b[start + pc] & 0xff;
        if (op == 0xaa || op == 0xab) {
            int operands = pc + 1 + (3 - pc % 4);
            ByteBuffer buf = ByteBuffer.wrap(b);
            int a = buf.getInt(start + operands + 4);
            int entries = op == 0xaa ? 3 + (buf.getInt(start + operands + 8) - a + 1) : 2 + 2 * a;
            return operands - pc + 4 * entries;
        }
        if (op == 0xc4) {
            return (b[start + pc + 1] & 0xff) == 0x84 ? 6 : 4;
        }
        if (op == 0x10 || op == 0x12 || (op >= 0x15 && op <= 0x19) || (op >= 0x36 && op <= 0x3a) || op == 0xa9
                || op == 0xbc) {
            return 2;
        }
        if (op == 0x11 || op == 0x13 || op == 0x14 || op == 0x84 || (op >= 0x99 && op <= 0xa8)
                || (op >= 0xb2 && op <= 0xb8) || op == 0xbb || op == 0xbd || op == 0xc0 || op == 0xc1 || op == 0xc6
                || op == 0xc7) {
            return 3;
        }
        if (op == 0xc5) {
            return 4;
        }
        if (op == 0xb9 || op == 0xba || op == 0xc8 || op == 0xc9) {
            return 5;
        }
        return 1;
    }
}
