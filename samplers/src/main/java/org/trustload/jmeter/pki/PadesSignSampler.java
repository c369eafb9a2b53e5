package org.trustload.jmeter.pki;

import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PadesSigner;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignOptions;

/** PAdES Sign (TrustLoad): PAdES-B or PAdES-T of a PDF, locally or on a signature server. */
public class PadesSignSampler extends AbstractSignSampler {
    private static final long serialVersionUID = 1L;

    @Override
    protected String kind() {
        return "PAdES Sign";
    }

    @Override
    protected String format() {
        return "pades";
    }

    @Override
    protected boolean attached() {
        return true;
    }

    @Override
    protected byte[] signLocally(byte[] document, KeyMaterial key, SignOptions options) throws PkiException {
        return PadesSigner.sign(document, key, options);
    }
}
