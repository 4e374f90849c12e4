package io.tidb.operator.controller.initializer.sql;

import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one initializer run does, in order: set root's password, create the further users, run
 * the statements, restrict root to {@code permitHost}, flush privileges.
 *
 * @param rootPassword root's new password; empty leaves root's password alone
 * @param users further accounts, created at {@code permitHost}
 * @param statements the init SQL, one statement each
 * @param permitHost the host root and the users may connect from ({@code %}: any)
 * @param timezone the session time zone the statements run in; empty keeps the server's
 */
public record InitPlan(
    Optional<String> rootPassword,
    List<Account> users,
    List<String> statements,
    String permitHost,
    Optional<ZoneId> timezone) {

  public static final String ANY_HOST = "%";

  public InitPlan {
    Objects.requireNonNull(rootPassword, "rootPassword");
    users = List.copyOf(users);
    statements = List.copyOf(statements);
    Objects.requireNonNull(permitHost, "permitHost");
    Objects.requireNonNull(timezone, "timezone");
  }

  /** A user to create, with its password. */
  public record Account(String user, String password) {
    public Account {
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
      return "Account[user=" + user + "]";
    }
  }
}
