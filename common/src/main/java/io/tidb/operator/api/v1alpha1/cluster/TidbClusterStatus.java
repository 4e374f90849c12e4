package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Observed state of a TiDB cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public String getClusterID() {
    return clusterID;
  }

  public void setClusterID(String clusterID) {
    this.clusterID = clusterID;
  }

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public PdStatus getPd() {
    return pd;
  }

  public void setPd(PdStatus pd) {
    this.pd = pd;
  }

  public Map<String, PdMsStatus> getPdms() {
    return pdms;
  }

  public void setPdms(Map<String, PdMsStatus> pdms) {
    this.pdms = pdms;
  }

  public TikvStatus getTikv() {
    return tikv;
  }

  public void setTikv(TikvStatus tikv) {
    this.tikv = tikv;
  }

  public TidbStatus getTidb() {
    return tidb;
  }

  public void setTidb(TidbStatus tidb) {
    this.tidb = tidb;
  }

  public TiflashStatus getTiflash() {
    return tiflash;
  }

  public void setTiflash(TiflashStatus tiflash) {
    this.tiflash = tiflash;
  }

  public TicdcStatus getTicdc() {
    return ticdc;
  }

  public void setTicdc(TicdcStatus ticdc) {
    this.ticdc = ticdc;
  }

  public TiproxyStatus getTiproxy() {
    return tiproxy;
  }

  public void setTiproxy(TiproxyStatus tiproxy) {
    this.tiproxy = tiproxy;
  }

  public PumpStatus getPump() {
    return pump;
  }

  public void setPump(PumpStatus pump) {
    this.pump = pump;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TidbClusterStatus that = (TidbClusterStatus) o;
    return Objects.equals(clusterID, that.clusterID)
        && Objects.equals(observedGeneration, that.observedGeneration)
        && Objects.equals(conditions, that.conditions)
        && Objects.equals(pd, that.pd)
        && Objects.equals(pdms, that.pdms)
        && Objects.equals(tikv, that.tikv)
        && Objects.equals(tidb, that.tidb)
        && Objects.equals(tiflash, that.tiflash)
        && Objects.equals(ticdc, that.ticdc)
        && Objects.equals(tiproxy, that.tiproxy)
        && Objects.equals(pump, that.pump);
  }

  @Override
  public int hashCode() {
    return Objects.hash(clusterID, observedGeneration, conditions, pd, pdms, tikv, tidb, tiflash, ticdc, tiproxy, pump);
  }
}
