package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A Thanos sidecar next to Prometheus. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class ThanosSpec extends MonitorContainer {

  @JsonProperty("objectStorageConfig")
  @JsonPropertyDescription("Secret key holding the object storage configuration.")
  private SecretKeySelector objectStorageConfig;

  @JsonProperty("objectStorageConfigFile")
  @JsonPropertyDescription("Path of the object storage configuration file; overrides objectStorageConfig.")
  private String objectStorageConfigFile;

  @JsonProperty("listenLocal")
  @JsonPropertyDescription("Listen on 127.0.0.1 only.")
  private Boolean listenLocal;

  @JsonProperty("tracingConfig")
  @JsonPropertyDescription("Secret key holding the tracing configuration.")
  private SecretKeySelector tracingConfig;

  @JsonProperty("tracingConfigFile")
  @JsonPropertyDescription("Path of the tracing configuration file; overrides tracingConfig.")
  private String tracingConfigFile;

  @JsonProperty("grpcServerTlsConfig")
  @JsonPropertyDescription("TLS of the sidecar gRPC server.")
  private TlsConfig grpcServerTlsConfig;

  @JsonProperty("logLevel")
  @JsonPropertyDescription("Thanos log level.")
  private String logLevel;

  @JsonProperty("logFormat")
  @JsonPropertyDescription("Thanos log format.")
  private String logFormat;

  @JsonProperty("minTime")
  @JsonPropertyDescription("Start of the time range the sidecar serves.")
  private String minTime;

  @JsonProperty("routePrefix")
  @JsonPropertyDescription("Prometheus route prefix.")
  private String routePrefix;

  @JsonProperty("additionalVolumeMounts")
  @JsonPropertyDescription("Extra volume mounts of the sidecar.")
  private List<VolumeMount> additionalVolumeMounts;
}
