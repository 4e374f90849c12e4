package io.tidb.operator.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API module (model, validation, defaulting, CRD tools) is the bottom layer: the controller,
 * the webhook and pd-client build on it, so it may depend on none of them, nor on the frameworks
 * only they use.
 */
class ArchitectureTest {

  private static final String API = "io.tidb.operator.api..";

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tidb.operator..");
  }

  @Test
  void apiDependsOnNoOtherOperatorModule() {
    noClasses()
        .that()
        .resideInAPackage(API)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.tidb.operator.controller..", "io.tidb.operator.webhook..", "io.tidb.operator.pd..")
        .because(
            "common is the bottom layer: the controller, the webhook and pd-client depend on it,"
                + " so the API model, validation and defaulting must not depend on them")
        .check(classes);
  }

  @Test
  void apiDependsOnNoOperatorOrHttpFramework() {
    noClasses()
        .that()
        .resideInAPackage(API)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.javaoperatorsdk..", "io.javalin..")
        .because(
            "the API module is plain model and rules over fabric8's model; the operator framework"
                + " (controller) and the HTTP server (webhook) belong to the processes that use it")
        .check(classes);
  }
}
