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
import io.fabric8.generator.annotation.Required;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** One PD microservice (tso or scheduling). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class PdMsSpec extends MemberSpec {

  @JsonProperty("name")
  @JsonPropertyDescription("Microservice name: tso or scheduling.")
  @Required
  private String name;

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image without tag; the image is baseImage:version.")
  @Default("pingcap/pd")
  private String baseImage;

  @JsonProperty("service")
  @JsonPropertyDescription("Service of the microservice.")
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

  @JsonProperty("config")
  @JsonPropertyDescription("Free-form configuration file, rendered to TOML. Either a map or a TOML string.")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;

  @JsonProperty("tlsClientSecretName")
  @JsonPropertyDescription("Secret holding the TLS client certificate used to reach the cluster.")
  private String tlsClientSecretName;

  @JsonProperty("mountClusterClientSecret")
  @JsonPropertyDescription("Mount the cluster client TLS secret into the pods (for pd-ctl/tikv-ctl).")
  private Boolean mountClusterClientSecret;

  @JsonProperty("startTimeout")
  @JsonPropertyDescription("Seconds the start script waits for the microservice to start.")
  @Default("30")
  @Min(0)
  private Integer startTimeout;

  @JsonProperty("startUpScriptVersion")
  @JsonPropertyDescription("Start script version: '' or 'v1'.")
  @Pattern("^(v1)?$")
  private String startUpScriptVersion;
}
