package io.tidb.operator.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;

/**
 * Reads and writes {@code admission.k8s.io/v1} AdmissionReviews. Anything that is not one (not
 * JSON, another kind or version, no request, no uid) is refused with a {@link
 * BadAdmissionRequestException} that says what is wrong.
 */
public final class AdmissionReviewCodec {

  public static final String API_VERSION = "admission.k8s.io/v1";
  public static final String KIND = "AdmissionReview";

  private final ObjectMapper mapper;
  private final ObjectMapper nonNullMapper;
  private final ObjectReader bodyReader;

  /** With the default limits of a 4 MiB body. */
  public AdmissionReviewCodec() {
    this(ServerLimits.defaults(4 << 20));
  }

  /**
   * @param limits bound every body read: its length, JSON tokens and nesting (Jackson's stream
   *     read constraints), so a hostile body is refused while it is parsed
   */
  public AdmissionReviewCodec(ServerLimits limits) {
    ObjectMapper configured = new ObjectMapper();
    configured.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
        .maxDocumentLength(limits.maxBodyBytes())
        .maxTokenCount(limits.maxTokens())
        .maxNestingDepth(limits.maxNestingDepth())
        .build());
    // Configures the mapper for the fabric8 model (modules, unknown-field handling).
    new KubernetesSerialization(configured, false);
    this.mapper = configured.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    // Only the body as a whole: nested readers (e.g. of a Quantity) stop inside the document.
    this.bodyReader = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    this.nonNullMapper = mapper.copy().setSerializationInclusion(JsonInclude.Include.NON_NULL);
  }

  /** The mapper that reads the served types, configured like the fabric8 client's. */
  public ObjectMapper mapper() {
    return mapper;
  }

  /** Like {@link #mapper()} but leaves null fields out when writing. */
  public ObjectMapper nonNullMapper() {
    return nonNullMapper;
  }

  /**
   * Reads a body. An AdmissionReview is read in one pass: {@code request.object} and {@code
   * request.oldObject} are kept as token buffers, to be read as the served type once the rules
   * are known, and only the rest (a few hundred bytes) becomes a JSON tree, for the checks below.
   * Before, the whole body became a tree first, a third of a review's CPU.
   */
  public ParsedReview parse(byte[] body) {
    Split split;
    try {
      split = split(body);
    } catch (StreamConstraintsException e) {
      throw new BadAdmissionRequestException("request body is refused: " + e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      throw new BadAdmissionRequestException("request body is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadAdmissionRequestException("request body cannot be read: " + e.getMessage());
    }
    JsonNode root = split.envelope();
    if (root == null || !root.isObject()) {
      throw new BadAdmissionRequestException("request body must be a JSON object (an AdmissionReview)");
    }
    String kind = root.path("kind").asText("");
    if (!KIND.equals(kind)) {
      throw new BadAdmissionRequestException("kind must be " + KIND + ", got \"" + kind + "\"");
    }
    String apiVersion = root.path("apiVersion").asText("");
    if (!API_VERSION.equals(apiVersion)) {
      throw new BadAdmissionRequestException(
          "apiVersion must be " + API_VERSION + " (set admissionReviewVersions: [\"v1\"]), got \""
              + apiVersion + "\"");
    }
    JsonNode request = root.get("request");
    if (request == null || !request.isObject()) {
      throw new BadAdmissionRequestException("request is missing");
    }
    JsonNode uidNode = request.get("uid");
    if (uidNode != null && !uidNode.isNull() && !uidNode.isTextual()) {
      throw new BadAdmissionRequestException("request.uid must be a string, got " + uidNode.getNodeType()
          .name().toLowerCase(java.util.Locale.ROOT));
    }
    AdmissionReview review;
    try {
      review = mapper.treeToValue(root, AdmissionReview.class);
    } catch (JsonMappingException e) {
      throw new BadAdmissionRequestException(
          JsonPaths.of(e) + ": " + e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      throw new BadAdmissionRequestException(e.getOriginalMessage());
    }
    String uid = review.getRequest().getUid();
    if (uid == null || uid.isBlank()) {
      throw new BadAdmissionRequestException("request.uid is missing");
    }
    return new ParsedReview(review, split.object(), split.oldObject());
  }

  public byte[] write(AdmissionReview review) {
    try {
      return nonNullMapper.writeValueAsBytes(review);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize AdmissionReview", e);
    }
  }

  /** The body without {@code request.object}, {@code oldObject} and {@code options}, and those two objects. */
  private record Split(JsonNode envelope, TokenBuffer object, TokenBuffer oldObject) {}

  /**
   * One JSON object is split as it is parsed. Anything else (another JSON value, trailing tokens)
   * is read whole, as before, so that Jackson reports what is wrong with it in the same words.
   */
  private Split split(byte[] body) throws IOException {
    try (JsonParser p = bodyReader.createParser(body)) {
      if (p.nextToken() == JsonToken.START_OBJECT) {
        Split split = splitObject(p);
        if (p.nextToken() == null) {
          return split;
        }
      }
    }
    return splitTree(bodyReader.readTree(body));
  }

  /** The root object at {@code p}; as in a tree, the last of duplicate fields counts. */
  private Split splitObject(JsonParser p) throws IOException {
    TokenBuffer envelope = new TokenBuffer(mapper, false);
    TokenBuffer object = null;
    TokenBuffer oldObject = null;
    envelope.writeStartObject();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      envelope.writeFieldName(field);
      if (!field.equals("request") || value != JsonToken.START_OBJECT) {
        envelope.copyCurrentStructure(p);
        continue;
      }
      object = null;
      oldObject = null;
      envelope.writeStartObject();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken token = p.nextToken();
        switch (name) {
          case "object" -> object = token == JsonToken.VALUE_NULL ? null : buffer(p);
          case "oldObject" -> oldObject = token == JsonToken.VALUE_NULL ? null : buffer(p);
          // CreateOptions/UpdateOptions are not used; dropping them spares a type lookup per request.
          case "options" -> p.skipChildren();
          default -> {
            envelope.writeFieldName(name);
            envelope.copyCurrentStructure(p);
          }
        }
      }
      envelope.writeEndObject();
    }
    envelope.writeEndObject();
    return new Split(mapper.readTree(envelope.asParser()), object, oldObject);
  }

  /** A body read whole into a tree (not an AdmissionReview in one JSON object: refused below). */
  private static Split splitTree(JsonNode root) throws IOException {
    JsonNode request = root == null ? null : root.get("request");
    if (request == null || !request.isObject()) {
      return new Split(root, null, null);
    }
    JsonNode object = ((ObjectNode) request).remove("object");
    JsonNode oldObject = ((ObjectNode) request).remove("oldObject");
    ((ObjectNode) request).remove("options");
    return new Split(root, buffer(object), buffer(oldObject));
  }

  /** The value at {@code p} (its first token current), as tokens that can be read again and again. */
  private static TokenBuffer buffer(JsonParser p) throws IOException {
    TokenBuffer buffer = new TokenBuffer((ObjectCodec) null, false);
    buffer.copyCurrentStructure(p);
    return buffer;
  }

  private static TokenBuffer buffer(JsonNode node) throws IOException {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    try (JsonParser p = node.traverse()) {
      p.nextToken();
      return buffer(p);
    }
  }
}
