package io.tidb.operator.api.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Build step run at {@code process-classes}, after fabric8's generator: finishes every generated
 * CRD in place with its {@link CrdCatalog} entry and checks that the chart's committed copy
 * matches it. With {@code update=true} it rewrites stale chart copies instead of failing. A
 * generated CRD without a catalog entry, or an entry the generator did not produce, fails.
 *
 * <p>Arguments: {@code <classes dir> <chart CRD directory> <update: true|false>}.
 */
public final class CrdSync {

  private CrdSync() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException(
          "usage: CrdSync <classes dir> <chart CRD directory> <update: true|false>");
    }
    Path generatedDir = Path.of(args[0]).resolve("META-INF/fabric8");
    Path chartDir = Path.of(args[1]).toAbsolutePath().normalize();
    boolean update = Boolean.parseBoolean(args[2]);

    List<String> problems = new ArrayList<>();
    try (Stream<Path> files = Files.list(generatedDir)) {
      for (Path file : files.sorted().toList()) {
        String name = file.getFileName().toString();
        if (name.endsWith("-v1.yml") && CrdCatalog.byFileName(name).isEmpty()) {
          problems.add(name + " is generated but has no entry in " + CrdCatalog.class.getName());
        }
      }
    }
    for (CrdEntry entry : CrdCatalog.entries()) {
      Path generated = generatedDir.resolve(entry.fileName());
      if (!Files.exists(generated)) {
        problems.add(entry.fileName() + " has a catalog entry but the generator did not write it");
        continue;
      }
      sync(entry, generated, chartDir.resolve(entry.fileName()), update, problems);
    }
    if (!problems.isEmpty()) {
      throw new IllegalStateException(String.join("\n", problems)
          + "\nRefresh chart copies with: mvn -pl common process-classes -Dcrd.update=true");
    }
  }

  private static void sync(
      CrdEntry entry, Path generatedFile, Path chartFile, boolean update, List<String> problems)
      throws IOException {
    CustomResourceDefinition crd = entry.finish(CrdCatalog.parse(Files.readString(generatedFile)));
    String rendered = entry.render(crd);
    Files.writeString(generatedFile, rendered, StandardCharsets.UTF_8);

    int size = CrdCatalog.compactJsonBytes(crd);
    if (size >= CrdCatalog.MAX_APPLY_BYTES) {
      problems.add(entry.kind() + " CRD is " + size + " bytes as compact JSON; kubectl apply allows"
          + " less than " + CrdCatalog.MAX_APPLY_BYTES
          + ". Preserve unknown fields for more embedded types.");
      return;
    }
    String committed = Files.exists(chartFile) ? Files.readString(chartFile) : null;
    if (rendered.equals(committed)) {
      return;
    }
    if (update) {
      Files.createDirectories(chartFile.getParent());
      Files.writeString(chartFile, rendered, StandardCharsets.UTF_8);
      System.out.println("Updated " + chartFile + " (" + size + " bytes as compact JSON)");
      return;
    }
    problems.add(chartFile + (committed == null ? " is missing" : " is stale: it differs from the"
        + " CRD generated from the model"));
  }
}
