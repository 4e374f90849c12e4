package io.tidb.operator.api.v1alpha1.cluster;

import java.util.ArrayList;
import java.util.List;

/** The member components present in a TidbCluster spec, each with its JSON path. */
public final class Components {

  /**
   * One present component.
   *
   * @param name the component's key, e.g. {@code pd}, {@code tikv} or {@code pdms[0]}
   * @param path its JSON path, e.g. {@code spec.pd}
   * @param spec its spec
   */
  public record Member(String name, String path, MemberSpec spec) {}

  private Components() {}

  /** PD, PD microservices, TiKV, TiDB, TiFlash, TiCDC, TiProxy and Pump, in that order, when set. */
  public static List<Member> members(TidbClusterSpec spec) {
    List<Member> out = new ArrayList<>();
    if (spec == null) {
      return out;
    }
    add(out, "pd", spec.getPd());
    if (spec.getPdms() != null) {
      for (int i = 0; i < spec.getPdms().size(); i++) {
        add(out, "pdms[" + i + "]", spec.getPdms().get(i));
      }
    }
    add(out, "tikv", spec.getTikv());
    add(out, "tidb", spec.getTidb());
    add(out, "tiflash", spec.getTiflash());
    add(out, "ticdc", spec.getTicdc());
    add(out, "tiproxy", spec.getTiproxy());
    add(out, "pump", spec.getPump());
    return out;
  }

  private static void add(List<Member> out, String name, MemberSpec member) {
    if (member != null) {
      out.add(new Member(name, "spec." + name, member));
    }
  }

  /** The version a component runs: its own, else the cluster's; may be empty. */
  public static String effectiveVersion(TidbClusterSpec spec, ComponentSpec component) {
    if (component.getVersion() != null && !component.getVersion().isEmpty()) {
      return component.getVersion();
    }
    return spec.getVersion() == null ? "" : spec.getVersion();
  }
}
