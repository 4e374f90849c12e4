package io.tidb.operator.controller.desired;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.defaulting.cluster.TidbClusterDefaulter;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * TidbCluster fixtures from {@code src/test/resources/desired/clusters}, as the builders receive
 * them: stored by the API server (namespace, uid, resourceVersion) and defaulted by
 * {@link TidbClusterDefaulter}.
 */
final class TestClusters {
  private TestClusters() {}

  /** Loads and defaults {@code <name>.yaml}, giving it namespace {@code default} if it has none, a uid and a resourceVersion. */
  static TidbCluster load(String name) {
    String resource = "/desired/clusters/" + name + ".yaml";
    try (InputStream in = TestClusters.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + resource);
      }
      TidbCluster tc = ApiObjects.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), TidbCluster.class);
      if (tc.getMetadata().getNamespace() == null) {
        tc.getMetadata().setNamespace("default");
      }
      tc.getMetadata().setUid("00000000-0000-0000-0000-" + String.format("%012d", Math.abs(name.hashCode())));
      tc.getMetadata().setResourceVersion("1");
      return TidbClusterDefaulter.withDefaults(tc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
