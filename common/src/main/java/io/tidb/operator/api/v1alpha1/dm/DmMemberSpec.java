package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.ComponentSpec;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The fields dm-master and dm-worker share: replicas, image, failover, the data volume, the config file. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public abstract class DmMemberSpec extends ComponentSpec {

  @JsonProperty("replicas")
  @JsonPropertyDescription("Desired number of members.")
  @Required
  @Min(0)
  private Integer replicas;

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image without tag; the image is baseImage:version (default pingcap/dm when a version is set).")
  private String baseImage;

  @JsonProperty("maxFailoverCount")
  @JsonPropertyDescription("Most extra members the operator creates on failover; 0 disables failover (default 3).")
  @Min(0)
  private Integer maxFailoverCount;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("StorageClass of the data volume; the cluster default when empty.")
  private String storageClassName;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("VolumeAttributesClass of the data volume; when set, a storageClassName change is ignored.")
  private String volumeAttributesClassName;

  @JsonProperty("storageSize")
  @JsonPropertyDescription("Size of the data volume, e.g. 10Gi.")
  private String storageSize;

  @JsonProperty("dataSubDir")
  @JsonPropertyDescription("Subdirectory of the data volume that holds the data; changing it on a running cluster moves to an empty directory.")
  private String dataSubDir;

  @JsonProperty("config")
  @JsonPropertyDescription("Free-form configuration file, rendered to TOML. Either a map or a TOML string.")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;
}
