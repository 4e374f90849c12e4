package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** S3-compatible storage, as upstream's S3StorageProvider. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class S3StorageProvider {

  @JsonProperty("provider")
  @JsonPropertyDescription("The S3 provider: aws, ceph, minio, alibaba, ... Required.")
  @Required
  private String provider;

  @JsonProperty("region")
  @JsonPropertyDescription("Region of the bucket.")
  private String region;

  @JsonProperty("path")
  @JsonPropertyDescription("Deprecated path of the backup in upstream; bucket and prefix are used instead.")
  private String path;

  @JsonProperty("bucket")
  @JsonPropertyDescription("The bucket holding the backups.")
  private String bucket;

  @JsonProperty("endpoint")
  @JsonPropertyDescription("Endpoint URL (scheme and host) of an S3-compatible server.")
  private String endpoint;

  @JsonProperty("storageClass")
  @JsonPropertyDescription("Storage class of the written objects.")
  private String storageClass;

  @JsonProperty("acl")
  @JsonPropertyDescription("Canned ACL of the written objects.")
  private String acl;

  @JsonProperty("secretName")
  @JsonPropertyDescription("Secret with access_key and secret_key; unset means the pod's IAM role.")
  private String secretName;

  @JsonProperty("prefix")
  @JsonPropertyDescription("The prefix (folder) in the bucket under which this backup lives.")
  private String prefix;

  @JsonProperty("sse")
  @JsonPropertyDescription("Server-side encryption of the written objects.")
  private String sse;

  @JsonProperty("options")
  @JsonPropertyDescription("Extra rclone options (Dumpling path).")
  private List<String> options;

  @JsonProperty("forcePathStyle")
  @JsonPropertyDescription("Whether to address the bucket in the path instead of the host name.")
  private Boolean forcePathStyle;
}
