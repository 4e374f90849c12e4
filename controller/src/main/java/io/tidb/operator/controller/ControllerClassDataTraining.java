package io.tidb.operator.controller;

import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code train-class-data}: one short run of the operator's real start and of one reconcile, for
 * the image build to record a class-data sharing archive from ({@code
 * hack/class-data-archive.sh}); the controller then starts from that archive. There is no API
 * server in an image build, so the run brings its own stand-in ({@link TrainingApiServer}, HTTPS
 * on 127.0.0.1) that lists one sample cluster: the flags are parsed, the client (with a pod's
 * credentials), JOSDK and every controller's informers start as in a pod, and
 * the sample's first reconcile applies its discovery and PD objects, records Events and writes
 * its status (PD is unreachable, as it is until PD runs). Exits 0 only if that status was written.
 */
@Command(
    name = ControllerClassDataTraining.MODE,
    description = "Runs the start and one reconcile on a stand-in API server, for a class-data sharing"
        + " archive (image build).")
final class ControllerClassDataTraining implements Callable<Integer> {

  static final String MODE = "train-class-data";

  static final String SAMPLE = "/class-data-training/tidbcluster.json";

  /**
   * The sample's first PD member as a control plane stores it (taken from one, its names changed
   * to the sample's), listed by the stand-in: reading them loads what reading a namespace's pods,
   * claims, volumes and StatefulSets loads at every start, and the reconcile goes past the
   * missing-objects path to read a pod, its claim and its volume.
   */
  static final Map<String, String> LISTED = Map.of(
      "pods", "/class-data-training/pd-pod.json",
      "persistentvolumeclaims", "/class-data-training/pd-claim.json",
      "persistentvolumes", "/class-data-training/pd-volume.json",
      "statefulsets", "/class-data-training/pd-statefulset.json");

  /** How long the sample's first status write may take (a cold JVM in a busy image build). */
  static final Duration TIMEOUT = Duration.ofSeconds(120);

  @Override
  public Integer call() throws Exception {
    Path dir = Files.createTempDirectory("class-data-training-");
    try (TrainingApiServer api = TrainingApiServer.start(answers(), dir)) {
      Path token = Files.writeString(dir.resolve("token"), TrainingApiServer.TOKEN);
      Map<String, String> credentials = podCredentials(api, token);
      Map<String, String> before = new HashMap<>();
      credentials.forEach((name, value) -> before.put(name, System.setProperty(name, value)));
      try {
        return startAndReconcile(api);
      } finally {
        before.forEach((name, value) -> {
          if (value == null) {
            System.clearProperty(name);
          } else {
            System.setProperty(name, value);
          }
        });
      }
    } finally {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path file : files.toList()) {
          Files.delete(file);
        }
      }
      Files.delete(dir);
    }
  }

  /** What the stand-in answers: the sample cluster, and {@link #LISTED} in its lists. */
  static TrainingApiAnswers answers() throws IOException {
    Map<String, List<String>> listed = new HashMap<>();
    for (Map.Entry<String, String> resource : LISTED.entrySet()) {
      listed.put(resource.getKey(), List.of(resource(resource.getValue())));
    }
    return new TrainingApiAnswers(resource(SAMPLE), listed);
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = ControllerClassDataTraining.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static int startAndReconcile(TrainingApiServer api) throws Exception {
    ControllerMain main = new ControllerMain();
    new CommandLine(main).parseArgs(flags().toArray(String[]::new));
    try (ControllerMain.Running running = main.prepare(main.plan())) {
      running.operator().start();
      if (!api.awaitStatusWrite(TIMEOUT)) {
        System.err.println(MODE + ": no status written for the sample cluster within " + TIMEOUT
            + " (" + api.writes() + " writes)");
        return 1;
      }
      if (!running.operator().ready()) {
        System.err.println(MODE + ": the operator did not report ready");
        return 1;
      }
    }
    return 0;
  }

  /**
   * The stand-in reached as a pod reaches its API server: the address in {@code
   * KUBERNETES_SERVICE_HOST} and {@code _PORT}, the token and the CA certificate in files, no
   * kubeconfig. fabric8 reads each from a system property before the environment. A kubeconfig
   * would have the archive hold what a pod never loads: its YAML parser, the kubeconfig's model,
   * and the classes of every kind fabric8 knows, which it registers when it reads one.
   */
  static Map<String, String> podCredentials(TrainingApiServer api, Path token) {
    return Map.of(
        Config.KUBERNETES_SERVICE_HOST_PROPERTY, "127.0.0.1",
        Config.KUBERNETES_SERVICE_PORT_PROPERTY, Integer.toString(api.port()),
        Config.KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN_FILE_SYSTEM_PROPERTY, token.toString(),
        Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY, api.certificate().toString(),
        Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false");
  }

  /**
   * The operator's flags for the run: the probe server on a free loopback port, and PD and TiDB
   * on a loopback port where nothing listens (refused at once).
   */
  static List<String> flags() {
    String nowhere = "http://127.0.0.1:1/{namespace}/{name}";
    return List.of(
        "--bind=127.0.0.1",
        "--port=0",
        "--identity=class-data-training",
        "--pd-url-template=" + nowhere,
        "--tidb-status-url-template=" + nowhere + "/{pod}",
        "--pd-member-url-template=" + nowhere + "/{member}");
  }
}
