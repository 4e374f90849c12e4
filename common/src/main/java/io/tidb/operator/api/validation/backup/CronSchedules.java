package io.tidb.operator.api.validation.backup;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * BackupSchedule.spec.schedule: a standard five-field (Unix) cron expression, as upstream's
 * {@code cron.ParseStandard}, parsed by cron-utils. Pure.
 */
public final class CronSchedules {

  private static final CronParser PARSER =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  private CronSchedules() {}

  /** The parsed expression, or the parser's reason why it is not one. */
  public static Cron parse(String expression) {
    Cron cron = PARSER.parse(expression.trim());
    cron.validate();
    return cron;
  }

  /** Why {@code expression} is not a valid cron expression; empty when it is. */
  public static Optional<String> problem(String expression) {
    try {
      parse(expression);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** The first time strictly after {@code after} the expression fires. */
  public static Optional<ZonedDateTime> nextAfter(String expression, ZonedDateTime after) {
    return ExecutionTime.forCron(parse(expression)).nextExecution(after);
  }

  /** The last time at or before {@code at} the expression fired. */
  public static Optional<ZonedDateTime> lastAtOrBefore(String expression, ZonedDateTime at) {
    ExecutionTime times = ExecutionTime.forCron(parse(expression));
    if (times.isMatch(at.withNano(0)) && at.getSecond() == 0 && at.getNano() == 0) {
      return Optional.of(at);
    }
    return times.lastExecution(at);
  }
}
