package io.tidb.operator.webhook;

import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.api.validation.AdmissionRules;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The admission rules the webhook serves, looked up by the group/version/resource of an admission
 * request (or, failing that, its group/version/kind). Adding a kind is one more {@link
 * #register}; the server does not change.
 */
public final class AdmissionRulesRegistry {

  /** Where one set of rules is served: its group, version, plural resource and kind. */
  public record Served(String group, String version, String resource, String kind) {
    @Override
    public String toString() {
      return (group.isEmpty() ? "" : group + "/") + version + " " + resource;
    }
  }

  private final Map<String, AdmissionRules<?>> byResource = new LinkedHashMap<>();
  private final Map<String, AdmissionRules<?>> byKind = new LinkedHashMap<>();
  private final Map<AdmissionRules<?>, Served> served = new LinkedHashMap<>();

  /** Serves {@code rules} for the group, version and plural of its resource type. */
  public AdmissionRulesRegistry register(AdmissionRules<?> rules) {
    Class<? extends HasMetadata> type = rules.resourceType();
    Served where =
        new Served(
            HasMetadata.getGroup(type),
            HasMetadata.getVersion(type),
            HasMetadata.getPlural(type),
            HasMetadata.getKind(type));
    String resourceKey = key(where.group(), where.version(), where.resource());
    if (byResource.containsKey(resourceKey)) {
      throw new IllegalArgumentException("rules for " + where + " are already registered");
    }
    byResource.put(resourceKey, rules);
    byKind.put(key(where.group(), where.version(), where.kind()), rules);
    served.put(rules, where);
    return this;
  }

  /** The rules for a request's resource, else for its kind; empty when neither is served. */
  public Optional<AdmissionRules<?>> find(GroupVersionResource resource, GroupVersionKind kind) {
    if (resource != null) {
      AdmissionRules<?> rules =
          byResource.get(key(resource.getGroup(), resource.getVersion(), resource.getResource()));
      if (rules != null) {
        return Optional.of(rules);
      }
    }
    if (kind != null) {
      return Optional.ofNullable(byKind.get(key(kind.getGroup(), kind.getVersion(), kind.getKind())));
    }
    return Optional.empty();
  }

  /** Where {@code rules} are served. */
  public Served servedAs(AdmissionRules<?> rules) {
    return Objects.requireNonNull(served.get(rules), "rules not registered");
  }

  /** Everything served, in registration order. */
  public List<Served> served() {
    return List.copyOf(served.values());
  }

  private static String key(String group, String version, String name) {
    return (group == null ? "" : group) + "/" + version + "/" + name;
  }
}
