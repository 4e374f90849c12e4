package io.tidb.operator.controller.backup.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the backup-manager adds to BR's command line for a TLS cluster. */
class BackupManagerArgsTest {

  @Test
  void theClientCertificateGoesRightAfterPdSoTheUsersOptionsStayLast() {
    assertEquals(List.of("/bin/br", "backup", "full", "--pd=basic-pd.ns:2379",
            "--ca=/var/lib/cluster-client-tls/ca.crt", "--cert=/var/lib/cluster-client-tls/tls.crt",
            "--key=/var/lib/cluster-client-tls/tls.key", "--storage=s3://bk/p", "--concurrency=4"),
        BackupManagerMain.withClusterTls(List.of("/bin/br", "backup", "full", "--pd=basic-pd.ns:2379",
            "--storage=s3://bk/p", "--concurrency=4")));
  }
}
