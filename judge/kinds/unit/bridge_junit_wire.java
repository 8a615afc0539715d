import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The wire between the two JVMs of a JUnit problem in mode apart: the tests' (JudgeTests) and
 * the student's (JudgeStudent). A message is a frame (its length, then its bytes); a value in
 * it is a tag and what follows. Plain data crosses by value (null, the primitives and their
 * boxes, strings, arrays, lists, sets and maps of them); an enum constant of the student's by
 * its name; any other object stays where it is and crosses as a handle, a number the side that
 * holds it gives it. Each side reads what the other wrote within bounds (a frame's size, a
 * value's depth, a length no longer than the bytes left), since the tests' side reads the
 * student's data.
 */
public final class JudgeWire {
    public static final int MAX_FRAME = 8 << 20;
    public static final int MAX_DEPTH = 200;

    private JudgeWire() {
    }

    /** A student's object, as the tests' side holds it: its number in the student's process. */
    public static final class Handle {
        public final int id;

        public Handle(int id) {
            this.id = id;
        }
    }

    /** What the tests' side holds for a student's object: a stand-in, or a proxy. */
    public interface Remote {
        Handle judge$handle();
    }

    /** How one side writes what is not plain data, and reads a handle or a name back. */
    public interface Side {
        /** True when `value` crosses by reference even if it is a list, set or map. */
        boolean byReference(Object value);

        /** Writes a value that is not plain data: a handle, an enum constant; else IOException. */
        void writeOther(DataOutputStream out, Object value) throws IOException;

        /** The object of a handle: `names` are its class's, its superclasses' and interfaces'. */
        Object readHandle(int id, String[] names) throws IOException;

        /** The constant `name` of the enum `type`. */
        Object readEnum(String type, String name) throws IOException;

        /** A class by its name (Class.getName) on this side, for an array's elements. */
        Class<?> named(String name) throws IOException;

        /** A string of this side's as it crosses (the guarded JudgeStudent's loses what only
         * its JVM's history made). */
        default String shown(String text) {
            return text;
        }
    }

    public static void writeFrame(OutputStream out, byte[] frame) throws IOException {
        DataOutputStream data = new DataOutputStream(out);
        data.writeInt(frame.length);
        data.write(frame);
        data.flush();
    }

    /** The next frame, null at the end of the stream; IOException when it is none of ours. */
    public static byte[] readFrame(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        int length;
        try {
            length = data.readInt();
        } catch (EOFException e) {
            return null;
        }
        if (length < 0 || length > MAX_FRAME) {
            throw new IOException("a frame of " + length + " bytes");
        }
        byte[] frame = new byte[length];
        data.readFully(frame);
        return frame;
    }

    public static DataInputStream reading(byte[] frame) {
        return new DataInputStream(new ByteArrayInputStream(frame));
    }

    public static void writeString(DataOutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    public static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("a string longer than its frame");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A count of things that follow, each at least a byte long. */
    public static int readCount(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > in.available()) {
            throw new IOException("a count of " + count + " in a frame of fewer bytes");
        }
        return count;
    }

    public static void write(DataOutputStream out, Object value, Side side, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new IOException("a value nested over " + MAX_DEPTH + " deep");
        }
        if (value == null) {
            out.writeByte('0');
        } else if (value instanceof Boolean) {
            out.writeByte('Z');
            out.writeBoolean((Boolean) value);
        } else if (value instanceof Byte) {
            out.writeByte('B');
            out.writeByte((Byte) value);
        } else if (value instanceof Short) {
            out.writeByte('S');
            out.writeShort((Short) value);
        } else if (value instanceof Character) {
            out.writeByte('C');
            out.writeChar((Character) value);
        } else if (value instanceof Integer) {
            out.writeByte('I');
            out.writeInt((Integer) value);
        } else if (value instanceof Long) {
            out.writeByte('J');
            out.writeLong((Long) value);
        } else if (value instanceof Float) {
            out.writeByte('F');
            out.writeFloat((Float) value);
        } else if (value instanceof Double) {
            out.writeByte('D');
            out.writeDouble((Double) value);
        } else if (value instanceof String) {
            out.writeByte('T');
            writeString(out, side.shown((String) value));
        } else if (value.getClass().isArray()) {
            out.writeByte('A');
            writeString(out, value.getClass().getComponentType().getName());
            int length = Array.getLength(value);
            out.writeInt(length);
            for (int i = 0; i < length; i++) {
                write(out, Array.get(value, i), side, depth + 1);
            }
        } else if (side.byReference(value)) {
            side.writeOther(out, value);
        } else if (value instanceof List || value instanceof Set) {
            out.writeByte(value instanceof List ? 'L' : 'E');
            Collection<?> items = (Collection<?>) value;
            Object[] all = items.toArray();
            out.writeInt(all.length);
            for (Object item : all) {
                write(out, item, side, depth + 1);
            }
        } else if (value instanceof Map) {
            out.writeByte('M');
            Map<?, ?> map = (Map<?, ?>) value;
            List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
            out.writeInt(entries.size());
            for (Map.Entry<?, ?> entry : entries) {
                write(out, entry.getKey(), side, depth + 1);
                write(out, entry.getValue(), side, depth + 1);
            }
        } else {
            side.writeOther(out, value);
        }
    }

    public static Object read(DataInputStream in, Side side, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new IOException("a value nested over " + MAX_DEPTH + " deep");
        }
        int tag = in.readUnsignedByte();
        switch (tag) {
            case '0': return null;
            case 'Z': return in.readBoolean();
            case 'B': return in.readByte();
            case 'S': return in.readShort();
            case 'C': return in.readChar();
            case 'I': return in.readInt();
            case 'J': return in.readLong();
            case 'F': return in.readFloat();
            case 'D': return in.readDouble();
            case 'T': return readString(in);
            case 'A': {
                Class<?> component = side.named(readString(in));
                int length = readCount(in);
                Object array = Array.newInstance(component, length);
                for (int i = 0; i < length; i++) {
                    Object item = read(in, side, depth + 1);
                    try {
                        Array.set(array, i, item);
                    } catch (IllegalArgumentException e) {
                        throw new IOException("an array element of another type");
                    }
                }
                return array;
            }
            case 'L':
            case 'E': {
                int length = readCount(in);
                Collection<Object> items = tag == 'L' ? new ArrayList<>(length) : new LinkedHashSet<>();
                for (int i = 0; i < length; i++) {
                    items.add(read(in, side, depth + 1));
                }
                return items;
            }
            case 'M': {
                int length = readCount(in);
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = 0; i < length; i++) {
                    Object key = read(in, side, depth + 1);
                    map.put(key, read(in, side, depth + 1));
                }
                return map;
            }
            case 'H': {
                int id = in.readInt();
                String[] names = new String[readCount(in)];
                for (int i = 0; i < names.length; i++) {
                    names[i] = readString(in);
                }
                return side.readHandle(id, names);
            }
            case 'U': {
                String type = readString(in);
                return side.readEnum(type, readString(in));
            }
            default:
                throw new IOException("no value has the tag " + tag);
        }
    }

    public static Class<?> primitive(String name) {
        switch (name) {
            case "boolean": return boolean.class;
            case "byte": return byte.class;
            case "short": return short.class;
            case "char": return char.class;
            case "int": return int.class;
            case "long": return long.class;
            case "float": return float.class;
            case "double": return double.class;
            case "void": return void.class;
            default: return null;
        }
    }

    /** A frame's bytes from what `fill` writes. */
    public interface Filler {
        void fill(DataOutputStream out) throws IOException;
    }

    public static byte[] frame(Filler fill) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        fill.fill(out);
        out.flush();
        return bytes.toByteArray();
    }
}
