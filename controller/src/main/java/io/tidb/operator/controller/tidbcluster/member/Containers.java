package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Combines the operator's main container with {@code additionalContainers}: a container with the
 * main container's name is merged into it (as a strategic merge patch would), any other is added as
 * a sidecar after it.
 *
 * <p>Merging: each field the patch sets replaces the main container's ({@code image},
 * {@code command}, {@code args}, {@code resources}, probes, {@code lifecycle},
 * {@code securityContext}, ...); {@code env} is merged by name, {@code ports} by containerPort,
 * {@code volumeMounts} by mountPath (patch entries win); {@code envFrom} is appended.
 */
public final class Containers {
  private Containers() {}

  public static List<Container> mergeSidecars(Container main, List<Container> additional) {
    List<Container> out = new ArrayList<>();
    Container merged = main;
    List<Container> sidecars = new ArrayList<>();
    if (additional != null) {
      for (Container c : additional) {
        if (Objects.equals(c.getName(), main.getName())) {
          merged = merge(merged, c);
        } else {
          sidecars.add(c);
        }
      }
    }
    out.add(merged);
    out.addAll(sidecars);
    return out;
  }

  /** {@code patch} merged into {@code base}, as described above. */
  public static Container merge(Container base, Container patch) {
    ContainerBuilder b = new ContainerBuilder(base);
    if (patch.getImage() != null) {
      b.withImage(patch.getImage());
    }
    if (patch.getImagePullPolicy() != null) {
      b.withImagePullPolicy(patch.getImagePullPolicy());
    }
    if (patch.getCommand() != null && !patch.getCommand().isEmpty()) {
      b.withCommand(patch.getCommand());
    }
    if (patch.getArgs() != null && !patch.getArgs().isEmpty()) {
      b.withArgs(patch.getArgs());
    }
    if (patch.getWorkingDir() != null) {
      b.withWorkingDir(patch.getWorkingDir());
    }
    if (patch.getResources() != null) {
      b.withResources(patch.getResources());
    }
    if (patch.getLivenessProbe() != null) {
      b.withLivenessProbe(patch.getLivenessProbe());
    }
    if (patch.getReadinessProbe() != null) {
      b.withReadinessProbe(patch.getReadinessProbe());
    }
    if (patch.getStartupProbe() != null) {
      b.withStartupProbe(patch.getStartupProbe());
    }
    if (patch.getLifecycle() != null) {
      b.withLifecycle(patch.getLifecycle());
    }
    if (patch.getSecurityContext() != null) {
      b.withSecurityContext(patch.getSecurityContext());
    }
    if (patch.getTerminationMessagePath() != null) {
      b.withTerminationMessagePath(patch.getTerminationMessagePath());
    }
    if (patch.getTerminationMessagePolicy() != null) {
      b.withTerminationMessagePolicy(patch.getTerminationMessagePolicy());
    }
    if (patch.getStdin() != null) {
      b.withStdin(patch.getStdin());
    }
    if (patch.getTty() != null) {
      b.withTty(patch.getTty());
    }
    b.withEnv(mergeBy(base.getEnv(), patch.getEnv(), EnvVar::getName));
    b.withPorts(mergeBy(base.getPorts(), patch.getPorts(), ContainerPort::getContainerPort));
    b.withVolumeMounts(mergeBy(base.getVolumeMounts(), patch.getVolumeMounts(), VolumeMount::getMountPath));
    if (patch.getEnvFrom() != null && !patch.getEnvFrom().isEmpty()) {
      b.addAllToEnvFrom(patch.getEnvFrom());
    }
    return b.build();
  }

  private static <T, K> List<T> mergeBy(List<T> base, List<T> patch, Function<T, K> key) {
    List<T> out = new ArrayList<>(base == null ? List.of() : base);
    if (patch == null) {
      return out;
    }
    for (T p : patch) {
      K k = key.apply(p);
      int i = indexOf(out, k, key);
      if (i >= 0) {
        out.set(i, p);
      } else {
        out.add(p);
      }
    }
    return out;
  }

  private static <T, K> int indexOf(List<T> list, K k, Function<T, K> key) {
    for (int i = 0; i < list.size(); i++) {
      if (Objects.equals(key.apply(list.get(i)), k)) {
        return i;
      }
    }
    return -1;
  }
}
