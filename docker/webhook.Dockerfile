# syntax=docker/dockerfile:1
# The webhook process image. Build from the repository root:
#   docker build -f docker/webhook.Dockerfile -t <registry>/tidb-operator-java/webhook:<version> .
# (or: podman build / buildah bud with the same arguments). See docs/install.md.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# Build webhook and the modules it needs, then gather its runtime classpath in one folder, Bouncy
# Castle's jars without their signature files (hack/image-lib.sh says why).
RUN mvn -B -q -pl webhook -am install -Dmaven.test.skip=true \
 && hack/image-lib.sh webhook /src/webhook/target/lib

FROM eclipse-temurin:17-jre
LABEL org.opencontainers.image.title="tidb-operator-java webhook" \
      org.opencontainers.image.description="TiDB Operator (Java): the webhook process"
COPY --from=build /src/webhook/target/lib/ /opt/tidb-operator/lib/
# A class-data sharing archive of the classes the start and request path loads, recorded by one
# training run (a throwaway certificate in --cert-dir, every rule set, one /validate and one /mutate
# on 127.0.0.1): the webhook then starts from it. A static archive (hack/class-data-archive.sh says
# why), same JVM and same class path string as the ENTRYPOINT, as CDS requires.
COPY --from=build /src/hack/class-data-archive.sh /opt/tidb-operator/class-data-archive.sh
RUN /opt/tidb-operator/class-data-archive.sh webhook /opt/tidb-operator/lib /opt/tidb-operator/webhook.jsa \
 && rm /opt/tidb-operator/class-data-archive.sh
# Run as the same non-root user the Helm chart asks for (runAsUser 65532); the root filesystem
# may be read-only, the chart mounts an emptyDir on /tmp.
USER 65532:65532
ENTRYPOINT ["java", "-XX:SharedArchiveFile=/opt/tidb-operator/webhook.jsa", "-XX:-UsePerfData", "-cp", "/opt/tidb-operator/lib/*", "io.tidb.operator.webhook.WebhookMain"]
