package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectCrdsTest {

  @Test
  void filesAreTheYamlFilesInNameOrder(@TempDir Path dir) throws Exception {
    Files.createFile(dir.resolve("b.yml"));
    Files.createFile(dir.resolve("a.yaml"));
    Files.createFile(dir.resolve("README.md"));

    assertEquals(List.of(dir.resolve("a.yaml"), dir.resolve("b.yml")), ProjectCrds.files(dir));
  }

  @Test
  void anEmptyOrMissingDirectoryIsAnError(@TempDir Path dir) {
    assertTrue(assertThrows(IllegalStateException.class, () -> ProjectCrds.files(dir))
        .getMessage().contains("no *.yaml CRD files"));
    assertThrows(IllegalStateException.class, () -> ProjectCrds.files(dir.resolve("absent")));
  }

  @Test
  void establishedNeedsTheEstablishedConditionTrue() {
    assertTrue(ProjectCrds.isEstablished(withCondition("Established", "True")));
    assertFalse(ProjectCrds.isEstablished(withCondition("Established", "False")));
    assertFalse(ProjectCrds.isEstablished(withCondition("NamesAccepted", "True")));
    assertFalse(ProjectCrds.isEstablished(new CustomResourceDefinition()));
    assertFalse(ProjectCrds.isEstablished(null));
  }

  private static CustomResourceDefinition withCondition(String type, String status) {
    return new CustomResourceDefinitionBuilder()
        .withNewStatus().addNewCondition().withType(type).withStatus(status).endCondition().endStatus()
        .build();
  }
}
