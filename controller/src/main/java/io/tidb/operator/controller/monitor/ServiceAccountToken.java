package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;

/**
 * With {@code automountServiceAccountToken: false} Prometheus still needs a token to discover
 * pods: as upstream, a projected token (with the cluster CA and the namespace) is mounted where
 * Kubernetes would have mounted it. Pure.
 */
final class ServiceAccountToken {

  static final String VOLUME = "kube-api-access";
  static final String PATH = "/var/run/secrets/kubernetes.io/serviceaccount";

  private ServiceAccountToken() {}

  static Volume volume() {
    return new VolumeBuilder()
        .withName(VOLUME)
        .withNewProjected()
            .withDefaultMode(420)
            .addNewSource().withNewServiceAccountToken()
                .withPath("token").withExpirationSeconds(3607L).endServiceAccountToken().endSource()
            .addNewSource().withNewConfigMap().withName("kube-root-ca.crt")
                .addNewItem().withKey("ca.crt").withPath("ca.crt").endItem().endConfigMap().endSource()
            .addNewSource().withNewDownwardAPI()
                .addNewItem().withPath("namespace").withNewFieldRef()
                    .withFieldPath("metadata.namespace").endFieldRef().endItem()
                .endDownwardAPI().endSource()
        .endProjected()
        .build();
  }

  static Container mounted(Container c) {
    return new ContainerBuilder(c)
        .addToVolumeMounts(MonitorStatefulSet.mount(VOLUME, PATH, true))
        .build();
  }
}
