package io.tidb.operator.api.v1alpha1;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * Every field of every API model bean takes part in {@code equals} and {@code hashCode}. The
 * controller writes status only when {@code equals} says it changed, so a field left out of
 * {@code equals} silently drops status writes.
 *
 * <p>The beans are found by listing the compiled classes of the model packages, so a new class or
 * field is checked without touching this test. Values are built by type and set reflectively; a
 * field of a type this test cannot build fails the test, so teach {@link #value} the new type.
 */
class BeanEqualityTest {

  static final List<String> PACKAGES =
      List.of("io.tidb.operator.api.v1alpha1.cluster", "io.tidb.operator.api.v1alpha1.shared");

  /** Classes of the model packages that are not beans, each for a reason. */
  static final Set<String> NOT_BEANS = Set.of(
      // Immutable value with its own equals over its JSON value; built by factories.
      "io.tidb.operator.api.v1alpha1.cluster.ComponentConfig",
      // Static helpers and their record.
      "io.tidb.operator.api.v1alpha1.cluster.Components",
      "io.tidb.operator.api.v1alpha1.cluster.Components$Member",
      // Schema stand-in, never instantiated.
      "io.tidb.operator.api.v1alpha1.cluster.PreservedList");

  /** How deep values of nested beans go before giving up (guards against cyclic types). */
  private static final int MAX_DEPTH = 8;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  // ---------------------------------------------------------------------------------------------
  // The tests

  @TestFactory
  Stream<DynamicTest> everyFieldTakesPartInEqualsAndHashCode() {
    return beans().stream()
        .map(type -> DynamicTest.dynamicTest(type.getSimpleName(), () -> checkBean(type)));
  }

  @Test
  void everyModelClassIsCheckedOrNamedAsNotABean() {
    List<Class<?>> all = modelClasses();
    List<Class<?>> beans = beans();
    assertTrue(beans.size() >= 50, "expected at least 50 model beans, found " + beans.size());
    for (String name : List.of("TidbClusterSpec", "TidbClusterStatus", "PdSpec", "PdStatus",
        "TikvSpec", "TiflashStatus", "TidbCluster", "ServiceSpec", "TidbClusterRef")) {
      assertTrue(beans.stream().anyMatch(c -> c.getSimpleName().equals(name)),
          name + " is not among the checked beans " + names(beans));
    }
    Set<String> unexplained = new TreeSet<>();
    for (Class<?> c : all) {
      if (beans.contains(c) || NOT_BEANS.contains(c.getName())) {
        continue;
      }
      if (Modifier.isAbstract(c.getModifiers()) && !c.isInterface()) {
        // Checked through its concrete subclasses, whose inherited fields include its own.
        if (beans.stream().noneMatch(c::isAssignableFrom)) {
          unexplained.add(c.getName() + " (abstract, no concrete subclass checked)");
        }
        continue;
      }
      unexplained.add(c.getName());
    }
    assertEquals(Set.of(), unexplained,
        "model classes neither checked as beans nor listed in NOT_BEANS");
    for (String name : NOT_BEANS) {
      assertTrue(all.stream().anyMatch(c -> c.getName().equals(name)),
          "NOT_BEANS names " + name + ", which no longer exists");
    }
  }

  private static void checkBean(Class<?> type) throws Exception {
    List<Field> fields = accessible(instanceFields(type));
    for (Field field : fields) {
      Object v0 = value(field.getGenericType(), type, 0, 0, where(type, field));
      Object v1 = value(field.getGenericType(), type, 1, 0, where(type, field));
      assertEquals(v0, value(field.getGenericType(), type, 0, 0, where(type, field)),
          "two equal values built for " + where(type, field) + " compare unequal");
      assertNotEquals(v0, v1, "the two distinct values built for " + where(type, field)
          + " compare equal: their type's equals ignores the field set in them");
    }
    assertEquals(newInstance(type), newInstance(type), "two empty instances");
    Object a = filled(type, fields, 0);
    Object b = filled(type, fields, 0);
    assertEquals(a, a, "reflexive");
    assertEquals(a, b, "instances with equal field values");
    assertEquals(b, a, "instances with equal field values (symmetric)");
    assertEquals(a.hashCode(), b.hashCode(), "hashCode of instances with equal field values");
    List<Executable> perField = new ArrayList<>();
    for (Field field : fields) {
      perField.add(() -> {
        Object changed = filled(type, fields, 0);
        field.set(changed, value(field.getGenericType(), type, 1, 0, where(type, field)));
        assertNotEquals(a, changed,
            type.getSimpleName() + ".equals ignores field " + where(type, field));
        assertNotEquals(changed, a,
            type.getSimpleName() + ".equals ignores field " + where(type, field) + " (symmetric)");
        field.set(changed, value(field.getGenericType(), type, 0, 0, where(type, field)));
        assertEquals(a, changed, "set back, " + where(type, field) + " compares equal again");
        assertEquals(a.hashCode(), changed.hashCode(),
            "set back, " + where(type, field) + " hashes equal again");
      });
    }
    assertAll(type.getName(), perField);
  }

  /** A new instance of {@code type} with every instance field set to its {@code variant} value. */
  private static Object filled(Class<?> type, List<Field> fields, int variant) throws Exception {
    Object o = newInstance(type);
    for (Field field : fields) {
      field.set(o, value(field.getGenericType(), type, variant, 0, where(type, field)));
    }
    return o;
  }

  // ---------------------------------------------------------------------------------------------
  // Finding the beans

  /**
   * Concrete classes of the model packages with a no-arg constructor and instance fields, less
   * those named in {@link #NOT_BEANS}.
   */
  static List<Class<?>> beans() {
    List<Class<?>> out = new ArrayList<>();
    for (Class<?> c : modelClasses()) {
      if (NOT_BEANS.contains(c.getName()) || c.isInterface() || c.isEnum() || c.isRecord() || c.isAnnotation()
          || Modifier.isAbstract(c.getModifiers()) || c.isAnonymousClass() || c.isLocalClass()
          || (c.isMemberClass() && !Modifier.isStatic(c.getModifiers()))) {
        continue;
      }
      if (noArgConstructor(c) == null || instanceFields(c).isEmpty()) {
        continue;
      }
      out.add(c);
    }
    return out;
  }

  /** Every class compiled into the model packages, read from where the model's classes are. */
  static List<Class<?>> modelClasses() {
    Path location;
    try {
      location = Path.of(
          TidbClusterSpec.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    Set<String> names = new TreeSet<>();
    for (String pkg : PACKAGES) {
      String dir = pkg.replace('.', '/');
      File file = location.toFile();
      if (file.isDirectory()) {
        File[] entries = new File(file, dir).listFiles((d, n) -> n.endsWith(".class"));
        if (entries == null) {
          fail("no compiled classes in " + new File(file, dir));
        }
        for (File entry : entries) {
          names.add(pkg + "." + entry.getName().substring(0, entry.getName().length() - 6));
        }
      } else {
        try (JarFile jar = new JarFile(file)) {
          for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
            String n = e.nextElement().getName();
            if (n.startsWith(dir + "/") && n.endsWith(".class")
                && n.indexOf('/', dir.length() + 1) < 0) {
              names.add(n.substring(0, n.length() - 6).replace('/', '.'));
            }
          }
        } catch (IOException e) {
          throw new IllegalStateException("cannot list " + file, e);
        }
      }
    }
    List<Class<?>> out = new ArrayList<>();
    for (String name : names) {
      if (name.endsWith("package-info") || name.endsWith("module-info")) {
        continue;
      }
      try {
        out.add(Class.forName(name, false, BeanEqualityTest.class.getClassLoader()));
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    assertTrue(!out.isEmpty(), "no model classes found under " + location);
    return out;
  }

  /** Non-static fields of {@code type} and all its superclasses. */
  static List<Field> instanceFields(Class<?> type) {
    List<Field> out = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
          continue;
        }
        out.add(f);
      }
    }
    return out;
  }

  private static List<Field> accessible(List<Field> fields) {
    fields.forEach(f -> f.setAccessible(true));
    return fields;
  }

  private static Constructor<?> noArgConstructor(Class<?> type) {
    try {
      Constructor<?> ctor = type.getDeclaredConstructor();
      ctor.setAccessible(true);
      return ctor;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static Object newInstance(Class<?> type) throws Exception {
    Constructor<?> ctor = noArgConstructor(type);
    if (ctor == null) {
      fail(type.getName() + " has no no-arg constructor");
    }
    return ctor.newInstance();
  }

  private static String where(Class<?> bean, Field field) {
    return field.getDeclaringClass() == bean
        ? field.getName()
        : field.getName() + " (from " + field.getDeclaringClass().getSimpleName() + ")";
  }

  private static List<String> names(Collection<Class<?>> classes) {
    return classes.stream().map(Class::getSimpleName).toList();
  }

  // ---------------------------------------------------------------------------------------------
  // Values by type

  /**
   * A value of {@code type}: values of the same variant are equal (but never the same object),
   * values of variants 0 and 1 differ. {@code owner} resolves type variables of inherited fields
   * (e.g. CustomResource's {@code spec}).
   */
  static Object value(Type type, Class<?> owner, int variant, int depth, String what)
      throws Exception {
    if (depth > MAX_DEPTH) {
      fail("values nest deeper than " + MAX_DEPTH + " levels building " + what);
    }
    if (type instanceof TypeVariable<?> var) {
      Type resolved = resolve(var, owner);
      if (resolved == null) {
        fail("cannot resolve type variable " + var + " of " + what + " in " + owner.getName());
      }
      return value(resolved, owner, variant, depth, what);
    }
    if (type instanceof ParameterizedType p) {
      Class<?> raw = (Class<?>) p.getRawType();
      Type[] args = p.getActualTypeArguments();
      if (raw == List.class || raw == Collection.class) {
        List<Object> list = new ArrayList<>();
        list.add(value(args[0], owner, variant, depth + 1, what + "[]"));
        return list;
      }
      if (raw == Set.class) {
        Set<Object> set = new LinkedHashSet<>();
        set.add(value(args[0], owner, variant, depth + 1, what + "[]"));
        return set;
      }
      if (raw == Map.class) {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(value(args[0], owner, 0, depth + 1, what + " key"),
            value(args[1], owner, variant, depth + 1, what + "{}"));
        return map;
      }
      return value(raw, owner, variant, depth, what);
    }
    if (!(type instanceof Class<?> c)) {
      fail("BeanEqualityTest cannot build a value of type " + type + " for " + what
          + "; teach BeanEqualityTest.value this type");
      return null;
    }
    if (c == String.class || c == Object.class) {
      return variant == 0 ? new String("a") : new String("b");
    }
    if (c == Integer.class || c == int.class) {
      return variant + 1;
    }
    if (c == Long.class || c == long.class) {
      return (long) variant + 1;
    }
    if (c == Short.class || c == short.class) {
      return (short) (variant + 1);
    }
    if (c == Double.class || c == double.class) {
      return variant + 1.5;
    }
    if (c == Float.class || c == float.class) {
      return variant + 1.5f;
    }
    if (c == Boolean.class || c == boolean.class) {
      return variant == 0;
    }
    if (c.isEnum()) {
      Object[] constants = c.getEnumConstants();
      if (constants.length < 2) {
        fail("enum " + c.getName() + " of " + what + " has fewer than two constants");
      }
      return constants[variant];
    }
    if (c == JsonNode.class || c == ObjectNode.class) {
      return NODES.objectNode().put("k", "v" + variant);
    }
    if (c == ComponentConfig.class) {
      return ComponentConfig.of(NODES.objectNode().put("k", "v" + variant));
    }
    if (c == Quantity.class) {
      return new Quantity(variant == 0 ? "1Gi" : "2Gi");
    }
    if (c == IntOrString.class) {
      return new IntOrString(variant + 1);
    }
    if (List.class.isAssignableFrom(c) || Map.class.isAssignableFrom(c)
        || Set.class.isAssignableFrom(c) || c.isArray() || c.isInterface()
        || Modifier.isAbstract(c.getModifiers())) {
      fail("BeanEqualityTest cannot build a value of type " + c.getName() + " for " + what
          + "; teach BeanEqualityTest.value this type");
    }
    return bean(c, variant, depth, what);
  }

  /**
   * A bean of a model or fabric8 type: {@code new X()} with one field set to its variant value;
   * the first String field when there is one, else the first field whose type can be built.
   */
  private static Object bean(Class<?> c, int variant, int depth, String what) throws Exception {
    String pkg = c.getPackageName();
    if (!pkg.startsWith("io.tidb.operator.") && !pkg.startsWith("io.fabric8.kubernetes.api.model")) {
      fail("BeanEqualityTest cannot build a value of type " + c.getName() + " for " + what
          + " (only model and fabric8 model beans are built generically); teach"
          + " BeanEqualityTest.value this type");
    }
    if (noArgConstructor(c) == null) {
      fail("BeanEqualityTest cannot build a value of type " + c.getName() + " for " + what
          + " (no no-arg constructor); teach BeanEqualityTest.value this type");
    }
    List<Field> fields = accessible(instanceFields(c));
    List<Field> order = new ArrayList<>();
    fields.stream().filter(f -> f.getType() == String.class).forEach(order::add);
    fields.stream().filter(f -> f.getType() != String.class).forEach(order::add);
    List<String> tried = new ArrayList<>();
    for (Field f : order) {
      Object o = newInstance(c);
      Object v;
      try {
        v = value(f.getGenericType(), c, variant, depth + 1, what + "." + f.getName());
      } catch (AssertionError notBuildable) {
        tried.add(f.getName() + ": " + notBuildable.getMessage());
        continue;
      }
      f.set(o, v);
      return o;
    }
    fail("BeanEqualityTest cannot build a value of type " + c.getName() + " for " + what
        + ": no field of it can be set " + tried + "; teach BeanEqualityTest.value this type");
    return null;
  }

  /** The actual type of {@code var} as seen from {@code owner}'s superclass chain. */
  private static Type resolve(TypeVariable<?> var, Class<?> owner) {
    Map<TypeVariable<?>, Type> bindings = new HashMap<>();
    for (Class<?> c = owner; c != null && c != Object.class; c = c.getSuperclass()) {
      if (c.getGenericSuperclass() instanceof ParameterizedType p) {
        TypeVariable<?>[] params = ((Class<?>) p.getRawType()).getTypeParameters();
        Type[] args = p.getActualTypeArguments();
        for (int i = 0; i < params.length; i++) {
          Type arg = args[i];
          while (arg instanceof TypeVariable<?> tv && bindings.containsKey(tv)) {
            arg = bindings.get(tv);
          }
          bindings.put(params[i], arg);
        }
      }
    }
    Type t = bindings.get(var);
    return t instanceof TypeVariable<?> ? null : t;
  }
}
