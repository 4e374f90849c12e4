package io.tidb.operator.webhook;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** A test-only resource whose rules take as long as its spec says, or fail on demand. */
@Group("test.tidb.io")
@Version("v1")
@Kind("SlowThing")
@Plural("slowthings")
public class SlowThing extends CustomResource<SlowThing.Spec, Void> implements Namespaced {

  public static class Spec {
    public long sleepMillis;
    public boolean explode;
  }
}
