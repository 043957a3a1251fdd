package dfe.fetcher.app.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries of {@code docs/architecture.md}, checked on the compiled main classes of
 * every module this one depends on. Each module's packages start with a prefix that names it, so a
 * rule about a package root is a rule about a module; every root must hold classes, so a renamed
 * module fails here instead of switching its rules off.
 */
class ModuleBoundariesTest {

  private static final String CORE = "dfe.fetcher.core..";
  private static final String SOURCE_API = "dfe.fetcher.source..";
  private static final String FILE = "dfe.fetcher.file..";
  private static final String JDBC = "dfe.fetcher.jdbc..";
  private static final String REST = "dfe.fetcher.rest..";
  private static final String RUNTIME = "dfe.fetcher.runtime..";
  private static final String SNAPSHOTS = "dfe.fetcher.snapshots..";
  private static final String APP = "dfe.fetcher.app..";

  private static final List<String> FAMILIES = List.of(FILE, JDBC, REST);

  /** The one class of the runtime that may name a family's type. */
  private static final String REGISTRATION = "dfe.fetcher.runtime.config.SourceFamilies";

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // A module's test fixtures (the runtime's test jar) are not its main classes.
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dfe.fetcher");
  }

  @Test
  void everyModulesPackageRootHoldsClasses() {
    for (String root : List.of(CORE, SOURCE_API, FILE, JDBC, REST, RUNTIME, SNAPSHOTS, APP)) {
      String prefix = root.substring(0, root.length() - 2);
      assertThat(classes.stream().filter(type -> type.getPackageName().startsWith(prefix)))
          .as("main classes under " + prefix)
          .isNotEmpty();
    }
  }

  @Test
  void coreImportsNoNetworkFileDatabaseKafkaOrHttpType() {
    noClasses()
        .that()
        .resideInAPackage(CORE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "java.net..",
            "java.nio.file..",
            "java.sql..",
            "javax.sql..",
            "org.apache.kafka..",
            "okhttp3..",
            "org.apache.hc..",
            "org.apache.http..",
            "org.eclipse.jetty..",
            "io.netty..")
        .because("core is I/O-free: time comes from a Clock, ids from a generator")
        .check(classes);
  }

  @Test
  void coreAndSourceApiDependOnNoModuleAboveThem() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE, SOURCE_API)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(FILE, JDBC, REST, RUNTIME, SNAPSHOTS, APP)
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage(CORE)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(SOURCE_API)
        .check(classes);
  }

  @Test
  void aSourceFamilyDependsOnNoOtherFamilyAndOnNothingThatWiresIt() {
    for (String family : FAMILIES) {
      List<String> forbidden = new ArrayList<>(List.of(RUNTIME, SNAPSHOTS, APP));
      FAMILIES.stream().filter(other -> !other.equals(family)).forEach(forbidden::add);
      noClasses()
          .that()
          .resideInAPackage(family)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(forbidden.toArray(String[]::new))
          .because("a family receives a bound unit and yields rows; the runtime wires it")
          .check(classes);
    }
  }

  @Test
  void theRuntimeNamesNoFamilysTypeOutsideTheRegistration() {
    noClasses()
        .that()
        .resideInAPackage(RUNTIME)
        .and()
        .doNotHaveFullyQualifiedName(REGISTRATION)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(FAMILIES.toArray(String[]::new))
        .because(
            "the runtime wires families through "
                + REGISTRATION
                + " and the source-api contract; a family type named anywhere else means the"
                + " contract is missing a method")
        .check(classes);
  }

  @Test
  void theRuntimeKnowsNeitherTheCommandNorTheConsumerSide() {
    noClasses()
        .that()
        .resideInAPackage(RUNTIME)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(APP, SNAPSHOTS, "picocli..", "io.prometheus.metrics.exporter..")
        .because("the Kafka Connect plugin ships the runtime without the standalone command")
        .check(classes);
  }

  @Test
  void theTickCountsThroughItsMetricsInterfaceNotThePrometheusRegistry() {
    noClasses()
        .that()
        .resideInAPackage("dfe.fetcher.runtime.tick..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.prometheus..", "dfe.fetcher.runtime.metrics..")
        .check(classes);
  }

  @Test
  void theConsumerSideUsesNoClassOfTheService() {
    noClasses()
        .that()
        .resideInAPackage(SNAPSHOTS)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(SOURCE_API, FILE, JDBC, REST, RUNTIME, APP)
        .because("snapshots verify, rows, apply and diff read what landed, not how it was fetched")
        .check(classes);
  }

  @Test
  void theCommandNamesNoFamilysType() {
    noClasses()
        .that()
        .resideInAPackage(APP)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(FAMILIES.toArray(String[]::new))
        .check(classes);
  }
}
