package io.tidb.operator.controller.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ComponentUrlsTest {

  @Test
  void defaultsAreUpstreamServiceAddresses() {
    ComponentUrls e = ComponentUrls.defaults();
    assertEquals(URI.create("http://basic-pd.db:2379"), e.pdUrl("db", "basic", null));
    assertEquals(
        URI.create("http://basic-pd.db.svc.cluster.local:2379"),
        e.pdUrl("db", "basic", "cluster.local"));
    assertEquals(
        URI.create("http://basic-tidb-1.basic-tidb-peer.db:10080"),
        e.tidbStatusUrl("db", "basic", "", "basic-tidb-1"));
    assertEquals(
        URI.create("http://basic-tiflash-0.basic-tiflash-peer.db.svc.cluster.local:20292"),
        e.tiflashUrl("db", "basic", "cluster.local", "basic-tiflash-0"));
  }

  @Test
  void theTiflashTemplateIsChecked() {
    ComponentUrls sim = new ComponentUrls(ComponentUrls.DEFAULT_PD_URL_TEMPLATE,
        ComponentUrls.DEFAULT_TIDB_STATUS_URL_TEMPLATE, ComponentUrls.DEFAULT_PD_MEMBER_URL_TEMPLATE,
        ComponentUrls.DEFAULT_TICDC_URL_TEMPLATE, ComponentUrls.DEFAULT_TIPROXY_URL_TEMPLATE,
        ComponentUrls.DEFAULT_PUMP_URL_TEMPLATE,
        "http://127.0.0.1:9999/clusters/{namespace}/{name}/tiflash/{pod}", Duration.ofSeconds(2));
    assertEquals(URI.create("http://127.0.0.1:9999/clusters/db/basic/tiflash/basic-tiflash-1"),
        sim.tiflashUrl("db", "basic", null, "basic-tiflash-1"));
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> new ComponentUrls(ComponentUrls.DEFAULT_PD_URL_TEMPLATE,
            ComponentUrls.DEFAULT_TIDB_STATUS_URL_TEMPLATE,
            ComponentUrls.DEFAULT_PD_MEMBER_URL_TEMPLATE, ComponentUrls.DEFAULT_TICDC_URL_TEMPLATE,
            ComponentUrls.DEFAULT_TIPROXY_URL_TEMPLATE, ComponentUrls.DEFAULT_PUMP_URL_TEMPLATE,
            "http://{store}:20292", Duration.ofSeconds(2)));
    assertEquals("--tiflash-url-template: Unsupported value: \"http://{store}:20292\": unknown"
        + " placeholder {store}; allowed: {name}, {namespace}, {svc}, {pod}", e.getMessage());
  }

  @Test
  void thePdPeerUrlNamesTheHeadlessServiceAndASimulatorTemplateStaysAsItIs() {
    ComponentUrls e = ComponentUrls.defaults();
    assertEquals(URI.create("http://first-pd-peer.db:2379"), e.pdPeerUrl("db", "first", null));
    assertEquals(URI.create("http://first-pd-peer.db.svc.east.local:2379"),
        e.pdPeerUrl("db", "first", "east.local"));
    ComponentUrls sim = new ComponentUrls("http://127.0.0.1:9999/clusters/{namespace}/{name}",
        "http://127.0.0.1:9999/tidb/{namespace}/{pod}", Duration.ofSeconds(2));
    assertEquals(sim.pdUrl("db", "first", null), sim.pdPeerUrl("db", "first", null));
  }

  @Test
  void simulatorTemplate() {
    ComponentUrls e =
        new ComponentUrls(
            "http://127.0.0.1:9999/clusters/{namespace}/{name}/",
            "http://127.0.0.1:9999/tidb/{namespace}/{pod}",
            Duration.ofSeconds(2));
    assertEquals(
        URI.create("http://127.0.0.1:9999/clusters/db/basic"), e.pdUrl("db", "basic", "x.y"));
    assertEquals(
        URI.create("http://127.0.0.1:9999/tidb/db/basic-tidb-0"),
        e.tidbStatusUrl("db", "basic", null, "basic-tidb-0"));
  }

  @Test
  void unknownPlaceholderIsRefusedWithTheAllowedOnes() {
    var ex =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new ComponentUrls(
                    "http://{cluster}:2379",
                    ComponentUrls.DEFAULT_TIDB_STATUS_URL_TEMPLATE,
                    Duration.ofSeconds(1)));
    assertTrue(ex.getMessage().startsWith("--pd-url-template: "), ex.getMessage());
    assertTrue(ex.getMessage().contains("{cluster}"), ex.getMessage());
    assertTrue(ex.getMessage().contains("{namespace}"), ex.getMessage());
  }

  @Test
  void podPlaceholderIsOnlyForTidb() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new ComponentUrls(
                "http://{pod}:2379",
                ComponentUrls.DEFAULT_TIDB_STATUS_URL_TEMPLATE,
                Duration.ofSeconds(1)));
  }

  @Test
  void schemeMustBeHttp() {
    var ex =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new ComponentUrls(
                    ComponentUrls.DEFAULT_PD_URL_TEMPLATE,
                    "ftp://{pod}:10080",
                    Duration.ofSeconds(1)));
    assertTrue(ex.getMessage().contains("--tidb-status-url-template"), ex.getMessage());
  }
}
