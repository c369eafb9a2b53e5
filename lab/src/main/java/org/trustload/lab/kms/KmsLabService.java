package org.trustload.lab.kms;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabHttp;
import org.trustload.lab.LabSecrets;
import org.trustload.lab.LabService;
import org.trustload.lab.SelfSignedTls;

/**
 * The {@code kms} lab service: KMS protocol emulators on 127.0.0.1 sharing one self-signed TLS
 * certificate ({@code kms.ca.file}), each with its own {@link KmsFaults}. See {@code docs/lab.md}.
 */
public final class KmsLabService implements LabService {
    static {
        LabHttp.noDelay();
    }

    /** Password of the generated TLS stores (a lab value). */
    static final String TLS_PASSWORD = LabSecrets.generate();

    private final Map<String, String> properties = new LinkedHashMap<>();
    private final List<KmsEmulator> started = new ArrayList<>();
    private final Map<String, KmsFaults> faults = new LinkedHashMap<>();
    private SelfSignedTls tls;

    /** The emulators, started in this order. The one place to add an emulator. */
    static List<KmsEmulator> emulators() {
        return List.of(
                new AwsKmsEmulator(),
                new AliyunKmsEmulator()
        );
    }

    @Override
    public String name() {
        return "kms";
    }

    @Override
    public synchronized void start(LabContext ctx) throws Exception {
        Path dir = ctx.socketDir().resolve("kms");
        Files.createDirectories(dir);
        tls = SelfSignedTls.generate(dir, "kms", TLS_PASSWORD, ctx.host());
        properties.put("kms.ca.file", tls.pem().toAbsolutePath().toString());
        properties.put("kms.truststore", tls.trustStore().toAbsolutePath().toString());
        properties.put("kms.truststore.password", TLS_PASSWORD);
        for (KmsEmulator e : emulators()) {
            KmsFaults f = new KmsFaults();
            started.add(e);
            e.start(ctx, tls.serverContext(), dir, f);
            faults.put(e.name(), f);
            properties.putAll(e.properties());
        }
    }

    /** The fault switches of the emulator called {@code name} (for in-process tests). */
    public KmsFaults faults(String name) {
        return faults.get(name);
    }

    @Override
    public Map<String, String> properties() {
        return Collections.unmodifiableMap(properties);
    }

    @Override
    public synchronized void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
        started.clear();
        if (tls != null) {
            tls.delete();
            tls = null;
        }
    }
}
