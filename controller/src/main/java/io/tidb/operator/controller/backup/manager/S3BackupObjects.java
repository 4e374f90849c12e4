package io.tidb.operator.controller.backup.manager;

import java.net.URI;
import java.util.List;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A backup's objects in S3 or an S3-compatible store, through the AWS SDK for Java v2 (the JDK's
 * HTTP client); credentials from the SDK's default chain ({@code AWS_ACCESS_KEY_ID} and {@code
 * AWS_SECRET_ACCESS_KEY} from the Job's Secret, or the pod's IAM role).
 */
final class S3BackupObjects implements BackupObjectStore {

  private final S3Client s3;
  private final StorageLocation at;

  S3BackupObjects(StorageLocation at, String endpoint, String region, Boolean forcePathStyle) {
    this.at = at;
    S3ClientBuilder builder = S3Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .region(Region.of(region));
    if (endpoint != null) {
      builder.endpointOverride(URI.create(endpoint));
    }
    builder.forcePathStyle(forcePathStyle == null ? endpoint != null : forcePathStyle);
    this.s3 = builder.build();
  }

  @Override
  public List<String> page(int max) {
    return s3.listObjectsV2(ListObjectsV2Request.builder()
            .bucket(at.bucket()).prefix(at.prefix()).maxKeys(max).build())
        .contents().stream().map(S3Object::key).toList();
  }

  @Override
  public void deleteBatch(List<String> keys) {
    List<ObjectIdentifier> ids = keys.stream().map(k -> ObjectIdentifier.builder().key(k).build()).toList();
    DeleteObjectsResponse resp;
    try {
      resp = s3.deleteObjects(b -> b.bucket(at.bucket()).delete(Delete.builder().objects(ids).quiet(true).build()));
    } catch (S3Exception e) {
      if (e.statusCode() == 501) {
        throw new BatchUnsupportedException(e.getMessage());
      }
      throw e;
    }
    if (resp.hasErrors() && !resp.errors().isEmpty()) {
      throw SdkException.create(resp.errors().size() + " objects not deleted, first: "
          + resp.errors().get(0).key() + ": " + resp.errors().get(0).code(), null);
    }
  }

  @Override
  public void delete(String key) {
    s3.deleteObject(b -> b.bucket(at.bucket()).key(key));
  }

  @Override
  public void close() {
    s3.close();
  }
}
