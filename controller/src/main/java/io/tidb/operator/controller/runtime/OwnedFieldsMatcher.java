package io.tidb.operator.controller.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether server-side applying a desired object would change anything the operator owns
 * in the actual object, so that a reconcile with nothing to do sends no write request.
 *
 * <p>Two checks, both pure:
 *
 * <ol>
 *   <li><b>Contained:</b> every field set in the desired object has the same value in the actual
 *       object. Fields the API server defaults, or other managers own, are not in the desired
 *       object and so are not compared. Resource quantities compare by value ({@code 1000m} equals
 *       {@code 1}), numbers by value.
 *   <li><b>Nothing dropped:</b> every field the operator's field manager owns (per the actual
 *       object's {@code managedFields}, operation {@code Apply}) is still set in the desired
 *       object; otherwise an apply is needed to remove it.
 * </ol>
 *
 * Lists whose desired elements all carry a {@code name} are matched by name (other managers may add
 * elements); any other list must match element by element.
 */
public final class OwnedFieldsMatcher {

  /** The metadata fields compared; the rest is the API server's or other managers'. */
  private static final Set<String> COMPARED_METADATA =
      Set.of("name", "namespace", "labels", "annotations", "ownerReferences");

  /**
   * Turns objects into the maps compared, leaving out what is never compared while it writes
   * them rather than after: an object's {@code status} and every metadata field but {@link
   * #COMPARED_METADATA} (above all {@code managedFields}, often the larger part of a cached
   * StatefulSet). Converting whole cached objects and dropping those parts afterwards was the
   * largest single CPU cost of a reconcile (JFR on ControllerBenchmark).
   */
  private static final KubernetesSerialization COMPARISON = new KubernetesSerialization(
      new ObjectMapper().registerModule(new SimpleModule("tidb-operator-comparison")
          .setSerializerModifier(new BeanSerializerModifier() {
            @Override
            public List<BeanPropertyWriter> changeProperties(SerializationConfig config,
                BeanDescription description, List<BeanPropertyWriter> properties) {
              Class<?> type = description.getBeanClass();
              if (ObjectMeta.class.isAssignableFrom(type)) {
                properties.removeIf(p -> !COMPARED_METADATA.contains(p.getName()));
              } else if (HasMetadata.class.isAssignableFrom(type)) {
                properties.removeIf(p -> "status".equals(p.getName()));
              }
              return properties;
            }
          })),
      true);

  private static final ObjectMapper JSON = new ObjectMapper();

  private OwnedFieldsMatcher() {}

  /**
   * The paths where applying {@code desired} would change {@code actual}; empty when it would not.
   * A missing {@code actual} is reported as the single difference {@code <missing>}.
   */
  public static List<String> differences(
      HasMetadata desired, Optional<? extends HasMetadata> actual, String fieldManager) {
    if (actual.isEmpty()) {
      return List.of("<missing>");
    }
    Map<String, Object> want = comparable(desired);
    Map<String, Object> have = comparable(actual.get());
    List<String> diffs = new ArrayList<>();
    contained(want, have, "", diffs);
    ownedFields(actual.get(), fieldManager)
        .ifPresent(owned -> stillDesired(owned, want, "", diffs));
    return diffs;
  }

  /**
   * As {@link #differences(HasMetadata, Optional, String)}, skipped when {@code memo} knows the
   * same desired object matched this version of the actual one; a match found is remembered.
   */
  public static List<String> differences(
      HasMetadata desired, Optional<? extends HasMetadata> actual, String fieldManager, MatchMemo memo) {
    Optional<MatchMemo.Key> key = actual.flatMap(a -> MatchMemo.key(a, fieldManager));
    if (key.isEmpty()) {
      return differences(desired, actual, fieldManager);
    }
    int fingerprint = MatchMemo.fingerprint(desired);
    if (memo.matched(key.get(), fingerprint)) {
      return List.of();
    }
    List<String> diffs = differences(desired, actual, fieldManager);
    if (diffs.isEmpty()) {
      memo.remember(key.get(), fingerprint);
    }
    return diffs;
  }


  /** True when applying {@code desired} would change nothing the field manager owns. */
  public static boolean matches(
      HasMetadata desired, Optional<? extends HasMetadata> actual, String fieldManager) {
    return differences(desired, actual, fieldManager).isEmpty();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> comparable(HasMetadata obj) {
    Map<String, Object> map = COMPARISON.convertValue(obj, Map.class);
    // A status or metadata field fabric8 holds among additionalProperties, not as a property.
    map.remove("status");
    if (map.get("metadata") instanceof Map<?, ?> meta) {
      ((Map<String, Object>) meta).keySet().retainAll(COMPARED_METADATA);
      meta.values().removeIf(Objects::isNull);
    }
    return map;
  }

  @SuppressWarnings("unchecked")
  private static Optional<Map<String, Object>> ownedFields(HasMetadata actual, String manager) {
    List<ManagedFieldsEntry> entries = actual.getMetadata().getManagedFields();
    if (entries == null) {
      return Optional.empty();
    }
    return entries.stream()
        .filter(e -> manager.equals(e.getManager()) && "Apply".equals(e.getOperation()))
        .filter(e -> e.getSubresource() == null || e.getSubresource().isEmpty())
        .findFirst()
        // Read in place, never changed: the field set is a tree of maps as Jackson reads it.
        .map(e -> e.getFieldsV1() == null ? Map.<String, Object>of() : e.getFieldsV1().getAdditionalProperties());
  }

  // ---- check 1: desired ⊆ actual ----------------------------------------------------------

  private static void contained(Object want, Object have, String path, List<String> diffs) {
    if (want == null) {
      return;
    }
    if (want instanceof Map<?, ?> wantMap) {
      if (have == null && wantMap.isEmpty()) {
        return;
      }
      if (!(have instanceof Map<?, ?> haveMap)) {
        diffs.add(pathOrRoot(path));
        return;
      }
      for (Map.Entry<?, ?> e : wantMap.entrySet()) {
        contained(e.getValue(), haveMap.get(e.getKey()), path + "." + e.getKey(), diffs);
      }
    } else if (want instanceof List<?> wantList) {
      if (have == null && wantList.isEmpty()) {
        return;
      }
      if (!(have instanceof List<?> haveList)) {
        diffs.add(pathOrRoot(path));
        return;
      }
      containedList(wantList, haveList, path, diffs);
    } else if (!scalarEquals(want, have, path)) {
      diffs.add(pathOrRoot(path));
    }
  }

  private static void containedList(
      List<?> want, List<?> have, String path, List<String> diffs) {
    if (allNamed(want)) {
      for (Object w : want) {
        Object name = ((Map<?, ?>) w).get("name");
        Optional<?> match =
            have.stream()
                .filter(h -> h instanceof Map<?, ?> m && Objects.equals(m.get("name"), name))
                .findFirst();
        if (match.isEmpty()) {
          diffs.add(path + "[name=" + name + "]");
        } else {
          contained(w, match.get(), path + "[name=" + name + "]", diffs);
        }
      }
      return;
    }
    if (want.size() != have.size()) {
      diffs.add(pathOrRoot(path));
      return;
    }
    for (int i = 0; i < want.size(); i++) {
      contained(want.get(i), have.get(i), path + "[" + i + "]", diffs);
    }
  }

  private static boolean allNamed(List<?> list) {
    return !list.isEmpty()
        && list.stream().allMatch(e -> e instanceof Map<?, ?> m && m.get("name") != null);
  }

  private static boolean scalarEquals(Object want, Object have, String path) {
    if (Objects.equals(want, have)) {
      return true;
    }
    if (want instanceof Number w && have instanceof Number h) {
      return new BigDecimal(w.toString()).compareTo(new BigDecimal(h.toString())) == 0;
    }
    if (want instanceof String w && have instanceof String h && isQuantityPath(path)) {
      return quantityEquals(w, h);
    }
    return false;
  }

  private static boolean isQuantityPath(String path) {
    return path.contains(".resources.")
        || path.contains(".requests.")
        || path.contains(".limits.")
        || path.contains(".capacity.");
  }

  private static boolean quantityEquals(String a, String b) {
    try {
      return Quantity.getAmountInBytes(new Quantity(a))
              .compareTo(Quantity.getAmountInBytes(new Quantity(b)))
          == 0;
    } catch (IllegalArgumentException | ArithmeticException e) {
      return false;
    }
  }

  // ---- check 2: owned ⊆ desired -----------------------------------------------------------

  private static void stillDesired(
      Map<String, Object> owned, Object want, String path, List<String> diffs) {
    for (Map.Entry<String, Object> e : owned.entrySet()) {
      String key = e.getKey();
      Map<String, Object> children = childFields(e.getValue());
      if (key.equals(".")) {
        continue;
      }
      if (key.startsWith("f:")) {
        String field = key.substring(2);
        Object value = want instanceof Map<?, ?> m ? m.get(field) : null;
        if (value == null) {
          diffs.add(path + "." + field + " (owned, no longer desired)");
        } else if (!children.isEmpty()) {
          stillDesired(children, value, path + "." + field, diffs);
        }
      } else if (key.startsWith("k:")) {
        Map<?, ?> listKey = parseJsonObject(key.substring(2));
        Optional<?> element =
            want instanceof List<?> list
                ? list.stream().filter(el -> hasKey(el, listKey)).findFirst()
                : Optional.empty();
        if (element.isEmpty()) {
          diffs.add(path + "[" + key.substring(2) + "] (owned, no longer desired)");
        } else if (!children.isEmpty()) {
          stillDesired(children, element.get(), path + "[" + key.substring(2) + "]", diffs);
        }
      } else if (key.startsWith("v:")) {
        Object value = parseJson(key.substring(2));
        boolean present =
            want instanceof List<?> list
                && list.stream().anyMatch(el -> scalarEquals(value, el, path));
        if (!present) {
          diffs.add(path + "[" + key.substring(2) + "] (owned, no longer desired)");
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> childFields(Object value) {
    return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static boolean hasKey(Object element, Map<?, ?> listKey) {
    if (!(element instanceof Map<?, ?> m)) {
      return false;
    }
    // A key field the desired element leaves out was defaulted by the server (e.g. a port's
    // protocol), so it matches.
    return listKey.entrySet().stream()
        .allMatch(
            k -> m.get(k.getKey()) == null || scalarEquals(k.getValue(), m.get(k.getKey()), ""));
  }

  private static Map<?, ?> parseJsonObject(String json) {
    return parseJson(json) instanceof Map<?, ?> m ? m : Map.of();
  }

  private static Object parseJson(String json) {
    try {
      return JSON.readValue(json, Object.class);
    } catch (JsonProcessingException e) {
      return json;
    }
  }

  private static String pathOrRoot(String path) {
    return path.isEmpty() ? "<root>" : path;
  }
}
