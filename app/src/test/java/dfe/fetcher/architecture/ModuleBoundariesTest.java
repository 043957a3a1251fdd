package dfe.fetcher.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The invariants of the design's "Where things live", checked on the compiled main classes of each
 * module: core does no I/O, source modules depend on core and source-api only, and app names a
 * family's type in one place.
 */
class ModuleBoundariesTest {

  private static final Path ROOT = Path.of("..");

  /** The one class of app that may name a family's type. */
  private static final String REGISTRATION = "dfe.fetcher.config.SourceFamilies";

  private static final List<String> SOURCE_MODULES =
      List.of("source-file", "source-jdbc", "source-rest");

  private static JavaClasses mainClassesOf(String module) {
    Path classes = ROOT.resolve(module).resolve(Path.of("target", "classes"));
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPath(classes);
  }

  private static Set<String> classNamesOf(String module) {
    return mainClassesOf(module).stream().map(JavaClass::getName).collect(Collectors.toSet());
  }

  @Test
  void coreImportsNoNetworkFileDatabaseKafkaOrHttpType() {
    JavaClasses core = mainClassesOf("core");
    assertThat(core).as("core's compiled classes").isNotEmpty();
    noClasses()
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
        .check(core);
  }

  @Test
  void sourceModulesDependOnNoOtherSourceModuleAndNotOnApp() {
    Set<String> appClasses = classNamesOf("app");
    assertThat(appClasses).as("app's compiled classes").isNotEmpty();
    for (String module : SOURCE_MODULES) {
      if (!Files.isDirectory(ROOT.resolve(module).resolve(Path.of("target", "classes")))) {
        continue; // the module arrives with its issue
      }
      Set<String> forbidden = new java.util.HashSet<>(appClasses);
      for (String other : SOURCE_MODULES) {
        if (!other.equals(module)
            && Files.isDirectory(ROOT.resolve(other).resolve(Path.of("target", "classes")))) {
          forbidden.addAll(classNamesOf(other));
        }
      }
      noClasses()
          .should()
          .dependOnClassesThat(
              com.tngtech.archunit.base.DescribedPredicate.describe(
                  "belong to app or another source module",
                  (JavaClass target) -> forbidden.contains(target.getName())))
          .because(module + " receives a bound unit and yields rows; app wires it")
          .check(mainClassesOf(module));
    }
  }

  @Test
  void appNamesNoSourceFamilysTypeOutsideTheRegistration() {
    Set<String> familyClasses = new java.util.HashSet<>();
    for (String module : SOURCE_MODULES) {
      if (Files.isDirectory(ROOT.resolve(module).resolve(Path.of("target", "classes")))) {
        familyClasses.addAll(classNamesOf(module));
      }
    }
    assertThat(familyClasses).as("the source modules' compiled classes").isNotEmpty();
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(REGISTRATION)
        .should()
        .dependOnClassesThat(
            com.tngtech.archunit.base.DescribedPredicate.describe(
                "belong to a source family's module",
                (JavaClass target) -> familyClasses.contains(target.getName())))
        .because(
            "app wires families through "
                + REGISTRATION
                + " and the source-api contract; a family type named anywhere else means the"
                + " contract is missing a method")
        .check(mainClassesOf("app"));
  }
}
