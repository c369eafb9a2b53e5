package org.trustload.lab.pki;

import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Rest PKI's standard signature policies (the ids Lacuna's client libraries publish as
 * {@code StandardSignaturePolicies} / {@code SignaturePolicy}), each mapped to what the lab's engines make
 * of it: CAdES or PAdES, at level B or T (a signature timestamp from the lab's TSA). A request names its
 * level by policy id, as with the product. Policies Lacuna publishes that the lab does not make (CAdES
 * AD-RC, XML) are {@link #offered() not offered}: a start with one of them is refused with
 * {@code EntityUnusable}.
 */
enum SignaturePolicy {
    CADES_BES("a4522485-c9e5-46c3-950b-0d6e951e17d1", "CadesBes", Family.CADES, false),
    CADES_BES_WITH_SIGNING_TIME_AND_NO_CRLS("8108539d-c137-4f45-a1f2-de5305bc0a37", "CadesBesWithSigningTimeAndNoCrls",
            Family.CADES, false),
    PKI_BRAZIL_CADES_ADR_BASICA("3ddd8001-1672-4eb5-a4a2-6e32b17ddc46", "PkiBrazilAdrBasica", Family.CADES, false),
    PKI_BRAZIL_CADES_ADR_BASICA_WITHOUT_CRLS("d890b391-f82f-468c-a7e8-bf734dde9d6e", "PkiBrazilAdrBasicaWithoutCrls",
            Family.CADES, false),
    PKI_BRAZIL_CADES_ADR_TEMPO("a5332ad1-d105-447c-a4bb-b5d02177e439", "PkiBrazilAdrTempo", Family.CADES, true),
    PKI_BRAZIL_CADES_ADR_COMPLETA("30d881e7-924a-4a14-b5cc-d5a1717d92f6", "PkiBrazilAdrCompleta", Family.CADES, null),
    PADES_BASIC("78d20b33-014d-440e-ad07-929f05d00cdf", "PadesBasic", Family.PADES, false),
    PADES_BASIC_WITH_PKI_BRAZIL_CERTS("3fec800c-366c-49bf-82c5-2e72154e70f6", "PadesBasicWithPkiBrazilCerts",
            Family.PADES, false),
    PADES_BASIC_WITHOUT_LTV("ed93a777-ad5a-49a0-8b67-5aa5dfad1c98", "PadesBasicWithoutLtv", Family.PADES, false),
    PADES_ADOBE_READER("aaed831b-fa9d-4732-82fc-8d25f2c16c57", "PadesAdobeReader", Family.PADES, false),
    PADES_T_WITH_PKI_BRAZIL_CERTS("6a39aeea-a2d0-4754-bf8c-19da15296ddb", "PadesTWithPkiBrazilCerts",
            Family.PADES, true),
    PKI_BRAZIL_PADES_ADR_BASICA("531d5012-4c0d-4b6f-89e8-ebdcc605d7c2", "PkiBrazilPadesAdrBasica", Family.PADES, false),
    PKI_BRAZIL_PADES_ADR_TEMPO("10f0d9a5-a0a9-42e9-9523-e181ce05a25b", "PkiBrazilPadesAdrTempo", Family.PADES, true),
    XADES_BES("1beba282-d1b6-4458-8e46-bd8ad6800b54", "XadesBes", Family.XML, null),
    XML_DSIG_BASIC("2bb5d8c9-49ba-4c62-8104-8141f6459d08", "XmlDSigBasic", Family.XML, null),
    PKI_BRAZIL_XADES_ADR_BASICA("1cf5db62-58b6-40ba-88a3-d41bada9b621", "PkiBrazilXadesAdrBasica", Family.XML, null),
    PKI_BRAZIL_XADES_ADR_TEMPO("5aa2e0af-5269-43b0-8d45-f4ef52921f04", "PkiBrazilXadesAdrTempo", Family.XML, null),
    NFE_PADRAO_NACIONAL("a3c24251-d43a-4ba4-b25d-ee8e2ab24f06", "NFePadraoNacional", Family.XML, null);

    /** What a policy signs. */
    enum Family {
        CADES, PADES, XML;

        String label() {
            return name().charAt(0) + name().substring(1).toLowerCase(Locale.ROOT);
        }
    }

    private static final Map<UUID, SignaturePolicy> BY_ID = Stream.of(values())
            .collect(Collectors.toUnmodifiableMap(SignaturePolicy::id, Function.identity()));

    private final UUID id;
    private final String lacunaName;
    private final Family family;
    /** True: level T; false: level B; null: not made by the lab. */
    private final Boolean timestamped;

    SignaturePolicy(String id, String lacunaName, Family family, Boolean timestamped) {
        this.id = UUID.fromString(id);
        this.lacunaName = lacunaName;
        this.family = family;
        this.timestamped = timestamped;
    }

    /** The policy with this id, or null. */
    static SignaturePolicy of(UUID id) {
        return BY_ID.get(id);
    }

    UUID id() {
        return id;
    }

    /** The constant's name in Lacuna's client libraries. */
    String lacunaName() {
        return lacunaName;
    }

    Family family() {
        return family;
    }

    boolean offered() {
        return timestamped != null;
    }

    boolean timestamped() {
        return Boolean.TRUE.equals(timestamped);
    }
}
