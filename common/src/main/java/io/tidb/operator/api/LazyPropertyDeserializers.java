package io.tidb.operator.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.AnnotationIntrospector;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.jsontype.TypeDeserializer;
import com.fasterxml.jackson.databind.util.AccessPattern;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Builds a bean property's deserializer when a value first arrives for it, not when the bean's own
 * deserializer is built.
 *
 * <p>Jackson builds a bean's deserializer together with the deserializer of every property's
 * type, transitively: the first Pod read builds the readers of all thirty-odd volume sources, of
 * ephemeral containers, of every probe handler, whether or not any object the process will ever
 * see carries them (a PersistentVolume's reader alone drags in some twenty storage back ends).
 * Each build introspects the class through reflection (its methods, fields, constructors and
 * their annotations) and keeps that metadata. At the controller's start the informers' first
 * lists paid for hundreds of them, on the way to its first write.
 *
 * <p>This modifier gives each property whose type is one of the model's classes (or a container
 * of them) a stand-in that, on the property's first value, finds the real deserializer the way
 * Jackson's bean deserializer would have (the type's deserializer, then contextualised for the
 * property) and keeps it. Results are the same: it only changes when the work happens, and skips
 * it for types that never occur. Properties whose reading Jackson arranges around their
 * deserializer are left as they are: polymorphic ones (a type deserializer), converters, {@code
 * JsonUnwrapped}, managed references and object identities, and any property that already has a
 * deserializer (an annotation's {@code using}).
 */
final class LazyPropertyDeserializers extends BeanDeserializerModifier {

  @Override
  public BeanDeserializerBuilder updateBuilder(
      DeserializationConfig config, BeanDescription description, BeanDeserializerBuilder builder) {
    AnnotationIntrospector introspector = config.getAnnotationIntrospector();
    List<SettableBeanProperty> deferred = new ArrayList<>();
    for (Iterator<SettableBeanProperty> it = builder.getProperties(); it.hasNext(); ) {
      SettableBeanProperty property = it.next();
      if (deferrable(property, introspector)) {
        deferred.add(property.withValueDeserializer(new Deferred(property.getType(), null)));
      }
    }
    for (SettableBeanProperty property : deferred) {
      builder.addOrReplaceProperty(property, true);
    }
    return builder;
  }

  private static boolean deferrable(SettableBeanProperty property, AnnotationIntrospector introspector) {
    if (property.hasValueDeserializer()
        || property.getValueTypeDeserializer() != null
        || property.getManagedReferenceName() != null
        || property.getObjectIdInfo() != null
        || !modelType(property.getType())) {
      return false;
    }
    AnnotatedMember member = property.getMember();
    return member == null
        || (introspector.findDeserializationConverter(member) == null
            && introspector.findUnwrappingNameTransformer(member) == null);
  }

  /** A class outside the JDK, or a container (list, map, array) whose content is one. */
  private static boolean modelType(JavaType type) {
    if (type.isContainerType()) {
      return type.getContentType() != null && modelType(type.getContentType());
    }
    Class<?> raw = type.getRawClass();
    return !raw.isPrimitive() && !type.isEnumType() && !raw.getName().startsWith("java.");
  }

  /**
   * The stand-in: bound to its property by Jackson's contextualisation, it finds and keeps the
   * real deserializer on first use and hands every call to it.
   */
  private static final class Deferred extends JsonDeserializer<Object> implements ContextualDeserializer {

    private final JavaType type;

    private final BeanProperty property;

    private volatile JsonDeserializer<Object> resolved;

    Deferred(JavaType type, BeanProperty property) {
      this.type = type;
      this.property = property;
    }

    @Override
    public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
      return property == this.property ? this : new Deferred(type, property);
    }

    @SuppressWarnings("unchecked")
    private JsonDeserializer<Object> delegate(DeserializationContext ctxt) throws JsonMappingException {
      JsonDeserializer<Object> deserializer = resolved;
      if (deserializer == null) {
        deserializer = (JsonDeserializer<Object>) ctxt.handlePrimaryContextualization(
            ctxt.findNonContextualValueDeserializer(type), property, type);
        resolved = deserializer;
      }
      return deserializer;
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      return delegate(ctxt).deserialize(p, ctxt);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt, Object intoValue)
        throws IOException {
      return delegate(ctxt).deserialize(p, ctxt, intoValue);
    }

    @Override
    public Object deserializeWithType(
        JsonParser p, DeserializationContext ctxt, TypeDeserializer typeDeserializer) throws IOException {
      return delegate(ctxt).deserializeWithType(p, ctxt, typeDeserializer);
    }

    @Override
    public Object getNullValue(DeserializationContext ctxt) throws JsonMappingException {
      return delegate(ctxt).getNullValue(ctxt);
    }

    @Override
    public Object getAbsentValue(DeserializationContext ctxt) throws JsonMappingException {
      return delegate(ctxt).getAbsentValue(ctxt);
    }

    @Override
    public Object getEmptyValue(DeserializationContext ctxt) throws JsonMappingException {
      return delegate(ctxt).getEmptyValue(ctxt);
    }

    /** Unknown until resolved: asked again for every null. */
    @Override
    public AccessPattern getNullAccessPattern() {
      return AccessPattern.DYNAMIC;
    }

    @Override
    public AccessPattern getEmptyAccessPattern() {
      return AccessPattern.DYNAMIC;
    }

    @Override
    public Class<?> handledType() {
      return type.getRawClass();
    }
  }
}
