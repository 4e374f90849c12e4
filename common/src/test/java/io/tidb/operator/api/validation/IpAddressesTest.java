package io.tidb.operator.api.validation;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IpAddressesTest {

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.0/8", "0.0.0.0/0", "192.168.1.1/32", "fd00::/8", "::/0", "::1/128",
      "2001:db8::1/64", "1:2:3:4:5:6:7:8/128", "::ffff:10.0.0.1/128"})
  void acceptsCidrs(String cidr) {
    assertTrue(IpAddresses.isCidr(cidr));
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.0", "10.0.0.0/33", "10.0.0/8", "256.0.0.0/8", "010.0.0.0/8", "10.0.0.0/08",
      "fd00::/129", "1:2:3:4:5:6:7:8:9/64", "1::2::3/64", "gggg::/16", "example.com/8", "10.0.0.0/8/8",
      "10.0.0.0/", "/8", "1:2:3:4:5:6:7/64", "fe80::1%eth0/64", ":1/64"})
  void rejectsEverythingElse(String cidr) {
    assertFalse(IpAddresses.isCidr(cidr));
  }
}
