package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Lifecycle;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The TiDB SQL component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class TidbSpec extends MemberSpec {

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image without tag; the image is baseImage:version.")
  @Default("pingcap/tidb")
  private String baseImage;

  @JsonProperty("service")
  @JsonPropertyDescription("MySQL Service of TiDB.")
  private TidbServiceSpec service;

  @JsonProperty("binlogEnabled")
  @JsonPropertyDescription("Enable binlog (needs Pump).")
  private Boolean binlogEnabled;

  @JsonProperty("maxFailoverCount")
  @JsonPropertyDescription("Most extra members the operator creates on failover; 0 disables failover.")
  @Min(0)
  private Integer maxFailoverCount;

  @JsonProperty("separateSlowLog")
  @JsonPropertyDescription("Write the slow log to its own file tailed by a sidecar.")
  private Boolean separateSlowLog;

  @JsonProperty("slowLogVolumeName")
  @JsonPropertyDescription("Name of a storageVolume holding the slow log.")
  private String slowLogVolumeName;

  @JsonProperty("slowLogTailer")
  @JsonPropertyDescription("The sidecar that tails the slow log.")
  private SlowLogTailerSpec slowLogTailer;

  @JsonProperty("tlsClient")
  @JsonPropertyDescription("TLS between MySQL clients and TiDB.")
  private TidbTlsClient tlsClient;

  @JsonProperty("tokenBasedAuthEnabled")
  @JsonPropertyDescription("Enable token-based authentication.")
  private Boolean tokenBasedAuthEnabled;

  @JsonProperty("plugins")
  @JsonPropertyDescription("TiDB plugins to load.")
  private List<String> plugins;

  @JsonProperty("config")
  @JsonPropertyDescription("Free-form configuration file, rendered to TOML. Either a map or a TOML string.")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;

  @JsonProperty("lifecycle")
  @JsonPropertyDescription("Lifecycle hooks of the TiDB container.")
  private Lifecycle lifecycle;

  @JsonProperty("storageVolumes")
  @JsonPropertyDescription("Extra persistent volumes mounted into the main container.")
  private List<StorageVolume> storageVolumes;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("StorageClass of the data volume; the cluster default when empty.")
  private String storageClassName;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("VolumeAttributesClass of the data volume.")
  private String volumeAttributesClassName;

  @JsonProperty("initializer")
  @JsonPropertyDescription("How the root password is initialised.")
  private TidbPasswordInitializer initializer;

  @JsonProperty("bootstrapSQLConfigMapName")
  @JsonPropertyDescription("ConfigMap with SQL run once at bootstrap; immutable.")
  @ValidationRule(value = "self == oldSelf", message = "bootstrapSQLConfigMapName is immutable")
  private String bootstrapSQLConfigMapName;

  @JsonProperty("scalePolicy")
  @JsonPropertyDescription("How many members are added or removed at once.")
  private ScalePolicy scalePolicy;

  @JsonProperty("customizedStartupProbe")
  @JsonPropertyDescription("A startup probe running a custom binary.")
  private CustomizedStartupProbe customizedStartupProbe;

  @JsonProperty("arguments")
  @JsonPropertyDescription("Extra command-line arguments of tidb-server.")
  private List<String> arguments;

  @JsonProperty("serverLabels")
  @JsonPropertyDescription("Labels reported to PD for this server.")
  private Map<String, String> serverLabels;
}
