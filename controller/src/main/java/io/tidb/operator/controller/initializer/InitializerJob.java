package io.tidb.operator.controller.initializer;

import io.fabric8.kubernetes.api.model.ConfigMapKeySelectorBuilder;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelectorBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbSpec;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializerSpec;
import io.tidb.operator.controller.initializer.sql.InitPlan;
import io.tidb.operator.controller.initializer.sql.InitializerMain;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Job {@code <cluster>-tidb-initializer} that runs one TidbInitializer, as upstream names it:
 * the operator's image in {@value InitializerMain#MODE} mode, {@code backoffLimit: 0}, restart
 * policy Never, no service account token. The passwords and the SQL reach the container only as
 * environment variables the kubelet resolves ({@code secretKeyRef}, {@code configMapKeyRef}): the
 * pod's ServiceAccount needs no permission at all.
 */
public final class InitializerJob {

  public static final String CONTAINER = "initializer";
  public static final String COMPONENT = "initializer";
  /** Upstream's label naming the TidbInitializer of a Job and its pod. */
  public static final String INITIALIZER_LABEL = "tidb.pingcap.com/initializer";
  /** The passwordSecret key of root's password. */
  public static final String ROOT_KEY = "root";
  /** The initSqlConfigMap key of the SQL. */
  public static final String SQL_KEY = "init-sql";
  /** Where the TiDB client certificate Secret is mounted when the cluster uses client TLS. */
  public static final String TLS_DIR = "/var/lib/tidb-client-tls";

  private InitializerJob() {}

  /** {@code <cluster>-tidb-initializer}. */
  public static String name(String cluster) {
    return cluster + "-tidb-initializer";
  }

  /** The Secret holding the TiDB client certificate for a cluster with client TLS. */
  public static String tlsSecret(TidbInitializer ti) {
    String named = ti.getSpec().getTlsClientSecretName();
    return named != null ? named : ti.getSpec().getCluster().getName() + "-tidb-client-secret";
  }

  /** Whether the Job connects with TLS: the cluster's {@code spec.tidb.tlsClient.enabled}. */
  public static boolean tls(TidbCluster tc) {
    TidbSpec tidb = tc.getSpec().getTidb();
    return tidb != null && tidb.getTlsClient() != null && Boolean.TRUE.equals(tidb.getTlsClient().getEnabled());
  }

  /**
   * {@code spec.tidb.tlsClient.skipInternalClientCA}: the operator's own clients (this Job) do
   * not verify TiDB's server certificate, as upstream's initializer then connects.
   */
  public static boolean skipInternalClientCa(TidbCluster tc) {
    return tls(tc) && Boolean.TRUE.equals(tc.getSpec().getTidb().getTlsClient().getSkipInternalClientCA());
  }

  /** The cluster's TiDB service port (upstream: {@code spec.tidb.service.port}, else 4000). */
  public static int tidbPort(TidbCluster tc) {
    TidbSpec tidb = tc.getSpec().getTidb();
    if (tidb != null && tidb.getService() != null && tidb.getService().getPort() != null) {
      return tidb.getService().getPort();
    }
    return 4000;
  }

  /**
   * @param ti the stored TidbInitializer (owner of the Job)
   * @param users the passwordSecret's keys other than {@code root}, in the order to create them
   */
  public static Job build(
      TidbInitializer ti, TidbCluster tc, List<String> users, InitializerSettings settings) {
    TidbInitializerSpec spec = ti.getSpec();
    String cluster = spec.getCluster().getName();
    InitializerSettings.HostPort tidb =
        settings.tidbAddress(
            ti.getMetadata().getNamespace(), cluster, tc.getSpec().getClusterDomain(), tidbPort(tc));
    List<String> args = new ArrayList<>(List.of(
        InitializerMain.MODE, "--host", tidb.host(), "--port", Integer.toString(tidb.port())));
    if (spec.getPermitHost() != null && !InitPlan.ANY_HOST.equals(spec.getPermitHost())) {
      args.addAll(List.of("--permit-host", spec.getPermitHost()));
    }
    List<EnvVar> env = new ArrayList<>();
    if (spec.getTimezone() != null && !spec.getTimezone().isEmpty()) {
      env.add(new EnvVar(InitializerMain.ENV_TZ, spec.getTimezone(), null));
    }
    if (spec.getPasswordSecret() != null) {
      env.add(secretEnv(InitializerMain.ENV_ROOT_PASSWORD, spec.getPasswordSecret(), ROOT_KEY));
      if (!users.isEmpty()) {
        env.add(new EnvVar(InitializerMain.ENV_USERS, String.join(",", users), null));
        for (int i = 0; i < users.size(); i++) {
          env.add(secretEnv(InitializerMain.ENV_USER_PASSWORD_PREFIX + (i + 1), spec.getPasswordSecret(), users.get(i)));
        }
      }
    }
    if (spec.getInitSqlConfigMap() != null) {
      env.add(
          new EnvVarBuilder()
              .withName(InitializerMain.ENV_INIT_SQL)
              .withNewValueFrom()
              .withConfigMapKeyRef(
                  new ConfigMapKeySelectorBuilder()
                      .withName(spec.getInitSqlConfigMap())
                      .withKey(SQL_KEY)
                      .withOptional(false)
                      .build())
              .endValueFrom()
              .build());
    } else if (spec.getInitSql() != null) {
      env.add(new EnvVar(InitializerMain.ENV_INIT_SQL, spec.getInitSql(), null));
    }
    ContainerBuilder container =
        new ContainerBuilder()
            .withName(CONTAINER)
            .withImage(settings.image())
            .withImagePullPolicy(spec.getImagePullPolicy())
            .withArgs(args)
            .withEnv(env)
            .withResources(spec.getResources())
            .withTerminationMessagePolicy("FallbackToLogsOnError");
    boolean tls = tls(tc);
    if (tls) {
      if (!skipInternalClientCa(tc)) {
        container.addToArgs("--tls-ca", TLS_DIR + "/ca.crt");
      }
      container.addToArgs("--tls-cert", TLS_DIR + "/tls.crt", "--tls-key", TLS_DIR + "/tls.key");
      container.addToVolumeMounts(
          new VolumeMountBuilder().withName("tidb-client-tls").withMountPath(TLS_DIR).withReadOnly(true).build());
    }
    Map<String, String> labels = labels(ti);
    JobBuilder job =
        new JobBuilder()
            .withNewMetadata()
            .withName(name(cluster))
            .withNamespace(ti.getMetadata().getNamespace())
            .withLabels(labels)
            .withOwnerReferences(ownerRef(ti))
            .endMetadata()
            .withNewSpec()
            .withBackoffLimit(0)
            .withNewTemplate()
            .withNewMetadata()
            .withLabels(labels)
            .endMetadata()
            .withNewSpec()
            .withRestartPolicy("Never")
            .withAutomountServiceAccountToken(false)
            .withServiceAccountName(spec.getServiceAccountName())
            .withSecurityContext(spec.getPodSecurityContext())
            .withImagePullSecrets(spec.getImagePullSecrets())
            .withTolerations(spec.getTolerations())
            .withNodeSelector(spec.getNodeSelector())
            .withContainers(container.build())
            .endSpec()
            .endTemplate()
            .endSpec();
    Job built = job.build();
    if (tls) {
      built.getSpec().getTemplate().getSpec().setVolumes(List.of(
          new VolumeBuilder()
              .withName("tidb-client-tls")
              .withNewSecret()
              .withSecretName(tlsSecret(ti))
              .endSecret()
              .build()));
    }
    return built;
  }

  /** Upstream's initializer labels, with the TidbInitializer's own labels under them. */
  static Map<String, String> labels(TidbInitializer ti) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (ti.getMetadata().getLabels() != null) {
      labels.putAll(ti.getMetadata().getLabels());
    }
    labels.put("app.kubernetes.io/component", COMPONENT);
    labels.put("app.kubernetes.io/instance", ti.getMetadata().getName());
    labels.put(OwnedEventSources.MANAGED_BY, OwnedEventSources.MANAGED_BY_VALUE);
    labels.put(INITIALIZER_LABEL, ti.getMetadata().getName());
    return labels;
  }

  static OwnerReference ownerRef(TidbInitializer ti) {
    return new OwnerReferenceBuilder()
        .withApiVersion(ti.getApiVersion())
        .withKind(ti.getKind())
        .withName(ti.getMetadata().getName())
        .withUid(ti.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  private static EnvVar secretEnv(String name, String secret, String key) {
    return new EnvVarBuilder()
        .withName(name)
        .withNewValueFrom()
        .withSecretKeyRef(
            new SecretKeySelectorBuilder().withName(secret).withKey(key).withOptional(false).build())
        .endValueFrom()
        .build();
  }
}
