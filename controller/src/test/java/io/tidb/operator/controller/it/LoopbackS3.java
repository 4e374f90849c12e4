package io.tidb.operator.controller.it;

import java.net.URI;
import java.util.List;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A real S3-compatible server on 127.0.0.1: S3Proxy (from Maven Central) over jclouds' in-memory
 * store, with AWS signature checking (v2 or v4) for one access key. One per test class.
 */
final class LoopbackS3 implements AutoCloseable {

  static final String ACCESS_KEY = "it-access-key";
  static final String SECRET_KEY = "it-secret-key-do-not-log";

  private final S3Proxy proxy;
  private final BlobStoreContext context;
  final String endpoint;

  LoopbackS3() throws Exception {
    Properties props = new Properties();
    context = ContextBuilder.newBuilder("transient").credentials("identity", "credential").overrides(props)
        .build(BlobStoreContext.class);
    proxy = S3Proxy.builder()
        .blobStore(context.getBlobStore())
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
        .build();
    proxy.start();
    long deadline = System.currentTimeMillis() + 30_000;
    while (!"STARTED".equals(proxy.getState())) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
      }
      Thread.sleep(10);
    }
    endpoint = "http://127.0.0.1:" + proxy.getPort();
  }

  /** A client with the server's credentials. */
  S3Client client() {
    return S3Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
          .requestChecksumCalculation(software.amazon.awssdk.core.checksums.RequestChecksumCalculation.WHEN_REQUIRED)
          .responseChecksumValidation(software.amazon.awssdk.core.checksums.ResponseChecksumValidation.WHEN_REQUIRED)
        .region(Region.US_EAST_1)
        .endpointOverride(URI.create(endpoint))
        .forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .build();
  }

  void createBucket(String bucket) {
    try (S3Client s3 = client()) {
      s3.createBucket(b -> b.bucket(bucket));
    }
  }

  /** Every key in the bucket, sorted. */
  List<String> keys(String bucket) {
    try (S3Client s3 = client()) {
      return s3.listObjectsV2Paginator(b -> b.bucket(bucket)).contents().stream().map(S3Object::key).sorted().toList();
    }
  }

  @Override
  public void close() throws Exception {
    proxy.stop();
    context.close();
  }
}
