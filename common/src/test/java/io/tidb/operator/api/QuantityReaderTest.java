package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuantityReaderTest {

  /** Every form a quantity may take: the API server's strings, numbers, fabric8's object form, null. */
  private static final String QUANTITIES = """
      {"cpu":"500m","memory":"10Gi","storage":"1.5e3","small":"100u","plain":"2",
       "int":3,"float":0.25,"exponent":1e3,
       "object":{"amount":"1","format":"Gi"},"amountOnly":{"amount":"7"},"none":null}
      """;

  private static final TypeReference<Map<String, Quantity>> QUANTITY_MAP = new TypeReference<>() {};

  @Test
  void everyFormReadsAsFabric8ReadsIt() {
    Map<String, Quantity> read = ApiObjects.newSerialization(new ObjectMapper()).unmarshal(quantities(), QUANTITY_MAP);
    Map<String, Quantity> expected = new KubernetesSerialization().unmarshal(quantities(), QUANTITY_MAP);

    assertEquals(expected, read);
    assertEquals(new Quantity("500m"), read.get("cpu"));
    assertEquals("Gi", read.get("object").getFormat());
    assertNull(read.get("none"));
  }

  private static InputStream quantities() {
    return new ByteArrayInputStream(QUANTITIES.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void theOperatorsMappersReadQuantitiesWithIt() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    ApiObjects.newSerialization(mapper);
    DefaultDeserializationContext context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
        .createInstance(mapper.getDeserializationConfig(), null, null);

    assertInstanceOf(QuantityReader.class, context.findRootValueDeserializer(mapper.constructType(Quantity.class)));
  }

  @Test
  void aPodsResourcesReadAsFabric8ReadsThem() {
    String pod = """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"basic-tikv-0"},"spec":{"containers":[
          {"name":"tikv","resources":{"requests":{"cpu":"1","memory":"2Gi"},"limits":{"cpu":2,"memory":"4Gi"}}}]}}
        """;

    assertEquals(new KubernetesSerialization().unmarshal(pod, Pod.class),
        ApiObjects.serialization().unmarshal(pod, Pod.class));
  }
}
