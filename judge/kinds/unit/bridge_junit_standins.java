import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stand-ins of a JUnit problem in mode apart: for each class of the student's (loaded in
 * the tests' JVM, never initialized, so none of its code runs there), Java source of a class of
 * the same name and signatures whose every constructor and method sends the call to the
 * student's JVM (JudgeTests.make, JudgeTests.call). The tests compile against the stand-ins.
 * What is stood in for: classes, records, interfaces and enums of the default package, and
 * their static nested ones; their non-private constructors and methods. Not: fields, inner
 * (non-static) classes, and members whose types name a class of the student's that is not
 * stood in (those the tests cannot use: a compile error names them).
 */
public final class JudgeStandIns {
    private final ClassLoader student;
    private final Set<Class<?>> stood = new LinkedHashSet<>();
    // A tests problem's stand-ins (made by `main`, in the teacher's box): public API only, as
    // the guarded JudgeStudent answers it.
    private final boolean publicOnly;

    /** `seen`: the simple names the tests already see (java.lang's, their on-demand imports'):
     * a class of the student's by one of those names has no stand-in, else it would shadow the
     * JDK's or JUnit's class in the tests (a `Math` whose `abs` the student answers). */
    JudgeStandIns(ClassLoader student, List<Class<?>> classes, Set<String> seen) {
        this(student, classes, seen, false);
    }

    JudgeStandIns(ClassLoader student, List<Class<?>> classes, Set<String> seen, boolean publicOnly) {
        this.student = student;
        this.publicOnly = publicOnly;
        for (Class<?> c : classes) {
            Class<?> top = c;
            while (top.getEnclosingClass() != null) {
                top = top.getEnclosingClass();
            }
            if (standable(c) && !seen.contains(top.getSimpleName()) && (!publicOnly || exposed(c))) {
                stood.add(c);
            }
        }
    }

    /** The class and every class around it public (and nested ones static): the API. */
    private static boolean exposed(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!Modifier.isPublic(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    /**
     * A tests problem's stand-ins, made in a box of the teacher's (its classes' sources, no
     * file of a student's): the box's top-level .java files compiled, and the stand-in sources
     * of their public API written into the folder `args[0]`, whose files alone the judge hands
     * the students' tests' box. Signatures only: no body, field or private name of the classes'.
     */
    public static void main(String[] args) throws java.io.IOException {
        java.nio.file.Path box = java.nio.file.Paths.get("").toAbsolutePath();
        StringBuilder errors = new StringBuilder();
        ClassLoader loader = JudgeTests.compileStudent(box, errors);
        if (loader == null) {
            System.err.println(errors);
            System.exit(1);
        }
        List<Class<?>> classes = JudgeTests.classesOf(loader);
        Map<String, String> made = new JudgeStandIns(loader, classes, JudgeTests.seen(List.of(), classes), true).sources();
        for (Map.Entry<String, String> file : made.entrySet()) {
            java.nio.file.Files.writeString(box.resolve(args[0]).resolve(file.getKey()), file.getValue());
        }
    }

    private static boolean standable(Class<?> c) {
        if (c.isAnnotation() || c.isSynthetic() || c.isAnonymousClass() || c.isLocalClass() || c.isArray()
                || Modifier.isPrivate(c.getModifiers()) || !c.getPackageName().isEmpty()
                || c.getSimpleName().contains("$") || c.getSimpleName().startsWith("Judge")) {
            return false;
        }
        Class<?> outer = c.getEnclosingClass();
        return outer == null || (Modifier.isStatic(c.getModifiers()) && standable(outer));
    }

    /** Source files by name: one a top-level class, its nested ones inside it. */
    Map<String, String> sources() {
        Map<String, String> files = new LinkedHashMap<>();
        for (Class<?> c : stood) {
            if (c.getEnclosingClass() == null) {
                files.put(c.getSimpleName() + ".java", standIn(c, ""));
            }
        }
        return files;
    }

    /** True when the type names a class of the student's that has no stand-in. */
    private boolean unstood(Type t) {
        if (t instanceof Class) {
            Class<?> c = (Class<?>) t;
            while (c.isArray()) {
                c = c.getComponentType();
            }
            return c.getClassLoader() == student && !stood.contains(c);
        }
        if (t instanceof ParameterizedType) {
            ParameterizedType p = (ParameterizedType) t;
            if (unstood(p.getRawType())) {
                return true;
            }
            for (Type a : p.getActualTypeArguments()) {
                if (unstood(a)) {
                    return true;
                }
            }
            return false;
        }
        if (t instanceof WildcardType) {
            WildcardType w = (WildcardType) t;
            for (Type b : w.getUpperBounds()) {
                if (unstood(b)) {
                    return true;
                }
            }
            for (Type b : w.getLowerBounds()) {
                if (unstood(b)) {
                    return true;
                }
            }
            return false;
        }
        if (t instanceof GenericArrayType) {
            return unstood(((GenericArrayType) t).getGenericComponentType());
        }
        if (t instanceof TypeVariable) {
            for (Type b : ((TypeVariable<?>) t).getBounds()) {
                if (b instanceof Class && unstood(b)) {
                    return true;
                }
            }
        }
        return false;
    }

    static String type(Type t) {
        if (t instanceof Class) {
            Class<?> c = (Class<?>) t;
            if (c.isArray()) {
                return type(c.getComponentType()) + "[]";
            }
            String name = c.getCanonicalName();
            return name == null ? "Object" : name;
        }
        if (t instanceof ParameterizedType) {
            ParameterizedType p = (ParameterizedType) t;
            List<String> args = new ArrayList<>();
            for (Type a : p.getActualTypeArguments()) {
                args.add(type(a));
            }
            return type(p.getRawType()) + "<" + String.join(", ", args) + ">";
        }
        if (t instanceof WildcardType) {
            WildcardType w = (WildcardType) t;
            if (w.getLowerBounds().length > 0) {
                return "? super " + type(w.getLowerBounds()[0]);
            }
            Type upper = w.getUpperBounds()[0];
            return upper == Object.class ? "?" : "? extends " + type(upper);
        }
        if (t instanceof GenericArrayType) {
            return type(((GenericArrayType) t).getGenericComponentType()) + "[]";
        }
        return ((TypeVariable<?>) t).getName();
    }

    private static String typeParameters(TypeVariable<?>[] variables) {
        if (variables.length == 0) {
            return "";
        }
        List<String> rendered = new ArrayList<>();
        for (TypeVariable<?> v : variables) {
            List<String> bounds = new ArrayList<>();
            for (Type b : v.getBounds()) {
                if (b != Object.class) {
                    bounds.add(type(b));
                }
            }
            rendered.add(v.getName() + (bounds.isEmpty() ? "" : " extends " + String.join(" & ", bounds)));
        }
        return "<" + String.join(", ", rendered) + ">";
    }

    private static String visibility(int modifiers) {
        if (Modifier.isPublic(modifiers)) {
            return "public ";
        }
        return Modifier.isProtected(modifiers) ? "protected " : "";
    }

    private boolean usable(Executable e) {
        if (e.isSynthetic() || Modifier.isPrivate(e.getModifiers()) || (publicOnly && !Modifier.isPublic(e.getModifiers()))) {
            return false;
        }
        for (Type t : e.getGenericParameterTypes()) {
            if (unstood(t)) {
                return false;
            }
        }
        for (Type t : e.getGenericExceptionTypes()) {
            if (unstood(t)) {
                return false;
            }
        }
        for (TypeVariable<?> v : e.getTypeParameters()) {
            if (unstood(v)) {
                return false;
            }
        }
        return !(e instanceof Method) || !unstood(((Method) e).getGenericReturnType());
    }

    /** `(T0 a0, T1 a1) throws X`, and the call's descriptors and arguments. */
    private static String[] parameters(Executable e) {
        Type[] generic = e.getGenericParameterTypes();
        Class<?>[] erased = e.getParameterTypes();
        Type[] shown = generic.length == erased.length ? generic : erased;
        List<String> params = new ArrayList<>();
        List<String> descs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < erased.length; i++) {
            String rendered = type(shown[i]);
            if (e.isVarArgs() && i == erased.length - 1 && rendered.endsWith("[]")) {
                rendered = rendered.substring(0, rendered.length() - 2) + "...";
            }
            params.add(rendered + " a" + i);
            descs.add(JudgeRunner.quote(erased[i].getName()));
            names.add("a" + i);
        }
        List<String> thrown = new ArrayList<>();
        for (Type t : e.getGenericExceptionTypes()) {
            thrown.add(type(t));
        }
        String signature = "(" + String.join(", ", params) + ")" + (thrown.isEmpty() ? "" : " throws " + String.join(", ", thrown));
        String call = "new String[] {" + String.join(", ", descs) + "}, new Object[] {" + String.join(", ", names) + "}";
        return new String[] {signature, call};
    }

    private String forwarded(Method m, String self, String declaring, String prefix) {
        String[] parts = parameters(m);
        String returned = type(m.getGenericReturnType());
        String call = "JudgeTests.call(" + self + ", " + JudgeRunner.quote(declaring) + ", " + JudgeRunner.quote(m.getName())
                + ", " + parts[1] + ")";
        String body = m.getReturnType() == void.class ? call + ";" : "return (" + returned + ") " + call + ";";
        if (m.getName().equals("compareTo") && m.getParameterCount() == 1 && !Modifier.isStatic(m.getModifiers())) {
            body = "JudgeTests.ordered(a0);\n        " + body; // no plain value is ordered by the student
        }
        String generic = typeParameters(m.getTypeParameters());
        return prefix + (generic.isEmpty() ? "" : generic + " ") + returned + " " + m.getName() + parts[0] + " {\n        "
                + body + "\n    }\n";
    }

    private static boolean ours(Method m, boolean throwable) {
        String name = m.getName();
        int count = m.getParameterCount();
        if (name.equals("judge$handle") || (name.equals("equals") && count == 1)
                || ((name.equals("hashCode") || name.equals("toString")) && count == 0)) {
            return true;
        }
        return throwable && count == 0 && (name.equals("getMessage") || name.equals("getLocalizedMessage"));
    }

    /** True when the student's class (or a class of the student's above it) declares each
     * abstract method of the interface: the stand-in then can implement it too. */
    private boolean covers(Class<?> c, Class<?> face) {
        for (Method m : face.getMethods()) {
            if (!Modifier.isAbstract(m.getModifiers()) || ours(m, false)) {
                continue;
            }
            String key = m.getName() + java.util.Arrays.toString(m.getParameterTypes());
            boolean found = false;
            for (Class<?> k = c; k != null && stood.contains(k) && !found; k = k.getSuperclass()) {
                found = declared(k).contains(key);
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    private final Map<Class<?>, Set<String>> declaredKeys = new java.util.HashMap<>();

    /** The methods a class declares, by name and parameter types: made once a class. */
    private Set<String> declared(Class<?> k) {
        return declaredKeys.computeIfAbsent(k, c -> {
            Set<String> keys = new java.util.HashSet<>();
            for (Method m : c.getDeclaredMethods()) {
                keys.add(m.getName() + java.util.Arrays.toString(m.getParameterTypes()));
            }
            return keys;
        });
    }

    private List<String> interfacesOf(Class<?> c) {
        List<String> faces = new ArrayList<>();
        Type[] generic = c.getGenericInterfaces();
        Class<?>[] raw = c.getInterfaces();
        for (int i = 0; i < raw.length; i++) {
            Class<?> face = raw[i];
            boolean mine = stood.contains(face);
            boolean jdk = face.getClassLoader() != student && Modifier.isPublic(face.getModifiers()) && !face.isSealed();
            if (generic.length == raw.length && !unstood(generic[i]) && (mine || (jdk && !c.isInterface() && covers(c, face)))) {
                faces.add(type(generic[i]));
            }
        }
        return faces;
    }

    private String standIn(Class<?> c, String indent) {
        StringBuilder out = new StringBuilder();
        String head = visibility(c.getModifiers()) + (c.getEnclosingClass() != null ? "static " : "");
        String name = c.getSimpleName();
        String binary = c.getName();
        boolean throwable = Throwable.class.isAssignableFrom(c);
        List<String> faces = interfacesOf(c);
        if (c.isInterface()) {
            out.append(head).append("interface ").append(name).append(typeParameters(c.getTypeParameters()));
            out.append(faces.isEmpty() ? "" : " extends " + String.join(", ", faces)).append(" {\n");
        } else if (c.isEnum()) {
            out.append(head).append("enum ").append(name).append(" {\n    ");
            List<String> constants = new ArrayList<>();
            for (Field f : c.getDeclaredFields()) {
                if (f.isEnumConstant()) {
                    constants.add(f.getName());
                }
            }
            out.append(String.join(", ", constants)).append(";\n");
        } else {
            Type above = c.getGenericSuperclass();
            Class<?> parent = c.getSuperclass();
            boolean root = !stood.contains(parent);
            String extend = "";
            if (!root && !unstood(above)) {
                extend = " extends " + type(above);
            } else if (throwable && parent.getClassLoader() != student) {
                extend = " extends " + type(parent);
            }
            root = extend.isEmpty() || !stood.contains(parent);
            if (root) {
                faces.add("JudgeWire.Remote");
            }
            out.append(head).append("class ").append(name).append(typeParameters(c.getTypeParameters())).append(extend);
            out.append(faces.isEmpty() ? "" : " implements " + String.join(", ", faces)).append(" {\n");
            out.append(members(c, name, binary, root, throwable));
        }
        for (Method m : c.getDeclaredMethods()) {
            if (!usable(m) || m.isBridge() || ours(m, throwable)) {
                continue;
            }
            boolean isStatic = Modifier.isStatic(m.getModifiers());
            if (c.isEnum() && isStatic && (m.getName().equals("values") || m.getName().equals("valueOf"))) {
                continue;
            }
            String prefix = "    " + visibility(m.getModifiers()) + (isStatic ? "static " : "");
            if (c.isInterface() && !isStatic) {
                if (Modifier.isAbstract(m.getModifiers())) {
                    String[] parts = parameters(m);
                    String generic = typeParameters(m.getTypeParameters());
                    out.append("    ").append(generic.isEmpty() ? "" : generic + " ").append(type(m.getGenericReturnType()))
                            .append(' ').append(m.getName()).append(parts[0]).append(";\n");
                    continue;
                }
                prefix = "    default ";
            }
            out.append(forwarded(m, isStatic ? "null" : "this", binary, prefix));
        }
        for (Class<?> inner : c.getDeclaredClasses()) {
            if (stood.contains(inner)) {
                out.append(standIn(inner, "    "));
            }
        }
        out.append("}\n");
        return out.toString().replace("\n", "\n" + indent).replaceAll("(?m)^" + indent + "$", "");
    }

    /** The call of a JDK superclass's constructor (an exception's) from a stand-in's: the one
     * without arguments when there is one, else the first the stand-in may call, given nulls
     * and zeros (its state is the student's object's, over there). */
    static String superCall(Class<?> parent) {
        if (parent == null || parent == Object.class) {
            return "";
        }
        Constructor<?> chosen = null;
        for (Constructor<?> k : parent.getDeclaredConstructors()) {
            int modifiers = k.getModifiers();
            if (!Modifier.isPublic(modifiers) && !Modifier.isProtected(modifiers)) {
                continue;
            }
            if (k.getParameterCount() == 0) {
                return "";
            }
            if (chosen == null) {
                chosen = k;
            }
        }
        if (chosen == null) {
            return "";
        }
        List<String> given = new ArrayList<>();
        for (Class<?> t : chosen.getParameterTypes()) {
            given.add(t == boolean.class ? "false" : t.isPrimitive() ? "(" + t.getName() + ") 0" : "(" + type(t) + ") null");
        }
        return "        super(" + String.join(", ", given) + ");\n";
    }

    /** A class's handle, its own equals, hashCode and toString, and its constructors. */
    private String members(Class<?> c, String name, String binary, boolean root, boolean throwable) {
        StringBuilder out = new StringBuilder();
        if (root) {
            out.append("    private final JudgeWire.Handle judge$handle;\n\n");
            out.append("    protected ").append(name).append("(JudgeWire.Handle judge$h) {\n");
            out.append(superCall(c.getSuperclass()));
            out.append("        this.judge$handle = judge$h;\n        JudgeTests.hold(judge$h, this);\n    }\n\n");
            out.append("    public final JudgeWire.Handle judge$handle() {\n        return judge$handle;\n    }\n\n");
            out.append("    @Override\n    public boolean equals(Object other) {\n");
            out.append("        return JudgeTests.same(this, other);\n    }\n\n");
            out.append("    @Override\n    public int hashCode() {\n        return (int) JudgeTests.call(this, \"java.lang.Object\",");
            out.append(" \"hashCode\", new String[] {}, new Object[] {});\n    }\n\n");
            out.append("    @Override\n    public String toString() {\n        return (String) JudgeTests.call(this,");
            out.append(" \"java.lang.Object\", \"toString\", new String[] {}, new Object[] {});\n    }\n\n");
            if (throwable) {
                for (String getter : new String[] {"getMessage", "getLocalizedMessage"}) {
                    out.append("    @Override\n    public String ").append(getter).append("() {\n");
                    out.append("        return (String) JudgeTests.call(this, \"java.lang.Throwable\", \"").append(getter);
                    out.append("\", new String[] {}, new Object[] {});\n    }\n\n");
                }
            }
        } else {
            out.append("    protected ").append(name).append("(JudgeWire.Handle judge$h) {\n        super(judge$h);\n    }\n\n");
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (!usable(k)) {
                continue;
            }
            String[] parts = parameters(k);
            String generic = typeParameters(k.getTypeParameters());
            out.append("    ").append(visibility(k.getModifiers())).append(generic.isEmpty() ? "" : generic + " ");
            out.append(name).append(parts[0]).append(" {\n        this(JudgeTests.make(").append(JudgeRunner.quote(binary));
            out.append(", ").append(parts[1]).append("));\n    }\n\n");
        }
        return out.toString();
    }
}
