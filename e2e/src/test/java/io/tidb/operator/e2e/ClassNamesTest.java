package io.tidb.operator.e2e;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * No two top-level production classes of the whole project share a simple name. It lives here
 * because this module is the only one with every other module on its classpath (common, certs,
 * pd-client, pd-simulator, test-support, webhook, controller).
 */
class ClassNamesTest {

  @Test
  void topLevelClassNamesAreUnique() {
    classes()
        .that()
        .areTopLevelClasses()
        .and()
        .doNotHaveSimpleName("package-info")
        .should(haveASimpleNameNoOtherTopLevelClassHas())
        .because(
            "two main types of the same simple name are easy to import by mistake and make stack"
                + " traces and logs ambiguous (nested types are exempt)")
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tidb.operator.."));
  }

  /** Fails every top-level class whose simple name another checked top-level class has too. */
  static ArchCondition<JavaClass> haveASimpleNameNoOtherTopLevelClassHas() {
    return new ArchCondition<>("have a simple name no other top-level class has") {
      private Map<String, List<String>> namesakes = Map.of();

      @Override
      public void init(Collection<JavaClass> all) {
        namesakes =
            all.stream()
                .collect(
                    Collectors.groupingBy(
                        JavaClass::getSimpleName,
                        TreeMap::new,
                        Collectors.mapping(JavaClass::getName, Collectors.toList())));
      }

      @Override
      public void check(JavaClass item, ConditionEvents events) {
        List<String> same = namesakes.getOrDefault(item.getSimpleName(), List.of());
        boolean unique = same.size() <= 1;
        String others =
            same.stream()
                .filter(n -> !n.equals(item.getName()))
                .sorted()
                .collect(Collectors.joining(", "));
        events.add(
            new SimpleConditionEvent(
                item,
                unique,
                unique
                    ? item.getName() + " has a unique simple name"
                    : item.getName() + " shares its simple name with " + others));
      }
    };
  }
}
