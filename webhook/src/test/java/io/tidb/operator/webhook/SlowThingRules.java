package io.tidb.operator.webhook;

import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** Rules for {@link SlowThing}: sleep as asked, throw when asked; report when a check started. */
final class SlowThingRules implements AdmissionRules<SlowThing> {

  final CountDownLatch started = new CountDownLatch(1);

  @Override
  public Class<SlowThing> resourceType() {
    return SlowThing.class;
  }

  @Override
  public List<Violation> validateCreateDefaulted(SlowThing obj) {
    started.countDown();
    if (obj.getSpec().explode) {
      throw new IllegalStateException("rules failed on purpose");
    }
    try {
      Thread.sleep(obj.getSpec().sleepMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return List.of();
  }

  @Override
  public List<Violation> validateUpdateDefaulted(SlowThing oldObj, SlowThing newObj) {
    return validateCreateDefaulted(newObj);
  }

  @Override
  public List<Violation> validateStoredDefaulted(SlowThing obj) {
    return validateCreateDefaulted(obj);
  }

  @Override
  public List<String> warnings(SlowThing obj) {
    return List.of();
  }

  @Override
  public SlowThing defaultInPlace(SlowThing obj, FilledDefaults filled) {
    if (obj.getSpec().explode) {
      throw new IllegalStateException("defaults failed on purpose");
    }
    return obj;
  }

  static byte[] review(String uid, long sleepMillis, boolean explode) {
    return ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
        + "\"uid\":\"" + uid + "\",\"operation\":\"CREATE\",\"namespace\":\"t\",\"name\":\"slow\","
        + "\"kind\":{\"group\":\"test.tidb.io\",\"version\":\"v1\",\"kind\":\"SlowThing\"},"
        + "\"resource\":{\"group\":\"test.tidb.io\",\"version\":\"v1\",\"resource\":\"slowthings\"},"
        + "\"object\":{\"apiVersion\":\"test.tidb.io/v1\",\"kind\":\"SlowThing\","
        + "\"metadata\":{\"name\":\"slow\",\"namespace\":\"t\"},"
        + "\"spec\":{\"sleepMillis\":" + sleepMillis + ",\"explode\":" + explode + "}}}}")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }
}
