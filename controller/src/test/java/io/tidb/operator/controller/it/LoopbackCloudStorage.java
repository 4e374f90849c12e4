package io.tidb.operator.controller.it;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import com.azure.core.util.BinaryData;
import io.tidb.operator.testsupport.KubernetesBinaries;
import io.tidb.operator.testsupport.LoopbackPorts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Real storage emulators on 127.0.0.1, built by {@code hack/build-binaries.sh}: Google Cloud
 * Storage's {@code fake-gcs-server} (Go) and Azure Blob Storage's {@code azurite} (Node.js), each
 * its own process with in-memory storage, stopped on {@link #close}. The tests put and list objects
 * through the same SDKs the backup-manager deletes them with.
 */
final class LoopbackCloudStorage implements AutoCloseable {

  /** Azurite's fixed development account and key (public, documented by Microsoft). */
  static final String AZURE_ACCOUNT = "devstoreaccount1";
  static final String AZURE_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private final List<Process> processes = new ArrayList<>();
  private final Path logs;
  /** {@code http://127.0.0.1:<port>}: what {@code STORAGE_EMULATOR_HOST} is set to. */
  final String gcsEndpoint;
  /** {@code http://127.0.0.1:<port>/devstoreaccount1}: Azurite's blob endpoint for the account. */
  final String azureEndpoint;

  LoopbackCloudStorage() throws IOException, InterruptedException {
    KubernetesBinaries bins = KubernetesBinaries.fromEnvironment().requirePresent("fake-gcs-server", "azurite-blob");
    logs = Files.createTempDirectory("cloud-storage-");
    int gcsPort = LoopbackPorts.free();
    start(logs.resolve("fake-gcs-server.log"), bins.binary("fake-gcs-server").toString(),
        "-scheme", "http", "-host", "127.0.0.1", "-port", Integer.toString(gcsPort),
        "-backend", "memory", "-public-host", "127.0.0.1:" + gcsPort, "-log-level", "warn");
    int azurePort = LoopbackPorts.free();
    start(logs.resolve("azurite.log"), bins.binary("azurite-blob").toString(),
        "--blobHost", "127.0.0.1", "--blobPort", Integer.toString(azurePort),
        "--inMemoryPersistence", "--skipApiVersionCheck", "--loose", "--silent");
    awaitPort(gcsPort, "fake-gcs-server");
    awaitPort(azurePort, "azurite");
    gcsEndpoint = "http://127.0.0.1:" + gcsPort;
    azureEndpoint = "http://127.0.0.1:" + azurePort + "/" + AZURE_ACCOUNT;
  }

  private void start(Path log, String... command) throws IOException {
    processes.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start());
  }

  private void awaitPort(int port, String what) throws InterruptedException, IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException e) {
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException(what + " did not listen on 127.0.0.1:" + port + " in 60 s; its log: "
        + Files.readString(logs.resolve(what.equals("azurite") ? "azurite.log" : "fake-gcs-server.log")));
  }

  Storage gcs() {
    return StorageOptions.http().setHost(gcsEndpoint).setProjectId("it")
        .setCredentials(NoCredentials.getInstance()).build().getService();
  }

  BlobContainerClient azure(String container) {
    return new BlobServiceClientBuilder().endpoint(azureEndpoint)
        .credential(new StorageSharedKeyCredential(AZURE_ACCOUNT, AZURE_KEY))
        .buildClient().getBlobContainerClient(container);
  }

  void gcsPut(String bucket, List<String> keys) {
    Storage s = gcs();
    if (s.get(bucket) == null) {
      s.create(BucketInfo.of(bucket));
    }
    for (String k : keys) {
      s.create(BlobInfo.newBuilder(BlobId.of(bucket, k)).build(), ("data of " + k).getBytes(StandardCharsets.UTF_8));
    }
  }

  TreeSet<String> gcsKeys(String bucket) {
    TreeSet<String> out = new TreeSet<>();
    for (Blob b : gcs().list(bucket).iterateAll()) {
      out.add(b.getName());
    }
    return out;
  }

  /**
   * An account SAS signed with the account's key, for the blob service, containers and objects,
   * valid for an hour, with {@code permissions} (e.g. {@code "rl"}, {@code "rld"}).
   */
  String azureSas(String permissions) {
    return new BlobServiceClientBuilder().endpoint(azureEndpoint)
        .credential(new StorageSharedKeyCredential(AZURE_ACCOUNT, AZURE_KEY)).buildClient()
        .generateAccountSas(new com.azure.storage.common.sas.AccountSasSignatureValues(
            java.time.OffsetDateTime.now().plusHours(1),
            com.azure.storage.common.sas.AccountSasPermission.parse(permissions),
            com.azure.storage.common.sas.AccountSasService.parse("b"),
            com.azure.storage.common.sas.AccountSasResourceType.parse("sco")));
  }

  void azurePut(String container, List<String> keys) {
    BlobContainerClient c = azure(container);
    c.createIfNotExists();
    for (String k : keys) {
      c.getBlobClient(k).upload(BinaryData.fromString("data of " + k), true);
    }
  }

  TreeSet<String> azureKeys(String container) {
    TreeSet<String> out = new TreeSet<>();
    for (BlobItem b : azure(container).listBlobs()) {
      out.add(b.getName());
    }
    return out;
  }

  @Override
  public void close() {
    processes.forEach(Process::destroy);
    for (Process p : processes) {
      try {
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
  }
}
