package io.tidb.operator.pd;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A client for the PD HTTP API of one cluster, with upstream tidb-operator's semantics:
 * mutations accept 200 and 404 (the work is already done), member and store deletions check
 * existence first, and evict-leader calls verify the scheduler list when PD's answer is not a
 * plain success.
 *
 * <p>Methods throw {@link PdConnectionException} when PD cannot be reached in time, {@link
 * PdNotBootstrappedException} when no TiKV has bootstrapped the cluster yet, and {@link
 * PdApiException} for any other unexpected status or undecodable body.
 */
public final class PdClient {

  static final String HEALTH = "/pd/api/v1/health";
  static final String CLUSTER = "/pd/api/v1/cluster";
  static final String LEADER = "/pd/api/v1/leader";
  static final String MEMBERS = "/pd/api/v1/members";
  static final String STORES = "/pd/api/v1/stores";
  static final String CONFIG = "/pd/api/v1/config";
  static final String SCHEDULERS = "/pd/api/v1/schedulers";
  static final String EVICT_LEADER = "evict-leader-scheduler";
  static final String EVICT_LEADER_LIST =
      "/pd/api/v1/scheduler-config/evict-leader-scheduler/list";
  static final String READY = "/pd/api/v2/ready";

  private final URI baseUrl;
  private final PdHttp http;

  /**
   * @param baseUrl the PD service, e.g. {@code http://basic-pd.default:2379}; it may carry a
   *     path prefix (the simulator's {@code http://127.0.0.1:12379/clusters/default/basic})
   * @param httpClient a shared client (see {@link PdClientOptions#newHttpClient()})
   */
  public PdClient(URI baseUrl, ComponentHttp httpClient, Duration requestTimeout) {
    this.baseUrl = baseUrl;
    this.http = new PdHttp(httpClient, requestTimeout);
  }

  /** A client with its own HTTP client; prefer sharing one for many clusters. */
  public static PdClient create(URI baseUrl, PdClientOptions options) {
    return new PdClient(baseUrl, options.newHttpClient(), options.requestTimeout());
  }

  public URI baseUrl() {
    return baseUrl;
  }

  // ---------------------------------------------------------------- members

  /** {@code GET /pd/api/v1/health}: every member with its health. */
  public List<PdHealth> health() {
    return get(HEALTH, PdJson::health);
  }

  /** {@code GET /pd/api/v1/cluster}: the cluster id. */
  public PdCluster cluster() {
    return get(CLUSTER, PdJson::cluster);
  }

  /** {@code GET /pd/api/v1/leader}. */
  public PdMemberInfo leader() {
    return get(LEADER, PdJson::leader);
  }

  /** {@code GET /pd/api/v1/members}. */
  public PdMembers members() {
    return get(MEMBERS, PdJson::members);
  }

  /**
   * Removes a member by name if it is one ({@code DELETE /pd/api/v1/members/name/{name}}).
   *
   * @return false when there was no such member (nothing was sent)
   */
  public boolean deleteMember(String name) {
    if (members().member(name).isEmpty()) {
      return false;
    }
    mutate("DELETE", MEMBERS + "/name/" + segment(name), null);
    return true;
  }

  /**
   * Removes a member by (unsigned 64-bit) id if it is one ({@code DELETE
   * /pd/api/v1/members/id/{id}}); PD itself does not check existence.
   *
   * @return false when there was no such member (nothing was sent)
   */
  public boolean deleteMemberById(long memberId) {
    if (members().member(memberId).isEmpty()) {
      return false;
    }
    mutate("DELETE", MEMBERS + "/id/" + Long.toUnsignedString(memberId), null);
    return true;
  }

  /** {@code POST /pd/api/v1/leader/transfer/{name}}; 200 or 404 is success. */
  public void transferLeader(String name) {
    mutate("POST", "/pd/api/v1/leader/transfer/" + segment(name), null);
  }

  /**
   * {@code GET /pd/api/v2/ready} on one member: true for 200, and for 404 (PD before v8.5.2 has
   * no such endpoint); false for 500 (regions not loaded yet).
   *
   * @param memberUrl the member's own URL (its client URL, or an override for it)
   */
  public boolean isMemberReady(URI memberUrl) {
    PdHttp.Response response = http.send(memberUrl, "GET", READY, null);
    return switch (response.status()) {
      case 200, 404 -> true;
      case 500 -> false;
      default -> throw response.unexpected();
    };
  }

  // ---------------------------------------------------------------- stores

  /** {@code GET /pd/api/v1/stores}: Up (incl. Disconnected, Down) and Offline stores. */
  public List<StoreInfo> stores() {
    return get(STORES, PdJson::stores);
  }

  /**
   * {@code GET /pd/api/v1/stores?state=0&state=1&state=2}: every store, Tombstone ones included
   * (PD lists Up and Offline stores unless asked for states by number). One answer is one
   * snapshot: a store that becomes Tombstone while two lists are read one after the other
   * would be in neither.
   */
  public List<StoreInfo> allStores() {
    return get(STORES + "?state=0&state=1&state=2", PdJson::stores);
  }

  /** {@code GET /pd/api/v1/store/{id}}; empty for 404. */
  public Optional<StoreInfo> store(long id) {
    PdHttp.Response response = http.send(baseUrl, "GET", "/pd/api/v1/store/" + id, null);
    if (response.status() == 404) {
      return Optional.empty();
    }
    return Optional.of(decode(response, PdJson::store));
  }

  /**
   * Sets a store Offline ({@code DELETE /pd/api/v1/store/{id}}) if it is listed as Up or
   * Offline; 200, 404 and 410 (already Tombstone) are success.
   *
   * @return false when the store was not listed (nothing was sent)
   */
  public boolean deleteStore(long id) {
    if (stores().stream().noneMatch(s -> s.id() == id)) {
      return false;
    }
    PdHttp.Response response = http.send(baseUrl, "DELETE", "/pd/api/v1/store/" + id, null);
    if (response.status() != 200 && response.status() != 404 && response.status() != 410) {
      throw response.unexpected();
    }
    return true;
  }

  /**
   * Cancels a store's removal: {@code POST /pd/api/v1/store/{id}/state?state=Up} turns an
   * Offline store back to Up (PD refuses for a Tombstone or a physically destroyed store); only
   * 200 is success.
   */
  public void cancelStoreRemoval(long id) {
    PdHttp.Response response =
        http.send(baseUrl, "POST", "/pd/api/v1/store/" + id + "/state?state=Up", null);
    if (response.status() != 200) {
      throw response.unexpected();
    }
  }

  /** {@code POST /pd/api/v1/store/{id}/label}: merges the labels; only 200 is success. */
  public void setStoreLabels(long id, Map<String, String> labels) {
    PdHttp.Response response = http.send(baseUrl, "POST", "/pd/api/v1/store/" + id + "/label",
        PdJson.write(new LinkedHashMap<>(labels)));
    if (response.status() != 200) {
      throw response.unexpected();
    }
  }

  // ---------------------------------------------------------------- configuration

  /**
   * {@code GET /pd/api/v1/admin/cluster/markers/snapshot-recovering}: whether PD is marked as
   * recovering from volume snapshots ({@code {"marked": true}}).
   */
  public boolean snapshotRecovering() {
    return get("/pd/api/v1/admin/cluster/markers/snapshot-recovering", PdJson::marked);
  }

  /** {@code GET /pd/api/v1/config}: the replication section. */
  public PdReplicationConfig replicationConfig() {
    return get(CONFIG, PdJson::replication);
  }

  /**
   * The most TiFlash replicas any table asks for: the highest {@code count} of the placement rules
   * in group {@code tiflash} ({@code GET /pd/api/v1/config/rules/group/tiflash}) whose label
   * constraints put them on stores with {@code engine} in {@code tiflash}, the rules TiDB writes for
   * {@code ALTER TABLE ... SET TIFLASH REPLICA n}; 0 when there is none.
   */
  public int tiflashReplicasNeeded() {
    return get(CONFIG + "/rules/group/tiflash", PdJson::tiflashReplicasNeeded);
  }

  /**
   * {@code POST /pd/api/v1/config/replicate {"enable-placement-rules":"true"}} (needed by
   * TiFlash); only 200 is success.
   */
  public void enablePlacementRules() {
    PdHttp.Response response = http.send(baseUrl, "POST", CONFIG + "/replicate",
        "{\"enable-placement-rules\":\"true\"}");
    if (response.status() != 200) {
      throw response.unexpected();
    }
  }

  // ---------------------------------------------------------------- schedulers

  /** {@code GET /pd/api/v1/schedulers}: names of enabled schedulers. */
  public List<String> schedulers() {
    return get(SCHEDULERS, body -> PdJson.stringList(body, "schedulers"));
  }

  /**
   * Starts moving leaders away from a store: {@code POST /pd/api/v1/schedulers
   * {"name":"evict-leader-scheduler","store_id":N}}. Any answer but 200 is accepted when the
   * store then shows up in the evict-leader scheduler (e.g. "already exists").
   */
  public void beginEvictLeader(long storeId) {
    String body = "{\"name\":\"" + EVICT_LEADER + "\",\"store_id\":"
        + Long.toUnsignedString(storeId) + "}";
    PdHttp.Response response = http.send(baseUrl, "POST", SCHEDULERS, body);
    if (response.status() != 200 && !evictLeaderStoreIds().contains(storeId)) {
      throw response.unexpected();
    }
  }

  /**
   * Stops evicting leaders from a store: {@code DELETE
   * /pd/api/v1/schedulers/evict-leader-scheduler-{id}}; 200 or 404 is success, and so is any
   * other answer after which the store is no longer in the scheduler.
   */
  public void endEvictLeader(long storeId) {
    PdHttp.Response response = http.send(baseUrl, "DELETE",
        SCHEDULERS + "/" + EVICT_LEADER + "-" + Long.toUnsignedString(storeId), null);
    if (response.status() != 200 && response.status() != 404
        && evictLeaderStoreIds().contains(storeId)) {
      throw response.unexpected();
    }
  }

  /**
   * Stores whose leaders are being evicted: from scheduler names {@code
   * evict-leader-scheduler-<id>}, or, when PD lists the single name {@code
   * evict-leader-scheduler}, from its config's {@code store-id-ranges}.
   */
  public SortedSet<Long> evictLeaderStoreIds() {
    SortedSet<Long> ids = new TreeSet<>();
    boolean shared = false;
    for (String name : schedulers()) {
      if (name.equals(EVICT_LEADER)) {
        shared = true;
      } else if (name.startsWith(EVICT_LEADER + "-")) {
        ids.add(PdJson.unsignedText(name.substring(EVICT_LEADER.length() + 1), "schedulers"));
      }
    }
    if (shared) {
      PdHttp.Response response = http.send(baseUrl, "GET", EVICT_LEADER_LIST, null);
      if (response.status() != 404) {
        ids.addAll(decode(response, PdJson::evictLeaderStoreIds));
      }
    }
    return ids;
  }

  // ---------------------------------------------------------------- plumbing

  private <T> T get(String path, Function<String, T> decoder) {
    return decode(http.send(baseUrl, "GET", path, null), decoder);
  }

  private static <T> T decode(PdHttp.Response response, Function<String, T> decoder) {
    if (response.status() >= 400) {
      throw response.unexpected();
    }
    try {
      return decoder.apply(response.body());
    } catch (IllegalArgumentException e) {
      throw response.undecodable("cannot decode: " + e.getMessage());
    }
  }

  /** A mutation where 200 and 404 both mean "done". */
  private void mutate(String method, String path, String body) {
    PdHttp.Response response = http.send(baseUrl, method, path, body);
    if (response.status() != 200 && response.status() != 404) {
      throw response.unexpected();
    }
  }

  private static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
