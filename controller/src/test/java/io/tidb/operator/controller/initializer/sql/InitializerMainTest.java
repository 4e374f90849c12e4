package io.tidb.operator.controller.initializer.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InitializerMainTest {

  @Test
  void thePlanComesFromTheEnvironment() {
    InitPlan plan = InitializerMain.plan(Map.of(
        "TIDB_ROOT_PASSWORD", "r", "TIDB_USERS", "app,dev",
        "TIDB_USER_PASSWORD_1", "a", "TIDB_USER_PASSWORD_2", "d",
        "TIDB_INIT_SQL", "create database x; create database y", "TZ", "Asia/Shanghai"), "10.0.0.%");
    assertEquals(Optional.of("r"), plan.rootPassword());
    assertEquals(List.of(new InitPlan.Account("app", "a"), new InitPlan.Account("dev", "d")), plan.users());
    assertEquals(List.of("create database x", "create database y"), plan.statements());
    assertEquals("10.0.0.%", plan.permitHost());
    assertEquals(Optional.of(ZoneId.of("Asia/Shanghai")), plan.timezone());
  }

  @Test
  void anEmptyEnvironmentDoesNothingButFlush() {
    InitPlan plan = InitializerMain.plan(Map.of(), "%");
    assertEquals(Optional.empty(), plan.rootPassword());
    assertEquals(List.of(), plan.users());
    assertEquals(List.of(), plan.statements());
  }

  @Test
  void aMissingUserPasswordOrBadZoneNamesTheVariable() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InitializerMain.plan(Map.of("TIDB_USERS", "app,dev", "TIDB_USER_PASSWORD_1", "a"), "%"));
    assertEquals("TIDB_USER_PASSWORD_2 is not set: TIDB_USERS names 2 users", e.getMessage());
    assertEquals("TZ=Mars/Olympus is not a time zone name",
        assertThrows(IllegalArgumentException.class, () -> InitializerMain.plan(Map.of("TZ", "Mars/Olympus"), "%")).getMessage());
  }
}
