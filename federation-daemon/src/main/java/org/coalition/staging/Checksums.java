package org.coalition.staging;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256, as the records of a job's files name it: 64 lower-case hex digits. */
public final class Checksums {
  private Checksums() {}

  /** A fresh SHA-256 digest. */
  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this Java has no SHA-256", e);
    }
  }

  /** The SHA-256 of {@code file}. */
  public static String sha256(Path file) throws IOException {
    MessageDigest sha = sha256();
    try (InputStream in = Files.newInputStream(file)) {
      in.transferTo(new DigestOutputStream(OutputStream.nullOutputStream(), sha));
    }
    return hex(sha);
  }

  /** What {@code sha} has digested, as 64 lower-case hex digits. */
  public static String hex(MessageDigest sha) {
    return HexFormat.of().formatHex(sha.digest());
  }
}
