package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.controller.ControllerMain;
import io.tidb.operator.controller.initializer.KubeInitializerLookups;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Plays kubelet and Job controller for one initializer Job read back from the API server: runs
 * its container as a local process with exactly the container's args and environment (the image's
 * entry point, ControllerMain, on this JVM's classpath; {@code secretKeyRef} and {@code
 * configMapKeyRef} resolved from the API server as the kubelet resolves them; nothing else in the
 * environment), then reports the result the way they do: a pod with the container's terminated
 * state (the termination message by {@code FallbackToLogsOnError}) and the Job's terminal status.
 */
final class JobAsKubelet {

  /** The outcome of the container. */
  record Run(int exitCode, String output) {}

  private final KubernetesClient client;

  JobAsKubelet(KubernetesClient client) {
    this.client = client;
  }

  /** The container's process: command, arguments and environment as the pod would run them. */
  ProcessBuilder process(Job job) {
    return process(job, Kubelet.NONE);
  }

  /**
   * What the kubelet adds to a container besides its spec: the {@code KUBERNETES_SERVICE_*}
   * variables, and the ServiceAccount token volume (a pod's files cannot be placed here, so the
   * JVM is told where the token and CA are; and, as in a pod, it never reads a kubeconfig).
   */
  record Kubelet(Map<String, String> env, List<String> jvmFlags) {
    static final Kubelet NONE = new Kubelet(Map.of(), List.of());
  }

  /** The container's process with what the kubelet adds ({@link Kubelet}). */
  ProcessBuilder process(Job job, Kubelet kubelet) {
    Container c = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertTrue(c.getCommand() == null || c.getCommand().isEmpty(),
        "the container keeps the image's entry point (ControllerMain): " + c.getCommand());
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(kubelet.jvmFlags());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), ControllerMain.class.getName()));
    command.addAll(c.getArgs());
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().putAll(environment(job.getMetadata().getNamespace(), c.getEnv()));
    pb.environment().putAll(kubelet.env());
    return pb;
  }

  Run run(Job job) throws IOException, InterruptedException {
    return run(job, Kubelet.NONE);
  }

  Run run(Job job, Kubelet kubelet) throws IOException, InterruptedException {
    List<Path> mounted = mountSecretVolumes(job);
    try {
      Process p = process(job, kubelet).start();
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("the Job's program did not exit in 120s");
      }
      return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    } finally {
      for (Path dir : mounted) {
        try (var files = Files.list(dir)) {
          for (Path f : files.toList()) {
            Files.delete(f);
          }
        }
        Files.delete(dir);
      }
    }
  }

  /**
   * Writes each Secret volume of the container at its mount path, as the kubelet does (the
   * process has no mount namespace of its own, so the path is this machine's, e.g. {@code
   * /var/lib/tidb-client-tls}: the TLS tests run as root, as the CI does). A path that exists
   * already fails the test rather than being overwritten.
   *
   * @return the directories written, to delete afterwards
   */
  private List<Path> mountSecretVolumes(Job job) throws IOException {
    var pod = job.getSpec().getTemplate().getSpec();
    Container c = pod.getContainers().get(0);
    List<Path> written = new ArrayList<>();
    if (c.getVolumeMounts() == null || pod.getVolumes() == null) {
      return written;
    }
    for (var mount : c.getVolumeMounts()) {
      var volume = pod.getVolumes().stream()
          .filter(v -> v.getName().equals(mount.getName()) && v.getSecret() != null)
          .findFirst();
      if (volume.isEmpty()) {
        continue;
      }
      String secretName = volume.get().getSecret().getSecretName();
      var secret = client.secrets().inNamespace(job.getMetadata().getNamespace())
          .withName(secretName).get();
      assertTrue(secret != null, "the Job mounts Secret " + secretName + ", which does not exist");
      Path dir = Path.of(mount.getMountPath());
      assertTrue(!Files.exists(dir), dir + " exists already; the test does not overwrite it");
      Files.createDirectories(dir);
      written.add(dir);
      for (var e : secret.getData().entrySet()) {
        Files.write(dir.resolve(e.getKey()), Base64.getDecoder().decode(e.getValue()));
      }
    }
    return written;
  }

  /** Runs the Job's container and reports the result as the kubelet and the Job controller do. */
  Run runAndReport(Job job) throws IOException, InterruptedException {
    return runAndReport(job, Kubelet.NONE);
  }

  Run runAndReport(Job job, Kubelet kubelet) throws IOException, InterruptedException {
    Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Run run = run(job, kubelet);
    report(job, run, started);
    return run;
  }

  void report(Job job, Run run, Instant started) {
    String ns = job.getMetadata().getNamespace();
    String name = job.getMetadata().getName();
    Pod pod = client.pods().inNamespace(ns).resource(new PodBuilder()
        .withNewMetadata()
        .withName(name + "-" + Long.toHexString(System.nanoTime()).substring(0, 5))
        .withNamespace(ns)
        .addToLabels(job.getSpec().getTemplate().getMetadata().getLabels())
        .addToLabels(KubeInitializerLookups.JOB_NAME_LABEL, name)
        .endMetadata()
        .withSpec(job.getSpec().getTemplate().getSpec())
        .build()).create();
    String message = run.exitCode() == 0 ? null : fallbackToLogs(run.output());
    pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder()
        .withPhase(run.exitCode() == 0 ? "Succeeded" : "Failed")
        .withContainerStatuses(new ContainerStatusBuilder()
            .withName(job.getSpec().getTemplate().getSpec().getContainers().get(0).getName())
            .withImage(job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
            .withImageID("")
            .withReady(false)
            .withRestartCount(0)
            .withNewState().withNewTerminated()
            .withExitCode(run.exitCode())
            .withReason(run.exitCode() == 0 ? "Completed" : "Error")
            .withMessage(message)
            .withStartedAt(started.toString())
            .withFinishedAt(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString())
            .endTerminated().endState()
            .build())
        .build());
    client.pods().inNamespace(ns).resource(pod).updateStatus();
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    JobStatus status = run.exitCode() == 0
        ? new JobStatusBuilder()
            .withStartTime(started.toString()).withCompletionTime(now).withSucceeded(1).withReady(0).withTerminating(0)
            .withConditions(
                new JobConditionBuilder().withType("SuccessCriteriaMet").withStatus("True").withReason("CompletionsReached")
                    .withMessage("Reached expected number of succeeded pods").withLastProbeTime(now).withLastTransitionTime(now).build(),
                new JobConditionBuilder().withType("Complete").withStatus("True").withReason("CompletionsReached")
                    .withMessage("Reached expected number of succeeded pods").withLastProbeTime(now).withLastTransitionTime(now).build())
            .build()
        : new JobStatusBuilder()
            .withStartTime(started.toString()).withFailed(1).withReady(0).withTerminating(0)
            .withConditions(
                new JobConditionBuilder().withType("FailureTarget").withStatus("True").withReason("BackoffLimitExceeded")
                    .withMessage("Job has reached the specified backoff limit").withLastProbeTime(now).withLastTransitionTime(now).build(),
                new JobConditionBuilder().withType("Failed").withStatus("True").withReason("BackoffLimitExceeded")
                    .withMessage("Job has reached the specified backoff limit").withLastProbeTime(now).withLastTransitionTime(now).build())
            .build();
    Job current = client.batch().v1().jobs().inNamespace(ns).withName(name).get();
    current.setStatus(status);
    client.batch().v1().jobs().inNamespace(ns).resource(current).updateStatus();
  }

  /**
   * The pod was deleted while it ran (its container killed, the pod gone): the Job controller
   * counts it as failed and, with backoffLimit 0, fails the Job; no termination message remains.
   */
  void reportPodDeleted(Job job, Instant started) {
    String ns = job.getMetadata().getNamespace();
    String name = job.getMetadata().getName();
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    Job current = client.batch().v1().jobs().inNamespace(ns).withName(name).get();
    current.setStatus(new JobStatusBuilder()
        .withStartTime(started.toString()).withFailed(1).withReady(0).withTerminating(0)
        .withConditions(
            new JobConditionBuilder().withType("FailureTarget").withStatus("True").withReason("BackoffLimitExceeded")
                .withMessage("Job has reached the specified backoff limit").withLastProbeTime(now).withLastTransitionTime(now).build(),
            new JobConditionBuilder().withType("Failed").withStatus("True").withReason("BackoffLimitExceeded")
                .withMessage("Job has reached the specified backoff limit").withLastProbeTime(now).withLastTransitionTime(now).build())
        .build());
    client.batch().v1().jobs().inNamespace(ns).resource(current).updateStatus();
  }

  /** What the kubelet keeps of a failed container's log: the last 80 lines, at most 2048 bytes. */
  static String fallbackToLogs(String output) {
    String[] lines = output.split("\n");
    String tail = String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 80), lines.length));
    byte[] bytes = tail.getBytes(StandardCharsets.UTF_8);
    return bytes.length <= 2048 ? tail : new String(bytes, bytes.length - 2048, 2048, StandardCharsets.UTF_8);
  }

  /**
   * The container's environment, each valueFrom resolved from the API server; as the kubelet, an
   * optional Secret key the Secret lacks sets no variable, a required one that is missing fails.
   */
  Map<String, String> environment(String ns, List<EnvVar> env) {
    Map<String, String> out = new LinkedHashMap<>();
    if (env == null) {
      return out;
    }
    for (EnvVar e : env) {
      if (e.getValueFrom() == null) {
        out.put(e.getName(), e.getValue() == null ? "" : e.getValue());
      } else if (e.getValueFrom().getSecretKeyRef() != null) {
        var ref = e.getValueFrom().getSecretKeyRef();
        Secret s = client.secrets().inNamespace(ns).withName(ref.getName()).get();
        String b64 = s == null || s.getData() == null ? null : s.getData().get(ref.getKey());
        if (b64 == null) {
          assertEquals(true, ref.getOptional(), "the required key " + ref.getKey() + " of Secret " + ref.getName());
          continue;
        }
        out.put(e.getName(), new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8));
      } else if (e.getValueFrom().getConfigMapKeyRef() != null) {
        var ref = e.getValueFrom().getConfigMapKeyRef();
        ConfigMap cm = client.configMaps().inNamespace(ns).withName(ref.getName()).get();
        out.put(e.getName(), cm.getData().get(ref.getKey()));
      } else {
        throw new AssertionError("unexpected valueFrom in " + e);
      }
    }
    return out;
  }
}
