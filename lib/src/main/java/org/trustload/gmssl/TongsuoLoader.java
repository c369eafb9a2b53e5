package org.trustload.gmssl;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.security.cert.Certificate;

/**
 * Loads the tongsuo-openjdk classes ({@code org.conscrypt.*}, {@code net.tongsuo.*}) from their jar in
 * a class loader of their own, with one change: tongsuo-openjdk 1.0.0 decodes the peer's certificates
 * in {@code SSLUtils.getCertificateFactory()} with {@code new BouncyCastleProvider()} on every call,
 * i.e. on every handshake, and building that provider (registering its ~4,000 algorithm entries) was
 * ~65% of the client's Java CPU per new connection (JFR, docs/bench.md "TLCP"). Here that one
 * {@code new BouncyCastleProvider()} is replaced, in the class bytes, by a call to
 * {@link TongsuoCertificates#provider()}: the certificates are decoded by BouncyCastle's same X.509
 * factory, from a provider built once, and a chain seen before is not decoded again.
 *
 * <p>The change is applied only when the expected instructions occur exactly once in {@code SSLUtils}
 * (else the class is loaded as shipped: same behaviour, the old cost; {@link #patched()} says which).
 * Every other class, BouncyCastle and TrustLoad included, comes from the parent loader.
 */
final class TongsuoLoader extends URLClassLoader {
    private static final String PATCHED_CLASS = "org.conscrypt.SSLUtils";
    private static final String BC_PROVIDER = "org/bouncycastle/jce/provider/BouncyCastleProvider";
    private static final String CACHE_OWNER = "org/trustload/gmssl/TongsuoCertificates";
    private static final String CACHE_METHOD = "provider";
    private static final String CACHE_DESCRIPTOR = "()Ljava/security/Provider;";

    static {
        registerAsParallelCapable();
    }

    private final CodeSource source;
    private volatile boolean patched;

    /**
     * @param jar the tongsuo-openjdk jar
     * @param parent the loader of BouncyCastle and TrustLoad
     */
    TongsuoLoader(URL jar, ClassLoader parent) {
        super(new URL[] {jar}, parent);
        this.source = new CodeSource(jar, (Certificate[]) null);
    }

    /** True once {@code SSLUtils} was loaded with the cached provider. */
    boolean patched() {
        return patched;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith("org.conscrypt.") && !name.startsWith("net.tongsuo.")) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = name.equals(PATCHED_CLASS) ? definePatched(name) : findClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private Class<?> definePatched(String name) throws ClassNotFoundException {
        URL url = findResource(name.replace('.', '/') + ".class");
        if (url == null) {
            throw new ClassNotFoundException(name);
        }
        byte[] original;
        try (InputStream in = url.openStream()) {
            original = in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
        byte[] bytes = patch(original);
        patched = bytes != original;
        return defineClass(name, bytes, 0, bytes.length, source);
    }

    /**
     * The class with its one {@code new BouncyCastleProvider()} ({@code new; dup; invokespecial <init>()V})
     * replaced by {@code invokestatic TongsuoCertificates.provider()} and four {@code nop}s (same length, same
     * stack effect: one Provider reference); the original array when the instructions are not found
     * exactly once.
     */
    static byte[] patch(byte[] cls) {
        try {
            return patchOrNull(cls);
        } catch (IOException | RuntimeException e) {
            return cls;
        }
    }

    private static byte[] patchOrNull(byte[] cls) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(cls));
        if (in.readInt() != 0xCAFEBABE) {
            return cls;
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        int[] tags = new int[count];
        int[][] refs = new int[count][];
        String[] utf8 = new String[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            tags[i] = tag;
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 3, 4 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++; // takes two slots
                }
                case 7, 8, 16, 19, 20 -> refs[i] = new int[] {in.readUnsignedShort()};
                case 9, 10, 11, 12, 17, 18 -> refs[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                default -> {
                    return cls; // a constant kind this class format does not know
                }
            }
        }
        int poolEnd = cls.length - in.available();
        int providerClass = 0;
        for (int i = 1; i < count; i++) {
            if (tags[i] == 7 && BC_PROVIDER.equals(utf8[refs[i][0]])) {
                providerClass = i;
            }
        }
        int init = 0;
        for (int i = 1; i < count && providerClass != 0; i++) {
            if (tags[i] == 10 && refs[i][0] == providerClass) {
                int[] nat = refs[refs[i][1]];
                if ("<init>".equals(utf8[nat[0]]) && "()V".equals(utf8[nat[1]])) {
                    init = i;
                }
            }
        }
        if (providerClass == 0 || init == 0 || count + 6 > 0xFFFF) {
            return cls;
        }
        byte[] pattern = {(byte) 0xBB, (byte) (providerClass >> 8), (byte) providerClass, 0x59, (byte) 0xB7,
            (byte) (init >> 8), (byte) init};
        int at = -1;
        for (int i = poolEnd; i + pattern.length <= cls.length; i++) {
            if (java.util.Arrays.equals(cls, i, i + pattern.length, pattern, 0, pattern.length)) {
                if (at >= 0) {
                    return cls; // more than one: not the class this change was written for
                }
                at = i;
            }
        }
        if (at < 0) {
            return cls;
        }
        // new constants appended at the end of the pool: existing indexes stay valid
        ByteArrayOutputStream added = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(added);
        int owner = count;
        out.writeByte(1);
        out.writeUTF(CACHE_OWNER);
        out.writeByte(7);
        out.writeShort(owner);
        out.writeByte(1);
        out.writeUTF(CACHE_METHOD);
        out.writeByte(1);
        out.writeUTF(CACHE_DESCRIPTOR);
        out.writeByte(12);
        out.writeShort(count + 2);
        out.writeShort(count + 3);
        out.writeByte(10);
        out.writeShort(count + 1);
        out.writeShort(count + 4);
        int method = count + 5;
        out.flush();
        byte[] extra = added.toByteArray();
        byte[] result = new byte[cls.length + extra.length];
        System.arraycopy(cls, 0, result, 0, poolEnd);
        System.arraycopy(extra, 0, result, poolEnd, extra.length);
        System.arraycopy(cls, poolEnd, result, poolEnd + extra.length, cls.length - poolEnd);
        result[8] = (byte) ((count + 6) >> 8);
        result[9] = (byte) (count + 6);
        int code = at + extra.length;
        result[code] = (byte) 0xB8; // invokestatic
        result[code + 1] = (byte) (method >> 8);
        result[code + 2] = (byte) method;
        for (int i = 3; i < pattern.length; i++) {
            result[code + i] = 0; // nop
        }
        return result;
    }
}
