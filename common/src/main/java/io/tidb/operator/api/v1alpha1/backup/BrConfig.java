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

/** How BR runs, as upstream's BRConfig. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class BrConfig {

  @JsonProperty("cluster")
  @JsonPropertyDescription("The TidbCluster to back up or restore into. Required.")
  @Required
  private String cluster;

  @JsonProperty("clusterNamespace")
  @JsonPropertyDescription("Namespace of the TidbCluster; the object's own when unset.")
  private String clusterNamespace;

  @JsonProperty("db")
  @JsonPropertyDescription("The database of a db or table backup (deprecated upstream in favour of tableFilter).")
  private String db;

  @JsonProperty("table")
  @JsonPropertyDescription("The table of a table backup (deprecated upstream in favour of tableFilter).")
  private String table;

  @JsonProperty("logLevel")
  @JsonPropertyDescription("BR's log level.")
  private String logLevel;

  @JsonProperty("statusAddr")
  @JsonPropertyDescription("Address of BR's status server.")
  private String statusAddr;

  @JsonProperty("concurrency")
  @JsonPropertyDescription("Concurrency of BR's work per TiKV.")
  private Integer concurrency;

  @JsonProperty("rateLimit")
  @JsonPropertyDescription("Rate limit per TiKV in MiB/s.")
  private Integer rateLimit;

  @JsonProperty("timeAgo")
  @JsonPropertyDescription("Back up the data as of this long ago (BR --timeago).")
  private String timeAgo;

  @JsonProperty("checksum")
  @JsonPropertyDescription("Whether BR checks checksums after the backup or restore.")
  private Boolean checksum;

  @JsonProperty("checkRequirements")
  @JsonPropertyDescription("Whether BR checks the cluster's requirements first.")
  private Boolean checkRequirements;

  @JsonProperty("sendCredToTikv")
  @JsonPropertyDescription("Whether BR sends the storage credentials to TiKV.")
  private Boolean sendCredToTikv;

  @JsonProperty("onLine")
  @JsonPropertyDescription("Whether a restore runs in online mode.")
  private Boolean onLine;

  @JsonProperty("options")
  @JsonPropertyDescription("Extra BR command-line options, passed as they are.")
  private List<String> options;
}
