package io.tidb.operator.webhook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.certs.CertificateAuthority;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.KeyStores;
import io.tidb.operator.certs.Pem;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import io.tidb.operator.testsupport.LoopbackPorts;
import io.tidb.operator.testsupport.ChartJvmOptions;
import io.tidb.operator.testsupport.ProcFiles;
import io.tidb.operator.webhook.AdmissionOperation;
import io.tidb.operator.webhook.AdmissionReviewCodec;
import io.tidb.operator.webhook.AdmissionRulesRegistry;
import io.tidb.operator.webhook.AdmissionService;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Admission latency and throughput of the packaged webhook over TLS, plus its start-up time and
 * memory. Not a test: it prints figures.
 *
 * <p>It starts the real process ({@code java -cp <server classpath> WebhookMain}) in file
 * certificate mode on 127.0.0.1, measures the time from launching the JVM to the first 200 from
 * {@code /readyz}, then drives {@code /validate} and {@code /mutate} with CREATE reviews of a
 * TidbCluster example from closed-loop clients (each client sends its next request when the last
 * one is answered, over its own kept-alive TLS connection), at each concurrency level.
 *
 * <pre>
 * mvn -B -o -q -pl webhook package -DskipTests
 * mvn -B -o -q -pl webhook exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.tidb.operator.webhook.bench.AdmissionBenchmark \
 *   -Dexec.args="--server-classpath target/webhook-0.1.0-SNAPSHOT.jar:target/lib/* \
 *     --example /work/shared/compat/tidbcluster/advanced__tidb-cluster.yaml"
 * </pre>
 */
public final class AdmissionBenchmark {

  private static final ObjectMapper JSON = new ObjectMapper();
  /**
   * How long any request of the benchmark waits for its answer (and a connection for its
   * handshake): twice the chart's webhook timeout, after which the API server has given up. An
   * answer that does not come counts as an error instead of stopping the benchmark.
   */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  /** The slices in which {@link #settleJit} watches the JIT, and the share of one it may use. */
  private static final Duration JIT_SLICE = Duration.ofSeconds(3);
  private static final double JIT_SETTLED_SHARE = 0.01;

  private String serverClasspath;
  private Path example = Path.of("../examples/basic-tidb-cluster.yaml");
  private List<Integer> concurrency = List.of(1, 16, 64);
  private Duration warmup = Duration.ofSeconds(5);
  private Duration measure = Duration.ofSeconds(10);
  /**
   * After the warm-up, the load stays on in slices of {@link #JIT_SLICE} until the server's JIT
   * compiler threads spent at most {@link #JIT_SETTLED_SHARE} of a slice, for at most this long;
   * zero measures right after the warm-up.
   */
  private Duration jitSettleMax = Duration.ofSeconds(120);
  /** Default: the chart's webhook memory limit and jvmOptions, read from its values.yaml. */
  private String serverJvmArgs;
  /** Default: the chart's webhook container environment (webhook.mallocArenaMax and webhook.env). */
  private final List<String> serverEnv = new ArrayList<>();
  private int inProcessIterations = 5_000;
  private Duration soak = Duration.ZERO;
  /** How long the server is left without requests after the load, its RSS printed every 5 s. */
  private Duration quiet = Duration.ofSeconds(15);
  private Path createReview;
  private Path updateReview;
  private Duration openLoop = Duration.ofSeconds(15);
  private boolean inProcessOnly;
  /**
   * The load generator's client: {@code socket} ({@link KeptAliveTlsConnection}, the default) or
   * {@code jdk} (the JDK's {@code HttpClient}, one per connection, as runs before 2026-12-07 used).
   */
  private static String loadClient = "socket";

  public static void main(String[] args) throws Exception {
    AdmissionBenchmark bench = new AdmissionBenchmark();
    for (int i = 0; i < args.length; i += 2) {
      String value = args[i + 1];
      switch (args[i]) {
        case "--server-classpath" -> bench.serverClasspath = value;
        case "--example" -> bench.example = Path.of(value);
        case "--concurrency" -> bench.concurrency = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
        case "--warmup-seconds" -> bench.warmup = Duration.ofSeconds(Long.parseLong(value));
        case "--seconds" -> bench.measure = Duration.ofSeconds(Long.parseLong(value));
        case "--jit-settle-max-seconds" -> bench.jitSettleMax = Duration.ofSeconds(Long.parseLong(value));
        case "--server-jvm-args" -> bench.serverJvmArgs = value;
        case "--create-review" -> bench.createReview = Path.of(value);
        case "--update-review" -> bench.updateReview = Path.of(value);
        case "--open-loop-seconds" -> bench.openLoop = Duration.ofSeconds(Long.parseLong(value));
        case "--in-process-only" -> bench.inProcessOnly = Boolean.parseBoolean(value);
        case "--in-process-iterations" -> bench.inProcessIterations = Integer.parseInt(value);
        case "--soak-seconds" -> bench.soak = Duration.ofSeconds(Long.parseLong(value));
        case "--quiet-seconds" -> bench.quiet = Duration.ofSeconds(Long.parseLong(value));
        case "--server-env" -> bench.serverEnv.add(value);
        case "--load-client" -> {
          if (!value.equals("socket") && !value.equals("jdk")) {
            throw new IllegalArgumentException("--load-client: socket or jdk, not " + value);
          }
          loadClient = value;
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (bench.inProcessOnly) {
      inProcess(bench.inputs(), bench.inProcessIterations);
      return;
    }
    if (bench.serverJvmArgs == null) {
      ChartJvmOptions chart = ChartJvmOptions.ofProjectChart("webhook");
      bench.serverJvmArgs = String.join(" ", chart.jvmArgs());
      if (bench.serverEnv.isEmpty()) {
        bench.serverEnv.addAll(chart.env());
      }
    }
    if (bench.serverClasspath == null) {
      throw new IllegalArgumentException("--server-classpath is required (the packaged webhook layout)");
    }
    bench.run();
  }

  private void run() throws Exception {
    if (inProcessIterations > 0) {
      inProcess(inputs(), inProcessIterations);
    }
    Path dir = Files.createTempDirectory("webhook-bench");
    CertificateIssuer issuer = new CertificateIssuer();
    CertificateAuthority ca = issuer.newAuthority("bench-ca", Instant.now(), Duration.ofDays(1), KeyAlgorithm.EC_P256);
    ServingCertificate serving = issuer.issueServing(
        ca, ServingNames.forService("tidb-webhook", "bench"), Instant.now(), Duration.ofHours(12), KeyAlgorithm.EC_P256);
    Files.writeString(dir.resolve("tls.crt"), Pem.encodeCertificate(serving.certificate()));
    Files.writeString(dir.resolve("tls.key"), Pem.encodePrivateKey(serving.privateKey()));
    int port = LoopbackPorts.free();

    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(Arrays.asList(serverJvmArgs.trim().split("\\s+")));
    command.addAll(List.of("-cp", serverClasspath, "io.tidb.operator.webhook.WebhookMain",
        "--cert-dir=" + dir, "--bind-address=127.0.0.1", "--port=" + port, "--log-level=info",
        "--shutdown-delay-seconds=0"));
    SSLContext tls = trusting(ca);
    HttpClient probe = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).sslContext(tls).build();
    URI readyz = URI.create("https://127.0.0.1:" + port + "/readyz");

    long launched = System.nanoTime();
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("server.log").toFile());
    builder.environment().putAll(ChartJvmOptions.environment(serverEnv));
    Process server = builder.start();
    long readyNanos = awaitReady(probe, readyz, server, launched);
    long startupCpuTicks = ProcFiles.cpuTicks(server.pid());
    try {
      long rssIdle = ProcFiles.rssKiB(server.pid());
      System.out.printf(Locale.ROOT, "%nwebhook benchmark  %s  cpus=%d  java=%s%n", Instant.now(),
          Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
      System.out.printf(Locale.ROOT, "server: %s%s%n", serverEnv.isEmpty() ? "" : String.join(" ", serverEnv) + " ",
          String.join(" ", command));
      System.out.printf(Locale.ROOT, "example: %s (%d bytes as AdmissionReview JSON)%n", example,
          review(example).length);
      System.out.printf(Locale.ROOT, "load average before: %s", Files.readString(Path.of("/proc/loadavg")));
      System.out.printf(Locale.ROOT, "JVM launch to /readyz 200: %d ms (the server's own log: %s)%n",
          readyNanos / 1_000_000, startupLine(dir.resolve("server.log")));
      System.out.printf(Locale.ROOT, "server CPU time until ready: %d ms%n", startupCpuTicks * 1000 / ProcFiles.CLOCK_TICKS_PER_SECOND);
      System.out.printf(Locale.ROOT, "RSS after start (idle): %d MiB%n", rssIdle / 1024);
      List<Input> inputs = inputs();
      for (Input input : inputs) {
        System.out.printf(Locale.ROOT, "input %s: %s (%d bytes)%n", input.name(), input.endpoint(), input.body().length);
      }
      System.out.printf(Locale.ROOT, "load generator: %s%n", loadClient.equals("socket")
          ? "blocking TLS sockets, one kept-alive connection per client thread"
          : "the JDK's HttpClient, one per client thread");
      System.out.printf(Locale.ROOT, "%n| input | clients | warm-up (s) | requests | throughput (req/s) | p50 (ms) | p90 (ms) | p99 (ms) | max (ms) | server CPU per request (ms) | of which JIT (ms) | × floor | generator CPU per request (ms) | errors |%n");
      System.out.printf(Locale.ROOT, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|%n");
      for (int clients : concurrency) {
        double floorCpu = Double.NaN;
        for (Input input : inputs) {
          URI uri = URI.create("https://127.0.0.1:" + port + input.endpoint());
          load(uri, input.body(), input.expectedStatus(), tls, clients, warmup);
          Duration warmedUp = warmup.plus(settleJit(server, uri, input, tls, clients));
          long cpuBefore = ProcFiles.cpuTicks(server.pid());
          long jitBefore = ProcFiles.threadTicks(server.pid(), ProcFiles::isJitCompilerThread);
          long generatorBefore = ProcFiles.cpuTicks(ProcessHandle.current().pid());
          Result r = load(uri, input.body(), input.expectedStatus(), tls, clients, measure);
          double cpuMs = (ProcFiles.cpuTicks(server.pid()) - cpuBefore) * 1000.0 / ProcFiles.CLOCK_TICKS_PER_SECOND;
          double generatorMs = (ProcFiles.cpuTicks(ProcessHandle.current().pid()) - generatorBefore) * 1000.0
              / ProcFiles.CLOCK_TICKS_PER_SECOND;
          double jitMs = (ProcFiles.threadTicks(server.pid(), ProcFiles::isJitCompilerThread) - jitBefore)
              * 1000.0 / ProcFiles.CLOCK_TICKS_PER_SECOND;
          double perRequest = cpuMs / Math.max(1, r.count());
          if (input.name().equals("floor")) {
            floorCpu = perRequest;
          }
          System.out.printf(Locale.ROOT, "| %s | %d | %d | %d | %.0f | %.2f | %.2f | %.2f | %.2f | %.3f | %.3f | %.1f | %.3f | %d |%n",
              input.name(), clients, warmedUp.toSeconds(), r.count(), r.count() / (measure.toNanos() / 1e9),
              r.percentile(0.50), r.percentile(0.90), r.percentile(0.99), r.percentile(1.0),
              perRequest, jitMs / Math.max(1, r.count()), perRequest / floorCpu,
              generatorMs / Math.max(1, r.count()), r.errors());
        }
      }
      Input validate = reviews(inputs).get(0);
      URI validateUri = URI.create("https://127.0.0.1:" + port + validate.endpoint());
      Result open = openLoop(validateUri, validate.body(), tls, 1000, openLoop);
      System.out.printf(Locale.ROOT, "%nopen loop, %s at 1000/s for %d s over " + OPEN_LOOP_CONNECTIONS + " connections: %d answered, p50 %.2f ms, p99 %.2f ms, max %.2f ms, %d errors%n",
          validate.name(), openLoop.toSeconds(), open.count(), open.percentile(0.5), open.percentile(0.99),
          open.percentile(1.0), open.errors());
      System.out.printf(Locale.ROOT, "RSS after load: %d MiB%n", ProcFiles.rssKiB(server.pid()) / 1024);
      for (long s = 5; s <= quiet.toSeconds(); s += 5) {
        Thread.sleep(5_000);
        System.out.printf(Locale.ROOT, "RSS %d s after load, no requests: %d MiB%n", s,
            ProcFiles.rssKiB(server.pid()) / 1024);
      }
      attacks(server, port, tls, validate);
      System.out.printf(Locale.ROOT, "RSS after the attacks: %d MiB%n", ProcFiles.rssKiB(server.pid()) / 1024);
      if (!soak.isZero()) {
        soak(server, port, tls, inputs);
      }
      nativeMemory(server);
      System.out.println("errors by kind: " + (ERROR_KINDS.isEmpty() ? "none" : ERROR_KINDS.toString()));
      FIRST_ERROR_BODIES.forEach((kind, body) -> System.out.println("  first " + kind + " answer: "
          + body.substring(0, Math.min(300, body.length()))));
      System.out.printf(Locale.ROOT, "load average after: %s", Files.readString(Path.of("/proc/loadavg")));
    } finally {
      long stopping = System.nanoTime();
      server.destroy();
      if (server.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
        System.out.printf(Locale.ROOT, "SIGTERM to exit: %d ms (exit code %d)%n",
            (System.nanoTime() - stopping) / 1_000_000, server.exitValue());
      } else {
        server.destroyForcibly().waitFor();
        System.out.printf(Locale.ROOT, "SIGTERM to exit: NOT within 60 s; killed (exit code %d)%n", server.exitValue());
      }
    }
  }

  /**
   * Keeps {@code clients} sending {@code input} in slices of {@link #JIT_SLICE} while the server's
   * JIT compiler threads (C1's and C2's) spend more than {@link #JIT_SETTLED_SHARE} of a slice, for
   * at most {@link #jitSettleMax}: each input takes paths of its own through the server that the
   * JIT compiles under its load, for tens of seconds on two cores, and a window measured meanwhile
   * counts that work (up to a fifth of the server's CPU in a 10 s window) as the requests' cost.
   * Returns how long it kept the load on.
   */
  private Duration settleJit(Process server, URI uri, Input input, SSLContext tls, int clients)
      throws IOException, InterruptedException {
    long started = System.nanoTime();
    long deadline = started + jitSettleMax.toNanos();
    while (System.nanoTime() < deadline) {
      long before = ProcFiles.threadTicks(server.pid(), ProcFiles::isJitCompilerThread);
      load(uri, input.body(), input.expectedStatus(), tls, clients, JIT_SLICE);
      long spent = ProcFiles.threadTicks(server.pid(), ProcFiles::isJitCompilerThread) - before;
      if (spent <= JIT_SETTLED_SHARE * JIT_SLICE.toSeconds() * ProcFiles.CLOCK_TICKS_PER_SECOND) {
        break;
      }
    }
    return Duration.ofNanos(System.nanoTime() - started);
  }

  /**
   * Mixed load at 16 clients for {@link #soak}, the inputs taking turns in windows of 10 s; prints
   * RSS and the server's CPU as it goes and at the end.
   */
  private void soak(Process server, int port, SSLContext tls, List<Input> inputs) throws Exception {
    System.out.printf(Locale.ROOT, "%nsoak: 16 clients for %d s, the inputs in turn%n", soak.toSeconds());
    long end = System.nanoTime() + soak.toNanos();
    long requests = 0;
    long errors = 0;
    long cpuBefore = ProcFiles.cpuTicks(server.pid());
    List<Input> reviews = reviews(inputs);
    for (int turn = 0; System.nanoTime() < end; turn++) {
      Input input = reviews.get(turn % reviews.size());
      URI uri = URI.create("https://127.0.0.1:" + port + input.endpoint());
      Result r = load(uri, input.body(), input.expectedStatus(), tls, 16, Duration.ofSeconds(10));
      requests += r.count();
      errors += r.errors();
      if (turn % 6 == 5) {
        System.out.printf(Locale.ROOT, "  after %d requests: RSS %d MiB%n", requests, ProcFiles.rssKiB(server.pid()) / 1024);
      }
    }
    double cpuMs = (ProcFiles.cpuTicks(server.pid()) - cpuBefore) * 1000.0 / ProcFiles.CLOCK_TICKS_PER_SECOND;
    System.out.printf(Locale.ROOT, "soak: %d requests, %d errors, server CPU %.3f ms per request; RSS after the soak: %d MiB%n",
        requests, errors, cpuMs / Math.max(1, requests), ProcFiles.rssKiB(server.pid()) / 1024);
    Thread.sleep(15_000);
    System.out.printf(Locale.ROOT, "RSS 15 s after the soak: %d MiB%n", ProcFiles.rssKiB(server.pid()) / 1024);
  }

  /** With -XX:NativeMemoryTracking in the server's options, where its committed memory is. */
  private void nativeMemory(Process server) throws Exception {
    if (!serverJvmArgs.contains("NativeMemoryTracking")) {
      return;
    }
    Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(server.pid()), "VM.native_memory", "summary", "scale=MB").redirectErrorStream(true).start();
    String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    jcmd.waitFor();
    System.out.printf(Locale.ROOT, "%nnative memory (committed):%n");
    for (String line : out.split("\n")) {
      if (line.startsWith("Total") || line.matches("^-\\s+\\S.*\\(reserved=.*")) {
        System.out.println("  " + line.trim());
      }
    }
  }

  /**
   * The admission work alone, without HTTP and TLS: parse, decide, serialize, on this thread.
   * Three rounds; the last one, with the JIT warm, is printed.
   */
  private static void inProcess(List<Input> inputs, int iterations) {
    AdmissionReviewCodec codec = new AdmissionReviewCodec();
    AdmissionService service = new AdmissionService(
        new AdmissionRulesRegistry().register(new TidbClusterAdmissionRules()), codec);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    System.out.printf(Locale.ROOT, "%nin-process admission (no HTTP/TLS), %d iterations, third round:%n", iterations);
    for (Input input : reviews(inputs)) {
      AdmissionOperation operation = input.endpoint().equals("/mutate") ? AdmissionOperation.MUTATE : AdmissionOperation.VALIDATE;
      // As the endpoint reads a body: the objects read as their type while it is parsed.
      AdmissionReviewCodec.ObjectTypes types = service.objectTypes(operation);
      double cpuMicros = 0;
      double wallMicros = 0;
      double allocatedKib = 0;
      long thread = Thread.currentThread().getId();
      for (int round = 0; round < 3; round++) {
        long cpu = threads.getCurrentThreadCpuTime();
        long wall = System.nanoTime();
        long allocated = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < iterations; i++) {
          codec.write(service.handle(operation, codec.parse(input.body(), types)).review());
        }
        cpuMicros = (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / iterations;
        wallMicros = (System.nanoTime() - wall) / 1e3 / iterations;
        allocatedKib = (threads.getThreadAllocatedBytes(thread) - allocated) / 1024.0 / iterations;
      }
      var answer = service.handle(operation, codec.parse(input.body(), types)).review().getResponse();
      System.out.printf(Locale.ROOT, "  %s: %.0f us CPU, %.0f us wall, %.0f KiB allocated per review (allowed=%s%s)%n",
          input.name(), cpuMicros, wallMicros, allocatedKib, answer.getAllowed(),
          answer.getStatus() == null ? "" : ": " + answer.getStatus().getMessage());
    }
  }

  /** Latencies in nanoseconds of every request answered 200 in the window, and failures. */
  private record Result(long[] latencies, long errors) {
    long count() {
      return latencies.length;
    }

    double percentile(double p) {
      if (latencies.length == 0) {
        return Double.NaN;
      }
      int index = (int) Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1);
      return latencies[Math.max(0, index)] / 1e6;
    }
  }

  private static Result load(URI uri, byte[] body, int expectedStatus, SSLContext tls, int clients, Duration window)
      throws InterruptedException {
    long end = System.nanoTime() + window.toNanos();
    List<long[]> perClient = new ArrayList<>();
    int[] counts = new int[clients];
    AtomicLong errors = new AtomicLong();
    CountDownLatch done = new CountDownLatch(clients);
    for (int c = 0; c < clients; c++) {
      long[] samples = new long[Math.max(50_000, 2_000_000 / clients)];
      perClient.add(samples);
      int id = c;
      Thread t = new Thread(() -> {
        Exchange exchange = exchange(uri, body, expectedStatus, tls);
        try {
          while (System.nanoTime() < end && counts[id] < samples.length) {
            long start = System.nanoTime();
            if (exchange.answered(errors)) {
              samples[counts[id]++] = System.nanoTime() - start;
            }
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          exchange.close();
          done.countDown();
        }
      }, "bench-client-" + c);
      t.start();
    }
    done.await();
    int total = Arrays.stream(counts).sum();
    long[] all = new long[total];
    int at = 0;
    for (int c = 0; c < clients; c++) {
      System.arraycopy(perClient.get(c), 0, all, at, counts[c]);
      at += counts[c];
    }
    Arrays.sort(all);
    return new Result(all, errors.get());
  }

  private static byte[] review(Path yaml) throws IOException {
    JsonNode object = new ObjectMapper(new YAMLFactory()).readTree(yaml.toFile());
    ((ObjectNode) object.get("metadata")).put("namespace", "bench");
    ObjectNode request = JSON.createObjectNode()
        .put("uid", UUID.randomUUID().toString())
        .put("operation", "CREATE")
        .put("namespace", "bench")
        .put("name", object.at("/metadata/name").asText());
    request.putObject("kind").put("group", "pingcap.com").put("version", "v1alpha1").put("kind", "TidbCluster");
    request.putObject("resource").put("group", "pingcap.com").put("version", "v1alpha1").put("resource", "tidbclusters");
    request.set("object", object);
    ObjectNode review = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
    review.set("request", request);
    return JSON.writeValueAsBytes(review);
  }

  private static long awaitReady(HttpClient probe, URI readyz, Process server, long launched) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(readyz).timeout(Duration.ofSeconds(2)).GET().build();
    long deadline = launched + Duration.ofSeconds(120).toNanos();
    while (System.nanoTime() < deadline) {
      if (!server.isAlive()) {
        throw new IllegalStateException("the webhook exited with " + server.exitValue() + " before it was ready");
      }
      try {
        if (probe.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return System.nanoTime() - launched;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(5);
    }
    server.destroyForcibly();
    throw new IllegalStateException("the webhook was not ready within 120 s");
  }

  private static String startupLine(Path log) throws IOException {
    return Files.readAllLines(log).stream()
        .filter(l -> l.contains("startupMillis="))
        .map(l -> l.substring(l.indexOf("startupMillis=")))
        .findFirst().orElse("(no startup line)");
  }




  /** One kind of request: a name, the endpoint, the body, and the status a correct answer has. */
  private record Input(String name, String endpoint, byte[] body, int expectedStatus) {}

  /**
   * The floor first (a 2-byte body, answered 400 by the TLS+HTTP stack and the codec alone), the
   * same with a body of the CREATE's size ({@code floor-sized}), then the realistic reviews: the
   * shared 13.5 KB CREATE to /validate and /mutate and the 26 KB UPDATE to /validate, or the
   * example's CREATE when no review files are given.
   */
  private List<Input> inputs() throws IOException {
    List<Input> inputs = new ArrayList<>();
    inputs.add(new Input("floor", "/validate", "{}".getBytes(StandardCharsets.UTF_8), 400));
    byte[] create = createReview == null ? review(example) : realistic(createReview);
    // The floor again with a body of the CREATE's size (whitespace after "{}"): what TLS, HTTP and
    // reading the body cost, so that the review's own work is the difference.
    byte[] sized = new byte[create.length];
    Arrays.fill(sized, (byte) ' ');
    sized[0] = '{';
    sized[1] = '}';
    inputs.add(new Input("floor-sized", "/validate", sized, 400));
    inputs.add(new Input("validate-create", "/validate", create, 200));
    inputs.add(new Input("mutate-create", "/mutate", create, 200));
    if (updateReview != null) {
      inputs.add(new Input("validate-update", "/validate", realistic(updateReview), 200));
    }
    return inputs;
  }

  /** The inputs that are reviews, not floors: validate-create first. */
  private static List<Input> reviews(List<Input> inputs) {
    return inputs.stream().filter(i -> !i.name().startsWith("floor")).toList();
  }

  /**
   * A shared review file, with one change so that it measures the allowed path, not a denial: its
   * env uses {@code fieldRef.fieldPath: status.myEnv2}, which is no pod field (the kubelet would
   * refuse it, and so do the rules), replaced by {@code metadata.name}.
   */
  private static byte[] realistic(Path file) throws IOException {
    JsonNode review = new ObjectMapper().readTree(
        Files.readString(file).replace("status.myEnv2", "metadata.name"));
    return new ObjectMapper().writeValueAsBytes(review);
  }

  /** One client's connection: sends the input and reads its whole answer, again and again. */
  private interface Exchange extends AutoCloseable {
    /**
     * Whether the answer came with the expected status; an answer with another status or a failed
     * exchange counts in {@code errors} (and in {@link #ERROR_KINDS}).
     */
    boolean answered(AtomicLong errors) throws InterruptedException;

    @Override
    void close();
  }

  /** A connection of {@link #loadClient}'s kind that posts {@code body} to {@code uri}. */
  private static Exchange exchange(URI uri, byte[] body, int expected, SSLContext tls) {
    if (loadClient.equals("jdk")) {
      HttpClient client = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).sslContext(tls)
          .version(HttpClient.Version.HTTP_1_1).build();
      HttpRequest request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
      return new Exchange() {
        @Override
        public boolean answered(AtomicLong errors) throws InterruptedException {
          try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == expected
                || failed("status " + response.statusCode(), response.body(), errors);
          } catch (IOException e) {
            return failed(e.getClass().getSimpleName(), null, errors);
          }
        }

        @Override
        public void close() {
          // the JDK 17 client has no close; its selector thread ends when it is unreachable
        }
      };
    }
    KeptAliveTlsConnection connection = new KeptAliveTlsConnection(tls.getSocketFactory(),
        new java.net.InetSocketAddress(uri.getHost(), uri.getPort()), uri.getPath(), body, REQUEST_TIMEOUT);
    return new Exchange() {
      @Override
      public boolean answered(AtomicLong errors) {
        try {
          int status = connection.exchange();
          return status == expected || failed("status " + status, connection.body(), errors);
        } catch (IOException e) {
          return failed(e.getClass().getSimpleName(), null, errors);
        }
      }

      @Override
      public void close() {
        connection.close();
      }
    };
  }

  /**
   * Counts a failed exchange in {@code errors} and {@link #ERROR_KINDS}, keeping the first answer's
   * body of each kind (null when there was no answer); returns false.
   */
  private static boolean failed(String kind, String body, AtomicLong errors) {
    if (body != null) {
      FIRST_ERROR_BODIES.putIfAbsent(kind, body.strip());
    }
    errors.incrementAndGet();
    ERROR_KINDS.computeIfAbsent(kind, k -> new LongAdder()).increment();
    return false;
  }

  /** Every error the clients saw, by answer status or exception, for the run's last line. */
  private static final ConcurrentMap<String, LongAdder>
      ERROR_KINDS = new ConcurrentSkipListMap<>();

  /** The first answer's body of each unexpected status. */
  private static final ConcurrentMap<String, String> FIRST_ERROR_BODIES = new ConcurrentSkipListMap<>();

  /** Kept-alive connections the open loop sends over (the API server keeps a pool the same way). */
  static final int OPEN_LOOP_CONNECTIONS = 32;

  /**
   * Requests planned at a fixed rate whatever the answers do, sent over {@link
   * #OPEN_LOOP_CONNECTIONS} kept-alive connections; latency counted from the planned send, so a
   * request that waited for a free connection counts its wait. (One client sending each request
   * asynchronously, as this did before, opened a new TLS connection whenever none was idle: at
   * 1,000/s that is a storm of handshakes, which measured the generator, not the server.) Every
   * connection is opened and used once before the first planned send, as an API server's pool
   * is in use before a steady rate: 32 TLS handshakes at the first planned sends held up the
   * first hundred or so requests by up to 200 ms, which alone made the p99 of 10,000.
   */
  private static Result openLoop(URI uri, byte[] body, SSLContext tls, int perSecond, Duration window)
      throws InterruptedException {
    int total = (int) (window.toSeconds() * perSecond);
    long[] latencies = new long[total];
    AtomicLong answered = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
    long interval = 1_000_000_000L / perSecond;
    List<Exchange> clients = new ArrayList<>();
    for (int c = 0; c < OPEN_LOOP_CONNECTIONS; c++) {
      Exchange client = exchange(uri, body, 200, tls);
      client.answered(new AtomicLong());
      clients.add(client);
    }
    long start = System.nanoTime() + 100_000_000L;
    List<Thread> senders = new ArrayList<>();
    for (Exchange client : clients) {
      Thread sender = new Thread(() -> {
        for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
          long planned = start + i * interval;
          long wait = planned - System.nanoTime();
          if (wait > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(wait);
          }
          try {
            if (client.answered(errors)) {
              latencies[(int) answered.getAndIncrement()] = System.nanoTime() - planned;
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
        client.close();
      }, "open-loop-" + senders.size());
      sender.start();
      senders.add(sender);
    }
    for (Thread sender : senders) {
      sender.join(window.toMillis() + 60_000);
    }
    long[] sorted = Arrays.copyOf(latencies, (int) answered.get());
    Arrays.sort(sorted);
    return new Result(sorted, errors.get());
  }

  /**
   * Every 500 ms for up to 40 s from {@code start}: a byte to each connection of the first two
   * kinds (index mod 3), a look at the third; records when each was found closed.
   */
  private static void trickle(List<javax.net.ssl.SSLSocket> sockets, long[] cutAfter, long start) {
    byte[] filler = {' ', 'a'};
    while (System.nanoTime() - start < Duration.ofSeconds(40).toNanos()) {
      boolean open = false;
      for (int i = 0; i < sockets.size(); i++) {
        if (cutAfter[i] > 0) {
          continue;
        }
        javax.net.ssl.SSLSocket socket = sockets.get(i);
        try {
          if (i % 3 < 2) {
            socket.getOutputStream().write(filler[i % 3]);
            socket.getOutputStream().flush();
          }
          // An answer (a 408) or the end of the stream: the server is done with it.
          socket.setSoTimeout(1);
          socket.getInputStream().read();
          cutAfter[i] = System.nanoTime() - start;
        } catch (java.net.SocketTimeoutException stillOpen) {
          open = true;
        } catch (IOException closed) {
          cutAfter[i] = System.nanoTime() - start;
        }
      }
      if (!open) {
        return;
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Hostile clients while a well-behaved one keeps sending reviews: bodies that expand when parsed,
   * a thousand slow connections, and a storm of new connections. Prints whether the server stayed
   * up, its RSS, and the well-behaved client's latencies.
   */
  private void attacks(Process server, int port, SSLContext tls, Input validate) throws Exception {
    URI uri = URI.create("https://127.0.0.1:" + port + validate.endpoint());
    System.out.printf(Locale.ROOT, "%n| attack | alongside: requests | p50 (ms) | p99 (ms) | errors | refused attacker requests | server alive | RSS after (MiB) |%n");
    System.out.printf(Locale.ROOT, "|---|---|---|---|---|---|---|---|%n");

    // 1. Eight clients sending ~1 MB bodies of 125,000 small objects, in a loop.
    byte[] expanding = expandingReview(validate.body(), 125_000);
    AtomicLong refused = new AtomicLong();
    AtomicLong answeredOk = new AtomicLong();
    long end = System.nanoTime() + measure.toNanos();
    List<Thread> attackers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Thread t = new Thread(() -> {
        HttpClient client = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).sslContext(tls).version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/mutate")).timeout(REQUEST_TIMEOUT)
            .POST(HttpRequest.BodyPublishers.ofByteArray(expanding)).build();
        while (System.nanoTime() < end) {
          try {
            int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            (status == 200 ? answeredOk : refused).incrementAndGet();
          } catch (IOException e) {
            refused.incrementAndGet();
          } catch (InterruptedException e) {
            return;
          }
        }
      });
      t.start();
      attackers.add(t);
    }
    Result alongside = load(uri, validate.body(), 200, tls, 1, measure);
    for (Thread t : attackers) {
      t.join();
    }
    System.out.printf(Locale.ROOT, "| 8 × %d KB expanding bodies (%d sent) | %d | %.2f | %.2f | %d | %d | %s | %d |%n",
        expanding.length / 1024, refused.get() + answeredOk.get(), alongside.count(), alongside.percentile(0.5),
        alongside.percentile(0.99), alongside.errors(), refused.get(), server.isAlive(),
        ProcFiles.rssKiB(server.pid()) / 1024);

    // 2. A thousand connections: a third send a body a byte every 500 ms, a third a request head
    //    a byte every 500 ms (neither ever idle), a third only finish TLS. Then how long each kind
    //    stayed open, up to 40 s.
    String[] kinds = {"body a byte every 500 ms", "request head a byte every 500 ms", "idle after TLS"};
    List<javax.net.ssl.SSLSocket> slow = new ArrayList<>();
    long attackStart = System.nanoTime();
    long[] cutAfter = new long[1000];
    Thread trickler = null;
    try {
      for (int i = 0; i < 1000; i++) {
        javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout((int) REQUEST_TIMEOUT.toMillis());
        socket.startHandshake();
        String start = switch (i % 3) {
          case 0 -> "POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n{";
          case 1 -> "POST /validate HTTP/1.1\r\nHost: x\r\nX-Slow: ";
          default -> "";
        };
        socket.getOutputStream().write(start.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        slow.add(socket);
      }
      trickler = new Thread(() -> trickle(slow, cutAfter, attackStart), "trickler");
      trickler.setDaemon(true);
      trickler.start();
      Result withSlow = load(uri, validate.body(), 200, tls, 1, measure);
      System.out.printf(Locale.ROOT, "| 1,000 slow or idle connections | %d | %.2f | %.2f | %d | - | %s | %d |%n",
          withSlow.count(), withSlow.percentile(0.5), withSlow.percentile(0.99), withSlow.errors(),
          server.isAlive(), ProcFiles.rssKiB(server.pid()) / 1024);
      trickler.join(Math.max(0, Duration.ofSeconds(40).toMillis() - (System.nanoTime() - attackStart) / 1_000_000));
      for (int kind = 0; kind < 3; kind++) {
        int cut = 0;
        long last = 0;
        int total = 0;
        for (int i = kind; i < cutAfter.length; i += 3) {
          total++;
          if (cutAfter[i] > 0) {
            cut++;
            last = Math.max(last, cutAfter[i]);
          }
        }
        System.out.printf(Locale.ROOT, "slow connections, %s: %d of %d cut, the last after %.1f s%n",
            kinds[kind], cut, total, last / 1e9);
      }
    } finally {
      if (trickler != null) {
        trickler.interrupt();
      }
      for (javax.net.ssl.SSLSocket socket : slow) {
        socket.close();
      }
    }

    // 3. 64 new TLS connections at once, each sending one review.
    long[] took = new long[64];
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(64);
    AtomicLong stormErrors = new AtomicLong();
    for (int i = 0; i < 64; i++) {
      int id = i;
      new Thread(() -> {
        HttpClient client = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).sslContext(tls).version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT)
            .POST(HttpRequest.BodyPublishers.ofByteArray(validate.body())).build();
        try {
          go.await();
          long start = System.nanoTime();
          if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
            stormErrors.incrementAndGet();
          }
          took[id] = System.nanoTime() - start;
        } catch (Exception e) {
          stormErrors.incrementAndGet();
        } finally {
          finished.countDown();
        }
      }).start();
    }
    go.countDown();
    finished.await();
    long slowest = Arrays.stream(took).max().orElse(0);
    System.out.printf(Locale.ROOT, "%n64 new TLS connections at once: slowest answered in %d ms, %d errors%n",
        slowest / 1_000_000, stormErrors.get());
  }

  /** {@code review} with {@code count} small objects in spec.pd.config, a field the CRD preserves. */
  private static byte[] expandingReview(byte[] review, int count) throws IOException {
    ObjectNode root = (ObjectNode) JSON.readTree(review);
    ObjectNode config = JSON.createObjectNode();
    for (int i = 0; i < count; i++) {
      config.putObject("k" + i).put("a", 1);
    }
    ((ObjectNode) root.at("/request/object/spec/pd")).set("config", config);
    return JSON.writeValueAsBytes(root);
  }

  private static SSLContext trusting(CertificateAuthority ca) throws Exception {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(KeyStores.trusting(List.of(ca.certificate())));
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    return context;
  }
}
