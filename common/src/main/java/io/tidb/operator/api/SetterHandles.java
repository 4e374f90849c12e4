package io.tidb.operator.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.PropertyName;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.NullValueProvider;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.impl.MethodProperty;
import com.fasterxml.jackson.databind.deser.impl.NullsConstantProvider;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedMethod;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Calls the model's setters through method handles instead of {@link Method#invoke}.
 *
 * <p>Jackson sets each property it reads with {@code Method.invoke}. On JDK 17 that call is a JNI
 * call into the VM until the method has been called 15 times, and after that the JDK generates a
 * class for that one method, in a class loader of its own: 729 such classes in the controller's
 * first seconds with 30 clusters. The controller keeps every call native instead
 * ({@code sun.reflect.inflationThreshold} in the chart's JVM options: 9 MiB less RSS), which made
 * every property read a JNI call. A method handle is neither: it is built once per property, on
 * its first value, and its invocation is plain Java code whose adapters are shared by every
 * setter of the same shape.
 *
 * <p>What is set, and when, does not change: a property's value is read as Jackson's {@link
 * MethodProperty} reads it (nulls, type information, the null provider), and the setter itself
 * runs, so a setter that does more than assign still does it. Only a property Jackson would set
 * through a setter method is replaced; fields, creators, setterless collections and the
 * any-setter stay Jackson's.
 *
 * <p>Registered after fabric8's modules ({@link ApiObjects}), so that it sees Jackson's own
 * properties: Jackson runs the modifier registered last first, and fabric8's wraps each property
 * in a delegate that then wraps this one.
 */
final class SetterHandles extends BeanDeserializerModifier {

  /** Every setter is called as {@code (Object bean, Object value) -> Object}. */
  private static final MethodType SHAPE =
      MethodType.methodType(Object.class, Object.class, Object.class);

  @Override
  public BeanDeserializerBuilder updateBuilder(
      DeserializationConfig config, BeanDescription description, BeanDeserializerBuilder builder) {
    List<SettableBeanProperty> replaced = new ArrayList<>();
    for (Iterator<SettableBeanProperty> it = builder.getProperties(); it.hasNext(); ) {
      SettableBeanProperty property = it.next();
      if (property.getClass() == MethodProperty.class
          && property.getMember() instanceof AnnotatedMethod method) {
        replaced.add(new HandleProperty(property, method));
      }
    }
    for (SettableBeanProperty property : replaced) {
      builder.addOrReplaceProperty(property, true);
    }
    return builder;
  }

  /** A property set through its setter's method handle; otherwise as {@link MethodProperty}. */
  static final class HandleProperty extends SettableBeanProperty {

    private static final long serialVersionUID = 1L;

    private final AnnotatedMethod annotated;
    private final boolean skipNulls;
    /** The setter as {@link #SHAPE}, made on first use; {@code null} until then. */
    private transient volatile MethodHandle setter;

    HandleProperty(SettableBeanProperty src, AnnotatedMethod annotated) {
      super(src);
      this.annotated = annotated;
      this.skipNulls = NullsConstantProvider.isSkipper(_nullProvider);
    }

    private HandleProperty(HandleProperty src, JsonDeserializer<?> deser, NullValueProvider nva) {
      super(src, deser, nva);
      this.annotated = src.annotated;
      this.skipNulls = NullsConstantProvider.isSkipper(nva);
      this.setter = src.setter;
    }

    private HandleProperty(HandleProperty src, PropertyName name) {
      super(src, name);
      this.annotated = src.annotated;
      this.skipNulls = src.skipNulls;
      this.setter = src.setter;
    }

    @Override
    public SettableBeanProperty withName(PropertyName newName) {
      return new HandleProperty(this, newName);
    }

    @Override
    public SettableBeanProperty withValueDeserializer(JsonDeserializer<?> deser) {
      if (_valueDeserializer == deser) {
        return this;
      }
      // As MethodProperty: a null provider that was the old deserializer follows it.
      NullValueProvider nvp = _valueDeserializer == _nullProvider ? deser : _nullProvider;
      return new HandleProperty(this, deser, nvp);
    }

    @Override
    public SettableBeanProperty withNullProvider(NullValueProvider nva) {
      return new HandleProperty(this, _valueDeserializer, nva);
    }

    @Override
    public void fixAccess(DeserializationConfig config) {
      annotated.fixAccess(config.isEnabled(MapperFeature.OVERRIDE_PUBLIC_ACCESS_MODIFIERS));
    }

    @Override
    public <A extends Annotation> A getAnnotation(Class<A> type) {
      return annotated.getAnnotation(type);
    }

    @Override
    public AnnotatedMember getMember() {
      return annotated;
    }

    @Override
    public void deserializeAndSet(JsonParser p, DeserializationContext ctxt, Object instance)
        throws IOException {
      Object value = read(p, ctxt);
      if (value == SKIP) {
        return;
      }
      invoke(p, instance, value);
    }

    @Override
    public Object deserializeSetAndReturn(JsonParser p, DeserializationContext ctxt, Object instance)
        throws IOException {
      Object value = read(p, ctxt);
      if (value == SKIP) {
        return instance;
      }
      Object result = invoke(p, instance, value);
      return result == null ? instance : result;
    }

    @Override
    public void set(Object instance, Object value) throws IOException {
      if (value == null && skipNulls) {
        return;
      }
      invoke(null, instance, value);
    }

    @Override
    public Object setAndReturn(Object instance, Object value) throws IOException {
      if (value == null && skipNulls) {
        return instance;
      }
      Object result = invoke(null, instance, value);
      return result == null ? instance : result;
    }

    /** Marks a value the property skips (a null, when nulls are skipped). */
    private static final Object SKIP = new Object();

    /** The value at {@code p}, read as {@link MethodProperty} reads it, or {@link #SKIP}. */
    private Object read(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.hasToken(JsonToken.VALUE_NULL)) {
        return skipNulls ? SKIP : _nullProvider.getNullValue(ctxt);
      }
      if (_valueTypeDeserializer != null) {
        return _valueDeserializer.deserializeWithType(p, ctxt, _valueTypeDeserializer);
      }
      Object value = _valueDeserializer.deserialize(p, ctxt);
      if (value == null) {
        // A coercion (an empty string, say) may read as null.
        return skipNulls ? SKIP : _nullProvider.getNullValue(ctxt);
      }
      return value;
    }

    /**
     * Calls the setter. What it throws is reported as Jackson reports what a setter threw through
     * {@code Method.invoke} (wrapped, as reflection wraps it); a setter the lookup cannot reach is
     * one {@code Method.invoke} could not call either, and is reported the same way.
     */
    private Object invoke(JsonParser p, Object instance, Object value) throws IOException {
      try {
        MethodHandle handle = setter;
        if (handle == null) {
          handle = MethodHandles.publicLookup().unreflect(annotated.getAnnotated()).asType(SHAPE);
          setter = handle;
        }
        return (Object) handle.invokeExact(instance, value);
      } catch (Error e) {
        throw e;
      } catch (IllegalAccessException e) {
        _throwAsIOE(p, e, value);
        return null;
      } catch (Throwable e) {
        _throwAsIOE(p, new InvocationTargetException(e), value);
        return null;
      }
    }
  }
}
