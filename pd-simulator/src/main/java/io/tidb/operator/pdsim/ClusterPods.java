package io.tidb.operator.pdsim;

import java.util.List;

/** The pods of one TidbCluster, by component. */
public record ClusterPods(
    List<PodInstance> pd, List<PodInstance> tikv, List<PodInstance> tiflash,
    List<PodInstance> tidb) {

  public ClusterPods {
    pd = List.copyOf(pd);
    tikv = List.copyOf(tikv);
    tiflash = List.copyOf(tiflash);
    tidb = List.copyOf(tidb);
  }

  public static ClusterPods none() {
    return new ClusterPods(List.of(), List.of(), List.of(), List.of());
  }

  List<PodInstance> stores(StoreEngine engine) {
    return engine == StoreEngine.TIKV ? tikv : tiflash;
  }
}
