package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.tidb.operator.api.v1alpha1.cluster.HelperSpec;
import io.tidb.operator.api.v1alpha1.cluster.LogTailerSpec;
import io.tidb.operator.api.v1alpha1.cluster.SlowLogTailerSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;

/**
 * Containers that tail a component's log file to their stdout (TiDB's slow log, TiKV's RocksDB and
 * Raft logs), so {@code kubectl logs -c <name>} shows them. They run the helper image.
 */
public final class LogTailers {
  /** Upstream's helper image when {@code spec.helper.image} is not set. */
  static final String DEFAULT_HELPER_IMAGE = "busybox:1.26.2";

  private LogTailers() {}

  /** A tailer of {@code file} on {@code mount}; {@link #asNativeSidecar} when the spec asks for it. */
  public static Container tailer(TidbCluster tc, String name, LogTailerSpec spec, VolumeMount mount, String file) {
    ContainerBuilder b = new ContainerBuilder()
        .withName(name)
        .withImage(helperImage(tc))
        .withImagePullPolicy(helperPullPolicy(tc))
        .withResources(MemberPods.resources(spec == null ? new SlowLogTailerSpec() : spec))
        .withVolumeMounts(mount)
        .withCommand("sh", "-c", "touch " + file + "; tail -n0 -F " + file + ";");
    if (spec != null) {
      b.withSecurityContext(spec.getSecurityContext());
    }
    if (spec != null && Boolean.TRUE.equals(spec.getUseSidecar())) {
      String sleep = spec.getSleepTimeSeconds() == null ? "" : "sleep " + spec.getSleepTimeSeconds() + "; ";
      // tail as PID 1 ignores SIGTERM, so the shell traps it and waits on tail instead.
      b.withCommand("sh", "-c",
          "trap \"" + sleep + "exit 0\" TERM; touch " + file + "; tail -n0 -F " + file + " & wait $!")
          .withRestartPolicy("Always");
    }
    return b.build();
  }

  /** Whether the tailer runs as a native sidecar (an init container with restartPolicy Always). */
  public static boolean asNativeSidecar(LogTailerSpec spec) {
    return spec != null && Boolean.TRUE.equals(spec.getUseSidecar());
  }

  /** {@code spec.helper.image}, else the TiDB slow-log tailer's image, else busybox. */
  public static String helperImage(TidbCluster tc) {
    HelperSpec helper = tc.getSpec().getHelper();
    if (helper != null && helper.getImage() != null && !helper.getImage().isEmpty()) {
      return helper.getImage();
    }
    SlowLogTailerSpec slow = tc.getSpec().getTidb() == null ? null : tc.getSpec().getTidb().getSlowLogTailer();
    if (slow != null && slow.getImage() != null && !slow.getImage().isEmpty()) {
      return slow.getImage();
    }
    return DEFAULT_HELPER_IMAGE;
  }

  public static String helperPullPolicy(TidbCluster tc) {
    HelperSpec helper = tc.getSpec().getHelper();
    if (helper != null && helper.getImagePullPolicy() != null) {
      return helper.getImagePullPolicy();
    }
    SlowLogTailerSpec slow = tc.getSpec().getTidb() == null ? null : tc.getSpec().getTidb().getSlowLogTailer();
    if (slow != null && slow.getImagePullPolicy() != null) {
      return slow.getImagePullPolicy();
    }
    return tc.getSpec().getImagePullPolicy();
  }
}
