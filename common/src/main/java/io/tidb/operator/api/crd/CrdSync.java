package io.tidb.operator.api.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Build step run at {@code process-classes}, after fabric8's generator: finishes the generated
 * CRD in place and checks that the chart's committed copy matches it. With {@code update=true}
 * it rewrites the chart copy instead of failing.
 *
 * <p>Arguments: {@code <classes dir> <chart CRD file> <update: true|false>}.
 */
public final class CrdSync {

  private CrdSync() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException(
          "usage: CrdSync <classes dir> <chart CRD file> <update: true|false>");
    }
    Path generatedFile = Path.of(args[0]).resolve(TidbClusterCrd.GENERATED_RESOURCE);
    Path chartFile = Path.of(args[1]).toAbsolutePath().normalize();
    boolean update = Boolean.parseBoolean(args[2]);

    CustomResourceDefinition crd =
        TidbClusterCrd.finish(TidbClusterCrd.parse(Files.readString(generatedFile)));
    String rendered = TidbClusterCrd.render(crd);
    Files.writeString(generatedFile, rendered, StandardCharsets.UTF_8);

    int size = TidbClusterCrd.compactJsonBytes(crd);
    if (size >= TidbClusterCrd.MAX_APPLY_BYTES) {
      throw new IllegalStateException(
          "TidbCluster CRD is " + size + " bytes as compact JSON; kubectl apply allows less than "
              + TidbClusterCrd.MAX_APPLY_BYTES + ". Preserve unknown fields for more embedded types.");
    }

    String committed = Files.exists(chartFile) ? Files.readString(chartFile) : null;
    if (rendered.equals(committed)) {
      return;
    }
    if (update) {
      Files.createDirectories(chartFile.toAbsolutePath().getParent());
      Files.writeString(chartFile, rendered, StandardCharsets.UTF_8);
      System.out.println("Updated " + chartFile + " (" + size + " bytes as compact JSON)");
      return;
    }
    throw new IllegalStateException(
        chartFile + (committed == null ? " is missing" : " is stale: it differs from the CRD generated from the model")
            + ". Refresh it with: "
            + "mvn -pl common process-classes -Dcrd.update=true");
  }
}
