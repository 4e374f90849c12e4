package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The Prometheus container and its Service, Ingress, configuration and storage retention. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class PrometheusSpec extends MonitorContainer {

  @JsonProperty("logLevel")
  @JsonPropertyDescription("Prometheus --log.level.")
  private String logLevel;

  @JsonProperty("service")
  @JsonPropertyDescription("The Prometheus Service.")
  private ServiceSpec service;

  @JsonProperty("reserveDays")
  @JsonPropertyDescription("Days of data to keep (--storage.tsdb.retention.time=<n>d) unless retentionTime is set.")
  @Min(0)
  private Integer reserveDays;

  @JsonProperty("retentionTime")
  @JsonPropertyDescription("How long to keep data, a Prometheus duration (e.g. 12h, 15d); overrides reserveDays.")
  private String retentionTime;

  @JsonProperty("ingress")
  @JsonPropertyDescription("An Ingress in front of the Prometheus Service.")
  private IngressSpec ingress;

  @JsonProperty("config")
  @JsonPropertyDescription("External configuration, rules and extra command options.")
  private PrometheusConfiguration config;

  @JsonProperty("disableCompaction")
  @JsonPropertyDescription("Disable TSDB compaction (block durations of 2h), as a Thanos sidecar needs.")
  private Boolean disableCompaction;

  @JsonProperty("remoteWrite")
  @JsonPropertyDescription("remote_write endpoints of the generated configuration.")
  private List<RemoteWriteSpec> remoteWrite;

  @JsonProperty("additionalVolumeMounts")
  @JsonPropertyDescription("Extra volume mounts of the Prometheus container.")
  private List<VolumeMount> additionalVolumeMounts;
}
