package org.trustload.harness;

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
    static HarnessException usage(String message) {
        return new HarnessException(ExitStatus.USAGE, message);
    }

    /** Could not execute (exit 2). */
    static HarnessException notExecuted(String message) {
        return new HarnessException(ExitStatus.NOT_EXECUTED, message);
    }
}
