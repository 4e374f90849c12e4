package io.tidb.operator.api;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.impl.MethodProperty;
import com.fasterxml.jackson.databind.introspect.AnnotatedField;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedMethod;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.BeanSerializerBuilder;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.model.jackson.BeanPropertyWriterDelegate;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and writes the model's properties through their fields instead of their setters and
 * getters.
 *
 * <p>Jackson calls a bean's getter for every property it writes and its setter for every property
 * it reads, through {@code Method.invoke}; fabric8's writers call the bean's {@code
 * getAdditionalProperties()} once more per property written. The controller keeps reflection
 * native ({@code -Dsun.reflect.inflationThreshold}: no generated accessor class per method, less
 * memory), so each call is a JNI call: about half of the CPU of writing a model object as JSON, a
 * fifth of reading one. The webhook lets the JDK generate an accessor class per method instead,
 * hundreds of them. A {@link VarHandle} on the field needs neither: a type check and a plain load
 * or store, compiled like any other code.
 *
 * <p>Only for the classes whose accessors do nothing but load and store their field: fabric8's
 * generated model ({@code io.fabric8.kubernetes.api.model}, but {@code IntOrString}) and this
 * project's ({@code io.tidb.operator.api.v1alpha1}, Lombok's accessors); {@code
 * FieldBackedPropertiesTest} checks that claim for every class of both. A property moves to its
 * field only when it is a getter's or setter's with nothing of its own around it (no deserializer
 * or type handling of its own, no managed reference, object identity or view) and its field is an
 * instance field of a reference type, the accessor's type.
 */
final class FieldBackedProperties {

  private static final List<String> PLAIN_ACCESSOR_PACKAGES =
      List.of("io.fabric8.kubernetes.api.model.", "io.tidb.operator.api.v1alpha1.");

  /** Hand-written among fabric8's model: {@code setValue} refuses what is neither a number nor text. */
  private static final Set<Class<?>> CHECKING_ACCESSORS = Set.of(IntOrString.class);

  /** fabric8's any-getter, whose field its writers consult ({@link FieldHandleWriter}). */
  private static final String EXTRAS = "additionalProperties";

  private FieldBackedProperties() {}

  /**
   * Setter properties to field properties. Must run before fabric8's own modifier, which wraps the
   * properties it finds: registered after it.
   */
  static final class Reads extends BeanDeserializerModifier {

    @Override
    public BeanDeserializerBuilder updateBuilder(
        DeserializationConfig config, BeanDescription description, BeanDeserializerBuilder builder) {
      if (!plainAccessors(description.getBeanClass())) {
        return builder;
      }
      Map<String, BeanPropertyDefinition> definitions = definitions(description);
      List<SettableBeanProperty> moved = new ArrayList<>();
      for (Iterator<SettableBeanProperty> it = builder.getProperties(); it.hasNext(); ) {
        SettableBeanProperty property = it.next();
        BeanPropertyDefinition definition = definitions.get(property.getName());
        AnnotatedField field = definition == null ? null : definition.getField();
        if (property.getClass() == MethodProperty.class
            && !property.hasValueDeserializer()
            && property.getValueTypeDeserializer() == null
            && property.getManagedReferenceName() == null
            && property.getObjectIdInfo() == null
            && !property.hasViews()
            && movable(field, property.getType().getRawClass())) {
          moved.add(new FieldHandleProperty(definition, property.getType(), field,
              handle(field.getAnnotated()), description.getClassAnnotations()));
        }
      }
      for (SettableBeanProperty property : moved) {
        builder.addOrReplaceProperty(property, true);
      }
      return builder;
    }
  }

  /**
   * Getter writers, fabric8's wrapped ones included, to field writers. Must run after fabric8's
   * own modifier: registered before it.
   */
  static final class Writes extends BeanSerializerModifier {

    @Override
    public BeanSerializerBuilder updateBuilder(
        SerializationConfig config, BeanDescription description, BeanSerializerBuilder builder) {
      if (!plainAccessors(description.getBeanClass()) || builder.getFilteredProperties() != null) {
        return builder;
      }
      AnnotatedMember anyGetter = description.findAnyGetter();
      VarHandle extras = null;
      if (anyGetter != null) {
        Field extrasField = anyGetterField(anyGetter);
        if (extrasField == null) {
          return builder;
        }
        extras = handle(extrasField);
      }
      Map<String, BeanPropertyDefinition> definitions = definitions(description);
      List<BeanPropertyWriter> writers = new ArrayList<>(builder.getProperties());
      boolean changed = false;
      for (int i = 0; i < writers.size(); i++) {
        BeanPropertyWriter writer = writers.get(i);
        BeanPropertyDefinition definition = definitions.get(writer.getName());
        AnnotatedField field = definition == null ? null : definition.getField();
        boolean wrapped = writer.getClass() == BeanPropertyWriterDelegate.class;
        if ((writer.getClass() == BeanPropertyWriter.class || wrapped)
            && writer.getMember() instanceof AnnotatedMethod getter
            && !getter.equals(anyGetter)
            && !writer.hasSerializer()
            && writer.getTypeSerializer() == null
            && writer.getViews() == null
            && movable(field, getter.getRawType())) {
          // fabric8 wraps every writer; only its wrapper consults the additional properties.
          writers.set(i, new FieldHandleWriter(writer, handle(field.getAnnotated()), wrapped ? extras : null));
          changed = true;
        }
      }
      if (changed) {
        builder.setProperties(writers);
      }
      return builder;
    }

    /** The field {@code getAdditionalProperties()} returns, if that is the any-getter. */
    private static Field anyGetterField(AnnotatedMember anyGetter) {
      if (!(anyGetter instanceof AnnotatedMethod method) || !method.getName().equals("getAdditionalProperties")) {
        return null;
      }
      for (Class<?> type = method.getDeclaringClass(); type != null; type = type.getSuperclass()) {
        try {
          Field field = type.getDeclaredField(EXTRAS);
          return Map.class.isAssignableFrom(field.getType()) && !Modifier.isStatic(field.getModifiers()) ? field : null;
        } catch (NoSuchFieldException e) {
          // declared higher up, if at all
        }
      }
      return null;
    }
  }

  static boolean plainAccessors(Class<?> type) {
    if (CHECKING_ACCESSORS.contains(type)) {
      return false;
    }
    String name = type.getName();
    for (String prefix : PLAIN_ACCESSOR_PACKAGES) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, BeanPropertyDefinition> definitions(BeanDescription description) {
    Map<String, BeanPropertyDefinition> definitions = new HashMap<>();
    for (BeanPropertyDefinition definition : description.findProperties()) {
      definitions.put(definition.getName(), definition);
    }
    return definitions;
  }

  /** An instance field of a reference type, of exactly the accessor's type, in a plain class. */
  private static boolean movable(AnnotatedField field, Class<?> accessorType) {
    return field != null
        && !Modifier.isStatic(field.getModifiers())
        && plainAccessors(field.getDeclaringClass())
        && !field.getRawType().isPrimitive()
        && field.getRawType() == accessorType;
  }

  private static VarHandle handle(Field field) {
    try {
      Class<?> owner = field.getDeclaringClass();
      return MethodHandles.privateLookupIn(owner, MethodHandles.lookup())
          .unreflectVarHandle(field);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("no access to " + field, e);
    }
  }
}
