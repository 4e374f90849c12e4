package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.networking.v1.IngressTLS;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** An Ingress in front of a monitor Service. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class IngressSpec {

  @JsonProperty("hosts")
  @JsonPropertyDescription("Host names the Ingress serves.")
  @Required
  private List<String> hosts;

  @JsonProperty("annotations")
  @JsonPropertyDescription("Ingress annotations.")
  private Map<String, String> annotations;

  @JsonProperty("tls")
  @JsonPropertyDescription("TLS of the Ingress.")
  private List<IngressTLS> tls;
}
