package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Lifecycle;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The TiDB SQL component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TidbSpec extends MemberSpec {

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image without tag; the image is baseImage:version.")
  @Default("pingcap/tidb")
  private String baseImage;

  @JsonProperty("service")
  @JsonPropertyDescription("MySQL Service of TiDB.")
  private TidbServiceSpec service;

  @JsonProperty("binlogEnabled")
  @JsonPropertyDescription("Enable binlog (needs Pump).")
  private Boolean binlogEnabled;

  @JsonProperty("maxFailoverCount")
  @JsonPropertyDescription("Most extra members the operator creates on failover; 0 disables failover.")
  @Min(0)
  private Integer maxFailoverCount;

  @JsonProperty("separateSlowLog")
  @JsonPropertyDescription("Write the slow log to its own file tailed by a sidecar.")
  private Boolean separateSlowLog;

  @JsonProperty("slowLogVolumeName")
  @JsonPropertyDescription("Name of a storageVolume holding the slow log.")
  private String slowLogVolumeName;

  @JsonProperty("slowLogTailer")
  @JsonPropertyDescription("The sidecar that tails the slow log.")
  private SlowLogTailerSpec slowLogTailer;

  @JsonProperty("tlsClient")
  @JsonPropertyDescription("TLS between MySQL clients and TiDB.")
  private TidbTlsClient tlsClient;

  @JsonProperty("tokenBasedAuthEnabled")
  @JsonPropertyDescription("Enable token-based authentication.")
  private Boolean tokenBasedAuthEnabled;

  @JsonProperty("plugins")
  @JsonPropertyDescription("TiDB plugins to load.")
  private List<String> plugins;

  @JsonProperty("config")
  @JsonPropertyDescription("Free-form configuration file, rendered to TOML. Either a map or a TOML string.")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;

  @JsonProperty("lifecycle")
  @JsonPropertyDescription("Lifecycle hooks of the TiDB container.")
  private Lifecycle lifecycle;

  @JsonProperty("storageVolumes")
  @JsonPropertyDescription("Extra persistent volumes mounted into the main container.")
  private List<StorageVolume> storageVolumes;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("StorageClass of the data volume; the cluster default when empty.")
  private String storageClassName;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("VolumeAttributesClass of the data volume.")
  private String volumeAttributesClassName;

  @JsonProperty("initializer")
  @JsonPropertyDescription("How the root password is initialised.")
  private TidbPasswordInitializer initializer;

  @JsonProperty("bootstrapSQLConfigMapName")
  @JsonPropertyDescription("ConfigMap with SQL run once at bootstrap; immutable.")
  @ValidationRule(value = "self == oldSelf", message = "bootstrapSQLConfigMapName is immutable")
  private String bootstrapSQLConfigMapName;

  @JsonProperty("scalePolicy")
  @JsonPropertyDescription("How many members are added or removed at once.")
  private ScalePolicy scalePolicy;

  @JsonProperty("customizedStartupProbe")
  @JsonPropertyDescription("A startup probe running a custom binary.")
  private CustomizedStartupProbe customizedStartupProbe;

  @JsonProperty("arguments")
  @JsonPropertyDescription("Extra command-line arguments of tidb-server.")
  private List<String> arguments;

  @JsonProperty("serverLabels")
  @JsonPropertyDescription("Labels reported to PD for this server.")
  private Map<String, String> serverLabels;

  public String getBaseImage() {
    return baseImage;
  }

  public void setBaseImage(String baseImage) {
    this.baseImage = baseImage;
  }

  public TidbServiceSpec getService() {
    return service;
  }

  public void setService(TidbServiceSpec service) {
    this.service = service;
  }

  public Boolean getBinlogEnabled() {
    return binlogEnabled;
  }

  public void setBinlogEnabled(Boolean binlogEnabled) {
    this.binlogEnabled = binlogEnabled;
  }

  public Integer getMaxFailoverCount() {
    return maxFailoverCount;
  }

  public void setMaxFailoverCount(Integer maxFailoverCount) {
    this.maxFailoverCount = maxFailoverCount;
  }

  public Boolean getSeparateSlowLog() {
    return separateSlowLog;
  }

  public void setSeparateSlowLog(Boolean separateSlowLog) {
    this.separateSlowLog = separateSlowLog;
  }

  public String getSlowLogVolumeName() {
    return slowLogVolumeName;
  }

  public void setSlowLogVolumeName(String slowLogVolumeName) {
    this.slowLogVolumeName = slowLogVolumeName;
  }

  public SlowLogTailerSpec getSlowLogTailer() {
    return slowLogTailer;
  }

  public void setSlowLogTailer(SlowLogTailerSpec slowLogTailer) {
    this.slowLogTailer = slowLogTailer;
  }

  public TidbTlsClient getTlsClient() {
    return tlsClient;
  }

  public void setTlsClient(TidbTlsClient tlsClient) {
    this.tlsClient = tlsClient;
  }

  public Boolean getTokenBasedAuthEnabled() {
    return tokenBasedAuthEnabled;
  }

  public void setTokenBasedAuthEnabled(Boolean tokenBasedAuthEnabled) {
    this.tokenBasedAuthEnabled = tokenBasedAuthEnabled;
  }

  public List<String> getPlugins() {
    return plugins;
  }

  public void setPlugins(List<String> plugins) {
    this.plugins = plugins;
  }

  public ComponentConfig getConfig() {
    return config;
  }

  public void setConfig(ComponentConfig config) {
    this.config = config;
  }

  public Lifecycle getLifecycle() {
    return lifecycle;
  }

  public void setLifecycle(Lifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  public List<StorageVolume> getStorageVolumes() {
    return storageVolumes;
  }

  public void setStorageVolumes(List<StorageVolume> storageVolumes) {
    this.storageVolumes = storageVolumes;
  }

  public String getStorageClassName() {
    return storageClassName;
  }

  public void setStorageClassName(String storageClassName) {
    this.storageClassName = storageClassName;
  }

  public String getVolumeAttributesClassName() {
    return volumeAttributesClassName;
  }

  public void setVolumeAttributesClassName(String volumeAttributesClassName) {
    this.volumeAttributesClassName = volumeAttributesClassName;
  }

  public TidbPasswordInitializer getInitializer() {
    return initializer;
  }

  public void setInitializer(TidbPasswordInitializer initializer) {
    this.initializer = initializer;
  }

  public String getBootstrapSQLConfigMapName() {
    return bootstrapSQLConfigMapName;
  }

  public void setBootstrapSQLConfigMapName(String bootstrapSQLConfigMapName) {
    this.bootstrapSQLConfigMapName = bootstrapSQLConfigMapName;
  }

  public ScalePolicy getScalePolicy() {
    return scalePolicy;
  }

  public void setScalePolicy(ScalePolicy scalePolicy) {
    this.scalePolicy = scalePolicy;
  }

  public CustomizedStartupProbe getCustomizedStartupProbe() {
    return customizedStartupProbe;
  }

  public void setCustomizedStartupProbe(CustomizedStartupProbe customizedStartupProbe) {
    this.customizedStartupProbe = customizedStartupProbe;
  }

  public List<String> getArguments() {
    return arguments;
  }

  public void setArguments(List<String> arguments) {
    this.arguments = arguments;
  }

  public Map<String, String> getServerLabels() {
    return serverLabels;
  }

  public void setServerLabels(Map<String, String> serverLabels) {
    this.serverLabels = serverLabels;
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
    TidbSpec that = (TidbSpec) o;
    return Objects.equals(baseImage, that.baseImage)
        && Objects.equals(service, that.service)
        && Objects.equals(binlogEnabled, that.binlogEnabled)
        && Objects.equals(maxFailoverCount, that.maxFailoverCount)
        && Objects.equals(separateSlowLog, that.separateSlowLog)
        && Objects.equals(slowLogVolumeName, that.slowLogVolumeName)
        && Objects.equals(slowLogTailer, that.slowLogTailer)
        && Objects.equals(tlsClient, that.tlsClient)
        && Objects.equals(tokenBasedAuthEnabled, that.tokenBasedAuthEnabled)
        && Objects.equals(plugins, that.plugins)
        && Objects.equals(config, that.config)
        && Objects.equals(lifecycle, that.lifecycle)
        && Objects.equals(storageVolumes, that.storageVolumes)
        && Objects.equals(storageClassName, that.storageClassName)
        && Objects.equals(volumeAttributesClassName, that.volumeAttributesClassName)
        && Objects.equals(initializer, that.initializer)
        && Objects.equals(bootstrapSQLConfigMapName, that.bootstrapSQLConfigMapName)
        && Objects.equals(scalePolicy, that.scalePolicy)
        && Objects.equals(customizedStartupProbe, that.customizedStartupProbe)
        && Objects.equals(arguments, that.arguments)
        && Objects.equals(serverLabels, that.serverLabels);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), baseImage, service, binlogEnabled, maxFailoverCount, separateSlowLog, slowLogVolumeName, slowLogTailer, tlsClient, tokenBasedAuthEnabled, plugins, config, lifecycle, storageVolumes, storageClassName, volumeAttributesClassName, initializer, bootstrapSQLConfigMapName, scalePolicy, customizedStartupProbe, arguments, serverLabels);
  }
}
