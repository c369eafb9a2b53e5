package org.trustload.testing.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.trustload.pki.CadesSigner;
import org.trustload.pki.CadesSignerTest;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PadesSigner;
import org.trustload.pki.SignOptions;
import org.trustload.pki.SignatureValidator;
import org.trustload.pki.TestKeys;
import org.trustload.pki.ValidationReport;

/**
 * Prints the CPU time per operation (this thread, ThreadMXBean) of CAdES-B/-T and PAdES-B/-T signing and
 * validation on the 140,576-byte sample PDF, for P-256 and RSA-2048 keys. Informational: nothing is asserted on
 * the numbers (performance belongs to bench/). The in-process TSA's CPU is included in the -T figures.
 */
class SignatureCpuTest {
    interface Op {
        Object run() throws Exception;
    }

    static double cpuMsPerOp(int warmup, int n, Op op) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < warmup; i++) {
            assertThat(op.run()).isNotNull();
        }
        long t0 = mx.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
            op.run();
        }
        return (mx.getCurrentThreadCpuTime() - t0) / 1e6 / n;
    }

    @Test
    void printCpuPerOperation() throws Exception {
        byte[] pdf = PadesSignerTest.PDF;
        SignatureValidator v = CadesSignerTest.validator();
        for (TestKeys.Type type : List.of(TestKeys.Type.P256, TestKeys.Type.RSA)) {
            KeyMaterial key = TestKeys.user(type);
            SignOptions b = CadesSignerTest.options("SHA-256", false, SignOptions.Level.B);
            SignOptions t = CadesSignerTest.options("SHA-256", false, SignOptions.Level.T);
            byte[] cadesB = CadesSigner.sign(pdf, key, b);
            byte[] cadesT = CadesSigner.sign(pdf, key, t);
            byte[] padesB = PadesSigner.sign(pdf, key, b);
            byte[] padesT = PadesSigner.sign(pdf, key, t);
            int w = 60;
            int n = 60;
            StringBuilder sb = new StringBuilder("CPU ms/op on " + pdf.length + "-byte PDF, " + type + ":");
            sb.append(fmt(" CAdES-B sign", cpuMsPerOp(w, n, () -> CadesSigner.sign(pdf, key, b))));
            sb.append(fmt(" CAdES-T sign", cpuMsPerOp(w, n, () -> CadesSigner.sign(pdf, key, t))));
            sb.append(fmt(" PAdES-B sign", cpuMsPerOp(w, n, () -> PadesSigner.sign(pdf, key, b))));
            sb.append(fmt(" PAdES-T sign", cpuMsPerOp(w, n, () -> PadesSigner.sign(pdf, key, t))));
            sb.append(fmt(" CAdES-B verify", cpuMsPerOp(w, n, () -> check(v.validateCades(cadesB, pdf)))));
            sb.append(fmt(" CAdES-T verify", cpuMsPerOp(w, n, () -> check(v.validateCades(cadesT, pdf)))));
            sb.append(fmt(" PAdES-B verify", cpuMsPerOp(w, n, () -> check(v.validatePades(padesB)))));
            sb.append(fmt(" PAdES-T verify", cpuMsPerOp(w, n, () -> check(v.validatePades(padesT)))));
            System.out.println(sb);
        }
    }

    static ValidationReport check(ValidationReport r) {
        assertThat(r.problems()).isEmpty();
        return r;
    }

    static String fmt(String label, double ms) {
        return String.format(Locale.ROOT, "%s %.2f", label, ms);
    }
}
