package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The PD (placement driver) component. */
@ValidationRule(value = "has(self.requests) && 'storage' in self.requests", message = "the data volume size is required", fieldPath = ".requests", reason = "FieldValueRequired")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class PdSpec extends MemberSpec {

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image without tag; the image is baseImage:version.")
  @Default("pingcap/pd")
  private String baseImage;

  @JsonProperty("service")
  @JsonPropertyDescription("Client Service of PD.")
  private ServiceSpec service;

  @JsonProperty("maxFailoverCount")
  @JsonPropertyDescription("Most extra members the operator creates on failover; 0 disables failover.")
  @Min(0)
  private Integer maxFailoverCount;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("StorageClass of the data volume; the cluster default when empty.")
  private String storageClassName;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("VolumeAttributesClass of the data volume.")
  private String volumeAttributesClassName;

  @JsonProperty("storageVolumes")
  @JsonPropertyDescription("Extra persistent volumes mounted into the main container.")
  private List<StorageVolume> storageVolumes;

  @JsonProperty("dataSubDir")
  @JsonPropertyDescription("Subdirectory of the data volume that holds the data; must be relative without '..'.")
  private String dataSubDir;

  @JsonProperty("config")
  @JsonPropertyDescription("Free-form configuration file, rendered to TOML. Either a map or a TOML string.")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;

  @JsonProperty("tlsClientSecretName")
  @JsonPropertyDescription("Secret holding the TLS client certificate used to reach the cluster.")
  private String tlsClientSecretName;

  @JsonProperty("enableDashboardInternalProxy")
  @JsonPropertyDescription("Deprecated: use config dashboard.internal-proxy.")
  private Boolean enableDashboardInternalProxy;

  @JsonProperty("startTimeout")
  @JsonPropertyDescription("Seconds the start script waits for PD to start.")
  @Default("30")
  @Min(0)
  private Integer startTimeout;

  @JsonProperty("initWaitTime")
  @JsonPropertyDescription("Seconds the first PD member waits for the others before bootstrapping.")
  @Default("0")
  @Min(0)
  private Integer initWaitTime;

  @JsonProperty("mode")
  @JsonPropertyDescription("PD mode: '' (plain) or 'ms' (microservices).")
  @Pattern("^(ms)?$")
  private String mode;

  @JsonProperty("startUpScriptVersion")
  @JsonPropertyDescription("Start script version of PD: '' or 'v1'.")
  @Pattern("^(v1)?$")
  private String startUpScriptVersion;

  @JsonProperty("mountClusterClientSecret")
  @JsonPropertyDescription("Mount the cluster client TLS secret into the pods (for pd-ctl/tikv-ctl).")
  private Boolean mountClusterClientSecret;

  @JsonProperty("spareVolReplaceReplicas")
  @JsonPropertyDescription("Extra members kept while volumes are replaced.")
  @Min(0)
  private Integer spareVolReplaceReplicas;
}
