package org.trustload.pki;

import java.util.Arrays;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * What an expected refusal of a certificate login looks like, since real relying parties refuse a revoked or
 * expired certificate their own way: the product's own code ({@link #PRODUCT_CODES}), an HTTP status of
 * {@link #statuses()} whose answer matches {@link #body()} when set, or a failed TLS handshake when
 * {@link #tlsAlert()} allows it. The rule in full: docs/elements/certificate-login.md, "Expected refusals".
 *
 * @param statuses the HTTP statuses of a refusal
 * @param tlsAlert whether a failed TLS handshake is a refusal
 * @param body     a pattern the refusal's answer must contain, or null for any answer
 */
public record LoginRefusal(Set<Integer> statuses, boolean tlsAlert, Pattern body) {
    /**
     * The refusals of a revoked or expired certificate a product's API states (Rest PKI's validation results; the lab's
     * JSON codes).
     */
    public static final Set<String> PRODUCT_CODES = Set.of(PkiException.CERTIFICATE_REVOKED,
            PkiException.CERTIFICATE_EXPIRED);
    /** The statuses of the common refusals: nginx's 400, 401, 403. */
    public static final String DEFAULT_STATUSES = "400,401,403";
    /** The common refusals: {@value #DEFAULT_STATUSES}, any answer, a TLS alert. */
    public static final LoginRefusal DEFAULT = new LoginRefusal(Set.of(400, 401, 403), true, null);

    public LoginRefusal {
        statuses = Set.copyOf(statuses);
    }

    /**
     * Parses the three settings as elements store them.
     *
     * @param statuses comma- or space-separated HTTP statuses ({@code 400,401,403}); empty: none
     * @param tlsAlert {@code true} or {@code false}
     * @param body     a regular expression, or empty for any answer
     * @throws PkiException {@code configError} about {@code refusalStatuses} or {@code refusalBody}
     */
    public static LoginRefusal parse(String statuses, boolean tlsAlert, String body) throws PkiException {
        Set<Integer> s;
        try {
            s = Arrays.stream((statuses == null ? "" : statuses).split("[,\\s]+")).filter(x -> !x.isEmpty())
                    .map(Integer::valueOf).collect(Collectors.toUnmodifiableSet());
        } catch (NumberFormatException e) {
            throw PkiException.setting("refusalStatuses", "must list HTTP statuses such as " + DEFAULT_STATUSES
                    + ", not '" + statuses + "'");
        }
        for (int x : s) {
            if (x < 100 || x > 599) {
                throw PkiException.setting("refusalStatuses", "has no HTTP status " + x);
            }
        }
        Pattern p = null;
        if (body != null && !body.isBlank()) {
            try {
                p = Pattern.compile(body.strip());
            } catch (PatternSyntaxException e) {
                throw PkiException.setting("refusalBody", "is not a regular expression: " + e.getDescription());
            }
        }
        return new LoginRefusal(s, tlsAlert, p);
    }

    /** Whether {@code login} failed the way this rule expects. */
    public boolean matches(Flow login) {
        if (login.ok()) {
            return false;
        }
        String code = login.code();
        if (CertificateLoginClient.HANDSHAKE_FAILED.equals(code)) {
            return tlsAlert;
        }
        if (login.status() != 0 && statuses.contains(login.status())) {
            return body == null || body.matcher(login.body()).find();
        }
        return PRODUCT_CODES.contains(code);
    }

    /** One line for the sampler's request tab, e.g. {@code HTTP 400/401/403, TLS alert}. */
    public String describe() {
        String s = statuses.isEmpty() ? "" : "HTTP " + statuses.stream().sorted().map(String::valueOf)
                .collect(Collectors.joining("/")) + (body == null ? "" : " with /" + body.pattern() + "/");
        String t = tlsAlert ? "TLS alert" : "";
        String both = s.isEmpty() ? t : t.isEmpty() ? s : s + ", " + t;
        return both.isEmpty() ? "the product's refusal codes" : both + ", the product's refusal codes";
    }
}
