# syntax=docker/dockerfile:1
# The controller process image. Build from the repository root:
#   docker build -f docker/controller.Dockerfile -t <registry>/tidb-operator-java/controller:<version> .
# (or: podman build / buildah bud with the same arguments). See docs/install.md.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# Build controller and the modules it needs, then gather its runtime classpath in one folder.
RUN mvn -B -q -pl controller -am install -Dmaven.test.skip=true \
 && mvn -B -q -pl controller dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=target/lib \
 && cp controller/target/controller-*.jar controller/target/lib/

FROM eclipse-temurin:17-jre
LABEL org.opencontainers.image.title="tidb-operator-java controller" \
      org.opencontainers.image.description="TiDB Operator (Java): the controller process"
COPY --from=build /src/controller/target/lib/ /opt/tidb-operator/lib/
# Run as the same non-root user the Helm chart asks for (runAsUser 65532); the root filesystem
# may be read-only, the chart mounts an emptyDir on /tmp.
USER 65532:65532
ENTRYPOINT ["java", "-XX:-UsePerfData", "-cp", "/opt/tidb-operator/lib/*", "io.tidb.operator.controller.ControllerMain"]
