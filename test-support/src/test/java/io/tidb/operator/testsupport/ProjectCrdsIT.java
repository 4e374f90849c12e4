package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generated CRDs in charts/tidb-operator/crds are accepted by a real API server and served. */
@WithKubeApiServer
class ProjectCrdsIT {

  @Test
  void everyCrdFileIsEstablishedAndItsResourcesAreServed(KubernetesClient client) {
    List<CustomResourceDefinition> crds = ProjectCrds.apply(client);

    assertFalse(crds.isEmpty());
    for (CustomResourceDefinition crd : crds) {
      assertTrue(ProjectCrds.isEstablished(crd), crd.getMetadata().getName());
      CustomResourceDefinitionVersion served = crd.getSpec().getVersions().stream()
          .filter(CustomResourceDefinitionVersion::getServed).findFirst().orElseThrow();
      ResourceDefinitionContext context = new ResourceDefinitionContext.Builder()
          .withGroup(crd.getSpec().getGroup()).withVersion(served.getName())
          .withPlural(crd.getSpec().getNames().getPlural()).withKind(crd.getSpec().getNames().getKind())
          .withNamespaced("Namespaced".equals(crd.getSpec().getScope())).build();
      // Listing the new resource answers (a 404 would throw): the API server serves it now.
      assertNotNull(client.genericKubernetesResources(context).inAnyNamespace().list().getMetadata()
          .getResourceVersion(), crd.getMetadata().getName());
    }
  }

  @Test
  void applyingTwiceIsHarmless(KubernetesClient client) {
    List<String> first = ProjectCrds.apply(client).stream().map(c -> c.getMetadata().getName()).toList();
    List<String> second = ProjectCrds.apply(client).stream().map(c -> c.getMetadata().getName()).toList();

    assertEquals(first, second);
  }
}
