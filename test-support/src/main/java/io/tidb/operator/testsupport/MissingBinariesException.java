package io.tidb.operator.testsupport;

import java.nio.file.Path;
import java.util.List;

/** The Kubernetes binaries the tests need are not built yet. */
public final class MissingBinariesException extends IllegalStateException {

  public MissingBinariesException(Path directory, List<String> missing) {
    super("Kubernetes binaries missing in " + directory + ": " + String.join(", ", missing)
        + ". Build them with hack/build-binaries.sh (from Go modules; "
        + "about 35 minutes on 2 cores the first time, seconds afterwards).");
  }
}
