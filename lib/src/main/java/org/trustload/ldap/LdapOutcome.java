package org.trustload.ldap;

import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.util.ByteStringBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;

/**
 * The successful result of one operation: its result code, the entries a search returned (kept as
 * UnboundID objects; rendered to LDIF only when asked), and a one-line summary.
 */
public final class LdapOutcome {
    private final LdapOperation operation;
    private final ResultCode resultCode;
    private final List<SearchResultEntry> entries;
    private final int entryCount;
    private final String summary;

    LdapOutcome(LdapOperation operation, ResultCode resultCode, List<SearchResultEntry> entries, int entryCount,
            String summary) {
        this.operation = operation;
        this.resultCode = resultCode;
        this.entries = entries == null ? Collections.emptyList() : entries;
        this.entryCount = entryCount;
        this.summary = summary;
    }

    public LdapOperation operation() {
        return operation;
    }

    public ResultCode resultCode() {
        return resultCode;
    }

    /** The result code name in camelCase, e.g. {@code success} or {@code compareTrue}. */
    public String resultName() {
        return LdapClientException.codeName(resultCode);
    }

    /** Number of entries a search returned (0 for other operations). */
    public int entryCount() {
        return entryCount;
    }

    public List<SearchResultEntry> entries() {
        return entries;
    }

    /** One line: "search: 1 entry", "compare: compareTrue", "whoami: dn:cn=admin,...". */
    public String summary() {
        return summary;
    }

    /**
     * A readable body: the summary, then up to {@code maxEntries} entries in LDIF and a note of how
     * many were left out.
     */
    public String render(int maxEntries) {
        return new String(renderUtf8(maxEntries), StandardCharsets.UTF_8);
    }

    /**
     * {@link #render} as UTF-8 bytes, written straight from the entries' values: a sampler stores
     * bytes, and a profile of the per-thread search showed the LDIF string and its re-encoding in
     * every sample.
     */
    public byte[] renderUtf8(int maxEntries) {
        ByteStringBuffer b = new ByteStringBuffer(summary.length() + 1 + 128 * Math.min(maxEntries, entries.size()));
        b.append(summary).append('\n');
        int shown = 0;
        for (SearchResultEntry e : entries) {
            if (shown >= maxEntries) {
                break;
            }
            b.append('\n');
            e.toLDIF(b, 0);
            shown++;
        }
        if (entryCount > shown && shown > 0) {
            b.append("\n# ").append(entryCount - shown).append(" more entries not shown\n");
        }
        return b.toByteArray();
    }
}
