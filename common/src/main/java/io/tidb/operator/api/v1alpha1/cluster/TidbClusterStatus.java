package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Observed state of a TiDB cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TidbClusterStatus {

  @JsonProperty("clusterID")
  @JsonPropertyDescription("ID of the PD cluster.")
  private String clusterID;

  @JsonProperty("observedGeneration")
  @JsonPropertyDescription("metadata.generation the status was computed from.")
  private Long observedGeneration;

  @JsonProperty("conditions")
  @JsonPropertyDescription("Cluster conditions; type Ready tells whether every component is up.")
  private List<Condition> conditions;

  @JsonProperty("pd")
  @JsonPropertyDescription("PD.")
  private PdStatus pd;

  @JsonProperty("pdms")
  @JsonPropertyDescription("PD microservices, by name.")
  private Map<String, PdMsStatus> pdms;

  @JsonProperty("tikv")
  @JsonPropertyDescription("TiKV.")
  private TikvStatus tikv;

  @JsonProperty("tidb")
  @JsonPropertyDescription("TiDB.")
  private TidbStatus tidb;

  @JsonProperty("tiflash")
  @JsonPropertyDescription("TiFlash.")
  private TiflashStatus tiflash;

  @JsonProperty("ticdc")
  @JsonPropertyDescription("TiCDC.")
  private TicdcStatus ticdc;

  @JsonProperty("tiproxy")
  @JsonPropertyDescription("TiProxy.")
  private TiproxyStatus tiproxy;

  @JsonProperty("pump")
  @JsonPropertyDescription("Pump.")
  private PumpStatus pump;
}
