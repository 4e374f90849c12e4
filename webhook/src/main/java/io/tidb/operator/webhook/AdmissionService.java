package io.tidb.operator.webhook;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.tidb.operator.api.crd.CrdCatalog;
import io.tidb.operator.api.crd.CrdEntry;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers AdmissionReviews with the registered {@link AdmissionRules}. No I/O and no side effects,
 * so a {@code dryRun} request gets exactly the answer a real one would.
 *
 * <ul>
 *   <li>every wrongly typed field of the object is reported with the rule violations in one
 *       answer ({@link TypedObjectReader}); on CREATE, mutate denies such an object too, since
 *       defaulting would hide the fields and the schema check after it reports them one by one.
 *   <li>validate: CREATE checks {@code validateCreate}, UPDATE checks {@code validateUpdate(old,
 *       new)}; violations deny with 422 and one message listing all of them; {@code warnings} are
 *       returned either way. DELETE and CONNECT are allowed.
 *   <li>mutate: CREATE returns a JSONPatch to {@code withDefaults(object)}, or no patch when
 *       nothing changes; other operations are allowed unchanged.
 *   <li>subresources (e.g. {@code status}) are allowed unchecked: the rules are about the spec.
 *   <li>a resource that is not served, a missing or unreadable object: allowed=false, 400.
 * </ul>
 */
public final class AdmissionService {

  private static final Logger log = LoggerFactory.getLogger(AdmissionService.class);

  /** The answer and how to count it in metrics. */
  public record Outcome(AdmissionReview review, Result result) {}

  /** Metrics label of an answer. */
  public enum Result {
    ALLOWED,
    PATCHED,
    DENIED,
    REJECTED,
    ERROR;

    public String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final AdmissionRulesRegistry registry;
  private final AdmissionReviewCodec codec;
  private final ObjectMapper mapper;
  private final TypedObjectReader reader;
  private final ObjectMapper nonNullMapper;
  private final Map<String, Optional<CrdSchemaCheck>> schemas = new ConcurrentHashMap<>();
  private final DenialLog denials = DenialLog.standard();

  public AdmissionService(AdmissionRulesRegistry registry, AdmissionReviewCodec codec) {
    this.registry = registry;
    this.codec = codec;
    this.mapper = codec.mapper();
    this.reader = new TypedObjectReader(mapper);
    this.nonNullMapper = codec.nonNullMapper();
  }

  /**
   * What {@link #handle} reads a review's objects as, for the codec to read them while it parses
   * the body: {@code request.object} on CREATE and UPDATE, {@code oldObject} on UPDATE to {@code
   * /validate}, as the type of the rules served for the request's resource (or kind); nothing for
   * a subresource, another operation or a resource not served.
   */
  public AdmissionReviewCodec.ObjectTypes objectTypes(AdmissionOperation operation) {
    return (request, oldObject) -> {
      if (!request.path("subResource").asText("").isEmpty()) {
        return null;
      }
      if (!reads(operation, request.path("operation").asText(""), oldObject)) {
        return null;
      }
      JsonNode resource = request.path("resource");
      JsonNode kind = request.path("kind");
      return registry.find(
              resource.isObject()
                  ? new GroupVersionResource(
                      resource.path("group").asText(null),
                      resource.path("resource").asText(null),
                      resource.path("version").asText(null))
                  : null,
              kind.isObject()
                  ? new GroupVersionKind(
                      kind.path("group").asText(null),
                      kind.path("kind").asText(null),
                      kind.path("version").asText(null))
                  : null)
          .map(AdmissionRules::resourceType)
          .orElse(null);
    };
  }

  /**
   * Whether a review to {@code endpoint} reads {@code request.object} (or {@code oldObject}) for
   * this request operation: both {@link #handle} and {@link #objectTypes} ask.
   */
  private static boolean reads(AdmissionOperation endpoint, String operation, boolean oldObject) {
    return oldObject
        ? operation.equals("UPDATE") && endpoint == AdmissionOperation.VALIDATE
        : operation.equals("CREATE") || operation.equals("UPDATE");
  }

  public Outcome handle(AdmissionOperation operation, ParsedReview parsed) {
    AdmissionRequest request = parsed.review().getRequest();
    String subResource = request.getSubResource();
    if (subResource != null && !subResource.isEmpty()) {
      return allowed(request, Result.ALLOWED, List.of());
    }
    Optional<AdmissionRules<?>> rules = registry.find(request.getResource(), request.getKind());
    if (rules.isEmpty()) {
      return rejected(
          request,
          "this webhook does not serve " + describe(request.getResource())
              + "; it serves " + registry.served());
    }
    return handle(operation, parsed, rules.get());
  }

  private <T extends HasMetadata> Outcome handle(
      AdmissionOperation operation, ParsedReview parsed, AdmissionRules<T> rules) {
    AdmissionRequest request = parsed.review().getRequest();
    String op = String.valueOf(request.getOperation());
    if (!reads(operation, op, false)) {
      if (op.equals("DELETE") || op.equals("CONNECT")) {
        return allowed(request, Result.ALLOWED, List.of());
      }
      return rejected(request, "request.operation \"" + op + "\" is not one of CREATE, UPDATE, DELETE, CONNECT");
    }
    String kind = registry.servedAs(rules).kind();
    TypedObjectReader.Result<T> read;
    T oldObject = null;
    try {
      read = read(parsed, false, rules.resourceType(), kind);
      if (reads(operation, op, true)) {
        oldObject = read(parsed, true, rules.resourceType(), kind).object();
      }
    } catch (UnreadableObjectException e) {
      return rejected(request, e.getMessage());
    }
    // The objects were read for this request alone, so the rules default them in place instead
    // of copying them; what is needed of the object as the user wrote it (its name, the warnings)
    // is taken first.
    T object = read.object();
    String name = name(object, request);
    try {
      if (operation == AdmissionOperation.VALIDATE) {
        return validate(request, rules, kind, name, object, oldObject, read.typeErrors());
      }
      if (!"CREATE".equals(request.getOperation())) {
        return allowed(request, Result.ALLOWED, List.of());
      }
      return mutateCreate(request, rules, kind, name, read, parsed);
    } catch (RuntimeException e) {
      return internalError(operation, request, kind, name, e);
    }
  }

  private <T extends HasMetadata> Outcome validate(
      AdmissionRequest request, AdmissionRules<T> rules, String kind, String name, T object, T oldObject,
      List<Violation> typeErrors) {
    List<String> warnings = rules.warnings(object);
    T defaulted = rules.defaultInPlace(object);
    List<Violation> violations = FieldViolations.plusUncovered(typeErrors,
        oldObject == null
            ? rules.validateCreateDefaulted(defaulted)
            : rules.validateUpdateDefaulted(rules.defaultInPlace(oldObject), defaulted));
    if (violations.isEmpty()) {
      return allowed(request, Result.ALLOWED, warnings);
    }
    return deny(request, rules, kind, name, warnings, violations);
  }

  /**
   * The JSONPatch to the object's defaults, or no patch when nothing changes. The API server
   * checks the schema after this webhook and stops there, before the validating webhook; and
   * defaulting would fill wrongly typed fields in and hide them. So an object with anything wrong
   * is refused here, with everything wrong in one answer. A clean object skips the schema walk:
   * the API server's own check lists all it finds.
   */
  private <T extends HasMetadata> Outcome mutateCreate(
      AdmissionRequest request, AdmissionRules<T> rules, String kind, String name,
      TypedObjectReader.Result<T> read, ParsedReview parsed) {
    T object = read.object();
    List<String> warnings = rules.warnings(object);
    DefaultingPatch filled = new DefaultingPatch(nonNullMapper);
    T defaulted = rules.defaultInPlace(object, filled);
    List<Violation> ruleViolations = rules.validateCreateDefaulted(defaulted);
    if (!read.typeErrors().isEmpty() || !ruleViolations.isEmpty()) {
      List<Violation> found = FieldViolations.plusUncovered(
          schemaErrors(tokens(parsed, false), registry.servedAs(rules)), read.typeErrors());
      return deny(request, rules, kind, name, warnings, FieldViolations.plusUncovered(found, ruleViolations));
    }
    Optional<byte[]> patch = filled.patch();
    if (patch.isEmpty()) {
      return allowed(request, Result.ALLOWED, List.of());
    }
    AdmissionResponse response = new ResponseBuilder(request.getUid()).allowed().build();
    response.setPatchType("JSONPatch");
    response.setPatch(Base64.getEncoder().encodeToString(patch.get()));
    return new Outcome(review(response), Result.PATCHED);
  }

  private <T extends HasMetadata> Outcome deny(
      AdmissionRequest request, AdmissionRules<T> rules, String kind, String name, List<String> warnings,
      List<Violation> violations) {
    Status status =
        Denials.invalid(registry.servedAs(rules).group(), kind, name, violations);
    long unlogged = denials.admit();
    if (unlogged >= 0) {
      log.info(
          "admission denied uid=\"{}\" operation={} kind={} namespace=\"{}\" name=\"{}\" dryRun={}"
              + " violations={} unloggedSinceLast={}",
          LogSafe.value(request.getUid()),
          LogSafe.value(request.getOperation()),
          kind,
          LogSafe.value(request.getNamespace()),
          LogSafe.value(name),
          Boolean.TRUE.equals(request.getDryRun()),
          violations.size(),
          unlogged);
    }
    return new Outcome(
        review(new ResponseBuilder(request.getUid())
            .denied(status)
            .warnings(warnings)
            .build()),
        Result.DENIED);
  }

  /** {@code request.object} (or {@code oldObject}) as {@code type}: as the codec read it, or from its tokens. */
  @SuppressWarnings("unchecked")
  private <T> TypedObjectReader.Result<T> read(ParsedReview parsed, boolean old, Class<T> type, String kind) {
    ReviewObject json = old ? parsed.oldObject() : parsed.object();
    String where = old ? "request.oldObject" : "request.object";
    if (json == null) {
      throw new UnreadableObjectException(where + " is missing");
    }
    if (json.type() == type) {
      return (TypedObjectReader.Result<T>) json.read();
    }
    try {
      return reader.read(tokens(parsed, old), type);
    } catch (JsonMappingException e) {
      throw new UnreadableObjectException(
          where + " is not a valid " + kind + ": " + JsonPaths.of(e) + ": " + e.getOriginalMessage());
    } catch (IOException | IllegalArgumentException e) {
      throw new UnreadableObjectException(where + " is not a valid " + kind + ": " + e.getMessage());
    }
  }

  /** The object's tokens; read again from the body when the codec read the object ahead. */
  private TokenBuffer tokens(ParsedReview parsed, boolean old) {
    ReviewObject json = old ? parsed.oldObject() : parsed.object();
    if (json.tokens() != null) {
      return json.tokens();
    }
    ParsedReview again = codec.parse(parsed.body());
    return (old ? again.oldObject() : again.object()).tokens();
  }

  private List<Violation> schemaErrors(TokenBuffer json, AdmissionRulesRegistry.Served served) {
    if (!CrdEntry.GROUP.equals(served.group())) {
      return List.of();
    }
    JsonNode object;
    try (JsonParser p = json.asParser()) {
      object = mapper.readTree(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read back request.object", e);
    }
    Optional<CrdSchemaCheck> check = schemas.computeIfAbsent(served.resource(),
        plural -> CrdCatalog.byPlural(plural)
            .map(entry -> CrdSchemaCheck.load(entry.generatedResource(), served.version())));
    return check.map(c -> c.check(object)).orElse(List.of());
  }

  private Outcome allowed(AdmissionRequest request, Result result, List<String> warnings) {
    return new Outcome(
        review(new ResponseBuilder(request.getUid()).allowed().warnings(warnings).build()),
        result);
  }

  private Outcome rejected(AdmissionRequest request, String message) {
    // The reason goes to the caller only: it can quote the body, which stays out of the log.
    long unlogged = denials.admit();
    if (unlogged >= 0) {
      log.info(
          "admission rejected uid=\"{}\" operation={} resource=\"{}\" unloggedSinceLast={}",
          LogSafe.value(request.getUid()),
          LogSafe.value(request.getOperation()),
          LogSafe.value(describe(request.getResource())),
          unlogged);
    }
    return new Outcome(
        review(new ResponseBuilder(request.getUid()).denied(Denials.badRequest(message)).build()),
        Result.REJECTED);
  }

  private Outcome internalError(
      AdmissionOperation operation, AdmissionRequest request, String kind, String name, RuntimeException e) {
    log.error(
        "admission rules failed uid=\"{}\" endpoint={} kind={} namespace=\"{}\" name=\"{}\"",
        LogSafe.value(request.getUid()),
        operation.tag(),
        kind,
        LogSafe.value(request.getNamespace()),
        LogSafe.value(name),
        e);
    if (operation == AdmissionOperation.MUTATE) {
      // Defaulting is best effort: let the object through unchanged; validation still runs.
      return allowed(request, Result.ERROR, List.of());
    }
    String message =
        "internal error while checking " + kind + " \"" + name + "\"; the webhook log has details (uid "
            + request.getUid() + ")";
    return new Outcome(
        review(new ResponseBuilder(request.getUid()).denied(Denials.internalError(message)).build()),
        Result.ERROR);
  }

  private static AdmissionReview review(AdmissionResponse response) {
    AdmissionReview review = new AdmissionReview();
    review.setApiVersion(AdmissionReviewCodec.API_VERSION);
    review.setKind(AdmissionReviewCodec.KIND);
    review.setResponse(response);
    return review;
  }

  private static String name(HasMetadata object, AdmissionRequest request) {
    ObjectMeta meta = object == null ? null : object.getMetadata();
    if (meta != null && meta.getName() != null && !meta.getName().isEmpty()) {
      return meta.getName();
    }
    if (request.getName() != null && !request.getName().isEmpty()) {
      return request.getName();
    }
    if (meta != null && meta.getGenerateName() != null) {
      return meta.getGenerateName();
    }
    return "";
  }

  private static String describe(GroupVersionResource resource) {
    if (resource == null) {
      return "(no request.resource)";
    }
    String group = resource.getGroup() == null || resource.getGroup().isEmpty() ? "" : resource.getGroup() + "/";
    return group + resource.getVersion() + " " + resource.getResource();
  }

  /** {@code request.object} or {@code oldObject} is missing or not the served type. */
  private static final class UnreadableObjectException extends RuntimeException {
    UnreadableObjectException(String message) {
      super(message);
    }
  }

  /** Small builder for responses: fabric8's builder is verbose for these few fields. */
  private static final class ResponseBuilder {
    private final AdmissionResponse response = new AdmissionResponse();

    ResponseBuilder(String uid) {
      response.setUid(uid);
    }

    ResponseBuilder allowed() {
      response.setAllowed(true);
      return this;
    }

    ResponseBuilder denied(Status status) {
      response.setAllowed(false);
      response.setStatus(status);
      return this;
    }

    ResponseBuilder warnings(List<String> warnings) {
      if (warnings != null && !warnings.isEmpty()) {
        response.setWarnings(List.copyOf(warnings));
      }
      return this;
    }

    AdmissionResponse build() {
      return response;
    }
  }
}
