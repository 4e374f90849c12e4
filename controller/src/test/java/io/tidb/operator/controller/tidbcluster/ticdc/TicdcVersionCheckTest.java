package io.tidb.operator.controller.tidbcluster.ticdc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Upstream's cases for the version check before a TiCDC capture's graceful shutdown. */
class TicdcVersionCheckTest {

  @ParameterizedTest(name = "{0} -> {1}: graceful {2}")
  @CsvSource({
      "6.3.0, v6.4.0, true",
      "7.0.0, v7.4.0, true",
      "6.3.0, v8.0.0, false",
      "6.3.0, v7.9.9, true",
      "7.5.1, v8.5.0, true",
      "6.2.0, v6.2.0, true",
      "v6.2.0, 6.2, true",
      "7.0.0, latest, true",
      "malformed, v6.4.0, true",
      "6.3.0, malformed, true",
      "6.2.0, v6.3.0, false",
      "6.2.0, v6.4.0, false",
      "v6.5.0-nightly, v6.5.0, true",
      "latest, v7.1.0, false",
      "nightly-2024, latest, true",
  })
  void decidesAsUpstream(String pod, String wanted, boolean graceful) {
    assertEquals(graceful, TicdcVersionCheck.decide(pod, wanted).graceful());
  }

  @ParameterizedTest
  @CsvSource({
      "pingcap/ticdc:v7.1.0, v7.1.0",
      "pingcap/ticdc, latest",
      "localhost:5000/pingcap/ticdc, latest",
      "localhost:5000/pingcap/ticdc:v6.5.0, v6.5.0",
  })
  void theWantedVersionIsTheImageTag(String image, String tag) {
    assertEquals(tag, TicdcVersionCheck.tag(image));
  }

  @org.junit.jupiter.api.Test
  void theVerdictSaysWhy() {
    assertEquals("the pod runs TiCDC 6.2.0, before v6.3.0, which cannot hand its tables over to"
        + " another version; no graceful shutdown",
        TicdcVersionCheck.decide("6.2.0", "v6.4.0").why());
    assertEquals("TiCDC 6.3.0 to v8.0.0 crosses two major versions, which TiCDC cannot hand"
        + " tables over across; no graceful shutdown",
        TicdcVersionCheck.decide("6.3.0", "v8.0.0").why());
  }
}
