package io.tidb.operator.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets a Linux process listens on, from {@code /proc/<pid>/fd} and {@code /proc/net/tcp{,6}}:
 * lets tests prove that the control plane they started listens on loopback only.
 */
public final class ListeningSockets {

  private static final String LISTEN = "0A";

  private ListeningSockets() {
  }

  /** Addresses the process {@code pid} listens on (empty if it has exited). */
  public static List<InetSocketAddress> of(long pid) {
    Set<Long> inodes = socketInodes(pid);
    List<InetSocketAddress> result = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      for (String line : lines(Path.of(table))) {
        parse(line).filter(entry -> entry.listening() && inodes.contains(entry.inode()))
            .ifPresent(entry -> result.add(entry.address()));
      }
    }
    return result;
  }

  /** One row of /proc/net/tcp or tcp6. */
  record Entry(InetSocketAddress address, boolean listening, long inode) {
  }

  /** Parses a data row ({@code sl local_address rem_address st ... inode ...}); the header yields empty. */
  static Optional<Entry> parse(String line) {
    String[] fields = line.trim().split("\\s+");
    if (fields.length < 10 || !fields[0].endsWith(":")) {
      return Optional.empty();
    }
    String[] local = fields[1].split(":");
    InetAddress address = address(local[0]);
    int port = Integer.parseInt(local[1], 16);
    return Optional.of(new Entry(new InetSocketAddress(address, port), LISTEN.equals(fields[3]),
        Long.parseLong(fields[9])));
  }

  /** The kernel prints each 32-bit word of the address in host (little-endian) byte order. */
  static InetAddress address(String hex) {
    byte[] raw = HexFormat.of().parseHex(hex);
    byte[] bytes = new byte[raw.length];
    for (int word = 0; word < raw.length; word += 4) {
      for (int i = 0; i < 4; i++) {
        bytes[word + i] = raw[word + 3 - i];
      }
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not an address: " + hex, e);
    }
  }

  private static Set<Long> socketInodes(long pid) {
    Set<Long> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(Long.parseLong(target.substring(8, target.length() - 1)));
          }
        } catch (NoSuchFileException closedMeanwhile) {
          // the descriptor was closed while listing
        }
      }
    } catch (NoSuchFileException exited) {
      return Set.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list descriptors of pid " + pid, e);
    }
    return inodes;
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (NoSuchFileException absent) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
