package io.tidb.operator.controller.tidbcluster.password;

import java.net.InetSocketAddress;

/** Sets root's password on a cluster's TiDB over the MySQL protocol. */
public interface RootAccount {

  /**
   * Logs in as root without a password (a new TiDB) and sets root's password; when that login is
   * refused, tries {@code password} to learn whether it is set already. Never throws for what TiDB
   * answers: unreachable or a refused statement is {@link RootPasswordPlan.Login#RETRY}.
   */
  RootPasswordPlan.Login setPassword(InetSocketAddress tidb, String password);
}
