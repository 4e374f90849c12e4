package io.tidb.operator.api.v1alpha1.monitor;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Prometheus and Grafana for one or more TiDB (and DM) clusters, as {@code pingcap.com/v1alpha1
 * TidbMonitor}. Field names and meaning follow upstream TiDB Operator v1; unlike upstream, {@code
 * status} is a subresource and carries conditions.
 */
@Group(TidbMonitor.GROUP)
@Version(TidbMonitor.VERSION)
@Kind("TidbMonitor")
@Plural("tidbmonitors")
@Singular("tidbmonitor")
@ShortNames("tm")
@Categories("pingcap")
public class TidbMonitor extends CustomResource<TidbMonitorSpec, TidbMonitorStatus>
    implements Namespaced {

  public static final String GROUP = "pingcap.com";
  public static final String VERSION = "v1alpha1";
  /** Name of the CustomResourceDefinition. */
  public static final String CRD_NAME = "tidbmonitors." + GROUP;
}
