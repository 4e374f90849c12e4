package io.tidb.operator.controller.backup.manager;

import java.util.List;
import java.util.Map;

/**
 * Which credential the clean-up uses for Azure Blob Storage, in upstream's order (its
 * backup-manager's, and BR's): a SAS token ({@code spec.azblob.sasToken}, given as {@code
 * --azblob.sas-token}), else Azure AD when {@code AZURE_CLIENT_ID}, {@code AZURE_TENANT_ID} and
 * {@code AZURE_CLIENT_SECRET} are all set (a service principal's client secret), else the shared
 * key {@code AZURE_STORAGE_KEY}. The account ({@code --azblob.account-name}, else {@code
 * AZURE_STORAGE_ACCOUNT}) is needed with each. Messages name what is missing, never a value. Pure.
 */
record AzureCredentials(Kind kind, String account, String sasToken, String clientId, String tenantId,
    String clientSecret, String sharedKey) {

  enum Kind {
    SAS_TOKEN,
    AZURE_AD,
    SHARED_KEY
  }

  static final List<String> AZURE_AD = List.of("AZURE_CLIENT_ID", "AZURE_TENANT_ID", "AZURE_CLIENT_SECRET");

  /**
   * @param account {@code --azblob.account-name}, or null
   * @param sasToken {@code --azblob.sas-token}, or null
   * @param env the process environment
   * @throws IllegalArgumentException naming what is missing
   */
  static AzureCredentials choose(String account, String sasToken, Map<String, String> env) {
    String acct = set(account) ? account : env.get("AZURE_STORAGE_ACCOUNT");
    if (!set(acct)) {
      throw new IllegalArgumentException("no Azure storage account: set spec.azblob.storageAccount or"
          + " AZURE_STORAGE_ACCOUNT in the Secret spec.azblob.secretName");
    }
    if (set(sasToken)) {
      return new AzureCredentials(Kind.SAS_TOKEN, acct, sasToken, null, null, null, null);
    }
    if (AZURE_AD.stream().allMatch(k -> set(env.get(k)))) {
      return new AzureCredentials(Kind.AZURE_AD, acct, null, env.get("AZURE_CLIENT_ID"), env.get("AZURE_TENANT_ID"),
          env.get("AZURE_CLIENT_SECRET"), null);
    }
    if (set(env.get("AZURE_STORAGE_KEY"))) {
      return new AzureCredentials(Kind.SHARED_KEY, acct, null, null, null, null, env.get("AZURE_STORAGE_KEY"));
    }
    List<String> partial = AZURE_AD.stream().filter(k -> set(env.get(k))).toList();
    throw new IllegalArgumentException("no Azure credentials: no spec.azblob.sasToken, no AZURE_STORAGE_KEY, and "
        + (partial.isEmpty() ? "no Azure AD keys" : "of the Azure AD keys only " + String.join(", ", partial))
        + " (" + String.join(", ", AZURE_AD) + " are needed together) in the Secret spec.azblob.secretName");
  }

  /** Azure's own Azure AD authority hosts (public and sovereign clouds), which serve instance discovery. */
  static final List<String> AZURE_AUTHORITY_HOSTS = List.of("login.microsoftonline.com", "login.chinacloudapi.cn",
      "login.microsoftonline.de", "login.microsoftonline.us");

  /**
   * Whether the Azure AD client asks Azure's instance discovery about {@code authorityHost}
   * ({@code AZURE_AUTHORITY_HOST}): for Azure's own hosts (and when none is given) yes; another
   * authority (Azure Stack, AD FS, a private cloud) is used as given, since discovery is served by
   * Azure's public cloud only and would not know it.
   */
  static boolean discoversInstance(String authorityHost) {
    if (!set(authorityHost)) {
      return true;
    }
    String host = java.net.URI.create(authorityHost).getHost();
    return host != null && AZURE_AUTHORITY_HOSTS.contains(host.toLowerCase(java.util.Locale.ROOT));
  }

  private static boolean set(String s) {
    return s != null && !s.isEmpty();
  }

  /** Never the secrets: a record's default toString would print them. */
  @Override
  public String toString() {
    return "AzureCredentials[" + kind + ", account " + account + "]";
  }
}
