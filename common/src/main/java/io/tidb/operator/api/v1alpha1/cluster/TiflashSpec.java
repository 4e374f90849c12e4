package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The TiFlash columnar storage component. */
@ValidationRule(value = "has(self.storageClaims) && size(self.storageClaims) > 0", message = "TiFlash needs at least one storage claim", fieldPath = ".storageClaims", reason = "FieldValueRequired")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
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
}
