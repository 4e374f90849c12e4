package io.tidb.operator.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code metadata.managedFields}, keeping, when the read's {@link #KEPT_MANAGER} attribute
 * names a field manager, only that manager's own apply entry ({@code operation: Apply}, no
 * subresource); without the attribute every entry is read as fabric8 reads it.
 *
 * <p>A controller reads one entry of an object's managedFields, its own. The others (the
 * StatefulSet controller's on every pod, the kubelet's status, the scheduler's) are 37–46 % of a
 * Pod's or a StatefulSet's JSON, and their field sets were read into nested maps only to be thrown
 * away by the informer's store. Their {@code fieldsV1} is skipped token by token instead, as soon
 * as the entry is known to be another's: the API server writes {@code manager} and {@code
 * operation} first. An entry written in another order is read whole and judged at its end.
 */
final class ManagedFieldsReader extends StdDeserializer<List<ManagedFieldsEntry>> {

  /** The attribute naming the field manager whose apply entry is kept. */
  static final String KEPT_MANAGER = "tidb-operator.managedFields.keptManager";

  private static final String APPLY = "Apply";

  ManagedFieldsReader() {
    super(List.class);
  }

  @Override
  public List<ManagedFieldsEntry> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    Object kept = ctxt.getAttribute(KEPT_MANAGER);
    if (!(kept instanceof String manager)) {
      JavaType entries = ctxt.getTypeFactory().constructCollectionType(List.class, ManagedFieldsEntry.class);
      return ctxt.readValue(p, entries);
    }
    if (!p.hasToken(JsonToken.START_ARRAY)) {
      return ctxt.reportInputMismatch(this, "managedFields: expected an array, got %s", p.currentToken());
    }
    List<ManagedFieldsEntry> result = new ArrayList<>(1);
    for (JsonToken token = p.nextToken(); token != JsonToken.END_ARRAY; token = p.nextToken()) {
      ManagedFieldsEntry entry = readEntry(p, ctxt, manager);
      if (entry != null) {
        result.add(entry);
      }
    }
    return result;
  }

  /** One entry, its parser on the entry's start; {@code null} when it is not {@code manager}'s apply entry. */
  private static ManagedFieldsEntry readEntry(JsonParser p, DeserializationContext ctxt, String manager)
      throws IOException {
    if (!p.hasToken(JsonToken.START_OBJECT)) {
      return ctxt.reportInputMismatch(ManagedFieldsEntry.class,
          "managedFields entry: expected an object, got %s", p.currentToken());
    }
    ManagedFieldsEntry entry = new ManagedFieldsEntry();
    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      JsonToken value = p.nextToken();
      switch (name) {
        case "manager" -> entry.setManager(text(p, value));
        case "operation" -> entry.setOperation(text(p, value));
        case "apiVersion" -> entry.setApiVersion(text(p, value));
        case "time" -> entry.setTime(text(p, value));
        case "fieldsType" -> entry.setFieldsType(text(p, value));
        case "subresource" -> entry.setSubresource(text(p, value));
        case "fieldsV1" -> {
          if (another(entry, manager)) {
            p.skipChildren();
          } else {
            entry.setFieldsV1(value == JsonToken.VALUE_NULL ? null : ctxt.readValue(p, FieldsV1.class));
          }
        }
        default -> entry.setAdditionalProperty(name, ctxt.readValue(p, Object.class));
      }
    }
    return ApiObjects.ownApplyEntry(entry, manager) ? entry : null;
  }

  /** Whether what has been read of {@code entry} already shows it is not {@code manager}'s apply entry. */
  private static boolean another(ManagedFieldsEntry entry, String manager) {
    return (entry.getManager() != null && !manager.equals(entry.getManager()))
        || (entry.getOperation() != null && !APPLY.equals(entry.getOperation()))
        || (entry.getSubresource() != null && !entry.getSubresource().isEmpty());
  }

  private static String text(JsonParser p, JsonToken value) throws IOException {
    if (value.isStructStart()) {
      throw MismatchedInputException.from(
          p, String.class, "managedFields entry: \"" + p.currentName() + "\" must be a string, got " + value);
    }
    return value == JsonToken.VALUE_NULL ? null : p.getValueAsString();
  }
}
