package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.introspect.AnnotatedField;
import com.fasterxml.jackson.databind.introspect.AnnotatedMethod;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.BeanSerializer;
import com.fasterxml.jackson.databind.ser.PropertyWriter;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.tidb.operator.api.CompatExamples.Example;
import io.tidb.operator.api.bench.WatchEventDecodeBenchmark;
import io.tidb.operator.api.v1alpha1.cluster.PdSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The model's properties read into and written from their fields give what fabric8's mapping gives
 * through the accessors, and every accessor they bypass does nothing but load or store its field.
 */
class FieldBackedPropertiesTest {

  /** fabric8's serialization as it comes: every property through its getter and setter. */
  private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();

  /**
   * Every getter and setter that {@link FieldBackedProperties} may bypass, in every class of
   * fabric8's model jars and of this project's model: with a value stored in the field the getter
   * returns that very value, and the setter stores the value it is given in the field.
   */
  @Test
  void bypassedAccessorsOnlyLoadAndStoreTheirField() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    SerializationConfig config = mapper.getSerializationConfig();
    List<String> wrong = new ArrayList<>();
    int getters = 0;
    int setters = 0;
    for (Class<?> type : modelClasses()) {
      Constructor<?> constructor = noArgumentConstructor(type);
      if (constructor == null) {
        continue;
      }
      BeanDescription description = config.introspect(config.constructType(type));
      for (BeanPropertyDefinition definition : description.findProperties()) {
        AnnotatedField annotated = definition.getField();
        if (annotated == null
            || Modifier.isStatic(annotated.getModifiers())
            || annotated.getRawType().isPrimitive()
            || !FieldBackedProperties.plainAccessors(annotated.getDeclaringClass())) {
          continue;
        }
        Field field = annotated.getAnnotated();
        field.setAccessible(true);
        Object value = sample(field.getType());
        if (value == null) {
          continue;
        }
        AnnotatedMethod getter = definition.getGetter();
        if (getter != null && getter.getRawType() == field.getType()) {
          Object bean = constructor.newInstance();
          field.set(bean, value);
          getter.getAnnotated().setAccessible(true);
          if (call(getter, bean) != value) {
            wrong.add(type.getName() + "." + getter.getName() + "() does not return field " + field.getName());
          }
          getters++;
        }
        AnnotatedMethod setter = definition.getSetter();
        if (setter != null && setter.getRawParameterType(0) == field.getType() && !Modifier.isFinal(field.getModifiers())) {
          Object bean = constructor.newInstance();
          setter.getAnnotated().setAccessible(true);
          if (call(setter, bean, value) == FAILED || field.get(bean) != value) {
            wrong.add(type.getName() + "." + setter.getName() + "(..) does not store into field " + field.getName());
          }
          setters++;
        }
      }
    }
    assertEquals(List.of(), wrong);
    // fabric8's model alone has thousands; a scan that found nothing would prove nothing.
    assertTrue(getters > 5000 && setters > 5000, getters + " getters, " + setters + " setters checked");
  }

  /** The mapping the processes use puts the field-backed readers and writers in place. */
  @Test
  void theProcessesMappingReadsAndWritesFields() throws Exception {
    ObjectMapper mapper = ApiObjects.mapper();
    ApiObjects.newSerialization(mapper);
    for (Class<?> type : List.of(Pod.class, ObjectMeta.class, StatefulSet.class, TidbClusterSpec.class, PdSpec.class)) {
      BeanSerializer serializer = (BeanSerializer) mapper.getSerializerProviderInstance().findValueSerializer(type);
      int fieldWriters = 0;
      for (Iterator<PropertyWriter> it = serializer.properties(); it.hasNext(); ) {
        PropertyWriter writer = it.next();
        if (writer instanceof FieldHandleWriter) {
          fieldWriters++;
        } else {
          assertInstanceOf(BeanPropertyWriter.class, writer);
        }
      }
      DefaultDeserializationContext context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
          .createDummyInstance(mapper.getDeserializationConfig());
      JsonDeserializer<Object> deserializer = context.findRootValueDeserializer(mapper.constructType(type));
      int fieldProperties = 0;
      for (Iterator<SettableBeanProperty> it = ((BeanDeserializerBase) deserializer).properties(); it.hasNext(); ) {
        SettableBeanProperty property = it.next();
        if (property instanceof SettableBeanProperty.Delegating delegating) {
          property = delegating.getDelegate();
        }
        if (property instanceof FieldHandleProperty) {
          fieldProperties++;
        }
      }
      assertTrue(fieldWriters >= 3 && fieldProperties >= 3, type + ": " + fieldWriters + " writers, " + fieldProperties + " properties");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.tidb.operator.api.CompatExamples#arguments")
  void clustersReadAndWriteAsFabric8Does(Example example) {
    String json = example.tree().toString();
    TidbCluster ours = ApiObjects.parse(json, TidbCluster.class);
    TidbCluster theirs = FABRIC8.unmarshal(json, TidbCluster.class);
    assertEquals(theirs, ours);
    assertEquals(FABRIC8.asJson(theirs), ApiObjects.toJson(ours));
  }

  @Test
  void watchEventsReadAndWriteAsFabric8Does() throws IOException {
    List<String> events = WatchEventDecodeBenchmark.events();
    for (String line : events) {
      Object ours = ApiObjects.parse(line, WatchEvent.class).getObject();
      Object theirs = FABRIC8.unmarshal(line, WatchEvent.class).getObject();
      assertEquals(theirs, ours);
      assertEquals(FABRIC8.asJson(theirs), ApiObjects.toJson(ours));
      assertEquals(theirs, ApiObjects.deepCopy(ours));
    }
    assertTrue(events.size() >= 2, "events read: " + events.size());
  }

  /**
   * fabric8's rule for a property also held in the bean's additional properties: the map's value is
   * written, the field's is not, whether the field holds a value or not.
   */
  @Test
  void anAdditionalPropertyOfAFieldsNameWinsAsInFabric8() {
    ObjectMeta meta = new ObjectMetaBuilder().withName("field").withNamespace("ns").build();
    meta.setAdditionalProperty("name", "extra");
    meta.setAdditionalProperty("uid", "extra-uid");
    meta.setAdditionalProperty("unknownField", List.of(1, 2));
    Pod pod = new PodBuilder().withMetadata(meta).build();
    pod.setAdditionalProperty("kind", "NotAPod");
    assertEquals(FABRIC8.asJson(pod), ApiObjects.toJson(pod));
    assertTrue(ApiObjects.toJson(pod).contains("\"name\":\"extra\""), ApiObjects.toJson(pod));
    assertTrue(!ApiObjects.toJson(pod).contains("\"field\""), ApiObjects.toJson(pod));
  }

  /** The concrete classes of fabric8's model jars and of this project's model. */
  private static List<Class<?>> modelClasses() throws IOException, ClassNotFoundException {
    List<String> names = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry);
      if (path.getFileName().toString().startsWith("kubernetes-model-") && Files.isRegularFile(path)) {
        try (JarFile jar = new JarFile(path.toFile())) {
          jar.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class")).forEach(names::add);
        }
      } else if (Files.isDirectory(path.resolve("io/tidb/operator/api/v1alpha1"))) {
        try (Stream<Path> files = Files.walk(path.resolve("io/tidb/operator/api/v1alpha1"))) {
          files.map(f -> path.relativize(f).toString()).filter(n -> n.endsWith(".class")).forEach(names::add);
        }
      }
    }
    List<Class<?>> classes = new ArrayList<>();
    ClassLoader loader = FieldBackedPropertiesTest.class.getClassLoader();
    for (String name : names) {
      String className = name.substring(0, name.length() - ".class".length()).replace('/', '.');
      if (!FieldBackedProperties.plainAccessors(Class.forName(className, false, loader))) {
        continue;
      }
      Class<?> type = Class.forName(className, false, loader);
      if (!type.isInterface() && !type.isEnum() && !Modifier.isAbstract(type.getModifiers())) {
        classes.add(type);
      }
    }
    return classes;
  }

  private static final Object FAILED = new Object();

  /** The method's result, or {@link #FAILED} if it threw. */
  private static Object call(AnnotatedMethod method, Object bean, Object... arguments) throws IllegalAccessException {
    try {
      return method.getAnnotated().invoke(bean, arguments);
    } catch (InvocationTargetException e) {
      return FAILED;
    }
  }

  private static Constructor<?> noArgumentConstructor(Class<?> type) {
    try {
      Constructor<?> constructor = type.getDeclaredConstructor();
      constructor.setAccessible(true);
      return constructor;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  /** A fresh value of {@code type}, distinct from any the bean holds; {@code null} if none is made simply. */
  private static Object sample(Class<?> type) throws ReflectiveOperationException {
    if (type == String.class) {
      return new String("sample");
    }
    if (type == Integer.class) {
      return Integer.valueOf(123_456);
    }
    if (type == Long.class) {
      return Long.valueOf(123_456L);
    }
    if (type == Boolean.class) {
      return new Boolean(true);
    }
    if (type == Double.class) {
      return Double.valueOf(0.5);
    }
    if (type.isEnum()) {
      return type.getEnumConstants().length == 0 ? null : type.getEnumConstants()[0];
    }
    if (type == List.class || type == Collection.class) {
      return new ArrayList<>();
    }
    if (type == Map.class) {
      return new LinkedHashMap<>();
    }
    if (type == Set.class) {
      return new LinkedHashSet<>();
    }
    if (type == Object.class) {
      return new Object();
    }
    if (type.isInterface() || Modifier.isAbstract(type.getModifiers()) || type.isArray()) {
      return null;
    }
    Constructor<?> constructor = noArgumentConstructor(type);
    return constructor == null ? null : constructor.newInstance();
  }
}
