package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A store the operator failed over. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class FailureStore {

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod of the failed store.")
  private String podName;

  @JsonProperty("storeID")
  @JsonPropertyDescription("Store ID.")
  private String storeID;

  @JsonProperty("pvcUIDSet")
  @JsonPropertyDescription("UIDs of the store's PVCs.")
  private Map<String, Map<String, String>> pvcUIDSet;

  @JsonProperty("storeDeleted")
  @JsonPropertyDescription("The store was deleted from PD.")
  private Boolean storeDeleted;

  @JsonProperty("hostDown")
  @JsonPropertyDescription("The store's node is down.")
  private Boolean hostDown;

  @JsonProperty("createdAt")
  @JsonPropertyDescription("When the failure was recorded (RFC 3339).")
  private String createdAt;
}
