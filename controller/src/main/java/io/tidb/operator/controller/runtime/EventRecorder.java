package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Records {@code core/v1} Events about an object, as {@code kubectl describe} shows them.
 * Recording never fails a reconcile. {@link KubeEventRecorder} is the real one; tests use an
 * in-memory fake.
 */
public interface EventRecorder {

  void record(HasMetadata about, EventType type, String reason, String message);

  default void normal(HasMetadata about, String reason, String message) {
    record(about, EventType.NORMAL, reason, message);
  }

  default void warning(HasMetadata about, String reason, String message) {
    record(about, EventType.WARNING, reason, message);
  }

  /** The two Event types Kubernetes knows. */
  enum EventType {
    NORMAL("Normal"),
    WARNING("Warning");

    private final String value;

    EventType(String value) {
      this.value = value;
    }

    public String value() {
      return value;
    }
  }
}
