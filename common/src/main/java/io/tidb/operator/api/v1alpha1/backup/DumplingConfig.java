package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Dumpling options, as upstream's DumplingConfig. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class DumplingConfig {

  @JsonProperty("options")
  @JsonPropertyDescription("Extra Dumpling options.")
  private List<String> options;

  @JsonProperty("tableFilter")
  @JsonPropertyDescription("Deprecated table filter; use spec.tableFilter.")
  private List<String> tableFilter;
}
