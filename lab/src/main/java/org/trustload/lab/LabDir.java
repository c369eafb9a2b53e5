package org.trustload.lab;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The lab's own directory for Unix sockets and generated files ({@code --socket-dir}), held with an
 * exclusive lock on {@value #LOCK_FILE} for as long as the lab runs, so no second lab — the same user's
 * or another's — writes or deletes files in it meanwhile. The kernel drops the lock when the lab's
 * process ends however it ends (even {@code kill -9}), so a crashed lab never blocks the next one.
 *
 * <p>Without {@code --socket-dir} the lab takes {@code /tmp/trustload-lab-<uid>}, or, while another lab
 * holds that, the first free {@code /tmp/trustload-lab-<uid>-2}, {@code -3}, … Files a service keeps
 * between starts (the pki cache) stay in the directory for the next lab that takes it.
 */
final class LabDir implements AutoCloseable {

    /** The lock file in the directory; it holds the owning lab's process id. */
    static final String LOCK_FILE = ".lab.lock";

    /** How many default directories ({@code -2} … ) the lab tries before giving up. */
    static final int MAX_DEFAULT_DIRS = 50;

    private final Path dir;
    private final FileChannel channel;
    private final FileLock lock;

    private LabDir(Path dir, FileChannel channel, FileLock lock) {
        this.dir = dir;
        this.channel = channel;
        this.lock = lock;
    }

    /** {@code <root>/trustload-lab-<uid>}: short, because a Unix socket path may not exceed ~107 bytes. */
    static Path defaultDir(Path root) {
        return root.resolve("trustload-lab-" + UnixIdentity.uid());
    }

    /** Takes the first default directory under {@code root} that no running lab holds. */
    static LabDir takeDefault(Path root) throws IOException {
        Path first = defaultDir(root);
        for (int n = 1; n <= MAX_DEFAULT_DIRS; n++) {
            Path dir = n == 1 ? first : first.resolveSibling(first.getFileName() + "-" + n);
            LabDir taken = tryTake(dir);
            if (taken != null) {
                return taken;
            }
        }
        throw new EndpointInUseException(first + " and " + (MAX_DEFAULT_DIRS - 1) + " more lab directories beside it",
                null);
    }

    /** Takes {@code dir} (an explicit {@code --socket-dir}); refuses it while another lab holds it. */
    static LabDir take(Path dir) throws IOException {
        LabDir taken = tryTake(dir);
        if (taken == null) {
            throw new EndpointInUseException("--socket-dir " + dir + " (held by the running lab" + owner(dir)
                    + "; give each lab a directory of its own, or leave --socket-dir out)", null);
        }
        return taken;
    }

    private static LabDir tryTake(Path dir) throws IOException {
        prepare(dir);
        FileChannel channel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.READ,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException inThisJvm) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            return null;
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        return new LabDir(dir, channel, lock);
    }

    private static String owner(Path dir) {
        try {
            String pid = Files.readString(dir.resolve(LOCK_FILE), StandardCharsets.US_ASCII).strip();
            return pid.isEmpty() ? "" : ", pid " + pid;
        } catch (IOException e) {
            return "";
        }
    }

    /** Creates {@code dir} 0700, refusing one that another user owns (it would sit in /tmp). */
    static void prepare(Path dir) throws IOException {
        Set<PosixFilePermission> owner = PosixFilePermissions.fromString("rwx------");
        if (Files.notExists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(owner));
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("--socket-dir " + dir + " is not a directory");
        }
        String me = System.getProperty("user.name");
        String dirOwner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
        if (!dirOwner.equals(me) && !dirOwner.equals(String.valueOf(UnixIdentity.uid()))) {
            throw new IOException("--socket-dir " + dir + " belongs to " + dirOwner + ", not " + me);
        }
        Files.setPosixFilePermissions(dir, owner);
    }

    /** The directory (absolute). */
    Path path() {
        return dir;
    }

    /** Releases the lock (after the services removed their files); the lock file stays, empty of meaning. */
    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            System.err.println("trustload-lab: cannot release " + dir.resolve(LOCK_FILE) + ": " + e);
        }
    }
}
