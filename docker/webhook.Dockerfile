# syntax=docker/dockerfile:1
# The webhook process image. Build from the repository root:
#   docker build -f docker/webhook.Dockerfile -t <registry>/tidb-operator-java/webhook:<version> .
# (or: podman build / buildah bud with the same arguments). See docs/install.md.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# Build webhook and the modules it needs, then gather its runtime classpath in one folder.
RUN mvn -B -q -pl webhook -am install -Dmaven.test.skip=true \
 && mvn -B -q -pl webhook dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=target/lib \
 && cp webhook/target/webhook-*.jar webhook/target/lib/
# Bouncy Castle's jars are signed. A class from a signed jar is left out of the class-data sharing
# archive, and the JVM checks the jar's signature (an 800 KB signature file) at every start: about
# 0.45 s of CPU, a sixth of the start. Nothing registers Bouncy Castle
# as a JCE provider (only that needs the signature), so the signature files are removed; the
# classes are then archived.
RUN for jar in webhook/target/lib/bc*.jar; do \
      rm -rf /tmp/unsigned && mkdir /tmp/unsigned && (cd /tmp/unsigned && jar xf "/src/$jar") \
      && rm -f /tmp/unsigned/META-INF/*.SF /tmp/unsigned/META-INF/*.DSA /tmp/unsigned/META-INF/*.RSA /tmp/unsigned/META-INF/*.EC \
      && jar cfm "/src/$jar" /tmp/unsigned/META-INF/MANIFEST.MF -C /tmp/unsigned . || exit 1; \
    done && rm -rf /tmp/unsigned

FROM eclipse-temurin:17-jre
LABEL org.opencontainers.image.title="tidb-operator-java webhook" \
      org.opencontainers.image.description="TiDB Operator (Java): the webhook process"
COPY --from=build /src/webhook/target/lib/ /opt/tidb-operator/lib/
# A class-data sharing archive of the classes the start and request path loads, recorded by one
# training run (throwaway certificate, one /validate and one /mutate on 127.0.0.1): the webhook
# then starts from it. Same JVM, same classpath string as the ENTRYPOINT, as CDS requires.
RUN java -XX:ArchiveClassesAtExit=/opt/tidb-operator/webhook.jsa -XX:+UseSerialGC -XX:-UsePerfData \
      -cp "/opt/tidb-operator/lib/*" io.tidb.operator.webhook.WebhookMain train-class-data
# Run as the same non-root user the Helm chart asks for (runAsUser 65532); the root filesystem
# may be read-only, the chart mounts an emptyDir on /tmp.
USER 65532:65532
ENTRYPOINT ["java", "-XX:SharedArchiveFile=/opt/tidb-operator/webhook.jsa", "-XX:-UsePerfData", "-cp", "/opt/tidb-operator/lib/*", "io.tidb.operator.webhook.WebhookMain"]
