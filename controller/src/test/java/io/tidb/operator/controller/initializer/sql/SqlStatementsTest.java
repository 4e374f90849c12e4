package io.tidb.operator.controller.initializer.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlStatementsTest {

  @Test
  void splitsAtSemicolonsAndKeepsMultiLineStatements() {
    assertEquals(
        List.of("create database app", "create table app.t (\n  id int\n)", "select 1"),
        SqlStatements.split("create database app;\ncreate table app.t (\n  id int\n);\nselect 1\n"));
  }

  @Test
  void semicolonsInQuotesAndCommentsDoNotSplit() {
    assertEquals(
        List.of("insert into t values ('a;b', \"c;d\", `e;f`)", "-- note; here\nselect 'it''s;' , 'x\\';y'"),
        SqlStatements.split("insert into t values ('a;b', \"c;d\", `e;f`);-- note; here\nselect 'it''s;' , 'x\\';y'"));
    assertEquals(List.of("/* a; b */ select 1", "# c; d\nselect 2"),
        SqlStatements.split("/* a; b */ select 1;# c; d\nselect 2;"));
  }

  @Test
  void blankAndCommentOnlyPiecesAreDropped() {
    assertEquals(List.of(), SqlStatements.split(null));
    assertEquals(List.of(), SqlStatements.split(" ;\n; -- only a comment\n"));
    assertEquals(List.of("select 1"), SqlStatements.split(";;select 1;;"));
  }

  @Test
  void executableCommentsAreStatements() {
    assertEquals(List.of("/*T! SET GLOBAL tidb_enable_x = 1 */"), SqlStatements.split("/*T! SET GLOBAL tidb_enable_x = 1 */;"));
  }

  @Test
  void doubleDashWithoutSpaceIsNotAComment() {
    assertEquals(List.of("select 1--1", "select 2"), SqlStatements.split("select 1--1;select 2"));
  }
}
