package io.tidb.operator.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

  public ParsedReview parse(byte[] body) {
    JsonNode root;
    try {
      root = bodyReader.readTree(body);
    } catch (StreamConstraintsException e) {
      throw new BadAdmissionRequestException("request body is refused: " + e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      throw new BadAdmissionRequestException("request body is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadAdmissionRequestException("request body cannot be read: " + e.getMessage());
    }
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
    JsonNode object = absentIfNull(((ObjectNode) request).remove("object"));
    JsonNode oldObject = absentIfNull(((ObjectNode) request).remove("oldObject"));
    // CreateOptions/UpdateOptions are not used; dropping them spares a type lookup per request.
    ((ObjectNode) request).remove("options");
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
    return new ParsedReview(review, object, oldObject);
  }

  public byte[] write(AdmissionReview review) {
    try {
      return nonNullMapper.writeValueAsBytes(review);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize AdmissionReview", e);
    }
  }

  private static JsonNode absentIfNull(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode() ? null : node;
  }
}
