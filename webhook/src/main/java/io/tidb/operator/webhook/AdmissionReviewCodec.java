package io.tidb.operator.webhook;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
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
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.tidb.operator.api.ApiObjects;
import java.io.IOException;
import java.util.Set;

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
  private final TypedObjectReader objectReader;

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
    // Configures the mapper for the fabric8 model (modules, unknown-field handling) and the
    // model's properties read and written through their fields, as the controller's.
    ApiObjects.newSerialization(configured);
    configured.addMixIn(ObjectMeta.class, WithoutManagedFields.class);
    this.mapper = configured.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    // Only the body as a whole: nested readers (e.g. of a Quantity) stop inside the document.
    this.bodyReader = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    this.objectReader = new TypedObjectReader(mapper);
    this.nonNullMapper = mapper.copy().setSerializationInclusion(JsonInclude.Include.NON_NULL);
  }

  /**
   * A served object's {@code metadata.managedFields} is skipped, not read: it is the API server's
   * record of who set which field, no rule looks at it, and its {@code fieldsV1} (a map per field
   * of the spec) was read into untyped maps, 4 % of reading a 13.5 KB TidbCluster.
   */
  @JsonIgnoreProperties("managedFields")
  private abstract static class WithoutManagedFields {}

  /**
   * The mapper that reads the served types, configured like the fabric8 client's, except that it
   * skips {@code metadata.managedFields}.
   */
  public ObjectMapper mapper() {
    return mapper;
  }

  /** Like {@link #mapper()} but leaves null fields out when writing. */
  public ObjectMapper nonNullMapper() {
    return nonNullMapper;
  }

  /**
   * Chooses the type {@code request.object} or {@code request.oldObject} is read as while the body
   * is parsed, from the request's fields that come before it: the API server writes {@code kind},
   * {@code resource}, {@code subResource} and {@code operation} first. Null keeps the object's
   * tokens, to be read later.
   */
  @FunctionalInterface
  public interface ObjectTypes {
    /** Keeps every object's tokens. */
    ObjectTypes NONE = (request, old) -> null;

    /**
     * @param request the request's {@link AdmissionReviewCodec#HEAD_FIELDS} read so far (all of
     *     the request's fields, when the choice is checked once the body is read)
     * @param oldObject whether the object is {@code request.oldObject}
     */
    Class<?> of(JsonNode request, boolean oldObject);
  }

  /** The request fields an {@link ObjectTypes} is given while the body is parsed. */
  public static final Set<String> HEAD_FIELDS = Set.of("kind", "resource", "subResource", "operation");

  /** Reads a body, keeping the objects' tokens. */
  public ParsedReview parse(byte[] body) {
    return parse(body, ObjectTypes.NONE);
  }

  /**
   * Reads a body. An AdmissionReview is read in one pass: {@code request.object} and {@code
   * request.oldObject} are read as the type {@code types} chooses (or, when it chooses none, kept
   * as token buffers), and only the rest (a few hundred bytes) becomes a JSON tree, for the checks
   * below. Before, the whole body became a tree first, a third of a review's CPU; then the objects
   * were copied to token buffers first, a sixth.
   *
   * <p>An object read ahead is checked against the choice the whole request makes (a field may
   * come twice, or after the object); when they differ, or the object could not be read, the body
   * is read again keeping the tokens, so that what is reported is what it always was.
   */
  public ParsedReview parse(byte[] body, ObjectTypes types) {
    Split split;
    try {
      try {
        split = split(body, types);
      } catch (ReadAheadFailed e) {
        split = split(body, ObjectTypes.NONE);
      }
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
    return new ParsedReview(review, split.object(), split.oldObject(), body);
  }

  public byte[] write(AdmissionReview review) {
    try {
      return nonNullMapper.writeValueAsBytes(review);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize AdmissionReview", e);
    }
  }

  /** The body without {@code request.object}, {@code oldObject} and {@code options}, and those two objects. */
  private record Split(JsonNode envelope, ReviewObject object, ReviewObject oldObject) {}

  /** An object could not be read ahead, or the whole request chooses another type for it. */
  private static final class ReadAheadFailed extends RuntimeException {
    ReadAheadFailed(Throwable cause) {
      super(null, cause, false, false);
    }
  }

  /**
   * One JSON object is split as it is parsed. Anything else (another JSON value, trailing tokens)
   * is read whole, as before, so that Jackson reports what is wrong with it in the same words.
   */
  private Split split(byte[] body, ObjectTypes types) throws IOException {
    try (JsonParser p = bodyReader.createParser(body)) {
      if (p.nextToken() == JsonToken.START_OBJECT) {
        Split split = splitObject(p, types);
        if (p.nextToken() == null) {
          checkReadAhead(split, types);
          return split;
        }
      }
    }
    return splitTree(bodyReader.readTree(body));
  }

  /** Whether the whole request chooses the types its objects were read ahead as. */
  private static void checkReadAhead(Split split, ObjectTypes types) {
    JsonNode request = split.envelope().path("request");
    if (split.object() != null && split.object().type() != null
            && split.object().type() != types.of(request, false)
        || split.oldObject() != null && split.oldObject().type() != null
            && split.oldObject().type() != types.of(request, true)) {
      throw new ReadAheadFailed(null);
    }
  }

  /** The root object at {@code p}; as in a tree, the last of duplicate fields counts. */
  private Split splitObject(JsonParser p, ObjectTypes types) throws IOException {
    TokenBuffer envelope = new TokenBuffer(mapper, false);
    ReviewObject object = null;
    ReviewObject oldObject = null;
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
      ObjectNode head = mapper.createObjectNode();
      envelope.writeStartObject();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken token = p.nextToken();
        switch (name) {
          case "object" -> object = token == JsonToken.VALUE_NULL ? null : take(p, types.of(head, false));
          case "oldObject" -> oldObject = token == JsonToken.VALUE_NULL ? null : take(p, types.of(head, true));
          // CreateOptions/UpdateOptions are not used; dropping them spares a type lookup per request.
          case "options" -> p.skipChildren();
          default -> {
            envelope.writeFieldName(name);
            if (HEAD_FIELDS.contains(name)) {
              JsonNode headField = mapper.readTree(p);
              head.set(name, headField);
              envelope.writeTree(headField);
            } else {
              envelope.copyCurrentStructure(p);
            }
          }
        }
      }
      envelope.writeEndObject();
    }
    envelope.writeEndObject();
    return new Split(mapper.readTree(envelope.asParser()), object, oldObject);
  }

  /** The object at {@code p} read as {@code type}, or its tokens when there is no type. */
  private ReviewObject take(JsonParser p, Class<?> type) throws IOException {
    if (type == null) {
      return ReviewObject.tokens(buffer(p));
    }
    try {
      return ReviewObject.read(type, objectReader.read(p, type));
    } catch (IOException | RuntimeException e) {
      // A body past the stream limits is refused as it is (Jackson wraps it with the field's
      // path): reading it again would double what an expanding body costs.
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof StreamConstraintsException limit) {
          throw limit;
        }
      }
      throw new ReadAheadFailed(e);
    }
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
    return new Split(root, ReviewObject.tokens(buffer(object)), ReviewObject.tokens(buffer(oldObject)));
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
