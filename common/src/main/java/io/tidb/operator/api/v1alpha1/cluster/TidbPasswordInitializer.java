package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** Root password initialisation of TiDB. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TidbPasswordInitializer {

  @JsonProperty("createPassword")
  @JsonPropertyDescription("Create a random root password in a Secret at bootstrap.")
  private Boolean createPassword;

  public Boolean getCreatePassword() {
    return createPassword;
  }

  public void setCreatePassword(Boolean createPassword) {
    this.createPassword = createPassword;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TidbPasswordInitializer that = (TidbPasswordInitializer) o;
    return Objects.equals(createPassword, that.createPassword);
  }

  @Override
  public int hashCode() {
    return Objects.hash(createPassword);
  }
}
