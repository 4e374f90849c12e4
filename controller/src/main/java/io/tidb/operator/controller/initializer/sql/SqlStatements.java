package io.tidb.operator.controller.initializer.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits init SQL into statements at each {@code ;} that is outside quotes ({@code '...'}, {@code
 * "..."}, {@code `...`}, with backslash and doubled-quote escapes) and comments ({@code -- },
 * {@code #}, {@code /* ... *}{@code /}). A statement may span lines; the last one needs no {@code
 * ;}. Blank statements and ones that are only comments are dropped.
 */
public final class SqlStatements {

  private SqlStatements() {}

  public static List<String> split(String sql) {
    List<String> out = new ArrayList<>();
    if (sql == null) {
      return out;
    }
    StringBuilder current = new StringBuilder();
    boolean code = false; // whether current holds anything but whitespace and comments
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"' || c == '`') {
        int end = quotedEnd(sql, i, c);
        current.append(sql, i, end);
        code = true;
        i = end;
      } else if (c == '#' || (c == '-' && startsDashComment(sql, i))) {
        int end = sql.indexOf('\n', i);
        end = end < 0 ? n : end;
        current.append(sql, i, end);
        i = end;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int close = sql.indexOf("*/", i + 2);
        int end = close < 0 ? n : close + 2;
        // Executable comments (/*! ... */, TiDB's /*T! ... */) are code.
        if (i + 2 < n && (sql.charAt(i + 2) == '!' || sql.startsWith("T!", i + 2))) {
          code = true;
        }
        current.append(sql, i, end);
        i = end;
      } else if (c == ';') {
        add(out, current, code);
        current.setLength(0);
        code = false;
        i++;
      } else {
        if (!Character.isWhitespace(c)) {
          code = true;
        }
        current.append(c);
        i++;
      }
    }
    add(out, current, code);
    return out;
  }

  private static void add(List<String> out, StringBuilder statement, boolean code) {
    if (code) {
      out.add(statement.toString().strip());
    }
  }

  /** MySQL's {@code --} starts a comment only when followed by whitespace or the end. */
  private static boolean startsDashComment(String sql, int i) {
    if (i + 1 >= sql.length() || sql.charAt(i + 1) != '-') {
      return false;
    }
    return i + 2 >= sql.length() || Character.isWhitespace(sql.charAt(i + 2));
  }

  /** The index after the closing quote (or the end, for an unterminated quote). */
  private static int quotedEnd(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == '\\' && quote != '`') {
        i += 2;
      } else if (c == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    return sql.length();
  }
}
