package io.tidb.operator.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.PropertyName;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.introspect.AnnotatedField;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedMethod;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.BeanSerializerBuilder;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.impl.PropertySerializerMap;
import io.fabric8.kubernetes.model.jackson.BeanPropertyWriterDelegate;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Calls the model's getters through method handles instead of {@code Method.invoke}: the
 * serializing side of {@link SetterHandles}, which says why.
 *
 * <p>fabric8's mapping wraps every property writer in a {@link BeanPropertyWriterDelegate}, which
 * before each property reads the bean's {@code additionalProperties} (its any-getter, again
 * through {@code Method.invoke}) and writes the property only if that map holds no value of the
 * same name. So writing one property was two reflective calls. This modifier runs after fabric8's
 * (it is registered before fabric8's modules, {@link ApiObjects}: Jackson runs the modifier
 * registered last first) and puts in the place of each such writer one that makes the same check
 * and the same write through handles. fabric8's warning about the shadowed value is not logged
 * (it would print the value, which may be a secret's).
 *
 * <p>Only writers of a getter method, Jackson's own or fabric8's wrapping of one, are replaced;
 * fields, the any-getter itself, and beans whose properties have views keep Jackson's writers.
 */
final class GetterHandles extends BeanSerializerModifier {

  private static final MethodType SHAPE = MethodType.methodType(Object.class, Object.class);

  @Override
  public BeanSerializerBuilder updateBuilder(
      SerializationConfig config, BeanDescription description, BeanSerializerBuilder builder) {
    if (builder.getFilteredProperties() != null) {
      return builder;
    }
    AnnotatedMember anyGetter = description.findAnyGetter();
    List<BeanPropertyWriter> writers = builder.getProperties();
    List<BeanPropertyWriter> replaced = new ArrayList<>(writers.size());
    boolean changed = false;
    for (BeanPropertyWriter writer : writers) {
      boolean shadowable = writer.getClass() == BeanPropertyWriterDelegate.class;
      if ((shadowable || writer.getClass() == BeanPropertyWriter.class)
          && writer.getMember() instanceof AnnotatedMethod getter
          && (anyGetter == null || !getter.getAnnotated().equals(anyGetter.getMember()))) {
        replaced.add(new HandleWriter(writer, getter, shadowable ? anyGetter : null));
        changed = true;
      } else {
        replaced.add(writer);
      }
    }
    if (changed) {
      builder.setProperties(replaced);
    }
    return builder;
  }

  /**
   * A getter's property written through its handle, as {@link BeanPropertyWriter} writes it; with
   * an any-getter, not written when the bean's additional properties hold a value of its name (as
   * fabric8's {@link BeanPropertyWriterDelegate}).
   */
  static final class HandleWriter extends BeanPropertyWriter {

    private static final long serialVersionUID = 1L;

    private final AnnotatedMethod getterMember;
    private final AnnotatedMember anyGetterMember;
    /** Made on first use; {@code null} until then. */
    private transient volatile MethodHandle getter;
    private transient volatile MethodHandle anyGetter;

    HandleWriter(BeanPropertyWriter base, AnnotatedMethod getterMember, AnnotatedMember anyGetterMember) {
      super(base);
      this.getterMember = getterMember;
      this.anyGetterMember = anyGetterMember;
    }

    private HandleWriter(HandleWriter base, PropertyName name) {
      super(base, name);
      this.getterMember = base.getterMember;
      this.anyGetterMember = base.anyGetterMember;
      this.getter = base.getter;
      this.anyGetter = base.anyGetter;
    }

    @Override
    protected BeanPropertyWriter _new(PropertyName newName) {
      return new HandleWriter(this, newName);
    }

    @Override
    public Object get(Object bean) throws Exception {
      MethodHandle handle = getter;
      if (handle == null) {
        handle = MethodHandles.publicLookup().unreflect(getterMember.getAnnotated()).asType(SHAPE);
        getter = handle;
      }
      return call(handle, bean);
    }

    /** Whether the bean's additional properties hold a value of this property's name. */
    private boolean shadowed(Object bean) throws Exception {
      if (anyGetterMember == null) {
        return false;
      }
      MethodHandle handle = anyGetter;
      if (handle == null) {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        handle = (anyGetterMember instanceof AnnotatedField field
            ? lookup.unreflectGetter(field.getAnnotated())
            : lookup.unreflect(((AnnotatedMethod) anyGetterMember).getAnnotated())).asType(SHAPE);
        anyGetter = handle;
      }
      return call(handle, bean) instanceof Map<?, ?> additional && additional.get(getName()) != null;
    }

    private static Object call(MethodHandle handle, Object bean) throws Exception {
      try {
        return (Object) handle.invokeExact(bean);
      } catch (Exception | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException(e);
      }
    }

    /** {@link BeanPropertyWriter#serializeAsField}, with the value read by {@link #get}. */
    @Override
    public void serializeAsField(Object bean, JsonGenerator gen, SerializerProvider prov)
        throws Exception {
      if (shadowed(bean)) {
        return;
      }
      Object value = get(bean);
      if (value == null) {
        if (_suppressableValue != null && prov.includeFilterSuppressNulls(_suppressableValue)) {
          return;
        }
        if (_nullSerializer != null) {
          gen.writeFieldName(_name);
          _nullSerializer.serialize(null, gen, prov);
        }
        return;
      }
      JsonSerializer<Object> ser = _serializer;
      if (ser == null) {
        PropertySerializerMap map = _dynamicSerializers;
        ser = map.serializerFor(value.getClass());
        if (ser == null) {
          ser = _findAndAddDynamic(map, value.getClass(), prov);
        }
      }
      if (_suppressableValue != null
          && (MARKER_FOR_EMPTY == _suppressableValue
              ? ser.isEmpty(prov, value)
              : _suppressableValue.equals(value))) {
        return;
      }
      if (value == bean && _handleSelfReference(bean, gen, prov, ser)) {
        return;
      }
      gen.writeFieldName(_name);
      if (_typeSerializer == null) {
        ser.serialize(value, gen, prov);
      } else {
        ser.serializeWithType(value, gen, prov, _typeSerializer);
      }
    }
  }
}
