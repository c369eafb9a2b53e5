package org.trustload.gmssl.tlcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.engines.SM4Engine;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.Test;

/**
 * Known answers for the crypto of our TLCP stack, each from a source of its own:
 * <ul>
 * <li>SM3 (the PRF's and the record MAC's hash): GB/T 32905-2016, Appendix A, "abc" and the 512-bit message;</li>
 * <li>SM4 (the record cipher): GB/T 32907-2016, Appendix A, one block and the same block encrypted 1,000,000
 * times;</li>
 * <li>the TLCP PRF (master secret, key block, Finished), the key schedule and the record protection
 * (SM4-CBC + HMAC-SM3, SM4-GCM): values of native Tongsuo recorded in {@code tongsuo-kat.txt} (how, when and
 * with what: its header). Our PRF must give Tongsuo's output for the same inputs; our key schedule, fed
 * with the randoms and master secret of a Tongsuo handshake, must open the records Tongsuo sealed, and
 * seal the CBC ones to the same bytes given the same IV.</li>
 * </ul>
 * TongsuoKnownAnswersIT (testkit) checks fresh output of the same program with {@link #check}.
 */
public class TlcpKnownAnswerTest {
    private static final HexFormat HEX = HexFormat.of();
    /** The type of an application-data record. */
    private static final int APPLICATION_DATA = 23;

    @Test
    void sm3GivesTheStandardsDigestsOfAbcAndOfTheFiveHundredTwelveBitMessage() {
        assertThat(sm3("abc")).isEqualTo("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0");
        assertThat(sm3("abcd".repeat(16)))
                .isEqualTo("debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732");
    }

    @Test
    void sm4GivesTheStandardsCiphertextOnceAndAfterAMillionEncryptions() {
        byte[] key = HEX.parseHex("0123456789abcdeffedcba9876543210");
        SM4Engine sm4 = new SM4Engine();
        sm4.init(true, new KeyParameter(key));
        byte[] block = key.clone();
        sm4.processBlock(block, 0, block, 0);
        assertThat(HEX.formatHex(block)).isEqualTo("681edf34d206965e86b3e94f536e4246");
        for (int i = 1; i < 1_000_000; i++) {
            sm4.processBlock(block, 0, block, 0);
        }
        assertThat(HEX.formatHex(block)).isEqualTo("595298c7c6fd271f0402f804c33d3f66");
    }

    @Test
    void prfKeyScheduleAndRecordsGiveTongsuosRecordedAnswers() throws Exception {
        String recorded = recorded();
        assertThat(check(recorded)).as("PRF lines, sessions, records checked").containsExactly(3, 2, 4);
    }

    @Test
    void aRecordWithOneBitChangedDoesNotOpen() throws Exception {
        String[] session = null;
        int checked = 0;
        for (String line : recorded().lines().toList()) {
            String[] w = line.split(" ");
            if (w[0].equals("SESSION")) {
                session = w;
            } else if (w[0].equals("RECORD") && w[1].equals("client")) {
                byte[] wire = HEX.parseHex(w[3]);
                wire[wire.length - 1] ^= 1;
                String[] s = session;
                assertThatThrownBy(() -> checkRecords(s, true, HEX.parseHex(w[2]), wire)).as(s[1])
                        .isInstanceOf(TlcpAlert.class);
                checked++;
            }
        }
        assertThat(checked).isEqualTo(2);
    }

    /** The recorded answers, comments stripped. */
    public static String recorded() throws IOException {
        try (InputStream in = TlcpKnownAnswerTest.class.getResourceAsStream("tongsuo-kat.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("#"))
                    .reduce("", (a, b) -> a + b + "\n");
        }
    }

    /**
     * Checks the output of {@code tlcp-peer kat} against our code: every PRF line with {@link Prf} (and the
     * master secret with {@link KeySchedule#master}), every RECORD line by opening its records with the key
     * schedule of the SESSION before it. Returns how many PRF lines, sessions and record lines it checked.
     */
    public static List<Integer> check(String output) throws TlcpAlert {
        int prfs = 0;
        int sessions = 0;
        int records = 0;
        String[] session = null;
        for (String line : output.lines().filter(l -> !l.isBlank()).toList()) {
            String[] w = line.split(" ");
            switch (w[0]) {
                case "PRF" -> {
                    int n = w.length;
                    byte[] label = String.join(" ", Arrays.copyOfRange(w, 1, n - 4))
                            .getBytes(StandardCharsets.US_ASCII);
                    byte[] secret = HEX.parseHex(w[n - 4]);
                    byte[] seed = HEX.parseHex(w[n - 3]);
                    byte[] ours = Prf.prf(secret, label, seed, new byte[0], Integer.parseInt(w[n - 2]));
                    assertThat(HEX.formatHex(ours)).as(line).isEqualTo(w[n - 1]);
                    if (Arrays.equals(label, Prf.MASTER_SECRET)) {
                        assertThat(KeySchedule.master(secret, Arrays.copyOf(seed, 32),
                                Arrays.copyOfRange(seed, 32, 64)))
                                .as("master secret").isEqualTo(ours);
                    }
                    prfs++;
                }
                case "SESSION" -> {
                    session = w;
                    sessions++;
                }
                case "RECORD" -> {
                    assertThat(session).as("a SESSION line before " + line).isNotNull();
                    checkRecords(session, w[1].equals("client"), HEX.parseHex(w[2]), HEX.parseHex(w[3]));
                    records++;
                }
                default -> throw new AssertionError("unexpected line: " + line);
            }
        }
        return List.of(prfs, sessions, records);
    }

    /**
     * Opens {@code wire} (records sealed by the client or the server of {@code session}, from sequence number
     * 1: the first records after Finished) with our key schedule; their plaintexts together must be
     * {@code plaintext}. A CBC record sealed again with its own IV must give the same bytes.
     */
    private static void checkRecords(String[] session, boolean fromClient, byte[] plaintext, byte[] wire)
            throws TlcpAlert {
        boolean gcm = session[1].contains("GCM");
        byte[] clientRandom = HEX.parseHex(session[2]);
        byte[] serverRandom = HEX.parseHex(session[3]);
        byte[] master = HEX.parseHex(session[4]);
        // the receiving side's ciphers: [client write, server write]
        RecordCipher opener = KeySchedule.ciphers(master, clientRandom, serverRandom, gcm, !fromClient,
                new SecureRandom())[fromClient ? 0 : 1];
        List<Byte> got = new ArrayList<>();
        long seq = 1;
        for (int at = 0; at < wire.length; seq++) {
            assertThat(wire[at]).as("record type").isEqualTo((byte) APPLICATION_DATA);
            assertThat(((wire[at + 1] & 0xff) << 8) | (wire[at + 2] & 0xff)).as("record version")
                    .isEqualTo(RecordLayer.VERSION);
            int len = ((wire[at + 3] & 0xff) << 8) | (wire[at + 4] & 0xff);
            byte[] sealed = Arrays.copyOfRange(wire, at + 5, at + 5 + len);
            byte[] body = sealed.clone();
            int n = opener.open(APPLICATION_DATA, seq, body, len);
            byte[] plain = Arrays.copyOfRange(body, opener.plaintextOffset(), opener.plaintextOffset() + n);
            for (byte b : plain) {
                got.add(b);
            }
            if (!gcm) {
                byte[] iv = Arrays.copyOf(sealed, 16);
                RecordCipher sealer = KeySchedule.ciphers(master, clientRandom, serverRandom, false, fromClient,
                        new FixedRandom(iv))[fromClient ? 0 : 1];
                assertThat(sealer.seal(APPLICATION_DATA, seq, plain, 0, plain.length))
                        .as("CBC record %d sealed again", seq)
                        .isEqualTo(sealed);
            }
            at += 5 + len;
        }
        byte[] all = new byte[got.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = got.get(i);
        }
        assertThat(all).as((fromClient ? "client" : "server") + " records of " + session[1]).isEqualTo(plaintext);
    }

    private static String sm3(String message) {
        SM3Digest d = new SM3Digest();
        byte[] m = message.getBytes(StandardCharsets.US_ASCII);
        d.update(m, 0, m.length);
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return HEX.formatHex(out);
    }

    /** Gives the recorded IV where the record cipher asks for a random one. */
    private static final class FixedRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final byte[] bytes;

        FixedRandom(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public void nextBytes(byte[] out) {
            System.arraycopy(bytes, 0, out, 0, out.length);
        }
    }
}
