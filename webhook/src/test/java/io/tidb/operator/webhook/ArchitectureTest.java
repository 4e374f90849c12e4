package io.tidb.operator.webhook;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
}
