package io.tidb.operator.pd.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.SecureRandom;
import java.util.Locale;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * How many bytes of TLS-record-sized (16 KiB) messages AES-128-GCM and ChaCha20-Poly1305 encrypt
 * and decrypt per CPU second in this JVM: the figures behind {@code CipherSuitePreference}. A
 * program, not a test. Run it once as the controller runs (C1 only) and once with C2:
 *
 * <pre>
 * java -XX:TieredStopAtLevel=1 -cp target/test-classes io.tidb.operator.pd.bench.CipherThroughputBenchmark
 * java -cp target/test-classes io.tidb.operator.pd.bench.CipherThroughputBenchmark
 * </pre>
 *
 * Each cipher runs for 4 s; a new cipher object for each message.
 */
public final class CipherThroughputBenchmark {

  private CipherThroughputBenchmark() {}

  public static void main(String[] args) throws Exception {
    byte[] message = new byte[16384];
    new SecureRandom().nextBytes(message);
    for (String algorithm : new String[] {"AES/GCM/NoPadding", "ChaCha20-Poly1305"}) {
      System.out.printf(Locale.ROOT, "%s: %.0f MB encrypted and decrypted per CPU second%n",
          algorithm, megabytesPerCpuSecond(algorithm, message));
    }
  }

  private static double megabytesPerCpuSecond(String algorithm, byte[] message) throws Exception {
    boolean aes = algorithm.startsWith("AES");
    SecretKey key = aes ? new SecretKeySpec(new byte[16], "AES") : new SecretKeySpec(new byte[32], "ChaCha20");
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    byte[] nonce = new byte[12];
    long bytes = 0;
    long counter = 0;
    long start = System.nanoTime();
    long cpuStart = threads.getCurrentThreadCpuTime();
    while (System.nanoTime() - start < 4_000_000_000L) {
      counter++;
      for (int i = 0; i < 8; i++) {
        nonce[i] = (byte) (counter >>> (8 * i));
      }
      byte[] sealed = run(algorithm, aes, Cipher.ENCRYPT_MODE, key, nonce, message);
      run(algorithm, aes, Cipher.DECRYPT_MODE, key, nonce, sealed);
      bytes += message.length;
    }
    double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9;
    return bytes / 1e6 / cpuSeconds;
  }

  private static byte[] run(String algorithm, boolean aes, int mode, SecretKey key, byte[] nonce, byte[] in)
      throws Exception {
    Cipher cipher = Cipher.getInstance(algorithm);
    if (aes) {
      cipher.init(mode, key, new GCMParameterSpec(128, nonce));
    } else {
      cipher.init(mode, key, new IvParameterSpec(nonce));
    }
    return cipher.doFinal(in);
  }
}
