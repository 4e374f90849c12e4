package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** One of the storage providers, as upstream's StorageProvider. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class StorageProvider {

  @JsonProperty("s3")
  @JsonPropertyDescription("S3-compatible storage (AWS, Ceph, MinIO, ...).")
  private S3StorageProvider s3;

  @JsonProperty("gcs")
  @JsonPropertyDescription("Google Cloud Storage.")
  private GcsStorageProvider gcs;

  @JsonProperty("azblob")
  @JsonPropertyDescription("Azure Blob Storage.")
  private AzblobStorageProvider azblob;

  @JsonProperty("local")
  @JsonPropertyDescription("A volume mounted into the Job pod (NFS, hostPath, PVC).")
  private LocalStorageProvider local;
}
