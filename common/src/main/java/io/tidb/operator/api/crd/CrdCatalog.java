package io.tidb.operator.api.crd;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Every CRD the project ships. The build ({@link CrdSync}) finishes each generated CRD with its
 * entry and checks the chart copy; a generated CRD without an entry fails the build. A new kind
 * adds one entry here.
 */
public final class CrdCatalog {

  /** Client-side {@code kubectl apply} stores the object in an annotation of at most this size. */
  public static final int MAX_APPLY_BYTES = 262_144;

  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private static final List<CrdEntry> ENTRIES =
      List.of(TidbClusterCrd.ENTRY, TidbInitializerCrd.ENTRY, TidbMonitorCrd.ENTRY, DmClusterCrd.ENTRY,
          BackupCrds.BACKUP, BackupCrds.RESTORE, BackupCrds.BACKUP_SCHEDULE);

  private CrdCatalog() {}

  /** Every entry, in a stable order. */
  public static List<CrdEntry> entries() {
    return ENTRIES;
  }

  /** The entry whose generated file is named {@code fileName}, if any. */
  public static Optional<CrdEntry> byFileName(String fileName) {
    return ENTRIES.stream().filter(e -> e.fileName().equals(fileName)).findFirst();
  }

  /** The entry of the resource named {@code plural} in {@link CrdEntry#GROUP}, if any. */
  public static Optional<CrdEntry> byPlural(String plural) {
    return ENTRIES.stream().filter(e -> e.plural().equals(plural)).findFirst();
  }

  /** Parses a CRD from YAML or JSON. */
  public static CustomResourceDefinition parse(String yaml) {
    return SERIALIZATION.unmarshal(yaml, CustomResourceDefinition.class);
  }

  /** Size in bytes of the CRD as compact JSON, the form {@code kubectl apply} stores. */
  public static int compactJsonBytes(CustomResourceDefinition crd) {
    JsonNode tree = SERIALIZATION.convertValue(crd, JsonNode.class);
    return tree.toString().getBytes(StandardCharsets.UTF_8).length;
  }
}
