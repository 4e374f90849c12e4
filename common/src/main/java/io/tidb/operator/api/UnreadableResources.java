package io.tidb.operator.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's custom resources that the API server holds but the model cannot read, each as
 * read: a stand-in with the object's metadata and neither spec nor status ({@link
 * ResourceStandIns}), and the reason, kept here by kind, namespace, name and resource version.
 *
 * <p>Such an object gets past the CRD's schema where the schema keeps a field without one (an
 * affinity, an additional container, a component's config) and the webhook did not judge it:
 * switched off, failing open, or not yet installed when the object was stored. Without stand-ins
 * the informer that meets it stops, and with it the whole operator; with them, the one object is
 * left alone ({@code ValidatingReconciler} reports it in an Event and writes nothing) and every
 * other is reconciled. A later version that can be read replaces the stand-in, as any update does.
 */
public final class UnreadableResources {

  /** How many reasons are kept; the oldest go first. An informer holds one version per object. */
  private static final int KEPT = 512;

  private static final Map<String, String> REASONS = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > KEPT;
    }
  };

  /** Whether any reason was ever kept: until then a lookup builds no key. */
  private static volatile boolean any;

  private UnreadableResources() {}

  /** Why {@code resource} (a stand-in) could not be read; empty for an object read whole. */
  public static Optional<String> reason(HasMetadata resource) {
    if (!any) {
      return Optional.empty();
    }
    String key = key(resource);
    if (key == null) {
      return Optional.empty();
    }
    synchronized (REASONS) {
      return Optional.ofNullable(REASONS.get(key));
    }
  }

  /**
   * {@code resource} when it was read whole; else an {@link IllegalStateException} saying which
   * object could not be read and why, for a controller that reads another's resource (a backup's
   * cluster) and cannot go on without its spec.
   */
  public static <T extends HasMetadata> T requireReadable(T resource) {
    Optional<String> reason = reason(resource);
    if (reason.isPresent()) {
      throw new IllegalStateException(resource.getKind() + " " + resource.getMetadata().getNamespace()
          + "/" + resource.getMetadata().getName() + " cannot be read: " + reason.get());
    }
    return resource;
  }

  static void record(HasMetadata standIn, String reason) {
    String key = key(standIn);
    if (key != null) {
      synchronized (REASONS) {
        REASONS.put(key, reason);
      }
      any = true;
    }
  }

  private static String key(HasMetadata resource) {
    ObjectMeta meta = resource.getMetadata();
    if (meta == null || meta.getName() == null || meta.getResourceVersion() == null) {
      return null;
    }
    return resource.getKind() + "/" + meta.getNamespace() + "/" + meta.getName() + "@" + meta.getResourceVersion();
  }
}
