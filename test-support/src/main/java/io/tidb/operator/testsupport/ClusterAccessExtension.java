package io.tidb.operator.testsupport;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves {@link KubernetesClient} and {@link ClusterAccess} parameters (constructors, lifecycle and
 * test methods) against a shared cluster. Each client parameter is a fresh client, closed when the
 * scope that asked for it (the test method, or the class for {@code @BeforeAll}) ends.
 */
abstract class ClusterAccessExtension implements BeforeAllCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(ClusterAccessExtension.class);

  /** The shared cluster; started on first use. */
  abstract ClusterAccess access();

  @Override
  public void beforeAll(ExtensionContext context) {
    // Start (or fail with the reason, e.g. missing binaries) before any test of the class runs.
    access();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == KubernetesClient.class || type == ClusterAccess.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    if (parameter.getParameter().getType() == ClusterAccess.class) {
      return access();
    }
    KubernetesClient client = access().newClient();
    context.getStore(NAMESPACE).put(new Object(), client);
    return client;
  }
}
