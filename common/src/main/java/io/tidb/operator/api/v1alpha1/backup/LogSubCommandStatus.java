package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Status of one log-backup subcommand, as upstream's LogSubCommandStatus. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class LogSubCommandStatus {

  @JsonProperty("command")
  @JsonPropertyDescription("The subcommand.")
  private String command;

  @JsonProperty("timeStarted")
  @JsonPropertyDescription("When it started.")
  private String timeStarted;

  @JsonProperty("timeCompleted")
  @JsonPropertyDescription("When it ended.")
  private String timeCompleted;

  @JsonProperty("logTruncatingUntil")
  @JsonPropertyDescription("The truncation in progress.")
  private String logTruncatingUntil;

  @JsonProperty("phase")
  @JsonPropertyDescription("Its phase.")
  private String phase;

  @JsonProperty("conditions")
  @JsonPropertyDescription("Its conditions.")
  private List<BackupCondition> conditions;
}
