package io.tidb.operator.webhook;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The webhook's dependency rules, checked on the production classes of the webhook and of the
 * modules on its test classpath (common, certs, test-support).
 */
class ArchitectureTest {

  private static final String WEBHOOK = "io.tidb.operator.webhook..";

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tidb.operator..");
  }

  @Test
  void webhookDoesNotDependOnController() {
    noClasses()
        .that()
        .resideInAPackage(WEBHOOK)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.tidb.operator.controller..")
        .because(
            "the webhook is a separate process that must admit TidbClusters while the controller"
                + " is down or being upgraded; what both need lives in common")
        .check(classes);
  }

  @Test
  void webhookDoesNotDependOnOperatorSdk() {
    noClasses()
        .that()
        .resideInAPackage(WEBHOOK)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.javaoperatorsdk..")
        .because(
            "the webhook reconciles nothing; it is an HTTPS server (Javalin) over common's"
                + " validation and defaulting, and should not carry the operator framework")
        .check(classes);
  }

  @Test
  void webhookDoesNotDependOnTestInfrastructure() {
    noClasses()
        .that()
        .resideInAPackage(WEBHOOK)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.tidb.operator.pdsim..", "io.tidb.operator.testsupport..")
        .because(
            "pd-simulator and test-support are test infrastructure, on the test classpath only;"
                + " the shipped webhook must run without them")
        .check(classes);
  }

  /**
   * The same check as in the controller's ArchitectureTest, for the modules only the webhook has
   * on its classpath (certs, webhook).
   */
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
        .check(classes);
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
