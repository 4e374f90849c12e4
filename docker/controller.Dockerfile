# syntax=docker/dockerfile:1
# The controller process image. Build from the repository root:
#   docker build -f docker/controller.Dockerfile -t <registry>/tidb-operator-java/controller:<version> .
# (or: podman build / buildah bud with the same arguments). See docs/install.md.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# Build controller and the modules it needs, then gather its runtime classpath in one folder, Bouncy
# Castle's jars without their signature files, the backup-manager's own in a subfolder
# (hack/image-lib.sh says why).
RUN mvn -B -q -pl controller -am install -Dmaven.test.skip=true \
 && hack/image-lib.sh controller /src/controller/target/lib

FROM eclipse-temurin:17-jre
LABEL org.opencontainers.image.title="tidb-operator-java controller" \
      org.opencontainers.image.description="TiDB Operator (Java): the controller process"
COPY --from=build /src/controller/target/lib/ /opt/tidb-operator/lib/
# A class-data sharing archive of the classes the start and a reconcile load, recorded by one
# training run: the real start (flags, client with a pod's credentials, JOSDK, every controller's
# informers) against a stand-in API server on 127.0.0.1 (its certificates made by the JRE's
# keytool) that lists one sample cluster and its first PD member, whose first reconcile applies
# its discovery and PD objects and writes its status. The controller (and its discovery,
# initializer and backup-manager modes) then starts from it. A static archive
# (hack/class-data-archive.sh says why), same JVM and same class path string as the entry point
# starts with, as CDS requires.
COPY --from=build /src/hack/class-data-archive.sh /opt/tidb-operator/class-data-archive.sh
RUN /opt/tidb-operator/class-data-archive.sh controller /opt/tidb-operator/lib /opt/tidb-operator/controller.jsa \
 && rm /opt/tidb-operator/class-data-archive.sh
# Run as the same non-root user the Helm chart asks for (runAsUser 65532); the root filesystem
# may be read-only, the chart mounts an emptyDir on /tmp.
USER 65532:65532
# The entry point picks the class path by mode: the backup-manager's cloud storage SDKs are in
# lib/backup-manager/, on its class path only (controller-entrypoint.sh says why).
COPY docker/controller-entrypoint.sh /opt/tidb-operator/entrypoint.sh
ENTRYPOINT ["/opt/tidb-operator/entrypoint.sh"]
