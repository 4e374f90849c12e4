package io.tidb.operator.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.impl.PropertySerializerMap;
import java.lang.invoke.VarHandle;
import java.util.Map;

/**
 * A bean property written to JSON from its field through a {@link VarHandle}, instead of through
 * its getter with {@code Method.invoke} ({@link FieldBackedProperties} says why). Everything else
 * is the writer it replaces: its name, serializers, and which values it leaves out.
 *
 * <p>A bean with fabric8's {@code additionalProperties} keeps fabric8's rule: a property whose name
 * is also a key of that map with a value is not written here; the map's entry is written by the
 * bean's any-getter instead (fabric8 also logs a warning then; this writer does not). That map is
 * read from its field too ({@code extras}, or {@code null} for a bean without one).
 */
final class FieldHandleWriter extends BeanPropertyWriter {

  private static final long serialVersionUID = 1L;

  private final transient VarHandle value;

  private final transient VarHandle extras;

  FieldHandleWriter(BeanPropertyWriter base, VarHandle value, VarHandle extras) {
    super(base);
    this.value = value;
    this.extras = extras;
  }

  @Override
  public Object get(Object bean) {
    return value.get(bean);
  }

  @Override
  public void serializeAsField(Object bean, JsonGenerator gen, SerializerProvider provider) throws Exception {
    Object content = value.get(bean);
    if (content == null) {
      // Nulls are left out before the map is read: they are never written, whatever it holds.
      if (_suppressableValue != null && provider.includeFilterSuppressNulls(_suppressableValue)) {
        return;
      }
      if (_nullSerializer != null && !inExtras(bean)) {
        gen.writeFieldName(_name);
        _nullSerializer.serialize(null, gen, provider);
      }
      return;
    }
    if (inExtras(bean)) {
      return;
    }
    JsonSerializer<Object> serializer = _serializer;
    if (serializer == null) {
      Class<?> type = content.getClass();
      PropertySerializerMap known = _dynamicSerializers;
      serializer = known.serializerFor(type);
      if (serializer == null) {
        serializer = _findAndAddDynamic(known, type, provider);
      }
    }
    if (_suppressableValue != null
        && (MARKER_FOR_EMPTY == _suppressableValue
            ? serializer.isEmpty(provider, content)
            : _suppressableValue.equals(content))) {
      return;
    }
    if (content == bean && _handleSelfReference(bean, gen, provider, serializer)) {
      return;
    }
    gen.writeFieldName(_name);
    if (_typeSerializer == null) {
      serializer.serialize(content, gen, provider);
    } else {
      serializer.serializeWithType(content, gen, provider, _typeSerializer);
    }
  }

  /** Whether the bean's additional properties hold a value under this property's name. */
  private boolean inExtras(Object bean) {
    if (extras == null) {
      return false;
    }
    Map<?, ?> map = (Map<?, ?>) extras.get(bean);
    return map != null && !map.isEmpty() && map.get(getName()) != null;
  }
}
