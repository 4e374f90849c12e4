package io.tidb.operator.pd;

import java.net.URI;
import java.time.Duration;

/**
 * What the operator asks one TiFlash server on its proxy status port (20292), as upstream's
 * TiFlash client does: {@code GET /tiflash/store-status}, whose plain-text answer is the store's
 * status ({@code Idle}, {@code Ready}, {@code Running}, {@code Stopping}, {@code Terminated}).
 * Throws {@link PdClientException} when the server cannot be reached or answers anything but 200.
 */
public final class TiflashClient {

  static final String STORE_STATUS = "/tiflash/store-status";

  /** The status of a store that serves. */
  public static final String RUNNING = "Running";

  private final PdHttp http;

  public TiflashClient(ComponentHttp httpClient, Duration requestTimeout) {
    this.http = new PdHttp(httpClient, requestTimeout);
  }

  /** {@code GET /tiflash/store-status}: the status, without surrounding whitespace. */
  public String storeStatus(URI base) {
    PdHttp.Response r = http.send(base, "GET", STORE_STATUS, null);
    if (r.status() != 200) {
      throw r.unexpected();
    }
    return r.body() == null ? "" : r.body().strip();
  }
}
