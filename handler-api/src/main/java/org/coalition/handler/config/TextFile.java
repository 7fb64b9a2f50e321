package org.coalition.handler.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * A small text file a person named (a site file, a token, a password): read whole, as UTF-8, with
 * errors that name the file, say what is wrong with it and how to put it right, and never show
 * what it holds (it may be a secret, or a binary file that garbles the terminal).
 */
public final class TextFile {
  /** A file that cannot be read as what it should be; the message names the file and never its content. */
  public static final class Unreadable extends IOException {
    private static final long serialVersionUID = 1L;

    Unreadable(String message) {
      super(message);
    }
  }

  private TextFile() {}

  /**
   * The text of {@code file}, {@code what} it is (for messages: "the site file"), at most
   * {@code maxBytes}.
   */
  public static String read(Path file, String what, long maxBytes) throws Unreadable {
    byte[] bytes;
    try {
      if (Files.isDirectory(file)) {
        throw new Unreadable(file + ": is a directory, not " + what + "; name the file itself");
      }
      long size = Files.size(file);
      if (size > maxBytes) {
        throw new Unreadable(file + ": " + size + " bytes, more than " + what + " should be (at most " + maxBytes + "); is it the right file?");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new Unreadable(file + ": no such file (" + what + ")");
    } catch (AccessDeniedException e) {
      throw new Unreadable(file + ": permission denied; " + what + " must be readable by the user running coalition");
    } catch (Unreadable e) {
      throw e;
    } catch (IOException e) {
      String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().replace(file.toString(), "").replaceFirst("^: ", "");
      throw new Unreadable(file + ": cannot read " + what + (why.isBlank() ? "" : " (" + why + ")"));
    }
    return decode(file, what, bytes);
  }

  /**
   * The first line of a secret's file, trimmed: the file must be readable by its owner alone
   * (neither group nor others may read it) and the secret at least {@code minLength} characters.
   */
  public static String secret(Path file, String what, int minLength) throws Unreadable {
    if (Files.isRegularFile(file)) {
      Set<PosixFilePermission> perms;
      try {
        perms = Files.getPosixFilePermissions(file);
      } catch (IOException e) {
        throw new Unreadable(file + ": cannot read the mode of " + what);
      }
      if (perms.contains(PosixFilePermission.OTHERS_READ) || perms.contains(PosixFilePermission.GROUP_READ)) {
        throw new Unreadable(file + ": " + what + " is readable by others; chmod 600 " + file);
      }
    } else if (!Files.exists(file)) {
      throw new Unreadable(file + ": " + what + " is missing; create it (one line, mode 0600)");
    }
    String s = firstLine(file, what);
    if (s.length() < minLength) {
      throw new Unreadable(file + ": " + what + " must be at least " + minLength + " characters on its first line");
    }
    return s;
  }

  /**
   * The first line of {@code file}, trimmed, as a token is kept: printable ASCII without spaces
   * (a header or a password cannot carry anything else).
   */
  public static String firstLine(Path file, String what) throws Unreadable {
    String s = read(file, what, 64 * 1024).lines().findFirst().orElse("").trim();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        throw new Unreadable(file + ": " + what + " must be printable ASCII without spaces on its first line (character "
            + (i + 1) + " is not)");
      }
    }
    return s;
  }

  private static String decode(Path file, String what, byte[] bytes) throws Unreadable {
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length + 1);
    CoderResult r = utf8.decode(in, out, true);
    if (r.isError()) {
      throw new Unreadable(file + ":" + line(bytes, in.position()) + ": not text (byte " + (in.position() + 1) + " is not UTF-8); is it "
          + what + "?");
    }
    utf8.flush(out);
    String text = out.flip().toString();
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        throw new Unreadable(file + ":" + line(bytes, i) + ": not text (byte " + (i + 1) + " is NUL); is it " + what + "?");
      }
    }
    return text;
  }

  /** The line, from 1, that byte {@code offset} of {@code bytes} is on. */
  private static int line(byte[] bytes, int offset) {
    int line = 1;
    for (int i = 0; i < offset && i < bytes.length; i++) {
      line += bytes[i] == '\n' ? 1 : 0;
    }
    return line;
  }
}
