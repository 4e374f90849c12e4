package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import java.util.Objects;

/** The TiFlash columnar storage component. */
@ValidationRule(value = "has(self.storageClaims) && size(self.storageClaims) > 0", message = "TiFlash needs at least one storage claim", fieldPath = ".storageClaims", reason = "FieldValueRequired")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TiflashSpec extends MemberSpec {

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image without tag; the image is baseImage:version.")
  @Default("pingcap/tiflash")
  private String baseImage;

  @JsonProperty("privileged")
  @JsonPropertyDescription("Run the main container privileged.")
  private Boolean privileged;

  @JsonProperty("maxFailoverCount")
  @JsonPropertyDescription("Most extra members the operator creates on failover; 0 disables failover.")
  @Min(0)
  private Integer maxFailoverCount;

  @JsonProperty("storageClaims")
  @JsonPropertyDescription("Persistent volumes of TiFlash; at least one, each with a storage request.")
  private List<StorageClaim> storageClaims;

  @JsonProperty("config")
  @JsonPropertyDescription("Configuration files of TiFlash and its proxy.")
  private TiflashConfig config;

  @JsonProperty("initializer")
  @JsonPropertyDescription("Resources of the init container.")
  private InitContainerSpec initializer;

  @JsonProperty("logTailer")
  @JsonPropertyDescription("The sidecar that tails the log file to stdout.")
  private LogTailerSpec logTailer;

  @JsonProperty("recoverFailover")
  @JsonPropertyDescription("Remove failover members once the failed ones are healthy again.")
  private Boolean recoverFailover;

  @JsonProperty("failover")
  @JsonPropertyDescription("Failover behaviour.")
  private Failover failover;

  @JsonProperty("scalePolicy")
  @JsonPropertyDescription("How many members are added or removed at once.")
  private ScalePolicy scalePolicy;

  public String getBaseImage() {
    return baseImage;
  }

  public void setBaseImage(String baseImage) {
    this.baseImage = baseImage;
  }

  public Boolean getPrivileged() {
    return privileged;
  }

  public void setPrivileged(Boolean privileged) {
    this.privileged = privileged;
  }

  public Integer getMaxFailoverCount() {
    return maxFailoverCount;
  }

  public void setMaxFailoverCount(Integer maxFailoverCount) {
    this.maxFailoverCount = maxFailoverCount;
  }

  public List<StorageClaim> getStorageClaims() {
    return storageClaims;
  }

  public void setStorageClaims(List<StorageClaim> storageClaims) {
    this.storageClaims = storageClaims;
  }

  public TiflashConfig getConfig() {
    return config;
  }

  public void setConfig(TiflashConfig config) {
    this.config = config;
  }

  public InitContainerSpec getInitializer() {
    return initializer;
  }

  public void setInitializer(InitContainerSpec initializer) {
    this.initializer = initializer;
  }

  public LogTailerSpec getLogTailer() {
    return logTailer;
  }

  public void setLogTailer(LogTailerSpec logTailer) {
    this.logTailer = logTailer;
  }

  public Boolean getRecoverFailover() {
    return recoverFailover;
  }

  public void setRecoverFailover(Boolean recoverFailover) {
    this.recoverFailover = recoverFailover;
  }

  public Failover getFailover() {
    return failover;
  }

  public void setFailover(Failover failover) {
    this.failover = failover;
  }

  public ScalePolicy getScalePolicy() {
    return scalePolicy;
  }

  public void setScalePolicy(ScalePolicy scalePolicy) {
    this.scalePolicy = scalePolicy;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    if (!super.equals(o)) {
      return false;
    }
    TiflashSpec that = (TiflashSpec) o;
    return Objects.equals(baseImage, that.baseImage)
        && Objects.equals(privileged, that.privileged)
        && Objects.equals(maxFailoverCount, that.maxFailoverCount)
        && Objects.equals(storageClaims, that.storageClaims)
        && Objects.equals(config, that.config)
        && Objects.equals(initializer, that.initializer)
        && Objects.equals(logTailer, that.logTailer)
        && Objects.equals(recoverFailover, that.recoverFailover)
        && Objects.equals(failover, that.failover)
        && Objects.equals(scalePolicy, that.scalePolicy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), baseImage, privileged, maxFailoverCount, storageClaims, config, initializer, logTailer, recoverFailover, failover, scalePolicy);
  }
}
