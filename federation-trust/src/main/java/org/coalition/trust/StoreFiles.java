package org.coalition.trust;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Key and trust stores (PKCS#12) with their passwords beside them in {@code STORE.password}. A
 * store that holds a private key and its password file are readable by their owner only; a trust
 * store (certificates alone) is readable by all. Reading a key store whose password file others can
 * read is refused, saying how to fix it: the password would be as good as public.
 */
public final class StoreFiles {
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> PUBLIC = PosixFilePermissions.fromString("rw-r--r--");
  private static final SecureRandom RANDOM = new SecureRandom();

  private StoreFiles() {}

  /** Where {@code store}'s password lives. */
  public static Path passwordFile(Path store) {
    return store.resolveSibling(store.getFileName() + ".password");
  }

  /** {@code store}'s password, from its password file (which must be its owner's alone when {@code secret}). */
  public static char[] password(Path store, boolean secret) {
    Path file = passwordFile(store);
    try {
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        throw new TrustException(file + ": no password file beside " + store + " (a regular file, not a link)");
      }
      if (secret && Files.getFileStore(file).supportsFileAttributeView("posix")) {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        if (perms.stream().anyMatch(p -> !OWNER_ONLY.contains(p) && p != PosixFilePermission.OWNER_EXECUTE)) {
          throw new TrustException(file + ": others can read this key's password (mode " + PosixFilePermissions.toString(perms)
              + "); run: chmod 600 " + file);
        }
      }
      String text = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (text.isEmpty()) {
        throw new TrustException(file + ": the password file is empty");
      }
      return text.toCharArray();
    } catch (IOException e) {
      throw new TrustException(file + ": cannot read the password file: " + e.getMessage(), e);
    }
  }

  /** A TLS context that presents {@code keys} (opened with {@code password}) and trusts the certificates of {@code trust}. */
  public static SSLContext tlsContext(KeyStore keys, char[] password, Path trust) throws GeneralSecurityException {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, password);
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(load(trust, false));
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return ctx;
  }

  /** Loads {@code store} with its password. */
  public static KeyStore load(Path store, boolean secret) {
    return load(store, password(store, secret));
  }

  /** Loads {@code store} with {@code password} (one kept elsewhere than beside it). */
  public static KeyStore load(Path store, char[] password) {
    try (InputStream in = Files.newInputStream(store)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, password);
      return ks;
    } catch (IOException | GeneralSecurityException e) {
      throw new TrustException(store + ": not a PKCS#12 store this password opens: " + e.getMessage(), e);
    }
  }

  /** A fresh random password for {@code store}, written to its password file ({@code secret}: owner-only). */
  static char[] newPassword(Path store, boolean secret) throws IOException {
    byte[] raw = new byte[18];
    RANDOM.nextBytes(raw);
    char[] password = Base64.getUrlEncoder().withoutPadding().encodeToString(raw).toCharArray();
    write(passwordFile(store), new String(password).getBytes(StandardCharsets.UTF_8), secret ? OWNER_ONLY : PUBLIC);
    return password;
  }

  /** Writes {@code ks} to {@code store} under {@code password}, atomically; {@code secret}: owner-only. */
  static void save(KeyStore ks, Path store, char[] password, boolean secret) throws IOException, GeneralSecurityException {
    Path tmp = store.resolveSibling(store.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    createWithMode(tmp, secret ? OWNER_ONLY : PUBLIC);
    try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      ks.store(out, password);
    }
    Files.move(tmp, store, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void write(Path file, byte[] data, Set<PosixFilePermission> mode) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    createWithMode(tmp, mode);
    Files.write(tmp, data, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Created with its final mode, so a secret is never readable by others, not even for a moment. */
  private static void createWithMode(Path file, Set<PosixFilePermission> mode) throws IOException {
    if (Files.getFileStore(file.getParent()).supportsFileAttributeView("posix")) {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(mode));
      Files.setPosixFilePermissions(file, mode); // the umask may have taken bits away from a public file
    } else {
      Files.createFile(file);
    }
  }
}
