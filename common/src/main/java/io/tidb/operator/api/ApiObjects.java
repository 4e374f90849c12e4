package io.tidb.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import java.util.List;

/**
 * JSON helpers for the API model, using fabric8's serialization (the same the Kubernetes client
 * uses), so copies and trees match what goes over the wire.
 */
public final class ApiObjects {

  /**
   * The kinds this project's processes watch, registered by name so that reading their watch
   * events needs no search. fabric8 otherwise finds kinds by loading and instantiating every model
   * class its jars list as a service, about 600, at the first object read by kind (about 0.1 s of
   * CPU under C1, on the controller's start path). Any other kind is still found that way, when it
   * is first met ({@link #kubernetesResource}).
   */
  static final List<Class<? extends KubernetesResource>> WATCHED_KINDS = List.of(
      Pod.class, Service.class, ConfigMap.class, Secret.class, PersistentVolumeClaim.class,
      PersistentVolume.class, ServiceAccount.class, StatefulSet.class, Deployment.class, Job.class,
      Role.class, RoleBinding.class, Ingress.class,
      TidbCluster.class, TidbInitializer.class, TidbMonitor.class, DmCluster.class, Backup.class,
      Restore.class, BackupSchedule.class);

  private static final ObjectMapper MAPPER = mapper();

  private static final KubernetesSerialization SERIALIZATION = newSerialization(MAPPER);

  private ApiObjects() {}

  /** fabric8's serialization on the operator's mapper, its kinds registered and nothing searched. */
  static KubernetesSerialization newSerialization() {
    return newSerialization(mapper());
  }

  /**
   * fabric8's serialization on {@code mapper}, configured as the processes read and write the
   * model: fabric8's modules, the properties read and written through their fields ({@link
   * FieldBackedProperties}), quantities read from their text ({@link QuantityReader}), the watched
   * kinds registered by name. For a mapper of a process's own (the webhook's, with its limits on
   * what a body may hold) as for this class's.
   */
  public static KubernetesSerialization newSerialization(ObjectMapper mapper) {
    // Field writes registered before fabric8's modules and field reads after them: Jackson runs
    // the last registered modifier first. The writes replace the writers fabric8 wraps; the reads
    // replace the setter properties before fabric8 wraps them.
    mapper.registerModule(new SimpleModule("field-writes").setSerializerModifier(new FieldBackedProperties.Writes()));
    mapper.addMixIn(Quantity.class, QuantityMixIn.class);
    KubernetesSerialization serialization = new KubernetesSerialization(mapper, false);
    mapper.registerModule(new SimpleModule("field-reads").setDeserializerModifier(new FieldBackedProperties.Reads()));
    WATCHED_KINDS.forEach(serialization::registerKubernetesResource);
    return serialization;
  }

  /** Every kind of fabric8's model jars, searched once, when a kind outside {@link #WATCHED_KINDS} is first met. */
  private static final class AllKinds {
    static final KubernetesSerialization CATALOG = new KubernetesSerialization(new ObjectMapper(), true);
  }

  /**
   * The model class of {@code apiVersion} and {@code kind}: a registered one, else one of fabric8's
   * model (registered from then on), else {@code null}.
   */
  public static Class<? extends KubernetesResource> kubernetesResource(String apiVersion, String kind) {
    Class<? extends KubernetesResource> type = SERIALIZATION.getRegisteredKubernetesResource(apiVersion, kind);
    if (type == null) {
      type = AllKinds.CATALOG.getRegisteredKubernetesResource(apiVersion, kind);
      if (type != null) {
        SERIALIZATION.registerKubernetesResource(apiVersion, kind, type);
      }
    }
    return type;
  }

  /**
   * From now on, objects read keep of their {@code metadata.managedFields} only {@code
   * fieldManager}'s own apply entry, and the other entries' field sets are not even parsed ({@link
   * ManagedFieldsReader}). For a process that reads only its own entry, the controller, which calls
   * this once as it starts, before any object is read: the objects its client reads from the API
   * server (lists, watch events, answers) and its copies of them. Manifests read by any other
   * process keep every entry, as the API's round trip requires.
   */
  public static void keepOnlyManagedFieldsOf(String fieldManager) {
    keepOnlyManagedFieldsOf(MAPPER, fieldManager);
  }

  static void keepOnlyManagedFieldsOf(ObjectMapper mapper, String fieldManager) {
    withSharedAttribute(mapper, ManagedFieldsReader.KEPT_MANAGER, fieldManager);
  }

  /**
   * From now on, an operator custom resource that the model cannot hold (a field of the wrong JSON
   * type where the CRD keeps no schema) is read as a stand-in, not refused: its metadata, no spec
   * or status, the reason in {@link UnreadableResources} ({@link ResourceStandIns}). For the
   * controller, which calls this once as it starts: one such object otherwise stopped the informer
   * that met it, and the process with it. Reads by any other process fail as before.
   */
  public static void readUnreadableResourcesAsStandIns() {
    readUnreadableResourcesAsStandIns(MAPPER);
  }

  static void readUnreadableResourcesAsStandIns(ObjectMapper mapper) {
    withSharedAttribute(mapper, ResourceStandIns.ATTRIBUTE, Boolean.TRUE);
  }

  private static void withSharedAttribute(ObjectMapper mapper, String key, Object value) {
    mapper.setDefaultAttributes(mapper.getDeserializationConfig().getAttributes().withSharedAttribute(key, value));
  }

  /**
   * Whether {@code entry} is {@code fieldManager}'s own server-side apply entry: operation {@code
   * Apply}, no subresource. The one entry of an object's managedFields a field manager reads.
   */
  public static boolean ownApplyEntry(ManagedFieldsEntry entry, String fieldManager) {
    return fieldManager.equals(entry.getManager())
        && "Apply".equals(entry.getOperation())
        && (entry.getSubresource() == null || entry.getSubresource().isEmpty());
  }

  /**
   * The mapper before fabric8 configures it: watch events' objects read in one pass, each
   * property's deserializer built when a value first arrives for it ({@link
   * LazyPropertyDeserializers}), managedFields read by {@link ManagedFieldsReader}, the custom
   * resources' readers able to give stand-ins ({@link ResourceStandIns}, off until turned on).
   */
  static ObjectMapper mapper() {
    return new ObjectMapper()
        .addMixIn(WatchEvent.class, WatchEventObjectMixIn.class)
        .addMixIn(ObjectMeta.class, ObjectMetaMixIn.class)
        .registerModule(new SimpleModule("lazy-property-deserializers")
            .setDeserializerModifier(new LazyPropertyDeserializers()))
        .registerModule(new SimpleModule("resource-stand-ins")
            .setDeserializerModifier(new ResourceStandIns()));
  }

  /** Reads quantities written as strings with {@link QuantityReader}. */
  @JsonDeserialize(using = QuantityReader.class)
  private abstract static class QuantityMixIn {}

  /** Reads managedFields with {@link ManagedFieldsReader}. */
  private abstract static class ObjectMetaMixIn {
    @JsonDeserialize(using = ManagedFieldsReader.class)
    abstract void setManagedFields(List<ManagedFieldsEntry> managedFields);
  }

  /** Puts {@link WatchObjectReader} in the place of fabric8's reader of a watch event's object. */
  private abstract static class WatchEventObjectMixIn {
    @JsonDeserialize(using = WatchObjectReader.class)
    abstract void setObject(Object object);
  }

  /** A deep copy of {@code obj} made through JSON; {@code null} gives {@code null}. */
  @SuppressWarnings("unchecked")
  public static <T> T deepCopy(T obj) {
    if (obj == null) {
      return null;
    }
    return (T) SERIALIZATION.convertValue(obj, obj.getClass());
  }

  /** The JSON tree {@code obj} serializes to. */
  public static JsonNode toTree(Object obj) {
    return SERIALIZATION.convertValue(obj, JsonNode.class);
  }

  /** Reads {@code type} from a JSON tree. */
  public static <T> T fromTree(JsonNode tree, Class<T> type) {
    return SERIALIZATION.convertValue(tree, type);
  }

  /** Reads {@code type} from JSON or YAML text (one document). */
  public static <T> T parse(String jsonOrYaml, Class<T> type) {
    return SERIALIZATION.unmarshal(jsonOrYaml, type);
  }

  /** Compact JSON of {@code obj}. */
  public static String toJson(Object obj) {
    return SERIALIZATION.asJson(obj);
  }

  /** The serialization used here, for callers that need the underlying mapper. */
  public static KubernetesSerialization serialization() {
    return SERIALIZATION;
  }
}
