package dev.numaspread.kernel.debian;

/**
 * What numaspread could not fetch or unpack: a source that names no kernel, a package the archive
 * lacks, a download or apt index update that failed, a folder without what a guest needs. The
 * message is one line that says what was asked, what went wrong and what would help.
 */
public final class FetchFailure extends RuntimeException {
    public FetchFailure(String message) {
        super(message);
    }
}
