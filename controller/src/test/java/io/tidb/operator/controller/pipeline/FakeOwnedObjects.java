package io.tidb.operator.controller.pipeline;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** In-memory {@link OwnedObjects} for unit tests. */
public final class FakeOwnedObjects implements OwnedObjects {

  private final List<HasMetadata> objects = new ArrayList<>();

  public FakeOwnedObjects add(HasMetadata obj) {
    objects.add(obj);
    return this;
  }

  @Override
  public <R extends HasMetadata> Optional<R> get(Class<R> kind, String name) {
    return objects.stream()
        .filter(kind::isInstance)
        .map(kind::cast)
        .filter(o -> name.equals(o.getMetadata().getName()))
        .findFirst();
  }

  @Override
  public List<Pod> podsOf(String statefulSetName) {
    return objects.stream()
        .filter(Pod.class::isInstance)
        .map(Pod.class::cast)
        .filter(p -> p.getMetadata().getName().startsWith(statefulSetName + "-"))
        .toList();
  }

  @Override
  public <R extends HasMetadata> RecentOperationCacheFiller<R> cacheOf(Class<R> kind) {
    return new RecentOperationCacheFiller<>() {
      @Override
      public void handleRecentResourceCreate(ResourceID resourceID, R resource) {
        objects.add(resource);
      }

      @Override
      public void handleRecentResourceUpdate(ResourceID resourceID, R resource, R previous) {
        objects.remove(previous);
        objects.add(resource);
      }
    };
  }
}
