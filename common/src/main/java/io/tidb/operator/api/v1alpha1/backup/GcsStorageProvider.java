package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Google Cloud Storage, as upstream's GcsStorageProvider. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class GcsStorageProvider {

  @JsonProperty("projectId")
  @JsonPropertyDescription("The GCP project. Required.")
  @Required
  private String projectId;

  @JsonProperty("location")
  @JsonPropertyDescription("Location of a bucket to create.")
  private String location;

  @JsonProperty("path")
  @JsonPropertyDescription("Deprecated path of the backup in upstream.")
  private String path;

  @JsonProperty("bucket")
  @JsonPropertyDescription("The bucket holding the backups.")
  private String bucket;

  @JsonProperty("storageClass")
  @JsonPropertyDescription("Storage class of the written objects.")
  private String storageClass;

  @JsonProperty("objectAcl")
  @JsonPropertyDescription("ACL of the written objects.")
  private String objectAcl;

  @JsonProperty("bucketAcl")
  @JsonPropertyDescription("ACL of a bucket to create.")
  private String bucketAcl;

  @JsonProperty("secretName")
  @JsonPropertyDescription("Secret with credentials (key credentials); unset means workload identity.")
  private String secretName;

  @JsonProperty("prefix")
  @JsonPropertyDescription("The prefix (folder) in the bucket.")
  private String prefix;
}
