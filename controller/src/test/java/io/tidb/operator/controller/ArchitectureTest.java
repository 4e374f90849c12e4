package io.tidb.operator.controller;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The controller's package rules, checked on the production classes of the controller and of the
 * modules on its test classpath (common, pd-client, pd-simulator, test-support).
 *
 * <ul>
 *   <li>{@code runtime} is the reconcile runtime shared by every controller: it knows no custom
 *       resource and no component.
 *   <li>{@code tidbcluster} (root) wires the TidbCluster controller and lists its components;
 *       {@code tidbcluster.pipeline} is the contract between components; {@code
 *       tidbcluster.member} is what every StatefulSet member shares; {@code tidbcluster.tls} is
 *       how the operator reaches a TLS cluster (client certificate, host names), shared too.
 *   <li>Every other package under {@code tidbcluster} is one component (pd, tikv, tidb,
 *       discovery, and any added later). Components talk to each other only through the pipeline
 *       (Prerequisites, ClusterContext), never directly.
 * </ul>
 */
class ArchitectureTest {

  private static final String CONTROLLER = "io.tidb.operator.controller";
  private static final String RUNTIME = CONTROLLER + ".runtime..";
  private static final String TIDBCLUSTER = CONTROLLER + ".tidbcluster";
  private static final String PIPELINE = TIDBCLUSTER + ".pipeline..";
  private static final String MEMBER = TIDBCLUSTER + ".member..";
  /** Sub-packages of {@code tidbcluster} that are shared by components, not components. */
  private static final Set<String> SHARED_PACKAGES = Set.of("pipeline", "member", "tls");

  private static final String PDSIM = "io.tidb.operator.pdsim..";
  private static final String DMSIM = "io.tidb.operator.dmsim..";
  private static final String TESTSUPPORT = "io.tidb.operator.testsupport..";

  /** Name prefixes of TiDB components; {@code member} and {@code runtime} must not name any. */
  private static final List<String> COMPONENT_NAME_PREFIXES =
      List.of("Pd", "Tikv", "Tidb", "Tiflash", "Ticdc", "Tiproxy", "Pump", "Discovery");

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tidb.operator..");
  }

  // --- the image's class paths --------------------------------------------------------------

  /**
   * The cloud storage SDKs are on the backup-manager's class path only (hack/image-lib.sh puts the
   * jars only they need in lib/backup-manager/, docker/controller-entrypoint.sh adds that folder
   * for the backup-manager mode alone): code any other mode runs must not use them, or the
   * controller's pod would fail with NoClassDefFoundError where every test passes.
   */
  @Test
  void onlyTheBackupManagerUsesTheCloudStorageSdks() {
    noClasses()
        .that()
        .resideOutsideOfPackage(CONTROLLER + ".backup.manager..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("software.amazon.awssdk..", "com.google.cloud..", "com.google.auth..",
            "com.google.api..", "com.azure..", "reactor..", "io.netty..", "io.grpc..")
        .because(
            "the image keeps those libraries on the backup-manager mode's class path only"
                + " (docker/controller-entrypoint.sh)")
        .check(classes);
  }

  // --- runtime -----------------------------------------------------------------------------

  @Test
  void runtimeKnowsNoTidbcluster() {
    noClasses()
        .that()
        .resideInAPackage(RUNTIME)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(TIDBCLUSTER + "..")
        .because(
            "runtime is the reconcile runtime every controller shares; the TidbCluster controller"
                + " builds on it, not the other way round")
        .check(classes);
  }

  @Test
  void runtimeKnowsNoCustomResource() {
    noClasses()
        .that()
        .resideInAPackage(RUNTIME)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.tidb.operator.api.v1alpha1..")
        .because(
            "runtime knows no CRD: it works on any HasMetadata and may use only the kind-neutral"
                + " parts of the API module (io.tidb.operator.api.validation, ApiObjects)")
        .check(classes);
  }

  // --- components --------------------------------------------------------------------------

  @Test
  void componentsDoNotDependOnEachOther() {
    slices()
        .assignedFrom(componentSlices())
        .should()
        .notDependOnEachOther()
        .because(
            "components hand each other what they need through the pipeline (Prerequisite,"
                + " ClusterContext, ClusterAddresses) or share it in member; a direct reference"
                + " ties one component's release and tests to another's")
        .check(classes);
  }

  @Test
  void componentsDoNotDependOnTidbclusterRoot() {
    noClasses()
        .that(resideInAComponentPackage())
        .should()
        .dependOnClassesThat()
        .resideInAPackage(TIDBCLUSTER)
        .because(
            "the tidbcluster root package is the wiring (controller, work, ClusterComponents"
                + " registration list, ClusterApi implementation); components are registered"
                + " there and must not reach back into it")
        .check(classes);
  }

  // --- pipeline and member -----------------------------------------------------------------

  @Test
  void pipelineAndMemberDependOnNoComponent() {
    noClasses()
        .that()
        .resideInAnyPackage(PIPELINE, MEMBER)
        .should()
        .dependOnClassesThat(resideInAComponentPackage())
        .because(
            "pipeline and member are shared by all components; a reference to one component"
                + " from there would make every component depend on it")
        .check(classes);
  }

  @Test
  void pipelineAndMemberDoNotDependOnTidbclusterRoot() {
    noClasses()
        .that()
        .resideInAnyPackage(PIPELINE, MEMBER)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(TIDBCLUSTER)
        .because(
            "the tidbcluster root package is the wiring on top of pipeline and member, not"
                + " something they build on")
        .check(classes);
  }

  @Test
  void pipelineDoesNotDependOnMember() {
    noClasses()
        .that()
        .resideInAPackage(PIPELINE)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(MEMBER)
        .because(
            "pipeline is the contract for every component, including ones that run no"
                + " StatefulSet; member (what StatefulSet members share) builds on it")
        .check(classes);
  }

  // --- test infrastructure -----------------------------------------------------------------

  @Test
  void productionCodeDoesNotDependOnTestInfrastructure() {
    noClasses()
        .that()
        .resideOutsideOfPackages(PDSIM, DMSIM, TESTSUPPORT)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(PDSIM, DMSIM, TESTSUPPORT)
        .because(
            "pd-simulator (PD and DM simulators) and test-support are test infrastructure, on the test classpath only;"
                + " the shipped operator must run without them")
        .check(classes);
  }

  // --- cycles ------------------------------------------------------------------------------

  @Test
  void controllerPackagesAreFreeOfCycles() {
    slices()
        .matching(CONTROLLER + ".(*)..")
        .namingSlices("controller.$1")
        .should()
        .beFreeOfCycles()
        .because(
            "the controller's packages build on each other in layers (config, runtime, http,"
                + " tidbcluster)")
        .check(classes);
  }

  @Test
  void tidbclusterPackagesAreFreeOfCycles() {
    slices()
        .matching(TIDBCLUSTER + ".(*)..")
        .namingSlices("tidbcluster.$1")
        .should()
        .beFreeOfCycles()
        .because("components build on member, member on pipeline; nothing points back")
        .check(classes);
  }

  // --- names -------------------------------------------------------------------------------

  @Test
  void memberAndRuntimeNameNoComponent() {
    var rule = noClasses().that().resideInAnyPackage(MEMBER, RUNTIME).should();
    var named = rule.haveSimpleNameStartingWith(COMPONENT_NAME_PREFIXES.get(0));
    for (String prefix : COMPONENT_NAME_PREFIXES.subList(1, COMPONENT_NAME_PREFIXES.size())) {
      named = named.orShould().haveSimpleNameStartingWith(prefix);
    }
    named
        .because(
            "member holds what every StatefulSet member shares and runtime what every controller"
                + " shares; a class named after a component belongs in that component's package")
        .check(classes);
  }

  // --- helpers -----------------------------------------------------------------------------

  /**
   * The component a package belongs to: the first segment under {@code tidbcluster}, unless it
   * is one of the {@link #SHARED_PACKAGES}. Empty for every other package.
   */
  private static Optional<String> componentOf(String packageName) {
    String prefix = TIDBCLUSTER + ".";
    if (!packageName.startsWith(prefix)) {
      return Optional.empty();
    }
    String first = packageName.substring(prefix.length()).split("\\.", 2)[0];
    return SHARED_PACKAGES.contains(first) ? Optional.empty() : Optional.of(first);
  }

  private static String shared() {
    return String.join(" and ", new TreeSet<>(SHARED_PACKAGES));
  }

  private static DescribedPredicate<JavaClass> resideInAComponentPackage() {
    return DescribedPredicate.describe(
        "reside in a component package (" + TIDBCLUSTER + ".* except " + shared() + ")",
        c -> componentOf(c.getPackageName()).isPresent());
  }

  /** One slice per component package; pipeline, member and everything else are in none. */
  private static SliceAssignment componentSlices() {
    return new SliceAssignment() {
      @Override
      public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
        return componentOf(javaClass.getPackageName())
            .map(component -> SliceIdentifier.of("component " + component))
            .orElse(SliceIdentifier.ignore());
      }

      @Override
      public String getDescription() {
        return "component packages " + TIDBCLUSTER + ".* (except " + shared() + ")";
      }
    };
  }
}
