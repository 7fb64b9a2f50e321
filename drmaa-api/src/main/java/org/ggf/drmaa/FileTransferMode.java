package org.ggf.drmaa;

import java.io.Serializable;

/**
 * Which of a job's three streams have their files copied between the submit host and the
 * execution host ({@link JobTemplate#setTransferFiles}, an optional attribute).
 */
public class FileTransferMode implements Serializable, Cloneable {
  private static final long serialVersionUID = 1L;
  private boolean inputStream;
  private boolean outputStream;
  private boolean errorStream;

  /** No stream transferred. */
  public FileTransferMode() {
    this(false, false, false);
  }

  /**
   * The streams given.
   *
   * @param inputStream whether the input file is copied to the execution host
   * @param outputStream whether the output file is copied back
   * @param errorStream whether the error file is copied back
   */
  public FileTransferMode(boolean inputStream, boolean outputStream, boolean errorStream) {
    this.inputStream = inputStream;
    this.outputStream = outputStream;
    this.errorStream = errorStream;
  }

  /**
   * Sets whether the error file is copied back.
   *
   * @param errorStream whether it is
   */
  public void setErrorStream(boolean errorStream) {
    this.errorStream = errorStream;
  }

  /**
   * Whether the error file is copied back.
   *
   * @return whether it is
   */
  public boolean getErrorStream() {
    return errorStream;
  }

  /**
   * Sets whether the input file is copied to the execution host.
   *
   * @param inputStream whether it is
   */
  public void setInputStream(boolean inputStream) {
    this.inputStream = inputStream;
  }

  /**
   * Whether the input file is copied to the execution host.
   *
   * @return whether it is
   */
  public boolean getInputStream() {
    return inputStream;
  }

  /**
   * Sets whether the output file is copied back.
   *
   * @param outputStream whether it is
   */
  public void setOutputStream(boolean outputStream) {
    this.outputStream = outputStream;
  }

  /**
   * Whether the output file is copied back.
   *
   * @return whether it is
   */
  public boolean getOutputStream() {
    return outputStream;
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof FileTransferMode m && m.inputStream == inputStream && m.outputStream == outputStream
        && m.errorStream == errorStream;
  }

  @Override
  public int hashCode() {
    return (inputStream ? 1 : 0) | (outputStream ? 2 : 0) | (errorStream ? 4 : 0);
  }

  @Override
  public Object clone() {
    try {
      return super.clone();
    } catch (CloneNotSupportedException e) {
      throw new AssertionError("FileTransferMode is Cloneable", e);
    }
  }

  /** The streams transferred as the C binding's attribute writes them: some of {@code i}, {@code o}, {@code e}. */
  @Override
  public String toString() {
    return (inputStream ? "i" : "") + (outputStream ? "o" : "") + (errorStream ? "e" : "");
  }
}
