package io.tidb.operator.controller.backup.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** BR's output as the backup-manager reads it, and the units upstream's status uses. */
public class BrSummaryTest {

  /** A Backup status with both writers' fields, for other tests. */
  public static final String FULL_STATUS = """
      phase: Complete
      backupPath: s3://bk/p
      commitTs: "449635446512271361"
      backupSize: 21695
      backupSizeReadable: 22 kB
      timeStarted: "2024-05-06T07:08:05Z"
      conditions: [{type: Complete, status: "True", reason: Completed, observedGeneration: 1}]
      """;

  static final String REAL_SUMMARY = "[2024/05/06 07:08:09.123 +00:00] [INFO] [collector.go:77] [\"Full Backup success summary\"]"
      + " [total-ranges=21] [ranges-succeed=21] [ranges-failed=0] [backup-checksum=12.3ms] [backup-fast-checksum=4.5ms]"
      + " [backup-total-ranges=80] [total-take=4.1s] [BackupTS=449635446512271361] [total-kv=1024]"
      + " [total-kv-size=96.3kB] [average-speed=23.4kB/s] [backup-data-size(after-compressed)=21.7kB] [Size=21695]";

  @Test
  void parsesBrsSuccessSummary() {
    BrSummary.Summary s = BrSummary.find(List.of("[INFO] starting", REAL_SUMMARY, "")).orElseThrow();
    assertEquals("Full Backup", s.name());
    assertEquals(Optional.of("449635446512271361"), s.backupTs());
    assertEquals(Optional.of(21695L), s.size());
    assertEquals(Optional.of("21.7kB"), s.field("backup-data-size(after-compressed)"));
    assertEquals(Optional.of("4.1s"), s.field("total-take"));
  }

  @Test
  void noSummaryInOrdinaryLogLines() {
    assertEquals(Optional.empty(), BrSummary.find(List.of("[2024/05/06 07:08:09.123 +00:00] [INFO] [backup.go:291] [\"context\"] [pd=x]")));
  }

  @Test
  void quotedFieldValues() {
    BrSummary.Summary s = BrSummary.parse("[\"Full Restore success summary\"] [error=\"a b [c]\"] [Size=1]").orElseThrow();
    assertEquals(Optional.of("a b [c]"), s.field("error"));
    assertEquals(Optional.of(1L), s.size());
  }

  @Test
  void theErrorIsBrsLastErrorLine() {
    assertEquals(Optional.of("[BR:Common:ErrUnknown]boom"),
        BrSummary.error(List.of("Error: first", "[ERROR] [main.go:58] [\"br failed\"]", "Error: [BR:Common:ErrUnknown]boom", "")));
    assertEquals(Optional.of("panic: x"), BrSummary.error(List.of("log", "panic: x")));
  }

  @Test
  void unitsAsUpstream() {
    assertEquals("9 B", HumanUnits.bytes(9));
    assertEquals("22 kB", HumanUnits.bytes(21695));
    assertEquals("1.5 MB", HumanUnits.bytes(1_500_000));
    assertEquals("83 MB", HumanUnits.bytes(82_854_982));
    assertEquals("0s", HumanUnits.goDuration(Duration.ofMillis(300)));
    assertEquals("45s", HumanUnits.goDuration(Duration.ofSeconds(45)));
    assertEquals("1m2s", HumanUnits.goDuration(Duration.ofSeconds(62)));
    assertEquals("1h0m5s", HumanUnits.goDuration(Duration.ofSeconds(3605)));
  }

  @Test
  void optionsThatLookSecretAreRedactedInTheLog() {
    assertEquals(List.of("br", "--s3.endpoint=x", "--crypter.key=<redacted>"),
        BackupManagerMain.redacted(List.of("br", "--s3.endpoint=x", "--crypter.key=abc")));
  }
}
