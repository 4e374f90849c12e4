package io.tidb.operator.controller.monitor;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * The part of Prometheus' configuration file the operator writes, as a typed model; {@link
 * PrometheusConfigYaml} turns it into {@code prometheus.yml}. Field names are Prometheus'.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonPropertyOrder({"global", "scrape_configs", "remote_write", "alerting", "rule_files"})
public record PrometheusConfig(
    @JsonProperty("global") Global global,
    @JsonProperty("scrape_configs") List<ScrapeConfig> scrapeConfigs,
    @JsonProperty("remote_write") List<RemoteWrite> remoteWrite,
    @JsonProperty("alerting") Alerting alerting,
    @JsonProperty("rule_files") List<String> ruleFiles) {

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonPropertyOrder({"evaluation_interval", "scrape_interval", "external_labels"})
  public record Global(
      @JsonProperty("evaluation_interval") String evaluationInterval,
      @JsonProperty("scrape_interval") String scrapeInterval,
      @JsonProperty("external_labels") Map<String, String> externalLabels) {}

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonPropertyOrder({"job_name", "honor_labels", "scrape_interval", "scheme",
      "kubernetes_sd_configs", "tls_config", "relabel_configs"})
  public record ScrapeConfig(
      @JsonProperty("job_name") String jobName,
      @JsonProperty("honor_labels") Boolean honorLabels,
      @JsonProperty("scrape_interval") String scrapeInterval,
      @JsonProperty("scheme") String scheme,
      @JsonProperty("kubernetes_sd_configs") List<KubernetesSd> kubernetesSdConfigs,
      @JsonProperty("tls_config") Tls tlsConfig,
      @JsonProperty("relabel_configs") List<Relabeling> relabelConfigs) {}

  /** Pod discovery in the listed namespaces, through the API server of the pod's own cluster. */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonPropertyOrder({"role", "namespaces"})
  public record KubernetesSd(
      @JsonProperty("role") String role, @JsonProperty("namespaces") Namespaces namespaces) {}

  public record Namespaces(@JsonProperty("names") List<String> names) {}

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonPropertyOrder({"ca_file", "cert_file", "key_file", "server_name", "insecure_skip_verify"})
  public record Tls(
      @JsonProperty("ca_file") String caFile,
      @JsonProperty("cert_file") String certFile,
      @JsonProperty("key_file") String keyFile,
      @JsonProperty("server_name") String serverName,
      @JsonProperty("insecure_skip_verify") Boolean insecureSkipVerify) {

    /** No client certificate, and the server's is not verified (plain-HTTP clusters, as upstream). */
    public static Tls skipVerify() {
      return new Tls(null, null, null, null, true);
    }
  }

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonPropertyOrder({"source_labels", "separator", "regex", "modulus", "target_label",
      "replacement", "action"})
  public record Relabeling(
      @JsonProperty("source_labels") List<String> sourceLabels,
      @JsonProperty("separator") String separator,
      @JsonProperty("regex") String regex,
      @JsonProperty("modulus") Long modulus,
      @JsonProperty("target_label") String targetLabel,
      @JsonProperty("replacement") String replacement,
      @JsonProperty("action") String action) {

    public static Relabeling keep(String sourceLabel, String regex) {
      return new Relabeling(List.of(sourceLabel), null, regex, null, null, null, "keep");
    }

    public static Relabeling copy(String sourceLabel, String targetLabel) {
      return new Relabeling(List.of(sourceLabel), null, null, null, targetLabel, null, "replace");
    }
  }

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonPropertyOrder({"url", "remote_timeout", "headers", "name", "write_relabel_configs",
      "basic_auth", "bearer_token", "bearer_token_file", "tls_config", "proxy_url", "queue_config",
      "metadata_config"})
  public record RemoteWrite(
      @JsonProperty("url") String url,
      @JsonProperty("remote_timeout") String remoteTimeout,
      @JsonProperty("headers") Map<String, String> headers,
      @JsonProperty("name") String name,
      @JsonProperty("write_relabel_configs") List<Relabeling> writeRelabelConfigs,
      @JsonProperty("basic_auth") BasicAuthFiles basicAuth,
      @JsonProperty("bearer_token") String bearerToken,
      @JsonProperty("bearer_token_file") String bearerTokenFile,
      @JsonProperty("tls_config") Tls tlsConfig,
      @JsonProperty("proxy_url") String proxyUrl,
      @JsonProperty("queue_config") Queue queueConfig,
      @JsonProperty("metadata_config") Metadata metadataConfig) {}

  /** Basic authentication: the password always from a file, the user name from one when supported. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"username", "username_file", "password_file"})
  public record BasicAuthFiles(
      @JsonProperty("username") String username,
      @JsonProperty("username_file") String usernameFile,
      @JsonProperty("password_file") String passwordFile) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"capacity", "min_shards", "max_shards", "max_samples_per_send",
      "batch_send_deadline", "max_retries", "min_backoff", "max_backoff"})
  public record Queue(
      @JsonProperty("capacity") Integer capacity,
      @JsonProperty("min_shards") Integer minShards,
      @JsonProperty("max_shards") Integer maxShards,
      @JsonProperty("max_samples_per_send") Integer maxSamplesPerSend,
      @JsonProperty("batch_send_deadline") String batchSendDeadline,
      @JsonProperty("max_retries") Integer maxRetries,
      @JsonProperty("min_backoff") String minBackoff,
      @JsonProperty("max_backoff") String maxBackoff) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"send", "send_interval"})
  public record Metadata(
      @JsonProperty("send") boolean send, @JsonProperty("send_interval") String sendInterval) {}

  public record Alerting(@JsonProperty("alertmanagers") List<Alertmanager> alertmanagers) {}

  public record Alertmanager(@JsonProperty("static_configs") List<StaticTargets> staticConfigs) {}

  public record StaticTargets(@JsonProperty("targets") List<String> targets) {}
}
