package io.tidb.operator.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.BeanDeserializer;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.fabric8.kubernetes.client.CustomResource;
import io.tidb.operator.api.validation.JsonTypes;
import io.tidb.operator.api.validation.Violation;
import java.io.IOException;

/**
 * Reads an operator custom resource that the model cannot hold (a field of the wrong JSON type
 * where the CRD keeps no schema) as a stand-in instead of failing: the object's metadata as read,
 * neither spec nor status, the reason kept in {@link UnreadableResources}. Only where turned on
 * ({@link ApiObjects#readUnreadableResourcesAsStandIns}, which the controller does as it starts):
 * one such object otherwise failed its informer's list or watch, and the informer's stop ended the
 * process. Everywhere else (the webhook, manifests read by tests and tools) reading fails as before.
 *
 * <p>The API server writes {@code apiVersion}, {@code kind} and {@code metadata} before {@code
 * spec} and {@code status}, so when the spec fails the metadata is already read. The rest of the
 * object is skipped to its end, so a list goes on with its next item. A reason names the first
 * field that could not be read, as the webhook words it ({@code spec.affinity: Invalid value:
 * "string": must be of type object}). Input that is not JSON still fails.
 */
final class ResourceStandIns extends BeanDeserializerModifier {

  /** The shared attribute that turns stand-ins on (any non-null value). */
  static final String ATTRIBUTE = "tidb-operator-resource-stand-ins";

  @Override
  public JsonDeserializer<?> modifyDeserializer(
      DeserializationConfig config, BeanDescription description, JsonDeserializer<?> deserializer) {
    if (deserializer instanceof BeanDeserializer bean
        && CustomResource.class.isAssignableFrom(description.getBeanClass())
        && description.getBeanClass().getPackageName().startsWith("io.tidb.operator.api.")) {
      return new Reader(bean);
    }
    return deserializer;
  }

  /** A custom resource's bean deserializer that gives a stand-in on a mapping error. */
  static final class Reader extends DelegatingDeserializer {

    private final BeanDeserializer bean;

    Reader(BeanDeserializer bean) {
      super(bean);
      this.bean = bean;
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
      return delegate instanceof BeanDeserializer b ? new Reader(b) : delegate;
    }

    /** The bean deserializer it wraps, for a reader that creates the object itself. */
    BeanDeserializer bean() {
      return bean;
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (ctxt.getAttribute(ATTRIBUTE) == null
          || !p.hasToken(JsonToken.START_OBJECT)
          || !bean.getValueInstantiator().canCreateUsingDefault()) {
        return bean.deserialize(p, ctxt);
      }
      return deserializeInto(p, ctxt, bean.getValueInstantiator().createUsingDefault(ctxt));
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt, Object into) throws IOException {
      return deserializeInto(p, ctxt, into);
    }

    /**
     * Reads the object into {@code value}, the parser at the object's start, at a field name in
     * it or at its end.
     */
    Object deserializeInto(JsonParser p, DeserializationContext ctxt, Object value) throws IOException {
      if (ctxt.getAttribute(ATTRIBUTE) == null || p.hasToken(JsonToken.END_OBJECT)) {
        return bean.deserialize(p, ctxt, value);
      }
      // At the object's start or at a field name in it, the parser's context is the object's.
      JsonStreamContext around = p.getParsingContext().getParent();
      try {
        return bean.deserialize(p, ctxt, value);
      } catch (JsonMappingException e) {
        return standIn(p, around, value, e);
      }
    }
  }

  private static Object standIn(JsonParser p, JsonStreamContext around, Object value, JsonMappingException e)
      throws IOException {
    if (!(value instanceof CustomResource<?, ?> resource)
        || resource.getMetadata() == null
        || resource.getMetadata().getName() == null
        || resource.getMetadata().getResourceVersion() == null) {
      throw e;
    }
    String reason = reason(p, e);
    for (JsonToken t = p.currentToken(); !(t == JsonToken.END_OBJECT && p.getParsingContext() == around); ) {
      t = p.nextToken();
      if (t == null) {
        throw e;
      }
    }
    resource.setSpec(null);
    resource.setStatus(null);
    UnreadableResources.record(resource, reason);
    return resource;
  }

  /** The first field that could not be read, worded as a violation. */
  private static String reason(JsonParser p, JsonMappingException e) throws IOException {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    String field = path.length() == 0 ? "(root)" : path.toString();
    if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      return Violation.invalid(field, JsonTypes.shown(p), "must be of type " + JsonTypes.of(mismatch.getTargetType()))
          .message();
    }
    return Violation.invalid(field, JsonTypes.shown(p), e.getOriginalMessage()).message();
  }
}
