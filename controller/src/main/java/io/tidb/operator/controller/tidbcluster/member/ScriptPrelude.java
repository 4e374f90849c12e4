package io.tidb.operator.controller.tidbcluster.member;

/** The opening every start script shares: shell options, debug mode, and the pod's own name. */
public final class ScriptPrelude {
  private ScriptPrelude() {}

  /**
   * Shebang, a header naming the component, {@code set -u}, and the debug switch: the pod
   * annotations are mounted at {@code /etc/podinfo/annotations} (downward API); a pod annotated
   * {@code runmode=debug} idles instead of starting the server, so an operator can exec into it.
   * Only that one key is read (the file is not sourced, so no annotation value is ever executed).
   * Ends by setting {@code POD_NAME} (from the env, else the hostname, which equals the pod name in a StatefulSet).
   * The scripts are POSIX sh: they run under dash, busybox ash and bash alike.
   */
  public static String render(String binary) {
    return render(binary, "#!/bin/sh");
  }

  /** {@link #render(String)} with another first line (v2's {@code BashShebang}: {@code #!/bin/bash}). */
  public static String render(String binary, String shebang) {
    return header(binary, shebang) + """
        set -u

        ANNOTATIONS=/etc/podinfo/annotations
        if [ ! -f "${ANNOTATIONS}" ]; then
            echo "${ANNOTATIONS} is missing; the pod must mount its annotations there" >&2
            exit 1
        fi
        runmode=$(sed -n 's/^runmode="\\(.*\\)"$/\\1/p' "${ANNOTATIONS}")
        if [ "${runmode:-normal}" = "debug" ]; then
            echo "runmode=debug: not starting %1$s, idling for debugging"
            tail -f /dev/null
        fi

        POD_NAME=${POD_NAME:-${HOSTNAME:-$(hostname)}}
        """.formatted(binary);
  }

  /**
   * The opening of upstream's v1 scripts that have no debug mode (TiCDC, Pump, TiFlash's start
   * script): the shebang and the header only.
   */
  public static String header(String binary) {
    return header(binary, "#!/bin/sh");
  }

  private static String header(String binary, String shebang) {
    return shebang + "\n" + """
        # Start script for %1$s, written by TiDB Operator (Java) into the component's ConfigMap.
        # The operator owns this text; a change to it rolls the pods when configUpdateStrategy is
        # RollingUpdate.
        """.formatted(binary);
  }

  /**
   * The end of every script: log the command line, then replace the shell with the server.
   * {@code extraArgs} (user-supplied, already shell-quoted) go after {@code ${ARGS}} on the exec line
   * only, so their quoting reaches the server unchanged.
   */
  public static String exec(String binary, String extraArgs) {
    String tail = extraArgs.isEmpty() ? "" : " " + extraArgs;
    return """

        echo "starting %1$s ${ARGS}"
        exec %1$s ${ARGS}%2$s
        """.formatted(binary, tail);
  }
}
