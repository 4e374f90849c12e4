package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Replication restore settings, as upstream's ReplicationConfig. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class RestoreReplicationConfig {

  @JsonProperty("compactBackupName")
  @JsonPropertyDescription("The CompactBackup to wait for. Required.")
  @Required
  private String compactBackupName;

  @JsonProperty("waitTimeout")
  @JsonPropertyDescription("How long to wait for it.")
  private String waitTimeout;
}
