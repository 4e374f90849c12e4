package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * JSON merge patches of an object named by kind, namespace and name, in one request. fabric8's
 * {@code withName(name).patch(context, json)} first GETs the object (it takes the request's
 * address from an item, and reads one when it has none): that doubled every label and reclaim
 * policy write on claims and volumes (issue 19). Here the item is a stub with only the name and
 * namespace, which is all the patch's address needs; the body is the patch alone.
 */
public final class MergePatch {

  /**
   * The operator's field manager names the patch, so the object's managedFields say that the
   * operator set what it set (e.g. a volume's reclaim policy); without it the API server named it
   * after the client's user agent, {@code fabric8-kubernetes-client}.
   */
  private static final PatchContext MERGE = new PatchContext.Builder()
      .withPatchType(PatchType.JSON_MERGE)
      .withFieldManager(ServerSideApplier.FIELD_MANAGER)
      .build();

  private MergePatch() {}

  /**
   * Sends {@code json} as a JSON merge patch of the {@code type} named {@code name} in {@code
   * namespace} (null for a cluster-scoped kind); returns the object as patched.
   *
   * @throws io.fabric8.kubernetes.client.KubernetesClientException as the API server answers,
   *     404 when the object does not exist
   */
  public static <T extends HasMetadata> T patch(
      KubernetesClient client, Class<T> type, String namespace, String name, String json) {
    T stub;
    try {
      stub = type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(type + " needs a public no-argument constructor", e);
    }
    stub.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    return client.resource(stub).patch(MERGE, json);
  }
}
