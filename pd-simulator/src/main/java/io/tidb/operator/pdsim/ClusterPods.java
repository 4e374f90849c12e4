package io.tidb.operator.pdsim;

import java.util.List;

/** The pods of one TidbCluster, by component. */
public record ClusterPods(
    List<PodInstance> pd, List<PodInstance> tikv, List<PodInstance> tiflash,
    List<PodInstance> tidb, List<PodInstance> ticdc, List<PodInstance> tiproxy,
    List<PodInstance> pump) {

  public ClusterPods {
    pd = List.copyOf(pd);
    tikv = List.copyOf(tikv);
    tiflash = List.copyOf(tiflash);
    tidb = List.copyOf(tidb);
    ticdc = List.copyOf(ticdc);
    tiproxy = List.copyOf(tiproxy);
    pump = List.copyOf(pump);
  }

  /** A cluster without TiProxy and Pump pods. */
  public ClusterPods(
      List<PodInstance> pd, List<PodInstance> tikv, List<PodInstance> tiflash,
      List<PodInstance> tidb, List<PodInstance> ticdc) {
    this(pd, tikv, tiflash, tidb, ticdc, List.of(), List.of());
  }

  /** A cluster without TiCDC pods. */
  public ClusterPods(
      List<PodInstance> pd, List<PodInstance> tikv, List<PodInstance> tiflash,
      List<PodInstance> tidb) {
    this(pd, tikv, tiflash, tidb, List.of());
  }

  public static ClusterPods none() {
    return new ClusterPods(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
        List.of());
  }

  List<PodInstance> stores(StoreEngine engine) {
    return engine == StoreEngine.TIKV ? tikv : tiflash;
  }
}
