package io.tidb.operator.controller.tidbcluster.pipeline;

import java.io.IOException;

/**
 * The deletions the care rules decide on, over the API server of the cluster's namespace: a pod
 * (the evict-leader, pd-transfer-leader and tidb-graceful-shutdown annotations with {@code
 * delete-pod}, volume replace, failover, orphan pods) and a StatefulSet ({@code suspendAction.suspendStatefulSet}). Each is guarded by the
 * object's uid, so an object recreated meanwhile is never deleted by mistake; one already gone is
 * fine. Tests use an in-memory fake.
 */
public interface Deletions {

  /** Deletes pod {@code name} if it still has {@code uid}. */
  void deletePod(String name, String uid) throws IOException;

  /**
   * Deletes pod {@code name} if it still has {@code uid} and is still not scheduled ({@code
   * spec.nodeName} empty), as read from the API server now (upstream's orphan pods cleaner).
   */
  void deleteUnscheduledPod(String name, String uid) throws IOException;

  /**
   * Deletes StatefulSet {@code name} if it still has {@code uid}, orphaning nothing: its pods go
   * with it (foreground propagation), its volume claims stay.
   */
  void deleteStatefulSet(String name, String uid) throws IOException;

  /** For contexts that never delete anything (observing only): every call fails. */
  Deletions NONE =
      new Deletions() {
        @Override
        public void deletePod(String name, String uid) throws IOException {
          throw new IOException("deleting pods is not available here");
        }

        @Override
        public void deleteUnscheduledPod(String name, String uid) throws IOException {
          throw new IOException("deleting pods is not available here");
        }

        @Override
        public void deleteStatefulSet(String name, String uid) throws IOException {
          throw new IOException("deleting StatefulSets is not available here");
        }
      };
}
