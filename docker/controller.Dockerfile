# syntax=docker/dockerfile:1
# The controller process image. Build from the repository root:
#   docker build -f docker/controller.Dockerfile -t <registry>/tidb-operator-java/controller:<version> .
# (or: podman build / buildah bud with the same arguments). See docs/install.md.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# Build controller and the modules it needs, then gather its runtime classpath in one folder, Bouncy
# Castle's jars without their signature files (hack/image-lib.sh says why).
RUN mvn -B -q -pl controller -am install -Dmaven.test.skip=true \
 && hack/image-lib.sh controller /src/controller/target/lib

FROM eclipse-temurin:17-jre
LABEL org.opencontainers.image.title="tidb-operator-java controller" \
      org.opencontainers.image.description="TiDB Operator (Java): the controller process"
COPY --from=build /src/controller/target/lib/ /opt/tidb-operator/lib/
# A class-data sharing archive of the classes the start and a reconcile load, recorded by one
# training run: the real start (flags, client, JOSDK, every controller's informers) against a
# stand-in API server on 127.0.0.1 that lists one sample cluster, whose first reconcile applies
# its discovery and PD objects and writes its status. The controller (and its discovery,
# initializer and backup-manager modes) then starts from it. Same JVM and classpath string as the
# ENTRYPOINT, as CDS requires, and the chart's collector (-XX:+UseSerialGC in controller.jvmOptions).
# -Xmx256m: a heap of the chart's size, so compressed object pointers are on as in the pod (on a
# build machine with more than 128 GiB the default heap would turn them off, and the pod's JVM
# would then refuse the archive).
RUN java -XX:ArchiveClassesAtExit=/opt/tidb-operator/controller.jsa -XX:+UseSerialGC -Xmx256m -XX:-UsePerfData \
      -cp "/opt/tidb-operator/lib/*" io.tidb.operator.controller.ControllerMain train-class-data
# Run as the same non-root user the Helm chart asks for (runAsUser 65532); the root filesystem
# may be read-only, the chart mounts an emptyDir on /tmp.
USER 65532:65532
ENTRYPOINT ["java", "-XX:SharedArchiveFile=/opt/tidb-operator/controller.jsa", "-XX:-UsePerfData", "-cp", "/opt/tidb-operator/lib/*", "io.tidb.operator.controller.ControllerMain"]
