package io.tidb.operator.api.validation;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;

/**
 * Whether the objects the operator names after a resource can exist: Kubernetes accepts a
 * TidbCluster named with 60 characters, but the StatefulSet {@code <name>-tikv} it leads to cannot
 * run a single pod (each pod's {@code controller-revision-hash} label holds the StatefulSet's name
 * and a hash of up to 10 characters, and a label value has at most 63), and a Job {@code
 * backup-<name>} longer than 63 characters is refused outright (its pods' {@code job-name} label).
 * Upstream takes such names and its cluster never comes up; the webhook refuses them on create,
 * naming the limit and the object that would break it.
 */
public final class DerivedNameLengths {

  /** The longest label value (and DNS label) Kubernetes accepts. */
  public static final int LABEL_VALUE_MAX = 63;

  /** The longest revision hash the StatefulSet controller appends to a pod's revision label. */
  static final int REVISION_HASH_MAX = 10;

  /** How many random characters the API server appends to a {@code generateName}. */
  static final int GENERATED_SUFFIX = 5;

  /** The longest {@code generateName} the API server keeps whole. */
  static final int GENERATE_NAME_KEPT = LABEL_VALUE_MAX - GENERATED_SUFFIX;

  private DerivedNameLengths() {}

  /** An object named {@code prefix + name + suffix}, at most {@code max} characters, and why. */
  public record Derived(String kind, String prefix, String suffix, int max, String why) {

    /** A StatefulSet: its pods' revision label holds its name, a dash and the hash. */
    public static Derived statefulSet(String prefix, String suffix) {
      return new Derived("StatefulSet", prefix, suffix, LABEL_VALUE_MAX - 1 - REVISION_HASH_MAX,
          "its pods' controller-revision-hash label holds its name and a hash of up to "
              + REVISION_HASH_MAX + " characters, at most " + LABEL_VALUE_MAX + " in all");
    }

    /** A Job: its pods' {@code job-name} label holds its name. */
    public static Derived job(String prefix, String suffix) {
      return new Derived("Job", prefix, suffix, LABEL_VALUE_MAX,
          "its pods' job-name label holds its name, at most " + LABEL_VALUE_MAX + " characters");
    }

    /** A Service: its name is a DNS label. */
    public static Derived service(String prefix, String suffix) {
      return new Derived("Service", prefix, suffix, LABEL_VALUE_MAX,
          "a Service's name is a DNS label of at most " + LABEL_VALUE_MAX + " characters");
    }

    int longestName() {
      return max - prefix.length() - suffix.length();
    }
  }

  /**
   * Adds a violation of {@code metadata.name} (or {@code metadata.generateName} when the API server
   * is to make the name) when one of the {@code derived} objects would be too long: one violation,
   * naming the object with the tightest limit.
   */
  public static void check(ObjectMeta meta, List<Derived> derived, List<Violation> out) {
    if (meta == null) {
      return;
    }
    String name = meta.getName();
    if (name != null && !name.isEmpty()) {
      check("metadata.name", name, name.length(), derived, out);
    } else if (meta.getGenerateName() != null && !meta.getGenerateName().isEmpty()) {
      String prefix = meta.getGenerateName();
      int length = Math.min(prefix.length(), GENERATE_NAME_KEPT) + GENERATED_SUFFIX;
      check("metadata.generateName", prefix, length, derived, out);
    }
  }

  /**
   * Adds a violation of {@code field} when {@code value} (a name the derived objects are named
   * from, {@code length} characters once made) is too long for one of them.
   */
  public static void check(String field, String value, int length, List<Derived> derived, List<Violation> out) {
    Derived tightest = null;
    for (Derived d : derived) {
      if (tightest == null || d.longestName() < tightest.longestName()) {
        tightest = d;
      }
    }
    if (tightest == null || length <= tightest.longestName()) {
      return;
    }
    boolean generated = field.endsWith("generateName");
    String made = tightest.prefix() + value + (generated ? "<5 random characters>" : "") + tightest.suffix();
    int madeLength = tightest.prefix().length() + length + tightest.suffix().length();
    int allowed = tightest.longestName() - (generated ? GENERATED_SUFFIX : 0);
    out.add(Violation.invalid(field, value, "must be no more than " + Math.max(0, allowed)
        + " characters: the " + tightest.kind() + " " + made + " would have " + madeLength
        + " characters, and " + tightest.why()));
  }
}
