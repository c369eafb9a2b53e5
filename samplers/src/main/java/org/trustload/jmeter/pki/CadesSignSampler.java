package org.trustload.jmeter.pki;

import org.trustload.pki.CadesSigner;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignOptions;
import org.trustload.pki.TimestampSource;

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
    protected byte[] signLocally(byte[] document, KeyMaterial key, String digest, boolean timestamped,
            TimestampSource tsa) throws PkiException {
        SignOptions o = SignOptions.builder().digest(digest).attached(attached)
                .level(timestamped ? SignOptions.Level.T : SignOptions.Level.B).timestampSource(tsa).build();
        return CadesSigner.sign(document, key, o);
    }

    public boolean isAttached() {
        return attached;
    }

    public void setAttached(boolean attached) {
        this.attached = attached;
    }
}
