package io.tidb.operator.testsupport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Applies the project's CRDs ({@code charts/tidb-operator/crds/*.yaml}) and waits until they are served. */
public final class ProjectCrds {

  public static final Duration ESTABLISH_TIMEOUT = Duration.ofSeconds(60);
  static final String FIELD_MANAGER = "tidb-operator-test-support";

  private ProjectCrds() {
  }

  /** The CRD files in {@link ProjectDirectory#crdDirectory()}, sorted; fails if there are none. */
  public static List<Path> files() {
    return files(ProjectDirectory.crdDirectory());
  }

  static List<Path> files(Path directory) {
    if (!Files.isDirectory(directory)) {
      throw new IllegalStateException("no CRD directory " + directory + " (the CRDs are generated into it)");
    }
    try (Stream<Path> entries = Files.list(directory)) {
      List<Path> files = entries
          .filter(path -> path.getFileName().toString().matches(".*\\.ya?ml"))
          .sorted()
          .toList();
      if (files.isEmpty()) {
        throw new IllegalStateException("no *.yaml CRD files in " + directory);
      }
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + directory, e);
    }
  }

  /** Server-side applies every CRD from {@link #files()} and waits until each is Established. */
  public static List<CustomResourceDefinition> apply(KubernetesClient client) {
    List<CustomResourceDefinition> applied = new ArrayList<>();
    for (Path file : files()) {
      for (CustomResourceDefinition crd : load(client, file)) {
        applied.add(client.resource(crd).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply());
      }
    }
    return applied.stream().map(crd -> awaitEstablished(client, crd.getMetadata().getName())).toList();
  }

  /** Waits until the CRD named {@code name} has condition Established=True; returns it. */
  public static CustomResourceDefinition awaitEstablished(KubernetesClient client, String name) {
    return Await.until("CRD " + name + " Established", ESTABLISH_TIMEOUT,
        () -> client.apiextensions().v1().customResourceDefinitions().withName(name).get(),
        ProjectCrds::isEstablished);
  }

  static boolean isEstablished(CustomResourceDefinition crd) {
    if (crd == null || crd.getStatus() == null || crd.getStatus().getConditions() == null) {
      return false;
    }
    return crd.getStatus().getConditions().stream()
        .anyMatch(ProjectCrds::isEstablishedCondition);
  }

  private static boolean isEstablishedCondition(CustomResourceDefinitionCondition condition) {
    return "Established".equals(condition.getType()) && "True".equals(condition.getStatus());
  }

  private static List<CustomResourceDefinition> load(KubernetesClient client, Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      List<HasMetadata> items = client.load(in).items();
      List<CustomResourceDefinition> crds = new ArrayList<>();
      for (HasMetadata item : items) {
        if (!(item instanceof CustomResourceDefinition crd)) {
          throw new IllegalStateException(file + " holds a " + item.getKind() + " named "
              + item.getMetadata().getName() + "; only apiextensions.k8s.io/v1 CustomResourceDefinitions are allowed");
        }
        crds.add(crd);
      }
      return crds;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
