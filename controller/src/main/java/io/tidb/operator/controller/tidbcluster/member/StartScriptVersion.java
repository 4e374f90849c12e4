package io.tidb.operator.controller.tidbcluster.member;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which start script the components of a cluster get, from {@code spec.startScriptVersion} and
 * {@code spec.startScriptV2FeatureFlags}.
 *
 * <ul>
 *   <li>{@link Version#DEFAULT} ({@code startScriptVersion} unset or empty): the scripts this
 *       operator has always rendered, so an operator upgrade does not roll a cluster that never
 *       chose a version (docs/differences-from-upstream.md says how they differ from upstream's
 *       default, v1).
 *   <li>{@link Version#V1}, {@link Version#V2}: upstream's v1 and v2 behaviour: the same flags,
 *       environment, DNS waits and discovery calls.
 * </ul>
 *
 * <p>The feature flags only count with v2, as upstream's v1 scripts never read them; unknown flags
 * and versions are refused by validation (an unknown version would count as unset, an unknown
 * flag as absent).
 *
 * @param version the chosen version
 * @param flags the v2 feature flags (empty unless {@code version} is v2)
 * @param pdAddresses {@code spec.pdAddresses}, as given
 */
public record StartScriptVersion(Version version, Set<Flag> flags, List<String> pdAddresses) {

  /** The versions of {@code spec.startScriptVersion}. */
  public enum Version { DEFAULT, V1, V2 }

  /** Upstream's v2 feature flags. */
  public enum Flag {
    /** PD and TiKV wait until their DNS name resolves to one of the pod's own IPs. */
    WAIT_FOR_DNS_NAME_IP_MATCH("WaitForDnsNameIpMatch"),
    /** PD joins, and TiKV, TiDB and TiCDC connect to, {@code spec.pdAddresses} instead of discovery. */
    PREFER_PD_ADDRESSES_OVER_DISCOVERY("PreferPDAddressesOverDiscovery"),
    /** PD's script's first line is {@code #!/bin/bash} (no other component reads it, as upstream). */
    BASH_SHEBANG("BashShebang"),
    /** PD starts without waiting for its DNS name. */
    NO_WAIT_DNS("NoWaitDNS");

    private final String text;

    Flag(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  public StartScriptVersion {
    flags = version == Version.V2 ? Set.copyOf(flags) : Set.of();
    pdAddresses = pdAddresses == null ? List.of() : List.copyOf(pdAddresses);
  }

  /** The choice of {@code tc}'s spec. */
  public static StartScriptVersion of(TidbCluster tc) {
    Version version = switch (String.valueOf(tc.getSpec().getStartScriptVersion())) {
      case "v1" -> Version.V1;
      case "v2" -> Version.V2;
      default -> Version.DEFAULT;
    };
    List<String> given = tc.getSpec().getStartScriptV2FeatureFlags();
    Set<Flag> flags = EnumSet.noneOf(Flag.class);
    for (Flag f : Flag.values()) {
      if (given != null && given.contains(f.text())) {
        flags.add(f);
      }
    }
    return new StartScriptVersion(version, flags, tc.getSpec().getPdAddresses());
  }

  public boolean has(Flag flag) {
    return flags.contains(flag);
  }

  /** {@code #!/bin/bash} with v2's {@code BashShebang}, else {@code #!/bin/sh}. */
  public String shebang() {
    return has(Flag.BASH_SHEBANG) ? "#!/bin/bash" : "#!/bin/sh";
  }

  /**
   * With v2's {@code PreferPDAddressesOverDiscovery} and a non-empty {@code spec.pdAddresses}: the
   * host of each address with {@code prefix} before it and {@code :port} after it, comma-separated
   * (what upstream's v2 scripts pass instead of asking discovery); otherwise empty.
   */
  public Optional<String> preferredPd(String prefix, int port) {
    if (!has(Flag.PREFER_PD_ADDRESSES_OVER_DISCOVERY) || pdAddresses.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(pdAddresses.stream().map(a -> prefix + host(a) + ":" + port)
        .collect(Collectors.joining(",")));
  }

  /**
   * TiCDC's form of {@link #preferredPd}: the addresses as written, comma-separated (upstream's v2
   * TiCDC script passes them unchanged, scheme and port included).
   */
  public Optional<String> preferredPdAsWritten() {
    if (!has(Flag.PREFER_PD_ADDRESSES_OVER_DISCOVERY) || pdAddresses.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(String.join(",", pdAddresses));
  }

  /** The host of an address; validation admits only http(s) URLs with a host. */
  private static String host(String address) {
    try {
      String host = new URI(address).getHost();
      return host == null ? address : host;
    } catch (URISyntaxException e) {
      return address;
    }
  }
}
