package io.tidb.operator.controller.tidbcluster;

import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi.MemberHealth;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi.StoreView;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTlsHandshakeException;
import io.tidb.operator.pd.PdApiException;
import io.tidb.operator.pd.PdClient;
import io.tidb.operator.pd.PdClientException;
import io.tidb.operator.pd.PdEtcdClient;
import io.tidb.operator.pd.PdMemberInfo;
import io.tidb.operator.pd.PdMembers;
import io.tidb.operator.pd.PdNotBootstrappedException;
import io.tidb.operator.pd.PumpClient;
import io.tidb.operator.pd.StoreInfo;
import io.tidb.operator.pd.StoreState;
import io.tidb.operator.pd.TicdcClient;
import io.tidb.operator.pd.TidbStatusClient;
import io.tidb.operator.pd.TiflashClient;
import io.tidb.operator.pd.TiproxyClient;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;

/** {@link ClusterApi} over the project's PD and TiDB status clients, on HTTP. */
final class HttpClusterApi implements ClusterApi {

  /** PD answers 503 when no leader is elected. */
  private static final int NO_LEADER = 503;

  private final PdClient pd;
  private final TidbStatusClient tidb;
  private final Function<String, URI> tidbStatusUrl;
  private final Function<String, URI> pdMemberUrl;
  private final TicdcClient ticdc;
  private final Function<String, URI> ticdcUrl;
  private final Proxy proxy;
  private final Binlog binlog;
  private final Flash flash;
  private final Optional<String> pdReadThrough;
  /** {@link #stores} as read this reconcile; null until read, and again after a write to PD. */
  private Optional<Stores> storesThisReconcile;
  /** PD's members as read this reconcile; null until read, and again after a write to PD. */
  private PdMembers membersThisReconcile;

  /** The binlog registry (PD's etcd), each pump pod's client and URL. */
  record Binlog(PdEtcdClient etcd, Function<String, PumpClient> pump, Function<String, URI> pumpUrl) {
  }

  /** TiFlash's client and each server's proxy status URL. */
  record Flash(TiflashClient client, Function<String, URI> url) {
  }

  /** TiProxy's client and each server's API URL. */
  record Proxy(TiproxyClient client, Function<String, URI> url) {
  }

  HttpClusterApi(
      PdClient pd,
      TidbStatusClient tidb,
      Function<String, URI> tidbStatusUrl,
      Function<String, URI> pdMemberUrl,
      TicdcClient ticdc,
      Function<String, URI> ticdcUrl,
      Proxy proxy,
      Binlog binlog,
      Flash flash,
      Optional<String> pdReadThrough) {
    this.pd = pd;
    this.pdReadThrough = pdReadThrough;
    this.tidb = tidb;
    this.tidbStatusUrl = tidbStatusUrl;
    this.pdMemberUrl = pdMemberUrl;
    this.ticdc = ticdc;
    this.ticdcUrl = ticdcUrl;
    this.proxy = proxy;
    this.binlog = binlog;
    this.flash = flash;
  }

  @Override
  public Optional<String> pdReadThrough() {
    return pdReadThrough;
  }

  @Override
  public String tiproxyHealth(String pod) throws IOException {
    return call(() -> proxy.client().health(proxy.url().apply(pod)));
  }

  @Override
  public void setTiproxyLabels(String pod, Map<String, String> labels) throws IOException {
    wrotePd();
    call(() -> {
      proxy.client().setLabels(proxy.url().apply(pod), labels);
      return null;
    });
  }

  @Override
  public List<PumpNode> pumps() throws IOException {
    return call(() -> PumpClient.registry(binlog.etcd()).stream()
        .map(n -> new PumpNode(n.nodeId(), n.host(), n.state())).toList());
  }

  @Override
  public void offlinePump(String pod, String nodeId) throws IOException {
    wrotePd();
    call(() -> {
      binlog.pump().apply(pod).offline(binlog.pumpUrl().apply(pod), nodeId);
      return null;
    });
  }

  @Override
  public String tiflashStoreStatus(String pod) throws IOException {
    return call(() -> flash.client().storeStatus(flash.url().apply(pod)));
  }

  @Override
  public TicdcCaptureStatus ticdcStatus(String pod) throws IOException {
    return call(() -> {
      TicdcClient.Status s = ticdc.status(ticdcUrl.apply(pod));
      return new TicdcCaptureStatus(s.id(), s.version(), s.owner());
    });
  }

  @Override
  public Optional<List<TicdcCapture>> ticdcCaptures(String pod) throws IOException {
    return call(() -> ticdc.captures(ticdcUrl.apply(pod)).list()
        .map(l -> l.stream().map(c -> new TicdcCapture(c.id(), c.owner(), c.address())).toList()));
  }

  @Override
  public TicdcDrain drainTicdcCapture(String pod, String captureId) throws IOException {
    return call(() -> {
      TicdcClient.Drain d = ticdc.drain(ticdcUrl.apply(pod), captureId);
      return new TicdcDrain(d.tableCount(), d.retry(), d.unsupported());
    });
  }

  @Override
  public boolean resignTicdcOwner(String pod) throws IOException {
    return call(() -> ticdc.resignOwner(ticdcUrl.apply(pod)) != TicdcClient.Resign.RETRY);
  }

  @Override
  public boolean ticdcHealthy(String pod) throws IOException {
    return call(() -> ticdc.healthy(ticdcUrl.apply(pod)));
  }

  @Override
  public List<MemberHealth> pdHealth() throws IOException {
    return call(
        () ->
            pd.health().stream()
                .map(h -> new MemberHealth(h.name(), h.memberIdText(), h.clientUrls(), h.healthy()))
                .toList());
  }

  /**
   * The PD leader, from PD's members (the same read gives {@link #clusterId}: one request where
   * {@code GET leader} and {@code GET cluster} were two).
   */
  @Override
  public Optional<String> pdLeader() throws IOException {
    try {
      return Optional.ofNullable(members().leader()).map(PdMemberInfo::name);
    } catch (IOException e) {
      if (e.getCause() instanceof PdApiException api && api.status() == NO_LEADER) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** The cluster id of PD's members' header; {@code GET cluster} when a PD leaves it out. */
  @Override
  public String clusterId() throws IOException {
    long id = members().clusterId();
    return id != 0 ? Long.toUnsignedString(id) : call(() -> pd.cluster().idText());
  }

  /** {@code GET members}, read once per reconcile until a write to PD. */
  private PdMembers members() throws IOException {
    PdMembers read = membersThisReconcile;
    if (read == null) {
      read = call(pd::members);
      membersThisReconcile = read;
    }
    return read;
  }

  /**
   * PD's stores, read once per reconcile (this object serves one reconcile: {@link
   * ClusterApiFactory#forCluster}): the PD, TiKV, TiFlash and TiDB steps each ask. One request
   * lists live and Tombstone stores together, so the two lists are one snapshot. Any write to PD
   * through this object forgets it, so a step after a store deletion or a leader eviction reads
   * PD again.
   */
  @Override
  public Optional<Stores> stores() throws IOException {
    Optional<Stores> read = storesThisReconcile;
    if (read != null) {
      return read;
    }
    try {
      read = call(() -> Optional.of(storesOf(pd.allStores())));
    } catch (IOException e) {
      if (!(e.getCause() instanceof PdNotBootstrappedException)) {
        throw e;
      }
      read = Optional.empty();
    }
    storesThisReconcile = read;
    return read;
  }

  private static Stores storesOf(List<StoreInfo> all) {
    Map<Boolean, List<StoreView>> byTombstone =
        all.stream()
            .collect(
                Collectors.partitioningBy(
                    s -> s.state() == StoreState.TOMBSTONE,
                    Collectors.mapping(HttpClusterApi::view, Collectors.toList())));
    return new Stores(List.copyOf(byTombstone.get(false)), List.copyOf(byTombstone.get(true)));
  }

  /** A write to PD: what was read of its stores and members this reconcile may no longer hold. */
  private void wrotePd() {
    storesThisReconcile = null;
    membersThisReconcile = null;
  }

  @Override
  public boolean tidbHealthy(String pod) {
    return tidb.isHealthy(tidbStatusUrl.apply(pod));
  }

  @Override
  public int maxReplicas() throws IOException {
    return call(() -> pd.replicationConfig().maxReplicas());
  }

  @Override
  public int tiflashReplicasNeeded() throws IOException {
    return call(pd::tiflashReplicasNeeded);
  }

  @Override
  public boolean snapshotRecovering() throws IOException {
    return call(pd::snapshotRecovering);
  }

  @Override
  public List<String> locationLabels() throws IOException {
    return call(() -> pd.replicationConfig().locationLabels());
  }

  @Override
  public boolean placementRulesEnabled() throws IOException {
    return call(() -> pd.replicationConfig().enablePlacementRules());
  }

  @Override
  public void enablePlacementRules() throws IOException {
    wrotePd();
    call(
        () -> {
          pd.enablePlacementRules();
          return null;
        });
  }

  @Override
  public boolean pdMemberReady(String member) throws IOException {
    return call(() -> pd.isMemberReady(pdMemberUrl.apply(member)));
  }

  @Override
  public void transferPdLeader(String member) throws IOException {
    wrotePd();
    call(
        () -> {
          pd.transferLeader(member);
          return null;
        });
  }

  @Override
  public boolean deletePdMember(String member) throws IOException {
    wrotePd();
    return call(() -> pd.deleteMember(member));
  }

  @Override
  public boolean deletePdMemberById(String memberId) throws IOException {
    wrotePd();
    return call(() -> pd.deleteMemberById(Long.parseUnsignedLong(memberId)));
  }

  @Override
  public boolean deleteStore(String storeId) throws IOException {
    wrotePd();
    return call(() -> pd.deleteStore(Long.parseUnsignedLong(storeId)));
  }

  @Override
  public void cancelStoreRemoval(String storeId) throws IOException {
    wrotePd();
    call(
        () -> {
          pd.cancelStoreRemoval(Long.parseUnsignedLong(storeId));
          return null;
        });
  }

  @Override
  public void beginEvictLeader(String storeId) throws IOException {
    wrotePd();
    call(
        () -> {
          pd.beginEvictLeader(Long.parseUnsignedLong(storeId));
          return null;
        });
  }

  @Override
  public void endEvictLeader(String storeId) throws IOException {
    wrotePd();
    call(
        () -> {
          pd.endEvictLeader(Long.parseUnsignedLong(storeId));
          return null;
        });
  }

  @Override
  public Set<String> evictLeaderStoreIds() throws IOException {
    return call(
        () ->
            pd.evictLeaderStoreIds().stream()
                .map(Long::toUnsignedString)
                .collect(Collectors.toUnmodifiableSet()));
  }

  private static StoreView view(StoreInfo s) {
    return new StoreView(
        Long.toString(s.id()),
        s.address(),
        s.state().stateName(),
        s.leaderCount(),
        s.regionCount(),
        s.labels());
  }

  /** Runs a PD call; the client's unchecked failures become {@link IOException}s. */
  private static <T> T call(Supplier<T> request) throws IOException {
    try {
      return request.get();
    } catch (PdClientException e) {
      for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
        if (t instanceof SSLException) {
          throw new ClusterTlsHandshakeException(e.getMessage(), e);
        }
      }
      throw new IOException(e.getMessage(), e);
    }
  }
}
