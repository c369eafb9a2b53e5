package org.trustload.pki;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * Immutable options of a CAdES or PAdES signature: digest, attached/detached (CAdES), level B or T
 * (T needs a {@link TimestampSource}), the signing time, and the PAdES dictionary entries (reason,
 * location, signer name) and the space reserved for the CMS in the PDF. Build with {@link #builder()}.
 */
public final class SignOptions {
    /** Signature level. */
    public enum Level {
        /** Basic: CAdES-BES / PAdES-B. */
        B,
        /** With a signature timestamp: CAdES-T / PAdES-T. */
        T
    }

    /** The defaults: SHA-256, attached, level B, signing time "now". */
    public static final SignOptions DEFAULTS = builder().build();

    private final String digest;
    private final boolean attached;
    private final Level level;
    private final TimestampSource timestampSource;
    private final Instant signingTime;
    private final String reason;
    private final String location;
    private final String signerName;
    private final int signatureSize;

    private SignOptions(Builder b) {
        this.digest = b.digest;
        this.attached = b.attached;
        this.level = b.level;
        this.timestampSource = b.timestampSource;
        this.signingTime = b.signingTime;
        this.reason = b.reason;
        this.location = b.location;
        this.signerName = b.signerName;
        this.signatureSize = b.signatureSize;
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.digest = digest;
        b.attached = attached;
        b.level = level;
        b.timestampSource = timestampSource;
        b.signingTime = signingTime;
        b.reason = reason;
        b.location = location;
        b.signerName = signerName;
        b.signatureSize = signatureSize;
        return b;
    }

    /** {@code SHA-256}, {@code SHA-384}, {@code SHA-512} or {@code SM3}. */
    public String digest() {
        return digest;
    }

    /** CAdES only: whether the content is encapsulated in the CMS (PAdES is always detached). */
    public boolean attached() {
        return attached;
    }

    public Level level() {
        return level;
    }

    /** The TSA used for level T, or null. */
    public TimestampSource timestampSource() {
        return timestampSource;
    }

    /** The signing time to claim, or null for "now" at the time of {@code prepare}. */
    public Instant signingTime() {
        return signingTime;
    }

    /** PAdES /Reason, or null. */
    public String reason() {
        return reason;
    }

    /** PAdES /Location, or null. */
    public String location() {
        return location;
    }

    /** PAdES /Name, or null for the signer certificate's common name. */
    public String signerName() {
        return signerName;
    }

    /** PAdES: bytes reserved for the CMS in /Contents, or 0 to size it from the chain and level. */
    public int signatureSize() {
        return signatureSize;
    }

    @Override
    public String toString() {
        return "SignOptions[" + digest + ", " + (attached ? "attached" : "detached") + ", " + level + "]";
    }

    /** Builder of {@link SignOptions}. */
    public static final class Builder {
        private String digest = "SHA-256";
        private boolean attached = true;
        private Level level = Level.B;
        private TimestampSource timestampSource;
        private Instant signingTime;
        private String reason;
        private String location;
        private String signerName;
        private int signatureSize;

        private Builder() {
        }

        /**
         * @param digest {@code SHA-256}, {@code SHA-384}, {@code SHA-512} or {@code SM3} (also without the
         *               dash, any case)
         */
        public Builder digest(String digest) {
            this.digest = normalizeDigest(digest);
            return this;
        }

        public Builder attached(boolean attached) {
            this.attached = attached;
            return this;
        }

        public Builder detached() {
            return attached(false);
        }

        public Builder level(Level level) {
            this.level = Objects.requireNonNull(level, "level");
            return this;
        }

        public Builder timestampSource(TimestampSource timestampSource) {
            this.timestampSource = timestampSource;
            return this;
        }

        public Builder signingTime(Instant signingTime) {
            this.signingTime = signingTime;
            return this;
        }

        public Builder reason(String reason) {
            this.reason = reason;
            return this;
        }

        public Builder location(String location) {
            this.location = location;
            return this;
        }

        public Builder signerName(String signerName) {
            this.signerName = signerName;
            return this;
        }

        /** @param bytes reserved CMS size in bytes (the PDF holds twice as many hex digits); 0 = automatic */
        public Builder signatureSize(int bytes) {
            if (bytes < 0 || bytes > 1 << 20) {
                throw new IllegalArgumentException("signature size must be 0..1048576 bytes: " + bytes);
            }
            this.signatureSize = bytes;
            return this;
        }

        /**
         * @throws IllegalStateException when level T has no timestamp source
         */
        public SignOptions build() {
            if (level == Level.T && timestampSource == null) {
                throw new IllegalStateException("level T needs a timestamp source");
            }
            return new SignOptions(this);
        }
    }

    static String normalizeDigest(String digest) {
        String d = Objects.requireNonNull(digest, "digest").trim().toUpperCase(Locale.ROOT)
                .replace("-", "").replace("_", "");
        switch (d) {
            case "SHA256":
                return "SHA-256";
            case "SHA384":
                return "SHA-384";
            case "SHA512":
                return "SHA-512";
            case "SM3":
                return "SM3";
            default:
                throw new IllegalArgumentException("unknown digest " + digest + " (SHA-256, SHA-384, SHA-512, SM3)");
        }
    }
}
