package io.tidb.operator.controller.tidbcluster.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.controller.fixtures.TestCertificates;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterTransportsTest {

  private static final ServerNames NAMES = ServerNames.of("basic", "ns", null);

  private final TestCertificates certs = TestCertificates.newCa("test-ca");
  private final Map<String, Secret> secrets = new HashMap<>();
  private final ClusterTransports transports = new ClusterTransports(
      (ns, name) -> Optional.ofNullable(secrets.get(ns + "/" + name)), Duration.ofSeconds(1),
      Clock.systemUTC());

  private void put(Secret s) {
    secrets.put(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(), s);
  }

  @Test
  void clientsAreKeptWhileTheSecretIsUnchangedAndRebuiltWhenItChanges() {
    put(certs.secret("ns", "basic-cluster-client-secret", certs.peer(List.of("client"))));
    ClusterTransports.Transport first = transports.forCluster("ns", "basic", NAMES);
    assertSame(first, transports.forCluster("ns", "basic", NAMES));

    put(certs.secret("ns", "basic-cluster-client-secret", certs.peer(List.of("client"))));
    ClusterTransports.Transport rotated =
        transports.forCluster("ns", "basic", NAMES);
    assertNotSame(first, rotated);
    assertNotSame(first.pd(), rotated.pd());
    assertEquals(NAMES, rotated.names());
  }

  @Test
  void eachPumpPodHasItsOwnClientKeptUntilTheSecretChanges() {
    put(certs.secret("ns", "basic-cluster-client-secret", certs.peer(List.of("client"))));
    ClusterTransports.Transport first = transports.forCluster("ns", "basic", NAMES);
    io.tidb.operator.pd.ComponentHttp pump0 = first.pump("basic-pump-0");
    assertSame(pump0, first.pump("basic-pump-0"));
    assertNotSame(pump0, first.pump("basic-pump-1"));
    assertSame(pump0, transports.forCluster("ns", "basic", NAMES).pump("basic-pump-0"));

    put(certs.secret("ns", "basic-cluster-client-secret", certs.peer(List.of("client"))));
    assertNotSame(pump0, transports.forCluster("ns", "basic", NAMES).pump("basic-pump-0"));
  }

  @Test
  void otherServerNamesMakeNewClients() {
    put(certs.secret("ns", "basic-cluster-client-secret", certs.peer(List.of("client"))));
    ClusterTransports.Transport own = transports.forCluster("ns", "basic", NAMES);
    ClusterTransports.Transport referenced =
        transports.forCluster("ns", "basic", NAMES.withPd("other-pd.ns"));
    assertNotSame(own.pd(), referenced.pd());
    assertEquals("other-pd.ns", referenced.names().pd());
  }

  @Test
  void aMissingSecretNamesItselfAndWhatItMustHold() {
    ClusterTlsUnavailableException e = assertThrows(ClusterTlsUnavailableException.class,
        () -> transports.forCluster("ns", "basic", NAMES));
    assertEquals(List.of("spec.tlsCluster.enabled is true but the Secret "
        + "ns/basic-cluster-client-secret (ca.crt, tls.crt, tls.key) does not exist"), e.problems());
  }

  @Test
  void anUnusableSecretListsEveryProblem() {
    Secret s = certs.secret("ns", "basic-cluster-client-secret", certs.peer(List.of("client")));
    s.setData(Map.of("tls.crt", s.getData().get("tls.crt")));
    put(s);
    ClusterTlsUnavailableException e = assertThrows(ClusterTlsUnavailableException.class,
        () -> transports.forCluster("ns", "basic", NAMES));
    assertEquals(List.of("Secret basic-cluster-client-secret has no key ca.crt",
        "Secret basic-cluster-client-secret has no key tls.key"), e.problems());
  }
}
