package io.tidb.operator.api.validation;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;

/**
 * JSON types as the API server names them in its schema errors ("must be of type integer"), for
 * the webhook's type errors and the controller's report of an object it cannot read.
 */
public final class JsonTypes {

  private JsonTypes() {}

  /** The JSON type a Java type is read from. */
  public static String of(Class<?> type) {
    if (type == Integer.class || type == int.class || type == Long.class || type == long.class
        || type == Short.class || type == short.class || type == BigInteger.class) {
      return "integer";
    }
    if (type == Double.class || type == double.class || type == Float.class || type == float.class
        || type == BigDecimal.class) {
      return "number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "boolean";
    }
    if (type == String.class || type.isEnum()) {
      return "string";
    }
    if (type.isArray() || Collection.class.isAssignableFrom(type)) {
      return "array";
    }
    if (type.getSimpleName().equals("IntOrString")) {
      return "integer or string";
    }
    if (type.getSimpleName().equals("Quantity")) {
      return "string or number";
    }
    return "object";
  }

  /** The JSON type of a value that starts with {@code token}. */
  public static String found(JsonToken token) {
    if (token == null) {
      return "null";
    }
    switch (token) {
      case START_OBJECT:
        return "object";
      case START_ARRAY:
        return "array";
      case VALUE_STRING:
        return "string";
      case VALUE_NUMBER_INT:
        return "integer";
      case VALUE_NUMBER_FLOAT:
        return "number";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "boolean";
      default:
        return token.asString() == null ? token.name() : token.asString();
    }
  }

  /**
   * The value at the parser's current token as a violation shows it: a scalar as itself, an object
   * or array by its type.
   */
  public static Object shown(JsonParser p) throws IOException {
    JsonToken token = p.currentToken();
    if (token == null || !token.isScalarValue() || token == JsonToken.VALUE_NULL) {
      return found(token);
    }
    switch (token) {
      case VALUE_STRING:
        return p.getText();
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return p.getNumberValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      default:
        return p.getText();
    }
  }
}
