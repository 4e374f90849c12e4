package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API server becomes unreachable from the operator for 30 s while clusters converge: the
 * operator's client goes through a {@link LoopbackTcpProxy} that is cut (connections closed, new
 * ones refused) and restored, while the control plane itself, the PD simulator and the test keep
 * running. The cut comes once the operator has created every StatefulSet and before the clusters
 * are Ready; during it the pods come up without the operator. Every cluster is Ready within 15 s
 * of the API server's return: the watches are re-opened and the failed reconciles retried
 * within seconds, not after a backoff grown during the outage.
 */
@WithLocalControlPlane
class ApiServerOutageIT {

  /** Small clusters (1 PD, 1 TiKV, 1 TiDB): ten basic ones take too long on 2 cores for an IT. */
  private static final List<String> CLUSTERS =
      IntStream.range(0, 4).mapToObj(i -> "outage-" + i).toList();

  private static final Duration OUTAGE = Duration.ofSeconds(30);
  private static final Duration RECOVERY = Duration.ofSeconds(15);

  private static ControllerHarness h;
  private static LoopbackTcpProxy proxy;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "api-outage", Duration.ofSeconds(30));
    proxy = h.restartOperatorBehindProxy();
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close(); // and the proxy
    }
  }

  @Test
  void everyClusterIsReadyWithin15SecondsOfTheApiServersReturn() throws InterruptedException {
    Set<String> statefulSets = CLUSTERS.stream()
        .flatMap(name -> Stream.of(name + "-pd", name + "-tikv", name + "-tidb"))
        .collect(Collectors.toSet());
    // The cut is made from a watch, within milliseconds of the last StatefulSet's creation: a
    // poll every 250 ms let the last cluster's TiDB pod come up and the cluster turn Ready before
    // it on a fast machine, and the outage then found nothing left to do.
    Set<String> created = ConcurrentHashMap.newKeySet();
    CountDownLatch cut = new CountDownLatch(1);
    long[] cutAt = new long[1];
    try (Watch watch = h.admin.apps().statefulSets().inNamespace(h.namespace).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, StatefulSet sts) {
        if (created.add(sts.getMetadata().getName()) && created.containsAll(statefulSets)
            && cut.getCount() > 0) {
          proxy.cut();
          cutAt[0] = System.nanoTime();
          cut.countDown();
        }
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    })) {
      CLUSTERS.forEach(name -> h.create(Fixtures.small(name, null)));
      assertTrue(cut.await(ControllerHarness.CONVERGE.toMillis(), TimeUnit.MILLISECONDS),
          "every StatefulSet created within " + ControllerHarness.CONVERGE + ", created " + created);
    }
    List<String> notReadyAtCut = CLUSTERS.stream().filter(name -> !Fixtures.ready(h.get(name))).toList();
    assertFalse(notReadyAtCut.isEmpty(), "the outage begins while clusters converge");
    Thread.sleep(OUTAGE.toMillis());
    // The pods come up without the operator (StatefulSet controller, scheduler, kwok): what is
    // measured after the return is the operator's part only.
    Await.until("every pod Running", ControllerHarness.CONVERGE, () -> h.admin.pods()
        .inNamespace(h.namespace).list().getItems().stream()
        .filter(pod -> !"Running".equals(pod.getStatus().getPhase()))
        .map(pod -> pod.getMetadata().getName()).toList(), List::isEmpty);
    proxy.restore();
    long restoredAt = System.nanoTime();

    Map<String, Double> readyAfter = new TreeMap<>();
    Await.until("every cluster Ready", ControllerHarness.CONVERGE, () -> {
      for (String name : CLUSTERS) {
        if (!readyAfter.containsKey(name) && Fixtures.ready(h.get(name))) {
          readyAfter.put(name, (System.nanoTime() - restoredAt) / 1e9);
        }
      }
      return readyAfter.size();
    }, ready -> ready == CLUSTERS.size());
    double recovered = Collections.max(readyAfter.values());

    System.out.printf(
        "ApiServerOutageIT: %d clusters (%s not Ready at the cut) Ready %.1f s after a %.1f s API"
            + " server outage ended (%s)%n",
        CLUSTERS.size(), notReadyAtCut, recovered, (restoredAt - cutAt[0]) / 1e9, readyAfter);
    assertTrue(recovered <= RECOVERY.toSeconds(),
        "every cluster Ready within " + RECOVERY.toSeconds() + " s of the API server's return,"
            + " took " + recovered + " s");
  }
}
