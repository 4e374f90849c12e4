package io.tidb.operator.controller.bench;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.pdsim.KubernetesPodSource;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.Kubeconfigs;
import io.tidb.operator.testsupport.LocalControlPlane;
import io.tidb.operator.testsupport.LoopbackPorts;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.ChartJvmOptions;
import io.tidb.operator.testsupport.ProcFiles;
import io.tidb.operator.testsupport.ProjectDirectory;
import io.tidb.operator.testsupport.TestNamespaces;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Prints the controller's figures on the local control plane with the PD simulator, per number of
 * clusters N: time from apply to Ready beside the floor (the same StatefulSets and Deployments
 * created directly, no operator), Kubernetes API requests by verb and resource while converging
 * and in a quiet window, the controller's CPU time, heap and RSS, and how long a restart with N
 * clusters takes to the first write for a new cluster. The controller runs as its own process
 * ({@code ControllerMain}) with the chart's JVM options and memory limit, so its figures are its
 * own. docs/benchmarks-controller.md has the command and the results.
 */
public final class ControllerBenchmark {

  /** What the image's entry point adds to the chart's options, apart from its CDS archive. */
  static final String IMAGE_ENTRYPOINT_OPTION = "-XX:-UsePerfData";

  /**
   * The JIT option this program should run with: C2 compiling the PD simulator and the
   * benchmark's clients took about 8 s of CPU from the controller and the control plane in an
   * N = 30 run on two cores.
   */
  static final String HARNESS_JIT_OPTION = "-XX:TieredStopAtLevel=1";

  /** The machine's cores, for how many of them were busy. */
  private static final int CORES = Runtime.getRuntime().availableProcessors();
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(30);
  private static final Duration GONE_TIMEOUT = Duration.ofMinutes(15);
  private static final Duration FIRST_WRITE_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration FAST_POLL = Duration.ofMillis(20);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** Kinds a cluster's first reconcile creates; the restart looks for the first one a new cluster owns. */
  private static final List<Class<? extends HasMetadata>> OWNED_KINDS = List.of(
      ServiceAccount.class, Role.class, RoleBinding.class, Deployment.class, Service.class,
      ConfigMap.class, Secret.class, StatefulSet.class);

  private record Options(
      List<Integer> sizes, String shape, int settleSeconds, List<String> jvmArgs, List<String> env,
      boolean skipFloor, int restarts, String classPath, boolean clientCertificate) {

    static Options parse(String[] args) throws IOException {
      String shape = "basic";
      int settleSeconds = 65;
      List<String> jvmArgs = null;
      boolean skipFloor = false;
      boolean clientCertificate = false;
      int restarts = 1;
      String classPath = controllerClassPath(System.getProperty("java.class.path"));
      List<Integer> sizes = new ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--shape" -> shape = args[++i];
          case "--settle-seconds" -> settleSeconds = Integer.parseInt(args[++i]);
          case "--jvm-args" -> jvmArgs = ChartJvmOptions.split(args[++i]);
          case "--skip-floor" -> skipFloor = true;
          case "--skip-restart" -> restarts = 0;
          case "--client-certificate" -> clientCertificate = true;
          case "--restarts" -> restarts = Integer.parseInt(args[++i]);
          case "--controller-lib" -> classPath = Path.of(args[++i]).toAbsolutePath() + File.separator + "*";
          default -> {
            if (args[i].startsWith("--")) {
              throw new IllegalArgumentException("Unsupported option: \"" + args[i]
                  + "\": --shape, --settle-seconds, --jvm-args, --skip-floor, --skip-restart, --controller-lib,"
                  + " --client-certificate, --restarts"
                  + " or a number of clusters");
            }
            sizes.add(Integer.parseInt(args[i]));
          }
        }
      }
      if (!List.of("basic", "small").contains(shape)) {
        throw new IllegalArgumentException("--shape: Unsupported value: \"" + shape + "\": basic or small");
      }
      ChartJvmOptions chart = ChartJvmOptions.ofProjectChart("controller");
      if (jvmArgs == null) {
        // The chart's options, and -XX:-UsePerfData as the image's entry point adds (the JVM's
        // perf-data sampling cost about 6 % of a settled reconcile's CPU in the quiet window).
        jvmArgs = new ArrayList<>(chart.jvmArgs());
        jvmArgs.add(IMAGE_ENTRYPOINT_OPTION);
      }
      // The chart's container environment (MALLOC_ARENA_MAX) whatever the JVM options.
      return new Options(sizes.isEmpty() ? List.of(1, 30, 100) : sizes, shape, settleSeconds,
          jvmArgs, chart.env(), skipFloor, restarts, classPath, clientCertificate);
    }

    /** The controller's environment: the chart's, then how it reaches the API server. */
    Map<String, String> environment(ControllerAccess access) {
      Map<String, String> environment = ChartJvmOptions.environment(env);
      environment.putAll(access.environment());
      return environment;
    }
  }

  /** The controller process and when it was executed. */
  private record Controller(Process process, long execNanos, Path log) {
    long pid() {
      return process.pid();
    }
  }

  private record Converging(
      double firstReadySeconds, double medianReadySeconds, double allReadySeconds,
      RequestCounts requests, double reconciles, double cpuSeconds, double cpuAtReadySeconds,
      PrometheusText metricsAtReady, ThreadCpu threadsAtReady, int simCallsAtReady,
      int simCalls, Map<String, Double> cpuByThread, MachineCpu.Use machine) {}

  private record Quiet(
      RequestCounts requests, double reconciles, double cpuSeconds, double heapMiB, double rssMiB,
      double peakRssMiB, Map<String, Double> cpuByThread, Map<String, Long> simCalls) {}

  private record Restart(
      double readyzMillis, double cpuAtReadyzMillis, double firstObjectMillis, String firstObject) {}

  private record Run(
      int clusters, double startReadyzMillis, Converging converging, Quiet quiet, List<Restart> restarts,
      Floor floor) {}

  /** The control plane's own time for the same objects, and who used the machine's CPU meanwhile. */
  private record Floor(double seconds, MachineCpu.Use machine) {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    System.out.printf("load average before: %s", Files.readString(Path.of("/proc/loadavg")));
    System.out.println("controller JVM args: " + String.join(" ", options.jvmArgs()));
    System.out.println("controller environment (the chart's): " + String.join(" ", options.env()));
    ClusterAccess access = LocalControlPlane.shared();
    System.out.println("kube-controller-manager's client limit: " + controllerManagerClientLimit());
    List<String> ownArgs = ManagementFactory.getRuntimeMXBean().getInputArguments();
    System.out.println("this program's JVM options: " + String.join(" ", ownArgs));
    if (!ownArgs.contains(HARNESS_JIT_OPTION)) {
      System.out.println("note: this program runs with C2; its compilations (about 8 s of CPU in an N = 30 run)"
          + " take the cores from the controller and the control plane: run it with " + HARNESS_JIT_OPTION);
    }
    ControllerAccess controllerAccess = null;
    List<Run> runs = new ArrayList<>();
    try (KubernetesClient admin = access.newClient();
        KubernetesClient simClient = access.newClient()) {
      ProjectCrds.apply(admin);
      controllerAccess = options.clientCertificate()
          ? ControllerAccess.kubeconfig(Kubeconfigs.write("bench-admin-", access.kubeConfigYaml()))
          : serviceAccountAccess(admin, access.kubeConfigYaml());
      System.out.println("controller authenticates with: " + (options.clientCertificate()
          ? "the admin's client certificate, in a kubeconfig"
          : "a ServiceAccount token and the cluster's CA in files, as in its pod (no kubeconfig)"));
      SimulatedClusters clusters = new SimulatedClusters();
      try (PdSimulatorServer sim = PdSimulatorServer.start(clusters)) {
        sim.stepEvery(Duration.ofMillis(500));
        for (int n : options.sizes()) {
          Run run = run(admin, controllerAccess, new Simulator(simClient, clusters, sim), n, options);
          runs.add(run);
          print(run, options);
        }
      }
    } finally {
      if (controllerAccess != null) {
        for (Path file : controllerAccess.files()) {
          Files.deleteIfExists(file);
        }
      }
    }
    System.out.printf("%nload average after: %s", Files.readString(Path.of("/proc/loadavg")));
    System.out.println("controller JVM args: " + String.join(" ", options.jvmArgs()));
    System.out.println("controller environment (the chart's): " + String.join(" ", options.env()));
    if (options.classPath().endsWith("*")) {
      System.out.println("controller class path: " + options.classPath());
    }
    System.out.println();
    System.out.println("| clusters | Ready first / median / all (s) | floor all Ready (s) | requests per converged cluster (reads / writes) | writes per cluster per quiet minute | CPU converging (s, per cluster) | CPU per settled reconcile (ms) | heap used (MiB) | RSS after quiet / peak (MiB) | restart: exec to /readyz, to first write (ms) |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (Run r : runs) {
      Converging c = r.converging();
      Quiet q = r.quiet();
      System.out.printf(Locale.ROOT,
          "| %d | %.1f / %.1f / %.1f | %s | %.1f / %.1f | %.2f | %.1f (%.2f) | %s | %.0f | %.0f / %.0f | %s |%n",
          r.clusters(), c.firstReadySeconds(), c.medianReadySeconds(), c.allReadySeconds(),
          r.floor() == null ? "not run" : String.format(Locale.ROOT, "%.1f", r.floor().seconds()),
          c.requests().reads() / r.clusters(), c.requests().writes() / r.clusters(),
          perClusterMinute(q.requests().writes(), r.clusters(), options.settleSeconds()),
          c.cpuSeconds(), c.cpuSeconds() / r.clusters(),
          q.reconciles() == 0 ? "no reconcile"
              : String.format(Locale.ROOT, "%.1f", q.cpuSeconds() * 1000 / q.reconciles()),
          q.heapMiB(), q.rssMiB(), q.peakRssMiB(),
          r.restarts().isEmpty() ? "not run" : r.restarts().stream()
              .map(x -> String.format(Locale.ROOT, "%.0f, %.0f", x.readyzMillis(), x.firstObjectMillis()))
              .collect(Collectors.joining("; ")));
    }
    System.exit(0);
  }

  /** The PD simulator, and what it needs to follow a run's pods. */
  private record Simulator(KubernetesClient client, SimulatedClusters clusters, PdSimulatorServer server) {}

  private static Run run(
      KubernetesClient admin, ControllerAccess controllerAccess, Simulator simulator, int n, Options options)
      throws Exception {
    System.out.printf("%n== %d clusters (load average %s)%n", n, Files.readString(Path.of("/proc/loadavg")).strip());
    String ns = TestNamespaces.createUnique(admin, "bench-" + n);
    PdSimulatorServer sim = simulator.server();
    int port = LoopbackPorts.free();
    List<String> flags = controllerFlags(controllerAccess, sim, ns, port);
    Map<String, String> environment = options.environment(controllerAccess);
    double startReadyz;
    Converging converging;
    Quiet quiet;
    List<StatefulSet> statefulSets;
    List<Deployment> deployments;
    List<Restart> restarts = new ArrayList<>();
    // The simulator follows this run's namespace only: the floor's copies carry the same labels,
    // and simulating them as clusters would take CPU from the control plane the floor measures.
    try (KubernetesPodSource pods = KubernetesPodSource.start(simulator.client(), ns, simulator.clusters())) {
      Controller controller = start(options.jvmArgs(), options.classPath(), flags, environment);
      try {
        startReadyz = millisSince(controller.execNanos(), awaitReadyz(port, controller));
        converging = converge(admin, controller, sim, port, ns, n, options.shape());
        Thread.sleep(options.settleSeconds() * 1000L);
        quiet = quiet(controller, sim, port, converging);
        Map<String, Long> policies = reclaimPolicies(admin, ns);
        System.out.println("- reclaim policy of the clusters' volumes after the quiet window (the"
            + " sample asks for Retain): " + policies);
        long unprotected = volumesWithout(policies, "Retain");
        if (unprotected > 0) {
          System.out.println("- WARNING: " + unprotected + " volumes of the clusters are not Retain"
              + " at the end: the operator left them unprotected");
        }
        if (options.jvmArgs().stream().anyMatch(a -> a.startsWith("-XX:NativeMemoryTracking="))) {
          printNativeMemory(controller);
        }
        statefulSets = admin.apps().statefulSets().inNamespace(ns).list().getItems();
        deployments = admin.apps().deployments().inNamespace(ns).list().getItems();
        stop(controller);
        for (int i = 0; i < options.restarts(); i++) {
          restarts.add(restart(admin, ns, "bench-new-" + i, port, options.jvmArgs(), options.classPath(),
              flags, environment, options.shape()));
        }
      } finally {
        stop(controller);
        deleteAndAwaitGone(admin, ns);
      }
    }
    Floor floor = options.skipFloor() ? null : floor(admin, statefulSets, deployments, n);
    return new Run(n, startReadyz, converging, quiet, restarts, floor);
  }

  /** Creates N clusters at once and waits until each shows Ready=True. */
  private static Converging converge(
      KubernetesClient admin, Controller controller, PdSimulatorServer sim, int port, String ns,
      int n, String shape) throws Exception {
    PrometheusText before = scrape(port);
    double cpuAtApply = ProcFiles.cpuSeconds(controller.pid());
    ThreadCpu threadsAtApply = ThreadCpu.of(controller.pid());
    int simCallsAtApply = sim.calls().size();
    MachineCpu machineAtApply = MachineCpu.of(processes(controller));
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      TidbCluster tc = cluster("bench-" + i, shape);
      tc.getMetadata().setNamespace(ns);
      admin.resource(tc).create();
    }
    Map<String, Double> readyAt = new HashMap<>();
    long deadline = start + READY_TIMEOUT.toNanos();
    try (SharedIndexInformer<TidbCluster> tcs = admin.resources(TidbCluster.class).inNamespace(ns).inform()) {
      while (readyAt.size() < n) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "only " + readyAt.size() + " of " + n + " clusters Ready after " + READY_TIMEOUT);
        }
        requireAlive(controller);
        double now = (System.nanoTime() - start) / 1e9;
        for (TidbCluster tc : tcs.getStore().list()) {
          if (isReady(tc)) {
            readyAt.putIfAbsent(tc.getMetadata().getName(), now);
          }
        }
        Thread.sleep(100);
      }
    }
    MachineCpu machineAtReady = MachineCpu.of(processes(controller));
    double cpuAtReady = ProcFiles.cpuSeconds(controller.pid());
    ThreadCpu threadsAtReady = ThreadCpu.of(controller.pid());
    int simCallsAtReady = sim.calls().size();
    PrometheusText atReady = scrape(port);
    double[] times = readyAt.values().stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return new Converging(
        times[0], times[times.length / 2], times[times.length - 1],
        RequestCounts.of(atReady).since(RequestCounts.of(before)),
        reconciles(atReady) - reconciles(before),
        cpuAtReady - cpuAtApply,
        cpuAtReady,
        atReady,
        threadsAtReady,
        simCallsAtReady,
        simCallsAtReady - simCallsAtApply,
        threadsAtReady.since(threadsAtApply),
        machineAtReady.since(machineAtApply));
  }

  /**
   * The processes whose CPU the runs report: the control plane's components (from its script's pid
   * files), the controller when there is one, and this program (the PD simulator, its informers and
   * the benchmark's own clients).
   */
  private static Map<String, Long> processes(Controller controller) {
    Map<String, Long> processes = new LinkedHashMap<>(LocalControlPlane.processIds());
    if (controller != null) {
      processes.put("controller", controller.pid());
    }
    processes.put("this program (PD simulator, informers)", ProcessHandle.current().pid());
    return processes;
  }

  /**
   * kube-controller-manager's client rate limit as started ({@code --kube-api-qps} and {@code
   * --kube-api-burst}; Kubernetes' defaults are 20 and 30). Its StatefulSet controller creates
   * every pod and claim, so this limit sets the floor.
   */
  private static String controllerManagerClientLimit() {
    Map<String, String> flags = LocalControlPlane.commandLineFlags("kube-controller-manager");
    return flags.containsKey("--kube-api-qps")
        ? flags.get("--kube-api-qps") + " requests a second, burst " + flags.getOrDefault("--kube-api-burst", "30")
        : "Kubernetes' default (20 requests a second, burst 30)";
  }

  /**
   * The JVM's committed memory by category ({@code jcmd VM.native_memory summary}), for runs with
   * {@code -XX:NativeMemoryTracking=summary} among the JVM options.
   */
  static void printNativeMemory(Controller controller) throws IOException, InterruptedException {
    Process jcmd = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(controller.pid()), "VM.native_memory", "summary", "scale=MB")
        .redirectErrorStream(true).start();
    String out = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    jcmd.waitFor();
    System.out.println("- native memory (committed, MB): " + out.lines()
        .filter(l -> l.contains("committed=") && (l.startsWith("Total") || l.startsWith("-")))
        .map(l -> l.replaceAll("^-\\s*", "").replaceAll("\\(?reserved=\\d+MB, committed=(\\d+)MB\\)?.*", "$1"))
        .collect(Collectors.joining(", ")));
  }

  /** How many of the volumes bound to claims in {@code ns} have each reclaim policy. */
  static Map<String, Long> reclaimPolicies(KubernetesClient admin, String ns) {
    return admin.persistentVolumes().list().getItems().stream()
        .filter(pv -> pv.getSpec().getClaimRef() != null
            && ns.equals(pv.getSpec().getClaimRef().getNamespace()))
        .collect(Collectors.groupingBy(
            pv -> String.valueOf(pv.getSpec().getPersistentVolumeReclaimPolicy()),
            java.util.TreeMap::new, Collectors.counting()));
  }

  /** How many of the volumes counted by policy in {@code policies} have another than {@code asked}. */
  static long volumesWithout(Map<String, Long> policies, String asked) {
    return policies.entrySet().stream()
        .filter(e -> !asked.equals(e.getKey()))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /** The quiet window's requests, reconciles and CPU, and the memory at its end. */
  private static Quiet quiet(
      Controller controller, PdSimulatorServer sim, int port, Converging converging) throws Exception {
    requireAlive(controller);
    PrometheusText atReady = converging.metricsAtReady();
    PrometheusText settled = scrape(port);
    // One snapshot: the simulator goes on answering, so a second calls() may be longer than the first.
    List<io.tidb.operator.pdsim.RecordedCall> calls = sim.calls();
    return new Quiet(
        RequestCounts.of(settled).since(RequestCounts.of(atReady)),
        reconciles(settled) - reconciles(atReady),
        ProcFiles.cpuSeconds(controller.pid()) - converging.cpuAtReadySeconds(),
        settled.sum("jvm_memory_used_bytes", Map.of("area", "heap")) / (1024 * 1024),
        ProcFiles.statusMiB(controller.pid(), "VmRSS"),
        ProcFiles.statusMiB(controller.pid(), "VmHWM"),
        ThreadCpu.of(controller.pid()).since(converging.threadsAtReady()),
        callsByRequest(calls.subList(converging.simCallsAtReady(), calls.size())));
  }

  /** PD and TiDB calls by component and path (ids and names made {@code *}), most frequent first. */
  static Map<String, Long> callsByRequest(List<io.tidb.operator.pdsim.RecordedCall> calls) {
    Map<String, Long> counts = calls.stream().collect(Collectors.groupingBy(
        c -> c.component() + " " + c.method() + " " + c.path().replaceAll("/[0-9]+(/|$)", "/*$1"),
        Collectors.counting()));
    Map<String, Long> sorted = new LinkedHashMap<>();
    counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  /**
   * Stops the controller, creates one more cluster, starts the controller again with the same
   * flags and times, from the exec, its /readyz 200 and the first object the new cluster owns.
   */
  private static Restart restart(
      KubernetesClient admin, String ns, String name, int port, List<String> jvmArgs,
      String classPath, List<String> flags, Map<String, String> environment, String shape)
      throws Exception {
    TidbCluster tc = cluster(name, shape);
    tc.getMetadata().setNamespace(ns);
    String uid = admin.resource(tc).create().getMetadata().getUid();
    CompletableFuture<Seen> first = new CompletableFuture<>();
    List<Watch> watches = new ArrayList<>();
    try {
      for (Class<? extends HasMetadata> kind : OWNED_KINDS) {
        watches.add(watchOwned(admin, ns, kind, uid, first));
      }
      Controller controller = start(jvmArgs, classPath, flags, environment);
      try {
        long readyz = awaitReadyz(port, controller);
        double cpuAtReadyz = ProcFiles.cpuSeconds(controller.pid()) * 1000;
        Seen seen = first.get(FIRST_WRITE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        return new Restart(millisSince(controller.execNanos(), readyz), cpuAtReadyz,
            millisSince(controller.execNanos(), seen.nanos()), seen.object());
      } finally {
        stop(controller);
      }
    } finally {
      watches.forEach(Watch::close);
    }
  }

  private record Seen(String object, long nanos) {}

  private static <T extends HasMetadata> Watch watchOwned(
      KubernetesClient admin, String ns, Class<T> kind, String ownerUid, CompletableFuture<Seen> first) {
    String resourceVersion = admin.resources(kind).inNamespace(ns)
        .list(new ListOptionsBuilder().withLimit(1L).build()).getMetadata().getResourceVersion();
    return admin.resources(kind).inNamespace(ns).watch(
        new ListOptionsBuilder().withResourceVersion(resourceVersion).build(),
        new Watcher<T>() {
          @Override
          public void eventReceived(Action action, T object) {
            long now = System.nanoTime();
            if (object.getMetadata().getOwnerReferences().stream()
                .anyMatch(o -> ownerUid.equals(o.getUid()))) {
              first.complete(new Seen(kind.getSimpleName() + " " + object.getMetadata().getName(), now));
            }
          }

          @Override
          public void onClose(WatcherException cause) {
            first.completeExceptionally(cause);
          }
        });
  }

  /**
   * The control plane's own time for the operator's StatefulSets and Deployments: created at once in
   * a fresh namespace with no operator, until every one has all replicas ready.
   */
  private static Floor floor(
      KubernetesClient admin, List<StatefulSet> statefulSets, List<Deployment> deployments, int n)
      throws Exception {
    String ns = TestNamespaces.createUnique(admin, "floor-" + n);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (SharedIndexInformer<StatefulSet> sts = admin.apps().statefulSets().inNamespace(ns).inform();
        SharedIndexInformer<Deployment> deps = admin.apps().deployments().inNamespace(ns).inform()) {
      awaitDefaultServiceAccount(admin, ns);
      List<HasMetadata> copies = new ArrayList<>();
      statefulSets.forEach(s -> copies.add(FloorObjects.copy(s, ns)));
      deployments.forEach(d -> copies.add(FloorObjects.copy(d, ns)));
      MachineCpu cpuAtStart = MachineCpu.of(processes(null));
      long start = System.nanoTime();
      List<Future<?>> creates = new ArrayList<>();
      for (HasMetadata copy : copies) {
        creates.add(pool.submit(() -> admin.resource(copy).create()));
      }
      for (Future<?> create : creates) {
        create.get();
      }
      System.out.printf(Locale.ROOT, "floor: %d StatefulSets and %d Deployments created in %.1f s%n",
          statefulSets.size(), deployments.size(), (System.nanoTime() - start) / 1e9);
      long deadline = start + READY_TIMEOUT.toNanos();
      while (sts.getStore().list().size() < statefulSets.size()
          || deps.getStore().list().size() < deployments.size()
          || !sts.getStore().list().stream().allMatch(FloorObjects::ready)
          || !deps.getStore().list().stream().allMatch(FloorObjects::ready)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the floor's objects were not all ready after " + READY_TIMEOUT);
        }
        Thread.sleep(100);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      return new Floor(seconds, MachineCpu.of(processes(null)).since(cpuAtStart));
    } finally {
      pool.shutdownNow();
      deleteAndAwaitGone(admin, ns);
    }
  }

  /** Pods of a namespace whose default ServiceAccount does not exist yet are refused, so wait for it. */
  private static void awaitDefaultServiceAccount(KubernetesClient admin, String ns) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (admin.serviceAccounts().inNamespace(ns).withName("default").get() == null) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("namespace " + ns + " has no default ServiceAccount after 1 minute");
      }
      Thread.sleep(100);
    }
  }

  private static void deleteAndAwaitGone(KubernetesClient admin, String ns) throws InterruptedException {
    if (admin.namespaces().withName(ns).get() == null) {
      return;
    }
    long start = System.nanoTime();
    admin.namespaces().withName(ns).delete();
    while (admin.namespaces().withName(ns).get() != null) {
      if (System.nanoTime() - start > GONE_TIMEOUT.toNanos()) {
        throw new IllegalStateException("namespace " + ns + " still exists " + GONE_TIMEOUT + " after its deletion");
      }
      Thread.sleep(500);
    }
    System.out.printf(Locale.ROOT, "namespace %s deleted in %.1f s%n", ns, (System.nanoTime() - start) / 1e9);
    deleteVolumesOf(admin, ns);
  }

  /**
   * Deletes the volumes whose claims were in {@code ns}. The sample asks for {@code Retain}, so
   * they outlive their namespace as {@code Released}; left behind, thousands of them pile up on the
   * shared control plane over many runs and slow the runs after.
   */
  private static void deleteVolumesOf(KubernetesClient admin, String ns) {
    List<PersistentVolume> left = admin.persistentVolumes().list().getItems().stream()
        .filter(pv -> pv.getSpec().getClaimRef() != null
            && ns.equals(pv.getSpec().getClaimRef().getNamespace()))
        .toList();
    left.forEach(pv -> admin.persistentVolumes().withName(pv.getMetadata().getName()).delete());
    System.out.printf(Locale.ROOT, "volumes of %s deleted: %d%n", ns, left.size());
  }

  private static TidbCluster cluster(String name, String shape) throws IOException {
    String yaml =
        Files.readString(ProjectDirectory.root().resolve("examples/basic-tidb-cluster.yaml"));
    TidbCluster tc = ApiObjects.parse(yaml, TidbCluster.class);
    tc.getMetadata().setName(name);
    if ("small".equals(shape)) {
      tc.getSpec().getPd().setReplicas(1);
      tc.getSpec().getTikv().setReplicas(1);
      tc.getSpec().getTidb().setReplicas(1);
    }
    return tc;
  }

  /**
   * A bound token for the ServiceAccount {@value #BENCH_ACCOUNT} in {@code default}, bound to
   * {@code cluster-admin}, given to the controller as in its pod: the token and the cluster's CA
   * certificate in files, the API server's address in {@code KUBERNETES_SERVICE_HOST} and {@code
   * _PORT}, no kubeconfig (fabric8 reads the token file's path from {@code
   * KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN} and the CA's from {@code KUBERNETES_CERTS_CA_FILE}, since
   * the pod's fixed paths under {@code /var/run/secrets} do not exist here). Not the admin's client
   * certificate, whose key store fabric8 builds at start (PBKDF2) and whose private key signs every
   * TLS handshake; and since 2026-12-06 not a kubeconfig either, whose YAML fabric8 reads through a
   * mapper of its own at start (about 0.1 s of CPU the pod does not spend). The token is valid
   * for two hours, longer than a run of N = 100.
   */
  private static ControllerAccess serviceAccountAccess(KubernetesClient admin, String adminKubeconfigYaml)
      throws IOException {
    admin.serviceAccounts().inNamespace("default").resource(new ServiceAccountBuilder()
        .withNewMetadata().withName(BENCH_ACCOUNT).withNamespace("default").endMetadata().build())
        .forceConflicts().serverSideApply();
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder()
        .withNewMetadata().withName(BENCH_ACCOUNT).endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "cluster-admin")
        .addNewSubject().withKind("ServiceAccount").withName(BENCH_ACCOUNT).withNamespace("default").endSubject()
        .build())
        .forceConflicts().serverSideApply();
    Config cluster = Config.fromKubeconfig(adminKubeconfigYaml);
    Path token = Files.createTempFile("bench-token-", "");
    Files.writeString(token, Kubeconfigs.serviceAccountToken(admin, "default", BENCH_ACCOUNT));
    Path ca = Files.createTempFile("bench-ca-", ".crt");
    Files.write(ca, Base64.getDecoder().decode(cluster.getCaCertData()));
    URI server = URI.create(cluster.getMasterUrl());
    return new ControllerAccess(List.of(), Map.of(
        "KUBERNETES_SERVICE_HOST", server.getHost(),
        "KUBERNETES_SERVICE_PORT", Integer.toString(server.getPort()),
        "KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN", token.toString(),
        "KUBERNETES_CERTS_CA_FILE", ca.toString(),
        "KUBERNETES_AUTH_TRYKUBECONFIG", "false"), List.of(token, ca));
  }

  /**
   * How the controller reaches the API server: its flags, its environment (replacing {@code
   * KUBECONFIG} when not empty) and the files to delete afterwards.
   */
  record ControllerAccess(List<String> flags, Map<String, String> environment, List<Path> files) {

    static ControllerAccess kubeconfig(Path file) {
      return new ControllerAccess(List.of("--kubeconfig=" + file), Map.of(), List.of(file));
    }
  }

  static final String BENCH_ACCOUNT = "tidb-operator-bench";

  private static boolean isReady(TidbCluster tc) {
    return tc.getStatus() != null
        && tc.getStatus().getConditions() != null
        && tc.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static List<String> controllerFlags(
      ControllerAccess controllerAccess, PdSimulatorServer sim, String ns, int port) {
    return Stream.concat(controllerAccess.flags().stream(), Stream.of(
        "--watch-namespaces=" + ns,
        "--bind=127.0.0.1",
        "--port=" + port,
        "--pd-url-template=" + sim.pdUrlTemplate(),
        "--tidb-status-url-template=" + sim.tidbStatusUrlTemplate(),
        "--log-level=" + System.getProperty("bench.controllerLogLevel", "warn"))).toList();
  }

  private static Controller start(
      List<String> jvmArgs, String classPath, List<String> flags, Map<String, String> environment)
      throws IOException {
    Path log = Files.createTempFile("bench-controller-", ".log");
    System.out.println("controller log: " + log);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmArgs);
    command.addAll(List.of("-cp", classPath,
        "io.tidb.operator.controller.ControllerMain"));
    command.addAll(flags);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    if (!environment.isEmpty()) {
      builder.environment().remove("KUBECONFIG");
      builder.environment().putAll(environment);
    }
    long exec = System.nanoTime();
    Process process = builder.start();
    return new Controller(process, exec, log);
  }

  /**
   * The benchmark's class path without logback, which only tests bring (through s3proxy): the
   * packaged controller has slf4j-simple as its only SLF4J provider, and so does the benchmarked one.
   */
  static String controllerClassPath(String benchmarkClassPath) {
    return Arrays.stream(benchmarkClassPath.split(File.pathSeparator))
        .filter(entry -> !entry.contains("/ch/qos/logback/"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static void stop(Controller controller) throws InterruptedException {
    if (!controller.process().isAlive()) {
      return;
    }
    controller.process().destroy();
    if (!controller.process().waitFor(1, TimeUnit.MINUTES)) {
      controller.process().destroyForcibly().waitFor();
    }
  }

  private static void requireAlive(Controller controller) {
    if (!controller.process().isAlive()) {
      throw new IllegalStateException("the controller exited with " + controller.process().exitValue()
          + "; its log: " + controller.log());
    }
  }

  /** Polls /readyz every 20 ms; returns the {@link System#nanoTime()} of the first 200. */
  private static long awaitReadyz(int port, Controller controller) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline) {
      requireAlive(controller);
      try {
        if (get(port, "/readyz").statusCode() == 200) {
          return System.nanoTime();
        }
      } catch (IOException notYet) {
        // still starting
      }
      Thread.sleep(FAST_POLL.toMillis());
    }
    throw new IllegalStateException("the controller did not answer /readyz 200 within 2 minutes; its log: "
        + controller.log());
  }

  private static double millisSince(long startNanos, long endNanos) {
    return (endNanos - startNanos) / 1e6;
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static PrometheusText scrape(int port) throws Exception {
    return PrometheusText.parse(get(port, "/metrics").body());
  }

  private static double reconciles(PrometheusText metrics) {
    return metrics.sum("tidb_operator_reconciles_total");
  }

  private static double perClusterMinute(double count, int clusters, int seconds) {
    return count / clusters / (seconds / 60.0);
  }

  private static void print(Run r, Options options) {
    Converging c = r.converging();
    Quiet q = r.quiet();
    int n = r.clusters();
    System.out.printf(Locale.ROOT, "%n### %d clusters (shape %s)%n%n", n, options.shape());
    System.out.printf(Locale.ROOT, "- exec to /readyz 200 (no cluster yet): %.0f ms%n", r.startReadyzMillis());
    System.out.printf(Locale.ROOT, "- Ready: first %.1f s, median %.1f s, all %.1f s; floor (same StatefulSets and Deployments, no operator): %s%n",
        c.firstReadySeconds(), c.medianReadySeconds(), c.allReadySeconds(),
        r.floor() == null ? "not run" : String.format(Locale.ROOT, "%.1f s", r.floor().seconds()));
    System.out.printf(Locale.ROOT, "- the machine while converging: %s%n", c.machine().describe(CORES));
    System.out.printf(Locale.ROOT, "- the controller's CPU per second of the API server's while converging: %.3f"
        + " (the machine's speed moves both alike)%n", c.machine().ratio("controller", "kube-apiserver"));
    if (r.floor() != null) {
      System.out.printf(Locale.ROOT, "- the machine during the floor: %s%n", r.floor().machine().describe(CORES));
    }
    System.out.printf(Locale.ROOT, "- reconciles: %.0f converging, %.0f in the quiet %d s%n",
        c.reconciles(), q.reconciles(), options.settleSeconds());
    System.out.printf(Locale.ROOT, "- requests per converged cluster: %.1f (%.1f reads, %.1f writes); writes per cluster per quiet minute: %.2f%n",
        c.requests().total() / n, c.requests().reads() / n, c.requests().writes() / n,
        perClusterMinute(q.requests().writes(), n, options.settleSeconds()));
    System.out.printf(Locale.ROOT, "- CPU: converging %.2f s (%.3f s per cluster); quiet %.2f s (%s per settled reconcile)%n",
        c.cpuSeconds(), c.cpuSeconds() / n, q.cpuSeconds(),
        q.reconciles() == 0 ? "no reconcile" : String.format(Locale.ROOT, "%.1f ms", q.cpuSeconds() * 1000 / q.reconciles()));
    System.out.printf(Locale.ROOT, "- converging: %d PD and TiDB calls; CPU by thread: %s%n",
        c.simCalls(),
        c.cpuByThread().entrySet().stream().limit(10)
            .map(e -> String.format(Locale.ROOT, "%s %.2f s", e.getKey(), e.getValue()))
            .collect(Collectors.joining(", ")));
    System.out.printf(Locale.ROOT, "- memory after the quiet window: heap used %.0f MiB, RSS %.0f MiB (peak %.0f MiB%s)%n",
        q.heapMiB(), q.rssMiB(), q.peakRssMiB(), ChartJvmOptions.maxRamMiB(options.jvmArgs()).stream()
            .mapToObj(limit -> String.format(Locale.ROOT, " of the %.0f MiB limit%s", limit,
                q.peakRssMiB() > limit ? ": above it, a container with that limit would have been OOM-killed" : ""))
            .findFirst().orElse(""));
    long calls = q.simCalls().values().stream().mapToLong(Long::longValue).sum();
    System.out.printf(Locale.ROOT, "- quiet window: %d PD and TiDB calls (%.1f per settled reconcile: %s); CPU by thread: %s%n",
        calls, q.reconciles() == 0 ? 0.0 : calls / q.reconciles(),
        q.simCalls().entrySet().stream()
            .map(e -> String.format(Locale.ROOT, "%s %.1f", e.getKey(), e.getValue() / Math.max(q.reconciles(), 1)))
            .collect(Collectors.joining(", ")),
        q.cpuByThread().entrySet().stream().limit(8)
            .map(e -> String.format(Locale.ROOT, "%s %.2f s", e.getKey(), e.getValue()))
            .collect(Collectors.joining(", ")));
    System.out.println("- Events converging, by reason: " + c.metricsAtReady().sumBy("tidb_operator_events_total", "reason")
        .entrySet().stream()
        .map(e -> String.format(Locale.ROOT, "%s %.0f", e.getKey(), e.getValue()))
        .collect(Collectors.joining(", ")));
    for (Restart restart : r.restarts()) {
      System.out.printf(Locale.ROOT, "- restart with the clusters above and one new: exec to /readyz 200 %.0f ms (CPU until then %.0f ms), to the new cluster's first object (%s) %.0f ms%n",
          restart.readyzMillis(), restart.cpuAtReadyzMillis(), restart.firstObject(),
          restart.firstObjectMillis());
    }
    System.out.println();
    RequestCounts.table(c.requests(), q.requests()).forEach(System.out::println);
  }
}
