package io.tidb.operator.controller.monitor;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.validation.monitor.TidbMonitorAdmissionRules;
import io.tidb.operator.testsupport.ProjectDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The upstream TidbMonitor manifests (common's test resources), defaulted, in namespace {@code ns}. */
final class MonitorManifests {

  static final Path DIR = ProjectDirectory.root().resolve("common/src/test/resources/compat/tidbmonitor");

  private MonitorManifests() {}

  record Manifest(String file, TidbMonitor monitor) {
    @Override
    public String toString() {
      return file;
    }
  }

  static List<Manifest> all() {
    try (Stream<Path> files = Files.list(DIR)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted()
          .map(f -> new Manifest(f.getFileName().toString(), load(f))).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static TidbMonitor named(String file) {
    return load(DIR.resolve(file));
  }

  static TidbMonitor load(Path file) {
    try {
      TidbMonitor tm = ApiObjects.parse(Files.readString(file), TidbMonitor.class);
      if (tm.getMetadata().getNamespace() == null) {
        tm.getMetadata().setNamespace("ns");
      }
      tm.getMetadata().setUid("uid-" + tm.getMetadata().getName());
      return new TidbMonitorAdmissionRules().withDefaults(tm);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Each referenced cluster as found, not TLS. */
  static List<MonitoredCluster> clusters(TidbMonitor tm) {
    return tm.getSpec().getClusters() == null ? List.of()
        : tm.getSpec().getClusters().stream()
            .map(r -> new MonitoredCluster(r.getNamespace(), r.getName(), false)).toList();
  }

  static List<MonitoredCluster> dmClusters(TidbMonitor tm) {
    return tm.getSpec().getDm() == null ? List.of()
        : tm.getSpec().getDm().getClusters().stream()
            .map(r -> new MonitoredCluster(r.getNamespace(), r.getName(), false)).toList();
  }
}
