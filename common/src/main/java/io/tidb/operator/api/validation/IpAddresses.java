package io.tidb.operator.api.validation;

/**
 * Syntax checks for IP addresses and CIDRs, written out so that no host name lookup can happen
 * (unlike {@code InetAddress.getByName}).
 */
public final class IpAddresses {

  private IpAddresses() {}

  /** Whether {@code text} is {@code <IPv4>/<0..32>} or {@code <IPv6>/<0..128>}. */
  public static boolean isCidr(String text) {
    int slash = text.indexOf('/');
    if (slash < 0 || slash != text.lastIndexOf('/')) {
      return false;
    }
    String address = text.substring(0, slash);
    String prefix = text.substring(slash + 1);
    if (prefix.isEmpty() || prefix.length() > 3 || !prefix.chars().allMatch(Character::isDigit)
        || (prefix.length() > 1 && prefix.charAt(0) == '0')) {
      return false;
    }
    int bits = Integer.parseInt(prefix);
    if (isIpv4(address)) {
      return bits <= 32;
    }
    return isIpv6(address) && bits <= 128;
  }

  public static boolean isIpv4(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String part : parts) {
      if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)
          || (part.length() > 1 && part.charAt(0) == '0') || Integer.parseInt(part) > 255) {
        return false;
      }
    }
    return true;
  }

  public static boolean isIpv6(String text) {
    if (text.isEmpty() || text.indexOf('%') >= 0) {
      return false;
    }
    int doubleColon = text.indexOf("::");
    if (doubleColon >= 0 && text.indexOf("::", doubleColon + 1) >= 0) {
      return false;
    }
    String head = doubleColon >= 0 ? text.substring(0, doubleColon) : text;
    String tail = doubleColon >= 0 ? text.substring(doubleColon + 2) : "";
    int groups = 0;
    String[][] sides = {head.isEmpty() ? new String[0] : head.split(":", -1),
        tail.isEmpty() ? new String[0] : tail.split(":", -1)};
    for (int side = 0; side < 2; side++) {
      String[] parts = sides[side];
      for (int i = 0; i < parts.length; i++) {
        String part = parts[i];
        boolean last = (side == 1 || doubleColon < 0) && i == parts.length - 1;
        if (last && part.indexOf('.') >= 0) {
          if (!isIpv4(part)) {
            return false;
          }
          groups += 2;
        } else if (part.isEmpty() || part.length() > 4 || !isHex(part)) {
          return false;
        } else {
          groups++;
        }
      }
    }
    return doubleColon >= 0 ? groups < 8 : groups == 8;
  }

  private static boolean isHex(String s) {
    return s.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 128);
  }
}
