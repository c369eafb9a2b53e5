package org.trustload.harness;

import java.io.IOException;
import org.trustload.common.ChildProcess;

/** Something the harness could not do, with the exit status it means and a message for the user. */
public class HarnessException extends Exception {

    private static final long serialVersionUID = 1L;
    private final transient ExitStatus status;

    public HarnessException(ExitStatus status, String message) {
        super(message);
        this.status = status;
    }

    public HarnessException(ExitStatus status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    public ExitStatus status() {
        return status;
    }

    /** Bad usage (exit 1). */
    public static HarnessException usage(String message) {
        return new HarnessException(ExitStatus.USAGE, message);
    }

    /** Could not execute (exit 2). */
    public static HarnessException notExecuted(String message) {
        return new HarnessException(ExitStatus.NOT_EXECUTED, message);
    }

    /** What {@code start} returns; a process that is not ready ({@link ChildProcess.NotReady}) is not executed. */
    public static <T> T ready(Starting<T> start) throws HarnessException, IOException, InterruptedException {
        try {
            return start.get();
        } catch (ChildProcess.NotReady e) {
            throw notExecuted(e.getMessage());
        }
    }

    /** Starting a process, or waiting for it to be ready. */
    public interface Starting<T> {
        T get() throws IOException, InterruptedException;
    }
}
