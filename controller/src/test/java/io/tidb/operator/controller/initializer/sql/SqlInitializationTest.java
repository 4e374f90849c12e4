package io.tidb.operator.controller.initializer.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The waiting and login rules, without a server (the ITs run the SQL against MariaDB). */
class SqlInitializationTest {

  private static final InitPlan PLAN =
      new InitPlan(Optional.of("pw"), List.of(), List.of(), InitPlan.ANY_HOST, Optional.empty());

  @Test
  void unreachableTidbIsRetriedUntilTheWaitEnds() throws Exception {
    List<Duration> sleeps = new ArrayList<>();
    MutableClock clock = new MutableClock();
    SqlInitialization init = new SqlInitialization(
        password -> { throw new SQLNonTransientConnectionException("Connection refused", "08000", 0); },
        clock, d -> { sleeps.add(d); clock.now = clock.now.plus(d); }, Duration.ofSeconds(1));
    SqlInitialization.Result r = init.run(PLAN, "tc-tidb:4000", Duration.ofSeconds(10));
    assertFalse(r.ok());
    assertEquals("TiDB at tc-tidb:4000 did not accept a connection within 10s", r.summary());
    assertEquals(10, sleeps.size());
  }

  @Test
  void refusedEmptyPasswordFallsBackToTheSecretsPasswordOnce() throws Exception {
    List<String> tried = new ArrayList<>();
    SqlInitialization init = new SqlInitialization(
        password -> {
          tried.add(password);
          throw new SQLException("Access denied for user 'root'", "28000", SqlInitialization.ACCESS_DENIED);
        },
        Clock.systemUTC(), d -> { }, Duration.ofSeconds(1));
    SqlInitialization.Result r = init.run(PLAN, "h:1", Duration.ofSeconds(10));
    assertFalse(r.ok());
    assertEquals(List.of("", "pw"), tried);
    assertEquals("cannot log in to TiDB at h:1 as root: server error 1045 (SQL state 28000)", r.summary());
    assertFalse(r.summary().contains("pw\""));
  }

  @Test
  void withoutAPasswordToTryAccessDeniedFailsAtOnce() throws Exception {
    InitPlan noPassword = new InitPlan(Optional.empty(), List.of(), List.of("select 1"), "%", Optional.empty());
    int[] attempts = {0};
    SqlInitialization init = new SqlInitialization(
        password -> { attempts[0]++; throw new SQLException("denied", "28000", SqlInitialization.ACCESS_DENIED); },
        Clock.systemUTC(), d -> { }, Duration.ofSeconds(1));
    assertFalse(init.run(noPassword, "h:1", Duration.ofMinutes(5)).ok());
    assertEquals(1, attempts[0]);
  }

  @Test
  void passwordErrorsNeverQuoteTheServersMessage() {
    String s = SqlInitialization.errorCode(new SQLException("near 'secret-pw'", "42000", 1064));
    assertEquals("server error 1064 (SQL state 42000)", s);
    assertTrue(SqlInitialization.describe(new SQLException("bad\nthing", "42000", 1064)).endsWith("bad thing"));
  }

  @Test
  void accountsDoNotPrintTheirPassword() {
    assertEquals("Account[user=app]", new InitPlan.Account("app", "s3cret").toString());
  }

  private static final class MutableClock extends Clock {
    Instant now = Instant.parse("2025-01-01T00:00:00Z");

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
