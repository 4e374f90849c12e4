package io.tidb.operator.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.PropertyName;
import com.fasterxml.jackson.databind.deser.NullValueProvider;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.impl.NullsConstantProvider;
import com.fasterxml.jackson.databind.introspect.AnnotatedField;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.util.Annotations;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.invoke.VarHandle;

/**
 * A bean property written into its field through a {@link VarHandle}: what Jackson's own field
 * property does, without reflection. {@code Field.set} checks the bean's and the value's classes
 * with {@code Class.isAssignableFrom}, a JNI call each under C1; the handle's check is the
 * compiled {@code Class.cast}. Only for fields of a reference type, whose handle takes {@code
 * (Object, Object)} as called here with no conversion ({@link FieldBackedProperties}).
 */
final class FieldHandleProperty extends SettableBeanProperty {

  private final AnnotatedField annotated;

  private final transient VarHandle handle;

  private final boolean skipNulls;

  FieldHandleProperty(BeanPropertyDefinition definition, JavaType type, AnnotatedField field,
      VarHandle handle, Annotations classAnnotations) {
    super(definition, type, null, classAnnotations);
    this.annotated = field;
    this.handle = handle;
    this.skipNulls = false;
  }

  private FieldHandleProperty(FieldHandleProperty source, JsonDeserializer<?> deserializer, NullValueProvider nulls) {
    super(source, deserializer, nulls);
    this.annotated = source.annotated;
    this.handle = source.handle;
    this.skipNulls = NullsConstantProvider.isSkipper(nulls);
  }

  private FieldHandleProperty(FieldHandleProperty source, PropertyName name) {
    super(source, name);
    this.annotated = source.annotated;
    this.handle = source.handle;
    this.skipNulls = source.skipNulls;
  }

  @Override
  public SettableBeanProperty withName(PropertyName name) {
    return new FieldHandleProperty(this, name);
  }

  @Override
  public SettableBeanProperty withValueDeserializer(JsonDeserializer<?> deserializer) {
    if (_valueDeserializer == deserializer) {
      return this;
    }
    // A null provider that was the deserializer itself follows it, as in Jackson's properties.
    NullValueProvider nulls = _valueDeserializer == _nullProvider ? deserializer : _nullProvider;
    return new FieldHandleProperty(this, deserializer, nulls);
  }

  @Override
  public SettableBeanProperty withNullProvider(NullValueProvider nulls) {
    return new FieldHandleProperty(this, _valueDeserializer, nulls);
  }

  @Override
  public AnnotatedMember getMember() {
    return annotated;
  }

  @Override
  public <A extends Annotation> A getAnnotation(Class<A> type) {
    return annotated.getAnnotation(type);
  }

  @Override
  public void deserializeAndSet(JsonParser parser, DeserializationContext context, Object instance) throws IOException {
    Object value;
    if (parser.hasToken(JsonToken.VALUE_NULL)) {
      if (skipNulls) {
        return;
      }
      value = _nullProvider.getNullValue(context);
    } else if (_valueTypeDeserializer == null) {
      value = _valueDeserializer.deserialize(parser, context);
      if (value == null) {
        if (skipNulls) {
          return;
        }
        value = _nullProvider.getNullValue(context);
      }
    } else {
      value = _valueDeserializer.deserializeWithType(parser, context, _valueTypeDeserializer);
    }
    handle.set(instance, value);
  }

  @Override
  public Object deserializeSetAndReturn(JsonParser parser, DeserializationContext context, Object instance)
      throws IOException {
    deserializeAndSet(parser, context, instance);
    return instance;
  }

  @Override
  public void set(Object instance, Object value) {
    handle.set(instance, value);
  }

  @Override
  public Object setAndReturn(Object instance, Object value) {
    handle.set(instance, value);
    return instance;
  }
}
