package io.tidb.operator.testsupport;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.Map;

/** Unique namespaces, so tests sharing one API server never see each other's objects. */
public final class TestNamespaces {

  /** Label on every namespace made here, to find leftovers: {@code kubectl get ns -l tidb-operator-test}. */
  public static final String LABEL = "tidb-operator-test";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final int MAX_PREFIX = 50;

  private TestNamespaces() {
  }

  /** Creates {@code <prefix>-<6 random chars>} and returns its name. */
  public static String createUnique(KubernetesClient client, String prefix) {
    return createUnique(client, prefix, Map.of());
  }

  /** Like {@link #createUnique(KubernetesClient, String)}, with extra labels on the namespace. */
  public static String createUnique(KubernetesClient client, String prefix, Map<String, String> labels) {
    String name = uniqueName(prefix, RANDOM.nextInt(Integer.MAX_VALUE));
    client.namespaces().resource(new NamespaceBuilder()
        .withNewMetadata().withName(name).addToLabels(LABEL, "true").addToLabels(labels).endMetadata()
        .build()).create();
    return name;
  }

  /** A DNS-1123 label: the prefix lower-cased, cut, cleaned, plus a base-36 suffix from {@code random}. */
  static String uniqueName(String prefix, int random) {
    String cleaned = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
    if (cleaned.isEmpty()) {
      cleaned = "test";
    }
    if (cleaned.length() > MAX_PREFIX) {
      cleaned = cleaned.substring(0, MAX_PREFIX).replaceAll("-+$", "");
    }
    String suffix = Integer.toString(random, 36);
    return cleaned + "-" + "0".repeat(Math.max(0, 6 - suffix.length())) + suffix;
  }
}
