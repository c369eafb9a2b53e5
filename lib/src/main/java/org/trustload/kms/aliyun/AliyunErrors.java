package org.trustload.kms.aliyun;

import com.aliyun.tea.TeaException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.trustload.common.ClientException;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsException.Category;

/**
 * Maps what the Alibaba KMS instance SDK throws to a {@link KmsException}.
 *
 * <p>The SDK's shapes (0.5.2): a service error is a {@link TeaException} whose code is the service's
 * {@code ErrorCode} and whose data holds {@code httpCode}; a network failure is a
 * {@code TeaRetryableException} around the I/O exception; and whatever the SDK considers retryable
 * ({@code Rejected.Throttling}, network failures) arrives, once its attempts are used up, inside a
 * {@code TeaUnretryableException}. So: look through the cause chain for the first service error or
 * I/O exception.
 */
final class AliyunErrors {
    /** The service's throttling error code. */
    static final String THROTTLING = "Rejected.Throttling";

    /** The shared rungs, then a reply that is no protobuf message (an I/O exception in this SDK). */
    private static final List<KmsException.Rung> LADDER = KmsException.ladder(List.of(), List.of(new KmsException.Rung(
            com.google.protobuf.InvalidProtocolBufferException.class, Category.SERVER_ERROR, "MalformedResponse")));

    private AliyunErrors() {
    }

    static KmsException map(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TeaException te && te.getCode() != null && !te.getCode().isEmpty()) {
                return service(te, e);
            }
            if (t instanceof IOException io) {
                return network(io, e);
            }
        }
        return new KmsException(Category.CLIENT_ERROR, -1, e.getClass().getSimpleName(), e.getMessage(), e);
    }

    private static KmsException service(TeaException te, Throwable original) {
        int status = httpStatus(te);
        String code = te.getCode();
        Category category;
        if (THROTTLING.equals(code) || status == 429) {
            category = Category.LIMIT_EXCEEDED;
        } else if (status >= 500) {
            category = Category.SERVER_ERROR;
        } else {
            category = Category.CLIENT_ERROR;
        }
        Object requestId = te.getData() == null ? null : te.getData().get("requestId");
        String detail = te.getMessage()
                + (requestId == null || "".equals(requestId) ? "" : " (RequestId " + requestId + ")");
        return new KmsException(category, status, code, detail, original);
    }

    private static int httpStatus(TeaException te) {
        Map<String, Object> data = te.getData();
        Object code = data == null ? null : data.get("httpCode");
        if (code == null && te.getStatusCode() != null) {
            return te.getStatusCode();
        }
        try {
            return code == null ? -1 : Integer.parseInt(String.valueOf(code));
        } catch (NumberFormatException ex) {
            return -1;
        }
    }

    private static KmsException network(IOException io, Throwable original) {
        String lower = String.valueOf(io.getMessage()).toLowerCase(Locale.ROOT);
        String message = ClientException.readable(io); // one readable cause for the body
        if (io instanceof SocketTimeoutException
                || (io instanceof InterruptedIOException && lower.contains("timeout"))) {
            String name = lower.contains("connect") ? "ConnectTimeout" : "ReadTimeout";
            return new KmsException(Category.TIMEOUT, -1, name, message, original);
        }
        KmsException k = KmsException.climb(LADDER, io, original);
        if (k != null) {
            return k;
        }
        return new KmsException(Category.CONNECTION_ERROR, -1, io.getClass().getSimpleName(), message, original);
    }
}
