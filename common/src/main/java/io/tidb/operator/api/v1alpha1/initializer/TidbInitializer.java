package io.tidb.operator.api.v1alpha1.initializer;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;

/**
 * A one-time initialisation of a TidbCluster's TiDB: the root password from a Secret, further
 * users, init SQL, as {@code pingcap.com/v1alpha1 TidbInitializer}. Field names and meaning follow
 * upstream TiDB Operator v1; unlike upstream, {@code status} is a subresource and carries {@code
 * observedGeneration} and conditions of its own besides the mirrored Job status.
 */
@Group(TidbCluster.GROUP)
@Version(TidbCluster.VERSION)
@Kind("TidbInitializer")
@Plural("tidbinitializers")
@Singular("tidbinitializer")
@Categories("pingcap")
public class TidbInitializer extends CustomResource<TidbInitializerSpec, TidbInitializerStatus>
    implements Namespaced {

  /** Name of the CustomResourceDefinition. */
  public static final String CRD_NAME = "tidbinitializers." + TidbCluster.GROUP;
}
