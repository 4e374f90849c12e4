package io.tidb.operator.controller.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Where the advancer keeps a log backup's checkpoint, how it reads, and when the status changes. */
class LogCheckpointTest {

  private static final Instant NOW = Instant.parse("2026-12-02T03:00:00Z");

  private static byte[] be(long tso) {
    return ByteBuffer.allocate(8).putLong(tso).array();
  }

  @Test
  void theTasksOwnCheckpointPrefix() {
    assertEquals("/tidb/br-stream/checkpoint/pitr/", LogCheckpoint.prefix("pitr"));
  }

  @Test
  void anEightByteBigEndianValueIsTheTso() {
    long tso = 464_123_456_789_012_345L;
    assertEquals(Optional.of("464123456789012345"),
        LogCheckpoint.tsoOf(Map.of("/tidb/br-stream/checkpoint/pitr/central_global", be(tso))));
    assertEquals(Optional.of("18446744073709551615"), LogCheckpoint.tsoOf(Map.of("k", be(-1L))), "unsigned");
  }

  @Test
  void theFirstKeyInOrderIsRead_theGlobalCheckpointBeforeTheStores() {
    Map<String, byte[]> keys = new TreeMap<>();
    keys.put("/tidb/br-stream/checkpoint/pitr/store/1", be(100));
    keys.put("/tidb/br-stream/checkpoint/pitr/central_global", be(90));
    assertEquals(Optional.of("90"), LogCheckpoint.tsoOf(keys));
  }

  @Test
  void nothingUsableReadsAsNoCheckpoint() {
    assertEquals(Optional.empty(), LogCheckpoint.tsoOf(Map.of()));
    assertEquals(Optional.empty(), LogCheckpoint.tsoOf(Map.of("k", "464123456789012345".getBytes())), "text");
    assertEquals(Optional.empty(), LogCheckpoint.tsoOf(Map.of("k", new byte[7])));
    assertEquals(Optional.empty(), LogCheckpoint.tsoOf(Map.of("k", be(0))), "0 is no checkpoint yet");
  }

  @Test
  void onlyARunningLogBackupIsTracked() {
    BackupStatus s = new BackupStatus();
    for (String phase : new String[] {"Scheduled", "Prepare", "Paused", "Stopped", "Failed"}) {
      s.setPhase(phase);
      assertFalse(LogCheckpoint.tracked(s), phase);
    }
    s.setPhase("Running");
    assertTrue(LogCheckpoint.tracked(s));
  }

  @Test
  void theStatusChangesOnlyWhenTheCheckpointMoved() {
    BackupStatus s = new BackupStatus();
    assertFalse(LogCheckpoint.apply(s, Optional.empty(), NOW));
    assertNull(s.getLogCheckpointTs());
    assertNull(s.getTimeSynced());

    assertTrue(LogCheckpoint.apply(s, Optional.of("100"), NOW));
    assertEquals("100", s.getLogCheckpointTs());
    assertEquals("2026-12-02T03:00:00Z", s.getTimeSynced());

    assertFalse(LogCheckpoint.apply(s, Optional.of("100"), NOW.plusSeconds(60)), "the same checkpoint");
    assertEquals("2026-12-02T03:00:00Z", s.getTimeSynced(), "timeSynced: when it last moved");

    assertTrue(LogCheckpoint.apply(s, Optional.of("160"), NOW.plusSeconds(120)));
    assertEquals("160", s.getLogCheckpointTs());
    assertEquals("2026-12-02T03:02:00Z", s.getTimeSynced());

    assertFalse(LogCheckpoint.apply(s, Optional.empty(), NOW.plusSeconds(180)), "an unreadable value keeps the last");
    assertEquals("160", s.getLogCheckpointTs());
  }
}
