package io.tidb.operator.controller;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code train-class-data}: one short run of the operator's real start and of one reconcile, for
 * the image build to record a class-data sharing archive from ({@code
 * hack/class-data-archive.sh}); the controller then starts from that archive. There is no API
 * server in an image build, so the run brings its own stand-in ({@link TrainingApiServer}, HTTPS
 * on 127.0.0.1) that lists one sample cluster: the flags are parsed, the client, JOSDK and every
 * controller's informers start as in a pod, and
 * the sample's first reconcile applies its discovery and PD objects, records Events and writes
 * its status (PD is unreachable, as it is until PD runs). Exits 0 only if that status was written.
 */
@Command(
    name = ControllerClassDataTraining.MODE,
    description = "Runs the start and one reconcile on a stand-in API server, for a class-data sharing"
        + " archive (image build).")
final class ControllerClassDataTraining implements Callable<Integer> {

  static final String MODE = "train-class-data";

  /** The sample cluster's namespace. */
  static final String NAMESPACE = "training";

  static final String SAMPLE = "/class-data-training/tidbcluster.json";

  /** How long the sample's first status write may take (a cold JVM in a busy image build). */
  static final Duration TIMEOUT = Duration.ofSeconds(120);

  @Override
  public Integer call() throws Exception {
    String sample;
    try (InputStream in = ControllerClassDataTraining.class.getResourceAsStream(SAMPLE)) {
      sample = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Path kubeconfig = Files.createTempFile("class-data-training-", ".kubeconfig");
    try (TrainingApiServer api = TrainingApiServer.start(new TrainingApiAnswers(sample))) {
      Files.writeString(kubeconfig, api.kubeconfig());
      ControllerMain main = new ControllerMain();
      new CommandLine(main).parseArgs(flags(kubeconfig).toArray(String[]::new));
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
    } finally {
      Files.deleteIfExists(kubeconfig);
    }
  }

  /**
   * The operator's flags for the run: the stand-in's kubeconfig, the probe server on a free
   * loopback port, and PD and TiDB on a loopback port where nothing listens (refused at once).
   */
  static List<String> flags(Path kubeconfig) {
    String nowhere = "http://127.0.0.1:1/{namespace}/{name}";
    return List.of(
        "--kubeconfig=" + kubeconfig,
        "--bind=127.0.0.1",
        "--port=0",
        "--identity=class-data-training",
        "--pd-url-template=" + nowhere,
        "--tidb-status-url-template=" + nowhere + "/{pod}",
        "--pd-member-url-template=" + nowhere + "/{member}");
  }
}
