package org.trustload.lab.ldap;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.listener.InMemoryRequestHandler;
import com.unboundid.ldap.listener.InMemorySASLBindHandler;
import com.unboundid.ldap.listener.LDAPListenerClientConnection;
import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.io.IOException;
import java.net.Socket;
import java.util.List;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketCredentials;

/**
 * SASL EXTERNAL for the in-memory server, the way OpenLDAP does it over ldapi: the identity is the
 * connecting process's uid/gid (SO_PEERCRED), mapped to
 * {@code gidNumber=G+uidNumber=U,cn=peercred,cn=external,cn=auth}.
 *
 * <p>Over TCP or TLS there is no peer credential (the lab does not ask for client certificates), so
 * the bind fails with {@code inappropriateAuthentication}.
 */
public final class PeerCredentialsExternalBindHandler extends InMemorySASLBindHandler {

    /** Returns the DN that a peer with this uid and gid authenticates as. */
    public static String peerDn(long uid, long gid) {
        return "gidNumber=" + gid + "+uidNumber=" + uid + ",cn=peercred,cn=external,cn=auth";
    }

    @Override
    public String getSASLMechanismName() {
        return "EXTERNAL";
    }

    @Override
    public BindResult processSASLBind(InMemoryRequestHandler handler, int messageID, DN bindDN,
            ASN1OctetString credentials, List<Control> controls) {
        LDAPListenerClientConnection connection = handler.getClientConnection();
        Socket socket = connection == null ? null : connection.getSocket();
        if (!(socket instanceof AFUNIXSocket)) {
            return failure(messageID, ResultCode.INAPPROPRIATE_AUTHENTICATION,
                    "SASL EXTERNAL is only available over ldapi (Unix socket peer credentials)");
        }
        AFUNIXSocketCredentials peer;
        try {
            peer = ((AFUNIXSocket) socket).getPeerCredentials();
        } catch (IOException e) {
            return failure(messageID, ResultCode.INAPPROPRIATE_AUTHENTICATION, "cannot read peer credentials: " + e);
        }
        if (peer == null || peer.getUid() < 0 || peer.getGid() < 0) {
            return failure(messageID, ResultCode.INAPPROPRIATE_AUTHENTICATION, "no peer credentials on this socket");
        }
        DN dn;
        try {
            dn = new DN(peerDn(peer.getUid(), peer.getGid()));
        } catch (LDAPException e) {
            return failure(messageID, ResultCode.OTHER, e.getMessage());
        }
        // An authorization identity, if given, may only name the identity itself: no proxying in the lab.
        String authzId = credentials == null ? "" : credentials.stringValue();
        if (!authzId.isEmpty() && !isSelf(authzId, dn)) {
            return failure(messageID, ResultCode.AUTHORIZATION_DENIED,
                    "authorization identity '" + authzId + "' is not the peer's own identity " + dn);
        }
        handler.setAuthenticatedDN(dn);
        return new BindResult(messageID, ResultCode.SUCCESS, null, null, null, null);
    }

    private static boolean isSelf(String authzId, DN dn) {
        if (!authzId.regionMatches(true, 0, "dn:", 0, 3)) {
            return false;
        }
        try {
            return new DN(authzId.substring(3)).equals(dn);
        } catch (LDAPException e) {
            return false;
        }
    }

    private static BindResult failure(int messageID, ResultCode rc, String message) {
        return new BindResult(messageID, rc, message, null, null, null);
    }
}
