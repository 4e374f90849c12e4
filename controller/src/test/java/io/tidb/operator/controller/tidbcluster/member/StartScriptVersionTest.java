package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion.Flag;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion.Version;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StartScriptVersionTest {

  private static StartScriptVersion of(String version, String... flags) {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setStartScriptVersion(version);
    tc.getSpec().setStartScriptV2FeatureFlags(Arrays.asList(flags));
    tc.getSpec().setPdAddresses(List.of("http://pd-a.example:2379", "https://[fd00::1]:3379", "https://pd-c"));
    return StartScriptVersion.of(tc);
  }

  @Test
  void theVersionAndTheFlagsOnlyV2Reads() {
    assertEquals(Version.DEFAULT, of(null).version());
    assertEquals(Version.DEFAULT, of("").version());
    assertEquals(Version.DEFAULT, of("v3").version(), "refused by validation; counts as unset");
    assertEquals(Version.V1, of("v1").version());
    assertEquals(Version.V2, of("v2").version());
    assertEquals(Set.of(), of("v1", "NoWaitDNS", "BashShebang").flags(), "v1 reads no flag");
    assertEquals(Set.of(), of("", "NoWaitDNS").flags());
    assertEquals(Set.of(Flag.NO_WAIT_DNS, Flag.BASH_SHEBANG), of("v2", "NoWaitDNS", "Fast", "BashShebang").flags());
    assertEquals("#!/bin/bash", of("v2", "BashShebang").shebang());
    assertEquals("#!/bin/sh", of("v2").shebang());
  }

  @Test
  void preferredPdAddressesAreTheirHostsWithTheComponentsPortOrAsWritten() {
    StartScriptVersion v = of("v2", "PreferPDAddressesOverDiscovery");
    assertEquals(Optional.of("http://pd-a.example:2380,http://[fd00::1]:2380,http://pd-c:2380"),
        v.preferredPd("http://", 2380));
    assertEquals(Optional.of("pd-a.example:2379,[fd00::1]:2379,pd-c:2379"), v.preferredPd("", 2379));
    assertEquals(Optional.of("http://pd-a.example:2379,https://[fd00::1]:3379,https://pd-c"),
        v.preferredPdAsWritten());
    assertEquals(Optional.empty(), of("v2").preferredPd("", 2379), "without the flag");
    assertEquals(Optional.empty(), of("v1", "PreferPDAddressesOverDiscovery").preferredPdAsWritten());
    TidbCluster none = TestClusters.load("basic");
    none.getSpec().setStartScriptVersion("v2");
    none.getSpec().setStartScriptV2FeatureFlags(List.of("PreferPDAddressesOverDiscovery"));
    assertEquals(Optional.empty(), StartScriptVersion.of(none).preferredPd("", 2379), "without pdAddresses");
  }
}
