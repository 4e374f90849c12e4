package io.tidb.operator.controller.tidbcluster.member;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;

/**
 * The waits upstream's start scripts do before starting a server whose peers reach it by its DNS
 * name, as POSIX sh. Each loop sleeps a second first, then gives up with exit code 1 once
 * {@code timeoutSeconds} have passed, then looks the name up; so the lookup runs at most
 * {@code timeoutSeconds - 1} times, as in upstream's loops.
 */
public final class DnsWait {
  /** Upstream's default {@code spec.pd.startTimeout}. */
  static final int DEFAULT_START_TIMEOUT = 30;

  private DnsWait() {}

  /**
   * How long start scripts wait for a pod's DNS name: {@code spec.pd.startTimeout}, 30 s when unset
   * or not positive (upstream's {@code PDStartTimeout}, which its TiKV v2 wait uses too).
   */
  public static int startTimeout(TidbCluster tc) {
    Integer timeout = tc.getSpec().getPd() == null ? null : tc.getSpec().getPd().getStartTimeout();
    return timeout == null || timeout <= 0 ? DEFAULT_START_TIMEOUT : timeout;
  }

  /** {@code nslookup} succeeds for {@code host} (a shell word, e.g. {@code "${PD_DOMAIN}"}). */
  public static String nslookup(String host) {
    return "nslookup " + host + " >/dev/null 2>&1";
  }

  /** {@code dig} for A and AAAA records of {@code host} succeeds and answers something. */
  public static String dig(String host) {
    return "answer=$(" + digLookup(host) + " 2>/dev/null) && [ -n \"${answer}\" ]";
  }

  /** The addresses {@code dig} finds for {@code host}, one a line. */
  public static String digLookup(String host) {
    return "dig " + host + " A " + host + " AAAA +search +short";
  }

  /** The addresses {@code getent} finds for {@code host}, one a line (TiKV's lookup). */
  public static String getentLookup(String host) {
    return "getent ahosts " + host + " 2>/dev/null | sed -n 's/ *STREAM.*//p'";
  }

  /** Wait until {@code check} (a shell condition) succeeds. */
  public static String until(String check, String host, int timeoutSeconds, String timeoutMessage) {
    return """

        waited=0
        while true; do
            sleep 1
            waited=$((waited + 1))
            if [ "${waited}" -ge %3$d ]; then
                echo "%4$s" >&2
                exit 1
            fi
            if %1$s; then
                echo "domain %2$s resolves"
                break
            fi
            echo "domain %2$s does not resolve yet" >&2
        done
        """.formatted(check, host, timeoutSeconds, timeoutMessage);
  }

  /**
   * Wait until {@code lookup} (a command printing addresses, one a line) prints one of the pod's
   * own addresses ({@code hostname -I}); upstream's {@code WaitForDnsNameIpMatch}.
   */
  public static String untilOwnAddress(String lookup, String host, int timeoutSeconds) {
    return """

        waited=0
        while true; do
            sleep 1
            waited=$((waited + 1))
            if [ "${waited}" -ge %3$d ]; then
                echo "waiting for cluster ready timeout" >&2
                exit 1
            fi
            if ! resolved=$(%1$s 2>/dev/null); then
                echo "domain resolve %2$s failed"
                continue
            fi
            if [ -z "${resolved}" ]; then
                echo "domain resolve %2$s no record return"
                continue
            fi
            own=" $(hostname -I 2>/dev/null | tr '\\n\\t' '  ') "
            matched=false
            for ip in ${resolved}; do
                case "${own}" in
                    *" ${ip} "*) matched=true; break ;;
                esac
            done
            if [ "${matched}" = true ]; then
                echo "domain %2$s resolves to one of the pod's addresses:${own}"
                break
            fi
            echo "domain %2$s resolves to ${resolved}, none of the pod's addresses:${own}"
        done
        """.formatted(lookup, host, timeoutSeconds);
  }
}
