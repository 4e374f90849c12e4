package io.tidb.operator.webhook;

import com.fasterxml.jackson.databind.JsonMappingException;

/** Field paths in Kubernetes notation ({@code spec.pd.storageVolumes[0].name}). */
final class JsonPaths {

  private JsonPaths() {}

  /** The path of the field a Jackson mapping error is about. */
  static String of(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        if (path.length() > 0) {
          path.append('.');
        }
        path.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.length() == 0 ? "(root)" : path.toString();
  }
}
