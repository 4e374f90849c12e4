package io.tidb.operator.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** The objects of a {@code helm template} output, typed where fabric8 knows the kind. */
record RenderedChart(List<HasMetadata> objects) {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  static RenderedChart parse(String manifest) {
    List<HasMetadata> objects = new ArrayList<>();
    for (String document : manifest.split("(?m)^---\\s*$")) {
      if (document.lines().allMatch(line -> line.isBlank() || line.stripLeading().startsWith("#"))) {
        continue;
      }
      objects.add(SERIALIZATION.unmarshal(document, HasMetadata.class));
    }
    return new RenderedChart(List.copyOf(objects));
  }

  <T extends HasMetadata> List<T> all(Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** Objects of any type with this kind (e.g. cert-manager kinds, which fabric8 does not model). */
  List<HasMetadata> ofKind(String kind) {
    return objects.stream().filter(o -> kind.equals(o.getKind())).toList();
  }

  <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
    return all(type).stream().filter(o -> name.equals(o.getMetadata().getName())).findFirst();
  }

  <T extends HasMetadata> Optional<T> find(Class<T> type, String namespace, String name) {
    return all(type).stream()
        .filter(o -> name.equals(o.getMetadata().getName()) && namespace.equals(o.getMetadata().getNamespace()))
        .findFirst();
  }

  /** Fails listing what is there when the object is missing. */
  <T extends HasMetadata> T get(Class<T> type, String name) {
    return find(type, name).orElseThrow(() -> new AssertionError(
        "no " + type.getSimpleName() + " named " + name + " in the rendered chart; it holds " + summary()));
  }

  String summary() {
    return objects.stream()
        .map(o -> o.getKind() + "/" + (o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace() + "/")
            + o.getMetadata().getName())
        .collect(Collectors.joining(", "));
  }
}
