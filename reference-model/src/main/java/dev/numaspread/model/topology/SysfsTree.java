package dev.numaspread.model.topology;

import dev.numaspread.model.input.InputFile;
import dev.numaspread.model.input.InvalidInputException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The files of a copy of {@code /sys/devices/system} as {@link SysfsSnapshot} reads them: a
 * directory on disk ({@link #of(Path)}), or the entries of a snapshot archive held in memory.
 * Paths are relative to the copy's top and {@code /}-separated ({@code node/node3/distance}); the
 * empty path is the top itself.
 */
public interface SysfsTree {

    /** The largest file of a copy read: {@value} bytes, 1 MiB (an 8192-CPU list takes 40 KB; FMT-17). */
    int MAX_FILE_BYTES = 1 << 20;

    /** The copy as messages and the machine's name use it: {@code snap}, {@code snap.tar}. */
    String name();

    /** Where {@code path} is, for messages: {@code snap/node/node3/distance}, {@code snap.tar:sys/devices/system/node/node3/distance}. */
    String where(String path);

    boolean isFile(String path);

    boolean isDirectory(String path);

    /** The names directly under {@code dir}, files, links and directories, ascending; empty when it is no directory. */
    SortedSet<String> children(String dir);

    /**
     * The bytes of the file at {@code path}, at most {@link #MAX_FILE_BYTES}.
     *
     * @throws InvalidTopologyException naming {@link #where(String)}
     */
    byte[] read(String path);

    /**
     * The copy in directory {@code dir}, read as an archive is: never through a symbolic link. A
     * link in the copy (a {@code cpuN/nodeM} link) is listed among its directory's children, but a
     * path through one is neither a file nor a directory, and reading it is refused without opening
     * it: a link to a file outside the copy would be read, and its first line quoted in an error.
     */
    static SysfsTree of(Path dir) {
        return new SysfsTree() {
            Path at(String path) {
                return path.isEmpty() ? dir : dir.resolve(path);
            }

            /** True when a component of {@code path} below the copy's top is a symbolic link. */
            boolean throughLink(String path) {
                Path p = dir;
                for (String part : path.split("/")) {
                    if (part.isEmpty()) continue;
                    p = p.resolve(part);
                    if (Files.isSymbolicLink(p)) return true;
                }
                return false;
            }

            public String name() {
                return dir.toString();
            }

            public String where(String path) {
                return at(path).toString();
            }

            public boolean isFile(String path) {
                return !throughLink(path) && Files.isRegularFile(at(path), LinkOption.NOFOLLOW_LINKS);
            }

            public boolean isDirectory(String path) {
                return !throughLink(path) && Files.isDirectory(at(path), LinkOption.NOFOLLOW_LINKS);
            }

            public SortedSet<String> children(String d) {
                TreeSet<String> out = new TreeSet<>();
                if (!isDirectory(d)) return out;
                try (Stream<Path> s = Files.list(at(d))) {
                    s.forEach(p -> out.add(p.getFileName().toString()));
                } catch (IOException | RuntimeException e) {
                    throw new InvalidTopologyException(where(d), "cannot list the directory; expected a readable copy of sysfs");
                }
                return out;
            }

            public byte[] read(String path) {
                if (throughLink(path))
                    throw new InvalidTopologyException(where(path), "a symbolic link; expected a regular file of the copy (a copy is read as"
                            + " an archive is: links are not followed)");
                try {
                    return InputFile.read(at(path), MAX_FILE_BYTES, "a sysfs file");
                } catch (InvalidInputException e) {
                    throw InvalidTopologyException.of(e);
                }
            }
        };
    }
}
