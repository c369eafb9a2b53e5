package org.trustload.jmeter.pki;

import org.trustload.pki.CadesSigner;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignOptions;

/** CAdES Sign (TrustLoad): CAdES-BES or CAdES-T, attached or detached, locally or on a signature server. */
public class CadesSignSampler extends AbstractSignSampler {
    private static final long serialVersionUID = 1L;

    private boolean attached = true;

    @Override
    protected String kind() {
        return "CAdES Sign";
    }

    @Override
    protected String format() {
        return "cades";
    }

    @Override
    protected boolean attached() {
        return attached;
    }

    @Override
    protected byte[] signLocally(byte[] document, KeyMaterial key, SignOptions options) throws PkiException {
        return CadesSigner.sign(document, key, options);
    }

    public boolean isAttached() {
        return attached;
    }

    public void setAttached(boolean attached) {
        this.attached = attached;
    }
}
