package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Azure Blob Storage, as upstream's AzblobStorageProvider. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class AzblobStorageProvider {

  @JsonProperty("path")
  @JsonPropertyDescription("Deprecated path of the backup in upstream.")
  private String path;

  @JsonProperty("container")
  @JsonPropertyDescription("The container holding the backups.")
  private String container;

  @JsonProperty("accessTier")
  @JsonPropertyDescription("Access tier of the written blobs: Hot, Cool or Archive.")
  private String accessTier;

  @JsonProperty("secretName")
  @JsonPropertyDescription("Secret with AZURE_STORAGE_ACCOUNT and a key or AD credentials.")
  private String secretName;

  @JsonProperty("storageAccount")
  @JsonPropertyDescription("The storage account, when not in the Secret.")
  private String storageAccount;

  @JsonProperty("sasToken")
  @JsonPropertyDescription("A SAS token, when no Secret is used.")
  private String sasToken;

  @JsonProperty("prefix")
  @JsonPropertyDescription("The prefix (folder) in the container.")
  private String prefix;
}
