package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.FieldsV1;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An object about to enter an informer's cache, rewritten in place so that it holds what it held
 * in less memory ({@link PrunedItemStore}): every string value of up to {@value #MAX_SHARED_LENGTH}
 * characters is replaced by the JVM's one interned copy of it, every empty map of additional
 * properties by one shared immutable empty map, and every managedFields entry's field set by its
 * compacted copy ({@link CompactFieldSets}, which the walk does not descend into again).
 *
 * <p>Cached objects repeat each other: the pods of one StatefulSet carry the same images, commands,
 * environment, volumes, mounts, labels and condition types, and each object read from JSON holds
 * its own copy of every such string. Jackson already interns the keys (a label's name, a field
 * name); strings were about a third of the controller's live heap with 30 clusters. And fabric8
 * gives every model object its own {@code LinkedHashMap} for properties its model does not know,
 * nearly always empty: tens of thousands of them in the same heap. Both together took 34 MB of
 * live heap to 29 (docs/benchmarks-controller.md).
 *
 * <p>Only the model's own classes are walked (fabric8's {@code io.fabric8.kubernetes} and the
 * project's {@code io.tidb.operator.api}); their fields, and the values of their lists and maps,
 * are reached through {@link VarHandle}s made once per class. Final fields are read, never written.
 * The shared map is immutable, so the cached object cannot be changed through it, as no cached
 * object may be changed at all ({@link CacheMutationDetector}); a copy made with fabric8's builders
 * or through JSON gets maps of its own.
 */
final class CachedObjectCompactor {

  /** Longer strings (a certificate, a script, a whole configuration) are rarely shared. */
  static final int MAX_SHARED_LENGTH = 256;

  /** The field fabric8's model keeps unknown properties in, in every generated class. */
  static final String ADDITIONAL_PROPERTIES = "additionalProperties";

  private static final Map<String, Object> NO_PROPERTIES = Map.of();

  /** Recently shared strings by hash ({@link #share}); a power of two. */
  private static final String[] RECENT = new String[1 << 13];

  private static final ClassValue<FieldHandle[]> FIELDS = new ClassValue<>() {
    @Override
    protected FieldHandle[] computeValue(Class<?> type) {
      return fieldsOf(type);
    }
  };

  private CachedObjectCompactor() {}

  /** {@code object}, compacted in place. */
  static <T> T compact(T object) {
    if (object != null && isModel(object.getClass())) {
      compactObject(object);
    }
    return object;
  }

  /**
   * The shared copy of {@code value}: the JVM's interned one (its string table forgets a string
   * no one holds any more), or {@code value} itself when it is longer than {@value
   * #MAX_SHARED_LENGTH}. A table of recently shared strings answers first: {@code intern} is a
   * call into the JVM, which copies the string to look it up, and most values recur. A race on
   * a slot costs one more {@code intern}, never a wrong answer: a slot holds only interned strings.
   */
  static String share(String value) {
    if (value.length() > MAX_SHARED_LENGTH) {
      return value;
    }
    int slot = value.hashCode() & (RECENT.length - 1);
    String recent = RECENT[slot];
    if (value.equals(recent)) {
      return recent;
    }
    String shared = value.intern();
    RECENT[slot] = shared;
    return shared;
  }

  private static void compactObject(Object object) {
    for (FieldHandle field : FIELDS.get(object.getClass())) {
      Object value = field.handle().get(object);
      if (value == null) {
        continue;
      }
      if (field.additionalProperties() && value instanceof Map<?, ?> map && map.isEmpty()) {
        field.handle().set(object, NO_PROPERTIES);
        continue;
      }
      Object compacted = compactValue(value);
      if (compacted != value && field.writable()) {
        field.handle().set(object, compacted);
      }
    }
  }

  /**
   * {@code value} or its shared copy; a field set is replaced by its compacted copy, maps, lists
   * and other model objects are compacted in place.
   */
  private static Object compactValue(Object value) {
    if (value instanceof String s) {
      return share(s);
    }
    if (value instanceof FieldsV1 fields) {
      return CompactFieldSets.compact(fields);
    }
    if (value instanceof Map<?, ?> map) {
      compactMap(map);
    } else if (value instanceof List<?> list) {
      compactList(list);
    } else {
      compactObject(value); // a model object; any other has no fields to walk
    }
    return value;
  }

  @SuppressWarnings("unchecked")
  private static void compactMap(Map<?, ?> map) {
    // Jackson reads every JSON object that is no model class into a LinkedHashMap; other maps (an
    // immutable one a builder was given) are only walked.
    boolean replaceable = map instanceof HashMap<?, ?>;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      Object value = entry.getValue();
      if (value == null) {
        continue;
      }
      Object compacted = compactValue(value);
      if (compacted != value && replaceable) {
        ((Map.Entry<Object, Object>) entry).setValue(compacted);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static void compactList(List<?> list) {
    // Jackson reads every JSON array of the model into an ArrayList; other lists are only walked.
    boolean replaceable = list instanceof ArrayList<?>;
    for (int i = 0; i < list.size(); i++) {
      Object value = list.get(i);
      if (value == null) {
        continue;
      }
      Object compacted = compactValue(value);
      if (compacted != value && replaceable) {
        ((List<Object>) list).set(i, compacted);
      }
    }
  }

  /**
   * Whether a field of {@code type} can hold a string, a collection or a model object: not a
   * primitive, a boxed number or boolean, or an enum, which the walk would only read.
   */
  private static boolean mayHoldShareable(Class<?> type) {
    return !type.isPrimitive() && !type.isEnum() && !Number.class.isAssignableFrom(type)
        && type != Boolean.class;
  }

  static boolean isModel(Class<?> type) {
    String name = type.getName();
    return name.startsWith("io.fabric8.kubernetes.") || name.startsWith("io.tidb.operator.api.");
  }

  /** The fields the walk reads of {@code type}: none unless it is a model class. */
  private static FieldHandle[] fieldsOf(Class<?> type) {
    List<FieldHandle> fields = new ArrayList<>();
    for (Class<?> c = type; c != null && isModel(c); c = c.getSuperclass()) {
      MethodHandles.Lookup lookup;
      try {
        lookup = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
      } catch (IllegalAccessException e) {
        continue; // a class this module may not look into keeps its values as they are
      }
      for (Field field : c.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isStatic(modifiers) || !mayHoldShareable(field.getType())) {
          continue;
        }
        VarHandle handle;
        try {
          handle = lookup.unreflectVarHandle(field);
        } catch (IllegalAccessException e) {
          continue;
        }
        boolean writable = !Modifier.isFinal(modifiers);
        boolean additionalProperties = writable && field.getName().equals(ADDITIONAL_PROPERTIES)
            && Map.class.isAssignableFrom(field.getType());
        fields.add(new FieldHandle(handle, writable, additionalProperties));
      }
    }
    return fields.toArray(FieldHandle[]::new);
  }

  /**
   * One field of a model class: its handle, whether it may be set, and whether it holds the
   * object's unknown properties.
   */
  private record FieldHandle(VarHandle handle, boolean writable, boolean additionalProperties) {}
}
