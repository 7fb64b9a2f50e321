package org.coalition.zookeeper.policy;

import java.util.Locale;
import java.util.regex.Pattern;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

/**
 * Who a federation certificate names: a member site, or the federation's operator. The subject
 * is {@code CN=NAME,OU=FEDERATION,O=Coalition}; any other subject (a ZooKeeper server's, a stranger's)
 * is no identity. As text it is {@code FEDERATION/NAME}, the form ZooKeeper's ACL entries carry.
 *
 * @param federation the federation the certificate was issued for
 * @param name the site's name, or {@value #OPERATOR}
 */
public record Identity(String federation, String name) {
  /** The name of a federation's operator; no site may take it. */
  public static final String OPERATOR = "operator";
  /** The organisation every federation identity names (server certificates name another). */
  public static final String ORGANIZATION = "Coalition";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  public Identity {
    requireName("federation", federation);
    requireName("name", name);
  }

  /** The operator of {@code federation}. */
  public static Identity operator(String federation) {
    return new Identity(federation, OPERATOR);
  }

  public boolean isOperator() {
    return name.equals(OPERATOR);
  }

  /** The certificate subject that names this identity. */
  public X500Principal subject() {
    return new X500Principal("CN=" + name + ",OU=" + federation + ",O=" + ORGANIZATION);
  }

  /**
   * The identity a certificate subject names.
   *
   * @throws IllegalArgumentException if the subject is not exactly {@code CN=NAME,OU=FEDERATION,O=Coalition}
   */
  public static Identity of(X500Principal subject) {
    String cn = null;
    String ou = null;
    String o = null;
    try {
      for (Rdn rdn : new LdapName(subject.getName(X500Principal.RFC2253)).getRdns()) {
        if (rdn.size() != 1) {
          throw notAnIdentity(subject, "a multi-valued name part");
        }
        String value = String.valueOf(rdn.getValue());
        switch (rdn.getType().toUpperCase(Locale.ROOT)) {
          case "CN" -> cn = once(subject, "CN", cn, value);
          case "OU" -> ou = once(subject, "OU", ou, value);
          case "O" -> o = once(subject, "O", o, value);
          default -> throw notAnIdentity(subject, "the name part " + rdn.getType());
        }
      }
    } catch (InvalidNameException e) {
      throw notAnIdentity(subject, e.getMessage());
    }
    if (cn == null || ou == null || !ORGANIZATION.equals(o)) {
      throw notAnIdentity(subject, "it needs CN (the site), OU (the federation) and O=" + ORGANIZATION);
    }
    return new Identity(ou, cn);
  }

  /** The identity written as {@code FEDERATION/NAME}. */
  public static Identity parse(String text) {
    int slash = text.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("'" + text + "' is not an identity (FEDERATION/NAME)");
    }
    return new Identity(text.substring(0, slash), text.substring(slash + 1));
  }

  /** Whether {@code text} is an identity written as {@code FEDERATION/NAME}. */
  public static boolean isIdentity(String text) {
    int slash = text.indexOf('/');
    return slash > 0 && isName(text.substring(0, slash)) && isName(text.substring(slash + 1));
  }

  /** Whether {@code name} may name a site or a federation: letters, digits, '.', '_', '-'; 1-128; a letter or digit first. */
  public static boolean isName(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  @Override
  public String toString() {
    return federation + "/" + name;
  }

  private static void requireName(String what, String value) {
    if (!isName(value)) {
      throw new IllegalArgumentException("the " + what + " '" + value + "' of a federation identity is not a name "
          + "(letters, digits, '.', '_', '-'; 1-128; a letter or digit first)");
    }
  }

  private static String once(X500Principal subject, String type, String before, String value) {
    if (before != null) {
      throw notAnIdentity(subject, "two " + type + " parts");
    }
    return value;
  }

  private static IllegalArgumentException notAnIdentity(X500Principal subject, String why) {
    return new IllegalArgumentException("the certificate subject '" + subject.getName() + "' names no federation identity: " + why);
  }
}
