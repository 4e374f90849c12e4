package io.tidb.operator.controller.backup;

import java.util.Objects;

/**
 * How the Backup and Restore controllers build Jobs.
 *
 * @param image the operator's own image, run in {@code backup-manager} mode
 * @param pdAddressTemplate where BR reaches a cluster's PD, {@code host:port} with placeholders
 *     {@code {name}}, {@code {namespace}} and {@code {svc}} (empty, or {@code .svc.<clusterDomain>});
 *     default {@value #DEFAULT_PD_ADDRESS_TEMPLATE}
 * @param brPath where the Job's init container puts the {@code br} binary copied from the tool
 *     image, and where the backup-manager runs it; default {@value #DEFAULT_BR_PATH}
 */
public record BackupSettings(String image, String pdAddressTemplate, String brPath) {

  public static final String DEFAULT_PD_ADDRESS_TEMPLATE = "{name}-pd.{namespace}{svc}:2379";
  public static final String DEFAULT_BR_PATH = BackupJob.BR_BIN_DIR + "/br";

  public BackupSettings {
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(brPath, "brPath");
    String rest = pdAddressTemplate.replace("{name}", "").replace("{namespace}", "").replace("{svc}", "");
    if (rest.contains("{") || pdAddressTemplate.lastIndexOf(':') <= 0) {
      throw new IllegalArgumentException("--pd-address-template: Invalid value: \"" + pdAddressTemplate
          + "\": must be host:port using only the placeholders {name}, {namespace}, {svc}");
    }
  }

  /** PD's {@code host:port} for one cluster. */
  public String pdAddress(String namespace, String cluster, String clusterDomain) {
    String svc = clusterDomain == null || clusterDomain.isBlank() ? "" : ".svc." + clusterDomain;
    return pdAddressTemplate.replace("{name}", cluster).replace("{namespace}", namespace).replace("{svc}", svc);
  }
}
