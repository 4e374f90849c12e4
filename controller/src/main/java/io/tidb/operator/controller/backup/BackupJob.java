package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelectorBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.tidb.operator.api.v1alpha1.backup.AzblobStorageProvider;
import io.tidb.operator.api.v1alpha1.backup.StorageProvider;
import io.tidb.operator.controller.backup.manager.BackupManagerMain;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The Job that runs one Backup, Restore or clean-up: the operator's image in {@value
 * BackupManagerMain#MODE} mode, {@code backoffLimit: 0}, restart policy Never; for BR work an init
 * container copies {@code br} from the tool image into a shared volume, as upstream does. Storage
 * credentials reach the container only as environment variables the kubelet resolves ({@code
 * secretKeyRef}) or a mounted Secret (GCS): neither the Job's arguments nor the API hold them, and
 * the pod's ServiceAccount reads no Secret. With a TLS cluster the Secret {@code
 * <cluster>-cluster-client-secret} is mounted at {@value #CLUSTER_CLIENT_MOUNT}, as upstream. Pure.
 */
public final class BackupJob {

  public static final String CONTAINER = "backup-manager";
  public static final String INIT_CONTAINER = "br-binary";
  public static final String BR_BIN_DIR = "/var/lib/tidb-backup-manager/bin";
  public static final String GCS_CREDENTIALS_DIR = "/var/lib/tidb-backup-manager/gcs";
  /** Where the cluster's client certificate ({@code <cluster>-cluster-client-secret}) is mounted, as upstream. */
  public static final String CLUSTER_CLIENT_MOUNT = BackupManagerMain.CLUSTER_CLIENT_DIR;
  /** Upstream's labels naming the Backup / Restore of a Job and its pod. */
  public static final String BACKUP_LABEL = "tidb.pingcap.com/backup";
  public static final String RESTORE_LABEL = "tidb.pingcap.com/restore";
  public static final String BACKUP_SCHEDULE_LABEL = "tidb.pingcap.com/backup-schedule";

  /** S3 credentials: the Secret's keys, as upstream reads them, and the variables BR reads. */
  static final Map<String, String> S3_KEYS = Map.of("AWS_ACCESS_KEY_ID", "access_key", "AWS_SECRET_ACCESS_KEY", "secret_key");
  /** Azure: the storage account's Secret key (and variable), when {@code storageAccount} is not given. */
  static final String AZURE_ACCOUNT = "AZURE_STORAGE_ACCOUNT";
  /** Azure's shared key: the Secret key and the variable BR reads, as upstream. */
  static final String AZURE_SHARED_KEY = "AZURE_STORAGE_KEY";
  /** Azure AD (a service principal's client secret): the Secret keys and the variables BR reads, as upstream. */
  static final List<String> AZURE_AD_KEYS = List.of("AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_TENANT_ID");

  private BackupJob() {}

  /** What one Job runs. */
  public record Work(
      HasMetadata owner,
      String jobName,
      String component,
      Map<String, String> extraLabels,
      String serviceAccount,
      JobPod pod,
      String brImage,
      List<String> args,
      StorageProvider storage,
      boolean clusterTls) {}

  /**
   * The backup-manager's arguments for one BR run of {@code owner}: {@code backup-manager
   * <subcommand> --namespace --name [--cluster-tls] -- <br> <br's arguments>}; {@code --cluster-tls}
   * when the cluster has {@code spec.tlsCluster.enabled}, as upstream, which makes the
   * backup-manager give BR the client certificate the Job mounts ({@link #CLUSTER_CLIENT_MOUNT}).
   */
  public static List<String> managerArgs(String subcommand, HasMetadata owner, boolean clusterTls, String brPath,
      List<String> brArgs) {
    List<String> args = new ArrayList<>(List.of(BackupManagerMain.MODE, subcommand,
        "--namespace", owner.getMetadata().getNamespace(), "--name", owner.getMetadata().getName()));
    if (clusterTls) {
      args.add(BackupManagerMain.CLUSTER_TLS_FLAG);
    }
    args.add("--");
    args.add(brPath);
    args.addAll(brArgs);
    return args;
  }

  public static Job build(Work w, BackupSettings settings) {
    List<EnvVar> env = new ArrayList<>(credentials(w.storage()));
    if (w.pod().env() != null) {
      env.addAll(w.pod().env());
    }
    List<Volume> volumes = new ArrayList<>();
    List<VolumeMount> mounts = new ArrayList<>();
    List<Container> init = new ArrayList<>();
    if (w.brImage() != null) {
      volumes.add(new VolumeBuilder().withName("br-binary").withNewEmptyDir().endEmptyDir().build());
      VolumeMount binMount = new VolumeMountBuilder().withName("br-binary").withMountPath(BR_BIN_DIR).build();
      mounts.add(binMount);
      init.add(new ContainerBuilder()
          .withName(INIT_CONTAINER)
          .withImage(w.brImage())
          .withCommand("/bin/sh", "-c", "cp /br " + BR_BIN_DIR + "/br; echo 'BR copied'")
          .withVolumeMounts(binMount)
          .withResources(w.pod().resources())
          .build());
    }
    if (w.storage().getLocal() != null) {
      volumes.add(w.storage().getLocal().getVolume());
      mounts.add(w.storage().getLocal().getVolumeMount());
    }
    if (w.storage().getGcs() != null && w.storage().getGcs().getSecretName() != null) {
      volumes.add(new VolumeBuilder().withName("gcs-credentials").withNewSecret()
          .withSecretName(w.storage().getGcs().getSecretName()).endSecret().build());
      mounts.add(new VolumeMountBuilder().withName("gcs-credentials").withMountPath(GCS_CREDENTIALS_DIR)
          .withReadOnly(true).build());
    }
    if (w.clusterTls()) {
      volumes.add(new VolumeBuilder().withName(MemberPods.CLUSTER_CLIENT_VOLUME).withNewSecret()
          .withSecretName(MemberPods.clusterClientSecret(clusterOf(w.owner()))).endSecret().build());
      mounts.add(new VolumeMountBuilder().withName(MemberPods.CLUSTER_CLIENT_VOLUME)
          .withMountPath(CLUSTER_CLIENT_MOUNT).withReadOnly(true).build());
    }
    if (w.pod().additionalVolumes() != null) {
      volumes.addAll(w.pod().additionalVolumes());
    }
    if (w.pod().additionalVolumeMounts() != null) {
      mounts.addAll(w.pod().additionalVolumeMounts());
    }
    Container main = new ContainerBuilder()
        .withName(CONTAINER)
        .withImage(settings.image())
        .withArgs(w.args())
        .withEnv(env)
        .withResources(w.pod().resources())
        .withVolumeMounts(mounts)
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .build();
    Map<String, String> labels = labels(w.owner(), w.component(), w.extraLabels());
    return new JobBuilder()
        .withNewMetadata()
        .withName(w.jobName())
        .withNamespace(w.owner().getMetadata().getNamespace())
        .withLabels(labels)
        .withOwnerReferences(ownerRef(w.owner()))
        .endMetadata()
        .withNewSpec()
        .withBackoffLimit(0)
        .withNewTemplate()
        .withNewMetadata().withLabels(labels).endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .withServiceAccountName(w.serviceAccount())
        .withAutomountServiceAccountToken(true)
        .withSecurityContext(w.pod().podSecurityContext())
        .withAffinity(w.pod().affinity())
        .withTolerations(w.pod().tolerations())
        .withImagePullSecrets(w.pod().imagePullSecrets())
        .withPriorityClassName(w.pod().priorityClassName())
        .withInitContainers(init)
        .withContainers(main)
        .withVolumes(volumes)
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  /** The TidbCluster a Backup's or Restore's BR talks to: {@code spec.br.cluster}. */
  static String clusterOf(HasMetadata owner) {
    if (owner instanceof io.tidb.operator.api.v1alpha1.backup.Backup b) {
      return b.getSpec().getBr().getCluster();
    }
    if (owner instanceof io.tidb.operator.api.v1alpha1.backup.Restore r) {
      return r.getSpec().getBr().getCluster();
    }
    throw new IllegalArgumentException("no BR cluster for " + owner.getKind());
  }

  /** The storage's credentials as environment variables the kubelet fills from its Secret. */
  static List<EnvVar> credentials(StorageProvider storage) {
    List<EnvVar> env = new ArrayList<>();
    if (storage.getS3() != null && storage.getS3().getSecretName() != null) {
      S3_KEYS.entrySet().stream().sorted(Map.Entry.comparingByKey())
          .forEach(e -> env.add(secretEnv(e.getKey(), storage.getS3().getSecretName(), e.getValue())));
    }
    if (storage.getAzblob() != null) {
      env.addAll(azureCredentials(storage.getAzblob()));
    }
    return env;
  }

  /**
   * Azure's credentials as upstream passes them: {@code AZURE_STORAGE_ACCOUNT} is {@code
   * storageAccount}, else the Secret's key of that name; with a {@code sasToken} nothing else (the
   * token goes to BR and the clean-up as {@code --azblob.sas-token}); otherwise the Secret's Azure
   * AD keys and its shared key, each optional, so the kubelet sets those the Secret has and BR (and
   * the clean-up) choose as upstream: Azure AD when all three are there, else the shared key.
   */
  static List<EnvVar> azureCredentials(AzblobStorageProvider az) {
    List<EnvVar> env = new ArrayList<>();
    String secret = az.getSecretName();
    if (!blank(az.getStorageAccount())) {
      env.add(new EnvVarBuilder().withName(AZURE_ACCOUNT).withValue(az.getStorageAccount()).build());
    } else if (secret != null) {
      env.add(secretEnv(AZURE_ACCOUNT, secret, AZURE_ACCOUNT));
    }
    if (secret == null || !blank(az.getSasToken())) {
      return env;
    }
    for (String key : AZURE_AD_KEYS) {
      env.add(optionalSecretEnv(key, secret, key));
    }
    env.add(optionalSecretEnv(AZURE_SHARED_KEY, secret, AZURE_SHARED_KEY));
    return env;
  }

  /**
   * What the Azure Secret lacks, as upstream checks it, without any value: with no {@code
   * sasToken}, either the shared key or all three Azure AD keys. Empty when nothing is missing.
   *
   * @param has whether the Secret {@code secretName} has a key
   */
  public static Optional<String> azureCredentialProblem(AzblobStorageProvider az, Predicate<String> has) {
    if (az == null || az.getSecretName() == null || !blank(az.getSasToken())) {
      return Optional.empty();
    }
    if (has.test(AZURE_SHARED_KEY) || AZURE_AD_KEYS.stream().allMatch(has)) {
      return Optional.empty();
    }
    return Optional.of("Secret " + az.getSecretName() + " has neither " + AZURE_SHARED_KEY + " (the shared key) nor all of "
        + String.join(", ", AZURE_AD_KEYS) + " (Azure AD); or give spec.azblob.sasToken");
  }

  private static boolean blank(String s) {
    return s == null || s.isEmpty();
  }

  /** The Secret keys the Job's environment needs, by Secret name. */
  public static Map<String, List<String>> secretKeys(StorageProvider storage) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (EnvVar e : credentials(storage)) {
      var ref = e.getValueFrom() == null ? null : e.getValueFrom().getSecretKeyRef();
      if (ref != null && !Boolean.TRUE.equals(ref.getOptional())) {
        out.computeIfAbsent(ref.getName(), k -> new ArrayList<>()).add(ref.getKey());
      }
    }
    if (storage.getAzblob() != null && storage.getAzblob().getSecretName() != null) {
      out.computeIfAbsent(storage.getAzblob().getSecretName(), k -> new ArrayList<>());
    }
    if (storage.getGcs() != null && storage.getGcs().getSecretName() != null) {
      out.computeIfAbsent(storage.getGcs().getSecretName(), k -> new ArrayList<>()).add("credentials");
    }
    return out;
  }

  static Map<String, String> labels(HasMetadata owner, String component, Map<String, String> extra) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("app.kubernetes.io/name", "tidb-cluster");
    labels.put("app.kubernetes.io/component", component);
    labels.put("app.kubernetes.io/instance", owner.getMetadata().getName());
    labels.put(OwnedEventSources.MANAGED_BY, OwnedEventSources.MANAGED_BY_VALUE);
    labels.putAll(extra);
    return labels;
  }

  static OwnerReference ownerRef(HasMetadata owner) {
    return new OwnerReferenceBuilder()
        .withApiVersion(owner.getApiVersion())
        .withKind(owner.getKind())
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  private static EnvVar optionalSecretEnv(String name, String secret, String key) {
    return new EnvVarBuilder().withName(name).withNewValueFrom()
        .withSecretKeyRef(new SecretKeySelectorBuilder().withName(secret).withKey(key).withOptional(true).build())
        .endValueFrom().build();
  }

  private static EnvVar secretEnv(String name, String secret, String key) {
    return new EnvVarBuilder().withName(name).withNewValueFrom()
        .withSecretKeyRef(new SecretKeySelectorBuilder().withName(secret).withKey(key).withOptional(false).build())
        .endValueFrom().build();
  }
}
