package io.tidb.operator.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;

/**
 * Reads a {@link Quantity} written as a string ({@code "500m"}, {@code "10Gi"}, the form the API
 * server writes) straight from the parser's text. fabric8's own reader builds a JSON tree of every
 * value first, with a deserialization context of its own, and then takes the same text from it:
 * a pod's or a cluster's resources hold dozens of quantities. Any other form (a number, fabric8's
 * {@code {"amount": ..., "format": ...}} object) goes to fabric8's reader, so every value reads as
 * it always did.
 */
final class QuantityReader extends StdDeserializer<Quantity> {

  private static final Quantity.Deserializer FABRIC8 = new Quantity.Deserializer();

  QuantityReader() {
    super(Quantity.class);
  }

  @Override
  public Quantity deserialize(JsonParser parser, DeserializationContext context) throws IOException {
    if (parser.currentToken() == JsonToken.VALUE_STRING) {
      return new Quantity(parser.getText());
    }
    return FABRIC8.deserialize(parser, context);
  }
}
